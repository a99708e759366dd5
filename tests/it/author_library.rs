//! `docs/library.md` is `labforge::library::reference_markdown()`; this test fails when it is
//! stale. `LABFORGE_BLESS=1 cargo test --test it author_library::` rewrites it. Also `labforge lib`.

use std::process::Command;

#[test]
fn docs_library_md_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/library.md");
    let want = labforge::library::reference_markdown();
    if std::env::var_os("LABFORGE_BLESS").is_some() {
        std::fs::write(path, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    if have != want {
        let line = have
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| have.lines().count().min(want.lines().count()))
            + 1;
        panic!(
            "docs/library.md is stale (first difference at line {line}); regenerate it with \
             `LABFORGE_BLESS=1 cargo test --test it author_library::`"
        );
    }
}

fn lib(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .arg("lib")
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn lib_prints_the_reference_and_single_entries() {
    let (ok, all, _) = lib(&[]);
    assert!(ok);
    assert_eq!(all, labforge::library::reference_markdown());

    let (ok, one, _) = lib(&["queue::pk_wait"]);
    assert!(ok);
    assert!(one.starts_with("### `queue::pk_wait`\n"), "{one}");
    assert!(one.contains("Pollaczek") && one.contains("- Example:"));
    assert!(all.contains(&one), "a section of the full reference");
    assert_eq!(lib(&["pk_wait"]).1, one, "the namespace may be left out");

    let (ok, dev, _) = lib(&["h100"]);
    assert!(ok);
    assert!(dev.starts_with("### `H100`: "), "{dev}");

    let (ok, ns, _) = lib(&["rel"]);
    assert!(ok);
    assert!(ns.contains("### `rel::young_daly`") && !ns.contains("### `queue::"));

    // The course topics: each namespace lists its functions, with units and sources.
    for (ns, f, cite) in [
        ("collective", "collective::hier_allreduce_s", "Thakur"),
        ("roofline", "roofline::gemm_ai", "Williams"),
        ("energy", "energy::op_pj", "Horowitz"),
        ("llm", "llm::kv_cache_gb", "Kwon"),
        ("carbon", "carbon::operational_t", "Patterson"),
        ("perf", "perf::amdahl", "Amdahl"),
        ("train", "train::pipeline_bubble", "GPipe"),
        ("privacy", "privacy::compose_advanced", "Dwork"),
        ("stats", "stats::percentile", "Hyndman"),
        ("rand", "rand::lognormal", "Marsaglia"),
    ] {
        let (ok, text, _) = lib(&[ns]);
        assert!(ok, "{ns}");
        assert!(text.contains(&format!("### `{f}`")), "{ns}: {text}");
        assert!(text.contains(cite) && text.contains("- Units:"), "{ns}");
        assert!(!text.contains("### `queue::"), "{ns}");
    }
    // The generator is specified where its functions are listed.
    let (_, rand, _) = lib(&["rand"]);
    assert!(
        rand.contains("xoshiro128**") && rand.contains("0x9E3779B9"),
        "{rand}"
    );
    // An estimate says so, in the table and under the source.
    let (ok, a17, _) = lib(&["A17Pro"]);
    assert!(ok);
    assert!(a17.contains("| `npu_tops` | 35 |"), "{a17}");
    assert!(a17.contains("| `battery_wh` | 15 (estimate) |"), "{a17}");
    assert!(
        a17.contains("Estimates (not a vendor's published figure"),
        "{a17}"
    );
    let (ok, cluster, _) = lib(&["H100x64"]);
    assert!(ok && cluster.contains("| `gpus` | 64 |"), "{cluster}");
    let (ok, ndr, _) = lib(&["IBNDR"]);
    assert!(ok);
    assert!(
        ndr.contains("| `link_gbs` | 50 |") && ndr.contains("| `latency_us` | 5 |"),
        "{ndr}"
    );

    // Models: one by its id (any case), the whole table by `model` (with the function's entry)
    // or `models`.
    let (ok, bert, _) = lib(&["BERT-Base"]);
    assert!(ok);
    assert!(bert.starts_with("### `bert-base`: "), "{bert}");
    assert!(
        bert.contains("| `hidden` | 768 |") && bert.contains("Devlin et al."),
        "{bert}"
    );
    assert!(all.contains(&bert), "a section of the full reference");
    let (ok, table, _) = lib(&["model"]);
    assert!(ok);
    assert!(table.starts_with("### `model`\n"), "{table}");
    let (ok, models, _) = lib(&["models"]);
    assert!(
        ok && models.starts_with("## Models (`model(id)`)"),
        "{models}"
    );
    assert!(
        table.ends_with(&models),
        "`lib model` = the function, then the table"
    );
    for id in [
        "mobilenet-v2",
        "ds-cnn",
        "yolov8-nano",
        "bert-base",
        "llama-2-70b",
        "gpt-3",
    ] {
        assert!(models.contains(&format!("### `{id}`: ")), "{id}");
    }
    assert!(!models.contains("### `H100`"), "devices are not models");

    let (ok, out, err) = lib(&["queue::pk_wiat"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(err.contains("no library function, namespace, device or model `queue::pk_wiat`"));
    assert!(err.contains("did you mean `queue::pk_wait`?"), "{err}");
}
