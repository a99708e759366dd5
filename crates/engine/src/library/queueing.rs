//! `queue::` — mean-value queueing formulas.
//!
//! Domain convention shared by every function here: a utilization `rho` that is NaN or
//! negative gives NaN; `rho >= 1` (an unstable queue) gives `+∞` for waits and 1 for the
//! probability of waiting. Other arguments follow IEEE arithmetic.

use rhai::{FuncRegistration, Module};

use super::{whole, FnDoc};

/// Largest server count `erlang_c` and friends accept (the recurrence is O(c)).
pub(crate) const MAX_SERVERS: f64 = 1_000_000.0;

/// `Some(result)` when `rho` is outside `[0, 1)`.
fn rho_guard(rho: f64) -> Option<f64> {
    if rho.is_nan() || rho < 0.0 {
        Some(f64::NAN)
    } else if rho >= 1.0 {
        Some(f64::INFINITY)
    } else {
        None
    }
}

/// M/M/1 mean wait in queue: W_q = rho/(1-rho) * service.
pub(crate) fn mm1_wait(rho: f64, service: f64) -> f64 {
    if let Some(r) = rho_guard(rho) {
        return r;
    }
    rho / (1.0 - rho) * service
}

/// M/M/1 mean time in system (wait + service): T = service/(1-rho).
pub(crate) fn mm1_sojourn(rho: f64, service: f64) -> f64 {
    if let Some(r) = rho_guard(rho) {
        return r;
    }
    service / (1.0 - rho)
}

/// Pollaczek-Khinchine amplification factor (1+cs^2)/2.
pub(crate) fn pk_amplification(cs: f64) -> f64 {
    (1.0 + cs * cs) / 2.0
}

/// M/G/1 mean wait in queue (Pollaczek-Khinchine): rho/(1-rho) * (1+cs^2)/2 * service.
pub(crate) fn pk_wait(rho: f64, cs: f64, service: f64) -> f64 {
    if let Some(r) = rho_guard(rho) {
        return r;
    }
    rho / (1.0 - rho) * ((1.0 + cs * cs) / 2.0) * service
}

/// G/G/1 Kingman approximation: rho/(1-rho) * (ca^2+cs^2)/2 * service.
pub(crate) fn kingman_wait(rho: f64, ca: f64, cs: f64, service: f64) -> f64 {
    if let Some(r) = rho_guard(rho) {
        return r;
    }
    rho / (1.0 - rho) * ((ca * ca + cs * cs) / 2.0) * service
}

/// `Some(result)` when `(c, rho)` is outside the M/M/c domain; `unstable` is the value for
/// `rho >= 1`.
fn mmc_guard(c: f64, rho: f64, unstable: f64) -> Option<f64> {
    if whole(c, MAX_SERVERS).is_none_or(|n| n == 0) || rho.is_nan() || rho < 0.0 {
        Some(f64::NAN)
    } else if rho >= 1.0 {
        Some(unstable)
    } else {
        None
    }
}

/// Erlang C: probability that an arrival waits in M/M/c with per-server utilization rho.
/// Computed with the Erlang B recurrence B(0)=1, B(k) = a*B(k-1)/(k + a*B(k-1)), a = c*rho,
/// then C = B / (1 - rho*(1-B)); stable for large c.
pub(crate) fn erlang_c(c: f64, rho: f64) -> f64 {
    if let Some(r) = mmc_guard(c, rho, 1.0) {
        return r;
    }
    erlang_c_unchecked(c, rho)
}

fn erlang_c_unchecked(c: f64, rho: f64) -> f64 {
    let a = c * rho;
    let mut b = 1.0;
    let mut k = 1.0;
    while k <= c {
        b = a * b / (k + a * b);
        k += 1.0;
    }
    b / (1.0 - rho * (1.0 - b))
}

