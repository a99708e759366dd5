//! `sim::cluster` against closed forms, and its policies' known effects.
//!
//! Tolerances: a simulated mean wait is a sample mean of strongly correlated waits (a busy
//! period carries its waits from job to job), so its standard error is far larger than
//! σ/√n. Each check averages several seeds of many jobs, and its tolerance is at least twice
//! the standard error of those seeds' estimates (printed by `cargo test -- --nocapture`; at
//! 100,000 jobs a seed: M/M/1 1.2% at ρ = 0.5 and 2.5% at 0.8, M/M/8 2.9% at ρ = 0.7 and 5.9% at
//! 0.9, M/G/1 lognormal C_s = 2 at ρ = 0.7 2.1% with 200,000): 3% and 6% for M/M/1, 6% and 12%
//! for M/M/8, 8% for its p99 (a tail quantile converges more slowly than the mean), 3% for its
//! probability of waiting (Erlang C), and 12% for M/G/1, whose heavy tail makes the mean
//! converge slowly. The start from an empty cluster biases waits low by about the relaxation
//! time over the run length, well under 1% at these lengths.

use super::*;
use crate::library::queueing::{erlang_c, mm1_wait, mmc_wait, mmc_wait_p, pk_wait};

fn base(seed: u64, nodes: usize, gpn: usize, jobs: usize, load: f64) -> Config {
    Config {
        seed,
        nodes,
        gpn,
        teams: 1,
        sizes: vec![1],
        jobs,
        load,
        mean: 1.0,
        cs: 1.0,
        lognormal: false,
        max_age: 10.0,
        ..Config::default()
    }
}

/// The mean over `seeds` of (mean wait, p99 wait, utilization), and the seeds' spread of the
/// mean wait (sample standard deviation of the per-seed means over √seeds).
fn averaged(seeds: u64, make: impl Fn(u64) -> Config) -> (f64, f64, f64, f64) {
    let mut w = Vec::new();
    let (mut p99, mut util) = (0.0, 0.0);
    for s in 0..seeds {
        let o = run(&make(s + 1));
        w.push(o.mean_wait);
        p99 += o.p99_wait;
        util += o.utilization;
    }
    let k = seeds as f64;
    let m = w.iter().sum::<f64>() / k;
    let sd = (w.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (k - 1.0)).sqrt();
    (m, p99 / k, util / k, sd / k.sqrt())
}

fn within(what: &str, got: f64, want: f64, tol: f64, se: f64) {
    let rel = (got - want) / want;
    println!(
        "{what}: simulated {got:.4}, closed form {want:.4}, {:+.2}% ({}tolerance {:.0}%)",
        rel * 100.0,
        if se > 0.0 {
            format!("seeds' standard error {:.2}%, ", se / want * 100.0)
        } else {
            String::new()
        },
        tol * 100.0
    );
    assert!(rel.abs() <= tol, "{what}: {got} vs {want}");
}

#[test]
fn mm1_mean_wait() {
    for (rho, tol) in [(0.5, 0.03), (0.8, 0.06)] {
        let (w, _, util, se) = averaged(5, |s| base(s, 1, 1, 100_000, rho));
        within(&format!("M/M/1 rho {rho}"), w, mm1_wait(rho, 1.0), tol, se);
        assert!((util - rho).abs() < 0.02, "utilization {util}");
    }
}

#[test]
fn mmc_erlang_c_waits() {
    // Eight one-GPU servers, as eight nodes of one GPU or one node of eight: the same queue.
    for (nodes, gpn) in [(8, 1), (1, 8)] {
        for (rho, tol) in [(0.7, 0.06), (0.9, 0.12)] {
            let (w, p99, _, se) = averaged(5, |s| base(s, nodes, gpn, 100_000, rho));
            let what = format!("M/M/8 rho {rho} ({nodes}×{gpn})");
            within(&what, w, mmc_wait(8.0, rho, 1.0), tol, se);
            within(
                &format!("{what} p99"),
                p99,
                mmc_wait_p(8.0, rho, 1.0, 0.99),
                0.08,
                0.0,
            );
        }
    }
    // The fraction of jobs that wait at all is Erlang C (a proportion of 100,000 correlated
    // indicators: 3% relative).
    for rho in [0.6, 0.8] {
        let mut waited = 0.0;
        for s in 1..=3 {
            waited += run(&base(s, 8, 1, 100_000, rho)).waited / 3.0;
        }
        within(
            &format!("M/M/8 rho {rho} P(wait)"),
            waited,
            erlang_c(8.0, rho),
            0.03,
            0.0,
        );
    }
}

