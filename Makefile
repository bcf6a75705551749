# ToolUse.1 — every target sets up its own virtual environment first (offline-capable, idempotent).
# The interpreter the venv is made from; empty: scripts/setup.sh picks (an optimised python3.11 first).
PY      ?=
VENV    ?= .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.tooluse1-setup-$(shell cat pyproject.toml scripts/setup.sh | sha256sum | cut -c1-12)
PYTEST_ARGS ?=
BENCH_ARGS  ?=
# The test suite runs in this many pytest-xdist workers, each test file whole in one worker (--dist loadfile: a file's
# module fixtures, such as a loaded model or a started server, are built once). Each worker's torch gets one
# thread (OMP_NUM_THREADS), so two workers use two cores without oversubscribing them.
TEST_WORKERS ?= 2

.PHONY: setup test bench selftest build board clean-cache

$(STAMP): pyproject.toml scripts/setup.sh
	PY=$(PY) VENV=$(VENV) bash scripts/setup.sh
	touch $(STAMP)

setup: $(STAMP)

# The test suite: lint (ruff) and type checks (mypy), configured in pyproject.toml, then core tests, selftest,
# oracle benchmark items, real small-model and real server runs. The venv's own mypy reads the imports (torch,
# transformers, ...) from the venv itself; another mypy needs `--python-executable $(BIN)/python`.
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	HF_HUB_OFFLINE=1 OMP_NUM_THREADS=1 $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# The full benchmark (564 items) on the embedded default model, resumable; results in results/.
# pytest exits 1 when items fail; for a measurement that is a result, not an error, so a complete run is a
# success here unless BENCH_ARGS asks for a gate (--min-score, --baseline), which then decides the exit status.
bench: $(STAMP)
	HF_HUB_OFFLINE=1 $(BIN)/python -m tooluse1 run --model default --protocol all \
	  --results results/tooluse1-default.json --resume results/tooluse1-default.resume.jsonl $(BENCH_ARGS); \
	rc=$$?; case "$$rc:$(BENCH_ARGS)" in 1:*--min-score*|1:*--baseline*) ;; 1:*) echo "make bench: run complete;" \
	  "failed items are the model's failures (results/tooluse1-default.json)"; rc=0 ;; esac; exit $$rc

selftest: $(STAMP)
	$(BIN)/python -m tooluse1 selftest

build: $(STAMP)
	$(BIN)/python -m tooluse1 build

# The reference runs' leaderboard (results/reference/board.html) and every table of them in README.md and
# BENCHMARKS.md, from results/reference/*.json (after re-running or re-grading them).
board: $(STAMP)
	$(BIN)/python scripts/reference_tables.py --write
