//! Built-ins registered with their charges (see [`super::budget`] for the cost model). The page's
//! Rhai runtime (`renderers/html/rhai.js`) charges the same amounts in the same functions.

use super::budget::{copy_size, Meter, READ, TICK};
use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, NativeCallContext, FLOAT};
use std::sync::Arc;

type Res<T> = Result<T, Box<EvalAltResult>>;

/// Registers `__tick` and the charging built-ins, all adding to `meter`.
pub fn register(engine: &mut Engine, meter: &Arc<Meter>) {
    let m = meter.clone();
    engine.register_fn(TICK, move |w: FLOAT| m.charge(w as u64));
    // A variable read inside a loop: Rhai copies the value, which costs its size.
    let m = meter.clone();
    engine.register_fn(READ, move |v: Dynamic| -> Res<Dynamic> {
        m.charge(copy_size(&v))?;
        Ok(v)
    });

    // `contains`: the list's length or the string's bytes.
    let m = meter.clone();
    engine.register_fn(
        "contains",
        move |ctx: NativeCallContext, a: &mut Array, v: Dynamic| -> Res<bool> {
            m.charge(a.len() as u64)?;
            // Numbers, strings and booleans compare directly; lists and records through `==`.
            if let Ok(f) = v.as_float() {
                return Ok(a.iter().any(|x| x.as_float() == Ok(f)));
            }
            if let Ok(s) = v.as_immutable_string_ref() {
                let s: &str = &s;
                return Ok(a
                    .iter()
                    .any(|x| x.as_immutable_string_ref().is_ok_and(|t| t.as_str() == s)));
            }
            if let Ok(b) = v.as_bool() {
                return Ok(a.iter().any(|x| x.as_bool() == Ok(b)));
            }
            for x in a.iter() {
                if x.type_id() == v.type_id()
                    && ctx.call_native_fn::<bool>("==", (x.clone(), v.clone()))?
                {
                    return Ok(true);
                }
            }
            Ok(false)
        },
    );
    let m = meter.clone();
    engine.register_fn(
        "contains",
        move |s: &mut ImmutableString, sub: ImmutableString| -> Res<bool> {
            m.charge(s.len() as u64)?;
            Ok(s.contains(sub.as_str()))
        },
    );

    // `len` of a string counts its characters: its bytes.
    let m = meter.clone();
    engine.register_fn("len", move |s: &mut ImmutableString| -> Res<FLOAT> {
        m.charge(s.len() as u64)?;
        Ok(s.chars().count() as FLOAT)
    });
    let m = meter.clone();
    engine.register_get("len", move |s: &mut ImmutableString| -> Res<FLOAT> {
        m.charge(s.len() as u64)?;
        Ok(s.chars().count() as FLOAT)
    });

    // `sum`: the list's length.
    let m = meter.clone();
    engine.register_fn("sum", move |a: &mut Array| -> Res<FLOAT> {
        m.charge(a.len() as u64)?;
        a.iter()
            .map(|v| {
                v.as_float()
                    .map_err(|t| format!("sum() needs numbers, found {t}").into())
            })
            .sum()
    });

    // Joining two strings or two lists: the result's bytes or items.
    let m = meter.clone();
    engine.register_fn(
        "+",
        move |a: ImmutableString, b: ImmutableString| -> Res<ImmutableString> {
            m.charge((a.len() + b.len()) as u64)?;
            Ok(a + b)
        },
    );
    let m = meter.clone();
    engine.register_fn(
        "+=",
        move |a: &mut ImmutableString, b: ImmutableString| -> Res<()> {
            m.charge((a.len() + b.len()) as u64)?;
            *a += b;
            Ok(())
        },
    );
    let m = meter.clone();
    engine.register_fn("+", move |mut a: Array, b: Array| -> Res<Array> {
        m.charge((a.len() + b.len()) as u64)?;
        a.extend(b);
        Ok(a)
    });
    let m = meter.clone();
    engine.register_fn("+=", move |a: &mut Array, b: Array| -> Res<()> {
        m.charge((a.len() + b.len()) as u64)?;
        a.extend(b);
        Ok(())
    });
    let m = meter.clone();
    engine.register_fn("+=", move |a: &mut Array, x: Dynamic| -> Res<()> {
        m.charge(a.len() as u64 + 1)?;
        a.push(x);
        Ok(())
    });
}

/// Re-registers the library functions that build lists, charging their length (after
/// [`crate::library::register`], whose registrations these replace).
pub fn register_library(engine: &mut Engine, meter: &Arc<Meter>) {
    use crate::library::globals::{linspace, logspace, range, to_array};
    let m = meter.clone();
    engine.register_fn("range", move |from: FLOAT, to: FLOAT| -> Res<Array> {
        let v = range(from, to)?;
        m.charge(v.len() as u64)?;
        Ok(to_array(v))
    });
    type Spaced = fn(FLOAT, FLOAT, FLOAT) -> Res<Vec<FLOAT>>;
    for (name, build) in [("linspace", linspace as Spaced), ("logspace", logspace)] {
        let m = meter.clone();
        engine.register_fn(name, move |a: FLOAT, b: FLOAT, n: FLOAT| -> Res<Array> {
            let v = build(a, b, n)?;
            m.charge(v.len() as u64)?;
            Ok(to_array(v))
        });
    }
    // `stats::` list functions and `rand::` draws charge before they work (library::stats,
    // library::random); the page's twin is in rhai.js's `_fn`.
    let m = meter.clone();
    engine.register_static_module(
        "stats",
        crate::library::stats_module(move |n| m.charge(n)).into(),
    );
    let m = meter.clone();
    engine.register_static_module(
        "rand",
        crate::library::rand_module(move |n| m.charge(n)).into(),
    );
    let m = meter.clone();
    engine.register_static_module(
        "sim",
        crate::library::sim_module(move |n| m.charge(n)).into(),
    );
}
