//! `labforge run`: the lab as a terminal prompt.
//!
//! The walk is the same in every mode: header, then each part in order (stakeholder, concept,
//! prediction — which unlocks the instruments — then an explore loop over the controls, then the
//! reflection), then the synthesis with the decision log and the HUD. Answers come from the
//! interactive widgets on a terminal ([`ui::TtyPrompter`]), from numbered line prompts when stdin
//! is not a terminal ([`ui::LinePrompter`]), or from an answers file (`--answers`).
//!
//! Progress is saved to the JSON ledger after every answer and every control change, atomically;
//! running again resumes at the recorded position, `--restart` starts over. Ctrl-C and end of
//! input save and exit with a message. A record without a position (the page's export) resumes
//! at the first question it leaves unanswered.
//!
//! Files: `mod.rs` the walk and the record; `show.rs` the explore view; `controls.rs` control
//! values and their prompts; `answers.rs` answers files; `ui.rs` the prompters; `term.rs`,
//! `md.rs`, `chart.rs` terminal output.

pub mod answers;
pub mod chart;
pub mod controls;
pub mod md;
mod show;
pub mod term;
pub mod ui;

use crate::eval::{self, CompiledLab, CompiledPart, EvalError, Evaluation};
use crate::formula::to_json;
use crate::ledger::{numeric_answer, Ledger};
use crate::load::check::option_id;
use crate::model::*;
pub use answers::Answers;
use controls::ask_control;
pub use controls::control_display;
use indexmap::IndexMap;
use rhai::Dynamic;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use term::{Screen, Style};
use ui::{Item, Prompter, Res, Stop};

/// Options of `labforge run`.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub lab: PathBuf,
    pub ledger: Option<PathBuf>,
    pub answers: Option<PathBuf>,
    pub restart: bool,
}

/// The default ledger file: `<data dir>/labforge/<id>-v<version>.json`, the data directory
/// being the platform's (`dirs::data_dir`: `$XDG_DATA_HOME` or `~/.local/share` on Linux,
/// `~/Library/Application Support` on macOS, `%APPDATA%` on Windows), else
/// `./.labforge/...` when there is none.
pub fn default_ledger_path(lab: &CompiledLab) -> PathBuf {
    let name = format!("{}-v{}.json", lab.lab.id.value, lab.lab.version);
    let dir = dirs::data_dir()
        .map(|d| d.join("labforge"))
        .unwrap_or_else(|| PathBuf::from(".labforge"));
    dir.join(name)
}

/// `labforge run`.
pub fn run(opts: &RunOptions) -> ExitCode {
    let Some(lab) = crate::cli::load_or_report(&opts.lab) else {
        return ExitCode::FAILURE;
    };
    let path = opts
        .ledger
        .clone()
        .unwrap_or_else(|| default_ledger_path(&lab));
    let answers = match &opts.answers {
        None => None,
        Some(p) => match Answers::load(p).and_then(|a| {
            a.check(&lab)
                .map(|()| a)
                .map_err(|e| format!("{}: {e}", p.display()))
        }) {
            Ok(a) => Some(a),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    crate::ledger::clear_stale_temps(&path);
    let mut ledger = if opts.restart {
        Ledger::new(&lab)
    } else {
        match Ledger::load(&path) {
            Ok(None) => Ledger::new(&lab),
            Ok(Some(l)) if l.lab != lab.lab.id.value || l.version != lab.lab.version => {
                eprintln!(
                    "error: {} holds progress for lab `{}` v{}, not `{}` v{}; pass another --ledger, or --restart to overwrite it",
                    path.display(),
                    l.lab,
                    l.version,
                    lab.lab.id.value,
                    lab.lab.version
                );
                return ExitCode::FAILURE;
            }
            Ok(Some(l)) => l,
            Err(e) => {
                eprintln!(
                    "error: {e}\n  hint: pass --restart to start over (the file is replaced)"
                );
                return ExitCode::FAILURE;
            }
        }
    };
    ledger.refresh(&lab);
    term::install_interrupt_handler();
    let scr = Screen::detect();
    let source = match answers {
        Some(a) => Source::Answers(Box::new(a)),
        None if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() => {
            Source::Prompt(Box::new(ui::TtyPrompter))
        }
        None => Source::Prompt(Box::new(ui::LinePrompter::new(
            std::io::stdin().lock(),
            !std::io::stdin().is_terminal(),
        ))),
    };
    let mut s = Session {
        lab: &lab,
        ledger,
        path,
        scr,
        source,
    };
    let result = s.walk();
    // Whatever happened, the last state is on disk.
    let saved = s.save();
    match (result, saved) {
        (Ok(()), Ok(())) => ExitCode::SUCCESS,
        (Ok(()), Err(Stop::Bad(e))) | (Err(Stop::Bad(e)), _) => {
            eprintln!("error: {e}");
            if s.path.exists() {
                eprintln!("progress so far is saved in {}", s.path.display());
            }
            ExitCode::FAILURE
        }
        (Err(Stop::Interrupted), _) => {
            eprintln!(
                "\nInterrupted. Progress saved to {}; run the same command again to resume.",
                s.path.display()
            );
            ExitCode::from(130)
        }
        (Err(Stop::Eof), _) | (Ok(()), Err(_)) => {
            eprintln!(
                "\nInput ended. Progress saved to {}; run the same command again to resume.",
                s.path.display()
            );
            ExitCode::from(1)
        }
    }
}

enum Source<'a> {
    Prompt(Box<dyn Prompter + 'a>),
    Answers(Box<Answers>),
}

/// The steps of a part, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    Prediction = 0,
    Explore = 1,
    Reflection = 2,
}

impl Step {
    fn name(self) -> &'static str {
        match self {
            Step::Prediction => "prediction",
            Step::Explore => "explore",
            Step::Reflection => "reflection",
        }
    }
}

