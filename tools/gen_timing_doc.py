#!/usr/bin/env python3
"""Generate the parameter and validation tables of docs/timing.md from the simulator itself.

    python3 tools/gen_timing_doc.py [--check] [--bin PATH]

The script builds nothing: it runs an already built `gpumemsim` (default
target/release/gpumemsim; build it with `cargo build --release -p gpumemsim-cli`). It rewrites
the parts of docs/timing.md between

    <!-- generated: parameters -->  ...  <!-- end generated -->
    <!-- generated: validation -->  ...  <!-- end generated -->
    <!-- generated: delay-alu -->  ...  <!-- end generated -->

* parameters: every timing parameter the binary reports under "timing" of `run --json`, in
  that order, with its default value as the binary reports it, what it is, and the public
  source of the number (the texts are in SOURCES below). A parameter the binary reports and
  SOURCES lacks, or the other way round, is an error: the table never falls behind the code.
* validation: published figures the model can reproduce, beside the simulator's number,
  measured by writing small assembly programs to a temporary directory and running them
  through `gpumemsim run --json` (and `gpumemsim banks --json` for the NVIDIA bank model).

With --check nothing is written: the script exits 1, naming the section, when docs/timing.md
differs from what it would generate (for CI).

Standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DOC = os.path.join(ROOT, "docs", "timing.md")
DEFAULT_BIN = os.path.join(ROOT, "target", "release", "gpumemsim")
END = "<!-- end generated -->"

# ---- Sources -------------------------------------------------------------------------------

CC = "https://chipsandcheese.com/p/microbenchmarking-amds-rdna-3-graphics-architecture"
CCL = "https://chipsandcheese.com/p/latency-testing-is-hard-rdna-3-power-saving"
ISA3 = (
    "https://www.amd.com/content/dam/amd/en/documents/radeon-tech-docs/"
    "instruction-set-architectures/rdna3-shader-instruction-set-architecture-feb-2023_0.pdf"
)
LLVM = "llvm/llvm-project:llvm/lib/Target/AMDGPU/SISchedule.td:GFX11SpeedModel"
ACO = "mesa/mesa:src/amd/compiler/aco_statistics.cpp"
CUDA = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#shared-memory-5-x"
NV_FORUM = "https://forums.developer.nvidia.com/t/260900"
H200 = (
    "Nsight Compute on an NVIDIA H200 (tools/nvidia_banks/measure.sh; "
    "crates/gpumemsim/tests/golden/sm90_shared_measured.tsv, row `%s`)"
)

# Per parameter: what it is, the value its source gives, and the source (a link or
# repo:path:definition with a quote of at most 20 words, or "estimate: ..." with the reason).
# Only what the research notes record as read is cited.
SOURCES = {
    "salu": {
        "what": "issue cycles of a SALU instruction (it occupies its SIMD's scalar ALU); also "
        "the issue cycles of program control (`s_waitcnt`, branches; `s_nop N` takes N + 1) "
        "and SMEM instructions, which occupy no ALU",
        "value": "1",
        "source": f"`{ACO}:get_perf_info`: "
        "\"`case instr_class::salu: return {2, WAIT_USE(scalar, 1)};`\"; RDNA3 ISA guide 5.7: "
        "\"SALU ops typically complete in a single cycle\"",
    },
    "valu": {
        "what": "issue cycles of a VALU instruction per pass of 32 lanes (a wave64 takes two "
        "passes except the one-pass operations, [wave64 passes](#wave64-passes)); also a "
        "vector memory instruction's issue cycles per 32 lanes",
        "value": "1",
        "source": f"`{ACO}:get_perf_info`: valu32 \"`return {{5, WAIT_USE(valu, 1)}}`\"; "
        f"[RDNA3 ISA guide]({ISA3}) 7.2.3.2: \"it may issue twice as two wave32 "
        "instructions\"",
    },
    "f64_issue": {
        "what": "issue cycles of a double-precision VALU operation per pass of 32 lanes: the "
        "SIMD runs one FP64 lane-operation per cycle",
        "value": "32",
        "source": f"[Chips and Cheese]({CC}): an RDNA3 WGP does \"four FP64 operations\" per "
        "cycle, \"probably one per SIMD, per cycle\" (32 lanes: 32 cycles)",
    },
    "quarter_issue": {
        "what": "issue cycles of a quarter-rate VALU operation per pass of 32 lanes "
        "(`v_mul_lo_u32`, `v_mul_hi_u32`, `v_mul_hi_i32`, `v_mqsad_u32_u8`)",
        "value": "4",
        "source": f"`{ACO}:get_perf_info`: \"`valu_quarter_rate32: return {{8, "
        "WAIT_USE(valu, 4), ...}`\"; the class's members: `mesa/mesa:src/amd/compiler/"
        "aco_opcodes.py` (`InstrClass.ValuQuarterRate32`)",
    },
    "trans_issue": {
        "what": "cycles a transcendental occupies its SIMD's transcendental unit per pass of "
        "32 lanes; the wave issues it in `valu` cycles per pass and goes on",
        "value": "4",
        "source": f"`{ACO}:get_perf_info`: \"`valu_transcendental32: return {{10, "
        "WAIT_USE(valu, 1), WAIT_USE(valu_complex, 4)}`\"",
    },
    "quarter_latency": {
        "what": "cycles from a quarter-rate operation's issue until a dependent instruction "
        "can read its result",
        "value": "8",
        "source": f"`{LLVM}`: \"`HWWriteRes<WriteIntMul, [HWVALU, HWRC], 8>`\" "
        f"(`WriteQuarterRate32` 8); `{ACO}:get_perf_info`: `valu_quarter_rate32` 8",
    },
    "valu_latency": {
        "what": "cycles from a VALU instruction's issue until a dependent instruction can read "
        "its result",
        "value": "5",
        "source": f"`{LLVM}`: \"`HWWriteRes<Write32Bit, [HWVALU, HWRC], 5>`\"; "
        f"[Chips and Cheese]({CC}) measured: \"Common FP operations execute with 5 cycle "
        "latency\"",
    },
    "trans_latency": {
        "what": "the same for a transcendental (`v_exp`, `v_log`, `v_rcp`, `v_rsq`, `v_sqrt`, "
        "`v_sin`, `v_cos`)",
        "value": "10",
        "source": f"`{LLVM}`: \"`HWWriteRes<WriteTrans32, [HWTransVALU, HWRC], 10>`\"; "
        f"`{ACO}:get_perf_info`: \"`valu_transcendental32: return {{10, ...}}`\"",
    },
    "f64_latency": {
        "what": "the same for a double-precision operation",
        "value": "38",
        "source": f"`{LLVM}`: `WriteDouble`, `WriteDoubleAdd`, `WriteDoubleCvt` 38 "
        "(`WriteTrans64` 40)",
    },
    "salu_latency": {
        "what": "cycles from a SALU instruction's issue until a VALU instruction can read its "
        "result (a SALU reader has it at once)",
        "value": "2",
        "source": f"`{LLVM}`: \"`HWWriteRes<WriteSALU, [HWSALU, HWRC], 2>`\"; `{ACO}:"
        "get_perf_info`: \"`salu: return {2, ...}`\"",
    },
    "lds_issue": {
        "what": "cycles a conflict-free LDS instruction occupies the LDS pipe per 32 lanes; "
        "bank conflicts add cycles (the bank model's); DS instructions the bank model does "
        "not price take this. Also the cycles a wave spends issuing an LDS instruction per "
        "32 lanes (it goes on while the pipe works)",
        "value": "1 (wave32), 2 (wave64), up to 64",
        "source": f"[RDNA3 ISA guide]({ISA3}), \"Data Share Indexed and Atomic Access\": "
        "\"operations can complete in as little as one cycle (for wave32, or 2 cycles for "
        "wave64)\"",
    },
    "lds_latency": {
        "what": "cycles from an LDS instruction's last bank cycle until its data is in VGPRs "
        "and LGKMcnt drops",
        "value": "20",
        "source": f"`{LLVM}`: \"`HWWriteRes<WriteLDS, [HWLGKM, HWRC], 20>`\"; `{ACO}:"
        "get_wait_counter_info`: DS lgkm 20 (\"all a bit nonsense\"). A compiler value: "
        "Chips and Cheese's LDS latency is only a chart",
    },
    "vmem_issue": {
        "what": "cycles a vector memory instruction occupies its CU's request path per 32 "
        "lanes",
        "value": "1 (wave32), 2 (wave64)",
        "source": f"estimate: `{ACO}:get_perf_info`: "
        "\"`vmem: return {0, WAIT_USE(vmem, 1)}`\"; no public RDNA3 figure for the per-CU "
        "address rate",
    },
    "vmem_latency": {
        "what": "cycles from a vector memory instruction's last issue cycle until it "
        "completes, on a device whose vector caches are not modelled (the library's default "
        "`RunConfig`, which names no device): every access, hit or miss",
        "value": "320",
        "source": f"`{LLVM}`: \"`HWWriteRes<WriteVMEM, [HWVMEM, HWRC], 320>`\" (a compiler "
        f"placeholder); `{ACO}:get_wait_counter_info`: VMEM load 320",
    },
    "l0_latency": {
        "what": "cycles from a vector memory instruction's issue until a line its CU's L0 "
        "holds is back ([vector caches](#vector-caches))",
        "value": "none in text",
        "source": f"estimate: [Chips and Cheese]({CC}) gives the vector L0, L1 and L2 "
        "latencies only as a chart; chosen below the L1's and above the scalar cache's 38",
    },
    "l1_latency": {
        "what": "the same for a line the shader array's L1 serves",
        "value": "none in text",
        "source": "estimate: as `l0_latency`; between the L0's and the L2's",
    },
    "l2_latency": {
        "what": "the same for a line the L2 serves",
        "value": "none in text",
        "source": "estimate: as `l0_latency`; between the L1's and the Infinity Cache's",
    },
    "mall_latency": {
        "what": "the same for a line the Infinity Cache serves",
        "value": "≈376 (150.3 ns × 2.5 GHz)",
        "source": f"[Chips and Cheese]({CCL}): vector \"Infinity Cache latency dropped from "
        "199 ns to 150.3 ns with the card in a higher power state\" (RX 7900 XTX)",
    },
    "vram_latency": {
        "what": "the same for a line from VRAM",
        "value": "≈586 (234.55 ns × 2.5 GHz)",
        "source": f"[Chips and Cheese]({CCL}): RX 7900 XTX vector VRAM latency 234.55 ns in "
        "the higher power state",
    },
    "kcache_hit": {
        "what": "cycles from an SMEM load's issue to its data for a scalar-cache hit",
        "value": "≈38 (15.4 ns × 2.5 GHz)",
        "source": f"[Chips and Cheese]({CC}): \"Load-to-use latency for this cache is quite "
        "good at 15.4 ns for RDNA 3\" (test clock not stated); compilers: LLVM "
        "`WriteSMEM` 20, ACO 30",
    },
    "kcache_miss": {
        "what": "the same for a miss (the line is filled; a hit on a line still filling waits "
        "for the fill)",
        "value": "200",
        "source": f"estimate: `{ACO}:get_wait_counter_info`: non-descriptor SMEM "
        "\"`info[type] = 200`\" (\"a bit nonsense\"); no measured RDNA3 scalar miss in text",
    },
    "gds_issue": {
        "what": "cycles a GDS or GWS instruction occupies the device's one GDS unit",
        "value": "1",
        "source": f"`{ACO}:get_perf_info`: DS with GDS "
        "\"`perf_info{0, WAIT_USE(export_gds, 1)}`\"; GDS uses only the first active lane "
        "(RDNA3 ISA guide, chapter 13)",
    },
    "gds_latency": {
        "what": "cycles from a GDS instruction's issue to its completion",
        "value": "none public",
        "source": "estimate: nothing public; GDS is one unit for the whole chip, outside the "
        "WGP, so well above LDS (20) and of the order of an L2 hit",
    },
    "gws_latency": {
        "what": "cycles from a GWS or ordered-count instruction's issue (after any wait for "
        "other waves) to its completion",
        "value": "none public",
        "source": "estimate: nothing public; GDS latency plus arbitration for the 64 GWS "
        "resources (RDNA3 ISA guide, chapter 13)",
    },
}

# ---- Running the simulator -----------------------------------------------------------------


class Sim:
    def __init__(self, binary, tmp):
        self.binary = binary
        self.tmp = tmp
        self.count = 0

    def _call(self, args):
        p = subprocess.run([self.binary] + args, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(
                "gen_timing_doc: `%s` failed (%d):\n%s%s"
                % (" ".join(["gpumemsim"] + args), p.returncode, p.stdout, p.stderr)
            )
        try:
            return json.loads(p.stdout)
        except ValueError as e:
            sys.exit("gen_timing_doc: `gpumemsim %s` printed no JSON: %s" % (" ".join(args), e))

    def run(self, lines, *args):
        """Runs the program `lines` (a list of instructions; s_endpgm is appended)."""
        self.count += 1
        path = os.path.join(self.tmp, "p%03d.s" % self.count)
        with open(path, "w") as f:
            f.write("\n".join(list(lines) + ["s_endpgm"]) + "\n")
        return self._call(["run", path, "--json"] + list(args))

    def banks(self, *args):
        return self._call(["banks", "--json"] + list(args))


def per_step(sim, body, n, *args, count=1, key=lambda r: r["cycles"]):
    """How much `key` of a run grows per copy of `body` (a list of lines), divided by `count`
    (the items one copy holds): measured between n and 2n copies, so that what the program
    does once (its end, the last wait) cancels out."""
    a = key(sim.run(body * n, *args))
    b = key(sim.run(body * (2 * n), *args))
    return (b - a) / (n * count)


def lds_bytes(sim, op, width, n):
    """Bytes per LDS-pipe busy cycle of n conflict-free `op`s of one wave32 (`width` bytes a
    lane, lane i at i × width)."""
    dst = "v1" if width == 4 else "v[2:%d]" % (1 + width // 4)
    r = sim.run(["%s %s, v0" % (op, dst)] * n + ["s_waitcnt lgkmcnt(0)"],
                "--set", "v0=lane*%d" % width)
    return 32 * width * n / r["units"]["lds"]["busy_cycles"]


def wgp_bytes_per_cycle(sim, mode):
    """Bytes per cycle of one WGP running two workgroups of one wave32 each, each streaming
    conflict-free ds_load_b32 (measured between 64 and 128 loads a wave)."""
    args = ("--wgps", "1", "--workgroups", "2", "--lds-mode", mode, "--lds-size", "32768", "--set", "v0=lane*4")
    body = ["ds_load_b32 v1, v0"]
    n = 64
    a = sim.run(body * n + ["s_waitcnt lgkmcnt(0)"], *args)
    b = sim.run(body * (2 * n) + ["s_waitcnt lgkmcnt(0)"], *args)
    if b["placement"]["max_resident_workgroups"] != 2:
        sys.exit("gen_timing_doc: the two %s-mode workgroups were not resident together" % mode)
    return 2 * n * 32 * 4 / (b["cycles"] - a["cycles"])


# ---- The validation rows -------------------------------------------------------------------


def fmt(x):
    if isinstance(x, str):
        return x
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return "%.2f" % x


class Row:
    """One validation row: `measure(sim)` gives the simulator's number and, optionally, a note."""

    def __init__(self, what, published, expected, tol, source, measure, unit=""):
        self.what = what
        self.published = published
        self.expected = expected
        self.tol = tol  # 0: exact; ("rel", f) relative; ("abs", a) absolute
        self.source = source
        self.measure = measure
        self.unit = unit

    def render(self, sim):
        got = self.measure(sim)
        note = ""
        if isinstance(got, tuple):
            got, note = got
        if self.tol == 0:
            ok = abs(got - self.expected) < 1e-9
            tol = "exact"
        elif self.tol[0] == "rel":
            ok = abs(got - self.expected) <= self.tol[1] * abs(self.expected)
            tol = "±%d%%" % round(self.tol[1] * 100)
        else:
            ok = abs(got - self.expected) <= self.tol[1]
            tol = "±%s" % fmt(self.tol[1])
        shown = fmt(got) + self.unit + (" (%s)" % note if note else "")
        verdict = ("yes" if ok else "**no**") + " (%s)" % tol
        cells = (self.what, self.published, self.source, shown, verdict)
        return "| %s | %s | %s | %s | %s |" % cells


