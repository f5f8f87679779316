//! The checker's observers (issue 20): LDS races between the waves of a workgroup, lanes of
//! one store colliding, reads of LDS nothing wrote, waves at different barriers or leaving
//! the workgroup's barriers, plain global accesses racing between workgroups, and what LDS
//! holds before the launch writes it (`RunConfig::lds_init`).

use gpumemsim::addr::GlobalMemory;
use gpumemsim::check::findings;
use gpumemsim::event::Event;
use gpumemsim::exec::{run_grid, Device, GridRun, RunConfig, Schedule, WaveInit};
use gpumemsim::isa::asm::assemble;
use gpumemsim::lds::LdsInit;
use gpumemsim::wave::Wave;

/// The kinds the checker reports.
const CHECK_KINDS: [&str; 5] = [
    "lds_race",
    "lane_collision",
    "uninitialized_lds_read",
    "barrier_divergence",
    "global_race",
];

/// Runs `text` on `waves` wave32 waves of one workgroup (v0 = the work-item's index in the
/// workgroup); the run must succeed.
fn run_waves(text: &str, waves: u32, cfg: RunConfig) -> Device {
    let prog = assemble(text);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let cfg = RunConfig { waves, ..cfg };
    let mut dev = Device::new(&cfg, prog.lines.len()).expect("config");
    dev.run(&prog.lines, &cfg).expect("the program runs");
    dev
}

fn run2(text: &str) -> Device {
    run_waves(text, 2, RunConfig::default())
}

fn of_kind<'a>(dev: &'a Device, kind: &str) -> Vec<&'a Event> {
    dev.events().iter().filter(|e| e.kind == kind).collect()
}

/// The checker's events of `dev` (none of the other kinds).
fn checks(events: &[Event]) -> Vec<&Event> {
    events
        .iter()
        .filter(|e| CHECK_KINDS.contains(&e.kind))
        .collect()
}

fn pcs(e: &Event) -> Vec<usize> {
    let mut v = vec![e.pc];
    v.extend(e.detail.as_ref().map_or(&[][..], |d| &d.pcs[..]));
    v
}

/// Each work-item writes its own dword (4 × v0), then reads the one of the work-item 32 away
/// (the other wave's): pcs 0 address, 1 store, then `sync`, then the load at `load_pc`.
fn exchange(sync: &str) -> String {
    format!(
        "v_lshlrev_b32 v1, 2, v0\n\
         ds_store_b32 v1, v0\n\
         {sync}\
         v_xor_b32 v2, 0x80, v1\n\
         ds_load_b32 v3, v2\n\
         s_waitcnt lgkmcnt(0)\n\
         s_endpgm\n"
    )
}

#[test]
fn store_wait_barrier_load_is_clean() {
    let dev = run2(&exchange("s_waitcnt lgkmcnt(0)\ns_barrier\n"));
    assert!(checks(dev.events()).is_empty(), "{:#?}", dev.events());
    // The exchange happened: lane l of wave 0 read work-item l + 32.
    assert_eq!(dev.wave(0).vgpr(3, 5), 37);
    assert_eq!(dev.wave(1).vgpr(3, 5), 5);
}

#[test]
fn store_then_load_without_barrier_races() {
    let dev = run2(&exchange(""));
    let races = of_kind(&dev, "lds_race");
    assert!(!races.is_empty(), "{:#?}", dev.events());
    // The store is pc 1 and the load pc 3: every race names both, in either order (which
    // wave gets there first is the schedule's).
    for r in &races {
        let mut p = pcs(r);
        p.sort();
        assert_eq!(p, vec![1, 3], "{r:#?}");
        let d = r.detail.as_ref().expect("detail");
        assert_eq!(d.waves.len(), 1);
        assert_ne!(d.waves[0], r.wave, "the other wave");
        assert!(!d.lanes.is_empty() && d.address.is_some());
    }
    let raw = races
        .iter()
        .find(|r| r.pc == 3)
        .expect("a read-after-write at the load");
    assert!(raw.message.contains("read-after-write"), "{}", raw.message);
    assert_eq!(
        raw.detail.as_ref().expect("the event's detail").pcs,
        vec![1]
    );
    // One event per (instruction execution, earlier pc): not one per lane or byte.
    assert!(races.len() <= 2, "{races:#?}");
    assert_eq!(
        raw.detail.as_ref().expect("the event's detail").lanes.len(),
        32
    );
}

#[test]
fn a_barrier_without_the_wait_before_it_does_not_order_the_store() {
    let dev = run2(&exchange("s_barrier\n"));
    let races = of_kind(&dev, "lds_race");
    // Both waves store before either loads (the barrier), so both loads race with the other
    // wave's store: read-after-write at pc 4, earlier pc 1.
    assert_eq!(races.len(), 2, "{:#?}", dev.events());
    for r in races {
        assert_eq!(pcs(r), vec![4, 1]);
        assert!(r.message.contains("read-after-write"));
        let d = r.detail.as_ref().expect("the event's detail");
        assert_eq!(d.waves, vec![1 - r.wave]);
        // Wave w's lane l reads the dword of work-item (32 w + l) ^ 32: byte 4 × that.
        let lane = d.lanes[0];
        assert_eq!(d.address, Some(4 * u64::from((32 * r.wave + lane) ^ 32)));
    }
    // A wait after the barrier is too late as well.
    let dev = run2(&exchange("s_barrier\ns_waitcnt lgkmcnt(0)\n"));
    assert_eq!(of_kind(&dev, "lds_race").len(), 2);
    // lgkmcnt(1) with one store outstanding proves nothing more: still racing; lgkmcnt(0)
    // in front of it is enough.
    let dev = run2(&exchange("s_waitcnt lgkmcnt(1)\ns_barrier\n"));
    assert_eq!(of_kind(&dev, "lds_race").len(), 2);
}

