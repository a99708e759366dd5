//! Benchmark: `sim::cluster` at the fleet lab's size (32 nodes × 8 GPUs = 256 GPUs, 2,000 jobs,
//! five teams of 1-64-GPU jobs, C_s = 3) for each policy with and without backfill, through the
//! formula engine as a lab calls it, each call with a new seed (7, 8, ...: the library keeps
//! the runs of configurations it has seen); then fleet-orchestration part B's own call (the
//! mix at its default weights 40/30/30, window 16, five teams of 1/64/8/2/32 GPUs, C_s = 1.5,
//! 30-minute jobs) at its default load and at full load, with and without backfill. `cargo bench --bench
//! sim` (benches/sim.sh runs it beside the page's twin in Chromium).

use rhai::Engine;
use std::time::Instant;

fn main() {
    let mut engine = Engine::new();
    labforge::library::register(&mut engine);
    println!(
        "{:<22} {:>6} {:>10} {:>10} {:>10}",
        "sim::cluster", "iters", "ms p50", "ms p95", "ms max"
    );
    let mut cases = Vec::new();
    for policy in ["fifo", "sjf", "fair", "mix"] {
        for backfill in [false, true] {
            for load in [0.8, 1.0] {
                let name = format!(
                    "{policy}{} load {load}",
                    if backfill { "+backfill" } else { "" }
                );
                let src = format!(
                    "sim::cluster(#{{ seed: s, nodes: 32.0, gpus_per_node: 8.0, teams: 5.0, \
                     sizes: [1.0, 2.0, 8.0, 32.0, 64.0], jobs: 2000.0, load: {load:?}, cs: 3.0, \
                     policy: \"{policy}\", backfill: {backfill} }})"
                );
                cases.push((name, src));
            }
        }
    }
    for backfill in [false, true] {
        for load in [0.85, 1.0] {
            let name = format!(
                "lab B{} load {load}",
                if backfill { "+backfill" } else { "" }
            );
            let src = format!(
                "sim::cluster(#{{ seed: s, nodes: 32.0, gpus_per_node: 8.0, teams: 5.0, \
                 sizes: [1.0, 64.0, 8.0, 2.0, 32.0], jobs: 2000.0, load: {load:?}, mean: 30.0, \
                 cs: 1.5, policy: \"mix\", w_age: 40.0, w_size: 30.0, w_fair: 30.0, \
                 backfill: {backfill}, window: 16.0, points: 20.0 }})"
            );
            cases.push((name, src));
        }
    }
    for (name, src) in cases {
        let ast = engine.compile(&src).unwrap();
        let iters = 50;
        let mut ms = Vec::with_capacity(iters);
        for i in 0..iters {
            // A new seed each call (7, 8, ...): sim::cluster keeps the runs of configurations
            // it has seen, so a repeated one would time a lookup.
            let mut scope = rhai::Scope::new();
            scope.push("s", 7.0 + i as f64);
            let t = Instant::now();
            std::hint::black_box(
                engine
                    .eval_ast_with_scope::<rhai::Map>(&mut scope, &ast)
                    .unwrap(),
            );
            ms.push(t.elapsed().as_secs_f64() * 1e3);
        }
        ms.sort_by(|a, b| a.total_cmp(b));
        let p = |q: f64| ms[((ms.len() - 1) as f64 * q) as usize];
        println!(
            "{name:<22} {iters:>6} {:>10.2} {:>10.2} {:>10.2}",
            p(0.5),
            p(0.95),
            ms[ms.len() - 1]
        );
    }
}