def valu_ratio(sim):
    key = lambda r: r["units"]["valu"]["busy_cycles"]
    xor = per_step(sim, ["v_xor_b32 v3, v1, v2"], 32, "--wave64", key=key)
    add = per_step(sim, ["v_add_f32 v3, v1, v2"], 32, "--wave64", key=key)
    return xor / add, "`v_xor_b32` %s, `v_add_f32` %s busy cycles each" % (fmt(xor), fmt(add))


def conflicted(sim):
    n = 32
    r = sim.run(["ds_load_b32 v1, v0"] * n + ["s_waitcnt lgkmcnt(0)"], "--set", "v0=lane*128")
    return r["units"]["lds"]["busy_cycles"] / n


def shared_pipe(sim):
    prog = ["ds_load_b32 v1, v0"] * 32 + ["s_waitcnt lgkmcnt(0)"]
    common = ("--wgps", "1", "--set", "v0=lane*128", "--lds-mode", "wgp", "--lds-size", "16384")
    one = sim.run(prog, "--workgroups", "1", *common)
    three = sim.run(prog, "--workgroups", "3", *common)
    if three["placement"]["max_resident_workgroups"] != 3:
        sys.exit("gen_timing_doc: the three workgroups were not resident together")
    return three["cycles"] / one["cycles"], "%d vs %d cycles" % (three["cycles"], one["cycles"])


