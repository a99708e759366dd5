//! Prompters: the interactive widgets on a terminal (arrow keys, raw mode) and the plain line
//! prompter used when stdin is not a terminal (numbered options, typed values).

use super::md;
use super::term::{display_width, RawMode, Screen, Style};
use crate::diag::Diagnostic;
use crossterm::event::{Event, KeyCode as Key, KeyEvent, KeyEventKind, KeyModifiers};

mod line;
mod text;
pub use line::LinePrompter;
pub use text::HOW as TEXT_HOW;

/// Why a prompt ended without an answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// Ctrl-C.
    Interrupted,
    /// End of input.
    Eof,
    /// The student asked to save and quit (`q` in a menu, Ctrl-D on a terminal).
    Quit,
    /// What stops the session: an answers file without the answer or with a bad one, a
    /// progress file that cannot be saved, a lab that fails to evaluate. A diagnostic, located
    /// in the file it is about where one is (the one printer prints it).
    Bad(Box<Diagnostic>),
}

impl Stop {
    /// [`Stop::Bad`] of a diagnostic, or of a message with no place in a file.
    pub fn bad(d: impl Into<Diagnostic>) -> Stop {
        Stop::Bad(Box::new(d.into()))
    }

    /// [`Stop::Bad`] of a problem with the file `path` as a whole, with a hint.
    pub fn in_file(path: &std::path::Path, message: String, hint: &str) -> Stop {
        Stop::bad(
            Diagnostic::error(&path.display().to_string(), Default::default(), message)
                .with_hint(hint),
        )
    }
}

pub type Res<T> = Result<T, Stop>;

/// One choice in a list: its key (A, B, 1, ...) and Markdown text.
#[derive(Debug, Clone)]
pub struct Item {
    pub key: String,
    pub text: String,
}

/// Asks the student things.
pub trait Prompter {
    /// One of `items`; `default` is highlighted first.
    fn select(&mut self, scr: &Screen, prompt: &str, items: &[Item], default: usize) -> Res<usize>;
    /// One of `items` as a commitment (a prediction): every key but Enter only moves the
    /// highlight, Enter locks the answer in. A line prompter needs Enter anyway.
    fn commit(&mut self, scr: &Screen, prompt: &str, items: &[Item], default: usize) -> Res<usize> {
        self.select(scr, prompt, items, default)
    }
    /// One of `items` as an answer (a reflection): as [`Prompter::commit`], every key but Enter
    /// only moves the highlight, Enter chooses.
    fn answer(&mut self, scr: &Screen, prompt: &str, items: &[Item], default: usize) -> Res<usize> {
        self.select(scr, prompt, items, default)
    }
    /// One of a list of values (a slider's `values:`, a select of numbers; the items have no
    /// key): typed digits name a value, never a position.
    fn value(&mut self, scr: &Screen, prompt: &str, items: &[Item], default: usize) -> Res<usize>;
    /// Any subset of `items` (checkboxes).
    fn multi(&mut self, scr: &Screen, prompt: &str, items: &[Item], on: &[bool]) -> Res<Vec<bool>>;
    /// Keeps what was just shown (feedback) on screen until the student presses Enter. A line
    /// prompter (pipes, scripts) does not wait.
    fn pause(&mut self, _scr: &Screen) -> Res<()> {
        Ok(())
    }
    /// A written answer of several lines (`placeholder`: an example shown with the prompt). On
    /// a terminal Enter starts a new line and Ctrl-D ends it (with nothing written: save and
    /// quit); a line prompter reads lines up to one that is `.` alone, or the end of input.
    fn text(&mut self, scr: &Screen, prompt: &str, placeholder: Option<&str>) -> Res<String>;
    /// The interactive widgets on a terminal. Only there is an optional question asked (the
    /// student's name for the report): a pipe or a script is never asked what it did not plan
    /// to answer.
    fn terminal(&self) -> bool {
        false
    }
    /// A typed value, re-asked until `check` accepts it.
    fn input(
        &mut self,
        scr: &Screen,
        prompt: &str,
        check: &mut dyn FnMut(&str) -> Result<(), String>,
    ) -> Res<String>;
}

fn item_lines(scr: &Screen, it: &Item, mark: &str) -> Vec<String> {
    let first = if it.key.is_empty() {
        mark.to_string()
    } else {
        format!("{mark}{}) ", it.key)
    };
    let rest = " ".repeat(display_width(&first));
    md::render_prefixed(&it.text, scr, &first, &rest)
}

