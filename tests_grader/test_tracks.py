"""The doors of issue 23: backends chosen in one registry, tracks joining the CLI through tooluse1/tracks.py,
and the one resume log both tracks write."""
from __future__ import annotations

import ast
import json
from dataclasses import fields
from pathlib import Path

import pytest

from tooluse1 import cli
from tooluse1.backends import registry
from tooluse1.errors import BackendError, ResumeMismatch
from tooluse1.harness import BenchmarkRun, RunConfig
from tooluse1.resume import AppendLog, LogFormat
from tooluse1.tracks import tracks

ROOT = Path(__file__).resolve().parent.parent


# ----------------------------------------------------------------------------- backends

@pytest.mark.parametrize("model, base_url, expected", [
    ("oracle", None, "scripted"), ("never-call", "http://h/v1", "scripted"),
    ("my-model", "http://h/v1", "openai"), ("smollm2", None, "transformers")])
def test_auto_picks_the_backend_in_one_place(model: str, base_url: str | None, expected: str) -> None:
    assert RunConfig(model=model, base_url=base_url).resolved_backend() == expected


def test_every_entry_declares_options_a_run_has() -> None:
    run_options = {f.name for f in fields(RunConfig)}
    for entry in registry.REGISTRY.values():
        assert set(entry.options) <= run_options, entry.name
    assert registry.backend_names() == ("auto", "transformers", "openai", "scripted")
    with pytest.raises(BackendError, match="--backend nope: unknown backend"):
        RunConfig(model="x", backend="nope").backend_entry()


def test_openai_without_base_url_names_the_flag() -> None:
    run = BenchmarkRun(RunConfig(model="m", backend="openai"), {}, {})
    with pytest.raises(BackendError, match="--base-url"):
        run.identity()


def test_a_secret_in_the_url_never_reaches_the_identity() -> None:
    run = BenchmarkRun(RunConfig(model="m", base_url="http://user:hunter2@h:8000/v1/"), {}, {})
    assert run.identity() == {"backend": "openai", "model_id": "m", "base_url": "http://user:***@h:8000/v1"}


def test_a_streamed_run_has_its_own_resume_identity() -> None:
    """--stream is another deployment path: its answers are not resumed into a non-streamed run or back; a
    non-streamed run keeps the identity (and resume files) it had before --stream existed."""
    plain = BenchmarkRun(RunConfig(model="m", base_url="http://h:8000/v1"), {}, {}).identity()
    streamed = BenchmarkRun(RunConfig(model="m", base_url="http://h:8000/v1", stream=True), {}, {}).identity()
    assert plain == {"backend": "openai", "model_id": "m", "base_url": "http://h:8000/v1"}
    assert streamed == {**plain, "stream": True}


def test_the_model_is_resolved_once_for_identity_and_backend(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tooluse1.models import ResolvedModel
    calls: list[str] = []
    resolved = ResolvedModel(tmp_path, "org/m", "rev1", "local-dir")

    def fake_resolve(spec: str) -> ResolvedModel:
        calls.append(spec)
        return resolved
    opened: list[object] = []
    monkeypatch.setattr(registry, "resolve_model", fake_resolve)
    entry = registry.REGISTRY["transformers"]
    monkeypatch.setitem(registry.REGISTRY, "transformers",
                        registry.BackendEntry(**{**entry.__dict__, "open": lambda t: opened.append(t) or "backend"}))
    run = BenchmarkRun(RunConfig(model="some/ckpt", dtype="bfloat16"), {}, {})
    assert run.identity() == {"backend": "transformers", "model_id": "org/m", "revision": "rev1",
                              "dtype": "bfloat16", "batch_size": None, "fast": True}
    assert run.backend == "backend"
    assert calls == ["some/ckpt"] and opened[0].resolved is resolved
    assert dict(opened[0].options) == {"dtype": "bfloat16", "device": "cpu", "batch_size": None, "threads": None,
                                       "fast": True}


# ----------------------------------------------------------------------------- tracks

def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}


def test_the_core_cli_knows_tracks_only_through_the_door() -> None:
    assert not {m for m in _imports(ROOT / "tooluse1" / "cli.py") if m.startswith("tooluse1.spin")}
    assert set(tracks()) == {"spin"}


@pytest.mark.parametrize("argv, test_file, results, passed_on", [
    (["run", "--model", "oracle", "-k", "xml"], "test_tooluse1.py", "results/tooluse1-oracle.json", ["-k", "xml"]),
    (["plan", "--model", "org/Model-1", "--variant", "base", "-m", "spin"], "test_plan.py",
     "results/tooluse1-spin-org_Model-1.json", ["-m", "spin"]),
])
def test_run_and_plan_wrap_their_pytest_sessions(monkeypatch: pytest.MonkeyPatch, argv: list[str], test_file: str,
                                                 results: str, passed_on: list[str]) -> None:
    seen: list[list[str]] = []
    monkeypatch.setattr(pytest, "main", lambda a: seen.append(a) or 0)
    assert cli.main(argv) == 0
    [called] = seen
    assert Path(called[0]).name == test_file and called[called.index("--results") + 1] == results
    assert called[-len(passed_on):] == passed_on


def test_unknown_arguments_are_refused_outside_the_pytest_wrappers(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["plan-incidence", "somewhere", "--bogus"])
    assert e.value.code == 4 and "unrecognized arguments: --bogus" in capsys.readouterr().err


# ----------------------------------------------------------------------------- the resume log

_FMT: LogFormat[dict] = LogFormat(flag="--x-resume", header_field="x_resume", version=3, check_version=True,
                                  what="an X resume file", fix="use a new path", encode=dict, decode=dict,
                                  key=lambda d: d["id"])


def test_the_log_resumes_skips_a_torn_line_and_refuses_another_key(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    log = AppendLog(path, {"model": "a"}, _FMT)
    log.append({"id": "one", "text": "ü"})
    log.append({"id": "two", "text": "b"})
    with open(path, "a", encoding="utf-8") as f:
        f.write('{"id": "thr')                      # a write cut by kill -9
    again = AppendLog(path, {"model": "a"}, _FMT)
    assert set(again.done) == {"one", "two"} and again.skipped_lines == 1 and again.done["one"]["text"] == "ü"
    again.append({"id": "three"})
    assert set(AppendLog(path, {"model": "a"}, _FMT).done) == {"one", "two", "three"}
    with pytest.raises(ResumeMismatch,
                       match=r"--x-resume .* was written by another run \(differs in: model\); use a new path"):
        AppendLog(path, {"model": "b"}, _FMT)
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    path.write_text(json.dumps({**header, "x_resume": 2}) + "\n", encoding="utf-8")
    with pytest.raises(ResumeMismatch, match="resume format 2, this one reads 3"):
        AppendLog(path, {"model": "a"}, _FMT)
    path.write_text("not json\n", encoding="utf-8")
    with pytest.raises(ResumeMismatch, match="not an X resume file"):
        AppendLog(path, {"model": "a"}, _FMT)
