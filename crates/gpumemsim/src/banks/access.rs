//! What one access is: per-lane addresses, width, kind, active lanes and wave size.

use std::fmt;

/// A lane's byte address: `u32` (LDS and shared-memory addresses) or `u64`.
pub trait LaneAddress: Copy {
    /// The address as a 64-bit byte address.
    fn byte_address(self) -> u64;

    /// The bitwise OR of all `addrs` (in their own width, so the loop vectorizes).
    fn or_all(addrs: &[Self]) -> u64;

    /// `addrs` as `u32`s, if that is their type (the batch path's vector kernel reads those).
    fn as_u32s(addrs: &[Self]) -> Option<&[u32]> {
        let _ = addrs;
        None
    }

    /// `addrs` as `u64`s, if that is their type.
    fn as_u64s(addrs: &[Self]) -> Option<&[u64]> {
        let _ = addrs;
        None
    }
}

impl LaneAddress for u32 {
    #[inline(always)]
    fn byte_address(self) -> u64 {
        self as u64
    }

    #[inline(always)]
    fn or_all(addrs: &[u32]) -> u64 {
        addrs.iter().fold(0, |a, &x| a | x) as u64
    }

    fn as_u32s(addrs: &[u32]) -> Option<&[u32]> {
        Some(addrs)
    }
}

impl LaneAddress for u64 {
    #[inline(always)]
    fn byte_address(self) -> u64 {
        self
    }

    #[inline(always)]
    fn or_all(addrs: &[u64]) -> u64 {
        addrs.iter().fold(0, |a, &x| a | x)
    }

    fn as_u64s(addrs: &[u64]) -> Option<&[u64]> {
        Some(addrs)
    }
}

/// Lanes in a wave (AMD) or warp (NVIDIA, always 32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WaveSize {
    /// 32 lanes.
    Wave32,
    /// 64 lanes.
    Wave64,
}

impl WaveSize {
    /// The number of lanes.
    pub const fn lanes(self) -> u32 {
        match self {
            WaveSize::Wave32 => 32,
            WaveSize::Wave64 => 64,
        }
    }

    /// The wave size with `lanes` lanes (32 or 64).
    pub const fn from_lanes(lanes: u32) -> Option<WaveSize> {
        match lanes {
            32 => Some(WaveSize::Wave32),
            64 => Some(WaveSize::Wave64),
            _ => None,
        }
    }

    /// A mask with one bit per lane of the wave.
    pub const fn lane_mask(self) -> u64 {
        match self {
            WaveSize::Wave32 => 0xffff_ffff,
            WaveSize::Wave64 => u64::MAX,
        }
    }
}

/// Which phase table an access uses: the presets give separate lane groupings for reads and
/// writes where they differ (CDNA3 `b128`, docs/rules/banks.md#lane-phases).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Loads.
    Read,
    /// Stores and atomics (read-modify-write: grouped as writes).
    Write,
}

/// What an access does. The `2Addr` kinds carry two addresses per lane (AMD
/// `ds_load_2addr_*`, `ds_store_2addr_*`, `ds_storexchg_2addr_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessKind {
    /// A load (`ds_load_*`, `LDS`).
    Load,
    /// A store (`ds_store_*`, `STS`).
    Store,
    /// An atomic read-modify-write (`ds_add_u32`, `ds_cmpstore_rtn_b32`, ...).
    Atomic,
    /// A load of two elements per lane from two addresses.
    Load2Addr,
    /// A store of two elements per lane to two addresses.
    Store2Addr,
    /// An exchange of two elements per lane at two addresses.
    Atomic2Addr,
}

impl AccessKind {
    /// Whether each lane has two addresses.
    pub const fn is_two_addr(self) -> bool {
        matches!(
            self,
            AccessKind::Load2Addr | AccessKind::Store2Addr | AccessKind::Atomic2Addr
        )
    }

    /// The one-address kind of each half of a 2addr access (itself for the others).
    pub const fn single(self) -> AccessKind {
        match self {
            AccessKind::Load | AccessKind::Load2Addr => AccessKind::Load,
            AccessKind::Store | AccessKind::Store2Addr => AccessKind::Store,
            AccessKind::Atomic | AccessKind::Atomic2Addr => AccessKind::Atomic,
        }
    }

    /// Which phase table the access uses.
    pub const fn direction(self) -> Direction {
        match self.single() {
            AccessKind::Load => Direction::Read,
            _ => Direction::Write,
        }
    }

    /// A short name: `load`, `store`, `atomic`, `load_2addr`, `store_2addr`, `atomic_2addr`.
    pub const fn name(self) -> &'static str {
        match self {
            AccessKind::Load => "load",
            AccessKind::Store => "store",
            AccessKind::Atomic => "atomic",
            AccessKind::Load2Addr => "load_2addr",
            AccessKind::Store2Addr => "store_2addr",
            AccessKind::Atomic2Addr => "atomic_2addr",
        }
    }
}

