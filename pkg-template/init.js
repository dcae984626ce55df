// tool-palette/init in browsers and bundlers: the API, `ready` (started at import) and
// `init()`; it never awaits (iife and CommonJS bundles, Vite workers). The base64 copy is
// used where no .wasm is beside the bundle (init-asset.js serves bundlers that emit it).
import { track } from "./state.js";
import { load } from "./load.js";

export * from "./api.js";
export const ready = track(load(() => import("./wasm-inline.js").then((inline) => inline.bytes())));
export const init = () => ready;
