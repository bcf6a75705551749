"""The tools of ToolUse.1's own MCP servers: 13 servers, each a list of plain Python functions.

Each server runs as its own process over stdio (`python -m tooluse1.mcp.serve NAME`, tooluse1/mcp/serve.py);
this module holds only the functions, so the task loader and the tests can read names, schemas and effects
without starting anything. Three servers compute (math, unit_converter, scientific_computing) with Python's
Decimal at 28 digits and report at most 10 decimal places, so every result is exact to the digits shown and
the same on every machine. `time` reads a frozen clock (FROZEN_UTC). The other nine answer from the frozen
fixtures in fixtures.json (FIXTURES_PATH; its SHA-256 is `fixtures_digest()`, recorded in provenance): the
same question always gets the same answer, so every task has one right answer.

A tool declares its effect once (`ToolDef.effect`): "looks_up" (MCP readOnlyHint=true, destructiveHint=false)
or "acts" (readOnlyHint=false, destructiveHint=true). Every tool here looks up. Bad arguments raise
ValueError with what to pass instead; the MCP server turns that into a tool error (isError=true).
"""
from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation, getcontext
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = ["FIXTURES_PATH", "FROZEN_UTC", "SERVERS", "ToolDef", "fixtures", "fixtures_digest", "tool_def"]

FIXTURES_PATH = Path(__file__).with_name("fixtures.json")
FROZEN_UTC = datetime(2026, 3, 14, 15, 9, 26, tzinfo=ZoneInfo("UTC"))
Effect = Literal["looks_up", "acts"]
_PLACES = Decimal("1e-10")
getcontext().prec = 28


@dataclass(frozen=True)
class ToolDef:
    """One tool: the function the server exposes (its name, docstring and typed parameters become the MCP
    tool's name, description and input schema) and its declared effect."""

    fn: Callable[..., dict[str, Any]]
    effect: Effect = "looks_up"

    @property
    def name(self) -> str:
        return self.fn.__name__


@functools.cache
def fixtures() -> dict[str, Any]:
    """The frozen fixture data (read once per process)."""
    return json.loads(FIXTURES_PATH.read_text(encoding="utf-8"))


def fixtures_digest() -> str:
    """SHA-256 of fixtures.json as stored: provenance records it, so a changed fixture is a different run."""
    return hashlib.sha256(FIXTURES_PATH.read_bytes()).hexdigest()


# ----------------------------------------------------------------------------- exact numbers

def _dec(value: float | int | str, what: str) -> Decimal:
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        raise ValueError(f"{what} must be a number; got {value!r}") from None
    if not d.is_finite():
        raise ValueError(f"{what} must be a finite number; got {value!r}")
    return d


def _num(d: Decimal) -> int | float:
    """A result as a JSON number: rounded half-even to 10 decimal places; an integer when it is one.
    A float of at most 10 decimals prints back as the same digits, so the output text is exact."""
    q = d.quantize(_PLACES).normalize()
    return int(q) if q == q.to_integral_value() else float(q)


def _decs(values: list[float], what: str) -> list[Decimal]:
    if not values:
        raise ValueError(f"{what} must be a non-empty list of numbers")
    return [_dec(v, f"{what}[{i}]") for i, v in enumerate(values)]


# ----------------------------------------------------------------------------- math

def add(numbers: list[float]) -> dict[str, Any]:
    """Add a list of numbers exactly; returns {"result": sum}."""
    return {"result": _num(sum(_decs(numbers, "numbers"), Decimal(0)))}


def subtract(minuend: float, subtrahend: float) -> dict[str, Any]:
    """Subtract subtrahend from minuend exactly; returns {"result": difference}."""
    return {"result": _num(_dec(minuend, "minuend") - _dec(subtrahend, "subtrahend"))}


def multiply(numbers: list[float]) -> dict[str, Any]:
    """Multiply a list of numbers exactly; returns {"result": product}."""
    product = Decimal(1)
    for d in _decs(numbers, "numbers"):
        product *= d
    return {"result": _num(product)}


def divide(dividend: float, divisor: float) -> dict[str, Any]:
    """Divide dividend by divisor (10 decimal places); returns {"result": quotient}."""
    den = _dec(divisor, "divisor")
    if den == 0:
        raise ValueError("divisor must not be 0")
    return {"result": _num(_dec(dividend, "dividend") / den)}


