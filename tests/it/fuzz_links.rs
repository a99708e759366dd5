//! Course links (`#lf-course=` + base64 of the record), mutated where a link breaks: characters
//! changed, dropped, added, percent-encoded, padding moved, the record's bytes replaced with
//! bytes that are not UTF-8 or not JSON. The page's reading of each (course.js's
//! `core.linkText`, then its `parse`, run in Node by tests/browser/link-core.cjs) must equal
//! what the Rust side makes of the same fragment: the same refusal, or the same record with
//! the same parts left out (`CourseRecord::parse`, what `labforge run --import` runs). The
//! fragment's decoding is modelled here as the web platform specifies it (percent-decoding,
//! then forgiving base64, then UTF-8), so a case where the page decodes leniently and the
//! record still gets in is compared too.

use crate::common::{self, Rng};
use base64::Engine as _;
use labforge::record::CourseRecord;
use serde_json::{json, Value as J};

/// `decodeURIComponent`: `%XX` sequences decoded as UTF-8 (an invalid one, or a `%` without two
/// hex digits, is an error); everything else as it is.
fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// WHATWG forgiving-base64 decode (what `atob` runs).
fn forgiving_base64(s: &str) -> Option<Vec<u8>> {
    let mut t: String = s
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' '))
        .collect();
    if t.len().is_multiple_of(4) {
        for _ in 0..2 {
            if t.ends_with('=') {
                t.pop();
            }
        }
    }
    if t.len() % 4 == 1
        || !t
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '/')
    {
        return None;
    }
    let engine = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::RequireNone)
            .with_decode_allow_trailing_bits(true),
    );
    engine.decode(t).ok()
}

/// The fragment as the page reads it: the record's text, or why not (the page's words).
fn link_text(frag: &str) -> Result<String, &'static str> {
    if frag.len() > 524_288usize.div_ceil(3) * 4 {
        return Err("too large");
    }
    let bytes = percent_decode(frag)
        .and_then(|s| forgiving_base64(&s))
        .ok_or("damaged")?;
    String::from_utf8(bytes).map_err(|_| "damaged")
}

fn mutate(b64: &str, rng: &mut Rng) -> String {
    const ODD: &[&str] = &[
        "=", "==", "%", "%2", "%3D", "%E2%82", "%C3%A9", " ", "\n", "-", "_", ".", "é", "+", "/",
        "A", "%25",
    ];
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s: Vec<String> = b64.chars().map(String::from).collect();
    for _ in 0..1 + rng.below(2) {
        let n = s.len().max(1);
        let i = rng.below(n);
        match rng.below(14) {
            // Within the alphabet (the record's bytes change; the link still decodes), or
            // what the platform forgives (spaces, a percent-encoded character).
            9..=11 if !s.is_empty() => s[i] = (ALPHABET[rng.below(64)] as char).to_string(),
            12 => s.insert(i.min(s.len()), [" ", "\n", "\t"][rng.below(3)].to_string()),
            13 if !s.is_empty() => {
                let c = s[i].clone();
                s[i] = c.bytes().map(|b| format!("%{b:02x}")).collect();
            }
            0 if !s.is_empty() => s[i] = ODD[rng.below(ODD.len())].to_string(),
            1 if !s.is_empty() => {
                s.remove(i);
            }
            2 => s.insert(i.min(s.len()), ODD[rng.below(ODD.len())].to_string()),
            3 => s.truncate(i),
            4 if !s.is_empty() => {
                let c = s[i].clone();
                s[i] = c.bytes().map(|b| format!("%{b:02X}")).collect();
            }
            5 if s.len() > 1 => {
                let j = rng.below(s.len());
                s.swap(i, j);
            }
            6 => {
                // A group replaced by the base64 of bytes that break the text or the JSON.
                let bad: &[&[u8]] = &[b"\xff\xfe", b"\xc3", b"\"}", b"\x00", b"\xed\xa0\x80"];
                let g = base64::engine::general_purpose::STANDARD_NO_PAD
                    .encode(bad[rng.below(bad.len())]);
                let at = i.min(s.len()) / 4 * 4;
                let end = (at + g.len()).min(s.len());
                s.splice(at..end, g.chars().map(String::from));
            }
            7 if !s.is_empty() => {
                let c = s[i].clone();
                s[i] = if c == c.to_lowercase() {
                    c.to_uppercase()
                } else {
                    c.to_lowercase()
                };
            }
            _ => s.push("=".into()),
        }
    }
    s.concat()
}

