// @ts-check
// Every warning of the package's: to `onWarning`, else Node's `process.emitWarning` (looked
// up at call time; one that throws, as the Next.js Edge Runtime's does), else `console.warn`.
//
// Cloudflare Workers with `nodejs_compat` have a `process.emitWarning` too, but workerd prints
// nothing it emits: only a `process.on("warning")` listener sees it. There (workerd says who it
// is in `navigator.userAgent`, with or without nodejs_compat) a warning is emitted only to a
// Worker that listens, and otherwise goes to `console.warn`, as in a Worker without `process`.
export function deliver(warning, onWarning) {
  if (onWarning) return void onWarning(warning);
  const proc = globalThis.process;
  if (proc && typeof proc.emitWarning === "function" && (!isWorkerd() || listens(proc))) {
    try { return void proc.emitWarning(warning); } catch {} // not supported here: console.warn below
  }
  globalThis.console?.warn?.(`${warning.name}: ${warning.message}`);
}

const isWorkerd = () => globalThis.navigator?.userAgent === "Cloudflare-Workers";

function listens(proc) {
  try {
    return proc.listenerCount("warning") > 0;
  } catch {
    return false; // a process without listenerCount: nothing can listen
  }
}