def smem_chain(sim):
    link = ["s_load_b64 s[2:3], s[2:3], 0x0", "s_waitcnt lgkmcnt(0)"]
    args = ("--set", "s2=0x1000", "--set", "s3=0", "--mem", "0x1000=0x1000,0")
    r = sim.run(link * 8, *args)
    if r["kcache"]["hits"] != 7:
        sys.exit("gen_timing_doc: the scalar-cache chain did not hit: %s" % r["kcache"])
    return per_step(sim, link, 8, *args)


def chase_program(ws, loads, load=True):
    """One lane walks a working set of `ws` bytes (a power of two) in 128-byte steps, `loads`
    times, each load waited for before the next address is made."""
    body = ["global_load_b32 v1, v2, s[0:1]", "s_waitcnt vmcnt(0)"] if load else ["v_mov_b32 v1, 0"]
    return (
        ["s_mov_b32 exec_lo, 1", "v_mov_b32 v2, 0", "s_mov_b32 s4, %d" % loads, "loop:"]
        + body
        + ["v_add_nc_u32 v2, 128, v2", "v_and_b32 v2, 0x%x, v2" % (ws - 1), "s_sub_u32 s4, s4, 1",
           "s_cmp_lg_u32 s4, 0", "s_cbranch_scc1 loop"]
    )


