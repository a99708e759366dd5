//! The device table handed to `labforgeLibrary` in the page: only the devices the lab's
//! formulas look up (it is most of a page's data otherwise).

use serde_json::{json, Value as J};
use std::collections::BTreeSet;

/// What `hw(id)` returns for every device (the name and the numbers): sources and notes stay
/// in the docs.
fn all() -> J {
    let mut h = crate::library::hardware_json();
    if let J::Object(devices) = &mut h {
        for d in devices.values_mut() {
            if let J::Object(fields) = d {
                fields.retain(|k, v| k == "name" || v.is_number());
            }
        }
    }
    h
}

/// The devices the translated formulas `bodies` look up: none without a `hw` call; those named
/// when every call names a known device by a literal (`hw("H100")`); else all of them (an id
/// computed at run time, or an unknown one whose error lists every known id).
pub fn used(bodies: &[String]) -> J {
    const CALL: &str = "_fn(L,\"hw\"";
    const LITERAL: &str = "_fn(L,\"hw\",\"s\")(\"";
    let table = all();
    let mut ids = BTreeSet::new();
    for b in bodies {
        for (i, _) in b.match_indices(CALL) {
            let Some(rest) = b[i..].strip_prefix(LITERAL) else {
                return table;
            };
            let id = rest.split('"').next().unwrap_or("");
            if id.contains('\\') || table.get(id).is_none() || !rest[id.len()..].starts_with("\")")
            {
                return table;
            }
            ids.insert(id.to_string());
        }
    }
    let mut out = serde_json::Map::new();
    for id in ids {
        out.insert(id.clone(), table[&id].clone());
    }
    json!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_devices_named() {
        let b = |s: &str| vec![s.to_string()];
        assert_eq!(used(&b("S.x+1")), json!({}));
        let one = used(&b(r#"_prop(_fn(L,"hw","s")("H100"),"mttf_h")"#));
        assert_eq!(
            one.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["H100"]
        );
        assert!(one["H100"]["mttf_h"].is_number());
        // A computed id, or one the table lacks, needs the whole table.
        let n = all().as_object().unwrap().len();
        assert!(n > 2);
        let computed = used(&b(r#"_fn(L,"hw","s")(S.dev)"#));
        assert_eq!(computed.as_object().unwrap().len(), n);
        let unknown = used(&b(r#"_fn(L,"hw","s")("NoSuch")"#));
        assert_eq!(unknown.as_object().unwrap().len(), n);
    }
}
