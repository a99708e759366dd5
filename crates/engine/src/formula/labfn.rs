//! Lab functions: a lab's (or a course module's) `functions:`, run as native functions that
//! evaluate the compiled body in a fresh scope holding only the arguments.
//!
//! Rhai stays built with `no_function`: a lab function is registered on the lab's engine as a
//! raw native function (a namespaced one, `comm::f`, in a static module of its namespace). Its
//! body is compiled and instrumented like any formula, so it charges the work budget with the
//! same `__tick`s here and in the page, where it becomes a plain JavaScript function
//! ([`super::js::module`]). Calls form no cycle (`labforge check` rejects recursion at the call),
//! so the nesting depth is bounded by [`MAX_CALL_DEPTH`], checked statically too: the page
//! needs no limit of its own.

use super::budget::Meter;
use super::FormulaError;
use rhai::{Dynamic, EvalAltResult, NativeCallContext, Position, Scope, AST};
use std::any::TypeId;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The longest chain of lab-function calls (`f` calls `g` calls `h`: 3).
pub const MAX_CALL_DEPTH: usize = 16;

/// A lab function ready to register: its path (`f` or `ns::f`), parameter names and body.
#[derive(Clone)]
pub struct LabFn {
    pub path: String,
    pub params: Vec<String>,
    pub ast: AST,
}

/// Registers `fns` on `engine`: global ones directly, namespaced ones in one static module
/// per namespace.
/// `consts` are the course modules' constants, set as their modules' variables.
pub(super) fn register(
    engine: &mut rhai::Engine,
    meter: &Arc<Meter>,
    fns: &[LabFn],
    consts: &BTreeMap<String, Vec<(String, Dynamic)>>,
) {
    let mut modules: BTreeMap<&str, rhai::Module> = BTreeMap::new();
    for (ns, vars) in consts {
        let m = modules.entry(ns.as_str()).or_default();
        for (k, v) in vars {
            m.set_var(k.as_str(), v.clone());
        }
    }
    for f in fns {
        let func = native(f, meter.clone());
        let types = vec![TypeId::of::<Dynamic>(); f.params.len()];
        match f.path.rsplit_once("::") {
            None => {
                engine.register_raw_fn(f.path.as_str(), types, func);
            }
            Some((ns, name)) => {
                let m = modules.entry(ns).or_default();
                rhai::FuncRegistration::new(name).set_into_module_raw(
                    m,
                    types,
                    rhai::RhaiFunc::Method {
                        func: rhai::Shared::new(
                            move |ctx: Option<NativeCallContext>, args: &mut [&mut Dynamic]| {
                                func(ctx.expect("a call context"), args)
                            },
                        ),
                        has_context: true,
                        is_pure: true,
                        is_volatile: true,
                    },
                );
            }
        }
    }
    for (ns, m) in modules {
        engine.register_static_module(ns, m.into());
    }
}

type Native =
    Box<dyn Fn(NativeCallContext, &mut [&mut Dynamic]) -> Result<Dynamic, Box<EvalAltResult>>>;

/// The native function evaluating `f`'s body with its arguments bound (copied: a function
/// cannot change its caller's values). An error inside the body surfaces at the call, named.
fn native(f: &LabFn, meter: Arc<Meter>) -> Native {
    let (path, params, ast) = (f.path.clone(), f.params.clone(), f.ast.clone());
    Box::new(move |ctx, args| {
        let mut scope = Scope::new();
        for (p, a) in params.iter().zip(args.iter()) {
            scope.push_dynamic(p.as_str(), (**a).clone());
        }
        ctx.engine()
            .eval_ast_with_scope::<Dynamic>(&mut scope, &ast)
            .map_err(|e| {
                if meter.overrun().is_some() {
                    return Box::new(EvalAltResult::ErrorTooManyOperations(Position::NONE));
                }
                let inner: FormulaError = super::runtime_error(&e);
                let msg = match inner.message.strip_prefix("in `") {
                    // Already named by a nested function.
                    Some(_) => inner.message,
                    None => super::messages::fill(
                        super::messages::IN_FUNCTION,
                        &[&path, &inner.line, &inner.message],
                    ),
                };
                Box::new(EvalAltResult::ErrorRuntime(msg.into(), Position::NONE))
            })
    })
}

/// Checks a call of a lab function: `arity` arguments wanted, `n` given.
pub fn check_arity(
    path: &str,
    (arity, signature): &(usize, String),
    n: usize,
    pos: Position,
) -> Result<(), FormulaError> {
    if *arity == n {
        return Ok(());
    }
    let mut e = FormulaError::at(pos, format!("`{path}` takes {arity} argument(s), not {n}"));
    e.hint = Some(format!("its signature: {signature}"));
    Err(e)
}
