//! `fleet::` (scheduling, fairness, spares) and `cost::` (GPU-hour economics).

use rhai::{Array, EvalAltResult, FuncRegistration, Module};

use super::{floats, whole, FnDoc};

/// Largest `limit` that `spares_needed` accepts.
const MAX_SPARES: f64 = 1_000_000.0;

/// Jain's fairness index (Σx)² / (n Σx²). Empty or all-zero lists give 1; a negative value
/// gives NaN.
pub(crate) fn jain(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 1.0;
    }
    let mut sum = 0.0;
    let mut sum_sq = 0.0;
    for &x in values {
        if x < 0.0 {
            return f64::NAN;
        }
        sum += x;
        sum_sq += x * x;
    }
    if sum_sq == 0.0 {
        return 1.0;
    }
    sum * sum / (values.len() as f64 * sum_sq)
}

/// Rework cost of preempting a job: gpus * hours_since_ckpt * price_hr.
pub(crate) fn preempt_cost(gpus: f64, hours_since_ckpt: f64, price_hr: f64) -> f64 {
    gpus * hours_since_ckpt * price_hr
}

/// Fraction of free GPUs that sit in nodes that are only partly free.
pub(crate) fn gang_fragmentation(free_per_node: &[f64], gpus_per_node: f64) -> f64 {
    if gpus_per_node.is_nan() || gpus_per_node <= 0.0 {
        return f64::NAN;
    }
    let mut total = 0.0;
    let mut stranded = 0.0;
    for &f in free_per_node {
        if f.is_nan() || f < 0.0 {
            return f64::NAN;
        }
        total += f;
        if f > 0.0 && f < gpus_per_node {
            stranded += f;
        }
    }
    if total == 0.0 {
        return 0.0;
    }
    stranded / total
}

/// Whether `job_gpus` GPUs can be gang-scheduled on wholly free nodes.
pub(crate) fn schedulable_gang(free_per_node: &[f64], gpus_per_node: f64, job_gpus: f64) -> bool {
    if gpus_per_node.is_nan() || gpus_per_node <= 0.0 || job_gpus.is_nan() {
        return false;
    }
    if job_gpus <= 0.0 {
        return true;
    }
    let mut whole_nodes = 0.0;
    for &f in free_per_node {
        if f >= gpus_per_node {
            whole_nodes += 1.0;
        }
    }
    whole_nodes * gpus_per_node >= job_gpus
}

/// The smallest s in 0..limit such that, after one replica fails, the replicas + s - 1
/// survivors each carry at most `max_qps_per_replica`; `limit` when none does.
pub(crate) fn spares_needed(replicas: f64, qps: f64, max_qps_per_replica: f64, limit: f64) -> f64 {
    if whole(limit, MAX_SPARES).is_none() {
        return f64::NAN;
    }
    let mut s = 0.0;
    while s < limit {
        let survivors = replicas + s - 1.0;
        if survivors > 0.0 && qps / survivors <= max_qps_per_replica {
            return s;
        }
        s += 1.0;
    }
    limit
}

/// Cost of `gpus` GPUs for `hours` hours at `price_hr` per GPU-hour.
pub(crate) fn gpu_hours_cost(gpus: f64, hours: f64, price_hr: f64) -> f64 {
    gpus * hours * price_hr
}

/// Cost of `gpus` GPUs for one day: gpus * price_hr * 24.
pub(crate) fn daily(gpus: f64, price_hr: f64) -> f64 {
    gpus * price_hr * 24.0
}

type RhaiResult<T> = Result<T, Box<EvalAltResult>>;

pub(crate) fn module() -> Module {
    let mut m = Module::new();
    FuncRegistration::new("jain").set_into_module(&mut m, |values: Array| -> RhaiResult<f64> {
        Ok(jain(&floats("fleet::jain", &values)?))
    });
    FuncRegistration::new("preempt_cost").set_into_module(&mut m, preempt_cost);
    FuncRegistration::new("gang_fragmentation").set_into_module(
        &mut m,
        |free: Array, gpus_per_node: f64| -> RhaiResult<f64> {
            Ok(gang_fragmentation(
                &floats("fleet::gang_fragmentation", &free)?,
                gpus_per_node,
            ))
        },
    );
    FuncRegistration::new("schedulable_gang").set_into_module(
        &mut m,
        |free: Array, gpus_per_node: f64, job_gpus: f64| -> RhaiResult<bool> {
            Ok(schedulable_gang(
                &floats("fleet::schedulable_gang", &free)?,
                gpus_per_node,
                job_gpus,
            ))
        },
    );
    FuncRegistration::new("spares_needed").set_into_module(&mut m, spares_needed);
    m
}

