"""SPIN plan scenarios: the authored set, its data flow through the World, validation errors, the build."""
from __future__ import annotations

import json
import math
import re
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
import shutil
from collections import Counter
from pathlib import Path
from typing import Callable

import pytest

from tooluse1 import cli
from tooluse1.corpus import DATA_DIR, StaleCorpusError, load_corpus
from tooluse1.spin import scenarios as sc
from tooluse1.spin.scenarios import (
    SCENARIOS_DIR,
    RequiredCall,
    SHAPES,
    SPLITS,
    Scenario,
    ScenarioError,
    build_scenarios,
    check_scenarios_fresh,
    load_scenario_files,
    load_scenarios,
    text_meets,
    uses_output,
)
from tooluse1.spin.scoring import score_run
from tooluse1.aliases import norm_text
from tooluse1.toolbox import WEATHER
from tooluse1.tools import TOOLS, Call
from tooluse1.world import World, numbers_in

SCENARIOS = load_scenario_files()
BY_ID = {s.id: s for s in SCENARIOS}


def ids(s: Scenario) -> str:
    return s.id


def _close(a: float, b: float) -> bool:
    return math.isclose(abs(a), abs(b), rel_tol=1e-9, abs_tol=1e-9)


# ----------------------------------------------------------------------------- the authored set

def test_counts_per_shape_language_and_split() -> None:
    """Enough scenarios to show the trade-off: stopping early is right (early_answer) in at least 20 and
    wrong (conditional) in at least 20 of the evaluated (test) scenarios, and a plan has about as many
    required-or-tempting steps as the paper's runs execute tasks."""
    shapes = Counter(s.shape for s in SCENARIOS)
    langs = Counter(s.lang for s in SCENARIOS)
    assert len(SCENARIOS) >= 70
    assert set(shapes) == set(SHAPES)
    test = [s for s in SCENARIOS if s.split == "test"]
    assert Counter(s.shape for s in test)["early_answer"] >= 20 and Counter(s.shape for s in test)["conditional"] >= 20
    assert {s.split for s in SCENARIOS} == set(SPLITS) and 10 <= sum(s.split == "train" for s in SCENARIOS) < len(test)
    assert sum(len(s.required_calls) + len(s.tempting_calls) for s in SCENARIOS) / len(SCENARIOS) >= 3
    assert langs["en"] >= 40 and langs["ru"] >= 25
    for lang in ("en", "ru"):
        assert {s.shape for s in SCENARIOS if s.lang == lang} == set(SHAPES), lang


def test_every_early_answer_has_a_conditional_mirror() -> None:
    for s in SCENARIOS:
        if s.shape == "early_answer":
            mirror = BY_ID[s.id.replace("early_answer", "conditional")]
            assert mirror.lang == s.lang and len(mirror.required_calls) > len(s.required_calls), s.id


def test_no_test_scenario_can_retrieve_its_own_calls() -> None:
    train = {c.signature for s in SCENARIOS if s.split == "train"
             for c in (*s.reference_calls, *(RequiredCall(t.name, t.arguments) for t in s.tempting_calls))}
    assert not [c.signature for s in SCENARIOS if s.split == "test" for c in s.reference_calls if c.signature in train]


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
    for i, rc in enumerate(s.reference_calls, 1):
        assert rc.name in s.tools
        res = world.execute(rc.call)
        assert res.ok, f"{s.id} call {i}: {res.error}"
        assert res.output == rc.output, f"{s.id} call {i}: stored output differs from the World's"
    for call in s.tempting_calls:
        assert call.name in s.tools
        assert world.execute(call).ok, f"{s.id}: tempting call {call} fails"


