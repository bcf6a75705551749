"""The one resume log of every track: an append-only JSONL file of finished work under one run key.

Line 1 is a header: the format's field (e.g. ``"tooluse1_resume": 2``), the run key and its sha256. Every
further line is one finished record, written and fsync'd as it finishes, so ``kill -9`` loses at most the
line being written. Opening a log written under another key is refused with `ResumeMismatch` (resuming it
would mix two configurations in one result); unreadable lines (a torn last line) are skipped, counted in
`skipped_lines`, and their work is done again. What a record is - a core Completion (harness.COMPLETION_LOG),
a SPIN run (spin/plugin.SPIN_RUN_LOG) - is the caller's `LogFormat`; this module knows only lines. Callers
append only finished work: an item or run that failed on a backend error is not written, so a resumed run
retries it.
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from tooluse1.errors import ResumeMismatch

__all__ = ["AppendLog", "LogFormat", "ResumeMismatch", "run_key_digest"]

T = TypeVar("T")


def run_key_digest(key: Mapping[str, Any]) -> str:
    """sha256 of the run key's canonical JSON: equal digests mean equal keys."""
    return hashlib.sha256(json.dumps(key, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


@dataclass(frozen=True)
class LogFormat(Generic[T]):
    """What one track keeps in its log, and how its messages name it.

    `version`: the header's format number, checked when `check_version` (else the version is part of the
    run key, and a log of another version differs in its key). `encode` gives a record's JSON object (its
    key order is the line's), `decode` reads one back (KeyError, TypeError or ValueError for a line it
    cannot read), `key` names the record (a later record of the same key replaces an earlier one in
    `done`)."""

    flag: str                  # the option that names the file: "--resume"
    header_field: str          # the header's format field: "tooluse1_resume"
    version: int
    check_version: bool        # refuse a header of another version (else the version lives in the key)
    what: str                  # "a ToolUse.1 resume file", for the bad-header message
    fix: str                   # the end of the wrong-key message: what to pass instead
    encode: Callable[[T], dict[str, Any]]
    decode: Callable[[dict[str, Any]], T]
    key: Callable[[T], str]


class AppendLog(Generic[T]):
    """The log of one run key: `done` maps record keys to the records already finished. Appends are
    thread-safe (backends call `on_complete` from worker threads)."""

    def __init__(self, path: Path, key: dict[str, Any], fmt: LogFormat[T]) -> None:
        self.path, self.key, self.fmt = Path(path), key, fmt
        self.digest = run_key_digest(key)
        self.done: dict[str, T] = {}
        self.skipped_lines = 0
        self._lock = threading.Lock()
        if not self.path.exists() or self.path.stat().st_size == 0:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            header = {fmt.header_field: fmt.version, "key_sha256": self.digest, "key": key}
            self._write(json.dumps(header, ensure_ascii=False, sort_keys=True), "w")
            return
        raw = self.path.read_bytes()
        lines = raw.decode("utf-8", errors="replace").split("\n")
        self._check_header(lines[0])
        for line in lines[1:]:
            if not line.strip():
                continue
            try:
                record = fmt.decode(json.loads(line))
            except (ValueError, KeyError, TypeError):   # json.JSONDecodeError is a ValueError
                self.skipped_lines += 1   # a torn line from an interrupted write
                continue
            self.done[fmt.key(record)] = record
        if not raw.endswith(b"\n"):
            with open(self.path, "ab") as f:   # start the next record on a fresh line
                f.write(b"\n")

    def _check_header(self, line: str) -> None:
        fmt = self.fmt
        try:
            header = json.loads(line)
            file_digest = header["key_sha256"]
        except (json.JSONDecodeError, KeyError, TypeError):
            raise ResumeMismatch(f"{fmt.flag} {self.path}: not {fmt.what} (bad header line); pass a new path or "
                                 f"delete it") from None
        if fmt.check_version and header.get(fmt.header_field) != fmt.version:
            raise ResumeMismatch(f"{fmt.flag} {self.path} was written by an older ToolUse.1 (resume format "
                                 f"{header.get(fmt.header_field)}, this one reads {fmt.version}); use a new "
                                 f"{fmt.flag} path")
        if file_digest != self.digest:
            theirs = header.get("key", {})
            diff = sorted(k for k in set(theirs) | set(self.key) if theirs.get(k) != self.key.get(k))
            raise ResumeMismatch(f"{fmt.flag} {self.path} was written by another run (differs in: "
                                 f"{', '.join(diff)}); {fmt.fix}")

    def _write(self, line: str, mode: str) -> None:
        # backslashreplace: a model's text may hold lone surrogates, which strict UTF-8 cannot write
        with open(self.path, mode, encoding="utf-8", errors="backslashreplace") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())

    def append(self, record: T) -> None:
        """Record a finished record (one fsync'd line); it is in `done` once this returns."""
        line = json.dumps(self.fmt.encode(record), ensure_ascii=False)
        with self._lock:
            self._write(line, "a")
            self.done[self.fmt.key(record)] = record
