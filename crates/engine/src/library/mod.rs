//! The built-in hardware/physics library exposed to formulas.
//!
//! Every function here exists twice: in Rust (registered into a Rhai [`rhai::Engine`] by
//! [`register`]) and in JavaScript (`renderers/html/library.js`, keyed by [`FnDoc::path`]).
//! Both sides evaluate the same IEEE-754 operations in the same order, so the arithmetic
//! functions agree bit for bit; the few that call a transcendental (`exp`, `ln`, `expm1`,
//! `log10`, `pow`) agree to within an ulp or two of the platform's math library. `stats::` and
//! `rand::` use the library's own exp and ln (`stats::exp_a`, `ln_a`) and agree bit for bit.
//! `tests/it/library_js.rs` checks every path against Node (`tests/chromium/random_browser.rs`
//! the draws in Chromium).
//!
//! Conventions:
//! - all numbers are `f64` (`rhai::FLOAT`); lists are `rhai::Array`s of floats, records are
//!   `rhai::Map`s;
//! - an argument outside a formula's domain gives `f64::INFINITY` or NaN as documented per
//!   function, never a panic; only unknown names (device ids, schemes) and unusable list
//!   arguments are runtime errors, with the same message text in Rust and JS.

use std::sync::OnceLock;

use rhai::{Dynamic, Engine, EvalAltResult};

mod carbon;
mod collective;
mod energy;
mod fleet;
pub mod format;
pub(crate) mod globals;
mod hardware;
mod llm;
mod models;
mod perf;
mod privacy;
mod queueing;
pub(crate) mod random;
mod reliability;
mod roofline;
pub(crate) mod sim;
pub(crate) mod stats;
mod train;
mod units;

pub(crate) use hardware::FIELD_DOCS;
pub use hardware::{devices_json, hardware, hardware_json, Device};
pub use models::{models, models_json, register_models, Model};
pub(crate) use models::{
    unknown_field as models_unknown_field, KINDS as MODEL_KINDS, MODEL_FIELD_DOCS,
};

/// Documentation of one function callable from formulas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FnDoc {
    /// The name as written in a formula, with its namespace: `"queue::pk_wait"`, or `"hw"`.
    /// The JavaScript library uses the same string as its key.
    pub path: &'static str,
    /// Parameters and result, e.g. `queue::pk_wait(rho: f64, cs: f64, service: f64) -> f64`.
    pub signature: &'static str,
    /// What it computes: formula, conventions and domain behaviour.
    pub summary: &'static str,
    /// Units of the parameters and of the result.
    pub units: &'static str,
    /// Where the formula comes from.
    pub source: &'static str,
    /// A Rhai call that evaluates without error.
    pub example: &'static str,
}

impl FnDoc {
    /// The signature as an author reads it (in `labforge lib`, docs/library.md and a wrong
    /// call's hint): a number is `number` and a list `list`, not the Rust types `f64` and
    /// `array` the declarations are written in.
    pub fn shown_signature(&self) -> String {
        let mut s = self.signature.to_string();
        for (rust, plain) in [("f64", "number"), ("array", "list")] {
            for lead in [": ", "-> "] {
                s = s.replace(&format!("{lead}{rust}"), &format!("{lead}{plain}"));
            }
        }
        s
    }
}

/// Every function exposed to formulas, in a stable order (namespaces, then globals).
pub fn functions() -> &'static [FnDoc] {
    static ALL: OnceLock<Vec<FnDoc>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut v = Vec::new();
        v.extend_from_slice(queueing::DOCS);
        v.extend_from_slice(reliability::DOCS);
        v.extend_from_slice(fleet::DOCS);
        v.extend_from_slice(fleet::COST_DOCS);
        v.extend_from_slice(collective::DOCS);
        v.extend_from_slice(roofline::DOCS);
        v.extend_from_slice(energy::DOCS);
        v.extend_from_slice(llm::DOCS);
        v.extend_from_slice(carbon::DOCS);
        v.extend_from_slice(perf::DOCS);
        v.extend_from_slice(train::DOCS);
        v.extend_from_slice(privacy::DOCS);
        v.extend_from_slice(stats::DOCS);
        v.extend_from_slice(random::DOCS);
        v.extend_from_slice(sim::DOCS);
        v.extend_from_slice(units::DOCS);
        v.extend_from_slice(globals::DOCS);
        v
    })
}

