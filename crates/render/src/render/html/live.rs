//! Live text: templates whose placeholders the page recomputes (their literal HTML pieces
//! and expression numbers for the runtime), the expressions translated to JavaScript, and
//! prose as HTML with levelled outputs marked as the runtime marks them.

use super::data::{Slot, Tpl};
use super::md::{md_block, md_inline};
use crate::diag::Diagnostic;
use crate::eval::template::{segments, Segment};
use crate::eval::xpart;
use crate::eval::{display, level_words, CompiledLab, CompiledPart, Evaluation, Span};
use crate::formula::js::translate;
use crate::model::*;
use serde_json::Value as J;
use std::collections::HashMap;

pub use super::md::escape as esc;

/// Compiled expressions translated to JavaScript, numbered in first-use order.
#[derive(Default)]
pub(super) struct Fns {
    pub bodies: Vec<String>,
    index: HashMap<(usize, String), usize>,
    /// Each distinct body once: two expressions that translate alike share a number.
    same: HashMap<String, usize>,
    /// Placeholders reading locked predictions: expression number → the parts read (`""` for
    /// `answer`), for the runtime's "(Part A not answered yet)" (see `eval::xpart`).
    pub pread: std::collections::BTreeMap<usize, Vec<String>>,
}

const LAB: usize = usize::MAX;

impl Fns {
    pub fn add_ast(&mut self, key: (usize, String), ast: &rhai::AST) -> usize {
        if let Some(i) = self.index.get(&key) {
            return *i;
        }
        let body = translate(ast);
        let n = self.bodies.len();
        let i = *self.same.entry(body.clone()).or_insert(n);
        if i == n {
            self.bodies.push(body);
        }
        self.index.insert(key, i);
        i
    }

    pub fn expr(
        &mut self,
        lab: &CompiledLab,
        part: Option<&CompiledPart>,
        src: &str,
    ) -> Result<usize, Diagnostic> {
        let src = src.trim();
        let (scope, ce) = match part.and_then(|p| p.exprs.get(src).map(|c| (p.index, c))) {
            Some(x) => x,
            None => (
                LAB,
                lab.exprs
                    .get(src)
                    .ok_or_else(|| format!("internal: expression `{src}` was not compiled"))?,
            ),
        };
        Ok(self.add_ast((scope, src.to_string()), &ce.ast))
    }

    /// The page's formula script: the bodies and the lab functions they call.
    pub fn script(&self, lab: &CompiledLab) -> String {
        let fns: Vec<_> = lab.functions.iter().map(|f| f.js()).collect();
        let consts: Vec<(String, J)> = lab
            .engine
            .module_consts()
            .iter()
            .flat_map(|(ns, vars)| {
                vars.iter()
                    .map(move |(k, v)| (format!("{ns}::{k}"), crate::formula::to_json(v)))
            })
            .collect();
        crate::formula::js::module(&self.bodies, &fns, &consts)
    }
}

/// A template whose placeholders are recomputed in the page: literal HTML pieces around
/// expression indices.
pub(super) struct DynTpl {
    lits: Vec<String>,
    /// Expression indices, and `"@name"` for an output (the runtime keeps its text and level
    /// in the scope under that key).
    exprs: Vec<Slot>,
    srcs: Vec<Ph>,
}

/// A placeholder of a live template.
pub(super) enum Ph {
    Expr(String),
    Output(String),
}

/// An output shown in prose: its text, and when it has a level, coloured with the level's words
/// beside it (the runtime's `tpl` writes the same).
pub(super) fn output_html(text: &str, level: Option<&str>) -> String {
    match level {
        Some(l) => format!(
            "<span data-level=\"{}\">{} <span class=\"level-word\">{}</span></span>",
            esc(l),
            esc(text),
            esc(level_words(l))
        ),
        None => esc(text),
    }
}

/// Prose pieces as HTML (Markdown rendered), levelled outputs as [`output_html`].
pub(super) fn spans_html(spans: &[Span], inline: bool) -> String {
    let md = |s: &str| if inline { md_inline(s) } else { md_block(s) };
    let plain: String = spans.iter().map(|s| s.text.as_str()).collect();
    let mut marked = String::new();
    let mut outs = Vec::new();
    for s in spans {
        match (&s.output, &s.level) {
            (Some(_), Some(l)) => {
                marked.push(TOKEN_OPEN);
                marked.push_str(&outs.len().to_string());
                marked.push(TOKEN_CLOSE);
                outs.push(output_html(&s.text, Some(l)));
            }
            _ => marked.push_str(&s.text.replace([TOKEN_OPEN, TOKEN_CLOSE], "")),
        }
    }
    if outs.is_empty() {
        return md(&plain);
    }
    let mut html = md(&marked);
    for (i, o) in outs.iter().enumerate() {
        let tok = format!("{TOKEN_OPEN}{i}{TOKEN_CLOSE}");
        if !html.contains(&tok) {
            // In a place Markdown rewrites (a link target): the plain text.
            return md(&plain);
        }
        html = html.replacen(&tok, o, 1);
    }
    html
}

impl DynTpl {
    /// The template as the page data carries it.
    pub fn tpl(&self) -> Tpl {
        Tpl {
            l: self.lits.clone(),
            e: self.exprs.clone(),
        }
    }
}

/// One part's live templates, numbered in registration order.
pub(super) struct PartCx<'a> {
    pub lab: &'a CompiledLab,
    pub part: &'a CompiledPart,
    /// Evaluation at the defaults (live instruments).
    pub ev: Evaluation,
    pub tpls: Vec<Tpl>,
}

