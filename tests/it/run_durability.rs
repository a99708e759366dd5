//! The ledger survives SIGKILL at any moment: killed repeatedly while it saves (every control
//! change is a save), the file is always a complete, readable record.

use labforge::ledger::Ledger;
use labforge::store::LedgerFile as _;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const FIXTURE: &str = "tests/inputs/run_fixture.yaml";

/// A small deterministic generator (no dependency needed for a few random delays).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// When the ledger was last written (None: not there).
fn modified(p: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

fn tmp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn sigkill_during_saves_never_leaves_an_unreadable_ledger() {
    let dir = std::env::temp_dir().join(format!("labforge-run-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ledger = dir.join("l.json");
    // Predict, then move the utilization slider back and forth: one save per move.
    let mut script = String::from("2\n");
    for i in 0..400 {
        script.push_str(&format!("1\n0.{}\n", 10 + (i % 89)));
    }
    let mut rng = Lcg(0x5eed);
    let (mut existed, mut killed) = (0, 0);
    for round in 0..40 {
        let mut c = Command::new(env!("CARGO_BIN_EXE_labforge"));
        c.args(["run", FIXTURE, "--ledger", ledger.to_str().unwrap()])
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // Every other round resumes from whatever the last kill left.
        if round % 2 == 0 {
            c.arg("--restart");
        }
        let before = modified(&ledger);
        let mut child = c.spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let s = script.clone();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(s.as_bytes());
        });
        // The kill lands in the middle of the saves: after this run's first one (on a loaded
        // machine the run may need longer than a fixed delay just to start, and a kill before
        // its first save tests nothing), at a random moment of the ones that follow.
        let start = std::time::Instant::now();
        while modified(&ledger) == before && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_millis(rng.next() % 60));
        if child.kill().is_ok() {
            killed += 1;
        }
        let _ = child.wait();
        let _ = writer.join();
        match Ledger::load(&ledger) {
            Ok(Some(l)) => {
                existed += 1;
                assert_eq!(l.lab, "run-fixture");
                assert_eq!(l.format, labforge::ledger::FORMAT);
            }
            Ok(None) => {}
            Err(e) => panic!("round {round}: unreadable ledger after SIGKILL: {e}"),
        }
    }
    assert!(existed > 30, "the runs did save ({existed} of 40)");
    assert!(killed > 30, "the runs were killed mid-way ({killed} of 40)");

    // A clean run afterwards reads the record and clears temporary files of killed runs.
    let answers = dir.join("a.yaml");
    std::fs::write(
        &answers,
        "predictions: {a: B, b: 25}\nreflections: {a: B, b: A}\ndecision_log: done\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args([
            "run",
            FIXTURE,
            "--ledger",
            ledger.to_str().unwrap(),
            "--answers",
            answers.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let l = Ledger::load(&ledger).unwrap().unwrap();
    assert!(l.complete);
    assert_eq!(tmp_files(&dir), Vec::<String>::new());
}
