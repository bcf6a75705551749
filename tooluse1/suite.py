"""Suites of your own: a user's tools and cases, run, graded and compared like the built-in corpus.

A suite is a folder:

    my_suite/
      tools.json          # the tools as sent to an API (or tools.yaml): OpenAI-format definitions, a request
                          # body's `tools`, MCP tools (tooluse1.toolspec.Tool.from_dict)
      cases/**/*.yaml     # the cases, in the format of the built-in cases/ (cases/README.md)

`load_suite(DIR)` validates both (every problem as `path:line: message`: SuiteError), builds the suite's own
toolbox (`Suite.toolbox`: its tools, with their other names) and each case with its toolbox (Case.toolbox:
the suite's, or exactly its offered tools with its own declarations in place), grades every case's own
right answer in every protocol (as `build` does for cases/; a case whose answer fails is left out and
listed in `Suite.skipped`) and returns the cases with a manifest shaped like data/manifest.json, whose
`sha256` is the suite's digest: it covers the tool declarations and the cases, so it is what a results file
records as its corpus (`provenance.corpus`, with `suite: {name, path, api_names, skipped}`) and what
`compare`, `report`, the `--baseline` gate and `regrade --suite DIR` check.

What a suite means by the built-in words:
- its tools are the ones its tools file declares, and only those (a built-in tool's name is free for
  them): `tools: all` offers every one of them, a case offering another is refused; a case may also
  declare tools of its own inline (tooluse1.corpus.Case.toolbox);
- its categories are its tool names as written, `multi_step`, `negative` and `clarification`; case ids are
  any `[A-Za-z0-9_.-]+`, unique within the suite. Ids of different suites (or of the built-in corpus) may
  coincide: a session and a results file hold one suite, and runs of different suites are never paired
  (their digests differ);
- a tool needs no simulated implementation: the tool-calling track grades calls, it does not execute them.

Loading a suite changes no global state: the registry (tooluse1.tools.TOOLS) keeps the built-in tools,
and any number of suites may be loaded side by side, one tool name defined differently in each. A suite's
tools resolve (by name, API encoding or other name) only where its cases carry them: while a session grades
a suite, only its tools and their other names resolve.
"""
from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tooluse1.build import failing_references
from tooluse1.corpus import (SPEC_VERSION, Case, CorpusError, StaleCorpusError, check_fresh, counts, load_cases,
                             load_corpus, own_tools, render_jsonl)
from tooluse1.errors import ToolUse1Error
from tooluse1.results import portable_path
from tooluse1.toolspec import Tool, Toolbox, api_name, function_of
from tooluse1.yamlload import EntryError, Problems, display_path, line_of, read_yaml_list

__all__ = ["CASES_DIR_NAME", "TOOLS_FILE", "CasesUnusable", "Suite", "SuiteError", "load_session_cases", "load_suite",
           "suite_of"]

TOOLS_FILE = "tools.yaml"
# The names a suite's tools file may have, in the order they are looked for.
TOOLS_FILES = (TOOLS_FILE, "tools.yml", "tools.json")
CASES_DIR_NAME = "cases"


class SuiteError(EntryError):
    """The suite cannot be used; `problems` holds every `path:line: message` (or `path: message`)."""


class CasesUnusable(ToolUse1Error):
    """The cases a command was pointed at cannot be used; the message names every problem and the fix."""


