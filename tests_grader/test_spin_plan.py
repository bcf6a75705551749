"""SPIN plan grammar: validator rules, tolerated deviations, strict and lenient parsing, prefixes, incidence."""
from __future__ import annotations

import pytest

from tooluse1.spin.plan import (
    RULE_IDS,
    RULES,
    Plan,
    PlanError,
    PlanIssue,
    PlanStep,
    lenient_plan,
    parse_plan,
    rule_family,
    rule_incidence,
    validate_plan_text,
)

AGENTS = ("get_weather", "convert_currency", "web_search", "save_note")


def block(n: int, agent: str, dep: str, task: str | None = None) -> str:
    """One well-formed step block."""
    return (
        f"#Task{n}: {task or f'Task number {n}'}\n"
        f"#Agent{n}: {agent}\n"
        f"#Dependency{n}: {dep}\n"
        f"#ExpectedOutput{n}: Output of step {n}\n"
    )


# Three valid DAG shapes.
CHAIN = block(1, "get_weather", "None") + block(2, "convert_currency", "#S1") + block(3, "save_note", "#S2")
TREE = block(1, "web_search", "None") + block(2, "get_weather", "#S1") + block(3, "convert_currency", "#S1")
FAN_IN = block(1, "get_weather", "None") + block(2, "convert_currency", "None") + block(3, "save_note", "#S1 #S2")


def perturb(plan: str, old: str, new: str) -> str:
    """Replace exactly one occurrence, so every table entry is a minimal, intended perturbation."""
    assert plan.count(old) == 1, old
    return plan.replace(old, new)


def rules_of(plan_text: str) -> set[str]:
    return {i.rule for i in validate_plan_text(plan_text, AGENTS)[1]}


# (name, plan text, expected valid, expected rule-id set)
TABLE = [
    ("chain", CHAIN, True, set()),
    ("tree", TREE, True, set()),
    ("fan_in", FAN_IN, True, set()),
    ("no_plan_at_all", "I would first check the weather.", False, {"LINES_MISSING"}),
    ("task_numbers", perturb(CHAIN, "#Task2:", "#Task9:"), False, {"TASK_NUMBERS_NOT_SEQ"}),
    ("agent_numbers", perturb(CHAIN, "#Agent2:", "#Agent9:"), False, {"AGENT_NUMBERS_NOT_SEQ"}),
    ("dependency_numbers", perturb(CHAIN, "#Dependency2:", "#Dependency9:"), False, {"DEPENDENCY_NUMBERS_NOT_SEQ"}),
    ("expected_numbers", perturb(CHAIN, "#ExpectedOutput2:", "#ExpectedOutput9:"), False,
     {"EXPECTEDOUTPUT_NUMBERS_NOT_SEQ"}),
    ("counts", perturb(CHAIN, "#ExpectedOutput3: Output of step 3\n", ""), False, {"COUNTS_MISMATCH"}),
    ("dep_format_comma", perturb(FAN_IN, "#S1 #S2", "#S1,#S2"), False, {"DEPENDENCY_FORMAT_INVALID"}),
    ("dep_format_word", perturb(CHAIN, "#Dependency2: #S1", "#Dependency2: after step 1"), False,
     {"DEPENDENCY_FORMAT_INVALID"}),
    ("dep_out_of_range", perturb(CHAIN, "#Dependency3: #S2", "#Dependency3: #S0"), False, {"DEPENDENCY_OUT_OF_RANGE"}),
    ("dep_forward", perturb(CHAIN, "#Dependency2: #S1", "#Dependency2: #S3"), False, {"DEPENDENCY_FORWARD_REFERENCE"}),
    ("dep_self", perturb(CHAIN, "#Dependency2: #S1", "#Dependency2: #S2"), False, {"DEPENDENCY_FORWARD_REFERENCE"}),
    ("agent_unknown", perturb(CHAIN, "#Agent2: convert_currency", "#Agent2: Currency Agent"), False, {"AGENT_UNKNOWN"}),
    ("agent_case", perturb(CHAIN, "#Agent1: get_weather", "#Agent1: Get_Weather"), False, {"AGENT_UNKNOWN"}),
    # Several errors at once: all are reported.
    ("agent_lines_missing", "".join(ln + "\n" for ln in CHAIN.splitlines() if not ln.startswith("#Agent")), False,
     {"LINES_MISSING", "COUNTS_MISMATCH"}),
    ("past_end_is_also_forward", perturb(CHAIN, "#Dependency3: #S2", "#Dependency3: #S7"), False,
     {"DEPENDENCY_OUT_OF_RANGE", "DEPENDENCY_FORWARD_REFERENCE"}),
    ("many", perturb(perturb(perturb(perturb(CHAIN, "#Agent1: get_weather", "#Agent1: weather"),
                                     "#Dependency3: #S2", "#Dependency3: #S5"),
                             "#Task2:", "#Task5:"),
                     "#Dependency2: #S1", "#Dependency2: S1"), False,
     {"AGENT_UNKNOWN", "DEPENDENCY_OUT_OF_RANGE", "DEPENDENCY_FORWARD_REFERENCE", "TASK_NUMBERS_NOT_SEQ",
      "DEPENDENCY_FORMAT_INVALID"}),
]


