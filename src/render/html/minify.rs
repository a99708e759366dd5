//! The page's scripts, minified at render time by oxc (a JavaScript parser, compressor and
//! name mangler): comments and whitespace dropped, local names shortened, top-level names kept
//! (the page's scripts share them, and its data refers to none). The output targets ES2020.
//! Deterministic: the same script gives the same bytes.

use oxc_allocator::Allocator;
use oxc_codegen::{Codegen, CodegenOptions};
use oxc_minifier::{CompressOptions, MangleOptions, Minifier, MinifierOptions};
use oxc_parser::Parser;
use oxc_span::SourceType;

/// `src` minified; a script oxc cannot parse is returned as written.
pub fn minify_js(src: &str) -> String {
    let alloc = Allocator::default();
    let parsed = Parser::new(&alloc, src, SourceType::script()).parse();
    if parsed.panicked || !parsed.diagnostics.is_empty() {
        return src.to_string();
    }
    let mut program = parsed.program;
    let compress = CompressOptions {
        target: oxc_compat::EngineTargets::from_target("es2020").unwrap_or_default(),
        ..CompressOptions::default()
    };
    let options = MinifierOptions {
        mangle: Some(MangleOptions {
            top_level: Some(false),
            ..MangleOptions::default()
        }),
        compress: Some(compress),
        mangle_properties: None,
    };
    let done = Minifier::new(options).minify(&alloc, &mut program);
    Codegen::new()
        .with_options(CodegenOptions::minify())
        .with_scoping(done.scoping)
        .build(&program)
        .code
}

/// A style sheet without indentation and without the line breaks CSS does not need (after `{`,
/// `}`, `;`, `,` or before `}`); other line breaks stay, where they may separate selectors.
pub fn compact_css(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    for line in src.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if !(out.is_empty() || out.ends_with(['{', '}', ';', ',']) || line.starts_with('}')) {
            out.push('\n');
        }
        out.push_str(line);
    }
    out
}

/// Drops indentation, blank lines and comment-only lines from a script (an instructor's own,
/// from `--templates`). Line breaks stay, so automatic semicolon insertion sees the same
/// program; text inside lines is untouched.
pub fn strip_js(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut in_comment = false;
    for line in src.lines() {
        let t = line.trim();
        if in_comment {
            if t.contains("*/") {
                in_comment = false;
            }
            continue;
        }
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        if t.starts_with("/*") {
            if !t.contains("*/") {
                in_comment = true;
                continue;
            }
            if t.ends_with("*/") && t.find("*/") == Some(t.len() - 2) {
                continue;
            }
        }
        out.push_str(t);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_keeps_the_line_breaks_that_separate() {
        assert_eq!(
            compact_css("a{b:c;\n  d:e}\n.x\n.y{}\n"),
            "a{b:c;d:e}.x\n.y{}"
        );
    }

    #[test]
    fn drops_comments_and_whitespace_and_is_deterministic() {
        let src = "// a comment\nvar LF_X = 1;\nfunction run(longName) {\n  /* block */\n  var another = longName + LF_X;\n  return another;\n}\n";
        let out = minify_js(src);
        // Top-level names stay (other scripts call them), local ones shrink.
        assert!(
            out.contains("LF_X") && out.contains("function run("),
            "{out}"
        );
        assert!(
            !out.contains("longName") && !out.contains("another"),
            "{out}"
        );
        assert!(!out.contains("comment") && !out.contains("block"), "{out}");
        assert_eq!(minify_js(src), out);
        // What it cannot parse it leaves alone.
        assert_eq!(minify_js("var = ;"), "var = ;");
    }
}
