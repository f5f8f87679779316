"""The installed package: its names, docstrings and type stubs."""

import ast
import inspect
import pathlib

import gpumemsim

PUBLIC = ["ARCHITECTURES", "Error", "KernelError", "TARGETS", "__version__", "assemble", "banks",
          "banks_batch", "check", "disassemble", "run"]


def test_public_names_and_version():
    assert sorted(gpumemsim.__all__) == sorted(PUBLIC)
    assert all(hasattr(gpumemsim, name) for name in PUBLIC)
    assert gpumemsim.__version__.count(".") == 2
    assert gpumemsim.Error.__module__ == "gpumemsim"


def test_functions_have_docstrings_and_signatures():
    for name in ("assemble", "banks", "banks_batch", "check", "disassemble", "run"):
        f = getattr(gpumemsim, name)
        assert len(inspect.getdoc(f) or "") > 100, name
        assert inspect.signature(f).parameters, name
    params = inspect.signature(gpumemsim.banks).parameters
    assert list(params)[:5] == ["arch", "op", "addrs", "active", "wave"]
    assert params["addrs1"].kind is inspect.Parameter.KEYWORD_ONLY


def test_stubs_ship_and_match_the_module():
    package = pathlib.Path(gpumemsim.__file__).parent
    assert (package / "py.typed").exists()
    stub = ast.parse((package / "__init__.pyi").read_text())
    functions = {n.name: n for n in stub.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name for n in stub.body if isinstance(n, ast.ClassDef)}
    assert {"Error", "KernelError"} <= classes
    for name in ("assemble", "banks", "banks_batch", "check", "disassemble", "run"):
        stubbed = functions[name].args
        names = [a.arg for a in stubbed.args] + [a.arg for a in stubbed.kwonlyargs]
        assert names == list(inspect.signature(getattr(gpumemsim, name)).parameters), name


def test_stub_examples_run(monkeypatch):
    """The examples in the stubs' docstrings (run from the repository root)."""
    import doctest

    from conftest import REPO

    monkeypatch.chdir(REPO)
    package = pathlib.Path(gpumemsim.__file__).parent
    stub = ast.parse((package / "__init__.pyi").read_text())
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    examples = 0
    import numpy as np

    for node in stub.body:
        doc = ast.get_docstring(node) if isinstance(node, ast.FunctionDef) else None
        if doc:
            test = parser.get_doctest(doc, {"np": np, "gpumemsim": gpumemsim}, node.name, None, 0)
            examples += len(test.examples)
            runner.run(test)
    assert examples >= 6
    assert runner.summarize(verbose=False).failed == 0
