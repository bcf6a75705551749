"""The pytest face of ToolUse.1: options, one test item per case x protocol, the session summary and the
results file. Loaded through a pytest11 entry point (pyproject.toml), so its options are known wherever pytest
starts (`pytest --model /abs/checkpoint` keeps the project's rootdir: tooluse1/rootdir.py); the project's
conftest.py registers it too when the package is not installed. Without --model it stays inert: it adds its
options and item markers, and touches no test it did not define.

Flow: collection parametrizes `test_case` over the built corpus; after selection (-k, -m, node ids, --lf),
the first benchmark item's setup generates completions for every selected item at once (batched, sorted,
resumable, with a progress bar); each test then only grades its item. Per-item records travel in
`report.user_properties` (so they reach the xdist controller), and the controller writes the summary,
the results file, pytest-json-report's section, the HTML report (--html) and applies the gates
(--min-score, --baseline).

Tracks (the SPIN planning track) join through the hooks of tooluse1/hookspecs.py: they get the session's
BenchmarkRun, contribute their results-file sections and summaries, and share the collector and the
progress display (`progress`) defined here.
"""
from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import json
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Sequence, cast

import pytest

from tooluse1 import corpus as corpus_constants
from tooluse1 import types as vocabulary
from tooluse1.corpus import Case, StaleCorpusError, load_corpus
from tooluse1.errors import BackendError, ResumeMismatch, ToolUse1Error
from tooluse1.backends.registry import AUTO
from tooluse1.harness import BACKENDS, BenchmarkRun, RunConfig
from tooluse1.cost import format_cost
from tooluse1.metrics import format_summary
from tooluse1.prompts import PROTOCOL_HELP, PROTOCOLS, item_id, parse_protocols
from tooluse1.results import (ItemRecord, ResultsFile, ResultsFileError, build_results,
                              load_results, scrub_secrets, track_sections, write_json_atomic)
from tooluse1.suite import CasesUnusable

if TYPE_CHECKING:
    from tooluse1.compare import Comparison

RECORD_KEY = "tooluse1"
BENCHMARK_FILE = "test_tooluse1.py"   # the benchmark items (one per case x protocol)
_RUN = pytest.StashKey["BenchmarkRun | None"]()
_SELECTED = pytest.StashKey["list[tuple[str, str]]"]()
_SKIPPED_FOR_NO_MODEL = pytest.StashKey[int]()
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(RunConfig)}
# pytest-html owns --html when it is installed; ours is then only --tooluse1-html.
_HTML_FLAGS = ("--tooluse1-html",) if importlib.util.find_spec("pytest_html") else ("--html", "--tooluse1-html")


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    from tooluse1 import hookspecs
    pluginmanager.add_hookspecs(hookspecs)


def benchmark_run(config: pytest.Config) -> "BenchmarkRun | None":
    """The session's BenchmarkRun (config, backend, corpus) or None without --model."""
    return config.stash.get(_RUN, None)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    from tooluse1.rootdir import reroot
    reroot(early_config, parser, args)


