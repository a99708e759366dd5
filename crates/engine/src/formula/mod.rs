//! The formula engine: sandboxed Rhai with real-number arithmetic.
//!
//! Every integer literal is read as a float (so `7/2` is 3.5, as in the page's JavaScript), and
//! so are lengths (`len`), so formulas never meet an integer; user
//! functions, modules and `eval` are unavailable, and operations, call depth, expression depth and
//! string/array/map sizes are bounded. The same AST is evaluated here and translated to JavaScript
//! for the page ([`js`]), so both sides run the same program.

pub mod budget;
mod charged;
pub mod js;
pub mod labfn;
pub mod messages;

use budget::{Meter, Overrun};
use rhai::{Dynamic, Engine, OptimizationLevel, Position, Scope, Stmt, AST};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Limits applied to every formula evaluation, here and in the page.
pub mod limits {
    /// Work units one formula evaluation may spend (see [`super::budget`]).
    pub const MAX_OPERATIONS: u64 = super::budget::EVAL_BUDGET;
    /// Work units all the evaluations of one command or page update may spend together.
    pub const LAB_OPERATIONS: u64 = super::budget::LAB_BUDGET;
    pub const MAX_EXPR_DEPTH: usize = 64;
    pub const MAX_STRING: usize = 10_000;
    pub const MAX_ARRAY: usize = 10_000;
    pub const MAX_MAP: usize = 1_000;
    pub const MAX_VARIABLES: usize = 256;
}

/// Functions of Rhai's standard library that formulas may call (the page's runtime implements
/// exactly these). Library functions come from [`crate::library::functions`].
pub const BUILTINS: &[&str] = &[
    "sqrt",
    "exp",
    "ln",
    "log",
    "abs",
    "floor",
    "ceiling",
    "round",
    "min",
    "max",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "is_nan",
    "is_infinite",
    "is_finite",
    "to_string",
    "len",
    "contains",
    "at",
    "sign",
    "to_upper",
    "to_lower",
    "keys",
    "values",
    "sum",
];

/// A compile or run-time problem inside one formula, positioned in the formula's own text
/// (1-based line and column).
#[derive(Debug, Clone, PartialEq)]
pub struct FormulaError {
    pub line: usize,
    pub col: usize,
    pub message: String,
    pub hint: Option<String>,
}

impl FormulaError {
    pub(crate) fn at(pos: Position, message: String) -> FormulaError {
        FormulaError {
            line: pos.line().unwrap_or(1),
            col: pos.position().unwrap_or(1),
            message,
            hint: None,
        }
    }
}

/// The configured, sandboxed Rhai engine.
pub struct FormulaEngine {
    engine: Engine,
    meter: Arc<Meter>,
    /// A compiled `__tick(1)`, the model of the charges [`budget::instrument`] inserts.
    tick: Stmt,
    /// A compiled `__rd(x)`, the model of the charged variable reads inside loops.
    read: rhai::Expr,
    /// The lab's functions ([`labfn`]) by path: argument count and signature.
    lab_fns: BTreeMap<String, (usize, String)>,
    /// Course modules' constants by namespace (`comm` -> `ALPHA_S` = ...).
    module_consts: BTreeMap<String, Vec<(String, Dynamic)>>,
}

impl Default for FormulaEngine {
    fn default() -> Self {
        Self::new()
    }
}

