//! Compiling lab functions (`functions:` of a lab, and of the course modules it uses): names
//! checked, bodies compiled against their arguments, call cycles and over-deep call chains
//! reported at the call, then the bodies registered on the lab's engine.

use super::compile::{CompiledExpr, Compiler};
use crate::diag::Diagnostic;
use crate::formula::labfn::{LabFn, MAX_CALL_DEPTH};
use crate::formula::{calls, FormulaEngine};
use crate::load::Source;
use crate::model::{Function, Pos};
use std::collections::{BTreeMap, BTreeSet};

/// A function to compile: where it is written, its namespace (a course module's), its text.
pub struct FnDef<'a> {
    pub source: &'a Source,
    pub namespace: Option<&'a str>,
    pub def: &'a Function,
}

/// A compiled lab function.
#[derive(Clone)]
pub struct CompiledFn {
    /// `f`, or `ns::f` for a module's.
    pub path: String,
    pub def: Function,
    pub params: Vec<String>,
    pub body: CompiledExpr,
    /// The file it is written in.
    pub file: String,
}

impl CompiledFn {
    /// What the page runs: path, parameters and the body translated to JavaScript.
    pub fn js(&self) -> (String, Vec<String>, String) {
        (
            self.path.clone(),
            self.params.clone(),
            crate::formula::js::translate_fn(
                &self.body.ast,
                self.body.src.trim_end().contains('\n'),
            ),
        )
    }
}

fn is_ident(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !s.starts_with("__")
}

/// Compiles `defs` and registers them on `engine`; problems go to `diags`.
pub fn compile(
    defs: &[FnDef],
    engine: &mut FormulaEngine,
    diags: &mut Vec<Diagnostic>,
) -> Vec<CompiledFn> {
    let errors_before = diags.iter().filter(|d| d.is_error()).count();
    let builtin = crate::formula::function_names();
    let mut declared: BTreeMap<String, Pos> = BTreeMap::new();
    let mut ok: Vec<(String, &FnDef)> = Vec::new();
    for d in defs {
        let f = d.def;
        let name = &f.name;
        let path = match d.namespace {
            Some(ns) => format!("{ns}::{}", name.value),
            None => name.value.clone(),
        };
        let mut err = |msg: String, hint: &str| {
            diags.push(Diagnostic::error(&d.source.name, name.pos, msg).with_hint(hint));
        };
        if !is_ident(&name.value) {
            err(
                format!("`{}` is not a function name", name.value),
                "use letters, digits and `_`, starting with a letter",
            );
            continue;
        }
        if builtin.contains(&path) {
            err(
                format!("function `{path}` has the name of a built-in"),
                "give it another name; `labforge lib` lists the built-ins",
            );
            continue;
        }
        if let Some(p) = declared.get(&path) {
            err(
                format!("function `{path}` is defined twice (line {})", p.line),
                "give each function a different name",
            );
            continue;
        }
        let mut seen = BTreeSet::new();
        if let Some(bad) = f
            .args
            .iter()
            .map(|a| a.name())
            .find(|a| !is_ident(a) || !seen.insert(*a))
        {
            err(
                format!("function `{path}`: argument `{bad}` is not a name or is repeated"),
                "name each argument once, with letters, digits and `_`",
            );
            continue;
        }
        declared.insert(path.clone(), name.pos);
        engine.declare(&path, f.args.len(), f.signature(&path));
        ok.push((path, d));
    }

    let mut compiled = Vec::new();
    for (path, d) in ok {
        let params: Vec<String> = d.def.args.iter().map(|a| a.name().to_string()).collect();
        let known: BTreeSet<String> = params.iter().cloned().collect();
        let mut c = Compiler::new(d.source, engine);
        let mut one = std::collections::HashMap::new();
        c.expr(&d.def.body, &known, &format!("function `{path}`"), &mut one);
        for d in c.diags.iter_mut() {
            if d.message.contains("unknown name `") {
                let args: Vec<String> = params.iter().map(|p| format!("`{p}`")).collect();
                d.hint = Some(format!(
                    "a function sees only its arguments ({}); pass other values in as arguments, or read a course module's constant as `ns::NAME`",
                    if args.is_empty() { "none".to_string() } else { args.join(", ") }
                ));
            }
        }
        diags.append(&mut c.diags);
        if let Some(body) = one.remove(d.def.body.value.trim()) {
            compiled.push(CompiledFn {
                path,
                def: d.def.clone(),
                params,
                body,
                file: d.source.name.clone(),
            });
        }
    }
    graph_errors(&compiled, diags);
    // Registered unless the functions themselves are wrong (another mistake in the lab must not
    // make every call an unknown function).
    if diags.iter().filter(|d| d.is_error()).count() == errors_before {
        let fns: Vec<LabFn> = compiled
            .iter()
            .map(|f| LabFn {
                path: f.path.clone(),
                params: f.params.clone(),
                ast: f.body.ast.clone(),
            })
            .collect();
        engine.define(&fns);
    }
    compiled
}

