//! Compiling a lab: every formula, condition and placeholder compiled once, names resolved,
//! formulas sorted by dependency, and every problem reported at its YAML position.

use super::functions::{CompiledFn, FnDef};
use super::template::{line_col, segments, Segment};
use super::value_to_dynamic;
use crate::diag::{did_you_mean, Diagnostic};
use crate::formula::{references, FormulaEngine, FormulaError};
use crate::load::Source;
use crate::model::track::TrackSet;
use crate::model::*;
use crate::module::Module;
use indexmap::IndexMap;
use rhai::{Dynamic, AST};
use std::collections::{BTreeSet, HashMap};

mod instrument;
use instrument::compile_instrument;

/// Where an expression's text starts in the file.
#[derive(Debug, Clone, Copy)]
pub struct Origin {
    pub pos: Pos,
    /// 1 when the scalar is quoted (its text starts one column after the node).
    pub quote: u32,
}

impl Origin {
    pub fn of(source: &Source, pos: Pos) -> Origin {
        let quote = source
            .line(pos.line)
            .and_then(|l| l.chars().nth(pos.col.saturating_sub(1) as usize))
            .map(|c| u32::from(c == '"' || c == '\''))
            .unwrap_or(0);
        Origin { pos, quote }
    }

    /// File position of (1-based) `line`, `col` inside the scalar's text.
    pub fn locate(&self, line: usize, col: usize) -> Pos {
        if !self.pos.is_known() {
            return Pos::UNKNOWN;
        }
        if line <= 1 {
            Pos::new(self.pos.line, self.pos.col + self.quote + col as u32 - 1)
        } else {
            Pos::new(
                self.pos.line + line as u32 - 1,
                self.pos.col + col as u32 - 1,
            )
        }
    }
}

/// A compiled expression and where it came from.
#[derive(Clone)]
pub struct CompiledExpr {
    pub src: String,
    pub ast: AST,
    /// Position of the expression's first character in the file.
    pub origin: Origin,
    /// Offset (line, col) of the expression inside the scalar, for placeholders.
    pub inner: (usize, usize),
}

impl CompiledExpr {
    /// File position of an error inside this expression.
    pub fn locate(&self, e: &FormulaError) -> Pos {
        let (il, ic) = self.inner;
        if e.line <= 1 {
            self.origin.locate(il, ic + e.col - 1)
        } else {
            self.origin.locate(il + e.line - 1, e.col)
        }
    }
}

/// A control's compiled description.
#[derive(Debug, Clone)]
pub struct ControlSpec {
    pub id: String,
    pub default: Dynamic,
}

/// A named formula in evaluation order.
#[derive(Clone)]
pub struct CompiledFormula {
    pub name: String,
    pub expr: CompiledExpr,
    pub deps: Vec<String>,
}

/// One part, compiled.
pub struct CompiledPart {
    pub index: usize,
    pub id: String,
    pub constants: Vec<(String, Dynamic)>,
    pub controls: Vec<ControlSpec>,
    /// Formulas in dependency order.
    pub formulas: Vec<CompiledFormula>,
    /// Every other expression of the part (conditions, placeholders, chart expressions), by text.
    pub exprs: HashMap<String, CompiledExpr>,
    /// Names visible to the part's expressions.
    pub names: BTreeSet<String>,
    /// The value of `answer` before the prediction is locked in (`""` for options, NaN for a
    /// number), when the part binds `answer` (it has a prediction and no name `answer` of its own).
    pub answer: Option<Dynamic>,
    /// `prediction` before anything is locked in (every part's prediction unset, see
    /// [`super::xpart`]), when the part binds it (no name `prediction` of its own).
    pub predictions: Option<Dynamic>,
    /// The earlier parts whose values it reads (`parts.a.x`, [`super::earlier`]), in order.
    pub reads_parts: Vec<String>,
}

