"""Trajectory store for the SPIN simulator: past executed plan steps, retrieved by similarity.

The simulator predicts the output of a plan step from the most similar *accomplished* steps of the
same agent (tool) in other scenarios. This module stores those steps (`StepRecord`) with an embedding
of their `summary` and answers k-nearest-neighbour queries.

Back ends (same `TrajectoryStore` protocol, same results up to float32 rounding):
* `SQLiteStore` - the embedded default: rows in SQLite, embeddings as float32 blobs, exact L2 in numpy
  over the rows that the SQL filters leave.
* `PostgresStore` - PostgreSQL + pgvector, exact `embedding <-> query` (L2) ordering.

Guarantees of `search` on every back end:
* only rows with the requested `agent` and `status` (default "Accomplished");
* never a row of `exclude_scenario` - the public SPIN code retrieved steps of the very scenario being
  evaluated, leaking its answer into the simulation; callers must pass the scenario (or None on purpose);
* at most k results, ordered by L2 distance ascending (pgvector `<->` semantics), ties broken by
  (scenario_id, run_id, step_index) so results are deterministic;
* exact search (no approximate index): pgvector's HNSW/IVF indexes combined with a WHERE filter can
  return fewer than k rows, and results would differ from the SQLite back end;
* an empty store (or no matching row) gives [].

`add` is idempotent: rows are unique on (scenario_id, run_id, step_index); the first write wins and
re-adding returns 0 without recomputing embeddings. A store remembers the embedder (name, dim) it was
built with and refuses to be used with another one (mixing embedding spaces gives silent garbage).

Use `open_store(url)` to pick the back end from a URL.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, Self, runtime_checkable
from urllib.parse import urlsplit

import numpy as np

from tooluse1.errors import ToolUse1Error
from tooluse1.spin.embed import TextEmbedder, default_embedder

if TYPE_CHECKING:
    import psycopg

ACCOMPLISHED = "Accomplished"
PARTIALLY = "Partially accomplished"
NOT_ACCOMPLISHED = "Not accomplished"
STATUSES: tuple[str, ...] = (ACCOMPLISHED, PARTIALLY, NOT_ACCOMPLISHED)

TABLE = "spin_steps"
META_TABLE = "spin_meta"
CONNECT_TIMEOUT_S = 5

_COLUMNS = ("scenario_id", "run_id", "step_index", "agent", "task", "question", "output", "status",
            "summary")


class StoreError(ToolUse1Error, RuntimeError):
    """A store could not be opened or used. The message is meant for the user as is (no secrets)."""


def default_summary(agent: str, task: str, output: str) -> str:
    """The text embedded for a step when none is given: ``"{agent}: {task} -> {output}"``."""
    return f"{agent}: {task} -> {output}"


@dataclass(frozen=True)
class StepRecord:
    """One executed plan step.

    `summary` is the text that gets embedded and compared with search queries; left empty it is set
    to `default_summary(agent, task, output)`. Construction validates `status` (one of `STATUSES`),
    a non-negative `step_index` and non-empty ids/agent, raising ValueError otherwise.
    """

    scenario_id: str
    run_id: str
    step_index: int
    agent: str
    task: str
    question: str
    output: str
    status: str
    summary: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {list(STATUSES)}, got {self.status!r}")
        if isinstance(self.step_index, bool) or not isinstance(self.step_index, int) \
                or self.step_index < 0:
            raise ValueError(f"step_index must be an int >= 0, got {self.step_index!r}")
        for name in ("scenario_id", "run_id", "agent"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise ValueError(f"{name} must be a non-empty string")
        if not self.summary:
            # frozen dataclass: the documented way to set a derived field in __post_init__
            object.__setattr__(self, "summary", default_summary(self.agent, self.task, self.output))

    @property
    def key(self) -> tuple[str, str, int]:
        """The identity of a step in a store: (scenario_id, run_id, step_index)."""
        return (self.scenario_id, self.run_id, self.step_index)

    def as_row(self) -> tuple[Any, ...]:
        """Column values in `_COLUMNS` order."""
        return tuple(getattr(self, c) for c in _COLUMNS)


@runtime_checkable
class TrajectoryStore(Protocol):
    """What the SPIN simulator needs from a trajectory store (see the module docstring)."""

    def add(self, records: Sequence[StepRecord]) -> int:
        """Store records not stored yet; return how many were new."""
        ...

    def search(self, query: str, *, agent: str, k: int = 5, exclude_scenario: str | None,
               status: str = ACCOMPLISHED) -> list[tuple[StepRecord, float]]:
        """Up to k (record, L2 distance) pairs of `agent`/`status`, not of `exclude_scenario`,
        nearest first. `exclude_scenario` has no default on purpose: leaking the evaluated scenario
        must be an explicit choice (None), never an omission."""
        ...

    def count(self) -> int:
        """Number of stored records."""
        ...

    def digest(self) -> str:
        """sha256 of the embedder's name and every record (all columns, in key order): equal digests, equal
        retrieval results. Recorded in provenance and in the SPIN resume key."""
        ...

    def close(self) -> None:
        """Release the connection; idempotent."""
        ...


def rows_digest(embedder_name: str, rows: Iterable[Sequence[Any]]) -> str:
    """The digest of `TrajectoryStore.digest` from rows of `_COLUMNS` values sorted by key."""
    h = hashlib.sha256(embedder_name.encode("utf-8"))
    for row in rows:
        h.update(b"\n" + json.dumps(list(row), ensure_ascii=False).encode("utf-8"))
    return h.hexdigest()


def mask_url(url: str) -> str:
    """`url` with any password replaced by ``***`` (in the user-info part and in a ``password=``
    query parameter), safe to show in messages and logs."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable URL>"
    if not parts.scheme or "://" not in url:
        return url  # a plain path: nothing secret in it
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, hostinfo = netloc.rsplit("@", 1)
        user, sep, password = userinfo.partition(":")
        if sep and password:
            userinfo = f"{user}:***"
        netloc = f"{userinfo}@{hostinfo}"
    # Rebuilt by hand: urlunsplit drops or adds "//" for schemes it does not know.
    masked = f"{parts.scheme}://{netloc}{parts.path}"
    if parts.query:
        masked += "?" + re.sub(r"(^|&)(password=)[^&]*", r"\1\2***", parts.query, flags=re.IGNORECASE)
    if parts.fragment:
        masked += "#" + parts.fragment
    return masked


