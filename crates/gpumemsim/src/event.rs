//! Diagnostic events: what a simulated program did that a user should know about (a rule it
//! broke, an access outside its allocation), alongside the hardware's own answer.

/// One event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Short machine-readable kind, e.g. `"memviol"`, `"lds_out_of_range"`.
    pub kind: &'static str,
    /// Wave index (in creation order).
    pub wave: u32,
    /// The wave's clock when it issued the instruction (the unit models leave it 0; the
    /// executor stamps it).
    pub cycle: u64,
    /// Index of the instruction in the program.
    pub pc: usize,
    /// Human-readable description.
    pub message: String,
}

/// The kinds of event that mean the program did something wrong (an access outside what it
/// may touch, a memory violation): reports count them first, and `gpumemsim check` turns
/// them into findings.
pub const ERROR_KINDS: [&str; 8] = [
    "out_of_bounds",
    "memviol",
    "lds_out_of_range",
    "gds_out_of_range",
    "scratch_out_of_range",
    "buffer_out_of_range",
    "smem_range",
    "unsupported_format",
];

impl Event {
    /// Whether the event is of an error kind ([`ERROR_KINDS`]).
    pub fn is_error(&self) -> bool {
        ERROR_KINDS.contains(&self.kind)
    }
}