/// A lab ready to evaluate.
pub struct CompiledLab {
    pub lab: Lab,
    pub source: Source,
    pub engine: FormulaEngine,
    pub constants: Vec<(String, Dynamic)>,
    pub parts: Vec<CompiledPart>,
    /// Lab-level expressions (header/synthesis placeholders, HUD tiers), by text.
    pub exprs: HashMap<String, CompiledExpr>,
    /// The lab's functions (and its course modules').
    pub functions: Vec<CompiledFn>,
    /// The course modules the lab was compiled with.
    pub modules: Vec<Module>,
    /// Warnings found while compiling.
    pub warnings: Vec<Diagnostic>,
    /// The tracks the lab plays out on (its course's, or its own; empty: none).
    pub tracks: TrackSet,
    /// The track this compilation is for (`None` when the lab has no tracks, or is the same on
    /// every track: it reads neither `track` nor `variant`).
    pub track: Option<String>,
    /// The settings each part is read at by later parts (`parts.a.x`); defaults when absent.
    pub settings: std::cell::RefCell<IndexMap<String, IndexMap<String, Dynamic>>>,
}

impl CompiledPart {
    /// The formulas the expressions `srcs` (compiled texts of this part) read, with everything
    /// those formulas read in turn.
    pub fn needed_by<'a>(&self, srcs: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
        let mut todo: Vec<String> = srcs
            .into_iter()
            .filter_map(|s| self.exprs.get(s.trim()))
            .flat_map(|ce| references(&ce.ast))
            .collect();
        let mut need = BTreeSet::new();
        while let Some(n) = todo.pop() {
            if let Some(f) = self.formulas.iter().find(|f| f.name == n) {
                if need.insert(n) {
                    todo.extend(f.deps.iter().cloned());
                }
            }
        }
        need
    }
}

impl CompiledLab {
    pub fn part(&self, id: &str) -> Option<&CompiledPart> {
        self.parts.iter().find(|p| p.id == id)
    }
    pub fn model_part(&self, id: &str) -> Option<&Part> {
        self.lab.parts.iter().find(|p| p.id.value == id)
    }
}

pub(super) struct Compiler<'a> {
    source: &'a Source,
    pub(super) engine: &'a FormulaEngine,
    pub(super) diags: Vec<Diagnostic>,
    /// The part being compiled and its output names (`{{ @name }}`); `None` for lab-level text.
    outputs: Option<(String, Vec<String>)>,
}

impl<'a> Compiler<'a> {
    pub(super) fn new(source: &'a Source, engine: &'a FormulaEngine) -> Compiler<'a> {
        Compiler {
            source,
            engine,
            diags: Vec::new(),
            outputs: None,
        }
    }
}

