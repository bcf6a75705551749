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


# ----------------------------------------------------------------------------- notation (evaluator docstring rules)

NOTATION = [
    # 1. superscripts before NFKC; vulgar fractions
    ("2¹⁶", 65536), ("1,5²", 2.25), ("10⁻³", 0.001), ("(1+2)²", 9), ("3²+4²", 25), ("π²", math.pi ** 2),
    ("2⁽¹⁺²⁾", 8), ("1.5·10⁻³", 0.0015), ("½*10", 5), ("1½*2", 3), ("1 ½ * 2", 3), ("¾ + ¼", 1),
    ("(3,5 + 2,25) × 4 − 1,5²", 20.75),          # calculator-ru-008: the user's own expression
    # 2. wrappers, edge "=" and "?"
    ('"348*27"', 9396), ("'348*27'", 9396), ("`348*27`", 9396), ("«348*27»", 9396), ("“348*27”", 9396),
    ("```\n348*27\n```", 9396), ("```python\n348*27\n```", 9396), ("$348*27$", 9396), ("$$348*27$$", 9396),
    (r"\(348*27\)", 9396), (r"\[348*27\]", 9396), ("348*27 =", 9396), ("348*27 = ?", 9396), ("348*27=?", 9396),
    ("348*27?", 9396), ("=348*27", 9396), ("＂348*27＂", 9396), ("３４８＊２７", 9396),
    # 3. LaTeX
    (r"348 \times 27", 9396), (r"348 \cdot 27", 9396), (r"1500 \div 12", 125), (r"\frac{1500}{12}", 125),
    (r"\dfrac{1500}{12}", 125), (r"\tfrac{1}{4}", 0.25), (r"\frac12", 0.5), (r"\frac{\frac{1}{2}}{4}", 0.125),
    (r"\sqrt{729}", 27), (r"\sqrt[3]{27}", 3), (r"\left(45+78\right) \cdot 3", 369), (r"2^{16}", 65536),
    (r"$\frac{8750 \times 1.1}{7}$", 1375), (r"1{,}5 \cdot 2", 3), (r"\pi \cdot 2", 2 * math.pi),
    (r"18\% \times 2450", 441), (r"\sqrt{841}", 29), (r"12\,345 + 1", 12346), (r"\ln(e)", 1),
    # 4. signs
    ("10 − 3", 7), ("10 – 3", 7), ("10 — 3", 7), ("−5+3", -2), ("348×27", 9396), ("348·27", 9396),
    ("348⋅27", 9396), ("348∙27", 9396), ("348 ∗ 27", 9396), ("56÷7", 8), ("56 ∕ 7", 8), ("17 mod 5", 2),
    # 5-6. decimal commas, thousands separators
    ("1 500/12", 125), ("1\u00a0500/12", 125), ("1\u202f500/12", 125), ("1\u2009500/12", 125),
    ("1 000 000 / 1000", 1000), ("1'000'000/1000", 1000), ("1,234,567+1", 1234568), ("2,25*4", 9),
    ("12 345,5 * 2", 24691), ("0,18*2450", 441),
    # 7. roots
    ("√729", 27), ("√(729)", 27), ("√2,25", 1.5), ("√2.25", 1.5), ("∛27", 3), ("2√9", 6),
    # 8. multiplication letters, colon division
    ("348 x 27", 9396), ("348x27", 9396), ("348 X 27", 9396), ("348 х 27", 9396), ("348Х27", 9396),
    ("2 x 3 x 4", 24), ("(45+78) x 3", 369), ("2 x sqrt(16)", 8), ("100 : 4", 25), ("(1+3):2", 2),
    # 9. function prefixes and spellings
    ("math.sqrt(729)", 27), ("np.sqrt(729)", 27), ("numpy.sqrt(729)", 27), ("Math.sqrt(729)", 27),
    ("math.pow(2, 10)", 1024), ("Math.PI * 2", 2 * math.pi), ("SQRT(16)", 4), ("LOG10(100)", 2), ("ln(e)", 1),
    ("lg(1000)", 3), ("math.floor(7.9)", 7),
    # 10. implicit multiplication
    ("2(3+4)", 14), ("(1+2)(3+4)", 21), ("2pi", 2 * math.pi), ("3 sqrt(4)", 6), ("(2)3", 6), ("log10(1000)", 3),
    # 12. percent vs modulo, "of"
    ("15% of 200", 30), ("15 % of 200", 30), ("15% от 200", 30), ("15%*200", 30), ("1000 % 7", 6),
    # 13. equations
    ("348*27 = 9396", 9396), ("348 × 27 = 9 396", 9396), ("45+12=57", 57),
]


