// The default entry under bundlers that emit the .wasm as an asset (see init-asset.js):
// init-asset.js with its `ready` awaited at top level, as browser.js does over init.js.
import { ready } from "./init-asset.js";

await ready;

export * from "./init-asset.js";