def pytest_addoption(parser: pytest.Parser) -> None:
    d = _DEFAULTS
    g = parser.getgroup("tooluse1", "ToolUse.1 benchmark")
    g.addoption("--model", default=None,
                help="model to benchmark: 'default' (embedded Qwen2.5-Coder-0.5B), 'smollm2', a checkpoint dir, "
                     "a cached HF id, a server's model name, or a scripted runner (oracle, never-call, always-call)")
    g.addoption("--backend", default=d["backend"], choices=BACKENDS,
                help=f"{' | '.join(b for b in BACKENDS if b != AUTO)} ({AUTO}: chosen by --model and --base-url)")
    g.addoption("--base-url", default=d["base_url"], help="OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1")
    g.addoption("--api-key-env", default=d["api_key_env"], help="environment variable holding the API key")
    g.addoption("--protocol", default="all", help=PROTOCOL_HELP)
    g.addoption("--suite", default=None,
                help="a suite of your own (a folder with tools.json or tools.yaml, and cases/) instead of the "
                     "built-in corpus")
    g.addoption("--draws", default="0",
                help="seeded draws: K draws of every case instead of the public cases (ids <case>.d<j>-<protocol>; "
                     "default 0 = the public cases)")
    g.addoption("--draw-seed", default=None,
                help="the seed of --draws (default: the published seed); keep your own seed private for a split "
                     "nobody has trained on. Results record only its SHA-256")
    g.addoption("--batch-size", type=int, default=d["batch_size"],
                help="transformers rows decoded together (default: 32 on the fast path, 8 with --no-fast)")
    g.addoption("--max-new-tokens", type=int, default=d["max_new_tokens"])
    g.addoption("--dtype", default=d["dtype"], help="transformers dtype: float32 | bfloat16 | float16 | auto")
    g.addoption("--device", default=d["device"], help="transformers device: cpu | cuda | cuda:N")
    g.addoption("--threads", type=int, default=d["threads"],
                help="transformers on CPU: torch threads (default: one per physical core)")
    g.addoption("--concurrency", type=int, default=d["concurrency"], help="openai backend: requests in flight")
    g.addoption("--request-timeout", type=float, default=d["request_timeout"],
                help="openai backend: seconds per request")
    g.addoption("--max-retries", type=int, default=d["max_retries"],
                help="openai backend: retries per request on 429/5xx/timeouts/dropped connections (backoff)")
    g.addoption("--stream", action="store_true",
                help="openai backend: streamed requests, content and tool-call deltas reassembled as clients do")
    g.addoption("--samples", type=int, default=d["samples"],
                help="sampled trials: answers per item (default 1). A sampled item passes when every sample passes; "
                     "the score is the mean of the per-item pass rates")
    g.addoption("--temperature", type=float, default=d["temperature"],
                help="sampling temperature (default 0: greedy, the reference)")
    g.addoption("--top-p", type=float, default=d["top_p"], help="nucleus sampling: top-p in (0, 1] (default 1)")
    g.addoption("--sample-seed", type=int, default=d["sample_seed"],
                help="seed of the samples (default 0): sample j of item i is seeded from (this, i, j)")
    g.addoption("--no-fast", action="store_true",
                help="transformers: plain batched generate, no shared-prefix cache / slot refill (reference runs)")
    g.addoption("--resume", default=None, help="append-only JSONL of finished items; reruns generate only the rest")
    g.addoption("--results", default=None, help="write the results file (JSON) here")
    g.addoption(*_HTML_FLAGS, dest="tooluse1_html", default=None,
                help="write the HTML report (self-contained, with --baseline's comparison) here")
    g.addoption("--min-score", type=float, default=d["min_score"], help="gate: fail when the score is below this")
    g.addoption("--price-in", type=float, default=d["price_in"],
                help="price per million prompt tokens: the summary, report and leaderboard show what the run cost")
    g.addoption("--price-out", type=float, default=d["price_out"], help="price per million completion tokens")
    g.addoption("--baseline", default=None,
                help="gate: a results file to compare with (paired); fail when this run is significantly worse")
    g.addoption("--alpha", default=None,
                help="--baseline: one-sided significance level of the paired test clustered by case (default 0.05)")
    g.addoption("--max-drop", default=None, help="--baseline: also fail when the score drops by more than this")
    g.addoption("--allow-different-prompts", action="store_true",
                help="--baseline: compare although the prompt digests differ (a deliberate prompt study)")
    g.addoption("--allow-decoding-change", action="store_true",
                help="--baseline: compare although the runs decode differently (greedy vs sampled, another "
                     "temperature or top-p)")


def _config(config: pytest.Config) -> RunConfig | None:
    opt = config.getoption
    if not opt("--model"):
        return None
    try:
        protocols = parse_protocols(opt("--protocol"))
    except ValueError as e:
        raise pytest.UsageError(f"--protocol: {e}") from None
    prices = {flag: opt(flag) for flag in ("--price-in", "--price-out")}
    for flag, price in prices.items():
        if price is not None and not (price >= 0 and price != float("inf")):
            raise pytest.UsageError(f"{flag} {price:g}: a price per million tokens must be a number >= 0")
    sampling_error = sampling_usage_error(opt("--samples"), opt("--temperature"), opt("--top-p"))
    if sampling_error:
        raise pytest.UsageError(sampling_error)
    if (prices["--price-in"] is None) != (prices["--price-out"] is None):
        given, missing = ("--price-in", "--price-out") if prices["--price-out"] is None else ("--price-out",
                                                                                               "--price-in")
        raise pytest.UsageError(f"{given} needs {missing} too (0 for tokens that cost nothing)")
    return RunConfig(model=opt("--model"), backend=opt("--backend"), base_url=opt("--base-url"),
                     api_key_env=opt("--api-key-env"), protocols=protocols, batch_size=opt("--batch-size"),
                     max_new_tokens=opt("--max-new-tokens"), dtype=opt("--dtype"), device=opt("--device"),
                     threads=opt("--threads"), concurrency=opt("--concurrency"),
                     request_timeout=opt("--request-timeout"), max_retries=opt("--max-retries"), stream=opt("--stream"),
                     fast=not opt("--no-fast"), samples=opt("--samples"), temperature=opt("--temperature"),
                     top_p=opt("--top-p"), sample_seed=opt("--sample-seed"),
                     resume=Path(opt("--resume")) if opt("--resume") else None,
                     results=Path(opt("--results")) if opt("--results") else None, min_score=opt("--min-score"),
                     price_in=prices["--price-in"], price_out=prices["--price-out"])