@pytest.mark.parametrize("s", [s for s in SCENARIOS if any(rc.depends_on for rc in s.reference_calls)], ids=ids)
def test_later_arguments_come_from_earlier_world_outputs(s: Scenario) -> None:
    """Numbers a dependent call passes on are numbers its dependencies' World outputs contain."""
    question_numbers = numbers_in(s.question.replace(",", ""))
    for i, rc in enumerate(s.reference_calls, 1):
        if not rc.depends_on:
            continue
        dep_outputs = {d: s.reference_calls[d - 1].output for d in rc.depends_on}
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
    calls = s.reference_calls
    deps = [rc.depends_on for rc in calls]
    if s.shape == "single":
        assert len(s.required_calls) == 1
    elif s.shape == "chain":
        assert len(calls) >= 2 and all(i - 1 in deps[i - 1] for i in range(2, len(calls) + 1))
    elif s.shape == "fan_in":
        independent = [d for d in deps[-1] if not deps[d - 1]]
        assert len(calls) >= 3 and len(independent) >= 2
    elif s.shape == "fan_out":
        assert max(Counter(d for ds in deps for d in ds).values()) >= 2
    elif s.shape == "conditional":
        assert len(s.required_calls) >= 2
    assert s.sufficient_prefix == len(s.required_calls) >= 1
    if s.shape == "early_answer":
        assert s.tempting_calls
    assert not {(c.name, json.dumps(c.arguments, sort_keys=True)) for c in s.tempting_calls} & \
        {(c.name, json.dumps(c.arguments, sort_keys=True)) for c in calls}


@pytest.mark.parametrize("s", SCENARIOS, ids=ids)
def test_reference_passes_and_a_non_answer_fails(s: Scenario) -> None:
    assert s.answer_ok(s.reference) == (True, "")
    assert not s.answer_ok("I can't help with that.")[0]
    assert not s.answer_ok(s.question)[0], f"{s.id}: the question itself satisfies the constraints"


_TOKEN = re.compile(r"\d+(?:\.\d+)?|\w+|[^\w\s]")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(norm_text(text))


def _token_eq(want: str, got: str) -> bool:
    """A phrase token against an answer token, as token matching compares them: words exactly, numbers by
    value, a number with d decimals also matching one with more decimals that rounds or cuts to it."""
    if not (want[0].isdigit() and got[0].isdigit()):
        return want == got
    places = len(want.split(".")[1]) if "." in want else 0
    q = Decimal(1).scaleb(-places)
    return any(Decimal(got).quantize(q, rounding=r) == Decimal(want) for r in (ROUND_HALF_UP, ROUND_DOWN))


def _has_phrase(phrase: str, text: str) -> bool:
    """A phrase's tokens consecutive in the text; a last word written with `*` (the grader's stem mark) matches
    any word it starts ("rain*" ~ "rainy")."""
    stem = phrase.endswith("*")
    want, got = _tokens(phrase.rstrip("*")), _tokens(text)

    def eq(j: int, w: str, g: str) -> bool:
        return g.startswith(w) if stem and j == len(want) - 1 else _token_eq(w, g)
    return any(all(eq(j, w, g) for j, (w, g) in enumerate(zip(want, got[i:i + len(want)])))
               for i in range(len(got) - len(want) + 1))


def test_constraints_hold_under_token_matching_too() -> None:
    """Constraints must hold under substring matching (today) and token matching (the grader 2.0: words
    consecutive, numbers by value): the reference meets them both ways, with whole words and numbers."""
    for s in SCENARIOS:
        assert all(_has_phrase(p, s.reference) for p in s.answer_contains_all), s.id
        if s.answer_contains_any:
            assert any(_has_phrase(p, s.reference) for p in s.answer_contains_any), s.id
        for rc in s.reference_calls:
            for arg, phrases in rc.facts.items():
                assert all(_has_phrase(p, rc.arguments[arg]) for p in phrases), (s.id, arg)
    assert not _has_phrase("дожд", "идёт дождь") and _has_phrase("14240", "14240.51 JPY")
    assert not _has_phrase("14240", "14241 JPY") and _has_phrase("26.2", "26.218757 mi")


def test_notes_are_graded_by_their_facts() -> None:
    """chain-en-006 asked for the ruble price; the World's conversion reads "97250 USD = 8995625.00 RUB":
    a note with that text is the right note, though not the authored "1 BTC = ..." wording."""
    s = BY_ID["chain-en-006"]
    calls = [rc.call for rc in s.required_calls[:2]]
    world_note = Call("save_note", {"text": "97250 USD = 8995625.00 RUB", "title": "BTC"})
    assert score_run(s, calls + [world_note], s.reference).outcome == "Accomplished"
    wrong = Call("save_note", {"text": "97250 USD = 89470.00 EUR", "title": "BTC"})
    assert score_run(s, calls + [wrong], s.reference).outcome == "Partially accomplished"
    ru = BY_ID["fan_out-ru-002"]            # a Russian note about an English World output
    english = Call("save_note", {"text": "Yekaterinburg: -11°C, snow", "title": "Погода"})
    assert score_run(ru, [c.call for c in ru.required_calls[:2]] + [english], ru.reference).outcome == "Accomplished"


