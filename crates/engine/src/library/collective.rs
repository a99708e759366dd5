//! `collective::` — collective communication in the α–β (latency–bandwidth) model.
//!
//! Sending `n` bytes between two ranks costs `α + n/β`. Every function takes the message size
//! in bytes, a rank count `p` (a whole number from 1 to 1e9, else NaN), the per-message latency
//! α in seconds and the link bandwidth β in bytes per second, and returns seconds. A negative
//! or NaN size, latency or bandwidth gives NaN; a zero bandwidth gives ∞ (IEEE division).

use rhai::{FuncRegistration, Module};

use super::{bad, whole, FnDoc};

/// Largest rank count the functions accept.
const MAX_RANKS: f64 = 1e9;

/// `true` when the arguments are outside the model's domain.
fn invalid(n: f64, p: f64, alpha: f64, bw: f64) -> bool {
    whole(p, MAX_RANKS).is_none_or(|k| k == 0) || bad(n) || bad(alpha) || bad(bw)
}

/// Point-to-point message: α + n/β.
pub(crate) fn p2p_s(n: f64, alpha: f64, bw: f64) -> f64 {
    if bad(n) || bad(alpha) || bad(bw) {
        return f64::NAN;
    }
    alpha + n / bw
}

/// Ring all-reduce (reduce-scatter + all-gather): 2(p−1)/p · n/β + 2(p−1)·α.
pub(crate) fn ring_allreduce_s(n: f64, p: f64, alpha: f64, bw: f64) -> f64 {
    if invalid(n, p, alpha, bw) {
        return f64::NAN;
    }
    2.0 * (p - 1.0) / p * (n / bw) + 2.0 * (p - 1.0) * alpha
}

/// Ring all-gather or reduce-scatter of an `n`-byte buffer: (p−1)/p · n/β + (p−1)·α.
pub(crate) fn ring_half_s(n: f64, p: f64, alpha: f64, bw: f64) -> f64 {
    if invalid(n, p, alpha, bw) {
        return f64::NAN;
    }
    (p - 1.0) / p * (n / bw) + (p - 1.0) * alpha
}

/// Binomial-tree all-reduce (reduce to a root, then broadcast):
/// 2·⌈log2 p⌉·(α + n/β). The step count is found by doubling, exactly.
pub(crate) fn tree_allreduce_s(n: f64, p: f64, alpha: f64, bw: f64) -> f64 {
    if invalid(n, p, alpha, bw) {
        return f64::NAN;
    }
    let mut steps = 0.0;
    let mut reach = 1.0;
    while reach < p {
        reach *= 2.0;
        steps += 1.0;
    }
    2.0 * steps * (alpha + n / bw)
}

/// Hierarchical all-reduce over `nodes` nodes of `g` GPUs: an intra-node ring reduce-scatter,
/// an inter-node ring all-reduce of each GPU's n/g shard (the g shards travel in parallel, one
/// NIC per GPU), an intra-node ring all-gather. The two intra-node halves make one intra-node
/// ring all-reduce.
pub(crate) fn hier_allreduce_s(
    n: f64,
    g: f64,
    nodes: f64,
    alpha_intra: f64,
    bw_intra: f64,
    alpha_inter: f64,
    bw_inter: f64,
) -> f64 {
    if invalid(n, g, alpha_intra, bw_intra) || invalid(n, nodes, alpha_inter, bw_inter) {
        return f64::NAN;
    }
    ring_allreduce_s(n, g, alpha_intra, bw_intra)
        + ring_allreduce_s(n / g, nodes, alpha_inter, bw_inter)
}

/// All-to-all of an n-byte buffer per rank (each rank keeps 1/p and sends (p−1)/p), pairwise
/// exchange: (p−1)·α + (p−1)/p · n/β.
pub(crate) fn alltoall_s(n: f64, p: f64, alpha: f64, bw: f64) -> f64 {
    if invalid(n, p, alpha, bw) {
        return f64::NAN;
    }
    (p - 1.0) * alpha + (p - 1.0) / p * (n / bw)
}

/// Data-parallel scaling efficiency: t_compute / (t_compute + (1 − overlap)·t_comm).
pub(crate) fn scaling_efficiency(t_compute: f64, t_comm: f64, overlap: f64) -> f64 {
    if bad(t_compute) || bad(t_comm) || overlap.is_nan() || !(0.0..=1.0).contains(&overlap) {
        return f64::NAN;
    }
    t_compute / (t_compute + (1.0 - overlap) * t_comm)
}

