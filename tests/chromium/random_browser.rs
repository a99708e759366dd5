//! Seeded draws are the same bits in Chromium as in Rust (issue 24 item 4): the first 10,000
//! draws of every `rand::` distribution for several seeds (the seed's low and high words, 0
//! and 2^53 − 1 included), computed by the library a rendered page carries (its minified
//! `library.js` and `library/stats.js`), and the page's own outputs (percentiles of 10,000
//! lognormal draws, a Poisson count, the bars of a histogram chart) after moving its sliders,
//! against `labforge eval`'s engine (tests/browser/random.mjs; tests/inputs/ok_random_draws.yaml).

use crate::common;
use common::bits::{page_cases, parse, same_bits};
use common::{browser_ready, render_html, root};
use rhai::{Dynamic, Engine};
use serde_json::json;

#[test]
fn ten_thousand_draws_per_seed_are_the_same_bits_in_chromium() {
    if !browser_ready() {
        return;
    }
    let out = std::env::temp_dir().join(format!("labforge-random-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let lab = root().join("tests/inputs/ok_random_draws.yaml");
    render_html(&lab, &out);
    let page = out.join("ok_random_draws.html");

    let seeds = [0.0, 1.0, 7.0, 4_294_967_301.0, 9_007_199_254_740_991.0];
    let shapes: [(&str, &[f64]); 6] = [
        ("rand::uniform", &[]),
        ("rand::normal", &[0.0, 1.0]),
        ("rand::lognormal", &[2.3, 0.5]),
        ("rand::exponential", &[2.0]),
        ("rand::pareto", &[1.0, 1.5]),
        ("rand::poisson", &[3.5]),
    ];
    let mut draws = Vec::new();
    for &seed in &seeds {
        for (path, params) in shapes {
            let mut args = vec![seed, 10_000.0];
            args.extend_from_slice(params);
            draws.push((path, args));
        }
    }
    let settings = [
        vec![("seed", 7.0), ("sigma", 0.5)],
        vec![("seed", 23.0), ("sigma", 1.2)],
        vec![("seed", 50.0), ("sigma", 0.1)],
    ];
    let outputs = ["p50_ms", "p99_ms", "arrivals"];
    let cases = json!({
        "draws": draws.iter().map(|(p, a)| json!({"path": p, "args": a})).collect::<Vec<_>>(),
        "settings": settings.iter().map(|s| json!({
            "set": s.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
            "outputs": outputs,
        })).collect::<Vec<_>>(),
    });
    let got = page_cases("random.mjs", &page, &out, &cases);

    // Rust: the library as formulas call it.
    let mut engine = Engine::new();
    labforge::library::register(&mut engine);
    let mut compared = 0;
    for (i, (path, args)) in draws.iter().enumerate() {
        let call = format!(
            "{path}({})",
            args.iter()
                .map(|a| format!("{a:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let want: Vec<f64> = engine
            .eval::<rhai::Array>(&call)
            .unwrap()
            .iter()
            .map(|d| d.as_float().unwrap())
            .collect();
        let page: Vec<f64> = got["draws"][i]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| parse(s.as_str().unwrap()))
            .collect();
        assert_eq!(want.len(), 10_000, "{call}");
        assert_eq!(page.len(), want.len(), "{call}");
        for (k, (w, p)) in want.iter().zip(&page).enumerate() {
            assert!(
                same_bits(*w, *p),
                "{call}: draw {k}: rust {w:?}, chromium {p:?}"
            );
        }
        compared += want.len();
    }

    // The page's own formulas after its sliders moved, against the CLI's evaluation.
    let loaded = labforge::lab::load_lab(&lab).unwrap_or_else(|_| panic!("the lab loads"));
    for (i, s) in settings.iter().enumerate() {
        let set: indexmap::IndexMap<String, Dynamic> = s
            .iter()
            .map(|(k, v)| (k.to_string(), Dynamic::from_float(*v)))
            .collect();
        let ev = loaded.evaluate_with("a", &set).unwrap();
        for (j, name) in outputs.iter().enumerate() {
            let want = ev.values[*name].as_float().unwrap();
            let page = parse(got["outputs"][i]["read"][j].as_str().unwrap());
            assert!(
                same_bits(want, page),
                "{s:?} {name}: rust {want:?}, page {page:?}"
            );
        }
        // The page's histogram chart draws the CLI's stats::histogram counts, bar by bar.
        let counts: Vec<f64> = ev.values["counts"]
            .clone()
            .into_array()
            .unwrap()
            .iter()
            .map(|d| d.as_float().unwrap())
            .collect();
        let bars: Vec<f64> = got["outputs"][i]["bars"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let t = t.as_str().unwrap();
                parse(&t[t.rfind(": ").unwrap() + 2..].replace(',', ""))
            })
            .collect();
        assert_eq!(counts.len(), 12);
        assert_eq!(bars, counts, "{s:?}: the histogram's bars");
    }
    println!(
        "random_browser: {compared} draws over {} seeds bit-identical in Chromium; {} settings \
         of the page's outputs equal",
        seeds.len(),
        settings.len()
    );
    let _ = std::fs::remove_dir_all(&out);
}