pub(crate) fn cost_module() -> Module {
    let mut m = Module::new();
    FuncRegistration::new("gpu_hours_cost").set_into_module(&mut m, gpu_hours_cost);
    FuncRegistration::new("daily").set_into_module(&mut m, daily);
    m
}

pub(crate) const DOCS: &[FnDoc] = &[
    FnDoc {
        path: "fleet::jain",
        signature: "fleet::jain(values: array) -> f64",
        summary: "Jain's fairness index J = (Σx)² / (n·Σx²) of per-user (or per-team) \
                  allocations: 1 when all are equal, 1/n when one gets everything. By \
                  convention an empty list or an all-zero list gives 1 (nobody is favoured). \
                  Values must be >= 0: a negative value gives NaN. A non-number element is an \
                  error.",
        units: "values: allocations in any one unit (GPUs, GPU-hours, throughput); result: \
                dimensionless in [1/n, 1].",
        source: "R. Jain, D.-M. Chiu, W. Hawe, \"A Quantitative Measure of Fairness and \
                 Discrimination for Resource Allocation in Shared Computer Systems\", DEC \
                 Research Report TR-301, 1984.",
        example: "fleet::jain([40.0, 30.0, 20.0, 10.0])",
    },
    FnDoc {
        path: "fleet::preempt_cost",
        signature: "fleet::preempt_cost(gpus: f64, hours_since_ckpt: f64, price_hr: f64) -> f64",
        summary: "Cost of the work thrown away when a job is preempted: everything since its \
                  last checkpoint must be recomputed, gpus × hours_since_ckpt × price_hr.",
        units: "gpus: count; hours_since_ckpt: hours; price_hr: currency per GPU-hour; result: \
                currency.",
        source: "Rework model of the fleet-orchestration lab (lab07 seed, part C).",
        example: "fleet::preempt_cost(64.0, 2.0, 3.0)",
    },
    FnDoc {
        path: "fleet::gang_fragmentation",
        signature: "fleet::gang_fragmentation(free_per_node: array, gpus_per_node: f64) -> f64",
        summary: "Fraction of the free GPUs that are stranded for whole-node gang scheduling: \
                  Σ free over nodes with 0 < free < gpus_per_node, divided by Σ free over all \
                  nodes. A node with free >= gpus_per_node counts as wholly free. 0 when no GPU \
                  is free; gpus_per_node <= 0 or a negative/NaN entry → NaN.",
        units: "free_per_node: free GPUs per node (list); gpus_per_node: GPUs per node; result: \
                fraction in [0, 1].",
        source: "Fragmentation definition of the fleet-orchestration lab (lab07 seed, part B: \
                 stranded GPUs / free GPUs under gang scheduling on 8-GPU nodes).",
        example: "fleet::gang_fragmentation([8.0, 3.0, 0.0, 5.0], 8.0)",
    },
    FnDoc {
        path: "fleet::schedulable_gang",
        signature: "fleet::schedulable_gang(free_per_node: array, gpus_per_node: f64, \
                    job_gpus: f64) -> bool",
        summary: "Whether a job of job_gpus GPUs can start as a gang of whole nodes: true when \
                  (number of nodes with free >= gpus_per_node) × gpus_per_node >= job_gpus, \
                  i.e. ceil(job_gpus/gpus_per_node) wholly free nodes exist. job_gpus <= 0 → \
                  true; gpus_per_node <= 0 or NaN arguments → false.",
        units: "free_per_node: free GPUs per node (list); gpus_per_node, job_gpus: GPU counts; \
                result: bool.",
        source: "Gang scheduling on whole nodes as in the fleet-orchestration lab (lab07 seed, \
                 part B: 77 free GPUs in fragments cannot host a 64-GPU job).",
        example: "fleet::schedulable_gang([8.0, 8.0, 3.0, 8.0], 8.0, 16.0)",
    },
    FnDoc {
        path: "fleet::spares_needed",
        signature: "fleet::spares_needed(replicas: f64, qps: f64, max_qps_per_replica: f64, \
                    limit: f64) -> f64",
        summary: "Smallest number of spare replicas s in 0, 1, …, limit-1 such that after one \
                  replica fails the replicas + s - 1 survivors each carry at most \
                  max_qps_per_replica (qps/(replicas+s-1) <= max and replicas+s-1 > 0); \
                  returns limit when none of them is enough. With limit = 5 this is exactly the \
                  lab06 seed's `_spare_needed` loop. limit must be a whole number from 0 to \
                  1,000,000, else NaN.",
        units: "replicas: count; qps and max_qps_per_replica: requests per second; limit: \
                count; result: count.",
        source: "N+k provisioning loop of the fault-tolerance lab (lab06 seed, part D).",
        example: "fleet::spares_needed(10.0, 1000.0, 130.0, 5.0)",
    },
];

