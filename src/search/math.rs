//! The natural logarithm without `std` (core has no `f64::ln`), for IDF at build time.

/// ln(x) for finite x > 0, to about 1e-12 relative: x = 2^e * m with m in [sqrt(1/2), sqrt(2)),
/// then ln m = 2 atanh(s) with s = (m-1)/(m+1), |s| < 0.172, by its series.
pub(crate) fn ln(x: f64) -> f64 {
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7FF) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000);
    if m > core::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut term = s;
    let mut sum = 0.0;
    let mut k = 1.0;
    while k < 24.0 {
        sum += term / k;
        term *= s2;
        k += 2.0;
    }
    e as f64 * core::f64::consts::LN_2 + 2.0 * sum
}
