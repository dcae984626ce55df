//! The tools' vectors (the host's embeddings), for the embedding half of hybrid ranking.
//!
//! Each vector is normalised (cosine similarity is a dot product of unit vectors), then
//! stored as int8 scaled to its own largest component (±127) with that scale as f32: d + 4
//! bytes per tool (388 at 384 dimensions) instead of 4·d for f32, and a query is an
//! integer dot product (i16 × i8 → i32), in wasm SIMD on wasm32. Rows are padded to a
//! multiple of 16 components (zeros) so the SIMD loop has no tail. DESIGN.md says what the
//! quantisation costs in recall (nothing measurable on BFCL live).

use alloc::vec::Vec;

/// Components per SIMD step; rows are padded to a multiple of it.
const LANES: usize = 16;

/// Why a vector was refused: the caller's error names the tool's index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorError {
    /// A vector with no components, or of another length than the first one.
    Length { expected: usize, got: usize },
    /// A component that is NaN or infinite.
    NotFinite { at: usize },
}

impl VectorError {
    /// The error as one number, for the binding to word: 1 a length, 2 + i component i.
    pub fn code(self) -> u32 {
        match self {
            VectorError::Length { .. } => 1,
            VectorError::NotFinite { at } => 2 + at as u32,
        }
    }
}

/// [`check`] as one number: 0 when `v` fits, else its error's [`VectorError::code`].
pub fn verdict(v: &[f64], dims: Option<usize>) -> u32 {
    check(v, dims).map_or_else(VectorError::code, |()| 0)
}

/// One vector's length and components checked: `Ok(())` if it may be added to (or
/// searched with) a store of `dims` components (`None`: the first vector, any length > 0).
pub fn check(v: &[f64], dims: Option<usize>) -> Result<(), VectorError> {
    let expected = dims.unwrap_or(v.len());
    if v.is_empty() || v.len() != expected {
        return Err(VectorError::Length {
            expected,
            got: v.len(),
        });
    }
    match v.iter().position(|x| !x.is_finite()) {
        Some(at) => Err(VectorError::NotFinite { at }),
        None => Ok(()),
    }
}

#[derive(Debug, Clone)]
pub struct Vectors {
    dims: usize,
    /// `dims` rounded up to a multiple of `LANES`.
    stride: usize,
    /// Row i is `data[base + i * stride..base + (i + 1) * stride]`: the unit vector
    /// divided by `scale[i]`, as i8 components (stored as their bytes, so that a loaded
    /// snapshot's rows stay where they were read: `base` is their offset in its buffer, 0
    /// in a store built here); SIMD reads 16 at a time, as two little-endian u64 words.
    data: Vec<u8>,
    base: usize,
    scale: Vec<f32>,
}

/// Equal stores: the same dimensions, rows and scales (wherever the rows start).
impl PartialEq for Vectors {
    fn eq(&self, other: &Vectors) -> bool {
        self.dims == other.dims && self.raw() == other.raw()
    }
}

/// The unit vector of `v` (all zeros if `v` is), in f64.
fn unit(v: &[f64], out: &mut Vec<f64>) {
    out.clear();
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let norm = if norm > 0.0 && norm.is_finite() {
        norm
    } else {
        // Components so large that the sum of squares overflows: scale down first.
        let max = v.iter().fold(0f64, |m, x| m.max(x.abs()));
        if max == 0.0 {
            out.resize(v.len(), 0.0);
            return;
        }
        let s = v.iter().map(|x| (x / max) * (x / max)).sum::<f64>().sqrt();
        out.extend(v.iter().map(|x| x / max / s));
        return;
    };
    out.extend(v.iter().map(|x| x / norm));
}

/// Rounds to the nearest integer (half away from zero) without std.
#[inline(always)]
fn round(x: f64) -> f64 {
    let t = x as i64 as f64;
    let r = x - t;
    if r >= 0.5 {
        t + 1.0
    } else if r <= -0.5 {
        t - 1.0
    } else {
        t
    }
}

