// The single file for CDNs and <script src> tags (tool-palette.iife.js, global `ToolPalette`):
// scripts/build.mjs bundles this with the glue, api.js and the inline copy of the wasm, so
// nothing else is fetched. The module is compiled asynchronously; `ToolPalette.ready`
// settles when it is done, and a call made before throws an Error that says to await it.
import initWasm from "./tool_palette.js";
import { bytes } from "./wasm-inline.js";
import { track } from "./state.js";

export * from "./api.js";
export const ready = track(initWasm({ module_or_path: bytes() }));
export const init = () => ready;
