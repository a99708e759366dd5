//! Benchmark: `check` and `eval` time for generated labs of 50, 200 and 400 parts (each part the
//! same shape: two controls, three formulas, three outputs, a 40-point chart, two banners, a
//! prediction), to show that both grow linearly with the lab. `cargo bench --bench scale`
//! (sizes can be given: `cargo bench --bench scale -- 50 100`).

use indexmap::IndexMap;
use std::time::Instant;

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![50, 200, 400]
    } else {
        sizes
    };
    println!(
        "{:>6} {:>8} {:>10} {:>10} {:>10} {:>12}",
        "parts", "lines", "check ms", "eval ms", "ms/part", "check units"
    );
    for n in sizes {
        let text = labforge::eval::scale::generated_lab(n);
        let lines = text.lines().count();
        let mut check = f64::MAX;
        let mut eval = f64::MAX;
        let mut units = 0;
        // Best of 3: the machine is shared.
        for _ in 0..3 {
            let t = Instant::now();
            let lab =
                labforge::eval::load_source(labforge::load::Source::new("gen.yaml", text.clone()))
                    .unwrap_or_else(|_| panic!("the generated {n}-part lab compiles"));
            let diags = lab.check_semantics();
            assert!(
                diags.iter().all(|d| !d.is_error()),
                "the generated lab checks clean: {:?}",
                diags.first().map(|d| d.message.clone())
            );
            check = check.min(t.elapsed().as_secs_f64() * 1e3);
            units = lab.engine.meter().total_used();
            let t = Instant::now();
            for part in &lab.parts {
                let inputs = lab.inputs(part, &IndexMap::new()).unwrap();
                let ev = lab.evaluate(part, &inputs).unwrap();
                std::hint::black_box((
                    lab.outputs(&ev).unwrap(),
                    lab.callouts(&ev).unwrap(),
                    lab.charts(&ev).unwrap(),
                ));
            }
            eval = eval.min(t.elapsed().as_secs_f64() * 1e3);
        }
        println!(
            "{n:>6} {lines:>8} {check:>10.1} {eval:>10.1} {:>10.3} {units:>12}",
            check / n as f64
        );
    }
}
