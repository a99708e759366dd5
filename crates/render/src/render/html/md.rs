//! The page's Markdown: thin wrappers over the one sanitising policy in
//! [`crate::render::sanitize`] (raw HTML shown as text, safe link schemes only, images as their
//! alt text).

pub use crate::render::escape;

/// Block Markdown (paragraphs, lists, tables) to safe HTML.
pub fn md_block(src: &str) -> String {
    crate::render::sanitize::html_block(src)
}

/// Inline Markdown to safe HTML: a single paragraph without its `<p>` wrapper.
pub fn md_inline(src: &str) -> String {
    crate::render::sanitize::html_inline(src)
}
