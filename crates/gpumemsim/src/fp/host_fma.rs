//! The host's fused multiply-add instructions, where the CPU has them.
//!
//! `f32::mul_add`/`f64::mul_add` are IEEE's fusedMultiplyAdd, correctly rounded, on every
//! target; without the `fma` target feature (this crate's default build) each is a call to
//! the software `fmaf`/`fma`. [`with_host_fma`] runs code compiled with the feature when the
//! CPU has it, so the `mul_add`s it inlines are single instructions. Both give the same bits
//! (the correctly rounded result is unique); the tests compare them on random and edge
//! inputs.
//!
//! The only `unsafe` outside `banks::avx2` is here: calling the function compiled with the
//! feature, which is sound once the CPU reports the feature.
#![allow(unsafe_code)]

/// Runs `f`, compiled for the host's FMA instructions when the CPU has them (x86-64 FMA3,
/// detected at run time: a cached flag's load), else as compiled. `f` should be small
/// enough to inline (a lane loop whose `mul_add`s inline), or it gains nothing.
///
/// Where the CPU has AVX2 too (nearly every CPU with FMA3), `f` is compiled for both, so
/// that a lane loop's integer work (the denormal and NaN rules on the bits) runs eight lanes
/// to a register as its float work does.
#[inline(always)]
pub fn with_host_fma<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: as below, for the features `fma_avx2_enabled` is compiled for, which
            // the detections just established.
            return unsafe { fma_avx2_enabled(f) };
        }
        // SAFETY: calling a function compiled with `target_feature(enable = "fma")` is sound
        // exactly when the CPU running it has FMA, which the detection just established;
        // `fma_enabled` has no other requirement.
        return unsafe { fma_enabled(f) };
    }
    f()
}

/// `f()`, with the FMA instructions enabled for what it inlines.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn fma_enabled<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// `f()`, with the FMA and AVX2 instructions enabled for what it inlines.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma,avx2")]
fn fma_avx2_enabled<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(test)]
mod tests {
    use super::with_host_fma;
    use crate::fp::arith::{fma32, fma64};
    use crate::fp::{DenormCtl, EDGE_F32};

    /// A small deterministic generator (xorshift64*).
    fn rng(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed | 1;
        move || {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            x.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
    }

    /// A random f32 bit pattern, biased towards exponents where products and sums round,
    /// cancel, overflow or become denormal, and towards the edge values.
    fn f32_bits(next: &mut impl FnMut() -> u64) -> u32 {
        let r = next();
        match r % 4 {
            0 => EDGE_F32[(r >> 8) as usize % EDGE_F32.len()],
            1 => r as u32,
            // Exponents near 1.0 (sums that cancel and round).
            2 => (r >> 8) as u32 & 0x807f_ffff | (0x3c00_0000 + (((r >> 40) as u32 % 16) << 23)),
            // Tiny exponents (denormal products and results).
            _ => (r >> 8) as u32 & 0x80ff_ffff,
        }
    }

    /// Every denormal control (inputs and outputs kept or flushed).
    fn ctls() -> [DenormCtl; 4] {
        [
            DenormCtl::from_mode_f32(0x00),
            DenormCtl::from_mode_f32(0x10),
            DenormCtl::from_mode_f32(0x20),
            DenormCtl::from_mode_f32(0x30),
        ]
    }

    /// The FMA instructions and the software `fmaf` give the same f32 bits under every
    /// denormal control, NaN inputs and results included.
    #[test]
    fn host_fma32_matches_the_software_path() {
        let mut next = rng(0x05ee_df32);
        for ctl in ctls() {
            for &a in &EDGE_F32 {
                for &b in &EDGE_F32 {
                    for &c in &EDGE_F32 {
                        let want = fma32(a, b, c, ctl);
                        assert_eq!(with_host_fma(|| fma32(a, b, c, ctl)), want);
                    }
                }
            }
            for _ in 0..200_000 {
                let [a, b, c] = [0; 3].map(|_| f32_bits(&mut next));
                let want = fma32(a, b, c, ctl);
                let got = with_host_fma(|| fma32(a, b, c, ctl));
                assert_eq!(got, want, "fma({a:#x}, {b:#x}, {c:#x}) {ctl:?}");
            }
        }
    }

    /// The same for f64.
    #[test]
    fn host_fma64_matches_the_software_path() {
        let mut next = rng(0x05ee_df64);
        let edge = EDGE_F32.map(|x| {
            let f = f32::from_bits(x) as f64;
            if f.is_nan() {
                (x as u64) << 32 | 0x0008_0000_1234_5678
            } else if x & 0x7f80_0000 == 0 && x & 0x7f_ffff != 0 {
                (x as u64 & 0x8000_0000) << 32 | x as u64 & 0x7f_ffff
            } else {
                f.to_bits()
            }
        });
        for ctl in [0x00, 0x40, 0x80, 0xc0].map(DenormCtl::from_mode_f64) {
            for &a in &edge {
                for &b in &edge {
                    for &c in &edge {
                        let want = fma64(a, b, c, ctl);
                        assert_eq!(with_host_fma(|| fma64(a, b, c, ctl)), want);
                    }
                }
            }
            for _ in 0..200_000 {
                let r = [next(), next(), next()];
                let [a, b, c] = r.map(|x| match x % 3 {
                    0 => edge[(x >> 8) as usize % edge.len()],
                    1 => x,
                    _ => x & 0x800f_ffff_ffff_ffff | (0x3f00 + (x >> 52) % 0x100) << 52,
                });
                let want = fma64(a, b, c, ctl);
                let got = with_host_fma(|| fma64(a, b, c, ctl));
                assert_eq!(got, want, "fma({a:#x}, {b:#x}, {c:#x}) {ctl:?}");
            }
        }
    }
}