impl Compiler<'_> {
    pub(super) fn err(&mut self, pos: Pos, msg: impl Into<String>) -> &mut Diagnostic {
        self.diags
            .push(Diagnostic::error(&self.source.name, pos, msg));
        self.diags.last_mut().unwrap()
    }

    fn warn(&mut self, pos: Pos, msg: impl Into<String>) -> &mut Diagnostic {
        self.diags
            .push(Diagnostic::warning(&self.source.name, pos, msg));
        self.diags.last_mut().unwrap()
    }

    pub(super) fn compile_at(
        &mut self,
        src: &str,
        origin: Origin,
        inner: (usize, usize),
        known: &BTreeSet<String>,
        what: &str,
    ) -> Option<CompiledExpr> {
        match self.engine.compile(src, known) {
            Ok(ast) => Some(CompiledExpr {
                src: src.to_string(),
                ast,
                origin,
                inner,
            }),
            Err(e) => {
                let ce = CompiledExpr {
                    src: src.to_string(),
                    ast: AST::empty(),
                    origin,
                    inner,
                };
                let pos = ce.locate(&e);
                let hint = e.hint.clone();
                let d = self.err(pos, format!("in {what}: {}", e.message));
                d.hint = hint;
                None
            }
        }
    }

    /// Compiles an expression field into `into` (keyed by its text).
    pub(super) fn expr(
        &mut self,
        e: &Expr,
        known: &BTreeSet<String>,
        what: &str,
        into: &mut HashMap<String, CompiledExpr>,
    ) {
        let src = e.value.trim();
        if src.is_empty() {
            self.err(e.pos, format!("{what} is empty")).hint =
                Some("write a Rhai expression".into());
            return;
        }
        if into.contains_key(src) {
            return;
        }
        let origin = Origin::of(self.source, e.pos);
        let lead = &e.value[..e.value.find(src).unwrap_or(0)];
        let inner = line_col(&e.value, lead.len());
        if let Some(c) = self.compile_at(src, origin, inner, known, what) {
            into.insert(src.to_string(), c);
        }
    }

    /// Compiles every placeholder of a template.
    fn template(
        &mut self,
        t: &Text,
        known: &BTreeSet<String>,
        into: &mut HashMap<String, CompiledExpr>,
    ) {
        let origin = Origin::of(self.source, t.pos);
        match segments(&t.value) {
            Err(off) => {
                let (l, c) = line_col(&t.value, off);
                self.err(origin.locate(l, c), "unclosed `{{` placeholder")
                    .hint = Some("close it with `}}`, or write the braces as `{ {`".into());
            }
            Ok(segs) => {
                for s in segs {
                    if let Segment::Output(name, off) = s {
                        self.output_ref(&t.value, origin, name, off);
                    }
                    if let Segment::Expr(src, off) = s {
                        if src.is_empty() {
                            let (l, c) = line_col(&t.value, off);
                            self.err(origin.locate(l, c), "empty `{{ }}` placeholder")
                                .hint =
                                Some("put an expression inside, e.g. `{{ fmt(x, 1) }}`".into());
                            continue;
                        }
                        if into.contains_key(src) {
                            continue;
                        }
                        let inner = line_col(&t.value, off);
                        if let Some(c) =
                            self.compile_at(src, origin, inner, known, "a `{{ }}` placeholder")
                        {
                            into.insert(src.to_string(), c);
                        }
                    }
                }
            }
        }
    }

    /// Checks a `{{ @name }}` placeholder: `name` must be an output of the part.
    fn output_ref(&mut self, text: &str, origin: Origin, name: &str, off: usize) {
        let (l, c) = line_col(text, off);
        let pos = origin.locate(l, c);
        match self.outputs.clone() {
            None => {
                self.err(
                    pos,
                    format!("`@{name}` shows an output, but this text belongs to no part"),
                )
                .hint = Some(
                    "outputs are shown only in a part's text; use `{{ name }}` for a lab constant"
                        .into(),
                );
            }
            Some((_, outs)) if outs.iter().any(|o| o == name) => {}
            Some((part, outs)) => {
                let hint = did_you_mean(name, outs.iter().map(|s| s.as_str())).or_else(|| {
                    Some(format!(
                        "`{{{{ @name }}}}` shows an entry of the part's `outputs:`; add `{name}:` there"
                    ))
                });
                self.err(pos, format!("`@{name}` is not an output of part `{part}`"))
                    .hint = hint;
            }
        }
    }
}

fn with(names: &BTreeSet<String>, extra: &[&str]) -> BTreeSet<String> {
    let mut n = names.clone();
    n.extend(extra.iter().map(|s| s.to_string()));
    n
}

fn constants(consts: &IndexMap<String, Spanned<Constant>>) -> Vec<(String, Dynamic)> {
    consts
        .iter()
        .map(|(k, c)| (k.clone(), value_to_dynamic(c.value.value())))
        .collect()
}

/// Compiles a parsed lab. Errors come back as diagnostics; warnings are kept on the result.
pub fn compile(lab: Lab, source: &Source) -> Result<CompiledLab, Vec<Diagnostic>> {
    compile_with(lab, source, Vec::new())
}

/// [`compile`] with the course modules the lab may use (`comm::f(...)`, `comm::K`, their devices).
pub fn compile_with(
    lab: Lab,
    source: &Source,
    modules: Vec<Module>,
) -> Result<CompiledLab, Vec<Diagnostic>> {
    compile_on(lab, source, modules, &TrackSet::default(), None)
}

/// [`compile_with`] for one track (`None`: the default one) of the course's `tracks` (empty
/// for a lab outside a course, or a course without tracks: the lab's own `tracks:` then).
pub fn compile_on(
    lab: Lab,
    source: &Source,
    modules: Vec<Module>,
    course_tracks: &TrackSet,
    track: Option<&str>,
) -> Result<CompiledLab, Vec<Diagnostic>> {
    compile_salvaging(lab, source, modules, course_tracks, track).map_err(|(d, _)| d)
}