/// Repeats the chosen option under its question (`  → B) text`), wrapped at the screen width.
pub fn echo_choice(scr: &Screen, it: &Item) {
    let lines: Vec<String> = item_lines(scr, it, "  → ")
        .iter()
        .map(|l| scr.paint(Style::Bold, l))
        .collect();
    scr.print_lines(&lines);
}

/// Repeats a typed answer (plain text) under its question, wrapped at the screen width.
pub fn echo_text(scr: &Screen, text: &str) {
    let words = super::term::wrap(text, scr.width.saturating_sub(4).max(1));
    for (i, l) in words.iter().enumerate() {
        scr.println(&format!("{}{l}", if i == 0 { "  → " } else { "    " }));
    }
}

/// An input prompt wrapped to leave room for the answer on its last line (`\n` → `\r\n` is the
/// terminal's job: raw mode keeps output processing).
fn prompt_text(scr: &Screen, prompt: &str) -> String {
    let narrow = Screen {
        width: scr.width.saturating_sub(12).max(20),
        ..*scr
    };
    let mut lines = md::render_prefixed(prompt, &narrow, "? ", "  ");
    let last = lines.pop().unwrap_or_default();
    let mut s = String::new();
    for l in lines {
        s.push_str(&l);
        s.push('\n');
    }
    s.push_str(&last);
    s.push(' ');
    s
}

/// An error under a prompt, `  ✗ ` then the message wrapped at spaces to the screen's width.
fn error_lines(scr: &Screen, msg: &str) -> Vec<String> {
    super::term::wrap(msg, scr.width.saturating_sub(5).max(10))
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let mark = if i == 0 { "  ✗ " } else { "    " };
            scr.paint(Style::Red, &format!("{mark}{l}"))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Interactive terminal

/// Widgets drawn with cursor movement and read key by key in raw mode.
pub struct TtyPrompter;

/// Text (a prompt, a typed character) to the terminal, through the one filter.
fn out(s: &str) {
    crate::print::out(s);
}

/// The widgets' own cursor movement and erasing, as it is (constants and numbers only).
fn ctl(seq: &str) {
    crate::print::control(seq);
}

/// A key as the widgets see it: Ctrl-C interrupts, Ctrl-D ends input, Ctrl-U is its own key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pressed {
    Key(Key),
    ClearLine,
    /// The window changed size (the list widgets redraw; the line editors need not).
    Resized,
}

/// What one crossterm key event means here (`None`: a release or repeat, or nothing we use).
fn decode(ev: &KeyEvent) -> Option<Res<Pressed>> {
    if ev.kind == KeyEventKind::Release {
        return None;
    }
    if ev.modifiers.contains(KeyModifiers::CONTROL) {
        return match ev.code {
            Key::Char('c') => Some(Err(Stop::Interrupted)),
            Key::Char('d') => Some(Err(Stop::Quit)),
            Key::Char('u') => Some(Ok(Pressed::ClearLine)),
            _ => None,
        };
    }
    Some(Ok(Pressed::Key(ev.code)))
}

fn key() -> Res<Pressed> {
    loop {
        match crossterm::event::read() {
            Ok(Event::Key(ev)) => {
                if let Some(r) = decode(&ev) {
                    return r;
                }
            }
            Ok(Event::Resize(..)) => return Ok(Pressed::Resized),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => return Err(Stop::Interrupted),
            Err(_) => return Err(Stop::Eof),
        }
    }
}

/// The list widgets' input: a plain key or a resize (anything else is ignored there).
fn list_key() -> Res<Pressed> {
    loop {
        match key()? {
            Pressed::ClearLine => {}
            p => return Ok(p),
        }
    }
}

/// What erases a typed character: back, blank, back for each column it took (2 for CJK).
fn erase_char(c: char) -> String {
    "\x08 \x08".repeat(display_width(&c.to_string()).max(1))
}

/// Physical rows `lines` take on a terminal `width` columns wide. After a resize it is also what
/// the lines drawn before take: terminals rewrap a line they had wrapped (or not) to the new
/// width (xterm, which cuts lines instead, is the exception).
fn rows(lines: &[String], width: usize) -> usize {
    lines
        .iter()
        .map(|l| display_width(l).max(1).div_ceil(width.max(1)))
        .sum()
}

/// Draws lines, returning how many rows they took on the real terminal (for redrawing). Each
/// line is erased first (a control) and then written through the filter.
fn draw(lines: &[String]) -> usize {
    let mut s = String::new();
    for l in lines {
        s.push_str("\r\x1b[2K");
        s.push_str(&crate::load::text::for_terminal(l));
        s.push_str("\r\n");
    }
    ctl(&s);
    rows(lines, screen_columns())
}

