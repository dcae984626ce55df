//! The boundary buffers. The package's JavaScript writes a turn's names (UTF-16 code
//! units) and numbers straight into these buffers in wasm memory, calls one function,
//! and reads the answer from the output buffer: no allocation, no copy and no string
//! conversion per call. Each call that reads them finishes before JavaScript writes them
//! again (no caller code runs in between), so one set serves every call, nested or not.

use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
#[derive(Default)]
pub struct Buffers {
    units: Vec<u16>,
    words: Vec<u32>,
    bytes: Vec<u8>,
    out: Vec<u32>,
}

#[wasm_bindgen]
impl Buffers {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Buffers {
        Buffers::default()
    }

    /// Makes room for `len` code units and returns where they go.
    pub fn units_at(&mut self, len: u32) -> u32 {
        self.units.clear();
        self.units.resize(len as usize, 0);
        self.units.as_ptr() as u32
    }

    /// Makes room for `len` bytes of UTF-8 and returns where they go.
    pub fn bytes_at(&mut self, len: u32) -> u32 {
        self.bytes.clear();
        self.bytes.resize(len as usize, 0);
        self.bytes.as_ptr() as u32
    }

    /// Decodes the first `len` bytes (UTF-8 from `TextEncoder.encodeInto`, which the
    /// package uses for well-formed text: one native call instead of a JavaScript loop
    /// per code unit) into the code units, which must come to exactly `units`.
    /// Returns `false` when they do not (the caller then writes code units itself).
    pub fn decode_bytes(&mut self, len: u32, units: u32) -> bool {
        self.units.clear();
        self.units.resize(units as usize, 0);
        let bytes = self.bytes.get(..len as usize).unwrap_or(&[]);
        decode_utf8(bytes, &mut self.units)
    }

    /// Makes room for `len` numbers and returns where they go.
    pub fn words_at(&mut self, len: u32) -> u32 {
        self.words.clear();
        self.words.resize(len as usize, 0);
        self.words.as_ptr() as u32
    }
}

impl Buffers {
    /// Runs `f` over what JavaScript wrote and stores its answer in the output buffer:
    /// returns where the answer starts; its first number is the answer's length.
    pub fn answer(&mut self, f: impl FnOnce(&[u16], &[u32], &mut Vec<u32>)) -> u32 {
        let out = &mut self.out;
        out.clear();
        out.push(0);
        f(&self.units, &self.words, out);
        out[0] = out.len() as u32;
        out.as_ptr() as u32
    }

    /// Reads what JavaScript wrote, with no output.
    pub fn read<T>(&self, f: impl FnOnce(&[u16], &[u32]) -> T) -> T {
        f(&self.units, &self.words)
    }
}

/// UTF-8 to UTF-16, exactly: every scalar value becomes its one or two code units.
/// Fills `out` and returns whether the bytes were UTF-8 (as `TextEncoder` always
/// writes) that came to exactly `out.len()` code units.
fn decode_utf8(bytes: &[u8], out: &mut [u16]) -> bool {
    let (mut i, mut k) = (0, 0);
    while i < bytes.len() {
        // Runs of ASCII, the usual tool name, in one tight loop.
        let run = bytes[i..].iter().take_while(|&&b| b < 0x80).count();
        let Some(dst) = out.get_mut(k..k + run) else {
            return false;
        };
        for (d, &b) in dst.iter_mut().zip(&bytes[i..i + run]) {
            *d = u16::from(b);
        }
        (i, k) = (i + run, k + run);
        let Some(&b) = bytes.get(i) else { break };
        let (len, init) = match b {
            0xC2..=0xDF => (2, u32::from(b & 0x1F)),
            0xE0..=0xEF => (3, u32::from(b & 0x0F)),
            0xF0..=0xF4 => (4, u32::from(b & 0x07)),
            _ => return false,
        };
        let Some(tail) = bytes.get(i + 1..i + len) else {
            return false;
        };
        let mut c = init;
        for &t in tail {
            if t & 0xC0 != 0x80 {
                return false;
            }
            c = c << 6 | u32::from(t & 0x3F);
        }
        let pair;
        let code: &[u16] = if c <= 0xFFFF {
            pair = [c as u16, 0];
            &pair[..1]
        } else {
            let c = c - 0x1_0000;
            pair = [0xD800 | (c >> 10) as u16, 0xDC00 | (c & 0x3FF) as u16];
            &pair
        };
        let Some(dst) = out.get_mut(k..k + code.len()) else {
            return false;
        };
        dst.copy_from_slice(code);
        (i, k) = (i + len, k + code.len());
    }
    k == out.len()
}

#[cfg(test)]
mod tests {
    use super::decode_utf8;

    #[test]
    fn utf8_decodes_to_the_same_code_units_as_javascript() {
        for s in [
            "",
            "calendar",
            "caf\u{e9}",
            "\u{1F600}x",
            "\u{FEFF}\u{3000}a",
            "\u{10FFFF}",
        ] {
            let expected: Vec<u16> = s.encode_utf16().collect();
            let mut out = vec![0; expected.len()];
            assert!(decode_utf8(s.as_bytes(), &mut out));
            assert_eq!(out, expected);
            // A count that does not match is refused, never a panic.
            assert!(!decode_utf8(s.as_bytes(), &mut vec![0; expected.len() + 1]));
            if !expected.is_empty() {
                assert!(!decode_utf8(s.as_bytes(), &mut vec![0; expected.len() - 1]));
            }
        }
        let mut out = vec![0; 4];
        assert!(!decode_utf8(&[0xFF], &mut out));
        assert!(!decode_utf8(&[0xE2, 0x82], &mut out));
        assert!(!decode_utf8(&[0xC3, 0x41], &mut out));
    }
}
