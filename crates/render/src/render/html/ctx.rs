//! The template contexts of the page: what `page.html.j2`, `part.html.j2` (with the
//! `instrument`, `control`, `lock`, `questions` and `value-row` templates it includes),
//! `carried.html.j2` and `index.html.j2` read. [`data`](super::data) is what the page's
//! scripts read; these are what its markup is written from: the view's values, borrowed, plus
//! their HTML and the page's live pieces (`{tpl, html}`: a live template's number and its
//! first paint).
//!
//! Built by `html.rs` (the page, the lab list), `part.rs` (a part), `tracks.rs` and
//! `carried.rs`; `course.rs` hands over its own. Each struct's fields are the keys its
//! template reads, declared in the order the page has always written them. A `none` a
//! template tests (`is not none`, `{% if %}`) is an `Option` that is not skipped.
//!
//! A part's view reaches `part.html.j2` as [`PartViewPage`]: the [`PartView`] borrowed field by
//! field (destructured whole, so a field added to the view fails to compile here until it is
//! added), with its prediction's and reflection's options as [`OptionPage`], the view's option
//! plus how it shares its feedback on the page (`fb_ids`, `fb_dup`; `part::share_feedback`).
//!
//! The contexts reach minijinja as their JSON (`html::render_template`, as they always have),
//! so a number that is not finite reads as `none`, and a test of the page can compare a
//! context with the view's own serialisation.

use crate::view::{
    Badge, ExploreView, Lead, MathPeekView, NumericView, OptionView, PartQuestionView, PartView,
    PredictionView, Prose, QuestionView, Requirement, Row, Setting, StakeholderView,
};
use serde::Serialize;

use super::data::{is_false, InOrder};
use super::live::spans_html;

/// A live text: the runtime's template number (`data-tpl`) and its first paint.
#[derive(Serialize)]
pub(super) struct Live {
    pub tpl: usize,
    pub html: String,
}

/// A badge of the header (`lab.badges`, an index entry's `badges`).
#[derive(Serialize)]
pub(super) struct BadgeCtx {
    pub html: String,
    /// `info`, `success`, `warn` or `danger`.
    pub kind: &'static str,
}

impl BadgeCtx {
    pub fn of(b: &Badge) -> Self {
        BadgeCtx {
            html: spans_html(&b.text.0, true),
            kind: b.kind,
        }
    }
}

/// An objective or takeaway: its bold lead and text as inline HTML (`""`: none).
#[derive(Serialize)]
pub(super) struct LeadCtx {
    pub title_html: String,
    pub text_html: String,
}

impl LeadCtx {
    pub fn of(o: &Lead) -> Self {
        LeadCtx {
            title_html: spans_html(&o.title.0, true),
            text_html: o
                .text
                .as_ref()
                .map(|t| spans_html(&t.0, true))
                .unwrap_or_default(),
        }
    }
}

/// `index.html.j2`: the lab list of a folder rendered without a course.
#[derive(Serialize)]
pub(super) struct IndexCtx<'a> {
    pub labs: Vec<IndexLab>,
    pub style: &'a str,
    pub csp: &'static str,
}

#[derive(Serialize)]
pub(super) struct IndexLab {
    pub href: String,
    pub title_html: String,
    pub topic: String,
    pub duration: String,
    pub badges: Vec<BadgeCtx>,
    pub objectives: Vec<LeadCtx>,
    /// How many parts.
    pub parts: usize,
}