#[test]
fn write_after_read_without_barrier_races_and_with_one_is_clean() {
    // Phase 1 fills every dword (clean); phase 2 reads the other wave's dword and then
    // overwrites its own: the other wave may still be reading it.
    let text = |sync: &str| {
        format!(
            "v_lshlrev_b32 v1, 2, v0\n\
             ds_store_b32 v1, v0\n\
             s_waitcnt lgkmcnt(0)\n\
             s_barrier\n\
             v_xor_b32 v2, 0x80, v1\n\
             ds_load_b32 v3, v2\n\
             {sync}\
             ds_store_b32 v1, v3\n\
             s_waitcnt lgkmcnt(0)\n\
             s_endpgm\n"
        )
    };
    let dev = run2(&text(""));
    let races = of_kind(&dev, "lds_race");
    assert!(!races.is_empty(), "{:#?}", dev.events());
    // The load (pc 5) of one wave and the store (pc 6) of the other, in whichever order the
    // schedule ran them.
    for r in &races {
        let mut p = pcs(r);
        p.sort();
        assert_eq!(p, vec![5, 6], "{r:#?}");
        let want = if r.pc == 6 {
            "write-after-read"
        } else {
            "read-after-write"
        };
        assert!(r.message.contains(want), "{}", r.message);
    }
    let dev = run2(&text("s_waitcnt lgkmcnt(0)\ns_barrier\n"));
    assert!(checks(dev.events()).is_empty(), "{:#?}", dev.events());
}

#[test]
fn write_after_write_from_two_waves_races() {
    // Lane 0 of each wave writes dword 0.
    let text = "s_mov_b32 exec_lo, 1\n\
                v_mov_b32 v1, 0\n\
                ds_store_b32 v1, v0\n\
                s_waitcnt lgkmcnt(0)\n\
                s_endpgm\n";
    let dev = run2(text);
    let races = of_kind(&dev, "lds_race");
    assert_eq!(races.len(), 1, "{:#?}", dev.events());
    assert_eq!(pcs(races[0]), vec![2, 2]);
    assert!(races[0].message.contains("write-after-write"));
    assert_eq!(races[0].wave, 1);
    let d = races[0].detail.as_ref().expect("the event's detail");
    assert_eq!(
        (&d.waves[..], &d.lanes[..], d.address),
        (&[0][..], &[0][..], Some(0))
    );
    let text2 = "s_mov_b32 exec_lo, 1\n\
                 v_mov_b32 v1, 0\n\
                 v_readfirstlane_b32 s1, v0\n\
                 s_cmp_eq_u32 s1, 0\n\
                 s_cbranch_scc0 later\n\
                 ds_store_b32 v1, v0\n\
                 later:\n\
                 s_waitcnt lgkmcnt(0)\n\
                 s_barrier\n\
                 ds_store_b32 v1, v0\n\
                 s_endpgm\n";
    // Wave 0 writes, waits, meets wave 1 at the barrier; then both write: wave 1's second
    // write is ordered after wave 0's first, but the two second writes race.
    let dev2 = run2(text2);
    let races = of_kind(&dev2, "lds_race");
    assert_eq!(races.len(), 1, "{:#?}", dev2.events());
    assert_eq!(pcs(races[0]), vec![8, 8]);
}

#[test]
fn atomics_do_not_race_with_atomics_but_do_with_plain_accesses() {
    // Lane 0 of wave 0 zeroes dword 0; after the barrier every lane of both waves adds 1.
    let text = |after: &str| {
        format!(
            "v_mov_b32 v1, 0\n\
             v_mov_b32 v2, 1\n\
             v_readfirstlane_b32 s1, v0\n\
             s_cmp_eq_u32 s1, 0\n\
             s_cbranch_scc0 go\n\
             s_mov_b32 exec_lo, 1\n\
             ds_store_b32 v1, v1\n\
             s_mov_b32 exec_lo, -1\n\
             go:\n\
             s_waitcnt lgkmcnt(0)\n\
             s_barrier\n\
             ds_add_u32 v1, v2\n\
             {after}\
             s_waitcnt lgkmcnt(0)\n\
             s_endpgm\n"
        )
    };
    let dev = run2(&text(""));
    assert!(checks(dev.events()).is_empty(), "{:#?}", dev.events());
    assert_eq!(dev.lds(0).words(0, 4), vec![64]);
    // A plain load of the counter with no barrier after the atomics races with the other
    // wave's atomic.
    let dev = run2(&text("ds_load_b32 v3, v1\n"));
    let races = of_kind(&dev, "lds_race");
    assert!(!races.is_empty(), "{:#?}", dev.events());
    assert!(races.iter().all(|r| {
        let mut p = pcs(r);
        p.sort();
        p == vec![10, 11]
    }));
}

