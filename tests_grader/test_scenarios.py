"""SPIN plan scenarios: the authored set, its data flow through the World, validation errors, the build."""
from __future__ import annotations

import json
import math
import shutil
from collections import Counter
from pathlib import Path

import pytest

from tooluse1 import cli
from tooluse1.corpus import DATA_DIR, StaleCorpusError, load_corpus
from tooluse1.grade import constraints_hold
from tooluse1.spin import scenarios as sc
from tooluse1.spin.scenarios import (
    SCENARIOS_DIR,
    SHAPES,
    Scenario,
    ScenarioError,
    build_scenarios,
    check_scenarios_fresh,
    load_scenario_files,
    load_scenarios,
    uses_output,
)
from tooluse1.tools import TOOLS, Call, norm_text
from tooluse1.world import WEATHER, World, numbers_in

SCENARIOS = load_scenario_files()
BY_ID = {s.id: s for s in SCENARIOS}


def ids(s: Scenario) -> str:
    return s.id


def _close(a: float, b: float) -> bool:
    return math.isclose(abs(a), abs(b), rel_tol=1e-9, abs_tol=1e-9)


# ----------------------------------------------------------------------------- the authored set

def test_counts_per_shape_and_language() -> None:
    shapes = Counter(s.shape for s in SCENARIOS)
    langs = Counter(s.lang for s in SCENARIOS)
    assert len(SCENARIOS) >= 40
    assert set(shapes) == set(SHAPES)
    assert shapes["early_answer"] >= 10
    assert langs["en"] >= 24 and langs["ru"] >= 14
    for lang in ("en", "ru"):
        assert {s.shape for s in SCENARIOS if s.lang == lang} == set(SHAPES), lang


def test_scenarios_are_kept_apart_from_the_corpus() -> None:
    cases, _ = load_corpus()
    corpus_ids = {c.id for c in cases}
    user_texts = {norm_text(m["content"]) for c in cases for m in c.messages if m["role"] == "user"}
    assert not corpus_ids & set(BY_ID)
    questions = [norm_text(s.question) for s in SCENARIOS]
    assert len(set(questions)) == len(questions), "two scenarios ask the same question"
    for s in SCENARIOS:
        assert norm_text(s.question) not in user_texts, s.id
        # a short utterance ("какая погода") may occur inside a question; a whole corpus request may not
        assert all(norm_text(s.question) not in u and (len(u.split()) < 5 or u not in norm_text(s.question))
                   for u in user_texts), s.id
    assert not list(Path(SCENARIOS_DIR).glob("*.jsonl")) and SCENARIOS_DIR.name == "scenarios"


@pytest.mark.parametrize("s", SCENARIOS, ids=ids)
def test_required_calls_execute_in_the_world(s: Scenario) -> None:
    world = World(sleep=False)
    for i, rc in enumerate(s.required_calls, 1):
        assert rc.name in s.tools
        res = world.execute(rc.call)
        assert res.ok, f"{s.id} call {i}: {res.error}"
        assert res.output == rc.output, f"{s.id} call {i}: stored output differs from the World's"
    for call in s.tempting_calls:
        assert call.name in s.tools
        assert world.execute(call).ok, f"{s.id}: tempting call {call} fails"


@pytest.mark.parametrize("s", [s for s in SCENARIOS if any(rc.depends_on for rc in s.required_calls)], ids=ids)
def test_later_arguments_come_from_earlier_world_outputs(s: Scenario) -> None:
    """Numbers a dependent call passes on are numbers its dependencies' World outputs contain."""
    question_numbers = numbers_in(s.question.replace(",", ""))
    for i, rc in enumerate(s.required_calls, 1):
        if not rc.depends_on:
            continue
        dep_outputs = {d: s.required_calls[d - 1].output for d in rc.depends_on}
        dep_numbers = [n for out in dep_outputs.values() for n in numbers_in(out)]
        spec = TOOLS[rc.name]
        for name, value in rc.arguments.items():
            param = spec.param_index[name]
            if param.type in ("number", "integer"):
                assert any(_close(value, n) for n in dep_numbers), \
                    f"{s.id} call {i}: {name}={value} is not in the outputs of {sorted(dep_outputs)}"
            elif param.match == "expression":
                literals = numbers_in(value)
                for d, out in dep_outputs.items():
                    assert any(_close(x, n) for x in literals for n in numbers_in(out)), \
                        f"{s.id} call {i}: {value!r} uses nothing from call {d} ({out!r})"
                for x in literals:
                    assert (any(_close(x, n) for n in dep_numbers + question_numbers)
                            or (float(x).is_integer() and abs(x) <= 10)), f"{s.id} call {i}: where does {x} come from?"
        for d, out in dep_outputs.items():
            assert uses_output(out, rc.call), f"{s.id} call {i} does not use call {d}"


