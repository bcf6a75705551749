"""The SPIN variants: one row of `VARIANT_SPECS` each, and everything that lists variants reads it.

A new variant is a row here (its phases: repair, simulate, critic); the runner runs each phase a row turns on
(spin/runner.py, module docstring). This module imports nothing, so the CLI can name the variants in its
help without loading the track.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["VARIANTS", "VARIANT_SPECS", "VariantSpec"]


@dataclass(frozen=True)
class VariantSpec:
    """What a variant does: repair invalid plans, simulate step outputs, ask the critic per prefix
    (a variant without repair executes its raw plan leniently)."""

    repair: bool
    simulate: bool
    critic: bool

    @property
    def prefix_eval(self) -> bool:
        """Whether the variant judges its plans before executing them (simulation and/or critic)."""
        return self.simulate or self.critic


VARIANT_SPECS: dict[str, VariantSpec] = {
    "base": VariantSpec(repair=False, simulate=False, critic=False),
    "valid": VariantSpec(repair=True, simulate=False, critic=False),
    "spin": VariantSpec(repair=True, simulate=True, critic=True),
    "spin_wo_sim": VariantSpec(repair=True, simulate=False, critic=True),
    "spin_wo_cri": VariantSpec(repair=True, simulate=True, critic=False),
}
VARIANTS: tuple[str, ...] = tuple(VARIANT_SPECS)   # in table order: how results and options list them
