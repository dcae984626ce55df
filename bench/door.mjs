// What the door's guards cost (issue 39): every public call opens a call of the module's
// heap and closes it (src/js/mod.rs `open`, `close`: two calls into the module), so that a
// call the JavaScript stack cut short inside the module is rolled back. Timed here apart
// from everything else, on the instance the package uses (the unbundled entry), in a fresh
// process: `node bench/door.mjs` prints one JSON line, nanoseconds per public call.
import { fileURLToPath } from "node:url";

const dist = (f) => fileURLToPath(new URL(`../dist/${f}`, import.meta.url));
await import(dist("node-modules.mjs"));
const { open, close } = await import(dist("tool_palette.js"));

const N = 1_000_000;
const time = (f) => {
  for (let i = 0; i < 10_000; i++) f();
  const t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) f();
  return Number(process.hrtime.bigint() - t) / N;
};
const samples = [];
for (let round = 0; round < 5; round++) samples.push(time(() => close(open(true), false)));
samples.sort((a, b) => a - b);
console.log(JSON.stringify({ openCloseNs: samples[2] }));
