"""The pytest face of the SPIN track: options, one item per scenario x variant, the SPIN summary and the
`spin` section of the results file. Loaded like tooluse1.plugin (pytest11 entry point; the project's conftest.py
for an uninstalled checkout).

Flow: collection parametrizes `test_plan` over the built scenarios and the --variant list, ids
`<scenario-id>-<variant>`, marked with the variant, the shape and the language (so `-m "spin and chain"`
selects exactly the spin variant's chain items; `-k spin` is a substring match and also selects the
spin_wo_sim / spin_wo_cri ablations). Without --model every item skips. With it, the first item's setup
runs every selected item at once through runner.SpinRunner (one backend, model calls batched across all
scenarios and variants), on the main benchmark's backend (the BenchmarkRun the core plugin hands over
through the `pytest_tooluse1_configure` hook; the scripted `oracle` gets runner.SpinOracleBackend, since the
core's scripted runners know no plans). Each test then only checks its run: it passes when the run is
Accomplished, fails otherwise, and errors when the backend gave no answer. The track joins the core plugin
only through the hooks of tooluse1/hookspecs.py: its `spin` section (computed as soon as the runs are, while
the backend is open; from the collected records under xdist) goes into the results document through
`pytest_tooluse1_sections`, its summary through `pytest_tooluse1_terminal_summary`; progress is the core's
shared display.

Scenarios: `--spin-split test` (default) selects the evaluation scenarios, `train` the ones whose runs fill
the trajectory store (`--save-trajectories` saves train runs only, so evaluation never retrieves from
itself), `all` both. `--spin-resume PATH` keeps every finished run as one fsync'd JSONL line, keyed on
model, token caps, rounds, top-k, the stop rule, scenarios and the store's digest; the same command after an
interruption computes only the missing runs.
"""
from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import pytest

from tooluse1.backends.base import Backend
from tooluse1.corpus import StaleCorpusError
from tooluse1.errors import BackendError, ResumeMismatch, ToolUse1Error
from tooluse1.harness import BenchmarkRun
from tooluse1.models import default_cache_dir
from tooluse1.plugin import progress
from tooluse1.results import now_iso
from tooluse1.resume import AppendLog, LogFormat
from tooluse1.spin.cli import SECTION
from tooluse1.spin.critic import STOP_RULES
from tooluse1.spin.runner import (
    DEFAULT_ROUNDS,
    DEFAULT_STOP_RULE,
    DEFAULT_TOP_K,
    VARIANT_SPECS,
    VARIANTS,
    SpinOracleBackend,
    SpinRun,
    SpinRunner,
    parse_role_caps,
    parse_variants,
    save_plan_texts,
    trajectory_records,
)
from tooluse1.spin.scenarios import SHAPES, SPLITS, Scenario, ScenarioError, check_scenarios_fresh, load_scenarios
from tooluse1.spin.scoring import format_spin_summary, spin_section
from tooluse1.spin.store import StoreError, TrajectoryStore, mask_url, open_store

RECORD_KEY = "tooluse1_spin"
_SESSION = pytest.StashKey["SpinSession | None"]()
_SELECTED = pytest.StashKey["list[tuple[str, str]]"]()
_SKIPPED = pytest.StashKey[int]()
SPIN_RESUME_FORMAT = 2   # 2: the code's repair rounds, prefix loop and critic (issue 22); part of the run key
# The SPIN track's resume log (`--spin-resume`): one line per finished run (SpinRun.as_dict), keyed by item id.
# Runs that failed on a backend error are not written, so they are retried.
SPIN_RUN_LOG: LogFormat[SpinRun] = LogFormat(
    flag="--spin-resume", header_field="tooluse1_spin_resume", version=SPIN_RESUME_FORMAT, check_version=False,
    what="a SPIN resume file", fix="use a new path, or the same model, settings, scenarios and trajectory store",
    encode=SpinRun.as_dict, decode=SpinRun.from_dict, key=lambda run: run.item_id)


