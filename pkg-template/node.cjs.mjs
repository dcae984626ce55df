// Node.js, CommonJS: scripts/build.mjs bundles this into node.cjs with the glue and api.js.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { initSync } from "./tool_palette.js";

initSync({ module: readFileSync(join(__dirname, "tool_palette_bg.wasm")) });

export * from "./api.js";
