"""Safe arithmetic evaluation for comparing calculator expressions by value.

`evaluate(text)` returns a float, or None ("not comparable") for anything outside a fixed whitelist or
beyond fixed bounds. It never raises and never runs long: the text length is capped before parsing (so
`(((...)))` 10k deep never reaches the parser's recursion), the AST depth and node count are capped, and
exponentiation and integer size are bounded before they are computed (so `9**9**9**9` is refused, not
computed). Names other than a few math functions/constants (e.g. `__import__`) are refused.
"""
from __future__ import annotations

import ast
import functools
import math
import operator
import re
import unicodedata

MAX_LEN = 200
MAX_DEPTH = 30
MAX_NODES = 200
MAX_EXPONENT = 1000
MAX_ABS = 1e300
MAX_INT_BITS = 4096
MAX_ROUND_DIGITS = 400

_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_FUNCS = {"sqrt": math.sqrt, "abs": abs, "round": round, "floor": math.floor, "ceil": math.ceil,
          "log": math.log, "log10": math.log10, "log2": math.log2, "exp": math.exp, "sin": math.sin,
          "cos": math.cos, "tan": math.tan, "min": min, "max": max, "pow": pow}
_CONSTS = {"pi": math.pi, "e": math.e}


class _Refused(Exception):
    pass


def _prepare(text: str, commas: bool = False) -> str:
    s = unicodedata.normalize("NFKC", text).strip()
    s = s.replace("×", "*").replace("·", "*").replace("÷", "/").replace("−", "-").replace("^", "**")
    # "√144" -> "sqrt(144)": a bare "sqrt144" was a name, so "√144" never evaluated; "√(144)" -> "sqrt(144)".
    s = re.sub(r"√\s*(\d+(?:\.\d+)?)", r"sqrt(\1)", s).replace("√", "sqrt")
    s = re.sub(r"(?<=\d)\s+(?=\d{3}\b)", "", s)   # "1 500" -> "1500" (thousands separator)
    if commas:
        s = _decimal_commas(s)
    # "15%" / "15% * 80" is a percentage; "1000 % 7" (an operand follows) stays modulo.
    s = re.sub(r"(\d+(?:\.\d+)?)\s*%(?!\s*[\d(.a-z])", r"(\1/100)", s)
    return s.rstrip("= ")


def _decimal_commas(s: str) -> str:
    """Commas between digits as number punctuation: "1,500" -> "1500" (thousands), "2,5" -> "2.5".

    Applied (in `_prepare`, before the percent rewrite, so "15,5%" is 0.155) only when the text as written
    does not evaluate, so commas that separate function arguments keep their meaning: "max(1,2)" is 2 and
    "round(3.14159,2)" is 3.14 (rewriting first made them "max(1.2)" and "round(3.14159.2)", not
    comparable, and "round(2,345)" became 2345).
    """
    s = re.sub(r"(?<=\d),(?=\d{3}\b)", "", s)
    return re.sub(r"(?<=\d),(?=\d)", ".", s)


def _eval(node: ast.AST, depth: int) -> float | int:
    if depth > MAX_DEPTH:
        raise _Refused("too deep")
    if isinstance(node, ast.Expression):
        return _eval(node.body, depth + 1)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.Name) and node.id in _CONSTS:
        return _CONSTS[node.id]
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _check(_UNARY[type(node.op)](_eval(node.operand, depth + 1)))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        left, right = _eval(node.left, depth + 1), _eval(node.right, depth + 1)
        if isinstance(node.op, ast.Pow):
            _guard_pow(left, right)
        if isinstance(node.op, ast.Mult) and isinstance(left, int) and isinstance(right, int):
            if left.bit_length() + right.bit_length() > MAX_INT_BITS:
                raise _Refused("integer too large")
        return _check(_BINOPS[type(node.op)](left, right))
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCS
            and not node.keywords and 0 < len(node.args) <= 3):
        args = [_eval(a, depth + 1) for a in node.args]
        # pow() and round() get the same size bounds as `**`: unguarded, pow(9, 9**9) computes a ~1e9-bit
        # integer and round(12345, -10**8) computes 10**(10**8) internally; both ran for minutes.
        if node.func.id == "pow":
            if len(args) != 2:
                raise _Refused("pow takes two arguments")
            _guard_pow(*args)
        elif node.func.id == "round" and len(args) > 1 and abs(args[1]) > MAX_ROUND_DIGITS:
            raise _Refused("round digits out of range")
        return _check(_FUNCS[node.func.id](*args))
    raise _Refused(f"not allowed: {type(node).__name__}")


def _guard_pow(base: float | int, exponent: float | int) -> None:
    """Refuse a power whose exponent or result size is out of bounds, before it is computed."""
    if abs(exponent) > MAX_EXPONENT or (abs(base) > 1 and abs(exponent) * math.log2(abs(base)) > MAX_INT_BITS):
        raise _Refused("exponent too large")


def _check(value: object) -> float | int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Refused("not a number")
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise _Refused("integer too large")
    if isinstance(value, float) and (math.isnan(value) or abs(value) > MAX_ABS):
        raise _Refused("out of range")
    return value


def evaluate(text: object) -> float | None:
    """The value of an arithmetic expression (or a plain number), else None. Never raises."""
    if isinstance(text, bool):
        return None
    if isinstance(text, (int, float)):
        try:
            return float(text) if math.isfinite(text) else None
        except OverflowError:   # an int beyond float range (JSON allows any length): not comparable
            return None
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_LEN:
        return None
    return _evaluate_str(text)


@functools.lru_cache(maxsize=8192)
def _evaluate_str(text: str) -> float | None:
    # A pure function of the text, cached: the grader evaluates each expected expression many times.
    value = _evaluate_prepared(_prepare(text))
    if value is None and "," in text:
        value = _evaluate_prepared(_prepare(text, commas=True))
    return value


def _evaluate_prepared(s: str) -> float | None:
    if len(s) > MAX_LEN or s.count("(") > MAX_DEPTH:
        return None
    try:
        tree = ast.parse(s, mode="eval")
        if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
            return None
        value = _eval(tree, 0)
        return float(value)
    except (_Refused, SyntaxError, ValueError, TypeError, ZeroDivisionError, OverflowError, MemoryError,
            RecursionError):
        return None


def same_value(a: float | None, b: float | None, rel_tol: float = 1e-6, abs_tol: float = 1e-9) -> bool:
    """Numeric equality with the benchmark's tolerance; None is never equal to anything."""
    return a is not None and b is not None and math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)
