// One delivery for every warning of the package, the core's (host.js) and the framework
// adapters' (adapters/shared.js): the caller's `onWarning`, else Node's
// `process.emitWarning` (so --no-warnings and process.on("warning") apply), else
// `console.warn`. `process` is looked up at call time, never at import.
// (An emitWarning that throws, as the Next.js Edge Runtime's does, falls back too.)
export function deliver(warning, onWarning) {
  if (onWarning) return void onWarning(warning);
  const proc = globalThis.process;
  if (proc && typeof proc.emitWarning === "function") {
    try {
      return void proc.emitWarning(warning);
    } catch {
      // not supported here: console.warn below
    }
  }
  globalThis.console?.warn?.(`${warning.name}: ${warning.message}`);
}
