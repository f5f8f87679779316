//! Drawing a [`HeatMap`] as SVG, by hand: a bank × lane grid for each group (phase) of the
//! access, a column of passes per bank after each group, and the group's cost underneath.
//!
//! A cell (bank, lane) is filled when the lane reads or writes a word in that bank; its colour
//! is the heat of that bank in that group: how many passes the bank needs ([`heat_colour`]),
//! green when one pass serves it, through yellow and orange to dark red for 17 or more. A
//! 32-way column conflict is one dark-red row across all 32 lanes; a conflict-free access is a
//! green diagonal or permutation. Every filled cell has a tooltip with the lane, its address
//! and word, and the bank's passes.

use std::fmt::Write as _;

use super::escape::escape;
use super::heatmap::{group_label, HeatMap};
use crate::banks::GroupReport;

/// The colour buckets of the heat scale: (least passes, fill, text colour on it, legend label).
pub const HEAT_SCALE: [(u32, &str, &str, &str); 6] = [
    (1, "#41ab5d", "#ffffff", "1 pass (no conflict)"),
    (2, "#fed976", "#1f2328", "2"),
    (3, "#feb24c", "#1f2328", "3–4"),
    (5, "#fd8d3c", "#1f2328", "5–8"),
    (9, "#e31a1c", "#ffffff", "9–16"),
    (17, "#800026", "#ffffff", "17 or more"),
];

/// The fill and text colours for a bank that needs `passes` passes.
pub fn heat_colour(passes: u32) -> (&'static str, &'static str) {
    let mut colour = (HEAT_SCALE[0].1, HEAT_SCALE[0].2);
    for &(least, fill, text, _) in &HEAT_SCALE {
        if passes >= least {
            colour = (fill, text);
        }
    }
    colour
}

/// Cell sizes and labels of a drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvgStyle {
    /// Cell width in pixels.
    pub cell_w: u32,
    /// Cell height in pixels.
    pub cell_h: u32,
    /// Whether to number the lanes and print the passes in their cells.
    pub labels: bool,
    /// The most lanes side by side: groups (phases) wrap to a new row of the picture past it
    /// (0: one row), so a wave64 access stays about as wide as a wave32 one.
    pub row_lanes: u32,
}

impl SvgStyle {
    /// Full size, with lane numbers and passes: for one access on its own. Up to 64 lanes a
    /// row (a wave32 2addr access, or one wave64 phase pair).
    pub fn full(banks: u32) -> SvgStyle {
        SvgStyle {
            cell_w: 14,
            cell_h: if banks > 32 { 8 } else { 12 },
            labels: true,
            row_lanes: 64,
        }
    }

    /// Small, for several layouts side by side.
    pub fn compact(banks: u32) -> SvgStyle {
        SvgStyle {
            cell_w: 8,
            cell_h: if banks > 32 { 5 } else { 7 },
            labels: false,
            row_lanes: 128,
        }
    }
}

const BACKGROUND: &str = "#eef0f3";
const CONFLICT_TEXT: &str = "#b00020";

/// Splits the groups into rows of at most `row_lanes` lanes (a group wider than that gets a
/// row of its own): the indices of each row's groups.
fn rows_of(lanes: &[usize], row_lanes: u32) -> Vec<Vec<usize>> {
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut width = 0;
    for (i, &n) in lanes.iter().enumerate() {
        let fits = row_lanes == 0 || width + n <= row_lanes as usize;
        match rows.last_mut() {
            Some(row) if fits => row.push(i),
            _ => {
                rows.push(vec![i]);
                width = 0;
            }
        }
        width += n;
    }
    rows
}