impl FormulaEngine {
    pub fn new() -> FormulaEngine {
        let mut engine = Engine::new();
        engine.set_optimization_level(OptimizationLevel::None);
        engine.set_fast_operators(false);
        #[allow(deprecated)]
        engine.on_parse_token(|token, _, _| match token {
            rhai::Token::IntegerConstant(n) => rhai::Token::FloatConstant(Box::new((
                (n as rhai::FLOAT).into(),
                n.to_string().into(),
            ))),
            t => t,
        });
        // Every number is real: lengths are floats (Rhai's `len` returns integers, which the
        // page cannot reproduce faithfully), and a string iterates as one-character strings
        // (Rhai's as characters, a type the page does not have). Engine-registered functions and
        // modules are searched before Rhai's packages.
        engine.register_fn("len", |a: &mut rhai::Array| a.len() as rhai::FLOAT);
        engine.register_get("len", |a: &mut rhai::Array| a.len() as rhai::FLOAT);
        engine.register_fn("len", |m: &mut rhai::Map| m.len() as rhai::FLOAT);
        let mut strings = rhai::Module::new();
        strings.set_iter(std::any::TypeId::of::<rhai::ImmutableString>(), |v| {
            let s = v.cast::<rhai::ImmutableString>();
            let chars: Vec<Dynamic> = s.chars().map(|c| Dynamic::from(c.to_string())).collect();
            Box::new(chars.into_iter())
        });
        engine.register_global_module(strings.into());
        engine.register_fn(
            "at",
            |a: &mut rhai::Array, i: rhai::FLOAT| -> Result<Dynamic, Box<rhai::EvalAltResult>> {
                if i.fract() != 0.0 || i < 0.0 || i as usize >= a.len() {
                    return Err(
                        format!("index {i} is outside the list (length {})", a.len()).into(),
                    );
                }
                Ok(a[i as usize].clone())
            },
        );
        engine.register_fn("sign", |x: rhai::FLOAT| {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }
        });
        let meter = Meter::new();
        charged::register(&mut engine, &meter);
        crate::library::register(&mut engine);
        charged::register_library(&mut engine, &meter);
        // Sandbox: no modules, no eval, no output, bounded everything.
        engine.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
        for sym in ["eval", "import", "export", "print", "debug"] {
            engine.disable_symbol(sym);
        }
        engine.on_print(|_| {});
        engine.on_debug(|_, _, _| {});
        // The work budget is charged by `__tick` and the built-ins (see `budget`), not by Rhai's
        // operation count, so that the page can charge exactly the same.
        engine.set_max_operations(0);
        engine.set_max_expr_depths(limits::MAX_EXPR_DEPTH);
        engine.set_max_string_size(limits::MAX_STRING);
        engine.set_max_array_size(limits::MAX_ARRAY);
        engine.set_max_map_size(limits::MAX_MAP);
        engine.set_max_variables(limits::MAX_VARIABLES);
        engine.set_strict_variables(true);
        let tick = match engine
            .compile(format!("{}(1)", budget::TICK))
            .expect("the tick compiles")
            .statements()[0]
            .clone()
        {
            Stmt::Expr(e) => match *e {
                rhai::Expr::FnCall(f, pos) => Stmt::FnCall(f, pos),
                e => Stmt::Expr(e.into()),
            },
            s => s,
        };
        let mut x = Scope::new();
        x.push_dynamic("x", Dynamic::UNIT);
        let read = match engine
            .compile_with_scope(&x, format!("{}(x)", budget::READ))
            .expect("the read compiles")
            .statements()[0]
            .clone()
        {
            Stmt::Expr(e) => *e,
            Stmt::FnCall(f, pos) => rhai::Expr::FnCall(f, pos),
            s => panic!("unexpected read template {s:?}"),
        };
        FormulaEngine {
            engine,
            meter,
            tick,
            read,
            lab_fns: BTreeMap::new(),
            module_consts: BTreeMap::new(),
        }
    }

    /// Declares a course module's namespace and constants, so that formulas compiled from now
    /// on may read `ns::NAME` (and call the module's functions once declared).
    pub fn declare_module(&mut self, ns: &str, consts: Vec<(String, Dynamic)>) {
        self.module_consts.insert(ns.to_string(), consts);
        labfn::register(&mut self.engine, &self.meter, &[], &self.module_consts);
    }

    /// The course modules' constants, by namespace.
    pub fn module_consts(&self) -> &BTreeMap<String, Vec<(String, Dynamic)>> {
        &self.module_consts
    }

    /// Makes `hw(id)` find `devices` (a course's) before the built-in table.
    pub fn add_devices(&mut self, devices: Vec<crate::library::Device>) {
        crate::library::register_devices(&mut self.engine, devices);
    }

    /// Makes `model(id)` find `models` (a course's) before the built-in table.
    pub fn add_models(&mut self, models: Vec<crate::library::Model>) {
        if !models.is_empty() {
            crate::library::register_models(&mut self.engine, models);
        }
    }

    /// Declares a lab function (`f` or `ns::f`) so that formulas compiled from now on may call
    /// it; [`Self::define`] registers its body once every body is compiled.
    pub fn declare(&mut self, path: &str, arity: usize, signature: String) {
        self.lab_fns.insert(path.to_string(), (arity, signature));
    }

    /// The declared lab functions by path: argument count and signature.
    pub fn lab_fns(&self) -> &BTreeMap<String, (usize, String)> {
        &self.lab_fns
    }

    /// Registers the compiled lab functions.
    pub fn define(&mut self, fns: &[labfn::LabFn]) {
        labfn::register(&mut self.engine, &self.meter, fns, &self.module_consts);
    }

    /// The work meter shared by every evaluation of this engine.
    pub fn meter(&self) -> &Meter {
        &self.meter
    }

    /// The underlying engine (for library tests and the JS translator's checks).
    pub fn rhai(&self) -> &Engine {
        &self.engine
    }

    /// Compiles a formula or placeholder. `known` are the names in scope; any other variable is an
    /// error, as is a call to a function that is neither built in nor in the library.
    pub fn compile(&self, src: &str, known: &BTreeSet<String>) -> Result<AST, FormulaError> {
        let mut scope = Scope::new();
        for k in known {
            scope.push_dynamic(k.as_str(), Dynamic::UNIT);
        }
        let ast = self.engine.compile_with_scope(&scope, src).map_err(|e| {
            let mut err = parse_error(&e, known);
            if err.message.starts_with("unknown library namespace")
                && !self.module_consts.is_empty()
            {
                let ns: Vec<&str> = self.module_consts.keys().map(String::as_str).collect();
                err.hint = Some(format!(
                    "namespaces: {}, and the course's {} (see `labforge lib`)",
                    builtin_namespaces().join(", "),
                    ns.join(", ")
                ));
            }
            err
        })?;
        let mut names = function_names();
        names.extend(self.lab_fns.keys().cloned());
        for (name, pos, n) in calls_with_arity(&ast) {
            if let Some(f) = self.lab_fns.get(&name) {
                labfn::check_arity(&name, f, n, pos)?;
            } else if !names.contains(&name) {
                let mut err = FormulaError::at(pos, format!("unknown function `{name}`"));
                err.hint = crate::diag::did_you_mean(&name, names.iter().map(|s| s.as_str()))
                    .or_else(|| Some("run `labforge lib` to list the library".to_string()));
                return Err(err);
            }
        }
        for (name, pos) in qualified_reads(&ast) {
            let (ns, n) = name.rsplit_once("::").unwrap_or(("", &name));
            if let Some(consts) = self.module_consts.get(ns) {
                if !consts.iter().any(|(k, _)| k == n) {
                    let mut err = FormulaError::at(pos, format!("unknown constant `{name}`"));
                    let known: Vec<String> =
                        consts.iter().map(|(k, _)| format!("{ns}::{k}")).collect();
                    err.hint = crate::diag::did_you_mean(&name, known.iter().map(String::as_str))
                        .or_else(|| Some(format!("module `{ns}` defines no such constant")));
                    return Err(err);
                }
            } else {
                let mut err = FormulaError::at(pos, format!("unknown constant `{name}`"));
                err.hint = Some("only a course module's constants are read as `ns::NAME`".into());
                return Err(err);
            }
        }
        js::check_supported(&ast, &self.lab_fns)?;
        Ok(budget::instrument(
            &ast,
            &self.tick,
            &self.read,
            &self.lab_fns,
        ))
    }

    /// Evaluates a compiled formula. Variables defined inside it do not leak into `scope`.
    pub fn eval(&self, ast: &AST, scope: &mut Scope) -> Result<Dynamic, FormulaError> {
        let len = scope.len();
        self.meter.start_eval();
        let r = self.engine.eval_ast_with_scope::<Dynamic>(scope, ast);
        scope.rewind(len);
        r.map_err(|e| match self.meter.overrun() {
            Some(o) => budget_error(o, e.position()),
            None => runtime_error(&e),
        })
    }
}

