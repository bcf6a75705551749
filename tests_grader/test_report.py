"""The HTML report: escaping of hostile outputs, its sections, the CLI and pytest's --html, and the page in a
real headless Chromium (Debian's `chromium`, installed by scripts/setup.sh)."""
from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_contract import N_ITEMS

from tooluse1.report import clean_text, esc, render_report
from tooluse1.results import build_results, load_results, write_json_atomic

from browser import chromium_path, open_page, png_size

ROOT = Path(__file__).resolve().parent.parent

HOSTILE = [
    "<script>alert('xss-script')</script>",
    '<img src=x onerror="document.title=\'pwned-img\'">',
    "</textarea><textarea>",
    "</pre></details></td></tr></tbody></table><h1 id=\"headline\">FAKE</h1>",
    "lone \ud800 high and \udfff low surrogates",
    "nul \x00 and escape \x1b[31m and bell \x07",
    "<svg onload=\"alert('svg')\"></svg><!-- <style>body{display:none}</style> ]]>",
    "\"><script>alert('attr')</script>",
]


EVIL_ID = 'evil"><script>alert(1)</script>'


def run_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tooluse1", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def runs(scripted_results: dict[str, Path]) -> dict[str, Path]:
    return scripted_results


@pytest.fixture(scope="module")
def hostile(runs, tmp_path_factory) -> Path:
    """The always-call run with hostile text in outputs, reasons and a case id (attributes too)."""
    src = load_results(runs["always-call"])
    records = src.records
    for i, text in enumerate(HOSTILE):
        r = records[i * 7]
        r.completion.text = text
        if r.verdict is not None:
            r.verdict.reason = f"reason {text}"
    evil = records[3]
    evil.case = dataclasses.replace(evil.case, id=EVIL_ID)
    evil.completion.item_id = f"{EVIL_ID}-{evil.protocol}"
    prov = dict(src.provenance)
    prov["model"] = {**prov["model"], "model_id": "<b>model</b><script>alert('prov')</script>"}
    path = tmp_path_factory.mktemp("hostile") / "hostile.json"
    write_json_atomic(path, build_results(prov, records))
    return path


def test_clean_text_and_esc():
    assert clean_text("a\ud800b") == "a\ufffdb" and clean_text("\U0001f600") == "\U0001f600"
    assert clean_text("x\x00y\x1b") == "x\u2400y\u241b" and clean_text("t\tn\n") == "t\tn\n"
    assert esc('<a href="x">\'</a>') == "&lt;a href=&quot;x&quot;&gt;&#x27;&lt;/a&gt;"
    esc("\udfff").encode("utf-8")    # always encodable


def test_report_sections_numbers_and_every_item(runs):
    results, base = load_results(runs["always-call"]), load_results(runs["oracle"])
    page = render_report(results, base)
    page.encode("utf-8")
    s = results.summary["overall"]["score"]
    assert f'<span class="score">{s["rate"]:.3f}</span>' in page and f"n = {s['n']}" in page
    for section in ('id="comparison"', 'id="flips"', 'id="labels"', 'id="items"', 'id="provenance"', "<svg"):
        assert section in page, section
    # the comparison (and its flips) comes before the breakdowns and the items
    assert page.index('id="comparison"') < page.index("<h2>Breakdowns") < page.index('id="items"')
    assert page.count("<tr data-item=") == len(results.records) == N_ITEMS
    assert page.count("<svg") == 5           # protocol, language, category, difficulty, negative kind
    # the output-label table: always-call answers every item with a call
    assert "<tr><th>no_call</th><td class=num>147</td><td class=num>0</td><td class=num>0</td>" in page
    for key in ("chat template sha256", "corpus sha256", results.provenance["corpus"]["sha256"], "libraries"):
        assert key in page
    assert "180 pass\u2192fail" in page.replace("&gt;", ">")


def test_headline_pools_the_text_protocols_and_native_stands_apart():
    """The reference run of the default model holds native items: the headline is json+xml+plain only (the
    comparable score), native has its own section, and the breakdowns other than protocol leave it out."""
    run = load_results(ROOT / "results" / "reference" / "default.json")
    text = [r for r in run.records if r.protocol != "native"]
    native = [r for r in run.records if r.protocol == "native"]
    assert text and native
    page = render_report(run)
    head = page[page.index('<div id="headline"'):page.index("</div>", page.index('<div id="headline"'))]
    assert "score (json+xml+plain)" in head and f"n = {len(text)}" in head
    assert f'<span class="score">{sum(r.passed for r in text) / len(text):.3f}</span>' in head
    native_head = page[page.index('<div id="native-headline"'):]
    assert f"n = {len(native)}" in native_head[:native_head.index("</div>")]
    assert page.index('id="headline"') < page.index('id="native"') < page.index("<h2>Breakdowns")
    # the language chart pools the text protocols: its groups add up to the headline's n, not to every item
    lang_chart = page[page.index("score by language"):]
    lang_chart = lang_chart[:lang_chart.index("</svg>")]
    ns = [int(n) for n in re.findall(r" n=(\d+)", lang_chart)]
    assert sum(ns) == len(text)


