"""Safe arithmetic evaluation for comparing calculator expressions by value.

`evaluate(text)` returns a float, or None ("not comparable") for anything outside a fixed whitelist or
beyond fixed bounds. It never raises and never runs long: the text length is capped before parsing (so
`(((...)))` 10k deep never reaches the parser's recursion), the AST depth and node count are capped, and
exponentiation and integer size are bounded before they are computed (so `9**9**9**9` is refused, not
computed). Names other than a few math functions/constants (e.g. `__import__`) are refused.
"""
from __future__ import annotations

import ast
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

_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_FUNCS = {"sqrt": math.sqrt, "abs": abs, "round": round, "floor": math.floor, "ceil": math.ceil,
          "log": math.log, "log10": math.log10, "log2": math.log2, "exp": math.exp, "sin": math.sin,
          "cos": math.cos, "tan": math.tan, "min": min, "max": max, "pow": pow}
_CONSTS = {"pi": math.pi, "e": math.e}


class _Refused(Exception):
    pass


def _prepare(text: str) -> str:
    s = unicodedata.normalize("NFKC", text).strip()
    s = s.replace("×", "*").replace("·", "*").replace("÷", "/").replace("−", "-").replace("^", "**")
    s = s.replace("√", "sqrt")
    s = re.sub(r"(?<=\d)\s+(?=\d{3}\b)", "", s)   # "1 500" -> "1500" (thousands separator)
    s = re.sub(r"(?<=\d),(?=\d{3}\b)", "", s)     # "1,500" -> "1500"
    s = re.sub(r"(?<=\d),(?=\d)", ".", s)          # "2,5" -> "2.5" (decimal comma)
    # "15%" / "15% * 80" is a percentage; "1000 % 7" (an operand follows) stays modulo.
    s = re.sub(r"(\d+(?:\.\d+)?)\s*%(?!\s*[\d(.a-z])", r"(\1/100)", s)
    return s.rstrip("= ")


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
            if abs(right) > MAX_EXPONENT or (abs(left) > 1 and abs(right) * math.log2(abs(left)) > MAX_INT_BITS):
                raise _Refused("exponent too large")
        if isinstance(node.op, ast.Mult) and isinstance(left, int) and isinstance(right, int):
            if left.bit_length() + right.bit_length() > MAX_INT_BITS:
                raise _Refused("integer too large")
        return _check(_BINOPS[type(node.op)](left, right))
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCS
            and not node.keywords and 0 < len(node.args) <= 3):
        args = [_eval(a, depth + 1) for a in node.args]
        return _check(_FUNCS[node.func.id](*args))
    raise _Refused(f"not allowed: {type(node).__name__}")


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
        return float(text) if math.isfinite(text) else None
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_LEN:
        return None
    s = _prepare(text)
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
