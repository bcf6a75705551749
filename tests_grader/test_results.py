"""The results format: the JSON Schema, ItemRecord.from_dict, format-1 files, lone surrogates, regrade's
provenance, secrets, and the tracks' join through the declared hooks (SPIN under xdist)."""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import jsonschema
import pytest
from corpus_contract import N_CASES

from tooluse1.recordschema import SCHEMA_PATH, schema_text
from tooluse1.types import Label   # noqa: F401 (resolves the string annotations of a Verdict subclass below)
from tooluse1.results import (RESULTS_FORMAT_VERSION, ItemRecord, RecordError, ResultsFile,
                              ResultsFileError, build_results, load_results, schema_errors, scrub_secrets,
                              secret_values, write_json_atomic)

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tooluse1", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """Real results files of the scripted runners (every public item each)."""
    d = tmp_path_factory.mktemp("runs")
    out = {}
    for model in ("oracle", "always-call"):
        path = d / f"{model}.json"
        proc = run_cli("run", "--model", model, "--results", str(path), "-p", "no:cacheprovider")
        assert proc.returncode in (0, 1), proc.stdout[-2000:] + proc.stderr[-2000:]
        out[model] = path
    return out


def to_format_1(doc: dict) -> dict:
    """The document as the writer before format 2 wrote it."""
    old = {"tooluse1_results": 1, **{k: v for k, v in doc.items() if k not in ("format", "format_version")}}
    old["records"] = [{k: v for k, v in r.items() if k != "expect"} for r in doc["records"]]
    return old


# ----------------------------------------------------------------------------- schema

def test_schema_is_valid_and_the_writer_conforms(runs):
    jsonschema.Draft202012Validator.check_schema(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    for path in runs.values():
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["format"] == "tooluse1-results" and doc["format_version"] == RESULTS_FORMAT_VERSION
        assert schema_errors(doc) == []
        assert all(r["expect"] is not None for r in doc["records"])


def test_the_committed_schema_is_the_one_the_record_types_generate():
    """tooluse1/schema/results.schema.json is recordschema's output: regenerate it with
    `python -m tooluse1.recordschema` after changing a record type."""
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text()


def test_schema_follows_the_record_types():
    """A field added to Verdict is in the schema (required, closed object) without editing any JSON."""
    import dataclasses
    from tooluse1 import grade, recordschema

    @dataclasses.dataclass
    class Verdict(grade.Verdict):
        new_flag: bool = False
        new_label: Label = "text"

    gen = recordschema._Generator()
    assert gen.schema_of(Verdict) == {"$ref": "#/$defs/Verdict"}
    d = gen.defs["Verdict"]
    assert d["required"][-2:] == ["new_flag", "new_label"] and d["additionalProperties"] is False
    assert d["properties"]["new_label"] == {"enum": ["call", "malformed", "text"]}
    assert d["properties"]["n_calls"] == {"type": "integer", "minimum": 0}


def test_schema_is_strict_about_every_record_field(runs):
    doc = json.loads(runs["oracle"].read_text(encoding="utf-8"))
    bad = copy.deepcopy(doc)
    bad["records"][3]["surprise"] = 1
    assert any("records[3]" in e and "surprise" in e for e in schema_errors(bad))
    bad = copy.deepcopy(doc)
    del bad["records"][5]["verdict"]["reason"]
    assert any("records[5]" in e for e in schema_errors(bad))
    bad = copy.deepcopy(doc)
    bad["provenance"]["unknown_field"] = "x"
    assert schema_errors(bad)
    bad = copy.deepcopy(doc)
    bad["records"][0]["protocol"] = "yaml"
    assert schema_errors(bad)
    bad = copy.deepcopy(doc)
    bad["summary"]["overall"]["score"]["k"] = -1
    assert schema_errors(bad)
    # Verdict and extraction are strict too (spec 2.0 fixed their fields) ...
    for part, field in (("extraction", "examples"), ("verdict", "n_examples")):
        bad = copy.deepcopy(doc)
        del bad["records"][0][part][field]
        assert any("records[0]" in e for e in schema_errors(bad)), part
        bad = copy.deepcopy(doc)
        bad["records"][0][part]["answer_check"] = "ok"
        assert any("records[0]" in e for e in schema_errors(bad)), part
    # ... while the native protocol, the chit_chat kind and the prompt digest are valid values.
    ok = copy.deepcopy(doc)
    ok["records"][1]["protocol"] = "native"
    ok["records"][2]["kind"] = "chit_chat"
    ok["provenance"]["prompt_sha256"] = "ab" * 32
    assert schema_errors(ok) == []
    # from_dict reads a record with a field it does not know (a newer grader's) and keeps what it knows.
    newer = copy.deepcopy(doc["records"][0])
    newer["verdict"]["answer_check"] = "ok"
    rec = ItemRecord.from_dict(newer)
    assert rec.verdict.passed and rec.extraction.label == "call"


# ----------------------------------------------------------------------------- records

def test_from_dict_round_trips_every_record(runs):
    for path in runs.values():
        doc = json.loads(path.read_text(encoding="utf-8"))
        for d in doc["records"]:
            assert ItemRecord.from_dict(d).as_dict() == d


def test_from_dict_round_trips_a_backend_error_record(runs):
    d = json.loads(runs["oracle"].read_text(encoding="utf-8"))["records"][0]
    err = {**d, "output": "", "finish_reason": "error", "error": "HTTP 503 after 5 retries", "extraction": None,
           "verdict": None, "passed": False}
    rec = ItemRecord.from_dict(err)
    assert rec.is_error and rec.label == "error" and not rec.passed
    assert rec.as_dict() == err


def test_from_dict_names_the_item_and_field_of_a_bad_record(runs):
    d = json.loads(runs["oracle"].read_text(encoding="utf-8"))["records"][7]
    with pytest.raises(RecordError, match=rf"{d['item_id']}.*'lang'"):
        ItemRecord.from_dict({k: v for k, v in d.items() if k != "lang"})
    with pytest.raises(RecordError, match="'passed' is False but the verdict says True"):
        ItemRecord.from_dict({**d, "passed": False})
    with pytest.raises(RecordError, match="no verdict and no backend error"):
        ItemRecord.from_dict({**d, "verdict": None})
    # `expect` is what corpus.Expectation writes: a key that class does not know is refused, not dropped
    with pytest.raises(RecordError, match=rf"{d['item_id']}.*unknown field.*'answer_regex'"):
        ItemRecord.from_dict({**d, "expect": {**d["expect"], "answer_regex": "x"}})


def test_format_1_files_are_read_and_keep_their_numbers(runs, tmp_path):
    doc = json.loads(runs["always-call"].read_text(encoding="utf-8"))
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(to_format_1(doc), ensure_ascii=False), encoding="utf-8")
    old = load_results(path)
    assert old.format_version == 1 and len(old.records) == len(doc["records"])
    assert [r.passed for r in old.records] == [r["passed"] for r in doc["records"]]
    # Format 1 kept whether a case had constraints, not the constraints: the summary recomputed from the
    # records still equals the stored one.
    rebuilt = build_results(old.provenance, old.records)
    assert rebuilt["summary"] == doc["summary"]
    assert all(r["expect"] is None for r in rebuilt["records"])


def test_load_results_errors_name_the_file(tmp_path):
    missing = tmp_path / "nope.json"
    with pytest.raises(ResultsFileError, match=f"{missing}: cannot read"):
        load_results(missing)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": ', encoding="utf-8")
    with pytest.raises(ResultsFileError, match=f"{broken}: not JSON .*line 1"):
        load_results(broken)
    other = tmp_path / "other.json"
    other.write_text('{"records": []}', encoding="utf-8")
    with pytest.raises(ResultsFileError, match="not a ToolUse.1 results file"):
        load_results(other)
    future = tmp_path / "future.json"
    future.write_text('{"format": "tooluse1-results", "format_version": 99}', encoding="utf-8")
    with pytest.raises(ResultsFileError, match="format_version 99 is not supported"):
        load_results(future)


def test_lone_surrogates_in_outputs_survive_the_writer(runs, tmp_path):
    doc = json.loads(runs["oracle"].read_text(encoding="utf-8"))
    text = "ok \ud800 then \udfff, an emoji \U0001f600, a backslash \\ and the end"
    rec = ItemRecord.from_dict(doc["records"][0])
    rec.completion.text = text
    out = tmp_path / "s.json"
    write_json_atomic(out, build_results(doc["provenance"], [rec]))
    raw = out.read_bytes()
    raw.decode("utf-8")   # valid UTF-8 on disk
    back = load_results(out)
    assert back.records[0].completion.text == text


# ----------------------------------------------------------------------------- regrade

def test_regrade_records_the_current_corpus_and_refuses_another(runs, tmp_path):
    doc = json.loads(runs["always-call"].read_text(encoding="utf-8"))
    current = doc["provenance"]["corpus"]["sha256"]
    same = tmp_path / "same.json"
    proc = run_cli("regrade", str(runs["always-call"]), "--out", str(same))
    assert proc.returncode == 0, proc.stderr
    new = load_results(same)
    assert new.provenance["regrade"]["corpus_changed"] is False
    assert new.summary == doc["summary"]

    # A file graded against another corpus: refused (exit 2) with both digests, unless asked.
    old = copy.deepcopy(doc)
    old["provenance"]["corpus"] = {"sha256": "0" * 64, "version": "0.9.0", "n_cases": N_CASES}
    old["provenance"]["spec_version"] = "0.9.0"
    old["records"][0]["expectation"] = "no_call"          # what the old corpus said about this case
    old["records"][0]["expect"] = {"no_call": True, "answer_contains_any": [], "answer_contains_all": []}
    old["records"][0]["passed"] = old["records"][0]["verdict"]["passed"] = False
    old_path = tmp_path / "old.json"
    old_path.write_text(json.dumps(old, ensure_ascii=False), encoding="utf-8")
    refused = run_cli("regrade", str(old_path), "--out", str(tmp_path / "x.json"))
    assert refused.returncode == 4
    assert "000000000000" in refused.stderr and current[:12] in refused.stderr
    assert "--allow-corpus-change" in refused.stderr and "Traceback" not in refused.stderr
    assert not (tmp_path / "x.json").exists()

    out = tmp_path / "regraded.json"
    ok = run_cli("regrade", str(old_path), "--out", str(out), "--allow-corpus-change")
    assert ok.returncode == 0, ok.stderr
    assert "differ" not in ok.stdout and "re-grading against the current cases" in ok.stderr
    new = load_results(out)
    prov = new.provenance
    assert prov["corpus"]["sha256"] == current and prov["spec_version"] == doc["provenance"]["spec_version"]
    assert prov["regrade"]["original"]["corpus"]["sha256"] == "0" * 64
    assert prov["regrade"]["corpus_changed"] and prov["regrade"]["spec_changed"]
    # The record's expectation is the current case's again, not the old record's.
    assert new.document["records"][0]["expectation"] == doc["records"][0]["expectation"]
    assert new.document["records"][0]["expect"] == doc["records"][0]["expect"]
    assert new.summary == doc["summary"]


def test_regrade_bad_input_is_one_message(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2", encoding="utf-8")
    proc = run_cli("regrade", str(bad))
    assert proc.returncode == 4 and str(bad) in proc.stderr and "Traceback" not in proc.stderr


def test_a_track_section_is_the_tracks_to_check(runs, tmp_path):
    """The core schema accepts any named section holding an object; SPIN checks its own (spin/scoring.py), and
    regrade refuses a spin section SPIN cannot read with one message."""
    from tooluse1.spin.scoring import section_errors
    doc = json.loads(runs["oracle"].read_text(encoding="utf-8"))
    assert schema_errors({**doc, "some_track": {"anything": 1}}) == []
    assert schema_errors({**doc, "some_track": [1]})             # a section is an object
    broken = {"format": 2, "provenance": {}, "n_runs": 0, "variants": {}, "paired": {}}
    assert any("records" in e for e in section_errors(broken))
    path = tmp_path / "spin.json"
    path.write_text(json.dumps({**doc, "spin": broken}, ensure_ascii=False), encoding="utf-8")
    assert load_results(path).document["spin"] == broken        # the core reads it ...
    proc = run_cli("regrade", str(path))                          # ... SPIN refuses it
    assert proc.returncode == 4 and "not a valid spin section" in proc.stderr and "'records'" in proc.stderr
    assert "Traceback" not in proc.stderr


# ----------------------------------------------------------------------------- secrets

def test_scrub_secrets_masks_url_passwords_keys_and_env_values():
    secret = "sk-test-9f8e7d6c5b4a"
    doc = {"command": f"pytest --base-url http://alice:hunter2pw@10.0.0.1:8000/v1 --key {secret}",
           "nested": [{"url": "postgresql://bob:s3cr3t@db/x?sslmode=require"},
                      "https://h/v1?api_key=abcdef123&x=1"], secret: "as a key too"}
    out = scrub_secrets(doc, [secret])
    text = json.dumps(out)
    for s in ("hunter2pw", "s3cr3t", "abcdef123", secret):
        assert s not in text
    assert "http://alice:***@10.0.0.1:8000/v1" in text and "sslmode=require" in text
    assert doc["nested"][0]["url"].endswith("s3cr3t@db/x?sslmode=require")   # input unchanged
    env = {"OPENAI_API_KEY": secret, "HF_TOKEN_PATH": "/root/.cache/token", "KEYRING_BACKEND": "default",
           "PATH": "/usr/bin:/bin", "MY_PASSWORD": "short"}
    assert secret_values(env) == [secret]


class _FakeOpenAI:
    """A minimal OpenAI-compatible server that answers every chat with plain text and remembers the
    Authorization headers it saw."""

    def __init__(self) -> None:
        self.auth: list[str] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                fake.auth.append(self.headers.get("Authorization", ""))
                self._send({"object": "list", "data": [{"id": "fake", "object": "model", "created": 0,
                                                        "owned_by": "t"}]})

            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                fake.auth.append(self.headers.get("Authorization", ""))
                self._send({"id": "c", "object": "chat.completion", "created": 0, "model": "fake",
                            "choices": [{"index": 0, "finish_reason": "stop",
                                         "message": {"role": "assistant", "content": "I cannot tell."}}],
                            "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8}})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.mark.parametrize("where", ["api-key", "url-password"])
def test_no_secret_reaches_results_report_resume_or_log(tmp_path, where):
    """An API key in $OPENAI_API_KEY, or a password in --base-url (httpx then sends it as Basic auth
    instead of the key, so the two are separate runs): used by the client, written nowhere."""
    key = "sk-tooluse1-test-5f2b9c81d7e4a6"
    password = "pw-7c1e9a2b44"
    server = _FakeOpenAI()
    userinfo = f"user:{password}@" if where == "url-password" else ""
    results, report, resume = tmp_path / "r.json", tmp_path / "r.html", tmp_path / "resume.jsonl"
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "test_tooluse1.py", "-p", "no:cacheprovider", "-q", "-rA",
             "--backend", "openai", "--base-url", f"http://{userinfo}127.0.0.1:{server.port}/v1",
             "--model", "fake", "-k", "calculator-en-001 or negative-en-001", "--results", str(results),
             "--html", str(report), "--resume", str(resume),
             "--json-report", f"--json-report-file={tmp_path / 'j.json'}"],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
            env={**os.environ, "OPENAI_API_KEY": key})
    finally:
        server.close()
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]   # the model's failures, not errors
    secret = key if where == "api-key" else password
    assert any(key in a if where == "api-key" else a.startswith("Basic ") for a in server.auth)   # it was used ...
    doc = json.loads(results.read_text(encoding="utf-8"))
    assert len(doc["records"]) == 6 and doc["summary"]["n_errors"] == 0
    masked = userinfo.replace(password, "***")
    assert doc["provenance"]["model"]["base_url"] == f"http://{masked}127.0.0.1:{server.port}/v1"
    for name, text in (("results", results.read_text(encoding="utf-8")), ("report", report.read_text(encoding="utf-8")),
                       ("resume", resume.read_text(encoding="utf-8")),
                       ("json-report", (tmp_path / "j.json").read_text(encoding="utf-8")),
                       ("stdout", proc.stdout), ("stderr", proc.stderr)):
        assert secret not in text, name              # ... and never written anywhere


# ----------------------------------------------------------------------------- tracks join through hooks

def test_spin_section_under_xdist_comes_through_the_sections_hook(tmp_path):
    results = tmp_path / "r.json"
    proc = subprocess.run([sys.executable, "-m", "pytest", "test_plan.py", "-p", "no:cacheprovider", "-q",
                           "--model", "oracle", "--variant", "base,spin", "-m", "chain", "-n", "2",
                           "--results", str(results)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "ToolUse.1 SPIN summary" in proc.stdout and "sections: spin" in proc.stdout
    doc = load_results(results).document
    n_chain = sum(1 for r in doc["spin"]["records"] if r["variant"] == "base")
    assert n_chain > 0 and doc["spin"]["n_runs"] == 2 * n_chain
    assert doc["records"] == []                       # no core items were selected


def test_spin_plugin_uses_only_the_public_join():
    """The SPIN plugin reaches the core plugin through the hooks and its public helpers only."""
    import ast
    tree = ast.parse((ROOT / "tooluse1" / "spin" / "plugin.py").read_text(encoding="utf-8"))
    imported = {(n.module, a.name) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert {name for mod, name in imported if mod == "tooluse1.plugin"} == {"progress"}
    hooks = {f.name for f in tree.body if isinstance(f, ast.FunctionDef) and f.name.startswith("pytest_tooluse1_")}
    assert hooks == {"pytest_tooluse1_configure", "pytest_tooluse1_sections", "pytest_tooluse1_terminal_summary"}


def test_results_file_from_document_validates():
    with pytest.raises(ResultsFileError, match="this run: not a valid ToolUse.1 results file"):
        ResultsFile.from_document({"format": "tooluse1-results", "format_version": 2, "records": []}, "this run")
