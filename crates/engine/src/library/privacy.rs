//! `privacy::` — differential privacy: noise scales and composition.

use rhai::{FuncRegistration, Module};

use super::{bad, FnDoc};

/// Laplace mechanism scale b = Δ/ε.
pub(crate) fn laplace_scale(sensitivity: f64, epsilon: f64) -> f64 {
    if bad(sensitivity) || epsilon.is_nan() || epsilon <= 0.0 {
        return f64::NAN;
    }
    sensitivity / epsilon
}

/// Gaussian mechanism σ = Δ·√(2 ln(1.25/δ)) / ε.
pub(crate) fn gaussian_sigma(sensitivity: f64, epsilon: f64, delta: f64) -> f64 {
    if bad(sensitivity) || epsilon.is_nan() || epsilon <= 0.0 || !(delta > 0.0 && delta < 1.0) {
        return f64::NAN;
    }
    sensitivity * (2.0 * (1.25 / delta).ln()).sqrt() / epsilon
}

/// k-fold basic composition: k·ε.
pub(crate) fn compose_basic(epsilon: f64, k: f64) -> f64 {
    if bad(epsilon) || bad(k) {
        return f64::NAN;
    }
    k * epsilon
}

/// Advanced composition: ε·√(2k ln(1/δ')) + k·ε·(e^ε − 1).
pub(crate) fn compose_advanced(epsilon: f64, k: f64, delta_prime: f64) -> f64 {
    if bad(epsilon) || bad(k) || !(delta_prime > 0.0 && delta_prime < 1.0) {
        return f64::NAN;
    }
    epsilon * (2.0 * k * (1.0 / delta_prime).ln()).sqrt() + k * epsilon * epsilon.exp_m1()
}

pub(crate) fn module() -> Module {
    let mut m = Module::new();
    FuncRegistration::new("laplace_scale").set_into_module(&mut m, laplace_scale);
    FuncRegistration::new("gaussian_sigma").set_into_module(&mut m, gaussian_sigma);
    FuncRegistration::new("compose_basic").set_into_module(&mut m, compose_basic);
    FuncRegistration::new("compose_advanced").set_into_module(&mut m, compose_advanced);
    m
}

pub(crate) const DOCS: &[FnDoc] = &[
    FnDoc {
        path: "privacy::laplace_scale",
        signature: "privacy::laplace_scale(sensitivity: f64, epsilon: f64) -> f64",
        summary: "Scale b = Δ/ε of the Laplace noise that makes a query of L1 sensitivity Δ \
                  ε-differentially private (the noise's standard deviation is √2·b). A count \
                  (Δ = 1) at ε = 0.1 needs b = 10. epsilon ≤ 0, a negative sensitivity or NaN \
                  → NaN.",
        units: "sensitivity: the query's unit (1 for a count); epsilon: privacy loss (nats); \
                result: the query's unit.",
        source: "C. Dwork, F. McSherry, K. Nissim, A. Smith, \"Calibrating Noise to Sensitivity \
                 in Private Data Analysis\" (TCC 2006); C. Dwork, A. Roth, \"The Algorithmic \
                 Foundations of Differential Privacy\", Foundations and Trends in Theoretical \
                 Computer Science 9(3–4), 2014 (cited below as Dwork and Roth (2014)), \
                 Definition 3.3 and Theorem 3.6.",
        example: "privacy::laplace_scale(1.0, 0.1)",
    },
    FnDoc {
        path: "privacy::gaussian_sigma",
        signature: "privacy::gaussian_sigma(sensitivity: f64, epsilon: f64, delta: f64) -> f64",
        summary: "Standard deviation σ = Δ·√(2 ln(1.25/δ))/ε of the Gaussian noise that makes a \
                  query of L2 sensitivity Δ (ε, δ)-differentially private. The theorem holds \
                  for 0 < ε < 1; for larger ε the expression is computed as written but is no \
                  longer a guarantee. epsilon ≤ 0, delta outside (0, 1), a negative \
                  sensitivity or NaN → NaN.",
        units: "sensitivity: the query's unit; epsilon: nats; delta: probability; result: the \
                query's unit.",
        source: "Dwork and Roth (2014), Theorem A.1 (the Gaussian mechanism).",
        example: "privacy::gaussian_sigma(1.0, 0.5, 1e-5)",
    },
    FnDoc {
        path: "privacy::compose_basic",
        signature: "privacy::compose_basic(epsilon: f64, k: f64) -> f64",
        summary: "Total privacy loss of k mechanisms of ε each, by basic (sequential) \
                  composition: k·ε (the δs add the same way, k·δ). Negative or NaN → NaN.",
        units: "epsilon: nats per mechanism; k: count; result: nats.",
        source: "Dwork and Roth (2014), Theorem 3.16.",
        example: "privacy::compose_basic(0.1, 100.0)",
    },
    FnDoc {
        path: "privacy::compose_advanced",
        signature: "privacy::compose_advanced(epsilon: f64, k: f64, delta_prime: f64) -> f64",
        summary: "Total ε of k mechanisms of ε each by the advanced composition theorem: \
                  ε·√(2k·ln(1/δ')) + k·ε·(e^ε − 1), at the price of δ' more failure probability \
                  (k·δ + δ' in all). It grows like √k where basic composition grows like k: \
                  100 queries at ε = 0.1 with δ' = 1e-5 give 5.85 instead of 10 (it only wins \
                  for large k and small ε). delta_prime outside (0, 1), negative or NaN → NaN.",
        units: "epsilon: nats per mechanism; k: count; delta_prime: probability; result: nats.",
        source: "C. Dwork, G. N. Rothblum, S. Vadhan, \"Boosting and Differential Privacy\" \
                 (FOCS 2010); Dwork and Roth (2014), Theorem 3.20.",
        example: "privacy::compose_advanced(0.1, 100.0, 1e-5)",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textbook_values() {
        assert_eq!(laplace_scale(1.0, 0.1), 10.0);
        assert!(laplace_scale(1.0, 0.0).is_nan());
        // √(2 ln 125000) = 4.8450...; / 0.5.
        let s = gaussian_sigma(1.0, 0.5, 1e-5);
        assert!(
            (s - 2.0 * (2.0 * 125_000f64.ln()).sqrt()).abs() < 1e-12,
            "{s}"
        );
        assert!(gaussian_sigma(1.0, 0.5, 0.0).is_nan());
        assert_eq!(compose_basic(0.1, 100.0), 10.0);
        let adv = compose_advanced(0.1, 100.0, 1e-5);
        // 0.1·√(200·ln 1e5) + 100·0.1·(e^0.1 − 1) = 4.7985 + 1.0517.
        assert!((adv - 5.850_235_092_944_557).abs() < 1e-12, "{adv}");
        assert!(compose_advanced(0.1, 100.0, 1.0).is_nan());
    }
}
