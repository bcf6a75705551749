"""`python -m tooluse1 build`: validate cases/, grade every case's own reference, write data/ (with the
dataset builder's file side, tooluse1/datafiles.py, which `build-scenarios` shares).

Kept apart from `tooluse1.corpus` (the data model and loader) because checking a reference needs the
grader and the prompts, which themselves read cases: corpus -> grade -> corpus would be a cycle.
"""
from __future__ import annotations

from pathlib import Path

from tooluse1.corpus import CASES_DIR, DATA_DIR, Case, CorpusError, load_cases, render_data
from tooluse1.datafiles import write_data
from tooluse1.grade import grade
from tooluse1.prompts import PROTOCOLS, format_call


def reference_problems(cases: list[Case]) -> list[str]:
    """`source: problem` for every case whose own right answer (its expected call written in the protocol's
    format, or its reference text) fails its own grader in some protocol; empty when all pass."""
    return list(failing_references(cases).values())


def failing_references(cases: list[Case]) -> dict[str, str]:
    """Case id -> `source: problem` for every case whose own right answer fails its own grader in some
    protocol (the first such protocol); a text case without a reference has nothing to check."""
    problems: dict[str, str] = {}
    for case in cases:
        if case.expect.kind != "call" and case.expect.reference is None:
            continue        # a suite's text case may come without a reference: nothing to check
        for protocol in PROTOCOLS:
            if case.expect.kind == "call":
                output = format_call(case.expect.right_call(case.toolbox), protocol)
            else:
                output = case.expect.reference or ""
            verdict = grade(case, output, protocol)
            if not verdict.passed:
                what = "expected call" if case.expect.kind == "call" else "reference"
                problems[case.id] = (f"{case.source}: the case's own {what} fails its grader ({protocol}): "
                                     f"{verdict.reason}")
                break
    return problems


def build(cases_dir: Path = CASES_DIR, data_dir: Path = DATA_DIR) -> dict:
    """Validate cases/ and (re)write data/ (unchanged files are not touched); returns the manifest.
    Raises CorpusError listing every bad case, including a reference that fails its own grader."""
    cases = load_cases(cases_dir)
    problems = reference_problems(cases)
    if problems:
        raise CorpusError(problems)
    return write_data(render_data(cases), data_dir)
