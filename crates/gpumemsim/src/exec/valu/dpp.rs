//! DPP16 and DPP8: which lane each lane reads source 0 from, and which lanes write.
//!
//! The rules (AMD's RDNA3 ISA guide, "Data Parallel Processing", as LLVM's
//! `AMDGPU::DPP::DppCtrl` and `AMDGPUModifierSyntax` describe them; `tools/DPP_VOP3P_NOTES.md`
//! §6), worked out once per instruction into a [`Remap`]:
//! - Only source 0 (the DPP dword's VGPR) is read across lanes; every other operand is the
//!   lane's own.
//! - DPP16 controls work within rows of 16 lanes (in wave32 and wave64 alike), see
//!   [`rdna3_isa::DppControl`]: `row_shl`/`row_shr` read lanes that can fall outside the row;
//!   such a source lane is *invalid*. DPP8 reads lane `sel[l & 7]` of the lane's group of 8.
//! - A source lane whose EXEC bit is 0 is read normally with `fi:1`; with `fi:0` it is
//!   *invalid* too (the brief's reading of the ISA guide; Mesa's ACO sets `bound_ctrl:1`
//!   "to read 0 from inactive lanes", which only makes sense if an inactive source is an
//!   invalid one).
//! - An invalid source lane reads 0 with `bound_ctrl:1`; with `bound_ctrl:0` (the only
//!   value DPP8 has) the lane does not execute: it keeps its destination, as a lane whose
//!   EXEC bit is 0 does.
//! - `row_mask` bit r / `bank_mask` bit b clear: the lanes of row r (16 lanes) / of bank b
//!   (lanes with `(l >> 2) & 3 == b` in every row) do not execute. wave32 uses `row_mask`
//!   bits 0 and 1.
//!
//! A lane that does not execute is, for every result, a lane whose EXEC bit is 0: its VGPRs
//! keep their values and its bit of a compare's or a carry's lane mask is written 0 (as this
//! executor writes inactive lanes' bits; for `v_cmpx` the lane leaves EXEC). The neg/abs
//! modifiers of source 0 apply to the fetched value, also to the 0 of an invalid lane.
//!
//! The GFX9 controls gfx11 dropped (`wave_shl`, `row_bcast`, ...) and the undefined
//! `dpp_ctrl` values stop the run as unimplemented rather than guess.

use rdna3_isa::{Dpp, DppControl, DppKind};

/// The lane remap of one DPP instruction.
#[derive(Clone, Copy, Debug)]
pub(super) struct Remap {
    /// Lane `l` reads source 0 from lane `from[l]` (when valid).
    pub from: [u8; 64],
    /// Lanes whose source lane is invalid (out of the row, or inactive without `fi`): they
    /// read 0 (`bound_ctrl:1`) or do not execute.
    pub invalid: u64,
    /// Lanes that execute: EXEC, the row and bank masks, and (`bound_ctrl:0`) not invalid.
    pub exec: u64,
}

/// The source lane of lane `l` under a DPP16 control, `None` when it falls outside the row;
/// `Err(())` for a control gfx11 does not define.
fn dpp16_lane(ctrl: DppControl, l: u32) -> Result<Option<u32>, ()> {
    let (r, i) = (l & !15, l & 15);
    Ok(match ctrl {
        DppControl::QuadPerm(s) => Some((l & !3) + s[(l & 3) as usize] as u32),
        DppControl::RowShl(n) => Some(i + n as u32).filter(|&j| j <= 15).map(|j| r + j),
        DppControl::RowShr(n) => i.checked_sub(n as u32).map(|j| r + j),
        DppControl::RowRor(n) => Some(r + (i.wrapping_sub(n as u32) & 15)),
        DppControl::RowMirror => Some(r + 15 - i),
        DppControl::RowHalfMirror => Some((l & !7) + 7 - (l & 7)),
        DppControl::RowShare(n) => Some(r + n as u32),
        DppControl::RowXmask(n) => Some(r + (i ^ n as u32)),
        DppControl::Unsupported(_) | DppControl::Invalid(_) => return Err(()),
    })
}