def test_fan_in_needs_no_calculator_call() -> None:
    """The bare-minimum plan of "how much warmer is Madrid than Berlin" is the two lookups; the answer
    does the subtraction. A calculator step is allowed: not extra, not required."""
    s = BY_ID["fan_in-en-001"]
    lookups = [rc.call for rc in s.required_calls]
    without = score_run(s, lookups, s.reference)
    assert without.outcome == "Accomplished" and without.n_extra == 0
    with_calc = score_run(s, lookups + [Call("calculator", {"expression": "24 - 14"})], s.reference)
    assert with_calc.outcome == "Accomplished" and with_calc.n_allowed == 1 and with_calc.n_extra == 0
    assert all(x.allowed_calls and x.allowed_calls[0].name == "calculator" for x in SCENARIOS if x.shape == "fan_in")


def test_text_meets() -> None:
    assert text_meets(["14240"], [], [], "about 14240.51 yen") == (True, "")
    assert not text_meets(["a"], ["b", "c"], [], "a d")[0] and text_meets(["a"], ["b", "c"], [], "A C")[0]
    assert text_meets([], ["x"], ["umbrella"], "x, take an umbrella") == (False, "answer asserts the wrong 'umbrella'")
    # the core grader's token rule: whole words, numbers by value, stems with *
    assert not text_meets(["rain"], [], [], "it is raining")[0] and text_meets(["rain*"], [], [], "it is raining")[0]
    assert text_meets(["1024"], [], [], "1,024 bytes")[0]


def _hour(output: str) -> int:
    return int(output.split(": ")[1][:2])


def _first(output: str) -> float:
    return numbers_in(output)[0]


def _last(output: str) -> float:
    return numbers_in(output)[-1]


# Each question's condition, evaluated on the World outputs of the scenario's lookups (its first calls):
# an early_answer's condition is false (stopping after the lookups is right), a conditional's true.
CONDITIONS: dict[str, Callable[[list[str]], bool]] = {
    "early_answer-en-001": lambda o: "rain" in o[0],                       # "if it's raining"
    "early_answer-en-002": lambda o: _last(o[0]) < 100,                    # "less than 100 euros"
    "early_answer-en-003": lambda o: _first(o[0]) < 0,                     # "below freezing"
    "early_answer-en-004": lambda o: _hour(o[0]) >= 22,                    # "past 10 pm"
    "early_answer-en-005": lambda o: "sunny" in o[0],
    "early_answer-en-006": lambda o: min(_first(x) for x in o[:2]) > 10,   # "both above 10°C"
    "early_answer-en-007": lambda o: float(o[0]) > 10000,
    "early_answer-en-008": lambda o: _first(o[0]) > 400,                   # "taller than 400 meters"
    "early_answer-en-009": lambda o: _first(o[0]) < 20,
    "early_answer-en-010": lambda o: _last(o[0]) > 100,
    "early_answer-en-011": lambda o: _hour(o[0]) >= 18,                    # "after 6 pm"
    "early_answer-en-012": lambda o: _first(o[0]) > 9000,
    "early_answer-en-013": lambda o: "snow" in o[0],
    "early_answer-ru-001": lambda o: "sunny" in o[0],
    "early_answer-ru-002": lambda o: not 6 <= _hour(o[0]) < 22,            # "если там уже ночь"
    "early_answer-ru-003": lambda o: _last(o[0]) > 20,
    "early_answer-ru-004": lambda o: max(_first(x) for x in o[:2]) > 0,    # "хотя бы в одном выше нуля"
    "early_answer-ru-005": lambda o: _first(o[0]) > 0,
    "early_answer-ru-006": lambda o: numbers_in(o[0].split("PlayStation 5")[1])[0] < 300,
    "early_answer-ru-007": lambda o: max(numbers_in(o[0])) > 2000,
    "early_answer-ru-008": lambda o: _hour(o[0]) >= 12,
    "early_answer-ru-009": lambda o: _last(o[0]) > 30000,
    "conditional-en-001": lambda o: "rain" in o[0],
    "conditional-en-002": lambda o: _last(o[0]) < 100,
    "conditional-en-003": lambda o: _first(o[0]) < 0,
    "conditional-en-004": lambda o: _hour(o[0]) >= 22,
    "conditional-en-005": lambda o: "sunny" in o[0],
    "conditional-en-006": lambda o: min(_first(x) for x in o[:2]) > 10,
    "conditional-en-007": lambda o: float(o[0]) > 10000,
    "conditional-en-008": lambda o: max(numbers_in(o[0])) > 400,
    "conditional-en-009": lambda o: _first(o[0]) < 20,
    "conditional-en-010": lambda o: _last(o[0]) > 100,
    "conditional-en-011": lambda o: _hour(o[0]) >= 14,                    # "after 2 pm"
    "conditional-en-012": lambda o: max(numbers_in(o[0])) > 800,
    "conditional-en-013": lambda o: "rain" in o[0],
    "conditional-ru-001": lambda o: "sunny" in o[0],
    "conditional-ru-002": lambda o: not 6 <= _hour(o[0]) < 22,
    "conditional-ru-003": lambda o: _last(o[0]) > 20,
    "conditional-ru-004": lambda o: max(_first(x) for x in o[:2]) > 0,
    "conditional-ru-005": lambda o: _first(o[0]) > 0,
    "conditional-ru-006": lambda o: numbers_in(o[0].split("PlayStation 5")[1])[0] > 400,
    "conditional-ru-007": lambda o: max(numbers_in(o[0])) > 8000,
    "conditional-ru-008": lambda o: _hour(o[0]) >= 12,
    "conditional-ru-009": lambda o: _last(o[0]) > 30000,
}


