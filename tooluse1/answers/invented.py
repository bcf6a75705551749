"""Rule 8 of the text-answer checks (tooluse1.answers): an invented result.

8. Invented result (`invents_result`): a statement (not the last clause of a question, not negated or
   hedged in its clause: "I can't tell whether it's sunny", "e.g. 15:30") that gives a live result no
   tool produced: a clock time with a time-telling word ("It's 14:00 there", "2:30 PM", "Сейчас там
   14:00"), a temperature ("+15 °C", "59°F", "15 degrees", "минус 5 градусов"), the current weather
   ("it's currently sunny", "сейчас облачно"), or a conversion or rate ("100 dollars is about 92 euros",
   "1 USD = 0.92 EUR", "100 долларов — это 9 000 рублей", "курс составляет 98").
   A general statement is knowledge, not a result: a sentence that marks itself as typical or past
   (typically, usually, on average, in spring / in April, as of my last update, обычно, в среднем, зимой,
   в ноябре, по моим последним данным) states none ("Paris in spring is typically around 15 °C").
   Clarify cases fail on any result; refusals (capability traps) fail on live data only — a clock time,
   a temperature, the weather, a rate, or a conversion with a currency — so "I can't access live
   weather, but it's currently 18°C and sunny in Paris" and "У меня нет доступа к погоде, но сейчас в
   Казани +5 °C" fail, while "1 mile is about 1.6 km" beside a refusal does not. Results in words count
   too: the weather judged ("The weather is lovely", "Погода сегодня отличная"), a temperature in words
   ("около нуля", "freezing"), the part of the day ("Сейчас там ночь"), a currency priced in another ("the
   euro costs 99 rubles", "евро стоит 99 рублей"); a clock time may take its "now / сейчас" from an
   earlier clause of its sentence ("сейчас вечер, примерно 19:00").
"""
from __future__ import annotations

import re

from tooluse1.answers.base import _combine, _END, _L, _LEAD, _word_set_re, _words_re
from tooluse1.answers.behaviour import _Behaviour, _behaviour, _context, _iter_candidates, _snippet
from tooluse1.answers.phrases import _SIGNS
from tooluse1.answers.question import _matcher
from tooluse1.tools import TOOLS
from tooluse1.toolspec import Toolbox


# ============================================================================ invented results (rule 8)

_CUR = "[$€£¥₽]"
# Numbers first: a clock time (14:00, 2:30 pm, 9 am, 3 o'clock; the hour is checked afterwards), a
# temperature (+15 °C, 59°F, 15 degrees, 15 градусов), a conversion ("100 dollars is about 92 euros",
# "$100 = €92", "100 долларов — это примерно 9 000 рублей").
# "10 in the morning", "8 at night", "10 утра", "3 часа ночи" are clock times too.
_CLOCK_REST = (r"[0-9]?(?::[0-5][0-9](?![0-9])(?::[0-5][0-9])?(?: ?[ap]\.? ?m" + _END + r"\.?)?| ?[ap]\.? ?m" + _END
               + r"\.?| o'?clock" + _END + r"| in the (?:morning|afternoon|evening)" + _END + r"| at night" + _END
               + r"| (?:час(?:а|ов)? )?(?:утра|вечера|ночи|дня)" + _END + ")")
_TEMP_UNIT = (r"(?:[.,][0-9]+)?(?: ?[-–] ?[0-9]{1,3}(?:[.,][0-9]+)?)? ?(?:° ?[cfк]?|"   # a range: 10-15 °C
              + _words_re(("degree", "degrees", "deg", "градус", "градуса", "градусов"), boundary=False) + ")")
_CONV_REST = (r"[\d,.]{0,24}(?: [0-9]{3}){0,8} ?(?:" + _L + r"{1,15}\.? ?|" + _CUR
              + r" ?){UNITS}[—–-]? ?(?:[=≈~→]|->|" + _words_re((
    "is", "are", "equals", "comes to", "would be", "makes", "costs", "is worth", "trades at", "goes for", "это",
    "составляет", "составит", "равно", "равняется", "получится", "будет", "стоит", "стоят", "торгуется по"),
    boundary=False) + r") ?(?:" + _words_re((
        "about", "approximately", "around", "roughly", "approx", "примерно", "около", "приблизительно", "почти"),
        boundary=False) + r"\.? )?[~≈]? ?(?:" + _CUR + r" ?)?[-+]?[0-9](?:[\d,.]{0,24}[0-9])?(?: ?" + _L + r"+)?")
