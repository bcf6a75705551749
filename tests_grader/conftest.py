"""Fixtures shared by the test modules of this folder."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def scripted_results(tmp_path_factory) -> dict[str, Path]:
    """Results files of two full scripted runs (`oracle` and `always-call`, every public item), made once per
    session through the CLI as a user would; read them, never write to them."""
    d = tmp_path_factory.mktemp("scripted")
    out = {}
    for model in ("oracle", "always-call"):
        out[model] = d / f"{model}.json"
        proc = subprocess.run([sys.executable, "-m", "tooluse1", "run", "--model", model, "--results", str(out[model]),
                               "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert proc.returncode in (0, 1), proc.stdout[-2000:]
    return out