/// The terminal's columns now (unbounded when unknown).
fn screen_columns() -> usize {
    crossterm::terminal::size()
        .ok()
        .filter(|(w, _)| *w > 0)
        .map(|(w, _)| w as usize)
        .unwrap_or(usize::MAX)
}

fn erase(rows: usize) {
    if rows > 0 {
        ctl(&format!("\x1b[{rows}A\r\x1b[J"));
    }
}

/// What a key does in a list widget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    /// Highlight this entry.
    Move(usize),
    /// Choose this entry (single choice).
    Choose(usize),
    /// Flip this entry and highlight it (checkboxes).
    Toggle(usize),
    /// Finish (checkboxes).
    Done,
    /// Save and quit (`q`, unless an entry's key is `q`).
    Quit,
    Ignore,
}

/// The key handling of the list widgets, kept apart from the drawing so it can be tested.
/// `multi`: checkboxes (Space or the entry's number toggles, Enter finishes).
fn act(k: &Key, cur: usize, items: &[Item], multi: bool) -> Act {
    let n = items.len();
    if n == 0 {
        return if multi && *k == Key::Enter {
            Act::Done
        } else {
            Act::Ignore
        };
    }
    let typed = |c: char| {
        c.to_digit(10)
            .map(|d| d as usize)
            .filter(|d| (1..=n).contains(d))
            .map(|d| d - 1)
            .or_else(|| {
                items
                    .iter()
                    .position(|it| it.key.eq_ignore_ascii_case(&c.to_string()))
            })
    };
    match k {
        Key::Up | Key::Char('k') => Act::Move((cur + n - 1) % n),
        Key::Down | Key::Char('j') | Key::Tab => Act::Move((cur + 1) % n),
        Key::Home => Act::Move(0),
        Key::End => Act::Move(n - 1),
        Key::Enter if multi => Act::Done,
        Key::Enter => Act::Choose(cur.min(n - 1)),
        Key::Char(' ') if multi => Act::Toggle(cur.min(n - 1)),
        Key::Char(c) => match typed(*c) {
            Some(i) if multi => Act::Toggle(i),
            Some(i) => Act::Choose(i),
            None if c.eq_ignore_ascii_case(&'q') => Act::Quit,
            None => Act::Ignore,
        },
        _ => Act::Ignore,
    }
}

/// The keys of a commitment list: as [`act`] for one choice, but an option's key only moves
/// the highlight; Enter alone chooses.
fn act_commit(k: &Key, cur: usize, items: &[Item]) -> Act {
    match act(k, cur, items, false) {
        Act::Choose(i) if *k != Key::Enter => Act::Move(i),
        a => a,
    }
}

/// The number a value item begins with, as typed: its leading digits and `.`, without the
/// thousands separators (`1,024 GB` → `1024`, `70B` → `70`).
fn value_digits(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, ',' | '_' | '.'))
        .filter(|c| !matches!(c, ',' | '_'))
        .collect()
}

/// The value item that `typed` names: the one it is, else the first it begins.
fn value_named(items: &[Item], typed: &str) -> Option<usize> {
    let d: Vec<String> = items.iter().map(|it| value_digits(&it.text)).collect();
    d.iter()
        .position(|x| x == typed)
        .or_else(|| d.iter().position(|x| x.starts_with(typed)))
}

/// The keys of a value list: digits (and `.`) are typed into `typed` and move the highlight to
/// the value they name ([`value_named`]; a digit that names none with what was typed before
/// starts again); Enter alone chooses; other keys as [`act`], and they clear `typed`.
fn act_values(k: &Key, cur: usize, items: &[Item], typed: &mut String) -> Act {
    if let Key::Char(c) = k {
        if c.is_ascii_digit() || *c == '.' {
            let more = format!("{typed}{c}");
            let (t, at) = match value_named(items, &more) {
                Some(i) => (more, Some(i)),
                None => (c.to_string(), value_named(items, &c.to_string())),
            };
            *typed = if at.is_some() { t } else { String::new() };
            return at.map_or(Act::Ignore, Act::Move);
        }
    }
    typed.clear();
    act(k, cur, items, false)
}