@pytest.mark.parametrize("name,text,valid,rules", TABLE, ids=[t[0] for t in TABLE])
def test_rule_table(name: str, text: str, valid: bool, rules: set[str]) -> None:
    ok, issues = validate_plan_text(text, AGENTS)
    assert ok is valid
    assert {i.rule for i in issues} == rules
    assert all(isinstance(i, PlanIssue) and i.rule in RULE_IDS for i in issues)


def test_every_rule_family_is_covered_by_the_table() -> None:
    covered = {rule_family(r) for _, _, _, rules in TABLE for r in rules}
    assert covered == set(RULES)
    assert len(RULES) == 7


def test_messages_match_the_public_wording() -> None:
    def messages(text: str) -> list[str]:
        return [i.message for i in validate_plan_text(text, AGENTS)[1]]

    assert messages("") == [f"{label} lines missing" for label in ("Task", "Agent", "Dependency", "ExpectedOutput")]
    assert messages(perturb(CHAIN, "#Task2:", "#Task9:")) == ["Task numbers must be 1..N in order; got [1, 9, 3]"]
    assert messages(perturb(CHAIN, "#ExpectedOutput3: Output of step 3\n", "")) == [
        "Counts of Task/Agent/Dependency/ExpectedOutput must match"]
    assert messages(perturb(FAN_IN, "#S1 #S2", "#S1,#S2")) == [
        "Dependency3 must be 'None' or '#S1 #S2 ...'; got '#S1,#S2'"]
    assert messages(perturb(CHAIN, "#Dependency3: #S2", "#Dependency3: #S7")) == [
        "Dependency3 out of range [7]; valid 1..3",
        "Dependency3 forward reference [7]; only past steps allowed",
    ]
    assert messages(perturb(CHAIN, "#Agent2: convert_currency", "#Agent2: Currency Agent")) == [
        "Agent2 unknown 'Currency Agent'. Allowed: "
        "['convert_currency', 'get_weather', 'save_note', 'web_search']"]


def test_issue_steps_and_order() -> None:
    text = perturb(perturb(CHAIN, "#Agent3: save_note", "#Agent3: notes"), "#Dependency2: #S1", "#Dependency2: #S2")
    issues = validate_plan_text(text, AGENTS)[1]
    assert [(i.rule, i.step) for i in issues] == [("DEPENDENCY_FORWARD_REFERENCE", 2), ("AGENT_UNKNOWN", 3)]
    assert validate_plan_text("", AGENTS)[1][0].step is None


@pytest.mark.parametrize("dep", ["#S1,#S2", "#S1, #S2", "none", "S1 S2", "#S1 and #S2", "[#S1, #S2]", "None."])
def test_dependency_format_is_strict(dep: str) -> None:
    assert rules_of(perturb(FAN_IN, "#S1 #S2", dep)) == {"DEPENDENCY_FORMAT_INVALID"}


@pytest.mark.parametrize("wrap", [
    lambda t: t.replace("\n", "\r\n"),
    lambda t: "\n".join("   " + line + "  \t" for line in t.splitlines()),
    lambda t: "```\n" + t + "```",
    lambda t: "```text\r\n" + t.replace("\n", "\r\n") + "```\r\n",
    lambda t: "\n\n" + t.replace("\n#Task", "\n\n#Task") + "\n\n",
    lambda t: t.replace("#Task1: ", "#Task1:    "),
], ids=["crlf", "indent_trailing", "fence", "fence_lang_crlf", "blank_lines", "extra_space_after_colon"])
def test_tolerated_deviations(wrap) -> None:
    text = wrap(CHAIN)
    assert validate_plan_text(text, AGENTS) == (True, [])
    assert parse_plan(text, AGENTS) == parse_plan(CHAIN, AGENTS)


