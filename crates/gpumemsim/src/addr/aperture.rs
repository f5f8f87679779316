//! The flat address apertures (docs/rules/addressing.md#flat-apertures): a flat address inside the
//! shared aperture is an LDS offset, inside the private aperture a private (scratch) offset,
//! and anything else a global address.

/// Default shared (LDS) aperture base, as `src_shared_base` reads on hardware.
pub const SHARED_BASE: u64 = 0x1_0000_0000_0000;
/// Default private (scratch) aperture base, as `src_private_base` reads on hardware.
pub const PRIVATE_BASE: u64 = 0x2_0000_0000_0000;
/// Size of each aperture: 4 GiB (hardware's private aperture is
/// `[0x2000000000000, 0x20000ffffffff]`).
pub const APERTURE_BYTES: u64 = 1 << 32;

/// Which address space a flat address falls in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aperture {
    /// LDS: the offset is the address minus the shared base.
    Shared,
    /// Scratch: the offset is the address minus the private base.
    Private,
    /// Global memory: the address itself.
    Global,
}

impl Aperture {
    /// The name the CLI and JSON use.
    pub fn name(self) -> &'static str {
        match self {
            Aperture::Shared => "shared",
            Aperture::Private => "private",
            Aperture::Global => "global",
        }
    }
}

/// The two apertures' bases and limits (inclusive), as `src_shared_base/limit` and
/// `src_private_base/limit` read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Apertures {
    /// `src_shared_base`.
    pub shared_base: u64,
    /// `src_shared_limit` (last byte).
    pub shared_limit: u64,
    /// `src_private_base`.
    pub private_base: u64,
    /// `src_private_limit` (last byte).
    pub private_limit: u64,
}

impl Default for Apertures {
    fn default() -> Apertures {
        Apertures::with_bases(SHARED_BASE, PRIVATE_BASE)
    }
}

impl Apertures {
    /// Apertures of 4 GiB each at the given bases.
    pub fn with_bases(shared_base: u64, private_base: u64) -> Apertures {
        Apertures {
            shared_base,
            shared_limit: shared_base.wrapping_add(APERTURE_BYTES - 1),
            private_base,
            private_limit: private_base.wrapping_add(APERTURE_BYTES - 1),
        }
    }

    /// The aperture of `addr` and the offset within it (for global, the address).
    #[inline]
    pub fn resolve(&self, addr: u64) -> (Aperture, u64) {
        if (self.shared_base..=self.shared_limit).contains(&addr) {
            (Aperture::Shared, addr - self.shared_base)
        } else if (self.private_base..=self.private_limit).contains(&addr) {
            (Aperture::Private, addr - self.private_base)
        } else {
            (Aperture::Global, addr)
        }
    }

    /// The 64-bit value of scalar source `code` 235-238 (`src_shared_base`,
    /// `src_shared_limit`, `src_private_base`, `src_private_limit`).
    pub fn source(&self, code: u32) -> Option<u64> {
        Some(match code {
            235 => self.shared_base,
            236 => self.shared_limit,
            237 => self.private_base,
            238 => self.private_limit,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apertures_split_the_flat_space_at_their_edges() {
        let a = Apertures::default();
        assert_eq!(a.resolve(0x1_0000_0000_0000), (Aperture::Shared, 0));
        assert_eq!(
            a.resolve(0x1_0000_ffff_ffff),
            (Aperture::Shared, 0xffff_ffff)
        );
        assert_eq!(a.resolve(0x1_0001_0000_0000).0, Aperture::Global);
        assert_eq!(a.resolve(0x0_ffff_ffff_ffff).0, Aperture::Global);
        assert_eq!(a.resolve(0x2_0000_0000_0008), (Aperture::Private, 8));
        assert_eq!(a.resolve(0x2_0000_ffff_ffff).0, Aperture::Private);
        assert_eq!(a.resolve(0x2_0001_0000_0000).0, Aperture::Global);
        assert_eq!(a.source(238), Some(0x2_0000_ffff_ffff));
        assert_eq!(a.source(239), None);
    }
}
