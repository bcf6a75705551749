"""Trajectory store (tooluse1.spin.store) on both back ends: SQLite and a real PostgreSQL + pgvector.

Every test taking `open_backend` runs once per back end with identical assertions, so the two give
the same answers. The PostgreSQL server is real (tests_grader/pg_server.py); if it cannot be started
those tests fail with the reason, they are never skipped. HashingEmbedder keeps most tests fast; the
real MiniLM Embedder is used once per back end (semantic retrieval) and in the embedder tests.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from tooluse1.spin import embed as embed_mod
from tooluse1.spin.embed import (
    Embedder,
    HashingEmbedder,
    TextEmbedder,
    default_embedder,
    minilm_model_dir,
)
from tooluse1.spin.store import (
    ACCOMPLISHED,
    NOT_ACCOMPLISHED,
    PARTIALLY,
    PostgresStore,
    SQLiteStore,
    StepRecord,
    StoreError,
    TrajectoryStore,
    mask_url,
    open_store,
)

try:  # tests_grader is a plain folder; this works under `python -m pytest` from the repo root
    from tests_grader.pg_server import pg_server, pg_url  # noqa: F401  (pytest fixtures)
except ImportError:  # `pytest` run with tests_grader/ itself on sys.path (rootdir-less layout)
    from pg_server import pg_server, pg_url  # type: ignore[no-redef]  # noqa: F401

# Prove offline loading. The imports above do not load huggingface_hub (the embedder imports
# sentence-transformers lazily), so this is in force when the model is first loaded.
os.environ["HF_HUB_OFFLINE"] = "1"

HASH = HashingEmbedder()
OpenFn = Callable[..., TrajectoryStore]


def rec(scenario: str, step: int, agent: str, task: str, output: str,
        status: str = ACCOMPLISHED, run: str = "r1", summary: str = "") -> StepRecord:
    return StepRecord(scenario_id=scenario, run_id=run, step_index=step, agent=agent, task=task,
                      question=f"question of {scenario}", output=output, status=status,
                      summary=summary)


RECORDS = [
    rec("s1", 0, "get_weather", "Get the current weather in Berlin", "Berlin: 12 C, light rain"),
    rec("s1", 1, "get_weather", "Get the weather in Paris", "Paris: 18 C, sunny"),
    rec("s2", 0, "get_weather", "Get the weather in Berlin tomorrow", "error: no forecast",
        status=NOT_ACCOMPLISHED),
    rec("s3", 0, "get_weather", "Get the weather forecast for Berlin", "partial data",
        status=PARTIALLY),
    rec("s4", 0, "web_search", "Find the weather in Berlin", "Berlin weather page"),
    rec("s5", 0, "get_weather", "Get the weather in Tokyo", "Tokyo: 25 C, humid"),
    rec("s6", 0, "get_weather", "Get the weather in Rome", "Rome: 20 C, clear", run="r2"),
]
WEATHER_ACCOMPLISHED = {r.key for r in RECORDS if r.agent == "get_weather" and r.status == ACCOMPLISHED}


@pytest.fixture(params=["sqlite", "postgres"])
def open_backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[OpenFn]:
    """A function opening a store of this back end at one fresh location (same location on every
    call, so a test can close and reopen it). All stores it opened are closed afterwards."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/steps.db"  # absolute: sqlite:////tmp/...
    else:
        url = request.getfixturevalue("pg_url")  # only postgres tests start the server
    opened: list[TrajectoryStore] = []

    def _open(embedder: TextEmbedder = HASH) -> TrajectoryStore:
        store = open_store(url, embedder)
        opened.append(store)
        return store

    yield _open
    for store in opened:
        store.close()


def keys(results: list[tuple[StepRecord, float]]) -> list[tuple[str, str, int]]:
    return [r.key for r, _ in results]


# ---------------------------------------------------------------- both back ends

def test_backend_type(open_backend: OpenFn, request: pytest.FixtureRequest) -> None:
    store = open_backend()
    expected = SQLiteStore if "sqlite" in request.node.callspec.id else PostgresStore
    assert isinstance(store, expected)
    assert isinstance(store, TrajectoryStore)