/// Registers the library: namespaces `queue`, `rel`, `fleet`, `cost`, `collective`, `roofline`,
/// `energy`, `llm`, `carbon`, `perf`, `train`, `privacy`, `stats`, `rand`, `sim`, `units` as static
/// modules (`stats` and `rand` charge nothing here; the formula engine re-registers them with
/// the work budget's charges, see [`stats_module`]), and the global functions (`hw`, `fmt`, `fmt_pct`, `clamp`, `range`, `linspace`,
/// `ceil`, `log10`, `pow`). `min`, `max`, `abs`, `floor`, `round`, `sqrt`, `exp` and `ln`
/// come from Rhai's standard packages and are documented here but not re-registered.
pub fn register(engine: &mut Engine) {
    engine.register_static_module("queue", queueing::module().into());
    engine.register_static_module("rel", reliability::module().into());
    engine.register_static_module("fleet", fleet::module().into());
    engine.register_static_module("cost", fleet::cost_module().into());
    engine.register_static_module("collective", collective::module().into());
    engine.register_static_module("roofline", roofline::module().into());
    engine.register_static_module("energy", energy::module().into());
    engine.register_static_module("llm", llm::module().into());
    engine.register_static_module("carbon", carbon::module().into());
    engine.register_static_module("perf", perf::module().into());
    engine.register_static_module("train", train::module().into());
    engine.register_static_module("privacy", privacy::module().into());
    engine.register_static_module("stats", stats::module().into());
    engine.register_static_module("rand", random::module().into());
    engine.register_static_module("sim", sim::module().into());
    engine.register_static_module("units", units::module().into());
    globals::register(engine);
}

/// The `stats` module, its list functions calling `charge` with the work they do first.
pub fn stats_module<C>(charge: C) -> rhai::Module
where
    C: Fn(u64) -> Result<(), Box<EvalAltResult>> + Clone + 'static,
{
    stats::module_with(charge)
}

/// The `rand` module, each draw calling `charge` with its cost first (`n`, or `n·(1 + ⌈λ⌉)`
/// for `rand::poisson`; the page charges the same, renderers/html/rhai.js).
pub fn rand_module<C>(charge: C) -> rhai::Module
where
    C: Fn(u64) -> Result<(), Box<EvalAltResult>> + Clone + 'static,
{
    random::module_with(charge)
}

/// The `sim` module, each simulation calling `charge` with its cost first (`jobs·(1 +
/// window)`; the page charges the same, renderers/html/rhai.js).
pub fn sim_module<C>(charge: C) -> rhai::Module
where
    C: Fn(u64) -> Result<(), Box<EvalAltResult>> + Clone + 'static,
{
    sim::module_with(charge)
}

/// Makes `hw(id)` on `engine` find `devices` (a course module's) before the built-in table.
pub fn register_devices(engine: &mut Engine, devices: Vec<Device>) {
    if devices.is_empty() {
        return;
    }
    engine.register_fn(
        "hw",
        move |id: rhai::ImmutableString| -> Result<rhai::Map, Box<rhai::EvalAltResult>> {
            match devices.iter().find(|d| d.id == id.as_str()) {
                Some(d) => Ok(hardware::device_map(d)),
                None => hardware::hw(id.as_str()).map_err(|_| {
                    let known: Vec<&str> = devices
                        .iter()
                        .chain(hardware().iter())
                        .map(|d| d.id.as_str())
                        .collect();
                    runtime_error(format!(
                        "hw: unknown device id '{id}'; known ids: {}",
                        known.join(", ")
                    ))
                }),
            }
        },
    );
}

