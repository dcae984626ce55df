//! Decimal digits to the nearest f64 (ties to even), as JavaScript's `Number()` reads them.
//!
//! Core's `str::parse::<f64>` weighs 16 KB of wasm (its tables of powers of five); a
//! frontmatter's numbers are short (`1.0`, `2.5`), so they take Clinger's exact fast path,
//! and any other is settled exactly by comparing big integers (Clinger's AlgorithmR): a
//! first approximation, moved by one unit in the last place until the text lies within
//! half a unit of it.

use alloc::vec::Vec;

/// The f64 nearest to `digits x 10^e` (decimal digits, leading zeros left out), negated
/// when `negative`.
pub(super) fn value(negative: bool, mut ds: Vec<u8>, mut e: i64) -> f64 {
    while ds.last() == Some(&0) {
        ds.pop();
        e += 1;
    }
    let n = ds.len() as i64;
    let v = if n == 0 || n + e <= -324 {
        0.0
    } else if n + e > 310 {
        f64::INFINITY
    } else if n <= 15 && e.abs() <= 22 {
        // Both exact in an f64: one correctly rounded operation.
        let m = ds.iter().fold(0u64, |m, &d| m * 10 + u64::from(d)) as f64;
        let p = (0..e.abs()).fold(1.0, |p, _| p * 10.0);
        if e < 0 {
            m / p
        } else {
            m * p
        }
    } else {
        // At most 800 digits decide (768 suffice); a nonzero rest becomes a last digit 1.
        if ds.len() > 800 {
            e += ds.len() as i64 - 800;
            ds.truncate(800);
            ds.push(1);
            e -= 1;
        }
        nearest(&ds, e)
    };
    if negative {
        -v
    } else {
        v
    }
}

/// The f64 nearest to `ds x 10^e` (ds: significant digits), by AlgorithmR.
fn nearest(ds: &[u8], e: i64) -> f64 {
    // First approximation: the leading 19 digits, scaled by binary powers of ten.
    let head = ds.len().min(19);
    let m = ds[..head].iter().fold(0u64, |m, &d| m * 10 + u64::from(d)) as f64;
    let mut z = scale(m, e + (ds.len() - head) as i64);
    if z.is_infinite() {
        z = f64::MAX;
    }
    if z == 0.0 {
        z = f64::from_bits(1);
    }
    let x = Big::digits(ds);
    loop {
        let bits = z.to_bits();
        let field = (bits >> 52) as i64;
        let (m, k) = if field == 0 {
            (bits & ((1 << 52) - 1), -1074)
        } else {
            ((bits & ((1 << 52) - 1)) | 1 << 52, field - 1075)
        };
        // Above the halfway point to the next value (or on it, from an odd one): up.
        let up = compare(&x, e, 2 * m + 1, k - 1);
        if up.is_gt() || (up.is_eq() && m & 1 == 1) {
            z = f64::from_bits(bits + 1);
            if z.is_infinite() {
                return z;
            }
            continue;
        }
        // Below the halfway point to the previous one: down. Just above a power of two
        // the previous value is half as far.
        if m > 0 {
            let low = if m == 1 << 52 && field > 1 {
                compare(&x, e, 4 * m - 1, k - 2)
            } else {
                compare(&x, e, 2 * m - 1, k - 1)
            };
            if low.is_lt() || (low.is_eq() && m & 1 == 1) {
                z = f64::from_bits(bits - 1);
                continue;
            }
        }
        return z;
    }
}

/// `m x 10^e` in floating point (a few units in the last place off).
fn scale(mut m: f64, e: i64) -> f64 {
    let mut p = 10.0f64;
    let mut k = e.unsigned_abs();
    while k > 0 && m != 0.0 && m.is_finite() {
        if k & 1 == 1 {
            m = if e < 0 { m / p } else { m * p };
        }
        p *= p;
        k >>= 1;
    }
    m
}

/// `x x 10^e` against `y x 2^k`, exactly.
fn compare(x: &Big, e: i64, y: u64, k: i64) -> core::cmp::Ordering {
    let mut x = x.clone();
    let mut y = Big(alloc::vec![y as u32, (y >> 32) as u32]);
    // 10^e = 5^e x 2^e: the powers of five to one side, of two to the shifts.
    let (mut x2, mut y2) = (0i64, k);
    if e >= 0 {
        x.pow5(e as u64);
        x2 += e;
    } else {
        y.pow5(e.unsigned_abs());
        y2 -= e;
    }
    if x2 > y2 {
        x.shl((x2 - y2) as u64);
    } else {
        y.shl((y2 - x2) as u64);
    }
    x.cmp(&y)
}

/// A natural number in 32-bit limbs, least significant first.
#[derive(Clone)]
struct Big(Vec<u32>);

impl Big {
    fn digits(ds: &[u8]) -> Big {
        let mut b = Big(Vec::new());
        for &d in ds {
            b.mul_add(10, u32::from(d));
        }
        b
    }

    fn mul_add(&mut self, f: u32, add: u32) {
        let mut carry = u64::from(add);
        for w in &mut self.0 {
            let v = u64::from(*w) * u64::from(f) + carry;
            *w = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn pow5(&mut self, mut n: u64) {
        while n > 0 {
            let k = n.min(13);
            self.mul_add(5u32.pow(k as u32), 0);
            n -= k;
        }
    }

    fn shl(&mut self, bits: u64) {
        let mut v = alloc::vec![0; (bits / 32) as usize];
        let mut carry = 0;
        for &w in &self.0 {
            let x = u64::from(w) << (bits % 32);
            v.push(x as u32 | carry);
            carry = (x >> 32) as u32;
        }
        v.push(carry);
        self.0 = v;
    }

    fn cmp(&self, other: &Big) -> core::cmp::Ordering {
        let len = |b: &Big| b.0.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
        let (a, b) = (len(self), len(other));
        a.cmp(&b).then_with(|| {
            let (x, y) = (
                self.0.get(..a).unwrap_or(&[]),
                other.0.get(..b).unwrap_or(&[]),
            );
            x.iter().rev().cmp(y.iter().rev())
        })
    }
}
