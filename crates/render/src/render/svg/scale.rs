//! Axis scales and number formatting shared by the chart drawing (charts.js has the same code).

pub use crate::eval::chart::{fixed, tip_num};

/// A coordinate with one decimal (JS: `toFixed(1)`).
pub fn c(x: f64) -> String {
    let s = format!("{x:.1}");
    if s == "-0.0" {
        "0.0".into()
    } else {
        s
    }
}

/// A tick label: SI suffix for large magnitudes, decimals from the tick step.
pub fn tick_label(v: f64, step: f64, prefix: &str, suffix: &str) -> String {
    let a = v.abs();
    let (x, st, unit) = if a >= 1e9 {
        (v / 1e9, step / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, step / 1e6, "M")
    } else if a >= 1e4 {
        (v / 1e3, step / 1e3, "k")
    } else {
        (v, step, "")
    };
    let d = if st > 0.0 && st < 1.0 {
        ((-st.log10() - 1e-9).ceil() as i64).clamp(0, 10) as usize
    } else {
        0
    };
    format!("{prefix}{}{unit}{suffix}", fixed(x, d))
}

/// An axis scale: domain (in log10 units when `log`), ticks and their step.
#[derive(Debug, Clone)]
pub struct Scale {
    pub log: bool,
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
    pub step: f64,
}

fn nice_step(range: f64) -> f64 {
    let raw = range / 5.0;
    let p = 10f64.powf(raw.log10().floor());
    let m = raw / p;
    let k = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    k * p
}

impl Scale {
    /// A scale over `vals` (non-finite and, for log, non-positive values ignored), with optional
    /// explicit bounds; `zero` includes 0 in a linear domain (bars).
    pub fn new(vals: &[f64], min: Option<f64>, max: Option<f64>, log: bool, zero: bool) -> Scale {
        let ok = |v: &f64| v.is_finite() && (!log || *v > 0.0);
        let data: Vec<f64> = vals.iter().copied().filter(ok).collect();
        let mut lo = data.iter().copied().fold(f64::INFINITY, f64::min);
        let mut hi = data.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if zero && !log {
            lo = lo.min(0.0);
            hi = hi.max(0.0);
        }
        if let Some(m) = min.filter(ok) {
            lo = m;
        }
        if let Some(m) = max.filter(ok) {
            hi = m;
        }
        if !lo.is_finite() || !hi.is_finite() {
            (lo, hi) = if log { (1.0, 10.0) } else { (0.0, 1.0) };
        }
        if hi < lo {
            std::mem::swap(&mut lo, &mut hi);
        }
        if log {
            let (mut l, mut h) = (lo.log10(), hi.log10());
            if min.is_none() {
                l = l.floor();
            }
            if max.is_none() {
                h = h.ceil();
            }
            if h - l < 1e-12 {
                l -= 1.0;
                h += 1.0;
            }
            let mut ticks = Vec::new();
            let mut e = l.floor();
            let mults: &[f64] = if h - l <= 1.5 {
                &[1.0, 2.0, 5.0]
            } else {
                &[1.0]
            };
            let every = ((h - l) / 8.0).ceil().max(1.0);
            while e <= h.ceil() && ticks.len() < 40 {
                if (e - l.floor()) % every == 0.0 {
                    for m in mults {
                        let t = m * 10f64.powf(e);
                        let lt = t.log10();
                        if lt >= l - 1e-9 && lt <= h + 1e-9 {
                            ticks.push(t);
                        }
                    }
                }
                e += 1.0;
            }
            return Scale {
                log,
                lo: l,
                hi: h,
                ticks,
                step: 0.0,
            };
        }
        if hi - lo < 1e-12 * lo.abs().max(1.0) {
            let d = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
            lo -= d;
            hi += d;
        }
        let step = nice_step(hi - lo);
        if min.is_none() {
            lo = (lo / step).floor() * step;
        }
        if max.is_none() {
            hi = (hi / step).ceil() * step;
        }
        let mut ticks = Vec::new();
        let mut t = (lo / step).ceil() * step;
        while t <= hi + step * 1e-9 && ticks.len() < 40 {
            ticks.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
            t += step;
        }
        Scale {
            log,
            lo,
            hi,
            ticks,
            step,
        }
    }

    /// Fraction of the way along the axis (NaN when the value cannot be placed).
    pub fn frac(&self, v: f64) -> f64 {
        let x = if self.log {
            if v > 0.0 {
                v.log10()
            } else {
                f64::NAN
            }
        } else {
            v
        };
        (x - self.lo) / (self.hi - self.lo)
    }

    pub fn label(&self, v: f64, prefix: &str, suffix: &str) -> String {
        let step = if self.log { v } else { self.step };
        tick_label(v, step, prefix, suffix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_are_nice() {
        let s = Scale::new(&[0.3, 9.7], None, None, false, false);
        assert_eq!(s.ticks, vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(tick_label(2500.0, 500.0, "$", ""), "$2500");
        assert_eq!(tick_label(25000.0, 5000.0, "", "%"), "25k%");
        assert_eq!(tick_label(0.25, 0.05, "", ""), "0.25");
    }

    #[test]
    fn log_ticks_are_decades() {
        let s = Scale::new(&[3.0, 4000.0], None, None, true, false);
        assert_eq!(s.ticks, vec![1.0, 10.0, 100.0, 1000.0, 10000.0]);
        assert!((s.frac(100.0) - 0.5).abs() < 1e-12);
    }
}
