//! The progress record a student's run saves: the same JSON from the terminal prompt and the
//! page's export (`renderers/html/runtime.js`, `ledger()`). Written atomically (temp file, fsync,
//! rename).
//!
//! Both writers derive every field but `position` from the answers alone, the same way:
//! - `complete` is true when every prediction, reflection and question the lab asks is answered
//!   (the decision log is optional on both sides). Where the terminal's walk stands — including
//!   whether it has been through the synthesis — is `position`, which only the terminal writes.
//! - `*_correct` and the HUD follow [`prediction_correct`]; in `hud.parts` a part whose
//!   prediction is not locked in yet is `pending` (as the page's bar and the terminal show it;
//!   records written before said `review`, and still load).
//! - A numeric prediction is the number as typed, trimmed, without `,`/`_` separators
//!   ([`numeric_answer`]); never rounded for display.
//! - `controls` holds every control of every part, in the lab's order, at the position the
//!   student left it — the default where untouched (the page records them so from the moment it
//!   loads). Values are JSON as the page's `JSON.stringify` writes them: a whole number is `16`,
//!   not `16.0`. [`Ledger::refresh`] fills and normalises; entries for controls the lab does
//!   not have are dropped.
//! - A prediction is a commitment: `prediction` is the first answer locked in (a button on the
//!   page, Enter in the terminal) and never changes; `prediction_locked_at` is when (UTC,
//!   RFC 3339); `prediction_attempts` lists, in order, every other option (or number) the
//!   student looked at after locking in. The HUD, `*_correct` and both exports follow the
//!   locked answer only. Format 2 added these; records of format 1 still load.

pub mod questions;

use crate::eval::CompiledLab;
use crate::load::check::option_id;
use crate::model::*;
use indexmap::IndexMap;
use rhai::Dynamic;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// Format tag of the record.
pub const FORMAT: &str = "labforge-ledger/2";

/// Older formats this labforge still reads (upgraded on load: their fields are a subset).
pub const READS: &[&str] = &["labforge-ledger/1"];

/// A student's answers in one part.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PartAnswers {
    /// Chosen prediction option id, or the typed number as text for numeric predictions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction_correct: Option<bool>,
    /// When the prediction was locked in (UTC, RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction_locked_at: Option<String>,
    /// Other options (or numbers) looked at after locking in, in order; never a new answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prediction_attempts: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reflection: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reflection_correct: Option<bool>,
    /// Every control's position as the student left it (defaults where untouched).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub controls: IndexMap<String, serde_json::Value>,
    /// The track the part was answered on (a lab with tracks): set when its prediction is
    /// locked in (or, in a part that asks none, its reflection answered), and never changed
    /// after; its answers are judged on that track ([`Ledger::refresh_on`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub track: Option<String>,
    /// Answers to the part's `questions:`, by question id ([`questions`]).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub questions: IndexMap<String, questions::QuestionAnswer>,
}

/// The saved record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    pub format: String,
    pub lab: String,
    pub version: u32,
    pub chapter: String,
    /// The seeds' flat design record: `partA_prediction`, `partA_correct`, `partA_reflection`, ...,
    /// and the decision log under `student_justification` (or the lab's `justification_key`).
    /// Derived from the answers ([`Ledger::refresh`]): a course record's copy may leave it out.
    #[serde(default)]
    pub design: IndexMap<String, serde_json::Value>,
    pub parts: IndexMap<String, PartAnswers>,
    #[serde(default)]
    pub decision_log: String,
    /// HUD: per listed part `correct`, `review` or `pending` (not answered yet), and the tier.
    /// Derived like `design`.
    #[serde(default)]
    pub hud: HudState,
    /// Every prediction, reflection and question of the lab is answered (see the module docs).
    #[serde(default)]
    pub complete: bool,
    /// Where the terminal prompt resumes: `PART.prediction`, `PART.explore`, `PART.reflection`,
    /// `synthesis` or `done` (the furthest step reached). Absent in a fresh record and optional
    /// for other writers (the page's export); answers alone still tell what is left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The student's track, for a lab with tracks (in a course the course record keeps it too,
    /// [`crate::record::CourseRecord::track`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub track: Option<String>,
}

