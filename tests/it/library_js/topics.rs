//! Parity cases for the namespaces whose JavaScript lives in `renderers/html/library/*.js`:
//! `collective::`, `roofline::`, `energy::`, `llm::`, `carbon::`.

use super::{grid, n, s, Case, INF, NAN};

pub fn cases(v: &mut Vec<Case>) {
    // collective:: — sizes, rank counts (whole, fractional, out of range), latencies, bandwidths.
    let bytes: &[f64] = &[0.0, 1e3, 1e9, 123_456_789.0, 4e11, -1.0, NAN, INF];
    let ranks: &[f64] = &[
        1.0, 2.0, 3.0, 7.0, 8.0, 9.0, 1024.0, 1000.0, 0.0, 2.5, -1.0, NAN, 2e9,
    ];
    let alpha: &[f64] = &[0.0, 5e-6, 1.5e-6, -1.0, NAN];
    let bw: &[f64] = &[50e9, 450e9, 25e9, 0.0, -1.0, NAN, INF];
    for path in [
        "collective::ring_allreduce_s",
        "collective::allgather_s",
        "collective::reduce_scatter_s",
        "collective::tree_allreduce_s",
    ] {
        grid(v, path, &[bytes, ranks, alpha, bw]);
    }
    grid(v, "collective::p2p_s", &[bytes, alpha, bw]);
    grid(
        v,
        "collective::hier_allreduce_s",
        &[
            &[1e9, 0.0, 3e8, NAN],
            &[1.0, 8.0, 4.0, 2.5, 0.0],
            &[1.0, 16.0, 3.0, 0.0, NAN],
            &[3e-6, -1.0],
            &[450e9, 0.0],
            &[5e-6, NAN, 0.0],
            &[50e9, 25e9],
        ],
    );
    let times: &[f64] = &[0.0, 0.3, 0.12, 1.0, -1.0, NAN, INF];
    grid(
        v,
        "collective::scaling_efficiency",
        &[times, times, &[0.0, 0.5, 0.9, 1.0, 1.5, -0.1, NAN]],
    );

    // roofline::
    let peak: &[f64] = &[0.0, 989.5, 67.0, 989.5e12, -1.0, NAN, INF];
    let ai: &[f64] = &[0.0, 0.5, 100.0, 295.373_134_328_358_2, 1e4, -1.0, NAN, INF];
    let mbw: &[f64] = &[0.0, 3.35, 3.35e12, 0.1, -1.0, NAN, INF];
    grid(v, "roofline::attainable", &[peak, ai, mbw]);
    grid(v, "roofline::ridge", &[peak, mbw]);
    let dims: &[f64] = &[0.0, 1.0, 64.0, 4096.0, 3.5, 12288.0, -1.0, NAN];
    grid(
        v,
        "roofline::gemm_ai",
        &[dims, dims, dims, &[0.5, 1.0, 2.0, 4.0, 0.0, NAN]],
    );
    grid(
        v,
        "roofline::time_s",
        &[
            &[0.0, 1.4e14, 1e9, -1.0, NAN],
            &[0.0, 1e11, 7e6, NAN],
            peak,
            mbw,
        ],
    );

    // energy:: — every operation, unknown names (the error lists the known ones).
    let ops = [
        "int8_add",
        "int16_add",
        "int32_add",
        "fp16_add",
        "fp32_add",
        "int8_mult",
        "int32_mult",
        "fp16_mult",
        "fp32_mult",
        "sram_read_32b",
        "dram_read_32b",
        "fp64_mult",
        "",
        "FP32_MULT",
        "it's",
    ];
    let counts: &[f64] = &[0.0, 1.0, 1e9, 1e12, 3.5, -1.0, NAN, INF];
    for op in ops {
        v.push(Case {
            path: "energy::op_pj",
            args: vec![s(op)],
        });
        for &c in counts {
            v.push(Case {
                path: "energy::ops_j",
                args: vec![n(c), s(op)],
            });
            for &d in &[0.0, 1e8, -1.0, NAN] {
                for &w in &[0.0, 1e9, NAN] {
                    v.push(Case {
                        path: "energy::workload_j",
                        args: vec![n(c), s(op), n(d), n(w)],
                    });
                }
            }
        }
    }

    // llm::
    let precisions = [
        "fp32", "fp16", "bf16", "fp8", "int8", "int4", "int2", "", "FP16",
    ];
    for p in precisions {
        v.push(Case {
            path: "llm::bytes_per",
            args: vec![s(p)],
        });
        for &params in &[0.0, 7e9, 70e9, 175e9, 1.5, -1.0, NAN, INF] {
            v.push(Case {
                path: "llm::weight_gb",
                args: vec![n(params), s(p)],
            });
        }
        for &(l, h, d) in &[
            (80.0, 8.0, 128.0),
            (40.0, 40.0, 128.0),
            (32.0, 32.0, 128.0),
            (0.0, 8.0, 128.0),
            (-1.0, 8.0, 128.0),
            (80.0, NAN, 128.0),
        ] {
            for &seq in &[1.0, 2048.0, 4096.0, 131072.0, NAN] {
                for &b in &[1.0, 16.0, 256.0, -2.0] {
                    v.push(Case {
                        path: "llm::kv_cache_gb",
                        args: vec![n(l), n(h), n(d), n(seq), n(b), s(p)],
                    });
                }
            }
        }
    }
    grid(
        v,
        "llm::max_batch",
        &[
            &[80.0, 141.0, 24.0, 0.0, -1.0, NAN, INF],
            &[35.0, 140.0, 80.0, 0.0, NAN],
            &[1.342_177_28, 0.5, 0.0, 1e-9, -1.0, NAN, INF],
        ],
    );

    // carbon::
    let amount: &[f64] = &[0.0, 1.0, 1024.0, 1_287_000.0, 2500.0, 0.3, -1.0, NAN, INF];
    grid(
        v,
        "carbon::energy_kwh",
        &[
            amount,
            &[0.0, 700.0, 400.0, NAN],
            &[0.0, 720.0, 8760.0, -1.0],
        ],
    );
    grid(
        v,
        "carbon::operational_t",
        &[
            amount,
            &[1.0, 1.1, 1.58, 0.9, NAN, INF],
            &[0.0, 429.0, 20.0, 800.0, -1.0, NAN],
        ],
    );
    grid(
        v,
        "carbon::embodied_t",
        &[
            amount,
            &[4.0, 5.0, 0.0, 3.5, -1.0, NAN],
            &[0.0, 720.0, 35_040.0, 1.0, NAN, INF],
        ],
    );
}