CHASE_ARGS = ("--set", "s0=0x10000000", "--set", "s1=0", "--max-steps", "100000000")


CHASED = {}


def chase(sim, ws):
    """Cycles per load of a pointer chase over `ws` bytes: once the set has been walked once
    (a second pass less the first), less the same loop without its load (each set measured
    once per run of the script). A set past every cache (VRAM) is measured on its first
    pass, which misses everywhere: 4,096 loads against 8,192, not two passes of a million."""
    if ws not in CHASED:
        n = ws // 128 if ws < VRAM_SET else 4096
        CHASED[ws] = chase_steps(sim, ws, n)
    return CHASED[ws]


def chase_steps(sim, ws, n):
    per = lambda load: (
        sim.run(chase_program(ws, 2 * n, load), *CHASE_ARGS)["cycles"]
        - sim.run(chase_program(ws, n, load), *CHASE_ARGS)["cycles"]
    ) / n
    return per(True) - per(False)


VRAM_SET = 128 << 20
CHASE_SETS = [("16 KB", 16 << 10), ("128 KB", 128 << 10), ("2 MB", 2 << 20),
              ("8 MB", 8 << 20), ("128 MB", VRAM_SET)]


def chase_order(sim):
    got = [chase(sim, ws) for _, ws in CHASE_SETS]
    ordered = all(a < b for a, b in zip(got, got[1:]))
    note = ", ".join("%s %s" % (name, fmt(g)) for (name, _), g in zip(CHASE_SETS, got))
    return (1 if ordered else 0), note


