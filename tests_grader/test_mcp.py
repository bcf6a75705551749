"""ToolUse.1's MCP track: the servers, the tasks' reference solutions, the deterministic Table 4 columns, BASE
and SPIN as MCP clients, scripted agents that fail each column, and server failures that cost calls, not runs.

The unit tests at the top need no server. The `mcp` tests start real server processes over stdio: one set of
all 13 servers is shared by the session (`pool`); the failure tests start their own, since they kill them.
"""
from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP track needs the `mcp` extra: pip install -e '.[mcp]'")

from tooluse1.mcp.client import McpPool  # noqa: E402
from tooluse1.mcp.metrics import COLUMNS, ExecutedCall, McpRunRecord, numbers_in, score_run, states_fact  # noqa: E402
from tooluse1.mcp.scripted import BEHAVIOURS, UNGROUNDED_CLAIM, ScriptedMcpBackend  # noqa: E402
from tooluse1.mcp.servers import SERVERS, fixtures_digest  # noqa: E402
from tooluse1.mcp.tasks import McpTaskError, Reference, load_references, load_tasks, solve  # noqa: E402
from tooluse1.spin.mcp_runner import (first_json_object, parameter_lines, resolve_tool, run_base,  # noqa: E402
                                      run_spin)

TASKS = {t.id: t for t in load_tasks()}
REFS = load_references()


# ----------------------------------------------------------------------------- unit: no server

@pytest.mark.parametrize("text, fact, stated", [
    # what strong models write for the reference facts, EN and RU
    ("Your average ride is 15.1 km.", 15.1, True),
    ("The average is about 15 km per ride.", 15.1, True),               # rounded, two significant digits
    ("cos θ = 36/49 ≈ 0.7347", 0.7346938776, True),
    ("The cosine is roughly 0.73.", 0.7346938776, True),
    ("The cosine is about 1.", 0.7346938776, False),                    # too coarse to state it
    ("The cosine is 0.74.", 0.7346938776, False),                       # wrong digit
    ("Косинус угла ≈ 0,7347.", 0.7346938776, True),                     # decimal comma
    ("Средняя поездка — 15,1 км.", 15.1, True),
    ("The top post has 18,452 upvotes.", 18452, True),
    ("У поста 18 452 голоса.", 18452, True),
    ("Liquidity is about $41.23 million.", 41230000, True),
    ("Ликвидность около 41,2 млн долларов.", 41230000, True),
    ("Liquidity: $41M.", 41230000, True),
    ("The funding rate is -0.0042%.", -0.000042, True),                # as a percentage
    ("The funding rate is −0.000042 (negative).", -0.000042, True),    # U+2212 minus
    ("The funding rate is 0.000042.", -0.000042, False),               # sign lost
    ("BONK trades at $0.00002817.", 2.817e-05, True),
    ("BONK trades at 2.817e-5 USD.", 2.817e-05, True),
    ("The drone is 600 m from launch.", 600, True),                     # "m" is metres, not million
    ("Balatro has a 97% positive review score.", 97, True),
    ("It hangs in Gallery 614.", "614", True),
    ("Flask 3.1.0 is in unstable.", "3.1.0", True),
    ("Flask 3.1 is in unstable.", "3.1.0", False),
    ("Use the route() decorator.", "route()", True),
    ("It was painted ca. 1662.", "ca. 1662", True),
    ("It was painted around 1662.", "ca. 1662", False),
])
def test_states_fact_reads_numbers_as_models_write_them(text: str, fact: Any, stated: bool) -> None:
    assert states_fact(text, fact) is stated


def test_version_strings_and_dates_are_not_read_as_claims() -> None:
    assert numbers_in("ripgrep 14.1.1 and v3.1.0") == []
    assert [str(n.value) for n in numbers_in("(360, 480)")] == ["360", "480"]


@pytest.mark.parametrize("reply, expected", [
    ('{"should_continue": false, "planned_tools": []}', {"should_continue": False, "planned_tools": []}),
    ('Sure! ```json\n{"planned_tools": [{"tool": "math.add", "parameters": {"numbers": [1]}}]}\n```',
     {"planned_tools": [{"tool": "math.add", "parameters": {"numbers": [1]}}]}),
    ("I think {not json} then {\"a\": 1}", {"a": 1}),
    ("no object here", None),
])
def test_first_json_object(reply: str, expected: Any) -> None:
    assert first_json_object(reply) == expected