/// The list with the highlighted entry (and checkbox marks when `on` is given).
fn list(scr: &Screen, items: &[Item], cur: usize, on: Option<&[bool]>) -> Vec<String> {
    let mut lines = Vec::new();
    for (i, it) in items.iter().enumerate() {
        let pointer = if i == cur { "❯ " } else { "  " };
        let check = match on {
            Some(on) if on[i] => "[x] ",
            Some(_) => "[ ] ",
            None => "",
        };
        let mut l = item_lines(scr, it, &format!("  {pointer}{check}"));
        if i == cur {
            for x in &mut l {
                *x = scr.paint(Style::Bold, x);
            }
        }
        lines.extend(l);
    }
    lines
}

/// What a list widget shows: the key hint, then the list; every line fits the screen, so the
/// widget knows how many rows to redraw.
fn widget_lines(
    scr: &Screen,
    hint: &str,
    items: &[Item],
    cur: usize,
    on: Option<&[bool]>,
) -> Vec<String> {
    let mut lines: Vec<String> = super::term::wrap(hint, scr.width.saturating_sub(2).max(1))
        .iter()
        .map(|l| format!("  {}", scr.paint(Style::Dim, l)))
        .collect();
    lines.extend(list(scr, items, cur, on));
    lines
}

/// How a list widget takes keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// [`act`]: an entry's key chooses it (menus, checkboxes).
    Pick,
    /// [`act_commit`]: an entry's key moves there, Enter chooses (predictions, reflections).
    Commit,
    /// [`act_values`]: typed digits move to the value, Enter chooses.
    Values,
}

/// The list widget of `select` (`on` None: returns the chosen index) and `multi` (`on`: toggled
/// in place; returns the highlighted index). Redraws in place; the cursor is shown again however
/// it ends. A resize redraws it at the new width: what was drawn is erased by the rows it takes
/// there, and the hint and entries are wrapped again.
fn list_widget(
    scr: &Screen,
    prompt: &str,
    hint: &str,
    items: &[Item],
    mut cur: usize,
    mut on: Option<&mut [bool]>,
    mode: Mode,
) -> Res<usize> {
    scr.print_lines(&md::render_prefixed(prompt, scr, "? ", "  "));
    let _raw = RawMode::enter();
    ctl("\x1b[?25l");
    let mut view = *scr;
    let mut shown = widget_lines(&view, hint, items, cur, on.as_deref());
    let mut drawn = draw(&shown);
    let mut typed = String::new();
    let result = loop {
        let k = match list_key() {
            Ok(Pressed::Key(k)) => k,
            Ok(_) => {
                erase(rows(&shown, screen_columns()));
                view.refresh();
                shown = widget_lines(&view, hint, items, cur, on.as_deref());
                drawn = draw(&shown);
                continue;
            }
            Err(e) => break Err(e),
        };
        let a = match mode {
            Mode::Commit => act_commit(&k, cur, items),
            Mode::Values => act_values(&k, cur, items, &mut typed),
            Mode::Pick => act(&k, cur, items, on.is_some()),
        };
        match a {
            Act::Ignore => continue,
            Act::Choose(i) => break Ok(i),
            Act::Done => break Ok(cur),
            Act::Quit => break Err(Stop::Quit),
            Act::Move(i) => cur = i,
            Act::Toggle(i) => {
                cur = i;
                if let Some(on) = on.as_deref_mut() {
                    on[i] = !on[i];
                }
            }
        }
        erase(drawn);
        shown = widget_lines(&view, hint, items, cur, on.as_deref());
        drawn = draw(&shown);
    };
    if result.is_ok() {
        erase(drawn);
    }
    ctl("\x1b[?25h");
    result
}

/// One choice from a list: the widget with its key hint, the choice echoed.
fn choose(
    scr: &Screen,
    prompt: &str,
    hint: &str,
    items: &[Item],
    default: usize,
    mode: Mode,
) -> Res<usize> {
    if items.is_empty() {
        return Err(Stop::bad(format!("nothing to choose from: {prompt}")));
    }
    let chosen = list_widget(
        scr,
        prompt,
        hint,
        items,
        default.min(items.len() - 1),
        None,
        mode,
    )?;
    // At the width the window has now: it may have been resized while the list was open.
    let mut now = *scr;
    now.refresh();
    echo_choice(&now, &items[chosen]);
    Ok(chosen)
}

impl Prompter for TtyPrompter {
    fn terminal(&self) -> bool {
        true
    }

    fn text(&mut self, scr: &Screen, prompt: &str, placeholder: Option<&str>) -> Res<String> {
        text::tty(scr, prompt, placeholder)
    }