def nv(arch, op, addr, active=None):
    def measure(sim):
        args = ["--arch", arch, "--op", op, "--addr", addr]
        if active:
            args += ["--active", active]
        r = sim.banks(*args)
        return r["wavefronts"], "bank conflicts: %d" % r["bank_conflicts"]

    return measure


ROWS = [
    Row(
        "dependent `v_add_f32` chain (wave32): cycles per link",
        "5 cycles",
        5,
        0,
        f"[Chips and Cheese]({CC}): \"Common FP operations execute with 5 cycle latency\"; "
        f"`{LLVM}`: `Write32Bit` 5",
        lambda sim: per_step(sim, ["v_add_f32 v1, v1, v2"], 32),
    ),
    Row(
        "dependent `v_exp_f32` chain: cycles per link",
        "10 cycles",
        10,
        0,
        f"`{LLVM}`: `WriteTrans32` 10; ACO `valu_transcendental32` 10",
        lambda sim: per_step(sim, ["v_exp_f32 v1, v1"], 32),
    ),
    Row(
        "dependent `v_mul_lo_u32` chain: cycles per link",
        "8 cycles",
        8,
        0,
        f"`{LLVM}`: `WriteIntMul` 8; ACO `valu_quarter_rate32` 8",
        lambda sim: per_step(sim, ["v_mul_lo_u32 v1, v1, v2"], 32),
    ),
    Row(
        "independent `v_mul_lo_u32` (wave32, one SIMD): cycles per instruction",
        "4 (a quarter of `v_add_f32`'s rate)",
        4,
        0,
        f"`{ACO}:get_perf_info`: `valu_quarter_rate32` \"`WAIT_USE(valu, 4)`\"",
        lambda sim: per_step(
            sim, ["v_mul_lo_u32 v%d, v1, v2" % r for r in range(3, 35)], 1, count=32
        ),
    ),
    Row(
        "independent `v_rcp_f32` (wave32, one SIMD): cycles per instruction",
        "4 (a quarter of `v_add_f32`'s rate)",
        4,
        0,
        f"`{ACO}:get_perf_info`: `valu_transcendental32` \"`WAIT_USE(valu_complex, 4)`\"",
        lambda sim: per_step(sim, ["v_rcp_f32 v%d, v1" % r for r in range(3, 35)], 1, count=32),
    ),
    Row(
        "independent `v_rcp_f32` (wave64, one SIMD): cycles per instruction",
        "8 (two passes of 4)",
        8,
        0,
        f"as above, and [RDNA3 ISA guide]({ISA3}) 7.2.3.2: a wave64 instruction \"may issue "
        "twice as two wave32 instructions\"",
        lambda sim: per_step(
            sim, ["v_rcp_f32 v%d, v1" % r for r in range(3, 35)], 1, "--wave64", count=32
        ),
    ),
    Row(
        "`s_nop 15`: cycles until the next instruction issues",
        "16 (SIMM16[3:0] + 1)",
        16,
        0,
        f"[RDNA3 ISA guide]({ISA3}), S_NOP: \"for i in 0U : SIMM16.u16[3 : 0].u32 do nop()\"",
        lambda sim: per_step(sim, ["s_nop 15"], 8),
    ),
    Row(
        "dependent `v_add_f64` chain: cycles per link",
        "38 cycles",
        38,
        0,
        f"`{LLVM}`: `WriteDouble` 38",
        lambda sim: per_step(sim, ["v_add_f64 v[2:3], v[2:3], v[4:5]"], 32),
    ),
    Row(
        "independent `v_add_f32` (wave32, one SIMD): cycles per instruction",
        "1 (one VALU instruction per cycle per SIMD)",
        1,
        0,
        f"`{ACO}:get_perf_info`: valu32 \"`WAIT_USE(valu, 1)`\"; \"RDNA issues instructions "
        "every cycle\" (RDNA ISA guide, via [docs/rules/timing.md#issue](rules/timing.md#issue))",
        lambda sim: per_step(
            sim, ["v_add_f32 v%d, v1, v2" % r for r in range(3, 35)], 1, count=32
        ),
    ),
    Row(
        "independent `v_add_f64` (wave32, one SIMD): cycles per instruction",
        "32 (one FP64 lane-operation per SIMD per cycle)",
        32,
        ("rel", 0.10),
        f"[Chips and Cheese]({CC}): a WGP does \"four FP64 operations\" per cycle, \"probably "
        "one per SIMD, per cycle\"",
        lambda sim: per_step(
            sim,
            ["v_add_f64 v[%d:%d], v[2:3], v[4:5]" % (r, r + 1) for r in range(6, 70, 2)],
            1,
            count=32,
        ),
    ),
    Row(
        "wave64 VALU busy cycles, `v_xor_b32` ÷ `v_add_f32`",
        "2 (two passes vs one)",
        2,
        0,
        f"[RDNA3 ISA guide]({ISA3}) 7.2.3.2: \"it may issue twice as two wave32 "
        f"instructions\"; `{ACO}:is_dual_issue_capable` lists `v_add_f32`, not `v_xor_b32`",
        valu_ratio,
    ),
    Row(
        "conflict-free wave32 `ds_load_b32` stream: bytes per LDS-pipe busy cycle",
        "128 B/clk per CU (32 banks × 4 B)",
        128,
        0,
        f"[RDNA3 ISA guide]({ISA3}), \"Local Data Share\": 32 banks per pair of SIMD32s, \"Each "
        "bank is a 512x32 two-port RAM (1R/1W per clock cycle)\"",
        lambda sim: lds_bytes(sim, "ds_load_b32", 4, 64),
        " B/clk",
    ),
    Row(
        "conflict-free wave32 `ds_load_b64` stream: bytes per LDS-pipe busy cycle",
        "128 B/clk per CU",
        128,
        0,
        "as above",
        lambda sim: lds_bytes(sim, "ds_load_b64", 8, 64),
        " B/clk",
    ),
    Row(
        "two CU-mode workgroups on one WGP (one per CU), `ds_load_b32` streams: bytes per cycle "
        "of the WGP",
        "256 B/clk per WGP (derived: 64 banks × 4 B)",
        256,
        0,
        f"[RDNA3 ISA guide]({ISA3}), \"Local Data Share\": \"128kB of memory per work-group "
        "processor split up into 64 banks of DWORD-wide RAMs\"",
        lambda sim: wgp_bytes_per_cycle(sim, "cu"),
        " B/clk",
    ),
    Row(
        "two WGP-mode workgroups on one WGP, `ds_load_b32` streams: bytes per cycle of the WGP",
        "256 B/clk per WGP (derived, as above)",
        256,
        0,
        "as above, \"two sets of 32-banks each\"; in WGP mode \"LDS space may be allocated "
        "anywhere\" and waves reach \"the near or far side of LDS equally\" "
        "([docs/rules/timing.md#lds-halves](rules/timing.md#lds-halves))",
        lambda sim: wgp_bytes_per_cycle(sim, "wgp"),
        " B/clk",
    ),
    Row(
        "32-way conflicted column read (`ds_load_b32` at lane × 128 B): bank cycles per "
        "instruction",
        "32 (one read per bank per clock)",
        32,
        0,
        f"[RDNA3 ISA guide]({ISA3}): \"1R/1W per clock cycle\"; operations \"take as many 64 "
        "cycles, depending upon the number of bank conflicts\"",
        conflicted,
    ),
    Row(
        "the same column read by three co-resident WGP-mode workgroups (16 KB each): run time "
        "÷ one workgroup's",
        "≈2 (two of them share one half's 32 banks)",
        2,
        ("rel", 0.05),
        "the ISA guide's bank structure (as above): a WGP's LDS is two sets of 32 banks, so "
        "three workgroups put two on one set",
        shared_pipe,
    ),
    Row(
        "dependent `s_load_b64` pointer chase hitting the scalar cache: cycles per link",
        "15.4 ns ≈ 38.5 cycles at 2.5 GHz",
        38.5,
        ("rel", 0.10),
        f"[Chips and Cheese]({CC}): \"Load-to-use latency for this cache is quite good at 15.4 "
        "ns for RDNA 3\"",
        smem_chain,
    ),
    Row(
        "pointer chase (one lane, 128-byte steps) over 8 MB, past the L2 (6 MB): cycles per "
        "load",
        "150.3 ns ≈ 376 cycles at 2.5 GHz (Infinity Cache)",
        376,
        ("rel", 0.25),
        f"[Chips and Cheese]({CCL}): RX 7900 XTX vector Infinity Cache latency 150.3 ns",
        lambda sim: chase(sim, 8 << 20),
    ),
    Row(
        "pointer chase over 128 MB, past the Infinity Cache (96 MB): cycles per load",
        "234.55 ns ≈ 586 cycles at 2.5 GHz (VRAM)",
        586,
        ("rel", 0.25),
        f"[Chips and Cheese]({CCL}): RX 7900 XTX vector VRAM latency 234.55 ns",
        lambda sim: chase(sim, VRAM_SET),
    ),
    Row(
        "pointer chase plateaus over 16 KB, 128 KB, 2 MB, 8 MB and 128 MB (L0, L1, L2, "
        "Infinity Cache, VRAM): ordered nearest fastest",
        "1 (ordered: each level slower than the one before)",
        1,
        0,
        f"the levels' order (AMD's RDNA3 cache hierarchy); [Chips and Cheese]({CC}) charts",
        chase_order,
    ),
    Row(
        "NVIDIA sm80 `LDS.32`, stride one 32-bit word: wavefronts",
        "1 (no bank conflict)",
        1,
        0,
        f"[CUDA C++ Programming Guide]({CUDA}): \"Linear addressing with a stride of one 32-bit "
        "word (no bank conflict)\"",
        nv("sm80", "lds.32", "t*4"),
    ),
    Row(
        "NVIDIA sm80 `LDS.32`, stride two 32-bit words: wavefronts",
        "2 (two-way bank conflict)",
        2,
        0,
        f"[CUDA C++ Programming Guide]({CUDA}): \"Linear addressing with a stride of two "
        "32-bit words (two-way bank conflict)\"",
        nv("sm80", "lds.32", "t*8"),
    ),
    Row(
        "NVIDIA sm80 `LDS.32`, stride three 32-bit words: wavefronts",
        "1 (no bank conflict)",
        1,
        0,
        f"[CUDA C++ Programming Guide]({CUDA}): \"Linear addressing with a stride of three "
        "32-bit words (no bank conflict)\"",
        nv("sm80", "lds.32", "t*12"),
    ),
    Row(
        "NVIDIA sm80 `LDS.64` at 8·t: wavefronts",
        "2, no bank conflict (A100 measurement)",
        2,
        0,
        f"[NVIDIA developer forum]({NV_FORUM}), as recorded in "
        "[docs/rules/banks.md](rules/banks.md#nvidia-vectorized-accesses)",
        nv("sm80", "lds.64", "t*8"),
    ),
    Row(
        "NVIDIA sm80 `LDS.128`, lanes 15 and 16 only, both at 64: wavefronts",
        "2 (A100 measurement)",
        2,
        0,
        f"[NVIDIA developer forum]({NV_FORUM}), as recorded in "
        "[docs/rules/banks.md](rules/banks.md#nvidia-vectorized-accesses)",
        nv("sm80", "lds.128", "64", "15,16"),
    ),
    Row(
        "NVIDIA sm90 `LDS.64`, even lanes at 0 and odd lanes at 128: wavefronts",
        "2, one bank conflict (the half-warps merge into one conflicting transaction)",
        2,
        0,
        H200 % "lds64_bank0_2words",
        nv("sm90", "lds.64", "128*(t%2)"),
    ),
    Row(
        "NVIDIA sm90 `STS.64`, every lane at 0: wavefronts",
        "2 (stores do not merge)",
        2,
        0,
        H200 % "sts64_stride0",
        nv("sm90", "sts.64", "0"),
    ),
]