#[test]
fn lanes_of_one_store_writing_different_values_to_one_address_collide() {
    // Every lane writes its index to dword 0: the highest lane's value stays.
    let text = "v_mov_b32 v1, 0\nds_store_b32 v1, v0\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let dev = run_waves(text, 1, RunConfig::default());
    let c = of_kind(&dev, "lane_collision");
    assert_eq!(c.len(), 1, "{:#?}", dev.events());
    assert_eq!(c[0].pc, 1);
    let d = c[0].detail.as_ref().expect("the event's detail");
    assert_eq!(d.lanes, (0..32).collect::<Vec<u32>>());
    assert_eq!(d.address, Some(0));
    assert!(c[0].message.contains("lane 31"), "{}", c[0].message);
    assert_eq!(dev.lds(0).words(0, 4), vec![31], "the highest lane's value");
    // The same in wave64: lane 63 wins.
    let dev = run_waves(
        text,
        1,
        RunConfig {
            wave_size: 64,
            ..RunConfig::default()
        },
    );
    assert_eq!(dev.lds(0).words(0, 4), vec![63]);
    assert_eq!(of_kind(&dev, "lane_collision").len(), 1);
    // The same value from every lane is no collision; nor is one lane per dword.
    let same = "v_mov_b32 v1, 0\nv_mov_b32 v2, 7\nds_store_b32 v1, v2\ns_endpgm\n";
    let dev = run_waves(same, 1, RunConfig::default());
    assert!(checks(dev.events()).is_empty(), "{:#?}", dev.events());
    // Only bytes that differ collide: lanes writing 0x100 × lane to byte 0 as a byte store
    // all write 0 there.
    let bytes = "v_mov_b32 v1, 0\nv_lshlrev_b32 v2, 8, v0\nds_store_b8 v1, v2\ns_endpgm\n";
    let dev = run_waves(bytes, 1, RunConfig::default());
    assert!(of_kind(&dev, "lane_collision").is_empty());
}

#[test]
fn a_collision_read_back_at_once_is_tag_and_retry_not_a_finding() {
    // The pre-atomics histogram idiom: every lane writes tag | count to the bin, reads it
    // back and retries unless its own value stuck. The wave's next LDS access reads the
    // collided word: not reported.
    let retry = "v_mov_b32 v1, 0\nds_store_b32 v1, v0\nds_load_b32 v2, v1\n\
                 s_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let dev = run_waves(retry, 1, RunConfig::default());
    assert!(
        of_kind(&dev, "lane_collision").is_empty(),
        "{:#?}",
        dev.events()
    );
    // Reading another word next, or a barrier first, leaves the collision reported.
    for next in [
        "v_mov_b32 v3, 64\nds_load_b32 v2, v3\n",
        "s_barrier\nds_load_b32 v2, v1\n",
    ] {
        let text = format!(
            "v_mov_b32 v1, 0\nds_store_b32 v1, v0\ns_waitcnt lgkmcnt(0)\n{next}\
             s_waitcnt lgkmcnt(0)\ns_endpgm\n"
        );
        let dev = run_waves(&text, 1, RunConfig::default());
        let c = of_kind(&dev, "lane_collision");
        assert_eq!(c.len(), 1, "{next}: {:#?}", dev.events());
        assert_eq!(c[0].pc, 1, "the store");
    }
}

#[test]
fn one_wave_alone_never_races() {
    // Lanes read each other's dwords with no wait or barrier: one wave's accesses are in
    // program order.
    let text = "v_lshlrev_b32 v1, 2, v0\n\
                ds_store_b32 v1, v0\n\
                v_xor_b32 v2, 4, v1\n\
                ds_load_b32 v3, v2\n\
                ds_store_b32 v2, v3\n\
                s_waitcnt lgkmcnt(0)\n\
                s_endpgm\n";
    let dev = run_waves(text, 1, RunConfig::default());
    assert!(checks(dev.events()).is_empty(), "{:#?}", dev.events());
    // Two workgroups of one wave each: LDS is per workgroup, nothing to race with.
    let dev = run_waves(
        text,
        1,
        RunConfig {
            workgroups: 2,
            ..RunConfig::default()
        },
    );
    assert!(checks(dev.events()).is_empty(), "{:#?}", dev.events());
}

/// An `uninitialized_lds_read` event: (pc, the load it names, lanes, address).
type Uninit = (usize, Vec<usize>, Vec<u32>, Option<u64>);

/// The `uninitialized_lds_read` events of `text` on one wave.
fn uninit(text: &str) -> Vec<Uninit> {
    let dev = run_waves(text, 1, RunConfig::default());
    of_kind(&dev, "uninitialized_lds_read")
        .iter()
        .map(|e| {
            let d = e.detail.as_ref().expect("the event's detail");
            (e.pc, d.pcs.clone(), d.lanes.clone(), d.address)
        })
        .collect()
}

