"""The scripted backend: a selftest runner (tooluse1.selftest.RUNNERS: oracle, never-call, always-call, ...)
behind the Backend protocol. Deterministic and model-free: it tests the harness end to end and shows what
a perfect or degenerate run scores (`--model oracle`)."""
from __future__ import annotations

import os
import time
from typing import ClassVar, Mapping, Sequence

from tooluse1.backends.base import BackendError, Capabilities, Completion, DecodingConfig, OnComplete
from tooluse1.corpus import Case
from tooluse1.prompts import Prompt


def runner_names() -> tuple[str, ...]:
    """The scripted runners `--model` may name (`--backend auto` picks this backend for them)."""
    from tooluse1.selftest import RUNNERS   # the registry stays with the runners it lists
    return tuple(RUNNERS)


class ScriptedBackend:
    """Answers each prompt with the named runner's output for the prompt's case and protocol."""

    name = "scripted"
    capabilities: ClassVar[Capabilities] = Capabilities()

    def __init__(self, runner: str, cases: Mapping[str, Case], delay_s: float | None = None):
        from tooluse1.selftest import FINISH_REASONS, RUNNERS   # the registry stays with the runners it lists
        if runner not in RUNNERS:
            raise BackendError(f"--model {runner}: unknown scripted runner; use one of {', '.join(RUNNERS)}")
        self.runner, self._fn, self._cases = runner, RUNNERS[runner], cases
        self._finish = FINISH_REASONS.get(runner, "stop")
        # A per-item delay lets tests interrupt a run midway (kill -9 + resume); 0 in normal use.
        self.delay_s = float(os.environ.get("TOOLUSE1_SCRIPTED_DELAY_S", "0")) if delay_s is None else delay_s

    def generate(self, prompts: Sequence[Prompt], config: DecodingConfig,
                 on_complete: OnComplete | None = None) -> list[Completion]:
        out = []
        for p in prompts:
            if self.delay_s:
                time.sleep(self.delay_s)
            text = self._fn(self._cases[p.case_id], p.protocol)   # a runner calls the case's offered tools
            c = Completion(p.item_id, text, self._finish, self.delay_s)
            if on_complete:
                on_complete(c)
            out.append(c)
        return out

    def provenance(self) -> dict:
        return {"backend": "scripted", "model_id": f"scripted:{self.runner}", "revision": "n/a"}

    def close(self) -> None:
        pass