def _check_search_args(agent: str, k: int, status: str) -> None:
    if not agent:
        raise ValueError("agent must be a non-empty string")
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"k must be an int >= 0, got {k!r}")
    if status not in STATUSES:
        raise ValueError(f"status must be one of {list(STATUSES)}, got {status!r}")


def _unique(records: Sequence[StepRecord]) -> list[StepRecord]:
    """Records with the first occurrence of each key kept, order preserved (type-checked)."""
    seen: set[tuple[str, str, int]] = set()
    out: list[StepRecord] = []
    for record in records:
        if not isinstance(record, StepRecord):
            raise TypeError(f"expected StepRecord, got {type(record).__name__}")
        if record.key not in seen:
            seen.add(record.key)
            out.append(record)
    return out


def _embed_summaries(embedder: TextEmbedder, records: Sequence[StepRecord]) -> np.ndarray:
    vectors = np.asarray(embedder.embed([r.summary for r in records]), dtype=np.float32)
    if vectors.shape != (len(records), embedder.dim):
        raise StoreError(f"embedder {embedder.name} returned shape {vectors.shape}, "
                         f"expected {(len(records), embedder.dim)}")
    return vectors


def _embedder_mismatch(where: str, stored: dict[str, str], embedder: TextEmbedder) -> StoreError:
    return StoreError(
        f"trajectory store {where} was built with embedder {stored.get('embedder')!r} "
        f"(dim {stored.get('dim')}), not {embedder.name!r} (dim {embedder.dim}); embeddings of "
        "different models are not comparable - use the same embedder or a new store")


