"""Screenshot of the HTML report in headless Chromium (how docs/report.png was made):

    .venv/bin/python scripts/report_screenshot.py RESULTS.json [BASE.json] -o docs/report.png [--height 1180]

The report is rendered exactly as `python -m tooluse1 report` renders it; the browser driver is the one the
browser test uses (tests_grader/browser.py, Debian's chromium over the DevTools pipe)."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests_grader")]

from browser import open_page  # noqa: E402
from tooluse1.report import write_report  # noqa: E402
from tooluse1.results import load_results  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("baseline", nargs="?")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=1180)
    args = ap.parse_args()
    results = load_results(args.results)
    baseline = load_results(args.baseline) if args.baseline else None
    with tempfile.TemporaryDirectory() as d:
        page = Path(d) / "report.html"
        write_report(page, results, baseline)
        shot = open_page(page, width=args.width, height=args.height, full_page=False)
    if shot.console_errors or shot.exceptions:
        print(f"the page logged errors: {shot.console_errors + shot.exceptions}", file=sys.stderr)
        return 1
    Path(args.output).write_bytes(shot.screenshot_png)
    print(f"{args.output}: {len(shot.screenshot_png)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
