// Node.js, Deno and Bun (ESM); scripts/build.mjs bundles this file, the glue, api.js and
// wasm-inline.js into one module. The wasm comes from wasm-inline.js, a base64 copy in a
// JavaScript module, and is instantiated synchronously: no file is read and nothing is
// awaited, so the package keeps working when a bundler for Node folds it into one file
// (esbuild --platform=node, ESM or CommonJS; bun build; ncc; webpack target node).
import { initSync } from "./tool_palette.js";
import base64, { bytes } from "./wasm-inline.js";
import { started, state } from "./state.js";

started(initSync({ module: globalThis.Buffer?.from(base64, "base64") ?? bytes() }));
// host.js `writeBatch`: a string into the wasm memory `buffer` at byte `at`, by Buffer's
// native UTF-16LE write (Node, Bun and Deno 2 have a global Buffer; without one, host.js's
// loop does it).
if (globalThis.Buffer) {
  state.writer = (buffer) => {
    const bytes = globalThis.Buffer.from(buffer);
    return (s, at) => bytes.write(s, at, "utf16le");
  };
}

export * from "./api.js";
/** Settled already: the module is instantiated synchronously on import. */
export const ready = Promise.resolve();
export const init = () => ready;
