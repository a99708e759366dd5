//! One part of the page: the context `part.html.j2` reads ([`PartPage`]: the part's view, its
//! options' shared feedback, and its live pieces) and the part's data for the runtime
//! ([`PartData`]: translated formulas, live templates, charts, banners, outputs).

use super::chart::chart_spec;
use super::ctx::{
    InstrumentCtx, Live, LiveFeedback, LockedProse, MetricCard, OptionPage, PartPage, PartViewPage,
};
use super::data::{
    BannerData, ChoicesData, ConstData, ControlData, ControlValues, FormulaData, InOrder,
    OptionData, OutputData, PartData, PredictionData, QuestionData,
};
use super::live::{dyn_tpl, Fns, PartCx};
use crate::diag::Diagnostic;
use crate::model::*;
use crate::view::{InputView, InstrumentView, OptionView, PartView};

/// A string made safe for an element id.
pub(super) fn id_safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `t` as a live text (inline).
fn live(cx: &mut PartCx, fns: &mut Fns, t: &Text) -> Result<Live, Diagnostic> {
    live_as(cx, fns, t, true)
}

/// `t` as a live text: registered with the part's templates, and painted at the defaults.
fn live_as(cx: &mut PartCx, fns: &mut Fns, t: &Text, inline: bool) -> Result<Live, Diagnostic> {
    let (tpl, html) = cx.live(fns, t, inline)?;
    Ok(Live { tpl, html })
}

fn live_opt(cx: &mut PartCx, fns: &mut Fns, t: &Option<Text>) -> Result<Option<Live>, Diagnostic> {
    t.as_ref().map(|t| live(cx, fns, t)).transpose()
}

/// Prose reading a locked prediction (`prediction.a`, `answer`): the page recomputes it, so it
/// fills in when the student locks in. `None` for prose that reads none. `inline` for a
/// heading, a legend or a summary (no paragraphs).
fn locked_prose(
    cx: &mut PartCx,
    fns: &mut Fns,
    t: Option<&Text>,
    inline: bool,
) -> Result<Option<Live>, Diagnostic> {
    let Some(t) = t else { return Ok(None) };
    let reads = crate::eval::template::segments(&t.value).is_ok_and(|segs| {
        segs.iter().any(|s| match s {
            crate::eval::template::Segment::Expr(e, _) => cx
                .part
                .exprs
                .get(e.trim())
                .is_some_and(|ce| !crate::eval::xpart::reads(cx.part, &ce.ast).is_empty()),
            _ => false,
        })
    });
    if !reads {
        return Ok(None);
    }
    live_as(cx, fns, t, inline).map(Some)
}

/// The runtime's description of a control, without the keys it has no value for (the
/// runtime reads a missing `values`, `base`, `digits` or `unit` as none).
fn control_data(c: &crate::view::ControlView, shared: bool) -> ControlData<'_> {
    let mut d = ControlData {
        id: c.id.clone(),
        kind: c.kind,
        values: None,
        base: None,
        digits: None,
        unit: None,
        shared,
    };
    match &c.input {
        InputView::Range {
            values,
            base,
            digits,
            ..
        } => {
            d.kind = "slider";
            d.values = values.as_deref().map(ControlValues::Numbers);
            (d.base, d.digits) = (base.filter(|b| b.is_finite()), *digits);
            d.unit.clone_from(&c.unit);
        }
        InputView::Number { .. } => (d.kind, d.unit) = ("number", c.unit.clone()),
        InputView::Switch { .. } => d.kind = "switch",
        InputView::Select { choices } | InputView::Radio { choices } => {
            d.values = Some(ControlValues::Choices(
                choices.iter().map(|o| &o.value).collect(),
            ));
        }
        InputView::Checkboxes { .. } => d.kind = "checkboxes",
    }
    d
}

