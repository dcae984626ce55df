// @ts-check
// Whether the WebAssembly module is instantiated and its exports (the door reads its stack
// pointer), set by the entry that loads it (`started`, `track`); `writer`: the Node.js
// entry's faster way for host.js `writeBatch` to copy strings.
/** @typedef {import("./tool_palette.js").InitOutput & { __stack_pointer: WebAssembly.Global }} Exports */
/** @type {{ ready: boolean, error: unknown, wasm: Exports, writer?: (buffer: ArrayBufferLike) => ((s: string, at: number) => void) }} `wasm`: read once `ready` */
export const state = { ready: false, error: undefined, wasm: /** @type {any} */ (undefined) };

/** @param {Exports} exports */
export function started(exports) {
  state.wasm = exports;
  state.ready = true;
}

// `loading` (of the exports), recorded in `state` as it settles (and still rejecting when
// it fails).
/** @param {Promise<Exports>} loading */
export const track = (loading) =>
  loading.then(started, (error) => {
    state.error = error;
    throw error;
  });
