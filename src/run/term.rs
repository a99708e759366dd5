//! Terminal plumbing for `labforge run`: width, colour, raw mode, and the Ctrl-C path that saves
//! progress before exiting.

use crate::ledger::Ledger;
use crate::store::LedgerFile as _;
use std::io::IsTerminal;
#[cfg(unix)]
use std::os::fd::AsFd;
use std::path::PathBuf;
use std::sync::Mutex;

/// Where output goes and how it may look.
#[derive(Debug, Clone, Copy)]
pub struct Screen {
    /// Columns available (from `COLUMNS`, else the terminal, else 80).
    pub width: usize,
    /// ANSI colours allowed (a terminal, `NO_COLOR` unset, `TERM` not `dumb`).
    pub color: bool,
}

impl Screen {
    /// The screen of this process's stdout.
    pub fn detect() -> Screen {
        let tty = std::io::stdout().is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
        Screen {
            width: terminal_width(),
            color: tty && !no_color && !dumb,
        }
    }

    /// Reads the width again: the window may have been resized since (`COLUMNS` still wins).
    pub fn refresh(&mut self) {
        self.width = terminal_width();
    }

    /// `text` in a style (no-op without colour).
    pub fn paint(&self, style: Style, text: &str) -> String {
        if !self.color || text.is_empty() {
            return text.to_string();
        }
        format!("\x1b[{}m{text}\x1b[0m", style.code())
    }

    /// Prints lines to stdout (through the one filter, [`crate::print`]).
    pub fn print_lines(&self, lines: &[String]) {
        let mut all = String::new();
        for l in lines {
            all.push_str(l);
            all.push('\n');
        }
        crate::print::out(&all);
    }

    pub fn println(&self, line: &str) {
        crate::print::out(&format!("{line}\n"));
    }

    /// A horizontal rule with a title, as wide as the screen (at most 100 columns); a title too
    /// long for one line wraps under its `──` (the result then holds several lines).
    pub fn rule(&self, title: &str) -> String {
        let w = self.width.min(100);
        let used = display_width(title) + 4;
        if used + 2 <= w {
            return format!(
                "{} {} {}",
                self.paint(Style::Dim, "──"),
                self.paint(Style::Bold, title),
                self.paint(Style::Dim, &"─".repeat(w - used))
            );
        }
        wrap(title, w.saturating_sub(3).max(1))
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let lead = if i == 0 { "──" } else { "  " };
                format!(
                    "{} {}",
                    self.paint(Style::Dim, lead),
                    self.paint(Style::Bold, l)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Text styles used by the prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Bold,
    Italic,
    Dim,
    Code,
    Heading,
    Red,
    Green,
    Orange,
    Blue,
    Purple,
    Gray,
    BoldItalic,
}

impl Style {
    fn code(self) -> &'static str {
        match self {
            Style::Bold => "1",
            Style::Italic => "3",
            Style::BoldItalic => "1;3",
            Style::Dim => "2",
            Style::Code => "36",
            Style::Heading => "1;4",
            Style::Red => "31",
            Style::Green => "32",
            Style::Orange => "33",
            Style::Blue => "34",
            Style::Purple => "35",
            Style::Gray => "90",
        }
    }

    /// The style of a palette colour or level name.
    pub fn of_color(name: &str) -> Option<Style> {
        Some(match name {
            "red" | "bad" | "danger" => Style::Red,
            "green" | "good" | "success" => Style::Green,
            "orange" | "warn" => Style::Orange,
            "blue" | "info" => Style::Blue,
            "purple" => Style::Purple,
            "gray" => Style::Gray,
            _ => return None,
        })
    }
}

/// Plain text (no Markdown) wrapped into lines of at most `width` columns (a longer word gets
/// a line of its own); its control characters shown as `U+FFFD` ([`visible`]).
///
/// [`visible`]: crate::load::text::visible
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in crate::load::text::visible(text).split_whitespace() {
        match out.last_mut() {
            Some(l) if display_width(l) + 1 + display_width(word) <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => out.push(word.to_string()),
        }
    }
    out
}

/// Display width of text (ANSI escapes excluded).
pub fn display_width(s: &str) -> usize {
    console::measure_text_width(s)
}