def power(base: float, exponent: int) -> dict[str, Any]:
    """Raise base to an integer exponent; returns {"result": base ** exponent}."""
    if abs(exponent) > 1000:
        raise ValueError("exponent must be between -1000 and 1000")
    b = _dec(base, "base")
    if b == 0 and exponent < 0:
        raise ValueError("0 cannot be raised to a negative exponent")
    return {"result": _num(b ** exponent)}


# ----------------------------------------------------------------------------- unit converter

_LENGTH_M = {"millimeter": "0.001", "centimeter": "0.01", "meter": "1", "kilometer": "1000", "inch": "0.0254",
             "foot": "0.3048", "yard": "0.9144", "mile": "1609.344"}
_MASS_KG = {"gram": "0.001", "kilogram": "1", "ounce": "0.028349523125", "pound": "0.45359237",
            "tonne": "1000"}
_TEMPERATURES = ("celsius", "fahrenheit", "kelvin")


def _factor(table: dict[str, str], unit: str, what: str) -> Decimal:
    key = unit.strip().lower().rstrip("s") if unit.strip().lower() not in table else unit.strip().lower()
    if key not in table:
        raise ValueError(f"unknown {what} unit {unit!r}: use one of {', '.join(table)}")
    return Decimal(table[key])


def convert_length(value: float, from_unit: str, to_unit: str) -> dict[str, Any]:
    """Convert a length between millimeter, centimeter, meter, kilometer, inch, foot, yard and mile."""
    result = _dec(value, "value") * _factor(_LENGTH_M, from_unit, "length") / _factor(_LENGTH_M, to_unit, "length")
    return {"value": _num(result), "unit": to_unit.strip().lower()}


def convert_mass(value: float, from_unit: str, to_unit: str) -> dict[str, Any]:
    """Convert a mass between gram, kilogram, ounce, pound and tonne."""
    result = _dec(value, "value") * _factor(_MASS_KG, from_unit, "mass") / _factor(_MASS_KG, to_unit, "mass")
    return {"value": _num(result), "unit": to_unit.strip().lower()}


def convert_temperature(value: float, from_unit: str, to_unit: str) -> dict[str, Any]:
    """Convert a temperature between celsius, fahrenheit and kelvin."""
    src, dst = from_unit.strip().lower(), to_unit.strip().lower()
    for unit in (src, dst):
        if unit not in _TEMPERATURES:
            raise ValueError(f"unknown temperature unit {unit!r}: use one of {', '.join(_TEMPERATURES)}")
    v = _dec(value, "value")
    kelvin = {"celsius": v + Decimal("273.15"), "fahrenheit": (v - 32) * 5 / 9 + Decimal("273.15"),
              "kelvin": v}[src]
    out = {"celsius": kelvin - Decimal("273.15"), "fahrenheit": (kelvin - Decimal("273.15")) * 9 / 5 + 32,
           "kelvin": kelvin}[dst]
    return {"value": _num(out), "unit": dst}


# ----------------------------------------------------------------------------- scientific computing

def _vector(v: list[float], what: str) -> list[Decimal]:
    return _decs(v, what)


def _same_length(a: list[Decimal], b: list[Decimal]) -> None:
    if len(a) != len(b):
        raise ValueError(f"vectors must have the same length; got {len(a)} and {len(b)}")


def vector_add(vector_a: list[float], vector_b: list[float]) -> dict[str, Any]:
    """Add two vectors component by component; returns {"result": [..]}."""
    a, b = _vector(vector_a, "vector_a"), _vector(vector_b, "vector_b")
    _same_length(a, b)
    return {"result": [_num(x + y) for x, y in zip(a, b)]}


def vector_dot(vector_a: list[float], vector_b: list[float]) -> dict[str, Any]:
    """Dot product of two vectors; returns {"result": number}."""
    a, b = _vector(vector_a, "vector_a"), _vector(vector_b, "vector_b")
    _same_length(a, b)
    return {"result": _num(sum((x * y for x, y in zip(a, b)), Decimal(0)))}


def vector_norm(vector: list[float]) -> dict[str, Any]:
    """Euclidean length (magnitude) of a vector; returns {"result": number}."""
    return {"result": _num(sum((x * x for x in _vector(vector, "vector")), Decimal(0)).sqrt())}


