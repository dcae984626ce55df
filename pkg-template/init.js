// tool-palette/init in browsers and bundlers: the whole API plus `ready`, a promise started
// at import, and `init()`, which returns it. Evaluating this module never awaits, so it
// loads where top-level await cannot (a <script type="module"> that must not block,
// esbuild's iife and CommonJS bundles, Parcel's dev server, a Vite worker's iife bundle). A
// call made before `ready` settles throws an Error that says to await it; when the module
// cannot load (a network failure, a Content-Security-Policy without 'wasm-unsafe-eval'),
// `ready` rejects. This file serves native ES modules and bundlers that emit no .wasm
// (esbuild, Rollup): the base64 copy is used where no .wasm is beside the bundle;
// init-asset.js serves the bundlers that emit it (the `production`/`development` conditions).
import { track } from "./state.js";
import { load } from "./load.js";

export * from "./api.js";
export const ready = track(load(() => import("./wasm-inline.js").then((inline) => inline.bytes())));
export const init = () => ready;
