//! Names as JavaScript sees them: sequences of UTF-16 code units.
//!
//! Tool names are compared code unit by code unit, so a name is a `[u16]`, never a
//! Rust `str`: converting to UTF-8 would replace unpaired surrogates with U+FFFD and
//! make `"a\u{D800}"` equal to `"a\u{DC00}"`.

use alloc::{vec, vec::Vec};

// ------------------------------------------------------------------ limits

/// The most code units of names one batch may hold (16 MiB as UTF-16): every turn's
/// rows, every registered list, every palette. Chosen so that a batch and what is built
/// from it stay well inside a Cloudflare Worker's 128 MB.
pub const MAX_UNITS: usize = 1 << 23;
/// The most names (rows with a candidate, registered names, palette names) one batch may hold.
pub const MAX_NAMES: usize = 1 << 20;
/// The most code units of one field's texts a `ToolIndex` reads (64 MiB as UTF-16): tool
/// descriptions run longer than names, and an index is built once.
pub const MAX_TEXT_UNITS: usize = 1 << 25;

/// Whether `count` names of `units` code units in all fit one batch: within the limits,
/// and with room for them (and what is built from them: an index, a turn's rows) in the
/// module's memory as it can grow now. Asked before anything is copied in, so that input
/// too large for the memory at hand is answered up front (a RangeError, or refusal 2a
/// for a store's answer) instead of trapping half-way through a call.
pub fn fits(count: usize, units: usize) -> bool {
    count <= MAX_NAMES && units <= MAX_UNITS && room_for(units * 6 + count * 96)
}

/// [`fits`] for a `ToolIndex`'s texts (written as UTF-16 beyond [`MAX_UNITS`]).
pub fn fits_texts(count: usize, units: usize) -> bool {
    count <= MAX_NAMES && units <= MAX_TEXT_UNITS && room_for(units * 4 + count * 96)
}

/// Whether the memory has room for `bytes` more: asked of the allocator, but for a small
/// batch (up to 64 KiB, what any call allocates in passing), which is taken as fitting
/// without the probe's allocation on every call (a memory that full traps either way,
/// and the binding's door recovers from that).
fn room_for(bytes: usize) -> bool {
    if bytes <= 1 << 16 {
        return true;
    }
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(bytes).is_ok()
}

/// What a call beyond the limits is told, after the argument's place.
pub const TOO_LARGE: &str =
    " is too large: a call takes at most 1,048,576 names and 8,388,608 code units of names";

// ------------------------------------------------------------------ names

/// One name: the UTF-16 code units of a JavaScript string.
pub type Name = [u16];

