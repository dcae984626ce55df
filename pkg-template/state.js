// Whether the WebAssembly module is instantiated, and its exports (`wasm`: the door reads
// its stack pointer). The entry that loads it calls `started` (or `track`s the loading);
// host.js reads it before every call, so that a call made too early, through
// tool-palette/init before `ready` settled, is an Error that says what to do.
// (`writer`: set by the Node.js entry only, a faster way for host.js `put` to copy strings.)
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