def test_every_conditional_question_has_its_condition_written_down() -> None:
    assert set(CONDITIONS) == {s.id for s in SCENARIOS if s.shape in ("early_answer", "conditional")}


@pytest.mark.parametrize("sid", sorted(CONDITIONS))
def test_the_world_decides_the_condition(sid: str) -> None:
    """early_answer: the World makes the condition false, so its tempting steps are waste; conditional:
    the World makes it true, so the conditional calls are required."""
    s = BY_ID[sid]
    holds = CONDITIONS[sid]([rc.output for rc in s.required_calls])
    assert holds is (s.shape == "conditional"), sid


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
  split: test
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
  split: test
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
    ("unknown tool", CHAIN, "name: convert_units", "name: convert_unitz", 9, "unknown tool 'convert_unitz'"),
    ("missing argument", CHAIN, ", to_unit: kelvin}", "}", 9, "missing required argument 'to_unit'"),
    ("non-canonical value", CHAIN, "city: Berlin", "city: Берлин", 8, "not a canonical city (did you mean 'Berlin'?)"),
    ("wrong type", CHAIN, "value: 14", 'value: "14"', 9, "wrong type, expected a number"),
    ("tool not offered", CHAIN, "tools: [get_weather, convert_units]", "tools: [get_weather]", 9,
     "not among the offered tools"),
    ("fails in the world", CHAIN, "to_unit: kelvin", "to_unit: kg", 9,
     "fails in the World: convert_units: cannot convert"),
    ("argument not from the output", CHAIN, "value: 14", "value: 15", 9, "depends on #S1 but none of its argument"),
    ("forward dependency", CHAIN, "depends_on: [1]", "depends_on: [2]", 9, "must name earlier calls only (1..1)"),
    ("not a chain", CHAIN, ", depends_on: [1]", "", 7, "chain: call 2 must depend on call 1"),
    ("reference fails", CHAIN, "It's 287.15 K in Berlin.", "It's cold in Berlin.", 11,
     "own reference fails its constraints"),
    ("constraint not from the world", CHAIN, '["287.15"]', '["288"]', 10, "has the number 288"),
    ("no constraints", CHAIN, '  answer_contains_all: ["287.15"]\n', "", 1,
     "needs answer_contains_any or answer_contains_all"),
    ("unknown field", CHAIN + "  colour: red\n", "colour", "colour", 12, "unknown field 'colour'"),
    ("id does not match shape", CHAIN, "shape: chain", "shape: fan_in", 1, "must look like fan_in-en-NNN"),
    ("unknown shape", CHAIN, "shape: chain", "shape: loop", 3, "shape must be one of"),
    ("unknown split", CHAIN, "split: test", "split: dev", 4, "split must be one of ('train', 'test')"),
    ("prefix on another shape", CHAIN + "  sufficient_prefix: 2\n", "sufficient_prefix", "sufficient_prefix", 12,
     "only for early_answer"),
    ("prefix zero", EARLY, "sufficient_prefix: 1", "sufficient_prefix: 0", 9,
     "sufficient_prefix 0 out of range; valid 1..1"),
    ("prefix too long", EARLY, "sufficient_prefix: 1", "sufficient_prefix: 3", 9, "sufficient_prefix 3 out of range"),
    ("prefix missing", EARLY, "  sufficient_prefix: 1\n", "", 1, "needs sufficient_prefix"),
    ("tempting tool not offered", EARLY, "name: convert_currency", "name: get_time", 11, "not among the offered tools"),
    ("tempting call fails", EARLY, "amount: 20, from_currency: EUR", "amount: 20, from_currency: XXX", 11,
     "not a canonical currency"),
    ("tempting is a reference call", EARLY, "{amount: 20, from_currency: EUR, to_currency: USD}}",
     "{amount: 20, from_currency: EUR, to_currency: USD}}\n    - {name: get_weather, arguments: {city: Paris}}", 12,
     "tempting call (get_weather) is also a reference call"),
    ("fact the value lacks", CHAIN, "to_unit: kelvin}, depends_on: [1]}",
     "to_unit: kelvin}, depends_on: [1]}\n    - {name: get_weather, arguments: {city: Berlin}, facts: {city: [x]}}", 10,
     "facts can grade only a free-text argument"),
    ("allowed call not from the output", CHAIN, '  answer_contains_all: ["287.15"]',
     '  allowed_calls:\n    - {name: convert_units, arguments: {value: 20, from_unit: celsius, to_unit: kelvin}, '
     'depends_on: [1]}\n  answer_contains_all: ["287.15"]', 11, "call 3 (convert_units) depends on #S1"),
    ("conditional with one call", CHAIN.replace("chain", "conditional").replace(", depends_on: [1]", ""),
     "    - {name: convert_units, arguments: {value: 14, from_unit: celsius, to_unit: kelvin}}\n", "", 7,
     "conditional: the lookup and the calls its outcome makes necessary are required"),
    ("yaml syntax", CHAIN, "  lang: en\n", "  lang: [en\n", 3, "YAML syntax error"),
]


