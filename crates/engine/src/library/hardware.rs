//! The built-in device table (`hardware.yaml`) and `hw(id)`.

use std::sync::OnceLock;

use indexmap::IndexMap;
use rhai::{Dynamic, EvalAltResult, Map};
use serde::Deserialize;

use super::runtime_error;

/// One device of the built-in hardware table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Device {
    /// Short id used in formulas: `hw("H100")`.
    pub id: String,
    /// Full product name, e.g. "NVIDIA H100 SXM5 80GB".
    pub name: String,
    pub vendor: String,
    /// `cloud`, `edge`, `mcu`, `tpu`, `mobile`, `wearable`, `interconnect`, `bus`, `storage`,
    /// `radio` or `system`.
    pub class: String,
    /// Numeric specifications; names and units are listed in [`FIELD_DOCS`]. A figure the
    /// vendor does not publish is absent.
    pub fields: IndexMap<String, f64>,
    /// Where each figure comes from (datasheet names, what was halved or derived).
    pub source: String,
    /// `YYYY-MM` of the sources used.
    pub as_of: String,
    /// The fields whose value is an estimate (a course's classroom figure or a typical value,
    /// not a vendor's published specification); the source says whose. Shown by `labforge lib`
    /// and in docs/library.md.
    #[serde(default)]
    pub estimates: Vec<String>,
}

/// Every field a device may carry, with its meaning and unit.
pub(crate) const FIELD_DOCS: &[(&str, &str)] = &[
    ("fp64_tflops", "FP64 peak, TFLOP/s (non-tensor/vector rate unless the source says otherwise)"),
    ("fp32_tflops", "FP32 peak, TFLOP/s (non-tensor/vector rate)"),
    ("tf32_tflops", "TF32 tensor peak, dense, TFLOP/s"),
    ("bf16_tflops", "BF16 tensor/matrix peak, dense, TFLOP/s"),
    ("fp16_tflops", "FP16 tensor/matrix peak, dense, TFLOP/s"),
    ("fp8_tflops", "FP8 tensor/matrix peak, dense, TFLOP/s"),
    ("int8_tops", "INT8 tensor/matrix peak, dense, TOP/s"),
    (
        "int8_tops_sparse",
        "INT8 headline figure with 2:4 structured sparsity, TOP/s (only where no dense figure is published)",
    ),
    ("mem_gb", "device memory capacity, GB (as the vendor prints it)"),
    ("mem_bw_gbs", "device memory bandwidth, GB/s (decimal)"),
    ("tdp_w", "maximum board/module power (TDP/TBP), W"),
    (
        "interconnect_gbs",
        "scale-up link bandwidth per device as the vendor states it (NVLink/Infinity Fabric/ICI total, or PCIe for cards without one), GB/s",
    ),
    ("price_hr", "on-demand cloud list price, US$ per device-hour (see source; illustrative)"),
    (
        "mttf_h",
        "mean device-hours between job-interrupting failures, h (only with a named measurement)",
    ),
    ("clock_mhz", "maximum CPU clock, MHz"),
    ("sram_kb", "on-chip SRAM, KiB (datasheet \"Kbytes\", 1024 bytes)"),
    ("flash_kb", "on-chip flash, KiB"),
    ("cores", "CPU cores"),
    (
        "npu_tops",
        "neural-engine/NPU headline rate as the vendor prints it, TOP/s (precision not stated)",
    ),
    (
        "link_gbs",
        "link, bus, radio or storage bandwidth per direction (per port or per GPU for an interconnect), GB/s (decimal)",
    ),
    (
        "latency_us",
        "latency per message, step or access, µs: a modelling figure (the α of the α–β model), see source",
    ),
    ("battery_wh", "battery energy, Wh"),
    ("battery_life_h", "battery life on one charge as the vendor states it, h"),
    ("unit_price_usd", "purchase price of one unit, US$ (see source; illustrative)"),
    (
        "dispatch_ms",
        "fixed overhead per kernel or operator dispatch (framework, driver, interpreter), ms",
    ),
    ("gpus", "accelerators in a system, count"),
    ("nodes", "nodes (servers) in a system, count"),
    ("gpus_per_node", "accelerators per node, count"),
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HardwareFile {
    devices: Vec<Device>,
}

/// The built-in devices, in table order (parsed once from the embedded `hardware.yaml`).
pub fn hardware() -> &'static [Device] {
    static DEVICES: OnceLock<Vec<Device>> = OnceLock::new();
    DEVICES.get_or_init(|| {
        let file: HardwareFile = serde_saphyr::from_str(include_str!("hardware.yaml")).expect(
            "the embedded crates/engine/src/library/hardware.yaml is valid (checked by unit tests)",
        );
        file.devices
    })
}

