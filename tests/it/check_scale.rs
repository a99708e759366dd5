//! `check` grows linearly with a lab's parts (issue 26, "linear courses"): the work it spends
//! (the engine's meter, which counts every operation, so the figure does not depend on the
//! machine's load) on the generated 40-part lab of `cargo bench --bench scale` is at most 11×
//! what it spends on the 4-part one. Each question's give-away check read every earlier part
//! evaluated again (23.8× before they were evaluated once each).

fn check_units(parts: usize) -> u64 {
    let text = labforge::eval::scale::generated_lab(parts);
    let lab = labforge::eval::load_source(labforge::load::Source::new("gen.yaml", text))
        .unwrap_or_else(|_| panic!("the generated {parts}-part lab compiles"));
    let diags = lab.check_semantics();
    assert!(
        diags.iter().all(|d| !d.is_error()),
        "the generated {parts}-part lab checks clean"
    );
    lab.engine.meter().total_used()
}

#[test]
fn check_work_grows_linearly_with_the_parts() {
    let (small, large) = (check_units(4), check_units(40));
    let ratio = large as f64 / small as f64;
    assert!(
        ratio <= 11.0,
        "check of 40 parts spends {large} units, {ratio:.1}× the 4-part lab's {small} (at most 11×)"
    );
}