/// Columns: `COLUMNS` when set to a number, else the terminal's now (crossterm), else 80.
pub fn terminal_width() -> usize {
    if let Some(c) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|c| *c > 0)
    {
        return c.clamp(20, 500);
    }
    if !std::io::stdout().is_terminal() {
        return 80;
    }
    crossterm::terminal::size()
        .ok()
        .filter(|(w, _)| *w > 0)
        .map(|(w, _)| (w as usize).clamp(20, 500))
        .unwrap_or(80)
}

/// The last saved record and where it goes, for the Ctrl-C handler.
struct Saved {
    path: PathBuf,
    ledger: Ledger,
}

static SAVED: Mutex<Option<Saved>> = Mutex::new(None);
static RAW: Mutex<bool> = Mutex::new(false);

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Saves the record (atomically) and remembers it for the Ctrl-C handler. Saves are serialised
/// with the handler, so an interrupt never races a save.
pub fn persist(path: &std::path::Path, ledger: &Ledger) -> std::io::Result<()> {
    let mut g = lock(&SAVED);
    ledger.save(path)?;
    *g = Some(Saved {
        path: path.to_path_buf(),
        ledger: ledger.clone(),
    });
    Ok(())
}

/// Installs the SIGINT/SIGTERM/SIGHUP handler (restore the terminal, save, say where, exit 130)
/// and, on a terminal, a watch for the terminal going away.
pub fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| save_and_exit("Interrupted", 130));
    watch_for_hangup();
}

/// Saves the last record and exits. Messages go to stderr with errors ignored: when the terminal
/// is gone, `eprintln!` would panic and leave the process running without its handler.
fn save_and_exit(why: &str, code: i32) -> ! {
    restore_terminal();
    let g = lock(&SAVED);
    let msg = match g.as_ref() {
        Some(s) => match s.ledger.save(&s.path) {
            Ok(()) => format!(
                "\n{why}. Progress saved to {}; run the same command again to resume.",
                s.path.display()
            ),
            Err(e) => format!("\n{why}. Could not save progress: {e}"),
        },
        None => format!("\n{why}."),
    };
    crate::print::err(&format!("{msg}\n"));
    std::process::exit(code);
}

/// When stdin is a terminal, a thread waits (without spinning: `poll` with no events asked
/// returns only on hang-up or error) for the terminal to be hung up, then saves and exits 129.
/// Without it a student whose window closed without a SIGHUP reaching this process (a shell
/// that does not forward it) would leave it running: crossterm's reader retries a dead terminal
/// forever (crossterm-rs/crossterm#793).
#[cfg(unix)]
fn watch_for_hangup() {
    use rustix::event::{PollFd, PollFlags};
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return;
    }
    let _ = std::thread::Builder::new()
        .name("hangup-watch".into())
        .spawn(move || {
            let fd = stdin.as_fd();
            loop {
                let mut fds = [PollFd::new(&fd, PollFlags::empty())];
                match rustix::event::poll(&mut fds, None) {
                    Ok(_) => {
                        let r = fds[0].revents();
                        if r.intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL) {
                            save_and_exit("The terminal went away", 129);
                        }
                    }
                    Err(rustix::io::Errno::INTR) => {}
                    Err(_) => return,
                }
            }
        });
}

#[cfg(not(unix))]
fn watch_for_hangup() {}

/// Puts the terminal back as it was (cooked mode, cursor shown).
pub fn restore_terminal() {
    let mut raw = lock(&RAW);
    if *raw {
        *raw = false;
        let _ = crossterm::terminal::disable_raw_mode();
        // crossterm's `cursor::Show`.
        crate::print::control("\x1b[?25h");
    }
}

/// Raw mode on the terminal while alive (keys arrive one by one, no echo, Ctrl-C is a key), by
/// crossterm. Raw mode also stops `\n` from returning the carriage: write `\r\n`.
pub struct RawMode {
    active: bool,
}

impl RawMode {
    pub fn enter() -> RawMode {
        let mut raw = lock(&RAW);
        let ok = !*raw && crossterm::terminal::enable_raw_mode().is_ok();
        *raw |= ok;
        // crossterm's reader, and with it its SIGWINCH handler, starts at the first poll: started
        // here, before a widget draws, a resize from then on is an event (not a lost signal).
        let _ = crossterm::event::poll(std::time::Duration::ZERO);
        RawMode { active: ok }
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        if self.active {
            restore_terminal();
        }
    }
}
