// Browsers and bundlers. The wasm is fetched from beside this file: native ES modules
// find it there, and bundlers that follow `new URL(…, import.meta.url)` (Vite, webpack,
// Parcel) emit it as an asset and rewrite the URL. Bundlers that do not (esbuild, Rollup
// without a plugin) leave a URL with no wasm behind it; then the bytes come from
// wasm-inline.js, a base64 copy loaded only in that case: a code-splitting bundler puts
// it in a chunk that is never downloaded when the fetch works, esbuild without
// --splitting inlines it into the bundle. Either way the module is ready before the
// importer's code runs (top-level await), so users never call an init function.
import init from "./tool_palette.js";

// "\0asm": tells a real wasm from an HTML fallback page served with status 200.
const isWasm = (bytes) => bytes[0] === 0x00 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d;

async function fetched() {
  try {
    const response = await fetch(new URL("./tool_palette_bg.wasm", import.meta.url));
    if (!response.ok) return undefined;
    const bytes = new Uint8Array(await response.arrayBuffer());
    return isWasm(bytes) ? bytes : undefined;
  } catch {
    // No fetch for this URL scheme (file: under Node), a network error, or no import.meta.url.
    return undefined;
  }
}

async function inlined() {
  const { default: base64 } = await import("./wasm-inline.js");
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

await init({ module_or_path: (await fetched()) ?? (await inlined()) });

export * from "./api.js";