pub(crate) const COST_DOCS: &[FnDoc] = &[
    FnDoc {
        path: "cost::gpu_hours_cost",
        signature: "cost::gpu_hours_cost(gpus: f64, hours: f64, price_hr: f64) -> f64",
        summary: "Cost of running gpus GPUs for hours hours: gpus × hours × price_hr.",
        units: "gpus: count; hours: hours; price_hr: currency per GPU-hour; result: currency.",
        source: "Definition.",
        example: "cost::gpu_hours_cost(64.0, 2.0, hw(\"H100\").price_hr)",
    },
    FnDoc {
        path: "cost::daily",
        signature: "cost::daily(gpus: f64, price_hr: f64) -> f64",
        summary: "Cost of running gpus GPUs around the clock for one day: gpus × price_hr × 24.",
        units: "gpus: count; price_hr: currency per GPU-hour; result: currency per day.",
        source: "Definition (as used by both seed labs: n_gpus × GPU_COST_HR × 24).",
        example: "cost::daily(16000.0, 3.0)",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jain_index() {
        // All equal: (4x)^2 / (4 * 4x^2) = 1.
        assert_eq!(jain(&[5.0, 5.0, 5.0, 5.0]), 1.0);
        // One of four gets everything: 1^2 / (4 * 1) = 0.25 = 1/n.
        assert_eq!(jain(&[0.0, 0.0, 1.0, 0.0]), 0.25);
        // [40, 30, 20, 10]: sum 100, sum of squares 1600+900+400+100 = 3000,
        // J = 10000 / (4 * 3000) = 0.8333...
        assert_eq!(jain(&[40.0, 30.0, 20.0, 10.0]), 10000.0 / 12000.0);
        // [1, 2]: 9 / (2 * 5) = 0.9.
        assert_eq!(jain(&[1.0, 2.0]), 0.9);
        assert_eq!(jain(&[]), 1.0);
        assert_eq!(jain(&[0.0, 0.0]), 1.0);
        assert!(jain(&[1.0, -1.0]).is_nan());
        assert!(jain(&[1.0, f64::NAN]).is_nan());
    }

    #[test]
    fn preemption() {
        // Seed lab07: 64 GPUs x 2 h x $3 = $384 per preemption.
        assert_eq!(preempt_cost(64.0, 2.0, 3.0), 384.0);
        assert_eq!(preempt_cost(0.0, 2.0, 3.0), 0.0);
    }

    #[test]
    fn fragmentation() {
        // Nodes of 8 with free [8, 3, 0, 5]: total 16, stranded 3 + 5 = 8 -> 0.5.
        assert_eq!(gang_fragmentation(&[8.0, 3.0, 0.0, 5.0], 8.0), 0.5);
        // Only fragments, no whole node: everything is stranded -> 1.
        assert_eq!(gang_fragmentation(&[1.0, 2.0, 3.0, 4.0], 8.0), 1.0);
        // [8, 8, 4, 2]: total 22, stranded 6 -> 6/22 = 0.2727...
        assert_eq!(gang_fragmentation(&[8.0, 8.0, 4.0, 2.0], 8.0), 6.0 / 22.0);
        assert_eq!(gang_fragmentation(&[8.0, 8.0], 8.0), 0.0);
        assert_eq!(gang_fragmentation(&[], 8.0), 0.0);
        assert_eq!(gang_fragmentation(&[0.0, 0.0], 8.0), 0.0);
        assert!(gang_fragmentation(&[1.0], 0.0).is_nan());
        assert!(gang_fragmentation(&[-1.0, 4.0], 8.0).is_nan());
    }

    #[test]
    fn gang() {
        // Three whole 8-GPU nodes = 24 GPUs: a 16-GPU job fits, a 32-GPU job does not.
        assert!(schedulable_gang(&[8.0, 8.0, 3.0, 8.0], 8.0, 16.0));
        assert!(schedulable_gang(&[8.0, 8.0, 3.0, 8.0], 8.0, 24.0));
        assert!(!schedulable_gang(&[8.0, 8.0, 3.0, 8.0], 8.0, 32.0));
        // 12 GPUs need 2 whole nodes: one whole node plus fragments is not enough.
        assert!(!schedulable_gang(&[8.0, 7.0, 7.0], 8.0, 12.0));
        // 77 free GPUs, all in fragments: a 64-GPU gang cannot start.
        let frags = [7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0];
        assert_eq!(frags.iter().sum::<f64>(), 77.0);
        assert!(!schedulable_gang(&frags, 8.0, 64.0));
        assert!(schedulable_gang(&[], 8.0, 0.0));
        assert!(!schedulable_gang(&[8.0], 0.0, 8.0));
        assert!(!schedulable_gang(&[8.0], 8.0, f64::NAN));
    }

    /// The lab06 seed's loop, transcribed.
    fn seed_spares(replicas: f64, qps: f64, max: f64) -> f64 {
        for s in 0..5 {
            let survivors = replicas + s as f64 - 1.0;
            if survivors > 0.0 && qps / survivors <= max {
                return s as f64;
            }
        }
        5.0
    }

    #[test]
    fn spares() {
        // 10 replicas, 1000 QPS, max 130/replica: 9 survivors carry 111.1 <= 130 -> 0.
        assert_eq!(spares_needed(10.0, 1000.0, 130.0, 5.0), 0.0);
        // 1000 QPS on 4 replicas (250 each), max 325 (= 1.3 x 250, the seed's headroom):
        // 3 survivors carry 333.3 > 325; with 1 spare, 4 survivors carry 250 -> 1.
        assert_eq!(spares_needed(4.0, 1000.0, 325.0, 5.0), 1.0);
        // Impossible within the limit -> limit.
        assert_eq!(spares_needed(2.0, 1000.0, 10.0, 5.0), 5.0);
        // One replica: survivors = s, so s = 0 is skipped (no survivors).
        assert_eq!(spares_needed(1.0, 100.0, 100.0, 5.0), 1.0);
        for replicas in 1..20 {
            for qps in [50.0, 100.0, 1000.0, 5000.0] {
                for max in [10.0, 100.0, 130.0, 400.0, 1e9] {
                    let r = replicas as f64;
                    assert_eq!(spares_needed(r, qps, max, 5.0), seed_spares(r, qps, max));
                }
            }
        }
        assert_eq!(spares_needed(10.0, 1000.0, 1.0, 0.0), 0.0);
        assert!(spares_needed(10.0, 1000.0, 1.0, 2.5).is_nan());
        assert!(spares_needed(10.0, 1000.0, 1.0, -1.0).is_nan());
    }

    #[test]
    fn costs() {
        // Seed lab06: 16,000 GPUs x $3 x 24 = $1,152,000 per day.
        assert_eq!(daily(16000.0, 3.0), 1_152_000.0);
        // Seed lab07: a T4 at $0.35/h: 128 x 0.35 x 24 = 1075.2 (0.35 is inexact in binary;
        // 128 * 0.35 is exactly 44.8 rounded, so compare with tolerance).
        assert!((daily(128.0, 0.35) - 1075.2).abs() < 1e-9);
        assert_eq!(gpu_hours_cost(64.0, 2.0, 3.0), 384.0);
    }
}