struct Session<'a> {
    lab: &'a CompiledLab,
    ledger: Ledger,
    path: PathBuf,
    scr: Screen,
    source: Source<'a>,
}

fn eval_stop(e: EvalError) -> Stop {
    Stop::Bad(format!("the lab failed to evaluate: {e}"))
}

use crate::ledger::part_letter as letter;

impl<'a> Session<'a> {
    fn save(&mut self) -> Res<()> {
        self.ledger.refresh(self.lab);
        term::persist(&self.path, &self.ledger).map_err(|e| {
            Stop::Bad(format!(
                "could not save progress to {}: {e}",
                self.path.display()
            ))
        })
    }

    /// (part index, step) of the recorded position; synthesis is (parts, 0). A record without
    /// one (fresh, or the page's export) stands at the first part with a question unanswered, or
    /// at the start when nothing is answered.
    fn position(&self) -> (usize, usize) {
        let parts = &self.lab.lab.parts;
        let n = parts.len();
        match self.ledger.position.as_deref() {
            None => {
                let asked = |i: usize| {
                    let (p, a) = (&parts[i], &self.ledger.parts[&parts[i].id.value]);
                    let pred = p.prediction.is_none() || a.prediction.is_some();
                    let refl = p.reflection.is_none() || a.reflection.is_some();
                    (pred, refl)
                };
                let any_answer = self
                    .ledger
                    .parts
                    .values()
                    .any(|a| a.prediction.is_some() || a.reflection.is_some());
                match (0..n).find(|&i| asked(i) != (true, true)) {
                    // Nothing answered (a fresh record, or a lab that asks nothing): the start.
                    _ if !any_answer => (0, 0),
                    None => (n, 0),
                    // Predicted but not reflected: back to the instruments first.
                    Some(i) if asked(i).0 && has_explore(&parts[i]) => (i, 1),
                    Some(i) if asked(i).0 => (i, 2),
                    Some(i) => (i, 0),
                }
            }
            Some("synthesis") | Some("done") => (n, 0),
            Some(p) => {
                let (pid, step) = p.split_once('.').unwrap_or((p, "prediction"));
                let i = self
                    .lab
                    .lab
                    .parts
                    .iter()
                    .position(|x| x.id.value == pid)
                    .unwrap_or(0);
                let s = match step {
                    "explore" => 1,
                    "reflection" => 2,
                    _ => 0,
                };
                (i, s)
            }
        }
    }

    /// The walk went through the synthesis.
    fn done(&self) -> bool {
        self.ledger.position.as_deref() == Some("done")
    }

    /// Moves the recorded position forward (never back).
    fn advance(&mut self, part: usize, step: usize) {
        if (part, step) <= self.position() && self.ledger.position.is_some() {
            return;
        }
        let parts = &self.lab.lab.parts;
        self.ledger.position = Some(if part >= parts.len() {
            "synthesis".into()
        } else {
            let s = [Step::Prediction, Step::Explore, Step::Reflection][step.min(2)];
            format!("{}.{}", parts[part].id.value, s.name())
        });
    }

