//! A written answer at the terminal: several lines, Enter starts a new one, Ctrl-D ends the
//! answer (Ctrl-D with nothing written saves and quits: the walk resumes at this question).

use super::{ctl, display_width, erase_char, key, out, prompt_text, Pressed, Res, Stop};
use crate::run::term::{RawMode, Screen};
use crossterm::event::KeyCode as Key;

/// How the prompts say it.
pub const HOW: &str = "Enter starts a new line; Ctrl-D when done";

/// The raw-mode editor of [`super::Prompter::text`].
pub(super) fn tty(scr: &Screen, prompt: &str, placeholder: Option<&str>) -> Res<String> {
    let _raw = RawMode::enter();
    out(&prompt_text(scr, prompt).replace('\n', "\r\n"));
    let hint = match placeholder {
        Some(p) => format!(
            "\r\n  ({HOW}; e.g. {})\r\n  ",
            crate::load::text::for_terminal(p)
        ),
        None => format!("\r\n  ({HOW})\r\n  "),
    };
    out(&hint);
    let mut buf = String::new();
    loop {
        match key() {
            Err(Stop::Quit) if crate::model::question::word_count(&buf) == 0 => {
                out("\r\n");
                return Err(Stop::Quit);
            }
            Err(Stop::Quit) => break,
            Err(e) => return Err(e),
            Ok(Pressed::Key(Key::Enter)) => {
                buf.push('\n');
                out("\r\n  ");
            }
            Ok(Pressed::Key(Key::Backspace)) => match buf.pop() {
                Some('\n') => {
                    // Back to the end of the line above.
                    let prev = buf.rsplit('\n').next().unwrap_or_default();
                    ctl(&format!("\x1b[A\x1b[{}G", 3 + display_width(prev)));
                }
                Some(c) => ctl(&erase_char(c)),
                None => {}
            },
            Ok(Pressed::ClearLine) => {
                let line = buf.rsplit('\n').next().unwrap_or_default().to_string();
                ctl(&line.chars().map(erase_char).collect::<String>());
                buf.truncate(buf.len() - line.len());
            }
            Ok(Pressed::Key(Key::Char(c))) if !crate::load::text::forbidden(c) && c != '\x1b' => {
                if buf.chars().count() < crate::model::question::MAX_TEXT_ANSWER {
                    buf.push(c);
                    out(&c.to_string());
                }
            }
            Ok(_) => {}
        }
    }
    out("\r\n");
    Ok(buf.trim_end_matches('\n').to_string())
}
