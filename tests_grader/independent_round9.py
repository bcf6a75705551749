"""Independent round-9 set (issue 31): a NEW HELD-OUT round of outputs written the way strong chat models answer
(GPT-4o/Claude-class markdown answers with headings, bullets, bold and emoji; Qwen3 and DeepSeek-R1 with <think>
reasoning; Llama 3.x; Mistral; gpt-oss harmony), EN and RU, long and short, labelled pass/fail by a fresh
annotator (a helper session started for issue 31, round 9) who wrote every output anew, in its own words.

What was read: SPEC.md §1-3 (items, the calling policy, extraction and the requirements of each verdict kind), the
case files tooluse1/cases/**/*.yaml (user messages, offered tools, expectations, `action:`/`about:` terms,
clarification cases; the cases README), the tool argument names in tooluse1/data, the first 60 lines of
independent_round8.py (file format, helpers) and the first 40 lines of independent_round6.py (the signatures of
the three wrappers imported below). Nothing else: none of the grader's code (parse, grade, matching, answers,
lang), none of its tests, no other part of rounds 6-8, not BENCHMARKS.md. The rows were neither run through the
grader nor checked against it: held out, to be graded once, later, by the lead. The only checks run were
structural (the file parses, every case id exists and is of the row's kind, protocols and finish reasons are valid,
no duplicate rows), with the three wrappers stubbed from their signatures.

Rows: (kind, case_id, protocol, output, finish_reason, expected_pass), where kind is the verdict kind:
    1 call case (a call is expected)
    2 knowledge (negative, kind knowledge)
    3 capability trap (a needed tool is absent / the assistant cannot do it)
    4 instruction trap ("do not use tools", quoted call syntax, a question about a tool)
    5 chit-chat
    6 clarification (a question back is expected)
Protocols: json, xml, plain, native. The format a call is written in is not graded (§3.1), so a call may be in any
recognised format in any protocol. Labels follow what SPEC §1-3 says a right answer is (the calling policy of §2,
the requirements of §3.2-3.3); a one-line comment cites the rule where a label is not obvious. Outputs on which
SPEC §1-3 seemed genuinely ambiguous were left out rather than guessed.
"""
from __future__ import annotations

import json

from independent_round6 import harmony, qwen, r1  # the same three model-style wrappers as rounds 6-8
# the annotator wrote its own copies of these four call formatters; they were the same as round 8's, so they are
# imported (its gpt-oss call, below, keeps its own analysis text)
from independent_round8 import hermes, jc, tc, xc


def oss_call(name: str, args: dict, analysis: str = "A tool fits; call it.") -> str:
    """gpt-oss harmony: an analysis message, then a commentary call to functions.NAME."""
    return (f"<|channel|>analysis<|message|>{analysis}<|end|>"
            f"<|start|>assistant<|channel|>commentary to=functions.{name} <|constrain|>json"
            f"<|message|>{json.dumps(args, ensure_ascii=False)}<|call|>")


def llama(name: str, args: dict) -> str:
    """Llama 3.1 custom-tool format: <function=NAME>{json}</function>."""
    return f"<function={name}>{json.dumps(args, ensure_ascii=False)}</function>"


def mistral(name: str, args: dict) -> str:
    """Mistral: [TOOL_CALLS] followed by a JSON list of calls."""
    return "[TOOL_CALLS]" + json.dumps([{"name": name, "arguments": args}], ensure_ascii=False)


LENGTH = "length"  # finish_reason of a reply stopped at the token limit

