// tool-palette/init under bundlers that emit the .wasm as an asset (Vite, webpack, Parcel:
// the `production`/`development` conditions), the one copy of the module in the bundle:
// no base64 fallback rides along. Otherwise as init.js.
import { track } from "./state.js";
import { load } from "./load.js";

export * from "./api.js";
export const ready = track(load());
export const init = () => ready;
