// tool-palette/init under bundlers that emit the .wasm as an asset and rewrite its URL:
// Vite, webpack and Parcel, told apart by the `production`/`development` conditions they set
// (esbuild sets neither; Rollup's node-resolve sets one, and with `browser: true` needs an
// asset plugin, see the README). The asset is the one copy of the module in the bundle:
// no base64 fallback rides along (an iife bundle, such as a Vite worker's, would inline it).
// Otherwise as init.js.
import { track } from "./state.js";
import { load } from "./load.js";

export * from "./api.js";
export const ready = track(load());
export const init = () => ready;