#[test]
fn an_uninitialised_lds_value_is_reported_where_it_is_used_not_where_it_is_copied() {
    let load = "v_lshlrev_b32 v1, 2, v0\nds_load_b32 v3, v1 offset:64\ns_waitcnt lgkmcnt(0)\n";
    let all: Vec<u32> = (0..32).collect();
    // Used in arithmetic: reported there, naming the load.
    let used = format!("{load}v_add_nc_u32 v4, v3, 1\ns_endpgm\n");
    assert_eq!(uninit(&used), [(3, vec![1], all.clone(), Some(64))]);
    // As an address, and through a move: reported at the use.
    let moved = format!("{load}v_mov_b32 v5, v3\nds_load_b32 v6, v5\ns_endpgm\n");
    assert_eq!(uninit(&moved), [(4, vec![1], all.clone(), Some(64))]);
    // Read and never used, or only copied out to global memory: nothing to report.
    assert_eq!(uninit(&format!("{load}s_endpgm\n")), []);
    let out = format!(
        "{load}v_mov_b32 v6, 0\nv_mov_b32 v7, 0x1000\nglobal_store_b32 v[6:7], v3, off\n\
         s_endpgm\n"
    );
    assert_eq!(uninit(&out), []);
    // Copied within LDS: the copy is as uninitialised; using it is reported, naming the
    // load that read the copy.
    let copied = format!(
        "{load}ds_store_b32 v1, v3 offset:1024\nds_load_b32 v4, v1 offset:1024\n\
         s_waitcnt lgkmcnt(0)\nv_add_nc_u32 v4, v4, 1\ns_endpgm\n"
    );
    assert_eq!(uninit(&copied), [(6, vec![4], all.clone(), Some(1024))]);
    // Overwritten before use: clean.
    let overwritten = format!("{load}v_mov_b32 v3, 7\nv_add_nc_u32 v4, v3, 1\ns_endpgm\n");
    assert_eq!(uninit(&overwritten), []);
    // Half written: only the lanes that read unwritten bytes, from the first such address.
    let half = "v_lshlrev_b32 v1, 2, v0\n\
                s_mov_b32 exec_lo, 0xffff\n\
                ds_store_b32 v1, v0\n\
                s_mov_b32 exec_lo, -1\n\
                ds_load_b32 v3, v1\n\
                s_waitcnt lgkmcnt(0)\n\
                v_add_nc_u32 v4, v3, 1\n\
                s_endpgm\n";
    assert_eq!(uninit(half), [(6, vec![4], (16..32).collect(), Some(64))]);
    // A byte load of a partly written dword: byte 2 of a dword where only a b16 wrote 0..1.
    let partial = "v_mov_b32 v1, 0\nds_store_b16 v1, v1\nds_load_u8 v3, v1 offset:1\n\
                   ds_load_u8 v4, v1 offset:2\ns_waitcnt lgkmcnt(0)\n\
                   v_add_nc_u32 v5, v3, v4\ns_endpgm\n";
    assert_eq!(uninit(partial), [(5, vec![3], all.clone(), Some(2))]);
    // Of a 16-byte load whose last dword nothing wrote, only that register is marked.
    let wide = "v_lshlrev_b32 v1, 4, v0\nds_store_b96 v1, v[4:6]\nds_load_b128 v[8:11], v1\n\
                s_waitcnt lgkmcnt(0)\nv_add_nc_u32 v12, v8, v10\nv_add_nc_u32 v13, v11, 1\n\
                s_endpgm\n";
    assert_eq!(uninit(wide), [(5, vec![2], all.clone(), Some(12))]);
    // An atomic computes with what it reads: reported at the atomic.
    let atomic = "v_lshlrev_b32 v1, 2, v0\nds_add_u32 v1, v0\ns_endpgm\n";
    let u = uninit(atomic);
    assert_eq!(u.len(), 1, "{u:?}");
    assert_eq!((u[0].0, u[0].3), (1, Some(0)));
}

#[test]
fn the_checker_can_be_turned_off() {
    let cfg = RunConfig {
        check: false,
        ..RunConfig::default()
    };
    let dev = run_waves(&exchange(""), 2, cfg);
    assert!(checks(dev.events()).is_empty(), "{:#?}", dev.events());
    // What the program computed does not depend on the checker.
    let on = run2(&exchange(""));
    for w in 0..2 {
        for l in 0..32 {
            assert_eq!(dev.wave(w).vgpr(3, l), on.wave(w).vgpr(3, l));
        }
    }
}

/// Each wave reads 8 dwords of LDS from byte 4 × v0 (nothing writes LDS) into v3.
fn lds_values(init: LdsInit, workgroups: u32) -> Vec<Vec<u32>> {
    let text = "v_lshlrev_b32 v1, 2, v0\nds_load_b32 v3, v1\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let cfg = RunConfig {
        lds_init: init,
        workgroups,
        check: false,
        ..RunConfig::default()
    };
    let dev = run_waves(text, 1, cfg);
    dev.waves()
        .iter()
        .map(|w| (0..8).map(|l| w.vgpr(3, l)).collect())
        .collect()
}

#[test]
fn lds_init_zero_poison_and_random() {
    assert_eq!(lds_values(LdsInit::Zero, 1), vec![vec![0; 8]]);
    assert_eq!(lds_values(LdsInit::Poison, 2), vec![vec![u32::MAX; 8]; 2]);
    let a = lds_values(LdsInit::Random(1), 2);
    // Reproducible, different for each workgroup and each seed, and not constant.
    assert_eq!(a, lds_values(LdsInit::Random(1), 2));
    assert_ne!(a[0], a[1]);
    assert_ne!(a, lds_values(LdsInit::Random(2), 2));
    assert!(a[0].iter().any(|&x| x != a[0][0]), "{a:x?}");
    assert!(a[0].iter().all(|&x| x != 0 && x != u32::MAX));
    // The same bytes whichever way the grid runs (a workgroup's bytes come from its index).
    let prog = assemble(
        "v_lshlrev_b32 v1, 2, v0\nds_load_b32 v3, v1\ns_waitcnt lgkmcnt(0)\n\
         v_add_nc_u32 v4, v3, 1\ns_endpgm\n",
    );
    let cfg = RunConfig {
        lds_init: LdsInit::Random(1),
        workgroups: 2,
        threads: 2,
        wgps: 2,
        ..RunConfig::default()
    };
    let r = run_grid(
        &prog.lines,
        &cfg,
        &GlobalMemory::new,
        &(std::sync::Arc::new(|_: u32, _: &mut Wave| {}) as WaveInit),
    )
    .expect("config");
    assert!(matches!(r.schedule, Schedule::Apart { .. }));
    for (w, want) in r.device.waves().iter().zip(&a) {
        let got: Vec<u32> = (0..8).map(|l| w.vgpr(3, l)).collect();
        assert_eq!(&got, want);
    }
    // And using it is still an uninitialised read, whatever the bytes are.
    assert_eq!(
        r.device
            .events()
            .iter()
            .filter(|e| e.kind == "uninitialized_lds_read")
            .count(),
        2
    );
}