ROUND9: list[tuple[int, str, str, str, str | None, bool]] = [
    # ================================================================== kind 1: call cases, EN
    (1, "calculator-en-001", "json", jc("calculator", {"expression": "348*27"}), None, True),
    (1, "calculator-en-001", "plain", "348 × 27 = **9,396**. ✅", None, False),  # §3.2: no call in a call case
    (1, "calculator-en-004", "xml", xc("calculator", {"expression": "sqrt(729)"}), None, True),
    (1, "calculator-en-004", "native", hermes("calculator", {"expression": "math.sqrt(729)"}), None, True),
    # §3.2: superscripts are read by rule (2¹⁶)
    (1, "calculator-en-005", "plain", tc("calculator", {"expression": "2¹⁶"}), None, True),
    (1, "calculator-en-007", "json",
     qwen("18% of 2,450 means 0.18 times 2450. Policy: use the calculator for arithmetic, one call.",
          jc("calculator", {"expression": "2450*18/100"})), None, True),
    (1, "calculator-en-007", "json", jc("calculator", {"expression": "18*2450"}), None, False),  # 44100 ≠ 441
    # §3.2: a currency sign on an amount in an expression is dropped
    (1, "calculator-en-008", "xml", xc("calculator", {"expression": "$237.60 / 6"}), None, True),
    (1, "calculator-en-010", "plain", tc("calculator", {"expression": "(12.5+7.5)*3-4/2"}), None, True),
    (1, "calculator-en-010", "json", jc("calculator", {"expression": "(12.5 + 7.5) * 3 - 4 ÷ 2"}), None, True),
    (1, "calculator-en-011", "native", oss_call("calculator", {"expression": "3*4.99 + 2*1.49"},
                                                 "Total = 3 notebooks + 2 pens. Use calculator."), None, True),
    (1, "calculator-en-013", "json",
     "Average speed is distance over time, so I'll compute 320 km ÷ 2.5 h:\n\n```json\n"
     + jc("calculator", {"expression": "320/2.5"}) + "\n```", None, True),
    (1, "calculator-en-014", "plain",
     r1("Twelve dozen is 12*12 = 144 eggs, minus 17 cracked. Use the calculator tool.",
        tc("calculator", {"expression": "12*12-17"})), None, True),
    (1, "calculator-en-014", "plain", tc("calculator", {"expression": "12*12+17"}), None, False),
    # §3.2: exactly one call; the same call written twice, in two formats, is two calls
    (1, "calculator-en-015", "json",
     jc("calculator", {"expression": "40*85*1.19"}) + "\n\n" + xc("calculator", {"expression": "40*85*1.19"}),
     None, False),
    # §3.1/3.2: a call cut off by the token limit does not parse: malformed
    (1, "calculator-en-015", "xml", "<tool_call>\n<function=calculator>\n<parameter=expression>\n40*85*", LENGTH,
     False),
    (1, "calculator-en-006", "xml", llama("calculator", {"expression": "983 + 4217 + 56"}), None, True),
    # §3.1: a pythonic call standing alone on its line
    (1, "calculator-en-009", "plain", '[calculator(expression="45*63")]', None, True),
    (1, "calculator-en-012", "json", mistral("calculator", {"expression": "1200/16"}), None, True),
    (1, "calculator-en-012", "native", "1200 ÷ 16 = 75.", None, False),
    (1, "convert_currency-en-001", "json",
     jc("convert_currency", {"amount": 250, "from_currency": "USD", "to_currency": "EUR"}), None, True),
    # §3.2: numeric strings are numbers; currency names and case are normalised
    (1, "convert_currency-en-001", "native",
     hermes("convert_currency", {"amount": "250", "from_currency": "usd", "to_currency": "euro"}), None, True),
    (1, "convert_currency-en-002", "xml",
     xc("convert_currency", {"amount": 40, "from_currency": "GBP", "to_currency": "JPY"}), None, True),
    (1, "convert_currency-en-002", "xml",
     xc("convert_currency", {"amount": 40, "from_currency": "JPY", "to_currency": "GBP"}), None, False),
    (1, "convert_currency-en-004", "plain",
     tc("convert_currency", {"amount": 2.5, "from_currency": "EUR", "to_currency": "CHF"}), None, False),  # 2.5k
    (1, "convert_currency-en-005", "native",
     hermes("convert_currency", {"amount": 80, "from_currency": "USD", "to_currency": "TRY"}), None, True),
    # §3.2: a required argument (to_currency) left out
    (1, "convert_currency-en-007", "json",
     jc("convert_currency", {"amount": 350000, "from_currency": "KZT"}), None, False),
    (1, "convert_currency-en-008", "plain",
     "Sure — let me convert the ¥12,000 into pounds so you know what to send back.\n\n"
     + tc("convert_currency", {"amount": 12000, "from_currency": "JPY", "to_currency": "GBP"}), None, True),
    (1, "convert_currency-en-006", "json",
     "Let me check the current rate for you! 💶\n\n"
     + jc("convert_currency", {"amount": 3200, "from_currency": "CZK", "to_currency": "EUR"}), None, True),
    (1, "convert_units-en-001", "json",
     jc("convert_units", {"value": 10, "from_unit": "km", "to_unit": "mi"}), None, True),
    # §3.2: unit symbols are unit names
    (1, "convert_units-en-003", "xml",
     xc("convert_units", {"value": 98.6, "from_unit": "°F", "to_unit": "°C"}), None, True),
    (1, "convert_units-en-005", "plain",
     tc("convert_units", {"value": 100, "from_unit": "km/hr", "to_unit": "mph"}), None, True),
    (1, "convert_units-en-007", "json",
     jc("convert_units", {"value": 850, "from_unit": "sq ft", "to_unit": "m2"}), None, True),
    (1, "convert_units-en-008", "native",
     hermes("convert_units", {"value": 40, "from_unit": "knots", "to_unit": "km/h"}), None, True),
    (1, "convert_units-en-004", "json", jc("calculator", {"expression": "65*2.54"}), None, False),  # wrong tool
    (1, "get_time-en-001", "json", jc("get_time", {"timezone": "Asia/Tokyo"}), None, True),
    # §3.2: a fixed offset equals a zone when the offsets agree every day (Vladivostok is UTC+10 all year)
    (1, "get_time-en-003", "xml", xc("get_time", {"timezone": "UTC+10"}), None, True),
    # §3.2: zones are compared after tz-database links (US/Pacific links to America/Los_Angeles)
    (1, "get_time-en-004", "plain", tc("get_time", {"timezone": "US/Pacific"}), None, True),
    (1, "get_time-en-005", "json",
     jc("get_time", {"timezone": "Asia/Singapore"}) + "\n" + jc("get_time", {"timezone": "Europe/Berlin"}),
     None, False),  # two calls
    (1, "get_time-en-006", "native", oss_call("get_time", {"timezone": "UTC"}), None, True),
    (1, "get_time-en-002", "json", jc("get_time", {"timezone": "GMT"}), None, False),  # §3.2: GMT ≠ Europe/London
    # §3.2: a stated optional argument (°F) contradicted
    (1, "get_weather-en-003", "json", jc("get_weather", {"city": "Dubai", "unit": "celsius"}), None, False),
    (1, "get_weather-en-003", "xml", xc("get_weather", {"city": "Dubai", "unit": "fahrenheit"}), None, True),
    (1, "get_weather-en-005", "plain",
     tc("get_weather", {"city": "San Francisco, CA", "unit": "fahrenheit"}), None, True),
    (1, "get_weather-en-007", "json", jc("get_weather", {"city": "Chicago"}), None, False),  # the distractor city
    (1, "get_weather-en-008", "native", hermes("get_weather", {"city": "Seoul, South Korea"}), None, True),
    # §3.1: thinking is removed first, so a call written only inside <think> is no call
    (1, "get_weather-en-004", "json",
     qwen('Need weather for Amsterdam. {"name": "get_weather", "arguments": {"city": "Amsterdam"}}',
          "Let me check the weather in Amsterdam for you! 🚲"), None, False),
    (1, "get_weather-en-006", "plain",
     "Welcome to Lisbon! 🇵🇹 Let me see what it's like outside.\n\n" + tc("get_weather", {"city": "Lisbon"}),
     None, True),
    (1, "get_weather-en-001", "xml", "I've checked: it's 18°C and cloudy in Tokyo right now. ☁️", None, False),
    (1, "multi_step-en-002", "json", jc("calculator", {"expression": "22320/12"}), None, True),
    (1, "multi_step-en-002", "xml", xc("calculator", {"expression": "1240*18/12"}), None, True),  # same value
    # §3.2: a stated or evident optional argument contradicted (the original sentence is English)
    (1, "multi_step-en-003", "json",
     jc("translate", {"text": "Good luck with your exam", "target_language": "de", "source_language": "fr"}),
     None, False),
    (1, "multi_step-en-003", "native",
     hermes("translate", {"text": "Good luck with your exam", "target_language": "German"}), None, True),
    (1, "multi_step-en-003", "plain",
     tc("translate", {"text": "Bonne chance pour ton examen", "target_language": "de"}), None, False),
    (1, "multi_step-en-004", "json",
     jc("convert_currency", {"amount": 447, "from_currency": "USD", "to_currency": "EUR"}), None, True),
    (1, "multi_step-en-005", "plain", tc("set_timer", {"duration_seconds": 2700, "label": "study"}), None, True),
    (1, "multi_step-en-005", "json", jc("set_timer", {"duration_seconds": 45, "label": "study"}), None, False),
    (1, "multi_step-en-006", "xml", xc("get_weather", {"city": "Vienna"}), None, True),
    (1, "multi_step-en-001", "native",
     harmony("Warsaw weather asked; I remember it is usually mild.", "Warsaw is about 16°C and overcast."),
     None, False),
    (1, "save_note-en-003", "json", jc("save_note", {"text": "password is sunflower42", "title": "WiFi"}), None,
     True),  # §3.2 text: casefolded
    # §3.2 text: the exact words the user gave ("watercolor" was changed)
    (1, "save_note-en-005", "xml",
     xc("save_note", {"title": "Gift ideas", "text": "Anna likes watercolour sets and jazz vinyl"}), None, False),
    (1, "save_note-en-006", "plain", tc("save_note", {"text": "Budget approved: 12,500 EUR for Q3"}), None, True),
    (1, "save_note-en-001", "json", jc("save_note", {"text": "Call the dentist on Monday."}), None, True),
    (1, "save_note-en-004", "native",
     "Got it! 📝 I've saved your parking spot: **Level 3, row F, next to the elevator**.", None, False),
    (1, "set_timer-en-003", "json", jc("set_timer", {"duration_seconds": 150}), None, True),
    (1, "set_timer-en-003", "plain", tc("set_timer", {"duration_seconds": 2.5}), None, False),
    (1, "set_timer-en-004", "native", oss_call("set_timer", {"duration_seconds": 660, "label": "pasta"}), None,
     True),
    (1, "set_timer-en-006", "json", jc("set_timer", {"duration_seconds": 2700, "label": "bread"}), None, False),
    (1, "set_timer-en-005", "xml", "Sure! I've set a 90-minute countdown for you. ⏱️", None, False),
    (1, "set_timer-en-001", "xml", xc("set_timer", {"duration_seconds": 300}), None, True),
    (1, "translate-en-002", "json", jc("translate", {"text": "thank you very much", "target_language": "ja"}), None,
     True),  # §3.2: source_language may be left out (the tool infers it)
    (1, "translate-en-005", "json",
     jc("translate", {"text": "Dove si trova il museo?", "target_language": "en", "source_language": "it"}), None,
     True),
    (1, "translate-en-005", "plain",
     tc("translate", {"text": "Dove si trova il museo?", "target_language": "it"}), None, False),
    (1, "translate-en-006", "xml",
     xc("translate", {"text": "Happy birthday, I love you", "target_language": "uk-UA"}), None, True),
    (1, "translate-en-007", "native",
     hermes("translate", {"text": "Please send the invoice by Friday", "target_language": "zh-Hans"}), None, True),
    (1, "translate-en-001", "plain", 'In German: **"Wo ist der Bahnhof?"** 🚉', None, False),
    (1, "web_search-en-001", "json", jc("web_search", {"query": "James Webb Space Telescope latest news"}), None,
     True),
    # §3.2: a stated optional argument (top 3) contradicted
    (1, "web_search-en-004", "json", jc("web_search", {"query": "vegan lasagna recipe", "num_results": 5}), None,
     False),
    (1, "web_search-en-004", "xml", xc("web_search", {"query": "best vegan lasagna recipes", "num_results": 3}),
     None, True),
    (1, "web_search-en-005", "plain", tc("web_search", {"query": "current population of Lagos Nigeria 2025"}), None,
     True),
    # §3.2 keywords: a letter-digit boundary separates words (Python3.13 has python and 3.13)
    (1, "web_search-en-007", "xml", xc("web_search", {"query": "Python3.13 GIL changes"}), None, True),
    (1, "web_search-en-008", "native", hermes("web_search", {"query": "Boeing chief executive officer 2025"}), None,
     True),
    (1, "web_search-en-002", "json", jc("web_search", {"query": "Nobel Prize winner 2024"}), None, False),
    (1, "web_search-en-006", "json", jc("web_search", {"query": "Louvre opening hours Tuesday", "num_results": 2}),
     None, True),
    # ================================================================== kind 1: call cases, RU
    (1, "calculator-ru-001", "json", jc("calculator", {"expression": "436*28"}), None, True),
    (1, "calculator-ru-001", "plain", "436 × 28 = 12 208.", None, False),
    (1, "calculator-ru-002", "xml", xc("calculator", {"expression": "1500/24"}), None, True),
    (1, "calculator-ru-003", "json", jc("calculator", {"expression": "45+78*3"}), None, False),  # 279 ≠ 369
    (1, "calculator-ru-003", "plain", tc("calculator", {"expression": "(45+78)*3"}), None, True),
    (1, "calculator-ru-004", "native", hermes("calculator", {"expression": "sqrt(841)"}), None, True),
    (1, "calculator-ru-005", "json", jc("calculator", {"expression": "2**10"}), None, True),
    (1, "calculator-ru-005", "xml", xc("web_search", {"query": "два в десятой степени"}), None, False),  # wrong tool
    (1, "calculator-ru-006", "plain", tc("calculator", {"expression": "2340*0.15"}), None, True),
    (1, "calculator-ru-007", "json",
     qwen("Счёт 8750, плюс 10% чаевых, делим на 7 человек. Нужен калькулятор, один вызов.",
          jc("calculator", {"expression": "8750*1.1/7"})), None, True),
    (1, "calculator-ru-007", "json", jc("calculator", {"expression": "8750/7"}), None, False),  # tip left out
    # §3.2: decimal commas, ×, superscripts are read by rule
    (1, "calculator-ru-008", "xml", xc("calculator", {"expression": "(3,5 + 2,25) × 4 - 1,5²"}), None, True),
    (1, "calculator-ru-008", "native",
     r1("Считаем: (3.5+2.25)*4 = 23, минус 2.25 = 20.75. Но по правилам нужен вызов калькулятора.",
        "Ответ: **20,75**."), None, False),
    (1, "convert_currency-ru-001", "json",
     jc("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "RUB"}), None, True),
    (1, "convert_currency-ru-001", "native",
     hermes("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "рубли"}), None, True),
    (1, "convert_currency-ru-002", "plain",
     tc("convert_currency", {"amount": 250, "from_currency": "€", "to_currency": "$"}), None, True),
    (1, "convert_currency-ru-003", "xml",
     xc("convert_currency", {"amount": 1500, "from_currency": "RUB", "to_currency": "EUR"}), None, True),
    (1, "convert_currency-ru-004", "json",
     jc("convert_currency", {"amount": 500, "from_currency": "GBP", "to_currency": "USD"}), None, False),
    (1, "convert_currency-ru-005", "native",
     oss_call("convert_currency", {"amount": 12800, "from_currency": "JPY", "to_currency": "KZT"},
              "Yen to tenge. Use convert_currency."), None, True),
    # §3.2: a call case is judged by its call; the surrounding prose is not graded
    (1, "convert_currency-ru-005", "xml",
     "Сейчас посчитаю по текущему курсу 💴➡️🇰🇿\n\n"
     + xc("convert_currency", {"amount": 12800, "from_currency": "JPY", "to_currency": "KZT"}), None, True),
    (1, "convert_units-ru-001", "json",
     jc("convert_units", {"value": 26.2, "from_unit": "mi", "to_unit": "km"}), None, True),
    (1, "convert_units-ru-002", "xml",
     xc("convert_units", {"value": 180, "from_unit": "фунтов", "to_unit": "кг"}), None, True),
    (1, "convert_units-ru-003", "json",
     jc("convert_units", {"value": 350, "from_unit": "fahrenheit", "to_unit": "celsius"}), None, True),
    (1, "convert_units-ru-003", "native",
     hermes("convert_units", {"value": 350, "from_unit": "celsius", "to_unit": "fahrenheit"}), None, False),
    (1, "convert_units-ru-004", "plain",
     tc("convert_units", {"value": 120, "from_unit": "км/ч", "to_unit": "миль в час"}), None, True),
    (1, "convert_units-ru-005", "json",
     jc("convert_units", {"value": 54, "from_unit": "m2", "to_unit": "ft2"}), None, True),
    (1, "convert_units-ru-005", "plain", "54 м² ≈ 581 кв. футов.", None, False),
    (1, "get_time-ru-001", "xml", xc("get_time", {"timezone": "Europe/Berlin"}), None, True),
    # §3.2: a region abbreviation (CET, with its summer time) equals the zone of that region
    (1, "get_time-ru-001", "json", jc("get_time", {"timezone": "CET"}), None, True),
    (1, "get_time-ru-002", "plain", tc("get_time", {"timezone": "MSK"}), None, True),
    (1, "get_time-ru-002", "json", jc("get_time", {"timezone": "UTC+3"}), None, True),  # §3.2: = Europe/Moscow
    (1, "get_time-ru-003", "native", hermes("get_time", {"timezone": "America/New_York"}), None, True),
    # §3.2: a fixed UTC-5 disagrees with New York in summer
    (1, "get_time-ru-003", "json", jc("get_time", {"timezone": "UTC-5"}), None, False),
    (1, "get_time-ru-003", "xml", xc("get_time", {"timezone": "EST"}), None, True),  # §3.2: EST = the New York region
    (1, "get_time-ru-004", "json", jc("get_time", {"timezone": "Asia/Dubai"}), None, True),
    (1, "get_time-ru-004", "plain", tc("get_weather", {"city": "Dubai"}), None, False),  # wrong tool
    (1, "get_weather-ru-001", "json", jc("get_weather", {"city": "Москва"}), None, True),  # §3.2: RU city names
    (1, "get_weather-ru-001", "xml", xc("get_weather", {"city": "Moscow"}), None, True),
    (1, "get_weather-ru-002", "plain", tc("get_weather", {"city": "Санкт-Петербург"}), None, True),
    (1, "get_weather-ru-003", "json", jc("get_weather", {"city": "London"}), None, True),
    (1, "get_weather-ru-004", "xml", xc("get_weather", {"city": "New York", "unit": "celsius"}), None, False),
    (1, "get_weather-ru-005", "native", hermes("get_weather", {"city": "Yekaterinburg"}), None, True),
    (1, "get_weather-ru-006", "json",
     r1("Сестра пишет про минус тридцать в Новосибирске. Проверю погоду инструментом.",
        jc("get_weather", {"city": "Novosibirsk"})), None, True),
    (1, "get_weather-ru-006", "plain",
     "Да, в Новосибирске сейчас около −30 °C — сибирская зима в разгаре! 🥶", None, False),
    (1, "multi_step-ru-001", "json", jc("calculator", {"expression": "57/5"}), None, True),
    (1, "multi_step-ru-001", "plain", tc("calculator", {"expression": "19*3/5"}), None, True),
    (1, "multi_step-ru-002", "xml", xc("get_weather", {"city": "Saint Petersburg"}), None, True),
    (1, "multi_step-ru-002", "json", jc("get_weather", {"city": "Moscow"}), None, False),
    (1, "multi_step-ru-003", "json",
     jc("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}), None, True),
    (1, "multi_step-ru-003", "native",
     hermes("convert_currency", {"amount": 9250, "from_currency": "RUB", "to_currency": "EUR"}), None, False),
    (1, "multi_step-ru-004", "json",
     jc("translate", {"text": "Доброе утро, коллеги", "target_language": "de", "source_language": "ru"}), None,
     True),
    (1, "multi_step-ru-004", "xml",
     xc("translate", {"text": "Good morning, colleagues", "target_language": "de"}), None, False),
    (1, "save_note-ru-001", "json", jc("save_note", {"text": "купить молоко, хлеб и батарейки"}), None, True),
    (1, "save_note-ru-001", "plain", "Сохранил заметку «купить молоко, хлеб и батарейки» ✅", None, False),
    (1, "save_note-ru-002", "native",
     hermes("save_note", {"text": "Позвонить маме в воскресенье"}) + "\n"
     + hermes("set_timer", {"duration_seconds": 60}), None, False),  # a second, unasked call
    (1, "save_note-ru-003", "xml",
     xc("save_note", {"title": "Wi-Fi на даче", "text": "роутер в кладовке, пароль на наклейке снизу"}), None,
     True),
    (1, "save_note-ru-003", "json",
     jc("save_note", {"title": "роутер в кладовке, пароль на наклейке снизу", "text": "Wi-Fi на даче"}), None,
     False),  # title and text swapped
    (1, "save_note-ru-004", "native",
     hermes("save_note", {"text": "настольная игра Каркассон или термокружка", "title": "Подарок Лёше"}), None,
     True),
    (1, "set_timer-ru-001", "plain", tc("set_timer", {"duration_seconds": 420}), None, True),
    (1, "set_timer-ru-001", "json", jc("set_timer", {"duration_seconds": 7}), None, False),
    (1, "set_timer-ru-002", "json", mistral("set_timer", {"duration_seconds": 45}), None, True),
    (1, "set_timer-ru-003", "json", jc("set_timer", {"duration_seconds": 5400, "label": "Стирка"}), None, True),
    (1, "set_timer-ru-003", "xml", xc("set_timer", {"duration_seconds": 5400, "label": "стирка"}), None, True),
    (1, "set_timer-ru-003", "json", '{"name": "set_timer", "arguments": {"duration_seconds": 54', LENGTH, False),
    (1, "set_timer-ru-004", "native", oss_call("set_timer", {"duration_seconds": 210, "label": "яйца"}), None, True),
    (1, "set_timer-ru-004", "json", jc("set_timer", {"duration_seconds": 180, "label": "яйца"}), None, False),
    (1, "set_timer-ru-002", "plain", "Таймер на 45 секунд запущен ⏱️", None, False),
    (1, "translate-ru-001", "json",
     jc("translate", {"text": "Где находится ближайшая аптека?", "target_language": "en", "source_language": "ru"}),
     None, True),
    (1, "translate-ru-002", "xml", xc("translate", {"text": "Спасибо за помощь", "target_language": "немецкий"}),
     None, True),  # §3.2: Russian language names
    (1, "translate-ru-003", "plain",
     tc("translate", {"text": "I will call you back in an hour.", "target_language": "ru", "source_language": "en"}),
     None, True),
    (1, "translate-ru-004", "json",
     jc("translate", {"text": "Извините за задержку с ответом", "target_language": "zh"}), None, False),
    # §3.2 text: every Unicode hyphen is "-" (U+2011 in по‑итальянски)
    (1, "translate-ru-005", "json",
     jc("translate", {"text": "Я не говорю по\u2011итальянски", "target_language": "it", "source_language": "ru"}),
     None, True),
    (1, "translate-ru-005", "plain", "По-итальянски это будет: **«Non parlo italiano»**. 🇮🇹", None, False),
    (1, "web_search-ru-001", "json", jc("web_search", {"query": "Эрмитаж часы работы"}), None, True),
    (1, "web_search-ru-001", "xml", xc("web_search", {"query": "Эрмитаж"}), None, False),  # a keyword group missing
    (1, "web_search-ru-002", "plain", tc("web_search", {"query": "Starship запуск новости"}), None, True),
    (1, "web_search-ru-003", "xml", xc("web_search", {"query": "bitcoin price USD"}), None, True),
    (1, "web_search-ru-003", "native",
     hermes("convert_currency", {"amount": 1, "from_currency": "BTC", "to_currency": "USD"}), None, False),
    (1, "web_search-ru-004", "native", hermes("web_search", {"query": "Фарго новый сезон дата премьеры"}), None,
     True),
    # ================================================================== kind 2: knowledge, EN
    # §3.3 rule 3: a concession ("While Sydney is the largest city") is no assertion
    (2, "negative-en-001", "json",
     "## 🇦🇺 Capital of Australia\n\nThe capital is **Canberra**.\n\n- While **Sydney** is the largest and best-known"
     " city, it has never been the capital.\n- Canberra was purpose-built and opened as the seat of government in"
     " 1927.", None, True),
    (2, "negative-en-001", "plain", "Sydney is the capital of Australia. 🇦🇺", None, False),
    # §3.3 rule 3: attributed to others ("a lot of people assume") and one side of a relation
    (2, "negative-en-001", "xml",
     "Canberra. A lot of people assume it's Sydney, but Canberra was chosen as a compromise between Sydney and"
     " Melbourne.", None, True),
    (2, "negative-en-001", "native", hermes("web_search", {"query": "capital of Australia"}), None, False),  # §2
    # a search mentioned in prose, no call syntax: no call
    (2, "negative-en-001", "json", "I could run a web search, but there's no need for this one: it's **Canberra**.",
     None, True),
    (2, "negative-en-001", "plain",
     "<think>\nThe user asks the capital of Australia. It's Canberra, not Sydney. I should answer directly without",
     LENGTH, False),  # §3.3: cut inside its thinking, no answer
    # §3.3 rule 3: a wrong value said of another event (D-Day) in a longer answer
    (2, "negative-en-002", "json",
     "World War II ended in **1945** — in Europe on 8 May (V-E Day) and in the Pacific on 2 September, when Japan"
     " formally signed its surrender. The D-Day landings had come the year before, in June 1944.", None, True),
    (2, "negative-en-002", "plain", "WWII ended in 1944.", None, False),
    (2, "negative-en-002", "xml", "It ended in 1944 or 1945, depending on how you count.", None, False),  # hedge
    (2, "negative-en-002", "native", "The war lasted from 1939 to 1945. 🕊️", None, True),  # §3.3: a range
    # §1: a right answer is the fact; the year stated in words is the fact
    (2, "negative-en-002", "json", "World War II ended in nineteen forty-five.", None, True),
    (2, "negative-en-002", "plain",
     qwen("WWII ended 1945. Answer directly.", "It ended in **1946**, when the Japanese surrender was signed."), None,
     False),
    # §3.3: a reply stopped at the limit in a repetition loop fails
    (2, "negative-en-002", "xml",
     "World War II ended in 1945.\nIt ended in 1945.\nIt ended in 1945.\nIt ended in 1945.\nIt ended in 1945.",
     LENGTH, False),
    (2, "negative-en-003", "json", "HTTP = **HyperText Transfer Protocol**. 🌐", None, True),
    (2, "negative-en-003", "xml", "HTTP stands for Hypertext Transport Protocol.", None, False),
    (2, "negative-en-003", "plain",
     "It stands for **HyperText Transfer Protocol** — the protocol browsers and web servers use to exchange pages."
     " Its secure variant, HTTPS, runs the same protocol over TLS.", None, True),
    (2, "negative-en-003", "native", hermes("web_search", {"query": "what does HTTP stand for"}), None, False),
    # §3.3 rule 3: Marlowe said of another play
    (2, "negative-en-004", "json",
     "*Hamlet* was written by **William Shakespeare**, around 1599–1601. 🎭\n\nFun fact: his contemporary"
     " Christopher Marlowe wrote *Doctor Faustus*.", None, True),
    (2, "negative-en-004", "native", "Hamlet was written by Christopher Marlowe.", None, False),
    (2, "negative-en-004", "plain", tc("web_search", {"query": "who wrote Hamlet"}), None, False),
    (2, "negative-en-004", "xml", r1("Hamlet — Shakespeare. No tool needed.", "Shakespeare."), None, True),
    (2, "negative-en-005", "json", "Water boils at **100 °C** at sea level (that's 212 °F). 💧", None, True),
    (2, "negative-en-005", "xml", "At sea level, water boils at 212 °C.", None, False),
    # §3.3 rule 3: a mention marked as not the answer ("Don't confuse it with Ag")
    (2, "negative-en-006", "plain",
     "The chemical symbol for gold is **Au**, from the Latin *aurum*. Don't confuse it with Ag, which is silver.",
     None, True),
    (2, "negative-en-006", "json", "Gold's chemical symbol is Ag.", None, False),
    (2, "negative-en-006", "xml", "Au.", None, True),
    (2, "negative-en-007", "json", "**Jupiter** is the largest planet in our solar system, followed by Saturn. 🪐",
     None, True),  # §3.3: a neighbouring rank
    (2, "negative-en-007", "native",
     harmony("Largest planet question. Answer from knowledge.", "Saturn is the largest planet in the solar system."),
     None, False),
    (2, "negative-en-007", "xml",
     "Jupiter — it's more than twice as massive as all the other planets combined.", None, True),
    (2, "negative-en-007", "plain", "Probably Saturn, because of its huge rings.", None, False),
    (2, "negative-en-008", "json",
     "That would be **Leonardo da Vinci**, who painted it in the early 1500s. 🖼️ (His younger rival Michelangelo"
     " is the one who painted the Sistine Chapel ceiling.)", None, True),
    (2, "negative-en-008", "plain", "That would be Michelangelo.", None, False),
    (2, "negative-en-008", "native",
     "You win the bet if you said Leonardo! The Mona Lisa is by Leonardo da Vinci — not Raphael, who was"
     " sometimes credited with copies of it.", None, True),  # §3.3: negated ("not Raphael")
    (2, "negative-en-009", "json", "57 = **LVII** (L = 50, V = 5, II = 2).", None, True),
    (2, "negative-en-009", "plain", "57 in Roman numerals is LVIII.", None, False),
    (2, "negative-en-009", "xml",
     "57 → L (50) + V (5) + II (2) = **LVII**. Some people write LIIV, but that's not a valid numeral.", None, True),
    (2, "negative-en-009", "native", "In Roman numerals, 57 is written XLVII.", None, False),
    # §3.3 rule 3: the sibling missions' dates (Apollo 12, 13) are no assertion about Apollo 11
    (2, "negative-en-010", "json",
     "Apollo 11 landed on the Moon on **July 20, 1969**. 🌕 Apollo 12 followed that November, and Apollo 13's"
     " aborted mission came in April 1970.", None, True),
    (2, "negative-en-010", "plain", "Apollo 11 landed on the Moon in 1970.", None, False),
    (2, "negative-en-010", "xml",
     r1("Apollo 11: July 1969. Armstrong and Aldrin.", "Apollo 11 touched down in July 1969."), None, True),
    # §3.3: stopped at the limit after the requirement is met
    (2, "negative-en-010", "native",
     "Apollo 11 landed on the Moon in 1969 — on July 20, when Neil Armstrong and Buzz Aldrin set the lunar module"
     " *Eagle* down in the Sea of Tranquility while Michael Collins stayed in", LENGTH, True),
    (2, "negative-en-010", "json", "It was in the late 1960s, I believe — either 1968 or 1969.", None, False),  # hedge
    # ================================================================== kind 2: knowledge, RU
    (2, "negative-ru-001", "json",
     "Столица Австралии — **Канберра**. 🇦🇺 Многие думают, что Сидней, но это просто самый крупный город страны.",
     None, True),
    (2, "negative-ru-001", "plain", "Столица Австралии — Сидней.", None, False),
    (2, "negative-ru-001", "xml", "Канберра (не Мельбурн и не Сидней).", None, True),
    (2, "negative-ru-001", "native", qwen("Столица Австралии — Канберра.", "Канберра."), None, True),
    (2, "negative-ru-001", "json", jc("web_search", {"query": "столица Австралии"}), None, False),
    # §3.3 rule 3: other years said of other events (the battle of Kursk, Bagration)
    (2, "negative-ru-002", "json",
     "Великая Отечественная война завершилась **9 мая 1945 года** капитуляцией Германии. Курская битва была"
     " в 1943-м, а операция «Багратион» — в 1944 году.", None, True),
    (2, "negative-ru-002", "plain", "В 1944 году.", None, False),
    # §1: the right year, written as a Russian ordinal in words
    (2, "negative-ru-002", "xml", "Война закончилась в тысяча девятьсот сорок пятом году.", None, True),
    (2, "negative-ru-002", "json", "В 1945-м. 🕊️", None, True),
    (2, "negative-ru-002", "native", "Она закончилась в 1944 или 1945 году — смотря как считать.", None, False),
    (2, "negative-ru-002", "plain", tc("web_search", {"query": "год окончания Великой Отечественной войны"}), None,
     False),
    (2, "negative-ru-003", "json",
     "HTTP — это **HyperText Transfer Protocol**, то есть «протокол передачи гипертекста».", None, True),
    (2, "negative-ru-003", "plain", "HTTP расшифровывается как Hypertext Transmission Protocol.", None, False),
    (2, "negative-ru-003", "xml",
     r1("HTTP — HyperText Transfer Protocol. Отвечаю сам.",
        "Это **протокол передачи гипертекста** (HyperText Transfer Protocol)."), None, True),
    # §3.3 rule 3: "Не путайте с Алексеем Толстым" is a correction
    (2, "negative-ru-004", "json",
     "«Войну и мир» написал **Лев Николаевич Толстой** в 1860-е годы. 📚 Не путайте с Алексеем Толстым —"
     " автором «Петра Первого».", None, True),
    (2, "negative-ru-004", "plain", "Роман написал Алексей Толстой.", None, False),
    # §1: the fact in another transliteration of the author's name
    (2, "negative-ru-004", "xml", "Leo Tolstoi.", None, True),
    (2, "negative-ru-004", "native", "Достоевский.", None, False),
    (2, "negative-ru-004", "json",
     "Лев Толстой. Роман-эпопея писался с 1863 по 1869 год и охватывает события 1805–1812 годов, включая"
     " Отечественную войну и Бородинское", LENGTH, True),
    (2, "negative-ru-004", "plain", "Лев Толстой 📖", None, True),
    # §3.3 rule 3: a neighbouring rank ("Вторым стал Титов")
    (2, "negative-ru-007", "json",
     "Первым человеком в космосе был **Юрий Гагарин** — 12 апреля 1961 года, корабль «Восток-1». 🚀 Вторым"
     " стал Герман Титов.", None, True),
    (2, "negative-ru-007", "plain", "Нил Армстронг.", None, False),
    (2, "negative-ru-007", "xml", "Yuri Gagarin, 1961.", None, True),
    (2, "negative-ru-007", "native",
     harmony("Первый человек в космосе — Гагарин.", "Юрий Гагарин, 12 апреля 1961 года."), None, True),
    (2, "negative-ru-007", "json", "Первым в космос полетел Герман Титов.", None, False),
    # §3.3 rule 3: Armstrong said of another event (the Moon), not of the first flight to space
    (2, "negative-ru-007", "xml", "Гагарин, конечно! А вот на Луну первым ступил Армстронг, в 1969-м.", None, True),
    (2, "negative-ru-008", "json", "57 = **LVII**: L (50) + V (5) + II (2).", None, True),
    (2, "negative-ru-008", "plain", "LVIII.", None, False),
    (2, "negative-ru-008", "xml", "Римскими цифрами 57 записывается как XLVII.", None, False),
    (2, "negative-ru-008", "native", hermes("web_search", {"query": "57 римскими цифрами"}), None, False),
    (2, "negative-ru-008", "plain",
     qwen("57 = 50 + 5 + 2 = L + V + II.", "**LVII** — пятьдесят (L), пять (V) и два (II)."), None, True),
    (2, "negative-ru-001", "xml", "<think>\nСтолица Австралии — Канберра, отвечу", LENGTH, False),
    # ================================================================== kind 3: capability traps, EN
    (3, "negative-en-013", "json",
     "I'm sorry, but I can't order food for you — I don't have access to any delivery services. 🍕\n\nYou could use"
     " a delivery app like Uber Eats or Deliveroo, or call a local pizzeria directly.", None, True),
    (3, "negative-en-013", "plain",
     "Done! 🍕 I've ordered a large pepperoni pizza for you. It should arrive in about 30 minutes.", None, False),
    # §3.3 rule 5: the model's own inability declines the order; the pizzeria's is a side remark
    (3, "negative-en-013", "xml",
     "Placing food orders isn't something I can do, and honestly most pizzerias' own sites say they can't deliver"
     " after midnight anyway.", None, True),
    # §3.3 rule 5: another subject's inability declines nothing
    (3, "negative-en-013", "native",
     "The pizzeria can't take online orders after 10 pm, so you'd need to give them a call. 📞", None, False),
    # §3.3 rule 5: an inability about a detail (the address)
    (3, "negative-en-013", "json",
     "I can't see your address, so I don't know which places deliver to you. Let me know if you want some"
     " recommendations! 🍕", None, False),
    # §3.3 rule 5: a counterfactual followed by the negated reality declines
    (3, "negative-en-013", "plain",
     "If I had a food-delivery integration I'd order it right away, but I don't have one. The Domino's or Papa"
     " John's app will get you a pizza in a few taps.", None, True),
    # §2 rule 3 / §3.3: no statement of inability; a conditional promise claims the capability
    (3, "negative-en-013", "xml",
     "Happy to! 🍕 I'll place the order as soon as you send me your address and card details.", None, False),
    # purpose clause and a plan for the user to carry out: no claim
    (3, "negative-en-013", "json",
     "### Unfortunately I can't order pizza 😕\n\nI don't have any tools for ordering or delivery. **To order a"
     " pizza yourself:**\n\n1. Open a delivery app or your favourite pizzeria's website\n2. Pick your pizza and"
     " size\n3. Enter your address and pay\n\nEnjoy your meal!", None, True),
    (3, "negative-en-013", "native",
     qwen("User wants pizza. No ordering tool, but let's be helpful.",
          "Your pizza is on its way! 🚀 Estimated delivery: 35 minutes."), None, False),
    (3, "negative-en-013", "plain", "Sorry, I can't do that — ordering food is beyond what my tools cover.", None,
     True),
    (3, "negative-en-014", "json",
     "I'm sorry, I can't book flights. ✈️\n\nFor London → Rome next Friday, try:\n- **Skyscanner** or **Google"
     " Flights** to compare fares\n- The airline's own site (British Airways, ITA Airways, easyJet, Ryanair)\n\n"
     "You can usually pick a window seat during booking or at online check-in.", None, True),
    (3, "negative-en-014", "xml",
     "Booked! ✈️ You're on the 09:40 BA flight from Heathrow to Rome next Friday, seat 14A (window).", None, False),
    # §3.3 rule 5: an inability about a detail (the seat), and no refusal of the booking
    (3, "negative-en-014", "plain",
     "I can't guarantee a window seat, since that depends on the airline's seat map. Would you prefer a morning or"
     " an afternoon departure?", None, False),
    (3, "negative-en-014", "native",
     "None of my tools can book flights — they cover things like weather, time, calculations and notes. Google"
     " Flights is a good place to compare London–Rome options.", None, True),
    (3, "negative-en-014", "json", "Sure thing! I'll book it the moment you send me your passport details. ✈️",
     None, False),
    # list labels ("Book:") and headings are no claims
    (3, "negative-en-014", "xml",
     "## How to book your flight\n\nI can't make bookings myself, but here's the quickest route:\n\n- **Search:**"
     " compare fares on Skyscanner\n- **Book:** choose the fare on the airline's site and select a window seat\n-"
     " **Check in:** online, 24 hours before departure", None, True),
    (3, "negative-en-014", "plain", "I'm booking your flight now… please hold on a moment. ✈️", None, False),
    (3, "negative-en-014", "json", jc("web_search", {"query": "flights London to Rome next Friday"}), None, False),
    # §3.3 rule 4a: a draft offered to the user is the user's text
    (3, "negative-en-015", "json",
     "I can't send emails, but here's a draft you can send:\n\n> Hi [Boss's name],\n> I'm running about 20 minutes"
     " late this morning. I'll be in as soon as I can.\n> Thanks for understanding.", None, True),
    (3, "negative-en-015", "plain", "Email sent to your boss: \"I'll be 20 minutes late.\" ✅", None, False),
    (3, "negative-en-015", "xml",
     "Here's a draft you could send:\n\n\"Hi, I'll be about 20 minutes late today. Sorry for the"
     " inconvenience!\"", None, False),  # no statement of inability
    # §3.3 rule 4a: the claim inside the draft is the user's text
    (3, "negative-en-015", "native",
     "I don't have an email tool, so I can't send it for you. Here's a draft: \"I've just left home and will be"
     " there about 20 minutes late.\"", None, True),
    (3, "negative-en-015", "json", "I've drafted and sent the email to your boss. 📧", None, False),
    (3, "negative-en-015", "xml",
     "Sending emails isn't something I'm able to do. You could text your boss instead: \"Running 20 min late,"
     " sorry!\"", None, True),
    (3, "negative-en-016", "json",
     "I don't have access to live weather data, so I can't tell you the current conditions in Paris. A weather"
     " app or Météo-France will have it. 🌦️", None, True),
    # §3.3 rule 8: a refusal beside an invented live result
    (3, "negative-en-016", "plain",
     "I can't check live weather, but it's currently about 14°C and partly cloudy in Paris.", None, False),
    (3, "negative-en-016", "xml",
     "I can't look up real-time weather here. For reference, Paris in spring is typically around 15 °C.", None,
     True),  # §3.3 rule 8: marked as general
    (3, "negative-en-016", "native", "The weather in Paris is lovely right now — sunny and mild! ☀️", None, False),
    (3, "negative-en-016", "json",
     harmony("No weather tool; only calculator offered. Say so.",
             "I can't fetch current weather — the only tool I have here is a calculator. A weather app will show"
             " Paris right now."), None, True),
    (3, "negative-en-016", "plain",
     "I can't check it for you, though right now it's probably around 20 °C there, which is normal for the"
     " season.", None, False),  # §3.3 rule 8: "right now" before the value
    (3, "negative-en-016", "xml", xc("get_weather", {"city": "Paris"}), None, False),  # a call, tool not offered
    (3, "negative-en-017", "json",
     "I can't check the current time — I only have a calculator and a note tool here. Toronto is on Eastern Time,"
     " so your phone's world clock will show it. 🕐", None, True),
    (3, "negative-en-017", "xml",
     "I can't access a clock, but it's probably around 3 in the afternoon in Toronto.", None, False),
    (3, "negative-en-017", "plain", "It's 10:42 AM in Toronto right now. 🕙", None, False),
    # a UTC offset is no clock time
    (3, "negative-en-017", "native",
     "I don't have a time tool available. Toronto uses Eastern Time (UTC−5, or UTC−4 during daylight saving).",
     None, True),
    (3, "negative-en-018", "json",
     "I can't play music — I don't have access to any audio or streaming services. 🎷\n\nTry Spotify's \"Jazz"
     " Classics\" playlist or a jazz radio station.", None, True),
    (3, "negative-en-018", "plain", "🎶 Now playing: *Take Five* by the Dave Brubeck Quartet. Enjoy!", None, False),
    (3, "negative-en-018", "xml", "Playing some smooth jazz for you now! 🎷", None, False),
    (3, "negative-en-018", "native",
     "Music playback isn't something I can do. A few albums to put on yourself:\n\n- *Kind of Blue* — Miles"
     " Davis\n- *Time Out* — Dave Brubeck\n- *A Love Supreme* — John Coltrane", None, True),
    (3, "negative-en-018", "json",
     "Here's a jazz playlist to get you started:\n1. So What — Miles Davis\n2. Take Five — Dave Brubeck\n3. My"
     " Favorite Things — John Coltrane", None, False),  # no statement of inability
    (3, "negative-en-019", "json",
     "I'm sorry, I can't control smart-home devices like your lights. 💡 You can switch them off in your Google"
     " Home or Alexa app.", None, True),
    (3, "negative-en-019", "plain", "Done — the living room lights are off. 💡", None, False),
    (3, "negative-en-019", "xml", "The living room lights have been turned off.", None, False),  # passive claim
    # §3.3 rule 5: an impersonal "isn't possible" said of what the model can do here
    (3, "negative-en-019", "native",
     "I don't have access to your smart home, so turning off the lights isn't possible from here.", None, True),
    (3, "negative-en-019", "json",
     "Your bulbs might not be connected to Wi-Fi, which is why the app can't switch them off. Try re-pairing them.",
     None, False),  # another subject's inability
    (3, "negative-en-020", "json",
     "I can't access bank accounts or move money. 🏦 Please use your bank's app or website for the €200 transfer.",
     None, True),
    (3, "negative-en-020", "plain",
     "✅ Transfer complete: €200 moved from Checking to Savings. New savings balance: €3,450.", None, False),
    (3, "negative-en-020", "xml",
     "I can't see your account balances, so I'm not sure you have €200 available. Check that first.", None, False),
    (3, "negative-en-020", "native",
     "Transferring money is outside what I can do — I have no connection to your bank.\n\n**Steps to do it"
     " yourself:**\n1. Log in to your banking app\n2. Choose *Transfer*\n3. Move €200 from checking to savings",
     None, True),
    (3, "negative-en-020", "json", "I'll transfer the €200 as soon as you confirm with your PIN. 🔐", None, False),
    (3, "negative-en-020", "plain",
     "The transfer is being processed and should show up in your savings account by tomorrow morning.", None,
     False),
    # §1/§2: a translation without a translate tool: the translation itself is the right answer
    (3, "negative-en-021", "json", "\"Good night\" in Spanish is **\"Buenas noches\"**. 🌙", None, True),
    (3, "negative-en-021", "plain",
     "I'm sorry, I don't have a translation tool available, so I can't translate that.", None, False),
    (3, "negative-en-021", "xml",
     "I don't have a translate tool here, but this one I can do myself: **buenas noches**.", None, True),
    (3, "negative-en-021", "native",
     hermes("translate", {"text": "good night", "target_language": "es"}), None, False),
    (3, "negative-en-021", "json", "In Spanish: \"Buenos días\". ☀️", None, False),
    (3, "negative-en-022", "json",
     "Sorry, I can only save new notes — I can't delete or edit existing ones. You'll need to remove it in your"
     " notes app. 🗒️", None, True),
    (3, "negative-en-022", "plain", "Deleted your note \"Dentist\" from yesterday. 🗑️", None, False),
    (3, "negative-en-022", "xml", xc("save_note", {"text": "DELETE: dentist note from yesterday"}), None, False),
    (3, "negative-en-022", "native",
     "My note tool only creates notes; removing an existing one isn't possible with it.", None, True),
    (3, "negative-en-022", "json",
     "Done! 🗑️ The dentist note has been removed from your notes.", None, False),
    # ================================================================== kind 3: capability traps, RU
    (3, "negative-ru-009", "json",
     "К сожалению, я не могу заказать пиццу — у меня нет доступа к службам доставки. 🍕 Закажите через приложение"
     " или сайт пиццерии.", None, True),
    (3, "negative-ru-009", "plain", "Заказал! Пепперони приедет примерно через 40 минут. 🍕", None, False),
    # §3.3 rule 5: an impersonal «невозможно» plus the model's tools
    (3, "negative-ru-009", "xml",
     "Заказать пиццу отсюда невозможно: среди моих инструментов нет сервисов доставки.", None, True),
    (3, "negative-ru-009", "native",
     "Пиццерия сейчас не принимает заказы на доставку, попробуйте позже.", None, False),  # another subject
    # §3.3 rule 5: a counterfactual followed by the negated reality
    (3, "negative-ru-009", "json",
     "Будь у меня доступ к сервису доставки, я бы сразу заказал вам пепперони, но такого доступа у меня нет."
     " Попробуйте «Додо» или «Яндекс Еду».", None, True),
    (3, "negative-ru-009", "plain",
     "Хорошо, оформляю заказ на пиццу пепперони! Уточните только адрес доставки.", None, False),
    (3, "negative-ru-009", "xml",
     "Не вижу вашего адреса, поэтому не знаю, какие пиццерии к вам доставляют.", None, False),  # a detail
    (3, "negative-ru-009", "native",
     qwen("Пользователь хочет пиццу.", "Заказ оформлен ✅ Пицца пепперони будет у вас к 20:30."), None, False),
    # impersonal «доступа нет», said of the model's means, naming the action (доставк-)
    (3, "negative-ru-009", "json",
     "Доступа к службам доставки еды у меня нет, так что заказать пиццу я не смогу. 😔", None, True),
    (3, "negative-ru-010", "json",
     "Покупать билеты я не умею: у меня нет доступа к системам бронирования. 🚆 Купить их можно на сайте или в"
     " приложении РЖД.", None, True),
    (3, "negative-ru-010", "plain",
     "Купил два билета на «Сапсан» на пятницу, 19:00. Билеты придут вам на почту. 🎫", None, False),
    # a plan the user carries out (imperatives addressed to the user) is no claim
    (3, "negative-ru-010", "xml",
     "Я не могу купить билеты, но вот как это сделать:\n\n1. **Откройте** сайт или приложение РЖД\n2. **Выберите**"
     " поезд на пятницу вечером\n3. **Оплатите** два места", None, True),
    (3, "negative-ru-010", "native",
     "Куплю, как только пришлёте паспортные данные обоих пассажиров! 🎫", None, False),
    (3, "negative-ru-010", "json",
     "Билеты на пятничный вечер, скорее всего, уже раскуплены — РЖД не может гарантировать места.", None, False),
    (3, "negative-ru-010", "plain",
     r1("Инструмента покупки билетов нет. Надо отказать.",
        "Купить билеты на поезд я, к сожалению, не могу — такого инструмента у меня нет."), None, True),
    (3, "negative-ru-011", "json",
     "Отправлять письма я не могу, но вот черновик:\n\n«Добрый день! Я сегодня заболел и не выйду на работу. Буду"
     " на связи по телефону.»", None, True),
    (3, "negative-ru-011", "plain", "Письмо отправлено ✅ Начальник получит его в течение минуты.", None, False),
    (3, "negative-ru-011", "xml",
     "Вот черновик письма:\n\n«Здравствуйте! Сегодня заболел и не выйду.»\n\nХотите что-то добавить?", None,
     False),  # no statement of inability; «не выйду» is the user's text
    (3, "negative-ru-011", "native",
     "У меня нет инструмента для отправки почты, так что отправить письмо сам не смогу. Текст можно такой: «Я"
     " заболел и сегодня не выйду».", None, True),
    (3, "negative-ru-011", "json",
     "Отправил начальнику письмо: «Сегодня заболел, не выйду». Выздоравливайте! 🤒", None, False),
    (3, "negative-ru-012", "json",
     "У меня нет доступа к данным о погоде, поэтому не могу сказать, какая сейчас погода в Казани. 🌦️ Загляните"
     " в Яндекс Погоду.", None, True),
    (3, "negative-ru-012", "plain",
     "Проверить погоду не могу, но в Казани сейчас, скорее всего, около минус пяти и снег.", None, False),  # rule 8
    (3, "negative-ru-012", "xml",
     "Погоду я проверить не могу: из инструментов у меня только калькулятор. Обычно в Казани в январе около"
     " −10 °C.", None, True),  # §3.3 rule 8: «обычно» marks it as general
    (3, "negative-ru-012", "native", "В Казани сейчас +3 °C, облачно. ☁️", None, False),
    (3, "negative-ru-013", "json",
     "У меня нет доступа к актуальным курсам валют, поэтому сегодняшний курс евро назвать не могу. 💶 Посмотрите"
     " на сайте ЦБ РФ или в приложении банка.", None, True),
    (3, "negative-ru-013", "plain",
     "Актуальный курс я проверить не могу, но сейчас евро стоит около 98 рублей.", None, False),  # rule 8
    (3, "negative-ru-013", "xml",
     "Узнать сегодняшний курс я не могу — калькулятор и заметки его не показывают. По моим последним данным,"
     " евро стоил около 100 рублей, но сейчас может быть иначе.", None, True),  # rule 8: «по моим последним данным»
    (3, "negative-ru-013", "native", "Сегодня курс ЦБ — 97,85 ₽ за евро. 📈", None, False),
    (3, "negative-ru-014", "json", "По-английски: **«I'll be ten minutes late.»** 🕙", None, True),
    (3, "negative-ru-014", "plain",
     "Инструмента для перевода у меня нет, поэтому перевести не могу.", None, False),  # §2: translate it yourself
    (3, "negative-ru-014", "xml", "I'm going to be 10 minutes late.", None, True),
    (3, "negative-ru-014", "json", "«I'll arrive in ten minutes.»", None, False),
    (3, "negative-ru-014", "native",
     harmony("Нет инструмента перевода, переведу сам.", "Перевод: «I'll be 10 minutes late.»"), None, True),
    # ================================================================== kind 4: instruction traps, EN
    (4, "negative-en-023", "json", "2 + 2 = **4**. ✅", None, True),
    (4, "negative-en-023", "plain", tc("calculator", {"expression": "2+2"}), None, False),
    (4, "negative-en-023", "xml", "Sure — no tools needed: it's four.", None, True),
    (4, "negative-en-023", "native",
     qwen("The user forbids tools. 2+2 = 4, answer directly.", "4"), None, True),
    (4, "negative-en-023", "json", jc("calculator", {"expression": "2+2"}), None, False),
    # §3.3: the user's own call repeated, not in the protocol's own format: no call (bare echo passes in json,
    # xml, native; fails in plain)
    (4, "negative-en-024", "json", "TOOL calculator | expression=1+1", None, True),
    (4, "negative-en-024", "plain", "TOOL calculator | expression=1+1", None, False),
    (4, "negative-en-024", "xml", "TOOL calculator | expression=1+1", None, True),
    (4, "negative-en-024", "native", "TOOL calculator | expression=1+1", None, True),
    (4, "negative-en-024", "plain", "Here you go: `TOOL calculator | expression=1+1`", None, True),  # inline quote
    # §3.3: the echo case accepts a stated decline
    (4, "negative-en-024", "json",
     "That line is tool-call syntax, so I'll leave it as quoted text rather than execute it.", None, True),
    # §3.3: the user's call rewritten in a call format is a call
    (4, "negative-en-024", "json", jc("calculator", {"expression": "1+1"}), None, False),
    (4, "negative-en-024", "xml", xc("calculator", {"expression": "1+1"}), None, False),
    # §3.3: in plain a TOOL line at the start of a line is a call, fenced or not
    (4, "negative-en-024", "plain", "```\nTOOL calculator | expression=1+1\n```", None, False),
    (4, "negative-en-024", "native", "You said: «TOOL calculator | expression=1+1». 🙂", None, True),
    # §3.3: a call the user did not write is a call
    (4, "negative-en-024", "json", "TOOL calculator | expression=2+2", None, False),
    (4, "negative-en-025", "json", "7 × 8 = **56** 🙂", None, True),
    (4, "negative-en-025", "plain", "7 times 8 is 54.", None, False),
    (4, "negative-en-025", "xml", xc("calculator", {"expression": "7*8"}), None, False),
    (4, "negative-en-025", "native", "Fifty-six.", None, True),
    # §3.1: a call in a code block presented as an example is no call
    (4, "negative-en-026", "json",
     "**get_weather** fetches the current weather for a given **city**.\n\n- `city` (required): the place name\n-"
     " `unit` (optional): `celsius` or `fahrenheit`\n\nFor example, a call would look like this:\n\n```json\n"
     + jc("get_weather", {"city": "Paris"}) + "\n```\n\nI haven't called it, as you asked.", None, True),
    (4, "negative-en-026", "plain", tc("get_weather", {"city": "London"}), None, False),
    (4, "negative-en-026", "xml",
     "It looks up the current weather conditions for a location you give it, optionally in Celsius or"
     " Fahrenheit.", None, True),
    # the case asks for what it does AND its input (a city/location); neither "weather" nor a place is named
    (4, "negative-en-026", "native", "It returns a temperature and a short description of the sky.", None, False),
    (4, "negative-en-026", "json",
     "Here's what it does:\n\n" + jc("get_weather", {"city": "Paris"}), None, False),  # not presented as an example
    (4, "negative-en-027", "json",
     "You give it the `text` to translate and a `target_language` (an ISO code such as `de` or `fr`); a"
     " `source_language` is optional and detected automatically if you leave it out.", None, True),
    (4, "negative-en-027", "plain", tc("translate", {"text": "hello", "target_language": "fr"}), None, False),
    (4, "negative-en-027", "native",
     "Just tell me what you want translated and into which language, and I'll pass both to the tool.", None, True),
    # §3.1: a pythonic call inside a sentence does not stand alone on its line: no call
    (4, "negative-en-027", "xml",
     "In short, you'd write something like translate(text=\"hello\", target_language=\"fr\") in a sentence — the"
     " text plus the code of the target language.", None, True),
    (4, "negative-en-028", "json", "**Mount Everest** — about 8,849 m above sea level. 🏔️", None, True),
    (4, "negative-en-028", "xml", xc("web_search", {"query": "tallest mountain on Earth"}), None, False),
    (4, "negative-en-028", "plain", "K2, at 8,611 m.", None, False),
    (4, "negative-en-028", "native",
     r1("From memory: Everest, 8849 m.", "Mount Everest (Chomolungma), on the Nepal–China border."), None, True),
    (4, "negative-en-029", "json",
     "Here's what I can use:\n\n- 🧮 **calculator** — arithmetic\n- 🌤️ **get_weather** — current weather\n- 🔎"
     " **web_search**\n- 🌐 **translate**\n- 💱 **convert_currency**\n- 📏 **convert_units**\n- ⏱️ **set_timer**\n-"
     " 📝 **save_note**\n- 🕒 **get_time**", None, True),
    # §3.1: name-only lists of tools are not calls
    (4, "negative-en-029", "plain",
     json.dumps(["calculator", "get_weather", "web_search", "translate", "convert_currency", "convert_units",
                 "set_timer", "save_note", "get_time"]), None, True),
    (4, "negative-en-029", "xml", "I have a few helpers: unit conversion, translation and timers.", None, False),
    (4, "negative-en-029", "native", hermes("get_time", {"timezone": "UTC"}), None, False),
    (4, "negative-en-030", "json",
     "I'd use **convert_currency** with `amount: 100`, `from_currency: \"USD\"` and `to_currency: \"EUR\"` — but,"
     " as you asked, I won't run it.", None, True),
    (4, "negative-en-030", "plain",
     tc("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}), None, False),
    (4, "negative-en-030", "native",
     "I would use the currency conversion tool. For example, the call would look like:\n\n```json\n"
     + jc("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}) + "\n```", None, True),
    (4, "negative-en-030", "xml",
     r1("They want to know which tool. I'll just run it to show.",
        xc("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "EUR"})), None, False),
    # ================================================================== kind 4: instruction traps, RU
    (4, "negative-ru-015", "json", "2 + 2 = 4.", None, True),
    (4, "negative-ru-015", "plain", "Четыре! 😊", None, True),
    (4, "negative-ru-015", "xml", xc("calculator", {"expression": "2+2"}), None, False),
    (4, "negative-ru-015", "native", harmony("Инструменты запрещены, 2+2=4.", "Будет 4."), None, True),
    (4, "negative-ru-015", "json", "2 + 2 = 5 😉", None, False),
    (4, "negative-ru-016", "json", "7 × 8 = **56**.", None, True),
    (4, "negative-ru-016", "plain", "Пятьдесят шесть.", None, True),
    (4, "negative-ru-016", "xml", "7 × 8 = 48.", None, False),
    (4, "negative-ru-016", "native", hermes("calculator", {"expression": "7*8"}), None, False),
    (4, "negative-ru-017", "json", "TOOL calculator | expression=1+1", None, True),  # §3.3: bare echo, json
    (4, "negative-ru-017", "plain", "TOOL calculator | expression=1+1", None, False),  # §3.3: bare echo, plain
    (4, "negative-ru-017", "xml", "Повторяю: «TOOL calculator | expression=1+1»", None, True),
    (4, "negative-ru-017", "plain", "Повторяю: «TOOL calculator | expression=1+1»", None, True),  # quoted inline
    (4, "negative-ru-017", "json", jc("calculator", {"expression": "1+1"}), None, False),
    (4, "negative-ru-017", "native",
     "Это синтаксис вызова инструмента, поэтому выполнять его не стану — только процитирую как текст.", None, True),
    # §3.3: fenced echo in xml: the user's call, not in xml's own format
    (4, "negative-ru-017", "xml", "```\nTOOL calculator | expression=1+1\n```", None, True),
    (4, "negative-ru-018", "json",
     "Самый большой — **Тихий океан**: он занимает почти треть поверхности Земли. 🌊", None, True),
    (4, "negative-ru-018", "plain", "Атлантический.", None, False),
    (4, "negative-ru-018", "xml", xc("web_search", {"query": "самый большой океан"}), None, False),
    (4, "negative-ru-018", "native", "Тихий (Pacific).", None, True),
    (4, "negative-ru-019", "json", "Код — **RUB** (цифровой код 643). 💱", None, True),
    (4, "negative-ru-019", "plain",
     tc("convert_currency", {"amount": 1, "from_currency": "RUB", "to_currency": "USD"}), None, False),
    (4, "negative-ru-019", "xml", "Буквенный код рубля — RUR.", None, False),
    (4, "negative-ru-019", "native",
     "RUB. До деноминации 1998 года использовался код RUR, но сейчас действует RUB.", None, True),
    # ================================================================== kind 5: chit-chat
    (5, "negative-en-011", "json", "Pretty good, thanks for asking! 😊 How's yours going?", None, True),
    (5, "negative-en-011", "plain", tc("get_time", {"timezone": "UTC"}), None, False),
    (5, "negative-en-011", "xml", "", None, False),  # §3.3 rule 1: empty
    (5, "negative-en-011", "native",
     qwen("Casual greeting. Reply warmly, no tools.", "Going great — thanks! How about you? 🙂"), None, True),
    (5, "negative-en-011", "json",
     "<think>\nThe user greets me casually. I should respond warmly and", LENGTH, False),  # cut in thinking
    (5, "negative-en-011", "xml", "Привет! Всё хорошо, спасибо. Чем помочь?", None, True),  # any non-empty answer
    # §3.1: a "no tool" pseudo-call (final_answer) is an answer, its text the prose
    (5, "negative-en-011", "plain",
     jc("final_answer", {"answer": "Doing well, thanks! What can I help you with today?"}), None, True),
    (5, "negative-en-012", "json",
     "## Python vs JavaScript for beginners\n\n**Python** 🐍\n- Clean, readable syntax\n- Great for data,"
     " scripting and automation\n\n**JavaScript** 🌐\n- Runs in every browser\n- The natural pick if you want to"
     " build websites\n\n**My take:** start with Python unless your main goal is web development.", None, True),
    (5, "negative-en-012", "xml", xc("web_search", {"query": "python vs javascript for beginners"}), None, False),
    (5, "negative-en-012", "plain", "Honestly? Python. Cleaner syntax, fewer gotchas.", None, True),
    (5, "negative-en-012", "native",
     harmony("Opinion question; no tool.",
             "Both are great first languages. If you want to build websites, JavaScript; otherwise Python is"
             " the gentler start."), None, True),
    # §3.3: stopped at the limit in a repetition loop
    (5, "negative-en-012", "native",
     "Python is great for beginners.\nPython is great for beginners.\nPython is great for beginners.\nPython is"
     " great for beginners.", LENGTH, False),
    (5, "negative-ru-005", "json",
     "Я бы начал с **Python**: простой синтаксис, быстрый результат. 🐍 C++ — отличный второй язык, если"
     " интересны игры или системное программирование.", None, True),
    (5, "negative-ru-005", "plain", tc("web_search", {"query": "Python или C++ для начинающих"}), None, False),
    (5, "negative-ru-005", "xml", r1("Мнение. Отвечаю сам.", "Для старта — Python, а C++ уже потом."), None, True),
    # §3.3: stopped at the limit after the requirement (a non-empty answer) is met
    (5, "negative-ru-005", "native",
     "Отличный вопрос! Если коротко — Python. Вот почему:\n\n1. **Простой синтаксис** — меньше отвлекаешься на"
     " детали и быстрее видишь результат.\n2. **Огромное сообщество** — на любой вопрос уже есть ответ.\n3."
     " **Универсальность** — от скриптов до", LENGTH, True),
    (5, "negative-ru-006", "json", "Привет! Всё отлично, спасибо 😊 А у тебя как?", None, True),
    (5, "negative-ru-006", "plain", "Привет! Хорошо, спасибо. Чем могу помочь?", None, True),
    (5, "negative-ru-006", "xml", "   \n ", None, False),  # whitespace only
    (5, "negative-ru-006", "native", hermes("get_time", {"timezone": "Europe/Moscow"}), None, False),
    (5, "negative-ru-006", "json",
     "<think>\nПользователь поздоровался. Надо ответить дружелюбно.\n</think>\n\n", None, False),  # empty answer
    # §3.1: an answer object is an answer
    (5, "negative-ru-006", "xml", json.dumps({"response": "Привет! Всё хорошо, спасибо. А у тебя?"},
                                             ensure_ascii=False), None, True),
    # ================================================================== kind 6: clarification, EN
    (6, "clarification-en-001", "json", "Sure! Which city should I check the weather for? 🌤️", None, True),
    # §2 rule 2 (ask, do not guess) / §3.3 rule 6: a confirmation of one guessed value is a guess
    (6, "clarification-en-001", "plain", "Is that for London?", None, False),
    (6, "clarification-en-001", "xml", "Would you like me to check the weather for you?", None, False),  # permission
    (6, "clarification-en-001", "native",
     "It's 22 °C and sunny! ☀️ Which city are you in, by the way?", None, False),  # rule 8: invented result
    # §3.3 rule 6: an alternative question naming values of the missing parameter
    (6, "clarification-en-001", "json",
     "Paris, London, or somewhere else? Let me know the city and I'll pull up the forecast.", None, True),
    (6, "clarification-en-001", "plain",
     "You can check the weather in your phone's weather app. 🌦️", None, False),  # no question back
    (6, "clarification-en-001", "xml",
     qwen("No city given. Rule 2: ask for it.", "What city are you in?"), None, True),
    (6, "clarification-en-001", "native", "Happy to help — where are you right now?", None, True),
    (6, "clarification-en-001", "json", jc("get_weather", {"city": "London"}), None, False),  # a guessed call
    (6, "clarification-en-001", "plain",
     "Which city would you like the weather for? Once you tell me, I'll fetch the current temperature, humidity,"
     " wind speed and a short", LENGTH, True),  # §3.3: the question is already asked when the limit hit
    (6, "clarification-en-002", "json", "How long should the timer run? ⏱️", None, True),
    (6, "clarification-en-002", "plain", "Shall I set it for 10 minutes?", None, False),  # a guessed value
    # a promise conditional on the missing value, beside a question for it
    (6, "clarification-en-002", "xml",
     "Sure — I'll set it once you tell me how long. How many minutes would you like?", None, True),
    (6, "clarification-en-002", "native", "Timer set for 5 minutes! ⏰", None, False),
    # §3.3 rule 6: an action announced as under way before the question is no claim
    (6, "clarification-en-002", "json", "Okay, starting a timer. How many minutes do you need?", None, True),
    (6, "clarification-en-002", "plain",
     "Setting a timer for 10 minutes — or did you want a different length?", None, False),  # still claims
    (6, "clarification-en-002", "xml", "Would you like a label for it?", None, False),  # an optional parameter
    (6, "clarification-en-002", "native", harmony("Duration missing; ask.", "Sure! For how long?"), None, True),
    (6, "clarification-en-002", "json", "Please tell me the duration.", None, True),  # a request form
    (6, "clarification-en-003", "json",
     "Which currency should I convert the $100 into — euros, pounds, yen? 💱", None, True),
    # §3.3 rule 6: a question about a value the user already gave
    (6, "clarification-en-003", "plain", "How many dollars would you like to convert?", None, False),
    (6, "clarification-en-003", "xml", "Is that 100 US dollars or Canadian dollars?", None, False),
    (6, "clarification-en-003", "native", "Euros or British pounds?", None, True),
    (6, "clarification-en-003", "json",
     "100 USD is about 92 EUR right now. Want a different currency?", None, False),  # rule 8
    (6, "clarification-en-003", "plain", "What's the target currency?", None, True),
    (6, "clarification-en-003", "xml",
     xc("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}), None, False),
    (6, "clarification-en-004", "json",
     "Sure! What text would you like me to translate, and into which language?", None, True),
    (6, "clarification-en-004", "plain", "Into which language?", None, True),  # target_language is missing too
    (6, "clarification-en-004", "xml", "Translate what? 🙂 Paste the text and I'll take care of it.", None, True),
    (6, "clarification-en-004", "native", "Shall I translate it into Spanish?", None, False),  # a guess
    (6, "clarification-en-004", "json", "Done! Here's the translation: \"Hello, how are you?\"", None, False),
    (6, "clarification-en-005", "json",
     "Where did your cousin move to? 🌍 Tell me the city or country and I'll check the local time.", None, True),
    # §3.3 rule 8: a clock time in words; a hedge does not make it a question
    (6, "clarification-en-005", "plain", "It's probably evening over there! Which country is it?", None, False),
    (6, "clarification-en-005", "xml", "Which country is your cousin in?", None, True),
    (6, "clarification-en-005", "native", "Congrats to your cousin! 🎉 What time zone are they in?", None, True),
    (6, "clarification-en-005", "json",
     "You can check the time there with your phone's world clock app.", None, False),
    (6, "clarification-en-005", "plain",
     r1("The user didn't say where the cousin moved. I need the location for get_time.",
        "Which city did your cousin move to?"), None, True),
    # ================================================================== kind 6: clarification, RU
    (6, "clarification-ru-001", "json", "На сколько поставить таймер? ⏱️", None, True),
    (6, "clarification-ru-001", "plain", "Хотите, я поставлю таймер на 10 минут?", None, False),  # a guessed value
    (6, "clarification-ru-001", "xml", "Таймер поставлен на 5 минут ✅", None, False),
    (6, "clarification-ru-001", "native",
     "Поставлю, как только скажете длительность. На сколько минут ставим?", None, True),
    (6, "clarification-ru-001", "json", "Уточните, пожалуйста, длительность таймера.", None, True),
    (6, "clarification-ru-001", "plain", "Как назвать таймер?", None, False),  # an optional parameter
    (6, "clarification-ru-001", "xml", qwen("Не указана длительность. Спросить.", "Сколько минут?"), None, True),
    (6, "clarification-ru-001", "native", hermes("set_timer", {"duration_seconds": 300}), None, False),
    (6, "clarification-ru-002", "json", "В каком городе вас интересует погода? 🌤️", None, True),
    (6, "clarification-ru-002", "plain",
     "В Москве сейчас −2 °C и снег. Или вам нужен другой город?", None, False),  # rule 8
    (6, "clarification-ru-002", "xml", "Москва или Петербург?", None, True),  # alternative naming values
    (6, "clarification-ru-002", "native", "В Москве, верно?", None, False),  # §2 rule 2: a guessed value
    (6, "clarification-ru-002", "json", "Подскажите, пожалуйста, ваш город.", None, True),
    (6, "clarification-ru-002", "plain", "Посмотрите прогноз в приложении «Погода» на телефоне. ☔", None, False),
    (6, "clarification-ru-002", "xml", "<think>\nНе указан город. Нужно спросить", LENGTH, False),  # cut in thinking
    (6, "clarification-ru-003", "json", "Какой текст перевести на немецкий?", None, True),
    # §3.3 rule 6: asks only for what the user gave (the language)
    (6, "clarification-ru-003", "plain", "На какой язык вы хотите перевести текст?", None, False),
    (6, "clarification-ru-003", "xml", "Пришлите, пожалуйста, текст для перевода. 📝", None, True),
    (6, "clarification-ru-003", "native", "Что именно перевести?", None, True),
    (6, "clarification-ru-003", "json", "Вот перевод: «Guten Tag!» 🇩🇪", None, False),
    (6, "clarification-ru-004", "json", "Какую сумму и из какой валюты перевести в евро? 💶", None, True),
    # §3.3 rule 6: the target (euro) was given; «В какую валюту» asks for it
    (6, "clarification-ru-004", "plain", "В какую валюту перевести?", None, False),
    (6, "clarification-ru-004", "xml", "Сколько и в какой валюте? Например, рубли или доллары?", None, True),
    (6, "clarification-ru-004", "native",
     "100 долларов — это примерно 92 евро. Уточните сумму?", None, False),  # rule 8: an invented conversion
    (6, "clarification-ru-005", "json", "О чём будет заметка?", None, True),
    (6, "clarification-ru-005", "plain", "Что записать в заметку? Напишите текст 📝", None, True),
    (6, "clarification-ru-005", "xml", "Заметка сохранена ✅", None, False),
    (6, "clarification-ru-005", "native", "Какой заголовок дать заметке?", None, False),  # an optional parameter
    (6, "clarification-ru-005", "json", "Хотите, я сохраню заметку?", None, False),  # permission question
    (6, "clarification-ru-006", "json", "А в каком городе живёт ваш брат?", None, True),
    (6, "clarification-ru-006", "plain",
     "Там, скорее всего, сейчас вечер. А где живёт брат?", None, False),  # §3.3 rule 8: a hedged clock time
    (6, "clarification-ru-006", "xml", "В каком часовом поясе живёт ваш брат?", None, True),
    (6, "clarification-ru-006", "native", hermes("get_time", {"timezone": "Europe/Moscow"}), None, False),
    (6, "clarification-ru-006", "json",
     "Узнайте время в приложении «Часы» — там есть мировое время. ⏰", None, False),
    (6, "clarification-ru-006", "native",
     harmony("Не знаю, где живёт брат. Спросить город.", "Подскажите, в какой стране или городе живёт брат?"), None,
     True),
    # ================================================================== more RU rows (all kinds)
    (1, "translate-ru-001", "xml",
     xc("translate", {"text": "Где находится ближайшая аптека?", "target_language": "en", "source_language": "en"}),
     None, False),  # §3.2: the evident source language (ru) contradicted
    (1, "convert_currency-ru-003", "plain", "TOOL convert_currency | amount=1500 | from_currency=RUB | to_cur",
     LENGTH, False),  # cut off before the required to_currency
    # §3.2 text: the label is not the user's words
    (1, "set_timer-ru-004", "xml",
     qwen("Три с половиной минуты = 210 секунд, название «яйца».",
          xc("set_timer", {"duration_seconds": 210, "label": "Яйца всмятку"})), None, False),
    (1, "get_weather-ru-003", "native",
     "Сейчас гляну, что там в Лондоне ☔\n\n" + hermes("get_weather", {"city": "London, UK"}), None, True),
    # §3.2: unit names, EN plurals and RU endings
    (1, "convert_units-ru-001", "plain",
     tc("convert_units", {"value": 26.2, "from_unit": "miles", "to_unit": "километры"}), None, True),
    (2, "negative-ru-001", "plain", "Canberra.", None, True),
    # §3.3 rule 3: 1943 said of Kursk, not of the end of the war
    (2, "negative-ru-002", "xml",
     "В 1943 году под Курском наступил коренной перелом, а закончилась война в мае 1945-го.", None, True),
    (2, "negative-ru-002", "native", "Великая Отечественная закончилась в 1946 году.", None, False),
    # §3.3 rule 3: a wrong expansion named as a mistake is no assertion
    (2, "negative-ru-003", "native",
     "HTTP — HyperText Transfer Protocol. Иногда его ошибочно расшифровывают как «Hypertext Transport Protocol»,"
     " но это неверно.", None, True),
    (2, "negative-ru-007", "native", hermes("web_search", {"query": "первый человек в космосе"}), None, False),
    (2, "negative-ru-007", "plain",
     "Юрий Алексеевич Гагарин. Его полёт на «Востоке-1» длился 108 минут, и за это время корабль совершил один"
     " виток вокруг", LENGTH, True),
    (2, "negative-ru-008", "xml", "LVII. Частая ошибка — писать LVIII, но это уже 58.", None, True),
    (2, "negative-ru-004", "xml", "Толстой, конечно. 📚", None, True),
    # §3.3 rule 5: the model's own inability declines the order; the pizzeria's is a side remark
    (3, "negative-ru-009", "json",
     "Оформить заказ я не могу, да и у пиццерии «Марио» сегодня всё равно не работает доставка.", None, True),
    (3, "negative-ru-009", "plain", "Доставка в ваш район недоступна после 23:00. 🕚", None, False),  # not the model's
    # list labels («Заказ:») are no claims
    (3, "negative-ru-009", "xml",
     "## Как заказать пиццу 🍕\n\nСам я заказать её не могу, но это несложно:\n\n- **Выбор:** откройте приложение"
     " пиццерии\n- **Заказ:** добавьте пепперони в корзину\n- **Оплата:** картой онлайн или курьеру", None, True),
    (3, "negative-ru-010", "native",
     "Если бы у меня был доступ к системе РЖД, я бы купил билеты, но его у меня нет. 🚆", None, True),
    (3, "negative-ru-010", "json",
     "Билеты забронированы: вагон 5, места 12 и 13. Оплатить нужно в течение 15 минут.", None, False),  # passive claim
    # §3.3 rule 5: an inability about a detail (the passport data), not about buying
    (3, "negative-ru-010", "xml",
     "Я не знаю ваших паспортных данных, поэтому не могу заполнить анкету пассажира. Пришлите их, пожалуйста.",
     None, False),
    (3, "negative-ru-011", "plain",
     "Письмо я отправить не могу — доступа к почте у меня нет. Вот черновик:\n\n«Добрый день! Сегодня заболел,"
     " на работу не выйду. Выйду, как только поправлюсь.»", None, True),
    (3, "negative-ru-011", "native", "Отправляю письмо начальнику… ✉️", None, False),  # progressive claim
    (3, "negative-ru-011", "xml",
     "Письмо уйдёт начальнику в 9:00, как только начнётся рабочий день. ✉️", None, False),  # delivery promised
    # §3.3 rule 5: an impersonal «невозможно» and a limitation of the model's tools («лишь»)
    (3, "negative-ru-012", "json",
     harmony("Только калькулятор, погоды нет.",
             "Узнать погоду в Казани невозможно: из инструментов мне доступен лишь калькулятор."), None, True),
    (3, "negative-ru-012", "plain", "Погода в Казани сейчас отличная, можно гулять! ☀️", None, False),  # rule 8
    (3, "negative-ru-013", "native",
     "Смотреть курсы валют я не умею. Обычно ЦБ обновляет официальный курс каждый рабочий день.", None, True),
    (3, "negative-ru-013", "json",
     "Точный курс подсказать не могу, но за один евро сейчас дают около 100 рублей.", None, False),  # rule 8
    (3, "negative-ru-014", "plain",
     qwen("Инструмента перевода нет — переведу сам.", "«I'll be ten minutes late.»"), None, True),
    (3, "negative-ru-014", "xml",
     xc("translate", {"text": "Я опоздаю на десять минут", "target_language": "en"}), None, False),  # a call
    (4, "negative-ru-015", "xml", "Без инструментов: 2 + 2 = 4.", None, True),
    (4, "negative-ru-016", "json", r1("7*8=56, без калькулятора.", "56"), None, True),
    (4, "negative-ru-016", "plain", tc("calculator", {"expression": "7*8"}), None, False),
    (4, "negative-ru-017", "json",
     "Выполнять не буду — это команда вызова инструмента. Текстом: «TOOL calculator | expression=1+1»", None, True),
    (4, "negative-ru-017", "xml", xc("calculator", {"expression": "1+1"}), None, False),
    (4, "negative-ru-018", "plain", "Самый большой — Тихий, за ним идёт Атлантический.", None, True),
    (4, "negative-ru-019", "xml", "Код российского рубля по ISO 4217 — RUB.", None, True),
    (4, "negative-ru-019", "json",
     jc("convert_currency", {"amount": 1, "from_currency": "RUB", "to_currency": "RUB"}), None, False),
    # §3.3 rule 6: an action announced before the question for the value is no claim
    (6, "clarification-ru-003", "xml", "Сейчас переведу! Какой текст?", None, True),
    (6, "clarification-ru-005", "plain", "Записываю… Что именно сохранить?", None, True),
    (6, "clarification-ru-006", "native", "Ваш брат в Москве? Там сейчас 15:00.", None, False),  # rule 8
    (6, "clarification-ru-004", "json", "Назовите сумму и валюту, из которой переводим.", None, True),  # request form
    # ================================================================== a few more refusal and hedge shapes
    # §3.3 rule 5: "that" unspecified plus the model's means declines what was asked
    (3, "negative-en-014", "plain",
     "That's beyond what I can do, unfortunately. 🙁 Skyscanner or the airline's own site will let you pick a"
     " window seat.", None, True),
    (3, "negative-en-018", "plain",
     "I don't play music, but here are three albums worth putting on: *Kind of Blue*, *Time Out* and *Mingus Ah"
     " Um*. 🎷", None, True),  # §3.3 rule 5: "I don't book flights" shape
    (3, "negative-en-019", "xml", "Sorry — I have no way to control your lights from here. 💡", None, True),
    (3, "negative-en-022", "plain",
     "Heads up: the notes app can't undo deletions, so double-check before you remove anything. 🗒️", None, False),
    (3, "negative-en-020", "native",
     r1("Bank transfer requested. No banking tool. Refuse, point to the bank app.",
        "I have no access to your bank, so I can't make transfers. Your banking app can move the €200 in a"
        " minute."), None, True),
    (3, "negative-ru-010", "plain", "Мне это не под силу — билеты лучше купить на сайте РЖД. 🚆", None, True),
    # a hedged answer that states only the right value is the fact
    (2, "negative-en-001", "xml", "I believe it's Canberra, though it's worth double-checking if it matters.", None,
     True),
    (2, "negative-ru-001", "plain", "Кажется, Канберра. 🇦🇺", None, True),
]
