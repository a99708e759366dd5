//! How an output's value reads (`renderers/html/runtime.js` `formatOutput` mirrors it, checked
//! by `tests/it/formula_js.rs`): one number per quantity, never a false zero.
//!
//! - At or above its `cap:` an output reads `≥ cap` and is marked capped.
//! - A time that would read 0 at its digits steps down a unit (`0.41 min` to 0 decimals reads
//!   `24.5 s`, `0.004 h` reads `14.4 s`).
//! - A non-zero value gets the decimals it needs to show a non-zero digit (`0.02 TB`, not
//!   `0.0 TB`).
//! - A negative value reads with a minus sign before its prefix: `−$1,545`.

use crate::formula::as_number;
use crate::library::format;
use crate::model::Output;
use rhai::Dynamic;

/// An output's value as shown, in pieces: `num` holds the sign, the `≥` of a cap, the prefix
/// and the digits; `unit` the unit it reads in (after a step down, `s` for `min`).
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    pub num: String,
    pub unit: String,
    pub capped: bool,
    /// What goes between them: nothing where the unit reads attached (`%`, `×`, `/day`, a
    /// magnitude after a currency: `$86K`), else a space ([`format::unit_sep`]).
    pub sep: &'static str,
}

impl Shown {
    /// Number and unit as they read together.
    pub fn text(&self) -> String {
        format!("{}{}{}", self.num, self.sep, self.unit)
    }
}

/// The next smaller time unit and its factor.
fn step_down(unit: &str) -> Option<(&'static str, f64)> {
    match unit {
        "h" => Some(("min", 60.0)),
        "min" => Some(("s", 60.0)),
        _ => None,
    }
}

/// True when a printed number is not zero (some digit 1-9, or infinity).
fn not_zero(s: &str) -> bool {
    s.chars().any(|c| matches!(c, '1'..='9' | '∞'))
}

/// `x` with `digits` decimals, or more until a non-zero `x` shows a non-zero digit.
fn digits_not_zero(x: f64, digits: u32) -> String {
    let mut d = digits;
    loop {
        let s = format::fixed(x, d, true);
        if !x.is_finite() || x == 0.0 || d >= format::MAX_DIGITS || not_zero(&s) {
            return s;
        }
        d += 1;
    }
}

/// A number output's pieces: see the module documentation.
pub fn shown(o: &Output, x: f64) -> Shown {
    let capped = matches!(o.cap, Some(c) if x >= c);
    let mut v = if capped { o.cap.unwrap_or(x) } else { x };
    let mut unit = o.unit.clone().unwrap_or_default();
    let mut digits = o.digits.as_ref().map(|d| d.value);
    // A time that would read 0 at its digits reads in the next smaller unit.
    while v != 0.0 && !not_zero(&format::fixed(v, digits.unwrap_or(2), false)) {
        let Some((u, f)) = step_down(&unit) else {
            break;
        };
        unit = u.to_string();
        v *= f;
        digits = None;
    }
    let a = v.abs();
    let body = digits_not_zero(a, digits.unwrap_or_else(|| format::auto_digits(a)));
    let neg = v < 0.0 && not_zero(&body);
    let num = format!(
        "{}{}{}{body}",
        if capped { "≥ " } else { "" },
        if neg { "−" } else { "" },
        o.prefix.as_deref().unwrap_or("")
    );
    let prefixed = o.prefix.as_deref().is_some_and(|p| !p.is_empty());
    let sep = format::unit_sep(&unit, prefixed);
    Shown {
        num,
        unit,
        capped,
        sep,
    }
}

/// An output's value as shown: `yes`/`no` (or its `words`) for booleans, [`shown`] for numbers.
pub fn format_output(o: &Output, v: &Dynamic) -> String {
    if let Ok(b) = v.as_bool() {
        return match &o.words {
            Some((t, f)) => if b { t } else { f }.clone(),
            None => if b { "yes" } else { "no" }.into(),
        };
    }
    match as_number(v) {
        Some(x) => shown(o, x).text(),
        None => v.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Spanned;

    fn out(unit: &str, prefix: Option<&str>, digits: Option<u32>) -> Output {
        Output {
            unit: Some(unit.into()),
            prefix: prefix.map(str::to_string),
            digits: digits.map(Spanned::unspanned),
            ..Output::default()
        }
    }
    fn f(o: &Output, x: f64) -> String {
        format_output(o, &Dynamic::from_float(x))
    }

    #[test]
    fn units_attach_like_they_read() {
        assert_eq!(f(&out("/day", Some("$"), Some(0)), 1920.0), "$1,920/day");
        assert_eq!(f(&out("%", None, Some(0)), 22.7), "23%");
        assert_eq!(f(&out("min", None, Some(0)), 600.0), "600 min");
    }

    #[test]
    fn negatives_put_the_minus_before_the_currency() {
        assert_eq!(f(&out("", Some("$"), Some(0)), -1545.2), "−$1,545");
        assert_eq!(f(&out("/day", Some("$"), Some(0)), -1376.3), "−$1,376/day");
        assert_eq!(f(&out("%", None, Some(1)), -2.25), "−2.2%");
        // A value that rounds to zero has no sign.
        assert_eq!(f(&out("", Some("$"), Some(0)), -0.0), "$0");
    }

    #[test]
    fn a_non_zero_value_never_reads_zero() {
        assert_eq!(f(&out("TB", None, Some(1)), 0.0224), "0.02 TB");
        assert_eq!(f(&out("TB", None, Some(1)), 0.0), "0.0 TB");
        assert_eq!(f(&out("min", None, Some(0)), 24.5 / 60.0), "24.5 s");
        assert_eq!(f(&out("h", None, Some(1)), 0.5), "0.5 h");
        assert_eq!(f(&out("h", None, Some(0)), 0.4), "24 min");
        assert_eq!(f(&out("h", None, Some(2)), 0.94), "0.94 h");
        assert_eq!(f(&out("min", None, Some(0)), 1.4), "1 min");
        assert_eq!(f(&out("x", None, None), 0.0004), "0.0004x");
    }

    #[test]
    fn a_capped_output_says_so() {
        let o = Output {
            cap: Some(999.0),
            ..out("min", None, Some(1))
        };
        let s = shown(&o, 154_440.0);
        assert!(s.capped);
        assert_eq!(s.text(), "≥ 999.0 min");
        assert_eq!(f(&o, 999.0), "≥ 999.0 min");
        assert_eq!(f(&o, 998.9), "998.9 min");
        assert!(!shown(&o, 998.9).capped);
    }
}
