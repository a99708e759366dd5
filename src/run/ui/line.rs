//! The line prompter: numbered options and typed values, one line each, for pipes and scripts
//! (stdin not a terminal).

use super::{
    echo_choice, error_lines, item_lines, prompt_text, value_digits, Item, Prompter, Res, Stop,
};
use crate::run::md;
use crate::run::term::Screen;
use std::io::{BufRead, Write};

/// Numbered options and typed values, one line each, for pipes and scripts.
pub struct LinePrompter<R: BufRead> {
    input: R,
    echo: bool,
}

impl<R: BufRead> LinePrompter<R> {
    /// `echo`: repeat each line read after its prompt (when the input is not a terminal, so the
    /// transcript shows the answers).
    pub fn new(input: R, echo: bool) -> Self {
        LinePrompter { input, echo }
    }

    fn line(&mut self) -> Res<String> {
        let mut s = String::new();
        match self.input.read_line(&mut s) {
            Ok(0) => Err(Stop::Eof),
            Ok(_) => {
                let s = s.trim_end_matches(['\n', '\r']).to_string();
                if self.echo {
                    println!("{s}");
                }
                Ok(s)
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Err(Stop::Interrupted),
            Err(_) => Err(Stop::Eof),
        }
    }
}

fn pick(items: &[Item], s: &str) -> Option<usize> {
    let s = s.trim();
    if let Ok(n) = s.parse::<usize>() {
        if (1..=items.len()).contains(&n) {
            return Some(n - 1);
        }
    }
    items.iter().position(|it| it.key.eq_ignore_ascii_case(s))
}

impl<R: BufRead> Prompter for LinePrompter<R> {
    fn select(&mut self, scr: &Screen, prompt: &str, items: &[Item], default: usize) -> Res<usize> {
        if items.is_empty() {
            return Err(Stop::bad(format!("nothing to choose from: {prompt}")));
        }
        scr.print_lines(&md::render_prefixed(prompt, scr, "? ", "  "));
        for (i, it) in items.iter().enumerate() {
            let key = Item {
                key: format!("{}", i + 1),
                text: if it.key == (i + 1).to_string() {
                    it.text.clone()
                } else {
                    format!("[{}] {}", it.key, it.text)
                },
            };
            scr.print_lines(&item_lines(scr, &key, "  "));
        }
        loop {
            print!("Choose 1-{} [{}]: ", items.len(), default + 1);
            let _ = std::io::stdout().flush();
            let s = self.line()?;
            if s.trim().is_empty() {
                return Ok(default);
            }
            match pick(items, &s) {
                Some(i) => {
                    echo_choice(scr, &items[i]);
                    return Ok(i);
                }
                None if s.trim().eq_ignore_ascii_case("q") => return Err(Stop::Quit),
                None => scr.print_lines(&error_lines(
                    scr,
                    &format!(
                        "`{}` is not an option: type a number from 1 to {}",
                        s.trim(),
                        items.len()
                    ),
                )),
            }
        }
    }

    fn value(&mut self, scr: &Screen, prompt: &str, items: &[Item], default: usize) -> Res<usize> {
        if items.is_empty() {
            return Err(Stop::bad(format!("nothing to choose from: {prompt}")));
        }
        scr.print_lines(&md::render_prefixed(prompt, scr, "? ", "  "));
        for it in items {
            scr.print_lines(&item_lines(scr, it, "  "));
        }
        let all: Vec<&str> = items.iter().map(|it| it.text.as_str()).collect();
        loop {
            print!("Type one of the values [{}]: ", items[default].text);
            let _ = std::io::stdout().flush();
            let s = self.line()?;
            let t = s.trim();
            if t.is_empty() {
                return Ok(default);
            }
            let d = value_digits(t);
            match items.iter().position(|it| {
                it.text.eq_ignore_ascii_case(t) || (!d.is_empty() && value_digits(&it.text) == d)
            }) {
                Some(i) => {
                    echo_choice(scr, &items[i]);
                    return Ok(i);
                }
                None if t.eq_ignore_ascii_case("q") => return Err(Stop::Quit),
                None => scr.print_lines(&error_lines(
                    scr,
                    &format!("`{t}` is not one of the values: {}", all.join(", ")),
                )),
            }
        }
    }

    fn multi(&mut self, scr: &Screen, prompt: &str, items: &[Item], on: &[bool]) -> Res<Vec<bool>> {
        scr.print_lines(&md::render_prefixed(prompt, scr, "? ", "  "));
        for (i, it) in items.iter().enumerate() {
            let mark = if on[i] { "[x] " } else { "[ ] " };
            let key = Item {
                key: format!("{}", i + 1),
                text: it.text.clone(),
            };
            scr.print_lines(&item_lines(scr, &key, &format!("  {mark}")));
        }
        loop {
            print!("Numbers to check, separated by commas (`-` for none, Enter to keep): ");
            let _ = std::io::stdout().flush();
            let s = self.line()?;
            let t = s.trim();
            if t.is_empty() {
                return Ok(on.to_vec());
            }
            if t == "-" {
                return Ok(vec![false; items.len()]);
            }
            let mut out = vec![false; items.len()];
            let mut bad = None;
            for part in t.split([',', ' ']).filter(|p| !p.is_empty()) {
                match pick(items, part) {
                    Some(i) => out[i] = true,
                    None => bad = Some(part.to_string()),
                }
            }
            match bad {
                None => return Ok(out),
                Some(b) => scr.print_lines(&error_lines(scr, &format!("`{b}` is not an option"))),
            }
        }
    }

    fn text(&mut self, scr: &Screen, prompt: &str, placeholder: Option<&str>) -> Res<String> {
        print!("{}", prompt_text(scr, prompt));
        let how = "lines; a line with `.` alone ends the answer";
        match placeholder {
            Some(p) => println!("({how}; e.g. {})", crate::load::text::for_terminal(p)),
            None => println!("({how})"),
        }
        let _ = std::io::stdout().flush();
        let mut lines: Vec<String> = Vec::new();
        loop {
            match self.line() {
                Ok(l) if l.trim() == "." => break,
                Ok(l) => lines.push(l),
                Err(Stop::Eof) if !lines.is_empty() => break,
                Err(e) => return Err(e),
            }
        }
        Ok(lines.join("\n"))
    }

    fn input(
        &mut self,
        scr: &Screen,
        prompt: &str,
        check: &mut dyn FnMut(&str) -> Result<(), String>,
    ) -> Res<String> {
        loop {
            print!("{}", prompt_text(scr, prompt));
            let _ = std::io::stdout().flush();
            let s = self.line()?;
            match check(&s) {
                Ok(()) => return Ok(s),
                Err(e) => scr.print_lines(&error_lines(scr, &e)),
            }
        }
    }
}