def test_parameter_lines_read_as_words_not_schema() -> None:
    schema = {"properties": {
        "value": {"title": "Value", "type": "number"},
        "matrix": {"items": {"items": {"type": "number"}, "type": "array"}, "type": "array"},
        "platform": {"default": "steam", "type": "string", "enum": ["steam", "itch"], "description": "where"},
        "limit": {"default": 5, "type": "integer"},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}}, "required": ["value", "matrix"]}
    assert parameter_lines(schema) == [
        "value (number, required)", "matrix (array of array of number, required)",
        'platform (string, optional, default "steam", one of steam|itch): where',
        "limit (integer, optional, default 5)", "note (string or null, optional, default null)"]
    assert parameter_lines({"type": "object"}) == []


def _sci_math_2() -> tuple[Any, Reference]:
    return TASKS["sci-math-2"], REFS["sci-math-2"]


def _oracle_calls(ref: Reference) -> list[ExecutedCall]:
    return [ExecutedCall(c.level, f"{c.server}.{c.tool}", dict(c.arguments), True, c.output) for c in ref.calls]


def _score(calls: list[ExecutedCall], answer: str | None = None) -> dict[str, float]:
    task, ref = _sci_math_2()
    rec = McpRunRecord(task.id, "base", calls, ref.answer if answer is None else answer, 4)
    offered = [f"{s}.{t.name}" for s in task.all_servers for t in SERVERS[s]]
    return score_run(task, ref, rec, offered).columns


def test_every_column_fails_on_its_own_defect_without_servers() -> None:
    _, ref = _sci_math_2()
    assert set(_score(_oracle_calls(ref)).values()) == {10.0}
    no_facts = _score(_oracle_calls(ref), answer="I could not work it out.")
    assert no_facts["fulfillment"] == 1.0 and no_facts["grounding"] == 1.0
    calls = _oracle_calls(ref)
    calls[0].arguments = {"vector_a": [3, -2, 6], "vector_b": [2, -6, 4]}   # wrong argument, output differs
    calls[0].output = '{"result": 39}'
    assert _score(calls)["parameter_accuracy"] == 1 + 9 * 4 / 5
    serial = [ExecutedCall(i, c.tool, c.arguments, True, c.output) for i, c in enumerate(_oracle_calls(ref))]
    assert _score(serial)["parallelism_efficiency"] == round(1 + 9 * 5 / 8, 4)
    flat = [ExecutedCall(0, c.tool, c.arguments, True, c.output) for c in _oracle_calls(ref)]
    assert _score(flat)["dependency_awareness"] == 1.0
    repeated = [*_oracle_calls(ref), _oracle_calls(ref)[0]]
    assert _score(repeated)["parallelism_efficiency"] == round(1 + 9 * 8 / 9, 4)
    wrong_tool = [*_oracle_calls(ref)[:-1], ExecutedCall(2, "math.divide_exactly", {}, False, error="unknown")]
    cols = _score(wrong_tool)
    assert cols["tool_appropriateness"] == round(1 + 9 * 8 / 10, 4) and cols["parameter_accuracy"] == 1 + 9 * 4 / 5


def test_bad_tasks_file_names_the_task_and_the_fix(tmp_path) -> None:
    bad = tmp_path / "tasks.yaml"
    bad.write_text("- id: t1\n  servers: [math, math]\n  task: x\n  calls: {c1: {tool: math.add}}\n"
                   "  facts: [x]\n  answer: y\n", encoding="utf-8")
    with pytest.raises(McpTaskError, match=r"task 't1'.*two different servers"):
        load_tasks.__wrapped__(bad)
    bad.write_text("- id: t2\n  servers: [math, unit_converter]\n  task: x\n  calls: {c1: {tool: math.plus}}\n"
                   "  facts: [x]\n  answer: y\n", encoding="utf-8")
    with pytest.raises(McpTaskError, match=r"task 't2'.*c1 calls 'math.plus'; use one of .*math.add"):
        load_tasks.__wrapped__(bad)


def test_eighteen_tasks_two_per_pair() -> None:
    pairs: dict[frozenset[str], int] = {}
    for t in TASKS.values():
        pairs[frozenset(t.servers)] = pairs.get(frozenset(t.servers), 0) + 1
    assert len(TASKS) == 18 and len(pairs) == 9 and set(pairs.values()) == {2}
    assert len(SERVERS) == 13


# ----------------------------------------------------------------------------- real servers

