//! Fuzz actions on the machine (`gpumemsim`): the code-object loader, the executor on short
//! random programs, the bank model, and the launch argument parser.
//!
//! Shared by `fuzz/fuzz_targets/{loader,exec,banks,launch}.rs` and
//! `crates/gpumemsim/tests/fuzz_machine.rs` (included by path, next to `bytes.rs` as
//! `super::bytes`).

#![allow(dead_code)]

use super::bytes::Bytes;
use gpumemsim::banks::query::{lane_values, operation, parse_lanes, wave_size};
use gpumemsim::banks::{
    suggest_layouts, Access, AccessCost, AccessShape, BankModel, Batch, CostUnits, WaveSize,
    PRESET_NAMES,
};
use gpumemsim::exec::{Device, RunConfig};
use gpumemsim::isa::asm::AsmLine;
use gpumemsim::isa::parse::parse_instruction;
use gpumemsim::isa::print::Hints;
use gpumemsim::isa::Instruction;
use gpumemsim::launch::{check_args, launch, lay_out, program, ElementType, KernelArg, Launch};
use gpumemsim::loader::{ArgMetadata, CodeObject, KernelMetadata};

/// Instructions a wave of the executor target may run before it is stopped.
pub const EXEC_MAX_STEPS: u64 = 64;

/// Bytes of kernarg segment the loader target lets a mutated object's metadata ask for
/// (`lay_out` allocates what the metadata says; see the README's Fuzzing section).
pub const KERNARG_LIMIT: u64 = 1 << 20;

// ---------------------------------------------------------------------------------------
// Loader

/// Parses `data` as a code object; for each kernel found, decodes its code, asks the
/// descriptor and metadata what the launch asks, lays out arguments matching the metadata and
/// runs it briefly (one workgroup of one wave, a few steps).
pub fn loader(data: &[u8]) {
    let Ok(obj) = CodeObject::parse(data) else {
        return;
    };
    let _ = obj.choose(None);
    for k in &obj.kernels {
        let _ = obj.kernel(&k.name);
        let _ = k.display_name();
        let _ = k.answers_to("main");
        for off in (0..k.code.len().min(4096)).step_by(4) {
            let _ = k.frames_at(off as u32);
            let _ = k.source_at(off as u32);
        }
        let d = &k.descriptor;
        let _ = (
            d.initial_mode(),
            d.user_sgpr_count(),
            d.initial_v0([1, 2, 3]),
        );
        let _ = program(k);
        let Some(meta) = &k.metadata else { continue };
        let end = meta
            .args
            .iter()
            .map(|a| a.offset as u64 + a.size as u64)
            .max()
            .unwrap_or(0)
            .max(meta.kernarg_segment_size as u64);
        if end > KERNARG_LIMIT {
            continue;
        }
        let args: Vec<KernelArg> = meta
            .args
            .iter()
            .filter(|a| !a.is_hidden())
            .map(|a| match a.value_kind.as_str() {
                "global_buffer" => KernelArg::Buffer(vec![0; 64]),
                "dynamic_shared_pointer" => KernelArg::Local(64),
                _ => KernelArg::Scalar(vec![1; (a.size as usize).min(64)]),
            })
            .collect();
        let wave = if d.wave32() { 32 } else { 64 };
        let l = Launch {
            block: [wave, 1, 1],
            args,
            config: RunConfig {
                max_steps: 256,
                threads: 1,
                ..RunConfig::default()
            },
            ..Launch::new(k)
        };
        let _ = launch(&l);
    }
}

// ---------------------------------------------------------------------------------------
// Executor