/// A deterministic Markdown reference of every function and every device.
pub fn reference_markdown() -> String {
    use std::fmt::Write as _;

    let mut engine = Engine::new();
    register(&mut engine);

    let mut out = String::new();
    out.push_str("# labforge built-in library\n\n");
    out.push_str(
        "Functions callable from lab formulas, with the same results in the terminal (Rust) \
         and in the page (JavaScript). All numbers are 64-bit floats: `1` and `1.0` are the \
         same value. Arguments outside a formula's domain give `∞` or `NaN` as stated below, \
         never a crash; unknown device ids and scheme names are errors that list the known \
         ones.\n\n",
    );
    out.push_str(
        "Units: GB, TB and GB/s are decimal (10^9, 10^12 bytes); GiB is binary (2^30 bytes); \
         TFLOP/s is 10^12 floating-point operations per second.\n\n",
    );

    let sections: [(&str, &str); 17] = [
        ("queue::", "Queueing (`queue::`)"),
        ("rel::", "Reliability and checkpointing (`rel::`)"),
        ("fleet::", "Fleet scheduling (`fleet::`)"),
        ("cost::", "Cost (`cost::`)"),
        ("collective::", "Collective communication (`collective::`)"),
        ("roofline::", "Roofline (`roofline::`)"),
        ("energy::", "Energy per operation (`energy::`)"),
        ("llm::", "Model and KV-cache memory (`llm::`)"),
        ("carbon::", "Carbon (`carbon::`)"),
        ("perf::", "Performance limits (`perf::`)"),
        ("train::", "Training compute and memory (`train::`)"),
        ("privacy::", "Differential privacy (`privacy::`)"),
        ("stats::", "Distributions and list statistics (`stats::`)"),
        ("rand::", "Seeded random draws (`rand::`)"),
        ("sim::", "Cluster simulation (`sim::`)"),
        ("units::", "Unit conversions (`units::`)"),
        ("", "Global functions"),
    ];
    for (prefix, title) in sections {
        let _ = write!(out, "## {title}\n\n");
        if prefix == "rand::" {
            out.push_str(RAND_SPEC);
        }
        if prefix == "sim::" {
            out.push_str(sim::SPEC);
        }
        for doc in functions() {
            let in_section = if prefix.is_empty() {
                !doc.path.contains("::")
            } else {
                doc.path.starts_with(prefix)
            };
            if !in_section {
                continue;
            }
            let _ = write!(out, "### `{}`\n\n", doc.path);
            let _ = write!(out, "`{}`\n\n", doc.shown_signature());
            let _ = write!(out, "{}\n\n", doc.summary);
            let _ = writeln!(out, "- Units: {}", doc.units);
            let _ = writeln!(out, "- Source: {}", doc.source);
            let result = match engine.eval::<Dynamic>(doc.example) {
                Ok(v) => describe(&v),
                Err(e) => format!("error: {e}"),
            };
            let _ = write!(out, "- Example: `{}` → `{}`\n\n", doc.example, result);
        }
    }

    out.push_str("## Devices (`hw(id)`)\n\n");
    out.push_str(
        "`hw(id)` returns a record of the device's numeric fields plus `name`. Fields a vendor \
         does not publish are absent, not zero. A value marked *(estimate)* is not a vendor's \
         published figure (a course's classroom figure or a typical value; its source says \
         whose). Besides devices the table holds links and buses, storage, radios and \
         systems (`hw(\"H100x64\")`, a 64-GPU H100 cluster), with bandwidth and latency.\n\n",
    );
    out.push_str("| field | meaning |\n| --- | --- |\n");
    for (field, meaning) in hardware::FIELD_DOCS {
        let _ = writeln!(out, "| `{field}` | {meaning} |");
    }
    out.push('\n');
    for d in hardware() {
        let _ = write!(out, "### `{}`: {}\n\n", d.id, d.name);
        let _ = write!(
            out,
            "Vendor: {}. Class: {}. As of: {}.\n\n",
            d.vendor, d.class, d.as_of
        );
        out.push_str("| field | value |\n| --- | --- |\n");
        for (k, v) in &d.fields {
            // Display gives the shortest exact text ("494.5", "50000"): no rounding here.
            let mark = if d.estimates.contains(k) {
                " (estimate)"
            } else {
                ""
            };
            let _ = writeln!(out, "| `{k}` | {v}{mark} |");
        }
        let _ = write!(out, "\nSource: {}\n\n", d.source);
        if !d.estimates.is_empty() {
            let _ = write!(
                out,
                "Estimates (not a vendor's published figure; the source says whose): {}.\n\n",
                d.estimates
                    .iter()
                    .map(|e| format!("`{e}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    models::reference_section(&mut out);
    out
}

/// The generator's specification, at the head of the `rand::` section.
const RAND_SPEC: &str = "Every `rand::` function takes a **seed** and a count **n** and returns \
a list of n draws; the same call gives the same list in the terminal and in the page, bit for \
bit, and every call starts afresh from its seed (two calls with the same seed share one stream \
of uniforms: use `seed + 1` for an independent sample).\n\n\
- **Generator**: xoshiro128** (Blackman and Vigna, ACM TOMS 47(4), 2021), four 32-bit words \
of state; the page runs it with `Math.imul` and 32-bit integer operations.\n\
- **Seed handling**: the seed is a whole number s from 0 to 2^53 − 1 (else an error). With \
lo = s mod 2^32, hi = ⌊s / 2^32⌋ and G = 0x9E3779B9, the state is (mix(lo + G), mix(hi + 2G), \
mix(lo + 3G), mix(hi + 4G)), sums taken mod 2^32, where mix(h) is MurmurHash3's finaliser \
(h ^= h >> 16; h ×= 0x85EBCA6B; h ^= h >> 13; h ×= 0xC2B2AE35; h ^= h >> 16, mod 2^32). \
Distinct seeds give distinct states, never the all-zero one.\n\
- **Uniforms**: two outputs a, b give ((a >> 5)·2^26 + (b >> 6)) / 2^53, in [0, 1) with 53 \
random bits, exact in both languages.\n\
- **Transforms** (each function below) use the library's own exp and ln (only + − × ÷ and exact \
scalings by powers of two, within 2 ulp of the C library's exp and ln), not the platform's, so \
that the draws agree bit for bit.\n\
- **Cost**: a call charges its n draws to the work budget before it runs (a Poisson draw \
1 + ⌈λ⌉); a formula's list holds at most 10,000 values.\n\n";

/// A short, deterministic rendering of a formula value for the reference.
fn describe(v: &Dynamic) -> String {
    if let Ok(x) = v.as_float() {
        return format!("{x:?}");
    }
    if let Some(a) = v.read_lock::<rhai::Array>() {
        let items: Vec<String> = a.iter().map(describe).collect();
        return format!("[{}]", items.join(", "));
    }
    if let Some(m) = v.read_lock::<rhai::Map>() {
        let items: Vec<String> = m
            .iter()
            .map(|(k, x)| format!("{k}: {}", describe(x)))
            .collect();
        return format!("#{{{}}}", items.join(", "));
    }
    if v.is_string() {
        return format!("{:?}", v.to_string());
    }
    v.to_string()
}

/// A runtime error carrying `message`, as every library function raises it.
pub(crate) fn runtime_error(message: String) -> Box<EvalAltResult> {
    message.into()
}

/// Reads a formula list as floats. Integers are accepted (and converted) so that Rust callers
/// that build arrays by hand get the same result; anything else is an error naming the
/// function and the element index (0-based).
pub(crate) fn floats(path: &str, values: &rhai::Array) -> Result<Vec<f64>, Box<EvalAltResult>> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            if let Ok(x) = v.as_float() {
                Ok(x)
            } else if let Ok(n) = v.as_int() {
                Ok(n as f64)
            } else {
                Err(runtime_error(format!(
                    "{path}: element {i} is not a number"
                )))
            }
        })
        .collect()
}

/// A magnitude argument outside its domain: NaN or negative.
pub(crate) fn bad(x: f64) -> bool {
    x.is_nan() || x < 0.0
}

/// The value of `key` in a named lookup `table`, else the runtime error
/// "`path`: unknown `what` 'key'; known `what`s: a, b, c" (the JS twin raises the same text).
pub(crate) fn lookup(
    path: &str,
    what: &str,
    table: &[(&str, f64)],
    key: &str,
) -> Result<f64, Box<EvalAltResult>> {
    table
        .iter()
        .find(|(name, _)| *name == key)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let known: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
            runtime_error(format!(
                "{path}: unknown {what} '{key}'; known {what}s: {}",
                known.join(", ")
            ))
        })
}

