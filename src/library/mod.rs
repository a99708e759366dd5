//! The built-in hardware/physics library exposed to formulas (stub until the library lands).

/// Documentation of one library function.
pub struct FnDoc {
    pub path: &'static str,
    pub signature: &'static str,
    pub summary: &'static str,
    pub units: &'static str,
    pub source: &'static str,
    pub example: &'static str,
}

pub fn functions() -> &'static [FnDoc] {
    &[]
}

pub fn register(_engine: &mut rhai::Engine) {}
