//! The run path ([`super::runs`]) against the lane-by-lane one ([`super::lane_by_lane`]): on
//! random GLOBAL and FLAT loads and stores of every whole-dword width and byte and short
//! loads, signed or not (SADDR or a VGPR pair, `addtid`), lane addresses consecutive,
//! broken, reversed, repeated or random, inside, across and outside the host allocations,
//! across 2^48, in the upper canonical half, past the virtual address space and at the top
//! of the 64-bit space, under full, empty, sparse and one-lane EXEC in wave32 and wave64,
//! both give the same VGPRs, memory, access log and outcome.

use rdna3_isa::def::lookup_name;
use rdna3_isa::inst::SGPR_NULL;
use rdna3_isa::{Field, Format, Instruction};

use super::{global_op_of, VmemEnv, VmemOutcome};
use crate::addr::{Allocation, Allocations, Apertures, GlobalMemory, ScratchLayout, SHARED_BASE};
use crate::atomic::MemoryFloatRules;
use crate::lds::{AlignMode, Lds, LdsAllocation, LdsMode};
use crate::wave::Wave;
use crate::xorshift::XorShift;

/// Where the test's allocations lie.
const REGION: u64 = 0x1_0000_0000;

/// The instructions the run path takes (the narrow loads when every lane reads one
/// address), and a few it leaves to the lane-by-lane path.
const NAMES: [&str; 18] = [
    "global_load_b32",
    "global_load_b64",
    "global_load_b96",
    "global_load_b128",
    "global_store_b32",
    "global_store_b64",
    "global_store_b96",
    "global_store_b128",
    "global_load_addtid_b32",
    "global_store_addtid_b32",
    "flat_load_b32",
    "flat_store_b64",
    "global_load_u8",
    "global_load_i8",
    "global_load_u16",
    "global_load_i16",
    "flat_load_u16",
    "global_store_d16_hi_b16",
];

/// Memory with random bytes about the region and, most of the time, two allocations there
/// (else none, when every address is in bounds).
fn memory(rng: &mut XorShift) -> GlobalMemory {
    let mut m = GlobalMemory::new();
    let bytes: Vec<u8> = (0..0x3000).map(|_| rng.next_u64() as u8).collect();
    m.write_bytes(REGION - 0x800, &bytes);
    m.write_bytes((1 << 48) - 0x100, &bytes[..0x200]);
    if rng.below(4) != 0 {
        m.allocations = Allocations::new(vec![
            Allocation {
                start: REGION,
                len: 0x400 + rng.below(0x800),
                name: "a".into(),
            },
            Allocation {
                start: REGION + 0x1000,
                len: 0x800,
                name: "b".into(),
            },
        ]);
    }
    m
}

/// Every lane's address, by a random pattern.
fn addresses(rng: &mut XorShift, bytes: u64) -> [u64; 64] {
    let near = [
        REGION,
        REGION + 0x3f0,
        REGION + 0xff0,
        REGION - 0x40,
        (1 << 48) - 0x80,
        0xffff_8000_0000_0000 - 0x80,
        0xffff_8000_0000_0000,
        u64::MAX - 0x80,
        SHARED_BASE + 0x40,
    ];
    let base = rng.pick(&near).wrapping_add(rng.below(0x100)) & !(rng.below(2) * 3);
    let mut a = [0u64; 64];
    let mode = rng.below(6);
    for (l, x) in a.iter_mut().enumerate() {
        let l = l as u64;
        *x = match mode {
            0 | 1 => base.wrapping_add(l * bytes),
            2 => base.wrapping_sub(l * bytes),
            3 => base,
            4 => REGION - 0x40 + rng.below(0x1900),
            _ => base.wrapping_add(l * bytes + rng.below(3) * 4),
        };
    }
    // Breaks in a consecutive pattern.
    if mode == 1 {
        for _ in 0..rng.below(4) {
            let l = rng.below(64) as usize;
            a[l] = a[l].wrapping_add(rng.pick(&[4, 8, 0x1000, 1 << 47]));
        }
    }
    a
}

/// A wave of `size` lanes with random VGPRs v0-v40, the addresses `addr` in the address
/// VGPRs (and SADDR) `inst` names, and an EXEC full, empty, sparse or of one lane.
fn wave(rng: &mut XorShift, size: u32, inst: &Instruction, addr: &[u64; 64]) -> Wave {
    let mut w = Wave::new(0, size);
    for r in 0..41 {
        for l in 0..size {
            w.set_vgpr(r, l, rng.next_u64() as u32);
        }
    }
    let offset = super::sext13(inst.get(Field::Offset));
    let saddr = inst.get(Field::Saddr);
    let base = addr[0].wrapping_sub(offset).wrapping_sub(rng.below(0x100));
    if saddr != SGPR_NULL {
        w.set_sreg64(saddr, base);
    }
    let v = inst.get(Field::Addr);
    for l in 0..size {
        let a = addr[l as usize].wrapping_sub(offset);
        if saddr == SGPR_NULL {
            w.set_vgpr(v, l, a as u32);
            w.set_vgpr(v + 1, l, (a >> 32) as u32);
        } else {
            w.set_vgpr(v, l, a.wrapping_sub(base) as u32);
        }
    }
    w.set_exec(match rng.below(6) {
        0 => 0,
        1 => 1 << rng.below(size as u64),
        2 => rng.next_u64(),
        3 => !(1 << rng.below(size as u64)),
        _ => u64::MAX,
    });
    w
}

