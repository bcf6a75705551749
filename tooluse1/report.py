"""A results file as one self-contained HTML page: no network, no external file, opens from disk.

Sections: the headline score (Wilson 95% CI, n) with every metric; with a baseline, the paired
comparison and the flipped items first; bars with CI whiskers per protocol, language, category,
difficulty and negative kind; the output-label table (call / malformed / text / error against what was
expected); every item in a filterable table with its raw output, extraction and reason; provenance.

A sampled run (`--samples N`) adds its sampled summary (the mean of the per-item pass rates, pass@k and pass^k
for k = 1..N, the flip rate and the share of items all of whose samples passed, each with its interval
clustered by case); its output labels count every sample, and each item shows its pass rate c/N and every
sample's verdict, with each sample's output and extraction in a collapsed `<details>`. A greedy run's page
is what it was before sampling existed.

Raw model outputs (and every other string of a results file) are hostile input. Everything is escaped
by `esc` (which also replaces lone surrogates and control characters, so the page is always valid
UTF-8), nothing from the file is ever placed inside the script, and a Content-Security-Policy allows only
the page's own script (by hash) and inline styles, so even a mistake in escaping could not run code or
load anything.
"""
from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Sequence

from tooluse1.compare import Comparison, IncomparableError, PairedStats, compare, format_p, gate
from tooluse1.cost import throughput_text
from tooluse1.deployment import CLASSES, DESCRIPTIONS
from tooluse1.types import EXPECTATIONS
from tooluse1.metrics import BREAKDOWNS, METRICS, format_rate, interval
from tooluse1.results import ItemRecord, ResultsFile, scrub_secrets
from tooluse1.tracks import tracks
from tooluse1.types import LABELS as OUTPUT_LABELS

LABELS = (*OUTPUT_LABELS, "error")    # "error": the backend gave no answer
_DIM_TITLES = {"protocol": "protocol", "lang": "language", "category": "category", "difficulty": "difficulty",
               "kind": "negative kind"}
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


# ----------------------------------------------------------------------------- escaping

def clean_text(value: Any) -> str:
    """`value` as text that is always valid UTF-8 and shows every character: lone surrogates become
    U+FFFD, control characters (other than tab and newlines) their visible Unicode control pictures."""
    text = value if isinstance(value, str) else str(value)
    # Pairs of surrogates combine, lone ones are replaced.
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return _CONTROL.sub(lambda m: "\u2421" if m[0] == "\x7f" else chr(0x2400 + ord(m[0])), text)


def esc(value: Any) -> str:
    """HTML-escaped `clean_text(value)`: safe in element content and in quoted attribute values."""
    return html.escape(clean_text(value), quote=True)