def sampling_usage_error(samples: int, temperature: float, top_p: float) -> str | None:
    """One line naming the flag whose value is unusable, or None: --samples N >= 1, --temperature T >= 0,
    --top-p in (0, 1]."""
    if samples < 1:
        return f"--samples {samples}: must be at least 1"
    if not (temperature >= 0 and temperature != float("inf")):
        return f"--temperature {temperature:g}: must be a number >= 0 (0 = greedy)"
    if not 0 < top_p <= 1:
        return f"--top-p {top_p:g}: must be in (0, 1]"
    return None


@dataclasses.dataclass(frozen=True)
class _Gate:
    """The baseline gate's settings (checked at configure time)."""

    baseline: ResultsFile
    alpha: float
    max_drop: float | None
    allow_different_prompts: bool
    allow_decoding_change: bool = False


def _baseline_gate(config: pytest.Config, manifest: dict, run_config: RunConfig | None = None) -> "_Gate | None":
    """--baseline and its options, checked now so that a bad file or flag stops the session before any
    generation (pytest.UsageError naming the flag and the file)."""
    from tooluse1.compare import DEFAULT_ALPHA, decoding_differences, parse_fraction, provenance_differences
    from tooluse1.corpus import SPEC_VERSION, corpus_provenance
    opt = config.getoption
    path = opt("--baseline")
    if path is None:
        for flag in ("--alpha", "--max-drop"):
            if opt(flag) is not None:
                raise pytest.UsageError(f"{flag} needs --baseline")
        return None
    try:
        alpha = (parse_fraction(opt("--alpha"), "--alpha", open_low=True) if opt("--alpha") is not None
                 else DEFAULT_ALPHA)
        max_drop = parse_fraction(opt("--max-drop"), "--max-drop") if opt("--max-drop") is not None else None
        baseline = load_results(path)
    except (ValueError, ResultsFileError) as e:
        raise pytest.UsageError(f"--baseline: {e}" if isinstance(e, ResultsFileError) else str(e)) from None
    # The prompt digest is known only once the run has rendered its prompts: checked at session end.
    diffs, _ = provenance_differences(baseline.provenance, {"spec_version": SPEC_VERSION,
                                                            "corpus": corpus_provenance(manifest)})
    if run_config is not None and not opt("--allow-decoding-change"):
        decoding = decoding_differences(baseline.provenance.get("decoding") or {}, run_config.decoding.as_dict())
        if decoding:
            diffs.append(decoding)
    if diffs:
        raise pytest.UsageError(f"--baseline {path} is not comparable with this run: it differs in {'; '.join(diffs)}")
    return _Gate(baseline, alpha, max_drop, bool(opt("--allow-different-prompts")),
                 bool(opt("--allow-decoding-change")))


def _corpus(config: pytest.Config) -> "tuple[Sequence[Case], dict]":
    """The session's cases and manifest: the suite of --suite (each case carrying its toolbox, the suite's
    categories added as markers), else the built-in corpus (data/, checked fresh). pytest.UsageError naming
    every problem."""
    from tooluse1.draws import DrawError, session_cases
    opt = config.getoption
    try:
        cases, manifest, tool_names = session_cases(opt("--suite"), opt("--draws"), opt("--draw-seed"))
    except (CasesUnusable, DrawError) as e:
        raise pytest.UsageError(str(e)) from None
    # A case's own tools' names too, and a suite's language tags (`-m ko`).
    for name in dict.fromkeys((*tool_names, *(c.category for c in cases), *(c.lang for c in cases))):
        config.addinivalue_line("markers", f"{name}: ToolUse.1 item attribute")
    return cases, manifest