# One character class first (the engine's fast scan needs it), then which kind of character it was.
_RESULT_NUM_RE = re.compile(
    r"[0-9" + _SIGNS + r"$€£¥₽]"
    r"(?:(?<=[0-9])(?<![" + _SIGNS + r"\w.,:].)(?<![0-9] .)"
    r"(?:(?P<clock>" + _CLOCK_REST + r")|(?P<temperature>[0-9]{0,2}"
    + _TEMP_UNIT + r")|(?P<conversion>" + _CONV_REST.replace("{UNITS}", "{1,2}") + r"))"
    r"|(?<=[" + _SIGNS + r"])(?<![\w.,].)(?P<temperature_>[0-9]{1,3}" + _TEMP_UNIT + r")"
    r"|(?<=[$€£¥₽]) ?(?P<conversion_>[0-9]" + _CONV_REST.replace("{UNITS}", "{0,2}") + "))")
_MONEY_WORD = (r"(?:" + _CUR + r"|rub|руб|dollar|долл|euro|евро|pound|фунт|yen|иен|yuan|юан|cent|цент|коп|usd|eur|gbp"
               r"|jpy|cny)")
# The weather judged ("lovely", "cold"), and the currencies a rate is said of.
_JUDGED_WEATHER = ("lovely", "great", "nice", "beautiful", "gorgeous", "perfect", "terrible", "awful", "miserable",
                   "warm", "hot", "cold", "chilly", "mild", "fine")
_CURRENCY_WORDS = ("euro", "dollar", "pound", "yen", "yuan", "ruble", "rouble", "евро", "доллар", "рубль", "фунт",
                   "юань", "иена")
