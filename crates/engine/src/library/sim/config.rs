//! `sim::cluster`'s configuration: its keys, their defaults and ranges, and the work a call
//! charges.

use rhai::{Array, Dynamic, EvalAltResult, Map};

use super::super::{runtime_error, whole};

type Res<T> = Result<T, Box<EvalAltResult>>;

const PATH: &str = "sim::cluster";
const MAX_NODES: f64 = 4096.0;
const MAX_GPN: f64 = 64.0;
const MAX_TEAMS: f64 = 64.0;
const MAX_JOBS: f64 = 1e6;
const MAX_WINDOW: f64 = 1000.0;
const MAX_POINTS: f64 = 1000.0;
const MAX_SEED: f64 = 9_007_199_254_740_991.0;

/// The configuration keys, in the order the docs list them.
const KEYS: &[&str] = &[
    "seed",
    "nodes",
    "gpus_per_node",
    "teams",
    "sizes",
    "jobs",
    "load",
    "mean",
    "cs",
    "dist",
    "policy",
    "w_age",
    "w_size",
    "w_fair",
    "max_age",
    "backfill",
    "window",
    "points",
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Policy {
    Fifo,
    Sjf,
    Fair,
    Mix,
}

/// A simulation's settings (see [`super::DOCS`] for their meaning and defaults).
#[derive(Clone, Debug)]
pub(crate) struct Config {
    pub seed: u64,
    pub nodes: usize,
    pub gpn: usize,
    pub teams: usize,
    pub sizes: Vec<usize>,
    pub jobs: usize,
    pub load: f64,
    pub mean: f64,
    pub cs: f64,
    pub lognormal: bool,
    pub policy: Policy,
    pub w_age: f64,
    pub w_size: f64,
    pub w_fair: f64,
    pub max_age: f64,
    pub backfill: bool,
    pub window: usize,
    pub points: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            seed: 1,
            nodes: 32,
            gpn: 8,
            teams: 4,
            sizes: vec![1],
            jobs: 2000,
            load: 0.8,
            mean: 60.0,
            cs: 1.0,
            lognormal: true,
            policy: Policy::Fifo,
            w_age: 1.0,
            w_size: 1.0,
            w_fair: 1.0,
            max_age: f64::NAN,
            backfill: false,
            window: 64,
            points: 40,
        }
    }
}

pub(super) fn err(msg: String) -> Box<EvalAltResult> {
    runtime_error(format!("{PATH}: {msg}"))
}

/// A number (a Rhai integer, as Rust callers may pass, counts as its value).
fn num(key: &str, v: &Dynamic) -> Res<f64> {
    v.as_float()
        .or_else(|_| v.as_int().map(|i| i as f64))
        .map_err(|_| err(format!("{key} must be a number")))
}

fn count(key: &str, v: &Dynamic, lo: f64, hi: f64) -> Res<usize> {
    let x = num(key, v)?;
    match whole(x, hi) {
        Some(n) if n as f64 >= lo => Ok(n as usize),
        _ => Err(err(format!(
            "{key} must be a whole number from {lo} to {hi}"
        ))),
    }
}

fn positive(key: &str, v: &Dynamic) -> Res<f64> {
    let x = num(key, v)?;
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(err(format!("{key} must be a positive number")))
    }
}

fn weight(key: &str, v: &Dynamic) -> Res<f64> {
    let x = num(key, v)?;
    if x.is_finite() && x >= 0.0 {
        Ok(x)
    } else {
        Err(err(format!("{key} must be a number ≥ 0")))
    }
}

/// Reads a configuration record; absent keys keep their defaults, unknown keys are an error.
pub(crate) fn config(m: &Map) -> Res<Config> {
    let mut c = Config::default();
    for k in m.keys() {
        if !KEYS.contains(&k.as_str()) {
            return Err(err(format!(
                "unknown key '{k}'; known keys: {}",
                KEYS.join(", ")
            )));
        }
    }
    // Keys in the order of KEYS, so the first error is the same in the page.
    for &key in KEYS {
        let Some(v) = m.get(key) else { continue };
        match key {
            "seed" => c.seed = count(key, v, 0.0, MAX_SEED)? as u64,
            "nodes" => c.nodes = count(key, v, 1.0, MAX_NODES)?,
            "gpus_per_node" => c.gpn = count(key, v, 1.0, MAX_GPN)?,
            "teams" => c.teams = count(key, v, 1.0, MAX_TEAMS)?,
            "sizes" => {
                let Some(a) = v.read_lock::<Array>() else {
                    return Err(err("sizes must be a list of GPU counts".into()));
                };
                if a.is_empty() {
                    return Err(err("sizes must be a list of GPU counts".into()));
                }
                let mut s = Vec::with_capacity(a.len());
                for x in a.iter() {
                    s.push(count("each size", x, 1.0, MAX_NODES * MAX_GPN)?);
                }
                c.sizes = s;
            }
            "jobs" => c.jobs = count(key, v, 1.0, MAX_JOBS)?,
            "load" => c.load = positive(key, v)?,
            "mean" => c.mean = positive(key, v)?,
            "cs" => c.cs = weight(key, v)?,
            "dist" => {
                c.lognormal = match v.clone().into_string().ok().as_deref() {
                    Some("lognormal") => true,
                    Some("exponential") => false,
                    _ => return Err(err("dist must be \"lognormal\" or \"exponential\"".into())),
                }
            }
            "policy" => {
                c.policy = match v.clone().into_string().ok().as_deref() {
                    Some("fifo") => Policy::Fifo,
                    Some("sjf") => Policy::Sjf,
                    Some("fair") => Policy::Fair,
                    Some("mix") => Policy::Mix,
                    _ => {
                        return Err(err(
                            "policy must be \"fifo\", \"sjf\", \"fair\" or \"mix\"".into()
                        ))
                    }
                }
            }
            "w_age" => c.w_age = weight(key, v)?,
            "w_size" => c.w_size = weight(key, v)?,
            "w_fair" => c.w_fair = weight(key, v)?,
            "max_age" => c.max_age = positive(key, v)?,
            "backfill" => {
                c.backfill = v
                    .as_bool()
                    .map_err(|_| err("backfill must be true or false".into()))?
            }
            "window" => c.window = count(key, v, 1.0, MAX_WINDOW)?,
            "points" => c.points = count(key, v, 1.0, MAX_POINTS)?,
            _ => unreachable!("every key of KEYS is read"),
        }
    }
    let total = c.nodes * c.gpn;
    for &s in &c.sizes {
        if s > total || (s > c.gpn && s % c.gpn != 0) {
            return Err(err(format!(
                "a job of {s} GPUs does not fit: sizes must be at most gpus_per_node ({}) or \
                 whole nodes, and at most nodes × gpus_per_node ({total})",
                c.gpn
            )));
        }
    }
    if c.max_age.is_nan() {
        c.max_age = 10.0 * c.mean;
    }
    Ok(c)
}

/// The work a call charges before it runs: jobs · (1 + window), an upper bound on the jobs its
/// scheduling passes look at (0 when the record is unusable: the call then fails).
pub(crate) fn cost(m: &Map) -> u64 {
    let get = |k: &str, d: f64, max: f64| match m.get(k) {
        None => whole(d, max),
        Some(v) => num(k, v).ok().and_then(|x| whole(x, max)),
    };
    match (
        get("jobs", 2000.0, MAX_JOBS),
        get("window", 64.0, MAX_WINDOW),
    ) {
        (Some(j), Some(w)) => j * (1 + w),
        _ => 0,
    }
}