/// `page.html.j2`: one lab page.
#[derive(Serialize)]
pub(super) struct PageCtx<'a> {
    pub lang: &'static str,
    /// The `<title>`: the lab's title without markup.
    pub title: String,
    pub csp: String,
    pub style: String,
    pub lab: LabCtx<'a>,
    pub parts: Vec<PartTab<'a>>,
    /// `none` without a `synthesis:`.
    pub synthesis: Option<SynthesisCtx>,
    pub hud: HudCtx<'a>,
    /// The page data ([`super::data::PageData`]) as script-safe JSON.
    pub data_json: String,
    /// `scripts` packed for boot.js.
    pub packed: String,
    /// The page's scripts in order (for an instructor's own `page.html.j2` that writes them
    /// out; ours carries them packed).
    pub scripts: &'a [String],
    pub boot_script: String,
    pub head_script: String,
    pub tabs_script: String,
    /// In a course: `course.rs`'s navigation context.
    pub course: Option<&'a super::course::PageCtx<'a>>,
    /// A lab with tracks: [`TrackCtx`].
    pub track: Option<&'a TrackCtx>,
    /// Earlier decisions shown under the header (`earlier.html.j2`).
    pub earlier: &'a [super::course::Earlier<'a>],
    /// Numbers carried from earlier labs (`carried.html.j2`); `none` when the lab reads none.
    pub carried: Option<Vec<CarriedRow<'a>>>,
}

/// `lab`: the header. Texts the lab leaves out are `""`.
#[derive(Serialize)]
pub(super) struct LabCtx<'a> {
    pub id: &'a str,
    pub version: u32,
    pub topic: &'a str,
    pub volume: Option<u32>,
    pub number: Option<u32>,
    pub title_html: String,
    pub subtitle_html: String,
    pub badges: Vec<BadgeCtx>,
    pub duration: &'a str,
    pub breakdown: &'a str,
    pub objectives: Vec<LeadCtx>,
    /// Each as inline HTML.
    pub prerequisites: Vec<String>,
    pub core_question_html: String,
    pub reading_html: String,
}

/// A part as the page's tabs and sections show it; `html` is its rendered `part.html.j2`.
#[derive(Serialize)]
pub(super) struct PartTab<'a> {
    pub id: &'a str,
    pub title_html: String,
    pub label: &'a str,
    pub html: String,
    /// It waits for another part (`requires:`).
    pub locked: bool,
    /// Earlier decisions shown above it (`course.rs`).
    pub earlier: Vec<&'a super::course::Earlier<'a>>,
}

/// `synthesis`.
#[derive(Serialize)]
pub(super) struct SynthesisCtx {
    pub takeaways: Vec<LeadCtx>,
    pub cards: Vec<CardCtx>,
    /// Each as inline HTML.
    pub self_assessment: Vec<String>,
    pub self_assessment_note_html: String,
    pub decision_log: Option<DecisionLogCtx>,
}

#[derive(Serialize)]
pub(super) struct CardCtx {
    pub title_html: String,
    pub body_html: String,
    /// ` color-NAME`, or `""`.
    pub color: String,
}

#[derive(Serialize)]
pub(super) struct DecisionLogCtx {
    pub prompt_html: String,
    pub placeholder: String,
}

/// `hud`: the progress bar. Texts it leaves out are `""`.
#[derive(Serialize)]
pub(super) struct HudCtx<'a> {
    pub label: String,
    pub chapter_label: String,
    pub parts: Vec<HudPart<'a>>,
    /// A standing only with tiers: without them the HUD shows the parts alone.
    pub has_tiers: bool,
}

#[derive(Serialize)]
pub(super) struct HudPart<'a> {
    pub id: &'a str,
    /// `Part A`.
    pub label: String,
}

impl<'a> HudPart<'a> {
    pub fn of(id: &'a str) -> Self {
        HudPart {
            id,
            label: crate::model::part_label(id),
        }
    }
}

/// `track` (a lab with tracks): this page's track, the others to link to, and every track for
/// the picker (both empty on a page rendered alone).
#[derive(Serialize)]
pub(super) struct TrackCtx {
    pub now: TrackLink,
    pub others: Vec<TrackLink>,
    pub pick: Vec<TrackLink>,
}

/// A track: its label and icon as text (`""`: none), its summary as inline HTML, its page.
#[derive(Serialize)]
pub(super) struct TrackLink {
    pub id: String,
    pub label: String,
    pub icon: String,
    pub summary_html: String,
    pub href: String,
}

/// A number carried from an earlier lab, at its default, and where it comes from in words.
#[derive(Serialize)]
pub(super) struct CarriedRow<'a> {
    pub name: &'a str,
    pub label: &'a str,
    pub unit: Option<&'a str>,
    pub value: String,
    pub how: String,
}