# ---- The sections --------------------------------------------------------------------------


def parameters_section(sim):
    r = sim.run([])
    timing = r.get("timing")
    if not isinstance(timing, dict) or not timing:
        sys.exit("gen_timing_doc: `gpumemsim run --json` reported no \"timing\" object")
    reported, known = list(timing), set(SOURCES)
    lacking = [n for n in reported if n not in known]
    stale = sorted(known - set(reported))
    if lacking or stale:
        msg = "gen_timing_doc: the parameters and SOURCES disagree."
        if lacking:
            msg += "\n  reported by the binary, no source in tools/gen_timing_doc.py: "
            msg += ", ".join(lacking)
        if stale:
            msg += "\n  in SOURCES, not reported by the binary: " + ", ".join(stale)
        sys.exit(msg)
    out = [
        "",
        "Generated by `tools/gen_timing_doc.py` from `gpumemsim run --json` (the defaults are "
        "the binary's); do not edit by hand.",
        "",
        "| parameter | default | the source's value | what it is | source |",
        "|---|--:|---|---|---|",
    ]
    for name in reported:
        s = SOURCES[name]
        cells = (name, timing[name], s["value"], s["what"], s["source"])
        out.append("| `%s` | %s | %s | %s | %s |" % cells)
    out.append("")
    return "\n".join(out)