@pytest.fixture(scope="session")
def pool() -> Iterator[McpPool]:
    with McpPool(list(SERVERS)) as p:
        yield p


@pytest.mark.mcp
def test_servers_list_their_tools_with_effects(pool: McpPool) -> None:
    tools = pool.tools()
    assert {t.server for t in tools} == set(SERVERS)
    assert len(tools) == sum(len(v) for v in SERVERS.values())
    assert {t.effect for t in tools} == {"looks_up"}    # readOnlyHint=true on every tool
    add = next(t for t in tools if t.qualified == "math.add")
    assert add.input_schema["properties"]["numbers"]["type"] == "array"


@pytest.mark.mcp
def test_servers_compute_exactly_and_explain_bad_input(pool: McpPool) -> None:
    assert json.loads(pool.call("math", "add", {"numbers": [0.1, 0.2]}).output) == {"result": 0.3}
    assert json.loads(pool.call("scientific_computing", "matrix_determinant",
                                {"matrix": [[0.1, 0.2], [0.3, 0.4]]}).output) == {"result": -0.02}   # floats: ...004
    assert json.loads(pool.call("scientific_computing", "matrix_determinant",
                                {"matrix": [[2, 0, 1], [1, 3, 2], [1, 1, 2]]}).output) == {"result": 6}
    assert pool.call("time", "get_current_time", {"timezone": "Europe/Berlin"}).output == (
        '{"timezone": "Europe/Berlin", "datetime": "2026-03-14T16:09:26+01:00", "weekday": "Saturday"}')
    bad = pool.call("unit_converter", "convert_length", {"value": 1, "from_unit": "league", "to_unit": "meter"})
    assert not bad.ok and "unknown length unit 'league': use one of" in (bad.error or "")
    unknown = pool.call("math", "integrate", {})
    assert not unknown.ok and "Unknown tool" in (unknown.error or "")


@pytest.mark.mcp
def test_reference_solver_matches_the_servers(pool: McpPool) -> None:
    """Solving every task again against the live servers gives the stored references, and every fact the
    answer must state is in the output of the call that grounds it."""
    for task in TASKS.values():
        fresh = solve(task, pool)
        assert fresh == REFS[task.id], f"{task.id}: references.json is stale; run python -m tooluse1.mcp build"
        outputs = {c.id: c.output for c in fresh.calls}
        for value, source in fresh.facts:
            assert states_fact(outputs[source], value) or str(value) in outputs[source], (task.id, value)
    assert len(fixtures_digest()) == 64


def _run(agent: str, behaviour: str, task_id: str, pool: McpPool) -> tuple[McpRunRecord, Any]:
    task = TASKS[task_id]
    fn = run_base if agent == "base" else run_spin
    rec = fn(task, pool, ScriptedMcpBackend(behaviour))
    offered = [t.qualified for t in pool.tools(task.all_servers)]
    return rec, score_run(task, REFS[task_id], rec, offered)


@pytest.mark.mcp
@pytest.mark.parametrize("agent", ["base", "spin"])
def test_oracle_scores_ten_on_every_task(agent: str, pool: McpPool) -> None:
    for task_id, ref in REFS.items():
        rec, scores = _run(agent, "oracle", task_id, pool)
        assert set(scores.columns.values()) == {10.0}, (task_id, scores.checks)
        assert scores.tool_call_success == 1.0
        # BASE: one round per dependency level, the round that stops, the answer; SPIN: levels + answer
        assert rec.rounds == ref.levels + (2 if agent == "base" else 1)
        if agent == "spin":
            assert rec.notes["trajectory_store"] == "off" and rec.notes["accepted"]