/// `part.html.j2`: one part.
#[derive(Serialize)]
pub(super) struct PartPage<'a> {
    /// The concept, when it reads a locked prediction (recomputed when one is locked in).
    pub concept_live: Option<Live>,
    pub live: LockedProse,
    /// The stakeholder's message, likewise.
    pub message_live: Option<Live>,
    pub part: PartViewPage<'a>,
    /// The part's id made safe for element ids.
    pub eid: String,
    /// What it waits for, in words (`Part A's prediction and …`).
    pub lock_text: String,
    /// A live prediction's feedback (`live: true`).
    pub live_fb: Option<LiveFeedback>,
    pub instruments: Vec<InstrumentCtx<'a>>,
}

/// The other texts of a part that read a locked prediction, live (`none`: it reads none).
#[derive(Serialize)]
pub(super) struct LockedProse {
    pub explore_title: Option<Live>,
    pub question: Option<Live>,
    pub peek_title: Option<Live>,
    pub peek_body: Option<Live>,
    pub reflection: Option<Live>,
}

/// A live prediction's feedback: `options` by id (an option's own feedback, else the
/// question's other feedback), and a numeric prediction's `correct`, `other` and `bands`.
#[derive(Serialize)]
pub(super) struct LiveFeedback {
    pub options: InOrder<Option<Live>>,
    pub correct: Option<Live>,
    pub other: Option<Live>,
    pub bands: Vec<Option<Live>>,
}

/// An instrument: the view's, with the page's live pieces (`instrument.html.j2`).
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub(super) enum InstrumentCtx<'a> {
    Panel {
        title: Live,
        lines: Vec<Live>,
    },
    Metrics {
        cards: Vec<MetricCard<'a>>,
    },
    Table {
        title_live: Option<Live>,
        rows: &'a [Row],
    },
    /// Drawn by charts.js: its number among the part's charts.
    Chart {
        index: usize,
        id: &'a str,
        title: Option<&'a str>,
    },
}

/// A metric card: its output's row, and its label and caption live.
#[derive(Serialize)]
pub(super) struct MetricCard<'a> {
    #[serde(flatten)]
    pub row: &'a Row,
    pub label_live: Option<Live>,
    pub caption_live: Option<Live>,
}

/// A [`PartView`] as `part.html.j2` reads it (`part`): the view's fields, serialised as the
/// view serialises them, its prediction's and reflection's options as [`OptionPage`].
#[derive(Serialize)]
pub(super) struct PartViewPage<'a> {
    pub id: &'a str,
    pub letter: &'a str,
    pub label: &'a str,
    pub number: usize,
    pub title: &'a Prose,
    pub duration: Option<&'a str>,
    pub requires: &'a [Requirement],
    pub stakeholder: Option<&'a StakeholderView>,
    pub concept: Option<&'a Prose>,
    pub prediction: Option<PredictionPage<'a>>,
    pub explore_title: Option<&'a Prose>,
    #[serde(flatten)]
    pub explore: &'a ExploreView,
    pub math_peek: Option<&'a MathPeekView>,
    pub reflection: Option<QuestionPage<'a>>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub questions: &'a [PartQuestionView],
    pub more: bool,
}

/// A [`PredictionView`] with its options as [`OptionPage`].
#[derive(Serialize)]
pub(super) struct PredictionPage<'a> {
    pub question: &'a Prose,
    pub live: bool,
    pub lock_text: Option<&'a Prose>,
    pub scenario: &'a [Setting],
    pub options: Vec<OptionPage<'a>>,
    pub numeric: Option<&'a NumericView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_feedback: Option<&'a Prose>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worked: Option<&'a Row>,
}

/// A [`QuestionView`] (a reflection) with its options as [`OptionPage`].
#[derive(Serialize)]
pub(super) struct QuestionPage<'a> {
    pub question: &'a Prose,
    pub options: Vec<OptionPage<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_feedback: Option<&'a Prose>,
}

