//! `rand::` — seeded random draws, the same bits in Rust and in the page.
//!
//! The generator is xoshiro128** (D. Blackman, S. Vigna, "Scrambled Linear Pseudorandom Number
//! Generators", ACM TOMS 47(4), 2021): 128 bits of state in four 32-bit words, so that the page
//! runs it exactly with `Math.imul` and 32-bit integer operations
//! (`renderers/html/library/stats.js`). A seed is a whole number s in 0..=2^53−1; with
//! lo = s mod 2^32, hi = ⌊s / 2^32⌋ and G = 0x9E3779B9, the state is
//! (mix(lo + G), mix(hi + 2G), mix(lo + 3G), mix(hi + 4G)) (sums mod 2^32), where mix is
//! MurmurHash3's 32-bit finaliser; distinct seeds give distinct states and never the all-zero
//! one. A uniform draw in [0, 1) takes two outputs a, b: ((a >> 5)·2^26 + (b >> 6)) / 2^53,
//! exact in both languages. The transforms use the library's own `exp` and `ln`
//! (`super::stats::exp_a`, `ln_a`), so every draw is the same bits in the page.
//!
//! Every call starts the generator afresh from its seed: the same call gives the same list,
//! and two calls with the same seed share their uniform stream (use seed + 1 for another).

use rhai::{Array, Dynamic, EvalAltResult, FuncRegistration, Module};

use super::stats::{exp_a, ln_a};
use super::{runtime_error, whole, FnDoc};

type Res<T> = Result<T, Box<EvalAltResult>>;

/// Largest seed: 2^53 − 1, the largest whole number a JavaScript number holds exactly.
const MAX_SEED: f64 = 9_007_199_254_740_991.0;
/// Largest number of draws one call may ask for (the formula list limit is lower).
const MAX_DRAWS: f64 = 1e6;
/// Largest Poisson mean.
const MAX_LAMBDA: f64 = 1e6;
/// Poisson means are drawn in chunks of at most this much (e^−500 is a normal double).
const POISSON_CHUNK: f64 = 500.0;
const GOLDEN: u32 = 0x9E37_79B9;

fn mix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h
}

/// xoshiro128**.
pub(crate) struct Rng {
    s: [u32; 4],
}

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        let lo = seed as u32;
        let hi = (seed >> 32) as u32;
        Rng {
            s: [
                mix(lo.wrapping_add(GOLDEN)),
                mix(hi.wrapping_add(GOLDEN.wrapping_mul(2))),
                mix(lo.wrapping_add(GOLDEN.wrapping_mul(3))),
                mix(hi.wrapping_add(GOLDEN.wrapping_mul(4))),
            ],
        }
    }

    #[cfg(test)]
    fn from_state(s: [u32; 4]) -> Rng {
        Rng { s }
    }

    pub(crate) fn next_u32(&mut self) -> u32 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 9;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(11);
        result
    }

    /// A uniform double in [0, 1) with 53 random bits.
    pub(crate) fn uniform(&mut self) -> f64 {
        let a = f64::from(self.next_u32() >> 5);
        let b = f64::from(self.next_u32() >> 6);
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }
}

/// The seed and count of a draw, or the error naming `path`.
fn start(path: &str, seed: f64, n: f64) -> Res<(Rng, usize)> {
    let Some(s) = whole(seed, MAX_SEED) else {
        return Err(runtime_error(format!(
            "{path}: the seed must be a whole number from 0 to 9007199254740991"
        )));
    };
    let Some(count) = whole(n, MAX_DRAWS) else {
        return Err(runtime_error(format!(
            "{path}: n must be a whole number from 0 to 1000000"
        )));
    };
    Ok((Rng::new(s), count as usize))
}

pub(crate) fn uniform(seed: f64, n: f64) -> Res<Vec<f64>> {
    let (mut g, n) = start("rand::uniform", seed, n)?;
    Ok((0..n).map(|_| g.uniform()).collect())
}

/// Standard normal draws by Marsaglia's polar method, both values of each accepted pair.
fn standard_normals(g: &mut Rng, n: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let u = 2.0 * g.uniform() - 1.0;
        let v = 2.0 * g.uniform() - 1.0;
        let s = u * u + v * v;
        if s >= 1.0 || s == 0.0 {
            continue;
        }
        let f = (-2.0 * ln_a(s) / s).sqrt();
        out.push(u * f);
        if out.len() < n {
            out.push(v * f);
        }
    }
    out
}

pub(crate) fn normal(seed: f64, n: f64, mu: f64, sigma: f64) -> Res<Vec<f64>> {
    let (mut g, n) = start("rand::normal", seed, n)?;
    if mu.is_nan() || sigma.is_nan() || sigma < 0.0 {
        return Ok(vec![f64::NAN; n]);
    }
    Ok(standard_normals(&mut g, n)
        .into_iter()
        .map(|z| mu + sigma * z)
        .collect())
}

