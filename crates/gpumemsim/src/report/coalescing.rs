//! The coalescing picture of a vector memory instruction: one execution
//! ([`crate::exec::VmemSample`]) drawn as lanes × cache lines, like the bank heat map of an LDS
//! access.
//!
//! Rows are the wave's lanes, columns the cache lines its accesses touched, in address order
//! (its requests). A cell is filled when the lane's access touched the line, in the colour of
//! the level that served the line ([`LEVEL_COLOURS`]): green for L0 through to red for VRAM. A
//! fully coalesced wave32 load of consecutive dwords is one column of 32 cells; a strided one a
//! diagonal of columns, one line per lane. Each column says how many lanes shared it; every
//! cell and column has a tooltip with the line's address.

use std::fmt::Write as _;

use super::escape::escape;
use crate::exec::VmemSample;
use crate::vcache::{Family, LINE_BYTES};

/// At most this many cache lines are drawn per picture (the lowest addresses); the picture
/// says how many more there were.
pub const MAX_DRAWN_LINES: usize = 64;

/// The fill of a line each level served, and a text colour on it, nearest level first (as
/// [`Level::ALL`]).
pub const LEVEL_COLOURS: [(&str, &str); 5] = [
    ("#1a9850", "#ffffff"),
    ("#91cf60", "#1f2328"),
    ("#fee08b", "#1f2328"),
    ("#fc8d59", "#1f2328"),
    ("#d73027", "#ffffff"),
];

const BACKGROUND: &str = "#eef0f3";
const CELL_W: u32 = 12;
const LEFT: u32 = 52;
const HEADER: u32 = 44;
const FOOTER: u32 = 16;

/// A lanes × cache lines picture of `s` on a device of `family` (which names the levels),
/// with `id` as the SVG's id.
pub fn coalescing_svg(s: &VmemSample, family: Family, id: &str) -> String {
    let cell_h = if s.wave_size > 32 { 5 } else { 8 };
    let drawn = &s.lines[..s.lines.len().min(MAX_DRAWN_LINES)];
    // Wide enough for the note under the cells, however few columns there are.
    let width = (LEFT + drawn.len() as u32 * CELL_W + 8).max(LEFT + 260);
    let height = HEADER + s.wave_size * cell_h + FOOTER;
    let mut out = String::new();
    let _ = write!(
        out,
        r##"<svg id="{}" class="heatmap coalescing" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" font-family="system-ui, sans-serif">"##,
        escape(id)
    );
    let _ = write!(
        out,
        "<title>{} lanes × {} cache lines of {LINE_BYTES} B</title>",
        s.active.count_ones(),
        s.lines.len()
    );
    lane_labels(&mut out, s, cell_h);
    for (i, l) in drawn.iter().enumerate() {
        let x = LEFT + i as u32 * CELL_W;
        column(&mut out, s, l, (x, cell_h), family);
    }
    let footer = HEADER + s.wave_size * cell_h + 12;
    let note = match (s.lines.first(), s.lines.len() > drawn.len()) {
        (None, _) => {
            "no cache line touched (no lane in EXEC, or every lane went to LDS)".to_string()
        }
        (Some(f), false) => format!("lines from {:#x}", f.line * LINE_BYTES),
        (Some(f), true) => format!(
            "lines from {:#x}; the first {} of {} drawn",
            f.line * LINE_BYTES,
            drawn.len(),
            s.lines.len()
        ),
    };
    let _ = write!(
        out,
        r##"<text x="{LEFT}" y="{footer}" font-size="10" fill="#57606a">{}</text></svg>"##,
        escape(&note)
    );
    out
}

