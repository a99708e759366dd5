//! The built-in hardware/physics library exposed to formulas (stub until the library lands).

/// Documentation of one library function.
pub struct FnDoc {
    pub path: &'static str,
    pub signature: &'static str,
    pub summary: &'static str,
    pub units: &'static str,
    pub source: &'static str,
    pub example: &'static str,
}

pub fn functions() -> &'static [FnDoc] {
    &[FnDoc {
        path: "fmt",
        signature: "fmt(x, digits)",
        summary: "format",
        units: "",
        source: "",
        example: "fmt(1.5, 1)",
    }]
}

pub fn register(engine: &mut rhai::Engine) {
    engine.register_fn("fmt", |x: f64, d: f64| format::fixed(x, d as u32, true));
    engine.register_fn("fmt", format::auto);
}

/// Number formatting shared with the page (stub until the library lands).
pub mod format {
    pub fn fixed(x: f64, digits: u32, thousands: bool) -> String {
        let s = format!("{x:.*}", digits as usize);
        if !thousands {
            return s;
        }
        let (sign, rest) = s.strip_prefix('-').map(|r| ("-", r)).unwrap_or(("", &s));
        let (int, frac) = rest
            .split_once('.')
            .map(|(a, b)| (a, Some(b)))
            .unwrap_or((rest, None));
        let mut g = String::new();
        for (i, ch) in int.chars().enumerate() {
            if i > 0 && (int.len() - i) % 3 == 0 {
                g.push(',');
            }
            g.push(ch);
        }
        match frac {
            Some(f) => format!("{sign}{g}.{f}"),
            None => format!("{sign}{g}"),
        }
    }
    pub fn auto(x: f64) -> String {
        let d = if x == x.trunc() || x.abs() >= 100.0 {
            0
        } else if x.abs() >= 10.0 {
            1
        } else {
            2
        };
        fixed(x, d, true)
    }
}
