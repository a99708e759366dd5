//! Structural checks of a part's `questions:` (see `model::question`): one kind each, the
//! fields that kind takes, ids unique in the part, a right answer where one is graded, gates
//! on this part's prediction or earlier questions.

use super::check::{is_identifier, option_ids_unique};
use crate::diag::{did_you_mean, Diagnostic};
use crate::model::*;

/// Appends the problems of `part`'s questions to `out`.
pub(super) fn check(out: &mut Vec<Diagnostic>, file: &str, part: &Part) {
    let mut err = |pos: Pos, msg: String, hint: &str| {
        out.push(Diagnostic::error(file, pos, msg).with_hint(hint));
    };
    let mut seen: Vec<&str> = Vec::new();
    for q in &part.questions {
        let id = &q.id;
        if !is_identifier(&id.value) {
            err(
                id.pos,
                format!("question id `{}` is not a valid identifier", id.value),
                "use letters, digits and `_`, e.g. `binding_term`",
            );
        } else if seen.contains(&id.value.as_str()) || id.value == "prediction" {
            err(
                id.pos,
                format!(
                    "question id `{}` is used twice in part `{}`",
                    id.value, part.id.value
                ),
                "give every question of the part its own id (a question without one is `q1`, `q2`, ... by position)",
            );
        }
        for r in &q.spec.requires {
            if r.value == "prediction" {
                if part.prediction.is_none() {
                    err(
                        r.pos,
                        format!("part `{}` has no prediction to wait for", part.id.value),
                        "remove the gate, or name an earlier question of the part",
                    );
                }
            } else if !seen.contains(&r.value.as_str()) {
                let later = part.questions.iter().any(|o| o.id.value == r.value);
                let hint = if later {
                    "a question can only wait for the prediction or a question before it"
                        .to_string()
                } else {
                    did_you_mean(&r.value, seen.iter().copied()).unwrap_or_else(|| {
                        let mut names = vec!["prediction"];
                        names.extend(seen.iter().copied());
                        format!("a question waits for: {}", names.join(", "))
                    })
                };
                err(
                    r.pos,
                    format!(
                        "`requires` names `{}`, which is no earlier question of part `{}`",
                        r.value, part.id.value
                    ),
                    &hint,
                );
            }
        }
        seen.push(&id.value);
        let kinds = q.kinds();
        match kinds.as_slice() {
            [] => {
                err(
                    q.pos,
                    format!("question `{}` asks nothing", id.value),
                    "give it one of `choice:`, `select_all:`, `numeric:` or `text:` with its prompt",
                );
                continue;
            }
            [_, second, ..] => err(
                second.1.pos,
                format!(
                    "question `{}` is both `{}` and `{}`",
                    id.value,
                    kinds[0].0.key(),
                    second.0.key()
                ),
                "a question has one kind: split it in two questions",
            ),
            [_] => {}
        }
        kind_fields(&mut err, q);
    }
    for q in &part.questions {
        option_ids_unique(out, file, &q.spec.options);
        unproven_claims(out, file, q);
    }
}

/// A choice or select-all whose options' claims nothing proves (issue 25): they name no
/// `claim:` output, or a choice names one while leaving its key to no one (some options claim,
/// not all, and none is marked correct: an opinion, whose claims are never checked). Warnings,
/// so that a lab written before claims picked a question's key keeps loading.
fn unproven_claims(out: &mut Vec<Diagnostic>, file: &str, q: &PartQuestion) {
    let s = &q.spec;
    let name = &q.id.value;
    let Some(first) = s.options.iter().find_map(|o| o.claim.as_ref()) else {
        return;
    };
    if !matches!(q.kind(), QuestionKind::Choice | QuestionKind::SelectAll) {
        return;
    }
    let (message, hint) = if s.claim.is_none() {
        (
            format!("the options of question `{name}` make claims, but it names no `claim:` output, so `check` cannot prove them"),
            if q.is_opinion() {
                "add `claim: OUTPUT` to the question (its claims then pick its key), or remove them for an opinion question"
            } else {
                "add `claim: OUTPUT` to the question, the output its options' claims are about"
            },
        )
    } else if q.is_opinion() {
        (
            format!("question `{name}` names a `claim:` output, but not every option claims and none is marked correct, so it is an opinion (never graded) whose claims are never checked"),
            "give every option a claim (the claims then pick the key), mark the right option `correct: true`, or remove the claims for an opinion question",
        )
    } else {
        return;
    };
    out.push(Diagnostic::warning(file, first.pos, message).with_hint(hint));
}