def test_empty_store(open_backend: OpenFn) -> None:
    store = open_backend()
    assert store.count() == 0
    assert store.search("weather in Berlin", agent="get_weather", exclude_scenario=None) == []
    assert store.search("weather in Berlin", agent="get_weather", exclude_scenario="s1") == []
    assert store.add([]) == 0


def test_add_is_idempotent_and_counts(open_backend: OpenFn) -> None:
    store = open_backend()
    assert store.add(RECORDS) == len(RECORDS)
    assert store.count() == len(RECORDS)
    assert store.add(RECORDS) == 0  # same keys again: nothing new
    assert store.count() == len(RECORDS)
    extra = rec("s7", 0, "get_weather", "Get the weather in Oslo", "Oslo: 3 C")
    # duplicates inside one batch count once; known keys are ignored (first write wins)
    changed = rec("s1", 0, "get_weather", "something else", "other output")
    assert store.add([extra, extra, changed]) == 1
    assert store.count() == len(RECORDS) + 1
    top, _ = store.search("Get the current weather in Berlin", agent="get_weather",
                          exclude_scenario=None, k=1)[0]
    assert top == RECORDS[0]  # the original s1/0 record, not `changed`


def test_search_orders_by_distance_and_respects_k(open_backend: OpenFn) -> None:
    store = open_backend()
    store.add(RECORDS)
    query = "weather in Berlin"
    everything = store.search(query, agent="get_weather", k=50, exclude_scenario=None)
    assert {r.key for r, _ in everything} == WEATHER_ACCOMPLISHED  # k larger than matches: all
    distances = [d for _, d in everything]
    assert distances == sorted(distances)
    assert all(isinstance(d, float) for d in distances)
    assert everything[0][0] == RECORDS[0]  # the Berlin step
    for k in (1, 2, 3):
        assert keys(store.search(query, agent="get_weather", k=k, exclude_scenario=None)) == \
            keys(everything)[:k]
    assert len(store.search(query, agent="get_weather", exclude_scenario=None)) == 4  # default k=5
    assert store.search(query, agent="get_weather", k=0, exclude_scenario=None) == []


def test_distance_is_l2_between_embeddings(open_backend: OpenFn) -> None:
    """pgvector `<->` semantics: Euclidean distance between the stored and the query embedding."""
    store = open_backend()
    store.add(RECORDS)
    query = "weather in Berlin today"
    q = HASH.embed([query])[0].astype(np.float64)
    results = store.search(query, agent="get_weather", k=10, exclude_scenario=None)
    assert results
    for record, distance in results:
        e = HASH.embed([record.summary])[0].astype(np.float64)
        assert distance == pytest.approx(float(np.linalg.norm(q - e)), abs=1e-5)


def test_filters_by_agent_and_status(open_backend: OpenFn) -> None:
    store = open_backend()
    store.add(RECORDS)
    query = "weather in Berlin"
    default = store.search(query, agent="get_weather", k=10, exclude_scenario=None)
    assert all(r.agent == "get_weather" and r.status == ACCOMPLISHED for r, _ in default)
    assert keys(store.search(query, agent="web_search", k=10, exclude_scenario=None)) == \
        [("s4", "r1", 0)]
    assert keys(store.search(query, agent="get_weather", k=10, exclude_scenario=None,
                             status=NOT_ACCOMPLISHED)) == [("s2", "r1", 0)]
    assert keys(store.search(query, agent="get_weather", k=10, exclude_scenario=None,
                             status=PARTIALLY)) == [("s3", "r1", 0)]
    assert store.search(query, agent="no_such_tool", k=10, exclude_scenario=None) == []


