//! Quantities as a student reads them in text: "~27 minutes", "About 2 GB", "more than 1,000 g",
//! "between 10 and 100", "32K tokens", "128×", "80%". Each is a number with the precision it is
//! written to, its multiplier and unit (a family and a factor to the family's base), and whether
//! it states a value, a bound or a range. Numbers that are not quantities (part letters, names
//! such as `H100`, years, citations `[12]`) are left out.

/// What a quantity says about the value it names.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Says {
    /// About this value.
    Is,
    /// At least ("more than 100", "100 or more").
    AtLeast,
    /// At most ("under 5%", "less than a hundredth").
    AtMost,
}

/// A unit family: values convert within one, never across.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Bytes,
    Time,
    Percent,
    Times,
    Watts,
    Flops,
    Money,
    /// A word the table does not know (`tokens`, `requests`): compared by its text.
    Other,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    pub family: Family,
    /// To the family's base (bytes, seconds, percent, times, watts, FLOP/s, dollars).
    pub factor: f64,
    /// As written, lower case.
    pub word: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Quantity {
    /// The lowest and highest value it allows, in its unit (equal for a plain number).
    pub lo: f64,
    pub hi: f64,
    pub says: Says,
    /// One unit of the last digit written, in its unit ("600" → 100, "2.5" → 0.1, "32K" → 1000).
    pub ulp: f64,
    pub unit: Option<Unit>,
    /// Byte range of the first number as written.
    pub start: usize,
    pub end: usize,
    /// The text as written ("~27 minutes" gives "27 minutes").
    pub text: String,
    /// It states a fall: `50% reduction`, `30% less`, `−5%`.
    pub falls: bool,
}

/// Words after a quantity that make it a fall (`50% reduction`, `30% less`).
const FALL_WORDS: &[&str] = &[
    "reduction",
    "less",
    "lower",
    "fewer",
    "smaller",
    "shorter",
    "cheaper",
    "slower",
    "drop",
    "cut",
    "decrease",
    "decline",
    "saving",
    "savings",
    "off",
    "down",
];

/// Does a value named `name` (or labelled `label`) speak of a fall (`cost_saving`, "Reduction")?
pub fn names_a_fall(name: &str, label: Option<&str>) -> bool {
    let words = format!("{} {}", name.replace('_', " "), label.unwrap_or("")).to_lowercase();
    words
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| FALL_WORDS.contains(&w) || w.starts_with("reduc") || w.starts_with("sav"))
}

/// Units by how they are written (lower case); longer spellings first within a prefix.
const UNITS: &[(&str, Family, f64)] = &[
    ("pib", Family::Bytes, 1125899906842624.0),
    ("tib", Family::Bytes, 1099511627776.0),
    ("gib", Family::Bytes, 1073741824.0),
    ("mib", Family::Bytes, 1048576.0),
    ("kib", Family::Bytes, 1024.0),
    ("pb", Family::Bytes, 1e15),
    ("tb", Family::Bytes, 1e12),
    ("gb", Family::Bytes, 1e9),
    ("mb", Family::Bytes, 1e6),
    ("kb", Family::Bytes, 1e3),
    ("bytes", Family::Bytes, 1.0),
    ("byte", Family::Bytes, 1.0),
    ("b", Family::Bytes, 1.0),
    ("ns", Family::Time, 1e-9),
    ("µs", Family::Time, 1e-6),
    ("us", Family::Time, 1e-6),
    ("ms", Family::Time, 1e-3),
    ("milliseconds", Family::Time, 1e-3),
    ("millisecond", Family::Time, 1e-3),
    ("seconds", Family::Time, 1.0),
    ("second", Family::Time, 1.0),
    ("sec", Family::Time, 1.0),
    ("s", Family::Time, 1.0),
    ("minutes", Family::Time, 60.0),
    ("minute", Family::Time, 60.0),
    ("min", Family::Time, 60.0),
    ("hours", Family::Time, 3600.0),
    ("hour", Family::Time, 3600.0),
    ("hrs", Family::Time, 3600.0),
    ("hr", Family::Time, 3600.0),
    ("h", Family::Time, 3600.0),
    ("days", Family::Time, 86400.0),
    ("day", Family::Time, 86400.0),
    ("years", Family::Time, 31557600.0),
    ("year", Family::Time, 31557600.0),
    ("%", Family::Percent, 1.0),
    ("percent", Family::Percent, 1.0),
    ("×", Family::Times, 1.0),
    ("x", Family::Times, 1.0),
    ("times", Family::Times, 1.0),
    ("mw", Family::Watts, 1e6),
    ("kw", Family::Watts, 1e3),
    ("w", Family::Watts, 1.0),
    ("watts", Family::Watts, 1.0),
    ("pflop/s", Family::Flops, 1e15),
    ("tflop/s", Family::Flops, 1e12),
    ("gflop/s", Family::Flops, 1e9),
    ("pflops", Family::Flops, 1e15),
    ("tflops", Family::Flops, 1e12),
    ("gflops", Family::Flops, 1e9),
];

