//! Named encoding fields. Every format's layout (see [`crate::format`]) places some of these
//! at bit ranges; an [`crate::Instruction`] stores one raw value per field.

/// An encoding field, by the name AMD's ISA documents give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Field {
    /// Opcode.
    Op,
    /// Scalar destination (7 bits).
    Sdst,
    /// First scalar source (8 bits; 255 = literal follows).
    Ssrc0,
    /// Second scalar source (8 bits; 255 = literal follows).
    Ssrc1,
    /// 16-bit immediate of SOPP and SOPK.
    Simm16,
    /// The 32-bit literal dword that follows some instructions (not a bit field of the word).
    Literal,
    /// SMEM base address register pair/quad, stored as register number / 2.
    Sbase,
    /// SMEM data register.
    Sdata,
    /// Scalar offset register (SMEM: 7 bits, 0x7c = none; MUBUF/MTBUF: 8-bit scalar source).
    Soffset,
    /// Immediate offset (SMEM: 21-bit signed; FLAT: 13 bits; MUBUF/MTBUF: 12 bits).
    Offset,
    /// Globally coherent / return pre-op value (atomics).
    Glc,
    /// System level coherent.
    Slc,
    /// Device level coherent.
    Dlc,
    /// DS: access GDS instead of LDS.
    Gds,
    /// DS offset byte 0 (or low byte of the 16-bit offset).
    Offset0,
    /// DS offset byte 1 (or high byte of the 16-bit offset).
    Offset1,
    /// Vector address register.
    Addr,
    /// First vector data register.
    Data0,
    /// Second vector data register.
    Data1,
    /// Vector destination register.
    Vdst,
    /// FLAT segment: 0 flat, 1 scratch, 2 global.
    Seg,
    /// FLAT scalar address (0x7c = off).
    Saddr,
    /// SCRATCH: a VGPR address is present.
    Sve,
    /// MUBUF/MTBUF vector address.
    Vaddr,
    /// MUBUF/MTBUF vector data.
    Vdata,
    /// MUBUF/MTBUF resource descriptor quad, stored as register number / 4.
    Srsrc,
    /// Texture fail enable.
    Tfe,
    /// Vaddr holds an offset.
    Offen,
    /// Vaddr holds an index.
    Idxen,
    /// MUBUF: load into LDS.
    Lds,
    /// MTBUF data format.
    Fmt,
    /// LDSDIR attribute channel (x, y, z, w).
    AttrChan,
    /// LDSDIR attribute number.
    Attr,
    /// LDSDIR wait_vdst.
    WaitVdst,
    /// VINTERP wait_exp.
    WaitExp,
    /// VINTERP, VOP3 and VOP3P op_sel (VOP3P: bit `i` = source `i` picks its high half for
    /// the low half of the operation).
    OpSel,
    /// VINTERP and VOP3 clamp.
    Clamp,
    /// Vector-ALU source 0 (9 bits; 256+ = VGPR).
    Src0,
    /// Vector-ALU source 1 (VINTERP, VOP3).
    Src1,
    /// Vector-ALU source 2 (VINTERP, VOP3).
    Src2,
    /// VINTERP and VOP3 negate bits, one per source.
    Neg,
    /// VOP2/VOPC second source: a VGPR (8 bits).
    Vsrc1,
    /// VOP3 absolute-value bits, one per source.
    Abs,
    /// VOP3 output modifier: 1 ×2, 2 ×4, 3 ÷2.
    Omod,
    /// VOPD: the Y component's opcode (the X one is [`Field::Op`]).
    OpY,
    /// VOPD: the Y component's source 0 (9 bits; X uses [`Field::Src0`]).
    Src0Y,
    /// VOPD: the Y component's VGPR source 1 (X uses [`Field::Vsrc1`]).
    Vsrc1Y,
    /// VOPD: the Y component's destination VGPR, bits \[7:1\] (bit 0 is the complement of
    /// bit 0 of the X destination, [`Field::Vdst`]).
    VdstY,
    /// VOP3P: negate the low-half operand of each source (bit `i` = source `i`); in
    /// `v_fma_mix*` negate source `i` (printed `-x`); in `v_dot4_i32_iu8`, `v_dot8_i32_iu4`
    /// and the integer WMMA, bits 0/1 say A/B are signed (`tools/DPP_VOP3P_NOTES.md` §6.3).
    NegLo,
    /// VOP3P: negate the high-half operand of each source (bit `i` = source `i`); in
    /// `v_fma_mix*` take the absolute value of source `i` (printed `|x|`).
    NegHi,
    /// VOP3P: per source, which half feeds the high half of the operation (1 = bits
    /// \[31:16\]). A logical 3-bit value: bits 0-1 are word bits \[60:59\], bit 2 is word bit 14.
    /// In `v_fma_mix*` a 0 selects the whole source as f32, a 1 the f16 half that
    /// [`Field::OpSel`] names.
    OpSelHi,
    /// GFX9 SMEM: the offset field holds an immediate (1) or an SGPR (0).
    SmemImm,
    /// GFX9 SMEM: `soffset` adds an SGPR to the immediate offset.
    Soe,
    /// GFX9 SMEM and FLAT: the non-volatile bit (not printed by llvm-mc-19 for gfx942).
    Nv,
    /// gfx940 FLAT/MUBUF: the scope bit 0 (GFX9's `glc`), printed `sc0`.
    Sc0,
    /// gfx940 FLAT/MUBUF: the scope bit 1, printed `sc1`.
    Sc1,
    /// gfx940 FLAT/MUBUF: non-temporal (GFX9's `slc`), printed `nt`.
    Nt,
    /// gfx940 DS/FLAT/MUBUF: the data registers are AGPRs (`a0`...) rather than VGPRs.
    Acc,
    /// DPP (DPP16 and DPP8): the VGPR source 0 reads across lanes (8 bits, `vN`; a true16
    /// half `vN.l`/`vN.h` for `v_mov_b16`). The instruction word's [`Field::Src0`] holds the
    /// DPP selector then (250 DPP16, 233 DPP8, 234 DPP8 with `fi:1`).
    DppSrc0,
    /// DPP16: the 9-bit lane-selection control (`quad_perm`, `row_shl`, ...; see
    /// [`crate::dpp`]).
    DppCtrl,
    /// DPP: fetch inactive lanes (`fi:1`). DPP16: a bit of the DPP dword; DPP8: read from
    /// [`Field::Src0`] (234 = 1), and setting it picks 233/234.
    Fi,
    /// DPP16: `bound_ctrl:1`, out-of-range source lanes read 0 (else the lane is not written).
    BoundCtrl,
    /// e32 DPP16: negate bits of source 0 (bit 0, dword bit 20) and the VGPR source 1 (bit 1,
    /// dword bit 22). VOP3/VOP3P DPP forms keep these dword bits unused: [`Field::Neg`]
    /// applies there.
    DppNeg,
    /// e32 DPP16: absolute-value bits of source 0 (bit 0, dword bit 21) and source 1 (bit 1,
    /// dword bit 23).
    DppAbs,
    /// DPP16: bank mask, bit `b` enables lanes with `(lane >> 2) & 3 == b` in every row.
    BankMask,
    /// DPP16: row mask, bit `r` enables the 16 lanes of row `r`.
    RowMask,
    /// DPP8: eight 3-bit lane selects, select `i` (bits `3i+2..3i`) for lane `i` of each group
    /// of eight.
    Dpp8Sel,
}