    fn select(&mut self, scr: &Screen, prompt: &str, items: &[Item], default: usize) -> Res<usize> {
        let hint = "(↑/↓ move, Enter choose, or press the option's number; q save and quit)";
        choose(scr, prompt, hint, items, default, Mode::Pick)
    }

    fn commit(&mut self, scr: &Screen, prompt: &str, items: &[Item], default: usize) -> Res<usize> {
        let hint = "(↑/↓ or the option's letter move, Enter choose: your answer is locked in; q save and quit)";
        choose(scr, prompt, hint, items, default, Mode::Commit)
    }

    fn answer(&mut self, scr: &Screen, prompt: &str, items: &[Item], default: usize) -> Res<usize> {
        let hint = "(↑/↓ or the option's letter move, Enter choose; q save and quit)";
        choose(scr, prompt, hint, items, default, Mode::Commit)
    }

    fn value(&mut self, scr: &Screen, prompt: &str, items: &[Item], default: usize) -> Res<usize> {
        let mid = items.get(items.len() / 2).map_or("", |i| i.text.as_str());
        let hint = format!(
            "(↑/↓ move, or type a value ({}) to go to it; Enter choose; q save and quit)",
            value_digits(mid)
        );
        choose(scr, prompt, &hint, items, default, Mode::Values)
    }

    fn pause(&mut self, scr: &Screen) -> Res<()> {
        let _raw = RawMode::enter();
        out(&scr.paint(Style::Dim, "  Press Enter to continue (q save and quit)"));
        let r = loop {
            match key() {
                Ok(Pressed::Key(Key::Enter)) => break Ok(()),
                Ok(Pressed::Key(Key::Char('q' | 'Q'))) => break Err(Stop::Quit),
                Ok(_) => {}
                Err(e) => break Err(e),
            }
        };
        // The prompt goes; the feedback above it stays.
        ctl("\r\x1b[2K");
        if r.is_err() {
            out("\r\n");
        }
        r
    }

    fn multi(&mut self, scr: &Screen, prompt: &str, items: &[Item], on: &[bool]) -> Res<Vec<bool>> {
        let mut on = on.to_vec();
        list_widget(
            scr,
            prompt,
            "(↑/↓ move, Space toggle or press the number, Enter done; q save and quit)",
            items,
            0,
            Some(&mut on),
            Mode::Pick,
        )?;
        let mut now = *scr;
        now.refresh();
        echo_text(&now, &picked_text(items, &on));
        Ok(on)
    }

    fn input(
        &mut self,
        scr: &Screen,
        prompt: &str,
        check: &mut dyn FnMut(&str) -> Result<(), String>,
    ) -> Res<String> {
        loop {
            let mut buf = String::new();
            {
                // Raw mode first: keys typed from the moment the prompt shows are ours.
                let _raw = RawMode::enter();
                out(&prompt_text(scr, prompt).replace('\n', "\r\n"));
                loop {
                    match key()? {
                        Pressed::Key(Key::Enter) => break,
                        Pressed::Key(Key::Backspace) => {
                            if let Some(c) = buf.pop() {
                                ctl(&erase_char(c));
                            }
                        }
                        Pressed::ClearLine => {
                            let erased: String = buf.chars().map(erase_char).collect();
                            ctl(&erased);
                            buf.clear();
                        }
                        Pressed::Key(Key::Char(c))
                            if !crate::load::text::forbidden(c) && c != '\x1b' =>
                        {
                            buf.push(c);
                            out(&c.to_string());
                        }
                        _ => {}
                    }
                }
                out("\r\n");
            }
            match check(&buf) {
                Ok(()) => return Ok(buf),
                Err(e) => scr.print_lines(&error_lines(scr, &e)),
            }
        }
    }
}

/// The checked entries' texts, or `(none)`.
fn picked_text(items: &[Item], on: &[bool]) -> String {
    let picked: Vec<&str> = items
        .iter()
        .zip(on)
        .filter(|(_, o)| **o)
        .map(|(i, _)| i.text.as_str())
        .collect();
    if picked.is_empty() {
        "(none)".to_string()
    } else {
        picked.join(", ")
    }
}

// ---------------------------------------------------------------------------------------------
// Plain lines

#[cfg(test)]
mod tests {
    use super::*;

    fn items(n: usize) -> Vec<Item> {
        (0..n)
            .map(|i| Item {
                key: ((b'A' + i as u8) as char).to_string(),
                text: format!("option {i}"),
            })
            .collect()
    }

