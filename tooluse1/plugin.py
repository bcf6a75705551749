"""The pytest face of ToolUse.1: options, one test item per case x protocol, the session summary and the
results file. Registered by the project's conftest.py (never auto-loaded into other suites).

Flow: collection parametrizes `test_case` over the built corpus; after selection (-k, -m, node ids, --lf),
the first benchmark item's setup generates completions for every selected item at once (batched, sorted,
resumable, with a progress bar); each test then only grades its item. Per-item records travel in
`report.user_properties` (so they reach the xdist controller), and the controller writes the summary,
the results file and pytest-json-report's section.
"""
from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest

from tooluse1.backends.base import BackendError
from tooluse1.corpus import CorpusError, StaleCorpusError, check_fresh, load_corpus
from tooluse1.harness import BACKENDS, BenchmarkRun, RunConfig
from tooluse1.metrics import format_summary
from tooluse1.prompts import PROTOCOLS, format_call, item_id, parse_protocols
from tooluse1.results import ResumeMismatch, build_results, write_json_atomic

RECORD_KEY = "tooluse1"
_RUN = pytest.StashKey["BenchmarkRun | None"]()
_SELECTED = pytest.StashKey["list[tuple[str, str]]"]()
_SKIPPED_FOR_NO_MODEL = pytest.StashKey[int]()
# Other suites on the same session (the SPIN track) put their results-file sections here, by name,
# before pytest_sessionfinish; the reporter adds them to the results document.
EXTRA_SECTIONS = pytest.StashKey["dict[str, dict]"]()


def benchmark_run(config: pytest.Config) -> "BenchmarkRun | None":
    """The session's BenchmarkRun (config, backend, corpus) or None without --model."""
    return config.stash.get(_RUN, None)


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("tooluse1", "ToolUse.1 benchmark")
    g.addoption("--model", default=None,
                help="model to benchmark: 'default' (embedded Qwen2.5-Coder-0.5B), 'smollm2', a checkpoint dir, "
                     "a cached HF id, a server's model name, or a scripted runner (oracle, never-call, always-call)")
    g.addoption("--backend", default="auto", choices=BACKENDS, help="transformers | openai | scripted (auto)")
    g.addoption("--base-url", default=None, help="OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1")
    g.addoption("--api-key-env", default="OPENAI_API_KEY", help="environment variable holding the API key")
    g.addoption("--protocol", default="all", help="json,xml,plain or all (default)")
    g.addoption("--batch-size", type=int, default=None,
                help="transformers rows decoded together (default: 32 on the fast path, 8 with --no-fast)")
    g.addoption("--max-new-tokens", type=int, default=256)
    g.addoption("--dtype", default="float32", help="transformers dtype: float32 | bfloat16 | float16 | auto")
    g.addoption("--device", default="cpu", help="transformers device: cpu | cuda | cuda:N")
    g.addoption("--threads", type=int, default=None,
                help="transformers on CPU: torch threads (default: one per physical core)")
    g.addoption("--concurrency", type=int, default=8, help="openai backend: requests in flight")
    g.addoption("--request-timeout", type=float, default=120.0, help="openai backend: seconds per request")
    g.addoption("--max-retries", type=int, default=5,
                help="openai backend: retries per request on 429/5xx/timeouts/dropped connections (backoff)")
    g.addoption("--no-fast", action="store_true",
                help="transformers: plain batched generate, no shared-prefix cache / slot refill (reference runs)")
    g.addoption("--resume", default=None, help="append-only JSONL of finished items; reruns generate only the rest")
    g.addoption("--results", default=None, help="write the results file (JSON) here")
    g.addoption("--min-score", type=float, default=None, help="fail the session when the score is below this")


