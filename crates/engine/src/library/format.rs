//! Number formatting shared by formulas (`fmt`, `fmt_pct`) and the renderers.
//!
//! The digits are those of Rust's `format!("{:.N}", x)`: the exact binary value of `x`
//! rounded to `N` decimals, ties (exact halves, such as 0.125 to 2 decimals) to the even
//! digit. `renderers/html/library.js` reproduces this with an exact decimal expansion, not
//! with `Number.prototype.toFixed` (which rounds ties up and switches to exponent notation
//! from 1e21).

/// The most decimals anything shows: `fmt`'s argument, an output's or a slider's `digits`
/// (as `renderers/html/library.js` clamps them). Declared with the lab format's other bounds.
pub use crate::load::limits::MAX_DIGITS;

/// `x` with exactly `digits` decimals (at most [`MAX_DIGITS`]); with `thousands`, the integer part is grouped by
/// three with `,`. Negative values get a leading `-` unless every printed digit is zero
/// (so `-0.0` and `-0.001` to 2 decimals print `0` and `0.00`). NaN prints `NaN`,
/// infinities `∞` and `-∞`.
///
/// ```
/// use labforge_engine::library::format::fixed;
/// assert_eq!(fixed(1234567.891, 2, true), "1,234,567.89");
/// assert_eq!(fixed(0.125, 2, false), "0.12"); // tie to even
/// assert_eq!(fixed(-0.0, 0, true), "0");
/// ```
pub fn fixed(x: f64, digits: u32, thousands: bool) -> String {
    // More decimals than the page shows (and than `check` allows) are never printed.
    let digits = digits.min(MAX_DIGITS);
    if x.is_nan() {
        return "NaN".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "∞" } else { "-∞" }.to_string();
    }
    let body = format!("{:.*}", digits as usize, x.abs());
    let all_zero = body.bytes().all(|b| b == b'0' || b == b'.');
    let (int_part, frac_part) = match body.find('.') {
        Some(i) => body.split_at(i),
        None => (body.as_str(), ""),
    };
    let mut out = String::with_capacity(body.len() + body.len() / 3 + 1);
    if x < 0.0 && !all_zero {
        out.push('-');
    }
    if thousands {
        let n = int_part.len();
        for (i, ch) in int_part.chars().enumerate() {
            if i > 0 && (n - i) % 3 == 0 {
                out.push(',');
            }
            out.push(ch);
        }
    } else {
        out.push_str(int_part);
    }
    out.push_str(frac_part);
    out
}

/// `x` in scientific notation with `digits` decimals in the mantissa, the exponent written
/// with superscript digits: `1.23×10⁴`, `-5.0×10⁻³`, `0.00×10⁰`. The mantissa is rounded as
/// [`fixed`] rounds (the exact binary value, ties to even); a sign only for a non-zero value.
/// NaN and infinities as in [`fixed`].
///
/// ```
/// use labforge_engine::library::format::sci;
/// assert_eq!(sci(12345.0, 2), "1.23×10⁴");
/// assert_eq!(sci(-0.00015, 1), "-1.5×10⁻⁴");
/// assert_eq!(sci(9.999, 2), "1.00×10¹");
/// ```
pub fn sci(x: f64, digits: u32) -> String {
    let digits = digits.min(MAX_DIGITS);
    if !x.is_finite() {
        return fixed(x, 0, false);
    }
    let body = format!("{:.*e}", digits as usize, x.abs());
    let (mantissa, exp) = body.split_once('e').unwrap_or((body.as_str(), "0"));
    let sign = if x < 0.0 { "-" } else { "" };
    format!("{sign}{mantissa}×10{}", superscript(exp))
}

/// An exponent (`-3`) in superscript digits (`⁻³`).
fn superscript(exp: &str) -> String {
    exp.chars()
        .map(|c| match c {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹']
                [d.to_digit(10).unwrap_or(0) as usize],
        })
        .collect()
}