/// The factors (to the family's base) of the units of `family` labforge reads.
pub fn family_factors(family: Family) -> Vec<f64> {
    let mut v: Vec<f64> = UNITS
        .iter()
        .filter(|(_, f, _)| *f == family)
        .map(|(_, _, x)| *x)
        .collect();
    v.dedup();
    v
}

/// Words that follow a number without being its unit.
const NOT_UNITS: &[&str] = &[
    "and", "or", "to", "of", "the", "a", "an", "in", "at", "per", "with", "for", "on", "is", "are",
    "vs", "from", "than", "by", "as", "it", "its", "that", "this", "so", "but", "if", "when",
    "each", "every", "more", "less", "fewer", "over", "under", "out", "into", "which", "while",
    "where", "then", "was", "were", "be", "not", "no", "one", "all",
];

/// Reads a unit at the start of `s` (a word, `%` or `×`): the unit and its length in bytes.
/// `$` is read before a number, not here.
pub fn unit_at(s: &str) -> Option<(Unit, usize)> {
    let lower = s.to_lowercase();
    if lower.len() != s.len() {
        return None; // a case change that moves bytes: not a unit this table knows
    }
    for (w, family, factor) in UNITS {
        if let Some(rest) = lower.strip_prefix(w) {
            // A whole word: "hours" not "h" of "hours", "s" not the start of "suffix".
            let wordy = w.chars().all(|c| c.is_alphabetic());
            if wordy && rest.starts_with(|c: char| c.is_alphanumeric()) {
                continue;
            }
            // "b" and "s" and "h" alone are units only right after the number (see `quantities`).
            return Some((
                Unit {
                    family: *family,
                    factor: *factor,
                    word: w.to_string(),
                },
                w.len(),
            ));
        }
    }
    let word: String = s
        .chars()
        .take_while(|c| c.is_alphabetic() || *c == '/')
        .collect();
    let word = word.trim_end_matches('/').to_string();
    let lower = word.to_lowercase();
    let whole = !s[word.len()..].starts_with(|c: char| c.is_alphanumeric());
    let lettered = word.starts_with(char::is_alphabetic);
    (lettered && whole && !NOT_UNITS.contains(&lower.as_str())).then(|| {
        let n = word.len();
        (
            Unit {
                family: Family::Other,
                factor: 1.0,
                word: word.to_lowercase(),
            },
            n,
        )
    })
}

/// The unit of an output's `unit:` label, when labforge knows it.
pub fn output_unit(label: &str) -> Option<Unit> {
    let l = label.trim();
    if l.is_empty() {
        return None;
    }
    let l = l.strip_prefix('$').map_or(l, |_| "");
    if l.is_empty() {
        return Some(Unit {
            family: Family::Money,
            factor: 1.0,
            word: "$".into(),
        });
    }
    match unit_at(l) {
        Some((u, n)) if n == l.len() => Some(u),
        Some((u, _)) if u.family != Family::Other => Some(u),
        _ => Some(Unit {
            family: Family::Other,
            factor: 1.0,
            word: l.to_lowercase(),
        }),
    }
}

