// Browsers and bundlers: the wasm is fetched beside this file (bundlers see the
// `new URL(…, import.meta.url)` in the glue and emit it as an asset), compiled
// asynchronously, and ready before the module finishes loading.
import init from "./tool_palette.js";

await init();

export * from "./api.js";