/// What goes between a number and its unit so it reads naturally: nothing before a symbol
/// (`45%`, `3×`, `$12/day`, `20°C`) or, after a prefix such as `$`, before a magnitude letter
/// (`$86K`, `$1.2M`); a space before a word or unit symbol (`3.2 ms`, `512 B`, `16 GPUs`).
///
/// ```
/// use labforge_engine::library::format::unit_sep;
/// assert_eq!(unit_sep("%", false), "");
/// assert_eq!(unit_sep("K", true), "");
/// assert_eq!(unit_sep("K", false), " ");
/// assert_eq!(unit_sep("ms", false), " ");
/// ```
pub fn unit_sep(unit: &str, prefixed: bool) -> &'static str {
    let symbol = unit.starts_with(['%', '×', '/', '°', '‰']) || unit == "x";
    let magnitude = prefixed && matches!(unit, "K" | "k" | "M" | "B" | "T");
    if unit.is_empty() || symbol || magnitude {
        ""
    } else {
        " "
    }
}

/// A readable default: whole numbers below 1e15 in magnitude print without decimals;
/// otherwise |x| >= 100 gets 0 decimals, |x| >= 10 gets 1, anything smaller 2; always with
/// thousands separators. NaN and infinities as in [`fixed`].
///
/// ```
/// use labforge_engine::library::format::auto;
/// assert_eq!(auto(50000.0), "50,000");
/// assert_eq!(auto(1609.968943), "1,610");
/// assert_eq!(auto(26.8328), "26.8");
/// assert_eq!(auto(0.2), "0.20");
/// ```
pub fn auto(x: f64) -> String {
    fixed(x, auto_digits(x), true)
}

/// The number of decimals [`auto`] uses for `x`.
pub(crate) fn auto_digits(x: f64) -> u32 {
    let a = x.abs();
    if !x.is_finite() || (a < 1e15 && x == x.trunc()) || a >= 100.0 {
        0
    } else if a >= 10.0 {
        1
    } else {
        2
    }
}