fn before_says(before: &str) -> Option<Says> {
    let b = before.trim_end().to_lowercase();
    let b = b
        .trim_end_matches(['~', '≈', '$'])
        .trim_end()
        .trim_end_matches(" about")
        .trim_end_matches(" roughly")
        .trim_end();
    let at_least = [
        "more than",
        "over",
        "above",
        "at least",
        "greater than",
        "beyond",
        "exceeds",
        "exceed",
        "past",
        ">",
        "≥",
    ];
    let at_most = [
        "less than",
        "under",
        "below",
        "at most",
        "fewer than",
        "up to",
        "within",
        "<",
        "≤",
    ];
    let ends = |w: &&str| {
        b.strip_suffix(*w).is_some_and(|r| {
            r.is_empty()
                || !r.ends_with(|c: char| c.is_alphanumeric())
                || !w.starts_with(char::is_alphabetic)
        })
    };
    if at_least.iter().any(ends) {
        Some(Says::AtLeast)
    } else if at_most.iter().any(ends) {
        Some(Says::AtMost)
    } else {
        None
    }
}

/// One number as written at `lit[i..]`: its value, the precision of its last digit, its length.
fn number_at(lit: &str, i: usize) -> Option<(f64, f64, usize)> {
    let b = lit.as_bytes();
    let mut j = i;
    while j < b.len()
        && (b[j].is_ascii_digit()
            || (b[j] == b',' && b.len() >= j + 4 && b[j + 1..j + 4].iter().all(u8::is_ascii_digit))
            || (b[j] == b'.' && b.get(j + 1).is_some_and(u8::is_ascii_digit)))
    {
        j += 1;
    }
    let text = lit[i..j].replace(',', "");
    let v: f64 = text.parse().ok()?;
    let ulp = match text.split_once('.') {
        Some((_, d)) => 10f64.powi(-(d.len() as i32)),
        None => {
            let zeros = text.len() - text.trim_end_matches('0').len();
            let zeros = zeros.min(text.len().saturating_sub(1));
            // "27" allows 26.x (written down or rounded); "600" is rounded to its hundreds.
            if zeros == 0 {
                1.0
            } else {
                10f64.powi(zeros as i32) / 2.0
            }
        }
    };
    Some((v, ulp, j - i))
}

/// The multiplier written right after a number: `32K`, `1.5M`, `2 billion`.
fn multiplier_at(s: &str) -> Option<(f64, usize)> {
    let words = [
        ("thousand", 1e3),
        ("million", 1e6),
        ("billion", 1e9),
        ("trillion", 1e12),
    ];
    let t = s.trim_start();
    let skip = s.len() - t.len();
    for (w, m) in words {
        if t.to_lowercase().starts_with(w) {
            return Some((m, skip + w.len()));
        }
    }
    // Letters only when attached and not the start of a unit (`32K tokens`, not `32 KB`, `5 M`).
    let c = s.chars().next()?;
    let m = match c {
        'K' | 'k' => 1e3,
        'M' => 1e6,
        'B' | 'G' => 1e9,
        'T' => 1e12,
        _ => return None,
    };
    let rest = &s[1..];
    if rest.starts_with(|c: char| c.is_alphanumeric()) {
        return None;
    }
    Some((m, 1))
}