@pytest.mark.mcp
@pytest.mark.parametrize("agent", ["base", "spin"])
@pytest.mark.parametrize("behaviour", [b for b in BEHAVIOURS if b != "oracle"])
def test_each_bad_agent_gets_its_known_lower_scores(agent: str, behaviour: str, pool: McpPool) -> None:
    """sci-math-2: 5 calls (3 on level 0, then 1, then 1), 4 dependency edges, 3 parallel pairs, 5 numeric
    claims in the reference answer. Each defect lowers exactly the columns it should, by the known amount."""
    ref = REFS["sci-math-2"]
    n, edges, pairs = len(ref.calls), len(ref.edges), len(ref.parallel_pairs)
    assert (n, edges, pairs) == (5, 4, 3)
    rec, scores = _run(agent, behaviour, "sci-math-2", pool)
    expected = dict.fromkeys(COLUMNS, 10.0)
    tcs, rounds = 1.0, ref.levels + (2 if agent == "base" else 1)
    if behaviour == "wrong_arguments":      # the last call's dividend is off by one: its output is unbacked
        expected["parameter_accuracy"] = 1 + 9 * (n - 1) / n
        expected["grounding"] = 1 + 9 * 4 / 5
    elif behaviour == "serial":              # no pair runs together; one round per call
        expected["parallelism_efficiency"] = round(1 + 9 * n / (pairs + n), 4)
        rounds = n + (2 if agent == "base" else 1)
    elif behaviour == "ungrounded":          # one more claim, backed by nothing
        expected["grounding"] = 1 + 9 * 5 / 6
        assert UNGROUNDED_CLAIM.strip() in rec.answer
    elif behaviour == "skipped_dependency":  # everything in one round: no edge honoured
        expected["dependency_awareness"] = 1.0
        rounds = 1 + (2 if agent == "base" else 1)
    elif behaviour == "hallucinated_tool" and agent == "base":   # one extra call of a tool no server has
        expected["tool_appropriateness"] = round(1 + 9 * (2 * n) / (2 * n + 1), 4)
        tcs = round(n / (n + 1), 4)
    elif behaviour == "hallucinated_tool":   # SPIN: never valid, so no critic; the last plan read leniently runs
        tcs = round(n / (n + 1), 4)         # the unknown step as the first tool, with no arguments: it fails
        assert rec.notes["repair_rounds"] == 3 and not rec.notes["accepted"]
        assert [c.tool for c in rec.calls if not c.ok] == ["scientific_computing.vector_add"]
    assert scores.columns == pytest.approx(expected), scores.checks
    assert scores.tool_call_success == tcs and rec.rounds == rounds


class _Recording(ScriptedMcpBackend):
    """The oracle, keeping every prompt it was asked."""

    def __init__(self) -> None:
        super().__init__("oracle")
        self.prompts: list[str] = []

    def _reply(self, text: str) -> str:
        self.prompts.append(text)
        return super()._reply(text)


@pytest.mark.mcp
def test_prompts_list_parameters_as_lines_not_json_schema(pool: McpPool) -> None:
    """BASE's round prompt and SPIN's step prompt for a real task list each parameter as a line
    ``name (type, required)``, never as a JSON-schema fragment (a small model copied those as its arguments);
    the oracle still scores 10 everywhere through them."""
    task = TASKS["unit-math-1"]
    for fn, kind in ((run_base, "This is round 1 of"), (run_spin, "Arguments JSON for #S")):
        backend = _Recording()
        rec = fn(task, pool, backend)
        offered = [t.qualified for t in pool.tools(task.all_servers)]
        assert set(score_run(task, REFS[task.id], rec, offered).columns.values()) == {10.0}
        prompt = next(p for p in backend.prompts if kind in p)
        assert '{"type":' not in prompt and '"properties"' not in prompt
        if fn is run_base:
            assert "- unit_converter.convert_length: Convert a length" in prompt
            for line in ("value (number, required)", "from_unit (string, required)",
                         "numbers (array of number, required)", "timezone (string, required)"):
                assert f"\n    {line}\n" in prompt, line
        else:
            assert "\n    value (number, required)\n" in prompt or "\n    numbers (array of number" in prompt


@pytest.mark.mcp
def test_distraction_servers_widen_the_offer_without_changing_the_oracle(pool: McpPool) -> None:
    task = TASKS["unit-math-1"]
    everything = list(SERVERS)
    rec = run_base(task, pool, ScriptedMcpBackend("oracle"), offered_servers=everything)
    scores = score_run(task, REFS[task.id], rec, [t.qualified for t in pool.tools(everything)])
    assert set(scores.columns.values()) == {10.0}
    assert resolve_tool("convert_length", pool.tools(everything)).qualified == "unit_converter.convert_length"
    assert resolve_tool("get_ticker", pool.tools(task.all_servers)) is None


# ----------------------------------------------------------------------------- failures cost calls, not runs

KILL_TAG = "TOOLUSE1_TEST_KILL_TARGET"