/// Six workgroups of two waves, two resident at once (64 KB allocations), dropping finished
/// workgroups' state so later ones reuse the storage: each lane reads the LDS dword at
/// 4 × v0 before anything of its workgroup writes it, stores it to global memory at
/// 0x1000 + 256 × workgroup + 4 × v0, then writes its workgroup's id + 1 there.
fn first_reads_with_reused_storage(init: LdsInit) -> Vec<u32> {
    let text = "v_lshlrev_b32 v1, 2, v0\nds_load_b32 v3, v1\ns_waitcnt lgkmcnt(0)\n\
                s_add_u32 s5, s0, 1\nv_mov_b32 v2, s5\nds_store_b32 v1, v2\n\
                s_lshl_b32 s4, s0, 8\nv_add_nc_u32 v1, s4, v1\n\
                global_store_b32 v1, v3, s[2:3]\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let prog = assemble(text);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let cfg = RunConfig {
        workgroups: 6,
        waves: 2,
        release_finished: true,
        lds_init: init,
        check: false,
        ..RunConfig::default()
    };
    let wave_init: WaveInit = std::sync::Arc::new(|g: u32, w: &mut Wave| {
        w.set_sreg(0, g);
        w.set_sreg(2, 0x1000);
    });
    let r = run_grid(&prog.lines, &cfg, &GlobalMemory::new, &wave_init).expect("config");
    r.result.clone().expect("runs");
    assert!(r.device.waves().len() < 12, "the slots were reused");
    r.device.memory().words(0x1000, 0x1000 + 6 * 256)
}

#[test]
fn a_workgroup_reusing_finished_storage_starts_from_the_init_bytes() {
    assert_eq!(
        first_reads_with_reused_storage(LdsInit::Zero),
        vec![0; 6 * 64]
    );
    assert_eq!(
        first_reads_with_reused_storage(LdsInit::Poison),
        vec![u32::MAX; 6 * 64]
    );
}

/// The checker's events of `workgroups` workgroups of two waves running `text`, two
/// resident at once (64 KB allocations), so later workgroups reuse the first ones' slots;
/// as (kind, pc, earlier pcs) per event.
fn slot_findings(text: &str, workgroups: u32) -> Vec<(&'static str, usize, Vec<usize>)> {
    let cfg = RunConfig {
        workgroups,
        waves: 2,
        release_finished: true,
        ..RunConfig::default()
    };
    let run = grid(text, cfg);
    assert!(
        run.device.waves().len() < 2 * workgroups as usize || workgroups <= 2,
        "the slots were reused"
    );
    let mut found: Vec<_> = checks(run.device.events())
        .into_iter()
        .map(|e| (e.kind, e.pc, pcs(e)))
        .collect();
    found.sort();
    found
}

/// Each workgroup checks from a clean shadow, also when it takes a slot an earlier one left
/// (the shadow is recycled): the racy exchange reports in six workgroups six times what it
/// reports in one, and the ordered one reports nothing (the earlier workgroup's accesses to
/// the same bytes, left in the shadow, would race with the new workgroup's).
#[test]
fn workgroups_reusing_a_slot_check_from_a_clean_shadow() {
    let racy = exchange("");
    let one = slot_findings(&racy, 1);
    assert!(!one.is_empty());
    let mut six: Vec<_> = one.iter().flat_map(|f| vec![f.clone(); 6]).collect();
    six.sort();
    assert_eq!(slot_findings(&racy, 6), six);
    let ordered = exchange("s_waitcnt lgkmcnt(0)\ns_barrier\n");
    assert_eq!(slot_findings(&ordered, 6), vec![]);
    // A barrier with no wait before it does not order the store, in any workgroup (the
    // barrier arrivals of the slot's last workgroup are not this one's).
    for sync in [
        "s_barrier\n",
        "s_barrier\ns_waitcnt lgkmcnt(0)\ns_barrier\n",
    ] {
        let text = exchange(sync);
        let mut six: Vec<_> = slot_findings(&text, 1)
            .iter()
            .flat_map(|f| vec![f.clone(); 6])
            .collect();
        six.sort();
        assert_eq!(slot_findings(&text, 6), six, "{sync}");
    }
    // Without a barrier between them, the second store of a workgroup races with the first
    // wave's load only in its own workgroup.
    let late = "v_lshlrev_b32 v1, 2, v0\nds_load_b32 v3, v1\ns_waitcnt lgkmcnt(0)\n\
                ds_store_b32 v1, v0\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    assert_eq!(
        slot_findings(late, 6).len(),
        6 * slot_findings(late, 1).len()
    );
}

/// Wave 0 runs `first`, wave 1 `second` (each ends with s_endpgm).
fn per_wave(first: &str, second: &str) -> String {
    format!(
        "v_readfirstlane_b32 s1, v0\n\
         s_cmp_eq_u32 s1, 0\n\
         s_cbranch_scc0 other\n\
         {first}\
         other:\n\
         {second}"
    )
}

#[test]
fn waves_at_different_barriers_diverge() {
    // pcs: 0-2 the test, 3 wave 0's barrier, 4 s_endpgm, 5 wave 1's barrier, 6 s_endpgm.
    let dev = run2(&per_wave("s_barrier\ns_endpgm\n", "s_barrier\ns_endpgm\n"));
    let b = of_kind(&dev, "barrier_divergence");
    assert_eq!(b.len(), 1, "{:#?}", dev.events());
    let mut p = pcs(b[0]);
    p.sort();
    assert_eq!(p, vec![3, 5]);
    assert_eq!(
        b[0].detail.as_ref().expect("the event's detail").waves,
        vec![1 - b[0].wave]
    );
    // One barrier for both: clean.
    let dev = run2("s_barrier\ns_barrier\ns_endpgm\n");
    assert!(checks(dev.events()).is_empty(), "{:#?}", dev.events());
}