class SQLiteStore:
    """Trajectory store in one SQLite file (or ":memory:").

    Embeddings are float32 blobs; `search` filters rows in SQL (agent, status, scenario) and computes
    exact L2 distances in numpy, so cost is linear in the matching rows (fine for the thousands of
    steps of a benchmark run). Safe to share between threads (one lock around the connection); several
    processes may use one file (WAL journal, 30 s busy timeout).
    """

    def __init__(self, path: str | os.PathLike[str], embedder: TextEmbedder | None = None) -> None:
        self.path = str(path)
        self.embedder: TextEmbedder = embedder if embedder is not None else default_embedder()
        self._lock = threading.RLock()
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: no implicit transactions; `add` opens its own BEGIN IMMEDIATE.
            conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None,
                                   check_same_thread=False)
        except (OSError, sqlite3.Error) as err:
            raise StoreError(f"cannot open SQLite trajectory store {self.path!r}: {err}") from None
        self._conn: sqlite3.Connection | None = conn
        try:
            self._init_schema(conn)
        except sqlite3.Error as err:
            conn.close()
            self._conn = None
            raise StoreError(f"cannot use SQLite trajectory store {self.path!r}: {err} "
                             "(is it a SQLite database written by this tool?)") from None
        except StoreError:
            conn.close()
            self._conn = None
            raise

    def _init_schema(self, conn: sqlite3.Connection) -> None:
        if self.path != ":memory:":
            conn.execute("PRAGMA journal_mode=WAL")  # readers do not block the writer between runs
        conn.execute("BEGIN IMMEDIATE")  # two processes creating the same file must not race
        try:
            conn.execute(f"CREATE TABLE IF NOT EXISTS {META_TABLE} "
                         "(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            conn.execute(
                f"CREATE TABLE IF NOT EXISTS {TABLE} ("
                "scenario_id TEXT NOT NULL, run_id TEXT NOT NULL, step_index INTEGER NOT NULL, "
                "agent TEXT NOT NULL, task TEXT NOT NULL, question TEXT NOT NULL, "
                "output TEXT NOT NULL, status TEXT NOT NULL, summary TEXT NOT NULL, "
                "embedding BLOB NOT NULL, PRIMARY KEY (scenario_id, run_id, step_index))")
            conn.execute(f"CREATE INDEX IF NOT EXISTS {TABLE}_agent_status "
                         f"ON {TABLE} (agent, status)")
            conn.executemany(f"INSERT OR IGNORE INTO {META_TABLE} (key, value) VALUES (?, ?)",
                             [("embedder", self.embedder.name), ("dim", str(self.embedder.dim))])
            stored = dict(conn.execute(f"SELECT key, value FROM {META_TABLE}").fetchall())
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        if stored.get("embedder") != self.embedder.name or stored.get("dim") != str(self.embedder.dim):
            raise _embedder_mismatch(repr(self.path), stored, self.embedder)

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._conn is None:
                raise StoreError(f"SQLite trajectory store {self.path!r} is closed")
            try:
                yield self._conn
            except sqlite3.Error as err:
                raise StoreError(f"SQLite trajectory store {self.path!r}: {err}") from None

    def add(self, records: Sequence[StepRecord]) -> int:
        """Insert records whose key is not stored yet; return how many were inserted.

        Only new records are embedded (re-adding a run's steps on resume costs no model call).
        """
        records = _unique(records)
        with self._connection() as conn:
            new = [r for r in records if conn.execute(
                f"SELECT 1 FROM {TABLE} WHERE scenario_id = ? AND run_id = ? AND step_index = ?",
                r.key).fetchone() is None]
            if not new:
                return 0
            vectors = _embed_summaries(self.embedder, new)
            before = conn.total_changes
            conn.execute("BEGIN IMMEDIATE")
            try:
                # OR IGNORE: another process may have inserted the same key since the check above.
                conn.executemany(
                    f"INSERT OR IGNORE INTO {TABLE} ({', '.join(_COLUMNS)}, embedding) "
                    f"VALUES ({', '.join('?' * (len(_COLUMNS) + 1))})",
                    [(*r.as_row(), v.tobytes()) for r, v in zip(new, vectors)])
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return conn.total_changes - before

    def search(self, query: str, *, agent: str, k: int = 5, exclude_scenario: str | None,
               status: str = ACCOMPLISHED) -> list[tuple[StepRecord, float]]:
        """See `TrajectoryStore.search`. The query is embedded only when some row matches."""
        _check_search_args(agent, k, status)
        if k == 0:
            return []
        sql = f"SELECT {', '.join(_COLUMNS)}, embedding FROM {TABLE} WHERE agent = ? AND status = ?"
        params: list[Any] = [agent, status]
        if exclude_scenario is not None:
            sql += " AND scenario_id <> ?"
            params.append(exclude_scenario)
        # Key order + stable argsort below = ties broken by (scenario_id, run_id, step_index).
        sql += " ORDER BY scenario_id, run_id, step_index"
        with self._connection() as conn:
            rows = conn.execute(sql, params).fetchall()
        if not rows:
            return []
        dim = self.embedder.dim
        blob = b"".join(row[-1] for row in rows)
        if len(blob) != len(rows) * dim * 4:
            raise StoreError(f"SQLite trajectory store {self.path!r} holds embeddings that are not "
                             f"{dim}-d float32; the file is corrupt or from another tool")
        matrix = np.frombuffer(blob, dtype=np.float32).reshape(len(rows), dim)
        q = _embed_summaries_query(self.embedder, query)
        # float32 arithmetic, like pgvector's l2_distance, so both back ends agree to ~1e-6.
        distances = np.sqrt(np.square(matrix - q).sum(axis=1, dtype=np.float32))
        order = np.argsort(distances, kind="stable")[:k]
        return [(StepRecord(*rows[i][:-1]), float(distances[i])) for i in order]

    def count(self) -> int:
        """Number of stored records."""
        with self._connection() as conn:
            return int(conn.execute(f"SELECT COUNT(*) FROM {TABLE}").fetchone()[0])

    def digest(self) -> str:
        """See `TrajectoryStore.digest`."""
        with self._connection() as conn:
            rows = conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM {TABLE} "
                                "ORDER BY scenario_id, run_id, step_index").fetchall()
        return rows_digest(self.embedder.name, rows)

    def close(self) -> None:
        """Close the connection; idempotent. Later calls raise StoreError."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"SQLiteStore({self.path!r}, embedder={self.embedder!r})"


def _embed_summaries_query(embedder: TextEmbedder, query: str) -> np.ndarray:
    vectors = np.asarray(embedder.embed([query]), dtype=np.float32)
    if vectors.shape != (1, embedder.dim):
        raise StoreError(f"embedder {embedder.name} returned shape {vectors.shape}, "
                         f"expected {(1, embedder.dim)}")
    return vectors[0]


def _one_line(err: BaseException, secret: str | None) -> str:
    """An exception message on one line, with `secret` (a password) removed."""
    text = " ".join(str(err).split())
    if secret:
        text = text.replace(secret, "***")
    return text or type(err).__name__


class PostgresStore:
    """Trajectory store in PostgreSQL with pgvector (psycopg 3).

    Opening connects once (connect_timeout 5 s unless the URL sets one), creates the `vector`
    extension if missing, the tables, and checks the embedder. Any failure to connect raises one
    StoreError naming the URL with its password masked and what to check; psycopg's traceback is
    suppressed (`from None`) because the message already says everything actionable.
    `search` runs ``ORDER BY embedding <-> query`` exactly (no ANN index, see module docstring).
    Safe to share between threads (one lock around the connection).
    """

    def __init__(self, url: str, embedder: TextEmbedder | None = None, *,
                 connect_timeout: int = CONNECT_TIMEOUT_S) -> None:
        self.url = url
        self.masked_url = mask_url(url)
        self.embedder: TextEmbedder = embedder if embedder is not None else default_embedder()
        self._lock = threading.RLock()
        try:
            import psycopg
            from pgvector.psycopg import register_vector
        except ImportError as err:
            raise StoreError(f"PostgreSQL store needs psycopg 3 and pgvector: {err}; "
                             "`pip install 'psycopg[binary]' pgvector`") from None
        self._psycopg = psycopg
        password = self._password(url)
        try:
            settings = psycopg.conninfo.conninfo_to_dict(url)
        except psycopg.Error as err:
            raise StoreError(f"invalid PostgreSQL URL {self.masked_url}: "
                             f"{_one_line(err, password)}") from None
        extra: dict[str, Any] = {}
        if "connect_timeout" not in settings:
            extra["connect_timeout"] = connect_timeout  # fail fast instead of libpq's default wait
        try:
            conn = psycopg.connect(url, autocommit=True, **extra)
        except psycopg.Error as err:
            timeout = settings.get("connect_timeout", connect_timeout)
            raise StoreError(
                f"cannot connect to the PostgreSQL trajectory store at {self.masked_url}: "
                f"{_one_line(err, password)}. Check that the server is running and reachable at "
                f"that host/port (or socket), that the user, password and database are right, and "
                f"that pgvector is installed there (connect timeout {timeout} s).") from None
        self._conn: psycopg.Connection[Any] | None = conn
        try:
            self._init_schema(conn, password)
            register_vector(conn)  # after CREATE EXTENSION: it looks up the vector type's oid
        except BaseException:
            conn.close()
            self._conn = None
            raise

    @staticmethod
    def _password(url: str) -> str | None:
        try:
            return urlsplit(url).password
        except ValueError:
            return None

    def _init_schema(self, conn: psycopg.Connection[Any], password: str | None) -> None:
        psycopg = self._psycopg
        dim = int(self.embedder.dim)
        try:
            with conn.transaction():
                # Serialise schema creation between processes opening a new database at once
                # (CREATE ... IF NOT EXISTS is not race-free in PostgreSQL).
                conn.execute("SELECT pg_advisory_xact_lock(hashtext('tooluse1.spin.store'))")
                try:
                    with conn.transaction():
                        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
                except psycopg.Error as err:
                    raise StoreError(
                        f"PostgreSQL at {self.masked_url} has no usable pgvector extension: "
                        f"{_one_line(err, password)}. Install pgvector on the server, or have a "
                        "superuser run `CREATE EXTENSION vector` in this database.") from None
                conn.execute(f"CREATE TABLE IF NOT EXISTS {META_TABLE} "
                             "(key text PRIMARY KEY, value text NOT NULL)")
                conn.execute(
                    f"CREATE TABLE IF NOT EXISTS {TABLE} ("
                    "scenario_id text NOT NULL, run_id text NOT NULL, step_index integer NOT NULL, "
                    "agent text NOT NULL, task text NOT NULL, question text NOT NULL, "
                    "output text NOT NULL, status text NOT NULL, summary text NOT NULL, "
                    f"embedding vector({dim}) NOT NULL, "
                    "PRIMARY KEY (scenario_id, run_id, step_index))")
                conn.execute(f"CREATE INDEX IF NOT EXISTS {TABLE}_agent_status "
                             f"ON {TABLE} (agent, status)")
                with conn.cursor() as cur:
                    cur.executemany(f"INSERT INTO {META_TABLE} (key, value) VALUES (%s, %s) "
                                    "ON CONFLICT (key) DO NOTHING",
                                    [("embedder", self.embedder.name), ("dim", str(dim))])
                stored = dict(conn.execute(f"SELECT key, value FROM {META_TABLE}").fetchall())
        except psycopg.Error as err:
            raise StoreError(f"cannot set up the trajectory store tables at {self.masked_url}: "
                             f"{_one_line(err, password)}") from None
        if stored.get("embedder") != self.embedder.name or stored.get("dim") != str(dim):
            raise _embedder_mismatch(self.masked_url, stored, self.embedder)

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        with self._lock:
            if self._conn is None:
                raise StoreError(f"PostgreSQL trajectory store {self.masked_url} is closed")
            try:
                yield self._conn
            except self._psycopg.Error as err:
                raise StoreError(f"PostgreSQL trajectory store {self.masked_url}: "
                                 f"{_one_line(err, self._password(self.url))}") from None

    def add(self, records: Sequence[StepRecord]) -> int:
        """Insert records whose key is not stored yet; return how many were inserted.

        Only new records are embedded (re-adding a run's steps on resume costs no model call).
        """
        records = _unique(records)
        if not records:
            return 0
        with self._connection() as conn:
            existing = {
                (s, r, i) for s, r, i in conn.execute(
                    f"SELECT scenario_id, run_id, step_index FROM {TABLE} "
                    "WHERE (scenario_id, run_id, step_index) IN "
                    "(SELECT * FROM unnest(%s::text[], %s::text[], %s::integer[]))",
                    ([r.scenario_id for r in records], [r.run_id for r in records],
                     [r.step_index for r in records])).fetchall()}
            new = [r for r in records if r.key not in existing]
            if not new:
                return 0
            vectors = _embed_summaries(self.embedder, new)
            inserted = 0
            with conn.transaction(), conn.cursor() as cur:
                # ON CONFLICT: another process may have inserted the same key since the check.
                cur.executemany(
                    f"INSERT INTO {TABLE} ({', '.join(_COLUMNS)}, embedding) "
                    f"VALUES ({', '.join(['%s'] * (len(_COLUMNS) + 1))}) "
                    "ON CONFLICT (scenario_id, run_id, step_index) DO NOTHING RETURNING 1",
                    [(*r.as_row(), v) for r, v in zip(new, vectors)], returning=True)
                # executemany(returning=True) leaves one result set per row: 1 row if inserted.
                while True:
                    inserted += len(cur.fetchall())
                    if not cur.nextset():
                        break
            return inserted

    def search(self, query: str, *, agent: str, k: int = 5, exclude_scenario: str | None,
               status: str = ACCOMPLISHED) -> list[tuple[StepRecord, float]]:
        """See `TrajectoryStore.search`."""
        _check_search_args(agent, k, status)
        if k == 0:
            return []
        q = _embed_summaries_query(self.embedder, query)
        where = "agent = %(agent)s AND status = %(status)s"
        params: dict[str, Any] = {"agent": agent, "status": status, "q": q, "k": k}
        if exclude_scenario is not None:
            where += " AND scenario_id <> %(exclude)s"
            params["exclude"] = exclude_scenario
        sql = (f"SELECT {', '.join(_COLUMNS)}, embedding <-> %(q)s AS distance FROM {TABLE} "
               f"WHERE {where} ORDER BY distance, scenario_id, run_id, step_index LIMIT %(k)s")
        with self._connection() as conn:
            rows = conn.execute(sql, params).fetchall()
        return [(StepRecord(*row[:-1]), float(row[-1])) for row in rows]

    def count(self) -> int:
        """Number of stored records."""
        with self._connection() as conn:
            row = conn.execute(f"SELECT count(*) FROM {TABLE}").fetchone()
        return int(row[0]) if row else 0

    def digest(self) -> str:
        """See `TrajectoryStore.digest` (rows ordered by key with the C collation, as SQLite and Python do)."""
        with self._connection() as conn:
            rows = conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM {TABLE} ORDER BY scenario_id COLLATE \"C\", "
                                f"run_id COLLATE \"C\", step_index").fetchall()
        return rows_digest(self.embedder.name, rows)

    def close(self) -> None:
        """Close the connection; idempotent. Later calls raise StoreError."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"PostgresStore({self.masked_url!r}, embedder={self.embedder!r})"


_ACCEPTED = ("'sqlite:///relative/path.db', 'sqlite:////absolute/path.db', a plain file path, "
             "'postgresql://user:password@host:port/db' or 'postgres://...'")


def open_store(url: str, embedder: TextEmbedder | None = None) -> TrajectoryStore:
    """Open the trajectory store named by `url`.

    * ``sqlite:///<path>`` (SQLAlchemy convention: ``sqlite:///runs/t.db`` is relative,
      ``sqlite:////abs/t.db`` absolute, ``sqlite:///:memory:`` in memory) or a plain path ->
      `SQLiteStore`;
    * ``postgresql://...`` or ``postgres://...`` -> `PostgresStore`;
    * anything else -> StoreError naming the accepted forms.

    `embedder` defaults to the process-wide MiniLM `default_embedder()` (loaded on first use).
    """
    if not isinstance(url, str) or not url.strip():
        raise StoreError(f"empty trajectory store URL; accepted: {_ACCEPTED}")
    url = url.strip()
    scheme, sep, rest = url.partition("://")
    if not sep:
        return SQLiteStore(url, embedder)
    scheme = scheme.lower()
    if scheme in ("postgresql", "postgres"):
        return PostgresStore(url, embedder)
    if scheme == "sqlite" and rest.startswith("/") and len(rest) > 1:
        return SQLiteStore(rest[1:], embedder)
    raise StoreError(f"unsupported trajectory store URL {mask_url(url)!r}; accepted: {_ACCEPTED}")