def _fmt(x: float | None, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def _rate_text(d: dict | None) -> str:
    # the interval to report: clustered by case where the group pools protocols (with its design effect)
    if d is None:        # a metric the file's grader did not compute yet (truncated_rate before 3.0)
        return "not graded"
    return format_rate(d).strip() if d["n"] else "n/a (n=0)"


# ----------------------------------------------------------------------------- pieces

_CSS = """
:root{--ok:#1a7f37;--bad:#cf222e;--ink:#1f2328;--mute:#656d76;--line:#d0d7de;--bar:#0969da;--base:#8c959f}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);margin:0 auto;max-width:1280px;padding:20px 28px 60px}
h1{font-size:22px;margin:0 0 2px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:14px;margin:14px 0 4px}.sub{color:var(--mute);margin:0 0 14px}
.headline{display:flex;align-items:baseline;gap:18px;flex-wrap:wrap;padding:14px 18px;border:1px solid var(--line);border-radius:8px;background:#f6f8fa;margin-bottom:6px}
.headline .score{font-size:40px;font-weight:700}.headline .ci,.headline .n{font-size:16px;color:var(--mute)}
#native-headline .score{font-size:28px}
table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid var(--line);padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.pass{color:var(--ok);font-weight:600}.fail{color:var(--bad);font-weight:600}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(580px,1fr));gap:8px 24px}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;border:1px solid var(--line);border-radius:4px;padding:6px;margin:4px 0;max-height:360px;overflow:auto;font-size:12px}
details summary{cursor:pointer;color:var(--bar)}.filters{display:flex;gap:12px;flex-wrap:wrap;align-items:center;margin:8px 0}
.verdict{padding:8px 12px;border-radius:6px;font-weight:600;margin:6px 0}.verdict.ok{background:#dafbe1}.verdict.bad{background:#ffebe9}
.flip td{width:50%}.kv th{width:220px}.legend{color:var(--mute);font-size:12px}#board td.num{white-space:normal}#items td{overflow-wrap:anywhere}
"""  # noqa: E501 - the stylesheet is written into every report as is; re-wrapping it would change the pages

# The page's only script: it filters the item table. It reads the rows' data- attributes and never
# takes text from the results file into code.
_SCRIPT = """
(function(){
  var rows=Array.prototype.slice.call(document.querySelectorAll('#items tbody tr'));
  var sel=function(id){return document.getElementById(id);};
  function apply(){
    var p=sel('f-protocol').value,c=sel('f-category').value,s=sel('f-passed').value,l=sel('f-label').value,
        q=sel('f-text').value.toLowerCase(),shown=0;
    rows.forEach(function(r){
      var d=r.dataset,ok=(!p||d.protocol===p)&&(!c||d.category===c)&&(!s||d.passed===s)&&(!l||d.label===l)
        &&(!q||d.item.toLowerCase().indexOf(q)>=0);
      r.hidden=!ok;if(ok){shown++;}
    });
    sel('f-count').textContent=shown+' of '+rows.length+' items';
  }
  ['f-protocol','f-category','f-passed','f-label','f-text'].forEach(function(id){
    sel(id).addEventListener('input',apply);sel(id).addEventListener('change',apply);});
  apply();
})();
"""


def bar_chart(title: str, groups: dict[str, dict], base_groups: dict[str, dict] | None, text_w: int = 250) -> str:
    """An inline SVG: one bar per group with its Wilson 95% whisker and `rate [lo, hi] n`; with a
    baseline, a thin grey bar (and whisker) for the baseline's value above each."""
    names = list(groups) + [g for g in (base_groups or {}) if g not in groups]
    label_w, bar_w = 130, 200
    row_h = 30 if base_groups else 22
    height = 26 + row_h * len(names) + 8
    width = label_w + bar_w + text_w
    out = [f'<svg class="chart" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'xmlns="http://www.w3.org/2000/svg" font-family="system-ui,sans-serif" font-size="12">',
           f'<title>{esc(title)}</title>',
           f'<text x="0" y="14" font-weight="600">{esc(title)}</text>']
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        x = label_w + tick * bar_w
        out.append(f'<line x1="{x:.1f}" y1="20" x2="{x:.1f}" y2="{height - 6}" stroke="#eaeef2"/>')
    for i, name in enumerate(names):
        y = 24 + i * row_h
        out.append(f'<text x="{label_w - 6}" y="{y + row_h / 2 + 4:.1f}" text-anchor="end">{esc(name)}</text>')
        bars = []
        if base_groups:
            bars.append((base_groups.get(name, {}).get("score"), y + 3, 6, "#8c959f", "#57606a"))
        bars.append((groups.get(name, {}).get("score"), y + (12 if base_groups else 4), 12, "#0969da", "#1f2328"))
        for d, by, bh, fill, stroke in bars:
            if not d or not d["n"]:
                continue
            lo, hi, _ = interval(d)
            x0, xr, xl, xh = label_w, label_w + d["rate"] * bar_w, label_w + lo * bar_w, label_w + hi * bar_w
            mid = by + bh / 2
            out.append(f'<rect x="{x0}" y="{by}" width="{xr - x0:.1f}" height="{bh}" fill="{fill}" opacity="0.85"/>')
            line_style = f'stroke="{stroke}" stroke-width="1.4"'
            out.append(f'<line x1="{xl:.1f}" y1="{mid}" x2="{xh:.1f}" y2="{mid}" {line_style}/>')
            for xe in (xl, xh):
                out.append(f'<line x1="{xe:.1f}" y1="{mid - 4}" x2="{xe:.1f}" y2="{mid + 4}" {line_style}/>')
        d = groups.get(name, {}).get("score")
        text = format_rate(d, compact=True).strip() if d and d["n"] else "not in this run"
        out.append(f'<text x="{label_w + bar_w + 8}" y="{y + row_h / 2 + 4:.1f}">{esc(text)}</text>')
    out.append("</svg>")
    return "".join(out)


def _metrics_table(columns: Sequence[tuple[str, dict]], id_: str = "metrics") -> str:
    """Every metric (rows) for each (title, summary) column: rate [Wilson 95% CI] (n)."""
    head = "<tr><th>metric</th>" + "".join(f"<th>{esc(t)} [95% CI] (n)</th>" for t, _ in columns) + "</tr>"
    rows = []
    for name in METRICS:
        cells = "".join(f"<td class=num>{esc(_rate_text(s['overall'].get(name)))}</td>" for _, s in columns)
        rows.append(f"<tr><td>{esc(name)}</td>{cells}</tr>")
    return f'<table id="{id_}">{head}{"".join(rows)}</table>'


def _headline(label: str, summary: dict, id_: str = "headline") -> str:
    """A headline box: the pool's score with its interval and n (and the backend errors left out)."""
    score = summary["overall"]["score"]
    title = f'<span class="label">score ({esc(label)})</span> '
    if score["n"]:
        lo, hi, kind = interval(score)
        body = (f'<span class="score">{score["rate"]:.3f}</span> <span class="ci">95% CI [{lo:.3f}, {hi:.3f}]</span> '
                f'<span class="n">n = {score["n"]}</span>')
        if kind == "clustered":
            body += (f' <span class="n">clustered by case: {score["n_cases"]} cases, design effect '
                     f'{score["design_effect"]:.2f}</span>')
    else:
        body = '<span class="score">n/a</span> <span class="n">n = 0</span>'
    if summary["n_errors"]:
        body += f' <span class="n fail">{summary["n_errors"]} backend errors (excluded)</span>'
    return f'<div id="{id_}" class="headline" data-score="{esc(_fmt(score["rate"], 6))}">{title}{body}</div>'


def _cost_section(cost: dict) -> str:
    """What the run cost (tooluse1.cost): one row per figure the run has."""
    def quantiles(q: dict | None) -> str | None:
        return None if q is None else f"p50 {q['p50']:.2f} s, p90 {q['p90']:.2f} s, p99 {q['p99']:.2f} s"
    rows = [("tokens", f"{cost['prompt_tokens']:,} prompt, {cost['completion_tokens']:,} completion"
             + ("" if cost["reasoning_tokens"] is None else f" ({cost['reasoning_tokens']:,} reasoning)")
             + f"; usage reported for {cost['items_with_usage']}/{cost['n_items']} items"),
            ("latency per request", quantiles(cost["latency_s"])),
            ("time to first token", quantiles(cost["ttft_s"])),
            ("wall time", throughput_text(cost)),
            ("cost", None if cost["cost"] is None else
             f"{cost['cost']:.4f} (at {cost['price_in']:g} in / {cost['price_out']:g} out per million tokens)")]
    body = "".join(f"<tr><th>{esc(name)}</th><td>{esc(value)}</td></tr>" for name, value in rows if value)
    return f'<section><h2>Cost</h2><table id="cost">{body}</table></section>'


def _samples_section(results: ResultsFile) -> str:
    """A sampled run's summary (`summary.samples`, sampling.summarise_samples): one row per statistic with its
    mean and interval clustered by case, pass@k and pass^k for every k = 1..N; '' for a greedy run."""
    section = results.summary.get("samples")
    if not section:
        return ""
    decoding = results.provenance.get("decoding") or {}

    def row(name: str, d: dict) -> str:
        lo, hi = d["ci95_clustered"]
        value = "n/a" if d["mean"] is None else f"{d['mean']:.3f}"
        return (f'<tr><td>{esc(name)}</td><td class=num>{value}</td><td class=num>[{lo:.3f}, {hi:.3f}]</td>'
                f"<td class=num>{d['n']}</td><td class=num>{d['n_cases']}</td></tr>")
    rows = [row("mean score (mean of per-item pass rates)", section["mean"]),
            row("flip rate (items whose samples disagree)", section["flip_rate"]),
            row("all samples pass (what the pytest items report)", section["all_samples_pass"])]
    rows += [row(f"pass@{k}", d) for k, d in section["pass_at_k"].items()]
    rows += [row(f"pass^{k}", d) for k, d in section["pass_hat_k"].items()]
    how = (f"{section['n_samples']} samples per item at temperature {decoding.get('temperature', 0):g}, top-p "
           f"{decoding.get('top_p', 1):g}, sample seed {decoding.get('sample_seed')}; {section['n_items']} items")
    return (f'<section id="samples"><h2>Sampled trials</h2><p class=sub>{esc(how)}</p><p class=legend>Every rate '
            f"of this page is a mean over samples. pass@k: at least one of k samples passes; pass^k: all k pass "
            f"(unbiased estimates from the N samples of each item); each a mean over items with its 95% interval "
            f"clustered by case.</p><table id=\"samples-table\"><tr><th>statistic</th><th>mean</th>"
            f"<th>95% CI (clustered)</th><th>items</th><th>cases</th></tr>{''.join(rows)}</table></section>")


def _native_section(results: ResultsFile, label: str) -> str:
    """The native protocol apart (SPEC §3.4): its own metrics, never pooled into the headline; '' without it."""
    if label == "native" or not any(r.protocol == "native" for r in results.records):
        return ""
    native = results.summary_of(["native"])
    return (f'<section id="native"><h2>Native protocol (reported apart)</h2><p class=legend>Tools passed the way '
            f'the model is deployed (the chat template\'s or the API\'s own tool field). Its items are not in the '
            f'headline, which pools {esc(label)}, the protocols every model is given alike.</p>'
            f'{_headline("native", native, "native-headline")}<p class=legend>Every native metric is in the last '
            f"column of the table above.</p></section>")


def _label_table(records: Sequence[ItemRecord]) -> str:
    """Expected kind against output label, counting every answer (each sample of a sampled item)."""
    answers = [a for r in records for a in r.answers()]
    counts = Counter((r.case.expectation, r.label) for r in answers)
    passed = Counter(r.case.expectation for r in answers if r.passed)
    totals = Counter(r.case.expectation for r in answers)
    unit = "answers (samples)" if len(answers) != len(records) else "items"
    head = "<tr><th>expected \u2193 / output \u2192</th>" + "".join(f"<th>{label}</th>" for label in LABELS) + \
           f"<th>{unit}</th><th>passed</th></tr>"
    rows = []
    for e in EXPECTATIONS:
        if not totals[e]:
            continue
        cells = "".join(f"<td class=num>{counts[(e, label)]}</td>" for label in LABELS)
        rows.append(f"<tr><th>{e}</th>{cells}<td class=num>{totals[e]}</td><td class=num>{passed[e]}</td></tr>")
    return (f'<table id="labels">{head}{"".join(rows)}</table><p class=legend>call = a well-formed call was '
            f'extracted; malformed = a call attempt that does not parse; text = no call; error = the backend '
            f'gave no answer (excluded from every rate).</p>')


def expected_text(r: ItemRecord) -> str:
    """What the item expected, in one line (only the kind for format-1 records)."""
    e = r.case.expect
    if not r.expect_known:
        return f"{e.kind} (details not stored in this format-1 file)"
    return e.describe()


def _extraction_text(r: ItemRecord) -> str:
    ex = r.extraction
    if ex is None:
        return f"no extraction (backend error: {r.completion.error})"
    d = ex.as_dict()
    return json.dumps(d, ensure_ascii=False, indent=1)


def _reason(r: ItemRecord) -> str:
    return r.verdict.reason if r.verdict else f"backend error: {r.completion.error}"


def _mark(passed: bool) -> str:
    return '<span class="pass">pass</span>' if passed else '<span class="fail">fail</span>'


def _samples_cell(r: ItemRecord) -> str:
    """A sampled item's reason cell: its pass rate c/N, then one collapsed `<details>` per sample whose summary
    (always visible) is the sample's verdict and reason and whose body is its output and extraction."""
    answers = r.answers()
    c = sum(a.passed for a in answers)
    parts = [f'<span class="pass-rate">{c}/{len(answers)} samples passed</span>']
    for j, a in enumerate(answers):
        seed = a.completion.seed
        parts.append(
            f'<details class="sample" data-sample="{j}"><summary>sample {j}: {_mark(a.passed)} [{esc(a.label)}] '
            f"{esc(_reason(a))}</summary>"
            f"<h3>raw output ({len(a.completion.text)} chars, finish {esc(a.completion.finish_reason)}"
            + (f", seed {seed}" if seed is not None else "") + f")</h3><pre>{esc(a.completion.text)}</pre>"
            f"<h3>extraction</h3><pre>{esc(_extraction_text(a))}</pre></details>")
    parts.append(f"<details><summary>expected</summary><pre>{esc(expected_text(r))}</pre></details>")
    return "".join(parts)


def _item_rows(records: Sequence[ItemRecord]) -> str:
    rows = []
    for r in records:
        reason = _reason(r)
        mark = _mark(r.passed)
        if r.samples:     # every sample's verdict and output, not sample 0's alone
            mark += f" {sum(s.passed for s in r.samples)}/{len(r.samples)}"
        rows.append(
            f'<tr data-item="{esc(r.item_id)}" data-protocol="{esc(r.protocol)}" '
            f'data-category="{esc(r.case.category)}" data-passed="{"1" if r.passed else "0"}" '
            f'data-label="{esc(r.label)}">'
            f"<td>{esc(r.item_id)}</td><td>{esc(r.protocol)}</td><td>{esc(r.case.category)}</td>"
            f"<td>{esc(r.case.lang)}</td><td>{esc(r.case.difficulty)}</td><td>{esc(r.label)}</td><td>{mark}</td>"
            + (f"<td>{_samples_cell(r)}</td></tr>" if r.samples else
               f"<td>{esc(reason)}<details><summary>output, extraction, expected</summary>"
               f"<h3>expected</h3><pre>{esc(expected_text(r))}</pre>"
               f"<h3>raw output ({len(r.completion.text)} chars, finish {esc(r.completion.finish_reason)})</h3>"
               f"<pre>{esc(r.completion.text)}</pre><h3>extraction</h3><pre>{esc(_extraction_text(r))}</pre>"
               f"</details></td></tr>"))
    return "".join(rows)


def _select(id_: str, label: str, values: Iterable[tuple[str, str]]) -> str:
    opts = "".join(f'<option value="{esc(v)}">{esc(t)}</option>' for v, t in values)
    return f'<label>{label} <select id="{id_}"><option value="">all</option>{opts}</select></label>'


def _items_section(records: Sequence[ItemRecord]) -> str:
    protocols = list(dict.fromkeys(r.protocol for r in records))
    categories = sorted({r.case.category for r in records})
    filters = ('<div class="filters">'
               + _select("f-protocol", "protocol", ((p, p) for p in protocols))
               + _select("f-category", "category", ((c, c) for c in categories))
               + _select("f-passed", "passed", (("1", "passed"), ("0", "failed")))
               + _select("f-label", "label", ((label, label) for label in LABELS))
               + '<label>item <input id="f-text" type="search" placeholder="id contains"></label>'
               + '<span id="f-count" class="legend"></span></div>')
    head = ("<thead><tr><th>item</th><th>protocol</th><th>category</th><th>lang</th><th>difficulty</th><th>label</th>"
            "<th>passed</th><th>reason</th></tr></thead>")
    return (f'<section><h2>Items</h2>{filters}<table id="items">{head}<tbody>{_item_rows(records)}</tbody>'
            f"</table></section>")


def _provenance_rows(p: dict) -> list[tuple[str, str]]:
    model, backend = p.get("model", {}), p.get("backend", {})
    corpus = p.get("corpus", {})
    rows = [
        ("model", model.get("model_id")),
        ("revision", model.get("revision") or backend.get("revision")),
        ("backend", model.get("backend")),
        ("base URL", model.get("base_url")),
        ("chat template sha256", backend.get("chat_template_sha256")),
        ("dtype / device", " / ".join(str(x) for x in (backend.get("loaded_dtype") or model.get("dtype"),
                                                       backend.get("device")) if x)),
        ("decoding", json.dumps(p.get("decoding"), ensure_ascii=False)),
        ("batch size", p.get("batch_size")),
        ("protocols", ", ".join(p.get("protocols", []))),
        ("spec version", p.get("spec_version")),
        ("corpus sha256", f"{corpus.get('sha256')} (version {corpus.get('version')}, {corpus.get('n_cases')} cases)"),
        ("prompt sha256", p.get("prompt_sha256") or "not recorded"),
        ("libraries", ", ".join(f"{k} {v}" for k, v in (p.get("libraries") or {}).items())),
        ("items resumed / generated", f"{p.get('resumed_items')} / {p.get('generated_items')}"),
        ("started / finished", f"{p.get('started_at')} / {p.get('finished_at')}"),
        ("command", p.get("command")),
    ]
    if p.get("regrade"):
        rows.append(("re-graded", json.dumps(p["regrade"], ensure_ascii=False)))
    return [(k, "" if v is None else str(v)) for k, v in rows]


def _provenance_section(results: ResultsFile, baseline: ResultsFile | None) -> str:
    mine = _provenance_rows(scrub_secrets(results.provenance))
    theirs = dict(_provenance_rows(scrub_secrets(baseline.provenance))) if baseline else None
    head = "<tr><th></th><th>this run</th>" + ("<th>baseline</th>" if theirs is not None else "") + "</tr>"
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td>"
                   + (f"<td>{esc(theirs.get(k, ''))}</td>" if theirs is not None else "") + "</tr>" for k, v in mine)
    return f'<section><h2>Provenance</h2><table class="kv" id="provenance">{head}{rows}</table></section>'