/// The heat map of `h` as an `<svg>` element (no XML prolog: it is meant to be inlined in
/// HTML). `id` becomes the element's id. The element has its natural size in `width` and
/// `height` and a `viewBox`, so CSS can scale it down to fit (`max-width: 100%; height:
/// auto`).
pub fn heat_map_svg(h: &HeatMap, style: SvgStyle, id: &str) -> String {
    let SvgStyle {
        cell_w: cw,
        cell_h: ch,
        labels,
        row_lanes,
    } = style;
    let left = if labels { 56 } else { 30 };
    let header = if labels { 30 } else { 16 };
    let footer = 18;
    let pass_w = if labels { 30 } else { 16 };
    let gap = if labels { 16 } else { 10 };
    let row_gap = if labels { 10 } else { 6 };
    let groups = &h.report.groups;
    let group_lanes: Vec<Vec<u32>> = groups.iter().map(HeatMap::group_lanes).collect();
    let counts: Vec<usize> = group_lanes.iter().map(Vec::len).collect();
    let rows = rows_of(&counts, row_lanes);
    let block_w = |lanes: usize| lanes as u32 * cw + 3 + pass_w;
    let row_h = header + h.banks * ch + footer;
    let width = left
        + rows
            .iter()
            .map(|r| r.iter().map(|&g| block_w(counts[g]) + gap).sum::<u32>())
            .max()
            .unwrap_or(0)
            .max(120)
        + 4;
    let height = row_h * rows.len().max(1) as u32 + row_gap * rows.len().saturating_sub(1) as u32;
    let conflicting = h.conflicting_banks();
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg id="{}" class="heatmap" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" font-family="system-ui, sans-serif">"##,
        escape(id)
    );
    let _ = write!(
        s,
        "<title>{} banks × {} lanes: {}-way worst conflict, {} {}</title>",
        h.banks,
        h.wave_lanes,
        h.ways(),
        h.report.cost.cost,
        h.unit_name()
    );
    let label_size = match (labels, ch >= 10) {
        (true, true) => 10,
        (true, false) => 8,
        (false, _) => 7,
    };
    let every = if labels && ch >= 10 {
        1
    } else if labels {
        2
    } else {
        8
    };
    for (r, row) in rows.iter().enumerate() {
        let top = r as u32 * (row_h + row_gap) + header;
        // Bank labels.
        let _ = write!(
            s,
            r##"<g font-size="{label_size}" text-anchor="end" fill="#57606a">"##
        );
        for b in 0..h.banks {
            let hot = conflicting.binary_search(&b).is_ok();
            if b % every != 0 && !hot {
                continue;
            }
            let y = top + b * ch + ch / 2 + 3;
            let text = if labels {
                format!("bank {b}")
            } else {
                format!("{b}")
            };
            let _ = write!(
                s,
                r##"<text x="{}" y="{y}"{}>{text}</text>"##,
                left - 4,
                if hot {
                    format!(r##" fill="{CONFLICT_TEXT}" font-weight="bold""##)
                } else {
                    String::new()
                },
            );
        }
        s.push_str("</g>");
        let mut x = left;
        for &gi in row {
            let (g, lanes) = (&groups[gi], &group_lanes[gi]);
            group_svg(&mut s, h, g, lanes, x, top, style);
            x += block_w(lanes.len()) + gap;
        }
    }
    if groups.is_empty() {
        let _ = write!(
            s,
            r##"<text x="{left}" y="{}" font-size="11" fill="#57606a">no active lanes</text>"##,
            header + 12
        );
    }
    s.push_str("</svg>");
    s
}

/// One group: its title, lane numbers, cells, passes column and cost, at (`x`, `top`) (the top
/// of its bank 0 row).
fn group_svg(
    s: &mut String,
    h: &HeatMap,
    g: &GroupReport,
    lanes: &[u32],
    x: u32,
    top: u32,
    style: SvgStyle,
) {
    let place = GroupPlace {
        h,
        g,
        lanes,
        x,
        top,
        style,
        lanes_w: lanes.len() as u32 * style.cell_w,
        pass_w: if style.labels { 30 } else { 16 },
    };
    place.header(s);
    place.grid(s);
    place.cells(s);
    if style.labels && style.cell_h >= 8 {
        place.pass_counts(s);
    }
    place.cost(s);
}

/// Where one group is drawn, and what: the heat map, the group, the lanes in column order, the
/// top-left corner of its bank 0 row, the style, and the widths of its lane columns and of its
/// passes column.
struct GroupPlace<'a> {
    h: &'a HeatMap,
    g: &'a GroupReport,
    lanes: &'a [u32],
    x: u32,
    top: u32,
    style: SvgStyle,
    lanes_w: u32,
    pass_w: u32,
}