impl Vectors {
    /// An empty store of `dims` (> 0) components per vector.
    pub fn new(dims: usize) -> Vectors {
        Vectors {
            dims,
            stride: dims.div_ceil(LANES) * LANES,
            data: Vec::new(),
            base: 0,
            scale: Vec::new(),
        }
    }

    pub fn dims(&self) -> usize {
        self.dims
    }

    pub fn len(&self) -> usize {
        self.scale.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scale.is_empty()
    }

    pub fn heap_bytes(&self) -> usize {
        self.data.capacity() + 4 * self.scale.capacity()
    }

    /// Bytes per vector stored.
    pub fn bytes_per_vector(&self) -> usize {
        self.stride + 4
    }

    pub fn reserve(&mut self, n: usize) {
        self.data.reserve(n * self.stride);
        self.scale.reserve(n);
    }

    /// The store with room for `n` vectors.
    pub fn reserved(mut self, n: usize) -> Vectors {
        self.reserve(n);
        self
    }

    /// Adds a vector (checked with `check` first: `dims` finite components).
    pub fn push(&mut self, v: &[f64]) {
        // int8 = x / max|x| · 127 (the unit vector's own scaling), and the scale back to
        // the unit vector is (max|x| / norm) / 127 = 1 / (127 · sqrt(Σ (x / max|x|)²)):
        // two passes over `v`, no unit vector made, no overflow however large x is.
        // Index loops: opt-level "z" leaves iterator adapters as calls here.
        // A comparison, not `f64::max` (a call to `fmax` per component on wasm: its NaN
        // rule is not wasm's `f64.max`); the components are finite (checked).
        let mut max = 0f64;
        for &x in v {
            let a = x.abs();
            if a > max {
                max = a;
            }
        }
        let start = self.data.len();
        self.data.resize(start + self.stride, 0);
        if max == 0.0 {
            self.scale.push(0.0);
            return;
        }
        // 1 / max overflows for a subnormal max (1e-309): then each component is divided.
        let inv = 1.0 / max;
        let exact = inv.is_finite();
        let mut squares = 0f64;
        let row = &mut self.data.as_mut_slice()[start..start + v.len()];
        let mut i = 0;
        while i < v.len() {
            let r = if exact { v[i] * inv } else { v[i] / max };
            squares += r * r;
            // Rounded half away from zero: |q| <= 127, so the truncation is exact.
            let q = r * 127.0;
            row[i] = (if q >= 0.0 { q + 0.5 } else { q - 0.5 }) as i32 as i8 as u8;
            i += 1;
        }
        self.scale.push((1.0 / (127.0 * squares.sqrt())) as f32);
    }

    /// The query as i16 components scaled so that no partial sum of a dot product can
    /// overflow i32 (|sum| ≤ stride · 127 · qmax < 2^31), and the factor back to the unit
    /// query; `None` for a zero vector (no direction: the embedding says nothing).
    fn quantize(&self, q: &[f64], tmp: &mut Vec<f64>, out: &mut Vec<i16>) -> Option<f64> {
        unit(q, tmp);
        let max = tmp.iter().fold(0f64, |m, x| m.max(x.abs()));
        if max == 0.0 {
            return None;
        }
        let qmax = (i32::MAX as usize / (127 * self.stride)).min(16383) as f64;
        let k = qmax / max;
        out.clear();
        out.resize(self.stride, 0);
        for (o, &x) in out.iter_mut().zip(tmp.iter()) {
            *o = round(x * k) as i16;
        }
        Some(1.0 / k)
    }

    /// Cosine similarity of the query `q` (`dims` finite components) with every vector,
    /// into `scores` (resized to `len()`); false (and `scores` untouched) for a zero query.
    pub fn cosines(&self, q: &[f64], scratch: &mut QueryScratch, scores: &mut Vec<f32>) -> bool {
        let Some(qscale) = self.quantize(q, &mut scratch.unit, &mut scratch.q) else {
            return false;
        };
        scores.clear();
        scores.resize(self.len(), 0.0);
        let q = query_form(&scratch.q, &mut scratch.simd);
        for ((row, &s), out) in self.data[self.base..]
            .chunks_exact(self.stride)
            .zip(&self.scale)
            .zip(scores.iter_mut())
        {
            *out = (f64::from(dot(q, row)) * qscale * f64::from(s)) as f32;
        }
        true
    }