def matrix_determinant(matrix: list[list[float]]) -> dict[str, Any]:
    """Determinant of a square matrix (exact Gaussian elimination); returns {"result": number}."""
    rows = [_decs(r, f"matrix[{i}]") for i, r in enumerate(matrix)] if matrix else []
    n = len(rows)
    if n == 0 or any(len(r) != n for r in rows):
        raise ValueError("matrix must be a non-empty square list of rows")
    det = Decimal(1)
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            return {"result": 0}
        if pivot != col:
            rows[col], rows[pivot] = rows[pivot], rows[col]
            det = -det
        det *= rows[col][col]
        for r in range(col + 1, n):
            f = rows[r][col] / rows[col][col]
            rows[r] = [x - f * y for x, y in zip(rows[r], rows[col])]
    return {"result": _num(det)}


def statistics_summary(values: list[float]) -> dict[str, Any]:
    """Count, mean, median, population standard deviation, min and max of a list of numbers."""
    xs = sorted(_decs(values, "values"))
    n = len(xs)
    mean = sum(xs, Decimal(0)) / n
    median = xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
    std = (sum(((x - mean) ** 2 for x in xs), Decimal(0)) / n).sqrt()
    return {"count": n, "mean": _num(mean), "median": _num(median), "std_dev": _num(std),
            "min": _num(xs[0]), "max": _num(xs[-1])}


# ----------------------------------------------------------------------------- time (frozen clock)

def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {name!r}: use an IANA name such as Europe/Berlin") from None


def get_current_time(timezone: str) -> dict[str, Any]:
    """The current date and time in an IANA time zone (the benchmark's clock is frozen)."""
    now = FROZEN_UTC.astimezone(_zone(timezone))
    return {"timezone": timezone.strip(), "datetime": now.isoformat(timespec="seconds"),
            "weekday": now.strftime("%A")}


def convert_time(time: str, source_timezone: str, target_timezone: str) -> dict[str, Any]:
    """Convert a clock time HH:MM on today's date from one IANA time zone to another."""
    try:
        hours, minutes = (int(p) for p in time.strip().split(":"))
    except ValueError:
        raise ValueError(f"time must be HH:MM; got {time!r}") from None
    src = FROZEN_UTC.astimezone(_zone(source_timezone)).replace(hour=hours, minute=minutes, second=0)
    dst = src.astimezone(_zone(target_timezone))
    diff = (dst.utcoffset() or timedelta()) - (src.utcoffset() or timedelta())
    return {"source": src.strftime("%H:%M"), "target": dst.strftime("%H:%M"),
            "time_difference_hours": diff.total_seconds() / 3600}


# ----------------------------------------------------------------------------- fixture servers

def _matches(query: str, *texts: str) -> bool:
    words = query.lower().split()
    hay = " ".join(texts).lower()
    return bool(words) and all(w in hay for w in words)


def _limit(limit: int) -> int:
    if not 1 <= limit <= 20:
        raise ValueError("limit must be between 1 and 20")
    return limit


def search_articles(query: str, limit: int = 5) -> dict[str, Any]:
    """Search encyclopedia article titles and summaries; returns the matching titles."""
    arts = fixtures()["encyclopedia"]
    return {"titles": [t for t, a in arts.items() if _matches(query, t, a["summary"])][:_limit(limit)]}


def get_article_summary(title: str) -> dict[str, Any]:
    """The summary and key facts of an encyclopedia article, by exact title."""
    arts = fixtures()["encyclopedia"]
    found = next((t for t in arts if t.lower() == title.strip().lower()), None)
    if found is None:
        raise ValueError(f"no article titled {title!r}; use search_articles to find the exact title")
    return {"title": found, **arts[found]}


def search_collection(query: str) -> dict[str, Any]:
    """Search the museum collection by title or artist; returns matching object ids."""
    objs = fixtures()["museum"]
    return {"object_ids": [int(i) for i, o in objs.items() if _matches(query, o["title"], o["artist"])]}


def get_object(object_id: int) -> dict[str, Any]:
    """One museum object's record: title, artist, date, medium, department, gallery, accession number."""
    obj = fixtures()["museum"].get(str(object_id))
    if obj is None:
        raise ValueError(f"no object {object_id}; use search_collection to find object ids")
    return {"object_id": object_id, **obj}