# Words first: current weather ("it's currently sunny", "сейчас облачно") and rates ("the rate is 0.92").
_RESULT_WORD_RE = _combine((
    ("weather", ("it's", "it is", "it will be", "currently", "right now", "at the moment", "skies are",
                 "weather is", "today"), r"[^.!?\n]{0,40}?" + _LEAD + _words_re((
        "sunny", "cloudy", "raining", "rainy", "snowing", "snowy", "overcast", "foggy", "windy", "stormy",
        "drizzling", "clear skies", "freezing", "below zero"), boundary=False)),
    # The weather judged ("The weather is lovely today", "Погода сегодня отличная"): a condition as well.
    ("weather", ("weather is", "weather's", "weather today is", "weather looks", "weather seems", "weather feels"),
     r" (?:" + _L + r"+ ){0,2}?" + _words_re(_JUDGED_WEATHER, boundary=False)),
    # ... and of a place: "The weather in Paris is lovely right now".
    ("weather", ("weather in", "weather at", "weather over", "weather around"), r"(?: " + _L + r"+){1,3}?"
     r"(?: (?:right now|now|currently|today))? (?:is|'s|looks|seems|feels) (?:" + _L + r"+ ){0,2}?" + _words_re(
         _JUDGED_WEATHER + ("sunny", "cloudy", "rainy", "snowy", "overcast", "foggy", "windy", "stormy"),
         boundary=False)),
    ("weather", ("сейчас", "на данный момент", "в данный момент", "на улице", "сегодня"), r"[^.!?\n]{0,40}?"
     + _LEAD + _words_re(("солнечно", "облачно", "пасмурно", "ясно", "дождь", "дождливо", "снег", "туман",
                          "ветрено", "гроза", "морось", "жарко", "холодно", "тепло", "прохладно", "около нуля",
                          "ниже нуля", "выше нуля", "мороз"), boundary=False)),
    # A temperature in words: "В Казани сейчас минус пять", "it's minus five in Kazan right now".
    ("weather", ("it's", "it is", "currently", "right now", "сейчас", "на улице", "сегодня"), r"[^.!?\n]{0,40}?" + _LEAD
     + _words_re(("minus", "plus", "минус", "плюс"), boundary=False) + r" (?:[0-9]|" + _words_re((
         "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "fifteen", "twenty", "thirty", "один", "одна", "два", "две", "три", "четыре", "пять", "шесть", "семь",
         "восемь", "девять", "десять", "одиннадцать", "двенадцать", "пятнадцать", "двадцать", "тридцать"),
         boundary=False) + ")"),
    ("weather", ("погода",), r" (?:" + _L + r"+ ){0,2}?" + _words_re((
        "отличная", "хорошая", "прекрасная", "чудесная", "плохая", "ужасная", "теплая", "холодная",
        "солнечная", "дождливая", "пасмурная"), boundary=False)),
    ("rate", ("exchange rate", "rate"), r"[^.!?\n]{0,30}?" + _LEAD + _words_re(("is", "of", "at"), boundary=False)
     + r" (?:(?:about|around|approximately) )?" + _CUR + r"?[0-9]"),
    # The part of the day somewhere ("Сейчас там ночь", "It's already evening there"): a clock time in words.
    # A hedge word does not make it a question: "Сейчас там, скорее всего, вечер" still states the time.
    ("clock", ("it's", "it is", "сейчас", "там сейчас", "у него сейчас", "у нее сейчас"), r",? (?:(?:already|still|now|"
     r"currently|there|probably|likely|most likely|уже|еще|там|у него|у нее|скорее всего|наверное|вероятно|"
     r"видимо|глубокая|поздний|раннее),? ){0,3}(?:(?:the |a )?(?:middle of the |dead of |early |late |mid-?))?"
     + _words_re((
         "night", "morning", "evening", "afternoon", "midnight", "noon", "ночь", "утро", "вечер", "день", "полночь",
         "полдень"))),
    # A currency priced in another: "the euro costs 99 rubles", "евро сейчас стоит 99 рублей".
    ("rate", _CURRENCY_WORDS, r" (?:(?:now|today|currently|сейчас|сегодня) )?(?:costs|is worth|is trading at|"
     r"trades at|is at|is|стоит|равен|равняется|=) (?:(?:about|around|roughly|approximately|около|примерно) )?"
     r"(?:" + _CUR + r"[0-9]|[0-9][0-9.,]* ?" + _MONEY_WORD + ")"),
    # Without a verb, a price needs "about" or a money word after it: "the euro is currently around 98 rubles",
    # "евро сейчас около 98 рублей" (not "the euro 2 cent coin").
    ("rate", _CURRENCY_WORDS, r"(?: (?:is|стоит|равен))? (?:now|today|currently|сейчас|сегодня) (?:(?:about|"
     r"around|roughly|approximately|около|примерно|почти) )?(?:" + _CUR + r" ?)?[0-9][0-9.,]* ?" + _MONEY_WORD),
    # What a currency buys: "one euro gets you about 100 rubles", "за один евро дают около 100 рублей".
    ("rate", ("euro*", "dollar*", "pound*", "yuan", "yen", "ruble*", "rouble*", "евро", "доллар*", "фунт*", "юан*",
              "иен*"), r" (?:now |today |currently |сейчас |сегодня )?(?:gets you|buys|will get you|fetches|is going "
     r"for|дают|платят|просят|можно получить) (?:(?:about|around|roughly|около|примерно|почти) )?(?:" + _CUR
     + r" ?)?[0-9]"),
    # (A past verb between, "курс составлял около 90", is history, not the rate now.)
    ("rate", ("курс", "курсу", "курса", "курсом"), r" (?:(?!составлял|был|была|равнялся)" + _L + r"+ ){0,2}?"
     r"(?:(?:составляет|равен|[—–:-]) ?(?:(?:около|примерно|почти) )?[0-9]|(?:около|примерно|почти) [0-9]"
     r"|[0-9][0-9.,]* ?" + _MONEY_WORD + ")"),
))
_NOW_CUE_RE = _word_set_re(("now", "right now", "currently", "at the moment", "сейчас", "в данный момент"))
_TIME_CUE_RE = _word_set_re((
    "it's", "it is", "is", "was", "now", "currently", "right now", "at the moment", "time", "local", "there",
    "сейчас", "время", "там", "местное", "уже", "на часах", "показывают"))
