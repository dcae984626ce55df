//! Identifier-aware tokenisation of UTF-16 text, and the normalisation of a token into a
//! term (stop words, stemming).
//!
//! A token is a run of letters and digits. Runs split on everything else (ASCII
//! punctuation and spaces, so `_ . - /` too, JavaScript whitespace, general and CJK
//! punctuation) and on camelCase: `getUser` -> get|user, `HTMLParser` -> html|parser,
//! `getV2Users` -> get|v2|users, but `IDs` -> ids and `2FA` -> 2fa. Letters and digits stay together
//! (`s3`, `mp3`, `base64`), and tokens of digits only (`10`, `2024`) are dropped: they
//! are values, not what a tool is for (both measured, see DESIGN.md). Han ideographs and
//! kana are one token each (those scripts do not separate words). Letters are
//! case-folded (ASCII, Latin-1, Greek, Cyrillic); every other code unit, unpaired
//! surrogates included, is kept as it is.

use super::stem;
use alloc::vec::Vec;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Sep,
    Lower,
    Upper,
    Digit,
    /// A non-ASCII letter (or anything not known to separate): part of a word.
    Other,
    /// One token on its own (Han, kana).
    Solo,
}

#[inline(always)]
fn class(u: u16) -> Class {
    if u < 0x80 {
        ASCII[u as usize]
    } else {
        class_other(u)
    }
}

#[inline(never)]
fn class_other(u: u16) -> Class {
    match u {
        0x80..=0xBF
        | 0xD7
        | 0xF7
        | 0x1680
        | 0x2000..=0x206F
        | 0x2E00..=0x2E7F
        | 0x3000..=0x303F
        | 0xFEFF
        | 0xFF00..=0xFF0F
        | 0xFF1A..=0xFF20
        | 0xFF3B..=0xFF40
        | 0xFF5B..=0xFF65 => Class::Sep,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF => Class::Solo,
        _ => Class::Other,
    }
}

/// The classes of ASCII, built at compile time (128 bytes).
const ASCII: [Class; 128] = {
    let mut t = [Class::Sep; 128];
    let mut u = 0;
    while u < 128 {
        t[u] = match u as u8 {
            b'a'..=b'z' => Class::Lower,
            b'A'..=b'Z' => Class::Upper,
            b'0'..=b'9' => Class::Digit,
            _ => Class::Sep,
        };
        u += 1;
    }
    t
};

/// Simple lower-casing of the alphabets that have case and map one code unit to one.
#[inline(never)]
fn fold(u: u16) -> u16 {
    match u {
        0x41..=0x5A | 0xC0..=0xD6 | 0xD8..=0xDE | 0x391..=0x3A1 | 0x3A3..=0x3AB | 0x410..=0x42F => {
            u + 32
        }
        0x400..=0x40F => u + 80,
        _ => u,
    }
}

/// Whether `text` holds a letter or a digit (anything but separators): a query without one
/// is blank, and ranks nothing, lexically or by its vector.
pub(crate) fn has_word(text: &[u16]) -> bool {
    text.iter().any(|&u| class(u) != Class::Sep)
}

/// The case-folded tokens of a text, one at a time (`next`). A token that case-folding leaves as it is (most: lower-case ASCII) is a slice of the
/// text itself; another is folded into `buf`. No token is copied into a buffer of tokens:
/// the build interns each as it is found.
#[derive(Debug, Default)]
pub(crate) struct Tokenizer {
    /// Where in the text the next token is looked for.
    at: usize,
    buf: Vec<u16>,
}

impl Tokenizer {
    /// Starts on a new text (given again to each `next`).
    pub(crate) fn start(&mut self) {
        self.at = 0;
    }