/// The quantities in `text`.
pub fn quantities(text: &str) -> Vec<Quantity> {
    let b = text.as_bytes();
    let mut out: Vec<Quantity> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let prev = text[..i].chars().next_back();
        let prev_ok = prev.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.'));
        if !(b[i].is_ascii_digit() && prev_ok) {
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let start = i;
        let Some((v, ulp, n)) = number_at(text, i) else {
            i += 1; // a digit is one byte
            continue;
        };
        let mut j = i + n;
        let (mut v, mut ulp) = (v, ulp);
        if let Some((m, k)) = multiplier_at(&text[j..]) {
            v *= m;
            ulp *= m;
            j += k;
        }
        // The unit: attached (`41m`, `5x`, `80%`) or after one space (`27 minutes`, `2 GB`).
        let attached = &text[j..];
        let spaced = attached
            .strip_prefix(' ')
            .or_else(|| attached.strip_prefix('\u{a0}'));
        let mut unit = None;
        // `63/64`, `2 × 63`: a fraction or a product, not a quantity of its own.
        let operator = |s: &str| {
            let s = s.trim_start();
            ["/", "×", "x ", "*"].iter().any(|op| {
                s.strip_prefix(op)
                    .is_some_and(|r| r.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            })
        };
        // A factor: `2 × 63`, `a*3`; not Markdown's bold (`**5 minutes**`), and not a spaced
        // divisor with its unit attached (`350 GB / 300s` divides by a time it states).
        let before = text[..start].trim_end();
        let bold = before.ends_with("**");
        let divisor = before.ends_with('/')
            && text[..start].ends_with(' ')
            && unit_at(attached).is_some_and(|(u, _)| u.family != Family::Other);
        if operator(attached) || (before.ends_with(['/', '×', '*']) && !bold && !divisor) {
            i = j.max(i + 1);
            continue;
        }
        if let Some((u, k)) = unit_at(attached) {
            unit = Some(u);
            j += k;
        } else if let Some(s) = spaced {
            if let Some((u, k)) = unit_at(s) {
                // A lone letter after a space is a word ("2 h" is fine, "a 5 s" too), but
                // "x" after a space is a letter unless it stands alone.
                unit = Some(u);
                j += attached.len() - s.len() + k;
            }
        }
        if text[..start].ends_with('$') && unit.as_ref().is_none_or(|u| u.family == Family::Other) {
            unit = Some(Unit {
                family: Family::Money,
                factor: 1.0,
                word: "$".into(),
            });
        }
        let written = text[start..j].to_string();
        let before = &text[..start];
        let after = &text[j..];
        // Not quantities: a year, a citation, a part's number ("Part 2"), a name's digits.
        let year = n == 4 && (1900.0..=2100.0).contains(&v) && unit.is_none();
        let cited = before.matches('[').count() > before.matches(']').count();
        let lower_before = before.to_lowercase();
        let numbered = [
            "part ", "step ", "lab ", "chapter ", "section ", "figure ", "table ", "option ",
            "level ", "tier ", "#",
        ]
        .iter()
        .any(|w| lower_before.ends_with(w));
        if year || cited || numbered {
            i = j.max(i + 1);
            continue;
        }
        // The second end of a range: `A–B`, `A to B`, `between A and B`.
        let joint = ["–", "—", "-", " to ", " and "]
            .iter()
            .find_map(|j| before.strip_suffix(j));
        if let (Some(prev), Some(r)) = (out.last_mut(), joint) {
            let joined = r.len() == prev.start + prev.text.len()
                || r.trim_end().len() == prev.start + prev.text.trim_end().len();
            let and_needs_between = !before.ends_with(" and ")
                || text[..prev.start]
                    .to_lowercase()
                    .trim_end()
                    .ends_with("between");
            // "from A to B" is a change between two values, each stated, not a range.
            let change = before.ends_with(" to ")
                && text[..prev.start]
                    .to_lowercase()
                    .trim_end()
                    .ends_with("from");
            if joined && and_needs_between && prev.says == Says::Is && !change {
                // The first end takes the second's unit when it has none ("10–15%").
                let (mut lo, mut lo_ulp) = (prev.lo, prev.ulp);
                if prev.unit.is_none() {
                    if let Some((m, _)) = multiplier_at(&written[n..]) {
                        lo *= m;
                        lo_ulp *= m;
                    }
                    prev.unit = unit.clone();
                }
                prev.lo = lo.min(v);
                prev.hi = lo.max(v);
                prev.ulp = lo_ulp.max(ulp);
                prev.text = text[prev.start..j].to_string();
                i = j;
                continue;
            }
        }
        let says = before_says(before).unwrap_or_else(|| {
            let a = after.trim_start().to_lowercase();
            if a.starts_with("or more")
                || a.starts_with("or above")
                || a.starts_with("or higher")
                || a.starts_with('+')
            {
                Says::AtLeast
            } else if a.starts_with("or less")
                || a.starts_with("or fewer")
                || a.starts_with("or lower")
            {
                Says::AtMost
            } else {
                Says::Is
            }
        });
        let next_word: String = after
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphabetic())
            .collect::<String>()
            .to_lowercase();
        let minus = before.ends_with('−')
            || before
                .strip_suffix('-')
                .is_some_and(|r| !r.ends_with(|c: char| c.is_alphanumeric()));
        let falls = minus || FALL_WORDS.contains(&next_word.as_str());
        out.push(Quantity {
            lo: v,
            hi: v,
            says,
            ulp,
            unit,
            start,
            end: start + n,
            text: written.trim_end().to_string(),
            falls,
        });
        i = j.max(i + 1);
    }
    out
}