def test_data_flow_holds_for_the_documented_chain_example() -> None:
    s = BY_ID["chain-en-001"]
    assert s.required_calls[0].output == "Berlin: 14°C, cloudy"
    assert s.required_calls[1].arguments == {"value": 14, "from_unit": "celsius", "to_unit": "kelvin"}
    assert s.required_calls[1].depends_on == (1,)


def test_uses_output_can_fail() -> None:
    conv = Call("convert_units", {"value": 15, "from_unit": "celsius", "to_unit": "kelvin"})
    assert not uses_output("Berlin: 14°C, cloudy", conv)
    assert uses_output("Berlin: 15°C, cloudy", conv)
    assert uses_output("Die Rechnung, bitte", Call("save_note", {"text": "Die Rechnung, bitte", "title": "x"}))
    assert not uses_output("Die Rechnung, bitte", Call("save_note", {"text": "Il conto, per favore"}))
    assert uses_output("Moscow: -3°C, snow", Call("calculator", {"expression": "12-(-3)"}))


@pytest.mark.parametrize("s", SCENARIOS, ids=ids)
def test_shape_structure(s: Scenario) -> None:
    calls = s.required_calls
    deps = [rc.depends_on for rc in calls]
    if s.shape == "single":
        assert len(calls) == 1
    elif s.shape == "chain":
        assert len(calls) >= 2 and all(i - 1 in deps[i - 1] for i in range(2, len(calls) + 1))
    elif s.shape == "fan_in":
        independent = [d for d in deps[-1] if not deps[d - 1]]
        assert len(calls) >= 3 and len(independent) >= 2
    elif s.shape == "fan_out":
        assert max(Counter(d for ds in deps for d in ds).values()) >= 2
    if s.shape == "early_answer":
        assert s.sufficient_prefix == len(calls) >= 1 and s.tempting_calls
        assert not {(c.name, json.dumps(c.arguments, sort_keys=True)) for c in s.tempting_calls} & \
            {(c.name, json.dumps(c.arguments, sort_keys=True)) for c in calls}
    else:
        assert s.sufficient_prefix == len(calls) and not s.tempting_calls


@pytest.mark.parametrize("s", SCENARIOS, ids=ids)
def test_reference_passes_and_a_non_answer_fails(s: Scenario) -> None:
    assert constraints_hold(s, s.reference) == (True, "")  # type: ignore[arg-type]
    assert not constraints_hold(s, "I can't help with that.")[0]  # type: ignore[arg-type]
    assert not constraints_hold(s, s.question)[0], f"{s.id}: the question itself satisfies the constraints"  # type: ignore[arg-type]


def test_early_answer_conditions_are_ruled_out_by_the_world() -> None:
    """The tempting steps are waste because the World's answer makes the question's condition false."""
    assert "sunny" in BY_ID["early_answer-en-001"].required_calls[0].output          # "if it's raining"
    assert numbers_in(BY_ID["early_answer-en-002"].required_calls[0].output)[-1] >= 100  # "less than 100 euros"
    assert numbers_in(BY_ID["early_answer-en-003"].required_calls[0].output)[0] > 0     # "below freezing"
    assert int(BY_ID["early_answer-en-004"].required_calls[0].output.split(": ")[1][:2]) < 22  # "past 10 pm"
    assert "sunny" not in BY_ID["early_answer-en-005"].required_calls[0].output
    assert min(numbers_in(c.output)[0] for c in BY_ID["early_answer-en-006"].required_calls) <= 10
    assert float(BY_ID["early_answer-en-007"].required_calls[0].output) <= 10000
    assert "sunny" not in BY_ID["early_answer-ru-001"].required_calls[0].output
    assert 6 <= int(BY_ID["early_answer-ru-002"].required_calls[0].output.split(": ")[1][:2]) < 22
    assert numbers_in(BY_ID["early_answer-ru-003"].required_calls[0].output)[-1] <= 20
    assert max(numbers_in(c.output)[0] for c in BY_ID["early_answer-ru-004"].required_calls) <= 0


