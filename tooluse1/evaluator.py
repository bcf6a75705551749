r"""Safe arithmetic evaluation for comparing calculator expressions by value.

`evaluate(text)` returns a float, or None ("not comparable") for anything outside a fixed whitelist or
beyond fixed bounds. It never raises and never runs long: the text length is capped before any work (so
`(((...)))` 10k deep never reaches a regex or the parser), the AST depth and node count are capped, and
exponentiation and integer size are bounded before they are computed (so `9**9**9**9` is refused, not
computed). Names other than a few math functions/constants (e.g. `__import__`) are refused, and so is any
string literal.

Notation. Models write arithmetic the way people and typesetters do; `_prepare` rewrites the notations
below into Python syntax, one rule each, in this order:

 1. Superscripts, BEFORE Unicode NFKC (which would turn `1,5²` into `1,52` and `2¹⁶` into `216`): a run of
    superscript digits, signs and parentheses right after an operand is an exponent (`2¹⁶` = 2**16,
    `10⁻³`, `(1+2)²`, `π²`); elsewhere NFKC makes it plain digits. Vulgar fractions likewise:
    `½` = (1/2), and a number right before one is a mixed number (`1½`, `1 ½` = 1 + 1/2).
 2. NFKC (full-width digits and signs), then wrappers a model puts around the value are removed: quotes
    `"…"` `'…'` `«…»` `“…”`, backticks and code fences, LaTeX math `$…$`, `$$…$$`, `\(…\)`, `\[…\]`; a
    leading `=` (spreadsheet style); a trailing `=`, `= ?` or `?`.
 3. LaTeX: `\frac{a}{b}` (`\dfrac`, `\tfrac`, `\frac12`), `\sqrt{x}`, `\sqrt[n]{x}`, `\times`, `\cdot`,
    `\ast`, `\div`, `\pi`, `\%`, `\left(`/`\right)` (and `\big`…), spacing commands (`\,` `\;` `\quad`…);
    `{,}` is a decimal comma; other braces are parentheses; `\ln`, `\sin`, … are the functions.
 4. Signs: the Unicode minus and dashes are `-`; `×` `·` `⋅` `∙` `•` `∗` `✕` `✖` `⨯` are `*`; `÷` `∕` `⁄`
    are `/`; `mod` is `%`; a currency sign on an amount is dropped (`$237.60 / 6`, `1500₽ / 4`).
 5. Decimal commas, second attempt only (see below): `2,5` = 2.5; `1,500` and `1,234,567` are thousands.
 6. Thousands separators: a space (every Unicode space is one after NFKC: nbsp, thin, narrow nbsp), `'` or
    `’` between a digit and a group of exactly three digits is dropped: `1 500`, `1 000 000`, `1'000`.
 7. Roots: `√144`, `√(144)`, `√2.25`, `∛27`; `π` is pi.
 8. Multiplication written as a letter: `x`, `X` or Cyrillic `х`, `Х` between two operands (`348 x 27`,
    `348x27`, `2 x sqrt(4)`), never inside a name (`max`, `exp`) nor as a variable (`x + 1` is refused).
    `:` between two operands is division (school notation `100 : 4`).
 9. Functions: a `math.` / `np.` / `numpy.` / `Math.` / `cmath.` / `sympy.` … prefix is dropped; names match
    case-insensitively (`SQRT`, `Math.PI`); `ln` = log, `lg` = log10, `tg` = tan.
10. Implicit multiplication: a number or `)` directly followed by `(`, a function or pi: `2(3+4)`,
    `(1+2)(3+4)`, `2pi`, `2√3`; never `2e3` (a number) nor the digits of a name (`log10(`).
11. `^` is `**`.
12. Percent vs modulo (the 1.x rule, unchanged): `N%` with no operand after it is N/100 (`15%*200`,
    `200*15%`); `N% of X` / `N% от X` is N/100*X; `%` followed by an operand is modulo (`17 % 5`).
13. An equation `a = b` (the model wrote its own result too) has a value only when both sides evaluate to
    the same value.

A comma is first read as Python reads it (an argument separator: `max(1,2)` is 2, `round(3.14159,2)` is
3.14); only when the text does not evaluate that way are commas read as number punctuation (rule 5), so
`1,5²` is 2.25 and `1,500+1` is 1501.
"""
from __future__ import annotations

