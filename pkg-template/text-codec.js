// TextEncoder and TextDecoder for environments that lack them (Jest's jsdom environment
// has neither): scripts/build.mjs injects these in place of the globals into the
// CommonJS builds (esbuild `inject`). Where the globals exist they are used as they are;
// otherwise UTF-8 is encoded and decoded here by hand, as the Encoding Standard says
// (unpaired surrogates and malformed bytes become U+FFFD). No eval, no new Function.

const REPLACEMENT = 0xfffd;

class Utf8Encoder {
  get encoding() {
    return "utf-8";
  }

  encode(input = "") {
    const text = String(input);
    const out = new Uint8Array(text.length * 3);
    return out.slice(0, this.encodeInto(text, out).written);
  }

  encodeInto(input, into) {
    const text = String(input);
    let read = 0;
    let written = 0;
    while (read < text.length) {
      let c = text.charCodeAt(read);
      let units = 1;
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = read + 1 < text.length ? text.charCodeAt(read + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          units = 2;
        } else {
          c = REPLACEMENT;
        }
      }
      const size = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      if (written + size > into.length) break;
      if (size === 1) {
        into[written++] = c;
      } else if (size === 2) {
        into[written++] = 0xc0 | (c >> 6);
        into[written++] = 0x80 | (c & 0x3f);
      } else if (size === 3) {
        into[written++] = 0xe0 | (c >> 12);
        into[written++] = 0x80 | ((c >> 6) & 0x3f);
        into[written++] = 0x80 | (c & 0x3f);
      } else {
        into[written++] = 0xf0 | (c >> 18);
        into[written++] = 0x80 | ((c >> 12) & 0x3f);
        into[written++] = 0x80 | ((c >> 6) & 0x3f);
        into[written++] = 0x80 | (c & 0x3f);
      }
      read += units;
    }
    return { read, written };
  }
}

class Utf8Decoder {
  #fatal;
  #ignoreBOM;

  constructor(label = "utf-8", options = {}) {
    if (!/^\s*(utf-?8|unicode-1-1-utf-8)\s*$/i.test(String(label))) {
      throw new RangeError(`tool-palette's TextDecoder fallback decodes UTF-8 only, not ${label}`);
    }
    this.#fatal = Boolean(options?.fatal);
    this.#ignoreBOM = Boolean(options?.ignoreBOM);
  }

  get encoding() {
    return "utf-8";
  }

  get fatal() {
    return this.#fatal;
  }

  get ignoreBOM() {
    return this.#ignoreBOM;
  }

  decode(input) {
    if (input === undefined) return "";
    const bytes =
      input instanceof Uint8Array
        ? input
        : ArrayBuffer.isView(input)
          ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
          : new Uint8Array(input);
    const n = bytes.length;
    let i = !this.#ignoreBOM && n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    let out = "";
    const units = [];
    const bad = () => {
      if (this.#fatal) throw new TypeError("The encoded data was not valid UTF-8");
      units.push(REPLACEMENT);
    };
    while (i < n) {
      const b = bytes[i++];
      if (b < 0x80) {
        units.push(b);
      } else {
        let need;
        let c;
        let lower = 0x80;
        let upper = 0xbf;
        if (b >= 0xc2 && b <= 0xdf) {
          need = 1;
          c = b & 0x1f;
        } else if (b >= 0xe0 && b <= 0xef) {
          need = 2;
          c = b & 0x0f;
          if (b === 0xe0) lower = 0xa0;
          if (b === 0xed) upper = 0x9f;
        } else if (b >= 0xf0 && b <= 0xf4) {
          need = 3;
          c = b & 0x07;
          if (b === 0xf0) lower = 0x90;
          if (b === 0xf4) upper = 0x8f;
        } else {
          bad();
          continue;
        }
        let complete = true;
        for (let k = 0; k < need; k++) {
          // A byte that does not continue the sequence ends it and is decoded on its own.
          if (i >= n || bytes[i] < lower || bytes[i] > upper) {
            complete = false;
            break;
          }
          c = (c << 6) | (bytes[i++] & 0x3f);
          lower = 0x80;
          upper = 0xbf;
        }
        if (!complete) {
          bad();
          continue;
        }
        if (c >= 0x10000) {
          c -= 0x10000;
          units.push(0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff));
        } else {
          units.push(c);
        }
      }
      if (units.length >= 4096) {
        out += String.fromCharCode.apply(null, units);
        units.length = 0;
      }
    }
    return out + String.fromCharCode.apply(null, units);
  }
}

const TextEncoderOrFallback = typeof globalThis.TextEncoder === "function" ? globalThis.TextEncoder : Utf8Encoder;
const TextDecoderOrFallback = typeof globalThis.TextDecoder === "function" ? globalThis.TextDecoder : Utf8Decoder;

export { TextEncoderOrFallback as TextEncoder, TextDecoderOrFallback as TextDecoder, Utf8Encoder, Utf8Decoder };
