// Whether the WebAssembly module is instantiated and its exports (the door reads its stack
// pointer), set by the entry that loads it (`started`, `track`); `writer`: the Node.js
// entry's faster way for host.js `put` to copy strings.
export const state = { ready: false, error: undefined, wasm: undefined };

export function started(exports) {
  state.wasm = exports;
  state.ready = true;
}

// `loading` (of the exports), recorded in `state` as it settles (and still rejecting when
// it fails).
export const track = (loading) =>
  loading.then(started, (error) => {
    state.error = error;
    throw error;
  });