def search_posts(query: str, limit: int = 5) -> dict[str, Any]:
    """Search forum posts by words in the title, highest score first."""
    posts = [p for p in fixtures()["forum"]["posts"] if _matches(query, p["title"])]
    posts.sort(key=lambda p: -p["score"])
    return {"posts": [{"id": p["id"], "title": p["title"], "subreddit": p["subreddit"]} for p in posts][:_limit(limit)]}


def get_post(post_id: str) -> dict[str, Any]:
    """One forum post: title, subreddit, score, number of comments and author."""
    post = next((p for p in fixtures()["forum"]["posts"] if p["id"] == post_id.strip()), None)
    if post is None:
        raise ValueError(f"no post {post_id!r}; use search_posts or get_hot_posts to find post ids")
    return dict(post)


def get_hot_posts(subreddit: str, limit: int = 5) -> dict[str, Any]:
    """The highest-scoring posts of a subreddit (name without r/), with score and comments."""
    name = subreddit.strip().lower().removeprefix("r/")
    posts = sorted((p for p in fixtures()["forum"]["posts"] if p["subreddit"] == name), key=lambda p: -p["score"])
    if not posts:
        raise ValueError(f"no subreddit {subreddit!r} in the forum")
    return {"subreddit": name, "posts": posts[:_limit(limit)]}


def get_trending_games(platform: str = "steam", limit: int = 5) -> dict[str, Any]:
    """Games with the most players right now on a platform (steam), most first."""
    games = fixtures()["game_trends"].get(platform.strip().lower())
    if games is None:
        raise ValueError(f"unknown platform {platform!r}: use steam")
    return {"platform": "steam", "games": sorted(games, key=lambda g: -g["current_players"])[:_limit(limit)]}


def get_game_stats(game: str) -> dict[str, Any]:
    """A game's developer, release year, all-time peak players and review score (percent positive)."""
    stats = fixtures()["game_trends"]["stats"]
    found = next((g for g in stats if g.lower() == game.strip().lower()), None)
    if found is None:
        raise ValueError(f"no game {game!r}; use get_trending_games for exact names")
    return {"game": found, **stats[found]}


def _network(network: str) -> str:
    net = network.strip().lower()
    if net not in fixtures()["dex"]["tokens"]:
        raise ValueError(f"unknown network {network!r}: use ethereum or solana")
    return net


def get_token_price(network: str, symbol: str) -> dict[str, Any]:
    """A token's USD price and on-chain liquidity on a network (ethereum, solana) from DEX pools."""
    net = _network(network)
    token = fixtures()["dex"]["tokens"][net].get(symbol.strip().upper())
    if token is None:
        raise ValueError(f"no token {symbol!r} on {net}")
    return {"network": net, "symbol": symbol.strip().upper(), **token}


def get_top_pools(network: str, limit: int = 5) -> dict[str, Any]:
    """A network's DEX pools with the most liquidity, most first (address, dex, pair)."""
    pools = sorted(fixtures()["dex"]["pools"][_network(network)], key=lambda p: -p["liquidity_usd"])
    return {"pools": [{"address": p["address"], "dex": p["dex"], "pair": p["pair"]} for p in pools][:_limit(limit)]}


def get_pool(network: str, pool_address: str) -> dict[str, Any]:
    """One DEX pool's liquidity, 24-hour volume and fee, by address."""
    pool = next((p for p in fixtures()["dex"]["pools"][_network(network)] if p["address"] == pool_address.strip()),
                None)
    if pool is None:
        raise ValueError(f"no pool {pool_address!r}; use get_top_pools for addresses")
    return dict(pool)


def get_ticker(instrument_id: str) -> dict[str, Any]:
    """An exchange spot ticker (e.g. ETH-USDT): last price, 24-hour high, low and base volume."""
    ticker = fixtures()["exchange"]["tickers"].get(instrument_id.strip().upper())
    if ticker is None:
        raise ValueError(f"no instrument {instrument_id!r}: use one of {', '.join(fixtures()['exchange']['tickers'])}")
    return {"instrument_id": instrument_id.strip().upper(), **ticker}