@pytest.mark.parametrize("name,template,old,new,line,fragment", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_validation_reports_path_line_message(tmp_path: Path, name: str, template: str, old: str, new: str,
                                              line: int, fragment: str) -> None:
    path, probs = problems_of(tmp_path, mutate(template, old, new))
    assert any(p.startswith(f"{path}:{line}: ") and fragment in p for p in probs), probs


def test_duplicate_ids_and_all_problems_are_reported(tmp_path: Path) -> None:
    path, probs = problems_of(tmp_path, CHAIN + "\n" + CHAIN)
    assert probs == [f"{path}:13: duplicate id 'chain-en-901' (first defined at {path}:1)"]
    bad1 = mutate(CHAIN, "value: 14", "value: 15")
    bad2 = mutate(EARLY, "sufficient_prefix: 1", "sufficient_prefix: 0")
    path, probs = problems_of(tmp_path, bad1 + "\n" + bad2)
    assert len(probs) == 2 and f"{path}:9: " in probs[0] and f"{path}:21: " in probs[1]


def test_empty_directory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="no \\*.yaml scenario files"):
        load_scenario_files(tmp_path)


def test_a_train_scenario_sharing_a_test_call_is_a_leak(tmp_path: Path) -> None:
    other = mutate(mutate(CHAIN, "chain-en-901", "chain-en-902"), "split: test", "split: train")
    other = mutate(other, "What's the temperature in Berlin in kelvin?", "Berlin in kelvin, please?")
    path, probs = problems_of(tmp_path, CHAIN + "\n" + other)
    assert len(probs) == 2 and all("would leak into the simulator" in p for p in probs)
    assert probs[0].startswith(f"{path}:1: test scenario chain-en-901: reference call get_weather")