impl GroupPlace<'_> {
    /// The group's title and, with labels, the lane numbers above the grid.
    fn header(&self, s: &mut String) {
        let (x, top, labels) = (self.x, self.top, self.style.labels);
        let header = if labels { 30 } else { 16 };
        let _ = write!(
            s,
            r##"<text x="{x}" y="{}" font-size="{}" font-weight="600" fill="#1f2328">{}</text>"##,
            top - header + if labels { 11 } else { 10 },
            if labels { 11 } else { 8 },
            escape(&group_label(self.g))
        );
        if !labels {
            return;
        }
        // Lane numbers: one <text> with a dx per lane.
        let cw = self.style.cell_w;
        let _ = write!(
            s,
            r##"<text y="{}" font-size="7" text-anchor="middle" fill="#57606a">"##,
            top - 4
        );
        for (i, lane) in self.lanes.iter().enumerate() {
            let _ = write!(
                s,
                r##"<tspan x="{}">{lane}</tspan>"##,
                x + i as u32 * cw + cw / 2
            );
        }
        let _ = write!(
            s,
            r##"<tspan x="{}">passes</tspan></text>"##,
            x + self.lanes_w + 3 + self.pass_w / 2
        );
    }

    /// The grid's background, with a guide every 8 banks.
    fn grid(&self, s: &mut String) {
        let (x, top, ch, lanes_w) = (self.x, self.top, self.style.cell_h, self.lanes_w);
        let _ = write!(
            s,
            r##"<rect x="{x}" y="{top}" width="{lanes_w}" height="{}" fill="{BACKGROUND}"/>"##,
            self.h.banks * ch
        );
        for b in (8..self.h.banks).step_by(8) {
            let _ = write!(
                s,
                r##"<line x1="{x}" x2="{}" y1="{y}" y2="{y}" stroke="#d0d7de"/>"##,
                x + lanes_w,
                y = top + b * ch
            );
        }
    }

    /// A cell per (bank, lane) the lane touches, and each bank's cell in the passes column, in
    /// the bank's heat colour, with tooltips.
    fn cells(&self, s: &mut String) {
        let (h, g, x, cw, ch) = (self.h, self.g, self.x, self.style.cell_w, self.style.cell_h);
        let (w, hh) = (cw.saturating_sub(1).max(1), ch.saturating_sub(1).max(1));
        let px = x + self.lanes_w + 3;
        for u in &g.banks {
            let (fill, _) = heat_colour(u.accesses);
            let y = self.top + u.bank * ch;
            for (i, &lane) in self.lanes.iter().enumerate() {
                if u.lanes >> lane & 1 == 0 {
                    continue;
                }
                let addr: Vec<String> = h
                    .lane_addresses(g, lane)
                    .iter()
                    .map(|a| format!("{a:#x}"))
                    .collect();
                let word = h
                    .lane_word(g, lane, u.bank)
                    .map_or_else(|| "?".to_string(), |w| w.to_string());
                let _ = write!(
                    s,
                    r##"<rect x="{}" y="{y}" width="{w}" height="{hh}" fill="{fill}"><title>lane {lane}: {} → bank {}, word {word}</title></rect>"##,
                    x + i as u32 * cw,
                    addr.join(" and "),
                    u.bank,
                );
            }
            // The passes column.
            let _ = write!(
                s,
                r##"<rect x="{px}" y="{y}" width="{}" height="{hh}" fill="{fill}"><title>bank {}: {} word(s), {} pass(es)</title></rect>"##,
                self.pass_w - 1,
                u.bank,
                u.words.len(),
                u.accesses
            );
        }
    }

    /// The passes, written in their cells of the passes column.
    fn pass_counts(&self, s: &mut String) {
        let ch = self.style.cell_h;
        let px = self.x + self.lanes_w + 3;
        let _ = write!(
            s,
            r##"<g font-size="{}" text-anchor="middle">"##,
            if ch >= 10 { 9 } else { 7 }
        );
        for u in &self.g.banks {
            let (_, ink) = heat_colour(u.accesses);
            let _ = write!(
                s,
                r##"<text x="{}" y="{}" fill="{ink}">{}</text>"##,
                px + self.pass_w / 2,
                self.top + u.bank * ch + ch - 3,
                if u.accesses > 1 {
                    format!("×{}", u.accesses)
                } else {
                    "1".to_string()
                }
            );
        }
        s.push_str("</g>");
    }

    /// The group's cost, under it.
    fn cost(&self, s: &mut String) {
        let g = self.g;
        let _ = write!(
            s,
            r##"<text x="{}" y="{}" font-size="{}" fill="{}">{}</text>"##,
            self.x,
            self.top + self.h.banks * self.style.cell_h + 13,
            if self.style.labels { 10 } else { 8 },
            if g.cost > 1 { CONFLICT_TEXT } else { "#57606a" },
            self.h.amount(g.cost as u64)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::banks::{Access, AccessKind, AccessShape, BankModel, WaveSize};

    fn svg_of(addrs: &[u32]) -> String {
        let shape = AccessShape::new(4, AccessKind::Load, WaveSize::Wave32);
        let h = HeatMap::new(&BankModel::rdna3(), &Access::new(shape, addrs)).expect("valid");
        heat_map_svg(&h, SvgStyle::full(32), "m")
    }

    #[test]
    fn heat_buckets() {
        assert_eq!(heat_colour(1).0, "#41ab5d");
        assert_eq!(heat_colour(2).0, "#fed976");
        assert_eq!(heat_colour(4).0, "#feb24c");
        assert_eq!(heat_colour(8).0, "#fd8d3c");
        assert_eq!(heat_colour(16).0, "#e31a1c");
        assert_eq!(heat_colour(32).0, "#800026");
    }

    #[test]
    fn a_column_read_fills_one_bank_row_with_the_hottest_colour() {
        let column: Vec<u32> = (0..32).map(|t| t * 128).collect();
        let svg = svg_of(&column);
        // 32 lane cells and the passes cell, all dark red; no green.
        assert_eq!(svg.matches(r##"fill="#800026""##).count(), 33);
        assert!(!svg.contains("#41ab5d"));
        assert!(svg.contains("×32"));
        assert!(svg.contains("lane 31: 0xf80 → bank 0, word 992"));
    }

    #[test]
    fn wave64_phases_wrap_to_rows_of_64_lanes() {
        let model = BankModel::rdna3();
        let a0: Vec<u32> = (0..64).map(|t| t * 4).collect();
        let a1: Vec<u32> = (0..64).map(|t| t * 4 + 256).collect();
        let shape = AccessShape::new(4, AccessKind::Load2Addr, WaveSize::Wave64);
        let access = Access {
            shape,
            addrs: &a0,
            addrs1: Some(&a1),
        };
        let h = HeatMap::new(&model, &access).expect("valid");
        assert_eq!(h.report.groups.len(), 4);
        let svg = heat_map_svg(&h, SvgStyle::full(32), "w");
        let size = |key: &str| -> u32 {
            svg.split(&format!(" {key}=\""))
                .nth(1)
                .and_then(|s| s.split('"').next())
                .and_then(|s| s.parse().ok())
                .expect("a size")
        };
        // Two rows of two 32-lane groups: as wide as a wave32 2addr picture, twice as tall.
        let one_row = 30 + 32 * 12 + 18;
        assert_eq!(size("height"), 2 * one_row + 10);
        assert!(size("width") <= 1100, "{}", size("width"));
        assert!(svg.contains("viewBox=\"0 0 "));
        assert_eq!(svg.matches("#41ab5d").count(), 4 * (32 + 32));
    }

    #[test]
    fn a_row_read_is_green() {
        let row: Vec<u32> = (0..32).map(|t| t * 4).collect();
        let svg = svg_of(&row);
        assert_eq!(svg.matches(r##"fill="#41ab5d""##).count(), 64);
        assert!(!svg.contains("#800026"));
    }
}