def _stats_row(name: str, s: PairedStats) -> str:
    two, worse = s.clustered_p_values
    lo, hi = s.diff_ci
    d = s.as_dict()

    def rate(r: dict) -> str:   # n is the row's; the design effect of each score is in the breakdowns
        lo, hi, _ = interval(r)
        return f"{r['rate']:.3f} [{lo:.3f}, {hi:.3f}]" if r["n"] else "n/a"
    return (f"<tr><td>{esc(name)}</td><td class=num>{s.n}</td><td class=num>{esc(rate(d['base']))}</td>"
            f"<td class=num>{esc(rate(d['new']))}</td>"
            f"<td class=num>{esc(f'{s.diff:+.3f} [{lo:+.3f}, {hi:+.3f}]' if s.n else 'n/a')}</td>"
            f"<td class=num>{s.paired.design_effect:.2f}</td>"
            f"<td class=num>{s.worse}</td><td class=num>{s.better}</td><td class=num>{format_p(worse)}</td>"
            f"<td class=num>{format_p(two)}</td><td class=num>{format_p(s.p_values[1])}</td></tr>")


def _comparison_section(cmp: Comparison, alpha: float, max_drop: float | None) -> str:
    decision = gate(cmp, alpha, max_drop)
    verdict = ("<div class='verdict bad'>significantly worse or over the allowed drop: "
               + esc("; ".join(decision.reasons)) + "</div>" if decision.failed else
               f"<div class='verdict ok'>not significantly worse than the baseline (exact sign-flip test on case-level "
               f"differences, one-sided alpha {alpha})</div>")
    verdict += (f"<p class=legend>{esc(decision.power)}. Intervals and p are clustered by case where a row pools "
                f"protocols (deff: design effect of the difference; p: exact sign-flip test on case-level differences, "
                f"the gate's); McNemar p counts items as if independent, for reference.</p>")
    head = ("<tr><th>group</th><th>pairs</th><th>baseline [95% CI]</th><th>this run [95% CI]</th>"
            "<th>difference [95% CI]</th><th>deff</th><th>pass\u2192fail</th>"
            "<th>fail\u2192pass</th><th>p (worse)</th><th>p (two-sided)</th><th>McNemar p (worse)</th></tr>")
    rows = [_stats_row("overall (json+xml+plain)", cmp.overall)]
    if cmp.native is not None:
        rows.append(_stats_row("native (not in overall)", cmp.native))
    for dim, groups in cmp.groups.items():
        rows += [_stats_row(f"{_DIM_TITLES[dim]} = {g}", s) for g, s in groups.items()]
    notes = "".join(f"<p class=legend>{esc(n)}</p>" for n in cmp.notes)
    left = []
    if cmp.only_in_base or cmp.only_in_new or cmp.errors_excluded:
        left.append(f"<p class=legend>left out: {cmp.only_in_base} items only in the baseline, {cmp.only_in_new} only "
                    f"in this run, {cmp.errors_excluded} with a backend error in either.</p>")
    flips = []
    for f in cmp.flips:
        cells = []
        for side, r in (("baseline", f.base), ("this run", f.new)):
            if r.samples:     # a sampled side flips by its pass rate: show every sample
                cells.append(f"<td><b>{side}</b>: {_samples_cell(r)}</td>")
                continue
            cells.append(f"<td><b>{side}</b>: <span class='{'pass' if r.passed else 'fail'}'>"
                         f"{'pass' if r.passed else 'fail'}</span> [{esc(r.label)}] {esc(_reason(r))}"
                         f"<pre>{esc(r.completion.text)}</pre></td>")
        flips.append(f"<tr><th colspan=2>{esc(f.direction)} {esc(f.base.item_id)} "
                     f"<span class=legend>expected: {esc(expected_text(f.new))}</span></th></tr>"
                     f"<tr class='flip'>{''.join(cells)}</tr>")
    n_worse = sum(1 for f in cmp.flips if f.direction == "pass->fail")
    return (f'<section id="comparison"><h2>Against the baseline</h2>'
            f"<p class=sub>baseline {esc(cmp.base_source)}</p>{verdict}{notes}{''.join(left)}"
            f"<table>{head}{''.join(rows)}</table>"
            f'<h3 id="flips">Flipped items: {n_worse} pass\u2192fail, {len(cmp.flips) - n_worse} fail\u2192pass</h3>'
            f'<table id="flip-table">{"".join(flips)}</table>{_deployment_table(cmp)}</section>')


