//! The Content-Security-Policy of the print handouts, the answer keys and their indexes.
//!
//! A handout needs no script, no network and no form: its policy forbids all of them and
//! allows only its own stylesheets, by hash. The policy goes in a `<meta http-equiv>` right at
//! the start of `<head>`, so it applies to everything after it, whatever template drew the page.

use super::html::hash::sha256_base64;
use crate::diag::Diagnostic;

/// The fixed part of a print document's policy (the `style-src` hashes are appended).
pub const PRINT_POLICY: &str =
    "default-src 'none'; script-src 'none'; connect-src 'none'; img-src 'none'; font-src 'none'; object-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'";

/// The text of every `<style>` element in the document's `<head>`.
fn head_styles(head: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = head;
    while let Some(i) = rest.find("<style>") {
        let body = &rest[i + "<style>".len()..];
        let Some(j) = body.find("</style>") else {
            break;
        };
        out.push(&body[..j]);
        rest = &body[j..];
    }
    out
}

/// The policy for `html`: [`PRINT_POLICY`] with a hash for each stylesheet in its `<head>`.
pub fn print_policy(html: &str) -> String {
    let head = html.find("</head>").map_or(html, |i| &html[..i]);
    let hashes: Vec<String> = head_styles(head)
        .iter()
        .map(|s| format!("'sha256-{}'", sha256_base64(s.as_bytes())))
        .collect();
    if hashes.is_empty() {
        format!("{PRINT_POLICY}; style-src 'none'")
    } else {
        format!("{PRINT_POLICY}; style-src {}", hashes.join(" "))
    }
}

/// `html` with its Content-Security-Policy `<meta>` inserted first in `<head>` (after the
/// charset declaration when there is one). A document without `<head>` is refused.
pub fn with_print_csp(html: &str) -> Result<String, Diagnostic> {
    let Some(h) = html.find("<head>") else {
        return Err(
            "the HTML template has no `<head>` to put its Content-Security-Policy in".into(),
        );
    };
    let mut at = h + "<head>".len();
    let charset = "<meta charset=\"utf-8\">";
    if let Some(c) = html[at..].find(charset) {
        if html[at..at + c].trim().is_empty() {
            at += c + charset.len();
        }
    }
    let meta = format!(
        "\n<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
        print_policy(html)
    );
    let mut out = String::with_capacity(html.len() + meta.len());
    out.push_str(&html[..at]);
    out.push_str(&meta);
    out.push_str(&html[at..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_hashes_head_styles_and_forbids_scripts() {
        let doc = "<!DOCTYPE html>\n<html><head>\n<meta charset=\"utf-8\">\n<style>\nb{}\n</style>\n</head><body><style>x{}</style></body></html>";
        let out = with_print_csp(doc).unwrap();
        let meta_at = out.find("Content-Security-Policy").unwrap();
        assert!(meta_at > out.find("charset").unwrap() && meta_at < out.find("<style>").unwrap());
        let policy = print_policy(doc);
        assert!(policy.contains("script-src 'none'") && policy.contains("base-uri 'none'"));
        assert!(policy.contains(&format!("'sha256-{}'", sha256_base64(b"\nb{}\n"))));
        // Only the head's stylesheet is allowed: one hash.
        assert_eq!(policy.matches("'sha256-").count(), 1);
        assert!(with_print_csp("<html><body></body></html>").is_err());
    }
}