    #[test]
    fn keys_move_wrap_choose_and_toggle() {
        let it = items(3);
        assert_eq!(act(&Key::Up, 0, &it, false), Act::Move(2));
        assert_eq!(act(&Key::Down, 2, &it, false), Act::Move(0));
        assert_eq!(act(&Key::Enter, 1, &it, false), Act::Choose(1));
        assert_eq!(act(&Key::Char('3'), 0, &it, false), Act::Choose(2));
        assert_eq!(act(&Key::Char('b'), 0, &it, false), Act::Choose(1));
        assert_eq!(act(&Key::Char('9'), 0, &it, false), Act::Ignore);
        // `q` saves and quits from any list, unless an entry's key is `q`.
        assert_eq!(act(&Key::Char('q'), 0, &it, false), Act::Quit);
        assert_eq!(act(&Key::Char('q'), 0, &it, true), Act::Quit);
        assert_eq!(act_commit(&Key::Char('q'), 0, &it), Act::Quit);
        let mut qit = items(3);
        qit[2].key = "q".into();
        assert_eq!(act(&Key::Char('q'), 0, &qit, false), Act::Choose(2));
        // A commitment (a prediction): keys move, only Enter locks in.
        assert_eq!(act_commit(&Key::Char('b'), 0, &it), Act::Move(1));
        assert_eq!(act_commit(&Key::Char('3'), 0, &it), Act::Move(2));
        assert_eq!(act_commit(&Key::Down, 0, &it), Act::Move(1));
        assert_eq!(act_commit(&Key::Enter, 2, &it), Act::Choose(2));
        // Checkboxes: Space toggles, a number or key moves there and toggles, Enter is done.
        assert_eq!(act(&Key::Char(' '), 1, &it, true), Act::Toggle(1));
        assert_eq!(act(&Key::Char('3'), 0, &it, true), Act::Toggle(2));
        assert_eq!(act(&Key::Enter, 1, &it, true), Act::Done);
        assert_eq!(act(&Key::Char('j'), 0, &it, true), Act::Move(1));
    }

    #[test]
    fn widget_lines_fit_a_narrow_terminal() {
        // Redrawing moves up by the rows drawn: a line the terminal wraps itself would leave a
        // stray copy behind on every key press.
        let scr = Screen {
            width: 30,
            color: false,
        };
        let hint = "(↑/↓ move, Enter choose, or press the option's number)";
        let mut it = items(3);
        it[1].text = "a rather long option text that must wrap onto more lines".into();
        for on in [None, Some(&[true, false, true][..])] {
            let lines = widget_lines(&scr, hint, &it, 1, on);
            for l in &lines {
                assert!(display_width(l) <= 30, "{l:?} in {lines:#?}");
            }
            assert!(lines.iter().any(|l| l.contains("number)")), "{lines:#?}");
        }
        // Rows a terminal needs for lines it has to wrap anyway (a screen narrower than told).
        assert_eq!(rows(&["x".repeat(25), String::new()], 10), 4);
    }

    #[test]
    fn backspace_erases_the_columns_a_character_took() {
        assert_eq!(erase_char('a'), "\x08 \x08");
        assert_eq!(erase_char('日'), "\x08 \x08\x08 \x08");
    }

    #[test]
    fn control_keys_interrupt_end_and_clear() {
        let ctrl = |c| KeyEvent::new(Key::Char(c), KeyModifiers::CONTROL);
        assert_eq!(decode(&ctrl('c')), Some(Err(Stop::Interrupted)));
        assert_eq!(decode(&ctrl('d')), Some(Err(Stop::Quit)));
        assert_eq!(decode(&ctrl('u')), Some(Ok(Pressed::ClearLine)));
        let plain = KeyEvent::new(Key::Char('u'), KeyModifiers::NONE);
        assert_eq!(decode(&plain), Some(Ok(Pressed::Key(Key::Char('u')))));
        let mut up = plain;
        up.kind = KeyEventKind::Release;
        assert_eq!(
            decode(&up),
            None,
            "a key release (Windows) is not a second key"
        );
    }

    #[test]
    fn an_empty_list_never_panics() {
        for k in [
            Key::Up,
            Key::Down,
            Key::Tab,
            Key::Home,
            Key::End,
            Key::Char(' '),
            Key::Char('1'),
        ] {
            for multi in [false, true] {
                assert_eq!(act(&k, 0, &[], multi), Act::Ignore, "{k:?}");
            }
        }
        assert_eq!(act(&Key::Enter, 0, &[], true), Act::Done);
    }
}
