//! The data of a `banks` report: one access's heat map and, for `--suggest`, the heat map of
//! the same access under each suggested layout, to be shown side by side.

use crate::banks::{Access, AccessError, BankModel, Suggestion};

use super::heatmap::HeatMap;

/// One layout of the access and its picture.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutPanel {
    /// `as given`, or the layout's description (`pad 4 B after every 128 B`).
    pub name: String,
    /// The address map as an expression in `addr` (none for the access as given).
    pub expression: Option<String>,
    /// Extra memory the layout needs, as a fraction of the original.
    pub overhead: f64,
    /// The access under the layout.
    pub heat: HeatMap,
}

/// Everything the HTML report of `gpumemsim banks` shows.
#[derive(Clone, Debug, PartialEq)]
pub struct BanksReport {
    /// The page's title, e.g. `ds_load_b32 on rdna3`.
    pub title: String,
    /// Labelled facts for the header, in order.
    pub facts: Vec<(String, String)>,
    /// The access as given.
    pub access: LayoutPanel,
    /// With `--suggest`: the suggested layouts, cheapest first (empty when none helps).
    pub suggestions: Option<Vec<LayoutPanel>>,
}

impl BanksReport {
    /// The report of `access` (an operation named `op`) under `model`, with the heat map of
    /// every suggestion when `suggestions` is given.
    pub fn new(
        model: &BankModel,
        op: &str,
        access: &Access<u64>,
        suggestions: Option<&[Suggestion]>,
    ) -> Result<BanksReport, AccessError> {
        let heat = HeatMap::new(model, access)?;
        let shape = access.shape;
        let mut facts = vec![
            (
                "model".to_string(),
                format!(
                    "{}: {} banks × {} B",
                    model.name(),
                    model.banks(),
                    model.bank_width()
                ),
            ),
            (
                "access".to_string(),
                format!(
                    "{op} ({}, {} B per lane{}), {} lanes, active {:#x}",
                    shape.kind.name(),
                    shape.width,
                    if shape.kind.is_two_addr() {
                        " at each address"
                    } else {
                        ""
                    },
                    shape.wave.lanes(),
                    shape.active
                ),
            ),
        ];
        for (name, value) in heat.report.cost.counters(model.units()).entries() {
            facts.push((name.replace('_', " "), value.to_string()));
        }
        let suggestions = match suggestions {
            None => None,
            Some(list) => {
                let mut panels = Vec::with_capacity(list.len());
                for s in list {
                    let map = |a: &[u64]| a.iter().map(|&x| s.layout.apply(x)).collect::<Vec<_>>();
                    let a0 = map(access.addrs);
                    let a1 = access.addrs1.map(map);
                    let mapped = Access {
                        shape,
                        addrs: &a0,
                        addrs1: a1.as_deref(),
                    };
                    panels.push(LayoutPanel {
                        name: s.layout.to_string(),
                        expression: Some(s.layout.expression()),
                        overhead: s.layout.overhead(),
                        heat: HeatMap::new(model, &mapped)?,
                    });
                }
                Some(panels)
            }
        };
        Ok(BanksReport {
            title: format!("{op} on {}", model.name()),
            facts,
            access: LayoutPanel {
                name: "as given".to_string(),
                expression: None,
                overhead: 0.0,
                heat,
            },
            suggestions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::banks::{suggest_layouts, AccessKind, AccessShape, WaveSize};

    #[test]
    fn suggestions_are_drawn_with_their_own_costs() {
        let model = BankModel::rdna3();
        let addrs: Vec<u64> = (0..32).map(|t| t * 128).collect();
        let access = Access::new(
            AccessShape::new(4, AccessKind::Load, WaveSize::Wave32),
            &addrs,
        );
        let list = suggest_layouts(&model, &access, 4).expect("valid");
        assert!(!list.is_empty());
        let r = BanksReport::new(&model, "ds_load_b32", &access, Some(&list)).expect("valid");
        assert_eq!(r.access.heat.ways(), 32);
        let panels = r.suggestions.as_ref().expect("asked for");
        assert_eq!(panels.len(), list.len());
        for (p, s) in panels.iter().zip(&list) {
            // The picture is the access under the layout: its cost is the suggestion's.
            assert_eq!(p.heat.report.cost, s.cost);
            assert_eq!(p.name, s.layout.to_string());
        }
        assert!(r
            .facts
            .iter()
            .any(|(k, v)| k == "conflict cycles" && v == "31"));
    }
}