def _deployment_table(cmp: Comparison) -> str:
    """Deployment conformance (tooluse1.deployment): the class counts and the first examples of each."""
    c = cmp.deployment
    if c is None:
        return ""
    rows = "".join(f"<tr><td>{esc(cls)}</td><td class=num>{c.counts[cls]}</td><td>{esc(DESCRIPTIONS[cls])}</td>"
                   "<td>" + "".join(f"<details><summary>{esc(b.item_id)}</summary><b>baseline</b>"
                                    f"<pre>{esc(b.completion.text)}</pre>{_tool_calls(b)}<b>this run</b>"
                                    f"<pre>{esc(n.completion.text)}</pre>{_tool_calls(n)}</details>"
                                    for b, n in c.examples.get(cls, [])) + "</td></tr>" for cls in CLASSES)
    verdict = "no call lost, gained, moved or changed" if c.conformant else "calls differ"
    how = ("sample by sample: sample j of an item against its sample j in the baseline, drawn with the same seed; "
           "between serving engines seeded samples also differ by chance" if c.sampled else "item by item")
    return (f'<h3 id="deployment">Deployment conformance: {esc(verdict)} ({c.n_items} {esc(c.unit)})</h3>'
            f"<p class=legend>What each answer became, {how} (calls as the grader extracts them).</p>"
            f'<table id="deployment-table"><tr><th>class</th><th>items</th><th>meaning</th><th>examples</th></tr>'
            f"{rows}</table>")