/// The library's namespaces (`queue`, `rel`, …), in the order its reference lists them.
pub fn builtin_namespaces() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for f in crate::library::functions() {
        if let Some((ns, _)) = f.path.split_once("::") {
            if !v.contains(&ns) {
                v.push(ns);
            }
        }
    }
    v
}

/// Every function name a formula may call: built-ins and the library's paths.
pub fn function_names() -> BTreeSet<String> {
    BUILTINS
        .iter()
        .map(|s| s.to_string())
        .chain(
            crate::library::functions()
                .iter()
                .map(|f| f.path.to_string()),
        )
        .collect()
}

fn parse_error(e: &rhai::ParseError, known: &BTreeSet<String>) -> FormulaError {
    use rhai::ParseErrorType as P;
    let (message, hint) = match &*e.0 {
        P::VariableUndefined(name) => (
            format!("unknown name `{name}`"),
            crate::diag::did_you_mean(name, known.iter().map(|s| s.as_str())).or_else(|| {
                Some("a formula sees the lab's constants, the part's controls and formulas".into())
            }),
        ),
        P::ModuleUndefined(name) => (
            format!("unknown library namespace `{name}`"),
            Some(format!(
                "namespaces: {} (see `labforge lib`)",
                builtin_namespaces().join(", ")
            )),
        ),
        P::MalformedIndexExpr(m) if m.contains("integer index") => (
            "numbers are real, so a list cannot be indexed with a literal".into(),
            Some("write `at(list, i)` instead of `list[i]`".into()),
        ),
        P::Reserved(w) | P::ForbiddenVariable(w) => {
            (
                format!("`{w}` is not allowed in a formula"),
                Some("formulas only compute values from constants and controls; they cannot load code, read files or print".into()),
            )
        }
        P::BadInput(rhai::LexError::ImproperSymbol(s, _))
            if s == "eval" || s == "import" || s == "export" =>
        {
            (
                format!("`{s}` is not allowed in a formula (formulas are sandboxed)"),
                Some("formulas only compute values from constants and controls; they cannot load code, read files or print".into()),
            )
        }
        P::UnknownOperator(op) if op.starts_with('#') => (
            "`#` does not start a comment in a formula".into(),
            Some("YAML keeps a `#` inside quotes and `|` or `>` blocks as part of the text; write a comment as `// ...`, or move it to its own line above the key".into()),
        ),
        // `'iphone'`: Rhai reads single quotes as one character.
        P::BadInput(rhai::LexError::MalformedChar(c)) if c.chars().count() > 1 => (
            format!("`'{c}'` is not text: a formula writes text in double quotes"),
            Some(format!("write `\"{c}\"`; in YAML, put the whole expression in single quotes: `'track.id == \"{c}\"'`")),
        ),
        other => (
            format!("syntax error: {other}"),
            Some("check the operators, brackets and commas here; a formula is one Rhai expression or a block ending in one".into()),
        ),
    };
    FormulaError {
        hint,
        ..FormulaError::at(e.1, message)
    }
}

