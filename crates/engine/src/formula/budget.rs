//! The work budget: one cost model, charged identically here and in the page.
//!
//! A formula's cost is counted in *work units*:
//!
//! - every evaluation first pays the static weight of its program ([`weight_program`]), and every
//!   loop iteration pays the static weight of its body ([`loop_weight`]): roughly one unit per
//!   statement, call, operator and operand. The weights are put into the compiled AST itself as
//!   calls `__tick(w)` ([`instrument`]), so Rhai here and the translated JavaScript in the page
//!   run the very same charges at the very same places;
//! - built-ins that do work proportional to their input charge that work: `contains` (the
//!   list's length, or the string's UTF-8 bytes), `at` and `sum` (the list's length), `len`,
//!   `to_upper`, `to_lower` and `to_string` of a string (its bytes; `to_string` charges the bytes it
//!   produces), `keys`/`values` (the record's size), `+` of two strings or two lists (the bytes or
//!   items of the result) and `+=` on a string or a list (likewise: growing a list copies or
//!   scans it); the library's `stats::` list functions charge their list's length and `rand::`
//!   draws their count (`rand::poisson` n·(1 + ⌈λ⌉)), before they run;
//! - inside a loop, reading a variable that holds a list or a record charges its items: Rhai
//!   copies such a value when it is read (`let b = big`, `[big]`, the second operand of `==`).
//!   The reads are wrapped in [`READ`] calls by [`instrument`]. A first argument of a call is
//!   passed by reference and is not wrapped; strings are shared, not copied, and numbers and
//!   booleans are small, so their reads cost nothing more.
//!
//! An evaluation may spend [`EVAL_BUDGET`] units; all the evaluations of one command (`check`,
//! `eval`, `render`, `test`, banner sampling included) or of one page update share
//! [`LAB_BUDGET`]. Both stop with a located error, never with a frozen page.

use rhai::{Dynamic, Expr, Position, Stmt, StmtBlock, AST};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Work units one formula evaluation may spend.
pub const EVAL_BUDGET: u64 = 500_000;
/// Work units all the evaluations of one command (or one page update) may spend together.
pub const LAB_BUDGET: u64 = 20_000_000;
/// The hidden function [`instrument`] inserts; formulas cannot name it (see `compile`).
pub const TICK: &str = "__tick";

/// The hidden function [`instrument`] wraps a variable read in, inside loops.
pub const READ: &str = "__rd";

/// What reading (copying) `v` charges: a list's or a record's items; nothing for a string
/// (shared, not copied), a number, a boolean or unit.
pub fn copy_size(v: &Dynamic) -> u64 {
    if v.is_array() || v.is_map() {
        size_of(v)
    } else {
        0
    }
}

/// Words of the error of an evaluation that spent the lab's whole budget.
pub const LAB_OVERRUN: &str = "operations in total";

/// Which budget ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overrun {
    Eval,
    Lab,
}

/// The shared counter that `__tick` and the charging built-ins add to.
#[derive(Debug)]
pub struct Meter {
    eval: AtomicU64,
    total: AtomicU64,
    total_limit: AtomicU64,
}

impl Default for Meter {
    fn default() -> Self {
        Meter {
            eval: AtomicU64::new(0),
            total: AtomicU64::new(0),
            total_limit: AtomicU64::new(LAB_BUDGET),
        }
    }
}

impl Meter {
    pub fn new() -> Arc<Meter> {
        Arc::new(Meter::default())
    }

    /// Adds `n` units; fails once either budget is exceeded.
    pub fn charge(&self, n: u64) -> Result<(), Box<rhai::EvalAltResult>> {
        let e = self.eval.fetch_add(n, Ordering::Relaxed) + n;
        let t = self.total.fetch_add(n, Ordering::Relaxed) + n;
        if e > EVAL_BUDGET || t > self.total_limit.load(Ordering::Relaxed) {
            return Err(Box::new(rhai::EvalAltResult::ErrorTooManyOperations(
                Position::NONE,
            )));
        }
        Ok(())
    }

    /// Starts one evaluation (its own budget; the total goes on).
    pub fn start_eval(&self) {
        self.eval.store(0, Ordering::Relaxed);
    }

    /// Which budget is exhausted, if one is.
    pub fn overrun(&self) -> Option<Overrun> {
        if self.eval.load(Ordering::Relaxed) > EVAL_BUDGET {
            Some(Overrun::Eval)
        } else if self.total.load(Ordering::Relaxed) > self.total_limit.load(Ordering::Relaxed) {
            Some(Overrun::Lab)
        } else {
            None
        }
    }

