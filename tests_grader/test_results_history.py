"""Every results file the repository has ever committed (format 2 on) still loads, and a new metric breaks none.

The files are kept in tests_grader/fixtures/results-format2-history.tar.xz (every distinct earlier version
of results/reference/{default,smollm2}.json and benchmarks/results/spin-full-default{,-train}.json.gz up to
the commit that added it, named `<commit>--<path with / as -->.json`), so the test needs no git history (CI may
check out shallow). The files of the checkout are read too. When a results file is committed again, add its
previous version to the archive: test_the_archive_holds_every_committed_version says which one is missing
wherever the history is there to look at.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import tarfile
from pathlib import Path
from typing import Any, Iterator

import pytest

from tooluse1 import metrics
from tooluse1.results import RESULTS_FORMAT_VERSION, ResultsFile, schema_errors, upgrade_document
from tooluse1.spin.scoring import section_errors

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT / "tests_grader" / "fixtures" / "results-format2-history.tar.xz"


def _is_results(raw: bytes) -> bool:
    return b'"format": "tooluse1-results"' in raw[:200]


def archived() -> Iterator[tuple[str, bytes]]:
    with tarfile.open(ARCHIVE, "r:xz") as tar:
        for member in tar.getmembers():
            f = tar.extractfile(member)
            assert f is not None, member.name
            yield member.name, f.read()


def checked_in() -> Iterator[tuple[str, bytes]]:
    for path in sorted([*ROOT.glob("results/**/*.json"), *ROOT.glob("benchmarks/results/*.json.gz")]):
        raw = path.read_bytes()
        raw = gzip.decompress(raw) if path.suffix == ".gz" else raw
        if _is_results(raw):
            yield str(path.relative_to(ROOT)), raw


def every_file() -> list[tuple[str, bytes]]:
    return [*archived(), *checked_in()]


def stored_numbers_kept(stored: Any, recomputed: Any, where: str = "summary") -> None:
    """Every value the file stored is in the recomputed summary, unchanged (recomputing may only add: a metric,
    or the clustered interval, that did not exist when the file was written)."""
    if isinstance(stored, dict):
        for key, value in stored.items():
            assert key in recomputed, f"{where}.{key} is gone"
            stored_numbers_kept(value, recomputed[key], f"{where}.{key}")
    else:
        assert stored == recomputed, where


def test_the_archive_and_the_checkout_hold_the_files_the_docstring_names():
    names = [name for name, _ in archived()]
    assert len(names) == len({hashlib.sha256(raw).digest() for _, raw in archived()})   # each version once
    assert sum(1 for n in names if "spin" in n) == 6
    assert {n for n, _ in checked_in()} >= {"results/reference/default.json", "results/reference/smollm2.json"}


@pytest.mark.parametrize("name,raw", every_file(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_committed_results_file_loads(name, raw):
    doc = json.loads(raw)
    # the archive holds replaced versions (format 2 on; the format-4 references the 4.1.1 re-grade replaced, the
    # format-5 ones the 4.1.2 re-grade replaced), none of a later format than the current one
    assert doc["format_version"] <= RESULTS_FORMAT_VERSION, name
    assert schema_errors(upgrade_document(doc)[0]) == [], name     # later formats added fields a reader fills in
    results = ResultsFile.from_document(doc, name)
    assert results.format_version == doc["format_version"]
    assert results.document["format_version"] == RESULTS_FORMAT_VERSION
    assert results.document["cost"]["n_items"] == len(doc["records"])
    assert len(results.records) == len(doc["records"])
    assert [r.passed for r in results.records] == [r["passed"] for r in doc["records"]]
    stored_numbers_kept(doc["summary"], results.summary)
    assert set(results.summary["overall"]) == set(metrics.METRICS)
    if "spin" in doc:   # the track's section, checked by the track
        assert section_errors(doc["spin"]) == [], name


def test_a_new_metric_breaks_no_earlier_file(monkeypatch):
    """The summary is recomputed when a file is read: a metric added after a file was written is there, from
    the file's own records, and the stored summaries (which lack it) are still valid."""
    name, raw = next((n, r) for n, r in archived() if n.startswith("757b823") and n.endswith("default.json"))
    doc = json.loads(raw)
    assert "truncated_rate" not in doc["summary"]["overall"]   # written before truncated_rate existed
    monkeypatch.setitem(metrics.METRICS, "answered_rate", (lambda i: True, lambda i: i.label != "malformed"))
    results = ResultsFile.from_document(doc, name)
    overall = results.summary["overall"]
    n_malformed = sum(1 for r in doc["records"] if r["verdict"] and r["verdict"]["label"] == "malformed")
    assert overall["answered_rate"]["n"] == len(doc["records"])
    assert overall["answered_rate"]["k"] == len(doc["records"]) - n_malformed
    assert overall["truncated_rate"]["n"] == len(doc["records"])
    # a stored summary with fewer or more metrics than this version computes is valid either way
    doc = upgrade_document(doc)[0]
    fewer = {**doc, "summary": {**doc["summary"], "overall": {"score": doc["summary"]["overall"]["score"]}}}
    assert schema_errors(fewer) == []
    bad = {**doc, "summary": {**doc["summary"], "overall": {"score": {"k": -1}}}}
    assert schema_errors(bad)


def test_a_new_verdict_or_extraction_field_breaks_no_earlier_file():
    """A file written before a Verdict or Extraction field existed lacks it (the schema, generated from the
    classes, requires it): the reader gives it the field's default, and leaves the document it was given as it
    was."""
    name, raw = next((n, r) for n, r in archived() if n.startswith("757b823") and n.endswith("smollm2.json"))
    doc = json.loads(raw)
    for r in doc["records"]:
        del r["verdict"]["cut_off"], r["verdict"]["arg_mismatches"], r["extraction"]["broken"]
    assert schema_errors(doc)                                 # as written today, the fields are required ...
    results = ResultsFile.from_document(doc, name)            # ... and an older file still loads
    assert all(r.verdict.cut_off is False and r.verdict.arg_mismatches == [] and r.extraction.broken == []
               for r in results.records)
    assert results.summary["overall"]["truncated_rate"]["k"] == 0
    assert "cut_off" not in doc["records"][0]["verdict"]


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, check=True).stdout.decode()


def test_the_archive_holds_every_committed_version():
    """Needs the git history (skipped in a shallow or exported checkout): every format-2 file any commit ever
    held is in the archive or is the checkout's own file."""
    try:
        if _git("rev-parse", "--is-shallow-repository").strip() != "false":
            pytest.skip("shallow clone: the history is not here")
        log = _git("log", "--all", "--format=@%H", "--name-only", "--", "*.json", "*.json.gz")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    known = {hashlib.sha256(raw).hexdigest() for _, raw in every_file()}
    missing = []
    commit = ""
    for line in log.splitlines():
        if line.startswith("@"):
            commit = line[1:]
        elif line.strip():
            try:
                raw = subprocess.run(["git", "show", f"{commit}:{line}"], cwd=ROOT, capture_output=True,
                                     check=True).stdout
            except subprocess.CalledProcessError:   # the commit deleted the file
                continue
            raw = gzip.decompress(raw) if line.endswith(".gz") else raw
            if _is_results(raw) and hashlib.sha256(raw).hexdigest() not in known:
                missing.append(f"{commit[:7]}:{line}")
    assert not missing, f"add these to {ARCHIVE.name}: {missing}"