@pytest.mark.parametrize("old,new", [
    ("#Task1: ", "**#Task1:** "),
    ("#Task1: ", "- #Task1: "),
    ("#Task1: ", "#Task 1: "),
    ("#Task1: ", "#Task1:"),
    ("#Task1: ", "#task1: "),
    ("#Task1: Task number 1", "#Task1: "),
])
def test_other_deviations_are_reported(old: str, new: str) -> None:
    assert validate_plan_text(perturb(CHAIN, old, new), AGENTS)[0] is False


def test_agents_compare_after_stripping_whitespace() -> None:
    assert validate_plan_text(CHAIN, [" get_weather ", "convert_currency\n", "save_note"]) == (True, [])


def test_parse_plan_fields() -> None:
    plan = parse_plan(FAN_IN, AGENTS)
    assert len(plan) == 3
    assert plan.steps[0] == PlanStep(1, "Task number 1", "get_weather", (), "Output of step 1")
    assert plan.steps[2].dependencies == (1, 2)
    assert plan.steps[2].dependency_text == "#S1 #S2"


def test_parse_plan_canonicalises_dependency_order() -> None:
    plan = parse_plan(perturb(FAN_IN, "#S1 #S2", "#S2  #S1 #S1"), AGENTS)
    assert plan.steps[2].dependencies == (1, 2)


def test_unknown_agent_raises_and_is_not_replaced() -> None:
    text = perturb(CHAIN, "#Agent2: convert_currency", "#Agent2: Currency Agent")
    with pytest.raises(PlanError) as err:
        parse_plan(text, AGENTS)
    assert [i.rule for i in err.value.issues] == ["AGENT_UNKNOWN"]
    assert "Currency Agent" in str(err.value)


def test_plan_error_carries_all_issues() -> None:
    with pytest.raises(PlanError) as err:
        parse_plan("", AGENTS)
    assert len(err.value.issues) == 4


@pytest.mark.parametrize("text", [CHAIN, TREE, FAN_IN], ids=["chain", "tree", "fan_in"])
def test_render_round_trip(text: str) -> None:
    plan = parse_plan(text, AGENTS)
    rendered = plan.render()
    assert validate_plan_text(rendered, AGENTS) == (True, [])
    assert parse_plan(rendered, AGENTS) == plan
    assert parse_plan(rendered, AGENTS).render() == rendered


@pytest.mark.parametrize("text", [CHAIN, TREE, FAN_IN], ids=["chain", "tree", "fan_in"])
def test_every_prefix_is_valid(text: str) -> None:
    plan = parse_plan(text, AGENTS)
    for k in range(1, len(plan) + 1):
        prefix = plan.prefix(k)
        assert len(prefix) == k
        assert prefix.steps == plan.steps[:k]
        assert parse_plan(prefix.render(), AGENTS) == prefix
    for bad in (0, len(plan) + 1):
        with pytest.raises(ValueError):
            plan.prefix(bad)


@pytest.mark.parametrize("text", [CHAIN, TREE, FAN_IN], ids=["chain", "tree", "fan_in"])
def test_topological_order(text: str) -> None:
    plan = parse_plan(text, AGENTS)
    order = plan.topological_order()
    assert sorted(order) == list(range(1, len(plan) + 1))
    position = {index: pos for pos, index in enumerate(order)}
    for step in plan.steps:
        assert all(position[d] < position[step.index] for d in step.dependencies)


