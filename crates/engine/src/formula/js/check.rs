//! The subset of Rhai both sides support: [`check_supported`] fails on the first construct the
//! page's runtime cannot run with Rhai's semantics, at its position, with a hint.

use super::{builtin_arity, call_path, is_operator, lib_doc, lib_params, op_helper};
use crate::formula::FormulaError;
use rhai::{ASTFlags, Expr, Position, Stmt, StmtBlock, AST};

/// Fails on the first construct the page's runtime cannot run with Rhai's semantics.
/// `lab_fns` are the lab's functions ([`crate::formula::labfn`]), whose calls are checked by the caller.
pub fn check_supported<V>(
    ast: &AST,
    lab_fns: &std::collections::BTreeMap<String, V>,
) -> Result<(), FormulaError> {
    let lab_fns: Vec<&str> = lab_fns.keys().map(String::as_str).collect();
    let mut cx = Cx {
        in_loop: false,
        locals: vec![Vec::new()],
        lab_fns,
    };
    ast.statements().iter().try_for_each(|s| cx.stmt(s))
}

/// A string (or map key) of a formula may not hold a control character: it would reach
/// terminals and pages as an escape sequence (see [`crate::load::text`]).
fn no_controls(s: &str, pos: Position) -> Result<(), FormulaError> {
    match s.chars().find(|c| crate::load::text::forbidden(*c)) {
        None => Ok(()),
        Some(c) => Err(FormulaError {
            line: pos.line().unwrap_or(1),
            col: pos.position().unwrap_or(1),
            message: format!(
                "this string holds the control character U+{:04X}",
                u32::from(c)
            ),
            hint: Some(
                "remove it: lab text may not carry control characters or terminal escape sequences"
                    .into(),
            ),
        }),
    }
}

fn unsupported(pos: Position, what: &str, hint: &str) -> FormulaError {
    FormulaError {
        line: pos.line().unwrap_or(1),
        col: pos.position().unwrap_or(1),
        message: format!("{what} is not supported in lab formulas"),
        hint: Some(hint.to_string()),
    }
}

/// Checker state: whether `break`/`continue` may stand here, i.e. a loop encloses this point
/// with no block used as a value in between (the page runs such a block as a function, so
/// `break` cannot leave it), and the formula's own variables in scope, innermost block last.
#[derive(Default)]
struct Cx<'a> {
    in_loop: bool,
    locals: Vec<Vec<String>>,
    lab_fns: Vec<&'a str>,
}