import ast
import functools
import math
import operator
import re
import unicodedata
from typing import Any, Callable

from tooluse1.errors import ToolUse1Error

MAX_LEN = 400          # characters of the value as written (LaTeX is verbose) and of its Python rewrite
MAX_DEPTH = 30
MAX_NODES = 200
MAX_EXPONENT = 1000
MAX_ABS = 1e300
MAX_INT_BITS = 4096
MAX_ROUND_DIGITS = 400

_BINOPS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_FUNCS: dict[str, Callable[..., Any]] = {
    "sqrt": math.sqrt, "cbrt": math.cbrt, "abs": abs, "round": round, "floor": math.floor,
    "ceil": math.ceil, "log": math.log, "log10": math.log10, "log2": math.log2, "exp": math.exp,
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "min": min, "max": max, "pow": pow}
_CONSTS = {"pi": math.pi, "e": math.e}
# Other spellings of the whitelisted names (after case folding).
_NAME_ALIASES = {"ln": "log", "lg": "log10", "tg": "tan", "fabs": "abs", "power": "pow"}


class _Refused(ToolUse1Error):
    pass


# ----------------------------------------------------------------------------- notation (see the docstring)

_SUPER = "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾"
_SUPER_TO_ASCII = str.maketrans(_SUPER, "0123456789+-()")
# Rule 1: superscripts after an operand (a word character, a closing bracket or a dot).
_SUPERSCRIPT_EXPONENT = re.compile(rf"(?<=[\w).\]}}])([{_SUPER}]*[⁰¹²³⁴⁵⁶⁷⁸⁹][{_SUPER}]*)")
_VULGAR = "½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒↉"
_MIXED_NUMBER = re.compile(rf"(?<![\d.])(\d+) ?([{_VULGAR}])")
_VULGAR_FRACTION = re.compile(rf"[{_VULGAR}]")

# Rule 2.
_FENCE = re.compile(r"^```[\w+-]*\s*(.*?)\s*```$", re.DOTALL)
_WRAPPERS = (("$$", "$$"), ("\\(", "\\)"), ("\\[", "\\]"), ('"', '"'), ("'", "'"), ("`", "`"), ("«", "»"),
             ("“", "”"), ("„", "“"), ("$", "$"))
_EDGE_EQUALS = re.compile(r"^\s*=|[\s=?]*\?[\s=?]*$|\s*=\s*$")

# Rule 3.
_LATEX_ARGUMENT_COMMANDS = re.compile(r"\\(?:[dt]?frac|sqrt)(?![a-zA-Z])")
_LATEX_SIZING = re.compile(r"\\(?:left|right|bigg?l?r?|Bigg?l?r?)(?![a-zA-Z])\s*")
_LATEX_SYMBOLS = {"times": "*", "cdot": "*", "ast": "*", "div": "/", "pi": "pi", "%": "%", ",": " ",
                  ";": " ", ":": " ", "!": "", " ": " ", "quad": " ", "qquad": " ", "mod": "%", "bmod": "%"}
_LATEX_COMMAND = re.compile(r"\\([a-zA-Z]+|[,;:! %])")

# Rule 4.
_DASHES = re.compile("[\u2212\u2010\u2011\u2012\u2013\u2014\u2015\ufe63\uff0d]")
_TIMES_SIGNS = re.compile("[×·⋅∙•∗✕✖⨯]")
_DIVISION_SIGNS = re.compile("[÷∕⁄]")
_MOD_WORD = re.compile(r"(?i)(?<![a-z])mod(?![a-z])")
# A currency sign written on an amount ("$237.60 / 6", "€12 * 3", "1500₽ / 4"): the amount is the operand.
_CURRENCY_SIGN = re.compile(r"[$€£¥₽₹₩₺₸](?= ?[0-9.(])|(?<=[0-9)]) ?[$€£¥₽₹₩₺₸]")

# Rule 6.
_THOUSANDS = re.compile(r"(?<=\d)[ '’](?=\d{3}(?!\d))")

# Rule 7.
_ROOT_OF_NUMBER = re.compile(r"([√∛])\s*(\d+(?:\.\d+)?|\.\d+)")

