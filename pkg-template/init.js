// tool-palette/init in browsers and bundlers: the whole API plus `ready`, a promise started
// at import, and `init()`, which returns it. Evaluating this module never awaits, so it
// loads where top-level await cannot (a <script type="module"> that must not block,
// esbuild's iife and CommonJS bundles, Parcel's dev server). A call made before `ready`
// settles throws an Error that says to await it; when the module cannot load (a network
// failure, a Content-Security-Policy without 'wasm-unsafe-eval'), `ready` rejects.
import { track } from "./state.js";
import { load } from "./load.js";

export * from "./api.js";
export const ready = track(load());
export const init = () => ready;