/// A question's options for the runtime: ids and which is correct, `correct` only on a right
/// one (the report reads an option's text from its label).
fn options_data(options: &[OptionView]) -> Vec<OptionData> {
    options
        .iter()
        .map(|o| OptionData {
            id: o.id.clone(),
            correct: o.correct == Some(true),
        })
        .collect()
}

/// A part's questions for questions.js (fields a kind does not use left out).
fn questions_data(qs: &[crate::view::PartQuestionView]) -> Vec<QuestionData> {
    let finite = |x: Option<f64>| x.filter(|x| x.is_finite());
    qs.iter()
        .map(|q| {
            let opts: Vec<(String, bool)> = q
                .options
                .iter()
                .map(|o| (o.id.clone(), o.correct.unwrap_or(false)))
                .collect();
            let n = q.numeric.as_ref();
            QuestionData {
                id: q.id.clone(),
                kind: q.kind,
                options: (!opts.is_empty()).then_some(opts),
                opinion: q.opinion.then_some(true),
                min_words: (q.min_words > 0).then_some(q.min_words),
                target: finite(n.and_then(|n| n.target)),
                tol: finite(n.and_then(|n| n.tolerance)),
                abs: finite(n.and_then(|n| n.abs_tol)),
            }
        })
        .collect()
}