/// The error of an evaluation that ran out of budget, at the loop or call that overran it.
fn budget_error(o: Overrun, pos: Position) -> FormulaError {
    let (message, hint) = match o {
        Overrun::Eval => (
            format!("the formula ran more than {} operations", limits::MAX_OPERATIONS),
            "a loop never ends or does too much work (each item a built-in scans or copies counts); bound it",
        ),
        Overrun::Lab => (
            format!(
                "the lab's formulas ran more than {} {}",
                limits::LAB_OPERATIONS,
                budget::LAB_OVERRUN
            ),
            "all the evaluations of one command or page update share this budget; make the heaviest formulas (loops, charts with many points) cheaper",
        ),
    };
    FormulaError {
        hint: Some(hint.to_string()),
        ..FormulaError::at(pos, message)
    }
}

pub(crate) fn runtime_error(e: &rhai::EvalAltResult) -> FormulaError {
    use rhai::EvalAltResult as E;
    let pos = e.position();
    let (message, hint) = match e {
        E::ErrorTooManyOperations(_) => (
            format!(
                "the formula ran more than {} operations",
                limits::MAX_OPERATIONS
            ),
            Some("a loop never ends or runs too long; bound it".to_string()),
        ),
        E::ErrorStackOverflow(_) | E::ErrorTooManyVariables(_) => (
            strip_position(&e.to_string()),
            Some("formulas are bounded in depth and variables; simplify this one".into()),
        ),
        // Rhai's words for its types are the page's: `string`, not `&str | ImmutableString |
        // String`; `array`, not `array/BLOB`.
        E::ErrorDataTooLarge(what, _) => (
            format!("{} grew too large", what.replace("array/BLOB", "array")),
            Some("formulas are bounded in size".into()),
        ),
        E::ErrorFunctionNotFound(sig, _) => (
            format!("no function matches `{}`", sig.replace(RHAI_STRING, "string")),
            Some("check the argument count and types (numbers, booleans, strings)".into()),
        ),
        E::ErrorMismatchDataType(want, got, _) if want.contains("i64") || got.contains("i64") => (
            "a list was indexed with a number, but numbers in formulas are real".to_string(),
            Some("write `at(list, i)` instead of `list[i]`".into()),
        ),
        E::ErrorMismatchDataType(want, got, _) if want == "bool" => (
            format!("boolean expected, found {}", got.replace(RHAI_STRING, "string")),
            Some("a condition (`if`, `&&`, `||`, `!`) needs true or false; compare the value, e.g. `x > 0`".into()),
        ),
        E::ErrorRuntime(v, _) => (
            v.to_string(),
            Some("the formula stopped on this value; check the inputs it receives at these control values".into()),
        ),
        E::ErrorInFunctionCall(name, _, inner, _) => {
            let inner = runtime_error(inner);
            (format!("in `{name}`: {}", inner.message), inner.hint)
        }
        other => (
            strip_position(&other.to_string()),
            Some("check the values this expression receives at these control values".into()),
        ),
    };
    FormulaError {
        hint,
        ..FormulaError::at(pos, message)
    }
}

