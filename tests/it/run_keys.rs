//! `labforge run` on a pseudo-terminal: what keys do in the lists (a reflection's letters move
//! like a prediction's; typed digits in a list of values name a value, not a position), typed
//! values the page cannot have, and how text wraps in a narrow terminal.

use crate::common::pty;
use pty::*;

/// A reflection's letter or number only moves the pointer, as in a prediction; Enter chooses.
/// The hint says so.
#[test]
fn a_reflection_letter_moves_and_enter_chooses() {
    let d = tmp("reflect");
    let l = d.join("l.json");
    let mut s = to_explore(&root().join("tests/inputs/run_fixture.yaml"), &l);
    send(&mut s, END);
    expect(&mut s, "❯ ");
    send(&mut s, "\r");
    expect(&mut s, "What is the cheapest lever?");
    expect(
        &mut s,
        "(↑/↓ or the option's letter move, Enter choose; q save and quit)",
    );
    send(&mut s, "b");
    expect(&mut s, "❯ B) Lower variability");
    send(&mut s, "1");
    expect(&mut s, "❯ A) Buy more GPUs");
    send(&mut s, "\r");
    expect(&mut s, "  → A) Buy more GPUs");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\x04");
    let (_, code) = finish(&mut s);
    assert_eq!(code, 0);
    assert_eq!(ledger(&l)["design"]["partA_reflection"], "A");
}

/// In a list of values (GPUs 8 … 1,024) typed digits go to the value they begin, never to a
/// position: `8` is 8 (not the 8th, 1,024), `1` then `0` is 1,024, `3` `2` is 32, and nothing
/// typed chooses before Enter.
#[test]
fn typed_digits_in_a_value_list_name_the_value() {
    let d = tmp("values");
    let l = d.join("l.json");
    let mut s = to_explore(&root().join("labs/distributed-training.yaml"), &l);
    expect(&mut s, "2) Change GPUs (data-parallel degree) (now 256)");
    send(&mut s, "2");
    expect(
        &mut s,
        "(↑/↓ move, or type a value (128) to go to it; Enter choose; q save and quit)",
    );
    for (key, at) in [
        ("8", "❯ 8\r"),
        ("1", "❯ 16"),
        ("0", "❯ 1,024"),
        ("3", "❯ 32"),
    ] {
        send(&mut s, key);
        expect(&mut s, at);
    }
    send(&mut s, "2\r");
    expect(&mut s, "  → 32");
    expect(&mut s, "What next?");
    expect(&mut s, "Enter choose");
    expect(&mut s, "2) Change GPUs (data-parallel degree) (now 32)");
    send(&mut s, "q");
    let (_, code) = finish(&mut s);
    assert_eq!(code, 0);
    let v = ledger(&l);
    assert_eq!(
        v["parts"]["a"]["controls"]["gpus"].as_f64(),
        Some(32.0),
        "{v}"
    );
}

/// A power-of-2 slider (no `step`: the page moves by 1 in the exponent) takes only its
/// positions: a typed 100 is refused with the control's label and the nearest values, 128 is
/// taken; a ledger holding 100 (edited, or from before this check) is resumed with a warning
/// and the control back at its default.
#[test]
fn a_value_between_a_sliders_positions_is_refused_and_dropped_from_a_ledger() {
    let d = tmp("between");
    let l = d.join("l.json");
    let lab = root().join("labs/compute-infrastructure.yaml");
    let args = [
        lab.to_str().unwrap(),
        "--ledger",
        l.to_str().unwrap(),
        "--track",
        "iphone",
    ];
    let mut s = to_explore_with(&lab, &l, &["--track", "iphone"]);
    expect(&mut s, "2) Change Items processed together (now 16)");
    send(&mut s, "2");
    expect(&mut s, "[1 to 256, ×2 per step] — now 16, Enter keeps it:");
    send(&mut s, "100\r");
    expect(
        &mut s,
        "✗ Items processed together moves in powers of 2: 100 is not one of its values;",
    );
    expect(&mut s, "the nearest are 64");
    expect(&mut s, "and 128");
    expect(&mut s, "Enter keeps it:");
    send(&mut s, "128\r");
    expect(&mut s, "Items processed together = 128");
    expect(&mut s, "What next?");
    expect(&mut s, "Enter choose");
    send(&mut s, "q");
    assert_eq!(finish(&mut s).1, 0);
    let mut v = ledger(&l);
    assert_eq!(
        v["parts"]["a"]["controls"]["items"].as_f64(),
        Some(128.0),
        "{v}"
    );

    v["parts"]["a"]["controls"]["items"] = 100.into();
    std::fs::write(&l, serde_json::to_string(&v).unwrap()).unwrap();
    let mut s = spawn(&args, 100);
    expect(&mut s, "holds answers this lab cannot have");
    expect(&mut s, "is not a setting of “Items processed together”");
    expect(&mut s, "2) Change Items processed together (now 16)");
    send(&mut s, "q");
    assert_eq!(finish(&mut s).1, 0);
    let v = ledger(&l);
    assert_eq!(
        v["parts"]["a"]["controls"]["items"].as_f64(),
        Some(16.0),
        "{v}"
    );
}