# ----------------------------------------------------------------------------- build and freshness

def test_built_data_is_fresh_and_loads() -> None:
    check_scenarios_fresh()
    loaded, manifest = load_scenarios()
    assert [s.as_dict() for s in loaded] == [s.as_dict() for s in SCENARIOS]
    assert manifest["n_scenarios"] == len(SCENARIOS)
    assert manifest["counts"]["shape"] == dict(sorted(Counter(s.shape for s in SCENARIOS).items()))
    assert manifest["counts"]["lang"] == dict(sorted(Counter(s.lang for s in SCENARIOS).items()))


def test_rebuild_is_byte_identical(tmp_path: Path) -> None:
    build_scenarios(data_dir=tmp_path)
    first = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    build_scenarios(data_dir=tmp_path)
    assert first == {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    for name, content in first.items():
        assert (DATA_DIR / name).read_bytes() == content
    assert sorted(first) == ["scenarios.jsonl", "scenarios_manifest.json"]


def test_stale_or_tampered_data_is_detected(tmp_path: Path) -> None:
    for name in ("scenarios.jsonl", "scenarios_manifest.json"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    check_scenarios_fresh(data_dir=tmp_path)
    jsonl = tmp_path / "scenarios.jsonl"
    jsonl.write_bytes(jsonl.read_bytes().replace(b"287.15", b"287.16", 1))
    with pytest.raises(StaleCorpusError, match="build-scenarios"):
        check_scenarios_fresh(data_dir=tmp_path)
    with pytest.raises(StaleCorpusError, match="digest"):
        load_scenarios(data_dir=tmp_path)
    with pytest.raises(StaleCorpusError, match="no built scenarios"):
        load_scenarios(data_dir=tmp_path / "empty")


def test_a_world_table_change_breaks_the_scenarios(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(WEATHER, "Berlin", (15, "cloudy"))
    with pytest.raises(ScenarioError) as err:
        load_scenario_files()
    assert any("depends on #S1" in p and "Berlin: 15°C" in p for p in err.value.problems)


def test_round_trip_through_jsonl() -> None:
    for s in SCENARIOS:
        assert Scenario.from_dict(json.loads(json.dumps(s.as_dict()))) == s


def test_cli_build_scenarios(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    real = sc.build_scenarios
    monkeypatch.setattr(sc, "build_scenarios", lambda: real(data_dir=tmp_path))
    assert cli.main(["build-scenarios"]) == 0
    assert f"{len(SCENARIOS)} scenarios" in capsys.readouterr().out
    assert (tmp_path / "scenarios.jsonl").read_bytes() == (DATA_DIR / "scenarios.jsonl").read_bytes()

    def broken():
        raise ScenarioError(["scenarios/en.yaml:7: required call 1 (get_weather) fails in the World: boom"])
    monkeypatch.setattr(sc, "build_scenarios", broken)
    assert cli.main(["build-scenarios"]) == 1
    err = capsys.readouterr().err
    assert "scenarios/en.yaml:7: required call 1" in err and "1 problem(s)" in err


# ----------------------------------------------------------------------------- validation messages

CHAIN = '''\
- id: chain-en-901
  lang: en
  shape: chain
  question: "What's the temperature in Berlin in kelvin?"
  tools: [get_weather, convert_units]
  required_calls:
    - {name: get_weather, arguments: {city: Berlin}}
    - {name: convert_units, arguments: {value: 14, from_unit: celsius, to_unit: kelvin}, depends_on: [1]}
  answer_contains_all: ["287.15"]
  reference: "It's 287.15 K in Berlin."
'''

EARLY = '''\
- id: early_answer-en-901
  lang: en
  shape: early_answer
  question: "Weather in Paris? If it's raining, convert 20 EUR to USD."
  tools: [get_weather, convert_currency]
  required_calls:
    - {name: get_weather, arguments: {city: Paris}}
  sufficient_prefix: 1
  tempting_calls:
    - {name: convert_currency, arguments: {amount: 20, from_currency: EUR, to_currency: USD}}
  answer_contains_all: ["18"]
  reference: "It's 18°C and sunny in Paris."
'''


def problems_of(tmp_path: Path, text: str) -> tuple[str, list[str]]:
    d = tmp_path / "scen"
    d.mkdir(exist_ok=True)
    path = d / "x.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_scenario_files(d)
    except ScenarioError as e:
        return str(path), e.problems
    return str(path), []


def mutate(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


@pytest.mark.parametrize("template", [CHAIN, EARLY])
def test_templates_are_valid(tmp_path: Path, template: str) -> None:
    assert problems_of(tmp_path, template)[1] == []


MUTATIONS = [
    ("unknown tool", CHAIN, "name: convert_units", "name: convert_unitz", 8, "unknown tool 'convert_unitz'"),
    ("missing argument", CHAIN, ", to_unit: kelvin}", "}", 8, "missing required argument 'to_unit'"),
    ("non-canonical value", CHAIN, "city: Berlin", "city: Берлин", 7, "not a canonical city (did you mean 'Berlin'?)"),
    ("wrong type", CHAIN, "value: 14", 'value: "14"', 8, "wrong type, expected a number"),
    ("tool not offered", CHAIN, "tools: [get_weather, convert_units]", "tools: [get_weather]", 8,
     "not among the offered tools"),
    ("fails in the world", CHAIN, "to_unit: kelvin", "to_unit: kg", 8, "fails in the World: convert_units: cannot convert"),
    ("argument not from the output", CHAIN, "value: 14", "value: 15", 8, "depends on #S1 but none of its argument"),
    ("forward dependency", CHAIN, "depends_on: [1]", "depends_on: [2]", 8, "must name earlier calls only (1..1)"),
    ("not a chain", CHAIN, ", depends_on: [1]", "", 6, "chain: required call 2 must depend on call 1"),
    ("reference fails", CHAIN, "It's 287.15 K in Berlin.", "It's cold in Berlin.", 10, "own reference fails its constraints"),
    ("constraint not from the world", CHAIN, '["287.15"]', '["288"]', 9, "has the number 288"),
    ("no constraints", CHAIN, '  answer_contains_all: ["287.15"]\n', "", 1, "needs answer_contains_any or answer_contains_all"),
    ("unknown field", CHAIN + "  colour: red\n", "colour", "colour", 11, "unknown field 'colour'"),
    ("id does not match shape", CHAIN, "shape: chain", "shape: fan_in", 1, "must look like fan_in-en-NNN"),
    ("unknown shape", CHAIN, "shape: chain", "shape: loop", 3, "shape must be one of"),
    ("prefix on another shape", CHAIN + "  sufficient_prefix: 2\n", "sufficient_prefix", "sufficient_prefix", 11,
     "only for early_answer"),
    ("prefix zero", EARLY, "sufficient_prefix: 1", "sufficient_prefix: 0", 8, "sufficient_prefix 0 out of range; valid 1..1"),
    ("prefix too long", EARLY, "sufficient_prefix: 1", "sufficient_prefix: 3", 8, "sufficient_prefix 3 out of range"),
    ("prefix missing", EARLY, "  sufficient_prefix: 1\n", "", 1, "needs sufficient_prefix"),
    ("tempting tool not offered", EARLY, "name: convert_currency", "name: get_time", 10, "not among the offered tools"),
    ("tempting call fails", EARLY, "amount: 20, from_currency: EUR", "amount: 20, from_currency: XXX", 10,
     "not a canonical currency"),
    ("yaml syntax", CHAIN, "  lang: en\n", "  lang: [en\n", 3, "YAML syntax error"),
]


@pytest.mark.parametrize("name,template,old,new,line,fragment", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_validation_reports_path_line_message(tmp_path: Path, name: str, template: str, old: str, new: str,
                                              line: int, fragment: str) -> None:
    path, probs = problems_of(tmp_path, mutate(template, old, new))
    assert any(p.startswith(f"{path}:{line}: ") and fragment in p for p in probs), probs


def test_duplicate_ids_and_all_problems_are_reported(tmp_path: Path) -> None:
    path, probs = problems_of(tmp_path, CHAIN + "\n" + CHAIN)
    assert probs == [f"{path}:12: duplicate id 'chain-en-901' (first defined at {path}:1)"]
    bad1 = mutate(CHAIN, "value: 14", "value: 15")
    bad2 = mutate(EARLY, "sufficient_prefix: 1", "sufficient_prefix: 0")
    path, probs = problems_of(tmp_path, bad1 + "\n" + bad2)
    assert len(probs) == 2 and f"{path}:8: " in probs[0] and f"{path}:19: " in probs[1]


def test_empty_directory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="no \\*.yaml scenario files"):
        load_scenario_files(tmp_path)
