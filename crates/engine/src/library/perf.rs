//! `perf::` — first-principles limits: Amdahl's law and the speed of light in fibre.

use rhai::{FuncRegistration, Module};

use super::{bad, FnDoc};

/// Light in silica fibre (refractive index ≈ 1.47): about 200,000 km/s, the course's figure.
pub(crate) const FIBRE_KM_S: f64 = 200_000.0;

/// Amdahl's law: 1 / ((1 − p) + p/s).
pub(crate) fn amdahl(p: f64, s: f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) || s.is_nan() || s <= 0.0 {
        return f64::NAN;
    }
    1.0 / ((1.0 - p) + p / s)
}

/// Round trip over `km` of fibre: 2·km / 200,000 km/s, in milliseconds.
pub(crate) fn fibre_rtt_ms(km: f64) -> f64 {
    if bad(km) {
        return f64::NAN;
    }
    2.0 * km / FIBRE_KM_S * 1000.0
}

pub(crate) fn module() -> Module {
    let mut m = Module::new();
    FuncRegistration::new("amdahl").set_into_module(&mut m, amdahl);
    FuncRegistration::new("fibre_rtt_ms").set_into_module(&mut m, fibre_rtt_ms);
    m
}

pub(crate) const DOCS: &[FnDoc] = &[
    FnDoc {
        path: "perf::amdahl",
        signature: "perf::amdahl(p: f64, s: f64) -> f64",
        summary: "Amdahl's law: the overall speedup when a fraction p of the work is sped up s \
                  times, 1 / ((1 − p) + p/s). It never exceeds 1/(1 − p) (s = ∞ gives that \
                  bound: p = 0.95 caps any speedup at 20×). p outside [0, 1], s ≤ 0 or NaN → \
                  NaN.",
        units: "p: fraction of the original time (dimensionless); s: speedup of that part (or a \
                processor count); result: overall speedup (×).",
        source: "G. M. Amdahl, \"Validity of the single processor approach to achieving large \
                 scale computing capabilities\", AFIPS Spring Joint Computer Conference, 1967; \
                 the course's calc_amdahls_speedup (harvard-edge/cs249r_book, \
                 mlsysim/core/formulas.py).",
        example: "perf::amdahl(0.95, 8.0)",
    },
    FnDoc {
        path: "perf::fibre_rtt_ms",
        signature: "perf::fibre_rtt_ms(distance_km: f64) -> f64",
        summary: "The round-trip time of light over distance_km of optical fibre, 2 × \
                  distance_km / 200,000 km/s, in milliseconds: 1 ms per 100 km, the floor under \
                  any network latency over that distance (routing, switching and a fibre path \
                  longer than the straight line only add to it). Negative or NaN → NaN.",
        units: "distance_km: one-way fibre length, km; result: milliseconds.",
        source: "Light in silica fibre travels at c/n with n ≈ 1.47, about 2/3 of c or \
                 200,000 km/s (the course's SPEED_OF_LIGHT_FIBER_KM_S = \
                 200,000 and calc_network_latency_ms, harvard-edge/cs249r_book, \
                 mlsysim/core/formulas.py).",
        example: "perf::fibre_rtt_ms(4000.0)",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amdahl_and_fibre() {
        assert!((amdahl(0.95, 8.0) - 5.925_925_925_925_926).abs() < 1e-12);
        assert_eq!(amdahl(0.95, f64::INFINITY), 1.0 / (1.0 - 0.95));
        assert_eq!(amdahl(0.0, 100.0), 1.0);
        assert_eq!(amdahl(1.0, 4.0), 4.0);
        assert!(amdahl(1.2, 2.0).is_nan() && amdahl(0.5, 0.0).is_nan());
        // New York–London is about 5,600 km great-circle: at least 56 ms round trip.
        assert_eq!(fibre_rtt_ms(5600.0), 56.0);
        assert_eq!(fibre_rtt_ms(100.0), 1.0);
        assert!(fibre_rtt_ms(-1.0).is_nan());
    }
}
