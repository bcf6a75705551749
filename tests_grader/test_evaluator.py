"""The safe arithmetic evaluator: values, the hostile list (None, fast), and grading with hostile expressions."""
from __future__ import annotations

import json
import math
import time

import pytest

from tooluse1.corpus import load_corpus
from tooluse1 import evaluator
from tooluse1.evaluator import evaluate, same_value
from tooluse1.grade import grade
from tooluse1.prompts import PROTOCOLS, format_call
from tooluse1.tools import Call


@pytest.mark.parametrize("text", ["45+12", "45 + 12", "(45+12)", "57", "57.0", " 45+12 = ", "((45)+(12))", "12+45"])
def test_spec_examples_equal_57(text):
    assert evaluate(text) == 57.0


@pytest.mark.parametrize("text,value", [
    ("2^10", 1024.0), ("2**10", 1024.0), ("sqrt(144)", 12.0), ("√144", 12.0), ("7×8", 56.0), ("56÷7", 8.0),
    ("10−3", 7.0), ("(12.5+7.5)*3-4/2", 58.0), ("1500/12", 125.0),
    ("15%*200", 30.0), ("200*15%", 30.0), ("18% * 2450", 441.0),        # percent
    ("17 % 5", 2.0), ("17%5", 2.0),                                      # modulo: an operand follows
    ("2,5*2", 5.0), ("1,500+1", 1501.0), ("1 500 + 1", 1501.0),           # decimal comma, thousands
    ("15,5%", 0.155), ("15,5% * 200", 31.0), ("1,500.5", 1500.5),
    ("max(1,2)", 2.0), ("round(3.14159,2)", 3.14), ("pow(2,10)", 1024.0),  # commas separating arguments
    ("abs(-3)", 3.0), ("pi*2", 2 * math.pi), ("-5", -5.0), ("1e3", 1000.0), ("0.1+0.2", 0.30000000000000004),
])
def test_values(text, value):
    assert evaluate(text) == pytest.approx(value, rel=1e-12)


@pytest.mark.parametrize("value,expected", [(57, 57.0), (57.5, 57.5), (True, None), (float("inf"), None),
                                            (float("nan"), None), (None, None), ([57], None), (10 ** 400, None)])
def test_non_string_inputs(value, expected):
    result = evaluate(value)
    assert result == expected if expected is not None else result is None


HOSTILE = [
    "__import__('os')",
    "__import__('os').system('echo pwned')",
    "9**9**9**9",
    "(" * 10000 + "1" + ")" * 10000,
    "(" * 40 + "1" + ")" * 40,
    "'a'*10**9",
    "10**400",
    "9" * 5000,
    "10**9999",
    "2**4095*2",
    "2**1000*2**1000*2**1000*2**1000*2**1000",
    "pow(9, 9**9)",
    "pow(2, 10**9)",
    "round(12345, -10**8)",
    "1e308*10",
    "exp(1000)",
    "lambda: 1",
    "(lambda: 1)()",
    "(1).real",
    "().__class__.__bases__[0].__subclasses__()",
    "pi.real",
    "os",
    "x + 1",
    "[1, 2]",
    "{1: 2}",
    "[x for x in range(10**9)]",
    "1 if True else 2",
    "1 < 2",
    "~5",
    "True",
    "open('/etc/passwd')",
    "factorial(5)",
    "sqrt(-1)",
    "1/0",
    "",
    "   ",
    "1+" * 150 + "1",
]


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:30]) + f"<{len(t)}>")
def test_hostile_expressions_are_not_comparable_and_fast(text):
    evaluator._evaluate_str.cache_clear()          # time the real work, not a cached answer
    t0 = time.process_time()
    result = evaluate(text)
    elapsed = time.process_time() - t0
    assert result is None
    assert elapsed < 0.1, f"{elapsed:.3f} s"


@pytest.fixture(scope="module")
def calculator_case():
    cases, _ = load_corpus()
    return next(c for c in cases if c.id == "calculator-en-001")


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:30]) + f"<{len(t)}>")
def test_grading_a_hostile_expression_never_raises_and_fails(calculator_case, text):
    for protocol in PROTOCOLS:
        outputs = [format_call(Call("calculator", {"expression": text}), protocol),
                   json.dumps({"name": "calculator", "arguments": {"expression": text}})]
        for output in outputs:
            v = grade(calculator_case, output, protocol)
            assert not v.passed
            assert v.label in ("call", "malformed")


def test_same_value_tolerance():
    assert same_value(57.0, 57.0 * (1 + 1e-7))
    assert not same_value(57.0, 57.0 * (1 + 1e-3))
    assert not same_value(20.0, 21.0)
    assert same_value(0.0, 1e-12)
    assert not same_value(None, None) and not same_value(None, 1.0) and not same_value(1.0, None)