/// What the HUD shows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HudState {
    pub parts: IndexMap<String, String>,
    pub tier: Option<String>,
}

/// `partA` for part id `a`; `part_queue` for longer ids.
pub fn part_key(id: &str) -> String {
    if id.chars().count() == 1 {
        format!("part{}", id.to_uppercase())
    } else {
        format!("part_{id}")
    }
}

/// The record's `chapter`: the lab's `ledger.chapter`, else its `chapter`, else its id.
pub fn chapter(lab: &Lab) -> String {
    lab.ledger
        .as_ref()
        .and_then(|l| l.chapter.clone())
        .or_else(|| lab.chapter.clone())
        .unwrap_or_else(|| lab.id.value.clone())
}

/// The design record's key for the decision log: `ledger.justification_key`, else
/// `student_justification`.
pub fn justification_key(lab: &Lab) -> String {
    lab.ledger
        .as_ref()
        .and_then(|l| l.justification_key.as_ref().map(|k| k.value.clone()))
        .unwrap_or_else(|| "student_justification".into())
}

/// Now, as the ledger writes times: UTC, RFC 3339, whole seconds.
pub fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

impl Ledger {
    /// An empty record for a lab.
    pub fn new(lab: &CompiledLab) -> Ledger {
        let mut l = Ledger {
            format: FORMAT.into(),
            lab: lab.lab.id.value.clone(),
            version: lab.lab.version,
            chapter: chapter(&lab.lab),
            design: IndexMap::new(),
            parts: lab
                .lab
                .parts
                .iter()
                .map(|p| (p.id.value.clone(), PartAnswers::default()))
                .collect(),
            decision_log: String::new(),
            hud: HudState::default(),
            complete: false,
            position: None,
            track: lab.track.clone(),
        };
        l.refresh(lab);
        l
    }

    /// Recomputes correctness, completeness, the flat design record and the HUD from the
    /// answers, and writes control values as the page does.
    pub fn refresh(&mut self, lab: &CompiledLab) {
        self.refresh_on(lab, &|_| None);
    }

