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
mod asks;
pub mod chart;
pub mod controls;
pub mod course;
pub mod md;
mod questions;
mod sections;
mod show;
mod student;
pub mod term;
pub mod track;
pub mod ui;

use crate::diag::Diagnostic;
use crate::eval::{self, CompiledLab, CompiledPart, EvalError};
use crate::formula::to_json;
use crate::ledger::Ledger;
use crate::model::*;
use crate::store::LedgerFile as _;
use crate::view::Prose;
pub use answers::Answers;
use controls::ask_control;
pub use controls::control_display;
use indexmap::IndexMap;
use rhai::Dynamic;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use term::{Screen, Style};
use track::on_track;
use ui::{Item, Prompter, Res, Stop};

/// Options of `labforge run`.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub lab: PathBuf,
    pub ledger: Option<PathBuf>,
    pub answers: Option<PathBuf>,
    pub restart: bool,
    /// With a course folder: a course record (the page's export) to merge first.
    pub import: Option<PathBuf>,
    /// With `--import`: take imported answers that differ from the record's without asking.
    pub replace: bool,
    /// The student's track (a lab or course with tracks): set, or changed, for the course (or
    /// the lab on its own).
    pub track: Option<String>,
    /// The student's name or identifier for the report (kept for the course, or the lab).
    pub student: Option<String>,
}

/// The default ledger file: `<id>-v<version>.json` in the driver's [`crate::store::data_dir`]
/// (`<data dir>/labforge`, else `./.labforge`).
pub fn default_ledger_path(lab: &CompiledLab) -> PathBuf {
    let name = format!("{}-v{}.json", lab.lab.id.value, lab.lab.version);
    crate::store::data_dir().join(name)
}

