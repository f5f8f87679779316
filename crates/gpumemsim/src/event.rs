//! Diagnostic events: what a simulated program did that a user should know about (a rule it
//! broke, an access outside its allocation, a race, a read before its wait), alongside the
//! hardware's own answer. `gpumemsim check` groups them into findings ([`crate::check`]).

/// An event's kind: one of a fixed set of names (an alias, so that serde's derive reads it
/// back through [`interned_kind`] rather than borrowing from the input).
pub type EventKind = &'static str;

/// One event.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Event {
    /// Short machine-readable kind, e.g. `"memviol"`, `"lds_out_of_range"`.
    #[serde(deserialize_with = "interned_kind")]
    pub kind: EventKind,
    /// Wave index (in creation order).
    pub wave: u32,
    /// The wave's clock when it issued the instruction (the unit models leave it 0; the
    /// executor stamps it).
    pub cycle: u64,
    /// Index of the instruction in the program.
    pub pc: usize,
    /// Human-readable description.
    pub message: String,
    /// What the event names beyond its own wave and instruction (the other side of a race,
    /// the load a read came too early for, the lanes, the address); `None` for most.
    pub detail: Option<Box<EventDetail>>,
}

/// The further instructions, waves, lanes and memory address an event names.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EventDetail {
    /// Other instructions involved (indices into the program), in the order the message
    /// names them: the earlier access of a race, the load a read came too early for, the
    /// other `s_barrier`.
    pub pcs: Vec<usize>,
    /// Other waves involved (the other side of a race or barrier).
    pub waves: Vec<u32>,
    /// Lanes of the event's wave involved.
    pub lanes: Vec<u32>,
    /// The memory address: an LDS byte offset in the workgroup's allocation for LDS
    /// findings, a 64-bit global address for global ones.
    pub address: Option<u64>,
}

/// The kinds of event that mean the program did something wrong (an access outside what it
/// may touch, a memory violation): reports count them first.
pub const ERROR_KINDS: [&str; 9] = [
    "out_of_bounds",
    "memviol",
    "flat_address_range",
    "lds_out_of_range",
    "gds_out_of_range",
    "scratch_out_of_range",
    "buffer_out_of_range",
    "smem_range",
    "unsupported_format",
];

impl Event {
    /// An event of `kind` at instruction `pc` of wave `wave`, with no detail (the executor
    /// stamps the cycle).
    pub fn new(kind: &'static str, wave: u32, pc: usize, message: String) -> Event {
        Event {
            kind,
            wave,
            cycle: 0,
            pc,
            message,
            detail: None,
        }
    }

    /// This event with `detail`.
    pub fn with_detail(mut self, detail: EventDetail) -> Event {
        self.detail = Some(Box::new(detail));
        self
    }

    /// Whether the event is of an error kind ([`ERROR_KINDS`]).
    pub fn is_error(&self) -> bool {
        ERROR_KINDS.contains(&self.kind)
    }
}

/// An event kind read back from a serialised run ([`crate::exec::GridPart`]): the same
/// `&'static str` for the same text, each distinct kind allocated once for the process.
fn interned_kind<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    use std::collections::BTreeSet;
    use std::sync::Mutex;
    static KINDS: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let text = <String as serde::Deserialize>::deserialize(d)?;
    let mut kinds = KINDS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&k) = kinds.get(text.as_str()) {
        return Ok(k);
    }
    let k: &'static str = Box::leak(text.into_boxed_str());
    kinds.insert(k);
    Ok(k)
}
