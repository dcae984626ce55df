// Cloudflare Workers: wrangler hands the .wasm import over as a compiled
// WebAssembly.Module, which is instantiated synchronously.
import { initSync } from "./tool_palette.js";
import module from "./tool_palette_bg.wasm";

initSync({ module });

export * from "./api.js";
