//! Numbers written with at most one decimal by integer arithmetic, for the status line's
//! milliseconds and the failure diagram's SVG coordinates.
//!
//! Rust's `{:.1}` and `{}` of an `f64` reach `core::fmt::float` (about 9.5 KB of wasm in the
//! first view's module, two functions the browser compiles at their first call, issue 13); these
//! write the same text for the values the page shows without it.

use std::fmt;

/// Rounds `x` to tenths: `(sign, whole, tenth)`, or `None` when `x` is not finite.
fn tenths(x: f64) -> Option<(bool, u64, u64)> {
    if !x.is_finite() {
        return None;
    }
    // Saturates far beyond anything the page measures or draws (milliseconds, pixels).
    let t = (x.abs() * 10.0).round() as u64;
    Some((x < 0.0 && t > 0, t / 10, t % 10))
}

/// `x` with exactly one decimal, as `format!("{x:.1}")` writes it for the magnitudes the page
/// shows (`3.2`, `0.0`, `1250.4`); `NaN` and the infinities as Rust writes them.
#[derive(Clone, Copy, Debug)]
pub struct OneDecimal(pub f64);

impl fmt::Display for OneDecimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match tenths(self.0) {
            Some((negative, whole, tenth)) => {
                let sign = if negative { "-" } else { "" };
                write!(f, "{sign}{whole}.{tenth}")
            }
            None => f.write_str(non_finite(self.0)),
        }
    }
}

/// `x` as `format!("{x}")` writes a number with at most one decimal (`128`, `135.5`, `-6`):
/// the diagram's coordinates, sums and halves of whole pixels ([`crate::tell::diagram`]). A
/// value with more decimals is rounded to tenths.
#[derive(Clone, Copy, Debug)]
pub struct Coord(pub f64);

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match tenths(self.0) {
            Some((negative, whole, 0)) => {
                let sign = if negative { "-" } else { "" };
                write!(f, "{sign}{whole}")
            }
            _ => fmt::Display::fmt(&OneDecimal(self.0), f),
        }
    }
}

fn non_finite(x: f64) -> &'static str {
    if x.is_nan() {
        "NaN"
    } else if x > 0.0 {
        "inf"
    } else {
        "-inf"
    }
}

#[cfg(test)]
mod tests {
    use super::{Coord, OneDecimal};

    #[test]
    fn one_decimal_writes_what_rust_writes() {
        for x in [
            0.0,
            0.04,
            0.05,
            0.96,
            3.2,
            3.25,
            12.0,
            99.95,
            1250.44,
            86_400_000.0,
            -2.5,
            -0.04,
        ] {
            let ours = OneDecimal(x).to_string();
            let rust = format!("{x:.1}");
            // Rust rounds the binary value half to even; ours rounds the scaled value half away
            // from zero: both are right to a tenth, and equal away from exact halves.
            let diff = (ours.parse::<f64>().unwrap() - rust.parse::<f64>().unwrap()).abs();
            assert!(diff < 0.11, "{x}: {ours} vs {rust}");
        }
        assert_eq!(OneDecimal(3.2).to_string(), "3.2");
        assert_eq!(OneDecimal(0.0).to_string(), "0.0");
        assert_eq!(OneDecimal(1250.44).to_string(), "1250.4");
        assert_eq!(OneDecimal(-2.5).to_string(), "-2.5");
        assert_eq!(OneDecimal(-0.01).to_string(), "0.0");
        assert_eq!(OneDecimal(f64::NAN).to_string(), "NaN");
        assert_eq!(OneDecimal(f64::INFINITY).to_string(), "inf");
    }

    #[test]
    fn coord_writes_whole_and_half_pixels_as_rust_does() {
        for x in [0.0, 4.0, 120.0, 135.5, 463.5, 1234.0, -6.0, -3.5, 0.5] {
            assert_eq!(Coord(x).to_string(), format!("{x}"), "{x}");
        }
        assert_eq!(Coord(1.0 / 3.0).to_string(), "0.3");
        assert_eq!(Coord(f64::NEG_INFINITY).to_string(), "-inf");
    }
}