/// [`compile_on`], and when the only errors are the structure check's (a scenario off a slider's
/// grid, a missing correct option: nothing a formula or an evaluation depends on), the lab
/// compiled all the same, so `check` can report what the other parts' evaluation finds too
/// (issue 25: one part's error must not hide another's). The error holds every diagnostic, the
/// salvaged lab's `warnings` the warnings among them.
pub fn compile_salvaging(
    lab: Lab,
    source: &Source,
    modules: Vec<Module>,
    course_tracks: &TrackSet,
    track: Option<&str>,
) -> Result<CompiledLab, (Vec<Diagnostic>, Option<Box<CompiledLab>>)> {
    let mut lab = lab;
    let mut engine = FormulaEngine::new();
    let mut diags = Vec::new();
    // Ids and sizes first: a lab past the limits is not compiled any further.
    crate::load::limits::bounds(&lab, source, &mut diags);
    if diags.iter().any(|d| d.is_error()) {
        return Err((diags, None));
    }
    let live = super::shared::expand(&mut lab, source, &mut diags);
    if diags.iter().any(|d| d.is_error()) {
        return Err((diags, None));
    }
    let tracks = lab_tracks(&lab, source, course_tracks, &mut diags);
    crate::load::tracks::check_variants(&lab.variants, &tracks, &source.name, &mut diags);
    for rule in lab.parts.iter().flat_map(|p| &p.feedback) {
        if let MayNeverFire::Tracks(ts) = &rule.may_never_fire.value {
            for t in ts.iter().filter(|t| tracks.get(t).is_none()) {
                let hint = did_you_mean(t, tracks.ids()).unwrap_or_else(|| {
                    if tracks.is_empty() {
                        "the lab has no tracks: write `may_never_fire: true`".into()
                    } else {
                        format!("the tracks are {}", tracks.ids().join(", "))
                    }
                });
                diags.push(
                    Diagnostic::error(
                        &source.name,
                        rule.may_never_fire.pos,
                        format!("`may_never_fire` names `{t}`, which is not a track of the lab"),
                    )
                    .with_hint(hint),
                );
            }
        }
    }
    for t in &lab.tests {
        if let Some(want) = t.track.as_ref().filter(|w| tracks.get(&w.value).is_none()) {
            let hint = if tracks.is_empty() {
                "the lab has no tracks: remove `track:`".to_string()
            } else {
                did_you_mean(&want.value, tracks.ids())
                    .unwrap_or_else(|| format!("the tracks are {}", tracks.ids().join(", ")))
            };
            diags.push(
                Diagnostic::error(
                    &source.name,
                    want.pos,
                    format!(
                        "the test's track `{}` is not a track of the lab",
                        want.value
                    ),
                )
                .with_hint(hint),
            );
        }
    }
    let chosen = match super::tracks::pick(&tracks, track) {
        Ok(t) => t.cloned(),
        Err(m) => {
            diags.push(Diagnostic::error(&source.name, Pos::UNKNOWN, m).with_hint(
                "pick one of the tracks the course (or the lab) declares under `tracks:`",
            ));
            None
        }
    };
    if diags.iter().any(|d| d.is_error()) {
        return Err((diags, None));
    }
    crate::load::xref::warn(source, &mut diags);
    diags.extend(modules.iter().flat_map(|m| m.warnings.iter().cloned()));
    let mut defs: Vec<FnDef> = Vec::new();
    for m in &modules {
        let ns = m.file.namespace.value.as_str();
        engine.declare_module(ns, constants(&m.file.constants));
        defs.extend(m.file.functions.iter().map(|def| FnDef {
            source: &m.source,
            namespace: Some(ns),
            def,
        }));
    }
    let devices: Vec<_> = modules
        .iter()
        .flat_map(|m| m.file.devices.iter().cloned())
        .collect();
    engine.add_devices(devices);
    engine.add_models(
        modules
            .iter()
            .flat_map(|m| m.file.models.iter().cloned())
            .collect(),
    );
    defs.extend(lab.functions.iter().map(|def| FnDef {
        source,
        namespace: None,
        def,
    }));
    let functions = super::functions::compile(&defs, &mut engine, &mut diags);
    let mut c = Compiler {
        source,
        engine: &engine,
        diags,
        outputs: None,
    };

    let mut lab_consts = Vec::new();
    if let Some(t) = &chosen {
        super::tracks::reserved_names(&mut c, &lab);
        lab_consts.extend(super::tracks::bindings(&lab, t));
    }
    lab_consts.extend(constants(&lab.constants));
    lab_consts.extend(super::carried::constants(&mut c, &lab));
    super::lab_formulas::compute(&mut c, &lab, &mut lab_consts);
    // The fields written as expressions, computed for this track; then the structure checks
    // (ranges, defaults, one correct option) see the track's values.
    let before = c.diags.iter().filter(|d| d.is_error()).count();
    let tracked = super::tracks::resolve(&mut c, &mut lab, &lab_consts);
    // A field that could not be computed has no value: nothing after can be checked.
    if c.diags.iter().filter(|d| d.is_error()).count() > before {
        return Err((c.diags, None));
    }
    let (structure_errors, errors_before_structure);
    {
        let mut structure = Vec::new();
        let accepts = |ctl: &Control, v: &Value| {
            super::validate_control(ctl, &super::value_to_dynamic(v)).map(|_| ())
        };
        crate::load::check::structure(&lab, source, &accepts, &mut structure);
        structure_errors = structure.iter().filter(|d| d.is_error()).count();
        errors_before_structure = c.diags.iter().filter(|d| d.is_error()).count();
        c.diags.extend(structure);
    }
    let lab_names: BTreeSet<String> = lab_consts.iter().map(|(k, _)| k.clone()).collect();
    let mut lab_exprs = HashMap::new();
    for t in lab_texts(&lab) {
        c.template(t, &lab_names, &mut lab_exprs);
    }
    super::carried::lab_text_reads(&mut c, &lab, &lab_exprs);
    if let Some(h) = &lab.hud {
        let known = with(&lab_names, &["correct", "correct_count"]);
        for t in &h.tiers {
            if let Some(w) = &t.when {
                c.expr(w, &known, "a HUD tier condition", &mut lab_exprs);
            }
        }
    }

    let mut parts = Vec::new();
    for (index, part) in lab.parts.iter().enumerate() {
        c.outputs = Some((
            part.id.value.clone(),
            part.outputs.keys().cloned().collect(),
        ));
        parts.push(compile_part(&mut c, index, &lab.parts, &lab_consts));
    }
    c.outputs = None;
    super::carried::check_records(&mut c, &lab, &parts);

    if c.diags.iter().any(|d| d.is_error()) {
        super::shared::hint_unknown(&live, &lab, &mut c.diags);
        // A lab formula computed in several parts reports its problem once.
        if !live.is_empty() {
            let mut seen: Vec<Diagnostic> = Vec::new();
            c.diags.retain(|d| {
                let new = !seen.contains(d);
                if new {
                    seen.push(d.clone());
                }
                new
            });
        }
    }
    let errors = c.diags.iter().filter(|d| d.is_error()).count();
    if errors > 0 && (errors_before_structure > 0 || errors > structure_errors) {
        return Err((c.diags, None));
    }
    let chosen =
        chosen.filter(|_| super::tracks::varies(&c, &lab, tracked, &parts, &lab_exprs, &lab_names));
    let all = std::mem::take(&mut c.diags);
    let warnings: Vec<Diagnostic> = all.iter().filter(|d| !d.is_error()).cloned().collect();
    let mut compiled = CompiledLab {
        track: chosen.map(|t| t.id),
        tracks,
        lab,
        source: source.clone(),
        engine,
        constants: lab_consts,
        parts,
        exprs: lab_exprs,
        functions,
        modules,
        warnings,
        settings: Default::default(),
    };
    compiled.key_from_claims();
    if errors == 0 {
        Ok(compiled)
    } else {
        Err((all, Some(Box::new(compiled))))
    }
}

