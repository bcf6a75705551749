"""Command line: `python -m tooluse1 build | selftest | run | regrade | compare | report | leaderboard ...`, plus
each track's commands (SPIN: build-scenarios | plan | plan-incidence), which join through tooluse1/tracks.py
(thin layers over the library). Bad input (an unreadable or invalid file, a bad flag) ends in one message and
exit status 2, as argparse's own errors do."""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from tooluse1.errors import USAGE_ERROR, UsageParser
from tooluse1.tracks import default_results_path, passthrough_parser, pytest_session, tracks


def _cmd_build(args: argparse.Namespace) -> int:
    from pathlib import Path
    from tooluse1.build import build
    from tooluse1.corpus import CASES_DIR, DATA_DIR, CorpusError
    cases_dir, data_dir = Path(args.cases or CASES_DIR), Path(args.data or DATA_DIR)
    if not cases_dir.is_dir():
        print(f"error: --cases {cases_dir}: no such directory", file=sys.stderr)
        return 1
    try:
        manifest = build(cases_dir, data_dir)
    except CorpusError as e:
        print("\n".join(e.problems), file=sys.stderr)
        print(f"build failed: {len(e.problems)} problem(s)", file=sys.stderr)
        return 1
    c = manifest["counts"]
    from tooluse1.yamlload import display_path
    shown = display_path(data_dir)
    print(f"built {shown}/{manifest['jsonl']}: {manifest['n_cases']} cases, sha256 {manifest['sha256'][:16]}…")
    print(f"  lang {c['lang']}  expectation {c['expectation']}")
    return 0


def _cmd_selftest(args: argparse.Namespace) -> int:
    """The scripted runners over the public cases, then over one seed's draws (K = 1, or --draws K): every
    draw must score for every runner exactly as its public case does."""
    import time
    from tooluse1.draws import DrawError, draw_corpus, draw_options
    from tooluse1.selftest import draw_mismatches, run_selftest
    from tooluse1.suite import CasesUnusable, load_session_cases
    try:
        k, seed = draw_options(args.draws, args.draw_seed)
        cases, manifest, _ = load_session_cases(None)
    except DrawError as e:
        return _usage_error(str(e))
    except CasesUnusable as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    report = run_selftest(cases)
    print("\n".join(report.lines))
    verdict = "passed" if report.ok else f"FAILED ({len(report.failures)} failures)"
    print(f"selftest {verdict}: {len(cases)} cases, {report.n_verdicts} verdicts in {report.seconds:.2f} s")
    failures = list(report.failures)
    if k:
        t0 = time.perf_counter()
        try:
            drawn, dm = draw_corpus(cases, manifest, seed or "", k)
        except DrawError as e:
            return _usage_error(f"--draw-seed: {e}")
        drawn_report = run_selftest(drawn)
        mismatches = draw_mismatches(report, drawn_report, drawn)
        failures += drawn_report.failures + mismatches
        ok = not (drawn_report.failures or mismatches)
        print(f"draws {'passed' if ok else 'FAILED'}: seed sha256 {dm['draws']['seed_sha256'][:12]}…, K = {k}, "
              f"{len(drawn)} drawn cases of {dm['draws']['n_templates']}, every runner as on the public cases, "
              f"{drawn_report.n_verdicts} verdicts in {time.perf_counter() - t0:.2f} s")
    for f in failures:
        print(f"FAIL {f}", file=sys.stderr)
    return 0 if not failures else 1


