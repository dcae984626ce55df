// TextDecoder where the global is missing (Jest's jsdom), injected into the CommonJS builds
// (scripts/build.mjs), where the glue makes one at load: it decodes only the module's own
// texts (wasm-bindgen's internal errors), well-formed UTF-8, and refuses other encodings.
export class Utf8Decoder {
  constructor(label = "utf-8") { if (!/^utf-?8$/i.test(label)) throw new RangeError(`this TextDecoder decodes UTF-8 only, not ${label}`); }
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
