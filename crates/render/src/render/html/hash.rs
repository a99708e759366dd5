//! `base64(sha256(data))` for the page's Content-Security-Policy script hashes (RustCrypto's
//! `sha2` and the `base64` crate).

use base64::Engine;
use sha2::{Digest, Sha256};

/// `base64(sha256(data))`, standard alphabet with padding, as CSP hash sources want it.
pub fn sha256_base64(data: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(Sha256::digest(data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_digests() {
        assert_eq!(
            sha256_base64(b""),
            "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
        );
        assert_eq!(
            sha256_base64(b"abc"),
            "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="
        );
    }
}
