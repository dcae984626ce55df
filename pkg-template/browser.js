// Browsers and bundlers, the default entry: the module is ready before the importer's
// code runs (top-level await, see load.js), so users never call an init function. Where
// top-level await cannot be used (a <script> tag, iife and CommonJS bundles, Parcel's dev
// server), tool-palette/init (init.js) loads the same way behind a `ready` promise.
import { state } from "./state.js";
import { load } from "./load.js";

await load();
state.ready = true;

export * from "./api.js";
/** Settled already: the module is loaded before this entry finishes evaluating. */
export const ready = Promise.resolve();
export const init = () => ready;
