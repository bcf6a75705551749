"""Per-run resume for the SPIN track: an append-only JSONL of finished runs (`--spin-resume PATH`).

Line 1 is a header with the run key (model identity, token caps, rounds, top-k, scenario digest, the
trajectory store's digest, the record format) and its sha256; every further line is one finished run,
`runner.SpinRun.as_dict()`, written and fsync'd as the run ends, so `kill -9` loses at most the line
being written. Opening a log written under another key is refused (resuming it would mix two
configurations in one result); unreadable lines (a torn last line) are skipped and their runs computed
again. Runs that failed on a backend error are not written, so they are retried.
"""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from tooluse1.results import run_key_digest
from tooluse1.spin.runner import SpinRun

__all__ = ["RunLog", "RunLogMismatch"]


class RunLogMismatch(Exception):
    """The resume file belongs to another model, configuration, scenario set or trajectory store."""


class RunLog:
    """The resume file of one run key: `done` maps item ids to the runs already finished."""

    FORMAT = 2   # 2: the code's repair rounds, prefix loop and critic (issue 22)

    def __init__(self, path: Path, key: dict[str, Any]) -> None:
        self.path, self.key, self.digest = Path(path), key, run_key_digest(key)
        self.done: dict[str, SpinRun] = {}
        self.skipped_lines = 0
        self._lock = threading.Lock()
        if not self.path.exists() or self.path.stat().st_size == 0:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._write({"tooluse1_spin_resume": self.FORMAT, "key_sha256": self.digest, "key": key}, "w")
            return
        lines = self.path.read_bytes().decode("utf-8", errors="replace").split("\n")
        try:
            header = json.loads(lines[0])
            theirs = header["key"]
        except (json.JSONDecodeError, KeyError, TypeError):
            raise RunLogMismatch(f"--spin-resume {self.path}: not a SPIN resume file (bad header line); pass a new "
                                 f"path or delete it") from None
        if header.get("key_sha256") != self.digest:
            diff = sorted(k for k in set(theirs) | set(key) if theirs.get(k) != key.get(k))
            raise RunLogMismatch(f"--spin-resume {self.path} was written by another run (differs in: "
                                 f"{', '.join(diff)}); use a new path, or the same model, settings, scenarios "
                                 f"and trajectory store")
        for line in lines[1:]:
            if not line.strip():
                continue
            try:
                run = SpinRun.from_dict(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                self.skipped_lines += 1   # a torn line from an interrupted write
                continue
            self.done[run.item_id] = run
        if not lines[-1] == "":
            with open(self.path, "a", encoding="utf-8") as f:   # start the next record on a fresh line
                f.write("\n")

    def _write(self, obj: dict[str, Any], mode: str) -> None:
        with open(self.path, mode, encoding="utf-8") as f:
            f.write(json.dumps(obj, ensure_ascii=False, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def append(self, run: SpinRun) -> None:
        """Record a finished run (one fsync'd line)."""
        with self._lock:
            self._write(run.as_dict(), "a")
            self.done[run.item_id] = run
