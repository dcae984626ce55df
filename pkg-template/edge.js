// Edge runtimes that compile no wasm from bytes (Next.js and Vercel's Edge Runtime, the
// `edge-light` condition; Nitro's Workers builds with `experimental.wasm`, the `unwasm` and
// `workerd` conditions, e.g. Nuxt 4 on Cloudflare): the bundler hands `.wasm?module` over
// as a compiled WebAssembly.Module, as wrangler does for workerd.js's plain `.wasm` (which
// unwasm would instantiate itself, without the module's imports), and it is instantiated
// synchronously.
import { initSync } from "./tool_palette.js";
import module from "./tool_palette_bg.wasm?module";
import { started } from "./state.js";

started(initSync({ module }));

export * from "./api.js";
/** Settled already: the module is instantiated synchronously on import. */
export const ready = Promise.resolve();
export const init = () => ready;
