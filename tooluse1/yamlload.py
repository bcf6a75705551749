"""YAML lists of authored entries (cases, SPIN scenarios) with line numbers, validated entry by entry.

Shared by the case corpus (`tooluse1.corpus`) and the SPIN scenarios (`tooluse1.spin.scenarios`): every
problem a loader finds is reported as `path:line: message`, all of them at once, never as a traceback.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Protocol, TypeVar

import yaml

from tooluse1.errors import ToolUse1Error


class Mapping(dict):
    """A dict that remembers the line of itself and of each key (1-based)."""

    line: int = 0
    key_lines: dict


class _LineLoader(yaml.SafeLoader):
    pass


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> Mapping:
    loader.flatten_mapping(node)
    out = Mapping()
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in out:
            raise yaml.MarkedYAMLError(problem=f"duplicate key {key!r}", problem_mark=key_node.start_mark)
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = key_node.start_mark.line + 1
    return out


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def line_of(node: Any, key: str | None = None, default: int = 1) -> int:
    """The 1-based line of a loaded mapping (or of one of its keys); `default` for anything else."""
    if isinstance(node, Mapping):
        return node.key_lines.get(key, node.line) if key else node.line
    return default


class Problems:
    """Collects `path:line: message` strings; loaders report every problem, not only the first."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, path: str, line: int, msg: str) -> None:
        self.items.append(f"{path}:{line}: {msg}")


class EntryError(ToolUse1Error):
    """One or more invalid entries; `problems` holds `path:line: message` strings, all of them."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


def display_path(path: Path) -> str:
    """`path` relative to the working directory when it lies below it (for messages), else as given."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


class _Identified(Protocol):
    """What the loader reads of an entry: its id and where it was defined (`path:line`)."""

    @property
    def id(self) -> str: ...

    @property
    def source(self) -> str: ...


_Entry = TypeVar("_Entry", bound=_Identified)


def read_yaml_list(path: Path, what: str, probs: Problems, under: str | None = None) -> list | None:
    """The YAML list in `path` (mappings in it remember their lines: `line_of`; JSON is YAML too), [] for an
    empty file, or None after reporting why it cannot be read (a syntax error at its line, not a list) to
    `probs`. With `under`, a mapping holding the list under that key is read too (an API request body's
    `tools`)."""
    where = display_path(path)
    try:
        docs = yaml.load(path.read_text(encoding="utf-8"), Loader=_LineLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        probs.add(where, (mark.line + 1) if mark else 1, f"YAML syntax error: {e.problem or e}")
        return None
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        probs.add(where, 1, f"cannot read YAML: {e}")
        return None
    if docs is None:
        return []
    if under is not None and isinstance(docs, dict) and isinstance(docs.get(under), list):
        docs = docs[under]
    if not isinstance(docs, list):
        probs.add(where, 1, f"a {what} file must be a YAML list of {what}s"
                            + (f" (or a mapping with the list under {under!r})" if under else ""))
        return None
    return docs


def load_yaml_entries(directory: Path, validate: Callable[[Any, str, Problems], _Entry | None], what: str,
                      error: type[EntryError] = EntryError) -> list[_Entry]:
    """Load every `*.yaml` list under `directory`, validate each entry (entries have `.id` and `.source`)
    and return them sorted by id; raise `error` listing every `path:line: problem`, duplicate ids included."""
    probs = Problems()
    out: list[Any] = []
    seen: dict[str, str] = {}
    files = sorted(directory.rglob("*.yaml"))
    if not files:
        raise error([f"{display_path(directory)}: no *.yaml {what} files found"])
    for path in files:
        where = display_path(path)
        docs = read_yaml_list(path, what, probs)
        if docs is None:
            continue
        for raw in docs:
            entry = validate(raw, where, probs)
            # An invalid entry's id counts too: a duplicate is reported in the same pass as the other problems.
            entry_id = entry.id if entry is not None else raw.get("id") if isinstance(raw, dict) else None
            if not isinstance(entry_id, str):
                continue
            if entry_id in seen:
                probs.add(where, line_of(raw, "id"), f"duplicate id {entry_id!r} (first defined at {seen[entry_id]})")
                continue
            seen[entry_id] = entry.source if entry is not None else f"{where}:{line_of(raw)}"
            if entry is not None:
                out.append(entry)
    if probs.items:
        raise error(probs.items)
    return sorted(out, key=lambda e: e.id)
