//! Parity cases for `sim::cluster` (issue 24 item 5): every policy with and without backfill,
//! over cluster shapes, team sizes, loads (overloaded ones included), duration spreads and
//! seeds, the lab's size, and the configuration errors. Every number of the result (the
//! series included) must be the same bits in Node as in Rust.

use super::{a, n, s, Arg, Case};

fn cfg(kv: &[(&str, Arg)]) -> Arg {
    Arg::M(kv.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
}

pub fn cases(v: &mut Vec<Case>) {
    let mut push = |kv: Vec<(&str, Arg)>| {
        v.push(Case {
            path: "sim::cluster",
            args: vec![cfg(&kv)],
        })
    };
    let shapes: &[(f64, f64, &[f64])] = &[
        (1.0, 1.0, &[1.0]),
        (4.0, 2.0, &[1.0, 2.0, 4.0]),
        (8.0, 8.0, &[1.0, 4.0, 8.0, 32.0]),
        (32.0, 8.0, &[1.0, 2.0, 8.0, 32.0, 64.0]),
    ];
    let mut seed = 0.0;
    for &(nodes, gpn, sizes) in shapes {
        for policy in ["fifo", "sjf", "fair", "mix"] {
            for backfill in [false, true] {
                for (load, cs, dist) in [
                    (0.6, 1.0, "exponential"),
                    (0.9, 3.0, "lognormal"),
                    (1.3, 5.0, "lognormal"),
                ] {
                    seed += 1.0;
                    push(vec![
                        ("seed", n(seed)),
                        ("nodes", n(nodes)),
                        ("gpus_per_node", n(gpn)),
                        ("teams", n(sizes.len() as f64 + 1.0)),
                        ("sizes", a(sizes)),
                        ("jobs", n(300.0)),
                        ("load", n(load)),
                        ("mean", n(30.0)),
                        ("cs", n(cs)),
                        ("dist", s(dist)),
                        ("policy", s(policy)),
                        ("backfill", Arg::B(backfill)),
                        ("window", n(16.0)),
                        ("points", n(12.0)),
                    ]);
                }
            }
        }
    }
    // The mix's weights and age scale, and the defaults (the lab's size, 256 GPUs and 2,000
    // jobs), with large seeds.
    for (wa, ws, wf, seed) in [
        (1.0, 0.0, 0.0, 4_294_967_296.0),
        (0.0, 1.0, 0.0, 9_007_199_254_740_991.0),
        (0.2, 0.3, 0.5, 77.0),
        (0.0, 0.0, 0.0, 5.0),
    ] {
        push(vec![
            ("seed", n(seed)),
            ("teams", n(5.0)),
            ("sizes", a(&[1.0, 2.0, 8.0, 32.0, 64.0])),
            ("load", n(0.95)),
            ("cs", n(3.0)),
            ("policy", s("mix")),
            ("w_age", n(wa)),
            ("w_size", n(ws)),
            ("w_fair", n(wf)),
            ("max_age", n(120.0)),
            ("backfill", Arg::B(true)),
        ]);
    }
    push(vec![]);
    push(vec![("cs", n(0.0)), ("jobs", n(1.0))]);
    // Errors, with the same message.
    for bad in [
        vec![("job", n(5.0))],
        vec![("zeta", n(1.0)), ("alpha", n(1.0))],
        vec![("nodes", n(0.0))],
        vec![("nodes", n(2.5))],
        vec![("seed", n(-1.0))],
        vec![("jobs", n(2e6))],
        vec![("load", n(0.0))],
        vec![("mean", n(f64::INFINITY))],
        vec![("cs", n(-1.0))],
        vec![("sizes", a(&[]))],
        vec![("sizes", n(3.0))],
        vec![("sizes", a(&[12.0]))],
        vec![("sizes", a(&[512.0]))],
        vec![("sizes", a(&[0.0]))],
        vec![("dist", s("pareto"))],
        vec![("policy", s("lifo"))],
        vec![("policy", n(1.0))],
        vec![("backfill", n(1.0))],
        vec![("window", n(0.0))],
        vec![("points", n(1001.0))],
        vec![("nodes", s("8"))],
        vec![("w_fair", n(f64::NAN))],
    ] {
        push(bad);
    }
}