/// Encodes a Rust string as the code units of the equal JavaScript string.
pub fn units(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

/// A message around a name: `before`, the name's code units exactly, then `after`.
pub fn text(before: &[&str], name: &Name, after: &[&str]) -> Vec<u16> {
    let mut v = Vec::new();
    before.iter().for_each(|s| v.extend(s.encode_utf16()));
    v.extend_from_slice(name);
    after.iter().for_each(|s| v.extend(s.encode_utf16()));
    v
}

/// Whether `unit` is whitespace to `String.prototype.trim`: ECMAScript's WhiteSpace
/// and LineTerminator. Unlike `char::is_whitespace` this includes U+FEFF (BOM) and
/// excludes U+0085 (NEL). All of them are in the BMP, so one code unit decides.
pub fn is_js_whitespace(unit: u16) -> bool {
    matches!(
        unit,
        0x0009..=0x000D
            | 0x0020
            | 0x00A0
            | 0x1680
            | 0x2000..=0x200A
            | 0x2028
            | 0x2029
            | 0x202F
            | 0x205F
            | 0x3000
            | 0xFEFF
    )
}

/// The bounds `String.prototype.trim` keeps: `name[start..end]`.
pub fn trim_bounds(name: &Name) -> (usize, usize) {
    let start = name
        .iter()
        .position(|&u| !is_js_whitespace(u))
        .unwrap_or(name.len());
    let end = name
        .iter()
        .rposition(|&u| !is_js_whitespace(u))
        .map_or(start, |i| i + 1);
    (start, end)
}

/// FxHash-style hashing of code units: small and fast; the table below is keyed by
/// trusted-enough input (an agent's own tool names), so no DoS-resistant hasher is needed
/// for correctness, and a collision only costs a probe.
fn hash(name: &Name) -> u32 {
    const K: u32 = 0x9E37_79B9;
    let mut h: u32 = name.len() as u32;
    let mut pairs = name.chunks_exact(2);
    for pair in &mut pairs {
        let word = u32::from(pair[0]) | u32::from(pair[1]) << 16;
        h = (h.rotate_left(5) ^ word).wrapping_mul(K);
    }
    if let [last] = pairs.remainder() {
        h = (h.rotate_left(5) ^ u32::from(*last)).wrapping_mul(K);
    }
    // Multiplication only carries upwards: fold the high bits into the low ones that
    // pick the slot.
    h ^ (h >> 16)
}

/// An open-addressing set of names, each remembered by the index its caller gave it.
/// It stores indices only; the names themselves stay in the caller's storage and are
/// handed back to `find`/`insert` through the `name_of` closure.
#[derive(Debug, Clone, Default)]
pub struct NameTable {
    /// `slot = index + 1`, 0 = empty. Length is a power of two, at most half full.
    slots: Vec<u32>,
    len: usize,
}

// `len` counts names for callers that need a count; nothing asks whether a table is empty.
#[allow(clippy::len_without_is_empty)]
impl NameTable {
    pub fn with_capacity(n: usize) -> Self {
        let size = (n.max(4) * 2).next_power_of_two();
        NameTable {
            slots: vec![0; size],
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The index stored for a name equal to `name`, if any.
    pub fn find<'a>(&self, name: &Name, name_of: impl Fn(u32) -> &'a Name) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut at = hash(name) as usize & mask;
        loop {
            match self.slots[at] {
                0 => return None,
                slot if name_of(slot - 1) == name => return Some(slot - 1),
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Stores `index` for `name` unless an equal name is already there.
    /// Returns `true` when it was new.
    pub fn insert<'a>(&mut self, index: u32, name_of: impl Fn(u32) -> &'a Name) -> bool {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow(&name_of);
        }
        let name = name_of(index);
        let mask = self.slots.len() - 1;
        let mut at = hash(name) as usize & mask;
        loop {
            match self.slots[at] {
                0 => {
                    self.slots[at] = index + 1;
                    self.len += 1;
                    return true;
                }
                slot if name_of(slot - 1) == name => return false,
                _ => at = (at + 1) & mask,
            }
        }
    }

    fn grow<'a>(&mut self, name_of: &impl Fn(u32) -> &'a Name) {
        let old = core::mem::take(&mut self.slots);
        self.slots = vec![0; (old.len() * 2).max(8)];
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let mut at = hash(name_of(slot - 1)) as usize & mask;
            while self.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot;
        }
    }
}

/// Checks that `ends` are non-decreasing and inside `units`, so that slicing names out
/// of them can never go out of bounds, whatever the binding was handed.
fn ends_fit(units: &[u16], ends: &[u32]) -> bool {
    let mut prev = 0u32;
    ends.iter().all(|&end| {
        let ok = end >= prev && end as usize <= units.len();
        prev = end;
        ok
    })
}

/// Many names stored back to back, owned (a registry, a policy's `whenTool`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameList {
    units: Vec<u16>,
    ends: Vec<u32>,
}