/// How Rhai names the string type in its messages.
const RHAI_STRING: &str = "&str | ImmutableString | String";

fn strip_position(s: &str) -> String {
    match s.rfind(" (line ") {
        Some(i) => s[..i].to_string(),
        None => s.to_string(),
    }
}

/// Names of variables a compiled formula reads from its scope (excluding its own `let`s and loop
/// variables), in first-use order.
pub fn references(ast: &AST) -> Vec<String> {
    let mut v = Walker::default();
    for s in ast.statements() {
        v.stmt(s);
    }
    v.reads.retain(|r| !v.locals.contains(r));
    v.reads
}

/// Qualified variables a formula reads (`comm::ALPHA_S`), with positions.
pub fn qualified_reads(ast: &AST) -> Vec<(String, Position)> {
    let mut v = Walker::default();
    for s in ast.statements() {
        v.stmt(s);
    }
    v.qualified
}

/// Functions a compiled formula calls (`queue::pk_wait`, `sqrt`), with positions. Operators are
/// not included.
pub fn calls(ast: &AST) -> Vec<(String, Position)> {
    calls_with_arity(ast)
        .into_iter()
        .map(|(n, p, _)| (n, p))
        .collect()
}

/// [`calls`] with each call's argument count (a method's receiver included).
pub fn calls_with_arity(ast: &AST) -> Vec<(String, Position, usize)> {
    let mut v = Walker::default();
    for s in ast.statements() {
        v.stmt(s);
    }
    v.calls
}

#[derive(Default)]
struct Walker {
    reads: Vec<String>,
    locals: BTreeSet<String>,
    calls: Vec<(String, Position, usize)>,
    qualified: Vec<(String, Position)>,
}