    /// [`Self::refresh`], judging each part answered on another track than `lab`'s (its
    /// `track`) by that track's compilation, from `on` (`None`: by `lab`).
    pub fn refresh_on<'a>(
        &mut self,
        lab: &'a CompiledLab,
        on: &dyn Fn(&str) -> Option<&'a CompiledLab>,
    ) {
        for p in &lab.lab.parts {
            let defaults = lab
                .part(&p.id.value)
                .and_then(|cp| lab.inputs(cp, &IndexMap::new()).ok())
                .unwrap_or_default();
            let a = self.parts.entry(p.id.value.clone()).or_default();
            let mut left = std::mem::take(&mut a.controls);
            for c in &p.controls {
                let id = &c.id().value;
                let v = left
                    .shift_remove(id)
                    .or_else(|| defaults.get(id).map(crate::formula::to_json));
                if let Some(mut v) = v {
                    whole_numbers(&mut v);
                    a.controls.insert(id.clone(), v);
                }
            }
            // The part as compiled for the track it was answered on.
            let judge = a
                .track
                .as_deref()
                .filter(|t| Some(*t) != lab.track.as_deref())
                .and_then(on)
                .unwrap_or(lab);
            let jp = judge
                .lab
                .parts
                .iter()
                .find(|q| q.id.value == p.id.value)
                .unwrap_or(p);
            a.prediction_correct = match (&jp.prediction, &a.prediction) {
                (Some(pred), Some(ans)) => Some(prediction_correct(judge, jp, pred, ans)),
                _ => None,
            };
            a.reflection_correct = match (&jp.reflection, &a.reflection) {
                (Some(r), Some(ans)) => Some(
                    r.options
                        .iter()
                        .enumerate()
                        .any(|(i, o)| o.correct && &option_id(i, o) == ans),
                ),
                _ => None,
            };
            // In the lab's order of questions.
            let mut qs = std::mem::take(&mut a.questions);
            for q in &jp.questions {
                if let Some(mut qa) = qs.shift_remove(&q.id.value) {
                    questions::judge(judge, jp, q, &mut qa);
                    a.questions.insert(q.id.value.clone(), qa);
                }
            }
        }
        let mut d = IndexMap::new();
        for p in &lab.lab.parts {
            let key = part_key(&p.id.value);
            let a = &self.parts[&p.id.value];
            if p.prediction.is_some() {
                d.insert(
                    format!("{key}_prediction"),
                    a.prediction
                        .clone()
                        .unwrap_or_else(|| "no_selection".into())
                        .into(),
                );
                d.insert(
                    format!("{key}_correct"),
                    a.prediction_correct.unwrap_or(false).into(),
                );
            }
            if p.reflection.is_some() {
                d.insert(
                    format!("{key}_reflection"),
                    a.reflection
                        .clone()
                        .unwrap_or_else(|| "no_selection".into())
                        .into(),
                );
            }
        }
        d.insert(
            justification_key(&lab.lab),
            self.decision_log.clone().into(),
        );
        self.design = d;
        self.hud = hud(lab, self);
        self.complete = lab.lab.parts.iter().all(|p| {
            let a = &self.parts[&p.id.value];
            (p.prediction.is_none() || a.prediction.is_some())
                && (p.reflection.is_none() || a.reflection.is_some())
                && questions::all_answered(p, &a.questions)
        });
    }

    /// Writes the record atomically ([`write_atomic`]).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut text = serde_json::to_string_pretty(self).expect("ledger serializes");
        text.push('\n');
        write_atomic(path, text.as_bytes())
    }

    /// Reads a record; `Ok(None)` when the file does not exist. A record of another format is
    /// an error (never silently rewritten as this one), and so is anything but a regular file
    /// (a symbolic link is followed) or a file over [`MAX_BYTES`]. A leading UTF-8 byte-order
    /// mark, as some editors write, is skipped.
    pub fn load(path: &Path) -> Result<Option<Ledger>, String> {
        let target = match save_target(path) {
            Ok(t) => t,
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let size = match std::fs::metadata(&target) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
            Ok(m) => m.len(),
        };
        if size > MAX_BYTES {
            return Err(format!(
                "{}: {size} bytes is too large for a progress record (at most {MAX_BYTES})",
                path.display()
            ));
        }
        let s = std::fs::read_to_string(&target).map_err(|e| format!("{}: {e}", path.display()))?;
        let s = s.strip_prefix('\u{FEFF}').unwrap_or(&s);
        let mut l: Ledger = serde_json::from_str(s)
            .map_err(|e| format!("{}: not a labforge ledger: {e}", path.display()))?;
        if READS.contains(&l.format.as_str()) {
            l.format = FORMAT.into();
        }
        if l.format != FORMAT {
            return Err(format!(
                "{}: is a `{}` record; this labforge reads `{FORMAT}` (and {})",
                path.display(),
                l.format,
                READS.join(", ")
            ));
        }
        Ok(Some(l))
    }

    /// Drops what the lab cannot have answered: a prediction or reflection that is none of its
    /// options (or, for a numeric prediction, not a finite number), a control value the control
    /// cannot take, parts and controls the lab does not have. Returns one sentence per dropped
    /// value, naming parts and controls as the student sees them; [`Self::refresh`] then puts
    /// defaults where values were dropped.
    pub fn sanitize(&mut self, lab: &CompiledLab) -> Vec<String> {
        let mut dropped = Vec::new();
        let known: Vec<&str> = lab.lab.parts.iter().map(|p| p.id.value.as_str()).collect();
        for id in self.parts.keys().cloned().collect::<Vec<_>>() {
            if !known.contains(&id.as_str()) {
                self.parts.shift_remove(&id);
                dropped.push(format!("answers for a part `{id}` the lab does not have"));
            }
        }
        for p in &lab.lab.parts {
            let Some(a) = self.parts.get_mut(&p.id.value) else {
                continue;
            };
            let part = format!("Part {}", part_letter(&p.id.value));
            let answers_it = |pred: &Prediction, ans: &str| {
                if pred.numeric.is_some() {
                    numeric_answer(ans).is_some()
                } else {
                    (0..pred.options.len()).any(|i| option_id(i, &pred.options[i]) == ans)
                }
            };
            // Looks after locking in: only answers to the question, and only once locked in.
            let looks = std::mem::take(&mut a.prediction_attempts);
            for x in looks {
                match &p.prediction {
                    Some(pred) if a.prediction.is_some() && answers_it(pred, &x) => {
                        a.prediction_attempts.push(x)
                    }
                    _ => dropped.push(format!(
                        "{part}: a look at `{x}` that is not an answer to its prediction"
                    )),
                }
            }
            if let (Some(ans), Some(pred)) = (&a.prediction, &p.prediction) {
                let ok = answers_it(pred, ans);
                if !ok {
                    dropped.push(format!(
                        "{part}: the prediction `{ans}` is not an answer to it"
                    ));
                    a.prediction = None;
                    a.prediction_locked_at = None;
                    a.prediction_attempts.clear();
                }
            } else if let (Some(ans), None) = (&a.prediction, &p.prediction) {
                dropped.push(format!(
                    "{part}: a prediction `{ans}` for a part that asks none"
                ));
                a.prediction = None;
            }
            if let Some(ans) = &a.reflection {
                let ok = p.reflection.as_ref().is_some_and(|r| {
                    (0..r.options.len()).any(|i| option_id(i, &r.options[i]) == *ans)
                });
                if !ok {
                    dropped.push(format!(
                        "{part}: the reflection `{ans}` is not an answer to it"
                    ));
                    a.reflection = None;
                }
            }
            questions::sanitize(p, &part, &mut a.questions, &mut dropped);
            for (id, v) in std::mem::take(&mut a.controls) {
                let ctl = p.controls.iter().find(|c| c.id().value == id);
                let valid = ctl.and_then(|c| {
                    let val = serde_json::from_value::<Value>(v.clone()).ok()?;
                    crate::eval::validate_control(c, &crate::eval::value_to_dynamic(&val)).ok()
                });
                match (ctl, valid) {
                    (Some(_), Some(_)) => {
                        a.controls.insert(id, v);
                    }
                    (Some(c), None) => dropped.push(format!(
                        "{part}: `{v}` is not a setting of “{}”; it is back at its default",
                        c.label().value
                    )),
                    (None, _) => {
                        dropped.push(format!("{part}: a control `{id}` the part does not have"))
                    }
                }
            }
        }
        dropped
    }
}