def load_session_cases(suite_dir: str | Path | None) -> tuple[list[Case], dict, tuple[str, ...]]:
    """The cases (each with its toolbox), manifest and tool names of the suite in `suite_dir`, or of the
    built-in corpus (data/, checked fresh against cases/) when `suite_dir` is None: what a pytest session
    or `regrade --suite` grades against. Raises CasesUnusable with one message naming every problem
    (each invalid case's `path:line`, or the command that rebuilds a stale data/)."""
    try:
        if suite_dir is None:
            check_fresh()
            cases, manifest = load_corpus()
            return list(cases), manifest, ()
        suite = load_suite(suite_dir)
    except (CorpusError, SuiteError) as e:
        where = f"invalid suite {suite_dir}" if suite_dir else "invalid cases"
        raise CasesUnusable(f"{where}:\n" + "\n".join(e.problems)) from None
    except StaleCorpusError as e:
        raise CasesUnusable(str(e)) from None
    if suite.skipped:
        print(f"tooluse1: {len(suite.skipped)} case(s) of suite {suite.name} skipped: their own right answer fails "
              f"their grader (fix the case, or the tool's schema):\n  " + "\n  ".join(suite.skipped), file=sys.stderr)
    return list(suite.cases), suite.manifest, suite.tool_names


@dataclass(frozen=True)
class Suite:
    """A loaded suite: its own toolbox (the tools its tools file declares, with their other names; nothing
    else resolves in it), its validated cases in id order (each carrying its toolbox, Case.toolbox: this
    one, or its offered tools with its own declarations in place), and its manifest."""

    name: str
    path: Path
    toolbox: Toolbox
    cases: tuple[Case, ...]
    manifest: dict
    skipped: tuple[str, ...] = ()     # `path:line: problem` of each case left out: its right answer fails

    @property
    def tools(self) -> tuple[Tool, ...]:
        """The suite's tools, in their tools file's order."""
        return tuple(self.toolbox.values())

    @property
    def tool_names(self) -> tuple[str, ...]:
        return tuple(self.toolbox)

    @property
    def sha256(self) -> str:
        """The suite's digest (tool declarations and cases)."""
        return self.manifest["sha256"]


def load_suite(directory: str | Path) -> Suite:
    """The suite in `directory`, validated, with its own toolbox and each case's (no global state changes:
    suites load side by side). Raises SuiteError listing every problem in one pass, each at its `path:line`
    (a missing file, a YAML error, an incomplete tool or two of one name, every bad case of every file). Only
    a tools file that cannot be read at all stops the pass there (no case can be checked without its tools),
    and a case naming a tool with problems is checked once that tool loads. A case whose own right answer
    fails its grader does not refuse the suite: it is left out and listed (`Suite.skipped`); SuiteError when
    no case is left."""
    root = Path(directory)
    tools_path = next((root / n for n in TOOLS_FILES if (root / n).is_file()), root / TOOLS_FILE)
    cases_dir = root / CASES_DIR_NAME
    missing = [p for p in (tools_path, cases_dir) if not p.exists()]
    if not root.is_dir() or missing:
        raise SuiteError([f"{display_path(root)}: not a suite folder (it needs {TOOLS_FILE} or tools.json, and "
                          f"{CASES_DIR_NAME}/; "
                          f"missing: {', '.join(display_path(p) for p in missing) or 'the folder'})"])
    probs = Problems()
    declarations, built, broken = _read_tools(tools_path, probs)
    toolbox = _toolbox(built, tools_path, probs, broken)
    try:
        cases = load_cases(cases_dir, toolbox, frozenset(broken))
    except CorpusError as e:
        probs.items.extend(e.problems)
    if probs.items:
        raise SuiteError(probs.items)
    # A case whose own right answer fails its grader cannot be scored: it is left out, listed and counted
    # (the manifest's suite.skipped, `problems`), and the rest of the suite runs.
    failing = failing_references(cases)
    kept = [c for c in cases if c.id not in failing]
    if not kept:
        raise SuiteError(list(failing.values()) + [f"{display_path(cases_dir)}: no case left to run"])
    return Suite(root.resolve().name, root, toolbox, tuple(kept), _manifest(root, declarations, kept, failing),
                 tuple(failing.values()))