#[test]
fn a_wave_that_leaves_the_workgroups_barriers_is_reported_but_one_ending_before_any_is_not() {
    // Both waves meet at the first barrier; wave 1 then ends (pc 5) while wave 0 goes on to
    // a second barrier (pc 4).
    let text = "s_barrier\n\
                v_readfirstlane_b32 s1, v0\n\
                s_cmp_eq_u32 s1, 0\n\
                s_cbranch_scc0 done\n\
                s_barrier\n\
                done:\n\
                s_endpgm\n";
    let dev = run2(text);
    let b = of_kind(&dev, "barrier_divergence");
    assert_eq!(b.len(), 1, "{:#?}", dev.events());
    assert_eq!((b[0].wave, pcs(b[0])), (0, vec![4, 5]));
    assert_eq!(
        b[0].detail.as_ref().expect("the event's detail").waves,
        vec![1]
    );
    // A whole wave returning before any barrier (past the end of the data) is fine.
    let early = "v_readfirstlane_b32 s1, v0\n\
                 s_cmp_eq_u32 s1, 0\n\
                 s_cbranch_scc0 done\n\
                 s_barrier\n\
                 s_barrier\n\
                 done:\n\
                 s_endpgm\n";
    let dev = run2(early);
    assert!(checks(dev.events()).is_empty(), "{:#?}", dev.events());
    // And ending after the workgroup's last barrier is the normal end.
    let late = text.replace("s_barrier\ndone:", "s_nop 0\ndone:");
    assert_ne!(late, text);
    let dev = run2(&late);
    assert!(checks(dev.events()).is_empty(), "{:#?}", dev.events());
}

/// Runs `text` on a grid of `workgroups` workgroups of 2 waves, s[2:3] = 0x1000 and s0 the
/// workgroup.
fn grid(text: &str, cfg: RunConfig) -> GridRun {
    let prog = assemble(text);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let init: WaveInit = std::sync::Arc::new(|g: u32, w: &mut Wave| {
        w.set_sreg(0, g);
        w.set_sreg(2, 0x1000);
    });
    let run = run_grid(&prog.lines, &cfg, &GlobalMemory::new, &init).expect("config");
    run.result.clone().expect("the program runs");
    run
}

#[test]
fn plain_global_stores_of_two_workgroups_to_one_byte_race_atomics_do_not() {
    // Every workgroup stores its id + v0 to the same 64 dwords (4 × v0 from 0x1000).
    let store = "v_lshlrev_b32 v1, 2, v0\nv_add_nc_u32 v2, s0, v0\n\
                 global_store_b32 v1, v2, s[2:3]\ns_endpgm\n";
    let base = RunConfig {
        workgroups: 3,
        waves: 2,
        threads: 2,
        wgps: 3,
        ..RunConfig::default()
    };
    for cfg in [
        base.clone(),
        RunConfig {
            together: true,
            ..base.clone()
        },
        RunConfig {
            seed: 7,
            ..base.clone()
        },
    ] {
        let r = grid(store, cfg.clone());
        assert_eq!(r.schedule, Schedule::Together);
        let races: Vec<&Event> = r
            .device
            .events()
            .iter()
            .filter(|e| e.kind == "global_race")
            .collect();
        assert!(!races.is_empty(), "{cfg:?}: {:#?}", r.device.events());
        for e in &races {
            assert_eq!(pcs(e), vec![2, 2]);
            assert!(e.message.contains("write-after-write"), "{}", e.message);
            let a = e
                .detail
                .as_ref()
                .expect("the event's detail")
                .address
                .expect("an address");
            assert!((0x1000..0x1100).contains(&a), "{a:#x}");
        }
        // Every wave of workgroups 1 and 2 overwrote an earlier workgroup's bytes: one
        // event per instruction execution.
        assert_eq!(races.len(), 4, "{:#?}", races);
        assert!(checks(r.device.events())
            .iter()
            .all(|e| e.kind == "global_race"));
        // The grouping of `check`: one finding, both instructions.
        let f = findings(r.device.events());
        assert_eq!(f.len(), 1);
        assert_eq!(
            (f[0].kind, &f[0].pcs[..], f[0].count),
            ("global_race", &[2, 2][..], 4)
        );
    }
    // The same value from every workgroup (v0 alone): a harmless race, not reported.
    let same = "v_lshlrev_b32 v1, 2, v0\nglobal_store_b32 v1, v0, s[2:3]\ns_endpgm\n";
    let r = grid(same, base.clone());
    assert!(
        checks(r.device.events()).is_empty(),
        "{:#?}",
        r.device.events()
    );
    // Atomic adds to the same bytes: no race, and the sums are right.
    let atomic = "v_lshlrev_b32 v1, 2, v0\nv_mov_b32 v2, 1\nglobal_atomic_add_u32 v1, v2, s[2:3]\n\
                  s_endpgm\n";
    let r = grid(atomic, base.clone());
    assert!(
        checks(r.device.events()).is_empty(),
        "{:#?}",
        r.device.events()
    );
    assert_eq!(r.device.memory().words(0x1000, 0x1100), vec![3; 64]);
    // Reading what another workgroup writes races too (read-after-write or write-after-read).
    let read = "v_lshlrev_b32 v1, 2, v0\n\
                s_cmp_eq_u32 s0, 0\n\
                s_cbranch_scc0 reader\n\
                global_store_b32 v1, v0, s[2:3]\n\
                s_endpgm\n\
                reader:\n\
                global_load_b32 v3, v1, s[2:3]\n\
                s_waitcnt vmcnt(0)\n\
                s_endpgm\n";
    let r = grid(
        read,
        RunConfig {
            workgroups: 2,
            ..base.clone()
        },
    );
    let races: Vec<&Event> = r
        .device
        .events()
        .iter()
        .filter(|e| e.kind == "global_race")
        .collect();
    assert!(!races.is_empty(), "{:#?}", r.device.events());
    for e in races {
        let mut p = pcs(e);
        p.sort();
        assert_eq!(p, vec![3, 5]);
    }
    // Disjoint stores: apart, clean.
    let disjoint = "s_lshl_b32 s4, s0, 6\nv_add_nc_u32 v1, s4, v0\nv_lshlrev_b32 v1, 2, v1\n\
                    global_store_b32 v1, v0, s[2:3]\ns_endpgm\n";
    let r = grid(disjoint, base);
    assert!(matches!(r.schedule, Schedule::Apart { .. }));
    assert!(
        checks(r.device.events()).is_empty(),
        "{:#?}",
        r.device.events()
    );
}