    /// Units spent by the current evaluation.
    pub fn eval_used(&self) -> u64 {
        self.eval.load(Ordering::Relaxed)
    }

    /// Units spent since the last [`Self::reset_total`].
    pub fn total_used(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    /// Starts a new command's total budget of `limit` units.
    pub fn reset_total(&self, limit: u64) {
        self.total.store(0, Ordering::Relaxed);
        self.total_limit.store(limit, Ordering::Relaxed);
    }
}

/// The size a built-in charges for a value: a string's UTF-8 bytes, a list's or record's items.
pub fn size_of(v: &Dynamic) -> u64 {
    if let Ok(s) = v.as_immutable_string_ref() {
        return s.len() as u64;
    }
    if let Some(a) = v.read_lock::<rhai::Array>() {
        return a.len() as u64;
    }
    if let Some(m) = v.read_lock::<rhai::Map>() {
        return m.len() as u64;
    }
    1
}

/// Static weight of one run of a block.
pub fn weight_block(b: &StmtBlock) -> u64 {
    b.iter().map(weight_stmt).sum::<u64>().max(1)
}

/// Static weight of a program's statements (loops count once here; their bodies charge per
/// iteration).
pub fn weight_program(stmts: &[Stmt]) -> u64 {
    stmts.iter().map(weight_stmt).sum::<u64>().max(1)
}

fn weight_stmt(s: &Stmt) -> u64 {
    1 + match s {
        Stmt::Expr(e) => weight_expr(e),
        Stmt::Var(b, _, _) => weight_expr(&b.1),
        Stmt::Assignment(b) => weight_expr(&b.1.rhs) + 1,
        Stmt::If(fc, _) => {
            weight_expr(&fc.expr) + weight_block(&fc.body).min(weight_block(&fc.branch))
        }
        Stmt::FnCall(f, _) => f.args.iter().map(weight_expr).sum::<u64>() + 1,
        _ => 0,
    }
}

fn weight_expr(e: &Expr) -> u64 {
    match e {
        Expr::FnCall(f, _) | Expr::MethodCall(f, _) => {
            1 + f.args.iter().map(weight_expr).sum::<u64>()
        }
        Expr::And(v, _) | Expr::Or(v, _) => 1 + v.iter().map(weight_expr).sum::<u64>(),
        Expr::Dot(b, _, _) | Expr::Index(b, _, _) => 1 + weight_expr(&b.lhs) + weight_expr(&b.rhs),
        _ => 1,
    }
}

/// Weight charged by each iteration of a `while`/`loop` (body and condition) or `for` (body).
pub fn loop_weight(s: &Stmt) -> Option<u64> {
    match s {
        Stmt::While(fc, _) => Some(weight_block(&fc.body) + weight_expr(&fc.expr) + 2),
        Stmt::For(b, _) => Some(weight_block(&b.2.body) + 1),
        _ => None,
    }
}

/// Returns `ast` with the charges of the cost model inserted: `__tick(w)` first in the program
/// and first in every loop body, and every variable read inside a loop wrapped in `__rd(..)`.
/// `template` is a compiled `__tick(1)` statement, `read` a compiled `__rd(x)` expression.
/// `lab_fns` are the lab's functions ([`super::labfn`]), which take every argument by value.
pub fn instrument<V>(
    ast: &AST,
    template: &Stmt,
    read: &Expr,
    lab_fns: &std::collections::BTreeMap<String, V>,
) -> AST {
    let mut stmts: Vec<Stmt> = ast.statements().to_vec();
    let w = weight_program(&stmts);
    let by_value = |f: &rhai::FnCallExpr| f.is_qualified() || lab_fns.contains_key(f.name.as_str());
    let t = Templates {
        tick: template,
        read,
        by_value: &by_value,
    };
    for s in &mut stmts {
        inst_stmt(s, &t, false);
    }
    stmts.insert(0, tick(template, w, Position::new(1, 1)));
    AST::new(stmts)
}

struct Templates<'a> {
    tick: &'a Stmt,
    read: &'a Expr,
    /// Whether a call takes all its arguments by value (library and lab functions).
    by_value: &'a dyn Fn(&rhai::FnCallExpr) -> bool,
}

/// The `w` of a `__tick(w)` statement.
pub fn tick_weight(s: &Stmt) -> Option<u64> {
    match s {
        Stmt::FnCall(f, _) if f.name == TICK && f.args.len() == 1 => match &f.args[0] {
            Expr::FloatConstant(x, _) => Some(**x as u64),
            _ => None,
        },
        _ => None,
    }
}

