//! The terminal's read-only sections, drawn from the lab's [view](crate::view): the header, a
//! part's introduction, a verdict with its feedback, and the HUD.

use super::term::{self, Style};
use super::{letter, md, Res, Session, Step};
use crate::view::{Lead, PartView, Prose};

impl Session<'_> {
    /// A part's view.
    pub(super) fn pv(&self, pid: &str) -> &PartView {
        self.view
            .parts
            .iter()
            .find(|p| p.id == pid)
            .expect("a view of every part")
    }

    /// `**Title** — text` for objectives and takeaways.
    pub(super) fn leads(items: &[Lead]) -> Vec<String> {
        items
            .iter()
            .map(|o| {
                let mut md = format!("**{}**", o.title.plain());
                if let Some(t) = &o.text {
                    md.push_str(" — ");
                    md.push_str(&t.plain());
                }
                md
            })
            .collect()
    }

    /// A blank line, a bold heading, then each Markdown item behind its marker: `1` numbers
    /// them, any other marker (`•`, `☐`) repeats. Nothing when there are no items.
    pub(super) fn section(&self, heading: &str, items: &[String], marker: &str) -> Vec<String> {
        if items.is_empty() {
            return Vec::new();
        }
        let mut l = vec![String::new(), self.scr.paint(Style::Bold, heading)];
        for (k, it) in items.iter().enumerate() {
            let first = if marker == "1" {
                format!("{}. ", k + 1)
            } else {
                format!("{marker} ")
            };
            let rest = " ".repeat(term::display_width(&first));
            l.extend(md::render_prefixed(it, &self.scr, &first, &rest));
        }
        l
    }

    /// A blank line and `Label: text`, when there is a text.
    fn labelled(&self, label: &str, t: &Option<Prose>) -> Vec<String> {
        let Some(t) = t else {
            return Vec::new();
        };
        let mut l = vec![String::new()];
        l.extend(md::render_prefixed(&t.plain(), &self.scr, label, "  "));
        l
    }

    pub(super) fn header(&self, fresh: bool) -> Res<()> {
        let h = &self.view.header;
        let parts = &self.lab.lab.parts;
        let mut l = Vec::new();
        let mut kicker = Vec::new();
        if let (Some(v), Some(n)) = (h.volume, h.number) {
            kicker.push(format!("Vol {v} · Lab {n:02}"));
        }
        if let Some(t) = &h.topic {
            kicker.push(t.clone());
        }
        if !kicker.is_empty() {
            for x in self.plain(&kicker.join(" · ").to_uppercase()) {
                l.push(self.scr.paint(Style::Dim, &x));
            }
        }
        l.push(self.scr.paint(Style::Heading, &h.title.plain()));
        if let Some(t) = self
            .lab
            .track
            .as_deref()
            .and_then(|id| self.lab.tracks.get(id))
        {
            let mut line = format!("Track: {}", super::track::name(t));
            if let Some(s) = &t.summary {
                line.push_str(" — ");
                line.push_str(s);
            }
            l.extend(md::render_prefixed(&line, &self.scr, "", ""));
        }
        if !fresh {
            l.push(String::new());
            let where_ = match self.position() {
                (i, s) if i < parts.len() => {
                    let step = [Step::Prediction, Step::Explore, Step::Reflection][s.min(2)];
                    format!("part {} ({})", letter(&parts[i].id.value), step.name())
                }
                _ => "the synthesis".to_string(),
            };
            l.extend(self.earlier(None));
            l.extend(self.carried_lines());
            if !self.done() {
                l.extend(self.plain(&format!(
                    "Resuming at {where_}. Progress: {} (--restart to start over).",
                    self.path.display()
                )));
            }
            self.print(l);
            return Ok(());
        }
        if let Some(s) = &h.subtitle {
            l.extend(self.md(&s.plain()));
        }
        let mut meta = Vec::new();
        for b in &h.badges {
            meta.push(format!("[{}]", badge_text(b)));
        }
        if let Some(d) = &h.duration {
            meta.push(format!("⏱ {d}"));
        }
        if !meta.is_empty() {
            l.extend(
                self.plain(&meta.join("  "))
                    .iter()
                    .map(|x| self.scr.paint(Style::Dim, x)),
            );
        }
        l.extend(self.section("Learning objectives", &Self::leads(&h.objectives), "1"));
        let prereq: Vec<String> = h.prerequisites.iter().map(Prose::plain).collect();
        l.extend(self.section("Prerequisites", &prereq, "•"));
        l.extend(self.labelled("Core question: ", &h.core_question));
        l.extend(self.labelled("Reading: ", &h.reading));
        l.extend(self.earlier(None));
        l.extend(self.carried_lines());
        l.extend(
            self.plain(&format!("Progress is saved to {}", self.path.display()))
                .iter()
                .map(|x| self.scr.paint(Style::Dim, x)),
        );
        self.print(l);
        Ok(())
    }

    pub(super) fn intro(&self, pid: &str) {
        let pv = self.pv(pid);
        let mut l = vec![String::new()];
        let mut title = format!("{}: {}", pv.label, pv.title.plain());
        if let Some(d) = &pv.duration {
            title.push_str(&format!(" ({d})"));
        }
        l.push(self.scr.rule(&title));
        l.extend(self.earlier(Some(pid)));
        if let Some(s) = &pv.stakeholder {
            let style = s
                .color
                .as_deref()
                .and_then(Style::of_color)
                .unwrap_or(Style::Blue);
            let bar = self.scr.paint(style, "┃ ");
            l.push(format!(
                "{bar}{}",
                self.scr.paint(Style::Bold, &s.role.plain())
            ));
            l.extend(md::render_prefixed(
                &s.message.plain(),
                &self.scr,
                &bar,
                &bar,
            ));
        }
        if let Some(c) = &pv.concept {
            l.push(String::new());
            l.extend(self.md(&c.marked(&md::levelled)));
        }
        self.print(l);
    }

    pub(super) fn verdict(&self, correct: bool, feedback: Option<String>) {
        let body = feedback.unwrap_or_default();
        // Feedback that already opens with its verdict ("**Correct.** ...") gets the mark only.
        let opening = body
            .trim_start_matches(|c: char| c == '*' || c == '_' || c.is_whitespace())
            .to_lowercase();
        let says = opening.starts_with("correct") || opening.starts_with("not quite");
        let (mark, word, style) = if correct {
            ("✓", "Correct.", Style::Green)
        } else {
            ("✗", "Not quite.", Style::Orange)
        };
        let head = if says {
            self.scr.paint(style, mark)
        } else {
            self.scr.paint(style, &format!("{mark} {word}"))
        };
        let mut l = md::render_prefixed(&body, &self.scr, &format!("{head} "), "  ");
        if l.is_empty() {
            l.push(head);
        }
        self.print(l);
    }

    pub(super) fn hud(&self) {
        let scr = &self.scr;
        let lab = &self.lab.lab;
        let mut rows: Vec<(String, String, Option<Style>)> = Vec::new();
        if let Some(h) = &lab.hud {
            if let Some(x) = lab.hud_label() {
                rows.push(("LAB".into(), x, None));
            }
            if let Some(x) = &h.chapter_label {
                rows.push(("CHAPTER".into(), x.clone(), None));
            }
        }
        for (pid, st) in &self.ledger.hud.parts {
            let style = match st.as_str() {
                "correct" => Style::Green,
                "pending" => Style::Dim,
                _ => Style::Orange,
            };
            rows.push((
                format!("PART {}", letter(pid)),
                st.to_uppercase(),
                Some(style),
            ));
        }
        if let Some(t) = &self.ledger.hud.tier {
            let color = lab
                .hud
                .as_ref()
                .and_then(|h| h.tiers.iter().find(|x| &x.name == t))
                .and_then(|x| x.color)
                .map(|c| crate::eval::chart::color_name(Some(c), "blue"))
                .and_then(|c| Style::of_color(&c));
            rows.push(("TIER".into(), t.to_uppercase(), color));
        }
        if rows.is_empty() {
            return;
        }
        let mut l = vec![String::new(), scr.rule("HUD")];
        for (k, v, st) in rows {
            let v = match st {
                Some(s) => scr.paint(s, &v),
                None => v,
            };
            l.push(format!("  {k:<8} {v}"));
        }
        scr.print_lines(&l);
    }
}

/// A badge as the terminal writes it: its text, after its level's mark unless it is `info`.
fn badge_text(b: &crate::view::Badge) -> String {
    match b.kind {
        "info" => b.text.plain(),
        k => format!("{} {}", crate::view::format::kind_icon(k), b.text.plain()),
    }
}
