//! Benchmark: `sim::cluster` at the fleet lab's size (32 nodes × 8 GPUs = 256 GPUs, 2,000 jobs,
//! five teams of 1-64-GPU jobs, C_s = 3) for each policy with and without backfill, through the
//! formula engine as a lab calls it. `cargo bench --bench sim` (benches/sim.sh runs it beside the
//! page's twin in Chromium).

use rhai::Engine;
use std::time::Instant;

fn main() {
    let mut engine = Engine::new();
    labforge::library::register(&mut engine);
    println!(
        "{:<22} {:>6} {:>10} {:>10} {:>10}",
        "sim::cluster", "iters", "ms p50", "ms p95", "ms max"
    );
    for policy in ["fifo", "sjf", "fair", "mix"] {
        for backfill in [false, true] {
            for load in [0.8, 1.0] {
                let src = format!(
                    "sim::cluster(#{{ seed: 7.0, nodes: 32.0, gpus_per_node: 8.0, teams: 5.0, \
                     sizes: [1.0, 2.0, 8.0, 32.0, 64.0], jobs: 2000.0, load: {load:?}, cs: 3.0, \
                     policy: \"{policy}\", backfill: {backfill} }})"
                );
                let ast = engine.compile(&src).unwrap();
                let iters = 50;
                let mut ms = Vec::with_capacity(iters);
                for _ in 0..iters {
                    let t = Instant::now();
                    std::hint::black_box(engine.eval_ast::<rhai::Map>(&ast).unwrap());
                    ms.push(t.elapsed().as_secs_f64() * 1e3);
                }
                ms.sort_by(|a, b| a.total_cmp(b));
                let p = |q: f64| ms[((ms.len() - 1) as f64 * q) as usize];
                let name = format!(
                    "{policy}{} load {load}",
                    if backfill { "+backfill" } else { "" }
                );
                println!(
                    "{name:<22} {iters:>6} {:>10.2} {:>10.2} {:>10.2}",
                    p(0.5),
                    p(0.95),
                    ms[ms.len() - 1]
                );
            }
        }
    }
}
