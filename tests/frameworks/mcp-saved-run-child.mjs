// A new process for mcp-skills.test.mjs: connects the scenario's servers anew (skill-servers.mjs), restores a
// tool-palette/mcp run from the saved form it is given and routes one turn; prints what the turn offers, lists,
// sends and says, and the run's saved form after it. argv: the consumer project's folder, the message, the saved run.
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { loadSdk } from "./mcp-servers.mjs";
import { crmAndBilling, skillOptions } from "./skill-servers.mjs";

const [dir, message, saved] = process.argv.slice(2);
const { load } = await import(pathToFileURL(join(dir, "load.mjs")).href);
const sdk = await loadSdk(load);
const { servers } = await crmAndBilling(sdk, (await load("zod")).z);
const mcp = await load("tool-palette/mcp");
const run = mcp.createMcpPalette({ ...skillOptions(servers), cache: "append" }).run({ saved });
const turn = await run.route(message);
const { routing, servers: _servers, definitions, ...report } = turn.report;
process.stdout.write(JSON.stringify({ report, tools: turn.tools.map((t) => t.name), instructions: turn.instructions, saved: run.save() }));
process.exit(0);
