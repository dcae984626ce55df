//! Snapshots: an index (names, vectors and fusion included) as bytes, and back.
//!
//! Little-endian throughout. A 24-byte header: the magic `TPINDEX\0`, the format version
//! (u32), the payload's length (u32) and a 64-bit checksum of the payload (`checksum`);
//! then the payload, in the order `save` writes it. `load` checks the
//! header, the length, the checksum, then every structural invariant a query relies on,
//! so no bytes, however made, can make a query panic or rank otherwise than the index
//! that was saved: they load as that index or are refused with the reason.
//! The term table's hash slots are not saved: they are rebuilt (and the terms found
//! distinct) on load. An index built to explain (`Index::build_with`) saves its `Counts`
//! as the last section, with flag 8 in the options word, as format [`COUNTED`]: any other
//! snapshot has neither and is format [`VERSION`], the bytes an older reader of format 4
//! reads (and a counted one it refuses by its version, not as corrupt).

use super::terms::Terms;
use super::vectors::Vectors;
use super::{averages, Counts, Fusion, Index, Namespaces, Params, FIELDS, WIDE};
use alloc::{vec, vec::Vec};

pub const MAGIC: &[u8; 8] = b"TPINDEX\0";
pub const VERSION: u32 = 4;
/// The format of a snapshot that keeps the explain counts.
pub const COUNTED: u32 = 5;
pub const HEADER: usize = 24;

/// Why bytes are not a snapshot this version reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotError {
    /// Not a snapshot at all (no magic).
    Foreign,
    /// Shorter than its header, or than the payload its header announces: (had, needed).
    Truncated { had: usize, needed: u64 },
    /// Longer than the payload its header announces: (had, expected).
    Trailing { had: usize, expected: u64 },
    /// A snapshot of another format version.
    Version(u32),
    /// The checksum does not match: altered bytes.
    Checksum,
    /// The checksum matches but the content breaks an invariant (made by hand?).
    Corrupt(&'static str),
    /// A stream's header announces a snapshot of this many bytes, more than [`MOST`] or
    /// than memory allows.
    Announced(u64),
    /// A stream holds more bytes than the snapshot of this many bytes it starts with.
    Longer(u64),
}

impl SnapshotError {
    /// What is wrong with the bytes, as the error says it after naming them: three texts
    /// with the numbers (if any) between them ("… are truncated: ", 10, " bytes of the ",
    /// 24, " the snapshot needs"), and whether it is a RangeError.
    pub fn words(&self) -> ([&'static str; 3], [Option<u64>; 2], bool) {
        match *self {
            SnapshotError::Foreign => {
                let text = " are not a ToolIndex snapshot (made by index.save())";
                ([text, "", ""], [None; 2], false)
            }
            SnapshotError::Truncated { had, needed } => {
                let texts = [" are truncated: ", " bytes of the ", " the snapshot needs"];
                (texts, [Some(had as u64), Some(needed)], true)
            }
            SnapshotError::Trailing { had, expected } => {
                let end = " of the snapshot they start with";
                (
                    [" are ", " bytes, more than the ", end],
                    [Some(had as u64), Some(expected)],
                    true,
                )
            }
            SnapshotError::Version(v) => {
                let texts = [
                    " are a snapshot of format version ",
                    "; this tool-palette reads version ",
                    " (5 with explain's counts): save the index again with this version",
                ];
                (texts, [Some(v.into()), Some(VERSION.into())], false)
            }
            SnapshotError::Checksum => {
                let text = " are altered: the snapshot's checksum does not match its content";
                ([text, "", ""], [None; 2], false)
            }
            SnapshotError::Corrupt(what) => {
                let end = " of the snapshot breaks its invariants";
                ([" are corrupt: ", what, end], [None; 2], false)
            }
            SnapshotError::Announced(n) => {
                let end =
                    " bytes, more than the module can hold (at most 1073741824, as memory allows)";
                ([" announce a snapshot of ", end, ""], [Some(n), None], true)
            }
            SnapshotError::Longer(n) => {
                let end = " of the snapshot they start with";
                ([" are more than the ", end, ""], [Some(n), None], true)
            }
        }
    }

    /// [`SnapshotError::words`] as one text (UTF-16 code units, the numbers in decimal),
    /// for the binding's error.
    pub fn units(&self) -> Vec<u16> {
        fn decimal(n: u64, out: &mut Vec<u16>) {
            if n >= 10 {
                decimal(n / 10, out);
            }
            out.push(u16::from(b'0') + (n % 10) as u16);
        }
        let (texts, numbers, _) = self.words();
        let mut units = Vec::new();
        for (i, text) in texts.iter().enumerate() {
            units.extend(text.encode_utf16());
            if let Some(Some(n)) = numbers.get(i) {
                decimal(*n, &mut units);
            }
        }
        units
    }
}

/// The most a streamed snapshot may announce (1 GiB): decoding it needs about as much
/// again, within the 4 GiB a wasm32 module may grow to.
pub const MOST: u64 = 1 << 30;

/// A snapshot arriving in chunks (a stream), into one buffer: its first [`HEADER`] bytes,
/// then the whole length they announce, reserved at once (within [`MOST`] and what memory
/// allows), and never more.
#[derive(Default)]
pub struct Incoming {
    head: [u8; HEADER],
    got: usize,
    total: usize,
    bytes: Vec<u8>,
}

impl Incoming {
    /// Where the first of the next chunk's `n` bytes go while the header is not whole
    /// (empty once it is); [`Incoming::body`] takes the rest.
    pub fn head(&mut self, n: usize) -> &mut [u8] {
        let (at, k) = (self.got, (HEADER - self.got).min(n));
        self.got += k;
        &mut self.head[at..at + k]
    }

