"""The release workflow of docs/ci-gate.md, run as written: its own `run:` steps (read from the document, so the
document cannot drift from what is tested) in bash as GitHub Actions runs them, against a real
`transformers serve` process with SmolLM2-135M on a few items.

Order: the baseline job (start the server, benchmark, keep the file), the gate job against that baseline
(the same model and server: it passes), the gate against a better baseline (the scripted oracle on the same
items: it fails with exit 1 and says why), then the stop step, which must leave no server behind.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tooluse1.models import resolve_model
from tooluse1.serve import free_port

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "ci-gate.md"
# One case (no spaces: the workflow passes $TOOLUSE1_ARGS unquoted, as users would) in its 3 protocols: the
# workflow's mechanics need no more items, and each costs a served generation (CI time). SmolLM2 fails all
# three, so the oracle baseline's drop exceeds MAX_DROP.
CASE = "clarification-en-001"
SELECTION = f"-k {CASE} --max-new-tokens 32 --concurrency 1"


def workflow() -> dict:
    """The YAML workflow of docs/ci-gate.md (its one ```yaml block)."""
    blocks = re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1, "docs/ci-gate.md should hold exactly one workflow"
    return yaml.safe_load(blocks[0])


def step(flow: dict, job: str, name: str) -> str:
    """The `run:` script of the named step of a job."""
    found = [s["run"] for s in flow["jobs"][job]["steps"] if s.get("name") == name]
    assert len(found) == 1, f"job {job} should have one step named {name!r}"
    return found[0]


def run_step(script: str, env: dict[str, str], cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess:
    """A step as GitHub Actions runs `run:` on Linux: bash --noprofile --norc -eo pipefail."""
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_workflow_is_valid_and_both_jobs_serve_alike():
    flow = workflow()
    assert set(flow["jobs"]) == {"gate", "baseline"}
    for key in ("CHECKPOINT", "PORT", "BASELINE", "MAX_DROP", "TOOLUSE1_ARGS", "TOOLUSE1_REF"):
        assert key in flow["env"], key
    # one server command for both jobs, so testing it once covers both
    assert step(flow, "gate", "Start the model server") == step(flow, "baseline", "Start the model server")
    gate = step(flow, "gate", "Benchmark and gate")
    assert '--baseline "$BASELINE"' in gate and '--max-drop "$MAX_DROP"' in gate and "${{" not in gate


def test_the_documented_workflow_gates_a_served_checkpoint(tmp_path):
    flow = workflow()
    work = tmp_path / "workspace"
    work.mkdir()
    model_dir = resolve_model("smollm2").path
    env = {**os.environ, **{k: str(v) for k, v in flow["env"].items() if "${{" not in str(v)},
           "CHECKPOINT": str(model_dir), "PORT": str(free_port()), "BASELINE": str(work / "tooluse1-baseline.json"),
           "TOOLUSE1_ARGS": SELECTION, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1",
           # `python` in the steps is this interpreter, as setup-python's is in the workflow
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    start = run_step(step(flow, "baseline", "Start the model server"), env, work, timeout=400)
    try:
        assert start.returncode == 0, start.stdout + start.stderr
        assert alive(int((work / "serve.pid").read_text()))    # the server the step started runs

        made = run_step(step(flow, "baseline", "Benchmark the baseline"), env, work)
        assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
        baseline = json.loads((work / "tooluse1-baseline.json").read_text(encoding="utf-8"))
        assert len(baseline["records"]) == 3 and all(r["error"] is None for r in baseline["records"])
        assert baseline["provenance"]["model"]["backend"] == "openai"

        passed = run_step(step(flow, "gate", "Benchmark and gate"), env, work)
        out = passed.stdout + passed.stderr
        assert passed.returncode == 0, out[-4000:]
        assert "gate passed" in out and "can detect a drop of" in out
        assert (work / "tooluse1-new.json").exists() and (work / "tooluse1-report.html").exists()

        # a better baseline on the same items: the scripted oracle passes every one
        oracle = work / "oracle.json"
        made = subprocess.run([sys.executable, "-m", "tooluse1", "run", "--model", "oracle", "--results", str(oracle),
                               "-k", CASE, "-p", "no:cacheprovider"], cwd=work, env=env,
                              capture_output=True, text=True, timeout=300)
        assert made.returncode == 0, made.stdout[-2000:]
        new_score = json.loads((work / "tooluse1-new.json").read_text(encoding="utf-8"))["summary"]["overall"]["score"]
        assert new_score["rate"] < 1.0 - float(env["MAX_DROP"])    # SmolLM2 is worse than the oracle here
        failed = run_step(step(flow, "gate", "Benchmark and gate"), {**env, "BASELINE": str(oracle)}, work)
        out = failed.stdout + failed.stderr
        assert failed.returncode == 1, out[-4000:]
        assert "GATE FAILED" in out and "more than --max-drop" in out

        # the same decision from the two files, without pytest
        cmp = subprocess.run([sys.executable, "-m", "tooluse1", "compare", str(oracle), "tooluse1-new.json",
                              "--max-drop", env["MAX_DROP"]], cwd=work, env=env, capture_output=True, text=True,
                             timeout=120)
        assert cmp.returncode == 1 and "GATE FAILED" in cmp.stdout
    finally:
        stop = run_step(step(flow, "gate", "Stop the model server"), env, work, timeout=60)
        assert stop.returncode == 0
    pid = int((work / "serve.pid").read_text())
    deadline = time.monotonic() + 30
    while alive(pid) and time.monotonic() < deadline:       # the stop step leaves no server behind
        time.sleep(0.5)
    if alive(pid):
        os.kill(pid, signal.SIGKILL)
        pytest.fail("the server was still running 30 s after the stop step")


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie, killed but not yet reaped by its new parent, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"