def default_store_url() -> str:
    """The simulator's store when --trajectory-store is not given: a SQLite file in the tooluse1 cache
    (empty unless some run saved trajectories there with --save-trajectories)."""
    return str(default_cache_dir() / "spin" / "trajectories.sqlite")


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("tooluse1-spin", "ToolUse.1 SPIN planning track (test_plan.py)")
    g.addoption("--variant", default="all",
                help=f"SPIN variants: {','.join(VARIANTS)} (comma-separated) or all (default)")
    g.addoption("--spin-rounds", type=int, default=DEFAULT_ROUNDS, help="repair rounds T (default 3)")
    g.addoption("--spin-top-k", type=int, default=DEFAULT_TOP_K,
                help="past steps the simulator retrieves per step (default 5)")
    g.addoption("--spin-stop-rule", default=DEFAULT_STOP_RULE, choices=STOP_RULES,
                help="where the prefix loop stops: code (default; the public code: at the first Accomplished or "
                     "Not accomplished verdict, then acceptance is tested there) or paper (the paper's text: at "
                     "the first verdict with can_answer_now and Accomplished/Partially)")
    g.addoption("--trajectory-store", default=None,
                help="trajectory store the simulator retrieves from: sqlite:///path, a path, or postgresql://... "
                     "(default: a SQLite file under ~/.cache/tooluse1/spin; empty is fine)")
    g.addoption("--save-trajectories", default=None,
                help="add every executed step of the train scenarios' runs, each with its own status, to this "
                     "trajectory store (same URL forms)")
    g.addoption("--save-plans", default=None,
                help="write every raw and repaired plan text (*.txt + index.json) into this folder")
    g.addoption("--spin-split", default="test", choices=(*SPLITS, "all"),
                help="scenarios to run: test (default, evaluation), train (fill the trajectory store), all")
    g.addoption("--spin-max-new-tokens", default=None,
                help="token caps per role: N caps every role, or role=N,... (roles plan, repair, simulate, "
                     "critic, step, answer); default plan/repair 1024, simulate 64, critic 8192 (it stops at the "
                     "end of its JSON object), step 96, answer 128. "
                     "--max-new-tokens does not apply to SPIN")
    g.addoption("--spin-resume", default=None,
                help="append-only JSONL of finished SPIN runs; the same command after an interruption runs only "
                     "the rest")


def _variants(config: pytest.Config) -> tuple[str, ...]:
    try:
        return parse_variants(config.getoption("--variant"))
    except ValueError as e:
        raise pytest.UsageError(f"--variant: {e}") from None


def pytest_configure(config: pytest.Config) -> None:
    for name in (*VARIANTS, *SHAPES, "en", "ru"):
        config.addinivalue_line("markers", f"{name}: ToolUse.1 SPIN item attribute")
    config.stash.setdefault(_SELECTED, [])


def pytest_tooluse1_configure(config: pytest.Config, run: BenchmarkRun) -> None:
    """The core plugin created the session's BenchmarkRun (only with --model): set up the SPIN session."""
    for opt in ("--spin-rounds", "--spin-top-k"):
        if config.getoption(opt) < 0:
            raise pytest.UsageError(f"{opt} must be >= 0")
    try:
        parse_role_caps(config.getoption("--spin-max-new-tokens"))
    except ValueError as e:
        raise pytest.UsageError(f"--spin-max-new-tokens: {e}") from None
    config.stash[_SESSION] = SpinSession(config, run)


def _load_scenarios() -> tuple[list[Scenario], dict[str, Any]]:
    try:
        return load_scenarios()
    except StaleCorpusError as e:
        raise pytest.UsageError(str(e)) from None


def _in_split(config: pytest.Config, scenario: Scenario) -> bool:
    split = config.getoption("--spin-split")
    return split == "all" or scenario.split == split


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "spin_item" not in metafunc.fixturenames:
        return
    session: SpinSession | None = metafunc.config.stash.get(_SESSION, None)
    scenarios = session.scenarios.values() if session is not None else _load_scenarios()[0]
    params = [pytest.param((s.id, v), id=f"{s.id}-{v}",
                           marks=[getattr(pytest.mark, v), getattr(pytest.mark, s.shape), getattr(pytest.mark, s.lang)])
              for s in scenarios if _in_split(metafunc.config, s) for v in _variants(metafunc.config)]
    metafunc.parametrize("spin_item", params)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    ours = [i for i in items if isinstance(i, pytest.Function) and "spin_item" in i.fixturenames]
    if config.stash.get(_SESSION, None) is None:
        skip = pytest.mark.skip(reason="ToolUse.1 SPIN item: pass --model (e.g. --model default) to run it")
        for i in ours:
            i.add_marker(skip)
        config.stash[_SKIPPED] = len(ours)
        return
    # the (scenario id, variant) pairs pytest_generate_tests parametrized spin_item with
    config.stash[_SELECTED] = [cast("tuple[str, str]", i.callspec.params["spin_item"]) for i in ours]


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    n = config.stash.get(_SKIPPED, 0)
    if n:
        terminalreporter.write_line(f"ToolUse.1 SPIN: {n} plan items are skipped without --model; run them with "
                                    f"`pytest test_plan.py --model default` (or --model oracle for the scripted check)")


