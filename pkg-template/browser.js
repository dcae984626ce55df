// Browsers and bundlers, the default entry: tool-palette/init (init.js) with its `ready`
// awaited at top level, so the module is loaded before the importer's code runs and
// users never call an init function. One instance behind both subpaths: an app (or an
// adapter) that imports tool-palette and another that imports tool-palette/init share
// the module. Where top-level await cannot be used (a <script> tag, iife and CommonJS
// bundles, Parcel's dev server), import tool-palette/init and await `ready` yourself.
import { ready } from "./init.js";

await ready;

export * from "./init.js";