/// `labforge run`.
pub fn run(opts: &RunOptions) -> ExitCode {
    if crate::files::is_dir(&opts.lab) {
        return course::list(
            &opts.lab,
            opts.ledger.as_deref(),
            opts.import.as_deref(),
            opts.replace,
            opts.track.as_deref(),
        );
    }
    if opts.import.is_some() {
        crate::cmd::error(format_args!("--import merges a course record: give the course folder (labforge run COURSE_DIR --import FILE)"));
        return ExitCode::FAILURE;
    }
    let Some(lab) = crate::cmd::load_or_report(&opts.lab) else {
        return ExitCode::FAILURE;
    };
    let ledger_path = opts
        .ledger
        .clone()
        .unwrap_or_else(|| default_ledger_path(&lab));
    let mut in_course = match course::for_lab(&opts.lab, &ledger_path) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let path = ledger_path;
    let answers = match &opts.answers {
        None => None,
        Some(p) => match Answers::load(p).and_then(|a| a.check_file(&lab, p).map(|()| a)) {
            Ok(a) => Some(a),
            Err(d) => {
                crate::cmd::report(&[d], None);
                return ExitCode::FAILURE;
            }
        },
    };
    crate::store::clear_stale_temps(&path);
    crate::store::clear_stale_temps(&backup_path(&path));
    let scr = Screen::detect();
    let mut source = match answers {
        Some(a) => Source::Answers(Box::new(a)),
        None if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() => {
            Source::Prompt(Box::new(ui::TtyPrompter))
        }
        None => Source::Prompt(Box::new(ui::LinePrompter::new(
            std::io::stdin().lock(),
            !std::io::stdin().is_terminal(),
        ))),
    };
    // The track (a lab with tracks): the lab is compiled for it, and the answers judged.
    let (lab, others, old) = match on_track(lab, opts, &path, &mut in_course, &mut source, &scr) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let mut lab = lab;
    let carried = course::carry(&mut lab, in_course.as_ref());
    let lab = &lab;
    let judge = |t: &str| others.get(t);
    let mut ledger = if opts.restart {
        if let Err(d) = keep_backup(&path) {
            crate::cmd::report(&[d], None);
            return ExitCode::FAILURE;
        }
        Ledger::new(lab)
    } else {
        match Ledger::load(&path) {
            Ok(None) => Ledger::new(lab),
            Ok(Some(l)) if l.lab != lab.lab.id.value || l.version != lab.lab.version => {
                crate::cmd::error(format_args!(
                    "{} holds progress for lab `{}` v{}, not `{}` v{}; pass another --ledger, or --restart to start over (the old file is kept as {})",
                    path.display(),
                    l.lab,
                    l.version,
                    lab.lab.id.value,
                    lab.lab.version,
                    backup_path(&path).display()
                ));
                return ExitCode::FAILURE;
            }
            Ok(Some(mut l)) => {
                let dropped = l.sanitize(lab);
                if !dropped.is_empty() {
                    if let Err(d) = keep_backup(&path) {
                        crate::cmd::report(&[d], None);
                        return ExitCode::FAILURE;
                    }
                    eprintln!(
                        "warning: {} holds answers this lab cannot have; they are ignored (the file as it was is kept as {}):",
                        path.display(),
                        backup_path(&path).display()
                    );
                    for d in dropped {
                        eprintln!("  - {d}");
                    }
                }
                l
            }
            Err(d) => {
                let d = d.with_hint(format!(
                    "pass --restart to start over (the old file is kept as {})",
                    backup_path(&path).display()
                ));
                crate::cmd::report(&[d], None);
                return ExitCode::FAILURE;
            }
        }
    };
    if let (Some(c), false) = (&in_course, opts.restart) {
        c.seed(lab, &mut ledger);
    }
    // Locked answers that do not say their track were given on the one the ledger was on.
    if let (Some(was), true) = (ledger.track.clone().or(old), lab.track.is_some()) {
        for a in ledger.parts.values_mut() {
            if a.prediction.is_some() && a.track.is_none() {
                a.track = Some(was.clone());
            }
        }
    }
    ledger.track = lab.track.clone();
    // The name on the report: given now, else the course record's (typed once for the
    // course), else the one this lab's record keeps.
    if let Some(s) = &opts.student {
        let ok =
            crate::record::merge::merge_student(&serde_json::json!(s), &serde_json::Value::Null);
        let Some(s) = ok.as_str() else {
            crate::cmd::error(format_args!(
                "--student takes a name or id of 1 to {} characters",
                crate::record::merge::MAX_STUDENT
            ));
            return ExitCode::FAILURE;
        };
        ledger.student = Some(s.to_string());
    } else if let Some(c) = &in_course {
        ledger.student = c.record.student.clone().or(ledger.student.take());
    }
    ledger.refresh_on(lab, &judge);
    term::install_interrupt_handler();
    // At the predictions already locked in (a resumed run): prose reading them shows them.
    let view = match crate::view::lab_with(lab, true, &locked_in(&ledger)) {
        Ok(v) => v,
        Err(e) => {
            let d = Diagnostic::from(format!("the lab failed to evaluate: {e}"));
            crate::cmd::report(&[d.in_file(&lab.source.name)], Some(&lab.source));
            return ExitCode::FAILURE;
        }
    };
    let mut s = Session {
        lab,
        others: &others,
        ledger,
        path,
        scr,
        source,
        view,
        course: in_course.take(),
        carried,
    };
    let result = s.walk();
    // Whatever happened, the last state is on disk.
    let saved = s.save();
    match (result, saved) {
        (Ok(()), Ok(())) => ExitCode::SUCCESS,
        (Ok(()) | Err(Stop::Quit), Err(Stop::Bad(e))) | (Err(Stop::Bad(e)), _) => {
            // What has no file of its own (the lab failed to evaluate) is the lab's.
            let d = if e.file.is_empty() {
                e.in_file(&lab.source.name)
            } else {
                *e
            };
            crate::cmd::report(&[d], Some(&lab.source));
            if crate::files::exists(&s.path) {
                eprintln!("progress so far is saved in {}", s.path.display());
            }
            ExitCode::FAILURE
        }
        (Err(Stop::Quit), Ok(())) => {
            say(
                s.scr.width,
                &format!(
                    "Saved to {}; run the same command again to resume.",
                    s.path.display()
                ),
            );
            ExitCode::SUCCESS
        }
        (Err(Stop::Interrupted), _) => {
            say(
                s.scr.width,
                &format!(
                    "Interrupted. Progress saved to {}; run the same command again to resume.",
                    s.path.display()
                ),
            );
            ExitCode::from(130)
        }
        (Err(Stop::Eof), _) | (Ok(()) | Err(Stop::Quit), Err(_)) => {
            say(
                s.scr.width,
                &format!(
                    "Input ended. Progress saved to {}; run the same command again to resume.",
                    s.path.display()
                ),
            );
            ExitCode::from(1)
        }
    }
}

