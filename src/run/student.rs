//! The student's name or id for the report in `labforge run`: `--student NAME`, else the one
//! saved (the course record's `student` in a course, the lab's ledger for a lab on its own),
//! else asked once, when the report is about to be written (the page keeps its name box beside
//! **Your report** too), so the question never stands between the student and the lab.
//!
//! Enter on an empty line skips, and the skip is kept like a name: in a course in the course
//! record (`student_skipped`: no lab of the course asks again), for a lab on its own in its
//! ledger (that record does not ask again). Only the interactive terminal asks
//! ([`super::ui::Prompter::terminal`]): an answers file or a pipe is never asked what it did not
//! plan to answer, and `--student` sets the name without a question.
//!
//! The name is the student's text: the widget drops what the one filter would (escapes, bidi
//! controls) as it is typed, and every echo of it goes through that filter ([`crate::print`]).

use super::ui::Res;
use super::{Session, Source};
use crate::record::merge::MAX_STUDENT;
use crate::record::CourseRecord;
use crate::store::RecordFile as _;

/// What the typed name is checked against: empty (a skip), or at most [`MAX_STUDENT`]
/// characters (as the page counts them).
pub fn check(typed: &str) -> Result<(), String> {
    let n = typed.trim().encode_utf16().count();
    if n > MAX_STUDENT {
        Err(format!(
            "a name or id of at most {MAX_STUDENT} characters, not {n} (or Enter on an empty line: no name)"
        ))
    } else {
        Ok(())
    }
}

impl Session<'_> {
    /// The name is known, or was skipped once already (the course's record, or this lab's).
    fn student_settled(&self) -> bool {
        if self.ledger.student.is_some() {
            return true;
        }
        match &self.course {
            Some(c) => c.record.student.is_some() || c.record.student_skipped,
            None => self.ledger.student_skipped,
        }
    }

    /// Asks for the name once (see the module docs) before the report is written; a typed name
    /// goes into the ledger (and with it into the course record), a skip is kept.
    pub(super) fn ask_student(&mut self) -> Res<()> {
        if self.student_settled() {
            return Ok(());
        }
        let scr = self.scr;
        let what = if self.course.is_some() {
            "every report of the course, typed once: Enter skips, and no lab of the course asks again"
        } else {
            "this lab's report: Enter skips, and this lab does not ask again"
        };
        let Source::Prompt(p) = &mut self.source else {
            return Ok(());
        };
        if !p.terminal() {
            return Ok(());
        }
        scr.println("");
        let intro = format!(
            "Your report is written next. A name or student id on it is optional, for {what} (`--student NAME` sets it later). It stays on this computer."
        );
        scr.print_lines(&super::md::render_prefixed(&intro, &scr, "", ""));
        let typed = p.input(
            &scr,
            "Your name or student id (optional):",
            &mut |t: &str| check(t),
        )?;
        let typed = typed.trim();
        if !typed.is_empty() {
            self.ledger.student = Some(typed.to_string());
            return Ok(());
        }
        let said = match &mut self.course {
            Some(c) => {
                let site = &c.site;
                c.record = CourseRecord::update(&c.path, &site.id, &site.labs, |r| {
                    r.student_skipped = true;
                })
                .map_err(|e| {
                    super::Stop::bad(format!(
                        "could not save the course record {}: {e}",
                        c.path.display()
                    ))
                })?;
                "No name on the reports; the course's other labs do not ask again."
            }
            None => {
                self.ledger.student_skipped = true;
                "No name on the report; this lab does not ask again."
            }
        };
        for x in self.plain(said) {
            scr.println(&scr.paint(super::term::Style::Dim, &x));
        }
        Ok(())
    }
}

impl Session<'_> {
    /// Under the report's line: the name it carries (the student's text, through the one
    /// filter like every write).
    pub(super) fn show_student(&self) {
        let Some(s) = &self.ledger.student else {
            return;
        };
        for x in self.plain(&format!("Student on the report: {s}")) {
            self.scr
                .println(&self.scr.paint(super::term::Style::Dim, &x));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_at_most_a_hundred_characters_and_empty_skips() {
        assert!(check("").is_ok());
        assert!(check("   ").is_ok());
        assert!(check("Ada Lovelace").is_ok());
        assert!(check(&"x".repeat(100)).is_ok());
        assert!(check(&format!("  {}  ", "x".repeat(100))).is_ok());
        let e = check(&"x".repeat(101)).unwrap_err();
        assert!(e.contains("at most 100 characters, not 101"), "{e}");
        // Counted as the page counts: an emoji is two.
        assert!(check(&"😀".repeat(51)).is_err());
    }
}