def test_report_cli_and_bad_input(runs, tmp_path):
    out = tmp_path / "sub" / "r.html"
    ok = run_cli("report", str(runs["always-call"]), str(runs["oracle"]), "-o", str(out))
    assert ok.returncode == 0 and out.exists() and "HTML report" in ok.stdout
    missing = run_cli("report", str(tmp_path / "none.json"), "-o", str(out))
    assert missing.returncode == 4 and "none.json" in missing.stderr and "Traceback" not in missing.stderr
    doc = json.loads(runs["oracle"].read_text(encoding="utf-8"))
    doc["provenance"]["corpus"]["sha256"] = "c" * 64
    (tmp_path / "other.json").write_text(json.dumps(doc), encoding="utf-8")
    inc = run_cli("report", str(runs["always-call"]), str(tmp_path / "other.json"), "-o", str(out))
    assert inc.returncode == 4 and "corpus digest" in inc.stderr


def test_pytest_html_writes_the_report(tmp_path):
    out = tmp_path / "run.html"
    proc = subprocess.run([sys.executable, "-m", "pytest", "test_tooluse1.py", "-p", "no:cacheprovider", "-q",
                           "--model", "oracle", "--protocol", "xml", "-k", "get_time", "--html", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:]
    page = out.read_text(encoding="utf-8")
    assert f"HTML report: {out}" in proc.stdout
    assert page.count("<tr data-item=") == 10 and '<span class="score">1.000</span>' in page


def _need_chromium() -> str:
    path = chromium_path()
    if path is None:
        if shutil.which("apt-get"):
            pytest.fail("chromium is not installed although apt-get is available: run scripts/setup.sh "
                        "(it installs Debian's chromium for this test)")
        pytest.skip("no chromium and no apt-get on this machine (scripts/setup.sh installs chromium only "
                    "where apt-get exists)")
    return path


def test_hostile_report_renders_in_chromium_and_nothing_executes(hostile, runs, tmp_path):
    _need_chromium()
    results = load_results(hostile)
    page_path = tmp_path / "hostile.html"
    page_path.write_text(render_report(results, load_results(runs["oracle"])), encoding="utf-8")
    r = open_page(page_path, {
        "headline": "document.getElementById('headline').textContent",
        "headlines": "document.querySelectorAll('#headline').length",
        "title": "document.title",
        "scripts": "document.scripts.length",
        "imgs": "document.images.length",
        "svg_onload": "document.querySelectorAll('[onload],[onerror]').length",
        "rows": "document.querySelectorAll('#items tbody tr').length",
        "pre_text": "Array.from(document.querySelectorAll('#items pre')).map(p => p.textContent).join('\\n')",
        "evil_rows": "Array.from(document.querySelectorAll('#items tbody tr')).map(r => r.dataset.item)"
                     ".filter(i => i.startsWith('evil'))",
        "filtered": "(() => { const s = document.getElementById('f-passed'); s.value = '0';"
                    " s.dispatchEvent(new Event('change'));"
                    " const n = document.querySelectorAll('#items tbody tr:not([hidden])').length;"
                    " return [n, document.getElementById('f-count').textContent]; })()",
    }, height=1000)
    v = r.values
    score = results.summary["overall"]["score"]
    lo, hi = score["ci95_clustered"]
    assert v["headline"].split() == ["score", "(json+xml+plain)", f"{score['rate']:.3f}", "95%", "CI",
                                     f"[{lo:.3f},", f"{hi:.3f}]", "n", "=", str(N_ITEMS), "clustered", "by", "case:",
                                     str(score["n_cases"]), "cases,", "design", "effect",
                                     f"{score['design_effect']:.2f}"]
    assert v["headlines"] == 1                        # the injected <h1 id="headline"> is text, not an element
    assert v["title"].startswith("ToolUse.1 report")  # onerror did not rename the page
    assert v["scripts"] == 1 and v["imgs"] == 0 and v["svg_onload"] == 0
    assert v["rows"] == N_ITEMS
    assert r.dialogs == [] and r.exceptions == [] and r.console_errors == []
    assert {u.split(":", 1)[0] for u in r.requested_urls} == {"file"}   # nothing from the network
    for text in HOSTILE:                              # every hostile output is shown as text
        assert clean_text(text) in v["pre_text"], text
    assert v["evil_rows"] == [r.item_id for r in results.records if r.case.id == EVIL_ID]   # one, intact
    n_failed = sum(1 for rec in results.records if not rec.passed)
    assert v["filtered"] == [n_failed, f"{n_failed} of {N_ITEMS} items"]
    width, height = png_size(r.screenshot_png)
    assert 1200 <= width <= 1280 and height > 3000   # the whole page rendered, top to bottom
    assert len(r.screenshot_png) > 50_000             # not a blank image


def test_real_run_report_renders_in_chromium(runs, tmp_path):
    _need_chromium()
    page_path = tmp_path / "oracle.html"
    code = run_cli("report", str(runs["oracle"]), "-o", str(page_path))
    assert code.returncode == 0
    r = open_page(page_path, {"headline": "document.getElementById('headline').textContent",
                              "bars": "document.querySelectorAll('svg.chart rect').length"}, full_page=False)
    assert "score (json+xml+plain) 1.000" in r.values["headline"] and f"n = {N_ITEMS}" in r.values["headline"]
    assert r.values["bars"] >= 3 + 2 + 12 + 3 + 3    # one bar per group of every breakdown
    assert r.console_errors == [] and r.exceptions == []
    assert png_size(r.screenshot_png) == (1280, 900)