/// The table as JSON for embedding into the page: `{"H100": {"name": …, "vendor": …,
/// "class": …, <numeric fields>…, "source": …, "as_of": …}, …}`, in table order.
/// `renderers/html/library.js` takes this object as its `hardware` argument.
pub fn hardware_json() -> serde_json::Value {
    devices_json(hardware())
}

/// [`hardware_json`] of any devices (a course module's).
pub fn devices_json<'a>(devices: impl IntoIterator<Item = &'a Device>) -> serde_json::Value {
    let mut all = serde_json::Map::new();
    for d in devices {
        let texts = [
            ("name", &d.name),
            ("vendor", &d.vendor),
            ("class", &d.class),
        ];
        all.insert(
            d.id.clone(),
            entry_json(&texts, &d.fields, &d.source, &d.as_of),
        );
    }
    serde_json::Value::Object(all)
}

/// One entry of a table (a device, a model) as the page's JSON: its `texts` (name first),
/// numeric `fields`, `source` and `as_of`, in that order.
pub(super) fn entry_json(
    texts: &[(&str, &String)],
    fields: &IndexMap<String, f64>,
    source: &str,
    as_of: &str,
) -> serde_json::Value {
    let mut o = serde_json::Map::new();
    for (k, v) in texts {
        o.insert((*k).into(), (*v).clone().into());
    }
    for (k, v) in fields {
        let n = serde_json::Number::from_f64(*v).expect("table fields are finite");
        o.insert(k.clone(), serde_json::Value::Number(n));
    }
    o.insert("source".into(), source.into());
    o.insert("as_of".into(), as_of.into());
    serde_json::Value::Object(o)
}

/// `hw(id)`: the device's numeric fields plus `name`.
pub(crate) fn hw(id: &str) -> Result<Map, Box<EvalAltResult>> {
    let Some(d) = hardware().iter().find(|d| d.id == id) else {
        let known: Vec<&str> = hardware().iter().map(|d| d.id.as_str()).collect();
        return Err(runtime_error(format!(
            "hw: unknown device id '{id}'; known ids: {}",
            known.join(", ")
        )));
    };
    Ok(device_map(d))
}

/// What `hw(id)` returns for `d`: its numeric fields plus `name`.
pub(crate) fn device_map(d: &Device) -> Map {
    entry_map(&d.name, &d.fields)
}

/// What a table lookup (`hw`, `model`) returns: the entry's numeric fields plus `name`.
pub(super) fn entry_map(name: &str, fields: &IndexMap<String, f64>) -> Map {
    let mut m = Map::new();
    m.insert("name".into(), Dynamic::from(name.to_string()));
    for (k, v) in fields {
        m.insert(k.as_str().into(), Dynamic::from_float(*v));
    }
    m
}

