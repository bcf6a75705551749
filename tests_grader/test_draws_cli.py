"""`--draws K` / `--draw-seed S` through every entry point: real pytest sessions (subprocesses) and the CLI
(in process) with the scripted oracle, no model. What a results file records of the draws, the refusals (one
line naming the flag or file, usage exit status, nothing written) and regrade's seed check."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tooluse1.cli import main
from tooluse1.draws import GENERATOR_VERSION, DrawError, draw_options, seed_sha256, session_cases, templates
from tooluse1.suite import load_session_cases

ROOT = Path(__file__).resolve().parent.parent
TWO_CASES = "calculator-en-001 or get_weather-ru-001"   # -k: two templated cases, both languages


def pytest_run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "test_tooluse1.py", "-q", "-p", "no:cacheprovider",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def drawn_run(tmp_path_factory) -> Path:
    """The oracle over 2 draws of two cases under a private seed: a real pytest session, as `run` starts it."""
    out = tmp_path_factory.mktemp("draws") / "oracle-d2.json"
    proc = pytest_run("--model", "oracle", "--draws", "2", "--draw-seed", "our-private-seed", "--results", str(out),
                      "-k", TWO_CASES)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return out


def test_a_drawn_run_records_the_seed_only_as_its_hash(drawn_run):
    text = drawn_run.read_text(encoding="utf-8")
    doc = json.loads(text)
    assert "our-private-seed" not in text   # not even in provenance.command
    draws = doc["provenance"]["corpus"]["draws"]
    assert draws["seed_sha256"] == seed_sha256("our-private-seed")
    assert (draws["k"], draws["generator"], draws["n_templates"]) == (2, GENERATOR_VERSION, len(templates()))
    ids = sorted({r["case_id"] for r in doc["records"]})
    assert ids == ["calculator-en-001.d1", "calculator-en-001.d2", "get_weather-ru-001.d1", "get_weather-ru-001.d2"]
    assert all(r["passed"] for r in doc["records"]) and len(doc["records"]) == 12
    # draws of one case are one cluster: 2 cases, not 4
    assert doc["summary"]["overall"]["score"]["n_cases"] == 2


def test_drawn_items_carry_their_ids_and_the_draw_marker():
    proc = pytest_run("--model", "oracle", "--draws", "3", "-k", "calculator-en-001", "-m", "draw", "--collect-only")
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert "test_case[calculator-en-001.d2-json]" in proc.stdout
    assert f"9/{len(templates()) * 9} tests collected" in proc.stdout


def test_draws_0_is_the_public_corpus_exactly():
    public = load_session_cases(None)
    assert session_cases(None, "0") == public
    assert session_cases(None, 0, None)[1]["sha256"] == public[1]["sha256"]


@pytest.mark.parametrize(("draws", "seed", "suite", "message"), [
    ("x", None, None, "--draws: 'x' is not a whole number"),
    ("99", None, None, "--draws: 99 is out of range"),
    ("0", "7", None, "--draw-seed: it chooses the draws, and --draws is 0"),
    ("1", "has space", None, "--draw-seed: the seed must be"),
    ("1", None, "examples/concierge", "--draws: seeded draws are of the built-in corpus"),
])
def test_bad_draw_flags_name_the_flag_and_the_fix(draws, seed, suite, message):
    with pytest.raises(DrawError) as e:
        draw_options(draws, seed, suite)
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_bad_draw_flags_are_a_pytest_usage_error_and_write_nothing(tmp_path):
    out = tmp_path / "r.json"
    proc = pytest_run("--model", "oracle", "--draws", "x", "--results", str(out))
    assert proc.returncode == 4 and "--draws: 'x' is not a whole number" in proc.stderr
    assert not out.exists()


def test_a_baseline_of_another_seed_is_refused(drawn_run, tmp_path):
    proc = pytest_run("--model", "oracle", "--draws", "2", "--draw-seed", "another", "-k", TWO_CASES,
                      "--baseline", str(drawn_run), "--results", str(tmp_path / "r.json"))
    assert proc.returncode == 4
    assert "draw seed (sha256" in proc.stderr and str(drawn_run) in proc.stderr
    assert not (tmp_path / "r.json").exists()


def test_regrade_checks_the_seed_against_the_recorded_hash(drawn_run, tmp_path, capsys):
    code, _, err = cli(capsys, "regrade", str(drawn_run), "--draw-seed", "guess", "--out", str(tmp_path / "a.json"))
    assert code == 4 and "drawn with another seed" in err
    code, _, err = cli(capsys, "regrade", str(drawn_run), "--out", str(tmp_path / "b.json"))
    assert code == 4 and "pass the seed it was run with, --draw-seed S" in err
    assert not (tmp_path / "a.json").exists() and not (tmp_path / "b.json").exists()
    code, _, err = cli(capsys, "regrade", str(drawn_run), "--draw-seed", "our-private-seed",
                       "--out", str(tmp_path / "c.json"))
    assert code == 0, err
    regraded = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert not regraded["provenance"]["regrade"]["corpus_changed"]
    assert all(r["passed"] for r in regraded["records"])


def test_compare_refuses_draws_of_another_seed_and_public_against_draws(drawn_run, tmp_path, capsys):
    doc = json.loads(drawn_run.read_text(encoding="utf-8"))
    other = json.loads(json.dumps(doc))
    other["provenance"]["corpus"]["draws"]["seed_sha256"] = seed_sha256("another")
    other["provenance"]["corpus"]["sha256"] = "0" * 64
    (tmp_path / "other.json").write_text(json.dumps(other), encoding="utf-8")
    code, _, err = cli(capsys, "compare", str(drawn_run), str(tmp_path / "other.json"))
    assert code == 4 and "draw seed (sha256" in err
    public = dict(other, provenance={**other["provenance"], "corpus": {"sha256": "1" * 64}})
    (tmp_path / "public.json").write_text(json.dumps(public), encoding="utf-8")
    code, _, err = cli(capsys, "compare", str(tmp_path / "public.json"), str(drawn_run))
    assert code == 4 and "ran the public cases and the other seeded draws" in err


def test_plan_refuses_draws(capsys):
    code, _, err = cli(capsys, "plan", "--model", "oracle", "--draws", "2")
    assert code == 4 and "--draws: the SPIN planning track has no seeded draws" in err


def test_run_refuses_draws_of_a_suite(capsys):
    code, _, err = cli(capsys, "run", "--model", "oracle", "--draws", "1", "--suite", "examples/concierge")
    assert code == 4 and "--draws: seeded draws are of the built-in corpus" in err


@pytest.mark.parametrize("command", ["run", "selftest"])
def test_every_command_exits_4_on_a_malformed_draw_flag_as_pytest_does(command, capsys):
    """One exit status for bad input at every entry point (tooluse1.errors.USAGE_ERROR = pytest's 4)."""
    code, _, err = cli(capsys, command, *(["--model", "oracle"] if command == "run" else []), "--draws", "-1")
    assert code == 4 and "--draws: -1 is out of range" in err and "Traceback" not in err


def test_selftest_checks_the_published_seed_at_k1(capsys):
    code, out, err = cli(capsys, "selftest")
    assert code == 0, err[-2000:]
    assert f"K = 1, {len(templates())} drawn cases" in out and "every runner as on the public cases" in out
