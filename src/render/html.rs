//! The static HTML page (not written yet).

use super::{OutFile, RenderOptions, Renderer};
use crate::eval::CompiledLab;

pub struct HtmlRenderer;

impl Renderer for HtmlRenderer {
    fn name(&self) -> &'static str {
        "html"
    }
    fn render(
        &self,
        _lab: &CompiledLab,
        _stem: &str,
        _opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, String> {
        Err("the HTML renderer is not written yet".into())
    }
}
