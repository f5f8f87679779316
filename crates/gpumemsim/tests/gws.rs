//! Many workgroups: GWS barriers and semaphores, ordered count, deadlock reports, NACKs and
//! the GWS programming rules (docs/rules/gds-gws.md#gws-and-ordered-count-programming-rules).

use gpumemsim::event::Event;
use gpumemsim::exec::{Device, RunConfig, RunError};
use gpumemsim::isa::asm::{assemble, Program};
use gpumemsim::wave::Wave;

fn example(name: &str) -> Program {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let prog = assemble(&text);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    prog
}

fn run(
    prog: &Program,
    cfg: &RunConfig,
    setup: impl Fn(&mut Wave, usize),
) -> (Device, Result<(), RunError>) {
    let mut dev = Device::new(cfg, prog.lines.len()).expect("config");
    for (i, w) in dev.waves_mut().iter_mut().enumerate() {
        setup(w, i);
    }
    let r = dev.run(&prog.lines, cfg);
    (dev, r)
}

fn set_all(w: &mut Wave, reg: u32, v: u32) {
    for l in 0..w.size {
        w.set_vgpr(reg, l, v);
    }
}

/// The events of `kind`.
fn events_of<'a>(dev: &'a Device, kind: &str) -> Vec<&'a Event> {
    dev.events().iter().filter(|e| e.kind == kind).collect()
}

/// The messages of the events of `kind`.
fn messages_of<'a>(dev: &'a Device, kind: &str) -> Vec<&'a str> {
    events_of(dev, kind)
        .into_iter()
        .map(|e| e.message.as_str())
        .collect()
}

/// Runs `src` (which must run to its end) with M0 = 0x1000, v1 = 5 in every lane and
/// s1 = `s1(wave)`: the set-up of the ordered-count tests.
fn run_ordered(src: &str, cfg: &RunConfig, s1: impl Fn(usize) -> u32) -> Device {
    let (dev, r) = run(&assemble(src), cfg, |w, i| {
        w.set_m0(0x1000);
        w.set_sreg(1, s1(i));
        set_all(w, 1, 5);
    });
    r.expect("runs");
    dev
}

#[test]
fn gws_barrier_holds_across_workgroups_for_every_seed() {
    let prog = example("gws-barrier.s");
    for seed in 0..20 {
        let cfg = RunConfig {
            workgroups: 4,
            waves: 2,
            seed,
            // Every workgroup must be resident for the GWS barrier: two per WGP.
            wgps: 2,
            ..RunConfig::default()
        };
        let (dev, r) = {
            let mut dev = Device::new(&cfg, prog.lines.len()).expect("config");
            dev.gws_mut().resources[0].counter = 7;
            for (i, w) in dev.waves_mut().iter_mut().enumerate() {
                w.set_m0(0x1000);
                set_all(w, 1, i as u32 * 4);
                set_all(w, 2, 1);
                set_all(w, 3, ((i as u32 + 1) % 8) * 4);
                set_all(w, 4, 7);
            }
            let r = dev.run(&prog.lines, &cfg);
            (dev, r)
        };
        r.expect("runs");
        for (i, w) in dev.waves().iter().enumerate() {
            assert_eq!(
                w.vgpr(5, 0),
                1,
                "seed {seed}: wave {i} read its neighbour's mark"
            );
        }
        assert!(dev.events().is_empty(), "{:?}", dev.events());
        assert!(dev.gws().resources[0].flag, "one pass flips the flag");
        assert_eq!(dev.gws().resources[0].counter, 7, "re-armed");
    }
}

#[test]
fn seeds_change_the_interleaving() {
    // Without synchronisation, which wave's store lands last depends on the schedule.
    let prog = assemble("ds_store_b32 v1, v2 gds\ns_waitcnt lgkmcnt(0)\ns_endpgm\n");
    let mut last = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let cfg = RunConfig {
            waves: 8,
            seed,
            ..RunConfig::default()
        };
        let (dev, r) = run(&prog, &cfg, |w, i| {
            w.set_m0(0x1000);
            set_all(w, 1, 0);
            set_all(w, 2, i as u32);
        });
        r.expect("runs");
        last.insert(dev.gds().words(0, 4)[0]);
    }
    assert!(
        last.len() > 1,
        "all 20 seeds gave the same last writer: {last:?}"
    );
}

#[test]
fn producer_consumer_semaphore_for_every_seed() {
    let prog = example("gws-semaphore.s");
    for seed in 0..20 {
        let cfg = RunConfig {
            waves: 4,
            seed,
            ..RunConfig::default()
        };
        let (dev, r) = run(&prog, &cfg, |w, i| {
            w.set_sreg(1, i as u32);
            w.set_m0(0x1000);
            set_all(w, 1, 0);
            set_all(w, 2, 42);
            set_all(w, 4, 3);
        });
        r.expect("runs");
        let got: Vec<u32> = dev.waves().iter().map(|w| w.vgpr(3, 0)).collect();
        assert_eq!(got, [0, 42, 42, 42], "seed {seed}");
        assert_eq!(dev.gws().resources[3].counter, 0);
        assert!(dev.events().is_empty(), "{:?}", dev.events());
    }
}

