//! Reports for people: the HTML report of a run (the instruction table, hottest first, a
//! bank × phase heat map of each DS instruction, a lanes × cache lines picture of each vector
//! memory instruction, the run's timeline when it recorded one, and how busy each kind of unit
//! was) and of a `banks` access (with the suggested layouts side by
//! side). Each page is one self-contained file: inline CSS and SVG, one small
//! inline script to sort the table, nothing fetched from anywhere.
//!
//! The data ([`RunReport`], [`BanksReport`], [`HeatMap`]) is built from what the executor and
//! the bank model return; [`run_page`] and [`banks_page`] turn it into HTML, [`heat_map_svg`]
//! draws one access, [`timeline_svg`] a run's timeline.
//!
//! ```
//! use gpumemsim::banks::{Access, AccessKind, AccessShape, BankModel, WaveSize};
//! use gpumemsim::report::{banks_page, BanksReport};
//! // A column read of a 32×32 float tile: every lane on bank 0.
//! let addrs: Vec<u64> = (0..32).map(|t| t * 128).collect();
//! let access = Access::new(AccessShape::new(4, AccessKind::Load, WaveSize::Wave32), &addrs);
//! let report = BanksReport::new(&BankModel::rdna3(), "ds_load_b32", &access, None)?;
//! assert_eq!(report.access.heat.ways(), 32);
//! assert!(banks_page(&report).contains("32-way conflict"));
//! # Ok::<(), gpumemsim::banks::AccessError>(())
//! ```

mod banks;
mod coalescing;
mod counters;
mod escape;
mod heatmap;
mod html;
pub mod json;
mod run;
mod source;
mod svg;
mod timeline_svg;

pub use banks::{BanksReport, LayoutPanel};
pub use coalescing::{coalescing_svg, level_legend, LEVEL_COLOURS, MAX_DRAWN_LINES};
pub use counters::{
    amd_counters, counter_definition, CacheLines, AMD_COUNTERS, CACHE_COUNTERS,
    CDNA3_CACHE_COUNTERS,
};
pub use escape::escape;
pub use heatmap::{group_label, HeatMap};
pub use html::{banks_page, run_page};
pub use run::{
    percent, DsPanel, InstructionRow, RunReport, VmemPanel, MAX_DS_PANELS, MAX_VMEM_PANELS,
};
pub use source::{
    assembly_sources, by_function, by_line, function_at, kernel_error, kernel_sources, InstSource,
    SourceRow, SourceTexts,
};
pub use svg::{heat_colour, heat_map_svg, SvgStyle, HEAT_SCALE};
pub use timeline_svg::{
    placement_line, timeline_svg, units_table, MAX_MARKS, MAX_PIPE_ROWS, MAX_WAVE_ROWS,
    TIMELINE_CSS, TIMELINE_WIDTH,
};

/// Ascending ids (waves, lanes) in short form: runs of consecutive ids as `first-last`,
/// separated by `, ` (`[0, 1, 2, 3, 5, 7, 8]` is `0-3, 5, 7-8`).
///
/// ```
/// assert_eq!(gpumemsim::report::id_ranges(&[0, 1, 2, 3, 5, 7, 8]), "0-3, 5, 7-8");
/// assert_eq!(gpumemsim::report::id_ranges(&[]), "");
/// ```
pub fn id_ranges(ids: &[u32]) -> String {
    crate::ranges::runs_text(ids.iter().copied(), ", ")
}