def test_never_returns_the_excluded_scenario(open_backend: OpenFn) -> None:
    """The evaluated scenario's own steps would leak its answer into the simulation."""
    store = open_backend()
    store.add(RECORDS)
    query = "Get the weather in Tokyo"
    leak = rec("eval", 0, "get_weather", query, "Tokyo: 25 C, humid", summary=query)
    store.add([leak])
    unfiltered = store.search(query, agent="get_weather", k=10, exclude_scenario=None)
    assert unfiltered[0][0] == leak and unfiltered[0][1] == pytest.approx(0.0, abs=1e-6)
    filtered = store.search(query, agent="get_weather", k=10, exclude_scenario="eval")
    assert all(r.scenario_id != "eval" for r, _ in filtered)
    assert {r.key for r, _ in filtered} == WEATHER_ACCOMPLISHED
    only_s1 = store.search(query, agent="get_weather", k=10, exclude_scenario="s1")
    assert all(r.scenario_id != "s1" for r, _ in only_s1)
    assert len(only_s1) == len(WEATHER_ACCOMPLISHED) + 1 - 2  # + eval, - the two s1 steps


def test_ties_are_broken_by_key(open_backend: OpenFn) -> None:
    store = open_backend()
    same = "get_weather: same text -> same output"
    batch = [rec(s, i, "get_weather", "t", "o", run=r, summary=same)
             for s, r, i in [("b", "r2", 0), ("a", "r1", 1), ("b", "r1", 0), ("a", "r1", 0)]]
    store.add(batch)
    results = store.search(same, agent="get_weather", k=3, exclude_scenario=None)
    assert keys(results) == [("a", "r1", 0), ("a", "r1", 1), ("b", "r1", 0)]


def test_reopen_keeps_data_and_rejects_another_embedder(open_backend: OpenFn) -> None:
    store = open_backend()
    store.add(RECORDS)
    store.close()
    store.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        store.count()
    again = open_backend()
    assert again.count() == len(RECORDS)
    assert keys(again.search("weather in Berlin", agent="get_weather", k=1,
                             exclude_scenario=None)) == [RECORDS[0].key]
    with pytest.raises(StoreError, match="embedder"):
        open_backend(HashingEmbedder(dim=128))


def test_digest_names_the_content(open_backend: OpenFn) -> None:
    """Equal content, equal digest, on both back ends (the value is the same: provenance compares across
    back ends); any added record changes it; reopening does not."""
    store = open_backend()
    empty = store.digest()
    store.add(list(reversed(RECORDS)))   # insertion order does not matter
    full = store.digest()
    assert len(full) == 64 and full != empty
    expected = SQLiteStore(":memory:", HASH)
    expected.add(RECORDS)
    assert full == expected.digest()
    store.add([rec("s9", 0, "get_time", "Time in Oslo", "Europe/Oslo: 07:05, Monday")])
    assert store.digest() != full


def test_search_argument_checks(open_backend: OpenFn) -> None:
    store = open_backend()
    with pytest.raises(ValueError, match="status"):
        store.search("q", agent="get_weather", exclude_scenario=None, status="Done")
    with pytest.raises(ValueError, match="k must"):
        store.search("q", agent="get_weather", exclude_scenario=None, k=-1)
    with pytest.raises(TypeError):  # exclude_scenario must be given explicitly
        store.search("q", agent="get_weather")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        store.add(["not a record"])  # type: ignore[list-item]


def test_real_embedder_semantic_retrieval(open_backend: OpenFn) -> None:
    store = open_backend(default_embedder())
    berlin = rec("w1", 0, "get_weather", "Get the current weather in Berlin",
                 "Berlin: 12 C, light rain, wind 20 km/h")
    unrelated = rec("w2", 0, "get_weather", "List the open work orders for pump P-101",
                    "3 open work orders: WO-17, WO-21, WO-34")
    assert store.add([unrelated, berlin]) == 2
    results = store.search("weather in Berlin", agent="get_weather", k=5, exclude_scenario=None)
    assert [r for r, _ in results] == [berlin, unrelated]
    (_, d_berlin), (_, d_other) = results
    assert d_berlin < d_other - 0.2  # a clear semantic margin, not a tie broken by luck
    assert 0.0 <= d_berlin <= 2.0 and d_other <= 2.0  # unit vectors: L2 lies in [0, 2]


# ---------------------------------------------------------------- PostgreSQL errors, URL handling