#[test]
fn mg1_pollaczek_khinchine_with_lognormal_durations() {
    let (w, _, _, se) = averaged(8, |s| Config {
        cs: 2.0,
        lognormal: true,
        ..base(s, 1, 1, 200_000, 0.7)
    });
    within(
        "M/G/1 lognormal C_s 2 rho 0.7",
        w,
        pk_wait(0.7, 2.0, 1.0),
        0.12,
        se,
    );
}

fn lab(policy: Policy, backfill: bool) -> Config {
    Config {
        teams: 5,
        sizes: vec![1, 2, 8, 32, 64],
        load: 0.9,
        mean: 60.0,
        cs: 3.0,
        policy,
        backfill,
        ..Config::default()
    }
}

#[test]
fn policies_have_their_known_effects() {
    let fifo = run(&lab(Policy::Fifo, false));
    assert_eq!(fifo, run(&lab(Policy::Fifo, false)), "deterministic");
    let other_seed = run(&Config {
        seed: 2,
        ..lab(Policy::Fifo, false)
    });
    assert_ne!(fifo.mean_wait, other_seed.mean_wait);
    // Backfill fills the holes a blocked gang job leaves: more work done, shorter waits.
    let bf = run(&lab(Policy::Fifo, true));
    assert!(bf.utilization >= fifo.utilization, "{bf:?} {fifo:?}");
    assert!(bf.mean_wait < fifo.mean_wait && bf.fragmentation < fifo.fragmentation);
    // Smallest-first cuts the mean wait, at the big teams' expense (fairness falls).
    let sjf = run(&lab(Policy::Sjf, true));
    assert!(
        sjf.mean_wait < bf.mean_wait,
        "{} {}",
        sjf.mean_wait,
        bf.mean_wait
    );
    assert!(sjf.team_wait[4] > sjf.team_wait[0]);
    // Fair share evens the teams' service more than smallest-first does.
    let fair = run(&lab(Policy::Fair, true));
    assert!(fair.jain > sjf.jain, "{} {}", fair.jain, sjf.jain);
    for o in [&fifo, &bf, &sjf, &fair] {
        assert!(o.utilization > 0.0 && o.utilization <= 1.0);
        assert!(o.jain > 0.2 && o.jain <= 1.0);
        assert_eq!((o.time.len(), o.busy.len(), o.queued.len()), (40, 40, 40));
        assert_eq!(*o.time.last().unwrap(), o.horizon);
        // The series' bins average to the whole run's utilization (equal-width bins).
        let mean_busy = o.busy.iter().sum::<f64>() / 40.0;
        assert!((mean_busy - o.utilization).abs() < 1e-9, "{mean_busy}");
        assert!(o.makespan >= o.horizon && o.p99_wait <= o.max_wait);
    }
}