/// The template context of one part and its runtime data.
pub(super) fn part<'a>(
    cx: &mut PartCx<'a>,
    fns: &mut Fns,
    model: &Part,
    pv: &'a PartView,
) -> Result<(PartPage<'a>, PartData<'a>), Diagnostic> {
    let pid = model.id.value.clone();
    let controls: Vec<ControlData<'a>> = pv
        .explore
        .controls
        .iter()
        // A lab-level control: moved here, it moves in the other parts (`shared`).
        .map(|c| control_data(c, model.lab_controls.iter().any(|w| w.value == c.id)))
        .collect();
    // Instruments: live templates and chart specs, numbered in document order.
    let mut instruments = Vec::new();
    let mut charts = Vec::new();
    for (inst, iv) in model.instruments.iter().zip(&pv.explore.instruments) {
        instruments.push(match (inst, iv) {
            (Instrument::Panel(p), InstrumentView::Panel(_)) => {
                let title = live(cx, fns, &p.title)?;
                let mut lines = Vec::new();
                for l in &p.lines {
                    lines.push(live(cx, fns, l)?);
                }
                InstrumentCtx::Panel { title, lines }
            }
            (Instrument::Metrics(cards), InstrumentView::Metrics(t)) => {
                let mut out = Vec::new();
                for card in cards {
                    let Some(row) = t.rows.iter().find(|r| r.name == card.output.value) else {
                        continue;
                    };
                    out.push(MetricCard {
                        row,
                        label_live: live_opt(cx, fns, &card.label)?,
                        caption_live: live_opt(cx, fns, &card.caption)?,
                    });
                }
                InstrumentCtx::Metrics { cards: out }
            }
            (Instrument::Table(t), InstrumentView::Table(tv)) => InstrumentCtx::Table {
                title_live: live_opt(cx, fns, &t.title)?,
                rows: &tv.rows,
            },
            (Instrument::Chart(ch), InstrumentView::Chart(c)) => {
                let index = charts.len();
                charts.push(chart_spec(cx, fns, ch)?);
                InstrumentCtx::Chart {
                    index,
                    id: &c.id,
                    title: c.title.as_deref(),
                }
            }
            _ => return Err(format!("internal: part `{pid}`: instruments out of step").into()),
        });
    }
    // Banners: conditions and texts recomputed by the runtime.
    let mut feedback = Vec::new();
    for r in &model.feedback {
        let Some((kind, text)) = r.callout() else {
            continue;
        };
        let when = fns.expr(cx.lab, Some(cx.part), &r.when.value)?;
        let t = dyn_tpl(cx.lab, Some(cx.part), fns, &text.value, true)?;
        let title = match &r.title {
            Some(x) => Some(dyn_tpl(cx.lab, Some(cx.part), fns, &x.value, true)?.tpl()),
            None => None,
        };
        feedback.push(BannerData {
            when,
            kind: kind.as_str(),
            text: t.tpl(),
            title,
        });
    }
    let mut outputs = Vec::new();
    for (name, o) in &model.outputs {
        let level = match &o.level {
            Some(x) => Some(fns.expr(cx.lab, Some(cx.part), &x.value)?),
            None => None,
        };
        // Fields an output does not use are left out (the runtime reads them as absent).
        outputs.push(OutputData {
            name: name.clone(),
            unit: o.unit.clone(),
            prefix: o.prefix.clone(),
            digits: o.digits.as_ref().map(|d| d.value),
            words: o.words.as_ref().map(|(a, b)| [a.clone(), b.clone()]),
            bands: o.bands.as_ref().map(Into::into),
            level,
            cap: o.cap.filter(|c| c.is_finite()),
        });
    }
    let pred_data = pv.prediction.as_ref().map(|p| match &p.numeric {
        Some(n) => PredictionData::Numeric {
            numeric: true,
            target: n.target.unwrap_or(f64::NAN),
            tolerance: n.tolerance,
            abs: n.abs_tol,
            bands: n.bands.iter().map(|b| (b.from, b.to)).collect(),
            options: Vec::new(),
        },
        None => PredictionData::Choice {
            numeric: false,
            options: options_data(&p.options),
        },
    });
    // Live feedback: templates the runtime recomputes at the current controls and `answer`.
    let live_fb = match &model.prediction {
        Some(pr) if pr.live => Some(live_feedback(cx, fns, pr)?),
        _ => None,
    };
    let refl_data = pv.reflection.as_ref().map(|r| ChoicesData {
        options: options_data(&r.options),
    });
    let formulas: Vec<FormulaData> = cx
        .part
        .formulas
        .iter()
        .map(|f| {
            let i = fns.add_ast((cx.part.index, format!("formula:{}", f.name)), &f.expr.ast);
            match scope_reads(&fns.bodies[i]) {
                Some(deps) => FormulaData::Cached(f.name.clone(), i, deps),
                None => FormulaData::Plain(f.name.clone(), i),
            }
        })
        .collect();
    let constants = InOrder(
        cx.part
            .constants
            .iter()
            .map(|(k, v)| (k.as_str(), ConstData::whole(v)))
            .collect(),
    );
    let requires: Vec<(String, String)> = pv
        .requires
        .iter()
        .map(|r| (r.part.clone(), r.what.clone()))
        .collect();
    // Prose reading locked predictions, live (registered before `tpls` is taken below).
    let concept_live = locked_prose(cx, fns, model.concept.as_ref(), false)?;
    let message_live = locked_prose(
        cx,
        fns,
        model.stakeholder.as_ref().map(|s| &s.message),
        false,
    )?;
    // The other texts a part shows (its explore heading, question, math peek and reflection).
    let pq = model.prediction.as_ref().map(|p| &p.question);
    let pq_inline = model
        .prediction
        .as_ref()
        .is_some_and(|p| p.numeric.is_none());
    let mp = model.math_peek.as_ref();
    let live = LockedProse {
        explore_title: locked_prose(cx, fns, model.explore_title.as_ref(), true)?,
        question: locked_prose(cx, fns, pq, pq_inline)?,
        peek_title: locked_prose(cx, fns, mp.map(|m| &m.title), true)?,
        peek_body: locked_prose(cx, fns, mp.map(|m| &m.body), false)?,
        reflection: locked_prose(
            cx,
            fns,
            model.reflection.as_ref().map(|r| &r.question),
            true,
        )?,
    };
    let data = PartData {
        id: pid.clone(),
        label: crate::model::part_label(&pid),
        requires,
        prediction: pred_data,
        answer: Some(
            cx.part
                .answer
                .as_ref()
                .map(|a| if a.is_float() { "number" } else { "text" }),
        ),
        // The part reads `prediction` (earlier parts' locked predictions, see `eval::xpart`).
        preds: cx.part.predictions.is_some()
            && cx.part.exprs.values().any(|e| {
                crate::formula::references(&e.ast)
                    .iter()
                    .any(|r| r == crate::eval::xpart::NAME)
            }),
        reflection: refl_data,
        constants,
        controls,
        formulas,
        outputs,
        tpls: std::mem::take(&mut cx.tpls),
        feedback,
        charts,
        // A part with questions: how the page grades and records them (questions.js).
        questions: (!pv.questions.is_empty()).then(|| questions_data(&pv.questions)),
        records: None,
        earlier: None,
    };
    let lock_text = pv
        .requires
        .iter()
        .map(|r| r.text.as_str())
        .collect::<Vec<_>>()
        .join(" and ");
    let ctx = PartPage {
        concept_live,
        live,
        message_live,
        part: PartViewPage::new(pv, share_feedback),
        eid: id_safe(&pid),
        lock_text,
        live_fb,
        instruments,
    };
    Ok((ctx, data))
}