/// Whether `s` is a `YYYY-MM` date (a table entry's `as_of`).
#[cfg(test)]
pub(super) fn is_year_month(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 7
        && b[4] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The device classes a table entry may use.
    const CLASSES: &[&str] = &[
        "cloud",
        "edge",
        "mcu",
        "tpu",
        "mobile",
        "wearable",
        "interconnect",
        "bus",
        "storage",
        "radio",
        "system",
    ];

    #[test]
    fn table_parses_and_is_well_formed() {
        let devices = hardware();
        assert!(devices.len() >= 11);
        let mut ids = std::collections::BTreeSet::new();
        for d in devices {
            assert!(ids.insert(d.id.as_str()), "duplicate id {}", d.id);
            assert!(
                d.id.starts_with(|c: char| c.is_ascii_alphabetic())
                    && d.id.chars().all(|c| c.is_ascii_alphanumeric()),
                // A leading letter also keeps JS object key order = table order.
                "id {:?} should be an ASCII letter followed by letters and digits",
                d.id
            );
            assert!(
                CLASSES.contains(&d.class.as_str()),
                "{}: class {}",
                d.id,
                d.class
            );
            assert!(!d.name.is_empty() && !d.vendor.is_empty(), "{}", d.id);
            assert!(d.source.len() > 40, "{}: source too short", d.id);
            assert!(
                is_year_month(&d.as_of),
                "{}: as_of {:?} is not YYYY-MM",
                d.id,
                d.as_of
            );
            assert!(!d.fields.is_empty(), "{}", d.id);
            for e in &d.estimates {
                assert!(
                    d.fields.contains_key(e),
                    "{}: estimate {e} is not one of its fields",
                    d.id
                );
            }
            for (k, v) in &d.fields {
                assert!(
                    FIELD_DOCS.iter().any(|(f, _)| f == k),
                    "{}: unknown field {k}",
                    d.id
                );
                assert!(v.is_finite() && *v > 0.0, "{}: {k} = {v}", d.id);
            }
        }
        for want in [
            "H100",
            "H200",
            "B200",
            "A100",
            "V100",
            "MI300X",
            "T4",
            "L4",
            "TPUv5p",
            "JetsonOrinNX",
            "STM32H743",
            "ESP32S3",
            "nRF52840",
            "JetsonAGXOrin",
            "A17Pro",
            "EdgeTPU",
            "NVLink4",
            "IBNDR",
            "IBHDR",
            "OuraRing4",
            "DriveAGXOrin",
            "Eth100G",
            "PCIe3x16",
            "PCIe4x16",
            "PCIe5x16",
            "NVMeGen4",
            "SATA3SSD",
            "HDD7200",
            "BLE2M",
            "LTECat4",
            "WiFi6x2",
            "H100x64",
        ] {
            assert!(ids.contains(want), "missing {want}");
        }
    }

    #[test]
    fn figures_the_seed_labs_rely_on() {
        let f = |id: &str, k: &str| hardware().iter().find(|d| d.id == id).unwrap().fields[k];
        // lab06/lab07: GPU_COST_HR = 3.0, T4 at $0.35/h, GPU_MTTF_HOURS = 50,000, H100 80 GB.
        assert_eq!(f("H100", "price_hr"), 3.0);
        assert_eq!(f("T4", "price_hr"), 0.35);
        assert_eq!(f("H100", "mttf_h"), 50000.0);
        assert_eq!(f("H100", "mem_gb"), 80.0);
        assert_eq!(f("JetsonOrinNX", "mem_gb"), 16.0);
        // Dense tensor figures are half the with-sparsity datasheet figures.
        assert_eq!(f("H100", "bf16_tflops") * 2.0, 1979.0);
        assert_eq!(f("H100", "fp8_tflops") * 2.0, 3958.0);
        // The Llama 3 derivation quoted in the source: 16,384 x 54 x 24 / 419.
        let gpu_hours = 16384.0 * 54.0 * 24.0 / 419.0;
        assert!((gpu_hours - 50677.0_f64).abs() < 1.0, "{gpu_hours}");
        // TPU v5p ICI 4,800 Gb/s = 600 GB/s.
        assert_eq!(f("TPUv5p", "interconnect_gbs"), 4800.0 / 8.0);
        // STM32H743 RAM: 64 ITCM + 128 DTCM + 864 user SRAM + 4 backup = 1,060 KiB.
        assert_eq!(f("STM32H743", "sram_kb"), 64.0 + 128.0 + 864.0 + 4.0);
        // nRF52840 (the Oura Ring track's stand-in): 256 KB RAM, 1 MB flash, 64 MHz.
        assert_eq!(f("nRF52840", "sram_kb"), 256.0);
        assert_eq!(f("nRF52840", "flash_kb"), 1024.0);
        assert_eq!(f("nRF52840", "clock_mhz"), 64.0);
        // Interconnects: 400 Gb/s and 200 Gb/s ports in GB/s; NVLink 4's 900 GB/s is both
        // directions together.
        assert_eq!(f("IBNDR", "link_gbs"), 400.0 / 8.0);
        assert_eq!(f("IBHDR", "link_gbs"), 200.0 / 8.0);
        assert_eq!(
            f("NVLink4", "link_gbs") * 2.0,
            f("H100", "interconnect_gbs")
        );
        // Edge and mobile headline rates; the Edge TPU's 2 TOPS per watt.
        assert_eq!(f("A17Pro", "npu_tops"), 35.0);
        assert_eq!(f("EdgeTPU", "int8_tops") / f("EdgeTPU", "tdp_w"), 2.0);
        assert_eq!(f("JetsonAGXOrin", "int8_tops_sparse"), 275.0);
    }

    #[test]
    fn hw_map_and_errors() {
        let m = hw("H100").unwrap();
        assert_eq!(
            m["name"].clone().into_string().unwrap(),
            "NVIDIA H100 SXM5 80GB"
        );
        assert_eq!(m["mem_bw_gbs"].as_float().unwrap(), 3350.0);
        assert!(!m.contains_key("fp8_tflops") || m["fp8_tflops"].is_float());
        assert!(!hw("A100").unwrap().contains_key("fp8_tflops"));
        let err = hw("H999").unwrap_err().to_string();
        assert!(
            err.contains("hw: unknown device id 'H999'; known ids: H100, H200, B200, A100"),
            "{err}"
        );
    }

    #[test]
    fn json_matches_table() {
        let j = hardware_json();
        let o = j.as_object().unwrap();
        assert_eq!(o.len(), hardware().len());
        let ids: Vec<&String> = o.keys().collect();
        let want: Vec<&String> = hardware().iter().map(|d| &d.id).collect();
        assert_eq!(ids, want, "table order is kept");
        assert_eq!(o["H100"]["mem_bw_gbs"].as_f64(), Some(3350.0));
        assert_eq!(o["H100"]["name"].as_str(), Some("NVIDIA H100 SXM5 80GB"));
        assert_eq!(o["T4"]["class"].as_str(), Some("cloud"));
        assert!(o["A100"].get("fp8_tflops").is_none());
    }
}