#[test]
fn mutated_course_links_read_the_same_in_the_page_and_in_rust() {
    let course = labforge::course::load(&common::root().join("labs/course.yaml")).unwrap();
    let labs: Vec<_> = course
        .file
        .labs
        .iter()
        .map(|f| {
            (
                f.file_stem().unwrap().to_string_lossy().to_string(),
                labforge::lab::load_lab(f).ok().unwrap(),
            )
        })
        .collect();
    let refs: Vec<_> = labs.iter().map(|(s, l)| (s.clone(), l)).collect();
    let site = labforge::site::Site::new(&course, &refs).unwrap();
    // A student's record: each lab's first option in every part it asks, a decision log that
    // is not ASCII, a track.
    let mut ledgers = serde_json::Map::new();
    for l in &site.labs {
        let mut parts = serde_json::Map::new();
        for p in l.shape.as_array().unwrap() {
            let mut a = serde_json::Map::new();
            for (k, key) in [(1, "prediction"), (2, "reflection")] {
                if let Some(first) = p[k].as_array().and_then(|o| o.first()) {
                    a.insert(key.into(), first.clone());
                }
            }
            parts.insert(p[0].as_str().unwrap().into(), J::Object(a));
        }
        ledgers.insert(
            l.id.clone(),
            json!({"format": "labforge-ledger/2", "lab": l.id, "version": l.version,
                "parts": parts, "decision_log": "Ünïcode 🙂 — mine."}),
        );
    }
    let record = json!({"format": "labforge-course/1", "course": site.id, "labs": ledgers,
        "track": site.track_ids()[0]});
    let b64 = base64::engine::general_purpose::STANDARD.encode(record.to_string());
    let mut rng = Rng(0x11f0_c0de_5eed);
    let mut frags = vec![b64.clone()];
    frags.extend((0..400).map(|_| mutate(&b64, &mut rng)));

    // Rust's reading of each.
    let rust: Vec<J> = frags
        .iter()
        .map(|f| match link_text(f) {
            Err(why) => json!({"link": why}),
            Ok(text) => match CourseRecord::parse(&text, &site.id, &site.labs) {
                Err(_) => json!({"text": text, "error": true}),
                Ok((r, left)) => {
                    json!({"text": text, "labs": r.labs, "left": left, "track": r.track})
                }
            },
        })
        .collect();
    let whole = &rust[0];
    assert_eq!(whole["labs"].as_object().unwrap().len(), site.labs.len());
    assert_eq!(whole["left"], json!([]), "{whole}");
    let kinds = |k: &str| rust.iter().filter(|r| r.get(k).is_some()).count();
    println!(
        "links: {} cases: {} not decoded, {} decoded and refused, {} read",
        frags.len(),
        kinds("link"),
        kinds("error"),
        kinds("labs")
    );
    assert!(kinds("link") > 40 && kinds("error") > 40 && kinds("labs") > 60);

    let Some(node) = common::node_or_skip("the page's reading of course links") else {
        return;
    };
    // The index's course data, as the page has it.
    let out = tempfile::tempdir().unwrap();
    common::render_html(&common::root().join("labs"), out.path());
    let index = std::fs::read_to_string(out.path().join("index.html")).unwrap();
    let tag = "<script type=\"application/json\" id=\"lf-data\">";
    let data = &index[index.find(tag).unwrap() + tag.len()..];
    let data: J = serde_json::from_str(&data[..data.find("</script>").unwrap()]).unwrap();
    let spec = out.path().join("links.json");
    std::fs::write(
        &spec,
        serde_json::to_vec(&json!({"course": data["course"], "frags": frags})).unwrap(),
    )
    .unwrap();
    let root = common::root();
    let page: Vec<J> = serde_json::from_slice(&common::node_stdout(
        &node,
        &[
            &root.join("tests/browser/link-core.cjs"),
            &root.join("renderers/html/course.js"),
            &spec,
        ],
    ))
    .unwrap();
    assert_eq!(page.len(), rust.len());
    for ((f, r), p) in frags.iter().zip(&rust).zip(&page) {
        let same = match (r.get("link"), p.get("link")) {
            (Some(_), Some(p)) => {
                let p = p.as_str().unwrap();
                assert!(
                    p.contains(r["link"].as_str().unwrap()),
                    "refused for another reason: {p}"
                );
                true
            }
            (None, None) => {
                r["text"] == p["text"]
                    && r.get("error").is_some() == p.get("error").is_some()
                    && (r.get("error").is_some()
                        || (common::merge::same(&r["labs"], &p["labs"])
                            && r["left"] == p["left"]
                            && r["track"] == p["track"]))
            }
            _ => false,
        };
        assert!(same, "fragment {f:?}\nRust: {r}\npage: {p}");
    }
}
