//! The built-in hardware/physics library exposed to formulas.
