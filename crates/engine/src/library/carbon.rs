//! `carbon::` — operational and embodied carbon, with the units spelled out in each name:
//! energy in kWh, grid intensity in gCO2e/kWh, embodied carbon in kgCO2e, results in tonnes
//! (t) CO2e. A negative or NaN argument gives NaN.

use rhai::{FuncRegistration, Module};

use super::{bad, FnDoc};

/// Hours in a (365-day) year, for amortising over a lifetime in years.
const HOURS_PER_YEAR: f64 = 8760.0;

/// IT energy of `devices` drawing `watts` each for `hours`: devices × watts × hours / 1000 kWh.
pub(crate) fn energy_kwh(devices: f64, watts: f64, hours: f64) -> f64 {
    if bad(devices) || bad(watts) || bad(hours) {
        return f64::NAN;
    }
    devices * watts * hours / 1000.0
}

/// Operational emissions: kWh × PUE × gCO2e/kWh → tonnes (÷ 1e6 g per t).
pub(crate) fn operational_t(it_kwh: f64, pue: f64, grid_g_per_kwh: f64) -> f64 {
    if bad(it_kwh) || pue.is_nan() || pue < 1.0 || bad(grid_g_per_kwh) {
        return f64::NAN;
    }
    it_kwh * pue * grid_g_per_kwh / 1e6
}

/// The share of a device's embodied carbon charged to `hours_used` of a lifetime of
/// `lifetime_years`: kg × hours / (years × 8760) / 1000 → tonnes.
pub(crate) fn embodied_t(embodied_kg: f64, lifetime_years: f64, hours_used: f64) -> f64 {
    if bad(embodied_kg) || bad(lifetime_years) || bad(hours_used) {
        return f64::NAN;
    }
    embodied_kg * hours_used / (lifetime_years * HOURS_PER_YEAR) / 1000.0
}

pub(crate) fn module() -> Module {
    let mut m = Module::new();
    FuncRegistration::new("energy_kwh").set_into_module(&mut m, energy_kwh);
    FuncRegistration::new("operational_t").set_into_module(&mut m, operational_t);
    FuncRegistration::new("embodied_t").set_into_module(&mut m, embodied_t);
    m
}

const PATTERSON: &str = "D. Patterson et al., \"Carbon Emissions and Large Neural Network \
                         Training\", arXiv:2104.10350, 2021, sec. 2 and table 4 (GPT-3: \
                         1,287 MWh at 0.429 kgCO2e/kWh = 552 tCO2e; PUE of Google data centres \
                         1.10 vs. a 1.58 industry average).";

pub(crate) const DOCS: &[FnDoc] = &[
    FnDoc {
        path: "carbon::energy_kwh",
        signature: "carbon::energy_kwh(devices: f64, watts: f64, hours: f64) -> f64",
        summary: "IT energy of devices drawing watts each for hours: devices × watts × hours / \
                  1000 (before the facility overhead, see carbon::operational_t). Negative or \
                  NaN arguments → NaN.",
        units: "devices: count; watts: average power per device, W; hours: h; result: kWh.",
        source: PATTERSON,
        example: "carbon::energy_kwh(1024.0, 700.0, 720.0)",
    },
    FnDoc {
        path: "carbon::operational_t",
        signature: "carbon::operational_t(it_kwh: f64, pue: f64, grid_g_per_kwh: f64) -> f64",
        summary: "Operational emissions: it_kwh × pue × grid_g_per_kwh / 1e6, in tonnes CO2e. \
                  PUE (power usage effectiveness, ≥ 1) adds cooling and power delivery: about \
                  1.10 for Google's fleet, 1.5–1.6 for a typical data centre. Grid intensity \
                  ranges from tens of gCO2e/kWh (hydro, nuclear) to 700+ (coal-heavy grids); \
                  the US average Patterson et al. use is 429. pue < 1, or negative or NaN \
                  arguments → NaN.",
        units: "it_kwh: IT energy, kWh; pue: dimensionless ≥ 1; grid_g_per_kwh: gCO2e/kWh \
                (= kg/MWh); result: tonnes CO2e.",
        source: PATTERSON,
        example: "carbon::operational_t(1287000.0, 1.0, 429.0)",
    },
    FnDoc {
        path: "carbon::embodied_t",
        signature: "carbon::embodied_t(embodied_kg: f64, lifetime_years: f64, hours_used: f64) \
                    -> f64",
        summary: "Embodied (manufacturing) carbon charged to a job: the device's embodied_kg \
                  amortised linearly over its lifetime, × hours_used / (lifetime_years × \
                  8760) / 1000, in tonnes CO2e. For phones and edge devices it often exceeds \
                  the operational part. Negative or NaN arguments → NaN; lifetime 0 → ∞.",
        units: "embodied_kg: kgCO2e per device (× device count for a fleet); lifetime_years: \
                years; hours_used: h; result: tonnes CO2e.",
        source: "U. Gupta et al., \"Chasing Carbon: The Elusive Environmental Footprint of \
                 Computing\", HPCA 2021 (embodied vs. operational emissions, amortisation \
                 over lifetime).",
        example: "carbon::embodied_t(2500.0, 4.0, 720.0)",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpt3_published_figure() {
        // Patterson et al. 2021, table 4: GPT-3 1,287 MWh × 0.429 kg/kWh = 552 tCO2e.
        let t = operational_t(1_287_000.0, 1.0, 429.0);
        assert!((t - 552.123).abs() < 1e-9, "{t}");
        // The same energy at a PUE of 1.58 instead of 1.10 (IT energy 1,287/1.10 MWh).
        let it = 1_287_000.0 / 1.1;
        assert!((operational_t(it, 1.58, 429.0) / t - 1.58 / 1.1).abs() < 1e-12);
        assert!(operational_t(1.0, 0.9, 429.0).is_nan());
        assert!(operational_t(-1.0, 1.1, 429.0).is_nan());
    }

    #[test]
    fn energy_and_embodied() {
        // 1,024 GPUs × 700 W × 720 h (30 days) = 516,096 kWh.
        assert_eq!(energy_kwh(1024.0, 700.0, 720.0), 516_096.0);
        // 2,500 kg embodied over 4 years, used 720 h: 2500 × 720 / 35,040 / 1000 = 0.05137 t.
        let e = embodied_t(2500.0, 4.0, 720.0);
        assert!(
            (e - 2500.0 * 720.0 / 35_040.0 / 1000.0).abs() < 1e-15,
            "{e}"
        );
        assert!((e - 0.051_369_863).abs() < 1e-9);
        // A whole lifetime charges all of it.
        assert_eq!(embodied_t(2500.0, 4.0, 4.0 * 8760.0), 2.5);
        assert!(embodied_t(f64::NAN, 4.0, 1.0).is_nan());
    }
}