/// A random instruction `name`: its data or destination VGPR (now and then near v255), the
/// address VGPR(s), SADDR off or an SGPR pair, and a signed offset.
fn instruction(rng: &mut XorShift, name: &str) -> Instruction {
    let op = lookup_name(name).expect(name);
    let mut i = Instruction::new(op);
    let data = if rng.below(8) == 0 {
        254
    } else {
        rng.below(32) as u32
    };
    i.set(Field::Vdst, data);
    i.set(Field::Data0, data);
    i.set(Field::Addr, rng.below(38) as u32);
    let saddr = if op.def().format == Format::Flat || rng.below(2) == 0 {
        SGPR_NULL
    } else {
        2 * rng.below(20) as u32
    };
    i.set(Field::Saddr, saddr);
    i.set(
        Field::Offset,
        rng.below(1 << 13) as u32 & rng.pick(&[0, 0x3c, 0x1fff]),
    );
    i
}

/// Both waves' VGPR files the same (every row, and whether it exists).
fn same_vgprs(a: &Wave, b: &Wave) -> bool {
    (0..256).all(|r| a.vgpr_row(r) == b.vgpr_row(r))
}

/// `inst` through the run path (or, when it does not take it, the lane-by-lane path) and
/// through the lane-by-lane path, from the same wave and memory; returns whether the run
/// path took it, having checked that both agree.
fn compare(inst: &Instruction, wave: &Wave, mem: &GlobalMemory) -> bool {
    let op = global_op_of(inst.opcode).expect("a vector-memory instruction");
    let run = |runs: bool| -> (Wave, GlobalMemory, VmemOutcome, bool) {
        let mut w = wave.clone();
        let mut m = mem.clone();
        m.start_log();
        let mut lds = Lds::new(LdsMode::Cu, AlignMode::Dword);
        let mut env = VmemEnv {
            mem: &mut m,
            lds: &mut lds,
            alloc: LdsAllocation::new(0x100, LdsMode::Cu).expect("a small allocation"),
            scratch: ScratchLayout {
                base: 0,
                wave_size: w.size,
                scratch_size: 0,
            },
            apertures: Apertures::default(),
            float_rules: MemoryFloatRules::default(),
            isa: rdna3_isa::Isa::Gfx11,
        };
        let taken = runs.then(|| super::runs::execute(inst, op, &mut w, &mut env));
        let (out, took) = match taken.flatten() {
            Some(out) => (out, true),
            None => (
                super::lane_by_lane(inst, op, &mut w, &mut env, |_, _| {}),
                false,
            ),
        };
        (w, m, out, took)
    };
    let (mut w1, mut m1, o1, took) = run(true);
    let (mut w2, mut m2, o2, _) = run(false);
    let (l1, l2) = (m1.take_log(), m2.take_log());
    let what = format!("{} exec {:#x}", inst.def().name, wave.exec());
    assert_eq!(o1, o2, "{what}");
    assert!(same_vgprs(&w1, &w2), "{what}");
    assert!(m1 == m2, "{what}: memory");
    assert!(l1 == l2, "{what}: access log");
    w1.release_vgprs();
    w2.release_vgprs();
    took
}

#[test]
fn runs_match_the_lane_by_lane_path() {
    let mut rng = XorShift::new(0x0072_0a5e);
    let (mut cases, mut taken, mut dropped, mut narrow) = (0, 0, 0, 0);
    for _ in 0..6000 {
        let name = rng.pick(&NAMES);
        let inst = instruction(&mut rng, name);
        let bytes = match global_op_of(inst.opcode) {
            Some(super::GlobalOp::Load { bytes, .. } | super::GlobalOp::Store { bytes, .. }) => {
                bytes as u64
            }
            _ => unreachable!("{name} is a load or a store"),
        };
        let addr = addresses(&mut rng, bytes);
        let mem = memory(&mut rng);
        let size = rng.pick(&[32, 64]);
        let w = wave(&mut rng, size, &inst, &addr);
        let took = compare(&inst, &w, &mem);
        taken += took as u32;
        narrow += (took && bytes < 4) as u32;
        dropped += (w.exec() != 0 && !mem.allocations.contains(addr[0], bytes)) as u32;
        cases += 1;
    }
    assert!(taken > cases / 2, "{taken} of {cases} took the run path");
    // Byte and short loads at one address for every lane (about a sixth of their cases).
    assert!(
        narrow > cases / 80,
        "{narrow} narrow loads took the run path"
    );
    assert!(
        dropped > cases / 10,
        "{dropped} of {cases} had a dropped lane 0"
    );
}

/// The one-pass test for a single run (`ranges::stepped_block`) says what the lane-by-lane
/// search says: EXEC masks
/// full, one block, gapped and single-lane, over the address patterns above (consecutive,
/// broken, descending, repeated, random, wrapping past the top of the address space).
#[test]
fn a_stepped_block_is_the_search_finding_exec_whole() {
    let mut rng = XorShift::new(0x6f6e_6572_756e);
    let (mut one, mut more) = (0, 0);
    for _ in 0..20_000 {
        let step = rng.pick(&[1u64, 2, 4, 8, 12, 16]);
        let addr = addresses(&mut rng, step);
        let lo = rng.below(64);
        let len = 1 + rng.below(64 - lo);
        let block = (u64::MAX >> (64 - len)) << lo;
        let exec = match rng.below(4) {
            0 => block,
            1 => u64::MAX,
            2 => block & !(1 << (lo + rng.below(len))),
            _ => 1 << lo,
        };
        let want = exec != 0 && super::runs::run_from(exec, &addr, step) == exec;
        assert_eq!(
            crate::ranges::stepped_block(exec, &addr, step),
            want,
            "exec {exec:#x} step {step} {addr:x?}"
        );
        one += u32::from(want);
        more += u32::from(!want && exec != 0);
    }
    assert!(one > 2000 && more > 2000, "{one} one run, {more} more");
}
