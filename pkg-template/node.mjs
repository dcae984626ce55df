// Node.js, ESM: the wasm is read from beside this file and instantiated synchronously.
import { readFileSync } from "node:fs";
import { initSync } from "./tool_palette.js";

initSync({ module: readFileSync(new URL("./tool_palette_bg.wasm", import.meta.url)) });

export * from "./api.js";