# Rules 8-10: what may start an operand (a number, a parenthesis, a function call, pi or e), and what may
# end one (a digit, ")", "." or a percent sign).
_OPERAND = r"(?:\d|\.\d|\(|[a-zA-Z_]\w*\s*\(|pi\b|e\b)"
_LETTER_TIMES = re.compile(r"(?<=[\d).%])\s*[xXхХ](?=\s*" + _OPERAND + ")")
_COLON_DIVISION = re.compile(r"(?<=[\d).%])\s*:(?=\s*-?" + _OPERAND + ")")
_MODULE_PREFIX = re.compile(r"(?i)\b(?:math|numpy|np|cmath|sympy|sp|mpmath|mp|scipy)\s*\.\s*(?=[a-z_])")
_NAME = re.compile(r"[A-Za-z_]\w*")
_IMPLICIT_TIMES = re.compile(r"((?<![\w.])(?:\d+(?:\.\d*)?|\.\d+)|\))\s*(?=\(|[a-z_]\w*\s*\(|pi\b)")
_CLOSE_THEN_NUMBER = re.compile(r"\)\s*(?=\.?\d)")

# Rule 12.
_PERCENT_OF = re.compile(r"(\d+(?:\.\d+)?)\s*%\s*(?:of|от)(?![\w])\s*")
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%(?!\s*[\d(.a-z])")


def _superscripts_and_fractions(s: str) -> str:
    """Rule 1, on the text before NFKC."""
    if any(c in _SUPER for c in s):
        s = _SUPERSCRIPT_EXPONENT.sub(lambda m: "**(" + m.group(1).translate(_SUPER_TO_ASCII) + ")", s)
    if any(c in _VULGAR for c in s):
        s = _MIXED_NUMBER.sub(lambda m: f"({m.group(1)}+{_fraction(m.group(2))})", s)
        s = _VULGAR_FRACTION.sub(lambda m: f"({_fraction(m.group(0))})", s)
    return s


def _fraction(char: str) -> str:
    return unicodedata.normalize("NFKC", char).replace("⁄", "/")


def _unwrap(s: str) -> str:
    """Rule 2: remove quotes, backticks, fences and math delimiters around the whole value, repeatedly."""
    while True:
        s = s.strip()
        fenced = _FENCE.match(s)
        if fenced:
            s = fenced.group(1)
            continue
        for opener, closer in _WRAPPERS:
            if len(s) >= len(opener) + len(closer) and s.startswith(opener) and s.endswith(closer):
                s = s[len(opener):len(s) - len(closer)]
                break
        else:
            return s


def _latex(s: str) -> str:
    """Rule 3. Commands with arguments are rewritten rightmost first, so nested ones come out inside-out."""
    s = s.replace("{,}", ",")
    s = _LATEX_SIZING.sub("", s)
    for m in reversed(list(_LATEX_ARGUMENT_COMMANDS.finditer(s))):
        s = s[:m.start()] + _latex_rewrite(s, m.start(), m.group(0))
    s = _LATEX_COMMAND.sub(lambda m: _LATEX_SYMBOLS.get(m.group(1), m.group(1)), s)
    return s.replace("{", "(").replace("}", ")")


def _latex_rewrite(s: str, start: int, command: str) -> str:
    """The text from `start` on with the command there rewritten (unchanged when its arguments are missing)."""
    i = start + len(command)
    if command == "\\sqrt":
        index = None
        j = _skip_spaces(s, i)
        if j < len(s) and s[j] == "[":
            close = s.find("]", j)
            if close < 0:
                return s[start:]
            index, i = s[j + 1:close], close + 1
        arg, end = _latex_argument(s, i)
        if arg is None:
            return s[start:]
        body = f"sqrt({arg})" if index is None else f"(({arg})**(1/({index})))"
        return body + s[end:]
    numerator, mid = _latex_argument(s, i)
    denominator, end = _latex_argument(s, mid) if numerator is not None else (None, mid)
    if denominator is None:
        return s[start:]
    return f"(({numerator})/({denominator}))" + s[end:]


def _skip_spaces(s: str, i: int) -> int:
    while i < len(s) and s[i].isspace():
        i += 1
    return i


def _latex_argument(s: str, i: int) -> tuple[str | None, int]:
    """A LaTeX argument at i: a balanced {group} or a single character (`\\frac12`)."""
    i = _skip_spaces(s, i)
    if i >= len(s):
        return None, i
    if s[i] != "{":
        return (s[i], i + 1) if s[i].isalnum() else (None, i)
    depth = 0
    for j in range(i, len(s)):
        depth += {"{": 1, "}": -1}.get(s[j], 0)
        if depth == 0:
            return s[i + 1:j], j + 1
    return None, i


def _decimal_commas(s: str) -> str:
    """Rule 5: commas between digits as number punctuation: "1,500" -> "1500" (thousands), "2,5" -> "2.5".

    Applied (in `_prepare`, before the percent rewrite, so "15,5%" is 0.155) only when the text as written
    does not evaluate, so commas that separate function arguments keep their meaning: "max(1,2)" is 2 and
    "round(3.14159,2)" is 3.14 (rewriting first made them "max(1.2)" and "round(3.14159.2)", not
    comparable, and "round(2,345)" became 2345).
    """
    s = re.sub(r"(?<=\d),(?=\d{3}\b)", "", s)
    return re.sub(r"(?<=\d),(?=\d)", ".", s)


def _name(m: re.Match) -> str:
    """Rule 9: whitelisted names case-insensitively, and their other spellings; anything else unchanged."""
    low = m.group(0).lower()
    low = _NAME_ALIASES.get(low, low)
    return low if low in _FUNCS or low in _CONSTS else m.group(0)


def _prepare(text: str, commas: bool = False) -> str:
    """The text rewritten into Python syntax by the rules of the module docstring, in their order."""
    s = _superscripts_and_fractions(text)                                       # 1
    s = _unwrap(unicodedata.normalize("NFKC", s))                               # 2
    s = _EDGE_EQUALS.sub("", s)
    if "\\" in s or "^{" in s:         # LaTeX; other braces (a dict literal) stay braces and are refused
        s = _latex(s)                                                            # 3
    s = _DASHES.sub("-", s)                                                      # 4
    s = _TIMES_SIGNS.sub("*", s)
    s = _DIVISION_SIGNS.sub("/", s)
    s = _MOD_WORD.sub("%", s)
    s = _CURRENCY_SIGN.sub("", s)
    if commas:
        s = _decimal_commas(s)                                                   # 5
    s = _THOUSANDS.sub("", s)                                                    # 6
    s = _ROOT_OF_NUMBER.sub(lambda m: ("sqrt(" if m.group(1) == "√" else "cbrt(") + m.group(2) + ")", s)
    s = s.replace("√", "sqrt").replace("∛", "cbrt").replace("π", "pi")           # 7
    s = _LETTER_TIMES.sub("*", s)                                                # 8
    s = _COLON_DIVISION.sub("/", s)
    s = _MODULE_PREFIX.sub("", s)                                                # 9
    s = _NAME.sub(_name, s)
    s = _IMPLICIT_TIMES.sub(r"\1*", s)                                           # 10
    s = _CLOSE_THEN_NUMBER.sub(")*", s)
    s = s.replace("^", "**")                                                     # 11
    s = _PERCENT_OF.sub(r"(\1/100)*", s)                                         # 12
    s = _PERCENT.sub(r"(\1/100)", s)
    return s.strip()


# ----------------------------------------------------------------------------- evaluation

def _eval(node: ast.AST, depth: int) -> float | int:
    if depth > MAX_DEPTH:
        raise _Refused("too deep")
    if isinstance(node, ast.Expression):
        return _eval(node.body, depth + 1)
    # a number literal; not a bool (True is an int to isinstance, not to the calculator)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
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
    try:
        value = _evaluate_equation(_prepare(text))
        if value is None and "," in text:
            value = _evaluate_equation(_prepare(text, commas=True))
    except RecursionError:   # pragma: no cover - the length cap keeps every rewrite shallow
        return None
    return value


def _evaluate_equation(s: str) -> float | None:
    """Rule 13: `a = b` is a's value when b has the same value; anything else is one expression."""
    left, eq, right = s.partition("=")
    if not eq:
        return _evaluate_prepared(s)
    if "=" in right:
        return None
    a, b = _evaluate_prepared(left.strip()), _evaluate_prepared(right.strip())
    return a if same_value(a, b) else None


def _evaluate_prepared(s: str) -> float | None:
    # Strings have no place in arithmetic, and refusing them here also keeps the parser from warning about
    # escape sequences in a string literal.
    if (not s or len(s) > MAX_LEN or s.count("(") > MAX_DEPTH or "\\" in s or "'" in s or '"' in s):
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