/// M/M/c mean wait in queue: C(c, rho) * service / (c*(1-rho)).
pub(crate) fn mmc_wait(c: f64, rho: f64, service: f64) -> f64 {
    if let Some(r) = mmc_guard(c, rho, f64::INFINITY) {
        return r;
    }
    erlang_c_unchecked(c, rho) * service / (c * (1.0 - rho))
}

/// p-quantile of the M/M/c (FCFS) waiting time: P(W > t) = C * exp(-c(1-rho) t / service),
/// so t_p = 0 when p <= 1-C, else -ln((1-p)/C) * service / (c*(1-rho)).
pub(crate) fn mmc_wait_p(c: f64, rho: f64, service: f64, p: f64) -> f64 {
    if let Some(r) = mmc_guard(c, rho, f64::INFINITY) {
        return r;
    }
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    let cw = erlang_c_unchecked(c, rho);
    if p <= 1.0 - cw {
        return 0.0;
    }
    -((1.0 - p) / cw).ln() * service / (c * (1.0 - rho))
}

pub(crate) fn module() -> Module {
    let mut m = Module::new();
    FuncRegistration::new("mm1_wait").set_into_module(&mut m, mm1_wait);
    FuncRegistration::new("mm1_sojourn").set_into_module(&mut m, mm1_sojourn);
    FuncRegistration::new("pk_wait").set_into_module(&mut m, pk_wait);
    FuncRegistration::new("pk_amplification").set_into_module(&mut m, pk_amplification);
    FuncRegistration::new("erlang_c").set_into_module(&mut m, erlang_c);
    FuncRegistration::new("mmc_wait").set_into_module(&mut m, mmc_wait);
    FuncRegistration::new("mmc_wait_p").set_into_module(&mut m, mmc_wait_p);
    FuncRegistration::new("kingman_wait").set_into_module(&mut m, kingman_wait);
    m
}