pub(crate) fn lognormal(seed: f64, n: f64, mu: f64, sigma: f64) -> Res<Vec<f64>> {
    let (mut g, n) = start("rand::lognormal", seed, n)?;
    if mu.is_nan() || sigma.is_nan() || sigma < 0.0 {
        return Ok(vec![f64::NAN; n]);
    }
    Ok(standard_normals(&mut g, n)
        .into_iter()
        .map(|z| exp_a(mu + sigma * z))
        .collect())
}

pub(crate) fn exponential(seed: f64, n: f64, mean: f64) -> Res<Vec<f64>> {
    let (mut g, n) = start("rand::exponential", seed, n)?;
    if mean.is_nan() || mean < 0.0 {
        return Ok(vec![f64::NAN; n]);
    }
    Ok((0..n)
        .map(|_| 0.0 - mean * ln_a(1.0 - g.uniform()))
        .collect())
}

pub(crate) fn pareto(seed: f64, n: f64, xm: f64, alpha: f64) -> Res<Vec<f64>> {
    let (mut g, n) = start("rand::pareto", seed, n)?;
    if xm.is_nan() || alpha.is_nan() || xm <= 0.0 || alpha <= 0.0 {
        return Ok(vec![f64::NAN; n]);
    }
    Ok((0..n)
        .map(|_| xm * exp_a(0.0 - ln_a(1.0 - g.uniform()) / alpha))
        .collect())
}

/// Knuth's multiplication method, the mean split into chunks of at most 500.
pub(crate) fn poisson(seed: f64, n: f64, lambda: f64) -> Res<Vec<f64>> {
    let (mut g, n) = start("rand::poisson", seed, n)?;
    if lambda.is_nan() || !(0.0..=MAX_LAMBDA).contains(&lambda) {
        return Ok(vec![f64::NAN; n]);
    }
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let mut k = 0.0;
        let mut left = lambda;
        while left > 0.0 {
            let c = if left < POISSON_CHUNK {
                left
            } else {
                POISSON_CHUNK
            };
            left -= c;
            let limit = exp_a(-c);
            let mut p = 1.0;
            loop {
                p *= g.uniform();
                if p <= limit {
                    break;
                }
                k += 1.0;
            }
        }
        out.push(k);
    }
    Ok(out)
}

/// Work units a draw charges before it runs (the page's twin is in rhai.js): n, or for
/// `rand::poisson` n·(1 + ⌈λ⌉) (its expected uniforms); 0 when n or λ is unusable (the call
/// then fails or returns NaNs without work).
pub(crate) fn cost(path: &str, n: f64, lambda: f64) -> u64 {
    let Some(count) = whole(n, MAX_DRAWS) else {
        return 0;
    };
    if path == "poisson" && (0.0..=MAX_LAMBDA).contains(&lambda) {
        return count * (1 + lambda.ceil() as u64);
    }
    count
}

fn to_array(v: Vec<f64>) -> Array {
    v.into_iter().map(Dynamic::from_float).collect()
}

/// The module, with `charge` called with [`cost`] before each draw.
pub(crate) fn module_with<C>(charge: C) -> Module
where
    C: Fn(u64) -> Res<()> + Clone + 'static,
{
    let mut m = Module::new();
    let c = charge.clone();
    FuncRegistration::new("uniform").set_into_module(&mut m, move |s: f64, n: f64| {
        c(cost("uniform", n, 0.0))?;
        uniform(s, n).map(to_array)
    });
    type Two = fn(f64, f64, f64, f64) -> Res<Vec<f64>>;
    for (name, f) in [
        ("normal", normal as Two),
        ("lognormal", lognormal),
        ("pareto", pareto),
    ] {
        let c = charge.clone();
        FuncRegistration::new(name).set_into_module(
            &mut m,
            move |s: f64, n: f64, a: f64, b: f64| -> Res<Array> {
                c(cost(name, n, 0.0))?;
                f(s, n, a, b).map(to_array)
            },
        );
    }
    type One = fn(f64, f64, f64) -> Res<Vec<f64>>;
    for (name, f) in [("exponential", exponential as One), ("poisson", poisson)] {
        let c = charge.clone();
        FuncRegistration::new(name).set_into_module(
            &mut m,
            move |s: f64, n: f64, a: f64| -> Res<Array> {
                c(cost(name, n, a))?;
                f(s, n, a).map(to_array)
            },
        );
    }
    m
}

pub(crate) fn module() -> Module {
    module_with(|_| Ok(()))
}

const SPEC: &str = "xoshiro128** (D. Blackman, S. Vigna, \"Scrambled Linear Pseudorandom \
                    Number Generators\", ACM TOMS 47(4), 2021), seeded and turned into \
                    uniforms as specified at the top of this section.";

