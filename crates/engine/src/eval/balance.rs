//! Answer-position balance: a lab whose correct options sit in one position far more often than
//! chance lets a student score by always picking that letter. Predictions and reflections are
//! counted apart (a student learns each pattern on its own). The warning says the distribution
//! and suggests a shuffle that spreads the answers.
//!
//! "Far more often than chance": with the correct option of each question placed uniformly at
//! random among its options, the count at a position is a sum of independent Bernoulli trials
//! (p = 1/k for a question with k options, 0 when it has fewer than the position). A position is
//! flagged when the chance of at least the count seen is under [`ALPHA`] after a Bonferroni
//! correction for the positions tried: four predictions of four options all at B (chance
//! 1/256, ×4) are flagged; three of three at A (1/64, ×4) are not.

use crate::diag::Diagnostic;
use crate::model::{Choice, Lab, Pos};

/// The significance level of the warning.
const ALPHA: f64 = 0.05;

/// Fewer questions than this say nothing about a pattern.
const MIN_QUESTIONS: usize = 3;

struct Question<'a> {
    part: &'a str,
    options: usize,
    correct: usize,
    pos: Pos,
}

/// Warnings for the lab's predictions and reflections.
pub fn check(lab: &Lab, file: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let collect = |pick: &dyn Fn(&crate::model::Part) -> Option<&Vec<Choice>>| -> Vec<Question> {
        lab.parts
            .iter()
            .filter_map(|p| {
                let opts = pick(p)?;
                let correct = opts.iter().position(|o| o.correct)?;
                (opts.len() >= 2).then(|| Question {
                    part: &p.id.value,
                    options: opts.len(),
                    correct,
                    pos: opts[correct].text.pos,
                })
            })
            .collect()
    };
    let preds = collect(&|p| {
        p.prediction
            .as_ref()
            .map(|q| &q.options)
            .filter(|o| !o.is_empty())
    });
    let refls = collect(&|p| p.reflection.as_ref().map(|q| &q.options));
    for (what, qs) in [("predictions", preds), ("reflections", refls)] {
        if let Some(d) = lopsided(what, &qs, file) {
            out.push(d);
        }
    }
    out
}

fn letter(i: usize) -> char {
    (b'A' + (i % 26) as u8) as char
}

/// The chance that independent trials with success chances `ps` succeed at least `k` times.
fn tail(ps: &[f64], k: usize) -> f64 {
    // dist[j]: chance of exactly j successes so far.
    let mut dist = vec![1.0];
    for &p in ps {
        let mut next = vec![0.0; dist.len() + 1];
        for (j, &d) in dist.iter().enumerate() {
            next[j] += d * (1.0 - p);
            next[j + 1] += d * p;
        }
        dist = next;
    }
    dist.iter().skip(k).sum()
}

fn lopsided(what: &str, qs: &[Question], file: &str) -> Option<Diagnostic> {
    if qs.len() < MIN_QUESTIONS {
        return None;
    }
    let positions = qs.iter().map(|q| q.options).max()?;
    let counts: Vec<usize> = (0..positions)
        .map(|i| qs.iter().filter(|q| q.correct == i).count())
        .collect();
    let (worst, &n) = counts
        .iter()
        .enumerate()
        .max_by_key(|(i, c)| (**c, usize::MAX - i))?;
    let ps: Vec<f64> = qs
        .iter()
        .map(|q| {
            if worst < q.options {
                1.0 / q.options as f64
            } else {
                0.0
            }
        })
        .collect();
    let chance = tail(&ps, n) * positions as f64;
    if chance >= ALPHA {
        return None;
    }
    let spread: Vec<String> = counts
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{}: {c}", letter(i)))
        .collect();
    let first = qs.iter().find(|q| q.correct == worst)?;
    Some(
        Diagnostic::warning(
            file,
            first.pos,
            format!(
                "the correct answers of {n} of the lab's {} {what} are option {} ({}): a student who always picks {} scores {n} of {}",
                qs.len(),
                letter(worst),
                spread.join(", "),
                letter(worst),
                qs.len()
            ),
        )
        .with_hint(format!(
            "reorder the options so the right one moves around, e.g. {}",
            shuffle(qs, worst)
        )),
    )
}

/// A reordering that leaves each position about as often right: question by question, the
/// correct option goes to the least used position it has (ties: the earliest).
fn shuffle(qs: &[Question], worst: usize) -> String {
    let positions = qs.iter().map(|q| q.options).max().unwrap_or(1);
    let mut used = vec![0usize; positions];
    let mut moves = Vec::new();
    for q in qs {
        let target = (0..q.options)
            .min_by_key(|&i| (used[i], i != q.correct, i == worst))
            .unwrap_or(q.correct);
        used[target] += 1;
        if target != q.correct {
            moves.push(format!(
                "part {}'s correct option from {} to {}",
                q.part,
                letter(q.correct),
                letter(target)
            ));
        }
    }
    moves.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_of_fair_coins_is_the_binomial_one() {
        assert!((tail(&[0.5; 4], 4) - 1.0 / 16.0).abs() < 1e-12);
        assert!((tail(&[0.5; 4], 0) - 1.0).abs() < 1e-12);
        assert!((tail(&[0.25; 4], 4) - 1.0 / 256.0).abs() < 1e-12);
        // P(X >= 3) of 4 trials at 1/4: 4·(1/4)³·(3/4) + (1/4)⁴ = 13/256.
        assert!((tail(&[0.25; 4], 3) - 13.0 / 256.0).abs() < 1e-12);
    }

    fn qs(correct: &[usize], options: usize) -> Vec<Question<'static>> {
        correct
            .iter()
            .map(|&c| Question {
                part: "a",
                options,
                correct: c,
                pos: Pos::UNKNOWN,
            })
            .collect()
    }

    #[test]
    fn four_of_four_at_b_is_flagged_and_three_of_three_is_not() {
        assert!(lopsided("predictions", &qs(&[1, 1, 1, 1], 4), "f").is_some());
        assert!(lopsided("predictions", &qs(&[0, 0, 0], 4), "f").is_none());
        assert!(lopsided("predictions", &qs(&[0, 1, 2, 3], 4), "f").is_none());
        assert!(lopsided("predictions", &qs(&[1, 1, 1, 2], 4), "f").is_none());
    }

    #[test]
    fn the_suggested_shuffle_spreads_the_answers() {
        let q = qs(&[1, 1, 1, 1], 4);
        let s = shuffle(&q, 1);
        assert_eq!(s.matches(" to ").count(), 3, "{s}");
        for target in ["to A", "to C", "to D"] {
            assert!(s.contains(target), "{s}");
        }
    }
}
