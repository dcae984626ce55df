// Cloudflare Workers: wrangler hands the .wasm import over as a compiled
// WebAssembly.Module, which is instantiated synchronously (workerd compiles no wasm
// from bytes at run time).
import { initSync } from "./tool_palette.js";
import module from "./tool_palette_bg.wasm";
import { started } from "./state.js";

started(initSync({ module }));

export * from "./api.js";
/** Settled already: the module is instantiated synchronously on import. */
export const ready = Promise.resolve();
export const init = () => ready;
