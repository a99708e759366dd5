//! Benchmark: a full part evaluation (formulas, outputs, banners, charts) for every part of every
//! shipped lab, compiled once and evaluated many times. `cargo bench --bench eval`.

use indexmap::IndexMap;
use std::time::Instant;

fn main() {
    let mut files: Vec<_> = std::fs::read_dir("labs")
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p: &std::path::PathBuf| p.extension().and_then(|x| x.to_str()) == Some("yaml"));
    files.sort();
    if files.is_empty() {
        files.push("tests/inputs/ok_minimal.yaml".into());
    }
    println!(
        "{:<40} {:>6} {:>12} {:>12} {:>12}",
        "lab / part", "iters", "formulas µs", "full µs p50", "full µs p95"
    );
    for f in files {
        let t0 = Instant::now();
        let lab = match labforge::lab::load_lab(&f) {
            Ok(l) => l,
            Err((_, d)) => {
                println!(
                    "{}: does not compile ({} diagnostics)",
                    f.display(),
                    d.len()
                );
                continue;
            }
        };
        println!(
            "{}: compiled in {:.1} ms",
            f.display(),
            t0.elapsed().as_secs_f64() * 1e3
        );
        for part in &lab.parts {
            let inputs = lab.inputs(part, &IndexMap::new()).unwrap();
            let iters = 300;
            let t = Instant::now();
            for _ in 0..iters {
                std::hint::black_box(lab.evaluate(part, &inputs).unwrap());
            }
            let formulas = t.elapsed().as_secs_f64() * 1e6 / iters as f64;
            let mut full = Vec::with_capacity(iters);
            for _ in 0..iters {
                let t = Instant::now();
                let ev = lab.evaluate(part, &inputs).unwrap();
                std::hint::black_box((
                    lab.outputs(&ev).unwrap(),
                    lab.callouts(&ev).unwrap(),
                    lab.charts(&ev).unwrap(),
                ));
                full.push(t.elapsed().as_secs_f64() * 1e6);
            }
            full.sort_by(|a, b| a.partial_cmp(b).unwrap());
            let p = |q: f64| full[((full.len() - 1) as f64 * q) as usize];
            let name = format!("{} / {}", f.file_stem().unwrap().to_string_lossy(), part.id);
            println!(
                "{name:<40} {iters:>6} {formulas:>12.1} {:>12.1} {:>12.1}",
                p(0.5),
                p(0.95)
            );
        }
    }
}