pub(crate) fn module() -> Module {
    let mut m = Module::new();
    FuncRegistration::new("p2p_s").set_into_module(&mut m, p2p_s);
    FuncRegistration::new("ring_allreduce_s").set_into_module(&mut m, ring_allreduce_s);
    FuncRegistration::new("allgather_s").set_into_module(&mut m, ring_half_s);
    FuncRegistration::new("reduce_scatter_s").set_into_module(&mut m, ring_half_s);
    FuncRegistration::new("tree_allreduce_s").set_into_module(&mut m, tree_allreduce_s);
    FuncRegistration::new("hier_allreduce_s").set_into_module(&mut m, hier_allreduce_s);
    FuncRegistration::new("scaling_efficiency").set_into_module(&mut m, scaling_efficiency);
    FuncRegistration::new("alltoall_s").set_into_module(&mut m, alltoall_s);
    m
}

const ALPHA_BETA_UNITS: &str = "n: message bytes; p: ranks (whole number ≥ 1); alpha: latency \
                                per message, s; bw: link bandwidth, bytes/s (GB/s × 1e9); \
                                result: seconds.";
const THAKUR: &str = "R. Thakur, R. Rabenseifner, W. Gropp, \"Optimization of Collective \
                      Communication Operations in MPICH\", Int. J. High Performance Computing \
                      Applications 19(1), 2005, sec. 2 (α–β cost model) and sec. 4 \
                      (all-gather, reduce-scatter, all-reduce).";

