// How browsers get the module, shared by browser.js (top-level await) and init.js (a
// `ready` promise). The wasm is fetched from beside the entry: native ES modules find it
// there, and bundlers that follow `new URL(…, import.meta.url)` (Vite, webpack, Parcel)
// emit it as an asset and rewrite the URL. A response served as `application/wasm` is
// compiled while it downloads (WebAssembly.instantiateStreaming); any other answer is
// read whole and used if it is a wasm module. Bundlers that emit no asset (esbuild,
// Rollup without a plugin) leave a URL with no wasm behind it: then the bytes come from
// wasm-inline.js, a base64 copy loaded only in that case (a code-splitting bundler puts it
// in a chunk that is never downloaded when the fetch works).
import initWasm from "./tool_palette.js";

// "\0asm": tells a real wasm from an HTML fallback page served with status 200.
const isWasm = (bytes) => bytes[0] === 0x00 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d;

async function fetched() {
  try {
    const response = await fetch(new URL("./tool_palette_bg.wasm", import.meta.url));
    if (!response.ok) return undefined;
    if (/^application\/wasm\b/i.test(response.headers.get("content-type") ?? "")) return response;
    const bytes = new Uint8Array(await response.arrayBuffer());
    return isWasm(bytes) ? bytes : undefined;
  } catch {
    // No fetch for this URL scheme (file: under Node), a network error, or no import.meta.url.
    return undefined;
  }
}

export async function load() {
  // workerd fetches nothing and compiles no wasm from bytes outside a request: a bundle
  // that reached this file instead of workerd.js would hang; say what to do instead.
  if (globalThis.navigator?.userAgent === "Cloudflare-Workers") {
    throw new Error("tool-palette: Cloudflare Workers need the package's `workerd` export condition (wrangler sets it; esbuild: --conditions=workerd --loader:.wasm=copy)");
  }
  const module_or_path = (await fetched()) ?? (await import("./wasm-inline.js")).bytes();
  await initWasm({ module_or_path });
}
