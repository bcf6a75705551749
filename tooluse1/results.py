"""The results file (one JSON document) and the resume file (append-only JSONL).

Results file: provenance first, then one record per item (raw output, extraction, verdict, finish reason,
latency), then the summary. It holds raw outputs so a run can be re-graded without the model
(`python -m tooluse1 regrade`).

Resume file: a header line with the run key (model identity, decoding config, corpus digest, backend
settings that change outputs), then one flushed line per finished item. A file with another key is
refused; unreadable lines (a torn last line after kill -9) are skipped; backend errors are not written,
so a resumed run retries them.
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Iterable

from tooluse1.backends.base import Completion
from tooluse1.corpus import Case
from tooluse1.grade import Verdict
from tooluse1.metrics import GradedItem, summarise
from tooluse1.parse import Extraction
from tooluse1.prompts import digest_of_prompt_hashes

RESULTS_FORMAT = 1
RESUME_FORMAT = 2   # 2: each line carries its prompt's sha256 (and structured tool calls); the key no
                    # longer holds the corpus digest (prompts are checked per item)


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def library_versions() -> dict[str, str]:
    """Versions of the packages results depend on (absent ones omitted)."""
    out = {"python": platform.python_version()}
    for pkg in ("tooluse1", "torch", "transformers", "tokenizers", "openai", "gguf", "pytest", "pyyaml"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            pass
    return out


@dataclass
class ItemRecord:
    """One graded item as stored in the results file."""

    case: Case
    protocol: str
    completion: Completion
    extraction: Extraction | None
    verdict: Verdict | None

    @property
    def item_id(self) -> str:
        return self.completion.item_id

    @property
    def is_error(self) -> bool:
        return self.completion.error is not None

    def as_dict(self) -> dict:
        c = self.case
        return {
            "item_id": self.item_id, "case_id": c.id, "protocol": self.protocol, "lang": c.lang,
            "category": c.category, "difficulty": c.difficulty, "kind": c.kind, "expectation": c.expectation,
            "output": self.completion.text, "finish_reason": self.completion.finish_reason,
            "latency_s": round(self.completion.latency_s, 4), "prompt_tokens": self.completion.prompt_tokens,
            "completion_tokens": self.completion.completion_tokens, "error": self.completion.error,
            "tool_calls": self.completion.tool_calls, "prompt_sha256": self.completion.prompt_sha256,
            "extraction": self.extraction.as_dict() if self.extraction else None,
            "verdict": self.verdict.as_dict() if self.verdict else None,
            "passed": bool(self.verdict and self.verdict.passed and not self.is_error),
            "has_constraints": c.expectation != "call",   # 2.0: every text answer has a requirement
        }


def build_results(provenance: dict, records: Iterable[dict]) -> dict:
    """The whole results document from record dicts (ItemRecord.as_dict), sorted by case id then protocol."""
    order = {"json": 0, "xml": 1, "plain": 2, "native": 3}
    records = sorted(records, key=lambda r: (r["case_id"], order.get(r["protocol"], 9)))
    if records and all(r.get("prompt_sha256") for r in records):
        # Every prompt of the run in one digest: equal digests mean the same prompts (compare checks it).
        provenance = {**provenance, "prompt_sha256": digest_of_prompt_hashes(
            (r["item_id"], r["prompt_sha256"]) for r in records)}
    return {"tooluse1_results": RESULTS_FORMAT, "provenance": provenance, "records": records,
            "summary": summarise(GradedItem.from_record(r) for r in records)}


def write_json_atomic(path: Path, document: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)


# ----------------------------------------------------------------------------- resume

class ResumeMismatch(Exception):
    """The resume file belongs to another model, decoding config, corpus or backend setting."""


def run_key_digest(key: dict) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class ResumeFile:
    """Append-only JSONL of finished completions for one run key. Thread-safe appends, one fsync'd
    line each, so a kill -9 loses at most the line being written."""

    def __init__(self, path: Path, key: dict):
        self.path = Path(path)
        self.key = key
        self.digest = run_key_digest(key)
        self._lock = threading.Lock()
        self.done: dict[str, Completion] = {}
        self.skipped_lines = 0
        self._load_or_create()

    def _load_or_create(self) -> None:
        if not self.path.exists() or self.path.stat().st_size == 0:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "w", encoding="utf-8") as f:
                f.write(json.dumps({"tooluse1_resume": RESUME_FORMAT, "key_sha256": self.digest,
                                    "key": self.key}, ensure_ascii=False, sort_keys=True) + "\n")
                f.flush()
                os.fsync(f.fileno())
            return
        raw = self.path.read_bytes()
        lines = raw.decode("utf-8", errors="replace").split("\n")
        try:
            header = json.loads(lines[0])
            file_digest = header["key_sha256"]
        except (json.JSONDecodeError, KeyError, TypeError):
            raise ResumeMismatch(f"--resume {self.path}: not a ToolUse.1 resume file (bad header line); "
                                 f"pass a new path or delete it") from None
        if header.get("tooluse1_resume") != RESUME_FORMAT:
            raise ResumeMismatch(f"--resume {self.path} was written by an older ToolUse.1 (resume format "
                                 f"{header.get('tooluse1_resume')}, this one reads {RESUME_FORMAT}); use a new "
                                 f"--resume path")
        if file_digest != self.digest:
            theirs = header.get("key", {})
            diff = sorted(k for k in set(theirs) | set(self.key) if theirs.get(k) != self.key.get(k))
            raise ResumeMismatch(f"--resume {self.path} was written by another run (differs in: {', '.join(diff)}); "
                                 f"use a new --resume path, or the same model, decoding config and corpus")
        for line in lines[1:]:
            if not line.strip():
                continue
            try:
                d = json.loads(line)
                c = Completion(item_id=d["item_id"], text=d["text"], finish_reason=d["finish_reason"],
                               latency_s=d.get("latency_s", 0.0), prompt_tokens=d.get("prompt_tokens"),
                               completion_tokens=d.get("completion_tokens"), tool_calls=d.get("tool_calls"),
                               prompt_sha256=d.get("prompt_sha256"))
            except (json.JSONDecodeError, KeyError, TypeError):
                self.skipped_lines += 1   # a torn line from an interrupted write
                continue
            self.done[c.item_id] = c
        if not raw.endswith(b"\n"):
            with open(self.path, "ab") as f:   # start the next record on a fresh line
                f.write(b"\n")

    def append(self, c: Completion) -> None:
        """Record a finished completion (errors are not recorded, so they are retried on resume)."""
        if c.error is not None:
            return
        line = json.dumps({"item_id": c.item_id, "text": c.text, "finish_reason": c.finish_reason,
                           "latency_s": c.latency_s, "prompt_tokens": c.prompt_tokens,
                           "completion_tokens": c.completion_tokens, "tool_calls": c.tool_calls,
                           "prompt_sha256": c.prompt_sha256}, ensure_ascii=False) + "\n"
        with self._lock:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(line)
                f.flush()
                os.fsync(f.fileno())
            self.done[c.item_id] = c

