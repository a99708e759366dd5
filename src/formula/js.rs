//! Translation of formulas to JavaScript for the page, and the subset both sides support.
//!
//! [`check_supported`] defines the subset: anything outside it is a `labforge check` error at its
//! position, never a silent difference between the CLI and the page.

use super::FormulaError;
use rhai::{Position, AST};

/// Fails on the first construct the page's runtime cannot run with Rhai's semantics.
pub fn check_supported(ast: &AST) -> Result<(), FormulaError> {
    for s in ast.statements() {
        stmt(s)?;
    }
    Ok(())
}

fn unsupported(pos: Position, what: &str, hint: &str) -> FormulaError {
    FormulaError {
        line: pos.line().unwrap_or(1),
        col: pos.position().unwrap_or(1),
        message: format!("{what} is not supported in lab formulas"),
        hint: Some(hint.to_string()),
    }
}

fn block(b: &rhai::StmtBlock) -> Result<(), FormulaError> {
    b.iter().try_for_each(stmt)
}

fn stmt(s: &rhai::Stmt) -> Result<(), FormulaError> {
    use rhai::Stmt as S;
    match s {
        S::Noop(_) => Ok(()),
        S::If(fc, _) | S::While(fc, _) => {
            // `loop { }` is a `while` whose condition is `()`.
            if !matches!(fc.expr, rhai::Expr::Unit(_)) {
                expr(&fc.expr)?;
            }
            block(&fc.body)?;
            block(&fc.branch)
        }
        S::Do(_, _, pos) => Err(unsupported(
            *pos,
            "`do` loops",
            "use `while` or `for x in range(a, b)`",
        )),
        S::For(b, pos) => {
            if b.1.is_some() {
                return Err(unsupported(
                    *pos,
                    "a loop counter variable",
                    "use `for x in range(a, b)`",
                ));
            }
            expr(&b.2.expr)?;
            block(&b.2.body)
        }
        S::Var(b, _, _) => expr(&b.1),
        S::Assignment(b) => {
            expr(&b.1.lhs)?;
            expr(&b.1.rhs)
        }
        S::FnCall(f, _) => f.args.iter().try_for_each(expr),
        S::Block(b) => block(b),
        S::Expr(e) => expr(e),
        S::BreakLoop(None, _, _) => Ok(()),
        S::BreakLoop(Some(_), _, pos) => Err(unsupported(
            *pos,
            "`break` with a value",
            "assign to a variable, then `break`",
        )),
        S::Switch(_, pos) => Err(unsupported(
            *pos,
            "`switch`",
            "use `if ... else if ... else`",
        )),
        S::TryCatch(_, pos) => Err(unsupported(
            *pos,
            "`try`/`catch`",
            "formulas cannot catch errors",
        )),
        S::Return(_, flags, pos) if flags.contains(rhai::ASTFlags::BREAK) => Err(unsupported(
            *pos,
            "`throw`",
            "formulas cannot raise errors; give a value such as 0 or a flag instead",
        )),
        S::Return(_, _, pos) => Err(unsupported(
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

fn expr(e: &rhai::Expr) -> Result<(), FormulaError> {
    use rhai::Expr as E;
    match e {
        E::BoolConstant(..)
        | E::FloatConstant(..)
        | E::IntegerConstant(..)
        | E::StringConstant(..) => Ok(()),
        E::Variable(..) | E::Property(..) => Ok(()),
        E::InterpolatedString(v, _) | E::Array(v, _) => v.iter().try_for_each(expr),
        E::Map(b, _) => b.0.iter().try_for_each(|(_, x)| expr(x)),
        E::MethodCall(f, _) | E::FnCall(f, _) => f.args.iter().try_for_each(expr),
        E::Stmt(b) => block(b),
        E::Dot(b, _, _) | E::Index(b, _, _) => {
            expr(&b.lhs)?;
            expr(&b.rhs)
        }
        E::And(v, _) | E::Or(v, _) => v.iter().try_for_each(expr),
        E::Coalesce(_, pos) => Err(unsupported(*pos, "`??`", "use `if`")),
        E::CharConstant(_, pos) => Err(unsupported(
            *pos,
            "a character literal",
            "use a string in double quotes",
        )),
        E::Unit(pos) => Err(unsupported(
            *pos,
            "`()`",
            "every formula must produce a value",
        )),
        E::ThisPtr(pos) => Err(unsupported(*pos, "`this`", "formulas have no `this`")),
        other => Err(unsupported(
            other.position(),
            "this expression",
            "see the formula subset in docs/authoring.md",
        )),
    }
}