def _cmd_run(args: argparse.Namespace, passthrough: list[str]) -> int:
    """`run` is a thin wrapper: the same pytest session, so the same results file and exit codes."""
    # a suite's runs are named after its folder, so they never overwrite the built-in corpus's
    from pathlib import Path
    from tooluse1.draws import DrawError, draw_options
    try:
        k, _ = draw_options(args.draws, args.draw_seed, args.suite)
    except DrawError as e:
        return _usage_error(str(e))
    # a run of draws is named after K, so it never overwrites the public cases' run (the seed stays out of it)
    name = (Path(args.suite).resolve().name if args.suite else None, f"draws{k}" if k else None)
    track = "-".join(part for part in name if part)
    results = args.results or default_results_path(args.model, track or None)
    suite = ["--suite", args.suite] if args.suite else []
    draws = ["--draws", str(k), *(["--draw-seed", args.draw_seed] if args.draw_seed is not None else [])] if k else []
    return pytest_session("tooluse1.test_tooluse1", "test_tooluse1.py",
                          ["--model", args.model, "--protocol", args.protocol, "--results", results, *suite, *draws],
                          passthrough)


def _cmd_regrade(args: argparse.Namespace) -> int:
    """Re-grade a results file's raw outputs with the current grader and corpus (no model needed). The new
    file records the current corpus and spec version, and what the run was graded against before
    (`provenance.regrade`). Exit 2 when the file is unusable, or when its corpus differs from the current
    one and --allow-corpus-change is not given."""
    from pathlib import Path
    from tooluse1.corpus import SPEC_VERSION, corpus_provenance
    from tooluse1.grade import grade_completion
    from tooluse1.metrics import format_summary
    from tooluse1.results import (ItemRecord, ResultsFileError, Sample, build_results, load_results, now_iso,
                                  track_sections, write_json_atomic)
    from tooluse1.draws import GENERATOR_VERSION, DrawError, check_recorded_seed, draw_corpus
    from tooluse1.suite import CasesUnusable, load_session_cases, suite_of
    try:
        old = load_results(args.results_file)
    except ResultsFileError as e:
        return _usage_error(str(e))
    prov = old.provenance
    used = suite_of(prov)
    if used and not args.suite:
        return _usage_error(f"{args.results_file} is a run of suite {used['name']!r} ({used['path']}): pass "
                            f"--suite {used['path']} (or where that suite is now) to re-grade it")
    if args.suite and not used:
        return _usage_error(f"{args.results_file} is a run of the built-in corpus, not of a suite: drop --suite")
    recorded_draws = prov["corpus"].get("draws")
    if args.draw_seed is not None and not recorded_draws:
        return _usage_error(f"--draw-seed: {args.results_file} is a run of the public cases, not of seeded draws; "
                            f"drop --draw-seed")
    try:
        cases_list, manifest, _ = load_session_cases(args.suite)
        if recorded_draws:   # regenerate the draws the run graded: its seed given again, checked by its hash
            seed = check_recorded_seed(recorded_draws, args.draw_seed, args.results_file)
            cases_list, manifest = draw_corpus(cases_list, manifest, seed, recorded_draws["k"])
    except (CasesUnusable, DrawError) as e:
        return _usage_error(str(e))
    cases = {c.id: c for c in cases_list}
    corpus_changed = prov["corpus"]["sha256"] != manifest["sha256"]
    if corpus_changed and recorded_draws and recorded_draws["generator"] != GENERATOR_VERSION:
        print(f"note: {args.results_file} was drawn by generator {recorded_draws['generator']}, this is "
              f"{GENERATOR_VERSION}: the same seed draws other cases", file=sys.stderr)
    spec_changed = prov["spec_version"] != SPEC_VERSION
    if corpus_changed:
        now = f"suite {args.suite} is now" if args.suite else "the current corpus is"
        msg = (f"{args.results_file} was graded against {'suite' if args.suite else 'corpus'} "
               f"{prov['corpus']['sha256'][:12]}…, {now} {manifest['sha256'][:12]}…"
               + (" (its tools or cases changed)" if args.suite else ""))
        if not args.allow_corpus_change:
            return _usage_error(msg + "; its expectations may differ. Pass --allow-corpus-change to re-grade "
                                      "the stored outputs against the current cases anyway")
        print(f"note: {msg}; re-grading against the current cases (--allow-corpus-change)", file=sys.stderr)
    missing = sorted({r.case.id for r in old.records} - set(cases))
    if missing:
        return _usage_error(f"{args.results_file}: {len(missing)} case(s) are not in the current corpus: "
                            f"{', '.join(missing[:5])}{' …' if len(missing) > 5 else ''}")
    records = []
    for r in old.records:
        case = cases[r.case.id]
        if r.samples:    # a sampled run: every sample re-graded, none dropped
            records.append(ItemRecord.of_samples(case, r.protocol, [
                Sample(s.index, s.completion, *grade_completion(case, s.completion, r.protocol)) for s in r.samples]))
            continue
        records.append(ItemRecord(case, r.protocol, r.completion, *grade_completion(case, r.completion, r.protocol)))
    original = {"spec_version": prov["spec_version"], "corpus": prov["corpus"]}
    if prov.get("prompt_sha256"):
        original["prompt_sha256"] = prov["prompt_sha256"]
    provenance = {k: v for k, v in prov.items() if k != "regraded_from"}
    provenance.update({
        "spec_version": SPEC_VERSION,
        "corpus": corpus_provenance(manifest),
        "regrade": {"from": str(args.results_file), "at": now_iso(), "original": original,
                    "corpus_changed": corpus_changed, "spec_changed": spec_changed}})
    sections = track_sections(old.document)
    graded = [t for name, t in tracks().items() if name in sections]   # each track re-scores its own section
    for track in graded:
        try:
            sections[track.name] = track.regrade_section(sections[track.name])
        except (KeyError, ValueError) as e:   # a scenario gone, or a section the track cannot read
            return _usage_error(f"{args.results_file}: {e.args[0]}")
    new = build_results(provenance, records, sections)
    if records:
        print(format_summary(new["summary"], title=f"ToolUse.1 regrade of {args.results_file}"))
    for track in graded:
        print(track.format_summary(new[track.name]))
    if args.out:
        write_json_atomic(Path(args.out), new)
        print(f"results file: {args.out}")
    return 0