/// The largest progress record read (a real one is a few kilobytes).
pub const MAX_BYTES: u64 = 4 * 1024 * 1024;

/// The directory a file is in (`.` for a bare name) and its name (for temporary files).
fn dir_and_name(path: &Path) -> (&Path, &str) {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("ledger.json");
    (dir, name)
}

/// Where a save of `path` really goes: `path` itself when it is a regular file or does not exist
/// yet; the file a symbolic link names (followed deliberately, link by link, so the link stays
/// and its target is replaced); an error for anything else — a directory, a device such as
/// `/dev/full`, a FIFO or a socket is never replaced by a record.
pub fn save_target(path: &Path) -> std::io::Result<std::path::PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(p),
            Err(e) => return Err(e),
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) => dir.join(to),
                    None => to,
                };
            }
            Ok(m) if m.is_file() => return Ok(p),
            Ok(_) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!(
                        "{} is not a regular file; a record is only written to a regular file",
                        p.display()
                    ),
                ))
            }
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("{}: too many levels of symbolic links", path.display()),
    ))
}

/// Writes `bytes` to `path` so that a reader (or a crash) sees the old file or the new one,
/// never a part: a temporary `.NAME.PID.tmp` in the same directory, held under an exclusive
/// lock while it exists, fsync, rename, fsync of the directory. Creates the directory. A
/// symbolic link is followed and its target replaced; a path that is neither a regular file nor
/// absent is refused ([`save_target`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target = save_target(path)?;
    let path = target.as_path();
    let (dir, name) = dir_and_name(path);
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    // A cleaner ([`clear_stale_temps`]) may remove the temporary between its creation and our
    // lock: the rename then finds nothing, and the write is done again.
    let mut tries = 0;
    let written = loop {
        tries += 1;
        let r = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.lock()?;
            f.write_all(bytes)?;
            f.sync_all()?;
            // The lock goes with `f`, after the rename.
            std::fs::rename(&tmp, path)
        })();
        match r {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && tries < 3 => continue,
            r => break r,
        }
    };
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Removes temporary files left by saves of processes that were killed (`.NAME.PID.tmp` beside
/// the ledger that no save holds locked: the operating system drops a killed process's locks).
/// A save in progress elsewhere holds its lock and is left alone.
pub fn clear_stale_temps(path: &Path) {
    // Saves write beside the file a symbolic link names: look there.
    let target = save_target(path).unwrap_or_else(|_| path.to_path_buf());
    let (dir, name) = dir_and_name(&target);
    let prefix = format!(".{name}.");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let f = e.file_name();
        let ours = f
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|r| r.strip_suffix(".tmp"))
            .is_some_and(|p| p.parse::<u32>().is_ok());
        if !ours {
            continue;
        }
        let unlocked = std::fs::OpenOptions::new()
            .write(true)
            .open(e.path())
            .is_ok_and(|h| h.try_lock().is_ok());
        if unlocked {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// A typed numeric prediction as recorded: trimmed, `,` and `_` separators removed; `None`
/// unless it is a finite number (`NaN`, `inf`, `1e400` are not estimates).
pub fn numeric_answer(typed: &str) -> Option<String> {
    let t: String = typed
        .trim()
        .chars()
        .filter(|c| *c != ',' && *c != '_')
        .collect();
    t.parse::<f64>().ok().filter(|x| x.is_finite()).map(|_| t)
}

/// `16.0` -> `16`, in place and nested: JSON numbers as JavaScript writes them.
pub(crate) fn whole_numbers(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Number(n) => {
            if let Some(x) = n.as_f64().filter(|_| n.is_f64()) {
                if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
                    *v = serde_json::Value::from(x as i64);
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(whole_numbers),
        serde_json::Value::Object(m) => m.values_mut().for_each(whole_numbers),
        _ => {}
    }
}

/// Is `answer` right for `pred`? Options by id; numeric answers within the tolerance of the
/// output at the prediction's scenario.
pub fn prediction_correct(lab: &CompiledLab, part: &Part, pred: &Prediction, answer: &str) -> bool {
    if let Some(n) = &pred.numeric {
        let Some(x) = numeric_answer(answer).and_then(|a| a.parse::<f64>().ok()) else {
            return false;
        };
        let Some(cp) = lab.part(&part.id.value) else {
            return false;
        };
        let Ok(ev) = lab.evaluate(cp, &lab.scenario(cp)) else {
            return false;
        };
        let Some(want) = ev
            .values
            .get(&n.output.value)
            .and_then(crate::formula::as_number)
        else {
            return false;
        };
        return n.accepts(x, want);
    }
    pred.options
        .iter()
        .enumerate()
        .any(|(i, o)| o.correct && option_id(i, o) == answer)
}

/// The HUD for the answers so far.
pub fn hud(lab: &CompiledLab, ledger: &Ledger) -> HudState {
    let Some(h) = &lab.lab.hud else {
        return HudState::default();
    };
    let mut correct = rhai::Map::new();
    let mut count = 0.0;
    let mut parts = IndexMap::new();
    for p in &h.parts {
        let answer = ledger.parts.get(&p.value);
        let ok = answer.and_then(|a| a.prediction_correct).unwrap_or(false);
        if ok {
            count += 1.0;
        }
        correct.insert(p.value.as_str().into(), Dynamic::from_bool(ok));
        let state = match answer.and_then(|a| a.prediction.as_ref()) {
            None => "pending",
            Some(_) if ok => "correct",
            Some(_) => "review",
        };
        parts.insert(p.value.clone(), state.to_string());
    }
    let extra = [
        ("correct", Dynamic::from_map(correct)),
        ("correct_count", Dynamic::from_float(count)),
    ];
    // No standing before any listed prediction is answered (it would read "Developing" to a
    // student who has not started).
    let started = h.parts.iter().any(|p| {
        ledger
            .parts
            .get(&p.value)
            .is_some_and(|a| a.prediction.is_some())
    });
    let tier = h
        .tiers
        .iter()
        .filter(|_| started)
        .find(|t| match &t.when {
            None => true,
            Some(w) => lab
                .eval_expr(None, None, &w.value, &extra)
                .ok()
                .and_then(|v| v.as_bool().ok())
                .unwrap_or(false),
        })
        .map(|t| t.name.clone());
    HudState { parts, tier }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn atomic_writes_replace_whole_files_and_leave_no_temporaries() {
        let dir = std::env::temp_dir().join(format!("labforge-atomic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let f = dir.join("sub/l.json");
        write_atomic(&f, b"one").unwrap();
        write_atomic(&f, b"two").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"two");
        assert_eq!(names(&dir.join("sub")), ["l.json"]);
        // A target that cannot be replaced (a directory): an error, and no temporary left.
        std::fs::create_dir_all(dir.join("sub/d.json/x")).unwrap();
        assert!(write_atomic(&dir.join("sub/d.json"), b"x").is_err());
        assert_eq!(names(&dir.join("sub")), ["d.json", "l.json"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_unlocked_temporaries_are_cleared() {
        let dir = std::env::temp_dir().join(format!("labforge-stale-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("l.json");
        std::fs::write(&f, b"{}").unwrap();
        // A save in progress (locked), a killed one (unlocked), and a file that is not ours.
        let busy = std::fs::File::create(dir.join(".l.json.1.tmp")).unwrap();
        busy.lock().unwrap();
        std::fs::write(dir.join(".l.json.2.tmp"), b"half").unwrap();
        std::fs::write(dir.join(".other.json.3.tmp"), b"x").unwrap();
        clear_stale_temps(&f);
        assert_eq!(
            names(&dir),
            [".l.json.1.tmp", ".other.json.3.tmp", "l.json"]
        );
        drop(busy);
        clear_stale_temps(&f);
        assert_eq!(names(&dir), [".other.json.3.tmp", "l.json"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn numeric_answers_are_finite_numbers_as_typed() {
        assert_eq!(numeric_answer(" 1,234.50 ").as_deref(), Some("1234.50"));
        assert_eq!(numeric_answer("1_000").as_deref(), Some("1000"));
        for bad in ["", "NaN", "inf", "-infinity", "1e400", "12abc", ","] {
            assert_eq!(numeric_answer(bad), None, "{bad}");
        }
    }

    #[test]
    fn whole_floats_become_integers_as_in_javascript() {
        let mut v = serde_json::json!({"a": 16.0, "b": [0.5, -0.0, 3.0], "c": true});
        whole_numbers(&mut v);
        assert_eq!(v.to_string(), r#"{"a":16,"b":[0.5,0,3],"c":true}"#);
    }
}
