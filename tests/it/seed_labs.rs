//! The two ported seed labs keep the part, control and output names outside checks rely on, and
//! `labforge eval --format json` reports every one of those outputs.

use std::process::Command;

const CONTRACT: &[(&str, &str, &[&str], &[&str])] = &[
    (
        "labs/fleet-orchestration.yaml",
        "a",
        &["utilization", "cs", "service_min"],
        &["wait_min", "wait_uniform_min", "amplification"],
    ),
    (
        "labs/fleet-orchestration.yaml",
        "b",
        // `w_throughput` became `w_age` when part B moved onto sim::cluster: the seed's
        // throughput weight raised utilization by formula, and no queue order does that.
        &[
            "load_pct",
            "w_age",
            "w_fairness",
            "w_latency",
            "backfill",
            "n_teams",
        ],
        &[
            "utilization_pct",
            "avg_wait_min",
            "big_wait_min",
            "fairness",
            "fragmentation_pct",
        ],
    ),
    (
        "labs/fleet-orchestration.yaml",
        "c",
        &["hours_since_ckpt", "job_gpus", "preemptions_per_day"],
        &["cost_per_preempt", "daily_waste", "net_daily"],
    ),
    (
        "labs/fleet-orchestration.yaml",
        "d",
        &["h100_count", "t4_count", "small_job_pct"],
        &["hetero_frag_pct", "hetero_cost_day"],
    ),
    (
        "labs/fault-tolerance.yaml",
        "a",
        &["cluster_gpus", "write_time_s", "interval_s"],
        &["mtbf_h", "tau_opt_min", "waste_pct", "waste_opt_pct"],
    ),
    (
        "labs/fault-tolerance.yaml",
        "b",
        &["model_b", "cluster_gpus", "storage_gbs"],
        &["ckpt_tb", "write_time_min", "tau_opt_min"],
    ),
    (
        "labs/fault-tolerance.yaml",
        "c",
        &["nvme_gbs", "drain_gbs", "cluster_gpus"],
        &["pause_s", "drain_s", "nvme_needed_gb"],
    ),
    (
        "labs/fault-tolerance.yaml",
        "d",
        &["replicas", "qps", "recovery_s", "slo_ms"],
        &["qps_after_failure", "slo_violated", "spares_needed"],
    ),
];

#[test]
fn seed_labs_keep_the_contract_names() {
    for (file, part, controls, outputs) in CONTRACT {
        let lab = labforge::lab::load_lab(std::path::Path::new(file))
            .unwrap_or_else(|(_, d)| panic!("{file}: {d:?}"));
        let p = lab
            .model_part(part)
            .unwrap_or_else(|| panic!("{file}: no part {part}"));
        for c in *controls {
            assert!(
                p.controls.iter().any(|x| &x.id().value == c),
                "{file} part {part}: no control {c}"
            );
        }
        for o in *outputs {
            assert!(
                p.outputs.contains_key(*o),
                "{file} part {part}: no output {o}"
            );
        }
        let out = Command::new(env!("CARGO_BIN_EXE_labforge"))
            .args(["eval", file, "--part", part, "--format", "json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for o in *outputs {
            assert!(
                v.get(*o).is_some(),
                "{file} part {part}: eval json lacks {o}"
            );
        }
    }
}

#[test]
fn selects_take_the_option_value_on_the_command_line() {
    let run = |set: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_labforge"))
            .args([
                "eval",
                "labs/fleet-orchestration.yaml",
                "--part",
                "a",
                "--set",
                set,
                "--set",
                "utilization=0.8",
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    // P-K at rho = 0.8 and the default 30-minute service time: 0.8/0.2 * (1 + cs^2)/2 * 30.
    assert!((run("cs=1")["wait_min"].as_f64().unwrap() - 120.0).abs() < 1e-9);
    assert!((run("cs=5")["wait_min"].as_f64().unwrap() - 1560.0).abs() < 1e-9);
}

#[test]
fn out_of_range_values_are_refused_with_the_range() {
    let out = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args([
            "eval",
            "labs/fault-tolerance.yaml",
            "--part",
            "a",
            "--set",
            "cluster_gpus=999999",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`cluster_gpus` must be between 1,000 and 25,000"),
        "{err}"
    );
}
