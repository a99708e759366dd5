//! `sim::cluster` is the same bits in Chromium as in Rust (issue 24 item 5): simulations at many
//! settings (every policy with and without backfill, loads from stable to overloaded, several
//! seeds, the fleet lab's size of 256 GPUs and 2,000 jobs), computed by the library a rendered
//! page carries (its minified `library.js`, `library/stats.js` and `library/sim.js`), every
//! field of the result (the time series included); and the page's own outputs after moving its
//! sliders, against `labforge eval`'s engine (tests/browser/sim.mjs;
//! tests/inputs/ok_cluster_sim.yaml).

use crate::common;
use common::bits::{page_cases, parse, same_bits};
use common::{browser_ready, render_html, root};
use rhai::{Dynamic, Engine, Map};
use serde_json::{json, Value as J};

fn to_dynamic(v: &J) -> Dynamic {
    match v {
        J::Number(x) => Dynamic::from_float(x.as_f64().unwrap()),
        J::String(s) => Dynamic::from(s.clone()),
        J::Bool(b) => Dynamic::from_bool(*b),
        J::Array(a) => Dynamic::from_array(a.iter().map(to_dynamic).collect()),
        other => panic!("unexpected config value {other}"),
    }
}

#[test]
fn simulations_are_the_same_bits_in_chromium() {
    if !browser_ready() {
        return;
    }
    let out = std::env::temp_dir().join(format!("labforge-sim-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let lab = root().join("tests/inputs/ok_cluster_sim.yaml");
    render_html(&lab, &out);
    let page = out.join("ok_cluster_sim.html");

    let mut configs = Vec::new();
    let mut seed = 100.0;
    for policy in ["fifo", "sjf", "fair", "mix"] {
        for backfill in [false, true] {
            for load in [0.6, 0.9, 1.2] {
                seed += 1.0;
                configs.push(json!({
                    "seed": seed, "teams": 5, "sizes": [1, 2, 8, 32, 64], "load": load,
                    "cs": 3, "policy": policy, "backfill": backfill,
                }));
            }
        }
    }
    configs.push(
        json!({"seed": 9_007_199_254_740_991.0_f64, "nodes": 8, "gpus_per_node": 1,
        "teams": 1, "jobs": 5000, "load": 0.9, "dist": "exponential", "mean": 1}),
    );
    configs.push(
        json!({"policy": "mix", "w_age": 0.2, "w_size": 0.5, "w_fair": 0.3,
        "backfill": true, "sizes": [4, 16, 64], "teams": 6, "load": 1.0, "cs": 5}),
    );
    let settings = [
        vec![("seed", 7.0), ("load", 0.9), ("pol", 0.0), ("bf", 1.0)],
        vec![("pol", 1.0)],
        vec![("pol", 2.0), ("bf", 0.0)],
        vec![("pol", 3.0), ("load", 1.1), ("seed", 31.0)],
    ];
    let outputs = ["util_pct", "wait_min", "p99_min", "jain", "frag_pct"];
    let cases = json!({
        "configs": configs,
        "settings": settings.iter().map(|s| json!({
            "set": s.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
            "outputs": outputs,
        })).collect::<Vec<_>>(),
    });
    let got = page_cases("sim.mjs", &page, &out, &cases);

    let mut engine = Engine::new();
    labforge::library::register(&mut engine);
    let mut compared = 0;
    for (i, c) in configs.iter().enumerate() {
        let cfg: Map = c
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.as_str().into(), to_dynamic(v)))
            .collect();
        let mut scope = rhai::Scope::new();
        scope.push("cfg", cfg);
        let want: Map = engine
            .eval_with_scope(&mut scope, "sim::cluster(cfg)")
            .unwrap();
        let page = got["runs"][i].as_object().unwrap();
        let keys: Vec<&str> = want.keys().map(|k| k.as_str()).collect();
        let mut page_keys: Vec<&str> = page.keys().map(|k| k.as_str()).collect();
        page_keys.sort_unstable();
        assert_eq!(keys, page_keys, "{c}: the result's fields");
        for (k, w) in &want {
            let p = &page[k.as_str()];
            let ws: Vec<f64> = match w.as_float() {
                Ok(x) => vec![x],
                Err(_) => w
                    .clone()
                    .into_array()
                    .unwrap()
                    .iter()
                    .map(|d| d.as_float().unwrap())
                    .collect(),
            };
            let ps: Vec<f64> = match p {
                J::String(s) => vec![parse(s)],
                J::Array(a) => a.iter().map(|s| parse(s.as_str().unwrap())).collect(),
                other => panic!("{other}"),
            };
            assert_eq!(ws.len(), ps.len(), "{c}: {k}");
            for (j, (a, b)) in ws.iter().zip(&ps).enumerate() {
                assert!(
                    same_bits(*a, *b),
                    "{c}: {k}[{j}]: rust {a:?}, chromium {b:?}"
                );
            }
            compared += ws.len();
        }
    }

    // The page's formulas after its sliders moved (each setting continues the one before).
    let loaded = labforge::lab::load_lab(&lab).unwrap_or_else(|_| panic!("the lab loads"));
    let mut set: indexmap::IndexMap<String, Dynamic> = indexmap::IndexMap::new();
    for (i, s) in settings.iter().enumerate() {
        for (k, v) in s {
            set.insert(k.to_string(), Dynamic::from_float(*v));
        }
        let ev = loaded.evaluate_with("a", &set).unwrap();
        for (j, name) in outputs.iter().enumerate() {
            let want = ev.values[*name].as_float().unwrap();
            let page = parse(got["outputs"][i]["read"][j].as_str().unwrap());
            assert!(
                same_bits(want, page),
                "{set:?} {name}: rust {want:?}, page {page:?}"
            );
        }
    }
    println!(
        "sim_browser: {} simulations ({compared} numbers) bit-identical in Chromium; {} settings \
         of the page's outputs equal",
        configs.len(),
        settings.len()
    );
    let _ = std::fs::remove_dir_all(&out);
}
