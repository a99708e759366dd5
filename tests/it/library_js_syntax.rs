//! The built-in library's JavaScript (`renderers/html/library.js` and the namespace scripts in
//! `renderers/html/library/*.js`) stays a plain ES2019 script: no modules, no eval, no syntax
//! newer than ES2019. Its agreement with the Rust side is `tests/it/library_js.rs`.

use crate::common;
use std::path::Path;

use common::{library_js_path, library_js_paths};

/// library.js stays a plain ES2019 script: no modules, no eval, no newer syntax.
#[test]
fn library_js_is_a_plain_es2019_script() {
    let main = std::fs::read_to_string(library_js_path()).unwrap();
    assert!(main.contains("function labforgeLibrary(hardware, models)"));
    for path in library_js_paths() {
        let src = std::fs::read_to_string(&path).unwrap();
        es2019_only(&path, &src);
    }
}

fn es2019_only(path: &Path, src: &str) {
    for banned in [
        "?.",
        "??",
        "BigInt",
        "import ",
        "export ",
        "require(",
        "eval(",
        "Function(",
        "=>",
        "`",
        "#",
    ] {
        assert!(
            !src.contains(banned),
            "{} contains {banned:?}",
            path.display()
        );
    }
}