class _KillBefore(ScriptedMcpBackend):
    """The oracle, which kills a server's process just before it answers BASE's round `round_no`. The process
    is found by the tag KILL_TAG in its environment (the session's shared servers run untagged)."""

    def __init__(self, server: str, round_no: int) -> None:
        super().__init__("oracle")
        self.server, self.round_no, self.killed = server, round_no, 0

    def _reply(self, text: str) -> str:
        if f"This is round {self.round_no} of" in text and not self.killed:
            psutil = pytest.importorskip("psutil")
            for child in psutil.Process().children(recursive=True):
                if (child.cmdline()[-2:] == ["tooluse1.mcp.serve", self.server]
                        and child.environ().get(KILL_TAG) == "1"):
                    child.kill()
                    child.wait(10)
                    self.killed += 1
        return super()._reply(text)


@pytest.mark.mcp
def test_killed_server_costs_its_calls_and_is_restarted_once() -> None:
    """sci-math-2 runs math.multiply in round 2 and math.divide in round 3. The math server is killed before
    round 2: multiply fails (the crash is seen), divide restarts the server once and succeeds. The run ends
    with its answer and scores; one failed call of five."""
    task = TASKS["sci-math-2"]
    with McpPool(task.all_servers, call_timeout_s=5, server_env={"math": {KILL_TAG: "1"}}) as p:
        backend = _KillBefore("math", 2)
        rec = run_base(task, p, backend)
        assert backend.killed == 1
        failed = [c for c in rec.calls if not c.ok]
        assert [c.tool for c in failed] == ["math.multiply"] and "crash" in (failed[0].error or "")
        assert p.starts("math") == 2 and p.starts("scientific_computing") == 1
        scores = score_run(task, REFS[task.id], rec, [t.qualified for t in p.tools(task.all_servers)])
        assert scores.tool_call_success == 0.8 and scores.failed_calls == 1
        assert rec.answer == REFS[task.id].answer
        # the restart budget is per task: a second kill in the same task leaves the server down
        p.begin_task()
        assert p.call("math", "add", {"numbers": [1, 2]}).ok


@pytest.mark.mcp
def test_hanging_and_crashing_tools_give_failed_calls() -> None:
    """A tool that never replies times out; one that kills its process crashes. Each is a failed call; the
    server restarts once per task, then is reported down; other servers are unaffected."""
    env = {"museum": {"TOOLUSE1_MCP_FAULT": "get_object:hang"}, "math": {"TOOLUSE1_MCP_FAULT": "divide:crash"}}
    with McpPool(["museum", "math"], call_timeout_s=2, server_env=env) as p:
        started = time.perf_counter()
        hung = p.call("museum", "get_object", {"object_id": 437881})
        assert not hung.ok and (hung.error or "").startswith("timeout") and time.perf_counter() - started < 20
        assert p.call("museum", "search_collection", {"query": "vermeer"}).ok   # restarted
        crashed = [p.call("math", "divide", {"dividend": 1, "divisor": 2}) for _ in range(3)]
        assert [c.ok for c in crashed] == [False, False, False]
        assert "crash" in (crashed[0].error or "") and "is down" in (crashed[2].error or "")
        assert p.starts("math") == 2


# ----------------------------------------------------------------------------- a real model

@pytest.mark.mcp
@pytest.mark.model
@pytest.mark.slow
def test_real_model_runs_both_agents_through_real_servers(pool: McpPool) -> None:
    """SmolLM2-135M (MODELS.md's small model) drives BASE and SPIN on one pure-computation task through the
    live servers, under small caps. Whatever it writes, each run ends with an answer, its model calls carry
    their roles and token counts, and it is scored; a reply that is not a plan or not JSON is recorded, not
    raised."""
    from tooluse1.harness import RunConfig, open_backend
    backend = open_backend(RunConfig(model="smollm2", progress=False), {})
    task = TASKS["unit-math-1"]
    caps = dict.fromkeys(("round", "plan", "repair", "simulate", "critic", "step", "answer"), 32)
    try:
        for rec in (run_base(task, pool, backend, max_rounds=1, caps=caps),
                    run_spin(task, pool, backend, repair_rounds=1, caps=caps)):
            roles = [c["role"] for c in rec.model_calls]
            assert roles[-1] == "answer" and all(c["prompt_tokens"] for c in rec.model_calls)
            assert roles[0] == ("round" if rec.agent == "base" else "plan")
            scores = score_run(task, REFS[task.id], rec, [t.qualified for t in pool.tools(task.all_servers)])
            assert all(1.0 <= v <= 10.0 for v in scores.columns.values())
            assert rec.rounds >= 1 and isinstance(rec.answer, str)
    finally:
        backend.close()