def _is_xdist_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    c = corpus_constants
    v = vocabulary
    for name in dict.fromkeys((*v.ALL_PROTOCOLS, *v.LANGS, *v.EXPECTATIONS, *v.DIFFICULTIES, *v.NEGATIVE_KINDS,
                               *c.CATEGORIES, "draw")):
        config.addinivalue_line("markers", f"{name}: ToolUse.1 item attribute")
    config.stash[_SELECTED] = []
    run_config = _config(config)
    if run_config is not None and config.args_source == pytest.Config.ArgsSource.TESTPATHS:
        # `pytest --model X` with no paths runs the benchmark items only: the project's own tests (servers,
        # real models, minutes) are for `make test` / `pytest tests_grader`. Paths given explicitly are kept.
        config.args[:] = [a for a in config.args if Path(a).name == BENCHMARK_FILE] or config.args
    config.stash[_RUN] = None
    if run_config is None:
        for flag, unset in (("--suite", None), ("--draws", "0"), ("--draw-seed", None)):
            if config.getoption(flag) != unset:
                raise pytest.UsageError(f"{flag} needs --model (what to run with, e.g. --model oracle)")
        return
    numprocesses = getattr(config.option, "numprocesses", None)
    if numprocesses and (entry := run_config.backend_entry()).in_process:
        raise pytest.UsageError(f"--backend {entry.name} cannot run under pytest-xdist (-n): every worker would load "
                                "its own copy of the model. Drop -n (the backend batches internally), or serve the "
                                "model and use --backend openai --base-url URL with -n.")
    cases, manifest = _corpus(config)
    run = BenchmarkRun(run_config, {c.id: c for c in cases}, manifest)
    config.stash[_RUN] = run
    if not _is_xdist_worker(config):
        gate = _baseline_gate(config, manifest, run_config)
        html = config.getoption("tooluse1_html")
        config.pluginmanager.register(_Reporter(config, run, gate, Path(html) if html else None), "tooluse1-reporter")
    config.hook.pytest_tooluse1_configure(config=config, run=run)


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
            drawn = "draw" if ".d" in case.id else None   # a seeded draw (tooluse1.draws): `-m draw`
            marks = [getattr(pytest.mark, m) for m in
                     (protocol, case.lang, case.expectation, case.difficulty, case.category, case.kind, drawn) if m]
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
    # Every item of ours is a pytest.Function parametrized by its (case id, protocol).
    selected = [cast("tuple[str, str]", cast(pytest.Function, i).callspec.params["tooluse1_item"]) for i in ours]
    config.stash[_SELECTED] = selected


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
    suite = f"suite={run.manifest['suite']['path']} " if "suite" in run.manifest else ""
    d = run.manifest.get("draws")
    draws = f"draws={d['k']} seed-sha256={d['seed_sha256'][:12]} generator={d['generator']} " if d else ""
    return (f"ToolUse.1: model={c.model} backend={c.resolved_backend()} protocols={','.join(c.protocols)} "
            f"{suite}{draws}corpus={run.manifest['sha256'][:12]}")


# ----------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="session")
def tooluse1_run(request: pytest.FixtureRequest) -> BenchmarkRun:
    run: BenchmarkRun | None = request.config.stash.get(_RUN, None)
    if run is None:
        pytest.skip("pass --model to run ToolUse.1 benchmark items")
    request.addfinalizer(run.close)
    return run