def _read_tools(path: Path, probs: Problems) -> tuple[list[dict], list[tuple[Tool, dict]], set[str]]:
    """The declarations in the tools file (plain data: a list of OpenAI-format tools, or a request body with
    them under `tools`), the tools built from them (each with its declaration) and the names of those that
    could not be built; every problem to `probs` at the line of its tool or parameter. SuiteError at once
    when the file cannot be read. (Two tools of one name are found when registering.)"""
    where = display_path(path)
    docs = read_yaml_list(path, "tool", probs, under="tools")   # [] when every case declares its own
    if docs is None:
        raise SuiteError(probs.items)
    built: list[tuple[Tool, dict]] = []
    broken: set[str] = set()
    for raw in docs:
        if not isinstance(raw, dict):
            probs.add(where, line_of(raw), "a tool must be a mapping (name, description, parameters)")
            continue
        try:
            built.append((Tool.from_dict(raw), raw))
        except ValueError as e:
            name = function_of(raw).get("name")
            if isinstance(name, str):
                broken.add(name)
            for problem in str(e).splitlines():
                probs.add(where, _problem_line(raw, problem), problem)
    return list(docs), built, broken


def _problem_line(raw: dict, problem: str) -> int:
    """The line a `tool[.param]: message` problem is about: its parameter's, else its tool's."""
    fn = function_of(raw)
    name = str(fn.get("name", "?"))
    subject = problem.partition(": ")[0]
    dot, param = subject[len(name):len(name) + 1], subject[len(name) + 1:]
    params = fn.get("parameters")
    props = params.get("properties") if isinstance(params, dict) else None
    tool_line = line_of(raw.get("function"), default=line_of(raw))   # the function object's, when wrapped
    if dot and isinstance(props, dict) and param in props:
        return line_of(props, param, tool_line)
    return tool_line


def _toolbox(built: list[tuple[Tool, dict]], path: Path, probs: Problems, broken: set[str]) -> Toolbox:
    """The suite's own toolbox: the built tools, in order. A tool whose name (or other name) another tool of
    this suite took first is a problem in `probs`, at its name's line, and its name, unless it is the first
    one's, joins `broken`."""
    toolbox = Toolbox()
    for tool, raw in built:
        try:
            toolbox.register(tool)
        except ValueError as e:
            probs.add(display_path(path), line_of(raw.get("function", raw), "name", line_of(raw)),
                      f"{e}; give each tool of the suite a name of its own")
            if tool.name not in toolbox:
                broken.add(tool.name)
    return toolbox


def _manifest(root: Path, declarations: list[dict], cases: list[Case], failing: dict[str, str]) -> dict:
    """data/manifest.json's shape for the suite: `sha256` over the canonical tool declarations and cases,
    `suite` naming it (and where it was loaded from, for `regrade --suite`)."""
    jsonl = render_jsonl(cases)
    tools = json.dumps(declarations, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.sha256(b"tooluse1-suite\n" + tools.encode("utf-8") + b"\n" + jsonl).hexdigest()
    suite: dict[str, Any] = {"name": root.resolve().name, "path": portable_path(root.resolve())}
    encoded = {api_name(n): n for n in (function_of(d).get("name") for d in declarations if isinstance(d, dict))
               if isinstance(n, str) and api_name(n) != n}
    encoded.update({api_name(t.name): t.name for c in cases for t in own_tools(c.definitions)
                    if api_name(t.name) != t.name})
    if encoded:   # the names the native protocol declares to an API in its place (mapped back when graded)
        suite["api_names"] = encoded
    if failing:   # the cases left out, by id (their problems are printed when the suite loads)
        suite["skipped"] = sorted(failing)
    return {"name": root.resolve().name, "version": SPEC_VERSION, "sha256": digest, "n_cases": len(cases),
            "counts": counts(cases), "suite": suite}


def suite_of(provenance: dict[str, Any]) -> dict | None:
    """The suite a results file's run used ({name, path}), or None for the built-in corpus."""
    return provenance.get("corpus", {}).get("suite")