def _config(config: pytest.Config) -> RunConfig | None:
    opt = config.getoption
    if not opt("--model"):
        return None
    try:
        protocols = parse_protocols(opt("--protocol"))
    except ValueError as e:
        raise pytest.UsageError(f"--protocol: {e}") from None
    return RunConfig(model=opt("--model"), backend=opt("--backend"), base_url=opt("--base-url"),
                     api_key_env=opt("--api-key-env"), protocols=protocols, batch_size=opt("--batch-size"),
                     max_new_tokens=opt("--max-new-tokens"), dtype=opt("--dtype"), device=opt("--device"),
                     threads=opt("--threads"), concurrency=opt("--concurrency"), request_timeout=opt("--request-timeout"),
                     max_retries=opt("--max-retries"),
                     fast=not opt("--no-fast"),
                     resume=Path(opt("--resume")) if opt("--resume") else None,
                     results=Path(opt("--results")) if opt("--results") else None, min_score=opt("--min-score"))


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With --model and no paths on the command line, collect only the benchmark items: the project's own
    tests (tests_grader/, servers and real models, minutes) are for `make test`, not for a benchmark run.
    Paths given explicitly are always collected."""
    if (config.getoption("--model") and config.args_source == pytest.Config.ArgsSource.TESTPATHS
            and collection_path.is_dir() and collection_path.name == "tests_grader"):
        return True
    return None


def _is_xdist_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    for name in (*PROTOCOLS, "en", "ru", "call", "no_call", "clarify", "easy", "medium", "hard",
                 "knowledge", "capability_trap", "instruction_trap", "negative", "clarification", "multi_step",
                 "calculator", "get_weather", "web_search", "translate", "convert_currency", "convert_units",
                 "set_timer", "save_note", "get_time"):
        config.addinivalue_line("markers", f"{name}: ToolUse.1 item attribute")
    config.stash[_SELECTED] = []
    run_config = _config(config)
    config.stash[_RUN] = None
    if run_config is None:
        return
    numprocesses = getattr(config.option, "numprocesses", None)
    if numprocesses and run_config.resolved_backend() == "transformers":
        raise pytest.UsageError("--backend transformers cannot run under pytest-xdist (-n): every worker would load "
                                "its own copy of the model. Drop -n (the backend batches internally), or serve the "
                                "model and use --backend openai --base-url URL with -n.")
    try:
        check_fresh()
        cases, manifest = load_corpus()
    except CorpusError as e:
        raise pytest.UsageError("invalid cases:\n" + "\n".join(e.problems)) from None
    except StaleCorpusError as e:
        raise pytest.UsageError(str(e)) from None
    run = BenchmarkRun(run_config, {c.id: c for c in cases}, manifest)
    config.stash[_RUN] = run
    if not _is_xdist_worker(config):
        config.pluginmanager.register(_Reporter(config, run), "tooluse1-reporter")


# ----------------------------------------------------------------------------- collection

def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "tooluse1_item" not in metafunc.fixturenames:
        return
    run: BenchmarkRun | None = metafunc.config.stash.get(_RUN, None)
    if run is not None:
        cases, protocols = list(run.cases.values()), run.config.protocols
    else:
        try:
            cases, _ = load_corpus()
        except StaleCorpusError as e:
            raise pytest.UsageError(str(e)) from None
        protocols = PROTOCOLS
    params = []
    for case in cases:
        for protocol in protocols:
            marks = [getattr(pytest.mark, m) for m in
                     (protocol, case.lang, case.expectation, case.difficulty, case.category, case.kind) if m]
            params.append(pytest.param((case.id, protocol), id=item_id(case.id, protocol), marks=marks))
    metafunc.parametrize("tooluse1_item", params)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    ours = [i for i in items if "tooluse1_item" in getattr(i, "fixturenames", ())]
    if config.stash[_RUN] is None:
        skip = pytest.mark.skip(reason="ToolUse.1 benchmark item: pass --model (e.g. --model default) to run it")
        for i in ours:
            i.add_marker(skip)
        config.stash[_SKIPPED_FOR_NO_MODEL] = len(ours)
        return
    config.stash[_SELECTED] = [i.callspec.params["tooluse1_item"] for i in ours]


_NO_MODEL_HINT = ("ToolUse.1: {n} benchmark items are skipped without --model; run them with "
                  "`pytest --model default` (or a checkpoint dir, or --backend openai --base-url URL --model NAME)")


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    n = config.stash.get(_SKIPPED_FOR_NO_MODEL, 0)
    if n:
        terminalreporter.write_line(_NO_MODEL_HINT.format(n=n))


def pytest_report_header(config: pytest.Config) -> str | None:
    run: BenchmarkRun | None = config.stash.get(_RUN, None)
    if run is None:
        return None
    c = run.config
    return (f"ToolUse.1: model={c.model} backend={c.resolved_backend()} protocols={','.join(c.protocols)} "
            f"corpus={run.manifest['sha256'][:12]}")


# ----------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="session")
def tooluse1_run(request: pytest.FixtureRequest) -> BenchmarkRun:
    run: BenchmarkRun | None = request.config.stash.get(_RUN, None)
    if run is None:
        pytest.skip("pass --model to run ToolUse.1 benchmark items")
    request.addfinalizer(run.close)
    return run


def _generate_with_progress(config: pytest.Config, run: BenchmarkRun, items: list[tuple[str, str]]) -> None:
    """Generate missing completions for `items`, showing a tqdm bar outside pytest's capture."""
    from tqdm import tqdm
    capman = config.pluginmanager.getplugin("capturemanager")
    missing = run.missing(items)
    with capman.global_and_fixture_disabled() if capman else contextlib.nullcontext():
        bar = tqdm(total=len(missing), desc="ToolUse.1 generating", unit="item", dynamic_ncols=True,
                   disable=not run.config.progress or len(missing) < 2)
        try:
            run.generate(items, progress=bar.update)
        finally:
            bar.close()


