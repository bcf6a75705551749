"""SPIN plan grammar: validator, strict and lenient parsers, prefixes and rule incidence (Table 1).

A plan is one block of four tagged lines per step::

    #Task1: Get the weather in Berlin
    #Agent1: get_weather
    #Dependency1: None
    #ExpectedOutput1: The current weather in Berlin
    #Task2: Convert 20 EUR to USD
    #Agent2: convert_currency
    #Dependency2: #S1
    #ExpectedOutput2: The amount in USD

Tagged lines are matched with ``^#Task(\\d+): (.+)$`` (likewise Agent, Dependency, ExpectedOutput), line
by line, as the public SPIN code's multiline ``findall`` does, so rule incidence stays comparable with the
paper. Before matching, CRLF/CR become LF and every line is stripped of surrounding whitespace; values are
stripped too. Lines that carry no tag (prose, blank lines, a ``` fence around the plan) are ignored, as in
the public code. Any other deviation in a tagged line (no space after the colon, markdown bold, a bullet,
``#Task 1``) makes the line not match, and the rules then report it as missing or misnumbered.

Deliberate differences from the public code (its known defects, see ANCHORS.md "SPIN"):

- A dependency must be exactly ``None`` or ``#S<n>`` tokens separated by whitespace; the public code
  accepted any text that contained a ``#S<n>`` token, e.g. ``#S1,#S2`` or ``after #S1``.
- An unknown agent is always an error of the validator and is never replaced by a default agent there.

`lenient_plan` is the other reading: what the paper's BASE pipeline (the public
track1_planning_baseline.py) executes from a raw plan without validating it. It uses that code's
unanchored patterns and its defaults: an unknown agent runs as the first agent, a missing dependency is
None, a missing expected output is empty; steps stop at the first task without an agent line. Unlike
that code it keeps the dependencies that name earlier steps (the public code dropped every dependency).

Agent names are compared exactly (case-sensitive) after stripping whitespace on both sides: the agents
are the benchmark's tool names, all lower snake case, and accepting ``Get_Weather`` would only move the
mismatch into the executor.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tooluse1.errors import ToolUse1Error

__all__ = [
    "LABELS",
    "RULES",
    "RULE_IDS",
    "IncidenceTable",
    "LenientPlan",
    "Plan",
    "PlanError",
    "PlanIssue",
    "PlanStep",
    "StepRun",
    "lenient_plan",
    "parse_plan",
    "rule_family",
    "rule_incidence",
    "truncate_plan_text",
    "validate_plan_text",
]

# The four tags of a step, in the order they appear in a block and in the public validator's checks.
LABELS: tuple[str, ...] = ("Task", "Agent", "Dependency", "ExpectedOutput")

_TAG_RES: dict[str, re.Pattern[str]] = {
    label: re.compile(rf"^#{label}(\d+): (.+)$") for label in LABELS
}
_DEP_TOKEN_RE = re.compile(r"#S(\d+)")
# Stricter than the public code (which only looked for tokens): the whole value must be the list.
_DEP_FORMAT_RE = re.compile(r"^(?:None|#S\d+(?:\s+#S\d+)*)$")

_NUMBERS_NOT_SEQ = "NUMBERS_NOT_SEQ"

# Rule families, in the order the validator checks them; the Table 1 incidence rows use these names.
RULES: tuple[str, ...] = (
    "LINES_MISSING",
    _NUMBERS_NOT_SEQ,
    "COUNTS_MISMATCH",
    "DEPENDENCY_FORMAT_INVALID",
    "DEPENDENCY_OUT_OF_RANGE",
    "DEPENDENCY_FORWARD_REFERENCE",
    "AGENT_UNKNOWN",
)

# Every concrete rule id a PlanIssue can carry (the numbering rule is reported per label).
RULE_IDS: tuple[str, ...] = (
    "LINES_MISSING",
    *(f"{label.upper()}_{_NUMBERS_NOT_SEQ}" for label in LABELS),
    *RULES[2:],
)


def rule_family(rule_id: str) -> str:
    """Map a concrete rule id to its family in RULES (``TASK_NUMBERS_NOT_SEQ`` -> ``NUMBERS_NOT_SEQ``)."""
    if rule_id not in RULE_IDS:
        raise ValueError(f"unknown rule id {rule_id!r}")
    return _NUMBERS_NOT_SEQ if rule_id.endswith(_NUMBERS_NOT_SEQ) else rule_id


@dataclass(frozen=True)
class PlanIssue:
    """One violated rule. `rule` is one of RULE_IDS; `message` has the public code's wording;
    `step` is the step number the issue is about (Dependency/Agent rules), None for plan-wide rules."""

    rule: str
    message: str
    step: int | None = None

    @property
    def family(self) -> str:
        """The rule family in RULES."""
        return rule_family(self.rule)


class PlanError(ToolUse1Error, ValueError):
    """Raised by parse_plan for a plan that fails validation; `issues` lists every violation found."""

    def __init__(self, issues: Sequence[PlanIssue]) -> None:
        self.issues: tuple[PlanIssue, ...] = tuple(issues)
        super().__init__("invalid plan: " + "; ".join(f"{i.rule}: {i.message}" for i in self.issues))


# --------------------------------------------------------------------------------------------------
# Scanning
# --------------------------------------------------------------------------------------------------

def _tagged_lines(plan_text: str) -> list[tuple[str, int, str]]:
    """Tagged lines in text order, as (label, number, stripped value). Tolerates only CRLF/CR line ends
    and whitespace around lines (models indent and pad); untagged lines are skipped."""
    found = []
    for line in plan_text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        for label, pattern in _TAG_RES.items():
            m = pattern.match(line.strip())
            if m:
                found.append((label, int(m.group(1)), m.group(2).strip()))
                break  # the tags are distinct prefixes, so at most one matches
    return found


def _scan(plan_text: str) -> dict[str, list[tuple[int, str]]]:
    """Tagged lines per label, in text order, as (number, stripped value) pairs."""
    scanned: dict[str, list[tuple[int, str]]] = {label: [] for label in LABELS}
    for label, num, value in _tagged_lines(plan_text):
        scanned[label].append((num, value))
    return scanned


def _parse_dependency(value: str) -> tuple[int, ...] | None:
    """Step numbers a dependency value names, in written order; None when the value is malformed."""
    if not _DEP_FORMAT_RE.match(value):
        return None
    return tuple(int(n) for n in _DEP_TOKEN_RE.findall(value))


# --------------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------------

def _issues(scanned: dict[str, list[tuple[int, str]]], agents_allowed: Sequence[str]) -> list[PlanIssue]:
    """All rule violations of a scanned plan, in the public validator's order; never stops early."""
    issues: list[PlanIssue] = []

    for label in LABELS:
        nums = [n for n, _ in scanned[label]]
        if not nums:
            issues.append(PlanIssue("LINES_MISSING", f"{label} lines missing"))
        elif nums != list(range(1, len(nums) + 1)):
            issues.append(PlanIssue(
                f"{label.upper()}_{_NUMBERS_NOT_SEQ}", f"{label} numbers must be 1..N in order; got {nums}",
            ))

    if len({len(pairs) for pairs in scanned.values()}) != 1:
        issues.append(PlanIssue("COUNTS_MISMATCH", "Counts of Task/Agent/Dependency/ExpectedOutput must match"))

    tasks, deps = scanned["Task"], scanned["Dependency"]
    if tasks and deps:  # as in the public code: without tasks there is no range to check against
        total = len(tasks)
        for n, dep in deps:
            refs = _parse_dependency(dep)
            if refs is None:
                issues.append(PlanIssue(
                    "DEPENDENCY_FORMAT_INVALID", f"Dependency{n} must be 'None' or '#S1 #S2 ...'; got '{dep}'", n,
                ))
                continue
            bad = [k for k in refs if k < 1 or k > total]
            if bad:
                issues.append(PlanIssue(
                    "DEPENDENCY_OUT_OF_RANGE", f"Dependency{n} out of range {bad}; valid 1..{total}", n,
                ))
            # A reference past the last step is also a forward reference; reporting both keeps the
            # public code's counting, which Table 1 is compared against.
            fwd = [k for k in refs if k >= n]
            if fwd:
                issues.append(PlanIssue(
                    "DEPENDENCY_FORWARD_REFERENCE",
                    f"Dependency{n} forward reference {fwd}; only past steps allowed", n,
                ))

    allowed = {a.strip() for a in agents_allowed}
    for n, name in scanned["Agent"]:
        if name not in allowed:
            issues.append(PlanIssue("AGENT_UNKNOWN", f"Agent{n} unknown '{name}'. Allowed: {sorted(allowed)}", n))

    return issues