@pytest.mark.parametrize("kwargs", [
    dict(index=2, task="t", agent="a", dependencies=(2,), expected_output="o"),    # self reference
    dict(index=2, task="t", agent="a", dependencies=(3,), expected_output="o"),    # forward
    dict(index=2, task="t", agent="a", dependencies=(0,), expected_output="o"),    # out of range
    dict(index=3, task="t", agent="a", dependencies=(2, 1), expected_output="o"),  # not canonical
    dict(index=1, task="two\nlines", agent="a", dependencies=(), expected_output="o"),
    dict(index=1, task="t", agent=" a", dependencies=(), expected_output="o"),
    dict(index=1, task="t", agent="a", dependencies=(), expected_output=""),
])
def test_plan_step_invariants(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        PlanStep(**kwargs)


def test_plan_invariants() -> None:
    step = PlanStep(1, "t", "get_weather", (), "o")
    with pytest.raises(ValueError):
        Plan(())
    with pytest.raises(ValueError):
        Plan((PlanStep(2, "t", "get_weather", (1,), "o"),))
    assert len(Plan((step,))) == 1
    assert Plan([step]) == Plan((step,))  # sequences are stored as tuples, so plans stay hashable
    assert hash(PlanStep(2, "t", "a", [1], "o")) == hash(PlanStep(2, "t", "a", (1,), "o"))


def test_rule_incidence() -> None:
    both_numbering = perturb(perturb(CHAIN, "#Task2:", "#Task9:"), "#Agent2:", "#Agent9:")
    unknown = perturb(CHAIN, "#Agent2: convert_currency", "#Agent2: Currency Agent")
    unknown_and_counts = perturb(unknown, "#ExpectedOutput3: Output of step 3\n", "")
    table = rule_incidence(iter([CHAIN, TREE, both_numbering, unknown, unknown_and_counts]), AGENTS)
    assert (table.n, table.n_valid) == (5, 2)
    assert table.valid_rate == pytest.approx(0.4)
    assert list(table.rates) == list(RULES)
    assert table.counts["NUMBERS_NOT_SEQ"] == 1  # two numbering issues in one plan count once
    assert table.rates["AGENT_UNKNOWN"] == pytest.approx(0.4)
    assert table.rates["COUNTS_MISMATCH"] == pytest.approx(0.2)
    assert table.rates["LINES_MISSING"] == 0.0
    assert table.as_dict()["n"] == 5


def test_rule_incidence_empty() -> None:
    table = rule_incidence([], AGENTS)
    assert table.n == 0 and table.valid_rate == 0.0 and set(table.rates.values()) == {0.0}


def test_rule_family() -> None:
    assert rule_family("EXPECTEDOUTPUT_NUMBERS_NOT_SEQ") == "NUMBERS_NOT_SEQ"
    assert rule_family("AGENT_UNKNOWN") == "AGENT_UNKNOWN"
    assert len(RULE_IDS) == 10
    with pytest.raises(ValueError):
        rule_family("NOPE")


# ----------------------------------------------------------------------------- BASE's lenient reading

def test_lenient_reading_of_a_valid_plan_is_the_parsed_plan() -> None:
    for text in (CHAIN, TREE, FAN_IN):
        read = lenient_plan(text, AGENTS)
        assert read.plan == parse_plan(text, AGENTS) and read.fixes == ()


def test_lenient_reading_runs_what_the_validator_rejects() -> None:
    """The paper's baseline executes invalid plans: an unknown agent becomes the first agent, a missing
    dependency is None, a missing expected output is empty, a bad reference is dropped."""
    text = perturb(perturb(perturb(CHAIN, "#Agent2: convert_currency", "#Agent2: Currency Agent"),
                           "#Dependency3: #S2", "#Dependency3: #S2 #S7"),
                   "#ExpectedOutput3: Output of step 3\n", "")
    assert not validate_plan_text(text, AGENTS)[0]
    read = lenient_plan(text, AGENTS)
    assert read.plan is not None
    assert [s.agent for s in read.plan.steps] == ["get_weather", "get_weather", "save_note"]
    assert [s.dependencies for s in read.plan.steps] == [(), (1,), (2,)]
    assert read.plan.steps[2].expected_output == "(not given)"
    assert any("Agent2 unknown 'Currency Agent'" in f for f in read.fixes)
    assert any(f.startswith("Dependency3") for f in read.fixes) and any("ExpectedOutput3" in f for f in read.fixes)


def test_lenient_reading_uses_the_public_unanchored_patterns() -> None:
    # Bold markers and bullets break the validator's anchored lines but not the baseline's patterns.
    text = CHAIN.replace("#Task", "- #Task").replace("#Agent", "**#Agent")
    assert not validate_plan_text(text, AGENTS)[0]
    assert lenient_plan(text, AGENTS).plan == parse_plan(CHAIN, AGENTS)


def test_lenient_reading_stops_at_a_task_without_agent_and_errors_only_on_nothing() -> None:
    two_agents = "".join(ln + "\n" for ln in CHAIN.splitlines() if not ln.startswith("#Agent3"))
    read = lenient_plan(two_agents, AGENTS)
    assert read.plan is not None and len(read.plan) == 2 and "Task3 and later have no Agent line" in read.fixes[-1]
    assert lenient_plan("I would check the weather first.", AGENTS).plan is None
    assert lenient_plan("#Task1: look it up\n", AGENTS).plan is None          # a task, but no agent line
    one = lenient_plan("#Task1: look it up\n#Agent1: magic\n", AGENTS).plan
    assert one is not None and one.steps[0].agent == AGENTS[0] and one.steps[0].dependencies == ()