/// Everything about an access except its addresses; many accesses of one shape make a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessShape {
    /// Bytes each lane reads or writes at each of its addresses: 4, 8, 12 or 16 (1 and 2, the
    /// sub-dword DS forms, are grouped like 4).
    pub width: u32,
    /// Load, store, atomic, or one of their 2addr forms.
    pub kind: AccessKind,
    /// Active lanes (EXEC); bits at or above the wave size must be clear.
    pub active: u64,
    /// Lanes in the wave.
    pub wave: WaveSize,
}

impl AccessShape {
    /// A shape with every lane of `wave` active.
    pub const fn new(width: u32, kind: AccessKind, wave: WaveSize) -> AccessShape {
        AccessShape {
            width,
            kind,
            active: wave.lane_mask(),
            wave,
        }
    }

    /// The same shape with only `active` lanes.
    pub const fn with_active(self, active: u64) -> AccessShape {
        AccessShape { active, ..self }
    }
}

/// One access: a shape and each lane's address (and second address, for 2addr kinds). Slices
/// hold one entry per lane of the wave; inactive lanes' entries are ignored.
#[derive(Clone, Copy, Debug)]
pub struct Access<'a, A: LaneAddress> {
    /// Width, kind, active lanes and wave size.
    pub shape: AccessShape,
    /// Each lane's byte address (the first address of a 2addr access).
    pub addrs: &'a [A],
    /// Each lane's second byte address: required for 2addr kinds, absent otherwise.
    pub addrs1: Option<&'a [A]>,
}

impl<'a, A: LaneAddress> Access<'a, A> {
    /// A one-address access.
    pub fn new(shape: AccessShape, addrs: &'a [A]) -> Access<'a, A> {
        Access {
            shape,
            addrs,
            addrs1: None,
        }
    }

    /// A 2addr access.
    pub fn two_addr(shape: AccessShape, addrs: &'a [A], addrs1: &'a [A]) -> Access<'a, A> {
        Access {
            shape,
            addrs,
            addrs1: Some(addrs1),
        }
    }
}

/// Why an access cannot be costed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccessError {
    /// The width is not 1, 2, 4, 8, 12 or 16 bytes.
    UnsupportedWidth(u32),
    /// The preset does not run waves of this size (NVIDIA warps are 32 lanes, CDNA waves 64).
    UnsupportedWave {
        /// The preset's name.
        preset: String,
        /// The requested lanes.
        lanes: u32,
    },
    /// An address slice does not have one entry per lane.
    AddressCount {
        /// Lanes in the wave (times accesses, for a batch).
        expected: usize,
        /// Entries given.
        got: usize,
    },
    /// A 2addr kind without second addresses.
    MissingSecondAddresses,
    /// Second addresses for a one-address kind.
    UnexpectedSecondAddresses,
    /// Active-lane bits at or above the wave size.
    ActiveOutsideWave(u64),
    /// The preset requires naturally aligned addresses (NVIDIA) and a lane's is not.
    Misaligned {
        /// The lane.
        lane: u32,
        /// Its byte address.
        address: u64,
        /// The access width it must be a multiple of.
        width: u32,
    },
    /// A batch's per-access active masks do not number one per access.
    MaskCount {
        /// Accesses in the batch.
        expected: usize,
        /// Masks given.
        got: usize,
    },
    /// The instruction is not a per-lane LDS memory access (see [`super::ds_access`]).
    NotBankAccess {
        /// The instruction's mnemonic.
        instruction: &'static str,
        /// Why.
        reason: &'static str,
    },
}

impl fmt::Display for AccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccessError::UnsupportedWidth(w) => write!(
                f,
                "an access of {w} bytes per lane is not supported (1, 2, 4, 8, 12 or 16)"
            ),
            AccessError::UnsupportedWave { preset, lanes } => {
                write!(f, "{preset} does not run waves of {lanes} lanes")
            }
            AccessError::AddressCount { expected, got } => write!(
                f,
                "{got} addresses given, {expected} expected (one per lane)"
            ),
            AccessError::MissingSecondAddresses => {
                write!(f, "a 2addr access needs a second address per lane")
            }
            AccessError::UnexpectedSecondAddresses => {
                write!(f, "second addresses given for a one-address access")
            }
            AccessError::ActiveOutsideWave(m) => {
                write!(f, "active lanes {m:#x} lie outside the wave")
            }
            AccessError::Misaligned {
                lane,
                address,
                width,
            } => write!(
                f,
                "lane {lane}: address {address} ({address:#x}) is not a multiple of {width} \
                 (this architecture needs naturally aligned accesses)"
            ),
            AccessError::MaskCount { expected, got } => {
                write!(f, "{got} active masks given for {expected} accesses")
            }
            AccessError::NotBankAccess {
                instruction,
                reason,
            } => write!(f, "{instruction}: {reason}"),
        }
    }
}

impl std::error::Error for AccessError {}
