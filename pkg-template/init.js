// tool-palette/init in browsers and bundlers: the API plus `ready` (started at import; it
// rejects when the module cannot load) and `init()`. It never awaits, so it loads where
// top-level await cannot (iife and CommonJS bundles, Parcel's dev server, Vite workers).
// For native ES modules and bundlers that emit no .wasm: the base64 copy is used where no
// .wasm is beside the bundle (init-asset.js serves the bundlers that emit it).
import { track } from "./state.js";
import { load } from "./load.js";

export * from "./api.js";
export const ready = track(load(() => import("./wasm-inline.js").then((inline) => inline.bytes())));
export const init = () => ready;