/// Instruction templates of the executor target: `%v` a VGPR (v0..v15), `%w` a 64-bit VGPR
/// pair, `%x` a 96-bit and `%q` a 128-bit VGPR tuple, `%s` an SGPR or special scalar
/// register, `%d` an aligned SGPR pair, `%o` a 16-bit offset, `%b` an 8-bit offset, `%i` an
/// immediate (inline constant or literal), `%k` a 16-bit immediate, `%r` a short branch
/// offset (dwords, signed).
pub const TEMPLATES: &[&str] = &[
    // DS
    "ds_load_b32 %v, %v offset:%o",
    "ds_load_b64 %w, %v offset:%o",
    "ds_load_b96 %x, %v offset:%o",
    "ds_load_b128 %q, %v offset:%o",
    "ds_load_u8 %v, %v offset:%o",
    "ds_load_i16 %v, %v offset:%o",
    "ds_load_u8_d16_hi %v, %v offset:%o",
    "ds_store_b32 %v, %v offset:%o",
    "ds_store_b64 %v, %w offset:%o",
    "ds_store_b96 %v, %x offset:%o",
    "ds_store_b128 %v, %q offset:%o",
    "ds_store_b8 %v, %v offset:%o",
    "ds_store_b16_d16_hi %v, %v offset:%o",
    "ds_load_2addr_b32 %w, %v offset0:%b offset1:%b",
    "ds_load_2addr_stride64_b64 %q, %v offset0:%b offset1:%b",
    "ds_store_2addr_b32 %v, %v, %v offset0:%b offset1:%b",
    "ds_store_2addr_stride64_b64 %v, %w, %w offset0:%b offset1:%b",
    "ds_add_u32 %v, %v offset:%o",
    "ds_add_rtn_u32 %v, %v, %v offset:%o",
    "ds_sub_rtn_u32 %v, %v, %v",
    "ds_max_i32 %v, %v",
    "ds_min_rtn_u32 %v, %v, %v",
    "ds_inc_rtn_u32 %v, %v, %v",
    "ds_dec_u32 %v, %v",
    "ds_and_b32 %v, %v",
    "ds_or_rtn_b32 %v, %v, %v",
    "ds_xor_b32 %v, %v",
    "ds_mskor_b32 %v, %v, %v",
    "ds_storexchg_rtn_b32 %v, %v, %v",
    "ds_storexchg_2addr_rtn_b32 %w, %v, %v, %v offset0:%b offset1:%b",
    "ds_cmpstore_b32 %v, %v, %v",
    "ds_cmpstore_rtn_b32 %v, %v, %v, %v",
    "ds_add_u64 %v, %w",
    "ds_max_rtn_u64 %w, %v, %w",
    "ds_cmpstore_rtn_b64 %w, %v, %w, %w",
    "ds_add_f32 %v, %v",
    "ds_add_rtn_f32 %v, %v, %v",
    "ds_min_f32 %v, %v",
    "ds_max_rtn_f64 %w, %v, %w",
    "ds_cmpstore_f32 %v, %v, %v",
    "ds_swizzle_b32 %v, %v offset:%o",
    "ds_permute_b32 %v, %v, %v",
    "ds_bpermute_b32 %v, %v, %v offset:%o",
    "ds_append %v",
    "ds_consume %v offset:%o",
    "ds_load_addtid_b32 %v offset:%o",
    "ds_store_addtid_b32 %v offset:%o",
    "ds_condxchg32_rtn_b64 %w, %v, %w",
    "ds_bvh_stack_rtn_b32 %v, %v, %v, %q offset:%o",
    "ds_gws_init %v offset:%o gds",
    "ds_gws_barrier %v offset:%o gds",
    "ds_gws_sema_v offset:%o gds",
    "ds_gws_sema_p offset:%o gds",
    "ds_gws_sema_br %v offset:%o gds",
    "ds_add_gs_reg_rtn %w, %v offset:%o gds",
    "ds_ordered_count %v, %v offset:%o gds",
    "ds_add_u32 %v, %v offset:%o gds",
    "ds_load_b32 %v, %v offset:%o gds",
    "ds_nop",
    // VALU
    "v_mov_b32 %v, %i",
    "v_mov_b32 %v, %s",
    "v_mov_b32 %v, %v",
    "v_add_nc_u32 %v, %v, %v",
    "v_sub_nc_u32 %v, %i, %v",
    "v_mul_lo_u32 %v, %v, %v",
    "v_mul_u32_u24 %v, %v, %v",
    "v_lshlrev_b32 %v, %i, %v",
    "v_lshrrev_b32 %v, %v, %v",
    "v_and_b32 %v, %v, %v",
    "v_or_b32 %v, %s, %v",
    "v_xor_b32 %v, %i, %v",
    "v_add_co_u32 %v, vcc_lo, %v, %v",
    "v_add_co_ci_u32 %v, vcc_lo, %v, %v, vcc_lo",
    "v_cndmask_b32 %v, %v, %v, vcc_lo",
    "v_cmp_gt_u32 vcc_lo, %v, %v",
    "v_cmp_eq_u32 %s, %v, %i",
    "v_cmpx_lt_u32 %v, %v",
    "v_cmp_class_f32 vcc_lo, %v, %v",
    "v_add_f32 %v, %v, %v",
    "v_mul_f32 %v, %i, %v",
    "v_fma_f32 %v, %v, %v, %v",
    "v_fmac_f32 %v, %v, %v",
    "v_max_f32 %v, %v, %v",
    "v_rcp_f32 %v, %v",
    "v_sqrt_f32 %v, %v",
    "v_exp_f32 %v, %v",
    "v_cvt_f32_u32 %v, %v",
    "v_cvt_u32_f32 %v, %v",
    "v_cvt_f16_f32 %v, %v",
    "v_add_f64 %w, %w, %w",
    "v_div_scale_f32 %v, vcc_lo, %v, %v, %v",
    "v_div_fmas_f32 %v, %v, %v, %v",
    "v_mad_u64_u32 %w, null, %v, %v, %w",
    "v_lshlrev_b64 %w, %i, %w",
    "v_bfe_u32 %v, %v, %i, %i",
    "v_alignbit_b32 %v, %v, %v, %i",
    "v_sad_u32 %v, %v, %v, %v",
    "v_add_nc_u16 %v, %v, %v",
    "v_pk_add_f16 %v, %v, %v",
    "v_pk_mul_lo_u16 %v, %v, %v",
    "v_dot2_f32_f16 %v, %v, %v, %v",
    "v_fma_mix_f32 %v, %v, %v, %v",
    "v_readfirstlane_b32 %s, %v",
    "v_readlane_b32 %s, %v, %s",
    "v_writelane_b32 %v, %s, %i",
    "v_mbcnt_lo_u32_b32 %v, -1, %v",
    "v_mbcnt_hi_u32_b32 %v, -1, %v",
    "v_permlane16_b32 %v, %v, %s, %s",
    "v_permlanex16_b32 %v, %v, %s, %s",
    "v_movrels_b32 %v, %v",
    "v_movreld_b32 %v, %v",
    "v_mov_b32_dpp %v, %v quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf",
    "v_add_nc_u32_dpp %v, %v, %v row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1",
    "v_mov_b32_dpp %v, %v row_xmask:5 row_mask:0xf bank_mask:0xf",
    "v_mov_b32_dpp %v, %v dpp8:[7,6,5,4,3,2,1,0]",
    "v_wmma_f32_16x16x16_f16 v[16:23], v[24:31], v[24:31], v[16:23]",
    "lds_param_load %v, attr0.x wait_vdst:0",
    "lds_direct_load %v wait_vdst:0",
    "v_interp_p10_f32 %v, %v, %v, %v wait_exp:0",
    // SALU
    "s_mov_b32 %s, %i",
    "s_mov_b32 %s, %s",
    "s_movk_i32 %s, %k",
    "s_mov_b64 %d, %d",
    "s_add_u32 %s, %s, %s",
    "s_addc_u32 %s, %s, %i",
    "s_sub_i32 %s, %s, %i",
    "s_mul_i32 %s, %s, %s",
    "s_lshl_b32 %s, %s, %i",
    "s_lshr_b64 %d, %d, %i",
    "s_and_b32 %s, %s, %s",
    "s_or_b32 %s, %i, %s",
    "s_xor_b64 %d, %d, %d",
    "s_not_b32 %s, %s",
    "s_bfe_u32 %s, %s, %i",
    "s_bcnt1_i32_b32 %s, %s",
    "s_ff1_i32_b32 %s, %s",
    "s_cmp_eq_u32 %s, %s",
    "s_cmp_lt_i32 %s, %i",
    "s_cmpk_gt_u32 %s, %k",
    "s_bitcmp1_b32 %s, %i",
    "s_cselect_b32 %s, %s, %s",
    "s_and_saveexec_b32 %s, %s",
    "s_or_saveexec_b64 %d, %d",
    "s_mov_b32 m0, %s",
    "s_mov_b32 exec_lo, %s",
    "s_mov_b64 exec, %d",
    "s_getreg_b32 %s, hwreg(HW_REG_MODE)",
    "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), %i",
    "s_getreg_b32 %s, hwreg(HW_REG_HW_ID1)",
    "s_waitcnt lgkmcnt(0)",
    "s_waitcnt vmcnt(0) lgkmcnt(0)",
    "s_barrier",
    "s_nop %b",
    "s_sleep 1",
    "s_delay_alu instid0(VALU_DEP_1)",
    "s_sendmsg sendmsg(MSG_RTN_GET_REALTIME)",
    "s_sendmsg_rtn_b32 %s, sendmsg(MSG_RTN_GET_REALTIME)",
    "s_endpgm",
    // Scalar and vector memory
    "s_load_b32 %s, %d, %k",
    "s_load_b64 %d, %d, 0x0",
    "s_buffer_load_b32 %s, s[0:3], %k",
    "s_dcache_inv",
    "global_load_b32 %v, %w, off offset:%b",
    "global_store_b32 %w, %v, off",
    "global_atomic_add_u32 %v, %w, %v, off glc",
    "global_load_b32 %v, %v, %d",
    "flat_load_b32 %v, %w",
    "flat_store_b32 %w, %v",
    "scratch_load_b32 %v, %v, off",
    "scratch_store_b32 off, %v, %s offset:%b",
    "buffer_load_b32 %v, off, s[0:3], 0",
    "buffer_store_b32 %v, %v, s[4:7], %s offen",
    "buffer_atomic_add_u32 %v, %v, s[0:3], 0 idxen glc",
    "tbuffer_load_format_x %v, off, s[0:3], 0 format:[BUF_FMT_32_FLOAT]",
    "buffer_load_lds_b32 off, s[0:3], 0",
    // Branches
    "s_branch %r",
    "s_cbranch_scc0 %r",
    "s_cbranch_scc1 %r",
    "s_cbranch_vccz %r",
    "s_cbranch_vccnz %r",
    "s_cbranch_execz %r",
    "s_cbranch_execnz %r",
];

