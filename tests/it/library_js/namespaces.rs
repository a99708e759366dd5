//! Parity cases for the namespaces whose JavaScript lives in `renderers/html/library.js` itself:
//! `queue::`, `rel::`, `fleet::`, `cost::`.

use super::{a, grid, n, s, Arg, Case, Rng, INF, NAN};

pub fn cases(v: &mut Vec<Case>, rng: &mut Rng) {
    let rho: &[f64] = &[0.0, 0.1, 0.5, 0.8, 0.95, 0.999999, 1.0, 1.5, -0.1, NAN, INF];
    let cs: &[f64] = &[0.0, 0.5, 1.0, 3.0, 5.0, -2.0, NAN];
    let svc: &[f64] = &[0.0, 1.0, 5.0, 30.0, 1e9, -1.0, NAN, INF];
    let servers: &[f64] = &[1.0, 2.0, 3.0, 8.0, 64.0, 1000.0, 0.0, 2.5, -1.0, NAN, 2e6];
    let p: &[f64] = &[0.0, 0.5, 0.9, 0.99, 0.999, 1.0, 1.5, -0.1, NAN];

    grid(v, "queue::mm1_wait", &[rho, svc]);
    grid(v, "queue::mm1_sojourn", &[rho, svc]);
    grid(v, "queue::pk_wait", &[rho, cs, svc]);
    grid(v, "queue::pk_amplification", &[cs]);
    grid(v, "queue::pk_amplification", &[&[1e200, -1e-200, INF]]);
    grid(v, "queue::erlang_c", &[servers, rho]);
    grid(v, "queue::erlang_c", &[&[100000.0], &[0.5, 0.999]]);
    grid(v, "queue::mmc_wait", &[servers, rho, svc]);
    grid(
        v,
        "queue::mmc_wait_p",
        &[servers, rho, &[1.0, 30.0, NAN, -1.0], p],
    );
    grid(v, "queue::kingman_wait", &[rho, cs, cs, svc]);

    let t: &[f64] = &[
        0.0, 1e-9, 1.0, 120.0, 2450.0, 10800.0, 50000.0, 1e12, -1.0, NAN, INF,
    ];
    let count: &[f64] = &[0.0, 0.5, 1.0, 8.0, 1000.0, 16000.0, -1.0, NAN, INF];
    grid(v, "rel::system_mtbf", &[t, count]);
    grid(v, "rel::failure_prob", &[t, t]);
    grid(v, "rel::young_daly", &[t, t]);
    grid(v, "rel::daly", &[t, t]);
    grid(
        v,
        "rel::daly",
        &[&[19.999999, 20.0, 20.000001, 0.001], &[10.0]],
    );
    grid(v, "rel::ckpt_waste", &[t, t, t]);
    grid(v, "rel::ckpt_waste_opt", &[t, t]);
    grid(
        v,
        "rel::ckpt_bytes",
        &[
            &[175e9, 7e9, 0.0, -1.0, NAN, INF],
            &[14.0, 12.0, 2.0, 0.5, NAN],
        ],
    );
    for scheme in [
        "fp16_adam_mixed",
        "fp32_adam",
        "bf16_weights",
        "fp32_weights",
        "int8_weights",
        "fp8",
        "",
        "FP16_ADAM_MIXED",
        "fp16_adam_mixed ",
        "it's",
    ] {
        v.push(Case {
            path: "rel::bytes_per_param",
            args: vec![s(scheme)],
        });
    }
    grid(v, "rel::availability", &[t, t]);

    let mut lists: Vec<Vec<f64>> = vec![
        vec![],
        vec![0.0, 0.0],
        vec![5.0, 5.0, 5.0, 5.0],
        vec![40.0, 30.0, 20.0, 10.0],
        vec![1.0, 2.0],
        vec![0.0, 0.0, 1.0, 0.0],
        vec![1.0, -1.0],
        vec![1.0, NAN],
        vec![1.0, INF],
        vec![1e300, 1e300],
        vec![0.1, 0.2, 0.3],
        vec![1e-300],
        vec![8.0, 3.0, 0.0, 5.0],
        vec![8.0, 8.0, 3.0, 8.0],
        vec![8.0, 7.0, 7.0],
        vec![7.0; 11],
        vec![1.0, 2.0, 3.0, 4.0],
        vec![8.0, 8.0, 4.0, 2.0],
        vec![9.0, 8.5, 4.0],
    ];
    for _ in 0..40 {
        let len = rng.below(40);
        lists.push((0..len).map(|_| rng.below(9) as f64).collect());
    }
    for _ in 0..20 {
        let len = 1 + rng.below(30);
        lists.push(
            (0..len)
                .map(|_| (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 1000.0)
                .collect(),
        );
    }
    for l in &lists {
        v.push(Case {
            path: "fleet::jain",
            args: vec![a(l)],
        });
        for gpn in [8.0, 4.0, 0.0, -1.0, NAN, 8.5] {
            v.push(Case {
                path: "fleet::gang_fragmentation",
                args: vec![a(l), n(gpn)],
            });
            for job in [0.0, 8.0, 12.0, 16.0, 24.0, 64.0, -1.0, NAN, 1e9] {
                v.push(Case {
                    path: "fleet::schedulable_gang",
                    args: vec![a(l), n(gpn), n(job)],
                });
            }
        }
    }
    // Non-numeric list elements are errors with the same message.
    for path in [
        "fleet::jain",
        "fleet::gang_fragmentation",
        "fleet::schedulable_gang",
    ] {
        let bad_list = Arg::A(vec![n(1.0), s("two"), n(3.0)]);
        let args = match path {
            "fleet::jain" => vec![bad_list],
            "fleet::gang_fragmentation" => vec![bad_list, n(8.0)],
            _ => vec![bad_list, n(8.0), n(8.0)],
        };
        v.push(Case { path, args });
    }
    grid(
        v,
        "fleet::preempt_cost",
        &[
            &[0.0, 1.0, 8.0, 64.0, 128.0, -1.0, NAN, INF],
            &[0.0, 0.5, 2.0, 8.0, NAN],
            &[0.0, 0.35, 3.0, 2.48, NAN],
        ],
    );
    let replicas: Vec<f64> = (0..13).map(|r| r as f64).chain([-1.0, NAN, 2.5]).collect();
    grid(
        v,
        "fleet::spares_needed",
        &[
            &replicas,
            &[50.0, 100.0, 1000.0, 5000.0, NAN],
            &[10.0, 100.0, 130.0, 325.0, 400.0, 1e9, NAN],
            &[5.0, 0.0, 1.0, 2.5, -1.0, NAN, 10.0],
        ],
    );
    let money: &[f64] = &[0.0, 1.0, 128.0, 16000.0, -2.0, NAN, INF];
    grid(
        v,
        "cost::gpu_hours_cost",
        &[
            money,
            &[0.0, 2.0, 24.0, 0.1, NAN],
            &[3.0, 0.35, 2.48, 4.2, NAN],
        ],
    );
    grid(
        v,
        "cost::daily",
        &[money, &[3.0, 0.35, 2.48, 4.2, 0.1, NAN, INF]],
    );
}