fn tick(template: &Stmt, w: u64, pos: Position) -> Stmt {
    let mut s = template.clone();
    if let Stmt::FnCall(f, p) = &mut s {
        *p = pos;
        f.args[0] = Expr::FloatConstant((w as rhai::FLOAT).into(), pos);
    }
    s
}

fn inst_block(b: &mut StmtBlock, t: &Templates, in_loop: bool) {
    for s in b.statements_mut().iter_mut() {
        inst_stmt(s, t, in_loop);
    }
}

fn inst_stmt(s: &mut Stmt, t: &Templates, in_loop: bool) {
    if let Some(w) = loop_weight(s) {
        let pos = s.position();
        let body = match s {
            Stmt::While(fc, _) => &mut fc.body,
            Stmt::For(b, _) => &mut b.2.body,
            _ => unreachable!("loop_weight is Some only for loops"),
        };
        inst_block(body, t, true);
        body.statements_mut().insert(0, tick(t.tick, w, pos));
        if let Stmt::While(fc, _) = s {
            // The condition runs every iteration.
            inst_expr(&mut fc.expr, t, true);
        }
        if let Stmt::For(b, _) = s {
            // The list is read once.
            inst_expr(&mut b.2.expr, t, in_loop);
        }
        return;
    }
    match s {
        Stmt::If(fc, _) | Stmt::Do(fc, _, _) | Stmt::TryCatch(fc, _) => {
            inst_expr(&mut fc.expr, t, in_loop);
            inst_block(&mut fc.body, t, in_loop);
            inst_block(&mut fc.branch, t, in_loop);
        }
        Stmt::Var(b, _, _) => inst_expr(&mut b.1, t, in_loop),
        Stmt::Assignment(b) => {
            // The target is written, not read.
            if !matches!(b.1.lhs, Expr::Variable(..)) {
                inst_expr(&mut b.1.lhs, t, in_loop);
            }
            inst_expr(&mut b.1.rhs, t, in_loop);
        }
        Stmt::FnCall(f, _) if (t.by_value)(f) => {
            f.args.iter_mut().for_each(|a| inst_expr(a, t, in_loop))
        }
        Stmt::FnCall(f, _) => inst_args(&mut f.args, t, in_loop),
        Stmt::Block(b) => inst_block(b, t, in_loop),
        Stmt::Expr(e) => inst_expr(e, t, in_loop),
        Stmt::BreakLoop(Some(e), _, _) | Stmt::Return(Some(e), _, _) => inst_expr(e, t, in_loop),
        _ => {}
    }
}

/// A call's arguments: a variable as the first is passed by reference (not copied), so only
/// an expression there is instrumented.
fn inst_args(args: &mut [Expr], t: &Templates, in_loop: bool) {
    for (i, a) in args.iter_mut().enumerate() {
        if i > 0 || !matches!(a, Expr::Variable(..)) {
            inst_expr(a, t, in_loop);
        }
    }
}

fn inst_expr(e: &mut Expr, t: &Templates, in_loop: bool) {
    match e {
        Expr::Variable(_, _, pos) if in_loop => {
            let pos = *pos;
            let mut call = t.read.clone();
            if let Expr::FnCall(f, p) = &mut call {
                *p = pos;
                f.args[0] = e.clone();
            }
            *e = call;
        }
        Expr::InterpolatedString(v, _) | Expr::Array(v, _) => {
            v.iter_mut().for_each(|x| inst_expr(x, t, in_loop))
        }
        Expr::Map(b, _) => b.0.iter_mut().for_each(|(_, x)| inst_expr(x, t, in_loop)),
        // A library function (`fleet::jain(list)`) or a lab function takes its lists by value:
        // every argument is read, the first too.
        Expr::FnCall(f, _) if (t.by_value)(f) => {
            f.args.iter_mut().for_each(|a| inst_expr(a, t, in_loop))
        }
        Expr::MethodCall(f, _) | Expr::FnCall(f, _) => inst_args(&mut f.args, t, in_loop),
        Expr::Stmt(b) => inst_block(b, t, in_loop),
        Expr::Dot(b, _, _) | Expr::Index(b, _, _) => {
            // A property is read from the variable in place; only a computed left side is read.
            if !matches!(b.lhs, Expr::Variable(..)) {
                inst_expr(&mut b.lhs, t, in_loop);
            }
            inst_expr(&mut b.rhs, t, in_loop);
        }
        Expr::And(v, _) | Expr::Or(v, _) | Expr::Coalesce(v, _) => {
            v.iter_mut().for_each(|x| inst_expr(x, t, in_loop))
        }
        _ => {}
    }
}