impl Unit {
    /// The unit as an output label writes it (`GB`, `ms`, `%`).
    pub fn word_as_written(&self) -> String {
        match self.word.as_str() {
            w @ ("pib" | "tib" | "gib" | "mib" | "kib") => {
                let mut c = w.chars();
                let head: String = c.next().into_iter().collect::<String>().to_uppercase();
                format!("{head}i{}", c.skip(1).collect::<String>().to_uppercase())
            }
            w @ ("pb" | "tb" | "gb" | "mb" | "kb") => w.to_uppercase(),
            "b" => "B".into(),
            w => w.to_string(),
        }
    }
}

impl Quantity {
    /// This quantity in the unit `target` (the output's), when it can name a value in it:
    /// `None` when the units belong to different families (a percentage next to a GB answer).
    /// A number without a unit is taken in the output's unit; a percentage of a unitless
    /// output is read as a fraction too (`80%` of 0.8).
    pub fn scales(&self, target: Option<&Unit>) -> Vec<f64> {
        match (&self.unit, target) {
            (None, _) => vec![1.0],
            (Some(u), None) => match u.family {
                Family::Percent => vec![1.0, 0.01],
                Family::Times | Family::Other => vec![1.0],
                _ => vec![],
            },
            (Some(u), Some(t)) if u.family == t.family && u.family != Family::Other => {
                vec![u.factor / t.factor]
            }
            (Some(u), Some(t)) if u.family == Family::Other && t.family == Family::Other => {
                let (a, b) = (u.word.trim_end_matches('s'), t.word.trim_end_matches('s'));
                if a.starts_with(b) || b.starts_with(a) {
                    vec![1.0]
                } else {
                    vec![]
                }
            }
            _ => vec![],
        }
    }

    /// Does the value `x` (in the output's unit `target`) agree with what this quantity says,
    /// within the precision it is written to? `None`: the quantity is not about that unit.
    pub fn agrees(&self, x: f64, target: Option<&Unit>) -> Option<bool> {
        let scales = self.scales(target);
        if scales.is_empty() {
            return None;
        }
        Some(scales.iter().any(|s| {
            let (lo, hi, ulp) = (self.lo * s, self.hi * s, self.ulp * s);
            let tiny = 1e-9 * x.abs().max(1e-12);
            match self.says {
                Says::Is => x >= lo - ulp - tiny && x <= hi + ulp + tiny,
                Says::AtLeast => x >= lo - tiny,
                Says::AtMost => x <= hi + tiny,
            }
        }))
    }

    /// Does this quantity state the value `x` (in the unit `target`), as the give-away and
    /// typed-number lints read it: a plain number (not a bound, a range, zero or a small whole
    /// number), in `target`'s family when both have a unit (`10 hours` states 600 min, `1.00×`
    /// no count of nodes), that `|x|` rounds to at the last digit written (`32K` to the
    /// thousand), and a fall (`50% reduction`) only of a value that falls (`falling` or `x < 0`).
    pub fn states(&self, x: f64, target: Option<&Unit>, falling: bool) -> bool {
        if self.says != Says::Is || self.lo != self.hi || self.lo == 0.0 || !x.is_finite() {
            return false;
        }
        if self.falls && !(falling || x < 0.0) {
            return false;
        }
        let digits: String = self
            .text
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
            .collect();
        let Ok(written) = digits.replace(',', "").parse::<f64>() else {
            return false;
        };
        let decimals = digits.split_once('.').map_or(0, |(_, d)| d.len());
        if self.lo < 10.0 && decimals == 0 {
            return false; // "2 minutes", "5x": too common to judge
        }
        let multiplier = if written == 0.0 {
            1.0
        } else {
            self.lo / written
        };
        // A number without a unit, or one against a value without one, is read as written
        // (`80%` does not state a fraction of 0.8 here; a given is also tried times 100).
        let scales = match (&self.unit, target) {
            (Some(_), None) | (None, _) => vec![1.0],
            _ => self.scales(target),
        };
        let x = x.abs();
        scales.iter().any(|s| {
            let step = 10f64.powi(-(decimals as i32)) * multiplier * s;
            let v = self.lo * s;
            ((x / step).round() * step - v).abs() <= 1e-9 * v.abs().max(1e-12)
        })
    }