    /// Where the next `n` bytes after the header go, once the header is whole and checked
    /// (refused as `load` refuses it), and announces a length this module can hold that
    /// they stay within.
    pub fn body(&mut self, n: usize) -> Result<&mut [u8], SnapshotError> {
        if self.got < HEADER {
            return Ok(&mut []);
        }
        if self.bytes.is_empty() {
            let announced = declared(&self.head)?;
            self.total = announced.min(MOST) as usize;
            if announced > MOST || self.bytes.try_reserve_exact(self.total).is_err() {
                return Err(SnapshotError::Announced(announced));
            }
            self.bytes.extend_from_slice(&self.head);
        }
        let len = self.bytes.len();
        if n > self.total - len {
            return Err(SnapshotError::Longer(self.total as u64));
        }
        // Within the room reserved: no reallocation, no second copy.
        self.bytes.resize(len + n, 0);
        Ok(self.bytes.get_mut(len..).unwrap_or_default())
    }

    /// The bytes that came, for [`load`] (which refuses them when the stream ended short).
    pub fn bytes(mut self) -> Vec<u8> {
        if self.got < HEADER {
            self.bytes.extend_from_slice(&self.head[..self.got]);
        }
        self.bytes
    }
}

/// What a snapshot holds besides the index: the names and the options it was built with.
pub struct Snapshot {
    pub index: Index,
    pub fusion: Fusion,
    pub limit: u32,
    /// The tools' names back to back (UTF-16 code units), and where each ends.
    pub name_units: Vec<u16>,
    pub name_ends: Vec<u32>,
}

/// The checksum of `bytes`: Fletcher's two running sums over little-endian u64 words,
/// kept in two lanes (even and odd words; in wasm one SIMD i64x2 pair: about 16 bytes a
/// cycle, so that loading a snapshot of 50,000 tools × 384 dimensions spends ~2 ms here),
/// then the tail and the length, mixed. Any one word altered changes the first sum; words
/// moved change the second.
pub fn checksum(bytes: &[u8]) -> u64 {
    let blocks = bytes.len() / 16 * 16;
    let (s1, s2) = fletcher(&bytes[..blocks]);
    let mut h = bytes.len() as u64;
    for x in s1.into_iter().chain(s2) {
        h = mix(h ^ x);
    }
    for &b in &bytes[blocks..] {
        h = mix(h ^ u64::from(b));
    }
    h
}

fn mix(x: u64) -> u64 {
    let x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ x >> 29
}

/// Per lane (even words, odd words): s1 = Σ w, s2 = Σ s1, wrapping. `bytes.len()` is a
/// multiple of 16.
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
fn fletcher(bytes: &[u8]) -> ([u64; 2], [u64; 2]) {
    use super::vectors::word;
    use core::arch::wasm32::*;
    let mut s1 = u64x2_splat(0);
    let mut s2 = u64x2_splat(0);
    for w in bytes.chunks_exact(16) {
        s1 = i64x2_add(s1, u64x2(word(w, 0), word(w, 8)));
        s2 = i64x2_add(s2, s1);
    }
    (
        [u64x2_extract_lane::<0>(s1), u64x2_extract_lane::<1>(s1)],
        [u64x2_extract_lane::<0>(s2), u64x2_extract_lane::<1>(s2)],
    )
}

#[cfg(not(target_arch = "wasm32"))]
fn fletcher(bytes: &[u8]) -> ([u64; 2], [u64; 2]) {
    use super::vectors::word;
    let (mut s1, mut s2) = ([0u64; 2], [0u64; 2]);
    for w in bytes.chunks_exact(16) {
        for lane in 0..2 {
            s1[lane] = s1[lane].wrapping_add(word(w, 8 * lane));
            s2[lane] = s2[lane].wrapping_add(s1[lane]);
        }
    }
    (s1, s2)
}

struct Writer(Vec<u8>);

/// Plain loops that write and read arrays element by element into bytes known to fit:
/// at opt-level "z" iterator adapters and per-element `extend`/`push` cost several times
/// more (measured: save and load of a 10,000-tool snapshot).
impl Writer {
    fn u32(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn f32(&mut self, x: f32) {
        self.u32(x.to_bits());
    }
    /// A length, then room for `n` items of `size` bytes: where they start.
    fn room(&mut self, n: usize, size: usize) -> usize {
        self.u32(n as u32);
        let at = self.0.len();
        self.0.resize(at + n * size, 0);
        at
    }
    fn u32s(&mut self, xs: impl ExactSizeIterator<Item = u32>) {
        let at = self.room(xs.len(), 4);
        // The room's words in turn: no bounds check's panic (the room holds them all).
        let room = self.0.get_mut(at..).unwrap_or_default().chunks_exact_mut(4);
        for (x, out) in xs.zip(room) {
            if let Ok(out) = <&mut [u8; 4]>::try_from(out) {
                *out = x.to_le_bytes();
            }
        }
    }
    fn u16s(&mut self, xs: &[u16]) {
        let at = self.room(xs.len(), 2);
        let room = self.0.get_mut(at..).unwrap_or_default().chunks_exact_mut(2);
        for (&x, out) in xs.iter().zip(room) {
            if let Ok(out) = <&mut [u8; 2]>::try_from(out) {
                *out = x.to_le_bytes();
            }
        }
    }
    fn bytes(&mut self, xs: &[u8]) {
        self.u32(xs.len() as u32);
        self.0.extend_from_slice(xs);
    }
}

/// The snapshot of `index` with its names (in tool order), `fusion` and `limit`.
pub fn save<'a>(
    index: &Index,
    names: impl Iterator<Item = &'a [u16]>,
    fusion: &Fusion,
    limit: u32,
) -> Vec<u8> {
    let mut w = Writer(Vec::with_capacity(HEADER + index.heap_bytes()));
    w.0.extend_from_slice(MAGIC);
    w.u32(if index.counts.is_some() {
        COUNTED
    } else {
        VERSION
    });
    w.u32(0); // payload length, set below
    w.0.extend_from_slice(&[0; 8]); // checksum, set below
    w.u32(limit);
    let p = &index.params;
    for x in p.weight.iter().chain(&p.b) {
        w.f32(*x);
    }
    w.f32(p.k1);
    let counted = u32::from(index.counts.is_some()) << 3;
    let elide = u32::from(p.elide) << 4;
    w.u32(u32::from(p.stem) | u32::from(p.stop) << 1 | u32::from(p.camel) << 2 | counted | elide);
    w.f32(fusion.k);
    w.f32(fusion.lexical);
    w.f32(fusion.embedding);
    w.u32(fusion.depth.min(u32::MAX as usize) as u32);
    w.u32(fusion.embedding_depth.min(u32::MAX as usize) as u32);
    w.u32(index.tools);
    // The vectors first: their rows (most of a snapshot with vectors) stay in the buffer
    // `load` reads them from, which is then cut right after them.
    match &index.vectors {
        None => w.u32(0),
        Some(v) => {
            w.u32(v.dims() as u32);
            let (data, scale) = v.raw();
            w.bytes(data);
            w.u32s(scale.iter().map(|x| x.to_bits()));
        }
    }
    let mut units = Vec::new();
    let mut ends = Vec::with_capacity(index.len());
    for name in names {
        units.extend_from_slice(name);
        ends.push(units.len() as u32);
    }
    w.u16s(&units);
    w.u32s(ends.iter().copied());
    let (units, ends) = index.terms.parts();
    w.u16s(units);
    w.u32s(ends.iter().copied());
    w.u32s(index.offsets.iter().copied());
    w.u32s(index.post_tool.iter().copied());
    w.u32s(index.post_score.iter().map(|x| x.to_bits()));
    w.u32s(index.namespaces.first.iter().copied());
    // An index built to explain: its counts last (flag 8), so that every other snapshot is
    // the same bytes as without them.
    if let Some(c) = &index.counts {
        w.u16s(&c.post_tf);
        w.u32s(c.wide.iter().copied());
        w.u32s(c.wide_at.iter().copied());
        w.u32s(c.lens.iter().copied());
    }
    let mut bytes = w.0;
    let len = (bytes.len() - HEADER) as u32;
    let sum = checksum(bytes.get(HEADER..).unwrap_or_default());
    // The header's length and checksum, written without a bounds check's panic (the header
    // is there: the writer began with it).
    let mut head = [0; 12];
    head[..4].copy_from_slice(&len.to_le_bytes());
    head[4..].copy_from_slice(&sum.to_le_bytes());
    if let Some(at) = bytes.get_mut(12..24) {
        at.copy_from_slice(&head);
    }
    bytes
}

/// A word as it is: passed to `Reader::words` wherever no conversion is wanted (one
/// function, so one copy of `words` for all u32 arrays, not one per closure).
fn as_is(w: u32) -> u32 {
    w
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

const SHORT: SnapshotError = SnapshotError::Corrupt("a section runs past the end");

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], SnapshotError> {
        let end = self.at.checked_add(n).ok_or(SHORT)?;
        let out = self.bytes.get(self.at..end).ok_or(SHORT)?;
        self.at = end;
        Ok(out)
    }
    fn u32(&mut self) -> Result<u32, SnapshotError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn f32(&mut self) -> Result<f32, SnapshotError> {
        self.u32().map(f32::from_bits)
    }
    /// A length-prefixed array of `size`-byte items, as its bytes.
    fn array(&mut self, size: usize) -> Result<&'a [u8], SnapshotError> {
        let n = self.u32()? as usize;
        self.take(n.checked_mul(size).ok_or(SHORT)?)
    }
    /// A length-prefixed array of `N`-byte items, each decoded by `item`.
    fn items<T: Copy + Default, const N: usize>(
        &mut self,
        item: impl Fn([u8; N]) -> T,
    ) -> Result<Vec<T>, SnapshotError> {
        let b = self.array(N)?;
        let mut out = vec![T::default(); b.len() / N];
        for (i, x) in out.iter_mut().enumerate() {
            // A bounds check and a load an item: no `copy_from_slice` (a memcpy call per
            // item at opt-level "z"), no zipped iterators.
            if let Some(Ok(a)) = b.get(N * i..N * i + N).map(<&[u8; N]>::try_from) {
                *x = item(*a);
            }
        }
        Ok(out)
    }
    fn u32s(&mut self) -> Result<Vec<u32>, SnapshotError> {
        self.words(0, u32::MAX, "", as_is)
    }
    /// A length-prefixed array of u32 words made into `T`s by `make`, each word checked in
    /// the same pass: `Corrupt(what)` unless every `word.wrapping_sub(low) <= most`.
    fn words<T: Copy + Default>(
        &mut self,
        low: u32,
        most: u32,
        what: &'static str,
        make: impl Fn(u32) -> T,
    ) -> Result<Vec<T>, SnapshotError> {
        let b = self.array(4)?;
        let n = b.len() / 4;
        let mut out = vec![T::default(); n];
        let dst = out.as_mut_slice();
        let mut max = 0u32;
        let mut i = 0;
        while i < n {
            // One bounds check and one load a word (four byte indexings would be four).
            if let Some(Ok(a)) = b.get(4 * i..4 * i + 4).map(<&[u8; 4]>::try_from) {
                let w = u32::from_le_bytes(*a);
                max = max.max(w.wrapping_sub(low));
                dst[i] = make(w);
            }
            i += 1;
        }
        if max > most {
            return Err(SnapshotError::Corrupt(what));
        }
        Ok(out)
    }
    /// The postings' field frequencies (`Index::post_tf`), each checked in the same pass
    /// (not 0; 3 bits a field, or `WIDE`), and how many are `WIDE`. A loop of its own, as
    /// `words`: `items` costs a few milliseconds more over a million postings (measured).
    fn freqs(&mut self) -> Result<(Vec<u16>, usize), SnapshotError> {
        let b = self.array(2)?;
        let n = b.len() / 2;
        let mut out = vec![0u16; n];
        let dst = out.as_mut_slice();
        let (mut wide, mut odd) = (0, false);
        let mut i = 0;
        while i < n {
            if let Some(Ok(a)) = b.get(2 * i..2 * i + 2).map(<&[u8; 2]>::try_from) {
                let c = u16::from_le_bytes(*a);
                wide += usize::from(c == WIDE);
                odd |= c == 0 || (c > 0x7FFF && c != WIDE);
                dst[i] = c;
            }
            i += 1;
        }
        if odd {
            return Err(SnapshotError::Corrupt("the field counts"));
        }
        Ok((out, wide))
    }
    /// The counts of an index built to explain (`Index::counts`), checked: frequencies for
    /// each of the `postings` (`freqs`), one wide entry (not 0) for each `WIDE`, at
    /// ascending postings each `WIDE`, and `FIELDS` lengths for each of the `tools`.
    fn counts(&mut self, postings: usize, tools: usize) -> Result<Counts, SnapshotError> {
        let (post_tf, wides) = self.freqs()?;
        let wide = self.words(1, u32::MAX - 1, "the field counts", as_is)?;
        let wide_at = self.u32s()?;
        let mut next = 0;
        let wide_at_ok = wide_at.iter().all(|&p| {
            let ok = p >= next && post_tf.get(p as usize) == Some(&WIDE);
            next = p.wrapping_add(1);
            ok
        });
        let lens = self.u32s()?;
        if post_tf.len() != postings
            || wides != wide.len()
            || wides != wide_at.len()
            || !wide_at_ok
            || lens.len() != FIELDS * tools
        {
            return Err(SnapshotError::Corrupt("the field counts"));
        }
        Ok(Counts {
            post_tf,
            wide,
            wide_at,
            avg: averages(&lens),
            lens,
        })
    }
    fn f32s(&mut self) -> Result<Vec<f32>, SnapshotError> {
        self.words(0, u32::MAX, "", f32::from_bits)
    }
    fn u16s(&mut self) -> Result<Vec<u16>, SnapshotError> {
        self.items(u16::from_le_bytes)
    }
    fn terms(&mut self) -> Result<Terms, SnapshotError> {
        let units = self.u16s()?;
        let ends = self.u32s()?;
        Terms::from_parts(&units, &ends).ok_or(SnapshotError::Corrupt("a term table"))
    }
}