pub(crate) const DOCS: &[FnDoc] = &[
    FnDoc {
        path: "rand::uniform",
        signature: "rand::uniform(seed: f64, n: f64) -> array",
        summary: "n uniform draws in [0, 1), each from two generator outputs (53 random \
                  bits). The seed is a whole number from 0 to 2^53 − 1 and n one from 0 to \
                  1,000,000 (a formula's list holds at most 10,000), else an error. Charges n \
                  to the work budget.",
        units: "seed: any whole number; n: count; result: dimensionless.",
        source: SPEC,
        example: "rand::uniform(42.0, 3.0)",
    },
    FnDoc {
        path: "rand::normal",
        signature: "rand::normal(seed: f64, n: f64, mu: f64, sigma: f64) -> array",
        summary: "n normal draws mu + sigma·z, z standard normal by Marsaglia's polar method: \
                  uniforms u, v in (−1, 1) until s = u² + v² is in (0, 1), then both \
                  u·√(−2 ln s / s) and v·√(−2 ln s / s) are draws, in that order. sigma < 0 \
                  or a NaN parameter gives n NaNs. Seed and n as rand::uniform; charges n.",
        units: "mu, sigma: the variable's unit; result: that unit.",
        source: "G. Marsaglia, T. A. Bray, \"A Convenient Method for Generating Normal \
                 Variables\", SIAM Review 6(3), 1964; generator as rand::uniform.",
        example: "rand::normal(42.0, 2.0, 100.0, 15.0)",
    },
    FnDoc {
        path: "rand::lognormal",
        signature: "rand::lognormal(seed: f64, n: f64, mu: f64, sigma: f64) -> array",
        summary: "n lognormal draws e^(mu + sigma·z), z the same standard normals as \
                  rand::normal with the same seed (so the ln of each draw is rand::normal's). \
                  The median is e^mu and the mean e^(mu + sigma²/2). sigma < 0 or a NaN \
                  parameter gives n NaNs. Seed and n as rand::uniform; charges n.",
        units: "mu, sigma: of the natural log of the variable (mu = ln median); result: the \
                variable's unit (e.g. ms).",
        source: "Johnson, Kotz, Balakrishnan, Continuous Univariate Distributions Vol. 1, ch. \
                 14; normals as rand::normal.",
        example: "rand::lognormal(7.0, 2.0, 2.302585092994046, 0.5)",
    },
    FnDoc {
        path: "rand::exponential",
        signature: "rand::exponential(seed: f64, n: f64, mean: f64) -> array",
        summary: "n exponential draws by inversion, −mean·ln(1 − u) with u uniform in [0, 1) \
                  (inter-arrival times of a Poisson process of rate 1/mean). mean < 0 or NaN \
                  gives n NaNs. Seed and n as rand::uniform; charges n.",
        units: "mean: any time unit; result: the same unit.",
        source: "L. Devroye, Non-Uniform Random Variate Generation (Springer 1986), ch. II.2 \
                 (the inversion method).",
        example: "rand::exponential(1.0, 3.0, 2.0)",
    },
    FnDoc {
        path: "rand::pareto",
        signature: "rand::pareto(seed: f64, n: f64, xm: f64, alpha: f64) -> array",
        summary: "n Pareto (type I) draws by inversion, xm·(1 − u)^(−1/alpha): heavy-tailed \
                  sizes or durations, at least xm, with mean alpha·xm/(alpha − 1) for alpha > \
                  1 (infinite variance for alpha ≤ 2). xm ≤ 0, alpha ≤ 0 or NaN gives n NaNs. \
                  Seed and n as rand::uniform; charges n.",
        units: "xm: the variable's unit (the minimum); alpha: dimensionless shape; result: \
                xm's unit.",
        source: "Devroye (1986), ch. II.2 (inversion); B. C. Arnold, Pareto Distributions (2nd \
                 ed., CRC 2015).",
        example: "rand::pareto(3.0, 3.0, 1.0, 1.5)",
    },
    FnDoc {
        path: "rand::poisson",
        signature: "rand::poisson(seed: f64, n: f64, lambda: f64) -> array",
        summary: "n Poisson counts with mean lambda (0 to 1,000,000) by Knuth's \
                  multiplication method: multiply uniforms until the product falls to \
                  e^−lambda; the count is the number of factors before that. A lambda above \
                  500 is drawn as a sum of chunks of at most 500 (e^−500 is still a normal \
                  double). lambda outside [0, 1e6] or NaN gives n NaNs. Seed and n as \
                  rand::uniform; charges n·(1 + ⌈lambda⌉), the uniforms it expects to use.",
        units: "lambda: mean count per interval; result: counts (whole numbers).",
        source: "D. E. Knuth, The Art of Computer Programming Vol. 2, 3rd ed. (1997), sec. \
                 3.4.1 (its method for the Poisson distribution).",
        example: "rand::poisson(5.0, 4.0, 3.0)",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xoshiro128_starstar_reference_outputs() {
        // From state (1, 2, 3, 4), the first ten outputs of the reference implementation
        // (xoshiro128starstar.c v1.1), as the rand_xoshiro crate's test vector lists them; the
        // first two by hand: rotl(2·5, 7)·9 = 11520, then s1 = 0.
        let mut g = Rng::from_state([1, 2, 3, 4]);
        let want = [
            11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849,
            3729100597, 4258142804,
        ];
        for w in want {
            assert_eq!(g.next_u32(), w);
        }
        // After one step the state is (7, 0, 1026, 12288): s2 ^= s0 → 2, s3 ^= s1 → 6,
        // s1 ^= s2 → 0, s0 ^= s3 → 7, s2 ^= 2 << 9 → 1026, s3 = rotl(6, 11) → 12288.
        let mut h = Rng::from_state([1, 2, 3, 4]);
        h.next_u32();
        assert_eq!(h.s, [7, 0, 1026, 12288]);
    }

    #[test]
    fn seeds_give_distinct_streams_and_uniforms_are_in_range() {
        let a = uniform(0.0, 1000.0).unwrap();
        let b = uniform(1.0, 1000.0).unwrap();
        let c = uniform(4_294_967_296.0, 1000.0).unwrap(); // hi word differs only
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_eq!(a, uniform(0.0, 1000.0).unwrap());
        assert!(a.iter().all(|&u| (0.0..1.0).contains(&u)));
        let mean = a.iter().sum::<f64>() / 1000.0;
        assert!((mean - 0.5).abs() < 0.05, "{mean}");
        assert!(uniform(-1.0, 1.0).is_err());
        assert!(uniform(0.5, 1.0).is_err());
        assert!(uniform(1.0, 2e6).is_err());
        assert!(uniform(MAX_SEED, 1.0).is_ok() && uniform(MAX_SEED + 1.0, 1.0).is_err());
    }

    fn mean_var(v: &[f64]) -> (f64, f64) {
        let n = v.len() as f64;
        let m = v.iter().sum::<f64>() / n;
        (
            m,
            v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0),
        )
    }

    #[test]
    fn distributions_have_their_moments() {
        // 10,000 draws: the sample mean is within 4 standard errors of the true mean.
        let n = 10_000.0;
        let (m, v) = mean_var(&normal(11.0, n, 100.0, 15.0).unwrap());
        assert!((m - 100.0).abs() < 4.0 * 15.0 / 100.0 && (v.sqrt() - 15.0).abs() < 0.6);
        let (m, _) = mean_var(&exponential(12.0, n, 2.0).unwrap());
        assert!((m - 2.0).abs() < 4.0 * 2.0 / 100.0, "{m}");
        let (m, v) = mean_var(&poisson(13.0, n, 3.0).unwrap());
        assert!((m - 3.0).abs() < 4.0 * 3f64.sqrt() / 100.0 && (v - 3.0).abs() < 0.3);
        let (m, _) = mean_var(&poisson(14.0, 2000.0, 1234.5).unwrap());
        assert!((m - 1234.5).abs() < 4.0 * 1234.5f64.sqrt() / 44.0, "{m}");
        let logs: Vec<f64> = lognormal(15.0, n, 1.0, 0.5)
            .unwrap()
            .iter()
            .map(|x| x.ln())
            .collect();
        let (m, v) = mean_var(&logs);
        assert!((m - 1.0).abs() < 0.02 && (v.sqrt() - 0.5).abs() < 0.02);
        // Same seed: lognormal = exp(normal).
        let z = normal(15.0, 5.0, 1.0, 0.5).unwrap();
        let l = lognormal(15.0, 5.0, 1.0, 0.5).unwrap();
        for (z, l) in z.iter().zip(&l) {
            assert_eq!(exp_a(*z), *l);
        }
        let p = pareto(16.0, n, 1.0, 3.0).unwrap();
        assert!(p.iter().all(|&x| x >= 1.0));
        let (m, _) = mean_var(&p);
        assert!((m - 1.5).abs() < 0.05, "{m}");
        assert!(normal(1.0, 3.0, 0.0, -1.0)
            .unwrap()
            .iter()
            .all(|x| x.is_nan()));
        assert_eq!(poisson(1.0, 3.0, 0.0).unwrap(), vec![0.0; 3]);
    }

    #[test]
    fn costs() {
        assert_eq!(cost("uniform", 10.0, 0.0), 10);
        assert_eq!(cost("poisson", 10.0, 2.5), 40);
        assert_eq!(cost("poisson", 10.0, f64::NAN), 10);
        assert_eq!(cost("normal", 0.5, 0.0), 0);
    }
}