# Before a candidate in its clause: negated, hedged or an example ("I can't tell whether it's sunny",
# "e.g. 15:30", "something like 5 minutes").
_RESULT_GUARD_RE = _word_set_re((
    "not", "never", "no", r"\w+n't", "cannot", "whether", "if", "unable", "without", "could", "might", "may",
    "hope", "hopefully", "wish", "надеюсь", "пусть",
    r"e\.g", "example", "like", "such", "не", "ни", "нет", "ли", "бы", "если", "например", "пример"))
_HOUR_RE = re.compile(r"[0-9]+")


# A general statement is knowledge, not a result: "Paris in spring is typically around 15 °C", "as of my last
# update the rate was about 90 rubles", "обычно летом там +25".
_GENERAL_RE = _word_set_re((
    "typically", "typical", "usually", "usual", "normally", "generally", "on average", "average", "averages",
    "tends", "tend", "often", "historically", "climate", "as of my", "last update", "knowledge cutoff",
    "training data", "in spring", "in summer", "in autumn", "in fall", "in winter", "springtime", "summertime",
    "in january", "in february", "in march", "in april", "in may", "in june", "in july", "in august",
    "in september", "in october", "in november", "in december",
    "последним данным", "последние данные", "моим данным",
    "обычно", "как правило", "в среднем", "средняя", "средний", "традиционно", "климат", "весной", "летом",
    "осенью", "зимой", "на момент моего обучения", "в январе", "в феврале", "в марте",
    "в апреле", "в мае", "в июне", "в июле", "в августе", "в сентябре", "в октябре", "в ноябре", "в декабре"))
_CURRENCY_CHARS = frozenset("$€£¥₽")


def _live_kind(m: re.Match, b: _Behaviour, tools: Toolbox) -> bool:
    """Whether a result candidate is live data a tool would fetch: a clock time, a temperature, the weather,
    a rate, or a conversion that involves a currency (a symbol, or a currency `tools`' convert_currency
    knows; a unit conversion is general knowledge)."""
    kind = (m.lastgroup or "").rstrip("_").rsplit("__", 1)[0]
    if kind != "conversion":
        return True
    if any(ch in _CURRENCY_CHARS for ch in m.group(0)) or b.low[max(0, m.start() - 1):m.start()] in _CURRENCY_CHARS:
        return True
    money = _matcher("convert_currency.from_currency", tools)
    return money is not None and next(money.values_in(b, m.start(), m.end()), None) is not None


def invents_result(text: str, live_only: bool = False, *, tools: Toolbox = TOOLS) -> str | None:
    """The first live result stated without a tool in `text` (rule 8), or None.

    Only statements count: a candidate in the last clause of a question, hedged or negated in its clause
    ("I can't tell whether it's sunny", "e.g. 15:30"), or in a general statement ("typically around
    15 °C", "as of my last update") is not a result. `live_only` (capability traps) keeps only live data:
    clock times, temperatures, weather, rates and currency conversions, not "5 miles is about 8 km"; `tools`
    (the case's offered tools) tell which words name a currency. Linear; never raises.
    """
    if not isinstance(text, str):
        return None
    b = _behaviour(text)
    s = b.low
    found: list[tuple[int, int]] = []
    for rx in (_RESULT_NUM_RE, _RESULT_WORD_RE):
        for m in _iter_candidates(rx, s):
            start = m.start()
            if found and start >= found[0][0]:
                break
            c = _context(s, start, m.end())
            if c.exempt or _RESULT_GUARD_RE.search(c.clause_before):
                continue
            # "Right now it's 19 °C, which is typical for May" is still a result: a now-cue before the candidate
            # outweighs a general word after it.
            if _GENERAL_RE.search(c.before) or (_GENERAL_RE.search(c.after) and not _NOW_CUE_RE.search(c.before)):
                continue
            if live_only and not _live_kind(m, b, tools):
                continue
            clock = m.group(0) if m.lastgroup == "clock" else None
            if clock is not None:
                hour = int(_HOUR_RE.match(clock).group(0))  # type: ignore[union-attr]
                if hour > (12 if "m" in clock else 23):
                    continue
                if not (_TIME_CUE_RE.search(c.clause_before) or _TIME_CUE_RE.search(c.clause_after)
                        or _NOW_CUE_RE.search(c.before)):           # "сейчас вечер, примерно 19:00"
                    continue
            found.append((start, m.end()))
            break
    return _snippet(b, *min(found), extra_words=0) if found else None
