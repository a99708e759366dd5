//! Translation of formulas to JavaScript for the page, and the subset both sides support.
//!
//! [`check_supported`] defines the subset: anything outside it is a `labforge check` error at its
//! position, never a silent difference between the CLI and the page. [`translate`] turns a checked
//! AST into the body of a JavaScript function `function (S) { ... }` that runs against the page's
//! Rhai runtime (`renderers/html/rhai.js`): `S` holds the scope (constants, controls, formulas by
//! name), `B` the built-ins, `L` the library, and the `_`-prefixed helpers reproduce Rhai's
//! semantics (real arithmetic, type checks, string conversion, the operation budget).
//!
//! Keep the two in step: every construct `translate` meets is one `check_supported` accepts, and
//! every construct `check_supported` accepts has a translation.

mod check;
pub use check::check_supported;

use rhai::{ASTFlags, Expr, Stmt, StmtBlock, AST};
use std::collections::HashMap;
use std::fmt::Write;

/// `ns::name` of a call.
fn call_path(f: &rhai::FnCallExpr) -> String {
    let mut path: Vec<&str> = f.namespace.path.iter().map(|i| i.name.as_str()).collect();
    path.push(f.name.as_str());
    path.join("::")
}

fn lib_doc(path: &str) -> Option<&'static crate::library::FnDoc> {
    crate::library::functions().iter().find(|d| d.path == path)
}

/// The parameter types of the library function's overload with `n` parameters, one letter each
/// (`n` number, `s` string, `a` list, `m` record), read from its documented signature.
fn lib_params(doc: &crate::library::FnDoc, n: usize) -> Option<String> {
    doc.signature.split(" / ").find_map(|sig| {
        let inner = &sig[sig.find('(')? + 1..sig.rfind(')')?];
        let types: String = inner
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| match p.rsplit(':').next().map(str::trim) {
                Some("string") => 's',
                Some("array") => 'a',
                Some("map") => 'm',
                _ => 'n',
            })
            .collect();
        (types.len() == n).then_some(types)
    })
}

/// How many arguments a built-in (`super::BUILTINS`, outside the library) takes.
fn builtin_arity(name: &str) -> &'static [usize] {
    match name {
        "log" | "atan" => &[1, 2],
        "contains" | "at" => &[2],
        _ => &[1],
    }
}

fn is_operator(name: &str) -> bool {
    !name.starts_with(|c: char| c.is_alphabetic() || c == '_')
}

/// The runtime helper for an operator with `n` operands.
fn op_helper(name: &str, n: usize) -> Option<&'static str> {
    Some(match (name, n) {
        ("+", 2) => "_add",
        ("-", 2) => "_sub",
        ("*", 2) => "_mul",
        ("/", 2) => "_div",
        ("%", 2) => "_rem",
        ("**", 2) => "_pow",
        ("==", 2) => "_eq",
        ("!=", 2) => "_ne",
        ("<", 2) => "_lt",
        ("<=", 2) => "_le",
        (">", 2) => "_gt",
        (">=", 2) => "_ge",
        ("&", 2) => "_band",
        ("|", 2) => "_bor",
        ("^", 2) => "_bxor",
        ("-", 1) => "_neg",
        ("+", 1) => "_pos",
        ("!", 1) => "_not",
        _ => return None,
    })
}