/// Scalar operands of the templates besides s0..s15.
const SCALARS: [&str; 8] = [
    "m0", "vcc_lo", "vcc_hi", "exec_lo", "exec_hi", "null", "s100", "scc",
];

/// Immediates: inline constants and literals.
const IMMS: [&str; 16] = [
    "0",
    "1",
    "2",
    "4",
    "-1",
    "-16",
    "64",
    "0.5",
    "-4.0",
    "1.0",
    "0x3f800000",
    "0x7fc00000",
    "0xffff",
    "0x10000",
    "0x80000000",
    "31",
];

/// The template `t` with its placeholders filled from `b`.
pub fn fill(t: &str, b: &mut Bytes) -> String {
    let mut out = String::with_capacity(t.len() + 16);
    let mut chars = t.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let r = b.u8();
        match chars.next() {
            Some('v') => out.push_str(&format!("v{}", r & 15)),
            Some('w') => out.push_str(&format!("v[{0}:{1}]", r % 15, r % 15 + 1)),
            Some('x') => out.push_str(&format!("v[{0}:{1}]", r % 14, r % 14 + 2)),
            Some('q') => out.push_str(&format!("v[{0}:{1}]", r % 13, r % 13 + 3)),
            Some('s') if r < 224 => out.push_str(&format!("s{}", r & 15)),
            Some('s') => out.push_str(SCALARS[r as usize & 7]),
            Some('d') => out.push_str(&format!("s[{0}:{1}]", (r & 7) * 2, (r & 7) * 2 + 1)),
            Some('o') => {
                out.push_str(&(u16::from_le_bytes([r, b.u8()]) & pick_mask(r)).to_string())
            }
            Some('b') => out.push_str(&r.to_string()),
            Some('i') => out.push_str(IMMS[r as usize & 15]),
            Some('k') => out.push_str(&format!("0x{:x}", u16::from_le_bytes([r, b.u8()]) & 0xfffc)),
            Some('r') => out.push_str(&((r as i8 % 6) as i32).to_string()),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
}

/// Mostly small offsets (inside a small LDS), sometimes any 16-bit one.
fn pick_mask(r: u8) -> u16 {
    if r & 0x80 == 0 {
        0x3fc
    } else {
        0xffff
    }
}

/// Instructions the executor target leaves out because of a known, reported bug, so that
/// `cargo test` and fuzz runs go on finding new ones; empty once they are fixed
/// (`GPUMEMSIM_FUZZ_ALL=1` puts them back meanwhile). The one the target found,
/// `ds_gws_sema_br` overflowing `Gws::sema_release`'s sum, is fixed (tests/hostile.rs).
pub const KNOWN_BUGS: &[&str] = &[];

fn known_bug(inst: &Instruction) -> bool {
    KNOWN_BUGS.contains(&inst.mnemonic()) && std::env::var_os("GPUMEMSIM_FUZZ_ALL").is_none()
}

/// A short program from `b`: template lines with random operands, or (one in eight) a raw
/// instruction word decoded from the input, then `s_endpgm`.
pub fn program_from(b: &mut Bytes) -> Vec<AsmLine> {
    let n = 1 + b.below(24);
    let mut insts: Vec<Instruction> = Vec::with_capacity(n + 1);
    for _ in 0..n {
        let sel = b.u8();
        if sel >= 224 {
            let raw = b.take(12);
            if let Ok((inst, _)) = Instruction::decode(raw) {
                if !known_bug(&inst) {
                    insts.push(inst);
                }
            }
            continue;
        }
        let t = TEMPLATES[(sel as usize | (b.u8() as usize) << 8) % TEMPLATES.len()];
        let text = fill(t, b);
        if let Ok(p) = parse_instruction(&text) {
            if !known_bug(&p.inst) {
                insts.push(p.inst);
            }
        }
    }
    insts.push(parse_instruction("s_endpgm").expect("s_endpgm").inst);
    let mut address = 0u32;
    insts
        .into_iter()
        .enumerate()
        .map(|(i, inst)| {
            let size = inst.size() as u32;
            let line = AsmLine {
                line: i + 1,
                address,
                inst,
                hints: Hints::default(),
                original: None,
            };
            address += size;
            line
        })
        .collect()
}

/// The configuration and program `exec` runs for `data` (to report a failing input).
pub fn describe_exec(data: &[u8]) -> String {
    let (cfg, lines, _) = exec_setup(data);
    let mut out = format!(
        "wave_size {} waves {} workgroups {} lds_size {} align {:?} scratch_size {} seed {} max_steps {}\n",
        cfg.wave_size, cfg.waves, cfg.workgroups, cfg.lds_size, cfg.align, cfg.scratch_size, cfg.seed, cfg.max_steps
    );
    for l in &lines {
        out += &format!("  {:4x}: {}\n", l.address, l.text());
    }
    out
}

fn exec_setup(data: &[u8]) -> (RunConfig, Vec<AsmLine>, Bytes<'_>) {
    let mut b = Bytes::new(data);
    let flags = b.u8();
    let cfg = RunConfig {
        wave_size: if flags & 1 == 1 { 64 } else { 32 },
        waves: 1 + (flags >> 1 & 3) as u32,
        workgroups: 1 + (flags >> 3 & 1) as u32,
        lds_size: [1024, 4096, 65536, 256][(flags >> 4 & 3) as usize],
        align: if flags & 0x40 == 0 {
            gpumemsim::lds::AlignMode::Dword
        } else {
            gpumemsim::lds::AlignMode::Unaligned
        },
        scratch_size: if flags & 0x80 == 0 { 0 } else { 64 },
        seed: b.u8() as u64,
        max_steps: EXEC_MAX_STEPS,
        threads: 1,
        ..RunConfig::default()
    };
    // Placement: CU or WGP mode, one or two WGPs, the occupancy limit or 1-2 waves per SIMD
    // (workgroups then wait for slots).
    let place = b.u8();
    let cfg = RunConfig {
        lds_mode: if place & 1 == 0 {
            gpumemsim::lds::LdsMode::Cu
        } else {
            gpumemsim::lds::LdsMode::Wgp
        },
        wgps: 1 + (place >> 1 & 1) as u32,
        waves_per_simd: (place >> 2 & 3).min(2) as u32,
        ..cfg
    };
    let lines = program_from(&mut b);
    (cfg, lines, b)
}

/// Runs a random short program on a small device with random registers.
pub fn exec(data: &[u8]) {
    let (cfg, lines, mut b) = exec_setup(data);
    let Ok(mut dev) = Device::new(&cfg, lines.len()) else {
        return;
    };
    // Registers: s0..s15 and v0..v15 as `lane * k + c` (or a random value per lane), M0, EXEC.
    let sregs: Vec<u32> = (0..16).map(|_| b.interesting_u32()).collect();
    let vregs: Vec<(u32, u32, bool)> = (0..16)
        .map(|_| (b.interesting_u32(), b.interesting_u32(), b.u8() < 32))
        .collect();
    let m0 = b.interesting_u32();
    let exec = if b.u8() < 64 { Some(b.u64()) } else { None };
    let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ b.u64();
    for w in dev.waves_mut().iter_mut() {
        for (r, &v) in sregs.iter().enumerate() {
            w.set_sreg(r as u32, v);
        }
        for (r, &(k, c, random)) in vregs.iter().enumerate() {
            for lane in 0..w.size {
                let v = if random {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed as u32
                } else {
                    lane.wrapping_mul(k).wrapping_add(c)
                };
                w.set_vgpr(r as u32, lane, v);
            }
        }
        w.set_m0(m0);
        if let Some(e) = exec {
            w.set_exec(e);
        }
    }
    let _ = dev.run(&lines, &cfg);
}

// ---------------------------------------------------------------------------------------
// Bank model

/// AMD operations of the bank target (aliases, 2addr, sub-dword, atomics, and names that are
/// not accesses).
const AMD_OPS: [&str; 20] = [
    "ds_load_b32",
    "ds_load_b64",
    "ds_load_b96",
    "ds_load_b128",
    "ds_store_b32",
    "ds_store_b128",
    "ds_load_2addr_b32",
    "ds_load_2addr_stride64_b64",
    "ds_store_2addr_b64",
    "ds_storexchg_2addr_rtn_b32",
    "ds_add_u32",
    "ds_add_rtn_u64",
    "ds_load_u8",
    "ds_store_b16",
    "DS_READ_B64",
    "ds_write2_b32",
    "ds_bpermute_b32",
    "ds_gws_init",
    "v_add_f32",
    "lds.32",
];

/// NVIDIA operations of the bank target.
const NV_OPS: [&str; 8] = [
    "lds.32",
    "lds.64",
    "lds.128",
    "sts.32",
    "sts.64",
    "sts.128",
    "lds.16",
    "ds_load_b32",
];

/// Costs one access (and a batch of it) on a preset, from addresses given as raw values, as a
/// stride pattern, or as expression text (`lane_values`, what `gpumemsim banks --addr`
/// takes). The fast cost, the breakdown and the batch must agree.
pub fn banks(data: &[u8]) {
    let mut b = Bytes::new(data);
    let Some(input) = BankInput::read(&mut b) else {
        return;
    };
    let two = input.a1.is_some();
    let a1 = input.a1.clone().unwrap_or_default();
    let access = Access {
        shape: input.shape,
        addrs: &input.a0[..],
        addrs1: two.then_some(&a1[..]),
    };
    let Some(cost) = check_cost_and_report(&input.model, &access) else {
        return;
    };
    check_narrow_and_batch(&input.model, &access, cost);
    if input.suggest && input.shape.wave == WaveSize::Wave32 {
        if let Ok(s) = suggest_layouts(&input.model, &access, 4) {
            for sug in s {
                let _ = sug.layout.expression();
            }
        }
    }
}

/// One bank-model access read from the fuzzer's bytes: a preset, an operation, a wave, its
/// active lanes and one or two address lists.
struct BankInput {
    model: BankModel,
    shape: AccessShape,
    a0: Vec<u64>,
    /// The second addresses of a 2addr operation.
    a1: Option<Vec<u64>>,
    /// Also ask for layout suggestions.
    suggest: bool,
}

impl BankInput {
    /// Reads an access the way the CLI's options would give it; `None` for input the
    /// option parsers refuse (which they must do without panicking).
    fn read(b: &mut Bytes) -> Option<BankInput> {
        let model = BankModel::preset(b.pick(&PRESET_NAMES)).expect("a preset");
        let flags = b.u8();
        let op = match model.units() {
            CostUnits::Cycles => b.pick(&AMD_OPS),
            CostUnits::Wavefronts => b.pick(&NV_OPS),
        };
        let op = operation(&model, op).ok()?;
        let lanes = match flags & 3 {
            0 => None,
            1 => Some(32),
            2 => Some(64),
            _ => Some(b.u8() as u32),
        };
        let wave = wave_size(&model, lanes).ok()?;
        let active = if flags & 4 == 0 {
            wave.lane_mask() & if flags & 8 == 0 { u64::MAX } else { b.u64() }
        } else {
            let text = String::from_utf8_lossy(b.until(b'\n')).into_owned();
            parse_lanes(&text, wave).ok()?
        };
        let a0 = addresses(b, wave)?;
        let a1 = if op.kind.is_two_addr() {
            Some(addresses(b, wave)?)
        } else {
            None
        };
        let shape = AccessShape {
            width: op.width,
            kind: op.kind,
            active,
            wave,
        };
        Some(BankInput {
            model,
            shape,
            a0,
            a1,
            suggest: flags & 0x10 != 0,
        })
    }
}

/// One lane address list: as `--addr` text, raw 64-bit values, or a strided pattern.
fn addresses(b: &mut Bytes, wave: WaveSize) -> Option<Vec<u64>> {
    let n = wave.lanes() as usize;
    match b.u8() % 4 {
        0 => {
            let text = String::from_utf8_lossy(b.until(b'\n')).into_owned();
            lane_values("--addr", &text, wave).ok()
        }
        1 => Some((0..n).map(|_| b.u64() >> (b.u8() & 63)).collect()),
        _ => {
            let (base, stride, xor) = (b.interesting_u32() as u64, b.u16() as u64, b.u8() as u64);
            Some(
                (0..n as u64)
                    .map(|t| base + (t ^ xor & 63) * stride)
                    .collect(),
            )
        }
    }
}

/// The fast cost and the full breakdown agree (on validity too) and the cost is sane; the
/// cost of a valid access.
fn check_cost_and_report(model: &BankModel, access: &Access<'_, u64>) -> Option<AccessCost> {
    let cost = model.cost(access);
    let report = model.analyze(access);
    assert_eq!(
        cost.as_ref().err(),
        report.as_ref().err(),
        "cost and analyze disagree on validity"
    );
    let (Ok(cost), Ok(report)) = (cost, report) else {
        return None;
    };
    assert_eq!(cost, report.cost, "fast cost differs from the breakdown");
    assert!(cost.cost >= cost.ideal, "cost below ideal: {cost:?}");
    for &a in access.addrs {
        assert!(model.bank_of(a) < model.banks());
    }
    Some(cost)
}

/// The same access with u32 addresses (where they fit) costs the same, and a batch of it and
/// of it with the other lanes active costs each entry as alone.
fn check_narrow_and_batch(model: &BankModel, access: &Access<'_, u64>, cost: AccessCost) {
    let (shape, a0) = (access.shape, access.addrs);
    let a1 = access.addrs1.unwrap_or(&[]);
    let two = access.addrs1.is_some();
    if a0.iter().chain(a1).all(|&a| a <= u32::MAX as u64) {
        let n0: Vec<u32> = a0.iter().map(|&a| a as u32).collect();
        let n1: Vec<u32> = a1.iter().map(|&a| a as u32).collect();
        let narrow = Access {
            shape,
            addrs: &n0[..],
            addrs1: two.then_some(&n1[..]),
        };
        assert_eq!(
            model.cost(&narrow),
            Ok(cost),
            "u32 and u64 addresses differ"
        );
    }
    let wave = shape.wave;
    let masks = [
        shape.active,
        !shape.active & wave.lane_mask(),
        wave.lane_mask(),
    ];
    let all0 = [a0, a0, a0].concat();
    let all1 = [a1, a1, a1].concat();
    let mut batch = Batch::new(shape, &all0).with_masks(&masks);
    if two {
        batch = batch.with_second_addresses(&all1);
    }
    let mut each = Vec::new();
    if let Ok(totals) = model.cost_batch_into(&batch, &mut each) {
        assert_eq!(each.len(), 3);
        assert_eq!(each[0], cost, "batch entry differs from the access alone");
        for (k, &m) in masks.iter().enumerate() {
            let one = Access {
                shape: shape.with_active(m),
                ..*access
            };
            assert_eq!(model.cost(&one).ok(), Some(each[k]), "batch entry {k}");
        }
        assert_eq!(totals.accesses, 3);
    }
}

// ---------------------------------------------------------------------------------------
// Launch arguments

const VALUE_KINDS: [&str; 16] = [
    "by_value",
    "global_buffer",
    "dynamic_shared_pointer",
    "image",
    "hidden_block_count_x",
    "hidden_block_count_z",
    "hidden_group_size_y",
    "hidden_grid_dims",
    "hidden_dynamic_lds_size",
    "hidden_shared_base",
    "hidden_private_base",
    "hidden_printf_buffer",
    "hidden_remainder_x",
    "hidden_",
    "hidden_block_count_w",
    "sampler",
];

const TYPE_NAMES: [&str; 10] = [
    "int",
    "float",
    "double",
    "half",
    "uint",
    "DATA_TYPE",
    "char*",
    "unsigned long long",
    "  float ",
    "",
];

/// One argument's metadata from `b`; offsets and sizes are kept to 64 KiB (the loader target
/// covers what an object's metadata may say).
fn arg_meta(b: &mut Bytes) -> ArgMetadata {
    let sel = b.u8();
    ArgMetadata {
        name: (sel & 1 == 1).then(|| format!("a{}", sel >> 4)),
        type_name: (sel & 2 == 2).then(|| b.pick(&TYPE_NAMES).to_string()),
        size: b.pick(&[0, 1, 2, 4, 4, 8, 8, 12, 16, 3, 24, 64, 255, 0xffff]),
        offset: (b.u16() as u32) & if sel & 4 == 0 { 0xff } else { 0xffff },
        value_kind: b.pick(&VALUE_KINDS).to_string(),
        address_space: (sel & 8 == 8).then(|| b.pick(&["global", "local", "constant"]).to_string()),
        pointee_align: (sel & 16 == 16).then(|| b.interesting_u32()),
    }
}

/// `lay_out`/`check_args` with random metadata and arguments, or `ElementType::parse_value`
/// on random text.
pub fn launch_args(data: &[u8]) {
    let mut b = Bytes::new(data);
    let sel = b.u8();
    if sel & 1 == 0 {
        let ty = b.pick(&ElementType::ALL);
        let text = String::from_utf8_lossy(b.rest()).into_owned();
        if let Some(v) = ty.parse_value(&text) {
            assert_eq!(v.len(), ty.bytes(), "{ty:?} `{text}`");
        }
        let _ = ElementType::from_name(text.trim());
        return;
    }
    let meta = KernelMetadata {
        name: "k".into(),
        args: (0..b.below(9)).map(|_| arg_meta(&mut b)).collect(),
        kernarg_segment_size: (b.u16() as u32) & 0x3fff,
        group_segment_fixed_size: b.interesting_u32(),
        ..KernelMetadata::default()
    };
    let explicit: Vec<&ArgMetadata> = meta.args.iter().filter(|a| !a.is_hidden()).collect();
    let count = match sel >> 1 & 7 {
        0 => explicit.len() + 1,
        1 => explicit.len().saturating_sub(1),
        _ => explicit.len(),
    };
    let args: Vec<KernelArg> = (0..count)
        .map(|i| {
            let matching = b.u8() >= 32;
            let kind = match (matching, explicit.get(i).map(|m| m.value_kind.as_str())) {
                (true, Some("global_buffer")) => 1,
                (true, Some("dynamic_shared_pointer")) => 2,
                (true, _) => 0,
                (false, _) => b.u8() % 3,
            };
            match kind {
                0 => {
                    let len = match explicit.get(i) {
                        Some(m) if matching => m.size as usize,
                        _ => b.below(17),
                    };
                    KernelArg::Scalar(vec![0xab; len])
                }
                1 => KernelArg::Buffer(vec![0; b.below(64)]),
                _ => KernelArg::Local(b.interesting_u32()),
            }
        })
        .collect();
    let grid = [1 + b.below(8) as u32, 1, 1 + b.below(2) as u32];
    let block = [b.interesting_u32(), 1, 1];
    let dynamic = b.interesting_u32();
    let ap = gpumemsim::addr::Apertures::default();
    let checked = check_args("k", &meta, &args);
    let laid = lay_out("k", &meta, &args, grid, block, dynamic, &ap);
    if checked.is_err() {
        assert!(laid.is_err(), "lay_out accepted what check_args refused");
    }
    if let Ok(l) = laid {
        assert!(l.lds_bytes <= gpumemsim::lds::MAX_ALLOCATION);
        assert!(l.dynamic_lds_bytes <= l.lds_bytes);
        assert_eq!(l.addresses.len(), args.len());
        let end = meta
            .args
            .iter()
            .map(|a| (a.offset + a.size) as usize)
            .max()
            .unwrap_or(0);
        assert!(l.kernarg.len() >= end.max(meta.kernarg_segment_size as usize));
    }
}
