// A new process for saved-runs.test.mjs: plays the scenario's second turn with an adapter restored from the
// saved run it is given, over the host's history (rebuilt by replaying the first turn with a throwaway
// instance: the mock models answer the same), and prints what the model was sent and the steps' reports.
// argv: the consumer project's folder, the adapter, the saved run.
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { drivers, loadAll } from "./skills-fixtures.mjs";
import { OPTIONS, TURNS, facts } from "./saved-runs-scenario.mjs";

const [dir, name, saved] = process.argv.slice(2);
const { load } = await import(pathToFileURL(join(dir, "load.mjs")).href);
const play = drivers(await loadAll(load))[name];
const reports = [];
const restored = play.make({ ...OPTIONS, saved, onDecision: (r) => reports.push(r) });
const { sent, outputs } = await play.play(play.make(OPTIONS), [TURNS[0], { ...TURNS[1], palette: restored }]);
const first = sent.length - reports.length;
process.stdout.write(JSON.stringify({ sent: sent.slice(first), outputs: outputs.slice(1), reports: reports.map(facts), saved: restored.save() }));