@pytest.fixture
def tooluse1_record(request: pytest.FixtureRequest, tooluse1_run: BenchmarkRun, tooluse1_item):
    """The graded record of this item. Generation of all selected items happens on the first call
    (on an xdist worker, item by item: the server batches concurrent requests itself)."""
    config = request.config
    try:
        if tooluse1_run.missing([tooluse1_item]):
            batch = [tooluse1_item] if _is_xdist_worker(config) else (config.stash[_SELECTED] or [tooluse1_item])
            _generate_with_progress(config, tooluse1_run, batch)
    except (BackendError, ResumeMismatch) as e:
        pytest.exit(f"ToolUse.1: {e}", returncode=4)
    record = tooluse1_run.record(*tooluse1_item)
    request.node.user_properties.append((RECORD_KEY, record.as_dict()))
    if record.is_error:
        raise BackendItemError(f"{record.item_id}: backend error (not a model failure): {record.completion.error}")
    return record


class BackendItemError(Exception):
    """The backend produced no answer for this item; pytest reports it as an error, not a failure."""


def describe_expectation(case) -> str:
    """One line saying what a right answer to `case` is (failure messages, reports)."""
    exp = case.expect
    if exp.kind == "call":
        return f"call {format_call(exp.call, 'plain').removeprefix('TOOL ')}"
    if exp.kind == "clarify":
        return f"a question back about {' or '.join(exp.missing)}, no call"
    parts = []
    if exp.answer_contains_all:
        parts.append("all of " + ", ".join(" | ".join(alts) for alts in exp.answer_contains_all))
    if exp.answer_contains_any:
        parts.append("any of " + " | ".join(exp.answer_contains_any))
    if exp.answer_excludes:
        parts.append("none of " + " | ".join(exp.answer_excludes))
    if exp.refusal:
        parts.append("a refusal, no claimed action")
    return "no call; answer with " + ("; ".join(parts) if parts else "any non-empty text")


def failure_message(record) -> str:
    """What a failing item says, and nothing more: expectation, what was extracted, label, reason, a raw excerpt."""
    case, v, ex = record.case, record.verdict, record.extraction
    calls = ex.calls + ex.examples
    got = "; ".join(f"{c.name}({json.dumps(c.arguments, ensure_ascii=False)})" for c in calls) or "no call"
    raw = record.completion.text
    excerpt = raw if len(raw) <= 400 else raw[:400] + f"… [{len(raw)} chars]"
    return (f"{record.item_id} ({case.source or case.id})\n"
            f"  expected : {describe_expectation(case)}\n"
            f"  extracted: {got}   label={v.label} finish={record.completion.finish_reason}\n"
            f"  reason   : {v.reason}\n"
            f"  output   : {excerpt!r}")


# ----------------------------------------------------------------------------- reporting

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    # A backend-error record is attached during setup; make sure the setup report carries it.
    if report.when == "setup" and report.outcome == "failed":
        report.user_properties = list(item.user_properties)


class _Reporter:
    """Controller-side collection of per-item records (they arrive through report.user_properties, also
    from xdist workers) and everything that is done with them at the end of the session."""

    def __init__(self, config: pytest.Config, run: BenchmarkRun):
        self.config, self.run = config, run
        self.records: dict[str, dict] = {}
        self.document: dict | None = None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for key, value in getattr(report, "user_properties", ()):
            if key == RECORD_KEY and isinstance(value, dict):
                self.records[value["item_id"]] = value   # keyed by item: reruns replace, never double-count

    def results_document(self) -> dict | None:
        extra = self.config.stash.get(EXTRA_SECTIONS, {})
        if self.document is None and (self.records or extra):
            self.document = build_results(self.run.provenance(), list(self.records.values()))
            self.document.update(extra)
        return self.document

    @pytest.hookimpl(optionalhook=True)
    def pytest_json_modifyreport(self, json_report: dict) -> None:
        """pytest-json-report: add the same section our own writer produces."""
        doc = self.results_document()
        if doc is not None:
            json_report["tooluse1"] = doc

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        doc = self.results_document()
        if doc is None:
            return
        if self.run.config.results is not None:
            write_json_atomic(self.run.config.results, doc)
        gate, score = self.run.config.min_score, doc["summary"]["overall"]["score"]["rate"]
        if gate is not None and self.records and (score is None or score < gate):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
            self.gate_failure = f"score {score} is below --min-score {gate}"

    gate_failure: str | None = None

    def pytest_terminal_summary(self, terminalreporter, exitstatus: int, config: pytest.Config) -> None:
        doc = self.document
        if not doc or not self.records:
            return
        terminalreporter.section("ToolUse.1 summary")
        terminalreporter.write_line(format_summary(doc["summary"], title=f"ToolUse.1 {self.run.config.model}"))
        if self.run.config.results is not None:
            terminalreporter.write_line(f"results file: {self.run.config.results}")
        if self.gate_failure:
            terminalreporter.write_line(f"GATE FAILED: {self.gate_failure}", red=True, bold=True)
