"""`pytest --model PATH` as the README writes it, from inside and outside the project; the plugins stay inert
in a suite that is not ours; the recorded command is one a reader can run from their own clone."""
from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from corpus_contract import N_ITEMS

from tooluse1.results import PROJECT_ROOT, invocation, portable_path

PYTEST = Path(sys.executable).with_name("pytest")   # the console script, as a user types it (no cwd on sys.path)


def _pytest(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run([str(PYTEST), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def _collected(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc.stdout.strip().splitlines()[-1]


def test_plugins_are_installed_as_pytest11_entry_points():
    names = {ep.name: ep.value for ep in metadata.entry_points(group="pytest11")}
    # named by module, so the project's conftest.py does not register them a second time
    assert names.get("tooluse1.plugin") == "tooluse1.plugin"
    assert names.get("tooluse1.spin.plugin") == "tooluse1.spin.plugin"


@pytest.fixture()
def checkpoint(tmp_path: Path) -> Path:
    """A directory outside the project standing in for a checkpoint (collection never loads it)."""
    d = tmp_path / "models" / "my-checkpoint"
    d.mkdir(parents=True)
    return d


@pytest.mark.parametrize("spelling", ["separate", "equals", "relative"])
def test_model_path_from_inside_the_project(checkpoint: Path, spelling: str):
    value = os.path.relpath(checkpoint, PROJECT_ROOT) if spelling == "relative" else str(checkpoint)
    args = ["--model", value] if spelling != "equals" else [f"--model={value}"]
    proc = _pytest(*args, "--collect-only", "-q", cwd=PROJECT_ROOT)
    assert _collected(proc).startswith(f"{N_ITEMS} tests collected"), proc.stdout[-1500:]


def test_model_path_from_outside_the_project(checkpoint: Path, tmp_path: Path):
    proc = _pytest(str(PROJECT_ROOT / "test_tooluse1.py"), "--model", str(checkpoint), "--collect-only", cwd=tmp_path)
    assert f"rootdir: {PROJECT_ROOT}" in proc.stdout
    assert f" {N_ITEMS} tests collected" in _collected(proc)


def test_other_path_options_keep_the_rootdir(checkpoint: Path):
    """Any of our path-valued options given as a separate argument: the ini's settings still apply (a
    directory as --baseline is then refused by our own check, which proves it was read as the option)."""
    proc = _pytest("--model", "oracle", "--baseline", str(checkpoint), "--collect-only", "-q", cwd=PROJECT_ROOT)
    assert proc.returncode != 0
    assert f"--baseline: {checkpoint}: cannot read" in proc.stdout + proc.stderr


def test_plugins_are_inert_in_another_suite(tmp_path: Path):
    (tmp_path / "test_theirs.py").write_text("def test_one():\n    assert 1 + 1 == 2\n", encoding="utf-8")
    proc = _pytest("-q", "-p", "no:cacheprovider", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout
    assert "ToolUse.1" not in proc.stdout + proc.stderr


def test_recorded_command_runs_from_any_clone(tmp_path: Path):
    root = tmp_path / "clone"
    main = str(root / "tooluse1" / "__main__.py")
    argv = [main, "run", "--model", "default", "--resume", str(root / "results" / "r.jsonl"),
            f"--results={root / 'results' / 'out.json'}", "--baseline", "/elsewhere/base.json"]
    assert invocation(argv, root=root) == ("python -m tooluse1 run --model default --resume results/r.jsonl "
                                           "--results=results/out.json --baseline /elsewhere/base.json")
    assert invocation(["/venv/bin/pytest", "-k", "xml and negative"], root=root) == "pytest -k 'xml and negative'"
    assert portable_path(str(root), root=root) == "."
    assert portable_path("relative/already.json", root=root) == "relative/already.json"