impl Cx<'_> {
    /// A block, in a new scope; `in_loop` says whether `break` may leave it.
    fn scoped(
        &mut self,
        in_loop: bool,
        first: Option<&str>,
        b: &StmtBlock,
    ) -> Result<(), FormulaError> {
        let saved = std::mem::replace(&mut self.in_loop, in_loop);
        self.locals
            .push(first.into_iter().map(str::to_string).collect());
        let r = b.iter().try_for_each(|s| self.stmt(s));
        self.locals.pop();
        self.in_loop = saved;
        r
    }

    fn block(&mut self, b: &StmtBlock) -> Result<(), FormulaError> {
        self.scoped(self.in_loop, None, b)
    }

    fn is_local(&self, name: &str) -> bool {
        self.locals.iter().flatten().any(|l| l == name)
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), FormulaError> {
        match s {
            Stmt::Noop(_) => Ok(()),
            Stmt::If(fc, _) => {
                self.expr(&fc.expr)?;
                self.block(&fc.body)?;
                self.block(&fc.branch)
            }
            Stmt::While(fc, _) => {
                // `loop { }` is a `while` whose condition is `()`.
                if !matches!(fc.expr, Expr::Unit(_)) {
                    self.expr(&fc.expr)?;
                }
                self.scoped(true, None, &fc.body)
            }
            Stmt::Do(_, _, pos) => Err(unsupported(
                *pos,
                "`do` loops",
                "use `while` or `for x in list`",
            )),
            Stmt::For(b, pos) => {
                if b.1.is_some() {
                    return Err(unsupported(
                        *pos,
                        "a loop counter variable",
                        "use `for x in list`",
                    ));
                }
                self.expr(&b.2.expr)?;
                self.scoped(true, Some(&b.0.name), &b.2.body)
            }
            Stmt::Var(b, _, _) => {
                self.expr(&b.1)?;
                if let Some(scope) = self.locals.last_mut() {
                    scope.push(b.0.name.to_string());
                }
                Ok(())
            }
            Stmt::Assignment(b) => {
                let Expr::Variable(v, _, pos) = &b.1.lhs else {
                    return Err(unsupported(
                        b.1.lhs.position(),
                        "assigning into a list or record",
                        "build a new value with `let`",
                    ));
                };
                // A constant, control or formula is the same value for every formula and every
                // chart point: the page cannot share a change to it the way Rhai's scope does.
                if !self.is_local(&v.1) {
                    return Err(unsupported(
                        *pos,
                        &format!("assigning to `{}` (a name from outside this formula)", v.1),
                        &format!(
                            "copy it first: `let {0}2 = {0};`, then change the copy",
                            v.1
                        ),
                    ));
                }
                if let Some((.., syntax)) = b.0.get_op_assignment_info() {
                    if op_helper(syntax, 2).is_none() {
                        return Err(unsupported(
                            b.0.position(),
                            &format!("the operator `{syntax}=`"),
                            "use arithmetic, comparisons, `&&`, `||` and `!`",
                        ));
                    }
                }
                self.expr(&b.1.rhs)
            }
            Stmt::FnCall(f, pos) => self.call(f, *pos, false),
            Stmt::Block(b) => self.block(b),
            Stmt::Expr(e) => self.expr(e),
            Stmt::BreakLoop(None, _, pos) => {
                if self.in_loop {
                    Ok(())
                } else {
                    Err(unsupported(
                        *pos,
                        "`break`/`continue` inside a block used as a value",
                        "compute the value in the loop with a variable",
                    ))
                }
            }
            Stmt::BreakLoop(Some(_), _, pos) => Err(unsupported(
                *pos,
                "`break` with a value",
                "assign to a variable, then `break`",
            )),
            Stmt::Switch(_, pos) => Err(unsupported(
                *pos,
                "`switch`",
                "use `if ... else if ... else`",
            )),
            Stmt::TryCatch(_, pos) => Err(unsupported(
                *pos,
                "`try`/`catch`",
                "formulas cannot catch errors",
            )),
            Stmt::Return(_, flags, pos) if flags.contains(ASTFlags::BREAK) => Err(unsupported(
                *pos,
                "`throw`",
                "formulas cannot raise errors; give a value such as 0 or a flag instead",
            )),
            Stmt::Return(_, _, pos) => Err(unsupported(
                *pos,
                "`return`",
                "end the formula with the value's expression",
            )),
            other => Err(unsupported(
                other.position(),
                "this statement",
                "see the formula subset in docs/authoring.md",
            )),
        }
    }

    /// A call; `method` when written `x.f(...)`, whose receiver is the first argument.
    fn call(
        &mut self,
        f: &rhai::FnCallExpr,
        pos: Position,
        method: bool,
    ) -> Result<(), FormulaError> {
        let operator = f.op_token.is_some() || is_operator(&f.name);
        if operator && op_helper(&f.name, f.args.len()).is_none() {
            return Err(unsupported(
                pos,
                &format!("the operator `{}`", f.name),
                "use arithmetic, comparisons, `&&`, `||` and `!`",
            ));
        }
        let path = call_path(f);
        let n = f.args.len() + usize::from(method);
        let arity = |hint: String| FormulaError {
            line: pos.line().unwrap_or(1),
            col: pos.position().unwrap_or(1),
            message: format!("`{path}` does not take {n} argument(s)"),
            hint: Some(hint),
        };
        if !operator && !self.lab_fns.contains(&path.as_str()) {
            if let Some(doc) = lib_doc(&path) {
                if lib_params(doc, n).is_none() {
                    return Err(arity(format!("its signature: {}", doc.shown_signature())));
                }
            } else if !builtin_arity(&path).contains(&n) {
                let counts: Vec<String> =
                    builtin_arity(&path).iter().map(|c| c.to_string()).collect();
                return Err(arity(format!(
                    "`{path}` takes {} argument(s)",
                    counts.join(" or ")
                )));
            }
        }
        f.args.iter().try_for_each(|a| self.expr(a))
    }

    fn expr(&mut self, e: &Expr) -> Result<(), FormulaError> {
        match e {
            Expr::StringConstant(s, pos) => no_controls(s, *pos),
            Expr::DynamicConstant(d, pos) => {
                no_controls(&crate::formula::to_json(d).to_string(), *pos)
            }
            Expr::Map(b, _) => {
                for (k, x) in b.0.iter() {
                    no_controls(&k.name, k.pos)?;
                    self.expr(x)?;
                }
                Ok(())
            }
            Expr::BoolConstant(..) | Expr::FloatConstant(..) | Expr::IntegerConstant(..) => Ok(()),
            Expr::Variable(..) => Ok(()),
            Expr::InterpolatedString(v, _) | Expr::Array(v, _) => {
                v.iter().try_for_each(|x| self.expr(x))
            }
            Expr::FnCall(f, pos) => self.call(f, *pos, false),
            // A block as a value runs as a function in the page: no `break` out of it.
            Expr::Stmt(b) => self.scoped(false, None, b),
            Expr::Dot(_, flags, pos) | Expr::Index(_, flags, pos)
                if flags.contains(ASTFlags::NEGATED) =>
            {
                Err(unsupported(
                    *pos,
                    "`?.` and `?[`",
                    "test the value first: `if contains(record, \"key\") { ... }`",
                ))
            }
            Expr::Dot(b, _, _) => {
                self.expr(&b.lhs)?;
                self.dot_chain(&b.rhs)
            }
            Expr::Index(b, flags, pos) => {
                if !flags.contains(ASTFlags::BREAK) {
                    return Err(unsupported(
                        *pos,
                        "a chain after an index (`a[k].b`, `a[k][j]`)",
                        "split it into `let` steps",
                    ));
                }
                self.expr(&b.lhs)?;
                self.expr(&b.rhs)
            }
            Expr::And(v, _) | Expr::Or(v, _) => v.iter().try_for_each(|x| self.expr(x)),
            Expr::Coalesce(_, pos) => Err(unsupported(*pos, "`??`", "use `if`")),
            Expr::CharConstant(_, pos) => Err(unsupported(
                *pos,
                "a character literal",
                "use a string in double quotes",
            )),
            Expr::Unit(pos) => Err(unsupported(
                *pos,
                "`()`",
                "every formula must produce a value",
            )),
            Expr::ThisPtr(pos) => Err(unsupported(*pos, "`this`", "formulas have no `this`")),
            other => Err(unsupported(
                other.position(),
                "this expression",
                "see the formula subset in docs/authoring.md",
            )),
        }
    }

    /// The right side of `x.…`: properties and method calls, chained with `.` only.
    fn dot_chain(&mut self, e: &Expr) -> Result<(), FormulaError> {
        match e {
            Expr::Property(..) => Ok(()),
            Expr::MethodCall(f, pos) => self.call(f, *pos, true),
            Expr::Dot(_, flags, pos) if flags.contains(ASTFlags::NEGATED) => Err(unsupported(
                *pos,
                "`?.` and `?[`",
                "test the value first: `if contains(record, \"key\") { ... }`",
            )),
            Expr::Dot(b, _, _) => {
                self.dot_chain(&b.lhs)?;
                self.dot_chain(&b.rhs)
            }
            other => Err(unsupported(
                other.position(),
                "indexing after `.`",
                "split it into `let` steps",
            )),
        }
    }
}
