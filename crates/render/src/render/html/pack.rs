//! The page's scripts, packed: gzip (level 9, no name, no time: the same bytes every run) of the
//! scripts joined by NUL, in base64, for `boot.js` to inflate with the browser's
//! `DecompressionStream` and run in order. A third of their size on the page (ml-intro: 88 KB
//! of minified script in 39 KB), so a page with every feature stays under its 150 KiB budget.
//! Each script keeps its own `script-src` hash: `boot.js` inserts it as an inline script of the
//! same text, which the page's Content-Security-Policy allows by that hash, as before.

use crate::diag::Diagnostic;
use base64::Engine;
use flate2::{write::GzEncoder, Compression};
use std::io::Write;

/// `scripts`, packed for `boot.js` (its split is on NUL, which no script may hold).
pub fn pack(scripts: &[String]) -> Result<String, Diagnostic> {
    if scripts.iter().any(|s| s.contains('\0')) {
        return Err("a page script contains a NUL character".into());
    }
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(scripts.join("\0").as_bytes())
        .map_err(|e| Diagnostic::from(e.to_string()))?;
    let bytes = gz.finish().map_err(|e| Diagnostic::from(e.to_string()))?;
    Ok(base64::engine::general_purpose::STANDARD.encode(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::read::GzDecoder;
    use std::io::Read;

    #[test]
    fn packed_scripts_inflate_to_the_same_texts_in_order() {
        let scripts = vec!["var a=1;".to_string(), "\"use strict\";b()".to_string()];
        let packed = pack(&scripts).unwrap();
        assert_eq!(packed, pack(&scripts).unwrap(), "deterministic");
        let gz = base64::engine::general_purpose::STANDARD
            .decode(packed)
            .unwrap();
        let mut text = String::new();
        GzDecoder::new(&gz[..]).read_to_string(&mut text).unwrap();
        assert_eq!(
            text.split('\0').collect::<Vec<_>>(),
            ["var a=1;", "\"use strict\";b()"]
        );
    }

    #[test]
    fn a_script_with_nul_is_refused() {
        assert!(pack(&["a\0b".to_string()]).is_err());
    }
}