#[test]
fn configuration_errors_name_the_key() {
    let eval = |src: &str| -> String {
        let mut e = rhai::Engine::new();
        e.register_static_module("sim", module().into());
        match e.eval::<Map>(src) {
            Ok(_) => "ok".into(),
            Err(err) => err.to_string(),
        }
    };
    assert_eq!(eval("sim::cluster(#{ jobs: 50.0 })"), "ok");
    assert!(eval("sim::cluster(#{ job: 50.0 })").contains("unknown key 'job'; known keys: seed"));
    assert!(eval("sim::cluster(#{ sizes: [12.0] })").contains("a job of 12 GPUs does not fit"));
    assert!(eval("sim::cluster(#{ policy: \"lifo\" })").contains("policy must be"));
    assert!(eval("sim::cluster(#{ nodes: 0.0 })").contains("nodes must be a whole number"));
    assert!(eval("sim::cluster(#{ backfill: 1.0 })").contains("backfill must be true or false"));
    let mut m = Map::new();
    assert_eq!(cost(&m), 2000 * 65);
    m.insert("jobs".into(), Dynamic::from_float(100.0));
    m.insert("window".into(), Dynamic::from_float(9.0));
    assert_eq!(cost(&m), 1000);
    m.insert("jobs".into(), Dynamic::from_float(0.5));
    assert_eq!(cost(&m), 0);
}

/// What a run keeps from pass to pass (the backfill's view ahead, the weighted mix's best and
/// its lead, the keys of a blocked scan) changes no output bit: every policy with and without
/// backfill over cluster shapes, loads, windows and weights (zero and far apart), C_s = 0 (equal
/// durations) and short max_age (capped ages), run keeping it and recomputing it at every pass.
#[test]
fn keeping_state_across_passes_changes_no_bit() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut pick = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let policies = [Policy::Fifo, Policy::Sjf, Policy::Fair, Policy::Mix];
    let weights = [0.0, 1e-6, 1.0, 30.0, 40.0, 1e6];
    for i in 0..96 {
        let gpn = [1, 2, 4, 8][pick(4)];
        let nodes = 1 + pick(12);
        let mut sizes: Vec<usize> = (1..=gpn).collect();
        sizes.extend((2..=nodes).filter(|k| k.is_power_of_two()).map(|k| k * gpn));
        let c = Config {
            seed: i,
            nodes,
            gpn,
            teams: 1 + pick(6),
            sizes: (0..1 + pick(4)).map(|_| sizes[pick(sizes.len())]).collect(),
            jobs: 100 + pick(500),
            load: [0.5, 0.9, 1.0, 1.3][pick(4)],
            cs: [0.0, 1.0, 3.0][pick(3)],
            policy: policies[i as usize % 4],
            w_age: weights[pick(6)],
            w_size: weights[pick(6)],
            w_fair: weights[pick(6)],
            max_age: [0.5, 5.0, 600.0][pick(3)],
            backfill: i % 8 >= 4,
            window: [1, 4, 16, 64][pick(4)],
            ..Config::default()
        };
        let kept = format!("{:?}", run(&c));
        AFRESH.with(|a| a.set(true));
        let afresh = format!("{:?}", run(&c));
        AFRESH.with(|a| a.set(false));
        assert_eq!(kept, afresh, "{c:?}");
    }
}

/// A kept run is the run of its configuration: the same outcome as running it afresh, the
/// second call included, and a configuration differing in one setting is not confused with it;
/// through the module, each call still charges its full cost.
#[test]
fn kept_runs_are_the_runs_of_their_configuration() {
    let a = Config {
        jobs: 300,
        load: 0.9,
        cs: 2.0,
        policy: Policy::Mix,
        ..Config::default()
    };
    let b = Config {
        load: 0.95,
        ..a.clone()
    };
    for _ in 0..2 {
        assert_eq!(run_kept(&a), run(&a));
        assert_eq!(run_kept(&b), run(&b));
    }
    assert_ne!(run_kept(&a), run_kept(&b));
    use std::sync::atomic::{AtomicU64, Ordering};
    let charged = std::sync::Arc::new(AtomicU64::new(0));
    let c2 = charged.clone();
    let mut e = rhai::Engine::new();
    e.register_static_module(
        "sim",
        module_with(move |n| {
            c2.fetch_add(n, Ordering::Relaxed);
            Ok(())
        })
        .into(),
    );
    for _ in 0..3 {
        e.eval::<Map>("sim::cluster(#{ jobs: 100.0, window: 4.0 })")
            .unwrap();
    }
    assert_eq!(charged.load(Ordering::Relaxed), 3 * 100 * 5);
}
