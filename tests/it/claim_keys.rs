//! A prediction's key left to its claims (issue 25): with no option marked `correct:` and every
//! option claiming the words of a text output, the option whose claim holds at the scenario is
//! the key, on each track at that track's values (what the page, the handouts and grading read).

use labforge::lab::diagnose;
use std::path::Path;

fn key(lab: &labforge::eval::CompiledLab) -> Vec<String> {
    let p = lab.lab.parts[0].prediction.as_ref().unwrap();
    p.options
        .iter()
        .filter(|o| o.correct)
        .map(|o| o.id.as_ref().unwrap().value.clone())
        .collect()
}

#[test]
fn the_claims_pick_each_tracks_key() {
    let (_, diags, lab) = diagnose(Path::new("tests/inputs/ok_claim_key.yaml"));
    assert!(diags.is_empty(), "{diags:?}");
    let lab = lab.expect("compiles");
    let mut keys: Vec<(String, Vec<String>)> = Vec::new();
    for t in ["phone", "cloud"] {
        let on = lab
            .on_track(t)
            .unwrap_or_else(|_| panic!("track {t} compiles"));
        keys.push((t.to_string(), key(&on)));
    }
    assert_eq!(
        keys,
        vec![
            ("phone".to_string(), vec!["comm".to_string()]),
            ("cloud".to_string(), vec!["compute".to_string()]),
        ]
    );
}