/// A JavaScript string literal, safe inside an HTML `<script>` element.
pub fn js_string(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            '<' => o.push_str("\\u003c"),
            '>' => o.push_str("\\u003e"),
            '&' => o.push_str("\\u0026"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// A JavaScript number literal for an f64 (finite values; others through globals).
pub fn js_number(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else if x == 0.0 && x.is_sign_negative() {
        "-0".into()
    } else {
        // `{:?}` is the shortest round-trip form ("0.1", "1e-7", "3.0"), valid JavaScript.
        let s = format!("{x:?}");
        s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
    }
}

/// The runtime helpers a translated body calls, bound by name in [`module`].
const HELPERS: &[&str] = &[
    "_tick", "_bool", "_add", "_sub", "_mul", "_div", "_rem", "_pow", "_eq", "_ne", "_lt", "_le",
    "_gt", "_ge", "_band", "_bor", "_bxor", "_neg", "_pos", "_not", "_cat", "_map", "_json",
    "_iter", "_prop", "_idx", "_fn", "_bad", "_adda", "_sz", "_rd", "_in",
];

/// The page script defining `window.LF_MAKE(H, B, L)`, which returns the translated bodies as
/// functions (index = position in `bodies`); `H` holds the runtime's helpers, of which the
/// bodies' own are bound by name.
///
/// `fns` are the lab's functions (path, parameters, translated body); only those the bodies
/// call, directly or through each other, are written, as `F[path]`, each running its body
/// against a scope of its arguments.
///
/// `consts` are the course modules' constants (`comm::ALPHA_S` and its value as JSON); those
/// the code reads are written into the table `K`.
pub fn module(
    bodies: &[String],
    fns: &[(String, Vec<String>, String)],
    consts: &[(String, serde_json::Value)],
) -> String {
    let mut called: Vec<&(String, Vec<String>, String)> = Vec::new();
    loop {
        let before = called.len();
        for f in fns {
            let call = format!("F[{}](", js_string(&f.0));
            let uses = |b: &String| b.contains(&call);
            if !called.iter().any(|c| c.0 == f.0)
                && (bodies.iter().any(uses) || called.iter().any(|c| uses(&c.2)))
            {
                called.push(f);
            }
        }
        if called.len() == before {
            break;
        }
    }
    called.sort_by(|a, b| a.0.cmp(&b.0));
    let code = || bodies.iter().chain(called.iter().map(|f| &f.2));
    let mut table = String::new();
    for (k, v) in consts {
        let key = js_string(k);
        if code().any(|b| b.contains(&format!("K[{key}]"))) {
            if table.is_empty() {
                table.push_str("var K=Object.create(null);");
            }
            let _ = write!(table, "K[{key}]=_json({});", js_string(&v.to_string()));
        }
    }
    let used: Vec<&str> = HELPERS
        .iter()
        .copied()
        .filter(|h| {
            let call = format!("{h}(");
            code().any(|b| b.contains(&call))
                || table.contains(&call)
                || (*h == "_in" && !called.is_empty())
        })
        .collect();
    // The directive covers the whole script (a function with a destructuring parameter cannot
    // have its own).
    let mut s = format!(
        "\"use strict\";window.LF_MAKE=function({{{}}},B,L){{",
        used.join(",")
    );
    s.push_str(&table);
    if !called.is_empty() {
        s.push_str("var F=Object.create(null);\n");
        for (path, params, body) in called {
            // `_l` is the body's line running now (set by a body of several lines, see
            // `translate_fn`); an error leaves the body named as Rust names it (`_in`).
            let _ = write!(
                s,
                "F[{}]=function(){{var A=arguments,S=Object.create(null),_l=1;",
                js_string(path)
            );
            for (i, p) in params.iter().enumerate() {
                let _ = write!(s, "S[{}]=A[{i}];", js_string(p));
            }
            let _ = writeln!(
                s,
                "try{{{body}}}catch(e){{throw _in(e,{},_l)}}}};",
                js_string(path)
            );
        }
    }
    s.push_str("return [\n");
    for b in bodies {
        s.push_str("S=>{");
        s.push_str(b);
        s.push_str("},\n");
    }
    s.push_str("];};\n");
    s
}

/// Translates a checked formula to the body of `function (S) { ... }`. Library functions are
/// looked up in `L` by path, everything else in `B`.
pub fn translate(ast: &AST) -> String {
    translate_with(ast, false)
}

/// [`translate`] for a lab function's body: when `lines` (a body of several lines), each
/// statement first records its line in the body in `_l`, which an error reports as Rust does
/// (`in `f` (line 2 of its body): ...`).
pub fn translate_fn(ast: &AST, lines: bool) -> String {
    translate_with(ast, lines)
}

fn translate_with(ast: &AST, lines: bool) -> String {
    let mut t = Tr {
        out: String::new(),
        scopes: vec![HashMap::new()],
        next: 0,
        lines,
    };
    let stmts: Vec<&Stmt> = ast.statements().iter().collect();
    t.body(&stmts, true);
    t.out
}

struct Tr {
    out: String,
    /// Rhai name -> JavaScript name of the local variables in scope, innermost last.
    scopes: Vec<HashMap<String, String>>,
    next: usize,
    /// Whether statements record their line in `_l` ([`translate_fn`]).
    lines: bool,
}

impl Tr {
    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }
    fn pop_scope(&mut self) {
        self.scopes.pop();
    }
    fn declare(&mut self, name: &str) -> String {
        self.next += 1;
        let js = format!(
            "v{}_{}",
            self.next,
            name.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect::<String>()
        );
        self.scopes
            .last_mut()
            .expect("a scope")
            .insert(name.to_string(), js.clone());
        js
    }
    fn lookup(&self, name: &str) -> String {
        for s in self.scopes.iter().rev() {
            if let Some(js) = s.get(name) {
                return js.clone();
            }
        }
        if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
        {
            format!("S.{name}")
        } else {
            format!("S[{}]", js_string(name))
        }
    }

    /// Statements; when `tail`, the last statement's value is returned (as Rhai's block value).
    fn body(&mut self, stmts: &[&Stmt], tail: bool) {
        let n = stmts.len();
        for (i, s) in stmts.iter().enumerate() {
            self.stmt(s, tail && i + 1 == n);
        }
        if tail && n == 0 {
            self.out.push_str("return undefined;");
        }
    }

    fn block(&mut self, b: &StmtBlock, tail: bool) {
        self.push_scope();
        let stmts: Vec<&Stmt> = b.iter().collect();
        self.body(&stmts, tail);
        self.pop_scope();
    }

    fn stmt(&mut self, s: &Stmt, tail: bool) {
        if self.lines && super::budget::tick_weight(s).is_none() {
            if let Some(l) = s.position().line() {
                let _ = write!(self.out, "_l={l};");
            }
        }
        match s {
            Stmt::Noop(_) => {
                if tail {
                    self.out.push_str("return undefined;");
                }
            }
            Stmt::Expr(e) => {
                let js = self.expr(e);
                if tail {
                    let _ = write!(self.out, "return {js};");
                } else {
                    let _ = write!(self.out, "{js};");
                }
            }
            Stmt::FnCall(_, _) if super::budget::tick_weight(s).is_some() => {
                let w = super::budget::tick_weight(s).unwrap_or(1);
                let _ = write!(self.out, "_tick({w});");
                if tail {
                    self.out.push_str("return undefined;");
                }
            }
            Stmt::FnCall(f, _) => {
                let js = self.call(f, None);
                if tail {
                    let _ = write!(self.out, "return {js};");
                } else {
                    let _ = write!(self.out, "{js};");
                }
            }
            Stmt::Var(b, _, _) => {
                let rhs = self.expr(&b.1);
                let name = self.declare(&b.0.name);
                let _ = write!(self.out, "let {name}={rhs};");
                if tail {
                    self.out.push_str("return undefined;");
                }
            }
            Stmt::Assignment(b) => {
                let (op, bin) = (&b.0, &b.1);
                let target = match &bin.lhs {
                    Expr::Variable(v, _, _) => self.lookup(&v.1),
                    _ => "undefined".into(),
                };
                let rhs = self.expr(&bin.rhs);
                match op.get_op_assignment_info() {
                    Some((_, _, _, _, _, syntax)) => {
                        // `list += x` appends `x` where `list + x` is an error.
                        let h = match syntax {
                            "+" => "_adda",
                            s => op_helper(s, 2).unwrap_or("_bad"),
                        };
                        let _ = write!(self.out, "{target}={h}({target},{rhs});");
                    }
                    None => {
                        let _ = write!(self.out, "{target}={rhs};");
                    }
                }
                if tail {
                    self.out.push_str("return undefined;");
                }
            }
            Stmt::If(fc, _) => {
                let c = self.expr(&fc.expr);
                let _ = write!(self.out, "if(_bool({c})){{");
                self.block(&fc.body, tail);
                self.out.push_str("}else{");
                self.block(&fc.branch, tail);
                self.out.push('}');
            }
            // Each iteration's charge is the `__tick` first in the body (`budget::instrument`).
            Stmt::While(fc, _) => {
                if matches!(fc.expr, Expr::Unit(_)) {
                    self.out.push_str("while(true){");
                } else {
                    let c = self.expr(&fc.expr);
                    let _ = write!(self.out, "while(_bool({c})){{");
                }
                self.block(&fc.body, false);
                self.out.push('}');
                if tail {
                    self.out.push_str("return undefined;");
                }
            }
            Stmt::For(b, _) => {
                let it = self.expr(&b.2.expr);
                self.push_scope();
                let v = self.declare(&b.0.name);
                let _ = write!(self.out, "for(let {v} of _iter({it})){{");
                self.block(&b.2.body, false);
                self.pop_scope();
                self.out.push('}');
                if tail {
                    self.out.push_str("return undefined;");
                }
            }
            Stmt::Block(b) => {
                self.out.push('{');
                self.block(b, tail);
                self.out.push('}');
            }
            Stmt::BreakLoop(_, flags, _) => {
                if flags.contains(ASTFlags::BREAK) {
                    self.out.push_str("break;");
                } else {
                    self.out.push_str("continue;");
                }
            }
            // Rejected by `check_supported`.
            _ => self.out.push_str("_bad();"),
        }
    }

    fn args(&mut self, args: &[Expr], first: Option<String>) -> String {
        let mut v: Vec<String> = first.into_iter().collect();
        v.extend(args.iter().map(|a| self.expr(a)));
        v.join(",")
    }

    fn call(&mut self, f: &rhai::FnCallExpr, receiver: Option<String>) -> String {
        // A charged variable read inside a loop (`budget::instrument`).
        if receiver.is_none() && f.name == super::budget::READ && f.args.len() == 1 {
            return format!("_rd({})", self.expr(&f.args[0]));
        }
        let n = f.args.len() + usize::from(receiver.is_some());
        if receiver.is_none() && (f.op_token.is_some() || is_operator(&f.name)) {
            let h = op_helper(&f.name, n).unwrap_or("_bad");
            return format!("{h}({})", self.args(&f.args, None));
        }
        let path = call_path(f);
        // A lab function: a plain JavaScript function of the module (`module`).
        if lib_doc(&path).is_none() && !super::BUILTINS.contains(&path.as_str()) {
            return format!("F[{}]({})", js_string(&path), self.args(&f.args, receiver));
        }
        // Library calls check their arguments' types (numbers unless the signature says
        // otherwise) and their result's size in the runtime, as Rhai does.
        let (table, sig) = match lib_doc(&path) {
            Some(doc) => match lib_params(doc, n) {
                Some(t) if t.contains(|c| c != 'n') => ("L", format!(",{}", js_string(&t))),
                _ => ("L", String::new()),
            },
            None => ("B", String::new()),
        };
        format!(
            "_fn({table},{}{sig})({})",
            js_string(&path),
            self.args(&f.args, receiver)
        )
    }

    fn expr(&mut self, e: &Expr) -> String {
        match e {
            Expr::BoolConstant(b, _) => b.to_string(),
            Expr::FloatConstant(f, _) => js_number(**f),
            Expr::IntegerConstant(i, _) => js_number(*i as f64),
            Expr::StringConstant(s, _) => js_string(s),
            Expr::DynamicConstant(d, _) => {
                let j = super::to_json(d);
                format!("_json({})", js_string(&j.to_string()))
            }
            Expr::InterpolatedString(v, _) => {
                let parts: Vec<String> = v.iter().map(|x| self.expr(x)).collect();
                format!("_cat([{}])", parts.join(","))
            }
            Expr::Array(v, _) => {
                let parts: Vec<String> = v.iter().map(|x| self.expr(x)).collect();
                if v.iter().all(|x| x.is_constant()) {
                    format!("[{}]", parts.join(","))
                } else {
                    // Elements that are lists, records or strings count toward the size limits.
                    format!("_sz([{}])", parts.join(","))
                }
            }
            Expr::Map(b, _) => {
                let mut keys = Vec::new();
                let mut vals = Vec::new();
                for (k, x) in b.0.iter() {
                    keys.push(js_string(&k.name));
                    vals.push(self.expr(x));
                }
                format!("_map([{}],[{}])", keys.join(","), vals.join(","))
            }
            // A course module's constant (`comm::ALPHA_S`): the module script's table `K`.
            Expr::Variable(v, _, _) if !v.2.is_empty() => {
                let mut path: Vec<&str> = v.2.path.iter().map(|i| i.name.as_str()).collect();
                path.push(v.1.as_str());
                format!("K[{}]", js_string(&path.join("::")))
            }
            Expr::Variable(v, _, _) => self.lookup(&v.1),
            Expr::FnCall(f, _) => self.call(f, None),
            Expr::Stmt(b) => self.value_block(b),
            Expr::Dot(b, _, _) => {
                let target = self.expr(&b.lhs);
                self.dot(target, &b.rhs)
            }
            Expr::Index(b, _, _) => {
                let target = self.expr(&b.lhs);
                let k = self.expr(&b.rhs);
                format!("_idx({target},{k})")
            }
            Expr::And(v, _) => {
                let parts: Vec<String> = v
                    .iter()
                    .map(|x| format!("_bool({})", self.expr(x)))
                    .collect();
                format!("({})", parts.join("&&"))
            }
            Expr::Or(v, _) => {
                let parts: Vec<String> = v
                    .iter()
                    .map(|x| format!("_bool({})", self.expr(x)))
                    .collect();
                format!("({})", parts.join("||"))
            }
            // Rejected by `check_supported`.
            _ => "_bad()".into(),
        }
    }

    fn dot(&mut self, target: String, rhs: &Expr) -> String {
        match rhs {
            Expr::Property(p, _) => format!("_prop({target},{})", js_string(&p.2)),
            Expr::MethodCall(f, _) => self.call(f, Some(target)),
            Expr::Dot(b, _, _) => {
                let t = self.dot(target, &b.lhs);
                self.dot(t, &b.rhs)
            }
            _ => "_bad()".into(),
        }
    }

    /// A block used as a value: `if` with single-expression branches becomes `?:`, anything else
    /// an arrow function called at once.
    fn value_block(&mut self, b: &StmtBlock) -> String {
        let stmts: Vec<&Stmt> = b.iter().collect();
        if let [Stmt::If(fc, _)] = stmts.as_slice() {
            let single = |blk: &StmtBlock| -> Option<Expr> {
                match blk.iter().collect::<Vec<_>>().as_slice() {
                    [Stmt::Expr(e)] => Some((**e).clone()),
                    _ => None,
                }
            };
            let branch_empty = fc.branch.iter().next().is_none();
            if let (Some(a), branch) = (single(&fc.body), single(&fc.branch)) {
                if branch_empty || branch.is_some() {
                    let c = self.expr(&fc.expr);
                    let a = self.expr(&a);
                    let b = match branch {
                        Some(x) => self.expr(&x),
                        None => "undefined".into(),
                    };
                    return format!("(_bool({c})?{a}:{b})");
                }
            }
        }
        let saved = std::mem::take(&mut self.out);
        self.block(b, true);
        let inner = std::mem::replace(&mut self.out, saved);
        format!("(()=>{{{inner}}})()")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every helper a translation may call is in the runtime's table `H`, and nothing else is.
    #[test]
    fn helpers_match_the_runtime_table() {
        let rt = include_str!("../../../../renderers/html/rhai.js");
        let start = rt.find("var H = {").expect("the helper table") + "var H = {".len();
        let table: Vec<&str> = rt[start..start + rt[start..].find('}').unwrap()]
            .split(',')
            .map(str::trim)
            .collect();
        let mut want: Vec<&str> = HELPERS.to_vec();
        let mut got = table.clone();
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want);
    }

    #[test]
    fn module_binds_only_the_lab_functions_called() {
        let f = |p: &str, body: &str| (p.to_string(), vec!["v".to_string()], body.to_string());
        let fns = [
            f("used", "return F[\"inner\"](S.v);"),
            f("inner", "return _neg(S.v);"),
            f("unused", "return _sub(S.v,1);"),
        ];
        let m = module(&["return F[\"used\"](1);".to_string()], &fns, &[]);
        assert!(m.contains(
            "F[\"used\"]=function(){var A=arguments,S=Object.create(null),_l=1;S[\"v\"]=A[0];\
             try{return F[\"inner\"](S.v);}catch(e){throw _in(e,\"used\",_l)}};"
        ));
        assert!(m.contains("F[\"inner\"]=function()"));
        assert!(!m.contains("unused") && !m.contains("_sub"), "{m}");
        // `_in` names an error leaving a function's body.
        assert!(m.contains("function({_neg,_in},B,L)"), "{m}");
        assert!(!module(&["return 1;".to_string()], &fns, &[]).contains("var F"));
    }

    /// A body of several lines records the line each statement starts on; one line does not.
    #[test]
    fn a_function_body_of_several_lines_tracks_its_line() {
        let e = crate::formula::FormulaEngine::new();
        let known: std::collections::BTreeSet<String> = ["xs".to_string()].into();
        let ast = e.compile("let n = len(xs);\n\nn * 2", &known).unwrap();
        let js = translate_fn(&ast, true);
        assert!(
            js.contains("_l=1;let ") && js.contains("_l=3;return"),
            "{js}"
        );
        assert!(!translate_fn(&ast, false).contains("_l="));
        assert_eq!(translate_fn(&ast, false), translate(&ast));
    }

    #[test]
    fn module_binds_only_the_helpers_used() {
        let m = module(&["return _add(S.a,1);".to_string()], &[], &[]);
        assert!(m.starts_with("\"use strict\";window.LF_MAKE=function({_add},B,L)"));
    }
}
