"""The controlled SPIN study (tooluse1/spin/scripted.py, tooluse1/spin/study.py, benchmarks/spin_study.py).

The scripted roles must do what they are told - the defect families and rates the real validator finds, the
repair rate, the critic accuracy judged against the scoring - and the sweep, run through the real pipeline,
must show what follows from them: a perfect critic never loses outcome against the full plan, a coin-flip
critic does, and repair turns defective plans into executed ones.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tooluse1.backends.base import DecodingConfig
from tooluse1.prompts import Prompt
from tooluse1.report import render_report
from tooluse1.results import ResultsFile, build_results
from tooluse1.spin.critic import accepts, parse_critic_output
from tooluse1.spin.plan import RULES, lenient_plan, validate_plan_text
from tooluse1.spin.prompts import build_repair_prompt, critic_prompt_text, planner_prompt_text
from tooluse1.spin.runner import SpinRunner, make_prompt
from tooluse1.spin.scenarios import load_scenarios
from tooluse1.spin.scoring import SIDE_EFFECT_TOOLS
from tooluse1.spin.scripted import Behaviour, ScriptedSpinBackend, draft_plan, inject_defect, intended_plan
from tooluse1.spin.store import ACCOMPLISHED
from tooluse1.spin.study import StudyGrid, run_study, spin_report_section, study_markdown, study_svg

ROOT = Path(__file__).resolve().parent.parent
TEST = [s for s in load_scenarios()[0] if s.split == "test"]
BY_ID = {s.id: s for s in TEST}
# A family injected alone must be reported alone; dropping every ExpectedOutput line also leaves the counts
# unequal, as in a real plan that lacks them.
ALSO_REPORTED = {"LINES_MISSING": {"COUNTS_MISMATCH"}}


def families(text: str, agents) -> set[str]:
    return {i.family for i in validate_plan_text(text, agents)[1]}


def test_every_injected_defect_is_the_family_the_validator_reports():
    rng = random.Random(7)
    for s in TEST:
        plan = intended_plan(s, Behaviour(seed=1, tempting_rate=1.0))
        assert validate_plan_text(plan.render(), s.agents)[0]
        for family in RULES:
            for _ in range(3):   # different steps of the plan
                text = inject_defect(plan, family, rng)
                assert families(text, s.agents) == {family} | ALSO_REPORTED.get(family, set()), (s.id, family, text)
                lenient_plan(text, s.agents)   # BASE can read every defective plan


@pytest.mark.parametrize("rate", [0.25, 0.6])
def test_planner_emits_the_defect_rate_it_is_told(rate):
    texts = [(draft_plan(s, Behaviour(seed=seed, defect_rate=rate))[0], s.agents) for seed in range(25) for s in TEST]
    n = len(texts)   # 1,525 plans: the binomial sd of a rate is at most 0.013
    invalid = sum(not validate_plan_text(t, a)[0] for t, a in texts) / n
    assert abs(invalid - rate) < 0.05, invalid
    counts = {f: 0 for f in RULES}
    for t, a in texts:
        for f in families(t, a):
            counts[f] += 1
    for family in RULES:   # one family per defective plan, uniform; LINES_MISSING also breaks the counts
        expected = rate / len(RULES) * (2 if family == "COUNTS_MISMATCH" else 1)
        assert abs(counts[family] / n - expected) < 0.03, (family, counts[family] / n, expected)


def test_defect_weights_choose_the_family():
    b = Behaviour(seed=3, defect_rate=1.0, defect_weights={"AGENT_UNKNOWN": 1.0})
    assert {draft_plan(s, b)[1] for s in TEST} == {"AGENT_UNKNOWN"}
    for bad in ({"NOT_A_RULE": 1.0}, {"AGENT_UNKNOWN": -1.0}, {"AGENT_UNKNOWN": 0.0}):
        with pytest.raises(ValueError, match="defect_weights"):
            Behaviour(defect_weights=bad)
    with pytest.raises(ValueError, match="critic_accuracy"):
        Behaviour(critic_accuracy=1.5)


def test_the_intended_plan_is_the_reference_plan_with_tempting_steps():
    s = BY_ID["early_answer-en-001"]
    full = intended_plan(s, Behaviour(tempting_rate=1.0))
    assert len(full) == len(s.reference_calls) + len(s.tempting_calls)
    assert [st.agent for st in full.steps][len(s.reference_calls):] == [c.name for c in s.tempting_calls]
    assert len(intended_plan(s, Behaviour(tempting_rate=0.0))) == len(s.reference_calls)
    chain = next(t for t in TEST if t.shape == "chain")
    assert [st.dependencies for st in intended_plan(chain, Behaviour()).steps][:len(chain.reference_calls)] == \
        [rc.depends_on for rc in chain.reference_calls]


def prompt(sid: str, role: str, n: int, text: str) -> Prompt:
    return make_prompt(sid, "spin", role, n, [{"role": "user", "content": text}])


def ask(backend: ScriptedSpinBackend, p: Prompt) -> str:
    return backend.generate([p], DecodingConfig())[0].text


@pytest.mark.parametrize("rate", [0.0, 0.5, 0.8])
def test_repair_fixes_a_reported_defect_at_the_rate_it_is_told(rate):
    fixed = tried = 0
    for seed in range(20):
        b = Behaviour(seed=seed, defect_rate=1.0, repair_rate=rate)
        backend = ScriptedSpinBackend(TEST, b)
        for s in TEST:
            text, _ = draft_plan(s, b)
            issues = validate_plan_text(text, s.agents)[1]
            repaired = ask(backend, prompt(s.id, "repair", 1, build_repair_prompt(
                planner_prompt_text(s), text, issues)))
            tried += 1
            fixed += validate_plan_text(repaired, s.agents)[0]
    assert abs(fixed / tried - rate) < 0.05, fixed / tried


@pytest.mark.parametrize("accuracy", [0.5, 0.7, 0.9, 1.0])
def test_critic_is_right_at_the_rate_it_is_told(accuracy):
    """Right = accepting exactly the prefixes that hold every required call and no unrequested side effect
    (the intended plan is the reference plan, then the tempting calls: so k >= the number of required calls
    and no tempting note or timer of a kind the scenario does not ask for among the first k steps; the
    scoring lowers such a run's outcome), judged through the real parser and stopping rule."""
    right = total = 0
    for seed in range(12):   # 2,304 verdicts: the binomial sd of the rate is at most 0.011, a quarter of the margin
        b = Behaviour(seed=seed, critic_accuracy=accuracy, tempting_rate=1.0)
        backend = ScriptedSpinBackend(TEST, b)
        for s in TEST:
            plan = intended_plan(s, b)
            asked = {rc.name for rc in s.reference_calls}
            n_ref = len(s.reference_calls)
            harmful = [n_ref + i for i, c in enumerate(s.tempting_calls, 1)
                       if c.name in SIDE_EFFECT_TOOLS - asked]   # step numbers of unrequested side effects
            for k in range(1, len(plan) + 1):
                outputs = [rc.output for rc in s.reference_calls[:k]] + [""] * max(0, k - len(s.reference_calls))
                verdict = parse_critic_output(ask(backend, prompt(s.id, "critic", k, critic_prompt_text(
                    s.question, plan, k, outputs))))
                assert verdict.parse_ok
                right += accepts(verdict) == (k >= len(s.required_calls) and not any(h <= k for h in harmful))
                total += 1
    assert total > 1000
    assert abs(right / total - accuracy) < 0.04 if accuracy < 1 else right == total


def test_executor_needs_the_dependency_output_and_base_pays_for_a_lost_dependency():
    """A step moved in front of its dependency: the validator rejects the plan and repair (rate 1) restores
    it, so VALID is Accomplished; BASE drops the forward reference, the step gets no output to use, makes
    no call, and the run loses its outcome."""
    s = next(t for t in TEST if t.shape == "chain")
    b = Behaviour(seed=0, defect_rate=1.0, repair_rate=1.0, tempting_rate=0.0,
                  defect_weights={"DEPENDENCY_FORWARD_REFERENCE": 1.0})
    runs = {r.variant: r for r in SpinRunner(ScriptedSpinBackend(TEST, b)).run([(s, "base"), (s, "valid")])}
    assert runs["valid"].outcome == ACCOMPLISHED and runs["valid"].repair_rounds == 1
    assert runs["base"].outcome != ACCOMPLISHED
    assert any(st.call is None for st in runs["base"].steps)


@pytest.fixture(scope="module")
def tiny_study() -> dict:
    grid = StudyGrid(critic_accuracies=(0.5, 1.0), defect_rates=(0.0, 0.5), repair_rates=(0.0, 1.0),
                     seeds=(0, 1, 2), tempting_rate=1.0, critic_repair_rates=(0.0, 1.0))
    return run_study(TEST, grid)


def test_perfect_critic_never_loses_a_coin_flip_critic_does(tiny_study):
    cells = tiny_study["early_stopping"]
    assert len(cells) == 2 * 2 * 2
    for c in cells:
        e = c["vs_full_plan"]
        assert e["n"] == 3 * len(TEST)
        if c["critic_accuracy"] == 1.0:
            assert e["outcome_lost"]["k"] == 0 and e["accomplished_diff"]["mean"] >= 0
            if c["defect_rate"] == 0.0 or c["repair_rate"] == 1.0:
                assert e["tasks_saved"]["mean"] > 0.3   # the tempting steps after the sufficient prefix
        else:
            assert e["outcome_lost"]["k"] > 0 and e["accomplished_diff"]["ci95"][1] < 0


def test_repair_buys_what_the_defects_cost(tiny_study):
    cell = {(c["defect_rate"], c["repair_rate"]): c for c in tiny_study["repair"]}
    # Without defects the full plan's outcome is what its tempting steps leave, repaired or not: with every
    # tempting step planned, exactly the scenarios that tempt a note or timer nobody asked for lose it.
    clean = cell[(0.0, 0.0)]["accomplished"]["rate"]
    tempted = sum(any(c.name in SIDE_EFFECT_TOOLS - {rc.name for rc in s.reference_calls} for c in s.tempting_calls)
                  for s in TEST)
    assert 0 < tempted < len(TEST)
    assert clean == cell[(0.0, 1.0)]["accomplished"]["rate"] == pytest.approx(1 - tempted / len(TEST))
    no_repair, repair = cell[(0.5, 0.0)], cell[(0.5, 1.0)]
    assert 0.35 < no_repair["no_valid_plan"]["rate"] < 0.65    # the defective plans, never repaired
    assert repair["no_valid_plan"]["k"] == 0 and repair["accomplished"]["rate"] == clean
    # Repair buys at most the plans that stayed invalid (all of them while such a run is an Error; fewer once
    # the last repair is executed leniently, as BASE executes its plan), and never loses against BASE.
    gain = repair["vs_no_repair"]["accomplished_diff"]["mean"]
    assert 0 < gain <= no_repair["no_valid_plan"]["rate"] + 1e-9
    assert repair["vs_base"]["wins"] > 0 and repair["vs_base"]["losses"] == 0
    assert no_repair["vs_base"]["wins"] == 0     # without repair, validation never beats the lenient reading


def test_study_is_deterministic_and_renders(tiny_study):
    grid = StudyGrid(critic_accuracies=(0.5, 1.0), defect_rates=(0.0, 0.5), repair_rates=(0.0, 1.0),
                     seeds=(0, 1, 2), tempting_rate=1.0, critic_repair_rates=(0.0, 1.0))
    assert run_study(TEST, grid) == tiny_study
    svg = ET.fromstring(study_svg(tiny_study))
    # left: 2 defect rates x 2 accuracies at the first critic repair rate (0.0); right: (2 repair rates + BASE) x 2
    assert svg.tag.endswith("svg") and len(svg.findall(".//{http://www.w3.org/2000/svg}circle")) == 4 + 3 * 2
    table = study_markdown(tiny_study)
    assert table.count("\n| 0.") == 4 + 4   # 2 defect rates x 2 accuracies at repair rate 0.0; 2 x 2 repair rows
    with pytest.raises(ValueError, match="critic_repair_rates"):
        StudyGrid(repair_rates=(0.0, 1.0), critic_repair_rates=(0.5,))


def test_report_shows_the_study_for_spin_results_only(tiny_study, tmp_path):
    path = tmp_path / "study.json"
    path.write_text(json.dumps(tiny_study), encoding="utf-8")
    section = spin_report_section({"spin": {}}, path)
    assert section.startswith('<section id="spin-study">')
    assert "<svg" in section and "benchmarks/spin_study.py" in section
    assert spin_report_section({}, path) == "" and spin_report_section({"spin": {}}, tmp_path / "none.json") == ""
    path.write_text(json.dumps({**tiny_study, "format": 0}), encoding="utf-8")
    assert spin_report_section({"spin": {}}, path) == ""
    doc = build_results({"model": {"model_id": "m"}}, [], {"spin": {"records": []}})
    page = render_report(ResultsFile.from_document(doc, "r", validate=False))
    assert ('id="spin-study"' in page) == (ROOT / "benchmarks/results/spin_study.json").is_file()
    plain = render_report(ResultsFile.from_document(build_results({"model": {"model_id": "m"}}, []), "r",
                                                    validate=False))
    assert "spin-study" not in plain


def test_study_script_end_to_end(tmp_path):
    out = tmp_path / "s.json"
    proc = subprocess.run([sys.executable, "benchmarks/spin_study.py", "--critic", "0.5,1", "--defects", "0,0.5",
                           "--repairs", "1", "--critic-repairs", "1", "--seeds", "2", "--limit", "8", "--out", str(out),
                           "--svg", str(tmp_path / "s.svg"), "--text", str(tmp_path / "s.txt")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    study = json.loads(out.read_text(encoding="utf-8"))
    assert study["n_scenarios"] == 8 and len(study["early_stopping"]) == 4 and len(study["repair"]) == 2
    ET.fromstring((tmp_path / "s.svg").read_text(encoding="utf-8"))
    assert "Early stopping" in (tmp_path / "s.txt").read_text(encoding="utf-8")
    bad = subprocess.run([sys.executable, "benchmarks/spin_study.py", "--critic", "2", "--out", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "critic_accuracies must be rates in [0, 1]" in bad.stderr