/// The tracks a lab plays out on: its course's, or (outside a course with tracks) its own.
fn lab_tracks(
    lab: &Lab,
    source: &Source,
    course: &TrackSet,
    out: &mut Vec<Diagnostic>,
) -> TrackSet {
    if course.is_empty() {
        return crate::load::tracks::check(
            &lab.tracks,
            lab.default_track.as_ref(),
            &source.name,
            out,
        );
    }
    let pos = lab
        .tracks
        .first()
        .map(|t| t.pos)
        .or(lab.default_track.as_ref().map(|d| d.pos));
    if let Some(pos) = pos {
        out.push(
            Diagnostic::error(&source.name, pos, "the lab's course declares the tracks")
                .with_hint("remove `tracks:` and `default_track:` from the lab; a student keeps one track for the whole course (course.yaml)"),
        );
    }
    course.clone()
}

/// The lab's header prose, read before any part: title, subtitle, badges, objectives,
/// prerequisites, core question and reading.
pub fn header_texts(lab: &Lab) -> Vec<&Text> {
    let mut v: Vec<&Text> = vec![&lab.title];
    v.extend(lab.subtitle.iter());
    v.extend(lab.badges.iter().map(|b| &b.text));
    for o in &lab.objectives {
        v.push(&o.title);
        v.extend(o.text.iter());
    }
    v.extend(lab.prerequisites.iter());
    v.extend(lab.core_question.iter());
    v.extend(lab.reading.iter());
    v
}

