// How browsers get the module: fetched from beside the entry, where native ES modules find
// it and bundlers that follow `new URL(…, import.meta.url)` emit it as an asset.
import initWasm from "./tool_palette.js";

// "\0asm": tells a real wasm from an HTML fallback page served with status 200.
const isWasm = (bytes) => bytes[0] === 0x00 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d;

// The wasm's URL, or undefined where no .wasm can be. `onlyIfThere`: bundlers that emit no
// asset leave the URL pointing beside their bundle, where nothing is: it is used only when
// a bundler rewrote it, or from the package's own init.js (native ES modules, a CDN).
function wasmUrl(onlyIfThere) {
  try {
    const url = new URL("./tool_palette_bg.wasm", import.meta.url);
    if (!onlyIfThere) return url;
    const self = new URL(import.meta.url);
    const rewritten = url.origin !== self.origin || url.pathname !== self.pathname.replace(/[^/]*$/, "tool_palette_bg.wasm");
    return rewritten || /\/init\.js$/.test(self.pathname) ? url : undefined;
  } catch {
    // No import.meta.url (esbuild's iife and CommonJS formats).
    return undefined;
  }
}

// An `application/wasm` response compiles while it downloads; any other is read whole and
// used if it is a wasm module (not an HTML fallback page served with 200).
async function fetched(url) {
  const response = await fetch(url);
  if (response.ok && /^application\/wasm\b/i.test(response.headers.get("content-type"))) return response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (response.ok && isWasm(bytes)) return bytes;
  throw new Error(`tool-palette: no WebAssembly module at ${url} (HTTP ${response.status})`);
}

// The asset entry where the bundler emitted no asset (Rollup's node-resolve with
// `browser: true` sets `production` without emitting assets).
const unemitted = (cause) =>
  new Error("tool-palette: the bundler did not emit tool_palette_bg.wasm beside the bundle (the `production`/`development` condition selected the entry that fetches it as an asset); add an asset plugin (Rollup: importMetaAssets() from @web/rollup-plugin-import-meta-assets)", { cause });

// `inline`: where the bytes come from when no .wasm is beside the bundle (an import of the
// base64 copy, which a code-splitting bundler fetches only then); without it (the asset
// entries), the bundle carries one copy of the module: the asset.
export async function load(inline) {
  // workerd fetches nothing and compiles no wasm from bytes outside a request: a bundle
  // that reached this file instead of workerd.js would hang; say what to do instead.
  if (globalThis.navigator?.userAgent === "Cloudflare-Workers") {
    throw new Error("tool-palette: Cloudflare Workers need the package's `workerd` export condition (wrangler sets it; esbuild: --conditions=workerd --loader:.wasm=copy)");
  }
  const url = wasmUrl(Boolean(inline));
  let module_or_path;
  if (url) {
    try {
      module_or_path = await fetched(url);
    } catch (error) {
      // No fetch for this URL scheme (file: under Node), a network error, a 404.
      if (!inline) throw wasmUrl(true) ? error : unemitted(error);
    }
  }
  return initWasm({ module_or_path: module_or_path ?? (await inline()) });
}