pub(crate) const DOCS: &[FnDoc] = &[
    FnDoc {
        path: "collective::alltoall_s",
        signature: "collective::alltoall_s(n: f64, p: f64, alpha: f64, bw: f64) -> f64",
        summary: "All-to-all over p ranks, each holding n bytes of which it keeps 1/p and sends \
                  a different 1/p to every other rank (expert parallelism's token exchange), \
                  by pairwise exchange: (p−1)·α + (p−1)/p · n/β. Unlike a ring all-reduce the \
                  p − 1 messages are all distinct, so the latency term cannot be pipelined \
                  away. Invalid p, negative or NaN arguments → NaN.",
        units: ALPHA_BETA_UNITS,
        source: "Thakur, Rabenseifner, Gropp (2005), sec. 3 (all-to-all by pairwise exchange: \
                 (p−1)α + nβ(p−1)/p, n the data per rank).",
        example: "collective::alltoall_s(64e6, 8.0, 5e-6, 50e9)",
    },
    FnDoc {
        path: "collective::p2p_s",
        signature: "collective::p2p_s(n: f64, alpha: f64, bw: f64) -> f64",
        summary: "Time to send one n-byte message between two ranks in the α–β model: α + n/β \
                  (e.g. one pipeline-parallel activation transfer). Negative or NaN \
                  arguments → NaN.",
        units: "n: bytes; alpha: s; bw: bytes/s; result: seconds.",
        source: THAKUR,
        example: "collective::p2p_s(16e6, 5e-6, 50e9)",
    },
    FnDoc {
        path: "collective::ring_allreduce_s",
        signature: "collective::ring_allreduce_s(n: f64, p: f64, alpha: f64, bw: f64) -> f64",
        summary: "Ring all-reduce of an n-byte buffer over p ranks (reduce-scatter, then \
                  all-gather): 2(p−1)/p · n/β + 2(p−1)·α. Bandwidth-optimal: each rank sends \
                  about 2n bytes whatever p is, but the latency term grows linearly with p. \
                  p = 1 → 0; p not a whole number from 1 to 1e9, or a negative or NaN \
                  argument → NaN.",
        units: ALPHA_BETA_UNITS,
        source: "P. Patarasuk, X. Yuan, \"Bandwidth optimal all-reduce algorithms for clusters \
                 of workstations\", J. Parallel and Distributed Computing 69(2), 2009; Thakur, \
                 Rabenseifner & Gropp 2005, sec. 4.4.",
        example: "collective::ring_allreduce_s(1e9, 8.0, 5e-6, 50e9)",
    },
    FnDoc {
        path: "collective::allgather_s",
        signature: "collective::allgather_s(n: f64, p: f64, alpha: f64, bw: f64) -> f64",
        summary: "Ring all-gather that leaves the whole n-byte buffer on every rank (each rank \
                  contributes n/p): (p−1)/p · n/β + (p−1)·α. Half of a ring all-reduce. \
                  Invalid p or negative/NaN arguments → NaN.",
        units: ALPHA_BETA_UNITS,
        source: THAKUR,
        example: "collective::allgather_s(1e9, 8.0, 5e-6, 50e9)",
    },
    FnDoc {
        path: "collective::reduce_scatter_s",
        signature: "collective::reduce_scatter_s(n: f64, p: f64, alpha: f64, bw: f64) -> f64",
        summary: "Ring reduce-scatter of an n-byte buffer (each rank ends with its reduced n/p \
                  shard): (p−1)/p · n/β + (p−1)·α, the same cost as collective::allgather_s. \
                  Invalid p or negative/NaN arguments → NaN.",
        units: ALPHA_BETA_UNITS,
        source: THAKUR,
        example: "collective::reduce_scatter_s(1e9, 8.0, 5e-6, 50e9)",
    },
    FnDoc {
        path: "collective::tree_allreduce_s",
        signature: "collective::tree_allreduce_s(n: f64, p: f64, alpha: f64, bw: f64) -> f64",
        summary: "Binomial-tree all-reduce (reduce to a root, then broadcast), whole messages \
                  at each step: 2·⌈log2 p⌉·(α + n/β). Latency grows only with log2 p, but \
                  every step moves the full buffer, so for large n it loses to the ring. \
                  Invalid p or negative/NaN arguments → NaN.",
        units: ALPHA_BETA_UNITS,
        source: THAKUR,
        example: "collective::tree_allreduce_s(1e9, 8.0, 5e-6, 50e9)",
    },
    FnDoc {
        path: "collective::hier_allreduce_s",
        signature: "collective::hier_allreduce_s(n: f64, g: f64, nodes: f64, alpha_intra: f64, \
                    bw_intra: f64, alpha_inter: f64, bw_inter: f64) -> f64",
        summary: "Hierarchical (two-level) all-reduce over nodes × g GPUs: ring reduce-scatter \
                  inside each node (NVLink), ring all-reduce of each GPU's n/g shard across \
                  the nodes (the network; the g shards travel in parallel, one NIC per GPU), \
                  then ring all-gather inside the node = \
                  ring_allreduce_s(n, g, α_intra, β_intra) + ring_allreduce_s(n/g, nodes, \
                  α_inter, β_inter). g or nodes not a whole number ≥ 1, or negative/NaN \
                  arguments → NaN.",
        units: "n: bytes; g: GPUs per node; nodes: node count; alpha_*: s; bw_*: bytes/s per \
                GPU (bw_inter: the GPU's own NIC); result: seconds.",
        source: "Thakur, Rabenseifner & Gropp 2005 (ring phases); two-level scheme as in \
                 NVIDIA NCCL's hierarchical all-reduce and Horovod's hierarchical allreduce \
                 (A. Sergeev, M. Del Balso, arXiv:1802.05799, 2018).",
        example: "collective::hier_allreduce_s(1e9, 8.0, 16.0, 3e-6, 450e9, 5e-6, 50e9)",
    },
    FnDoc {
        path: "collective::scaling_efficiency",
        signature:
            "collective::scaling_efficiency(t_compute: f64, t_comm: f64, overlap: f64) -> f64",
        summary: "Data-parallel scaling efficiency of one step: t_compute / (t_compute + \
                  (1 − overlap)·t_comm), where overlap is the fraction of the gradient \
                  all-reduce hidden behind the backward pass (0: none, 1: all). Multiply by \
                  the GPU count for the effective speed-up. overlap outside [0, 1] or \
                  negative/NaN times → NaN.",
        units: "t_compute, t_comm: seconds (or any common unit); overlap: fraction; result: \
                fraction in [0, 1].",
        source: "S. Li et al., \"PyTorch Distributed: Experiences on Accelerating Data \
                 Parallel Training\", VLDB 2020 (overlapping all-reduce with backward \
                 computation).",
        example: "collective::scaling_efficiency(0.30, 0.12, 0.5)",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
    }

    #[test]
    fn ring_allreduce_hand_worked() {
        // 1 GB over 8 GPUs at 50 GB/s, 5 µs: 2·7/8·(1e9/50e9) = 0.035 s, + 2·7·5e-6 = 70 µs.
        assert!(close(ring_allreduce_s(1e9, 8.0, 5e-6, 50e9), 0.035 + 70e-6));
        // Bandwidth term tends to 2n/β as p grows: p = 1024 → 2·1023/1024·0.02 = 0.0399609375.
        assert!(close(
            ring_allreduce_s(1e9, 1024.0, 0.0, 50e9),
            0.0399609375
        ));
        assert_eq!(ring_allreduce_s(1e9, 1.0, 5e-6, 50e9), 0.0);
        for p in [0.0, 2.5, -1.0, f64::NAN, 2e9] {
            assert!(ring_allreduce_s(1.0, p, 0.0, 1.0).is_nan(), "{p}");
        }
        assert!(ring_allreduce_s(-1.0, 8.0, 0.0, 1.0).is_nan());
        assert_eq!(ring_allreduce_s(1.0, 8.0, 0.0, 0.0), f64::INFINITY);
    }

    #[test]
    fn halves_and_tree() {
        // All-gather = half a ring all-reduce: 7/8·0.02 + 7·5e-6.
        assert!(close(ring_half_s(1e9, 8.0, 5e-6, 50e9), 0.0175 + 35e-6));
        assert!(close(
            2.0 * ring_half_s(1e9, 8.0, 5e-6, 50e9),
            ring_allreduce_s(1e9, 8.0, 5e-6, 50e9)
        ));
        // Tree, p = 8: 2·3·(5e-6 + 0.02) = 0.12003 s. p = 9 needs 4 steps, p = 1 none.
        assert!(close(tree_allreduce_s(1e9, 8.0, 5e-6, 50e9), 0.12003));
        assert!(close(tree_allreduce_s(1e9, 9.0, 5e-6, 50e9), 0.16004));
        assert_eq!(tree_allreduce_s(1e9, 1.0, 5e-6, 50e9), 0.0);
        // Small messages: the tree's log2 p latency beats the ring's linear one.
        // 1 KB over 1024 ranks, 5 µs, 50 GB/s: tree 2·10·(5e-6 + 2e-8) = 100.4 µs,
        // ring 2·1023·5e-6 + ... ≈ 10.2 ms.
        let tree = tree_allreduce_s(1e3, 1024.0, 5e-6, 50e9);
        assert!(close(tree, 100.4e-6));
        assert!(ring_allreduce_s(1e3, 1024.0, 5e-6, 50e9) > 100.0 * tree);
    }

    #[test]
    fn hierarchical() {
        // 16 nodes × 8 GPUs, 1 GB: intra ring on NVLink (450 GB/s, 3 µs):
        // 2·7/8·1e9/450e9 + 14·3e-6; inter ring of 125 MB over 16 nodes at 50 GB/s, 5 µs:
        // 2·15/16·125e6/50e9 + 30·5e-6.
        let intra = 2.0 * 7.0 / 8.0 * (1e9 / 450e9) + 14.0 * 3e-6;
        let inter = 2.0 * 15.0 / 16.0 * (125e6 / 50e9) + 30.0 * 5e-6;
        let h = hier_allreduce_s(1e9, 8.0, 16.0, 3e-6, 450e9, 5e-6, 50e9);
        assert!(close(h, intra + inter), "{h} vs {}", intra + inter);
        // It beats a flat ring over all 128 GPUs at the network's speed.
        assert!(h < ring_allreduce_s(1e9, 128.0, 5e-6, 50e9));
        // One node: just the intra-node ring.
        assert!(close(
            hier_allreduce_s(1e9, 8.0, 1.0, 3e-6, 450e9, 5e-6, 50e9),
            ring_allreduce_s(1e9, 8.0, 3e-6, 450e9)
        ));
        assert!(hier_allreduce_s(1e9, 0.0, 16.0, 0.0, 1.0, 0.0, 1.0).is_nan());
        assert!(hier_allreduce_s(1e9, 8.0, 1.5, 0.0, 1.0, 0.0, 1.0).is_nan());
    }

    #[test]
    fn p2p_and_efficiency() {
        assert!(close(p2p_s(16e6, 5e-6, 50e9), 5e-6 + 3.2e-4));
        assert!(p2p_s(1.0, -1.0, 1.0).is_nan());
        // 300 ms compute, 120 ms all-reduce, half hidden: 0.3 / 0.36 = 5/6.
        assert!(close(scaling_efficiency(0.30, 0.12, 0.5), 0.30 / 0.36));
        assert_eq!(scaling_efficiency(0.3, 0.12, 1.0), 1.0);
        assert!(scaling_efficiency(0.3, 0.12, 1.5).is_nan());
        assert!(scaling_efficiency(0.3, f64::NAN, 0.5).is_nan());
    }
}