/// A live prediction's feedback as live templates (`{tpl, html}`): `options` by id (an option's
/// own feedback, else the question's other feedback), and a numeric prediction's `correct`,
/// `other` and `bands`.
fn live_feedback(
    cx: &mut PartCx,
    fns: &mut Fns,
    pr: &Prediction,
) -> Result<LiveFeedback, Diagnostic> {
    let mut block = |t: Option<&Text>| -> Result<Option<Live>, Diagnostic> {
        t.map(|t| live_as(cx, fns, t, false)).transpose()
    };
    let mut options: Vec<(String, Option<Live>)> = Vec::new();
    for (i, o) in pr.options.iter().enumerate() {
        let id = crate::load::check::option_id(i, o);
        let fb = block(o.feedback.as_ref().or(pr.other_feedback.as_ref()))?;
        // Two options of one id (an error the lab check reports) keep the first's place and
        // the last's feedback, as a JSON object does.
        match options.iter_mut().find(|(k, _)| *k == id) {
            Some(slot) => slot.1 = fb,
            None => options.push((id, fb)),
        }
    }
    let (correct, other, mut bands) = match &pr.numeric {
        Some(n) => (
            block(n.correct_feedback.as_ref())?,
            block(n.other_feedback.as_ref())?,
            Vec::new(),
        ),
        None => (None, None, Vec::new()),
    };
    if let Some(n) = &pr.numeric {
        for b in &n.bands {
            bands.push(block(Some(&b.feedback))?);
        }
    }
    Ok(LiveFeedback {
        options: InOrder(options),
        correct,
        other,
        bands,
    })
}

/// The scope names a formula's translated body reads, when it is worth remembering (it loops;
/// the names cost the page's data bytes, so a formula without a loop is not) and they can be
/// told: every use of the scope
/// `S` is `S.name` or `S["name"]`. The runtime then reuses the formula's last value while
/// those names hold the same values (a drag of a slider the formula does not read), charging
/// the update the operations it cost (runtime.js `scopeFor`). Other formulas run every time.
fn scope_reads(body: &str) -> Option<Vec<String>> {
    if !["for(", "while(", "do{"].iter().any(|k| body.contains(k)) {
        return None;
    }
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out: Vec<String> = Vec::new();
    let b = body.as_bytes();
    for (at, _) in body.match_indices('S') {
        if at > 0 && (ident(b[at - 1] as char) || b[at - 1] == b'.') {
            continue;
        }
        let rest = &body[at + 1..];
        let (name, after) = if let Some(r) = rest.strip_prefix('.') {
            let n = r.split(|c: char| !ident(c)).next().unwrap_or("");
            (n, &r[n.len()..])
        } else if rest.starts_with(|c: char| ident(c)) {
            continue;
        } else if let Some(r) = rest.strip_prefix("[\"") {
            let end = r.find('"')?;
            (&r[..end], r[end + 1..].strip_prefix(']')?)
        } else {
            return None;
        };
        // A name it cannot tell, or a write to the scope: run it every time.
        let writes = after.starts_with('=') && !after.starts_with("==");
        if name.is_empty() || name.contains('\\') || writes {
            return None;
        }
        let name = name.to_string();
        if !out.contains(&name) {
            out.push(name);
        }
    }
    Some(out)
}

