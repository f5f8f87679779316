//! Sums of absolute differences (`V_SAD_*`, `V_MSAD_U8`, `V_QSAD_PK_U16_U8`,
//! `V_MQSAD_PK_U16_U8`, `V_MQSAD_U32_U8`) and `V_LERP_U8`, per the pseudocode.
//!
//! The sums wrap ("Overflow into the upper bits is allowed"); with VOP3 `clamp` they saturate
//! to their result's range (u32, or u16 for each packed element), our reading of `clamp` on an
//! integer result (see [`super::int`]).

use super::shape::Ctx;
use crate::wave::Wave;

/// A SAD-family operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SadOp {
    SadU8,
    SadHiU8,
    SadU16,
    SadU32,
    MsadU8,
    QsadPkU16U8,
    MqsadPkU16U8,
    LerpU8,
}

/// Σ |a.byte[i] - b.byte[i]| over the bytes (skipping bytes where b is 0 when `masked`).
fn sad8(a: u32, b: u32, masked: bool) -> u64 {
    (0..4)
        .map(|i| {
            let (x, y) = ((a >> (8 * i)) as u8, (b >> (8 * i)) as u8);
            if masked && y == 0 {
                0
            } else {
                x.abs_diff(y) as u64
            }
        })
        .sum()
}

impl SadOp {
    /// One lane.
    #[inline]
    pub fn eval(self, s: [u64; 3], cx: &Ctx) -> u64 {
        use SadOp::*;
        let (a, b, c) = (s[0] as u32, s[1] as u32, s[2] as u32);
        let u32s = |t: u64| {
            if cx.clamp {
                t.min(u32::MAX as u64)
            } else {
                t as u32 as u64
            }
        };
        match self {
            SadU8 => u32s(sad8(a, b, false) + c as u64),
            SadHiU8 => u32s((sad8(a, b, false) << 16) + c as u64),
            SadU16 => {
                let d = |sh: u32| ((a >> sh) as u16).abs_diff((b >> sh) as u16) as u64;
                u32s(d(0) + d(16) + c as u64)
            }
            SadU32 => u32s(a.abs_diff(b) as u64 + c as u64),
            MsadU8 => u32s(sad8(a, b, true) + c as u64),
            QsadPkU16U8 | MqsadPkU16U8 => {
                let masked = self == MqsadPkU16U8;
                (0..4).fold(0u64, |acc, k| {
                    let window = (s[0] >> (8 * k)) as u32;
                    let t = sad8(window, b, masked) + (s[2] >> (16 * k) & 0xffff);
                    let t = if cx.clamp { t.min(0xffff) } else { t & 0xffff };
                    acc | t << (16 * k)
                })
            }
            LerpU8 => (0..4).fold(0u64, |acc, i| {
                let byte = |x: u32| (x >> (8 * i) & 0xff) as u64;
                let round = (c >> (8 * i) & 1) as u64;
                acc | ((byte(a) + byte(b) + round) >> 1) << (8 * i)
            }),
        }
    }
}

/// `V_MQSAD_U32_U8 vdst[4], src0[2], src1, src2[4]`: four masked SADs of byte windows of the
/// 64-bit `src0` against `src1`, each added to one dword of the 128-bit `src2`, for every lane
/// in EXEC. `src0` and `src1` are read by `read(source, lane)`; `src2` is the VGPR quad
/// `src2_vgpr`.
pub(super) fn mqsad_u32_u8(
    w: &mut Wave,
    vdst: u32,
    src2_vgpr: u32,
    clamp: bool,
    read: impl Fn(&Wave, usize, u32) -> u64,
) {
    let exec = w.exec();
    let mut out = [[0u32; 4]; 64];
    let mut lanes = exec;
    while lanes != 0 {
        let l = lanes.trailing_zeros();
        lanes &= lanes - 1;
        let (s0, s1) = (read(w, 0, l), read(w, 1, l) as u32);
        for (k, o) in out[l as usize].iter_mut().enumerate() {
            let window = (s0 >> (8 * k)) as u32;
            let t = sad8(window, s1, true) + w.vgpr(src2_vgpr + k as u32, l) as u64;
            *o = if clamp {
                t.min(u32::MAX as u64) as u32
            } else {
                t as u32
            };
        }
    }
    let mut lanes = exec;
    while lanes != 0 {
        let l = lanes.trailing_zeros();
        lanes &= lanes - 1;
        for (k, &v) in out[l as usize].iter().enumerate() {
            w.set_vgpr(vdst + k as u32, l, v);
        }
    }
}