#[test]
fn ordered_append_is_in_creation_order_for_every_seed() {
    let prog = example("ordered-append.s");
    let mut first: Option<Vec<u32>> = None;
    for seed in 0..20 {
        let cfg = RunConfig {
            workgroups: 3,
            waves: 2,
            seed,
            ..RunConfig::default()
        };
        let (dev, r) = run(&prog, &cfg, |w, i| {
            w.set_m0(0x1000);
            set_all(w, 1, (i as u32 + 1) * 4);
            set_all(w, 3, i as u32 + 100);
        });
        r.expect("runs");
        let bases: Vec<u32> = dev.waves().iter().map(|w| w.vgpr(2, 0)).collect();
        assert_eq!(
            bases,
            [0, 4, 12, 24, 40, 60],
            "seed {seed}: bases in creation order"
        );
        let gds = dev.gds().words(0, 88);
        match &first {
            None => first = Some(gds),
            Some(f) => assert_eq!(&gds, f, "seed {seed}"),
        }
        assert_eq!(dev.ordered().counters[0].value, 84);
    }
}

#[test]
fn ordered_alloc_wraps_a_ring() {
    let prog = example("ordered-append.s");
    let cfg = RunConfig {
        waves: 4,
        ordered_rings: [Some(16), None, None, None],
        ..RunConfig::default()
    };
    let (dev, r) = run(&prog, &cfg, |w, i| {
        w.set_m0(0x1000);
        set_all(w, 1, 4 * (i as u32 + 1));
        set_all(w, 3, i as u32);
    });
    r.expect("runs");
    let bases: Vec<u32> = dev.waves().iter().map(|w| w.vgpr(2, 0)).collect();
    // 0, 4, 12, (24 % 16 =) 8; final (8 + 16) % 16 = 8.
    assert_eq!(bases, [0, 4, 12, 8]);
    assert_eq!(dev.ordered().counters[0].value, 8);
}

#[test]
fn a_deadlock_is_reported_with_every_wave_and_what_it_waits_for() {
    let prog = assemble(
        "s_cmp_eq_u32 s1, 0\ns_cbranch_scc1 alone\ns_barrier\ns_endpgm\n\
         alone:\ns_waitcnt lgkmcnt(0)\nds_gws_sema_p offset:5 gds\ns_waitcnt lgkmcnt(0)\ns_endpgm\n",
    );
    let cfg = RunConfig {
        waves: 3,
        ..RunConfig::default()
    };
    let (_, r) = run(&prog, &cfg, |w, i| w.set_sreg(1, i as u32));
    let Err(RunError::Deadlock(waits)) = r else {
        panic!("expected a deadlock, got {r:?}");
    };
    assert_eq!(waits.len(), 3, "{waits:?}");
    assert!(
        waits[0].contains("wave 0") && waits[0].contains("GWS resource 5"),
        "{waits:?}"
    );
    assert!(
        waits[1].contains("wave 1") && waits[1].contains("s_barrier of workgroup 0"),
        "{waits:?}"
    );
}

#[test]
fn a_clamped_resource_id_nacks_and_stalls_the_wave() {
    let prog = assemble(
        "s_waitcnt lgkmcnt(0)\nds_gws_sema_v offset:6 gds\ns_waitcnt lgkmcnt(0)\ns_endpgm\n",
    );
    let cfg = RunConfig {
        gws: gpumemsim::gws::GwsConfig { base: 8, size: 4 },
        ..RunConfig::default()
    };
    let (dev, r) = run(&prog, &cfg, |w, _| w.set_m0(0));
    let nack = events_of(&dev, "gws_nack");
    assert_eq!(nack.len(), 1);
    assert!(
        nack[0].message.contains("clamped to 11"),
        "{}",
        nack[0].message
    );
    assert_eq!(dev.wave(0).pc, 1, "the wave rewound to the instruction");
    let Err(RunError::Deadlock(waits)) = r else {
        panic!("{r:?}")
    };
    assert!(waits[0].contains("NACK"), "{waits:?}");
    // In range it works: base 8 + offset 2.
    let prog = assemble(
        "s_waitcnt lgkmcnt(0)\nds_gws_sema_v offset:2 gds\ns_waitcnt lgkmcnt(0)\ns_endpgm\n",
    );
    let (dev, r) = run(&prog, &cfg, |w, _| w.set_m0(0));
    r.expect("runs");
    assert_eq!(dev.gws().resources[10].counter, 1);
}

