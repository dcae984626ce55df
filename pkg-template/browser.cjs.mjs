// require() under the `browser` condition (Jest's jsdom environment, webpack's and
// Browserify's require()): scripts/build.mjs bundles this into browser.cjs with the glue,
// api.js and the inline copy of the wasm. CommonJS cannot wait, so the module is
// instantiated synchronously where the runtime allows it (jsdom, Node, workers), and
// asynchronously where it does not (Chrome refuses to compile more than 4 KB
// synchronously on a page's main thread); `ready` settles when it is done.
import initWasm, { initSync } from "./tool_palette.js";
import { bytes } from "./wasm-inline.js";
import { started, track } from "./state.js";

export * from "./api.js";

function start() {
  const module = bytes();
  try {
    started(initSync({ module }));
    return Promise.resolve();
  } catch {
    return track(initWasm({ module_or_path: module }));
  }
}

export const ready = start();
export const init = () => ready;
