//! The page's scripts, minified at render time by oxc (a JavaScript parser, compressor and
//! name mangler): comments and whitespace dropped, local names shortened, top-level names kept
//! (the page's scripts share them, and its data refers to none). The output targets ES2020.
//! Deterministic: the same script gives the same bytes.

use oxc_allocator::Allocator;
use oxc_codegen::{Codegen, CodegenOptions, LegalComment};
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

/// An instructor's own script (from `--templates`) without its comments and whitespace, its
/// names and code as written: oxc parses it and prints it back, so a `/*` or `//` inside a
/// string, a template literal or a regular expression stays text. Legal comments (`/*!`,
/// `@license`, `@preserve`) are kept. A script oxc cannot parse is returned as written (the
/// browser reports its error, as it would for the file itself).
pub fn strip_js(src: &str) -> String {
    let alloc = Allocator::default();
    let parsed = Parser::new(&alloc, src, SourceType::script()).parse();
    if parsed.panicked || !parsed.diagnostics.is_empty() {
        return src.to_string();
    }
    let mut options = CodegenOptions::minify();
    options.comments.legal = LegalComment::Inline;
    Codegen::new()
        .with_options(options)
        .build(&parsed.program)
        .code
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

    /// An instructor's script keeps its strings, template literals and regular expressions
    /// whole, whatever comment-like text they hold, and its names; comments go.
    #[test]
    fn stripping_keeps_strings_that_look_like_comments() {
        let src = "/* header\n   comment */\nvar url = \"http://example.org/*x\";\n\
var t = `line\n  // kept\n  /* kept too */`;\n\
var r = /\\/\\*/g; // trailing comment\n\
function longName(argument) {\n  return argument + url; /* inline */\n}\n";
        let out = strip_js(src);
        assert!(out.contains("http://example.org/*x"), "{out}");
        assert!(out.contains("`line\n  // kept\n  /* kept too */`"), "{out}");
        assert!(out.contains("/\\/\\*/g"), "{out}");
        assert!(out.contains("function longName(argument)"), "{out}");
        assert!(
            !out.contains("header") && !out.contains("trailing") && !out.contains("inline"),
            "{out}"
        );
        assert_eq!(strip_js(src), out);
        assert!(strip_js("/*! (c) Someone, MIT */\nvar a = 1;\n").contains("(c) Someone, MIT"));
        assert_eq!(strip_js("var = ;"), "var = ;");
    }
}
