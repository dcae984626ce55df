// Every warning of the package's: to `onWarning`, else Node's `process.emitWarning` (looked
// up at call time; one that throws, as the Next.js Edge Runtime's does), else `console.warn`.
export function deliver(warning, onWarning) {
  if (onWarning) return void onWarning(warning);
  const proc = globalThis.process;
  if (proc && typeof proc.emitWarning === "function") {
    try { return void proc.emitWarning(warning); } catch {} // not supported here: console.warn below
  }
  globalThis.console?.warn?.(`${warning.name}: ${warning.message}`);
}