# ----------------------------------------------------------------------------- the session

class SpinSession:
    """The SPIN state of one pytest session: scenarios, options, the runner (created on first use, on the
    main benchmark's backend) and every computed run. `ensure` computes missing runs all at once."""

    def __init__(self, config: pytest.Config, run: BenchmarkRun) -> None:
        self.config, self.run = config, run
        try:
            check_scenarios_fresh()
        except ScenarioError as e:
            raise pytest.UsageError("invalid scenarios:\n" + "\n".join(e.problems)) from None
        except StaleCorpusError as e:
            raise pytest.UsageError(str(e)) from None
        scenarios, self.manifest = _load_scenarios()
        self.scenarios: dict[str, Scenario] = {s.id: s for s in scenarios}
        opt = config.getoption
        self.variants = _variants(config)
        self.rounds, self.top_k = int(opt("--spin-rounds")), int(opt("--spin-top-k"))
        self.caps = parse_role_caps(opt("--spin-max-new-tokens"))
        self.stop_rule: str = opt("--spin-stop-rule")
        self.split: str = opt("--spin-split")
        self.resume_path: Path | None = Path(opt("--spin-resume")) if opt("--spin-resume") else None
        self._log: AppendLog[SpinRun] | None = None
        self.resumed_runs = 0
        self.store_url: str = opt("--trajectory-store") or default_store_url()
        self.save_url: str | None = opt("--save-trajectories")
        self.save_plans: Path | None = Path(opt("--save-plans")) if opt("--save-plans") else None
        self.runs: dict[str, SpinRun] = {}
        self.computed_section: dict[str, Any] | None = None   # set when this process computed the runs
        self.started_at = now_iso()
        self.wall_s = 0.0
        self._runner: SpinRunner | None = None
        self._store: TrajectoryStore | None = None
        self.store_count: int | None = None
        self.store_digest: str | None = None
        self.saved_steps = 0
        self.saved_plan_files = 0

    def backend(self) -> Backend:
        """The model behind the SPIN prompts: the session's backend, or the SPIN oracle for `oracle`."""
        cfg = self.run.config
        if cfg.resolved_backend() == "scripted":
            if cfg.model != "oracle":
                raise BackendError(f"--model {cfg.model}: the scripted runner has no SPIN counterpart; "
                                   f"use --model oracle for the scripted SPIN check")
            return SpinOracleBackend(self.scenarios.values())
        return self.run.backend

    def open_store(self) -> TrajectoryStore:
        """The simulator's store, opened once; its size and digest go into provenance and the resume key."""
        if self._store is None:
            self._store = open_store(self.store_url)
            self.store_count, self.store_digest = self._store.count(), self._store.digest()
        return self._store

    def runner(self, need_store: bool) -> SpinRunner:
        if self._runner is None:
            self._runner = SpinRunner(self.backend(), rounds=self.rounds, top_k=self.top_k, max_new_tokens=self.caps,
                                      stop_rule=self.stop_rule)
        if need_store and self._runner.store is None:
            self._runner.store = self.open_store()
        return self._runner

    def resume_key(self) -> dict[str, Any]:
        """What a resumed run must share with the one that wrote the log: same model and settings, same
        scenarios, same trajectory store content (whichever variants are selected, so one log serves a
        session split by --variant or -k)."""
        self.open_store()
        return {"model": self.run.identity(), "caps": self.caps, "rounds": self.rounds, "top_k": self.top_k,
                "stop_rule": self.stop_rule,
                "scenarios_sha256": self.manifest.get("sha256"), "spin_format": SPIN_RESUME_FORMAT,
                "store_digest": self.store_digest}

    def ensure(self, items: list[tuple[str, str]]) -> None:
        """Compute every run of `items` not computed yet (one batched SpinRunner.run), then save
        trajectories and plan texts when asked and refresh the results-file section."""
        todo = [(self.scenarios[sid], v) for sid, v in dict.fromkeys(items) if f"{sid}-{v}" not in self.runs]
        if not todo:
            return
        need_store = any(VARIANT_SPECS[v].simulate for _, v in todo)
        if self.resume_path is not None and self._log is None:
            self._log = AppendLog(self.resume_path, self.resume_key(), SPIN_RUN_LOG)
        if self._log is not None:
            for s, v in todo:
                old = self._log.done.get(f"{s.id}-{v}")
                if old is not None:
                    self.runs[old.item_id] = old
                    self.resumed_runs += 1
            todo = [(s, v) for s, v in todo if f"{s.id}-{v}" not in self.runs]
        runner = self.runner(need_store=need_store)
        log = self._log
        started = time.perf_counter()
        with progress(self.config, len(todo), "ToolUse.1 SPIN runs", "run") as update:

            def finished(rec: SpinRun) -> None:
                if log is not None and rec.error_kind != "backend":   # a backend failure is retried on resume
                    log.append(rec)
                update(1)

            done = runner.run(todo, on_finished=finished)
        self.wall_s += time.perf_counter() - started
        for rec in done:
            self.runs[rec.item_id] = rec
        if self.save_url:
            model_id = self.run.identity().get("model_id", self.run.config.model)
            # Only train scenarios fill the store: test runs are what the store is used to evaluate.
            # Every finished run, resumed ones included (adding is idempotent, keyed by scenario/run/step).
            # A step several variants executed alike (the same plan step with the same output: base and
            # valid share their plan) is stored once, under the first variant in VARIANTS order, so the
            # simulator's top-k are k different steps rather than copies of one.
            order = {v: i for i, v in enumerate(VARIANTS)}
            runs = sorted(self.runs.values(), key=lambda r: (r.scenario_id, order[r.variant]))
            records, seen = [], set()
            for rec in runs:
                if self.scenarios[rec.scenario_id].split != "train":
                    continue
                for r in trajectory_records(rec, self.scenarios[rec.scenario_id].question, f"{model_id}:{rec.variant}"):
                    key = (r.scenario_id, r.agent, r.task, r.output)
                    if key not in seen:
                        seen.add(key)
                        records.append(r)
            with contextlib.closing(open_store(self.save_url)) as store:
                self.saved_steps += store.add(records)
        if self.save_plans is not None:
            self.saved_plan_files += save_plan_texts(self.save_plans, done)
        # now, while the backend is open: the section's provenance asks it about itself
        self.computed_section = self.section([r.as_dict() for r in self.runs.values()])

    def provenance(self) -> dict[str, Any]:
        runner = self._runner
        backend: dict[str, Any] = {}
        if runner is not None:
            try:
                backend = runner.backend.provenance()
            except Exception as e:  # provenance must never lose a finished run's results
                backend = {"provenance_error": repr(e)}
        return {
            "model": self.run.identity(), "backend": backend, "decoding": self.run.config.decoding.as_dict(),
            "max_new_tokens_by_role": dict(self.caps), "split": self.split,
            "tool_latency_s": dict(runner.tool_latency_s) if runner else None,
            "variants": list(dict.fromkeys(r.variant for r in self.runs.values())),
            "rounds": self.rounds, "top_k": self.top_k, "stop_rule": self.stop_rule,
            "critic_examples": list(runner.critic_example_ids) if runner else None,
            "trajectory_store": mask_url(self.store_url) if self._store is not None else None,
            "trajectory_store_records": self.store_count, "trajectory_store_sha256": self.store_digest,
            "resume": str(self.resume_path) if self.resume_path else None, "resumed_runs": self.resumed_runs,
            "save_trajectories": mask_url(self.save_url) if self.save_url else None,
            "saved_steps": self.saved_steps,
            "save_plans": str(self.save_plans) if self.save_plans else None, "saved_plan_files": self.saved_plan_files,
            "scenarios": {"sha256": self.manifest.get("sha256"), "version": self.manifest.get("version"),
                          "n_scenarios": self.manifest.get("n_scenarios")},
            "batching": {"generate_calls": runner.generate_calls if runner else 0,
                         "generated_prompts": runner.generated_prompts if runner else 0,
                         "requested_prompts": runner.requested_prompts if runner else 0,
                         "continuous_admission": runner.continuous if runner else False,
                         # the fast decoder's counters of the last continuous run (prefill/decode time, tokens)
                         "fast_stats": (stats.as_dict() if (stats := getattr(runner.backend, "last_fast_stats", None))
                                        is not None else None) if runner else None},
            "wall_s": round(self.wall_s, 3), "started_at": self.started_at, "finished_at": now_iso(),
        }

    def section(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        return spin_section(records, self.provenance(), VARIANTS)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None


# ----------------------------------------------------------------------------- fixtures

class SpinItemError(ToolUse1Error):
    """The backend produced no answer for a prompt of this run; pytest reports it as an error."""


@pytest.fixture
def spin_record(request: pytest.FixtureRequest, spin_item: tuple[str, str]) -> SpinRun:
    """The finished run of this item. All selected items are computed on the first call."""
    config = request.config
    session: SpinSession | None = config.stash.get(_SESSION, None)
    if session is None:
        pytest.skip("pass --model to run ToolUse.1 SPIN items")
    sid, variant = spin_item
    if f"{sid}-{variant}" not in session.runs:
        batch = [spin_item] if hasattr(config, "workerinput") else (config.stash[_SELECTED] or [spin_item])
        try:
            session.ensure(batch)
        except (BackendError, StoreError, ResumeMismatch) as e:
            pytest.exit(f"ToolUse.1 SPIN: {e}", returncode=4)
    rec = session.runs[f"{sid}-{variant}"]
    request.node.user_properties.append((RECORD_KEY, rec.as_dict()))
    if rec.error_kind == "backend":
        raise SpinItemError(f"{rec.item_id}: backend error (not a model failure): {rec.error}")
    return rec


def failure_message(rec: SpinRun) -> str:
    """What a failing SPIN item says: outcome, reason, plan validity, executed steps, the answer."""
    steps = "; ".join(f"#S{s.index} {s.call['name'] if s.call else s.agent}: "
                      f"{'ok' if s.ok else 'FAILED ' + str(s.error)}" for s in rec.steps) or "none"
    answer = rec.answer if rec.answer is None or len(rec.answer) <= 300 else rec.answer[:300] + "…"
    return (f"{rec.item_id}: {rec.outcome}\n"
            f"  reason  : {rec.reason}\n"
            f"  plans   : {len(rec.plans)} ({rec.repair_rounds} repairs), valid={rec.plan_valid}, "
            f"accepted prefix={rec.accepted_prefix}"
            f"{', no valid plan: the last repair ran leniently' if rec.no_valid_plan else ''}\n"
            f"  executed: {steps}\n"
            f"  answer  : {answer!r}")


# ----------------------------------------------------------------------------- reporting

def pytest_tooluse1_sections(config: pytest.Config, records: Mapping[str, Mapping[str, dict]]) -> dict[str, Any] | None:
    """The `spin` section: as computed in this process, or (xdist: the runs were computed on workers,
    whose state the controller cannot see) from the records collected on the controller."""
    spin: SpinSession | None = config.stash.get(_SESSION, None)
    collected = records.get(RECORD_KEY, {})
    if spin is None or not (spin.computed_section or collected):
        return None
    return {SECTION: spin.computed_section or spin.section(list(collected.values()))}


@pytest.hookimpl(trylast=True)   # after the core reporter has built the results document
def pytest_sessionfinish(session: pytest.Session) -> None:
    spin: SpinSession | None = session.config.stash.get(_SESSION, None)
    if spin is not None:
        spin.close()


def pytest_tooluse1_terminal_summary(config: pytest.Config, terminalreporter: Any, document: dict) -> None:
    section = document.get(SECTION)
    if not section or not section["n_runs"]:
        return
    terminalreporter.section("ToolUse.1 SPIN summary")
    terminalreporter.write_line(format_spin_summary(section))
