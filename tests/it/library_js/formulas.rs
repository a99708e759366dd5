//! Parity cases for the formulas of issue 24: `perf::`, `train::`, `privacy::`, `stats::`,
//! `rand::` (short draws; the 10,000-draw streams are `tests/it/library_random.rs`) and the
//! additions to `collective::`, `llm::` and `rel::`.

use super::{a, grid, n, s, Arg, Case, Rng, INF, NAN};

pub fn cases(v: &mut Vec<Case>, rng: &mut Rng) {
    let frac: &[f64] = &[0.0, 0.5, 0.95, 0.999, 1.0, 1.2, -0.1, NAN];
    let pos: &[f64] = &[0.0, 1.0, 8.0, 1024.0, 0.5, -1.0, NAN, INF];
    grid(v, "perf::amdahl", &[frac, pos]);
    grid(
        v,
        "perf::fibre_rtt_ms",
        &[&[0.0, 100.0, 4000.0, 5600.0, 1e-3, -1.0, NAN, INF]],
    );

    let big: &[f64] = &[0.0, 1.0, 7e9, 70e9, 175e9, 3.5, -1.0, NAN, INF];
    grid(
        v,
        "train::flops",
        &[big, &[0.0, 300e9, 1.4e12, -5.0, NAN, INF]],
    );
    grid(v, "train::chinchilla_tokens", &[big]);
    let counts: &[f64] = &[1.0, 2.0, 8.0, 32.0, 0.0, 2.5, -1.0, 2e9, NAN, INF];
    grid(v, "train::pipeline_bubble", &[counts, counts]);
    grid(
        v,
        "train::activation_gb",
        &[
            &[2048.0, 1.0, 0.0, -1.0, NAN],
            &[1.0, 8.0, 0.5],
            &[12288.0, 768.0, 0.0],
            &[96.0, 12.0, NAN],
            &[96.0, 1.0, -2.0],
        ],
    );
    for scheme in ["fp16_adam_mixed", "bf16_adam_mixed", "fp32_adam", "fp8", ""] {
        v.push(Case {
            path: "train::state_bytes_per_param",
            args: vec![s(scheme)],
        });
        v.push(Case {
            path: "rel::ckpt_bytes_per_param",
            args: vec![s(scheme)],
        });
    }
    for scheme in ["bf16_weights", "fp32_weights", "int8_weights"] {
        v.push(Case {
            path: "rel::ckpt_bytes_per_param",
            args: vec![s(scheme)],
        });
    }
    grid(
        v,
        "rel::stacked_availability",
        &[
            &[0.0, 0.5, 0.99, 0.999, 1.0, 1.5, -0.1, NAN],
            &[0.0, 1.0, 2.0, 3.0, 2.5, 100.0, -1.0, NAN, INF],
        ],
    );

    let eps: &[f64] = &[0.01, 0.1, 0.5, 1.0, 3.0, 0.0, -1.0, NAN, INF];
    let sens: &[f64] = &[1.0, 0.0, 2.5, -1.0, NAN];
    grid(v, "privacy::laplace_scale", &[sens, eps]);
    let delta: &[f64] = &[1e-5, 1e-9, 0.5, 0.0, 1.0, -0.1, NAN];
    grid(v, "privacy::gaussian_sigma", &[sens, eps, delta]);
    let k: &[f64] = &[0.0, 1.0, 100.0, 1e4, 2.5, -1.0, NAN];
    grid(v, "privacy::compose_basic", &[eps, k]);
    grid(v, "privacy::compose_advanced", &[eps, k, delta]);

    let msg: &[f64] = &[0.0, 64e6, 1e9, -1.0, NAN];
    grid(
        v,
        "collective::alltoall_s",
        &[
            msg,
            &[1.0, 2.0, 8.0, 64.0, 0.0, 2.5, NAN],
            &[0.0, 5e-6, -1.0],
            &[50e9, 0.0, NAN],
        ],
    );
    for p in ["fp16", "int4", "fp4"] {
        for &(l, h, d) in &[(80.0, 8.0, 128.0), (32.0, 32.0, 128.0), (-1.0, 8.0, 128.0)] {
            for &seq in &[0.0, 1.0, 1000.0, 4096.0, 1e5 + 3.0, NAN, INF] {
                for &blk in &[16.0, 1.0, 32.0, 0.0, 1.5, NAN] {
                    v.push(Case {
                        path: "llm::paged_kv_gb",
                        args: vec![n(l), n(h), n(d), n(seq), n(4.0), n(blk), s(p)],
                    });
                }
            }
        }
    }
    grid(
        v,
        "llm::paged_kv_waste",
        &[
            &[0.0, 1.0, 15.0, 16.0, 17.0, 1000.0, 4096.0, -1.0, NAN, INF],
            &[16.0, 1.0, 32.0, 256.0, 0.0, 1.5, -16.0, NAN],
        ],
    );

    // stats:: — erf and the CDFs over a fine grid (both algorithms and their seams), random
    // doubles, and the edges.
    let mut xs: Vec<f64> = vec![
        0.0, -0.0, 1.5, -1.5, 2.0, 3.0, 27.3, 27.4, -27.4, 1e-300, 5e-324, 1e300, NAN, INF, -INF,
    ];
    let mut x = -8.0;
    while x <= 8.0 {
        xs.push(x);
        x += 0.0625 + 1e-9;
    }
    for _ in 0..400 {
        xs.push((rng.below(1 << 30) as f64 / (1u64 << 30) as f64 - 0.5) * 60.0);
    }
    for &x in &xs {
        for path in ["stats::erf", "stats::erfc"] {
            v.push(Case {
                path,
                args: vec![n(x)],
            });
        }
    }
    let mus: &[f64] = &[0.0, 1.0, -2.0, NAN];
    let sigmas: &[f64] = &[1.0, 0.5, 3.0, 0.0, -1.0, NAN];
    for &x in xs.iter().step_by(7) {
        for &mu in mus {
            for &sg in sigmas {
                v.push(Case {
                    path: "stats::normal_cdf",
                    args: vec![n(x), n(mu), n(sg)],
                });
                v.push(Case {
                    path: "stats::lognormal_cdf",
                    args: vec![n(x.abs() * 3.0), n(mu), n(sg)],
                });
            }
        }
    }
    v.push(Case {
        path: "stats::lognormal_cdf",
        args: vec![n(-1.0), n(0.0), n(1.0)],
    });

    let lists: Vec<Vec<f64>> = vec![
        vec![],
        vec![5.0],
        vec![3.0, 1.0, 2.0],
        vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0],
        vec![0.0, -0.0, 0.0, -0.0, -1.0],
        vec![2.0, NAN, 1.0, NAN, -INF, INF],
        (0..257).map(|_| rng.any_finite()).collect(),
        (0..1000)
            .map(|_| rng.below(1000) as f64 / 7.0 - 50.0)
            .collect(),
    ];
    for l in &lists {
        v.push(Case {
            path: "stats::sort",
            args: vec![a(l)],
        });
        for &p in &[
            0.0, 1.0, 25.0, 50.0, 90.0, 99.0, 99.9, 100.0, 33.3, -1.0, 101.0, NAN,
        ] {
            v.push(Case {
                path: "stats::percentile",
                args: vec![a(l), n(p)],
            });
        }
        for &(lo, hi, bins) in &[
            (0.0, 10.0, 10.0),
            (-50.0, 100.0, 7.0),
            (1.0, 2.0, 1.0),
            (0.0, 1.0, 0.0),
            (1.0, 1.0, 3.0),
            (0.0, INF, 3.0),
            (0.0, 10.0, 2.5),
            (NAN, 1.0, 2.0),
        ] {
            v.push(Case {
                path: "stats::histogram",
                args: vec![a(l), n(lo), n(hi), n(bins)],
            });
        }
    }
    // A list holding a string: the same error text.
    v.push(Case {
        path: "stats::sort",
        args: vec![Arg::A(vec![n(1.0), s("x")])],
    });
    let bins: Vec<Vec<f64>> = vec![
        vec![0.25, 0.25, 0.25, 0.25],
        vec![0.1, 0.2, 0.3, 0.4],
        vec![25.0, 25.0, 25.0, 25.0],
        vec![0.0, 0.0, 0.5, 0.5],
        vec![0.0, 0.0, 0.0, 0.0],
        vec![1.0, -1.0, 1.0, 1.0],
        vec![1.0, NAN, 1.0, 1.0],
        vec![0.5, 0.5],
        vec![],
        vec![INF, 1.0, 1.0, 1.0],
    ];
    for e in &bins {
        for f in &bins {
            v.push(Case {
                path: "stats::psi",
                args: vec![a(e), a(f)],
            });
        }
    }

    // rand:: — short draws for many seeds and parameters (the seed edges included), and the
    // errors.
    let seeds: &[f64] = &[
        0.0,
        1.0,
        42.0,
        4_294_967_295.0,
        4_294_967_296.0,
        9_007_199_254_740_991.0,
    ];
    for &seed in seeds {
        v.push(Case {
            path: "rand::uniform",
            args: vec![n(seed), n(64.0)],
        });
        for &(mu, sg) in &[
            (0.0, 1.0),
            (100.0, 15.0),
            (2.3, 0.5),
            (0.0, 0.0),
            (0.0, -1.0),
            (NAN, 1.0),
        ] {
            for path in ["rand::normal", "rand::lognormal"] {
                v.push(Case {
                    path,
                    args: vec![n(seed), n(33.0), n(mu), n(sg)],
                });
            }
        }
        for &mean in &[1.0, 2.5, 0.0, -1.0, NAN] {
            v.push(Case {
                path: "rand::exponential",
                args: vec![n(seed), n(32.0), n(mean)],
            });
        }
        for &(xm, al) in &[(1.0, 1.5), (2.0, 3.0), (1.0, 0.1), (0.0, 1.0), (1.0, -1.0)] {
            v.push(Case {
                path: "rand::pareto",
                args: vec![n(seed), n(32.0), n(xm), n(al)],
            });
        }
        for &lam in &[0.0, 0.5, 3.0, 30.0, 499.5, 500.0, 1234.5, -1.0, 2e6, NAN] {
            v.push(Case {
                path: "rand::poisson",
                args: vec![n(seed), n(8.0), n(lam)],
            });
        }
    }
    for (seed, cnt) in [
        (-1.0, 3.0),
        (0.5, 3.0),
        (9_007_199_254_740_992.0, 3.0),
        (NAN, 3.0),
        (1.0, -1.0),
        (1.0, 2.5),
        (1.0, 2e6),
        (1.0, 0.0),
    ] {
        v.push(Case {
            path: "rand::uniform",
            args: vec![n(seed), n(cnt)],
        });
        v.push(Case {
            path: "rand::poisson",
            args: vec![n(seed), n(cnt), n(2.0)],
        });
    }
}
