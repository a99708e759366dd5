//! Course modules (`lib/<ns>.yaml`) as a user meets them: a lab of the course calls the
//! module's functions, constants and devices; `labforge lib` inside the course lists them; the
//! page carries only what its lab reads; mistakes in a module are located in the module file.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_labforge"))
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/course_modules")
}

/// A copy of the fixture course in a fresh folder, with `lab` as its lab and `module` as
/// lib/comm.yaml (the fixture's when `None`).
fn course(name: &str, lab: Option<&str>, module: Option<&str>) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("labforge-modules-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::create_dir_all(dir.join("labs")).unwrap();
    let read = |p: &str| std::fs::read_to_string(fixture().join(p)).unwrap();
    std::fs::write(dir.join("course.yaml"), read("course.yaml")).unwrap();
    let lab = lab
        .map(str::to_string)
        .unwrap_or_else(|| read("labs/allreduce.yaml"));
    std::fs::write(dir.join("labs/allreduce.yaml"), lab).unwrap();
    let module = module
        .map(str::to_string)
        .unwrap_or_else(|| read("lib/comm.yaml"));
    std::fs::write(dir.join("lib/comm.yaml"), module).unwrap();
    dir
}

fn run(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let o = bin().current_dir(dir).args(args).output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_lab_of_the_course_checks_and_passes_with_the_module() {
    let (ok, out, err) = run(&fixture(), &["test", "labs/allreduce.yaml"]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");
    let (ok, _, err) = run(&fixture(), &["check", "labs/allreduce.yaml"]);
    assert!(ok && err.contains("0 error(s), 0 warning(s)"), "{err}");
}

#[test]
fn the_same_lab_outside_the_course_does_not_see_the_module() {
    let dir = std::env::temp_dir().join(format!("labforge-modules-{}-alone", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lab = std::fs::read_to_string(fixture().join("labs/allreduce.yaml")).unwrap();
    std::fs::write(dir.join("allreduce.yaml"), lab).unwrap();
    let (ok, _, err) = run(&dir, &["check", "allreduce.yaml"]);
    assert!(!ok);
    assert!(err.contains("unknown library namespace `comm`"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lib_inside_the_course_lists_module_functions_with_units_and_sources() {
    let (ok, out, err) = run(&fixture(), &["lib"]);
    assert!(ok, "{err}");
    let builtin = out.find("### `queue::pk_wait`").expect("built-ins listed");
    let module = out
        .find("### `comm::ring_allreduce_s`")
        .expect("module listed");
    assert!(builtin < module, "modules come after the built-ins");
    assert!(out.contains("comm::ring_allreduce_s(n: GPUs, bytes: B, bw_gbs: GB/s) -> s"));
    assert!(out.contains("Source: Thakur et al. (2005)"));
    assert!(out.contains("| `comm::ALPHA_S` | 5e-6 | s |"));
    let (ok, one, _) = run(&fixture(), &["lib", "comm::tree_latency_s"]);
    assert!(ok && one.starts_with("### `comm::tree_latency_s`"), "{one}");
    assert!(!one.contains("ring_allreduce"), "{one}");
    let (ok, dev, _) = run(&fixture(), &["lib", "A17Pro"]);
    assert!(ok && dev.contains("| `int8_tops` | 35 |"), "{dev}");
    // Outside a course: no modules.
    let (ok, out, _) = run(Path::new(env!("CARGO_MANIFEST_DIR")), &["lib"]);
    assert!(ok && !out.contains("comm::"));
}

#[test]
fn the_page_carries_only_the_module_functions_and_constants_its_lab_reads() {
    let lab = std::fs::read_to_string(fixture().join("labs/allreduce.yaml"))
        .unwrap()
        .replace("comm::tree_latency_s(gpus) * 1000", "gpus / 1000");
    let dir = course("page", Some(&lab), None);
    let (ok, _, err) = run(
        &dir,
        &["render", "labs/allreduce.yaml", "--to", "html", "-o", "out"],
    );
    assert!(ok, "{err}");
    let page =
        crate::common::unpacked(&std::fs::read_to_string(dir.join("out/allreduce.html")).unwrap());
    // The formulas' script is minified: a name is defined as `X["name"]=` or X[`name`]=`.
    let defines = |name: &str, then: &str| {
        ['"', '`']
            .iter()
            .any(|q| page.contains(&format!("{q}{name}{q}]={then}")))
    };
    assert!(defines("comm::ring_allreduce_s", "function"));
    assert!(defines("comm::ALPHA_S", ""));
    assert!(
        !page.contains("tree_latency_s"),
        "an unused module function is in the page"
    );
    // The module's device is in the page's hardware table.
    assert!(page.contains("\"A17Pro\":{\"name\":\"Apple A17 Pro\""));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mistakes_in_a_module_are_located_in_the_module_file() {
    let good = std::fs::read_to_string(fixture().join("lib/comm.yaml")).unwrap();
    let cases = [
        (
            good.replace("comm::STEPS_PER_RING * (n - 1)", "comm::STEPS_PER_RNG * (n - 1)"),
            "lib/comm.yaml:18:19: error: in function `comm::ring_allreduce_s`: unknown constant `comm::STEPS_PER_RNG`",
            "did you mean `comm::STEPS_PER_RING`?",
        ),
        (
            good.replace("fields: { int8_tops: 35 }", "fields: { int8_top: 35 }"),
            "lib/comm.yaml:30:15: error: device `A17Pro`: `int8_top` is not a field a device has",
            "did you mean `int8_tops`?",
        ),
        (
            good.replace(
                "fields: { int8_tops: 35 }",
                "fields: { int8_tops: 35 }\n    estimates: [tdp_w]",
            ),
            "lib/comm.yaml:31:5: error: device `A17Pro`: `estimates` names `tdp_w`, which is not one of its fields",
            "list the fields whose values are estimates",
        ),
        (
            good.replace("namespace: comm", "namespace: queue"),
            "lib/comm.yaml:1:12: error: `queue` cannot be a module namespace",
            "the built-in library uses it",
        ),
        (
            good.replace("steps * comm::ALPHA_S", "steps * ALPHA_S"),
            "lib/comm.yaml:19:15: error: in function `comm::ring_allreduce_s`: unknown name `ALPHA_S`",
            "a function sees only its arguments (`n`, `bytes`, `bw_gbs`)",
        ),
    ];
    check_fails(&cases, |i, module| {
        course(&format!("bad{i}"), None, Some(module))
    });
}

/// A device or model id defined twice, in one module or in two, is a warning where it is defined
/// again (courses written before still load): `hw(id)` returns the first, in the CLI and the page
/// (which kept the last in the first's place).
#[test]
fn a_device_defined_twice_is_a_warning_where_it_is_defined_again() {
    let good = std::fs::read_to_string(fixture().join("lib/comm.yaml")).unwrap();
    let device = &good[good.find("  - id: A17Pro").unwrap()..];
    let twice = format!("{good}{}", device.replace("int8_tops: 35", "int8_tops: 36"));
    let dir = course("twice", None, Some(&twice));
    let (ok, _, err) = run(&dir, &["check", "labs/allreduce.yaml"]);
    assert!(ok, "{err}");
    let line = good.lines().count() + 1;
    assert!(
        err.contains(&format!(
            "lib/comm.yaml:{line}:5: warning: device `A17Pro` is already defined above: this one is never read"
        )),
        "{err}"
    );
    assert!(err.contains("`hw(\"A17Pro\")` returns the first"), "{err}");
    let (ok, out, err) = run(&dir, &["eval", "labs/allreduce.yaml"]);
    assert!(
        ok && out.contains("35") && !out.contains("36"),
        "{out}{err}"
    );
    // In another module of the course.
    let dir = course("twice-across", None, None);
    let other = format!(
        "namespace: zz\ndevices:\n{}",
        device.replace("int8_tops: 35", "int8_tops: 36")
    );
    std::fs::write(dir.join("lib/zz.yaml"), other).unwrap();
    let (ok, _, err) = run(&dir, &["check", "labs/allreduce.yaml"]);
    assert!(ok, "{err}");
    assert!(
        err.contains(
            "lib/zz.yaml:3:5: warning: device `A17Pro` is already defined in lib/comm.yaml"
        ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `check` of each case's course fails with the located message and hint it names.
fn check_fails(cases: &[(String, &str, &str)], course_of: impl Fn(usize, &str) -> PathBuf) {
    for (i, (text, want, hint)) in cases.iter().enumerate() {
        let dir = course_of(i, text);
        let (ok, _, err) = run(&dir, &["check", "labs/allreduce.yaml"]);
        assert!(!ok, "case {i} checked clean");
        assert!(err.contains(want), "case {i}: want `{want}` in:\n{err}");
        assert!(
            err.contains(hint),
            "case {i}: want hint `{hint}` in:\n{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_misspelt_namespace_or_function_names_the_course_modules() {
    let good = std::fs::read_to_string(fixture().join("labs/allreduce.yaml")).unwrap();
    let cases = [
        (
            good.replace("comm::tree_latency_s(gpus)", "comms::tree_latency_s(gpus)"),
            "labs/allreduce.yaml:16:24: error: in formula `tree_latency_ms`: unknown library namespace `comms`",
            "and the course's comm",
        ),
        (
            good.replace("comm::tree_latency_s(gpus)", "comm::tree_latncy_s(gpus)"),
            "labs/allreduce.yaml:16:30: error: in formula `tree_latency_ms`: unknown function `comm::tree_latncy_s`",
            "did you mean `comm::tree_latency_s`?",
        ),
        (
            good.replace("comm::tree_latency_s(gpus)", "comm::tree_latency_s(gpus, 2)"),
            "labs/allreduce.yaml:16:30: error: in formula `tree_latency_ms`: `comm::tree_latency_s` takes 1 argument(s), not 2",
            "its signature: comm::tree_latency_s(ranks) -> s",
        ),
    ];
    check_fails(&cases, |i, lab| course(&format!("lab{i}"), Some(lab), None));
}