def _usage_error(message: str) -> int:
    """Print one clear message and return USAGE_ERROR (4: bad input, as pytest says it)."""
    print(f"error: {message}", file=sys.stderr)
    return USAGE_ERROR


def _cmd_import(args: argparse.Namespace) -> int:
    from pathlib import Path
    from tooluse1.importers import ImportError_, import_items
    try:
        report = import_items(args.format, Path(args.source), Path(args.out),
                              Path(args.answers) if args.answers else None)
    except ImportError_ as e:
        print(f"ERROR: {e}", file=sys.stderr)
        return USAGE_ERROR
    for line in report.left_out:
        print(f"left out: {line}", file=sys.stderr)
    print(f"{args.out}: {report.line()}; run it with `python -m tooluse1 run --model MODEL --suite {args.out}`")
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    """Paired comparison BASE vs NEW and the gate: 0 = NEW not significantly worse (and within
    --max-drop), 1 = it is, 4 = bad input (unreadable or invalid file, incomparable runs, bad flag)."""
    from pathlib import Path
    from tooluse1.compare import DEFAULT_ALPHA, IncomparableError, compare, format_comparison, gate, parse_fraction
    from tooluse1.results import ResultsFileError, dumps_json, load_results
    if args.by_case:
        return _memorisation_gap(args.base, args.new)
    try:
        alpha = parse_fraction(args.alpha, "--alpha", open_low=True) if args.alpha is not None else DEFAULT_ALPHA
        max_drop = parse_fraction(args.max_drop, "--max-drop") if args.max_drop is not None else None
        base, new = load_results(args.base), load_results(args.new)
        cmp = compare(base, new, allow_different_prompts=args.allow_different_prompts,
                      allow_decoding_change=args.allow_decoding_change)
    except (ValueError, ResultsFileError, IncomparableError) as e:
        return _usage_error(str(e))
    decision = gate(cmp, alpha=alpha, max_drop=max_drop)
    print(format_comparison(cmp, max_flips=args.max_flips))
    print(f"gate: {decision.summary}")
    print(f"gate power: {decision.power}")
    for reason in decision.reasons:
        print(f"GATE FAILED: {reason}")
    if not decision.failed:
        print(f"gate passed: NEW is not significantly worse (alpha {alpha}"
              + (f", max drop {max_drop}" if max_drop is not None else "") + ")")
    if args.json:
        out = {**cmp.as_dict(), "gate": {"failed": decision.failed, "reasons": list(decision.reasons),
                                        "alpha": alpha, "max_drop": max_drop,
                                        "min_detectable_drop": decision.min_detectable_drop}}
        try:
            Path(args.json).write_bytes(dumps_json(out) + b"\n")
        except OSError as e:
            return _usage_error(f"--json {args.json}: cannot write ({e.strerror or e})")
    return 1 if decision.failed else 0