def validation_section(sim):
    out = [
        "",
        "Generated by `tools/gen_timing_doc.py`: each simulator number comes from running a "
        "small program through `gpumemsim run --json` (or `gpumemsim banks --json`) with the "
        "default parameters. Chains and streams of independent instructions are measured "
        "between a program of N copies and one of 2N, so that what a program does once cancels "
        "out; bytes and bank cycles per LDS instruction come from the LDS pipes' busy cycles "
        "under `\"units\"`. Nothing here is tuned to match: a **no** is a gap between the model "
        "and the published figure.",
        "",
        "| what is measured | published figure | source | simulator | matches |",
        "|---|---|---|---|---|",
    ]
    out += [row.render(sim) for row in ROWS]
    out += [
        "",
        "Not reproduced: the ≈943-cycle rocprof `LdsLatency` of a conflicted transpose could "
        "not be found in any public source, so it is not a validation figure.",
        "",
    ]
    return "\n".join(out)


def delay_alu_section(sim):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import delay_alu_report  # noqa: E402 (tools/delay_alu_report.py, beside this script)

    out = [
        "",
        "Generated by `tools/gen_timing_doc.py` with `tools/delay_alu_report.py`: the corpus "
        "kernels (built by clang-19, committed under examples/) run with the default "
        "parameters, and the `\"delay_alu\"` counts of each launch.",
        "",
    ]
    out += delay_alu_report.report(sim.binary)
    out.append("")
    return "\n".join(out)


