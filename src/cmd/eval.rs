//! `labforge eval`: one part of a lab at its defaults plus `--set` overrides.

use super::report;
use crate::eval;
use indexmap::IndexMap;
use std::path::Path;
use std::process::ExitCode;

/// `labforge eval`.
pub fn eval_cmd(
    path: &Path,
    part: Option<&str>,
    sets: &[String],
    json: bool,
    track: Option<&str>,
) -> ExitCode {
    let lab = match crate::lab::load_lab_on(path, track) {
        Ok(l) => l,
        Err((src, d)) => {
            report(&d, src.as_ref());
            return ExitCode::FAILURE;
        }
    };
    let part_id = part
        .map(str::to_string)
        .unwrap_or_else(|| lab.parts[0].id.clone());
    let Some(cpart) = lab.part(&part_id) else {
        let ids: Vec<&str> = lab.parts.iter().map(|p| p.id.as_str()).collect();
        crate::cmd::error(format_args!(
            "no part `{part_id}` in {} (parts: {})",
            path.display(),
            ids.join(", ")
        ));
        return ExitCode::FAILURE;
    };
    let mut set = IndexMap::new();
    for s in sets {
        let Some((k, v)) = s.split_once('=') else {
            crate::cmd::error(format_args!("`--set {s}` must be NAME=VALUE"));
            return ExitCode::FAILURE;
        };
        set.insert(k.trim().to_string(), eval::parse_cli_value(v));
    }
    let inputs = match lab.inputs(cpart, &set) {
        Ok(i) => i,
        Err(m) => {
            crate::cmd::error(format_args!("{m}"));
            return ExitCode::FAILURE;
        }
    };
    let result = lab
        .evaluate(cpart, &inputs)
        .and_then(|ev| Ok((lab.outputs(&ev)?, lab.callouts(&ev)?, ev)));
    let (outputs, callouts, ev) = match result {
        Ok(r) => r,
        Err(e) => {
            report(&[e.0], Some(&lab.source));
            return ExitCode::FAILURE;
        }
    };
    if json {
        let mut obj = serde_json::Map::new();
        for (k, v) in &ev.values {
            obj.insert(k.clone(), crate::formula::to_json(v));
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::Value::Object(obj)).unwrap()
        );
    } else {
        let title = |t: &str, part| {
            lab.render_text(part, Some(&ev), t, &[])
                .unwrap_or_else(|_| t.to_string())
        };
        println!(
            "{} — part {}: {}",
            title(&lab.lab.title.value, None),
            part_id,
            title(&lab.lab.parts[cpart.index].title.value, Some(cpart))
        );
        if let Some(t) = lab.track.as_deref().and_then(|id| lab.tracks.get(id)) {
            println!("  on track {} ({})", t.id, t.label);
        }
        for (k, v) in &inputs {
            println!("  {k:<24} = {}", eval::display(v));
        }
        println!();
        let w = outputs
            .iter()
            .map(|o| o.label.chars().count())
            .max()
            .unwrap_or(0)
            .min(MAX_LABEL_PAD);
        for o in &outputs {
            let lvl = o
                .level
                .as_deref()
                .map(|l| format!("  [{l}]"))
                .unwrap_or_default();
            println!("  {:<w$}  {}{lvl}", o.label, o.display);
        }
        for c in &callouts {
            println!();
            println!(
                "  [{}] {}{}",
                c.kind.to_uppercase(),
                c.title
                    .as_deref()
                    .map(|t| format!("{t}: "))
                    .unwrap_or_default(),
                c.text
            );
        }
    }
    ExitCode::SUCCESS
}

/// Labels up to this width are aligned in `eval`'s listing; longer ones just run on.
const MAX_LABEL_PAD: usize = 60;
