"""gpumemsim.assemble / disassemble against `gpumemsim asm` / `gpumemsim disasm`."""

import re

import numpy as np
import pytest

import gpumemsim
from conftest import REPO

EXAMPLES = sorted((REPO / "examples").glob("*.s"))


def cli_encodings(cli, path) -> bytes:
    """The bytes `gpumemsim asm PATH` prints, in order."""
    done = cli.run("asm", str(path))
    assert done.returncode == 0, done.stderr
    out = bytearray()
    for lists in re.findall(r"; encoding: \[([^\]]*)\]", done.stdout):
        out.extend(int(b, 16) for b in lists.split(","))
    return bytes(out)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_assemble_matches_the_cli_and_round_trips(cli, path):
    code = gpumemsim.assemble(path.read_text())
    assert isinstance(code, bytes) and len(code) > 0
    assert code == cli_encodings(cli, path)
    lines = gpumemsim.disassemble(code)
    # The CLI's disassembly of the same bytes, given as llvm-mc byte lists.
    byte_list = ",".join(f"0x{b:02x}" for b in code)
    done = cli.run("disasm", "-", stdin=byte_list + "\n")
    assert done.returncode == 0, done.stderr
    assert lines == [line.removeprefix("\t") for line in done.stdout.splitlines()]
    # Canonical text assembles back to the same bytes.
    assert gpumemsim.assemble("\n".join(lines)) == code


def test_a_known_encoding():
    # From `echo "ds_load_b32 v1, v2 offset:16" | llvm-mc-19 -triple=amdgcn -mcpu=gfx1100
    # -show-encoding`: [0x10,0x00,0xd8,0xd8,0x02,0x00,0x00,0x01].
    code = gpumemsim.assemble("ds_load_b32 v1, v2 offset:16\ns_endpgm")
    assert code[:8] == bytes([0x10, 0x00, 0xD8, 0xD8, 0x02, 0x00, 0x00, 0x01])
    assert gpumemsim.disassemble(code) == ["ds_load_b32 v1, v2 offset:16", "s_endpgm"]


def test_disassemble_takes_bytes_like_objects():
    code = gpumemsim.assemble("s_endpgm\ns_endpgm")
    want = ["s_endpgm", "s_endpgm"]
    assert gpumemsim.disassemble(bytearray(code)) == want
    assert gpumemsim.disassemble(memoryview(code)) == want
    assert gpumemsim.disassemble(np.frombuffer(code, dtype=np.uint32)) == want
    assert gpumemsim.disassemble(b"") == []


def test_assemble_errors_are_the_clis(cli, tmp_path):
    text = "ds_load_b32 v1, v2\nds_frob v1\n  v_add_f32 v1, v2\ns_endpgm\n"
    path = tmp_path / "bad.s"
    path.write_text(text)
    done = cli.run("asm", str(path))
    assert done.returncode == 1
    with pytest.raises(gpumemsim.Error) as raised:
        gpumemsim.assemble(text, name=str(path))
    assert str(raised.value) == done.stderr.rstrip("\n")
    assert str(raised.value).count("\n") == 1, "one line per error, both errors"
    with pytest.raises(gpumemsim.Error, match=r"^<string>:2:1: error: "):
        gpumemsim.assemble(text)


def test_disassemble_errors(cli):
    bad = bytes([0xFF, 0xFF, 0xFF, 0xFF])
    done = cli.run("disasm", "-", stdin="0xff,0xff,0xff,0xff\n")
    with pytest.raises(gpumemsim.Error) as raised:
        gpumemsim.disassemble(gpumemsim.assemble("s_endpgm") + bad)
    assert str(raised.value) == "invalid instruction encoding at byte 4"
    assert "invalid instruction encoding at byte 0" in done.stderr
    with pytest.raises(gpumemsim.Error, match="at byte 0"):
        gpumemsim.disassemble(b"\x00\x00")  # too short for any instruction
    for wrong in ("0x00,0x00", 42, None, [1, 2, 3, 4]):
        with pytest.raises(gpumemsim.Error, match="data: expected bytes"):
            gpumemsim.disassemble(wrong)


def test_gfx942_assembles_and_disassembles_as_the_cli(cli):
    path = REPO / "examples" / "gfx942" / "memory-ops.s"
    code = gpumemsim.assemble(path.read_text(), target="gfx942")
    done = cli.run("asm", "--arch", "gfx942", str(path))
    assert done.returncode == 0, done.stderr
    want = bytearray()
    for lists in re.findall(r"; encoding: \[([^\]]*)\]", done.stdout):
        want.extend(int(b, 16) for b in lists.split(","))
    assert code == bytes(want)
    lines = gpumemsim.disassemble(code, target="gfx942")
    assert "ds_read_b128 v[4:7], v0 offset:256" in lines
    # These bytes are no gfx1100 instruction (the README's example).
    word = bytes([0x10, 0x00, 0x6C, 0xD8, 0x02, 0x00, 0x00, 0x01])
    assert gpumemsim.disassemble(word, target="gfx942") == ["ds_read_b32 v1, v2 offset:16"]
    with pytest.raises(gpumemsim.Error, match="at byte 0"):
        gpumemsim.disassemble(word)
    with pytest.raises(gpumemsim.Error, match=r"target: \"gfx90a\" is not a chip"):
        gpumemsim.assemble("s_endpgm", target="gfx90a")
    with pytest.raises(gpumemsim.Error, match=r"<string>:1:1: error: instruction not supported"):
        gpumemsim.assemble("ds_load_b32 v1, v2", target="gfx942")