/// Number of [`Field`] variants.
pub const FIELD_COUNT: usize = Field::Dpp8Sel as usize + 1;

impl Field {
    /// Which vector-ALU source (0-2) this field is: `src0`, `src1`/`vsrc1`, else 2.
    pub(crate) fn source_index(self) -> usize {
        match self {
            Field::Src0 => 0,
            Field::Src1 | Field::Vsrc1 => 1,
            _ => 2,
        }
    }

    /// The field's name as `gpumemsim explain` shows it.
    pub fn name(self) -> &'static str {
        use Field::*;
        match self {
            Op => "op",
            Sdst => "sdst",
            Ssrc0 => "ssrc0",
            Ssrc1 => "ssrc1",
            Simm16 => "simm16",
            Literal => "literal",
            Sbase => "sbase",
            Sdata => "sdata",
            Soffset => "soffset",
            Offset => "offset",
            Glc => "glc",
            Slc => "slc",
            Dlc => "dlc",
            Gds => "gds",
            Offset0 => "offset0",
            Offset1 => "offset1",
            Addr => "addr",
            Data0 => "data0",
            Data1 => "data1",
            Vdst => "vdst",
            Seg => "seg",
            Saddr => "saddr",
            Sve => "sve",
            Vaddr => "vaddr",
            Vdata => "vdata",
            Srsrc => "srsrc",
            Tfe => "tfe",
            Offen => "offen",
            Idxen => "idxen",
            Lds => "lds",
            Fmt => "format",
            AttrChan => "attr_chan",
            Attr => "attr",
            WaitVdst => "wait_vdst",
            WaitExp => "wait_exp",
            OpSel => "op_sel",
            Clamp => "clamp",
            Src0 => "src0",
            Src1 => "src1",
            Src2 => "src2",
            Neg => "neg",
            Vsrc1 => "vsrc1",
            Abs => "abs",
            Omod => "omod",
            OpY => "opy",
            Src0Y => "src0y",
            Vsrc1Y => "vsrc1y",
            VdstY => "vdsty",
            NegLo => "neg_lo",
            NegHi => "neg_hi",
            OpSelHi => "op_sel_hi",
            SmemImm => "imm",
            Soe => "soe",
            Nv => "nv",
            Sc0 => "sc0",
            Sc1 => "sc1",
            Nt => "nt",
            Acc => "acc",
            DppSrc0 => "dpp_src0",
            DppCtrl => "dpp_ctrl",
            Fi => "fi",
            BoundCtrl => "bound_ctrl",
            DppNeg => "dpp_neg",
            DppAbs => "dpp_abs",
            BankMask => "bank_mask",
            RowMask => "row_mask",
            Dpp8Sel => "dpp8_sel",
        }
    }

    /// Whether the field lives in the DPP dword that follows a DPP instruction's word
    /// (rather than in the word itself).
    #[inline]
    pub fn in_dpp_dword(self) -> bool {
        (self as u8) >= Field::DppSrc0 as u8
    }
}