def _memorisation_gap(public_path: str, draws_path: str) -> int:
    """`compare --by-case PUBLIC.json DRAWS.json`: public minus draws by case (tooluse1.draws.gap)."""
    from tooluse1.draws.gap import GapError, memorisation_gap
    from tooluse1.results import ResultsFileError, load_results
    try:
        gap = memorisation_gap(load_results(public_path), load_results(draws_path))
    except (ResultsFileError, GapError) as e:
        return _usage_error(str(e))
    print(gap.format())
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    """RESULTS.json [BASE.json] -> one self-contained HTML file. Exit 4 (USAGE_ERROR) on bad input."""
    from pathlib import Path
    from tooluse1.compare import IncomparableError
    from tooluse1.report import write_report
    from tooluse1.results import ResultsFileError, load_results
    try:
        results = load_results(args.results)
        baseline = load_results(args.baseline) if args.baseline else None
        write_report(Path(args.output), results, baseline, allow_different_prompts=args.allow_different_prompts,
                     allow_decoding_change=args.allow_decoding_change, strict=True)
    except (ResultsFileError, IncomparableError) as e:
        return _usage_error(str(e))
    except OSError as e:
        return _usage_error(f"-o {args.output}: cannot write ({e.strerror or e})")
    print(f"HTML report: {args.output}")
    return 0


def _cmd_leaderboard(args: argparse.Namespace) -> int:
    """RUN.json... -> the ranking as text on stdout (Markdown with --markdown) and, with -o, one HTML page.
    Exit 4 (USAGE_ERROR) on bad input (unreadable file, incomparable runs, different items or decodings, bad flag)."""
    from pathlib import Path
    from tooluse1.compare import DEFAULT_ALPHA, IncomparableError, parse_fraction
    from tooluse1.leaderboard import build, format_markdown, format_text, write_board
    from tooluse1.results import ResultsFileError, load_results
    try:
        alpha = parse_fraction(args.alpha, "--alpha", open_low=True) if args.alpha is not None else DEFAULT_ALPHA
        board = build([load_results(f) for f in args.runs], alpha=alpha,
                      allow_different_prompts=args.allow_different_prompts,
                      allow_decoding_change=args.allow_decoding_change)
    except (ValueError, ResultsFileError, IncomparableError) as e:
        return _usage_error(str(e))
    print(format_markdown(board) if args.markdown else format_text(board))
    if args.output:
        try:
            write_board(Path(args.output), board)
        except OSError as e:
            return _usage_error(f"-o {args.output}: cannot write ({e.strerror or e})")
        print(f"HTML leaderboard: {args.output}")
    return 0