    fn print(&self, lines: Vec<String>) {
        self.scr.print_lines(&lines);
    }

    /// Plain text (no Markdown) wrapped at the screen width.
    fn plain(&self, text: &str) -> Vec<String> {
        term::wrap(text, self.scr.width.min(100))
    }

    fn md(&self, text: &str) -> Vec<String> {
        md::render(text, &self.scr)
    }

    fn text(&self, cp: Option<&CompiledPart>, ev: Option<&Evaluation>, t: &Text) -> Res<String> {
        self.lab
            .render_text(cp, ev, &t.value, &[])
            .map_err(eval_stop)
    }

    /// Text for [`md::render`]: as [`Self::text`], with each levelled `{{ @name }}` coloured and
    /// marked ([`md::levelled`]).
    fn levelled(
        &self,
        cp: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        t: &Text,
    ) -> Res<String> {
        self.lab
            .render_marked(cp, ev, &t.value, &md::levelled)
            .map_err(eval_stop)
    }

    /// Lab-level prose (no part, no evaluation), rendered.
    fn texts(&self, items: &[Text]) -> Res<Vec<String>> {
        items.iter().map(|t| self.text(None, None, t)).collect()
    }

    /// `**Title** — text` for objectives and takeaways.
    fn leads(&self, items: &[Objective]) -> Res<Vec<String>> {
        items
            .iter()
            .map(|o| {
                let mut md = format!("**{}**", self.text(None, None, &o.title)?);
                if let Some(t) = &o.text {
                    md.push_str(" — ");
                    md.push_str(&self.text(None, None, t)?);
                }
                Ok(md)
            })
            .collect()
    }

