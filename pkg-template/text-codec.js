// TextDecoder for environments that lack it (Jest's jsdom environment): scripts/build.mjs
// injects this in place of the global into the CommonJS builds (esbuild `inject`), where
// the wasm-bindgen glue creates one at load. Where the global exists it is used as it is.
// The module sends the glue only its own texts (its internal errors, `explain`'s keys),
// always well-formed UTF-8, which this decodes; no name ever crosses as UTF-8.
export class Utf8Decoder {
  decode(bytes = new Uint8Array(0)) {
    let out = "";
    for (let i = 0; i < bytes.length; ) {
      const b = bytes[i++];
      const n = b < 0x80 ? 0 : b < 0xe0 ? 1 : b < 0xf0 ? 2 : 3;
      let c = n === 0 ? b : b & (0x3f >> n);
      for (let k = 0; k < n; k++) c = (c << 6) | (bytes[i++] & 0x3f);
      out += String.fromCodePoint(c);
    }
    return out;
  }
}

const TextDecoderOrFallback = globalThis.TextDecoder ?? Utf8Decoder;
export { TextDecoderOrFallback as TextDecoder };