@contextlib.contextmanager
def progress(config: pytest.Config, total: int, desc: str, unit: str = "item") -> Iterator[Callable[[int], object]]:
    """The session's progress display (shared by every track): a tqdm bar written outside pytest's capture,
    shown when there are at least 2 steps and the run's progress setting is on. Yields `update(n)`."""
    from tqdm import tqdm
    capman = config.pluginmanager.getplugin("capturemanager")
    run = benchmark_run(config)
    enabled = run is None or run.config.progress
    with capman.global_and_fixture_disabled() if capman else contextlib.nullcontext():
        bar = tqdm(total=total, desc=desc, unit=unit, dynamic_ncols=True, disable=not enabled or total < 2)
        try:
            yield bar.update
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
            decoding = tooluse1_run.config.decoding
            per_item = decoding.samples if decoding.sampled else 1   # the bar counts answers (samples)
            with progress(config, len(tooluse1_run.missing(batch)) * per_item, "ToolUse.1 generating") as update:
                tooluse1_run.generate(batch, progress=update)
    except (BackendError, ResumeMismatch) as e:
        pytest.exit(f"ToolUse.1: {e}", returncode=4)
    record = tooluse1_run.record(*tooluse1_item)
    request.node.user_properties.append((RECORD_KEY, record.as_dict()))
    if record.is_error:
        raise BackendItemError(f"{record.item_id}: backend error (not a model failure): {record.completion.error}")
    return record


def identical_samples_warning(document: dict) -> str | None:
    """One line when a run sampled at a temperature > 0 and every sample of every item came out identical
    (sampling was not switched on where the model ran, e.g. a server that ignores temperature), else None."""
    from tooluse1.sampling import identical_samples
    decoding = document["provenance"].get("decoding") or {}
    if not decoding.get("temperature"):
        return None
    outputs = [[s["output"] for s in r.get("samples") or ()] for r in document["records"]]
    if not identical_samples(outputs):
        return None
    return (f"WARNING: every sample of every item is identical at temperature {decoding['temperature']:g}: "
            f"the backend did not sample (a server that ignores temperature/seed?)")


class BackendItemError(ToolUse1Error):
    """The backend produced no answer for this item; pytest reports it as an error, not a failure."""


