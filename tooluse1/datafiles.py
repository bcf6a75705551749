"""The one dataset builder's file side, shared by the corpus (cases/ -> data/tooluse1.jsonl) and the SPIN
scenarios (scenarios/ -> data/scenarios.jsonl): each dataset renders its files' exact bytes from its
authored source; these functions write them, tell whether data/ is stale, and read them back verified.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tooluse1.errors import StaleCorpusError
from tooluse1.yamlload import display_path

__all__ = ["first_stale", "read_built", "write_data"]


def write_data(files: Mapping[str, bytes], data_dir: Path) -> dict[str, Any]:
    """Write each {name: content} into `data_dir` (created if missing); a file whose bytes are already
    these is not touched, a changed one is replaced atomically. Returns the manifest: the JSON of the
    file whose name ends in "manifest.json"."""
    data_dir.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        target = data_dir / name
        if not target.exists() or target.read_bytes() != content:
            tmp = target.with_suffix(target.suffix + ".tmp")
            tmp.write_bytes(content)
            tmp.replace(target)
    [manifest] = [content for name, content in files.items() if name.endswith("manifest.json")]
    return json.loads(manifest)


def first_stale(files: Mapping[str, bytes], data_dir: Path) -> Path | None:
    """The first of `files` that `data_dir` lacks or holds with other bytes; None when data/ is fresh."""
    for name, content in files.items():
        path = data_dir / name
        if not path.exists() or path.read_bytes() != content:
            return path
    return None


def read_built(data_dir: Path, jsonl_name: str, manifest_name: str, what: str, command: str
               ) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, Any]]:
    """(each JSONL object with its source ``<jsonl_name>:<line>``, the manifest), read from data_dir and
    verified against the manifest's sha256. StaleCorpusError names the `python -m tooluse1 <command>` that
    rebuilds a missing or mismatched file (`what`: "corpus", "scenarios")."""
    jsonl_path, manifest_path = data_dir / jsonl_name, data_dir / manifest_name
    if not jsonl_path.exists() or not manifest_path.exists():
        raise StaleCorpusError(f"{display_path(data_dir)}/ has no built {what}: run `python -m tooluse1 {command}`")
    raw = jsonl_path.read_bytes()
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    if hashlib.sha256(raw).hexdigest() != manifest.get("sha256"):
        raise StaleCorpusError(f"{display_path(jsonl_path)} does not match the digest in {manifest_name}: "
                               f"run `python -m tooluse1 {command}`")
    return [(f"{jsonl_name}:{i}", json.loads(line))
            for i, line in enumerate(raw.decode("utf-8").splitlines(), 1) if line.strip()], manifest