/// A closing message on stderr after an empty line, wrapped at spaces to `width` (a path stays
/// whole on its line).
fn say(width: usize, text: &str) {
    eprintln!();
    for l in term::wrap(text, width) {
        eprintln!("{l}");
    }
}

/// Where the record at `path` is kept before it is started over or cleaned: `PATH.bak`.
fn backup_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".bak");
    PathBuf::from(p)
}

/// Copies the record at `path`, if there is one, to [`backup_path`] (atomically), so starting
/// over or dropping bad values never loses what the file held.
/// What stops it is a diagnostic of the file, with a hint.
fn keep_backup(path: &Path) -> Result<(), Diagnostic> {
    crate::files::back_up(path, &backup_path(path))
        .map_err(|d| d.with_hint("move the file away yourself, or pass another --ledger"))
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
    /// The lab compiled for the other tracks its locked answers were given on (by track id).
    others: &'a IndexMap<String, CompiledLab>,
    ledger: Ledger,
    path: PathBuf,
    scr: Screen,
    source: Source<'a>,
    /// The lab's view with its answers (the terminal reveals feedback after each answer).
    view: crate::view::LabView,
    /// The course the lab is in, and its record.
    course: Option<course::RunCourse>,
    /// The numbers read from earlier labs, as the header shows them.
    carried: Vec<crate::eval::carried::Carried>,
}

fn eval_stop(e: EvalError) -> Stop {
    Stop::bad(format!("the lab failed to evaluate: {e}"))
}

use crate::model::part_letter as letter;

