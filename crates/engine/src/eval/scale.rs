//! Generated labs of any number of parts, for the scale benchmark (`benches/scale.rs`) and the
//! linearity test: every part has the same shape, so check and eval time should grow linearly.

use std::fmt::Write;

/// A valid lab of `n` parts.
pub fn generated_lab(n: usize) -> String {
    let mut s = String::from(
        "id: generated\ntitle: Generated lab\nconstants:\n  service_min: { value: 30, unit: min, source: \"example\" }\nparts:\n",
    );
    for i in 0..n {
        let _ = write!(
            s,
            r#"  - id: p{i}
    title: Part {i}
    prediction:
      question: "At {{{{ fmt(utilization * 100, 0) }}}}%, what is the wait?"
      scenario: {{ utilization: 0.8, cs: 3 }}
      claim: wait_min
      options:
        - {{ text: "~120 minutes", claim: {{ approx: 120 }}, feedback: "That is the uniform answer." }}
        - {{ text: "~{{{{ fmt(wait_min, 0) }}}} minutes", correct: true, claim: {{ approx: 600 }}, feedback: "Correct." }}
    controls:
      - slider: {{ id: utilization, label: "Utilization", min: 0.10, max: 0.99, step: 0.01, default: 0.80 }}
      - select: {{ id: cs, label: Workload, options: {{ "Uniform (C_s=1)": 1, "ML (C_s=3)": 3 }}, default: "ML (C_s=3)" }}
    formulas:
      amplification: (1 + cs * cs) / 2
      wait_min: utilization / (1 - utilization) * amplification * service_min
      total: "let t = 0; for k in range(0, 20) {{ t += k * utilization; }} t + {i}"
    outputs:
      wait_min: {{ label: Wait, unit: min, digits: 1, bands: {{ good_below: 10, warn_below: 30 }} }}
      amplification: {{ label: Amplification, unit: "×", digits: 0 }}
      total: {{ label: Total, digits: 1 }}
    instruments:
      - metrics: [ {{ output: wait_min }}, {{ output: amplification }}, {{ output: total }} ]
      - chart:
          id: wait
          kind: line
          sweep: {{ var: rho, from: 0.1, to: 0.98, points: 40 }}
          series:
            - {{ name: ML, x: rho * 100, y: "rho / (1 - rho) * amplification * service_min" }}
          markers:
            - {{ name: Current, x: utilization * 100, y: wait_min, symbol: diamond }}
    feedback:
      - when: wait_min > 30
        danger: "At {{{{ fmt(utilization * 100, 0) }}}}% the wait is {{{{ fmt(wait_min, 0) }}}} min."
      - when: wait_min < 5
        success: "Short wait."
"#
        );
    }
    s
}
