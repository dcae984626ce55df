// Whether the WebAssembly module is instantiated. The entry that loads it sets `ready`
// (or `error`); api.js reads it before every call, so that a call made too early, through
// tool-palette/init before `ready` settled, is an Error that says what to do.
// (`writer`: set by the Node.js entry only, a faster way for host.js writeNames to copy strings.)
export const state = { ready: false, error: undefined };

// `loading`, recorded in `state` as it settles (and still rejecting when it fails).
export const track = (loading) =>
  loading.then(
    () => {
      state.ready = true;
    },
    (error) => {
      state.error = error;
      throw error;
    },
  );
