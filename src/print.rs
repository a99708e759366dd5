//! The one way labforge writes text to a terminal. Declared first in `lib.rs` with
//! `#[macro_use]`, the macros here shadow the standard `print!`, `println!`, `eprint!` and
//! `eprintln!` in every module of the crate, so a message, a listing or a diagnostic cannot
//! reach stdout or stderr without [`crate::load::text::for_terminal`]: a lab's title, a
//! student's decision log from a course record, a file name in an error — whoever wrote it, no
//! escape sequence (OSC 52 writes the clipboard, OSC 0 the window title, `ESC[2J` clears the
//! screen) or bidirectional override gets through. The terminal's widgets write through
//! [`out`] and [`control`] (their cursor movement). `tests/it/terminal_text.rs` fails when any
//! other file of `src/` writes to stdout or stderr itself.
//!
//! A write error (a closed pipe, a terminal gone) is ignored, where the standard macros panic.

use std::io::Write;

/// `text` to stdout, filtered, flushed.
pub fn out(text: &str) {
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(crate::load::text::for_terminal(text).as_bytes());
    let _ = o.flush();
}

/// `text` to stderr, filtered.
pub fn err(text: &str) {
    let mut o = std::io::stderr().lock();
    let _ = o.write_all(crate::load::text::for_terminal(text).as_bytes());
    let _ = o.flush();
}

/// One of the terminal widgets' own control sequences (cursor up, erase, hide, show, backspace)
/// to stdout as it is. Only labforge's constants and numbers go here, never text.
pub fn control(seq: &str) {
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(seq.as_bytes());
    let _ = o.flush();
}

/// As `std::print!`, through [`out`].
macro_rules! print {
    ($($t:tt)*) => {
        $crate::print::out(&format!($($t)*))
    };
}

/// As `std::println!`, through [`out`].
macro_rules! println {
    () => {
        $crate::print::out("\n")
    };
    ($($t:tt)*) => {
        $crate::print::out(&format!("{}\n", format_args!($($t)*)))
    };
}

/// As `std::eprint!`, through [`err`].
macro_rules! eprint {
    ($($t:tt)*) => {
        $crate::print::err(&format!($($t)*))
    };
}

/// As `std::eprintln!`, through [`err`].
macro_rules! eprintln {
    () => {
        $crate::print::err("\n")
    };
    ($($t:tt)*) => {
        $crate::print::err(&format!("{}\n", format_args!($($t)*)))
    };
}
