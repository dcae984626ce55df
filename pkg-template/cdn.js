// The single file for CDNs and <script src> (tool-palette.iife.js, global `ToolPalette`),
// the wasm inline; `ToolPalette.ready` settles once it is compiled.
import initWasm from "./tool_palette.js";
import { bytes } from "./wasm-inline.js";
import { track } from "./state.js";

export * from "./api.js";
export const ready = track(initWasm({ module_or_path: bytes() }));
export const init = () => ready;