/// Lab-level prose (evaluated with the lab's constants).
pub fn lab_texts(lab: &Lab) -> Vec<&Text> {
    let mut v = header_texts(lab);
    if let Some(s) = &lab.synthesis {
        for o in &s.takeaways {
            v.push(&o.title);
            v.extend(o.text.iter());
        }
        for card in &s.cards {
            v.push(&card.title);
            v.push(&card.body);
        }
        for item in &s.self_assessment {
            v.push(&item.question);
            v.extend(item.answer.iter());
        }
        v.extend(s.self_assessment_note.iter());
        if let Some(d) = &s.decision_log {
            v.push(&d.prompt);
        }
    }
    v
}

/// A part's static prose (evaluated at the prediction's scenario).
pub fn part_static_texts(part: &Part) -> Vec<&Text> {
    let mut v: Vec<&Text> = vec![&part.title];
    if let Some(s) = &part.stakeholder {
        v.push(&s.role);
        v.push(&s.message);
    }
    v.extend(part.concept.iter());
    if let Some(p) = &part.prediction {
        v.push(&p.question);
        v.extend(p.lock_text.iter());
        for o in &p.options {
            v.push(&o.text);
            v.extend(o.feedback.iter());
        }
        v.extend(p.other_feedback.iter());
        if let Some(n) = &p.numeric {
            v.extend(n.correct_feedback.iter());
            v.extend(n.other_feedback.iter());
            // A band's feedback is prose too: without it here its `{{ }}` passed check and
            // test but was never compiled, and render and run failed on it.
            v.extend(n.bands.iter().map(|b| &b.feedback));
        }
    }
    v.extend(part.explore_title.iter());
    for ctl in &part.controls {
        v.push(ctl.label());
    }
    if let Some(m) = &part.math_peek {
        v.push(&m.title);
        v.push(&m.body);
    }
    if let Some(r) = &part.reflection {
        v.push(&r.question);
        for o in &r.options {
            v.push(&o.text);
            v.extend(o.feedback.iter());
        }
        v.extend(r.other_feedback.iter());
    }
    for q in &part.questions {
        v.extend(q.texts());
    }
    v
}

fn control_default(ctl: &Control) -> Dynamic {
    match ctl {
        Control::Slider(s) => Dynamic::from_float(s.default.value),
        Control::Number(n) => Dynamic::from_float(n.default.value),
        Control::Switch(s) => Dynamic::from_bool(s.default),
        Control::Select(s) | Control::Radio(s) => s
            .options
            .value
            .get(&s.default.value)
            .map(value_to_dynamic)
            .unwrap_or(Dynamic::UNIT),
        Control::Checkboxes(cb) => {
            let mut m = rhai::Map::new();
            for k in cb.options.keys() {
                let on = cb.default.iter().any(|d| &d.value == k);
                m.insert(k.as_str().into(), Dynamic::from_bool(on));
            }
            Dynamic::from_map(m)
        }
    }
}

