// The Node entries evaluated in a bare realm (a vm context: the language and WebAssembly,
// no atob, Buffer, process or Uint8Array.fromBase64), on every Node line the package is
// tested on: the inline wasm is decoded by the package's own code and a turn runs.
// node.cjs carries its own TextEncoder/TextDecoder fallback and is given nothing; node.mjs
// imports the wasm-bindgen glue unbundled, which needs the platform's TextEncoder and
// TextDecoder, and is given those two.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { NODES } from "../../scripts/node-versions/nodes.mjs";
import { DIST, FIXTURES, run } from "./lib/harness.mjs";

const EVALUATE = join(FIXTURES, "realm", "evaluate.mjs");
const EXPECTED = {
  bare: ["undefined", "undefined", "undefined", "undefined", "undefined"],
  matches: true,
  names: ["web_search", "calendar_lookup"],
  reason: "no procedural layer registered; allowing all tools",
};

for (const node of NODES) {
  test(`Node ${node.major}: node.cjs in a vm context with nothing of the host, and node.mjs with TextEncoder/TextDecoder only`, async () => {
    assert.ok(node.installed, `${node.path} is not installed: run bash scripts/setup.sh`);
    const cjs = await run(node.path, [EVALUATE, DIST, "cjs"]);
    assert.deepStrictEqual(JSON.parse(cjs.stdout), EXPECTED, "node.cjs in a bare realm");
    const esm = await run(node.path, ["--experimental-vm-modules", "--no-warnings", EVALUATE, DIST, "esm", "TextEncoder", "TextDecoder"]);
    assert.deepStrictEqual(JSON.parse(esm.stdout), EXPECTED, "node.mjs in a bare realm");
  });
}
