//! Benchmark: `check` and `eval` time for generated labs of 50, 200 and 400 parts (each part the
//! same shape: two controls, three formulas, three outputs, a 40-point chart, two banners, a
//! prediction), to show that both grow linearly with the lab. `cargo bench --bench scale`
//! (sizes can be given: `cargo bench --bench scale -- 50 100`). `-- --courses` times `labforge
//! check DIR` and `render DIR --to html` (the built CLI, whole process) on generated courses of
//! 4 and 30 labs (sizes can be given after it), each lab the generated 4-part lab carrying the
//! previous lab's decision.

use indexmap::IndexMap;
use std::time::Instant;

fn main() {
    // `-- --emit N` prints the generated N-part lab instead (to time `labforge check` on it).
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--emit") {
        let n = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(50);
        print!("{}", labforge::eval::scale::generated_lab(n));
        return;
    }
    if args.iter().any(|a| a == "--courses") {
        let sizes: Vec<usize> = args.iter().skip(1).filter_map(|a| a.parse().ok()).collect();
        courses(if sizes.is_empty() { &[4, 30] } else { &sizes });
        return;
    }
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

/// A course of `n` copies of the generated 4-part lab in `dir`, each carrying the previous
/// lab's decision.
fn write_course(n: usize, dir: &std::path::Path) {
    let lab = labforge::eval::scale::generated_lab(4);
    let mut yaml = String::from("title: Generated course\nlabs:\n");
    for i in 1..=n {
        yaml.push_str(&format!("  - l{i}.yaml\n"));
        let mut text = lab.replacen("id: generated", &format!("id: lab-{i}"), 1);
        if i > 1 {
            text.push_str(&format!("carry_forward:\n  - from: lab-{}\n", i - 1));
        }
        std::fs::write(dir.join(format!("l{i}.yaml")), text).unwrap();
    }
    std::fs::write(dir.join("course.yaml"), yaml).unwrap();
}

fn courses(sizes: &[usize]) {
    let bin = env!("CARGO_BIN_EXE_labforge");
    let time = |args: &[&std::ffi::OsStr]| {
        let mut best = f64::MAX;
        for _ in 0..3 {
            let t = Instant::now();
            let o = std::process::Command::new(bin).args(args).output().unwrap();
            assert!(
                o.status.code() != Some(2),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
            best = best.min(t.elapsed().as_secs_f64() * 1e3);
        }
        best
    };
    println!("{:>5} {:>10} {:>10}", "labs", "check ms", "render ms");
    let mut first: Option<(usize, f64, f64)> = None;
    for &n in sizes {
        let d = tempfile::tempdir().unwrap();
        write_course(n, d.path());
        let out = d.path().join("out");
        let check = time(&["check".as_ref(), d.path().as_os_str()]);
        let render = time(&[
            "render".as_ref(),
            d.path().as_os_str(),
            "--to".as_ref(),
            "html".as_ref(),
            "-o".as_ref(),
            out.as_os_str(),
        ]);
        print!("{n:>5} {check:>10.1} {render:>10.1}");
        match first {
            None => first = Some((n, check, render)),
            Some((m, c, r)) => print!(
                "   {:.1}x / {:.1}x the {m}-lab course (linear: {:.1}x)",
                check / c,
                render / r,
                n as f64 / m as f64
            ),
        }
        println!();
    }
}