/// Reads a count argument: a whole number in `0..=max`, else `None`.
pub(crate) fn whole(x: f64, max: f64) -> Option<u64> {
    if x.is_finite() && x >= 0.0 && x <= max && x == x.trunc() {
        Some(x as u64)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        let mut e = Engine::new();
        register(&mut e);
        e
    }

    #[test]
    fn every_example_evaluates() {
        let e = engine();
        for doc in functions() {
            if let Err(err) = e.eval::<Dynamic>(doc.example) {
                panic!("example of {} failed: {} -> {err}", doc.path, doc.example);
            }
        }
    }

    #[test]
    fn paths_are_unique_and_docs_complete() {
        let mut seen = std::collections::BTreeSet::new();
        for doc in functions() {
            assert!(seen.insert(doc.path), "duplicate path {}", doc.path);
            for (what, text) in [
                ("signature", doc.signature),
                ("summary", doc.summary),
                ("units", doc.units),
                ("source", doc.source),
                ("example", doc.example),
            ] {
                assert!(!text.trim().is_empty(), "{}: empty {what}", doc.path);
            }
            let name = doc.path.rsplit("::").next().unwrap();
            assert!(
                doc.signature.contains(&format!("{name}(")),
                "{}: signature does not name the function",
                doc.path
            );
            assert!(
                doc.example.contains(&format!("{}(", doc.path)),
                "{}: example does not call the function",
                doc.path
            );
        }
    }

    /// Every function this library registers has a FnDoc (the reverse of
    /// `every_example_evaluates`).
    #[test]
    fn every_registered_function_is_documented() {
        let mut bare = Engine::new_raw();
        register(&mut bare);
        let documented: std::collections::BTreeSet<&str> =
            functions().iter().map(|d| d.path).collect();
        let registered: Vec<String> = bare.collect_fn_metadata(
            None,
            |info| {
                Some(if info.namespace.is_empty() {
                    info.metadata.name.to_string()
                } else {
                    format!("{}::{}", info.namespace, info.metadata.name)
                })
            },
            false,
        );
        assert!(registered.len() >= functions().len() - 8, "{registered:?}");
        for path in &registered {
            assert!(
                documented.contains(path.as_str()),
                "registered but undocumented: {path}"
            );
        }
    }

    #[test]
    fn reference_is_deterministic_and_complete() {
        let a = reference_markdown();
        let b = reference_markdown();
        assert_eq!(a, b);
        assert!(!a.contains("error:"), "an example failed in the reference");
        for doc in functions() {
            assert!(a.contains(&format!("### `{}`", doc.path)), "{}", doc.path);
        }
        for d in hardware() {
            assert!(a.contains(&format!("### `{}`", d.id)), "{}", d.id);
            assert!(a.contains(&d.source), "{}", d.id);
        }
        for m in models() {
            assert!(a.contains(&format!("### `{}`: ", m.id)), "{}", m.id);
            assert!(a.contains(&m.source), "{}", m.id);
        }
    }

    #[test]
    fn whole_numbers() {
        assert_eq!(whole(3.0, 10.0), Some(3));
        assert_eq!(whole(0.0, 10.0), Some(0));
        assert_eq!(whole(3.5, 10.0), None);
        assert_eq!(whole(-1.0, 10.0), None);
        assert_eq!(whole(11.0, 10.0), None);
        assert_eq!(whole(f64::NAN, 10.0), None);
        assert_eq!(whole(f64::INFINITY, f64::INFINITY), None);
    }
}