impl Walker {
    fn block(&mut self, b: &rhai::StmtBlock) {
        for s in b.iter() {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &rhai::Stmt) {
        use rhai::Stmt as S;
        match s {
            S::If(fc, _) | S::While(fc, _) | S::Do(fc, _, _) => {
                self.expr(&fc.expr);
                self.block(&fc.body);
                self.block(&fc.branch);
            }
            S::For(b, _) => {
                let (var, counter, fc) = &**b;
                self.locals.insert(var.name.to_string());
                if let Some(c) = counter {
                    self.locals.insert(c.name.to_string());
                }
                self.expr(&fc.expr);
                self.block(&fc.body);
            }
            S::Var(b, _, _) => {
                self.locals.insert(b.0.name.to_string());
                self.expr(&b.1);
            }
            S::Assignment(b) => {
                self.expr(&b.1.lhs);
                self.expr(&b.1.rhs);
            }
            S::FnCall(f, pos) => self.call(f, *pos, 0),
            S::Block(b) => self.block(b),
            S::TryCatch(fc, _) => {
                self.block(&fc.body);
                self.block(&fc.branch);
            }
            S::Expr(e) => self.expr(e),
            S::BreakLoop(Some(e), _, _) | S::Return(Some(e), _, _) => self.expr(e),
            S::Switch(b, _) => self.expr(&b.0),
            _ => {}
        }
    }

    fn call(&mut self, f: &rhai::FnCallExpr, pos: Position, receiver: usize) {
        if f.op_token.is_none() && !f.name.starts_with(|c: char| !c.is_alphabetic() && c != '_') {
            let mut path: Vec<String> = f
                .namespace
                .path
                .iter()
                .map(|i| i.name.to_string())
                .collect();
            path.push(f.name.to_string());
            self.calls
                .push((path.join("::"), pos, f.args.len() + receiver));
        }
        for a in f.args.iter() {
            self.expr(a);
        }
    }

    fn expr(&mut self, e: &rhai::Expr) {
        use rhai::Expr as E;
        match e {
            E::Variable(b, _, _) if !b.2.is_empty() => {
                let mut path: Vec<String> = b.2.path.iter().map(|i| i.name.to_string()).collect();
                path.push(b.1.to_string());
                self.qualified.push((path.join("::"), b.2.position()));
            }
            E::Variable(b, _, _) => {
                let name = b.1.to_string();
                if !self.reads.contains(&name) {
                    self.reads.push(name);
                }
            }
            E::InterpolatedString(v, _) | E::Array(v, _) => v.iter().for_each(|x| self.expr(x)),
            E::Map(b, _) => b.0.iter().for_each(|(_, x)| self.expr(x)),
            E::MethodCall(f, pos) => self.call(f, *pos, 1),
            E::FnCall(f, pos) => self.call(f, *pos, 0),
            E::Stmt(b) => self.block(b),
            E::Dot(b, _, _) | E::Index(b, _, _) => {
                self.expr(&b.lhs);
                self.expr(&b.rhs);
            }
            E::And(v, _) | E::Or(v, _) | E::Coalesce(v, _) => v.iter().for_each(|x| self.expr(x)),
            _ => {}
        }
    }
}

/// Converts an evaluated value to JSON: numbers (non-finite ones as null), booleans, strings,
/// arrays and maps ([`AsJson`]).
pub fn to_json(v: &Dynamic) -> serde_json::Value {
    serde_json::to_value(AsJson(v)).expect("a value's JSON has string keys")
}

/// An evaluated value serialised as JSON without building it: numbers (integers as floats,
/// non-finite ones as null), booleans, strings, arrays, and maps in key order; anything else
/// null. [`to_json`] is its `serde_json::Value`.
pub struct AsJson<'a>(pub &'a Dynamic);

impl serde::Serialize for AsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if let Ok(f) = v.as_float() {
            return if f.is_finite() {
                s.serialize_f64(f)
            } else {
                s.serialize_unit()
            };
        }
        if let Ok(i) = v.as_int() {
            return s.serialize_f64(i as f64);
        }
        if let Ok(b) = v.as_bool() {
            return s.serialize_bool(b);
        }
        if v.is_string() {
            return s.serialize_str(&v.to_string());
        }
        if let Some(a) = v.read_lock::<rhai::Array>() {
            return s.collect_seq(a.iter().map(AsJson));
        }
        if let Some(m) = v.read_lock::<rhai::Map>() {
            return s.collect_map(m.iter().map(|(k, x)| (k.as_str(), AsJson(x))));
        }
        s.serialize_unit()
    }
}

