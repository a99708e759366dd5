//! The grade CSV (`LAB-ID.csv`): a row per student, columns per part as the lab asks them.
//!
//! Every cell is student data or derived from it (names are folder names, answers and decision
//! logs are what the record says), and the file is opened in a spreadsheet, which runs a cell
//! that starts like a formula (`=HYPERLINK(…)`, DDE `=cmd|…`). So every cell goes through
//! [`cell`]: control characters shown as U+FFFD (the text filter terminals get too, for a TA
//! who `cat`s the file), then a cell a spreadsheet would run is prefixed with `'`, as OWASP's
//! "CSV Injection" guidance recommends. An unanswered question is `unanswered`, never `no`.

use super::LabGrades;
use crate::load::text::visible;

/// What a spreadsheet runs when a cell starts with it: OWASP's `=`, `+`, `-`, `@` and their
/// full-width forms (which East Asian spreadsheet locales read as the same operators).
const FORMULA: [char; 8] = ['=', '+', '-', '@', '＝', '＋', '－', '＠'];

/// `text` as a CSV cell a spreadsheet shows and never runs. Prefixed with `'` when it starts
/// with a tab or a carriage return, or when its first character after leading whitespace and
/// double quotes (which spreadsheets may trim or take for CSV quoting) is one of [`FORMULA`].
/// A plain number (`-5`, `+2.5`, `-1e3`: only digits, a sign, `.` and an exponent) is left as
/// it is: a spreadsheet reads it as a value and runs nothing, so a negative numeric answer
/// stays a number a TA can sort.
pub fn cell(text: &str) -> String {
    let text = visible(text);
    let lead = text.trim_start_matches(|c: char| c.is_whitespace() || c == '"');
    let runs = text.starts_with(['\t', '\r']) || lead.starts_with(FORMULA);
    if runs && !plain_number(&text) {
        format!("'{text}")
    } else {
        text.into_owned()
    }
}

fn plain_number(t: &str) -> bool {
    t.chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | 'e' | 'E'))
        && t.parse::<f64>().is_ok_and(f64::is_finite)
}

/// The CSV of one lab: a row per student, columns per part as the lab asks them. A question
/// is `yes` (right), `no` (answered, wrong) or `unanswered`. A lab with tracks has a `track`
/// column (the student's) and per part a `X track` column, filled where the part was answered
/// on another track than the student's (it is judged on that one).
pub fn csv(g: &LabGrades) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let tracked = !g.lab.tracks.is_empty();
    let mut head = vec!["student".to_string(), "file".into()];
    if tracked {
        head.push("track".into());
    }
    head.push("complete".into());
    head.push("score".into());
    head.push("asked".into());
    for p in &g.lab.lab.parts {
        let l = crate::model::part_letter(&p.id.value);
        if tracked && (p.prediction.is_some() || p.reflection.is_some()) {
            head.push(format!("{l} track"));
        }
        if p.prediction.is_some() {
            head.push(format!("{l} prediction"));
            head.push(format!("{l} correct"));
            head.push(format!("{l} attempts"));
        }
        if p.reflection.is_some() {
            head.push(format!("{l} reflection"));
            head.push(format!("{l} reflection correct"));
        }
        super::reading::csv_head(p, &l, &mut head);
    }
    head.push("decision log".into());
    head.push("notes".into());
    let write = |w: &mut csv::Writer<Vec<u8>>, row: &[String]| {
        w.write_record(row.iter().map(|c| cell(c)))
            .map_err(|e| e.to_string())
    };
    write(&mut w, &head)?;
    let yn = |b: bool| if b { "yes" } else { "no" }.to_string();
    let mark = |answer: &Option<String>, correct: Option<bool>| match answer {
        Some(_) => yn(correct == Some(true)),
        None => "unanswered".to_string(),
    };
    for s in &g.graded {
        let mut row = vec![s.student.clone(), s.file.clone()];
        if tracked {
            row.push(s.track.clone().unwrap_or_default());
        }
        row.extend([yn(s.complete), s.score.to_string(), s.asked.to_string()]);
        for (p, pg) in g.lab.lab.parts.iter().zip(&s.parts) {
            if tracked && (p.prediction.is_some() || p.reflection.is_some()) {
                let other = pg.track.as_ref().filter(|t| Some(*t) != s.track.as_ref());
                row.push(other.cloned().unwrap_or_default());
            }
            if p.prediction.is_some() {
                row.push(pg.prediction.clone().unwrap_or_default());
                row.push(mark(&pg.prediction, pg.prediction_correct));
                row.push(pg.attempts.map(|a| a.to_string()).unwrap_or_default());
            }
            if p.reflection.is_some() {
                row.push(pg.reflection.clone().unwrap_or_default());
                row.push(mark(&pg.reflection, pg.reflection_correct));
            }
            super::reading::csv_cells(p, pg, &mut row);
        }
        row.push(s.decision_log.clone());
        row.push(s.notes.join("; "));
        write(&mut w, &row)?;
    }
    String::from_utf8(w.into_inner().map_err(|e| e.to_string())?).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn formulas_are_text_and_numbers_stay_numbers() {
        for (text, want) in [
            ("=1+2", "'=1+2"),
            ("+A1", "'+A1"),
            ("-1+2", "'-1+2"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            ("  =1", "'  =1"),
            ("\"=1\"", "'\"=1\""),
            ("＝1", "'＝1"),
            ("'=1", "'=1"),
            ("-5", "-5"),
            ("+2.5", "+2.5"),
            ("-1e3", "-1e3"),
            ("-inf", "'-inf"),
            ("Buy GPUs.", "Buy GPUs."),
            ("a = b", "a = b"),
            ("x\u{1b}]52;c;aGk=\u{7}", "x\u{FFFD}]52;c;aGk=\u{FFFD}"),
            ("", ""),
        ] {
            assert_eq!(cell(text), want, "{text:?}");
        }
    }
}