pub(crate) const DOCS: &[FnDoc] = &[
    FnDoc {
        path: "queue::mm1_wait",
        signature: "queue::mm1_wait(rho: f64, service: f64) -> f64",
        summary:
            "M/M/1 mean waiting time in queue (excluding service): W_q = rho/(1-rho) × service. \
                  rho >= 1 → ∞; rho < 0 or NaN → NaN.",
        units: "rho: utilization (dimensionless, 0 ≤ rho < 1); service: mean service time in any \
                time unit; result: same unit as service.",
        source: "M/M/1 queue, Kleinrock, Queueing Systems Vol. 1 (1975), ch. 3.",
        example: "queue::mm1_wait(0.8, 5.0)",
    },
    FnDoc {
        path: "queue::mm1_sojourn",
        signature: "queue::mm1_sojourn(rho: f64, service: f64) -> f64",
        summary:
            "M/M/1 mean time in system (queue + service): T = service/(1-rho) = W_q + service. \
                  rho >= 1 → ∞; rho < 0 or NaN → NaN.",
        units: "rho: utilization (dimensionless); service: mean service time; result: same unit \
                as service.",
        source: "M/M/1 queue, Kleinrock, Queueing Systems Vol. 1 (1975), ch. 3.",
        example: "queue::mm1_sojourn(0.8, 5.0)",
    },
    FnDoc {
        path: "queue::pk_wait",
        signature: "queue::pk_wait(rho: f64, cs: f64, service: f64) -> f64",
        summary: "M/G/1 mean waiting time in queue, Pollaczek–Khinchine formula: \
                  W_q = rho/(1-rho) × (1+cs²)/2 × service, where cs is the coefficient of \
                  variation of the service time (cs = 1: exponential, reduces to M/M/1; \
                  cs = 0: deterministic). rho >= 1 → ∞; rho < 0 or NaN → NaN.",
        units: "rho: utilization (dimensionless); cs: dimensionless (std/mean of service time); \
                service: mean service time; result: same unit as service.",
        source: "Pollaczek (1930) and Khinchine (1932) mean-value formula; Kleinrock, Queueing \
                 Systems Vol. 1 (1975), ch. 5.",
        example: "queue::pk_wait(0.8, 3.0, 30.0)",
    },
    FnDoc {
        path: "queue::pk_amplification",
        signature: "queue::pk_amplification(cs: f64) -> f64",
        summary: "The factor (1+cs²)/2 by which service-time variability multiplies the M/M/1 \
                  wait in the Pollaczek–Khinchine formula (1 for cs = 1, 5 for cs = 3, 13 for \
                  cs = 5).",
        units: "cs: dimensionless coefficient of variation; result: dimensionless.",
        source: "Pollaczek–Khinchine formula; Kleinrock, Queueing Systems Vol. 1 (1975), ch. 5.",
        example: "queue::pk_amplification(3.0)",
    },
    FnDoc {
        path: "queue::erlang_c",
        signature: "queue::erlang_c(c: f64, rho: f64) -> f64",
        summary: "Erlang C: the probability that an arrival has to wait in an M/M/c queue with c \
                  servers at per-server utilization rho (offered load a = c·rho). Computed via \
                  the Erlang B recurrence B(k) = a·B(k-1)/(k + a·B(k-1)), then \
                  C = B/(1 - rho·(1-B)). c must be a whole number from 1 to 1,000,000 \
                  (else NaN); rho >= 1 → 1; rho < 0 or NaN → NaN.",
        units: "c: number of servers; rho: per-server utilization (dimensionless); result: \
                probability in [0, 1].",
        source: "A. K. Erlang (1917); M/M/m queue in Kleinrock, Queueing Systems Vol. 1 (1975), \
                 ch. 3.",
        example: "queue::erlang_c(8.0, 0.8)",
    },
    FnDoc {
        path: "queue::mmc_wait",
        signature: "queue::mmc_wait(c: f64, rho: f64, service: f64) -> f64",
        summary: "M/M/c mean waiting time in queue: W_q = C(c, rho) × service / (c·(1-rho)), \
                  with C the Erlang C probability. c = 1 gives the M/M/1 wait. rho >= 1 → ∞; \
                  invalid c, rho < 0 or NaN → NaN.",
        units: "c: number of servers; rho: per-server utilization; service: mean service time \
                per job; result: same unit as service.",
        source: "M/M/m queue, Kleinrock, Queueing Systems Vol. 1 (1975), ch. 3.",
        example: "queue::mmc_wait(8.0, 0.8, 30.0)",
    },
    FnDoc {
        path: "queue::mmc_wait_p",
        signature: "queue::mmc_wait_p(c: f64, rho: f64, service: f64, p: f64) -> f64",
        summary: "p-quantile of the M/M/c waiting time (FCFS), e.g. p = 0.5 or 0.99. The waiting \
                  time is 0 with probability 1-C and otherwise exponential: \
                  P(W > t) = C·exp(-c(1-rho)·t/service). So the quantile is 0 when p <= 1-C, \
                  else -ln((1-p)/C) × service/(c·(1-rho)). p = 1 → ∞; p outside [0, 1] → NaN; \
                  rho >= 1 → ∞; invalid c or rho → NaN.",
        units: "c: servers; rho: per-server utilization; service: mean service time; p: \
                probability; result: same unit as service.",
        source: "M/M/m waiting-time distribution, Kleinrock, Queueing Systems Vol. 1 (1975), \
                 ch. 3; D. Gross, C. M. Harris, Fundamentals of Queueing Theory (Wiley), M/M/c.",
        example: "queue::mmc_wait_p(8.0, 0.8, 30.0, 0.99)",
    },
    FnDoc {
        path: "queue::kingman_wait",
        signature: "queue::kingman_wait(rho: f64, ca: f64, cs: f64, service: f64) -> f64",
        summary: "G/G/1 mean waiting time, Kingman's heavy-traffic approximation: \
                  W_q ≈ rho/(1-rho) × (ca²+cs²)/2 × service, with ca and cs the coefficients of \
                  variation of inter-arrival and service times (ca = 1 gives the P-K formula). \
                  rho >= 1 → ∞; rho < 0 or NaN → NaN.",
        units: "rho: utilization; ca, cs: dimensionless; service: mean service time; result: \
                same unit as service.",
        source: "J. F. C. Kingman, \"The single server queue in heavy traffic\", Proc. Cambridge \
                 Philosophical Society 57(4), 1961.",
        example: "queue::kingman_wait(0.8, 1.0, 3.0, 30.0)",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1e-300)
    }

    #[test]
    fn mm1() {
        // rho = 0.8, service 5: W_q = 0.8/0.2 * 5 = 20; T = 5/0.2 = 25 = 20 + 5.
        assert!(close(mm1_wait(0.8, 5.0), 20.0));
        assert!(close(mm1_sojourn(0.8, 5.0), 25.0));
        assert_eq!(mm1_wait(0.0, 5.0), 0.0);
        assert_eq!(mm1_wait(1.0, 5.0), f64::INFINITY);
        assert_eq!(mm1_sojourn(1.5, 5.0), f64::INFINITY);
        assert!(mm1_wait(-0.1, 5.0).is_nan());
        assert!(mm1_wait(f64::NAN, 5.0).is_nan());
    }

    #[test]
    fn pollaczek_khinchine() {
        // Seed lab07: rho 0.8, cs 3, 5-minute service: amplification (1+9)/2 = 5,
        // W_q = 4 * 5 * 5 = 100 min; uniform (cs=1) W_q = 4 * 1 * 5 = 20 min.
        assert_eq!(pk_amplification(3.0), 5.0);
        assert_eq!(pk_amplification(5.0), 13.0);
        assert_eq!(pk_amplification(1.0), 1.0);
        assert!(close(pk_wait(0.8, 3.0, 5.0), 100.0));
        assert!(close(pk_wait(0.8, 1.0, 5.0), mm1_wait(0.8, 5.0)));
        // rho 0.8, cs 3, service 30: 4 * 5 * 30 = 600.
        assert!(close(pk_wait(0.8, 3.0, 30.0), 600.0));
        // Deterministic service halves the M/M/1 wait: 0.5/0.5 * 0.5 * 10 = 5.
        assert!(close(pk_wait(0.5, 0.0, 10.0), 5.0));
        assert!(pk_wait(0.99999999, 3.0, 1.0).is_finite());
        assert_eq!(pk_wait(1.0, 3.0, 1.0), f64::INFINITY);
    }

    #[test]
    fn kingman() {
        // rho 0.8, ca 1, cs 3, service 30: 4 * (1+9)/2 * 30 = 600 (= P-K with ca = 1).
        assert!(close(kingman_wait(0.8, 1.0, 3.0, 30.0), 600.0));
        // ca = cs = 0 (D/D/1): no waiting.
        assert_eq!(kingman_wait(0.9, 0.0, 0.0, 30.0), 0.0);
        assert_eq!(kingman_wait(1.0, 1.0, 1.0, 1.0), f64::INFINITY);
    }

    #[test]
    fn erlang_c_values() {
        // c = 1: C = rho.
        assert!(close(erlang_c(1.0, 0.8), 0.8));
        // c = 2, rho = 0.5, a = 1: B1 = 1/2, B2 = 0.5/(2+0.5) = 0.2,
        // C = 0.2/(1 - 0.5*0.8) = 1/3. Direct formula: (a^2/2!)/(1-rho) = 1;
        // sum_{k<2} a^k/k! = 2; C = 1/(2+1) = 1/3.
        assert!(close(erlang_c(2.0, 0.5), 1.0 / 3.0));
        // c = 3, rho = 2/3, a = 2: a^3/3! = 8/6 = 4/3, /(1-rho) = 4;
        // sum_{k<3} a^k/k! = 1 + 2 + 2 = 5; C = 4/9.
        assert!(close(erlang_c(3.0, 2.0 / 3.0), 4.0 / 9.0));
        // c = 8, rho = 0.8, a = 6.4: the textbook closed form
        // C = (a^c/c!)/(1-rho) / (sum_{k<c} a^k/k! + (a^c/c!)/(1-rho)) = 0.45764...,
        // evaluated here in a different order than the recurrence.
        let a: f64 = 6.4;
        let mut sum = 0.0;
        let mut term = 1.0;
        for k in 0..8 {
            if k > 0 {
                term *= a / k as f64;
            }
            sum += term;
        }
        let top = term * a / 8.0 / (1.0 - 0.8);
        assert!((erlang_c(8.0, 0.8) - top / (sum + top)).abs() < 1e-14);
        assert_eq!(erlang_c(4.0, 0.0), 0.0);
        assert_eq!(erlang_c(4.0, 1.0), 1.0);
        assert!(erlang_c(0.0, 0.5).is_nan());
        assert!(erlang_c(2.5, 0.5).is_nan());
        assert!(erlang_c(-2.0, 0.5).is_nan());
        assert!(erlang_c(2.0, -0.5).is_nan());
        assert!(erlang_c(2e6, 0.5).is_nan());
        // Large c stays finite and in [0, 1].
        let big = erlang_c(100_000.0, 0.999);
        assert!((0.0..=1.0).contains(&big), "{big}");
    }

    #[test]
    fn mmc_waits() {
        // c = 1 reduces to M/M/1: 0.8/0.2*5 = 20.
        assert!(close(mmc_wait(1.0, 0.8, 5.0), 20.0));
        // c = 2, rho = 0.5, service 1: C = 1/3, W_q = (1/3) * 1 / (2 * 0.5) = 1/3.
        assert!(close(mmc_wait(2.0, 0.5, 1.0), 1.0 / 3.0));
        assert_eq!(mmc_wait(2.0, 1.0, 1.0), f64::INFINITY);
        assert!(mmc_wait(2.5, 0.5, 1.0).is_nan());
    }

    #[test]
    fn mmc_quantiles() {
        // c = 2, rho = 0.5, service 1: C = 1/3, P(W = 0) = 2/3.
        // Median: p = 0.5 <= 2/3 -> 0.
        assert_eq!(mmc_wait_p(2.0, 0.5, 1.0, 0.5), 0.0);
        assert_eq!(mmc_wait_p(2.0, 0.5, 1.0, 2.0 / 3.0 - 1e-9), 0.0);
        // p = 0.99: t = -ln(0.01 / (1/3)) * 1/(2*0.5) = -ln(0.03) = 3.506557897319982.
        assert!(close(mmc_wait_p(2.0, 0.5, 1.0, 0.99), 3.506557897319982));
        // c = 1 (M/M/1), rho = 0.8, service 5: C = 0.8; p = 0.9:
        // t = -ln(0.1/0.8) * 5/0.2 = ln(8) * 25 = 51.98603854199589.
        assert!(close(mmc_wait_p(1.0, 0.8, 5.0, 0.9), 51.98603854199589));
        assert_eq!(mmc_wait_p(2.0, 0.5, 1.0, 1.0), f64::INFINITY);
        assert!(mmc_wait_p(2.0, 0.5, 1.0, 1.5).is_nan());
        assert!(mmc_wait_p(2.0, 0.5, 1.0, -0.1).is_nan());
        assert!(mmc_wait_p(2.0, 0.5, 1.0, f64::NAN).is_nan());
        // rho = 0: nobody waits.
        assert_eq!(mmc_wait_p(2.0, 0.0, 1.0, 0.99), 0.0);
        assert_eq!(mmc_wait_p(2.0, 1.0, 1.0, 0.5), f64::INFINITY);
    }
}