def _tool_calls(r: ItemRecord) -> str:
    calls = r.completion.tool_calls
    return f"<pre>tool_calls: {esc(json.dumps(calls, ensure_ascii=False))}</pre>" if calls else ""


# ----------------------------------------------------------------------------- the page

def _chart_groups(run: ResultsFile, pooled: dict | None, dim: str) -> dict:
    """A breakdown's groups for the charts: every protocol for `protocol`, else the headline pool's groups."""
    return (run.summary if dim == "protocol" or pooled is None else pooled)["by"].get(dim, {})


def _track_sections(results: ResultsFile) -> str:
    """The HTML of each track whose section the file holds (SPIN: the committed study of when it pays)."""
    return "".join(t.report_section(results.document) for name, t in tracks().items() if name in results.document)


def _grader_card_section() -> str:
    """How far the grader itself is to be trusted: the stored grader accuracy card (tooluse1.gradercard), one
    line per labelled set, with its held-out sets marked; empty when the package carries no card."""
    from tooluse1.gradercard import stored_card
    card = stored_card()
    if card is None:
        return ""
    rows = "".join(
        f"<tr><td>{esc(s['name'])}{' (held out)' if s['held_out'] else ''}</td><td>{s['total']['n']}</td>"
        f"<td>{_fmt(s['total']['rate'])}</td><td>[{_fmt(s['total']['ci'][0])}, {_fmt(s['total']['ci'][1])}]</td>"
        f"<td>{_fmt(s['total']['always_pass'])}</td><td>{esc(s['note'])}</td></tr>" for s in card["sources"])
    return (f'<section id="grader-card"><h2>Grader accuracy (spec {esc(card["spec_version"])})</h2><p class=legend>'
            f"Agreement of the grader with independently written and labelled outputs (Wilson 95% interval; "
            f"a grader that always passes reaches the last figure). Per kind and language: "
            f"<code>python -m tooluse1 grader-card</code>.</p><table><tr><th>set</th><th>n</th><th>agrees</th>"
            f"<th>95% CI</th><th>always pass</th><th></th></tr>{rows}</table></section>")