def get_funding_rate(instrument_id: str) -> dict[str, Any]:
    """A perpetual swap's current funding rate (e.g. SOL-USDT-SWAP) and the next funding time."""
    rate = fixtures()["exchange"]["funding"].get(instrument_id.strip().upper())
    if rate is None:
        raise ValueError(f"no swap {instrument_id!r}: use one of {', '.join(fixtures()['exchange']['funding'])}")
    return {"instrument_id": instrument_id.strip().upper(), **rate}


def _channel(channel: str) -> dict[str, Any]:
    packages = fixtures()["package_index"].get(channel.strip().removeprefix("nixos-"))
    if packages is None:
        raise ValueError(f"unknown channel {channel!r}: use unstable or 24.11")
    return packages


def search_packages(query: str, channel: str = "unstable") -> dict[str, Any]:
    """Search the package index of a channel (unstable, 24.11) by name and description."""
    return {"packages": [{"name": n, "version": p["version"]} for n, p in _channel(channel).items()
                         if _matches(query, n, p["description"])]}


def get_package(name: str, channel: str = "unstable") -> dict[str, Any]:
    """One package's version and description in a channel (unstable, 24.11)."""
    package = _channel(channel).get(name.strip())
    if package is None:
        raise ValueError(f"no package {name!r} in channel {channel!r}; use search_packages for exact names")
    return {"name": name.strip(), "channel": channel.strip().removeprefix("nixos-"), **package}


def resolve_library_id(library_name: str) -> dict[str, Any]:
    """The documentation id (e.g. /owner/project) of a library, by its name."""
    docs = fixtures()["library_docs"]
    found = next((i for i, d in docs.items() if d["name"] == library_name.strip().lower()), None)
    if found is None:
        raise ValueError(f"no library named {library_name!r} in the docs index")
    return {"library_id": found}


def get_library_docs(library_id: str, topic: str) -> dict[str, Any]:
    """The documentation snippet of a library (by its id from resolve_library_id) on a topic."""
    lib = fixtures()["library_docs"].get(library_id.strip())
    if lib is None:
        raise ValueError(f"no library id {library_id!r}; call resolve_library_id first")
    text = lib["topics"].get(topic.strip().lower())
    if text is None:
        raise ValueError(f"no docs on {topic!r}: topics are {', '.join(lib['topics'])}")
    return {"library_id": library_id.strip(), "topic": topic.strip().lower(), "content": text}


def search_papers(query: str, limit: int = 5) -> dict[str, Any]:
    """Search papers by words of their title or keywords, most cited first; returns ids, titles and years."""
    papers = sorted(((i, p) for i, p in fixtures()["paper_search"].items()
                     if _matches(query, p["title"], " ".join(p["keywords"]))),
                    key=lambda ip: -ip[1]["citations"])
    return {"papers": [{"paper_id": i, "title": p["title"], "year": p["year"]} for i, p in papers][:_limit(limit)]}


def get_paper(paper_id: str) -> dict[str, Any]:
    """One paper's title, year, citation count, authors and venue, by id from search_papers."""
    paper = fixtures()["paper_search"].get(paper_id.strip())
    if paper is None:
        raise ValueError(f"no paper {paper_id!r}; use search_papers for ids")
    return {"paper_id": paper_id.strip(), **paper}


def tool_def(fn: Callable[..., dict[str, Any]]) -> ToolDef:
    return ToolDef(fn)


# Server name -> its tools. The nine pairs of the two-server tasks (tooluse1/mcp/tasks.yaml) are drawn from
# these; `time` joins every task.
SERVERS: dict[str, tuple[ToolDef, ...]] = {name: tuple(tool_def(f) for f in fns) for name, fns in {
    "math": (add, subtract, multiply, divide, power),
    "unit_converter": (convert_length, convert_mass, convert_temperature),
    "scientific_computing": (vector_add, vector_dot, vector_norm, matrix_determinant, statistics_summary),
    "time": (get_current_time, convert_time),
    "encyclopedia": (search_articles, get_article_summary),
    "museum": (search_collection, get_object),
    "forum": (search_posts, get_post, get_hot_posts),
    "game_trends": (get_trending_games, get_game_stats),
    "dex_prices": (get_token_price, get_top_pools, get_pool),
    "exchange": (get_ticker, get_funding_rate),
    "package_index": (search_packages, get_package),
    "library_docs": (resolve_library_id, get_library_docs),
    "paper_search": (search_papers, get_paper),
}.items()}
