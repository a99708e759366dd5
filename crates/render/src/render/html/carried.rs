//! Numbers carried between the labs of a course on the page (`eval::carried`): the data the
//! runtime's `reads` block fills them from the course record with, the list under the header
//! saying where each came from (rendered at the defaults, as for a student who has not done
//! the earlier lab), and the `records:` a part keeps for later labs (the `records` block).

use super::ctx::CarriedRow;
use super::data::ReadData;
use crate::eval::carried::how_texts;
use crate::eval::CompiledLab;
use crate::site::Site;

/// The earlier lab `id`'s title (the course's), or its id.
fn title(site: Option<&Site>, id: &str) -> String {
    site.and_then(|s| s.labs.iter().find(|l| l.id == id))
        .map_or_else(|| id.to_string(), |l| l.title.clone())
}

/// The page data's `reads` and the template's `carried`, when the lab reads numbers.
pub(super) fn reads<'a>(
    lab: &'a CompiledLab,
    site: Option<&Site>,
) -> Option<(Vec<ReadData>, Vec<CarriedRow<'a>>)> {
    if lab.lab.reads.is_empty() {
        return None;
    }
    let mut data = Vec::new();
    let mut ctx = Vec::new();
    for r in &lab.lab.reads {
        let (kind, key) = r.kind()?;
        let from = &r.from.value;
        let texts = how_texts(r, &title(site, from));
        let (lo, hi) = r.range.value;
        let how = texts[1].clone();
        data.push((
            r.name.value.clone(),
            from.clone(),
            kind,
            key.value.clone(),
            r.default.value,
            lo,
            hi,
            texts,
        ));
        ctx.push(CarriedRow {
            name: &r.name.value,
            label: r.label.as_deref().unwrap_or(&r.name.value),
            unit: r.unit.as_deref(),
            value: r.default.value.to_string(),
            how,
        });
    }
    Some((data, ctx))
}

/// Part `pid`'s `records:` for the page data (`[[name, formula], ...]`), when it keeps some.
pub(super) fn records(lab: &CompiledLab, pid: &str) -> Option<Vec<(String, String)>> {
    let v: Vec<(String, String)> = lab
        .lab
        .records
        .iter()
        .filter_map(|(k, at)| {
            let (p, n) = at.value.split_once('.')?;
            (p == pid).then(|| (k.clone(), n.to_string()))
        })
        .collect();
    (!v.is_empty()).then_some(v)
}