/// The fields `q`'s kind takes, and its right answer.
fn kind_fields(err: &mut impl FnMut(Pos, String, &str), q: &PartQuestion) {
    let s = &q.spec;
    let kind = q.kind();
    let name = &q.id.value;
    let not_for = |field: &str| format!("question `{name}` ({}) has no `{field}`", kind.key());
    if let Some(c) = &s.correct {
        let hint = match kind {
            QuestionKind::Text => "a written answer is never graded right or wrong: give a model answer for the key with `answer:`, and `min_words:` for its length",
            QuestionKind::Numeric => "a numeric question is graded against `output:` with `tolerance:`",
            _ => "mark the right options with `correct: true` on each",
        };
        err(c.pos, not_for("correct"), hint);
    }
    let choosy = matches!(kind, QuestionKind::Choice | QuestionKind::SelectAll);
    if !choosy {
        if let Some(o) = s.options.first() {
            err(
                o.text.pos,
                not_for("options"),
                "options belong to `choice:` and `select_all:` questions",
            );
        }
    }
    if kind != QuestionKind::Text {
        for (f, p) in [
            ("placeholder", s.placeholder.as_ref().map(|x| x.pos)),
            ("min_words", s.min_words.as_ref().map(|x| x.pos)),
        ] {
            if let Some(p) = p {
                err(
                    p,
                    not_for(f),
                    "placeholder and min_words belong to `text:` questions",
                );
            }
        }
    }
    if kind != QuestionKind::Numeric {
        let numeric = [
            ("output", s.output.as_ref().map(|x| x.pos)),
            ("tolerance", s.tolerance.as_ref().map(|x| x.pos)),
            ("abs_tol", s.abs_tol.as_ref().map(|x| x.pos)),
            ("min", s.min.as_ref().map(|x| x.pos)),
            ("max", s.max.as_ref().map(|x| x.pos)),
        ];
        for (f, p) in numeric {
            if let Some(p) = p {
                err(
                    p,
                    not_for(f),
                    "output, tolerance, abs_tol, min and max belong to `numeric:` questions",
                );
            }
        }
    }
    let prompt = q.prompt();
    match kind {
        QuestionKind::Choice | QuestionKind::SelectAll if s.options.is_empty() => err(
            prompt.pos,
            format!("question `{name}` has no options"),
            "add `options:` (each `{ text: ... }`, the right ones `correct: true`)",
        ),
        QuestionKind::Choice => {
            let n = s.options.iter().filter(|o| o.correct).count();
            if n > 1 {
                err(
                    prompt.pos,
                    format!("choice question `{name}` has {n} correct options"),
                    "mark one option `correct: true` (none for an opinion question), or ask `select_all:` instead",
                );
            }
        }
        QuestionKind::SelectAll => {
            if s.options.iter().all(|o| !o.correct && o.tracked.is_empty()) {
                err(
                    prompt.pos,
                    format!("select-all question `{name}` has no correct set"),
                    "mark every right option `correct: true` (a question without a right answer is a `choice:` with no correct option)",
                );
            }
        }
        QuestionKind::Numeric => {
            if s.output.is_none() {
                err(
                    prompt.pos,
                    format!("numeric question `{name}` names no `output`"),
                    "add `output: NAME`, the formula the answer is graded against",
                );
            }
            for t in [&s.tolerance, &s.abs_tol].into_iter().flatten() {
                if t.value < 0.0 || !t.value.is_finite() {
                    err(
                        t.pos,
                        format!("a tolerance must be a number >= 0, not {}", t.value),
                        "`tolerance: 0.1` accepts answers within ±10%",
                    );
                }
            }
            if let (Some(_), Some(a)) = (&s.tolerance, &s.abs_tol) {
                err(
                    a.pos,
                    "give a relative `tolerance` or an absolute `abs_tol`, not both".into(),
                    "keep the one that says what is close enough",
                );
            }
            if let (Some(l), Some(h)) = (&s.min, &s.max) {
                if l.value >= h.value {
                    err(
                        h.pos,
                        format!("`max` ({}) must be above `min` ({})", h.value, l.value),
                        "swap them",
                    );
                }
            }
        }
        QuestionKind::Text => {
            if let Some(m) = &s.min_words {
                if m.value > 2_000 {
                    err(
                        m.pos,
                        format!("`min_words: {}` is more than a page", m.value),
                        "ask for at most 2000 words",
                    );
                }
            }
        }
    }
}