impl PartCx<'_> {
    /// A live template: registers it and returns `(index, initial HTML)`.
    pub fn live(
        &mut self,
        fns: &mut Fns,
        t: &Text,
        inline: bool,
    ) -> Result<(usize, String), Diagnostic> {
        let d = dyn_tpl(self.lab, Some(self.part), fns, &t.value, inline)?;
        let mut html = d.lits[0].clone();
        for (i, src) in d.srcs.iter().enumerate() {
            match src {
                Ph::Expr(src) => {
                    // As `eval::render_spans`: a prediction not answered yet says so.
                    let held = self.part.exprs.get(src.trim()).and_then(|ce| {
                        xpart::unanswered(self.part, &self.ev, &xpart::reads(self.part, &ce.ast))
                    });
                    let text = match held {
                        Some(t) => t,
                        None => display(
                            &self
                                .lab
                                .eval_expr(Some(self.part), Some(&self.ev), src, &[])
                                .map_err(|e| e.0)?,
                        ),
                    };
                    html.push_str(&esc(&text));
                }
                Ph::Output(name) => {
                    let o = self.lab.output_view(&self.ev, name).map_err(|e| e.0)?;
                    html.push_str(&output_html(&o.display, o.level.as_deref()));
                }
            }
            html.push_str(&d.lits[i + 1]);
        }
        self.tpls.push(d.tpl());
        Ok((self.tpls.len() - 1, html))
    }

    /// A live template's data only (charts: their text is redrawn by charts.js).
    pub fn tpl(&mut self, fns: &mut Fns, t: &Text, inline: bool) -> Result<Tpl, Diagnostic> {
        Ok(dyn_tpl(self.lab, Some(self.part), fns, &t.value, inline)?.tpl())
    }

    /// [`Self::tpl`] of a text that may be absent.
    pub fn tpl_opt(
        &mut self,
        fns: &mut Fns,
        t: &Option<Text>,
        inline: bool,
    ) -> Result<Option<Tpl>, Diagnostic> {
        t.as_ref().map(|t| self.tpl(fns, t, inline)).transpose()
    }
}

const TOKEN_OPEN: char = '\u{E000}';
const TOKEN_CLOSE: char = '\u{E001}';

/// Splits a template into literal HTML pieces (Markdown rendered) and placeholder expressions.
pub(super) fn dyn_tpl(
    lab: &CompiledLab,
    part: Option<&CompiledPart>,
    fns: &mut Fns,
    text: &str,
    inline: bool,
) -> Result<DynTpl, Diagnostic> {
    let segs = segments(text).map_err(|_| "unclosed placeholder".to_string())?;
    let mut marked = String::new();
    let mut srcs = Vec::new();
    for s in &segs {
        match s {
            Segment::Lit(l) => marked.push_str(&l.replace([TOKEN_OPEN, TOKEN_CLOSE], "")),
            Segment::Expr(..) | Segment::Output(..) => {
                marked.push(TOKEN_OPEN);
                marked.push_str(&srcs.len().to_string());
                marked.push(TOKEN_CLOSE);
                srcs.push(placeholder(s));
            }
        }
    }
    let html = if inline {
        md_inline(&marked)
    } else {
        md_block(&marked)
    };
    // Split the HTML at the tokens; they must all survive, in order.
    let mut lits = Vec::new();
    let mut order = Vec::new();
    let mut rest = html.as_str();
    while let Some(i) = rest.find(TOKEN_OPEN) {
        let after = &rest[i + TOKEN_OPEN.len_utf8()..];
        let Some(j) = after.find(TOKEN_CLOSE) else {
            break;
        };
        let Ok(n) = after[..j].parse::<usize>() else {
            break;
        };
        lits.push(rest[..i].to_string());
        order.push(n);
        rest = &after[j + TOKEN_CLOSE.len_utf8()..];
    }
    lits.push(rest.to_string());
    let ok = order.len() == srcs.len() && order.iter().enumerate().all(|(i, n)| i == *n);
    let (lits, srcs) = if ok {
        (lits, srcs)
    } else {
        // Placeholders in places Markdown rewrites (link targets): plain escaped text instead.
        let mut lits = vec![String::new()];
        let mut srcs = Vec::new();
        for s in &segs {
            match s {
                Segment::Lit(l) => lits.last_mut().expect("one").push_str(&esc(l)),
                Segment::Expr(..) | Segment::Output(..) => {
                    srcs.push(placeholder(s));
                    lits.push(String::new());
                }
            }
        }
        (lits, srcs)
    };
    let mut exprs = Vec::new();
    for s in &srcs {
        exprs.push(match s {
            Ph::Expr(e) => {
                let i = fns.expr(lab, part, e)?;
                if let Some(cp) = part {
                    let ast = cp.exprs.get(e.trim()).map(|c| &c.ast);
                    for pid in ast.map(|a| xpart::reads(cp, a)).unwrap_or_default() {
                        let k = if pid == cp.id { String::new() } else { pid };
                        let r = fns.pread.entry(i).or_default();
                        if !r.contains(&k) {
                            r.push(k);
                        }
                    }
                }
                Slot::Expr(i)
            }
            Ph::Output(name) => Slot::Output(format!("@{name}")),
        });
    }
    Ok(DynTpl { lits, exprs, srcs })
}

fn placeholder(s: &Segment) -> Ph {
    match s {
        Segment::Output(name, _) => Ph::Output(name.to_string()),
        Segment::Expr(e, _) | Segment::Lit(e) => Ph::Expr(e.to_string()),
    }
}