impl<'a> Session<'a> {
    fn save(&mut self) -> Res<()> {
        let others = self.others;
        self.ledger.refresh_on(self.lab, &|t| others.get(t));
        term::persist(&self.path, &self.ledger).map_err(|e| {
            Stop::in_file(
                &self.path,
                format!("could not save progress: {e}"),
                "free some space or fix the folder's permissions, or pass --ledger FILE elsewhere",
            )
        })?;
        if let Some(c) = &mut self.course {
            c.save(&self.ledger).map_err(|e| {
                Stop::in_file(
                    &c.path,
                    format!("could not save the course record: {e}"),
                    "free some space or fix the folder's permissions; the lab's own progress file is saved",
                )
            })?;
        }
        Ok(())
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
                    let refl = (p.reflection.is_none() || a.reflection.is_some())
                        && crate::ledger::questions::all_answered(p, &a.questions);
                    (pred, refl)
                };
                let any_answer = self.ledger.parts.values().any(|a| {
                    a.prediction.is_some() || a.reflection.is_some() || !a.questions.is_empty()
                });
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
            let refl_done = (part.reflection.is_none() || a.reflection.is_some())
                && crate::ledger::questions::all_answered(part, &a.questions);
            let explore_done = !has_explore(part) || self.position() > (i, 1);
            if pred_done && refl_done && explore_done {
                continue;
            }
            self.gate(part)?;
            self.scr.refresh();
            self.lab.start_update();
            let cp = self.lab.part(&part.id.value).expect("compiled part");
            self.intro(&part.id.value);
            self.prediction(i, part)?;
            if !explore_done {
                self.explore(cp, part)?;
                self.advance(i, 2);
                self.save()?;
            }
            self.questions(part)?;
            self.reflection(i, part)?;
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
                return Err(Stop::bad(format!(
                    "part {} is locked until the {what} of part {} is answered",
                    letter(&part.id.value),
                    letter(pid)
                )));
            }
        }
        Ok(())
    }

    pub(super) fn inputs_of(&self, cp: &CompiledPart, part: &Part) -> IndexMap<String, Dynamic> {
        // A later part reads the earlier parts at the student's settings (`parts.a.x`).
        if !cp.reads_parts.is_empty() {
            for p in &self.lab.lab.parts[..cp.index] {
                self.lab.set_settings(&p.id.value, self.saved_settings(p));
            }
        }
        let set = self.saved_settings(part);
        let inputs = self
            .lab
            .inputs(cp, &set)
            .unwrap_or_else(|_| self.lab.inputs(cp, &IndexMap::new()).unwrap_or_default());
        // The locked-in answers, which banners and live feedback read as `answer` (the part's
        // own) and `prediction.a` (an earlier part's).
        self.lab.with_answers(cp, inputs, &self.locked())
    }

    /// Part `part`'s controls as the ledger holds them (those it can take).
    fn saved_settings(&self, part: &Part) -> IndexMap<String, Dynamic> {
        let Some(a) = self.ledger.parts.get(&part.id.value) else {
            return IndexMap::new();
        };
        let saved = &a.controls;
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
        set
    }

    /// The view again, at the predictions locked in now: later parts' prose and banners that
    /// read `prediction.a` show the answer (see `eval::xpart`).
    pub(super) fn refresh_view(&mut self) {
        if let Ok(v) = crate::view::lab_with(self.lab, true, &self.locked()) {
            self.view = v;
        }
    }

    /// Every part's locked-in prediction (part id → option id or typed number).
    pub(super) fn locked(&self) -> IndexMap<String, String> {
        locked_in(&self.ledger)
    }

    fn set_control(&mut self, part: &Part, id: &str, v: &Dynamic) -> Res<()> {
        self.ledger
            .parts
            .entry(part.id.value.clone())
            .or_default()
            .controls
            .insert(id.to_string(), to_json(v));
        // A lab-level control moves in every part that shows it.
        if part.lab_controls.iter().any(|w| w.value == id) {
            for p in &self.lab.lab.parts {
                if p.lab_controls.iter().any(|w| w.value == id) {
                    let a = self.ledger.parts.entry(p.id.value.clone()).or_default();
                    a.controls.insert(id.to_string(), to_json(v));
                }
            }
        }
        self.save()
    }

    fn explore(&mut self, cp: &CompiledPart, part: &Part) -> Res<()> {
        self.scr.refresh();
        let scr = self.scr;
        self.scr.println("");
        let title = match &self.pv(&part.id.value).explore_title {
            Some(t) => t.plain(),
            None => "Explore".into(),
        };
        self.scr.println(&self.scr.rule(&title));
        let pv = self.pv(&part.id.value);
        let labels: Vec<String> = pv
            .explore
            .controls
            .iter()
            .map(|c| c.label.plain())
            .collect();
        let math_title = pv.math_peek.as_ref().map(|m| m.title.plain());
        let mut inputs = self.inputs_of(cp, part);
        self.show(cp, &inputs)?;
        if let Source::Answers(a) = &self.source {
            let moves = a.controls.get(&part.id.value).cloned().unwrap_or_default();
            let file = a.file.clone();
            let bad = |m: String| answers::bad_in(&file, m);
            for (id, v) in moves {
                let Some(k) = part.controls.iter().position(|c| c.id().value == id) else {
                    let ids: Vec<&str> = part
                        .controls
                        .iter()
                        .map(|c| c.id().value.as_str())
                        .collect();
                    return Err(bad(format!(
                        "answers: part `{}` has no control `{id}` (controls: {})",
                        part.id.value,
                        ids.join(", ")
                    )));
                };
                let ctl = &part.controls[k];
                let val: Value = serde_json::from_value(v.clone())
                    .map_err(|e| bad(format!("answers: control `{id}`: {e}")))?;
                let d = eval::validate_control(ctl, &eval::value_to_dynamic(&val))
                    .map_err(|e| bad(format!("answers: part `{}`: {e}", part.id.value)))?;
                scr.println("");
                scr.println(&format!(
                    "Set {} = {}",
                    md::inline(&labels[k], &scr),
                    control_display(ctl, &d)
                ));
                inputs.insert(id.clone(), d.clone());
                self.set_control(part, &id, &d)?;
                self.show(cp, &inputs)?;
            }
            return Ok(());
        }
        // The highlighted entry: "Continue" at first, then the last one used.
        let mut last = usize::MAX;
        loop {
            // Each redraw at the window's size now.
            self.scr.refresh();
            let scr = self.scr;
            let mut items: Vec<Item> = Vec::new();
            for (ctl, label) in part.controls.iter().zip(&labels) {
                let v = inputs
                    .get(&ctl.id().value)
                    .cloned()
                    .unwrap_or(Dynamic::UNIT);
                items.push(Item {
                    key: (items.len() + 1).to_string(),
                    text: format!("Change **{}** (now {})", label, control_display(ctl, &v)),
                });
            }
            let math = math_title.as_ref().map(|t| {
                items.push(Item {
                    key: (items.len() + 1).to_string(),
                    text: format!("Show the math: {t}"),
                });
                items.len() - 1
            });
            let look = self.lookable(&part.id.value).map(|_| {
                items.push(Item {
                    key: (items.len() + 1).to_string(),
                    text: "Look at another answer's feedback (yours stays locked in)".into(),
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
            if Some(k) == look {
                self.look(&part.id.value)?;
                continue;
            }
            if Some(k) == math {
                let m = self
                    .pv(&part.id.value)
                    .math_peek
                    .as_ref()
                    .expect("math peek");
                let mut l = vec![self.scr.rule(&m.title.plain())];
                l.extend(self.md(&m.body.marked(&md::levelled)));
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
            self.scr.refresh();
            self.show(cp, &inputs)?;
        }
    }

    fn synthesis(&mut self) -> Res<()> {
        self.scr.refresh();
        let scr = self.scr;
        let n = self.lab.lab.parts.len();
        self.advance(n, 0);
        self.save()?;
        if let Some(s) = &self.view.synthesis {
            let mut l = vec![String::new(), scr.rule("Synthesis")];
            l.extend(self.section("Key takeaways", &Self::leads(&s.takeaways), "1"));
            for c in &s.cards {
                l.push(String::new());
                l.push(scr.paint(Style::Bold, &c.title.plain()));
                l.extend(self.md(&c.body.plain()));
            }
            if !s.self_assessment.is_empty() {
                let items: Vec<String> = s.self_assessment.iter().map(Prose::plain).collect();
                l.extend(self.section("Self-assessment", &items, "☐"));
                if let Some(note) = &s.self_assessment_note {
                    l.extend(self.md(&note.plain()));
                }
            }
            self.print(l);
            let log = s
                .decision_log
                .as_ref()
                .map(|d| (d.prompt.plain(), d.placeholder.clone()));
            if let Some((prompt, placeholder)) = log {
                scr.println("");
                scr.println(&scr.paint(Style::Bold, "Decision log"));
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
                        let hint = placeholder
                            .as_deref()
                            .map(|h| format!("({h})"))
                            .unwrap_or_else(|| "(one line)".into());
                        p.input(&scr, &format!("Your decision {hint}:"), &mut |_| Ok(()))?
                    }
                };
                self.ledger.decision_log = text.trim().to_string();
            }
        }
        self.ask_student()?;
        self.ledger.position = Some("done".into());
        self.save()?;
        self.hud();
        for x in self.plain(&format!(
            "Lab complete. Your record is saved to {}",
            self.path.display()
        )) {
            scr.println(&scr.paint(Style::Dim, &x));
        }
        // The report to hand in, beside the record: the bytes `render --to report` makes of it.
        let said = match crate::build::report::write_beside(&self.path, self.lab, &self.ledger) {
            Ok(f) => format!("Your report is written to {}", f.display()),
            Err(d) => {
                crate::cmd::report(&[d], Some(&self.lab.source));
                "Your report could not be written (the error above says why).".into()
            }
        };
        for x in self.plain(&said) {
            scr.println(&scr.paint(Style::Dim, &x));
        }
        self.show_student();
        Ok(())
    }
}

fn has_explore(part: &Part) -> bool {
    !part.controls.is_empty() || !part.instruments.is_empty() || part.math_peek.is_some()
}

/// Every part's locked-in prediction in a record (part id → option id or typed number).
fn locked_in(ledger: &crate::ledger::Ledger) -> IndexMap<String, String> {
    ledger
        .parts
        .iter()
        .filter_map(|(k, a)| Some((k.clone(), a.prediction.clone()?)))
        .collect()
}