def test_unreachable_postgres_is_one_clear_error() -> None:
    url = "postgresql://u:secret@127.0.0.1:1/db"
    started = time.monotonic()
    with pytest.raises(StoreError) as info:
        open_store(url, HASH)
    assert time.monotonic() - started < 10  # connect_timeout keeps it short
    message = str(info.value)
    assert "postgresql://u:***@127.0.0.1:1/db" in message
    assert "secret" not in message
    assert "Check that the server is running" in message
    # raised `from None`: no chained psycopg traceback
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_open_store_routes_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with open_store("sqlite:///rel/steps.db", HASH) as s:  # SQLAlchemy style: relative
        assert isinstance(s, SQLiteStore)
    assert (tmp_path / "rel" / "steps.db").is_file()
    with open_store(f"sqlite:///{tmp_path}/abs.db", HASH) as s:
        assert isinstance(s, SQLiteStore)
    assert (tmp_path / "abs.db").is_file()
    with open_store(str(tmp_path / "plain.db"), HASH) as s:
        assert isinstance(s, SQLiteStore)
    assert (tmp_path / "plain.db").is_file()
    with open_store("sqlite:///:memory:", HASH) as s:
        assert s.count() == 0
    with pytest.raises(StoreError, match=r"postgres://u:\*\*\*@127\.0\.0\.1:1/db"):
        open_store("postgres://u:pw@127.0.0.1:1/db", HASH)
    for bad in ("mysql://u:pw@host/db", "sqlite://", ""):
        with pytest.raises(StoreError, match="accepted") as info:
            open_store(bad, HASH)
        assert "pw" not in str(info.value).replace("password", "")


@pytest.mark.parametrize("url, masked", [
    ("postgresql://u:secret@127.0.0.1:1/db", "postgresql://u:***@127.0.0.1:1/db"),
    ("postgres://u@host/db", "postgres://u@host/db"),
    ("postgresql://postgres:@/db?host=/tmp/x", "postgresql://postgres:@/db?host=/tmp/x"),
    ("postgresql://host/db?user=u&password=p&sslmode=require",
     "postgresql://host/db?user=u&password=***&sslmode=require"),
    ("/plain/path.db", "/plain/path.db"),
])
def test_mask_url(url: str, masked: str) -> None:
    assert mask_url(url) == masked


# ---------------------------------------------------------------- records and embedders

def test_step_record_validation_and_default_summary() -> None:
    r = rec("s", 0, "get_weather", "Get weather", "sunny")
    assert r.summary == "get_weather: Get weather -> sunny"
    assert rec("s", 0, "a", "t", "o", summary="custom").summary == "custom"
    with pytest.raises(ValueError, match="status"):
        rec("s", 0, "a", "t", "o", status="Done")
    with pytest.raises(ValueError, match="step_index"):
        rec("s", -1, "a", "t", "o")
    with pytest.raises(ValueError, match="agent"):
        rec("s", 0, "", "t", "o")


def test_hashing_embedder_is_deterministic_and_normalised() -> None:
    a = HASH.embed(["weather in Berlin", "weather in Berlin", ""])
    assert a.dtype == np.float32 and a.shape == (3, 384)
    assert np.array_equal(a[0], a[1])
    assert np.linalg.norm(a[0]) == pytest.approx(1.0, abs=1e-6)
    assert not a[2].any()  # no token: zero vector
    assert np.array_equal(HashingEmbedder().embed(["x y"]), HASH.embed(["x y"]))


def test_real_embedder_offline_shape_and_single_load() -> None:
    assert (minilm_model_dir() / "model.safetensors").is_file()
    assert default_embedder() is default_embedder()
    empty = Embedder().embed([])  # no model needed for nothing
    assert empty.shape == (0, 384) and empty.dtype == np.float32
    v = default_embedder().embed(["weather in Berlin", "pump work orders"])
    assert v.shape == (2, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    w = Embedder().embed(["weather in Berlin"])  # another instance: same process-wide model
    assert np.allclose(w[0], v[0], atol=1e-6)
    assert len(embed_mod._MODELS) == 1