def _cmd_grader_card(args: argparse.Namespace) -> int:
    """Print the grader accuracy card: computed from the checkout's labelled sets when they are there (and,
    with --write, stored as package data), else the card stored with the installed package."""
    from tooluse1.gradercard import CARD_PATH, TESTS_DIR, card_json, compute_card, render_card, stored_card
    card: dict | None
    if (TESTS_DIR / "independent_round8.py").exists():
        card = compute_card()
        if args.write:
            CARD_PATH.write_text(card_json(card), encoding="utf-8")
            print(f"wrote {CARD_PATH}", file=sys.stderr)
    elif args.write:
        return _usage_error(f"--write needs the labelled sets of a checkout ({TESTS_DIR} is missing)")
    else:
        card = stored_card()
    if card is None:
        return _usage_error(f"no stored grader card ({CARD_PATH}) and no labelled sets to compute one")
    print(card_json(card) if args.json else render_card(card, markdown=args.markdown), end="")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = UsageParser(prog="python -m tooluse1", description="ToolUse.1 benchmark")
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="validate cases/*.yaml and write data/")
    build.add_argument("--cases", default=None, help="case folder to read (default: the repository's cases/)")
    build.add_argument("--data", default=None, help="folder to write the corpus to (default: the repository's data/)")
    build.set_defaults(fn=_cmd_build)
    selftest = sub.add_parser("selftest", help="grade scripted runners with known scores (no model), on the public "
                                               "cases and on one seed's draws")
    selftest.add_argument("--draws", default="1", help="draws per case to check (default 1; 0 = public cases only)")
    selftest.add_argument("--draw-seed", default=None, help="the seed to check (default: the published seed)")
    selftest.set_defaults(fn=_cmd_selftest)
    run = passthrough_parser(sub, "run", help="run the benchmark (a pytest session); unknown options go to pytest",
                             description="Everything after the known options is passed to pytest, e.g. "
                                         "--backend openai --base-url URL --batch-size 16 -k xml --resume FILE")
    run.add_argument("--model", required=True)
    from tooluse1.prompts import PROTOCOL_HELP
    run.add_argument("--protocol", default="all", help=PROTOCOL_HELP)
    run.add_argument("--results", default=None,
                     help="results file (default results/tooluse1-<model>.json; with --suite, "
                          "results/tooluse1-<suite>-<model>.json)")
    run.add_argument("--suite", default=None,
                     help="a suite of your own (a folder with tools.json or tools.yaml, and cases/)")
    run.add_argument("--draws", default="0", help="seeded draws: K draws of every case instead of the public cases "
                                                  "(default 0; results/tooluse1-draws<K>-<model>.json)")
    run.add_argument("--draw-seed", default=None, help="the seed of --draws (default: the published seed; keep "
                                                      "yours private for a split nobody has trained on)")
    run.set_defaults(fn=_cmd_run)
    for track in tracks().values():
        track.add_commands(sub)
    regrade = sub.add_parser("regrade", help="re-grade a results file's raw outputs without the model")
    regrade.add_argument("results_file")
    regrade.add_argument("--out", default=None, help="write the re-graded results file here")
    regrade.add_argument("--suite", default=None,
                         help="the suite the run used (a folder with tools.json or tools.yaml, and cases/)")
    regrade.add_argument("--draw-seed", default=None,
                         help="a run of seeded draws: the seed it was run with (checked against the recorded hash; "
                              "default: the published seed)")
    regrade.add_argument("--allow-corpus-change", action="store_true",
                         help="re-grade although the file was graded against another corpus (its digest differs)")
    regrade.set_defaults(fn=_cmd_regrade)
    imp = sub.add_parser("import", help="write a suite from other benchmarks' items or chat logs (bfcl, when2call, "
                                        "openai)")
    imp.add_argument("format", choices=["bfcl", "when2call", "openai"])
    imp.add_argument("source", help="the file to import (JSON lines)")
    imp.add_argument("-o", "--out", required=True, help="the suite folder to write (new or empty)")
    imp.add_argument("--answers", default=None,
                     help="bfcl: the possible-answer file (default: possible_answer/<same name> beside SOURCE)")
    imp.set_defaults(fn=_cmd_import)
    cmp = sub.add_parser("compare", help="paired comparison of two results files; exit 1 when NEW is worse",
                         description="Pairs items by (case id, protocol). Exit status: 0 when NEW is not "
                                     "significantly worse, 1 when it is (one-sided p < --alpha of the exact "
                                     "sign-flip test on case-level differences, a McNemar test clustered by case) or "
                                     "the overall score drops by more than --max-drop, 4 on bad input.")
    cmp.add_argument("base", metavar="BASE.json")
    cmp.add_argument("new", metavar="NEW.json")
    cmp.add_argument("--alpha", default=None, help="one-sided significance level of the gate (default 0.05)")
    cmp.add_argument("--max-drop", default=None, help="also fail when the overall score drops by more than this")
    cmp.add_argument("--allow-different-prompts", action="store_true",
                     help="compare although the prompt digests differ (a deliberate prompt study)")
    cmp.add_argument("--allow-decoding-change", action="store_true",
                     help="compare although the runs decode differently (greedy vs sampled, another temperature "
                          "or top-p)")
    cmp.add_argument("--max-flips", type=int, default=20, help="flipped items to print (default 20)")
    cmp.add_argument("--by-case", action="store_true",
                     help="BASE is a run of the public cases, NEW one of their seeded draws (--draws K): print the "
                          "memorisation gap, public minus draws by case, with its 95%% interval")
    cmp.add_argument("--json", default=None, help="also write the comparison as JSON here")
    cmp.set_defaults(fn=_cmd_compare)
    rep = sub.add_parser("report", help="a self-contained HTML report of a results file (optionally vs a baseline)")
    rep.add_argument("results", metavar="RESULTS.json")
    rep.add_argument("baseline", metavar="BASE.json", nargs="?", default=None)
    rep.add_argument("-o", "--output", default="report.html", help="the HTML file to write (default report.html)")
    rep.add_argument("--allow-different-prompts", action="store_true",
                     help="with BASE.json: compare although the prompt digests differ")
    rep.add_argument("--allow-decoding-change", action="store_true",
                     help="with BASE.json: compare although the runs decode differently")
    rep.set_defaults(fn=_cmd_report)
    board = sub.add_parser("leaderboard", help="rank several runs of the same items (text table, HTML with -o)",
                           description="Ranks runs by their json+xml+plain score (95% CI clustered by case), with "
                                       "per-protocol scores, protocol consistency, truncation and every pair's "
                                       "paired difference (Holm-corrected). Runs must be comparable as for compare.")
    board.add_argument("runs", metavar="RUN.json", nargs="+")
    board.add_argument("-o", "--output", default=None, help="also write the self-contained HTML page here")
    board.add_argument("--markdown", action="store_true", help="print Markdown tables instead of the text table")
    board.add_argument("--alpha", default=None, help="significance level of the pairs after Holm (default 0.05)")
    board.add_argument("--allow-different-prompts", action="store_true",
                       help="rank although the prompts differ (a deliberate prompt study)")
    board.add_argument("--allow-decoding-change", action="store_true",
                       help="rank although the runs decode differently (greedy vs sampled, another temperature, "
                            "top-p or number of samples); each row then shows its decoding")
    board.set_defaults(fn=_cmd_leaderboard)
    card = sub.add_parser("grader-card", help="the grader's agreement with independently labelled outputs, per "
                                              "verdict kind and language (Wilson 95% CI; constant graders beside)")
    card.add_argument("--write", action="store_true",
                      help="store the card computed from the checkout as package data (tooluse1/data/grader_card.json)")
    card.add_argument("--markdown", action="store_true", help="print a Markdown table")
    card.add_argument("--json", action="store_true", help="print the card as JSON")
    card.set_defaults(fn=_cmd_grader_card)
    parser.set_defaults(passthrough=False)
    args, passthrough = parser.parse_known_args(argv)
    if args.passthrough:
        return args.fn(args, passthrough)
    if passthrough:
        parser.error(f"unrecognized arguments: {' '.join(passthrough)}")
    return args.fn(args)