def render_report(results: ResultsFile, baseline: ResultsFile | None = None, comparison: Comparison | None = None,
                  *, alpha: float = 0.05, max_drop: float | None = None, allow_different_prompts: bool = False,
                  strict: bool = False, allow_decoding_change: bool = False) -> str:
    """The whole HTML page. With a baseline and no `comparison`, the runs are compared here; when they are
    not comparable the page says why (or, with `strict`, IncomparableError is raised)."""
    records = results.records
    label, summary = results.headline()
    base_summary = baseline.summary_of(label.split("+")) if baseline else None
    note = ""
    if baseline is not None and comparison is None:
        try:
            comparison = compare(baseline, results, allow_different_prompts=allow_different_prompts,
                                 allow_decoding_change=allow_decoding_change)
        except IncomparableError as e:
            if strict:
                raise
            note = f"<div class='verdict bad'>no comparison: {esc(e)}</div>"
    model = results.provenance.get("model", {}).get("model_id", "?")
    charts = "".join(bar_chart(f"score by {_DIM_TITLES[dim]}", _chart_groups(results, summary, dim),
                                _chart_groups(baseline, base_summary, dim) if baseline else None)
                     for dim in BREAKDOWNS if results.summary["by"].get(dim))
    legend = (f"<p class=legend>Bars: score with its 95% interval (whiskers: clustered by case where a group pools "
              f"protocols, with the design effect; Wilson within one protocol) and n; every breakdown but the protocol "
              f"one pools {esc(label)}" + ("; thin grey bars: the baseline's" if base_summary else "") + ".</p>")
    columns = [(f"this run, {label}", summary)] + ([(f"baseline, {label}", base_summary)] if base_summary else [])
    if _native_section(results, label):
        columns.append(("this run, native (apart)", results.summary_of(["native"])))
    body = [
        f"<header><h1>ToolUse.1 report</h1><p class=sub>{esc(model)} \u2014 {len(records)} items, "
        f"{esc(results.source)}</p></header>",
        f"<section>{_headline(label, summary)}", _metrics_table(columns), "</section>",
        _samples_section(results),
        _cost_section(results.document["cost"]),
        _native_section(results, label),
        note,
        _comparison_section(comparison, alpha, max_drop) if comparison else "",
        f'<section><h2>Breakdowns</h2>{legend}<div class="charts">{charts}</div></section>',
        f"<section><h2>Output labels</h2>{_label_table(records)}</section>",
        _track_sections(results),
        _items_section(records),
        _grader_card_section(),
        _provenance_section(results, baseline),
    ]
    return render_page(f"ToolUse.1 report \u2014 {model}", "".join(body), _SCRIPT)


def render_page(title: str, body: str, script: str | None = None) -> str:
    """A whole self-contained page: `title` (escaped here), `body` (HTML built with `esc`), the shared style,
    and at most one inline script that the Content-Security-Policy allows by its hash (none: no script runs)."""
    allowed = "'none'"
    if script is not None:
        allowed = "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode() + "'"
    csp = f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src {allowed}"
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title><style>{_CSS}</style></head><body>"
            + body + (f"<script>{script}</script>" if script is not None else "") + "</body></html>\n")


def write_report(path: Path, results: ResultsFile, baseline: ResultsFile | None = None,
                 comparison: Comparison | None = None, **options: Any) -> None:
    """Write `render_report(...)` to `path` (UTF-8), creating its folder."""
    path = Path(path)
    page = render_report(results, baseline, comparison, **options)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