#[allow(clippy::len_without_is_empty)]
impl NameList {
    pub fn from_parts(units: Vec<u16>, ends: Vec<u32>) -> Option<Self> {
        ends_fit(&units, &ends).then_some(NameList { units, ends })
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// The names' code units back to back, and where each ends.
    pub fn parts(&self) -> (&[u16], &[u32]) {
        (&self.units, &self.ends)
    }

    #[inline]
    pub fn get(&self, i: usize) -> &Name {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.units[start..self.ends[i] as usize]
    }

    pub fn push(&mut self, name: &Name) {
        self.units.extend_from_slice(name);
        self.ends.push(self.units.len() as u32);
    }

    /// The first `at` names, and the rest.
    pub fn split(&self, at: usize) -> (NameList, NameList) {
        let (mut first, mut rest) = (NameList::default(), NameList::default());
        self.iter()
            .enumerate()
            .for_each(|(i, n)| if i < at { first.push(n) } else { rest.push(n) });
        (first, rest)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Name> {
        (0..self.len()).map(move |i| self.get(i))
    }
}

impl<S: AsRef<str>> FromIterator<S> for NameList {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Self {
        let mut list = NameList::default();
        for s in iter {
            list.push(&units(s.as_ref()));
        }
        list
    }
}

/// A set of names built once and asked many times (the registered palette, a gate,
/// a policy's `whenTool`).
#[derive(Debug, Clone, Default)]
pub struct NameSet {
    list: NameList,
    table: NameTable,
}

impl NameSet {
    #[inline(never)]
    pub fn new(list: NameList) -> Self {
        let mut table = NameTable::with_capacity(list.len());
        for i in 0..list.len() {
            table.insert(i as u32, |j| list.get(j as usize));
        }
        NameSet { list, table }
    }

    /// The index of the first name equal to `name`.
    pub fn position(&self, name: &Name) -> Option<u32> {
        self.table.find(name, |j| self.list.get(j as usize))
    }

    pub fn contains(&self, name: &Name) -> bool {
        self.position(name).is_some()
    }

    /// All names as given, duplicates included.
    pub fn list(&self) -> &NameList {
        &self.list
    }

    /// How many distinct names.
    pub fn distinct(&self) -> usize {
        self.table.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_are_as_told() {
        let grouped = |n: usize| {
            let digits = n.to_string();
            let mut out = String::new();
            for (i, c) in digits.chars().enumerate() {
                if i > 0 && (digits.len() - i) % 3 == 0 {
                    out.push(',');
                }
                out.push(c);
            }
            out
        };
        let told = format!(
            " is too large: a call takes at most {} names and {} code units of names",
            grouped(MAX_NAMES),
            grouped(MAX_UNITS)
        );
        assert_eq!(TOO_LARGE, told);
        assert!(fits(MAX_NAMES, 0) && !fits(MAX_NAMES + 1, 0));
        assert!(!fits(1, MAX_UNITS + 1) && !fits_texts(1, MAX_TEXT_UNITS + 1));
    }

    #[test]
    fn trim_follows_string_prototype_trim() {
        let t = |s: &[u16]| {
            let (a, b) = trim_bounds(s);
            s[a..b].to_vec()
        };
        assert_eq!(t(&units("  calendar \n")), units("calendar"));
        // BOM is whitespace to JavaScript, NEL is not.
        assert_eq!(t(&[0xFEFF, 0x61, 0xFEFF]), vec![0x61]);
        assert_eq!(t(&[0x0085, 0x61, 0x0085]), vec![0x0085, 0x61, 0x0085]);
        assert_eq!(t(&[0x3000, 0x2028, 0x61, 0x00A0]), vec![0x61]);
        assert_eq!(t(&units(" \t ")), Vec::<u16>::new());
        assert_eq!(t(&[]), Vec::<u16>::new());
        // Unpaired surrogates are kept as they are.
        assert_eq!(t(&[0x20, 0xD800, 0x20]), vec![0xD800]);
    }

    #[test]
    fn sets_compare_code_units_exactly() {
        let mut list = NameList::default();
        list.push(&[0x61, 0xD800]);
        list.push(&[0x61, 0xDC00]);
        list.push(&[0x61, 0xD800]);
        let set = NameSet::new(list);
        assert_eq!(set.distinct(), 2);
        assert_eq!(set.position(&[0x61, 0xD800]), Some(0));
        assert_eq!(set.position(&[0x61, 0xDC00]), Some(1));
        assert_eq!(set.position(&[0x61, 0xFFFD]), None);
        assert_eq!(set.position(&[0x61]), None);
    }

    #[test]
    fn table_grows_and_finds_everything() {
        let list: NameList = (0..5000).map(|i| format!("tool_{i}")).collect();
        let set = NameSet::new(list);
        for i in 0..5000 {
            assert_eq!(set.position(&units(&format!("tool_{i}"))), Some(i));
        }
        assert!(!set.contains(&units("tool_5000")));
        let mut t = NameTable::default();
        let l = set.list().clone();
        for i in 0..100u32 {
            assert!(t.insert(i, |j| l.get(j as usize)));
            assert!(!t.insert(i, |j| l.get(j as usize)));
        }
        assert_eq!(t.len(), 100);
    }

    #[test]
    fn bad_ends_are_refused() {
        assert!(NameList::from_parts(vec![1, 2], vec![1, 3]).is_none());
        assert!(NameList::from_parts(vec![1, 2], vec![2, 1]).is_none());
        assert!(NameList::from_parts(vec![1, 2], vec![0, 2]).is_some());
    }
}
