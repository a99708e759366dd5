//! Markdown handouts and answer keys (not written yet).

use super::{OutFile, RenderOptions, Renderer};
use crate::eval::CompiledLab;

pub struct MarkdownRenderer;
pub struct HandoutHtmlRenderer;

impl Renderer for MarkdownRenderer {
    fn name(&self) -> &'static str {
        "markdown"
    }
    fn render(
        &self,
        _lab: &CompiledLab,
        _stem: &str,
        _opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, String> {
        Err("the Markdown renderer is not written yet".into())
    }
}

impl Renderer for HandoutHtmlRenderer {
    fn name(&self) -> &'static str {
        "handout-html"
    }
    fn render(
        &self,
        _lab: &CompiledLab,
        _stem: &str,
        _opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, String> {
        Err("the handout HTML renderer is not written yet".into())
    }
}
