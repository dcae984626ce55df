// Browsers and bundlers, the default entry: tool-palette/init with its `ready` awaited at
// top level, so users never call an init function; both subpaths share one instance.
import { ready } from "./init.js";

await ready;

export * from "./init.js";