/// A number from a value, if it is one.
pub fn as_number(v: &Dynamic) -> Option<f64> {
    v.as_float()
        .ok()
        .or_else(|| v.as_int().ok().map(|i| i as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn eval(src: &str) -> Result<Dynamic, FormulaError> {
        let e = FormulaEngine::new();
        let ast = e.compile(src, &known(&[]))?;
        e.eval(&ast, &mut Scope::new())
    }

    #[test]
    fn division_is_real() {
        assert_eq!(eval("7/2").unwrap().as_float().unwrap(), 3.5);
        assert_eq!(
            eval("let a = [1, 2, 3]; len(a) / 2")
                .unwrap()
                .as_float()
                .unwrap(),
            1.5
        );
    }

    #[test]
    fn lengths_are_real_and_strings_iterate_as_strings() {
        let v = eval(r#"let s = ""; for c in "ab" { s += c + "|"; } s + len("héllo") + [1].len"#);
        assert_eq!(v.unwrap().to_string(), "a|b|5.01.0");
        assert_eq!(eval("len(#{a: 1})").unwrap().type_name(), "f64");
    }

    #[test]
    fn unknown_names_are_located_with_suggestion() {
        let e = FormulaEngine::new();
        let err = e
            .compile("1 + utilisation", &known(&["utilization"]))
            .unwrap_err();
        assert_eq!((err.line, err.col), (1, 5));
        assert_eq!(err.message, "unknown name `utilisation`");
        assert_eq!(err.hint.as_deref(), Some("did you mean `utilization`?"));
    }

    /// The hint names every library namespace, the ones added later too (it was a fixed list
    /// of five that missed `collective`, `roofline`, `energy`, `llm` and `carbon`).
    #[test]
    fn unknown_namespace_hint_lists_every_library_namespace() {
        let err = FormulaEngine::new()
            .compile("comms::f(1)", &known(&[]))
            .unwrap_err();
        assert_eq!(err.message, "unknown library namespace `comms`");
        let hint = err.hint.unwrap();
        for f in crate::library::functions() {
            if let Some((ns, _)) = f.path.split_once("::") {
                assert!(hint.contains(ns), "{ns} missing from: {hint}");
            }
        }
    }

    #[test]
    fn runaway_loop_stops_quickly() {
        let err = eval("let x = 0; loop { x += 1; }").unwrap_err();
        assert!(err.message.contains("operations"), "{}", err.message);
    }

    #[test]
    fn sandbox_refuses_eval_and_import() {
        assert!(eval("eval(\"1\")").is_err());
        assert!(eval("import \"x\" as y; 1").is_err());
    }

    #[test]
    fn references_exclude_locals() {
        let e = FormulaEngine::new();
        let ast = e
            .compile(
                "let t = a * 2; let i = 0; while i < b { t += i; i += 1; } t + c",
                &known(&["a", "b", "c"]),
            )
            .unwrap();
        assert_eq!(references(&ast), vec!["a", "b", "c"]);
    }
}

#[cfg(test)]
mod subset_tests {
    use super::*;

    #[test]
    fn variable_list_index_explains_at() {
        let e = FormulaEngine::new();
        let ast = e
            .compile("let a = [1, 2]; let i = 0; a[i]", &BTreeSet::new())
            .unwrap();
        let err = e.eval(&ast, &mut Scope::new()).unwrap_err();
        assert_eq!(
            err.hint.as_deref(),
            Some("write `at(list, i)` instead of `list[i]`"),
            "{err:?}"
        );
    }

    #[test]
    fn throw_is_named() {
        let err = FormulaEngine::new()
            .compile("throw 1", &BTreeSet::new())
            .unwrap_err();
        assert_eq!(err.message, "`throw` is not supported in lab formulas");
    }
}

#[cfg(test)]
mod control_char_tests {
    use super::*;

    #[test]
    fn strings_with_terminal_escapes_do_not_compile() {
        let e = FormulaEngine::new();
        for src in [
            r#""\x1b]52;c;aGk=\x07""#,
            r#"let s = "\u001B[2J"; s"#,
            r#""ok" + "\u009b""#,
            r#"#{"k\u0007": 1}"#,
            r#"["a", "\u0007"]"#,
        ] {
            let err = e.compile(src, &BTreeSet::new()).unwrap_err();
            assert!(err.message.contains("control character"), "{src}: {err:?}");
        }
        assert!(e.compile(r#""tab\tok""#, &BTreeSet::new()).is_ok());
    }
}
