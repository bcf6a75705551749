"""ToolUse.1 as a user installs it: the wheel built from this tree, in a fresh virtual environment without the
`models` extra (no torch), used from an empty directory: the CLI run, the pytest form (`--pyargs`), a suite of
one's own and the selftest. Nothing of the checkout is on the path; the cases, the built data and the benchmark
items must come from the wheel itself.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def _run(cmd: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    # No PYTHONPATH: the checkout must not leak into the installed environment.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["HF_HUB_OFFLINE"] = "1"
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(the fresh venv's bin folder, an empty working directory), with the wheel of this tree installed."""
    base = tmp_path_factory.mktemp("installed")
    wheels = base / "wheels"
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels),
                  str(ROOT)], cwd=base)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    [wheel] = wheels.glob("tooluse1-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("tooluse1/test_tooluse1.py", "tooluse1/spin/plan_items.py", "tooluse1/data/tooluse1.jsonl",
                   "tooluse1/data/manifest.json", "tooluse1/data/scenarios.jsonl", "tooluse1/cases/en/calculator.yaml",
                   "tooluse1/scenarios/en.yaml", "tooluse1/schema/results.schema.json", "tooluse1/session.ini",
                   "tooluse1/answers/nfkc_tables.json"):
        assert needed in names, f"the wheel lacks {needed}"
    venv = base / "venv"
    made = _run([sys.executable, "-m", "venv", str(venv)], cwd=base)
    assert made.returncode == 0, made.stderr
    bin_dir = venv / "bin"
    inst = _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], cwd=base)
    assert inst.returncode == 0, inst.stdout[-3000:] + inst.stderr[-3000:]
    empty = base / "empty"
    empty.mkdir()
    return bin_dir, empty


def test_the_wheel_installs_without_torch(installed):
    bin_dir, empty = installed
    proc = _run([str(bin_dir / "python"), "-c", "import importlib.util as u; print(u.find_spec('torch') is None)"],
                cwd=empty)
    assert proc.stdout.strip() == "True", "the wheel without the models extra pulled torch in"


def test_installed_cli_runs_the_benchmark(installed):
    bin_dir, empty = installed
    proc = _run([str(bin_dir / "tooluse1"), "run", "--model", "oracle", "--protocol", "json",
                 "--results", "oracle.json"], cwd=empty)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    doc = json.loads((empty / "oracle.json").read_text(encoding="utf-8"))
    corpus = [json.loads(line) for line in
              (ROOT / "tooluse1" / "data" / "tooluse1.jsonl").read_text(encoding="utf-8").splitlines() if line]
    assert len(doc["records"]) == len(corpus) and all(r["verdict"]["passed"] for r in doc["records"])
    assert doc["provenance"]["libraries"]["tooluse1"] == _version()


def test_installed_pytest_form_runs_the_items(installed):
    bin_dir, empty = installed
    pytest_cmd = [str(bin_dir / "python"), "-m", "pytest", "--pyargs", "tooluse1", "--model", "oracle", "-q",
                  "-p", "no:cacheprovider"]
    collected = _run([*pytest_cmd, "--collect-only"], cwd=empty)
    ids = [line for line in collected.stdout.splitlines() if "::" in line]
    # the core items only: the SPIN track's items are not collected by `--pyargs tooluse1`
    assert ids and all("test_tooluse1.py::test_case[" in i for i in ids), collected.stdout[-2000:]
    proc = _run([*pytest_cmd, "-k", "calculator and xml"], cwd=empty)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    n_calc = sum(1 for i in ids if "[calculator-" in i and i.endswith("-xml]"))
    assert n_calc and f"{n_calc} passed" in proc.stdout, proc.stdout[-2000:]


def test_installed_suite_and_selftest(installed):
    bin_dir, empty = installed
    suite = empty / "concierge"
    shutil.copytree(ROOT / "examples" / "concierge", suite)
    proc = _run([str(bin_dir / "tooluse1"), "run", "--model", "oracle", "--suite", "concierge",
                 "--results", "suite.json"], cwd=empty)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert json.loads((empty / "suite.json").read_text(encoding="utf-8"))["records"]
    proc = _run([str(bin_dir / "python"), "-m", "tooluse1", "selftest"], cwd=empty)
    assert proc.returncode == 0 and "selftest passed" in proc.stdout, proc.stdout[-2000:] + proc.stderr[-2000:]


def _version() -> str:
    import tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