def validate_plan_text(plan_text: str, agents_allowed: Sequence[str]) -> tuple[bool, list[PlanIssue]]:
    """Check a plan against all seven rule families.

    Returns (is_valid, issues): every violation is reported, in a fixed order (numbering per label,
    counts, dependencies per Dependency line, agents per Agent line); is_valid is True iff issues is
    empty, and then parse_plan on the same arguments succeeds.
    """
    issues = _issues(_scan(plan_text), agents_allowed)
    return not issues, issues


# --------------------------------------------------------------------------------------------------
# Parsed plans
# --------------------------------------------------------------------------------------------------

def _check_line_value(what: str, value: str) -> None:
    """Reject values that could not survive render() -> parse (empty, padded, multi-line)."""
    if not value or value != value.strip() or "\n" in value or "\r" in value:
        raise ValueError(f"{what} must be a non-empty single line without surrounding whitespace; got {value!r}")


@dataclass(frozen=True)
class PlanStep:
    """One step. Invariants (checked on construction): index >= 1; task, agent and expected_output are
    non-empty stripped single lines; dependencies are sorted, unique and each in 1..index-1."""

    index: int
    task: str
    agent: str
    dependencies: tuple[int, ...]
    expected_output: str

    def __post_init__(self) -> None:
        if self.index < 1:
            raise ValueError(f"step index must be >= 1; got {self.index}")
        for what, value in (("task", self.task), ("agent", self.agent), ("expected_output", self.expected_output)):
            _check_line_value(f"step {self.index} {what}", value)
        deps = tuple(self.dependencies)
        object.__setattr__(self, "dependencies", deps)  # accept any sequence, store the hashable form
        if deps != tuple(sorted(set(deps))) or any(d < 1 or d >= self.index for d in deps):
            raise ValueError(
                f"step {self.index} dependencies must be sorted, unique and in 1..{self.index - 1}; got {deps}"
            )

    @property
    def dependency_text(self) -> str:
        """The Dependency line value: ``None`` or ``#S1 #S2``."""
        return " ".join(f"#S{d}" for d in self.dependencies) if self.dependencies else "None"

    def render(self) -> str:
        """The step's four tagged lines."""
        n = self.index
        return "\n".join((
            f"#Task{n}: {self.task}",
            f"#Agent{n}: {self.agent}",
            f"#Dependency{n}: {self.dependency_text}",
            f"#ExpectedOutput{n}: {self.expected_output}",
        ))