/// Lane numbers down the left, every fourth (every eighth in wave64); inactive lanes grey.
fn lane_labels(out: &mut String, s: &VmemSample, cell_h: u32) {
    let every = if s.wave_size > 32 { 8 } else { 4 };
    out.push_str(r##"<g font-size="8" text-anchor="end" fill="#57606a">"##);
    for lane in (0..s.wave_size).step_by(every) {
        let y = HEADER + lane * cell_h + cell_h;
        let _ = write!(
            out,
            r##"<text x="{}" y="{y}">lane {lane}</text>"##,
            LEFT - 4
        );
    }
    out.push_str("</g>");
}

/// One cache line's column at `x`: its header (the lanes sharing it, in the level's colour)
/// and a cell per lane.
fn column(
    out: &mut String,
    s: &VmemSample,
    l: &crate::exec::SampleLine,
    (x, cell_h): (u32, u32),
    family: Family,
) {
    let (fill, ink) = LEVEL_COLOURS[l.level as usize];
    let level = family.label(l.level).unwrap_or("?");
    let address = l.line * LINE_BYTES;
    let sharing = l.lanes.count_ones();
    let _ = write!(
        out,
        r##"<g><title>line {address:#x}: {sharing} lane(s), served by {}</title><rect x="{x}" y="{}" width="{}" height="14" fill="{fill}"/><text x="{}" y="{}" font-size="8" text-anchor="middle" fill="{ink}">{sharing}</text></g>"##,
        level,
        HEADER - 18,
        CELL_W - 1,
        x + CELL_W / 2,
        HEADER - 8,
    );
    for lane in 0..s.wave_size {
        let y = HEADER + lane * cell_h;
        let on = l.lanes >> lane & 1 == 1;
        let colour = if on { fill } else { BACKGROUND };
        let _ = write!(
            out,
            r##"<rect x="{x}" y="{y}" width="{}" height="{}" fill="{colour}">"##,
            CELL_W - 1,
            cell_h - 1
        );
        if on {
            let _ = write!(
                out,
                "<title>lane {lane} → line {address:#x} ({level})</title>"
            );
        }
        out.push_str("</rect>");
    }
}

/// The legend of the level colours of `family`'s levels, as HTML (the page's `.legend`
/// style).
pub fn level_legend(family: Family) -> String {
    let mut out = String::from(
        "<div class=\"legend\"><span>cell = the lane's access touches the cache line; colour = \
         the level that served the line; a column's number = the lanes sharing the line:</span>",
    );
    for l in family.levels() {
        let (fill, _) = LEVEL_COLOURS[l as usize];
        let _ = write!(
            out,
            "<span><span class=\"sw\" style=\"background:{fill}\"></span>{}</span>",
            family.label(l).unwrap_or("")
        );
    }
    out.push_str("</div>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::SampleLine;
    use crate::vcache::Level;

    fn sample(lines: Vec<SampleLine>) -> VmemSample {
        VmemSample {
            wave: 0,
            wave_size: 32,
            active: u64::from(u32::MAX),
            lines,
        }
    }

    #[test]
    fn a_coalesced_load_is_one_column_of_every_lane() {
        let svg = coalescing_svg(
            &sample(vec![SampleLine {
                line: 2,
                lanes: u64::from(u32::MAX),
                level: Level::L2,
            }]),
            Family::Rdna3,
            "c",
        );
        assert_eq!(svg.matches("→ line 0x100 (L2)").count(), 32, "{svg}");
        assert!(svg.contains("line 0x100: 32 lane(s), served by L2"));
        assert!(svg.contains("32 lanes × 1 cache lines"));
    }

    #[test]
    fn a_strided_load_is_one_line_per_lane_and_long_ones_are_cut() {
        let lines: Vec<SampleLine> = (0..32)
            .map(|i| SampleLine {
                line: 100 * i,
                lanes: 1 << i,
                level: Level::Vram,
            })
            .collect();
        let svg = coalescing_svg(&sample(lines.clone()), Family::Rdna3, "c");
        assert_eq!(svg.matches("1 lane(s), served by VRAM").count(), 32);
        assert_eq!(
            svg.matches("(VRAM)</title>").count(),
            32,
            "one filled cell each"
        );
        let many: Vec<SampleLine> = (0..100)
            .map(|i| SampleLine {
                line: i,
                lanes: 1,
                level: Level::L0,
            })
            .collect();
        let svg = coalescing_svg(&sample(many), Family::Cdna3, "c");
        assert!(svg.contains("the first 64 of 100 drawn"), "{svg}");
        // CDNA3 calls the CU's cache the vL1D.
        assert_eq!(svg.matches("served by vL1D").count(), MAX_DRAWN_LINES);
    }
}