/// The lane a GFX9 wave-wide control `v` has lane `l` of a wave of `n` lanes read (AMD's
/// Vega and CDNA3 ISA guides, DPP_CTRL): `wave_shl:1` (0x130) the next lane, `wave_rol:1`
/// (0x134) the next lane around the wave, `wave_shr:1` (0x138) the previous lane, `wave_ror:1`
/// (0x13c) the previous lane around the wave — "left" as in `row_shl`, toward lower lanes;
/// `row_bcast:15` (0x142) the last lane of the previous row (rows 1-3), `row_bcast:31` (0x143)
/// lane 31 (rows 2 and 3). A lane with no source (past either end, row 0, rows 0-1) is out of
/// range, as `row_shl`'s are.
fn gfx9_lane(v: u16, l: u32, n: u32) -> Result<Option<u32>, ()> {
    let row = l / 16;
    Ok(match v {
        0x130 => Some(l + 1).filter(|&j| j < n),
        0x134 => Some((l + 1) % n),
        0x138 => l.checked_sub(1),
        0x13c => Some((l + n - 1) % n),
        0x142 => (row >= 1).then(|| row * 16 - 1),
        0x143 => (row >= 2).then_some(31),
        _ => return Err(()),
    })
}

/// The remap of `d` in a wave of `n` lanes with EXEC `exec`; `None` for an undefined control.
/// With `gfx9`, the GFX9 controls gfx1100 dropped take their GFX9 meaning ([`gfx9_lane`]).
pub(super) fn remap(d: &Dpp, n: u32, exec: u64, gfx9: bool) -> Option<Remap> {
    let mut m = Remap {
        from: [0; 64],
        invalid: 0,
        exec: 0,
    };
    let mut enabled = 0u64;
    for l in 0..n.min(64) {
        let src = match (d.kind, d.ctrl) {
            (DppKind::Dpp8, _) => Some((l & !7) + (d.sel[(l & 7) as usize] as u32 & 7)),
            (DppKind::Dpp16, Some(DppControl::Unsupported(v))) if gfx9 => {
                gfx9_lane(v, l, n).ok()?
            }
            (DppKind::Dpp16, Some(c)) => dpp16_lane(c, l).ok()?,
            (DppKind::Dpp16, None) => return None,
        };
        let masked_on = d.row_mask >> (l >> 4) & 1 == 1 && d.bank_mask >> (l >> 2 & 3) & 1 == 1;
        enabled |= (masked_on as u64) << l;
        match src {
            Some(s) if s < n && (d.fi || exec >> s & 1 == 1) => m.from[l as usize] = s as u8,
            _ => m.invalid |= 1 << l,
        }
    }
    m.exec = exec & enabled;
    if !d.bound_ctrl {
        m.exec &= !m.invalid;
    }
    Some(m)
}

/// Lane `l` of the remapped source: `row[from[l]]`, or 0 for an invalid lane.
pub(super) fn apply(m: &Remap, row: &[u64], out: &mut [u64]) {
    for (l, o) in out.iter_mut().enumerate() {
        *o = if m.invalid >> l & 1 == 1 {
            0
        } else {
            row.get(m.from[l] as usize).copied().unwrap_or(0)
        };
    }
}

#[cfg(test)]
mod gfx9_tests {
    use super::gfx9_lane;

    /// The GFX9 wave-wide controls: shifts and rotates by one lane over 64, and the row
    /// broadcasts LLVM's wave reductions use (row_bcast:15 with row mask 0xa, row_bcast:31
    /// with 0xc).
    #[test]
    fn gfx9_controls_read_the_lanes_the_guides_name() {
        let lanes = |v| {
            (0..64)
                .map(|l| gfx9_lane(v, l, 64).unwrap())
                .collect::<Vec<_>>()
        };
        let shl = lanes(0x130);
        assert_eq!((shl[0], shl[62], shl[63]), (Some(1), Some(63), None));
        assert_eq!(lanes(0x134)[63], Some(0));
        let shr = lanes(0x138);
        assert_eq!((shr[0], shr[1], shr[63]), (None, Some(0), Some(62)));
        assert_eq!(lanes(0x13c)[0], Some(63));
        let b15 = lanes(0x142);
        assert_eq!(
            (b15[3], b15[16], b15[47], b15[63]),
            (None, Some(15), Some(31), Some(47))
        );
        let b31 = lanes(0x143);
        assert_eq!((b31[20], b31[32], b31[63]), (None, Some(31), Some(31)));
        assert!(gfx9_lane(0x131, 0, 64).is_err());
    }
}