/// Recursion (a call that closes a cycle, at that call) and call chains deeper than
/// [`MAX_CALL_DEPTH`].
fn graph_errors(fns: &[CompiledFn], diags: &mut Vec<Diagnostic>) {
    let index: BTreeMap<&str, usize> = fns
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.as_str(), i))
        .collect();
    // Each function's calls of lab functions: (callee, file position of the call).
    let edges: Vec<Vec<(usize, Pos)>> = fns
        .iter()
        .map(|f| {
            calls(&f.body.ast)
                .into_iter()
                .filter_map(|(name, pos)| {
                    let fe = crate::formula::FormulaError::at(pos, String::new());
                    index.get(name.as_str()).map(|i| (*i, f.body.locate(&fe)))
                })
                .collect()
        })
        .collect();
    // Depth-first search; a call to a function on the stack closes a cycle.
    #[derive(Clone, Copy, PartialEq)]
    enum St {
        New,
        Open,
        Done(usize),
    }
    let mut st = vec![St::New; fns.len()];
    let mut reported = BTreeSet::new();
    fn visit(
        i: usize,
        fns: &[CompiledFn],
        edges: &[Vec<(usize, Pos)>],
        st: &mut Vec<St>,
        stack: &mut Vec<usize>,
        reported: &mut BTreeSet<Vec<usize>>,
        diags: &mut Vec<Diagnostic>,
    ) -> usize {
        st[i] = St::Open;
        stack.push(i);
        let mut depth = 1;
        for &(j, pos) in &edges[i] {
            match st[j] {
                St::Open => {
                    let from = stack.iter().position(|&k| k == j).unwrap_or(0);
                    let mut cycle: Vec<usize> = stack[from..].to_vec();
                    cycle.sort_unstable();
                    if reported.insert(cycle) {
                        let names: Vec<&str> = stack[from..]
                            .iter()
                            .chain(std::iter::once(&j))
                            .map(|&k| fns[k].path.as_str())
                            .collect();
                        diags.push(
                            Diagnostic::error(
                                &fns[i].file,
                                pos,
                                format!(
                                    "function `{}` is called recursively: {}",
                                    fns[j].path,
                                    names.join(" → ")
                                ),
                            )
                            .with_hint(
                                "lab functions cannot call themselves, directly or through others; write the repetition as a loop",
                            ),
                        );
                    }
                }
                St::New => {
                    depth = depth.max(1 + visit(j, fns, edges, st, stack, reported, diags));
                }
                St::Done(d) => depth = depth.max(1 + d),
            }
        }
        stack.pop();
        st[i] = St::Done(depth);
        depth
    }
    for i in 0..fns.len() {
        if st[i] == St::New {
            visit(
                i,
                fns,
                &edges,
                &mut st,
                &mut Vec::new(),
                &mut reported,
                diags,
            );
        }
    }
    if !reported.is_empty() {
        return;
    }
    for (i, s) in st.iter().enumerate() {
        if let St::Done(d) = s {
            if *d > MAX_CALL_DEPTH {
                diags.push(
                    Diagnostic::error(
                        &fns[i].file,
                        fns[i].def.name.pos,
                        format!(
                            "function `{}` nests {d} calls of lab functions (at most {MAX_CALL_DEPTH})",
                            fns[i].path
                        ),
                    )
                    .with_hint("call fewer functions inside each other; inline the smallest"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::load::Source;

    /// A lab whose functions `f1` … `fN` call each other in a chain, the formula calling `f1`.
    fn chain(n: usize) -> String {
        let mut s = String::from("id: chain\ntitle: Chain\nfunctions:\n");
        for i in 1..=n {
            let body = if i == n {
                "v + 1".to_string()
            } else {
                format!("f{}(v) + 1", i + 1)
            };
            s.push_str(&format!(
                "  - {{ name: f{i}, args: [v], body: \"{body}\" }}\n"
            ));
        }
        s.push_str(
            "parts:\n  - id: a\n    title: A\n    formulas: { y: f1(0) }\n    outputs: { y: { label: Y } }\n    instruments: [ { metrics: [ { output: y } ] } ]\n",
        );
        s
    }

    #[test]
    fn call_chains_are_bounded_statically() {
        let n = super::MAX_CALL_DEPTH;
        let lab = crate::eval::load_source(Source::new("ok.yaml", chain(n)))
            .unwrap_or_else(|e| panic!("{:?}", e.1));
        let ev = lab
            .evaluate(lab.part("a").expect("part a"), &indexmap::IndexMap::new())
            .expect("evaluates");
        assert_eq!(crate::formula::as_number(&ev.values["y"]), Some(n as f64));
        let errs = match crate::eval::load_source(Source::new("deep.yaml", chain(n + 1))) {
            Ok(_) => panic!("a chain of {} calls compiled", n + 1),
            Err((_, d)) => d,
        };
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(
            errs[0].message
                == format!(
                    "function `f1` nests {} calls of lab functions (at most {n})",
                    n + 1
                ),
            "{errs:?}"
        );
        assert_eq!((errs[0].line, errs[0].col), (4, 13));
    }

    /// Another mistake in the lab (two parts with one id) is reported alone: the functions are
    /// still registered, so a lab-level formula calling one does not fail too.
    #[test]
    fn an_unrelated_error_does_not_unregister_the_functions() {
        let lab = "id: x\ntitle: X\nfunctions:\n  - { name: dbl, args: [v], body: v * 2 }\nformulas:\n  k: dbl(2)\nparts: [ { id: a, title: A }, { id: a, title: B } ]\n";
        let Err((_, d)) = crate::eval::load_source(Source::new("x.yaml", lab)) else {
            panic!("compiled");
        };
        assert!(d.iter().all(|d| !d.message.contains("dbl")), "{d:?}");
        assert!(d.iter().any(|d| d.message.contains("part id")), "{d:?}");
    }

    #[test]
    fn names_of_built_ins_and_repeated_arguments_are_refused() {
        let lab = "id: x\ntitle: X\nfunctions:\n  - { name: sqrt, args: [v], body: v }\n  - { name: g, args: [a, a], body: a }\n  - { name: g2, body: 1 }\n  - { name: g2, body: 2 }\nparts: [ { id: a, title: A } ]\n";
        let Err((_, d)) = crate::eval::load_source(Source::new("x.yaml", lab)) else {
            panic!("compiled");
        };
        let msgs: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "function `sqrt` has the name of a built-in",
                "function `g`: argument `a` is not a name or is repeated",
                "function `g2` is defined twice (line 6)",
            ]
        );
    }
}