SECTIONS = [
    ("parameters", parameters_section),
    ("validation", validation_section),
    ("delay-alu", delay_alu_section),
]


def splice(text, name, body):
    """`text` with the section `name` replaced by `body`, and the section's old contents."""
    start = "<!-- generated: %s -->" % name
    i = text.find(start)
    if i < 0:
        sys.exit("gen_timing_doc: docs/timing.md has no %s marker" % start)
    i += len(start)
    j = text.find(END, i)
    if j < 0:
        sys.exit("gen_timing_doc: docs/timing.md: %s has no %s after it" % (start, END))
    return text[:i] + "\n" + body.strip("\n") + "\n" + text[j:], text[i:j]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/timing.md is out of date")
    ap.add_argument("--bin", default=DEFAULT_BIN, help="the gpumemsim binary (default %(default)s)")
    a = ap.parse_args()
    if not os.access(a.bin, os.X_OK):
        sys.exit(
            "gen_timing_doc: no gpumemsim binary at %s (build it: cargo build --release -p "
            "gpumemsim-cli, or pass --bin)" % a.bin
        )
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    new = text
    stale = []
    with tempfile.TemporaryDirectory(prefix="gen_timing_doc.") as tmp:
        sim = Sim(a.bin, tmp)
        for name, make in SECTIONS:
            body = make(sim)
            new, old = splice(new, name, body)
            if old.strip("\n") != body.strip("\n"):
                stale.append(name)
    if a.check:
        if stale:
            for name in stale:
                print("docs/timing.md: the generated section '%s' is out of date "
                      "(run python3 tools/gen_timing_doc.py)" % name, file=sys.stderr)
            sys.exit(1)
        return
    if new != text:
        with open(DOC, "w", encoding="utf-8") as f:
            f.write(new)
        print("docs/timing.md: rewrote %s" % (", ".join(stale) or "layout"))
    else:
        print("docs/timing.md: up to date")


if __name__ == "__main__":
    main()