def failure_message(record) -> str:
    """What a failing item says, and nothing more: expectation, what was extracted, label, reason, a raw excerpt.
    A sampled item (it fails when any sample fails) says how many samples passed and shows its first failing
    sample."""
    case = record.case
    head, answer, v, ex = "", record.completion, record.verdict, record.extraction
    if record.samples:
        failing = next(s for s in record.samples if not s.passed)
        passed = sum(s.passed for s in record.samples)
        head = (f"  samples  : {passed} of {len(record.samples)} passed (a sampled item passes only when every "
                f"sample passes); sample {failing.index} (seed {failing.completion.seed}):\n")
        answer, v, ex = failing.completion, failing.verdict, failing.extraction
    calls = ex.calls + ex.examples
    got = "; ".join(f"{c.name}({json.dumps(c.arguments, ensure_ascii=False)})" for c in calls) or "no call"
    raw = answer.text
    excerpt = raw if len(raw) <= 400 else raw[:400] + f"… [{len(raw)} chars]"
    return (f"{record.item_id} ({case.source or case.id})\n{head}"
            f"  expected : {case.expect.describe()}\n"
            f"  extracted: {got}   label={v.label} finish={answer.finish_reason}\n"
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
    """Controller-side collector of every track's per-item records (they arrive through
    report.user_properties, also from xdist workers) and everything done with them at the end of the
    session: the results document (with the tracks' sections), the results file, the HTML report, the
    gates and the summary."""

    def __init__(self, config: pytest.Config, run: BenchmarkRun, gate: "_Gate | None" = None,
                 html: Path | None = None):
        self.config, self.run, self.gate, self.html = config, run, gate, html
        self.records: dict[str, dict[str, dict]] = {}    # user-property key -> item_id -> record dict
        self.document: dict | None = None
        self.comparison: Comparison | None = None
        self.messages: list[tuple[str, bool]] = []       # (line, is_failure) for the terminal summary

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for key, value in getattr(report, "user_properties", ()):
            if isinstance(key, str) and key.startswith(RECORD_KEY) and isinstance(value, dict) and "item_id" in value:
                # keyed by item: reruns replace, never double-count
                self.records.setdefault(key, {})[value["item_id"]] = value

    @property
    def core_records(self) -> dict[str, dict]:
        return self.records.get(RECORD_KEY, {})

    def results_document(self) -> dict | None:
        if self.document is None:
            sections: dict[str, dict] = {}
            for contributed in self.config.hook.pytest_tooluse1_sections(config=self.config, records=self.records):
                sections.update(contributed or {})
            if self.core_records or sections:
                records = [ItemRecord.from_dict(r) for r in self.core_records.values()]
                self.document = build_results(self.run.provenance(), records, sections)
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
        results = None
        if self.gate is not None or self.html is not None:
            results = ResultsFile.from_document(doc, "this run", validate=False)
        gated = bool(self.core_records) and (self.run.config.min_score is not None or self.gate is not None)
        verdict = self._apply_gates(doc, results) if gated else None
        if self.html is not None and results is not None:
            from tooluse1.report import write_report
            options = {"alpha": self.gate.alpha, "max_drop": self.gate.max_drop,
                       "allow_different_prompts": self.gate.allow_different_prompts,
                       "allow_decoding_change": self.gate.allow_decoding_change} if self.gate else {}
            write_report(self.html, results, self.gate.baseline if self.gate else None, self.comparison, **options)
            self.messages.append((f"HTML report: {self.html}", False))
        if gated and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            # With a gate, failed items are the measurement and the gate decides the exit status.
            session.exitstatus = verdict or pytest.ExitCode.OK

    def _apply_gates(self, doc: dict, results: ResultsFile | None) -> "pytest.ExitCode | None":
        """Apply --min-score and --baseline, noting the outcome for the summary. None when every gate
        passes; TESTS_FAILED when one fails (backend errors fail it too: the run is incomplete);
        USAGE_ERROR when the baseline turns out not comparable (a prompt digest differs)."""
        failures = []
        n_errors = doc["summary"]["n_errors"]
        if n_errors:
            failures.append(f"{n_errors} items have backend errors: the run is incomplete")
        gate = self.run.config.min_score
        label, pool = self._headline()
        score = pool["overall"]["score"]["rate"]
        if gate is not None and (score is None or score < gate):
            failures.append(f"score ({label}) {score} is below --min-score {gate}")
        if self.gate is not None and results is not None:
            from tooluse1.compare import IncomparableError, compare, gate as baseline_gate
            try:
                comparison = compare(self.gate.baseline, results, self.gate.allow_different_prompts,
                                     self.gate.allow_decoding_change)
            except IncomparableError as e:
                self.messages.append((f"GATE ERROR: --baseline: {e}", True))
                return pytest.ExitCode.USAGE_ERROR
            self.comparison = comparison
            decision = baseline_gate(comparison, self.gate.alpha, self.gate.max_drop)
            self.messages.append((f"baseline {self.gate.baseline.source}: {decision.summary}", False))
            self.messages.append((f"  {decision.power}", False))
            self.messages += [(f"  note: {n}", False) for n in comparison.notes]
            failures += decision.reasons
        self.messages += [(f"GATE FAILED: {f}", True) for f in failures] or [("gate passed", False)]
        return pytest.ExitCode.TESTS_FAILED if failures else None

    def _headline(self) -> "tuple[str, dict]":
        """(label, summary) of the run's headline pool (`ResultsFile.headline`: the text protocols it ran,
        native reported apart, SPEC §3.4)."""
        return ResultsFile.from_document(self.document, "this run", validate=False).headline()

    def pytest_terminal_summary(self, terminalreporter, exitstatus: int, config: pytest.Config) -> None:
        doc = self.document
        if not doc:
            return
        if self.core_records:
            terminalreporter.section("ToolUse.1 summary")
            label, pool = self._headline()
            # the headline line only where the run pools protocols the headline leaves out (native)
            apart = pool["overall"]["score"]["n"] != doc["summary"]["overall"]["score"]["n"]
            terminalreporter.write_line(format_summary(doc["summary"], title=f"ToolUse.1 {self.run.config.model}",
                                                       headline=(label, pool) if apart else None))
            terminalreporter.write_line(format_cost(doc["cost"]))
            warning = identical_samples_warning(doc)
            if warning:
                terminalreporter.write_line(warning, yellow=True, bold=True)
            if self.comparison is not None:
                from tooluse1.compare import format_comparison
                terminalreporter.write_line(format_comparison(self.comparison, max_flips=10))
        config.hook.pytest_tooluse1_terminal_summary(config=config, terminalreporter=terminalreporter, document=doc)
        if self.run.config.results is not None:
            sections = list(track_sections(doc))
            terminalreporter.write_line(f"results file: {self.run.config.results}"
                                        + (f" (sections: {', '.join(sections)})" if sections else ""))
        for line, failed in self.messages:
            terminalreporter.write_line(scrub_secrets(line), red=failed, bold=failed)