/// The `digits` argument of `fmt`/`fmt_pct` as given in a formula (a float): truncated
/// toward zero and clamped to `0..=20`; NaN counts as 0.
pub(crate) fn digits_arg(d: f64) -> u32 {
    if d.is_nan() {
        0
    } else {
        d.trunc().clamp(0.0, MAX_DIGITS as f64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_round_to_even_on_the_exact_binary_value() {
        // 0.125 = 1/8 exactly: a true tie, the kept digit 2 is even -> 0.12.
        assert_eq!(fixed(0.125, 2, false), "0.12");
        // 0.375 = 3/8 exactly: tie, 7 is odd -> 0.38.
        assert_eq!(fixed(0.375, 2, false), "0.38");
        assert_eq!(fixed(2.5, 0, false), "2");
        assert_eq!(fixed(3.5, 0, false), "4");
        assert_eq!(fixed(0.5, 0, false), "0");
        // 1.005 is stored as 1.00499999999999989..., below the tie -> 1.00.
        assert_eq!(fixed(1.005, 2, false), "1.00");
        // 2.675 is stored as 2.67499999999999982... -> 2.67.
        assert_eq!(fixed(2.675, 2, false), "2.67");
        // 123456789.125 is exact; tie, 2 even -> .12
        assert_eq!(fixed(123456789.125, 2, true), "123,456,789.12");
        assert_eq!(fixed(-123456789.125, 2, true), "-123,456,789.12");
    }

    #[test]
    fn large_values_are_never_in_exponent_form() {
        assert_eq!(fixed(1e21, 2, false), "1000000000000000000000.00");
        assert_eq!(fixed(1e21, 0, true), "1,000,000,000,000,000,000,000");
        // 2^64 exactly.
        assert_eq!(
            fixed(18446744073709551616.0, 0, true),
            "18,446,744,073,709,551,616"
        );
    }

    #[test]
    fn signs_and_specials() {
        assert_eq!(fixed(-0.0, 0, true), "0");
        assert_eq!(fixed(-0.0, 2, true), "0.00");
        assert_eq!(fixed(-0.001, 2, true), "0.00");
        assert_eq!(fixed(-0.006, 2, true), "-0.01");
        assert_eq!(fixed(-1234.5, 1, true), "-1,234.5");
        assert_eq!(fixed(f64::NAN, 2, true), "NaN");
        assert_eq!(fixed(f64::INFINITY, 2, true), "∞");
        assert_eq!(fixed(f64::NEG_INFINITY, 2, true), "-∞");
        assert_eq!(fixed(5e-324, 3, true), "0.000");
    }

    #[test]
    fn thousands_grouping() {
        assert_eq!(fixed(0.0, 0, true), "0");
        assert_eq!(fixed(999.0, 0, true), "999");
        assert_eq!(fixed(1000.0, 0, true), "1,000");
        assert_eq!(fixed(100000.0, 0, true), "100,000");
        assert_eq!(fixed(1000000.0, 3, true), "1,000,000.000");
        assert_eq!(fixed(1000000.0, 0, false), "1000000");
        // Rounding can carry into a new group.
        assert_eq!(fixed(999999.5, 0, true), "1,000,000");
    }

    #[test]
    fn auto_picks_decimals_by_magnitude() {
        assert_eq!(auto(0.0), "0");
        assert_eq!(auto(-0.0), "0");
        assert_eq!(auto(5.0), "5");
        assert_eq!(auto(-42.0), "-42");
        assert_eq!(auto(999999999999999.0), "999,999,999,999,999");
        assert_eq!(auto(1e15), "1,000,000,000,000,000");
        assert_eq!(auto(3.456), "3.46");
        assert_eq!(auto(-3.456), "-3.46");
        assert_eq!(auto(9.999), "10.00");
        assert_eq!(auto(10.25), "10.2"); // 10.25 is exact: tie to even
        assert_eq!(auto(99.96), "100.0");
        assert_eq!(auto(100.5), "100"); // exact tie to even
        assert_eq!(auto(2450.7), "2,451");
        assert_eq!(auto(f64::NAN), "NaN");
        assert_eq!(auto(f64::NEG_INFINITY), "-∞");
    }

    #[test]
    fn digits_never_exceed_the_page_s_twenty() {
        assert_eq!(fixed(1.5, 65536, false), fixed(1.5, 20, false));
        assert_eq!(fixed(1.5, u32::MAX, false).len(), "1.".len() + 20);
    }

    #[test]
    fn scientific_notation() {
        assert_eq!(sci(0.0, 2), "0.00×10⁰");
        assert_eq!(sci(-0.0, 0), "0×10⁰");
        assert_eq!(sci(1.125, 2), "1.12×10⁰"); // exact tie to even
        assert_eq!(sci(1.0e21, 1), "1.0×10²¹");
        assert_eq!(sci(5e-324, 1), "4.9×10⁻³²⁴");
        assert_eq!(sci(f64::NAN, 2), "NaN");
        assert_eq!(sci(f64::NEG_INFINITY, 2), "-∞");
    }

    #[test]
    fn units_read_naturally() {
        for (unit, prefixed, sep) in [
            ("", false, ""),
            ("x", false, ""),
            ("× SLO", false, ""),
            ("/day", true, ""),
            ("M", true, ""),
            ("M", false, " "),
            ("B params", true, " "),
            ("min", false, " "),
        ] {
            assert_eq!(unit_sep(unit, prefixed), sep, "{unit:?}");
        }
    }

    #[test]
    fn digits_argument() {
        assert_eq!(digits_arg(2.0), 2);
        assert_eq!(digits_arg(2.9), 2);
        assert_eq!(digits_arg(-1.0), 0);
        assert_eq!(digits_arg(99.0), 20);
        assert_eq!(digits_arg(f64::NAN), 0);
        assert_eq!(digits_arg(f64::INFINITY), 20);
    }
}