#[test]
fn programming_rule_breaches_are_events() {
    let src = "ds_store_b32 v1, v2 gds\nds_gws_init v3 offset:1 gds\ns_nop 0\n\
               ds_ordered_count v4, v4 offset:256 gds\ns_endpgm\n";
    let prog = assemble(src);
    let (dev, r) = run(&prog, &RunConfig::default(), |w, _| w.set_m0(0x1000));
    r.expect("runs");
    let msgs = messages_of(&dev, "gws_rule");
    assert!(
        msgs.iter()
            .any(|m| m.contains("ds_gws_init") && m.contains("GDS operation(s) outstanding")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter()
            .any(|m| m.contains("ds_gws_init") && m.contains("not followed by s_waitcnt")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter()
            .any(|m| m.contains("followed directly by s_endpgm")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter()
            .any(|m| m.contains("v4 as both source and destination")),
        "{msgs:?}"
    );
    assert_eq!(
        dev.gws().resources[1].counter,
        0,
        "the instruction still executed (init with v3 = 0)"
    );
}

#[test]
fn exec_zero_acts_as_lane_0_only_for_init_br_barrier_and_ordered_count() {
    let src = "s_mov_b32 exec_lo, 0\ns_waitcnt lgkmcnt(0)\nds_gws_init v1 offset:1 gds\ns_waitcnt lgkmcnt(0)\n\
               ds_gws_sema_v offset:2 gds\ns_waitcnt lgkmcnt(0)\nds_gws_sema_br v1 offset:3 gds\ns_waitcnt lgkmcnt(0)\n\
               ds_ordered_count v2, v1 offset:256 gds\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let prog = assemble(src);
    let (dev, r) = run(&prog, &RunConfig::default(), |w, _| {
        w.set_m0(0x1000);
        w.set_vgpr(1, 0, 9);
    });
    r.expect("runs");
    assert_eq!(dev.gws().resources[1].counter, 9, "init used lane 0");
    assert_eq!(
        dev.gws().resources[2].counter,
        0,
        "sema_v with EXEC = 0 did nothing"
    );
    assert_eq!(dev.gws().resources[3].counter, 9, "sema_br used lane 0");
    assert_eq!(
        dev.ordered().counters[0].value,
        9,
        "ordered count used lane 0"
    );
}

#[test]
fn a_gws_wait_followed_directly_by_s_endpgm_is_a_rule_breach() {
    // docs/rules/gds-gws.md#gws-and-ordered-count-programming-rules: GWS instruction,
    // s_waitcnt lgkmcnt(0), then any instruction but s_endpgm (pad with s_nop).
    let breach =
        "s_waitcnt lgkmcnt(0)\nds_gws_init v1 offset:1 gds\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let padded = "s_waitcnt lgkmcnt(0)\nds_gws_init v1 offset:1 gds\ns_waitcnt_lgkmcnt null, 0\n\
                  s_nop 0\ns_endpgm\n";
    for (src, want) in [(breach, 1), (padded, 0)] {
        let (dev, r) = run(&assemble(src), &RunConfig::default(), |w, _| {
            w.set_m0(0x1000);
            set_all(w, 1, 4);
        });
        r.expect("runs");
        let msgs = messages_of(&dev, "gws_rule");
        assert_eq!(msgs.len(), want, "{src}: {msgs:?}");
        if want == 1 {
            assert!(msgs[0].contains("s_waitcnt lgkmcnt(0) is followed directly by s_endpgm"));
        }
        assert_eq!(
            dev.gws().resources[1].counter,
            4,
            "the instruction executed"
        );
    }
}

#[test]
fn ordered_count_is_once_per_wave() {
    // docs/rules/gds-gws.md#once-per-wave: each wave issues ds_ordered_count once. Wave 0 issues it twice (the second
    // request is still processed); with two waves where wave 0 skips it, wave 1's request
    // reports wave 0.
    let twice =
        "s_waitcnt lgkmcnt(0)\nds_ordered_count v2, v1 offset:256 gds\ns_waitcnt lgkmcnt(0)\n\
                 ds_ordered_count v3, v1 offset:256 gds\ns_waitcnt lgkmcnt(0)\ns_nop 0\ns_endpgm\n";
    let dev = run_ordered(twice, &RunConfig::default(), |_| 0);
    let e = events_of(&dev, "ordered_count_rule");
    assert_eq!(e.len(), 1, "{:?}", dev.events());
    assert_eq!(e[0].pc, 3, "the second request");
    assert_eq!(dev.ordered().counters[0].value, 10);
    assert_eq!(dev.wave(0).vgpr(3, 0), 5);

    let skip = "s_cmp_eq_u32 s1, 0\ns_cbranch_scc1 done\ns_waitcnt lgkmcnt(0)\n\
                ds_ordered_count v2, v1 offset:256 gds\ns_waitcnt lgkmcnt(0)\ns_nop 0\ndone:\ns_endpgm\n";
    let cfg = RunConfig {
        waves: 2,
        ..RunConfig::default()
    };
    let dev = run_ordered(skip, &cfg, |i| i as u32);
    let e = events_of(&dev, "ordered_count_rule");
    assert_eq!(e.len(), 1, "{:?}", dev.events());
    assert_eq!(e[0].wave, 1);
    assert_eq!(e[0].detail.as_ref().expect("names the wave").waves, [0]);
    // Every wave once: no event.
    let dev = run_ordered(skip, &cfg, |_| 1);
    assert!(
        !dev.events().iter().any(|e| e.kind == "ordered_count_rule"),
        "{:?}",
        dev.events()
    );
    assert_eq!(dev.ordered().counters[0].value, 10);
}