#[test]
fn findings_group_a_race_by_its_two_instructions() {
    let dev = run2(&exchange("s_barrier\n"));
    let f = findings(dev.events());
    let race: Vec<_> = f.iter().filter(|f| f.kind == "lds_race").collect();
    assert_eq!(race.len(), 1, "{f:#?}");
    assert_eq!((&race[0].pcs[..], race[0].count), (&[4, 1][..], 2));
    assert_eq!(race[0].waves, vec![0, 1]);
    assert_eq!(race[0].lanes, (0..32).collect::<Vec<u32>>());
}

#[test]
fn dword_accesses_then_a_byte_access_keep_each_bytes_history() {
    // The shadow keeps whole-dword accesses as one entry per dword until something touches
    // part of one; then every byte must carry its dword's history. Both waves read dword 0
    // (no race between reads); then wave 1 writes byte 2 of it with no barrier: a
    // write-after-read race with wave 0's read, found at byte 2.
    let text = "v_mov_b32 v1, 0\nds_load_b32 v2, v1\ns_waitcnt lgkmcnt(0)\n\
                v_cmp_eq_u32 vcc_lo, 32, v0\ns_and_saveexec_b32 s4, vcc_lo\n\
                s_cbranch_execz done\nds_store_b8 v1, v0 offset:2\ndone:\ns_waitcnt lgkmcnt(0)\n\
                s_endpgm\n";
    let cfg = RunConfig {
        lds_init: gpumemsim::lds::LdsInit::Zero,
        ..RunConfig::default()
    };
    let prog = assemble(text);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let cfg = RunConfig { waves: 2, ..cfg };
    let mut dev = Device::new(&cfg, prog.lines.len()).expect("config");
    // Dword 0 was written before the launch's reads (set up as the host would).
    dev.lds_mut(0).fill_words(0, &[7]);
    dev.run(&prog.lines, &cfg).expect("runs");
    let races = of_kind(&dev, "lds_race");
    assert_eq!(races.len(), 1, "{:#?}", dev.events());
    assert!(
        races[0].message.starts_with("write-after-read"),
        "{}",
        races[0].message
    );
    assert_eq!(
        races[0]
            .detail
            .as_ref()
            .expect("the event's detail")
            .address,
        Some(2)
    );
    assert_eq!(pcs(races[0]), vec![6, 1]);
}

/// One load racing with more earlier instructions than a 64-bit race mask tells apart. Two
/// wave64 waves; each wave's lane 0 stores dwords 0 to 64, one `ds_store_b32` each (pcs 2 to
/// 66); after a barrier with no wait before it, each lane loads 8 bytes at 8 × the lane, at
/// most at byte 256 (pc 72). The wave that stored first loads after the other stored over its
/// dwords: its load races with the other wave's 65 stores, store `k` with lane `k / 2` alone
/// for `k < 64`, and store 64 (byte 256) with lanes 32 to 63, which all read the same bytes
/// (a broadcast: each takes the findings of the lane before). Each race must name exactly
/// its own lanes.
#[test]
fn a_load_racing_with_more_than_64_instructions_credits_each_lane_to_its_own_races() {
    let mut text = String::from("s_mov_b64 exec, 1\nv_mov_b32 v1, 0\n");
    for k in 0..65 {
        text += &format!("ds_store_b32 v1, v0 offset:{}\n", 4 * k);
    }
    text += "s_barrier\ns_mov_b64 exec, -1\nv_and_b32 v7, 63, v0\nv_lshlrev_b32 v6, 3, v7\n\
             v_min_u32 v6, 0x100, v6\nds_load_b64 v[2:3], v6\n\
             s_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let cfg = RunConfig {
        wave_size: 64,
        ..RunConfig::default()
    };
    let dev = run_waves(&text, 2, cfg);
    let events = of_kind(&dev, "lds_race");
    let mut races: Vec<(usize, Vec<u32>)> = events
        .iter()
        .filter(|e| e.pc == 72)
        .map(|e| {
            let d = e.detail.as_ref().expect("the event's detail");
            assert_eq!(d.waves, vec![1 - e.wave], "{e:#?}");
            (d.pcs[0], d.lanes.clone())
        })
        .collect();
    races.sort();
    let truth: Vec<(usize, Vec<u32>)> = (0..65u32)
        .map(|k| {
            let lanes = if k < 64 {
                vec![k / 2]
            } else {
                (32..64).collect()
            };
            (2 + k as usize, lanes)
        })
        .collect();
    assert_eq!(races, truth);
}