@dataclass
class StepRun:
    """One executed plan step, as the runner records it. call is the call sent to the World (None: the model
    gave no call of the step's agent - a failed step); ok/output/error are the World's result, or the failure.
    It lives beside PlanStep so that the prompts can read executed steps without importing the runner."""

    index: int
    agent: str
    task: str
    dependencies: list[int]
    model_output: str
    call: dict[str, Any] | None = None
    ok: bool = False
    output: str = ""
    error: str | None = None
    status: str | None = None   # the step's own grade (scoring.step_statuses); None until the run is scored


@dataclass(frozen=True)
class Plan:
    """A valid plan: a non-empty tuple of steps numbered 1..N whose dependencies point only backwards.

    Because dependencies only point backwards, every prefix is itself a valid plan and the step order
    is a topological order. Agent membership is checked by parse_plan, which knows the allowed agents.
    """

    steps: tuple[PlanStep, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", tuple(self.steps))  # accept any sequence, keep the plan immutable
        if not self.steps:
            raise ValueError("a plan needs at least one step")
        indices = [s.index for s in self.steps]
        if indices != list(range(1, len(indices) + 1)):
            raise ValueError(f"step indices must be 1..N in order; got {indices}")

    def __len__(self) -> int:
        return len(self.steps)

    def prefix(self, k: int) -> Plan:
        """The first k steps (1 <= k <= len); valid because no step depends on a later one."""
        if not 1 <= k <= len(self.steps):
            raise ValueError(f"prefix length must be in 1..{len(self.steps)}; got {k}")
        return Plan(self.steps[:k])

    def topological_order(self) -> tuple[int, ...]:
        """Step indices in an order where each step follows all its dependencies.

        The plan order is one: PlanStep guarantees every dependency is an earlier index. Executors should
        still pass each step the outputs of exactly `step.dependencies` (the public code never did).
        """
        return tuple(s.index for s in self.steps)

    def render(self) -> str:
        """Canonical text: blocks separated by a blank line. validate_plan_text accepts it (given the
        agents) and parse_plan(render(p)) == p."""
        return "\n\n".join(s.render() for s in self.steps)


def parse_plan(plan_text: str, agents_allowed: Sequence[str]) -> Plan:
    """Parse a plan; raises PlanError with every issue when validate_plan_text rejects it."""
    scanned = _scan(plan_text)
    issues = _issues(scanned, agents_allowed)
    if issues:
        raise PlanError(issues)
    steps = []
    for (n, task), (_, agent), (_, dep), (_, out) in zip(*(scanned[label] for label in LABELS), strict=True):
        refs = _parse_dependency(dep)
        assert refs is not None  # validated above
        steps.append(PlanStep(n, task, agent, tuple(sorted(set(refs))), out))
    return Plan(tuple(steps))


# The public baseline's patterns, verbatim: unanchored, so a tag anywhere in a line counts.
_LENIENT_RES: dict[str, re.Pattern[str]] = {label: re.compile(rf"#{label}\d+: (.+)") for label in LABELS}
# What a lenient step gets for a missing or blank value: PlanStep needs non-empty single lines.
NOT_GIVEN = "(not given)"


@dataclass(frozen=True)
class LenientPlan:
    """The baseline's reading of a raw plan: `plan` is what it executes (None when not one step can be
    executed: no task line, or no agent line for the first task), `fixes` says what the leniency changed,
    one line each (empty for a plan the validator accepts, apart from dependency order)."""

    plan: Plan | None
    fixes: tuple[str, ...]


def lenient_plan(plan_text: str, agents_allowed: Sequence[str]) -> LenientPlan:
    """Read a plan the way the paper's BASE pipeline does (module docstring).

    Guarantees: never raises for any text; steps are numbered 1..N in the order their task lines appear;
    every step's agent is in `agents_allowed` (unknown ones become the first allowed agent); dependencies
    are the ``#S<n>`` tokens of the step's Dependency line that name an earlier step (others are dropped
    and reported). For a text the validator accepts, the result equals parse_plan's.
    """
    if not agents_allowed:
        raise ValueError("agents_allowed must not be empty")
    found = {label: [v.strip() for v in pattern.findall(plan_text)] for label, pattern in _LENIENT_RES.items()}
    tasks, agents, deps, outputs = (found[label] for label in LABELS)
    allowed = {a.strip() for a in agents_allowed}
    steps: list[PlanStep] = []
    fixes: list[str] = []
    for i, task in enumerate(tasks):
        n = i + 1
        if i == len(agents):
            fixes.append(f"Task{n} and later have no Agent line: not executed")
            break
        agent = agents[i]
        if agent not in allowed:
            fixes.append(f"Agent{n} unknown {agent!r}: runs as {agents_allowed[0]!r} (the first agent)")
            agent = agents_allowed[0]
        if i < len(deps):
            refs = [int(k) for k in _DEP_TOKEN_RE.findall(deps[i])]
            kept = sorted({k for k in refs if 1 <= k < n})
            if len(kept) != len(set(refs)):
                fixes.append(f"Dependency{n} {deps[i]!r}: only {kept or 'None'} kept (earlier steps only)")
        else:
            kept = []
            fixes.append(f"Dependency{n} missing: None")
        expected = outputs[i] if i < len(outputs) else ""
        if not expected:
            fixes.append(f"ExpectedOutput{n} missing")
        steps.append(PlanStep(n, task or NOT_GIVEN, agent, tuple(kept), expected or NOT_GIVEN))
    return LenientPlan(Plan(tuple(steps)) if steps else None, tuple(fixes))


def truncate_plan_text(plan_text: str, k: int) -> str:
    """The tagged lines of steps 1..k, in text order and canonical spacing. Works on invalid plans too,
    since critic feedback and validator issues may be about the same plan."""
    return "\n".join(f"#{label}{num}: {value}" for label, num, value in _tagged_lines(plan_text) if num <= k)


# --------------------------------------------------------------------------------------------------
# Table 1: per-rule incidence
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class IncidenceTable:
    """Per-rule incidence over a set of plans.

    `counts[family]` is the number of plans with at least one issue of that family (every family in
    RULES is present); `n` is the number of plans, `n_valid` the number without any issue. Rates divide
    by n and are 0.0 when n == 0; always report n next to them.
    """

    n: int
    n_valid: int
    counts: dict[str, int]

    @property
    def valid_rate(self) -> float:
        """Fraction of plans with no issue."""
        return self.n_valid / self.n if self.n else 0.0

    @property
    def rates(self) -> dict[str, float]:
        """Fraction of plans with at least one issue of each family, in RULES order."""
        return {family: (self.counts[family] / self.n if self.n else 0.0) for family in RULES}

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form: n, n_valid, valid_rate, counts, rates."""
        return {
            "n": self.n, "n_valid": self.n_valid, "valid_rate": self.valid_rate,
            "counts": dict(self.counts), "rates": self.rates,
        }


def rule_incidence(plan_texts: Iterable[str], agents_allowed: Sequence[str]) -> IncidenceTable:
    """Validate every plan and count, per rule family, the plans with at least one such issue
    (a plan with both TASK_ and AGENT_NUMBERS_NOT_SEQ counts once under NUMBERS_NOT_SEQ)."""
    counts = dict.fromkeys(RULES, 0)
    n = n_valid = 0
    for text in plan_texts:
        n += 1
        _, issues = validate_plan_text(text, agents_allowed)
        if not issues:
            n_valid += 1
        for family in {issue.family for issue in issues}:
            counts[family] += 1
    return IncidenceTable(n=n, n_valid=n_valid, counts=counts)