    /// The stored form, for snapshots: dims, then per vector its scale and its row.
    pub fn raw(&self) -> (&[u8], &[f32]) {
        (&self.data[self.base..], &self.scale)
    }

    /// A store from its stored form (as `raw` gives it), the rows being `data[base..]`
    /// (a snapshot's buffer, kept rather than copied); `None` if the sizes disagree.
    pub fn from_raw(dims: usize, data: Vec<u8>, base: usize, scale: Vec<f32>) -> Option<Vectors> {
        let v = Vectors::new(dims);
        let rows = data.len().checked_sub(base)?;
        if dims == 0 || rows != scale.len().checked_mul(v.stride)? {
            return None;
        }
        Some(Vectors {
            data,
            base,
            scale,
            ..v
        })
    }
}

/// Buffers a query reuses.
#[derive(Debug, Default)]
pub struct QueryScratch {
    unit: Vec<f64>,
    q: Vec<i16>,
    #[cfg(target_arch = "wasm32")]
    simd: Vec<core::arch::wasm32::v128>,
    #[cfg(not(target_arch = "wasm32"))]
    simd: (),
}

/// The quantised query as `dot` takes it: eight i16 to a v128 on wasm32.
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
fn query_form<'a>(
    q: &[i16],
    out: &'a mut Vec<core::arch::wasm32::v128>,
) -> &'a [core::arch::wasm32::v128] {
    use core::arch::wasm32::i16x8;
    out.clear();
    out.extend(
        q.chunks_exact(8)
            .map(|c| i16x8(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7])),
    );
    out
}

/// The integer dot product of a quantised query and a row, in wasm SIMD: per 16
/// components two words make a v128 of i8, widened to i16 and multiplied-and-added
/// pairwise into i32 lanes.
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
fn dot(q: &[core::arch::wasm32::v128], row: &[u8]) -> i32 {
    use core::arch::wasm32::*;
    // Indexing, not zipped iterators (which opt-level "z" leaves as calls), over slices
    // cut to the length first so that the bounds checks fold away.
    let steps = q.len() / 2;
    let (q, row) = (&q[..2 * steps], &row[..LANES * steps]);
    let mut a = i32x4_splat(0);
    let mut b = i32x4_splat(0);
    let mut i = 0;
    while i < steps {
        let at = LANES * i;
        let v = u64x2(word(row, at), word(row, at + 8));
        a = i32x4_add(a, i32x4_dot_i16x8(i16x8_extend_low_i8x16(v), q[2 * i]));
        b = i32x4_add(b, i32x4_dot_i16x8(i16x8_extend_high_i8x16(v), q[2 * i + 1]));
        i += 1;
    }
    let s = i32x4_add(a, b);
    i32x4_extract_lane::<0>(s)
        + i32x4_extract_lane::<1>(s)
        + i32x4_extract_lane::<2>(s)
        + i32x4_extract_lane::<3>(s)
}

/// The little-endian u64 at `at` of `bytes` (one 8-byte load once compiled).
#[inline(always)]
pub(crate) fn word(bytes: &[u8], at: usize) -> u64 {
    let w = &bytes[at..at + 8];
    u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]])
}

#[cfg(not(target_arch = "wasm32"))]
fn query_form<'a>(q: &'a [i16], _: &mut ()) -> &'a [i16] {
    q
}

/// The same, portably (native tests; the sums are exact integers, so equal to the SIMD's).
#[cfg(not(target_arch = "wasm32"))]
fn dot(q: &[i16], row: &[u8]) -> i32 {
    q.iter()
        .zip(row)
        .map(|(&a, &b)| i32::from(a) * i32::from(b as i8))
        .sum()
}
