"""Shared fixtures: the repository, and the `gpumemsim` CLI the package is compared with."""

import json
import os
import pathlib
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
KERNELS = REPO / "examples" / "kernels"


def _cli_path() -> pathlib.Path:
    """The CLI binary: $GPUMEMSIM_CLI, else the workspace's debug or release build (built
    with cargo if neither exists)."""
    if os.environ.get("GPUMEMSIM_CLI"):
        return pathlib.Path(os.environ["GPUMEMSIM_CLI"])
    for profile in ("debug", "release"):
        path = REPO / "target" / profile / "gpumemsim"
        if path.exists():
            return path
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.fail("no gpumemsim CLI to compare with: set GPUMEMSIM_CLI or install cargo")
    subprocess.run([cargo, "build", "-q", "-p", "gpumemsim-cli"], cwd=REPO, check=True)
    return REPO / "target" / "debug" / "gpumemsim"


class Cli:
    """Runs `gpumemsim ARGS`."""

    def __init__(self, path: pathlib.Path):
        self.path = path

    def run(self, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.path), *args], input=stdin, capture_output=True, text=True, cwd=REPO
        )

    def json(self, *args: str) -> dict:
        done = self.run(*args, "--json")
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def error(self, *args: str) -> str:
        """The message of a failing command (`error: MESSAGE` on stderr, exit status 2)."""
        done = self.run(*args)
        assert done.returncode == 2, (done.returncode, done.stderr)
        assert done.stderr.startswith("error: "), done.stderr
        return done.stderr[len("error: ") :].rstrip("\n")


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli(_cli_path())


def pytest_report_header(config):
    """Says whether the optional extras' tests (test_triton.py, test_ray.py) can run."""
    lines = []
    for name, test in (("triton", "test_triton.py"), ("ray", "test_ray.py")):
        try:
            module = __import__(name)
            lines.append(f"{name}: {module.__version__}")
        except ImportError:
            lines.append(f"{name}: not installed: {test} is skipped "
                         f"(pip install 'gpumemsim[{name}]')")
    return lines
