//! Last term's lab (`tests/compat/older-styles/last-term-queue.yaml`) at the prompt, on a pty:
//! the numeric box with `step: 5` refuses 52, 52.5 and 7 as the page does
//! (`tests/chromium/compat_browser.rs`), naming the nearest steps, and takes 55; its band feedback
//! computes its `{{ }}`.

#[allow(dead_code)]
use crate::common::pty;
use pty::*;

#[test]
fn the_prompt_refuses_answers_off_the_boxs_step() {
    let dir = tempfile::tempdir().unwrap();
    let lab = root().join("tests/compat/older-styles/last-term-queue.yaml");
    let l = dir.path().join("l.json");
    // Part A: lock in the first option, go on from the explore menu, answer the reflection.
    let mut s = to_explore(&lab, &l);
    send(&mut s, END);
    send(&mut s, "\r");
    expect(&mut s, "Reflection");
    expect(&mut s, "Enter choose");
    send(&mut s, "\r");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    // Part B's box: min 0, max 500, step 5.
    expect(&mut s, "Your estimate (min):");
    for (typed, near) in [
        ("52", "50 and 55"),
        ("52.5", "50 and 55"),
        ("7", "5 and 10"),
    ] {
        send(&mut s, &format!("{typed}\r"));
        expect(
            &mut s,
            &format!("type a number from 0 to 500, in steps of 5 from 0: the nearest are {near}"),
        );
        expect(&mut s, "Your estimate (min):");
    }
    send(&mut s, "55\r");
    expect(&mut s, "Right: 60 min.");
    expect(&mut s, "Close to 60 min.");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "q");
    let (_, code) = finish(&mut s);
    assert_eq!(code, 0);
    assert_eq!(ledger(&l)["parts"]["b"]["prediction"], "55");
}