fn compile_part(
    c: &mut Compiler,
    index: usize,
    all: &[Part],
    lab_consts: &[(String, Dynamic)],
) -> CompiledPart {
    let part = &all[index];
    let id = part.id.value.clone();
    let part_consts = constants(&part.constants);
    let controls: Vec<ControlSpec> = part
        .controls
        .iter()
        .map(|ctl| ControlSpec {
            id: ctl.id().value.clone(),
            default: control_default(ctl),
        })
        .collect();

    // Names: later definitions shadow nothing; duplicates are errors.
    let mut names = BTreeSet::new();
    let mut defined_at: HashMap<String, (Pos, &'static str)> = HashMap::new();
    for (k, _) in lab_consts {
        names.insert(k.clone());
    }
    for (k, _) in &part_consts {
        names.insert(k.clone());
    }
    for ctl in &part.controls {
        let cid = ctl.id();
        if let Some((p, what)) = defined_at.get(&cid.value) {
            c.err(
                cid.pos,
                format!(
                    "`{}` is already defined as a {what} (line {})",
                    cid.value, p.line
                ),
            )
            .hint = Some("give each control a different id".into());
        }
        defined_at.insert(cid.value.clone(), (cid.pos, "control"));
        names.insert(cid.value.clone());
    }
    for (k, e) in &part.formulas {
        if let Some((p, what)) = defined_at.get(k) {
            c.err(
                e.pos,
                format!(
                    "formula `{k}` has the same name as a {what} (line {})",
                    p.line
                ),
            )
            .hint =
                Some("rename the formula; a control's value is already available by its id".into());
        }
        defined_at.insert(k.clone(), (e.pos, "formula"));
        names.insert(k.clone());
    }

    // Earlier parts' values (`parts.a.x`), visible to formulas and prose of a later part.
    let reads_earlier = !names.contains(super::earlier::NAME);
    if reads_earlier {
        names.insert(super::earlier::NAME.to_string());
    }

    // Formulas.
    let mut compiled: IndexMap<String, CompiledFormula> = IndexMap::new();
    for (name, e) in &part.formulas {
        let what = format!("formula `{name}`");
        if let Some(f) = compile_formula(c, name, e, &names, &what, &part.formulas) {
            compiled.insert(name.clone(), f);
        }
    }
    let formulas = topo_sort(c, &part.formulas, compiled);

    // The student's answer: visible to prose, banners and instruments, never to formulas.
    let answer = match &part.prediction {
        Some(p) if !names.contains("answer") => {
            names.insert("answer".to_string());
            Some(match p.numeric {
                Some(_) => Dynamic::from_float(f64::NAN),
                None => Dynamic::from(""),
            })
        }
        _ => None,
    };
    // Earlier parts' locked predictions (`prediction.a`), likewise.
    let predictions = (!names.contains(super::xpart::NAME)).then(|| {
        names.insert(super::xpart::NAME.to_string());
        super::xpart::unset_record(all)
    });

    // Everything else.
    let mut exprs = HashMap::new();
    for t in part_static_texts(part) {
        c.template(t, &names, &mut exprs);
    }
    for (oname, out) in &part.outputs {
        if !names.contains(oname) {
            let pos = out.level.as_ref().map(|l| l.pos).unwrap_or(part.id.pos);
            c.err(
                pos,
                format!("output `{oname}` is not a formula, control or constant of part `{id}`"),
            )
            .hint = did_you_mean(oname, names.iter().map(|s| s.as_str()))
                .or_else(|| Some(format!("add a formula `{oname}:` under `formulas:`")));
        }
        if let Some(l) = &out.level {
            c.expr(
                l,
                &with(&names, &["value"]),
                &format!("the level of output `{oname}`"),
                &mut exprs,
            );
        }
    }
    for rule in &part.feedback {
        c.expr(&rule.when, &names, "a feedback condition", &mut exprs);
        for t in rule.title.iter().chain(rule.callout().map(|(_, t)| t)) {
            c.template(t, &names, &mut exprs);
        }
    }
    for inst in &part.instruments {
        compile_instrument(c, part, inst, &names, &mut exprs);
    }
    if predictions.is_some() {
        let mut read: Vec<&CompiledExpr> = exprs.values().collect();
        read.sort_by_key(|e| (e.origin.pos.line, e.origin.pos.col, e.inner));
        for e in read {
            super::xpart::check(c, all, index, e);
        }
    }
    let reads_parts = if reads_earlier {
        let mut all_exprs: Vec<&CompiledExpr> = formulas
            .iter()
            .map(|f| &f.expr)
            .chain(exprs.values())
            .collect();
        all_exprs.sort_by_key(|e| (e.origin.pos.line, e.origin.pos.col, e.inner));
        super::earlier::check(c, all, index, &all_exprs)
    } else {
        Vec::new()
    };
    // A control nothing reads is likely a mistake.
    let mut read: BTreeSet<String> = BTreeSet::new();
    for f in &formulas {
        read.extend(references(&f.expr.ast));
    }
    for e in exprs.values() {
        read.extend(references(&e.ast));
    }
    if let Some(p) = &part.prediction {
        read.extend(p.claim.iter().map(|c| c.value.clone()));
    }
    for ctl in &part.controls {
        let cid = ctl.id();
        if !read.contains(&cid.value) && !part.outputs.contains_key(&cid.value) {
            c.warn(
                cid.pos,
                format!(
                    "control `{}` is not used by any formula, instrument or banner",
                    cid.value
                ),
            )
            .hint = Some("use it in a formula, or remove it".into());
        }
    }
    CompiledPart {
        index,
        id,
        constants: part_consts,
        controls,
        formulas,
        exprs,
        names,
        answer,
        predictions,
        reads_parts,
    }
}

/// One formula of `among` (a part's or the lab's) compiled as `what`, with the formulas of
/// `among` it reads (its edges for [`topo_sort`]); `None` when it does not compile (reported).
pub(super) fn compile_formula(
    c: &mut Compiler,
    name: &str,
    e: &Expr,
    names: &BTreeSet<String>,
    what: &str,
    among: &IndexMap<String, Expr>,
) -> Option<CompiledFormula> {
    let mut one = HashMap::new();
    c.expr(e, names, what, &mut one);
    let ce = one.remove(e.value.trim())?;
    let deps = references(&ce.ast)
        .into_iter()
        .filter(|r| among.contains_key(r))
        .collect();
    Some(CompiledFormula {
        name: name.to_string(),
        expr: ce,
        deps,
    })
}

/// Orders formulas so each comes after what it reads; a cycle is an error at each formula in it.
pub(super) fn topo_sort(
    c: &mut Compiler,
    formulas: &IndexMap<String, Expr>,
    mut compiled: IndexMap<String, CompiledFormula>,
) -> Vec<CompiledFormula> {
    let mut order = Vec::new();
    let mut done: BTreeSet<String> = BTreeSet::new();
    loop {
        let ready: Vec<String> = compiled
            .values()
            // `deps` only name the part's formulas, so a formula is ready once they are done.
            .filter(|f| f.deps.iter().all(|d| done.contains(d)))
            .map(|f| f.name.clone())
            .collect();
        if ready.is_empty() {
            break;
        }
        for r in ready {
            done.insert(r.clone());
            order.push(compiled.shift_remove(&r).unwrap());
        }
    }
    // Anything left is in (or depends on) a cycle, or depends on a formula that failed to compile.
    let failed: BTreeSet<&String> = formulas
        .keys()
        .filter(|k| !done.contains(*k) && !compiled.contains_key(*k))
        .collect();
    for f in compiled.values() {
        if f.deps.iter().any(|d| failed.contains(d)) {
            continue;
        }
        if let Some(cycle) = find_cycle(&f.name, &compiled) {
            let pos = formulas[&f.name].pos;
            c.err(
                pos,
                format!(
                    "formula `{}` depends on itself: {}",
                    f.name,
                    cycle.join(" → ")
                ),
            )
            .hint = Some(
                "break the cycle: one of these must be computed from controls or constants".into(),
            );
        }
    }
    order
}

fn find_cycle(start: &str, fs: &IndexMap<String, CompiledFormula>) -> Option<Vec<String>> {
    fn dfs(
        n: &str,
        start: &str,
        fs: &IndexMap<String, CompiledFormula>,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        let Some(f) = fs.get(n) else { return false };
        for d in &f.deps {
            if d == start {
                path.push(d.clone());
                return true;
            }
            if seen.insert(d.clone()) {
                path.push(d.clone());
                if dfs(d, start, fs, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    dfs(start, start, fs, &mut path, &mut BTreeSet::new()).then_some(path)
}