/// The whole length (header included) a snapshot's header announces, once its magic and
/// version are checked: what a stream of a snapshot is sized from (`bytes` holds at least
/// its first [`HEADER`] bytes then).
pub fn declared(bytes: &[u8]) -> Result<u64, SnapshotError> {
    let magic = &bytes[..bytes.len().min(MAGIC.len())];
    if magic != &MAGIC[..magic.len()] {
        return Err(SnapshotError::Foreign);
    }
    if bytes.len() < HEADER {
        return Err(SnapshotError::Truncated {
            had: bytes.len(),
            needed: HEADER as u64,
        });
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let version = word(8);
    if version != VERSION && version != COUNTED {
        return Err(SnapshotError::Version(version));
    }
    // In u64: a length field of 0xFFFFFFFF does not wrap on a 32-bit target (wasm).
    Ok(HEADER as u64 + u64::from(word(12)))
}

/// Checks the header of `bytes`: `Ok` with the payload when it is a snapshot of this
/// version, whole and unaltered.
fn payload(bytes: &[u8]) -> Result<&[u8], SnapshotError> {
    let needed = declared(bytes)?;
    let had = bytes.len() as u64;
    if had < needed {
        return Err(SnapshotError::Truncated {
            had: bytes.len(),
            needed,
        });
    }
    if had > needed {
        return Err(SnapshotError::Trailing {
            had: bytes.len(),
            expected: needed,
        });
    }
    let body = bytes.get(HEADER..).unwrap_or_default();
    if checksum(body) != super::vectors::word(bytes, 16) {
        return Err(SnapshotError::Checksum);
    }
    Ok(body)
}

/// The index of a snapshot, checked. The vectors' rows stay in `bytes` (taken, not
/// copied: the buffer is cut after them).
pub fn load(mut bytes: Vec<u8>) -> Result<Snapshot, SnapshotError> {
    use SnapshotError::Corrupt;
    let mut r = Reader {
        bytes: payload(&bytes)?,
        at: 0,
    };
    let limit = r.u32()?;
    let mut weight = [0f32; FIELDS];
    let mut b = [0f32; FIELDS];
    for x in weight.iter_mut().chain(b.iter_mut()) {
        *x = r.f32()?;
    }
    let k1 = r.f32()?;
    let flags = r.u32()?;
    let params = Params {
        weight,
        b,
        k1,
        stem: flags & 1 != 0,
        stop: flags & 2 != 0,
        camel: flags & 4 != 0,
        elide: flags & 16 != 0,
    };
    let fusion = Fusion {
        k: r.f32()?,
        lexical: r.f32()?,
        embedding: r.f32()?,
        depth: r.u32()? as usize,
        embedding_depth: r.u32()? as usize,
    };
    let sane = |x: f32| x.is_finite() && x >= 0.0;
    // The ranking's constants within the bounds where every score is finite, positive for a
    // match and tells tools apart (forged bytes with a matching checksum included).
    let within = |x: f32, low: f32, high: f32| (low..=high).contains(&x);
    let lexical = weight.iter().all(|&w| within(w, 0.0, 1e3))
        && b.iter().all(|&b| within(b, 0.0, 1.0))
        && within(k1, 0.0, 1e3);
    let fused = within(fusion.k, 1e-3, 1e6)
        && within(fusion.lexical, f32::MIN_POSITIVE, 1e6)
        && within(fusion.embedding, f32::MIN_POSITIVE, 1e6);
    if limit == 0 || !lexical || !fused {
        return Err(Corrupt("the options"));
    }
    let tools = r.u32()?;
    let dims = r.u32()? as usize;
    let (mut rows, mut scale) = (0..0, Vec::new());
    if dims > 0 {
        let data = r.array(1)?;
        rows = HEADER + r.at - data.len()..HEADER + r.at;
        scale = r.f32s()?;
        if scale.len() != tools as usize || !scale.iter().all(|&s| sane(s)) {
            return Err(Corrupt("the vectors"));
        }
    }
    let name_units = r.u16s()?;
    let name_ends = r.u32s()?;
    let mut prev = 0;
    if name_ends.len() != tools as usize
        || !name_ends.iter().all(|&e| {
            let ok = e >= prev && e as usize <= name_units.len();
            prev = e;
            ok
        })
    {
        return Err(Corrupt("the names"));
    }
    let terms = r.terms()?;
    let offsets = r.u32s()?;
    // Checked as they are read: tools in range; scores finite and > 0 (as bits, 1 to
    // f32::MAX).
    let post_tool = r.words(0, tools.wrapping_sub(1), "the postings", as_is)?;
    let post_score = r.words(1, f32::MAX.to_bits() - 1, "the postings", f32::from_bits)?;
    let mut prev = 0;
    if offsets.len() != terms.len() + 1
        || offsets.first() != Some(&0)
        || !offsets.iter().all(|&o| {
            let ok = o >= prev;
            prev = o;
            ok
        })
        || prev as usize != post_tool.len()
        || post_tool.len() != post_score.len()
        || (tools == 0 && !post_tool.is_empty())
    {
        return Err(Corrupt("the postings"));
    }
    // None, or one per tool (`Namespaces::new` checks the rest).
    let first = r.u32s()?;
    let namespaces = match first.len() {
        0 => Namespaces::default(),
        n if n == tools as usize => Namespaces::new(first).ok_or(Corrupt("the namespaces"))?,
        _ => return Err(Corrupt("the namespaces")),
    };
    // Format 5 and flag 8 go together (the header is checked by `payload`).
    let counted = bytes.get(8..12) == Some(&COUNTED.to_le_bytes()[..]);
    if (flags & 8 != 0) != counted {
        return Err(Corrupt("the format's flags"));
    }
    let counts = if flags & 8 != 0 {
        Some(r.counts(post_tool.len(), tools as usize)?)
    } else {
        None
    };
    if r.at != r.bytes.len() {
        return Err(Corrupt("bytes after the last section"));
    }
    let vectors = if dims == 0 {
        None
    } else {
        bytes.truncate(rows.end);
        bytes.shrink_to_fit();
        Some(Vectors::from_raw(dims, bytes, rows.start, scale).ok_or(Corrupt("the vectors"))?)
    };
    let index = Index {
        tools,
        params,
        terms,
        offsets,
        post_tool,
        post_score,
        counts,
        vectors,
        namespaces,
    };
    Ok(Snapshot {
        index,
        fusion,
        limit,
        name_units,
        name_ends,
    })
}
