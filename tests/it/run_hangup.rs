//! `labforge run` whose terminal goes away (a closed window, `tmux kill-server`) saves the record
//! and exits within seconds, whether or not a SIGHUP reaches it. It used to keep running at
//! ~70% CPU forever and ignore SIGTERM: its signal thread had died printing to the dead terminal.
#![cfg(unix)]

use std::ffi::CStr;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/run_fixture.yaml")
}

/// A new pseudo-terminal of 100×35: its master (close-on-exec, so no other test's child keeps it
/// open) and the path of its slave.
fn open_pty() -> (OwnedFd, String) {
    // SAFETY: plain libc calls on a descriptor this function owns; results are checked.
    unsafe {
        let m = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC);
        assert!(m >= 0, "posix_openpt");
        let master = OwnedFd::from_raw_fd(m);
        assert_eq!(libc::grantpt(m), 0);
        assert_eq!(libc::unlockpt(m), 0);
        let mut buf = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(m, buf.as_mut_ptr(), buf.len()), 0);
        let ws = libc::winsize {
            ws_row: 35,
            ws_col: 100,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        assert_eq!(libc::ioctl(m, libc::TIOCSWINSZ, &ws), 0);
        (
            master,
            CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned(),
        )
    }
}

/// Starts `labforge run` on the slave. `session`: as its own session leader with the pty as its
/// controlling terminal (so closing the master sends it SIGHUP); otherwise it only has the pty
/// as stdin/stdout/stderr and no signal comes.
fn spawn(slave: &str, ledger: &std::path::Path, session: bool) -> Child {
    let tty = || {
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(slave)
            .unwrap()
    };
    let mut c = Command::new(env!("CARGO_BIN_EXE_labforge"));
    c.arg("run")
        .arg(fixture())
        .arg("--ledger")
        .arg(ledger)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .stdin(Stdio::from(tty()))
        .stdout(Stdio::from(tty()))
        .stderr(Stdio::from(tty()));
    if session {
        // SAFETY: async-signal-safe calls only, between fork and exec.
        unsafe {
            c.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    } else {
        // SAFETY: as above; a session of its own without a controlling terminal.
        unsafe {
            c.pre_exec(|| {
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    c.spawn().expect("spawn labforge run")
}

/// What the program wrote to the terminal so far, and how far the test has read it.
struct Screen {
    master: File,
    seen: Vec<u8>,
    at: usize,
}

impl Screen {
    /// Reads the master until `what` appears after the last match (30 s at most).
    fn expect(&mut self, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let text = String::from_utf8_lossy(&self.seen[self.at..]).into_owned();
            if let Some(i) = text.find(what) {
                self.at += text[..i + what.len()].len();
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{what:?} never appeared; output:\n{}",
                String::from_utf8_lossy(&self.seen)
            );
            let mut p = libc::pollfd {
                fd: self.master.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            if unsafe { libc::poll(&mut p, 1, 200) } > 0 {
                let mut buf = [0u8; 4096];
                match self.master.read(&mut buf) {
                    Ok(n) if n > 0 => self.seen.extend_from_slice(&buf[..n]),
                    _ => std::thread::sleep(Duration::from_millis(50)),
                }
            }
        }
    }

    fn send(&mut self, keys: &[u8]) {
        self.master.write_all(keys).unwrap();
    }
}

/// Closes the terminal at a menu; the process must be gone within 10 s with the record saved.
fn closes_at_a_menu(session: bool) {
    let d = tempfile::tempdir().unwrap();
    let ledger = d.path().join("l.json");
    let (master, slave) = open_pty();
    let mut child = spawn(&slave, &ledger, session);
    let mut screen = Screen {
        master: File::from(master),
        seen: Vec::new(),
        at: 0,
    };
    screen.expect("Enter choose");
    // Lock in the first prediction, read its feedback, close at the next menu.
    screen.send(b"\r");
    screen.expect("Press Enter to continue");
    screen.send(b"\r");
    screen.expect("What next?");
    screen.expect("Enter choose");
    drop(screen);
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break Some(st);
        }
        if Instant::now() > deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let status = status.expect("labforge run still running 10 s after its terminal closed");
    assert!(!status.success(), "{status:?}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&ledger).expect("record saved")).unwrap();
    assert_eq!(v["position"], "a.explore", "{v}");
    assert_eq!(v["design"]["partA_prediction"], "A", "{v}");
}

#[test]
fn exits_and_saves_when_its_terminal_hangs_up() {
    closes_at_a_menu(true);
}

#[test]
fn exits_and_saves_when_its_terminal_goes_away_without_a_signal() {
    closes_at_a_menu(false);
}