    /// The next token of `text`, or `None` at its end. `camel` splits camelCase; `elide`
    /// drops the parts of contractions and possessives (`elided`).
    #[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
    pub(crate) fn next<'a>(
        &'a mut self,
        text: &'a [u16],
        camel: bool,
        elide: bool,
    ) -> Option<&'a [u16]> {
        let n = text.len();
        let mut i = self.at;
        loop {
            if i >= n {
                self.at = i;
                return None;
            }
            let mut c = class(text[i]);
            if c == Class::Sep {
                i += 1;
                continue;
            }
            let start = i;
            let mut any = text[i];
            let mut upper = c == Class::Upper;
            let mut digits = c == Class::Digit;
            i += 1;
            while c != Class::Solo && i < n {
                // Most units are lower-case ASCII letters, which never start a token.
                let run = i;
                i = lower_run(text, i);
                if i > run {
                    c = Class::Lower;
                    digits = false;
                    if i == n {
                        break;
                    }
                }
                let u = text[i];
                let next = class(u);
                let split = match (c, next) {
                    (_, Class::Sep | Class::Solo) => true,
                    (Class::Lower, Class::Upper) => camel,
                    // An upper-case or digit run ends before the capital that starts a word
                    // (`HTMLParser`, `V2Users`), unless only a plural `s` follows (`IDs`).
                    (Class::Upper | Class::Digit, Class::Upper) => {
                        camel
                            && i + 1 < n
                            && class(text[i + 1]) == Class::Lower
                            && !(text[i + 1] == 0x73
                                && (i + 2 == n || class(text[i + 2]) != Class::Lower))
                    }
                    _ => false,
                };
                if split {
                    break;
                }
                any |= u;
                upper |= next == Class::Upper;
                digits &= next == Class::Digit;
                c = next;
                i += 1;
            }
            if digits || elide && elided(text, start, i) {
                continue;
            }
            self.at = i;
            let tok = &text[start..i];
            if !upper && any < 0x80 {
                return Some(tok);
            }
            // Written by index into a buffer at least the token's length (no `push` call
            // per unit at opt-level "z", no `resize` per token).
            if self.buf.len() < tok.len() {
                self.buf.resize(tok.len(), 0);
            }
            let dst = &mut self.buf.as_mut_slice()[..tok.len()];
            let mut j = 0;
            while j < tok.len().min(dst.len()) {
                let mut u = tok[j];
                // Upper-case ASCII needs only a bit.
                if u.wrapping_sub(0x41) < 26 {
                    u |= 0x20;
                } else if any >= 0x80 {
                    u = fold(u);
                }
                dst[j] = u;
                j += 1;
            }
            return Some(dst);
        }
    }
}

/// Whether `text[start..end]`, a token, is a part of a contraction or a possessive, which
/// says nothing about what a tool is for: a suffix `s t d m re ve ll` right after a word
/// and an apostrophe (`what's`, `user's`, `don't`, `we're`, `I'd`), or a word ending in `n`
/// right before `'t` (`don't`, `isn't`, `can't`). Apostrophes: ASCII `'` and typographic `’`.
#[inline(never)]
fn elided(text: &[u16], start: usize, end: usize) -> bool {
    // Units past either end read as 0, a separator.
    let at = |i: usize| text.get(i).map_or(0, |&u| u);
    let apostrophe = |i: usize| at(i) == 0x27 || at(i) == 0x2019;
    let sep = |i: usize| class(at(i)) == Class::Sep;
    if apostrophe(end) {
        // A negation's word: `…n` `'` `t`, then no more letters.
        return at(end - 1) | 0x20 == 0x6E && at(end + 1) | 0x20 == 0x74 && sep(end + 2);
    }
    start > 1
        && apostrophe(start - 1)
        && !sep(start - 2)
        && sep(end)
        && listed(b"s t d m re ve ll", &text[start..end])
}

/// Where the run of lower-case ASCII letters from `i` ends: eight code units at a time
/// (wasm SIMD), then one at a time.
#[inline(always)]
fn lower_run(text: &[u16], mut i: usize) -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        use core::arch::wasm32::*;
        while let Some(&[a, b, c, d, e, f, g, h]) = text.get(i..i + 8) {
            let word = |a: u16, b, c, d| {
                u64::from(a) | u64::from(b) << 16 | u64::from(c) << 32 | u64::from(d) << 48
            };
            let v = u64x2(word(a, b, c, d), word(e, f, g, h));
            let lower = u16x8_lt(u16x8_sub(v, u16x8_splat(0x61)), u16x8_splat(26));
            let bits = u32::from(i16x8_bitmask(lower));
            i += (!bits).trailing_zeros() as usize;
            if bits != 0xFF {
                return i;
            }
        }
    }
    while i < text.len() && text[i].wrapping_sub(0x61) < 26 {
        i += 1;
    }
    i
}

/// The term a token stands for, in place: `None` for a stop word, else the length of its
/// stem. Only all-ASCII tokens are stop words or stemmed.
pub(crate) fn normalize(tok: &mut [u16], stop: bool, stem: bool) -> Option<usize> {
    if !tok.iter().all(|&u| u < 0x80) {
        return Some(tok.len());
    }
    if stop && is_stop(tok) {
        return None;
    }
    Some(if stem { stem::stem(tok) } else { tok.len() })
}

/// English function words, space-separated. Only words that say nothing about what a
/// tool does: no verbs such as get, set, list, find.
const STOP: &[u8] = b"a about all an and any are as at be by can could do for from have he her his how i if in is it its me my of on or our please she should so that the their them then there these they this to us was we what which will with would you";

fn is_stop(tok: &[u16]) -> bool {
    listed(STOP, tok)
}

/// Whether `tok` is one of the space-separated lower-case words of `list` (ASCII letters
/// compared case-blind).
#[inline(never)]
fn listed(list: &[u8], tok: &[u16]) -> bool {
    list.split(|&b| b == b' ')
        .any(|w| w.len() == tok.len() && w.iter().zip(tok).all(|(&a, &b)| u16::from(a) == b | 0x20))
}