@pytest.mark.parametrize("text,value", NOTATION)
def test_notation(text, value):
    assert evaluate(text) == pytest.approx(value, rel=1e-9)


@pytest.mark.parametrize("text", [
    "x + 1", "2x + 1", "3 x", "x 3", "0x1F",    # x is multiplication only between two operands
    "{1: 2}", "{2}",           # braces are parentheses only in LaTeX
    "348*27 = 9397",           # an equation whose sides differ
    "2+2=4=4", "=", "= ?", "?", '""', "``", "$$",
    r"\text{abc}", r"\frac{1}", r"\sqrt", r"\frac{a}{b}",
    '"abc"', "'2' + '2'", r"'\d'",
    "1 5000",                  # not a thousands group
    "15% of", "mod 5", "2 : ", "math.os", "np.system('ls')", "math.__import__('os')",
])
def test_notation_near_misses_are_not_comparable(text):
    assert evaluate(text) is None


def test_superscript_is_a_power_and_plain_digits_are_not():
    assert evaluate("2¹⁶") == 65536 and evaluate("2^16") == 65536 and evaluate("2**16") == 65536
    assert evaluate("216") == 216 and not same_value(evaluate("216"), evaluate("2¹⁶"))
    assert evaluate("²") == 2                              # no operand before it: NFKC makes it a digit


def test_commas_keep_separating_arguments_first():
    assert evaluate("max(1,500)") == 500 and evaluate("round(2,345)") == 2
    assert evaluate("sqrt(2,25)") == 1.5                   # one argument only: read as a decimal comma


@pytest.fixture(scope="module")
def corpus_expressions():
    cases, _ = load_corpus()
    return sorted({c.expect.call.arguments["expression"] for c in cases
                   if c.expect.kind == "call" and c.expect.call.name == "calculator"})


def _rewrites(expr: str) -> list[str]:
    """The same expression in the notations models write (each must keep the value)."""
    times = ["×", " x ", " х ", "·", r" \times ", r" \cdot "]
    out = [expr.replace("**", "^"), f'"{expr}"', f"`{expr}`", f"${expr}$", f"{expr} =", f"{expr} = ?",
           expr.replace("-", "−"), expr.replace("/", "÷"), f"math.{expr}" if expr.startswith("sqrt") else expr]
    out += [expr.replace("*", t) for t in times if "**" not in expr]
    if "." in expr and "," not in expr:
        out.append(expr.replace(".", ","))                 # decimal commas (no argument commas in these)
    return out


def test_every_corpus_expression_keeps_its_value_in_other_notations(corpus_expressions):
    assert len(corpus_expressions) >= 20
    for expr in corpus_expressions:
        want = evaluate(expr)
        assert want is not None, expr
        for variant in _rewrites(expr):
            assert same_value(evaluate(variant), want), (expr, variant, evaluate(variant))


@pytest.mark.parametrize("text", [
    "\\frac{" * 60 + "1" + "}{2}" * 60,
    "\\sqrt{" * 100 + "4" + "}" * 100,
    "2" + "⁽" * 100 + "²" + "⁾" * 100,
    "½" * 150, "√" * 300 + "4", "x" * 399, "1 x " * 100, "(" * 200 + ")" * 199,
    "$" * 399, '"' * 399, "`" * 399, "```" * 100, "1,5²" * 100, "2¹⁶" * 100,
])
def test_notation_rewrites_stay_bounded(text):
    evaluator._evaluate_str.cache_clear()
    t0 = time.process_time()
    evaluate(text)
    assert time.process_time() - t0 < 0.1


def test_arbitrary_notation_never_raises():
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies
    alphabet = st.sampled_from(list("0123456789+-*/^()., xXх×÷:√²³⁻⁽⁾½%=$\"'`{}[]") +
                               ["\\frac", "\\sqrt", "\\times", "\\left(", "\\right)", "sqrt", "pi", "math.", "**",
                                "\u00a0", "\u2212", "mod", " of "])

    @hypothesis.settings(max_examples=300, deadline=None, database=None)
    @hypothesis.given(st.lists(alphabet, max_size=60).map("".join))
    def check(text):
        value = evaluate(text)
        assert value is None or isinstance(value, float)

    check()