    /// A blank line, a bold heading, then each Markdown item behind its marker: `1` numbers
    /// them, any other marker (`•`, `☐`) repeats. Nothing when there are no items.
    fn section(&self, heading: &str, items: &[String], marker: &str) -> Vec<String> {
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
    fn labelled(&self, label: &str, t: &Option<Text>) -> Res<Vec<String>> {
        let Some(t) = t else {
            return Ok(Vec::new());
        };
        let mut l = vec![String::new()];
        l.extend(md::render_prefixed(
            &self.text(None, None, t)?,
            &self.scr,
            label,
            "  ",
        ));
        Ok(l)
    }

    fn walk(&mut self) -> Res<()> {
        let lab = &self.lab.lab;
        let fresh = self.ledger.position.is_none() && self.position() == (0, 0);
        self.header(fresh)?;
        self.save()?;
        if self.done() {
            self.scr.println("");
            self.scr.println(&self.scr.paint(
                Style::Green,
                "You have completed this lab. Run with --restart to start over.",
            ));
            self.hud();
            return Ok(());
        }
        for (i, part) in lab.parts.iter().enumerate() {
            let a = &self.ledger.parts[&part.id.value];
            let pred_done = part.prediction.is_none() || a.prediction.is_some();
            let refl_done = part.reflection.is_none() || a.reflection.is_some();
            let explore_done = !has_explore(part) || self.position() > (i, 1);
            if pred_done && refl_done && explore_done {
                continue;
            }
            self.gate(part)?;
            let cp = self.lab.part(&part.id.value).expect("compiled part");
            self.intro(cp, part)?;
            self.prediction(i, cp, part)?;
            if !explore_done {
                self.explore(cp, part)?;
                self.advance(i, 2);
                self.save()?;
            }
            self.reflection(i, cp, part)?;
        }
        self.synthesis()
    }

    /// Stops when a part's `requires` gates are not passed yet.
    fn gate(&self, part: &Part) -> Res<()> {
        for g in &part.requires {
            let Some((pid, what)) = g.value.split_once('.') else {
                continue;
            };
            let a = self.ledger.parts.get(pid);
            let open = match what {
                "prediction" => a.is_some_and(|a| a.prediction.is_some()),
                "reflection" => a.is_some_and(|a| a.reflection.is_some()),
                _ => true,
            };
            if !open {
                return Err(Stop::Bad(format!(
                    "part {} is locked until the {what} of part {} is answered",
                    letter(&part.id.value),
                    letter(pid)
                )));
            }
        }
        Ok(())
    }

    fn header(&self, fresh: bool) -> Res<()> {
        let lab = &self.lab.lab;
        let mut l = Vec::new();
        let mut kicker = Vec::new();
        if let (Some(v), Some(n)) = (lab.volume, lab.number) {
            kicker.push(format!("Vol {v} · Lab {n:02}"));
        }
        if let Some(t) = &lab.topic {
            kicker.push(t.clone());
        }
        if !kicker.is_empty() {
            for x in self.plain(&kicker.join(" · ").to_uppercase()) {
                l.push(self.scr.paint(Style::Dim, &x));
            }
        }
        let title = self.text(None, None, &lab.title)?;
        l.push(self.scr.paint(Style::Heading, &title));
        if !fresh {
            l.push(String::new());
            let where_ = match self.position() {
                (i, s) if i < lab.parts.len() => {
                    let step = [Step::Prediction, Step::Explore, Step::Reflection][s.min(2)];
                    format!("part {} ({})", letter(&lab.parts[i].id.value), step.name())
                }
                _ => "the synthesis".to_string(),
            };
            if !self.done() {
                l.extend(self.plain(&format!(
                    "Resuming at {where_}. Progress: {} (--restart to start over).",
                    self.path.display()
                )));
            }
            self.print(l);
            return Ok(());
        }
        if let Some(s) = &lab.subtitle {
            l.extend(self.md(&self.text(None, None, s)?));
        }
        let mut meta = Vec::new();
        for b in &lab.badges {
            meta.push(format!("[{}]", self.text(None, None, &b.text)?));
        }
        if let Some(d) = &lab.duration {
            meta.push(format!("⏱ {}", d.total));
        }
        if !meta.is_empty() {
            l.extend(
                self.plain(&meta.join("  "))
                    .iter()
                    .map(|x| self.scr.paint(Style::Dim, x)),
            );
        }
        l.extend(self.section("Learning objectives", &self.leads(&lab.objectives)?, "1"));
        l.extend(self.section("Prerequisites", &self.texts(&lab.prerequisites)?, "•"));
        l.extend(self.labelled("Core question: ", &lab.core_question)?);
        l.extend(self.labelled("Reading: ", &lab.reading)?);
        l.extend(
            self.plain(&format!("Progress is saved to {}", self.path.display()))
                .iter()
                .map(|x| self.scr.paint(Style::Dim, x)),
        );
        self.print(l);
        Ok(())
    }

    fn scenario_ev(&self, cp: &CompiledPart) -> Res<Evaluation> {
        self.lab
            .evaluate(cp, &self.lab.scenario(cp))
            .map_err(eval_stop)
    }

    fn intro(&self, cp: &CompiledPart, part: &Part) -> Res<()> {
        let ev = self.scenario_ev(cp)?;
        let mut l = vec![String::new()];
        let mut title = format!(
            "Part {}: {}",
            letter(&part.id.value),
            self.text(Some(cp), Some(&ev), &part.title)?
        );
        if let Some(d) = &part.duration {
            title.push_str(&format!(" ({d})"));
        }
        l.push(self.scr.rule(&title));
        if let Some(s) = &part.stakeholder {
            let style = s
                .color
                .map(|c| eval::chart::color_name(Some(c), "blue"))
                .and_then(|c| Style::of_color(&c))
                .unwrap_or(Style::Blue);
            let bar = self.scr.paint(style, "┃ ");
            l.push(format!(
                "{bar}{}",
                self.scr
                    .paint(Style::Bold, &self.text(Some(cp), Some(&ev), &s.role)?)
            ));
            l.extend(md::render_prefixed(
                &self.text(Some(cp), Some(&ev), &s.message)?,
                &self.scr,
                &bar,
                &bar,
            ));
        }
        if let Some(c) = &part.concept {
            l.push(String::new());
            l.extend(self.md(&self.levelled(Some(cp), Some(&ev), c)?));
        }
        self.print(l);
        Ok(())
    }

    fn prediction(&mut self, i: usize, cp: &CompiledPart, part: &Part) -> Res<()> {
        let Some(pred) = &part.prediction else {
            return Ok(());
        };
        let pid = part.id.value.clone();
        let ev = self.scenario_ev(cp)?;
        let question = self.text(Some(cp), Some(&ev), &pred.question)?;
        let answered = self.ledger.parts[&pid].prediction.clone();
        let answer = match answered {
            Some(a) => {
                self.scr.println("");
                self.print(md::render_prefixed(
                    &question,
                    &self.scr,
                    "Your prediction: ",
                    "  ",
                ));
                let shown = match pred
                    .options
                    .iter()
                    .enumerate()
                    .find(|(k, o)| option_id(*k, o) == a)
                {
                    Some((_, o)) => format!("{a}) {}", self.text(Some(cp), Some(&ev), &o.text)?),
                    None => a.clone(),
                };
                self.print(md::render_prefixed(&shown, &self.scr, "  → ", "    "));
                a
            }
            None => {
                self.scr.println("");
                self.scr
                    .println(&self.scr.paint(Style::Bold, "Make your prediction"));
                let a = self.ask_prediction(cp, &ev, pred, &pid, &question)?;
                self.ledger.parts[&pid].prediction = Some(a.clone());
                self.advance(i, 1);
                self.save()?;
                a
            }
        };
        // Reveal the feedback.
        let correct = self.ledger.parts[&pid].prediction_correct.unwrap_or(false);
        let fb = if let Some(n) = &pred.numeric {
            if correct {
                n.correct_feedback.as_ref()
            } else {
                n.other_feedback.as_ref()
            }
        } else {
            pred.options
                .iter()
                .enumerate()
                .find(|(k, o)| option_id(*k, o) == answer)
                .and_then(|(_, o)| o.feedback.as_ref())
                .or(pred.other_feedback.as_ref())
        };
        self.verdict(
            correct,
            fb.map(|t| self.text(Some(cp), Some(&ev), t)).transpose()?,
        );
        Ok(())
    }

    /// A question's options as list items (key = option id, text rendered at `ev`).
    fn choices(&self, cp: &CompiledPart, ev: &Evaluation, options: &[Choice]) -> Res<Vec<Item>> {
        options
            .iter()
            .enumerate()
            .map(|(k, o)| {
                Ok(Item {
                    key: option_id(k, o),
                    text: self.text(Some(cp), Some(ev), &o.text)?,
                })
            })
            .collect()
    }

    fn verdict(&self, correct: bool, feedback: Option<String>) {
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

    fn ask_prediction(
        &mut self,
        cp: &CompiledPart,
        ev: &Evaluation,
        pred: &Prediction,
        pid: &str,
        question: &str,
    ) -> Res<String> {
        let items = self.choices(cp, ev, &pred.options)?;
        let scr = self.scr;
        match &mut self.source {
            Source::Answers(a) => {
                let v = a.answer("prediction", pid)?;
                scr.print_lines(&md::render_prefixed(question, &scr, "? ", "  "));
                if pred.numeric.is_some() {
                    let x = numeric_answer(&v).ok_or_else(|| {
                        Stop::Bad(format!(
                            "answers: the prediction of part `{pid}` is a number, not `{v}`"
                        ))
                    })?;
                    ui::echo_text(&scr, &x);
                    return Ok(x);
                }
                let k = answers::choose(&scr, &items, &v, pid, "prediction")?;
                Ok(items[k].key.clone())
            }
            Source::Prompt(p) => {
                if let Some(n) = &pred.numeric {
                    let unit = n
                        .unit
                        .as_deref()
                        .map(|u| format!(" ({u})"))
                        .unwrap_or_default();
                    scr.print_lines(&md::render_prefixed(question, &scr, "? ", "  "));
                    let q = format!("Your estimate{unit}:");
                    let mut got = None;
                    p.input(&scr, &q, &mut |s: &str| {
                        got = numeric_answer(s);
                        got.as_ref()
                            .map(|_| ())
                            .ok_or_else(|| format!("type a number, e.g. 42 (not `{}`)", s.trim()))
                    })?;
                    return Ok(got.unwrap_or_default());
                }
                let k = p.select(&scr, question, &items, 0)?;
                Ok(items[k].key.clone())
            }
        }
    }

    fn inputs_of(&self, cp: &CompiledPart, part: &Part) -> IndexMap<String, Dynamic> {
        let saved = &self.ledger.parts[&part.id.value].controls;
        let mut set = IndexMap::new();
        for ctl in &part.controls {
            let id = &ctl.id().value;
            if let Some(v) = saved.get(id) {
                if let Ok(val) = serde_json::from_value::<Value>(v.clone()) {
                    if let Ok(d) = eval::validate_control(ctl, &eval::value_to_dynamic(&val)) {
                        set.insert(id.clone(), d);
                    }
                }
            }
        }
        self.lab
            .inputs(cp, &set)
            .unwrap_or_else(|_| self.lab.inputs(cp, &IndexMap::new()).unwrap_or_default())
    }

    fn set_control(&mut self, part: &Part, id: &str, v: &Dynamic) -> Res<()> {
        self.ledger
            .parts
            .entry(part.id.value.clone())
            .or_default()
            .controls
            .insert(id.to_string(), to_json(v));
        self.save()
    }

    fn explore(&mut self, cp: &CompiledPart, part: &Part) -> Res<()> {
        let scr = self.scr;
        self.scr.println("");
        let title = match &part.explore_title {
            Some(t) => self
                .text(Some(cp), None, t)
                .unwrap_or_else(|_| t.value.clone()),
            None => "Explore".into(),
        };
        self.scr.println(&self.scr.rule(&title));
        let mut inputs = self.inputs_of(cp, part);
        self.show(cp, part, &inputs)?;
        if let Source::Answers(a) = &self.source {
            let moves = a.controls.get(&part.id.value).cloned().unwrap_or_default();
            for (id, v) in moves {
                let Some(ctl) = part.controls.iter().find(|c| c.id().value == id) else {
                    let ids: Vec<&str> = part
                        .controls
                        .iter()
                        .map(|c| c.id().value.as_str())
                        .collect();
                    return Err(Stop::Bad(format!(
                        "answers: part `{}` has no control `{id}` (controls: {})",
                        part.id.value,
                        ids.join(", ")
                    )));
                };
                let val: Value = serde_json::from_value(v.clone())
                    .map_err(|e| Stop::Bad(format!("answers: control `{id}`: {e}")))?;
                let d = eval::validate_control(ctl, &eval::value_to_dynamic(&val))
                    .map_err(|e| Stop::Bad(format!("answers: part `{}`: {e}", part.id.value)))?;
                scr.println("");
                scr.println(&format!(
                    "Set {} = {}",
                    md::inline(&ctl.label().value, &scr),
                    control_display(ctl, &d)
                ));
                inputs.insert(id.clone(), d.clone());
                self.set_control(part, &id, &d)?;
                self.show(cp, part, &inputs)?;
            }
            return Ok(());
        }
        // The highlighted entry: "Continue" at first, then the last one used.
        let mut last = usize::MAX;
        loop {
            let mut items: Vec<Item> = Vec::new();
            for ctl in &part.controls {
                let v = inputs
                    .get(&ctl.id().value)
                    .cloned()
                    .unwrap_or(Dynamic::UNIT);
                items.push(Item {
                    key: (items.len() + 1).to_string(),
                    text: format!(
                        "Change **{}** (now {})",
                        ctl.label().value,
                        control_display(ctl, &v)
                    ),
                });
            }
            let math = part.math_peek.as_ref().map(|m| {
                items.push(Item {
                    key: (items.len() + 1).to_string(),
                    text: format!("Show the math: {}", m.title.value),
                });
                items.len() - 1
            });
            let cont = items.len();
            items.push(Item {
                key: (items.len() + 1).to_string(),
                text: "Continue →".into(),
            });
            scr.println("");
            let Source::Prompt(p) = &mut self.source else {
                unreachable!()
            };
            let k = p.select(&scr, "What next?", &items, last.min(cont))?;
            last = k;
            if k == cont {
                return Ok(());
            }
            if Some(k) == math {
                let m = part.math_peek.as_ref().expect("math peek");
                let ev = self.scenario_ev(cp)?;
                let mut l = vec![self.scr.rule(&self.text(Some(cp), Some(&ev), &m.title)?)];
                l.extend(self.md(&self.levelled(Some(cp), Some(&ev), &m.body)?));
                self.print(l);
                continue;
            }
            let ctl = &part.controls[k];
            let cur = inputs
                .get(&ctl.id().value)
                .cloned()
                .unwrap_or(Dynamic::UNIT);
            let Source::Prompt(p) = &mut self.source else {
                unreachable!()
            };
            let v = ask_control(p.as_mut(), &scr, ctl, &cur)?;
            inputs.insert(ctl.id().value.clone(), v.clone());
            self.set_control(part, &ctl.id().value.clone(), &v)?;
            self.show(cp, part, &inputs)?;
        }
    }

    fn reflection(&mut self, i: usize, cp: &CompiledPart, part: &Part) -> Res<()> {
        let Some(r) = &part.reflection else {
            self.advance(i + 1, 0);
            return self.save();
        };
        let pid = part.id.value.clone();
        let ev = self.scenario_ev(cp)?;
        let question = self.text(Some(cp), Some(&ev), &r.question)?;
        let items = self.choices(cp, &ev, &r.options)?;
        self.scr.println("");
        self.scr.println(&self.scr.paint(Style::Bold, "Reflection"));
        let scr = self.scr;
        let k = match &mut self.source {
            Source::Answers(a) => {
                let v = a.answer("reflection", &pid)?;
                scr.print_lines(&md::render_prefixed(&question, &scr, "? ", "  "));
                answers::choose(&scr, &items, &v, &pid, "reflection")?
            }
            Source::Prompt(p) => p.select(&scr, &question, &items, 0)?,
        };
        self.ledger.parts[&pid].reflection = Some(items[k].key.clone());
        self.advance(i + 1, 0);
        self.save()?;
        let correct = self.ledger.parts[&pid].reflection_correct.unwrap_or(false);
        let fb = r.options[k].feedback.as_ref().or(r.other_feedback.as_ref());
        self.verdict(
            correct,
            fb.map(|t| self.text(Some(cp), Some(&ev), t)).transpose()?,
        );
        Ok(())
    }

    fn synthesis(&mut self) -> Res<()> {
        let scr = self.scr;
        let n = self.lab.lab.parts.len();
        self.advance(n, 0);
        self.save()?;
        if let Some(s) = &self.lab.lab.synthesis {
            let mut l = vec![String::new(), scr.rule("Synthesis")];
            l.extend(self.section("Key takeaways", &self.leads(&s.takeaways)?, "1"));
            for c in &s.cards {
                l.push(String::new());
                l.push(scr.paint(Style::Bold, &self.text(None, None, &c.title)?));
                l.extend(self.md(&self.text(None, None, &c.body)?));
            }
            if !s.self_assessment.is_empty() {
                l.extend(self.section("Self-assessment", &self.texts(&s.self_assessment)?, "☐"));
                if let Some(note) = &s.self_assessment_note {
                    l.extend(self.md(&self.text(None, None, note)?));
                }
            }
            self.print(l);
            if let Some(d) = &s.decision_log {
                scr.println("");
                scr.println(&scr.paint(Style::Bold, "Decision log"));
                let prompt = self.text(None, None, &d.prompt)?;
                self.print(self.md(&prompt));
                let kept = self.ledger.decision_log.clone();
                let text = match &mut self.source {
                    // Written already (on the page, before the record came here): kept.
                    _ if !kept.is_empty() => {
                        ui::echo_text(&scr, &kept);
                        kept
                    }
                    Source::Answers(a) => {
                        let t = a.decision_log.clone().unwrap_or_default();
                        ui::echo_text(&scr, &t);
                        t
                    }
                    Source::Prompt(p) => {
                        let hint = d
                            .placeholder
                            .as_deref()
                            .map(|h| format!("({h})"))
                            .unwrap_or_else(|| "(one line)".into());
                        p.input(&scr, &format!("Your decision {hint}:"), &mut |_| Ok(()))?
                    }
                };
                self.ledger.decision_log = text.trim().to_string();
            }
        }
        self.ledger.position = Some("done".into());
        self.save()?;
        self.hud();
        for x in self.plain(&format!(
            "Lab complete. Your record is saved to {}",
            self.path.display()
        )) {
            scr.println(&scr.paint(Style::Dim, &x));
        }
        Ok(())
    }

    fn hud(&self) {
        let scr = &self.scr;
        let lab = &self.lab.lab;
        let mut rows: Vec<(String, String, Option<Style>)> = Vec::new();
        if let Some(h) = &lab.hud {
            if let Some(x) = &h.label {
                rows.push(("LAB".into(), x.clone(), None));
            }
            if let Some(x) = &h.chapter_label {
                rows.push(("CHAPTER".into(), x.clone(), None));
            }
        }
        for (pid, st) in &self.ledger.hud.parts {
            let style = if st == "correct" {
                Style::Green
            } else {
                Style::Orange
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
                .map(|c| eval::chart::color_name(Some(c), "blue"))
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

fn has_explore(part: &Part) -> bool {
    !part.controls.is_empty() || !part.instruments.is_empty() || part.math_peek.is_some()
}