/// Both waves store a dword (lane 0), take a ticket from an LDS counter with `ds_add_rtn`,
/// and the wave that takes the second reads both dwords, with no barrier. `wait` is what
/// comes between the store and the ticket.
fn last_wave(wait: &str) -> String {
    format!(
        "s_mov_b32 exec_lo, 1\n\
         v_lshlrev_b32 v3, 2, v0\n\
         ds_store_b32 v3, v0 offset:256\n\
         {wait}\
         v_mov_b32 v1, 0\n\
         v_mov_b32 v2, 1\n\
         ds_add_rtn_u32 v4, v1, v2\n\
         s_waitcnt lgkmcnt(0)\n\
         v_readfirstlane_b32 s1, v4\n\
         s_cmp_eq_u32 s1, 1\n\
         s_cbranch_scc0 done\n\
         v_mov_b32 v5, 0\n\
         ds_load_b32 v6, v5 offset:256\n\
         ds_load_b32 v7, v5 offset:384\n\
         ds_store_b32 v5, v5\n\
         s_waitcnt lgkmcnt(0)\n\
         done:\n\
         s_endpgm\n"
    )
}

#[test]
fn an_lds_atomic_hands_over_what_its_wave_waited_for() {
    for seed in 0..6 {
        let cfg = RunConfig {
            seed,
            ..RunConfig::default()
        };
        // Waited for before the ticket (a release): the last wave's reads are ordered after
        // both stores, and its reset of the counter after both tickets.
        let dev = run_waves(&last_wave("s_waitcnt lgkmcnt(0)\n"), 2, cfg.clone());
        assert!(
            of_kind(&dev, "lds_race").is_empty(),
            "seed {seed}: {:#?}",
            dev.events()
        );
        // Not waited for (a relaxed atomic): the other wave's store is not ordered before
        // the read, whichever order the waves ran in.
        let dev = run_waves(&last_wave(""), 2, cfg);
        assert!(
            !of_kind(&dev, "lds_race").is_empty(),
            "seed {seed}: {:#?}",
            dev.events()
        );
    }
}

#[test]
fn a_wave_that_skips_a_barrier_after_touching_memory_and_ends_is_reported() {
    // pcs: 0-2 the test, 3 wave 0's s_barrier, 4 s_endpgm, 5 wave 1's store, 6 s_endpgm.
    let dev = run2(&per_wave(
        "s_barrier\ns_endpgm\n",
        "ds_store_b32 v1, v0\ns_endpgm\n",
    ));
    let b = of_kind(&dev, "barrier_divergence");
    assert_eq!(b.len(), 1, "{:#?}", dev.events());
    // Named by the barrier and the ended wave's last access.
    assert_eq!((b[0].wave, pcs(b[0])), (0, vec![3, 5]));
    // The same wave ending with no memory access (a whole wave past the end of the data)
    // is not reported.
    let dev = run2(&per_wave("s_barrier\ns_endpgm\n", "s_nop 0\ns_endpgm\n"));
    assert!(
        of_kind(&dev, "barrier_divergence").is_empty(),
        "{:#?}",
        dev.events()
    );
}

/// A workgroup slot's next workgroup starts with no wave's last access: wave 1 of workgroup
/// 0 stores and ends without the barrier (reported); wave 1 of every later workgroup ends
/// having accessed nothing (not reported), also in the slot workgroup 0 left.
#[test]
fn a_reused_slot_forgets_the_last_accesses_of_its_earlier_workgroup() {
    // pcs: 0-2 the test of the wave, 3-4 the test of the workgroup, 5-6 the store, 7 the
    // branch, 8 the barrier, 9 s_endpgm. The event names the barrier, then the store.
    let text = "v_readfirstlane_b32 s1, v0
                s_cmp_eq_u32 s1, 0
                s_cbranch_scc1 wait
                s_cmp_eq_u32 s0, 0
                s_cbranch_scc0 done
                v_mov_b32 v1, 0
                ds_store_b32 v1, v0
                s_branch done
                wait:
                s_barrier
                done:
                s_endpgm
";
    // 64 KiB of LDS each: two workgroups resident on the one WGP, eight in all, so later
    // workgroups start in the slots earlier ones left.
    let cfg = RunConfig {
        workgroups: 8,
        waves: 2,
        wgps: 1,
        lds_size: 65536,
        // Slots made as workgroups start and reused when they end, as a launch has them.
        release_finished: true,
        ..RunConfig::default()
    };
    let r = grid(text, cfg);
    let b = of_kind(&r.device, "barrier_divergence");
    assert_eq!(b.len(), 1, "{:#?}", r.device.events());
    assert_eq!(pcs(b[0]), vec![8, 6]);
}

#[test]
fn a_write_write_race_of_the_value_the_byte_held_is_a_note() {
    // Both waves store to word 0 with no barrier: the same value (v2 = 7), then different
    // values (their lane ids).
    let same = "v_mov_b32 v1, 0\nv_mov_b32 v2, 7\nds_store_b32 v1, v2\ns_endpgm\n";
    let dev = run2(same);
    assert!(of_kind(&dev, "lds_race").is_empty(), "{:#?}", dev.events());
    assert_eq!(
        of_kind(&dev, "lds_race_same_value").len(),
        1,
        "{:#?}",
        dev.events()
    );
    assert!(gpumemsim::check::is_note("lds_race_same_value"));
    let different = "v_mov_b32 v1, 0\nds_store_b32 v1, v0\ns_endpgm\n";
    let dev = run2(different);
    assert_eq!(of_kind(&dev, "lds_race").len(), 1, "{:#?}", dev.events());
    assert!(of_kind(&dev, "lds_race_same_value").is_empty());
}