/// Options with the same feedback (an `other_feedback` given to every wrong option) share one
/// copy on the page: the first gets `fb_ids` (the ids, space-separated), the others `fb_dup`.
/// Only ids of letters, digits, `_` and `-` are grouped, so the list reads back exactly.
fn share_feedback(opts: &[OptionView]) -> Vec<OptionPage<'_>> {
    let safe = |id: &str| {
        !id.is_empty()
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    let mut out: Vec<OptionPage> = opts
        .iter()
        .map(|view| OptionPage {
            view,
            fb_ids: None,
            fb_dup: false,
        })
        .collect();
    for (i, o) in opts.iter().enumerate() {
        let Some(fb) = &o.feedback else { continue };
        if out[i].fb_dup || !safe(&o.id) {
            continue;
        }
        let same: Vec<usize> = (i + 1..opts.len())
            .filter(|&j| opts[j].feedback.as_ref() == Some(fb) && safe(&opts[j].id))
            .collect();
        if same.is_empty() {
            continue;
        }
        let mut ids = vec![o.id.as_str()];
        for &j in &same {
            ids.push(&opts[j].id);
            out[j].fb_dup = true;
        }
        out[i].fb_ids = Some(ids.join(" "));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_looping_formula_names_the_scope_it_reads() {
        let body = "_tick(3);let v1_n=S.n_teams;for(let v2_i of _iter(S[\"a b\"])){_tick(1);}return S.n_teams==1;";
        assert_eq!(
            super::scope_reads(body),
            Some(vec!["n_teams".to_string(), "a b".to_string()])
        );
        // No loop: not worth remembering.
        assert_eq!(super::scope_reads("_tick(2);return S.a;"), None);
        // The scope passed whole, or written: not told.
        assert_eq!(super::scope_reads("for(;;){} return f(S);"), None);
        assert_eq!(super::scope_reads("for(;;){} S.a=1;"), None);
        // Names that merely end in S are not the scope.
        assert_eq!(
            super::scope_reads("for(;;){} return _S.x+X.S+S.y;"),
            Some(vec!["y".to_string()])
        );
    }

    use super::*;

    #[test]
    fn shared_feedback_is_written_once() {
        let o = |id: &str, fb: Option<&str>| OptionView {
            id: id.into(),
            text: crate::view::Prose::from_text(id),
            correct: None,
            feedback: fb.map(crate::view::Prose::from_text),
        };
        let opts = vec![
            o("A", Some("no")),
            o("B", Some("yes")),
            o("C", Some("no")),
            o("D d", Some("no")),
            o("E", None),
        ];
        let s = share_feedback(&opts);
        assert_eq!(s[0].fb_ids.as_deref(), Some("A C"));
        assert!(s[2].fb_dup && s[2].fb_ids.is_none());
        assert!(s[1].fb_ids.is_none() && !s[1].fb_dup);
        // An id with a space keeps its own copy.
        assert!(!s[3].fb_dup && s[3].fb_ids.is_none());
        // On the page: the view's option plus what is shared.
        let j = serde_json::to_value(&s[0]).unwrap();
        let mut want = serde_json::to_value(&opts[0]).unwrap();
        want["fb_ids"] = "A C".into();
        assert_eq!(j, want);
        assert_eq!(
            serde_json::to_value(&s[1]).unwrap(),
            serde_json::to_value(&opts[1]).unwrap()
        );
    }
}
