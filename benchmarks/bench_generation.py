"""Generation speed of the ways to run the benchmark's model on CPU, on one stratified subset, same machine.

    python benchmarks/bench_generation.py --model default --max-new-tokens 256 --threads 1 \
        --modes naive,plain,fast,serve_cb --out benchmarks/results/bench_generation.json

(add ``--reuse FILE`` to keep the finished modes of an earlier report measured with the same settings)

Modes (each runs in its own subprocess, so its peak RSS is its own; model load time is excluded from its
wall time and reported separately):

- ``naive``    (a) one ``model.generate`` per item at batch 1 on the full prompt, the quick-script way.
- ``plain``    (b) ``TransformersBackend(fast=False)``: static batches, left padding, sorted longest-first
                   (the lm-eval way), ``--plain-batch`` rows.
- ``fast``     (c) ``TransformersBackend(fast=True)``: shared-prefix KV cache + refilled decode batch,
                   ``--fast-batch`` rows.
- ``serve_cb`` (d) ``OpenAIBackend`` against ``transformers serve --continuous-batching``
                   (``--concurrency`` requests in flight); ``serve`` is the same without continuous batching.
- ``generate_batch``  transformers' own continuous batching (``model.generate_batch``, paged KV cache,
                   ``allow_block_sharing=True``), the library candidate for the fast path.
- ``fast_full`` the fast path on every item of the corpus (the full run), timed the same way.

Subset: ``--cases`` cases (default 16) x all three protocols, picked round-robin over the 12 categories in
corpus order with alternating languages, so every category and both languages occur. Every output is graded
with ``tooluse1.grade.grade``; agreement with ``naive`` = the share of items with the same passed verdict.
Prints a markdown table and writes one JSON file (per-mode numbers, per-item outputs, machine load).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooluse1.corpus import CATEGORIES, LANGS, load_corpus  # noqa: E402
from tooluse1.prompts import PROTOCOLS, render  # noqa: E402

ALL_MODES = ("naive", "plain", "fast", "serve_cb", "serve", "generate_batch", "fast_full")
LABELS = {"naive": "(a) naive generate, batch 1", "plain": "(b) static batches, left pad (fast=False)",
          "fast": "(c) prefix cache + refill (fast=True)", "serve_cb": "(d) transformers serve --continuous-batching",
          "serve": "(d') transformers serve, no continuous batching",
          "generate_batch": "(e) model.generate_batch (paged, block sharing)",
          "fast_full": "(c) full corpus, fast=True"}


def select_cases(cases, n_cases: int):
    """``n_cases`` cases covering every category and both languages, with the corpus's mix of prompt kinds.

    Two strata: cases offered every tool (the big shared-prefix groups, ~84% of the corpus) and cases offered
    a smaller tool set (short prompts in groups of one or two); each gets its corpus share of the picks. In a
    stratum, picks go round-robin over the categories (corpus order), pick k preferring language
    ``LANGS[k % 2]`` and taking the category's first unused case, so the choice is deterministic.
    """
    n_tools = max(len(c.tools) for c in cases)
    strata = [[c for c in cases if len(c.tools) == n_tools], [c for c in cases if len(c.tools) < n_tools]]
    n_small = round(n_cases * len(strata[1]) / len(cases)) if strata[1] else 0
    picked: list = []
    for stratum, quota in ((strata[0], n_cases - n_small), (strata[1], n_small)):
        pools = {cat: {lang: [c for c in stratum if c.category == cat and c.lang == lang] for lang in LANGS}
                 for cat in CATEGORIES}
        got: list = []
        while len(got) < quota and any(any(p.values()) for p in pools.values()):
            for cat in CATEGORIES:
                if len(got) == quota:
                    break
                want = LANGS[(len(picked) + len(got)) % 2]
                for lang in (want, *[lg for lg in LANGS if lg != want]):
                    if pools[cat][lang]:
                        got.append(pools[cat][lang].pop(0))
                        break
        picked += got
    return picked


class RssSampler:
    """Peak RSS of other processes (a server), sampled every 0.5 s with psutil (getrusage sees only us)."""

    def __init__(self, pid: int) -> None:
        import psutil
        self.proc, self.peak, self._stop = psutil.Process(pid), 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                rss = self.proc.memory_info().rss + sum(c.memory_info().rss for c in self.proc.children(True))
                self.peak = max(self.peak, rss)
            except Exception:  # noqa: BLE001 - the server may be exiting
                pass
            self._stop.wait(0.5)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # Linux: KiB


# ----------------------------------------------------------------------------------------- one mode (worker)

def run_worker(args: argparse.Namespace) -> dict:
    import torch
    from tooluse1.backends.base import DecodingConfig
    from tooluse1.models import resolve_model

    torch.set_num_threads(args.threads)
    cases, _ = load_corpus()
    if args.mode == "fast_full":
        chosen = cases
    else:
        chosen = select_cases(cases, args.cases)
    prompts = [render(c, p) for c in chosen for p in PROTOCOLS]
    decoding = DecodingConfig(max_new_tokens=args.max_new_tokens)
    resolved = resolve_model(args.model)
    out: dict = {"mode": args.mode, "items": len(prompts), "threads": args.threads,
                 "loadavg_before": os.getloadavg()}
    extra: dict = {}
    t_load = time.perf_counter()
    partial = args.worker_out.with_suffix(".partial.jsonl").open("w")
    clock = {"started": None}

    def progress(record: dict) -> None:
        """One line per finished item with its finish time, so a run cut off by --mode-timeout still counts."""
        partial.write(json.dumps({**record, "t": time.perf_counter() - clock["started"]}) + "\n")
        partial.flush()

    if args.mode in ("naive", "plain", "fast", "fast_full", "generate_batch"):
        from tooluse1.backends.transformers_backend import TransformersBackend
        batch = {"plain": args.plain_batch, "naive": 1, "generate_batch": 1}.get(args.mode, args.fast_batch)
        backend = TransformersBackend(resolved, dtype=args.dtype, batch_size=batch, threads=args.threads,
                                      fast=args.mode in ("fast", "fast_full"))
        out["load_s"] = round(time.perf_counter() - t_load, 2)
        out["batch_size"] = batch
        started = clock["started"] = time.perf_counter()
        if args.mode == "naive":
            records = _naive(backend, prompts, args.max_new_tokens, progress)
        elif args.mode == "generate_batch":
            records, extra = _generate_batch(backend, prompts, args.max_new_tokens, args.cb_num_blocks)
        else:
            completions = backend.generate(prompts, decoding, lambda c: progress(_record(c)))
            records = [_record(c) for c in completions]
            if backend.last_fast_stats is not None:
                extra["fast_stats"] = backend.last_fast_stats.as_dict()
        out["wall_s"] = time.perf_counter() - started
        out["peak_rss_mb"] = round(_peak_rss_mb(), 1)
    else:   # serve_cb / serve
        from tooluse1.backends.openai_backend import OpenAIBackend
        from tooluse1.serve import start_transformers_serve
        cb_args = ("--cb-num-blocks", str(args.cb_num_blocks)) if args.mode == "serve_cb" else ()
        with start_transformers_serve(resolved.path, continuous_batching=args.mode == "serve_cb",
                                      threads=args.threads, timeout_s=600, extra_args=cb_args) as server:
            out["load_s"] = round(time.perf_counter() - t_load, 2)
            sampler = RssSampler(server.pid)
            backend = OpenAIBackend(server.base_url, server.model, concurrency=args.concurrency,
                                    request_timeout=24 * 3600, max_retries=0)
            backend.check()
            started = clock["started"] = time.perf_counter()
            completions = backend.generate(prompts, decoding, lambda c: progress(_record(c)))
            out["wall_s"] = time.perf_counter() - started
            out["server_peak_rss_mb"] = round(sampler.stop() / 2**20, 1)
            out["peak_rss_mb"] = round(_peak_rss_mb(), 1)
            out["concurrency"] = args.concurrency
            out["server_args"] = list(cb_args)
            records = [_record(c) for c in completions]
            if any(r["completion_tokens"] is None for r in records):   # count with the model's tokenizer
                from transformers import AutoTokenizer
                tok = AutoTokenizer.from_pretrained(resolved.path)
                for r in records:
                    if r["completion_tokens"] is None:
                        r["completion_tokens"] = len(tok(r["text"], add_special_tokens=False)["input_ids"])
    out["loadavg_after"] = os.getloadavg()
    out["generated_tokens"] = sum(r["completion_tokens"] or 0 for r in records)
    out["errors"] = sum(1 for r in records if r["finish_reason"] == "error")
    out.update(extra)
    out["records"] = records
    return out


def _record(c) -> dict:
    return {"item_id": c.item_id, "text": c.text, "finish_reason": c.finish_reason,
            "completion_tokens": c.completion_tokens, "prompt_tokens": c.prompt_tokens, "error": c.error}


def _naive(backend, prompts, max_new: int, progress) -> list[dict]:
    """What a quick script does: render, tokenize, ``model.generate`` one item at a time, decode."""
    import torch
    from transformers import GenerationConfig
    gen = GenerationConfig(do_sample=False, max_new_tokens=max_new, eos_token_id=list(backend.stop_ids),
                           pad_token_id=backend.pad.token_id)
    records = []
    for p in prompts:
        ids = torch.tensor([backend._encode(p)])
        with torch.inference_mode():
            out = backend.model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), generation_config=gen)
        text, reason, n, _ = backend.finish_row(out[0, ids.shape[1]:].tolist())
        records.append({"item_id": p.item_id, "text": text, "finish_reason": reason, "completion_tokens": n,
                        "prompt_tokens": ids.shape[1], "error": None})
        progress(records[-1])
    return records


def _generate_batch(backend, prompts, max_new: int, num_blocks: int) -> tuple[list[dict], dict]:
    """transformers' continuous batching with prefix block sharing (candidate (2) of the design).

    ``num_blocks`` caps its paged KV cache (on CPU it otherwise sizes itself from free RAM: 11 GB for
    the 135M model here)."""
    import torch
    from transformers import GenerationConfig
    from transformers.generation.configuration_utils import ContinuousBatchingConfig
    gen = GenerationConfig(do_sample=False, max_new_tokens=max_new, eos_token_id=list(backend.stop_ids),
                           pad_token_id=backend.pad.token_id)
    cb = ContinuousBatchingConfig(allow_block_sharing=True, num_blocks=num_blocks)
    inputs = [backend._encode(p) for p in prompts]
    with torch.inference_mode():
        outputs = backend.model.generate_batch(inputs=inputs, generation_config=gen,
                                               continuous_batching_config=cb, progress_bar=False)
    # Results are keyed by request id "req_<i>" in input order.
    by_index = {}
    for key, res in outputs.items():
        by_index[int(str(key).rsplit("_", 1)[-1])] = res
    records = []
    for i, p in enumerate(prompts):
        generated = list(by_index[i].generated_tokens)
        text, reason, n, _ = backend.finish_row(generated)
        records.append({"item_id": p.item_id, "text": text, "finish_reason": reason, "completion_tokens": n,
                        "prompt_tokens": len(inputs[i]), "error": None})
    return records, {"continuous_batching_config": {"allow_block_sharing": True, "num_blocks": num_blocks}}


# ----------------------------------------------------------------------------------------- orchestration

def grade_records(records: list[dict], cases_by_id: dict) -> list[bool | None]:
    from tooluse1.grade import grade
    verdicts = []
    for r in records:
        case_id, protocol = r["item_id"].rsplit("-", 1)
        verdicts.append(None if r["finish_reason"] == "error"
                        else bool(grade(cases_by_id[case_id], r["text"], protocol).passed))
    return verdicts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="default")
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--max-new-tokens", type=int, default=256)
    ap.add_argument("--cases", type=int, default=16, help="cases in the subset (x 3 protocols)")
    ap.add_argument("--threads", type=int, default=2, help="torch threads of every mode (and of the server)")
    ap.add_argument("--plain-batch", type=int, default=8)
    ap.add_argument("--fast-batch", type=int, default=32)
    ap.add_argument("--concurrency", type=int, default=16, help="requests in flight for the serve modes")
    ap.add_argument("--cb-num-blocks", type=int, default=256,
                    help="paged KV cache blocks (256 tokens each) for serve_cb and generate_batch")
    ap.add_argument("--mode-timeout", type=float, default=None,
                    help="seconds per mode; a mode cut off is reported from the items it finished")
    ap.add_argument("--modes", default="naive,plain,fast,serve_cb")
    ap.add_argument("--out", type=Path, default=None, help="JSON results file (default: stdout only)")
    ap.add_argument("--reuse", type=Path, default=None,
                    help="an earlier results file: its complete modes measured with the same settings are kept, "
                         "not rerun (a long benchmark resumes mode by mode)")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--worker-out", type=Path, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.worker:
        args.mode = args.worker
        result = run_worker(args)
        args.worker_out.write_text(json.dumps(result))
        return

    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = [m for m in modes if m not in ALL_MODES]
    if unknown:
        ap.error(f"unknown mode(s) {unknown}; choose from {', '.join(ALL_MODES)}")
    cases, manifest = load_corpus()
    cases_by_id = {c.id: c for c in cases}
    chosen = select_cases(cases, args.cases)
    command = " ".join([Path(sys.executable).name, *sys.argv])
    report: dict = {"command": command, "model": args.model, "dtype": args.dtype, "threads": args.threads,
                    "max_new_tokens": args.max_new_tokens, "corpus_sha256": manifest.get("sha256"),
                    "subset": {"cases": [c.id for c in chosen], "items": len(chosen) * len(PROTOCOLS),
                               "categories": sorted({c.category for c in chosen}),
                               "languages": sorted({c.lang for c in chosen})},
                    "mode_settings": {k: getattr(args, k) for k in MODE_SETTINGS_USED},
                    "cpu_count": os.cpu_count(), "modes": {}}
    reusable = _reusable_modes(args.reuse, report) if args.reuse else {}
    for mode in modes:
        if mode in reusable:
            report["modes"][mode] = reusable[mode] | {"reused_from": str(args.reuse)}
            print(f"[bench] {mode}: kept from {args.reuse}", file=sys.stderr, flush=True)
            continue
        tmp = Path(f"/tmp/bench_generation_{os.getpid()}_{mode}.json")
        cmd = [sys.executable, __file__, "--worker", mode, "--worker-out", str(tmp),
               *sum(([f"--{k.replace('_', '-')}", str(v)] for k, v in vars(args).items()
                     if k in ("model", "dtype", "max_new_tokens", "cases", "threads", "plain_batch", "fast_batch",
                              "concurrency", "cb_num_blocks")), [])]
        print(f"[bench] {mode}: running (load {os.getloadavg()[0]:.2f}) ...", file=sys.stderr, flush=True)
        env = {**os.environ, "OMP_NUM_THREADS": str(args.threads), "MKL_NUM_THREADS": str(args.threads)}
        partial = tmp.with_suffix(".partial.jsonl")
        proc = subprocess.Popen(cmd, env=env, start_new_session=True)
        try:
            proc.wait(timeout=args.mode_timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)     # the worker and its server, if any
            proc.wait()
        if tmp.exists():
            result = json.loads(tmp.read_text())
            tmp.unlink()
        else:
            result = _partial_result(mode, partial, args, proc.returncode)
            if result is None:
                report["modes"][mode] = {"error": f"worker exited with {proc.returncode}, nothing finished"}
                continue
        partial.unlink(missing_ok=True)
        result["verdicts"] = grade_records(result["records"], cases_by_id)
        result["items_per_s"] = result["items"] / result["wall_s"]
        result["gen_tokens_per_s"] = result["generated_tokens"] / result["wall_s"]
        report["modes"][mode] = result
        print(f"[bench] {mode}: {result['wall_s']:.1f} s, {result['items_per_s']:.4f} items/s", file=sys.stderr,
              flush=True)
        if args.out:   # keep partial results of a long run
            _write(report, args.out)

    _compare(report)
    if args.out:
        _write(report, args.out)
    print(json.dumps({k: v for k, v in report.items() if k != "modes"} |
                     {"modes": {m: {k: v for k, v in r.items() if k not in ("records", "verdicts")}
                                for m, r in report["modes"].items()}}, indent=1))
    print()
    print(markdown_table(report))


SAME_SETTINGS = ("model", "dtype", "threads", "max_new_tokens", "corpus_sha256", "subset")
MODE_SETTINGS = {"naive": (), "plain": ("plain_batch",), "fast": ("fast_batch",), "fast_full": ("fast_batch",),
                 "serve_cb": ("concurrency", "cb_num_blocks"), "serve": ("concurrency",),
                 "generate_batch": ("cb_num_blocks",)}
MODE_SETTINGS_USED = sorted({k for keys in MODE_SETTINGS.values() for k in keys})


def _reusable_modes(path: Path, report: dict) -> dict:
    """Complete modes of an earlier report measured with this run's settings (model, dtype, threads, budget,
    corpus, subset, and the mode's own batch/concurrency settings); anything else is rerun. A mode cut off by
    --mode-timeout is never reused."""
    old = json.loads(path.read_text())
    differ = [k for k in SAME_SETTINGS if old.get(k) != report[k]]
    if differ:
        print(f"[bench] --reuse {path}: {', '.join(differ)} differ; rerunning every mode", file=sys.stderr)
        return {}
    old_mode_settings = old.get("mode_settings", {})
    return {m: r for m, r in old.get("modes", {}).items()
            if "records" in r and not r.get("partial")
            and all(old_mode_settings.get(k) == report["mode_settings"][k] for k in MODE_SETTINGS[m])}


def _partial_result(mode: str, partial: Path, args: argparse.Namespace, returncode: int) -> dict | None:
    """A mode cut off by --mode-timeout: rates from the items it finished (wall = last finish time)."""
    if not partial.exists():
        return None
    records = [json.loads(line) for line in partial.read_text().splitlines() if line.strip()]
    if not records:
        return None
    return {"mode": mode, "items": len(records), "threads": args.threads, "partial": True,
            "note": f"cut off after {args.mode_timeout} s (exit {returncode}); rates from the finished items",
            "wall_s": max(r["t"] for r in records), "loadavg_before": None,
            "loadavg_after": list(os.getloadavg()), "peak_rss_mb": None,
            "generated_tokens": sum(r["completion_tokens"] or 0 for r in records),
            "errors": sum(1 for r in records if r["finish_reason"] == "error"), "records": records}


def _write(report: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1, ensure_ascii=False))


def _compare(report: dict) -> None:
    """Agreement with naive (same passed verdict), identical text, speed-ups, full-run estimates."""
    modes = report["modes"]
    base = modes.get("naive")
    for name, r in modes.items():
        if "records" not in r:
            continue
        r["pass_rate"] = sum(1 for v in r["verdicts"] if v) / len(r["verdicts"])
        if base and "records" in base and name != "fast_full":
            # matched by item id (a mode cut off by --mode-timeout has finished only some items)
            ref = {rec["item_id"]: (rec, v) for rec, v in zip(base["records"], base["verdicts"])}
            pairs = [(ref[rec["item_id"]], (rec, v)) for rec, v in zip(r["records"], r["verdicts"])
                     if rec["item_id"] in ref]
            r["agreement_with_naive"] = sum(1 for (_, a), (_, b) in pairs if a == b) / len(pairs)
            r["identical_text_with_naive"] = sum(1 for (a, _), (b, _) in pairs if a["text"] == b["text"]) / len(pairs)
            r["disagreements_with_naive"] = [b["item_id"] for (a, va), (b, vb) in pairs if va != vb]
            r["speedup_vs_naive"] = r["items_per_s"] / base["items_per_s"]
        if "plain" in modes and "records" in modes["plain"] and name != "fast_full":
            r["speedup_vs_plain"] = r["items_per_s"] / modes["plain"]["items_per_s"]
        # Full corpus (564 items) at the subset's items/s; fast_full is measured directly.
        r["full_run_estimate_s"] = r["wall_s"] if name == "fast_full" else 564 / r["items_per_s"]


def markdown_table(report: dict) -> str:
    lines = [f"Model `{report['model']}` ({report['dtype']}), {report['threads']} torch threads, "
             f"max_new_tokens {report['max_new_tokens']}, subset {report['subset']['items']} items "
             f"({len(report['subset']['categories'])} categories, {'/'.join(report['subset']['languages'])}).",
             "",
             "| mode | items | wall s | items/s | gen tok/s | vs (a) | vs (b) | agree (a) | same text (a) "
             "| pass | peak RSS MB | full run (564) | load |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in report["modes"].items():
        if "records" not in r:
            lines.append(f"| {LABELS[name]} | error: {r.get('error')} |" + " |" * 11)
            continue
        rss = (f"{r['peak_rss_mb']:.0f}" if r.get("peak_rss_mb") else "-") + \
            (f" + server {r['server_peak_rss_mb']:.0f}" if "server_peak_rss_mb" in r else "")
        load = (f"{r['loadavg_before'][0]:.1f}" if r.get("loadavg_before") else "?") + \
            f"->{r['loadavg_after'][0]:.1f}"
        label = LABELS[name] + (" (cut off, finished items only)" if r.get("partial") else "")

        def fmt(k: str, f: str = "{:.2f}x", r: dict = r) -> str:
            return f.format(r[k]) if k in r else "-"
        lines.append(
            f"| {label} | {r['items']} | {r['wall_s']:.0f} | {r['items_per_s']:.4f} | "
            f"{r['gen_tokens_per_s']:.1f} | {fmt('speedup_vs_naive')} | {fmt('speedup_vs_plain')} | "
            f"{fmt('agreement_with_naive', '{:.1%}')} | {fmt('identical_text_with_naive', '{:.1%}')} | "
            f"{r['pass_rate']:.1%} | {rss} | {r['full_run_estimate_s'] / 60:.0f} min | {load} |")
    lines += ["", f"Command: `{report['command']}`"]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