    /// Does this quantity overlap the interval `[lo, hi]` (a claim's `min`/`max`)?
    pub fn overlaps(&self, lo: f64, hi: f64, target: Option<&Unit>) -> Option<bool> {
        let scales = self.scales(target);
        if scales.is_empty() {
            return None;
        }
        Some(scales.iter().any(|s| {
            let (a, b, ulp) = (self.lo * s, self.hi * s, self.ulp * s);
            match self.says {
                Says::Is => b + ulp >= lo && a - ulp <= hi,
                Says::AtLeast => hi >= a,
                Says::AtMost => lo <= b,
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(s: &str) -> Quantity {
        let q = quantities(s);
        assert_eq!(q.len(), 1, "{s}: {q:?}");
        q.into_iter().next().unwrap()
    }

    #[test]
    fn reads_numbers_with_units_and_precision() {
        let q = one("~27 minutes");
        assert_eq!((q.lo, q.ulp), (27.0, 1.0));
        assert_eq!(q.unit.as_ref().unwrap().family, Family::Time);
        let min = output_unit("min");
        assert_eq!(q.agrees(26.9, min.as_ref()), Some(true));
        assert_eq!(q.agrees(30.0, min.as_ref()), Some(false));
        let gb = output_unit("GB");
        let q = one("About 2 GB, a fortieth of an H100");
        assert_eq!(q.agrees(21.5, gb.as_ref()), Some(false));
        assert_eq!(q.agrees(2.04, gb.as_ref()), Some(true));
        assert_eq!(one("32K tokens").lo, 32000.0);
        assert_eq!(one("1,000 g").lo, 1000.0);
        assert_eq!(one("128×").unit.unwrap().family, Family::Times);
        assert_eq!(one("2 TB").agrees(2000.0, gb.as_ref()), Some(true));
        assert_eq!(one("80%").agrees(0.8, None), Some(true));
        assert_eq!(one("80%").agrees(2.0, gb.as_ref()), None);
    }

    #[test]
    fn bounds_and_ranges() {
        let q = one("More than 1,000 kg");
        assert_eq!(q.says, Says::AtLeast);
        let q = one("Between 10 and 100 kg");
        assert_eq!((q.lo, q.hi), (10.0, 100.0));
        let q = one("10–15%");
        assert_eq!((q.lo, q.hi), (10.0, 15.0));
        assert_eq!(one("under 5%").says, Says::AtMost);
        assert_eq!(one("100 min or more").says, Says::AtLeast);
    }

    #[test]
    fn states_a_value_at_its_precision_in_its_unit() {
        let min = output_unit("min");
        assert!(one("600 minutes").states(600.2, min.as_ref(), false));
        assert!(one("10 hours").states(600.0, min.as_ref(), false));
        assert!(one("27.4 GB").states(27.38, output_unit("GB").as_ref(), false));
        assert!(!one("27 GB").states(27.6, output_unit("GB").as_ref(), false));
        assert!(!one("600 minutes").states(601.0, min.as_ref(), false));
        assert!(
            !one("32K tokens").states(32.0, None, false),
            "32K is 32,000"
        );
        assert!(one("32K tokens").states(32_000.0, None, false));
        let nodes = output_unit("nodes");
        assert!(!one("a penalty of 1.00×").states(1.0, nodes.as_ref(), false));
        assert!(!one("a 50% reduction target").states(50.0, output_unit("%").as_ref(), false));
        assert!(one("a 50% reduction").states(-50.0, output_unit("%").as_ref(), false));
        assert!(one("a 50% increase").states(50.0, output_unit("%").as_ref(), false));
        assert!(
            !one("3 GPUs").states(3.0, None, false),
            "small whole numbers are not judged"
        );
    }

    #[test]
    fn names_years_and_parts_are_not_quantities() {
        assert!(quantities("An H100 in 2024, see Part 2 [3]").is_empty());
        assert_eq!(quantities("C_s = 3").len(), 1);
    }
}