/// An option and how the page writes its feedback: options with the same feedback share one
/// copy, the first holding `fb_ids` (their ids, space-separated), the others `fb_dup`.
#[derive(Serialize)]
pub(super) struct OptionPage<'a> {
    #[serde(flatten)]
    pub view: &'a OptionView,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fb_ids: Option<String>,
    #[serde(skip_serializing_if = "is_false")]
    pub fb_dup: bool,
}

impl<'a> PartViewPage<'a> {
    /// The view `pv`, with its options' feedback shared by `share` (see [`OptionPage`]).
    pub fn new(pv: &'a PartView, share: impl Fn(&'a [OptionView]) -> Vec<OptionPage<'a>>) -> Self {
        // Whole, so that a field the view gains is a compile error here.
        let PartView {
            id,
            letter,
            label,
            number,
            title,
            duration,
            requires,
            stakeholder,
            concept,
            prediction,
            explore_title,
            explore,
            math_peek,
            reflection,
            questions,
            more,
        } = pv;
        PartViewPage {
            id,
            letter,
            label,
            number: *number,
            title,
            duration: duration.as_deref(),
            requires,
            stakeholder: stakeholder.as_ref(),
            concept: concept.as_ref(),
            prediction: prediction.as_ref().map(|p| {
                let PredictionView {
                    question,
                    live,
                    lock_text,
                    scenario,
                    options,
                    numeric,
                    other_feedback,
                    worked,
                } = p;
                PredictionPage {
                    question,
                    live: *live,
                    lock_text: lock_text.as_ref(),
                    scenario,
                    options: share(options),
                    numeric: numeric.as_ref(),
                    other_feedback: other_feedback.as_ref(),
                    worked: worked.as_ref(),
                }
            }),
            explore_title: explore_title.as_ref(),
            explore,
            math_peek: math_peek.as_ref(),
            reflection: reflection.as_ref().map(|r| {
                let QuestionView {
                    question,
                    options,
                    other_feedback,
                } = r;
                QuestionPage {
                    question,
                    options: share(options),
                    other_feedback: other_feedback.as_ref(),
                }
            }),
            questions,
            more: *more,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alone(opts: &[OptionView]) -> Vec<OptionPage<'_>> {
        opts.iter()
            .map(|view| OptionPage {
                view,
                fb_ids: None,
                fb_dup: false,
            })
            .collect()
    }

    /// A part's view reaches `part.html.j2` as the view serialises it, plus the shared
    /// feedback: with nothing shared, the two are the same JSON (the mirror misses no key).
    #[test]
    fn a_part_view_page_is_the_view_plus_shared_feedback() {
        let labs = [
            (
                "html_predict.yaml",
                include_str!("../../../../../tests/inputs/html_predict.yaml"),
            ),
            (
                "html_demo.yaml",
                include_str!("../../../../../tests/inputs/html_demo.yaml"),
            ),
            (
                "ok_questions.yaml",
                include_str!("../../../../../tests/inputs/ok_questions.yaml"),
            ),
            (
                "ok_numeric_bands.yaml",
                include_str!("../../../../../tests/inputs/ok_numeric_bands.yaml"),
            ),
        ];
        let (mut options, mut questions) = (0, 0);
        for (name, text) in labs {
            let lab = crate::eval::load_source(crate::load::Source::new(name, text))
                .unwrap_or_else(|(_, d)| panic!("{name}: {d:?}"));
            for answers in [false, true] {
                let v = crate::view::lab(&lab, answers).expect("view");
                for pv in &v.parts {
                    let page = serde_json::to_value(PartViewPage::new(pv, alone)).unwrap();
                    assert_eq!(page, serde_json::to_value(pv).unwrap(), "{name}: {}", pv.id);
                    options += pv.prediction.as_ref().map_or(0, |p| p.options.len());
                    options += pv.reflection.as_ref().map_or(0, |r| r.options.len());
                    questions += pv.questions.len();
                }
            }
        }
        // The labs have what the mirror rebuilds.
        assert!(options > 0 && questions > 0, "{options} {questions}");
    }
}
