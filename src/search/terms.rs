//! The term dictionary: an open-addressing table from a token (UTF-16 code units) to its
//! term id, ids given in order of first insertion. Like `names::NameTable`, but it owns
//! the terms, stored back to back.

use alloc::{vec, vec::Vec};

/// Four code units from `i` as one little-endian word (0 past the end): a single bounds
/// check, and the four loads combine into one.
#[inline(always)]
fn word(t: &[u16], i: usize) -> u64 {
    match t.get(i..i + 4) {
        Some(&[a, b, c, d]) => {
            u64::from(a) | u64::from(b) << 16 | u64::from(c) << 32 | u64::from(d) << 48
        }
        _ => 0,
    }
}

/// FxHash-style hashing four code units at a time: small and fast; terms come from the
/// caller's own tool texts, and a collision only costs a probe. A token of four units or
/// more ends with its last four (overlapping the word before), one of fewer is read unit
/// by unit. Inlined into `Terms::probe`, its one caller: no call per token.
#[inline(always)]
fn hash(t: &[u16]) -> u32 {
    // Index loops: at opt-level "z" iterator adapters stay calls, and this runs once per
    // token of every tool at build time.
    let n = t.len();
    let mut h = n as u64;
    let mut i = 0;
    while i + 4 < n {
        h = (h.rotate_left(26) ^ word(t, i)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        i += 4;
    }
    let mut w = 0;
    if n < 4 {
        let mut j = n;
        while j > 0 {
            j -= 1;
            w = w << 16 | u64::from(t[j]);
        }
    } else {
        w = word(t, n - 4);
    }
    h = (h.rotate_left(26) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // Folded and multiplied once more, the high half kept: a product's low bits depend only
    // on its input's low bits, and the table is indexed by the low bits of this hash. With
    // the low half of one product, terms that differ in a digit or two ("1234", "word98")
    // clustered: 5.1 probes a term where 1.4 is ideal (60,000 numbers in a table under
    // half full; bench/tool-search/DESIGN.md "Snapshots").
    ((h ^ h >> 32).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32
}

/// `a == b`, without the call to `memcmp` that slice equality compiles to (tokens are a
/// few code units; the call costs more than the comparison): four units at a time, the
/// last four overlapping.
#[inline(always)]
fn same(a: &[u16], b: &[u16]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 4 {
        let mut i = 0;
        while i < n {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        return true;
    }
    let mut i = 0;
    while i + 4 < n {
        if word(a, i) != word(b, i) {
            return false;
        }
        i += 4;
    }
    word(a, n - 4) == word(b, n - 4)
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Terms {
    units: Vec<u16>,
    /// Term `i` is `units[ends[i-1]..ends[i]]`.
    ends: Vec<u32>,
    /// (`id + 1`, hash), id 0 = empty; a power of two in length, at most half full.
    slots: Vec<(u32, u32)>,
}

impl Terms {
    pub(crate) fn heap_bytes(&self) -> usize {
        2 * self.units.capacity() + 4 * self.ends.capacity() + 8 * self.slots.capacity()
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The terms back to back and where each ends (for snapshots).
    pub(crate) fn parts(&self) -> (&[u16], &[u32]) {
        (&self.units, &self.ends)
    }

    /// The dictionary of `parts`, its table rebuilt; `None` unless the ends fit the units
    /// and the terms are distinct.
    pub(crate) fn from_parts(units: &[u16], ends: &[u32]) -> Option<Terms> {
        // The units copied at once and the table sized once (at most half full): each term
        // is then only hashed into it, a duplicate refused (measured: loading a snapshot of
        // 50,000 tools, bench/tool-search/DESIGN.md "Snapshots").
        let size = (2 * ends.len() + 1).next_power_of_two().max(1024);
        let mut terms = Terms {
            units: units.to_vec(),
            ends: Vec::with_capacity(ends.len()),
            slots: vec![(0, 0); size],
        };
        let mut start = 0usize;
        for &end in ends {
            let term = units.get(start..end as usize)?;
            // Compared with the terms before it only (`ends` holds just those).
            let (at, h) = terms.probe(term);
            if terms.slots[at].0 != 0 {
                return None;
            }
            terms.ends.push(end);
            terms.slots[at] = (terms.ends.len() as u32, h);
            start = end as usize;
        }
        (start == units.len()).then_some(terms)
    }

    /// The slot holding `t`, or the empty slot where it would go, and the hash of `t`. One
    /// function, `t` hashed and the terms cut and compared inside it: a call per token, not
    /// four (measured, bench/tool-search/DESIGN.md "Build speed").
    #[inline(never)]
    fn probe(&self, t: &[u16]) -> (usize, u32) {
        let h = hash(t);
        let slots = self.slots.as_slice();
        let mask = slots.len() - 1;
        let mut at = h as usize & mask;
        let (units, ends) = (self.units.as_slice(), self.ends.as_slice());
        loop {
            let (s, sh) = slots[at];
            if s == 0 {
                return (at, h);
            }
            if sh == h {
                // Term `s - 1`.
                let i = s as usize - 1;
                let start = if i == 0 { 0 } else { ends[i - 1] as usize };
                if same(&units[start..ends[i] as usize], t) {
                    return (at, h);
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// Term `i`'s units (empty past the last).
    pub(crate) fn get(&self, i: u32) -> &[u16] {
        let i = i as usize;
        let start = i.checked_sub(1).map_or(Some(&0), |j| self.ends.get(j));
        match (start, self.ends.get(i)) {
            (Some(&start), Some(&end)) => &self.units[start as usize..end as usize],
            _ => &[],
        }
    }

    /// The id of `t`.
    pub(crate) fn find(&self, t: &[u16]) -> Option<u32> {
        self.id_of(t)
    }

    /// [`Terms::find`], inlined where the build looks each token up: a token it has seen
    /// (most) costs one call, `probe`.
    #[inline(always)]
    pub(crate) fn id_of(&self, t: &[u16]) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        self.slots.as_slice()[self.probe(t).0].0.checked_sub(1)
    }

    /// The id of `t`, added if new.
    pub(crate) fn intern(&mut self, t: &[u16]) -> u32 {
        if (self.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let (at, h) = self.probe(t);
        // `as_slice` indexing: `Vec`'s own `Index` stays a call at opt-level "z".
        let id = self.slots.as_slice()[at].0;
        if id != 0 {
            return id - 1;
        }
        self.units.extend_from_slice(t);
        self.ends.push(self.units.len() as u32);
        self.slots.as_mut_slice()[at] = (self.ends.len() as u32, h);
        self.ends.len() as u32 - 1
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(1024);
        let old = core::mem::replace(&mut self.slots, vec![(0, 0); size]);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|s| s.0 != 0) {
            let mut at = slot.1 as usize & mask;
            while self.slots[at].0 != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How far the terms of a table built from `parts` sit from their hash's home slot,
    /// on average (linear probing: a lookup reads that many slots more than one).
    fn mean_displacement(terms: &[std::string::String]) -> f64 {
        let mut units = Vec::new();
        let mut ends = Vec::new();
        for t in terms {
            units.extend(t.encode_utf16());
            ends.push(units.len() as u32);
        }
        let table = Terms::from_parts(&units, &ends).unwrap();
        let mask = table.slots.len() - 1;
        let mut sum = 0;
        for (at, &(id, h)) in table.slots.iter().enumerate() {
            if id != 0 {
                sum += at.wrapping_sub(h as usize) & mask;
            }
        }
        sum as f64 / terms.len() as f64
    }

    /// Terms that differ in a digit or two, as tool texts are full of, spread over the
    /// table: with a table under half full, a uniform hash puts a term about 0.4 slots from
    /// home. The hash before this test kept the low half of one product, whose low bits
    /// depend only on the input's low bits: 4.1 slots for the numbers, 1.3 for the words.
    #[test]
    fn terms_that_differ_in_digits_spread_over_the_table() {
        use std::format;
        let numbers: Vec<_> = (0..60_000).map(|i| format!("{i}")).collect();
        let words: Vec<_> = (0..50_000)
            .map(|i| format!("word{i}"))
            .chain((0..20_000).map(|i| format!("more{i}")))
            .collect();
        for (what, terms) in [("numbers", numbers), ("words", words)] {
            let d = mean_displacement(&terms);
            assert!(d < 0.8, "{what}: {d} slots from home on average");
        }
    }

    /// Tokens of every length up to 12 that differ in one code unit only (first, middle,
    /// last: across and inside the four-unit words `hash` and `same` read) are all
    /// distinct terms, each is found again, and `same` tells each pair apart.
    #[test]
    fn tokens_differing_in_one_unit_stay_distinct() {
        let mut terms = Terms::default();
        let mut all: Vec<Vec<u16>> = Vec::new();
        for n in 1..=12usize {
            let base: Vec<u16> = (0..n as u16).map(|i| 0x61 + i).collect();
            all.push(base.clone());
            for at in 0..n {
                let mut t = base.clone();
                t[at] = 0x7A;
                all.push(t);
            }
        }
        all.sort();
        all.dedup();
        for (i, t) in all.iter().enumerate() {
            assert_eq!(terms.intern(t), i as u32);
        }
        for (i, t) in all.iter().enumerate() {
            assert_eq!(terms.find(t), Some(i as u32));
            assert_eq!(terms.intern(t), i as u32);
            let mut longer = t.clone();
            longer.push(0x61);
            if !all.contains(&longer) {
                assert_eq!(terms.find(&longer), None);
            }
        }
        assert_eq!(terms.len(), all.len());
        for a in &all {
            for b in &all {
                assert_eq!(same(a, b), a == b);
            }
        }
    }
}
