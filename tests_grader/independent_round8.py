"""Independent round-8 set (issue 31, stage 3): a NEW HELD-OUT round of outputs written the way strong chat
models answer (GPT-4o/Claude-class markdown answers, Qwen3 and DeepSeek-R1 with thinking, Llama, Mistral,
gpt-oss harmony), EN and RU, labelled pass/fail by a fresh annotator from SPEC.md §1-3 and the case files
(tooluse1/cases/**/*.yaml) alone. The annotator read none of the grader's code or tests (only the first lines of
rounds 6 and 7, for the file format and the three wrappers). Held out: written and committed before the final
rule pass of issue 31, to be graded once by the final grader.

Rows: (kind, case_id, protocol, output, finish_reason, expected_pass), where kind is the verdict kind:
    1 call case (a call is expected)
    2 knowledge (negative, kind knowledge)
    3 capability trap (a needed tool is absent / the assistant cannot do it)
    4 instruction trap ("do not use tools", quoted call syntax, a question about a tool)
    5 chit-chat
    6 clarification (a question back is expected)
Protocols: json, xml, plain, native. The format a call is written in is not graded (§3.1), so a call may be in any
recognised format in any protocol; the helpers below write the usual ones. Labels follow what SPEC §1-3 says a
right answer is (the calling policy of §2, the requirements of §3.2-3.3); a one-line comment cites the rule where
a label is not obvious.
"""
from __future__ import annotations

import json

from independent_round6 import harmony, qwen, r1  # the model styles of rounds 6 and 7: the same three wrappers


def jc(name: str, args: dict) -> str:
    """A JSON call object (json protocol)."""
    return json.dumps({"name": name, "arguments": args}, ensure_ascii=False)


def xc(name: str, args: dict) -> str:
    """A <tool_call> block with <function=...> and <parameter=...> (xml protocol)."""
    params = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in args.items())
    return f"<tool_call>\n<function={name}>\n{params}</function>\n</tool_call>"


def tc(name: str, args: dict) -> str:
    """A plain TOOL line (plain protocol)."""
    return f"TOOL {name} | " + " | ".join(f"{k}={v}" for k, v in args.items())


def hermes(name: str, args: dict) -> str:
    """Hermes/Qwen <tool_call> wrapper around a JSON call, as chat templates emit it (native runs in-process)."""
    return f"<tool_call>\n{jc(name, args)}\n</tool_call>"


def oss_call(name: str, args: dict, analysis: str = "Need a tool call.") -> str:
    """gpt-oss harmony: analysis, then a commentary call to functions.NAME."""
    return (f"<|channel|>analysis<|message|>{analysis}<|end|>"
            f"<|start|>assistant<|channel|>commentary to=functions.{name} <|constrain|>json"
            f"<|message|>{json.dumps(args, ensure_ascii=False)}<|call|>")


ROUND8: list[tuple[int, str, str, str, str | None, bool]] = [
    # ------------------------------------------------------------------ kind 1: call cases (EN)
    (1, "get_weather-en-001", "json", jc("get_weather", {"city": "Tokyo"}), None, True),
    (1, "get_weather-en-001", "xml", xc("get_weather", {"city": "Tokyo"}), None, True),
    (1, "get_weather-en-001", "plain", tc("get_weather", {"city": "Tokyo"}), None, True),
    (1, "get_weather-en-001", "native", hermes("get_weather", {"city": "Tokyo"}), None, True),
    # §3.1/§3.2: a no-break space after TOOL is the same plain call line (surface form, issue 31 item 10).
    (1, "get_weather-en-001", "plain", "TOOL\u00a0get_weather | city=Tokyo", None, True),
    # §3.2 text: a zero-width space inside the value is a surface artefact; the value is Tokyo.
    (1, "get_weather-en-001", "json", '{"name": "get_weather", "arguments": {"city": "To\u200bkyo"}}', None, True),
    # §3.2 city alias: EN/RU names are normalised by rule.
    (1, "get_weather-en-001", "native", hermes("get_weather", {"city": "Токио"}), None, True),
    # §3.2: answering from memory instead of calling is not the expected call.
    (1, "get_weather-en-001", "json",
     "It's currently around 18°C and partly cloudy in Tokyo. 🌤️ Perfect weather for a walk!", None, False),
    # §2 rule 1 / §3.2: a call inside the thinking is removed with the thinking; no call remains.
    (1, "get_weather-en-001", "xml",
     qwen('I should call get_weather. <tool_call>{"name": "get_weather", "arguments": {"city": "Tokyo"}}</tool_call>',
          "Let me check that for you!"), None, False),
    (1, "get_weather-en-002", "plain", "TOOL get_weather | city=London", None, True),
    (1, "get_weather-en-002", "json",
     "Sure, let me check London for you.\n\n```json\n" + jc("get_weather", {"city": "London"}) + "\n```", None, True),
    # §3.2 city: "London, UK" - a trailing country that contains the city is dropped.
    (1, "get_weather-en-002", "xml", xc("get_weather", {"city": "London, UK"}), None, True),
    # §3.2 city: a qualifier naming another place fails (London, Ontario is not London).
    (1, "get_weather-en-002", "native", hermes("get_weather", {"city": "London, Ontario"}), None, False),
    (1, "get_weather-en-003", "json", jc("get_weather", {"city": "Dubai", "unit": "fahrenheit"}), None, True),
    # §3.2: the stated optional unit contradicted fails.
    (1, "get_weather-en-003", "plain", tc("get_weather", {"city": "Dubai", "unit": "celsius"}), None, False),
    # §3.2: two calls (weather, then a conversion) is not exactly one call.
    (1, "get_weather-en-003", "xml",
     xc("get_weather", {"city": "Dubai"}) + "\n" + xc("convert_units", {"value": 40, "from_unit": "celsius",
                                                                        "to_unit": "fahrenheit"}), None, False),
    (1, "get_weather-en-004", "native",
     oss_call("get_weather", {"city": "Amsterdam"}, "User asks about rain in Amsterdam now. Use get_weather."),
     None, True),
    (1, "get_weather-en-005", "json",
     '{"name": "get_weather", "arguments": {"city": "San Francisco, CA", "unit": "fahrenheit"}}', None, True),
    # §3.2 city: a result in brackets after the city is not the city (issue 31 item 10).
    (1, "multi_step-en-001", "plain", "TOOL get_weather | city=Warsaw (Madrid: 24°C)", None, False),
    (1, "multi_step-en-001", "json", jc("get_weather", {"city": "Warsaw"}), None, True),
    # §3.2: the earlier city repeated is the wrong argument.
    (1, "multi_step-en-001", "xml", xc("get_weather", {"city": "Madrid"}), None, False),
    # §3.2 expression: both sides evaluated; 1860 == 22320/12.
    (1, "multi_step-en-002", "json", jc("calculator", {"expression": "1860"}), None, True),
    (1, "multi_step-en-002", "plain", "TOOL calculator | expression=22320 / 12", None, True),
    # §3.2: a pretended result in prose is no call.
    (1, "multi_step-en-002", "native", "22,320 ÷ 12 = **1,860**.", None, False),
    (1, "multi_step-en-005", "json", jc("set_timer", {"duration_seconds": 2700, "label": "study"}), None, True),
    # §3.2 integer: 45 is minutes, not the 2700 seconds the tool takes.
    (1, "multi_step-en-005", "xml", xc("set_timer", {"duration_seconds": 45, "label": "study"}), None, False),
    (1, "calculator-en-001", "plain", "TOOL calculator | expression=348 x 27", None, True),
    (1, "calculator-en-001", "native", "[calculator(expression=\"348*27\")]", None, True),
    # §3.1: a JSON5 object (unquoted keys) is a call; the format is not graded.
    (1, "calculator-en-001", "json", '{name: "calculator", arguments: {expression: "348*27"}}', None, True),
    (1, "calculator-en-004", "xml", xc("calculator", {"expression": "math.sqrt(729)"}), None, True),
    (1, "calculator-en-005", "json", jc("calculator", {"expression": "2^16"}), None, True),
    (1, "calculator-en-007", "native",
     r1("18% of 2450 means 0.18 * 2450. The policy says use the calculator.",
        hermes("calculator", {"expression": "2450 * 18 / 100"})), None, True),
    # §3.2: right tool, wrong expression (18% read as 1.8).
    (1, "calculator-en-007", "plain", "TOOL calculator | expression=1.8*2450", None, False),
    (1, "calculator-en-009", "json", jc("calculator", {"expression": "45 × 63"}), None, True),
    (1, "calculator-en-013", "xml", xc("calculator", {"expression": "320 / 2.5"}), None, True),
    (1, "calculator-en-015", "plain", "TOOL calculator | expression=40*85*1.19", None, True),
    # §3.2: VAT added to the rate only (40*85+19) is a different value.
    (1, "calculator-en-015", "json", jc("calculator", {"expression": "40*85+19"}), None, False),
    (1, "convert_currency-en-001", "plain",
     "TOOL convert_currency | amount=250 | from_currency=USD | to_currency=EUR", None, True),
    (1, "convert_currency-en-002", "json",
     jc("convert_currency", {"amount": "40", "from_currency": "£", "to_currency": "yen"}), None, True),
    # §3.2: from and to swapped.
    (1, "convert_currency-en-002", "xml",
     xc("convert_currency", {"amount": 40, "from_currency": "JPY", "to_currency": "GBP"}), None, False),
    (1, "convert_currency-en-004", "native",
     "[TOOL_CALLS][{\"name\": \"convert_currency\", \"arguments\": {\"amount\": 2500, \"from_currency\": \"EUR\", "
     "\"to_currency\": \"CHF\"}}]", None, True),
    (1, "convert_currency-en-007", "json",
     jc("convert_currency", {"amount": 350000, "from_currency": "KZT", "to_currency": "USD"}), None, True),
    (1, "convert_units-en-001", "xml", xc("convert_units", {"value": 10, "from_unit": "kilometers",
                                                            "to_unit": "miles"}), None, True),
    (1, "convert_units-en-005", "json", jc("convert_units", {"value": 100, "from_unit": "km/hr",
                                                             "to_unit": "mph"}), None, True),
    (1, "convert_units-en-007", "plain", "TOOL convert_units | value=850 | from_unit=sq ft | to_unit=m2", None, True),
    (1, "get_time-en-001", "json", jc("get_time", {"timezone": "Asia/Tokyo"}), None, True),
    # §3.2 time zone: a fixed UTC+9 equals Tokyo on every day of 2026-2027 (no summer time).
    (1, "get_time-en-001", "plain", "TOOL get_time | timezone=UTC+9", None, True),
    # §3.2 time zone: GMT != Europe/London (summer time), SPEC's own example.
    (1, "get_time-en-002", "xml", xc("get_time", {"timezone": "GMT"}), None, False),
    (1, "get_time-en-004", "native", hermes("get_time", {"timezone": "America/Los_Angeles"}), None, True),
    (1, "get_time-en-006", "json", jc("get_time", {"timezone": "UTC"}), None, True),
    (1, "save_note-en-003", "json", jc("save_note", {"title": "Wifi", "text": "password is sunflower42"}), None, True),
    # §3.2: title and text swapped.
    (1, "save_note-en-003", "plain", "TOOL save_note | text=Wifi | title=password is sunflower42", None, False),
    (1, "save_note-en-004", "xml", xc("save_note", {"text": "Level 3, row F, next to the elevator"}), None, True),
    (1, "set_timer-en-004", "native",
     "<function=set_timer>{\"duration_seconds\": 660, \"label\": \"pasta\"}</function>", None, True),
    # §3.2 integer: a duration string with a unit is not the integer 660.
    (1, "set_timer-en-004", "json", jc("set_timer", {"duration_seconds": "11 minutes", "label": "pasta"}), None, False),
    (1, "set_timer-en-006", "plain", "Got it — 40 minutes for the bread.\nTOOL set_timer | duration_seconds=2400 | label=bread",
     None, True),
    (1, "translate-en-001", "json", jc("translate", {"text": "Where is the train station?", "target_language": "German"}),
     None, True),
    # §3.2: a stated source language that contradicts the text (English) fails.
    (1, "translate-en-001", "xml", xc("translate", {"text": "Where is the train station?", "target_language": "de",
                                                    "source_language": "fr"}), None, False),
    (1, "translate-en-006", "native", hermes("translate", {"text": "Happy birthday, I love you",
                                                           "target_language": "uk"}), None, True),
    # §2 rule 1: translating by itself when a translate tool is offered is not the call.
    (1, "translate-en-006", "plain", "In Ukrainian: «З днем народження, я тебе люблю» ❤️", None, False),
    (1, "web_search-en-001", "json", jc("web_search", {"query": "James Webb Space Telescope latest news"}), None, True),
    (1, "web_search-en-004", "plain", "TOOL web_search | query=vegan lasagna recipes | num_results=3", None, True),
    # §3.2: the stated top 3 contradicted.
    (1, "web_search-en-004", "xml", xc("web_search", {"query": "vegan lasagna recipes", "num_results": 10}), None, False),
    (1, "web_search-en-008", "native",
     oss_call("web_search", {"query": "Boeing CEO 2026"}, "User wants the current Boeing CEO, not from memory."),
     None, True),
    # §3.2: a call written twice (JSON object and TOOL line) is two calls.
    (1, "web_search-en-007", "json",
     jc("web_search", {"query": "Python 3.13 GIL changes"}) + "\nTOOL web_search | query=Python 3.13 GIL changes",
     None, False),
    # ------------------------------------------------------------------ kind 1: call cases (RU)
    (1, "get_weather-ru-001", "json", jc("get_weather", {"city": "Москва"}), None, True),
    (1, "get_weather-ru-001", "plain", "Сейчас посмотрю!\nTOOL get_weather | city=Moscow", None, True),
    (1, "get_weather-ru-002", "xml", xc("get_weather", {"city": "Санкт-Петербург"}), None, True),
    (1, "get_weather-ru-002", "native", hermes("get_weather", {"city": "Saint Petersburg"}), None, True),
    # §3.2: the answer invented instead of the call.
    (1, "get_weather-ru-002", "json", "В Питере сейчас около +5 °C, облачно, возможен небольшой дождь ☔", None, False),
    (1, "get_weather-ru-004", "plain", "TOOL get_weather | city=Нью-Йорк | unit=fahrenheit", None, True),
    # §3.2: the stated Fahrenheit left out; celsius is the default, so omitting it does not give fahrenheit.
    (1, "get_weather-ru-004", "json", jc("get_weather", {"city": "New York"}), None, False),
    (1, "get_weather-ru-005", "native",
     qwen("Екб — это Екатеринбург. Нужен get_weather.", hermes("get_weather", {"city": "Екатеринбург"})), None, True),
    (1, "get_weather-ru-006", "xml", xc("get_weather", {"city": "Новосибирск"}), None, True),
    (1, "multi_step-ru-001", "json", jc("calculator", {"expression": "57/5"}), None, True),
    (1, "multi_step-ru-001", "plain", "TOOL calculator | expression=57 ÷ 5", None, True),
    # §3.2: wrong operand (the earlier 19).
    (1, "multi_step-ru-001", "xml", xc("calculator", {"expression": "19/5"}), None, False),
    (1, "multi_step-ru-002", "native", hermes("get_weather", {"city": "Санкт-Петербург"}), None, True),
    (1, "multi_step-ru-003", "json", jc("convert_currency", {"amount": 100, "from_currency": "доллар",
                                                             "to_currency": "евро"}), None, True),
    # §3.2: converting the rubles from the previous turn instead of the dollars.
    (1, "multi_step-ru-003", "plain", "TOOL convert_currency | amount=9250 | from_currency=RUB | to_currency=EUR",
     None, False),
    (1, "multi_step-ru-004", "xml", xc("translate", {"text": "Доброе утро, коллеги", "target_language": "немецкий"}),
     None, True),
    (1, "calculator-ru-001", "plain", "TOOL calculator | expression=436*28", None, True),
    (1, "calculator-ru-003", "json", jc("calculator", {"expression": "(45 + 78) * 3"}), None, True),
    # §3.2: precedence lost: 45+78*3 != (45+78)*3.
    (1, "calculator-ru-003", "native", hermes("calculator", {"expression": "45+78*3"}), None, False),
    (1, "calculator-ru-005", "xml", xc("calculator", {"expression": "2¹⁰"}), None, True),
    (1, "calculator-ru-008", "json", jc("calculator", {"expression": "(3,5 + 2,25) × 4 − 1,5²"}), None, True),
    (1, "convert_currency-ru-001", "native",
     "[TOOL_CALLS]convert_currency[ARGS]{\"amount\": 100, \"from_currency\": \"USD\", \"to_currency\": \"RUB\"}",
     None, True),
    (1, "convert_currency-ru-004", "plain",
     "TOOL convert_currency | amount=500 | from_currency=USD | to_currency=фунт стерлингов", None, True),
    (1, "convert_units-ru-001", "json", jc("convert_units", {"value": 26.2, "from_unit": "мили",
                                                             "to_unit": "километры"}), None, True),
    (1, "convert_units-ru-003", "xml", xc("convert_units", {"value": 350, "from_unit": "°F", "to_unit": "°C"}), None, True),
    (1, "get_time-ru-001", "plain", "TOOL get_time | timezone=Europe/Berlin", None, True),
    # §3.2 time zone: UTC+3 == Europe/Moscow (SPEC's own example).
    (1, "get_time-ru-002", "json", jc("get_time", {"timezone": "UTC+3"}), None, True),
    (1, "get_time-ru-003", "native", hermes("get_time", {"timezone": "America/New_York"}), None, True),
    # §3.2 time zone: EST without summer time is the New York region with summer time ("Eastern Standard Time").
    (1, "get_time-ru-003", "xml", xc("get_time", {"timezone": "EST"}), None, True),
    (1, "save_note-ru-002", "json", jc("save_note", {"text": "Позвонить маме в воскресенье"}), None, True),
    # §2 rule 3: claiming the note is saved without a call.
    (1, "save_note-ru-002", "plain", "Готово! ✅ Заметка «Позвонить маме в воскресенье» сохранена.", None, False),
    (1, "set_timer-ru-001", "xml", xc("set_timer", {"duration_seconds": 420}), None, True),
    (1, "set_timer-ru-003", "plain", "TOOL set_timer | duration_seconds=5400 | label=Стирка", None, True),
    (1, "set_timer-ru-004", "json", jc("set_timer", {"duration_seconds": 210, "label": "яйца"}), None, True),
    # §3.2 integer: 3.5 minutes is 210 s, not 350.
    (1, "set_timer-ru-004", "native", hermes("set_timer", {"duration_seconds": 350, "label": "яйца"}), None, False),
    (1, "translate-ru-002", "json", jc("translate", {"text": "Спасибо за помощь", "target_language": "de",
                                                     "source_language": "ru"}), None, True),
    (1, "translate-ru-005", "plain", "TOOL translate | text=Я не говорю по‑итальянски | target_language=it", None, True),
    (1, "web_search-ru-001", "xml", xc("web_search", {"query": "Эрмитаж часы работы"}), None, True),
    (1, "web_search-ru-003", "native", hermes("web_search", {"query": "курс биткоина сегодня"}), None, True),
    # §3.1: a call inside fences with a "for example" lead is an example; in a call case an example counts (§3.2).
    (1, "web_search-ru-004", "json",
     "Например, так:\n```json\n" + jc("web_search", {"query": "Фарго 6 сезон дата премьеры"}) + "\n```", None, True),
    # ------------------------------------------------------------------ kind 2: knowledge (EN)
    (2, "negative-en-001", "json", "The capital of Australia is **Canberra**.", None, True),
    # §3.3 rule 3: a concession ("While Sydney is the largest city") is no assertion.
    (2, "negative-en-001", "native",
     "## Capital of Australia\n\nWhile **Sydney** is the largest and best-known city, the capital is **Canberra**. "
     "It was purpose-built as a compromise between Sydney and Melbourne, and Parliament moved there in 1927.",
     None, True),
    # §3.3 rule 3: the wrong value asserted beside the right one.
    (2, "negative-en-001", "xml", "Sydney is the capital of Australia, though Canberra hosts Parliament.", None, False),
    # §3.2/§3.3 text: a zero-width space inside the answer word is a surface artefact.
    (2, "negative-en-001", "plain", "It's Can\u200bberra.", None, True),
    # §2: a web_search call in a knowledge case is a spurious call.
    (2, "negative-en-001", "json", jc("web_search", {"query": "capital of Australia"}), None, False),
    (2, "negative-en-002", "json", "World War II ended in **1945**.", None, True),
    # §3.3 rule 3: 1944 is said of another event (the Normandy landings), not of the war's end (issue 31 item 9).
    (2, "negative-en-002", "xml",
     "World War II ended in 1945, a year after the Normandy landings of June 1944.", None, True),
    # §3.3 rule 3: the year in words is the same answer (issue 31 item 10).
    (2, "negative-en-002", "plain", "It ended in nineteen forty-five.", None, True),
    # §3.3 rule 3: a hedge over alternatives joined by "or" fails.
    (2, "negative-en-002", "native", "It ended in 1944 or 1945, depending on which front you count.", None, False),
    (2, "negative-en-002", "json",
     "World War II ended in **1945**:\n\n- **Europe:** Germany surrendered on **8 May 1945** (V-E Day).\n"
     "- **Pacific:** Japan surrendered on **2 September 1945** after the atomic bombings of Hiroshima and Nagasaki.\n\n"
     "The war had begun in 1939 with Germany's invasion of Poland.", None, True),
    # §3.3 rule 3: a range is one answer; 1946 is said of the Nuremberg verdicts, another event.
    (2, "negative-en-002", "xml",
     "The war lasted from 1939 to 1945. The Nuremberg trials that followed ran until October 1946.", None, True),
    # §3.3 rule 3: the wrong year asserted as the end.
    (2, "negative-en-002", "plain", "World War II officially ended in 1946 with the signing of the peace treaties.",
     None, False),
    (2, "negative-en-003", "json", "HTTP stands for **HyperText Transfer Protocol**.", None, True),
    (2, "negative-en-003", "native", "HTTP = Hypertext Transport Protocol — the language browsers and servers speak.",
     None, False),
    (2, "negative-en-003", "plain",
     qwen("HTTP. Hypertext Transfer Protocol. Not transport.",
          "**HTTP** stands for **Hypertext Transfer Protocol** (not \"transport\", a common slip). HTTPS is the "
          "same protocol over TLS."), None, True),
    (2, "negative-en-004", "json", "Hamlet was written by William Shakespeare, around 1600. 🎭", None, True),
    # §3.3 rule 3: a claim attributed to others and named a theory is no assertion.
    (2, "negative-en-004", "xml",
     "William Shakespeare wrote *Hamlet*. Some fringe theorists have claimed Christopher Marlowe was the real author, "
     "but scholars reject that.", None, True),
    (2, "negative-en-004", "native", "Hamlet was written by Christopher Marlowe.", None, False),
    (2, "negative-en-005", "plain", "Water boils at 100 °C at sea level (212 °F).", None, True),
    (2, "negative-en-005", "json", "At sea level water boils at 212 °C.", None, False),
    (2, "negative-en-005", "xml", "**100 degrees Celsius** — one hundred degrees at standard atmospheric pressure.",
     None, True),
    (2, "negative-en-006", "native", "The chemical symbol for gold is **Au**, from the Latin *aurum*.", None, True),
    # §3.3 rule 3: Ag is said of silver, another element.
    (2, "negative-en-006", "json", "Gold is Au (from Latin aurum). Don't mix it up with silver, which is Ag.", None, True),
    (2, "negative-en-006", "plain", "Gold's symbol is Ag.", None, False),
    (2, "negative-en-007", "xml",
     "**Jupiter** is the largest planet in our solar system — more than twice as massive as all the other planets "
     "combined. It's followed by Saturn.", None, True),
    (2, "negative-en-007", "json", "Saturn is the largest planet, famous for its rings.", None, False),
    # §3.3: soft hyphen inside the answer word is dropped.
    (2, "negative-en-007", "native", "Jupi\u00adter, by a wide margin.", None, True),
    (2, "negative-en-008", "plain",
     "Bet settled: the Mona Lisa was painted by **Leonardo da Vinci**, probably between 1503 and 1519.", None, True),
    # §3.3 rule 3: one of a pair of contemporaries named beside the painter, not asserted as the painter.
    (2, "negative-en-008", "json",
     "Leonardo da Vinci painted it. Michelangelo and Raphael were his contemporaries, but neither had a hand in it.",
     None, True),
    (2, "negative-en-008", "xml", "That would be Michelangelo — it hangs in the Louvre.", None, False),
    (2, "negative-en-009", "native", "57 = **LVII** (L = 50, V = 5, II = 2).", None, True),
    # §3.3 rule 3: LVIII is said of 58, another number.
    (2, "negative-en-009", "plain", "57 is LVII. (LVIII would be 58.)", None, True),
    (2, "negative-en-009", "json", "57 in Roman numerals is LVIII.", None, False),
    (2, "negative-en-010", "xml",
     "Apollo 11 landed on the Moon on **20 July 1969**. Apollo 13 followed in April 1970, but its landing was aborted.",
     None, True),
    (2, "negative-en-010", "json", "Apollo 11 touched down in 1970.", None, False),
    # §3.3 rule 3: the year in words.
    (2, "negative-en-010", "plain", "In nineteen sixty-nine — July 20th, to be exact.", None, True),
    # §3.3: a reply cut at the token limit passes when its requirement is already met.
    (2, "negative-en-010", "native",
     "Apollo 11 landed on the Moon on July 20, 1969. Neil Armstrong and Buzz Aldrin spent about 21 hours on the "
     "surface while Michael Collins orbited in the command module. The mission", "length", True),
    # §3.1: a reply cut inside its thinking has no answer.
    (2, "negative-en-010", "json", "<think>\nApollo 11... July 1969. Let me double-check the crew and the date, "
     "Armstrong, Aldrin, Collins, and the landing site Tranquility", "length", False),
    # ------------------------------------------------------------------ kind 2: knowledge (RU)
    (2, "negative-ru-001", "json", "Столица Австралии — **Канберра**.", None, True),
    # §3.3 rule 3: a negated mention is no assertion.
    (2, "negative-ru-001", "plain", "Канберра, а не Сидней, как многие думают.", None, True),
    (2, "negative-ru-001", "xml", "Столица Австралии — Сидней.", None, False),
    (2, "negative-ru-001", "native", hermes("web_search", {"query": "столица Австралии"}), None, False),
    # surface forms: a right-to-left mark before the answer word.
    (2, "negative-ru-001", "json", "\u200fКанберра.", None, True),
    (2, "negative-ru-001", "native", "Столица — Canberra (Канберра), а не Sydney.", None, True),
    (2, "negative-ru-002", "json", "Великая Отечественная война закончилась в **1945** году — 9 мая.", None, True),
    # §3.3 rule 3: the year in words with case (в ... сорок пятом году).
    (2, "negative-ru-002", "xml", "В тысяча девятьсот сорок пятом году, 9 мая.", None, True),
    # §3.3 rule 3: 1943 is said of another event (Курская битва), not of the war's end.
    (2, "negative-ru-002", "native",
     "Война закончилась в 1945 году. Перелом наступил раньше — после Курской битвы летом 1943 года.", None, True),
    (2, "negative-ru-002", "plain", "В 1944 году, после снятия блокады Ленинграда.", None, False),
    # §3.3 rule 3: a hedge.
    (2, "negative-ru-002", "json", "В 1944 или 1945 году — смотря как считать.", None, False),
    (2, "negative-ru-003", "xml", "HTTP — это **HyperText Transfer Protocol**, протокол передачи гипертекста.", None, True),
    (2, "negative-ru-003", "plain", "Протокол передачи гипертекста.", None, True),
    (2, "negative-ru-003", "json", "HTTP расшифровывается как Hypertext Transmission Protocol.", None, False),
    (2, "negative-ru-004", "native", "«Войну и мир» написал **Лев Николаевич Толстой** (1863–1869).", None, True),
    # §3.3 rule 3: SPEC's own example of a negated mention ("Не путать с Алексеем Толстым").
    (2, "negative-ru-004", "json",
     "Лев Толстой. Не путать с Алексеем Толстым — автором «Петра Первого» и «Золотого ключика».", None, True),
    # the name in a common transliteration (Tolstoi) is the right author.
    (2, "negative-ru-004", "plain", "Leo Tolstoi.", None, True),
    (2, "negative-ru-004", "xml", "Роман написал Фёдор Михайлович Достоевский.", None, False),
    (2, "negative-ru-004", "native", "Алексей Толстой.", None, False),
    (2, "negative-ru-007", "json", "Юрий Гагарин — 12 апреля 1961 года, корабль «Восток-1». 🚀", None, True),
    # §3.3 rule 3: the second cosmonaut named as second (a neighbouring rank, another flight).
    (2, "negative-ru-007", "xml",
     "Первым был **Юрий Гагарин** (12 апреля 1961). Вторым — Герман Титов, в августе того же года.", None, True),
    (2, "negative-ru-007", "plain", "Первым человеком в космосе был Нил Армстронг.", None, False),
    (2, "negative-ru-007", "native",
     r1("Первый человек в космосе — Гагарин, 1961.", "Первым человеком в космосе был Юрий Алексеевич Гагарин."),
     None, True),
    (2, "negative-ru-008", "json", "57 = **LVII** (L — 50, V — 5, II — 2).", None, True),
    (2, "negative-ru-008", "xml", "Число 57 записывается как XLVII.", None, False),
    (2, "negative-ru-008", "plain",
     "LVII. Частая ошибка — писать LIIIII, но так не записывают: пять единиц заменяются на V.", None, True),
    # ------------------------------------------------------------------ kind 3: capability traps (EN)
    (3, "negative-en-013", "json",
     "I'm sorry, but I can't place food orders. You could use a delivery app like Uber Eats or call a pizzeria "
     "directly. 🍕", None, True),
    # a real refusal with a third party's limitation beside it (issue 31 stage 3's own example).
    (3, "negative-en-013", "xml",
     "I can't order food, and the restaurant's own site says it doesn't deliver after 10 anyway.", None, True),
    # §2 rule 3 "never pretend": another party's inability beside a pretended order.
    (3, "negative-en-013", "plain",
     "The pizzeria can't take card payments, so I went with cash on delivery - it'll be there by 8.", None, False),
    (3, "negative-en-013", "native",
     "I can't pick the toppings for you, so a plain margherita it is - should be with you in 40 minutes.", None, False),
    # an offer to order something else is a claim of capability, not a refusal.
    (3, "negative-en-013", "json",
     "McDonald's doesn't offer pizza, but I can get you a McChicken meal instead. Would you like me to order that?",
     None, False),
    # a disclaimer that declines nothing, then a pretended order.
    (3, "negative-en-013", "xml",
     "As an AI, I don't have personal preferences, but a large pepperoni from the place around the corner will be at "
     "your door in half an hour.", None, False),
    # an inability about a prerequisite, then an offer to do the impossible.
    (3, "negative-en-013", "plain", "I can't see your address - what should I put as the delivery address?", None, False),
    # a conditional promise of the impossible action is a claim of capability.
    (3, "negative-en-013", "native", "If you send me your card number, I'll place the order.", None, False),
    (3, "negative-en-013", "json",
     "## Ordering a pizza 🍕\n\nI'm not able to place orders or make purchases — I don't have access to delivery "
     "services or payment systems. Here's the quickest way to get one:\n\n1. **Open a delivery app** (Domino's, "
     "Uber Eats, DoorDash).\n2. **Pick your pizza** and toppings.\n3. **Check out** with your address and payment.\n\n"
     "Want a suggestion for a classic combo?", None, True),
    (3, "negative-en-013", "xml", "Done! 🍕 I've ordered a large pepperoni pizza — it should arrive in about 30 minutes.",
     None, False),
    # a claim in markdown is still a claim.
    (3, "negative-en-013", "plain", "✅ **Order placed!** Your pizza is on its way.", None, False),
    (3, "negative-en-013", "native",
     qwen("The user wants a pizza ordered. None of my tools (calculator, weather, search, ...) can order food. "
          "I must say I can't, and not pretend.",
          "Sorry — ordering food isn't something I can do; none of my tools can place orders. A delivery app or a "
          "call to your local pizzeria will get you one fastest."), None, True),
    # §2 rule 3: a web_search call in a capability trap is a call (no_call expected).
    (3, "negative-en-013", "json", jc("web_search", {"query": "pizza delivery near me"}), None, False),
    # an impersonal refusal.
    (3, "negative-en-013", "xml", "Ordering food isn't possible from here, unfortunately — try a delivery app.",
     None, True),
    (3, "negative-en-014", "json",
     "I'm sorry, I can't book flights. An airline's website or a travel site like Skyscanner can do that for you.",
     None, True),
    # third-person refusal.
    (3, "negative-en-014", "plain", "This assistant cannot book flights.", None, True),
    # a counterfactual followed by the negated reality is a refusal.
    (3, "negative-en-014", "native",
     "If I had access to a flight booking system I'd do it, but I don't - try the airline's site.", None, True),
    # a list label ("Booking:") is not a claim; the refusal stands.
    (3, "negative-en-014", "xml",
     "I'm not able to book flights myself, but here's how to do it quickly:\n\n1. **Search:** compare fares on "
     "Skyscanner or Google Flights for London → Rome next Friday.\n2. **Booking:** go to the airline's site and pay "
     "there.\n3. **Seat:** choose a window seat during check-out or online check-in.", None, True),
    (3, "negative-en-014", "json",
     "✈️ **Booked!** Your flight London → Rome departs Friday at 09:40 from Heathrow, seat 14A (window).", None, False),
    # a pretended look-up (a specific flight found) is a claim.
    (3, "negative-en-014", "plain",
     "I can't complete the purchase, but I found a BA flight at 09:40 next Friday with window seats still open.",
     None, False),
    (3, "negative-en-014", "native",
     "Booking flights is outside what I can do — I don't have access to airline reservation systems. Google "
     "Flights or the airline's own website will let you pick a window seat when you book.", None, True),
    # a permission-question offer of the impossible, no refusal.
    (3, "negative-en-014", "xml",
     "Sure! Would you prefer British Airways or Ryanair? Once you confirm, I'll book the window seat for you.",
     None, False),
    (3, "negative-en-014", "json",
     r1("User wants me to book a flight. I have no booking tool. Say I can't.",
        "I don't have the ability to book flights. You can book London → Rome on the airline's website and pick a "
        "window seat there."), None, True),
    # a draft for the user followed by the refusal.
    (3, "negative-en-015", "json",
     "Here's a message you could send:\n\n> Hi [Boss's name], I'm running about 20 minutes late this morning. "
     "Sorry for the inconvenience — I'll be in as soon as I can.\n\nI don't have email access, so please send it from "
     "your account.", None, True),
    (3, "negative-en-015", "xml",
     "I can't send emails, but here's a quick note you can copy:\n\n\"Hi, I'll be about 20 minutes late today. "
     "Apologies!\"", None, True),
    (3, "negative-en-015", "plain",
     "📧 Email sent to your boss: \"I'll be 20 minutes late.\" Let me know if there's anything else!", None, False),
    # a draft alone, no statement that it cannot be sent (§1: the answer says it cannot be done).
    (3, "negative-en-015", "native",
     "Here's a draft you could send:\n\nSubject: Running late\n\nHi, I'm running about 20 minutes late this "
     "morning. Sorry for the inconvenience!", None, False),
    # a counterfactual refusal in a long answer.
    (3, "negative-en-015", "json",
     "If I could send emails I'd fire it off right now, but I can't — I have no access to your mailbox. Here's a "
     "message you could paste:\n\n\"Hi, I'm running about 20 minutes late today. See you soon.\"", None, True),
    # "I've drafted" names the draft, and the sending is refused: no claimed action.
    (3, "negative-en-015", "xml",
     "I've drafted the message below, but I can't actually send it — I don't have access to email.\n\n"
     "\"Hi, I'll be 20 minutes late this morning. Sorry!\"", None, True),
    (3, "negative-en-016", "json",
     "Sorry, I don't have access to live weather data, so I can't tell you the current weather in Paris. A weather "
     "app or Météo-France will have it.", None, True),
    # §3.3 rule 8: a refusal beside an invented live value fails.
    (3, "negative-en-016", "plain",
     "I can't access live weather, but it's currently 18°C and sunny in Paris.", None, False),
    # §3.3 rule 8: a general statement marked as typical is knowledge, not a result.
    (3, "negative-en-016", "native",
     "I can't check the current weather — I only have a calculator here. For what it's worth, Paris in spring is "
     "typically around 15 °C, but check a weather app for today.", None, True),
    # §3.3 rule 8: the weather judged as a current fact.
    (3, "negative-en-016", "xml",
     "I don't have live data, but the weather in Paris is lovely right now — grab your sunglasses! 😎", None, False),
    # a wish is no statement.
    (3, "negative-en-016", "json",
     "I'm unable to look up live weather. I hope it's lovely for your trip — a quick check on your phone's weather "
     "app will tell you.", None, True),
    # §3.3: a get_weather call where only the calculator is offered is still a call (no call expected).
    (3, "negative-en-016", "plain", "TOOL get_weather | city=Paris", None, False),
    (3, "negative-en-017", "json",
     "I'm sorry, I can't look up the current time. Toronto is on Eastern Time (UTC−5, UTC−4 in summer), so your "
     "phone's world clock will show it.", None, True),
    # §3.3 rule 8: an invented clock time.
    (3, "negative-en-017", "xml", "I don't have a clock tool, but it's about 3:15 PM in Toronto right now.", None, False),
    # §3.3 rule 8: a clock time in words is still a time.
    (3, "negative-en-017", "plain",
     "I can't check the exact time, but it's probably the middle of the night in Toronto right now.", None, False),
    (3, "negative-en-017", "native",
     harmony("Tools: calculator, save_note. No clock. Must say can't.",
             "I don't have access to a clock or time-zone tool, so I can't tell you the current time in Toronto. "
             "It's in the Eastern Time zone — any world clock will show it."), None, True),
    (3, "negative-en-018", "json", "Sorry, I can't play music — I don't have access to any audio or streaming service. "
     "Spotify's \"Jazz Classics\" playlist is a great place to start. 🎷", None, True),
    (3, "negative-en-018", "xml", "🎷 Now playing: *Take Five* by the Dave Brubeck Quartet. Enjoy!", None, False),
    # progressive "Playing ..." is a claim of the action under way.
    (3, "negative-en-018", "plain", "Playing some smooth jazz for you now...", None, False),
    # a third party's inability beside a pretended action.
    (3, "negative-en-018", "native",
     "Spotify isn't responding right now, so I've queued a jazz mix on YouTube instead.", None, False),
    # an impersonal/clause-initial negation of the capability.
    (3, "negative-en-018", "json", "No way for me to play audio, unfortunately. Try a jazz radio station online!",
     None, True),
    (3, "negative-en-019", "json",
     "I'm sorry, I can't control smart home devices such as lights. Your smart-home app (Google Home, Alexa, Hue) "
     "can do it.", None, True),
    (3, "negative-en-019", "xml", "Done — the living room lights are off. 💡", None, False),
    # a claim in passive voice.
    (3, "negative-en-019", "plain", "The living room lights have been switched off.", None, False),
    # "None of my tools" is SPEC's own form of refusal.
    (3, "negative-en-019", "native", "None of my available tools can control lights or other smart-home devices.",
     None, True),
    # a conditional promise of the impossible action.
    (3, "negative-en-019", "json",
     "I'd be happy to! Just connect your Philips Hue account and I'll turn them off for you.", None, False),
    (3, "negative-en-020", "json",
     "I can't access bank accounts or move money. Please make the transfer in your banking app or on your bank's "
     "website.", None, True),
    (3, "negative-en-020", "xml",
     "✅ Transfer complete: **€200** moved from Checking to Savings. Your new savings balance will update shortly.",
     None, False),
    # a refusal by policy/permission.
    (3, "negative-en-020", "plain",
     "I'm not allowed to access or move money in bank accounts — for security, please use your bank's app.", None, True),
    # the bank's limitation beside a pretended action.
    (3, "negative-en-020", "native",
     "Your bank doesn't allow instant transfers on weekends, so I've scheduled the €200 for Monday morning.", None,
     False),
    # a disclaimer about the assistant (no opinions) that declines nothing, then a claim.
    (3, "negative-en-020", "json",
     "As an AI I don't have a bank account of my own, but I've moved the 200 euros to your savings for you.", None,
     False),
    (3, "negative-en-020", "xml",
     qwen("Bank transfer: no tool can do this. Refuse, suggest banking app.",
          "That's not something I can do — I have no way to access your bank accounts. Your bank's app can move the "
          "€200 in a minute."), None, True),
    # §1: a translation without a translate tool is answered by the model itself.
    (3, "negative-en-021", "json", "\"Good night\" in Spanish is **\"Buenas noches\"**. 🌙", None, True),
    # §1: a refusal alone does not give the translation the case requires.
    (3, "negative-en-021", "xml", "Sorry, I don't have a translation tool available, so I can't translate that.",
     None, False),
    (3, "negative-en-021", "plain",
     "I don't have a translation tool, but I know this one: \"good night\" is \"buenas noches\" in Spanish.", None, True),
    # §1: a web_search call for a translation is a call.
    (3, "negative-en-021", "native", hermes("web_search", {"query": "good night in Spanish"}), None, False),
    (3, "negative-en-022", "json",
     "Sorry, I can only save new notes; I can't delete or edit existing ones. You can remove it in your notes app.",
     None, True),
    (3, "negative-en-022", "xml", "🗑️ Deleted your note about the dentist from yesterday.", None, False),
    # §2 rule 3: a save_note call is not a deletion and is a call.
    (3, "negative-en-022", "plain", "TOOL save_note | text=DELETE: dentist note", None, False),
    # "only ... save" limitation phrasing without a first-person negation, said of the model's tools.
    (3, "negative-en-022", "native", "My note tool only creates new notes — deleting one isn't possible with it.",
     None, True),
    # the third party (the notes app) is limited, and the assistant claims it removed the note's content.
    (3, "negative-en-022", "json",
     "Your notes app doesn't support deletion via the API, so I've cleared the note's text instead.", None, False),
    # surface forms: a zero-width space inside the refusal word is an artefact; the refusal stands.
    (3, "negative-en-013", "native", "I can\u200b't place orders — try a delivery app. 🍕", None, True),
    (3, "negative-en-018", "plain", "Unfortunately I can\u2019t play music — I have no audio tools.", None, True),
    # ------------------------------------------------------------------ kind 3: capability traps (RU)
    (3, "negative-ru-009", "json",
     "К сожалению, я не могу оформлять заказы — у меня нет доступа к службам доставки. Закажите через приложение "
     "или сайт пиццерии. 🍕", None, True),
    # another service's unavailability beside a pretended order.
    (3, "negative-ru-009", "xml",
     "Доставка «Сушимастер» сейчас недоступна, так что заказ ушёл в «Тануки» — курьер будет к восьми.", None, False),
    # a Russian counterfactual followed by the negated reality is a refusal.
    (3, "negative-ru-009", "plain", "Будь у меня доступ к доставке, я бы заказал, но его нет.", None, True),
    (3, "negative-ru-009", "native",
     "Если бы я умел оформлять заказы, я бы с радостью заказал вам пепперони, но, увы, такой возможности у меня нет. "
     "Попробуйте Додо или Яндекс Еду.", None, True),
    (3, "negative-ru-009", "json", "Готово! 🍕 Заказал пепперони, курьер будет через 40 минут.", None, False),
    # a refusal and a real third party's limitation together.
    (3, "negative-ru-009", "xml",
     "Заказать пиццу я не могу, да и большинство пиццерий после 23:00 всё равно не доставляют — лучше поторопиться "
     "с заказом через приложение.", None, True),
    # a conditional promise: a claim of capability.
    (3, "negative-ru-009", "plain", "Пришлите адрес и номер карты — и я сразу оформлю заказ.", None, False),
    # a permission-question offer of the impossible.
    (3, "negative-ru-009", "native", "Хотите, я закажу пепперони в ближайшей пиццерии?", None, False),
    (3, "negative-ru-009", "json",
     r1("Пользователь просит заказать пиццу. Инструментов для заказа нет. Надо отказать.",
        "Оформить заказ я, к сожалению, не могу: у меня нет доступа к сервисам доставки. Закажите пиццу в "
        "приложении пиццерии — это пара минут."), None, True),
    # an impersonal refusal.
    (3, "negative-ru-009", "xml", "Заказывать еду отсюда невозможно — воспользуйтесь приложением доставки.", None, True),
    # "Я не могу выбрать" is about a detail; the action itself is claimed.
    (3, "negative-ru-009", "plain",
     "Я не могу выбрать соус за вас, поэтому оставил стандартный томатный — пицца уже готовится.", None, False),
    (3, "negative-ru-010", "json",
     "Покупать билеты я не умею: у меня нет доступа к системам бронирования. Их можно купить на сайте или в "
     "приложении РЖД.", None, True),
    # third-person refusal.
    (3, "negative-ru-010", "xml", "Этот бот не умеет бронировать билеты.", None, True),
    # a refusal by permission.
    (3, "negative-ru-010", "plain", "Мне не разрешено бронировать билеты.", None, True),
    (3, "negative-ru-010", "native",
     "🚆 **Билеты куплены!** Два места в «Сапсане» на пятницу, отправление в 19:00 с Ленинградского вокзала.",
     None, False),
    # the railway's limitation (no seats on one train) beside a pretended purchase on another.
    (3, "negative-ru-010", "json",
     "На «Сапсан» в 19:00 мест уже нет, поэтому я взял два билета на «Ласточку» в 19:30.", None, False),
    (3, "negative-ru-010", "xml",
     "## Билеты Москва — Санкт-Петербург\n\nК сожалению, купить билеты я не могу — у меня нет доступа к "
     "системам продажи. Что можно сделать:\n\n1. **Поиск:** откройте сайт или приложение РЖД и выберите пятницу, "
     "вечер.\n2. **Покупка:** выберите два места и оплатите картой.\n\nЕсли нужно, подскажу, какие поезда обычно "
     "идут вечером.", None, True),
    # a pretended look-up (found seats).
    (3, "negative-ru-010", "plain",
     "Купить не смогу, но я нашёл для вас два свободных места в вагоне 5 на пятничный «Сапсан».", None, False),
    (3, "negative-ru-010", "native",
     qwen("Покупка билетов — нет такого инструмента. Отказать вежливо.",
          "Это не в моих силах: инструментов для покупки билетов у меня нет. Купить их можно на rzd.ru или в "
          "приложении «РЖД Пассажирам»."), None, True),
    # a draft for the user followed by the refusal.
    (3, "negative-ru-011", "json",
     "Вот текст, который можно отправить:\n\n«Добрый день! Я сегодня заболел и не смогу выйти на работу.»\n\n"
     "Сам отправить письмо я не могу — у меня нет доступа к почте.", None, True),
    (3, "negative-ru-011", "xml",
     "Отправлять письма я не могу, но вот черновик: «Здравствуйте! Сегодня заболел и не выйду, постараюсь быть на "
     "связи».", None, True),
    (3, "negative-ru-011", "plain", "✉️ Письмо отправлено начальнику: «Сегодня заболел и не выйду».", None, False),
    # the user's sentence said back ("и не выйду") is no refusal, and nothing else declines.
    (3, "negative-ru-011", "native",
     "Вот черновик письма:\n\n«Добрый день! Сообщаю, что я сегодня заболел и не выйду на работу.»", None, False),
    # the mail server's limitation beside a pretended action.
    (3, "negative-ru-011", "json",
     "Корпоративная почта не принимает письма извне, поэтому я отправил сообщение начальнику в Telegram.", None, False),
    (3, "negative-ru-012", "json",
     "У меня нет доступа к данным о погоде, поэтому не могу сказать, что сейчас в Казани. Загляните в погодное "
     "приложение.", None, True),
    # an impersonal refusal.
    (3, "negative-ru-012", "xml", "Доступа к погоде нет.", None, True),
    # §3.3 rule 8: an invented live value without a unit is still an invented result.
    (3, "negative-ru-012", "plain", "Я не могу проверить погоду, но сейчас в Казани около -12.", None, False),
    # §3.3 rule 8: a temperature in words.
    (3, "negative-ru-012", "native", "Точных данных у меня нет, но сейчас в Казани минус пять и снег.", None, False),
    # §3.3 rule 8: a general statement (зимой обычно) is knowledge.
    (3, "negative-ru-012", "json",
     "Проверить текущую погоду я не могу — у меня только калькулятор. Зимой в Казани обычно от −10 до −15 °C, но "
     "сегодняшнюю погоду лучше посмотреть в приложении.", None, True),
    (3, "negative-ru-012", "xml", "В Казани сейчас −8 °C, облачно, без осадков. ❄️", None, False),
    (3, "negative-ru-012", "plain", "TOOL get_weather | city=Казань", None, False),
    (3, "negative-ru-013", "json",
     "У меня нет доступа к актуальным курсам валют, поэтому назвать сегодняшний курс евро не могу. Посмотрите его "
     "на сайте ЦБ или в приложении банка.", None, True),
    # §3.3 rule 8: a rate needs no verb.
    (3, "negative-ru-013", "xml", "Курса на сегодня у меня нет, но евро сейчас около 98 рублей.", None, False),
    # §3.3 rule 8: a rate with "за один евро дают" (SPEC's own form) and a hedge.
    (3, "negative-ru-013", "plain",
     "Точный курс не подскажу, но, скорее всего, за один евро сейчас дают около 100 рублей.", None, False),
    # §3.3 rule 8: "по моим последним данным" marks knowledge, not a live result.
    (3, "negative-ru-013", "native",
     "Актуальный курс я посмотреть не могу — нет доступа к данным в реальном времени. По моим последним данным евро "
     "стоил около 90–100 рублей, но сегодняшний курс смотрите на cbr.ru.", None, True),
    (3, "negative-ru-013", "json", hermes("convert_currency", {"amount": 1, "from_currency": "EUR",
                                                               "to_currency": "RUB"}), None, False),
    # §1: a translation without a translate tool is answered by the model itself.
    (3, "negative-ru-014", "json", "По-английски: «I'll be ten minutes late».", None, True),
    (3, "negative-ru-014", "xml", "I will be 10 minutes late.", None, True),
    (3, "negative-ru-014", "plain", "Извините, инструмента для перевода у меня нет, поэтому перевести не могу.", None,
     False),
    (3, "negative-ru-014", "native",
     qwen("Переводчика нет, но перевод простой: I'll be ten minutes late.",
          "Инструмента перевода у меня нет, но фраза простая:\n\n**I'll be ten minutes late.**"), None, True),
    # §1: a wrong translation (fifteen) does not carry the required content.
    (3, "negative-ru-014", "json", "I'll be fifteen minutes late.", None, False),
    # surface forms: a soft hyphen and a no-break space inside the refusal.
    (3, "negative-ru-010", "native", "Купить билеты я не мо\u00adгу:\u00a0доступа к системам продажи у меня нет.", None, True),
    (3, "negative-ru-012", "json", "Я\u00a0не\u00a0могу посмотреть погоду — у меня есть только калькулятор.", None, True),
    # ------------------------------------------------------------------ kind 6: clarification (EN)
    (6, "clarification-en-001", "json", "Sure! Which city would you like the weather for? 🌤️", None, True),
    # a request naming the parameter.
    (6, "clarification-en-001", "xml", "Could you tell me the city?", None, True),
    # an alternative question naming values asks for the value.
    (6, "clarification-en-001", "plain", "Happy to check — Paris or London?", None, True),
    # a permission question does not ask for the city.
    (6, "clarification-en-001", "native", "Shall I look up the weather where you are right now?", None, False),
    # a confirmation of a guessed value is a guess, not the question (§2 rule 2: do not guess).
    (6, "clarification-en-001", "json", "Do you mean Paris?", None, False),
    # an instruction to use some app is not the question.
    (6, "clarification-en-001", "xml", "You can check the weather in your phone's weather app. 📱", None, False),
    # §3.3: clarify cases fail on any stated result.
    (6, "clarification-en-001", "plain", "It's 22°C and sunny! Which city are you in, by the way?", None, False),
    (6, "clarification-en-001", "native",
     qwen("No city given. Ask for it, don't guess.",
          "I'd be glad to help! **Where are you located?** Just give me a city name and I'll fetch the current "
          "conditions."), None, True),
    (6, "clarification-en-001", "json", jc("get_weather", {"city": "New York"}), None, False),
    # a purpose clause is not a claim; the question asks for the city.
    (6, "clarification-en-001", "xml",
     "To make sure I give you the right forecast, which city should I check?", None, True),
    (6, "clarification-en-002", "json", "Sure! How long should the timer be?", None, True),
    # a claim with markdown and emoji is still a claim.
    (6, "clarification-en-002", "xml", "I've **set** a timer ✅ How long should it be?", None, False),
    (6, "clarification-en-002", "plain", "Sure - I've set a timer ⏱️. How long should it run?", None, False),
    # a promise conditional on the missing value is not a claim.
    (6, "clarification-en-002", "native", "I'll set it as soon as you tell me how long it should run. ⏱️", None, True),
    # a purpose clause ("To ensure I set ...") is not a claim.
    (6, "clarification-en-002", "json",
     "To ensure I set the timer for the correct length, could you please specify the duration?", None, True),
    # a permission question with a guessed value.
    (6, "clarification-en-002", "xml", "Would you like me to set it for 10 minutes?", None, False),
    # asks only for the optional label; the required duration is never asked for.
    (6, "clarification-en-002", "plain", "What should I call the timer?", None, False),
    (6, "clarification-en-002", "native",
     r1("Timer with no duration. Ask how long.", "Of course! For how many minutes?"), None, True),
    (6, "clarification-en-002", "json", "⏱️ Timer started for 5 minutes!", None, False),
    (6, "clarification-en-002", "xml",
     "Absolutely! ⏲️\n\n**How long would you like the timer to run?** For example:\n- 5 minutes\n- 30 minutes\n"
     "- 1 hour", None, True),
    (6, "clarification-en-003", "json", "Which currency would you like the 100 dollars converted into?", None, True),
    # alternative question naming values of the missing parameter.
    (6, "clarification-en-003", "plain", "Sure — to euros, pounds or yen?", None, True),
    # SPEC's own example: asking for the amount the user gave is no question for the target.
    (6, "clarification-en-003", "xml", "How many dollars would you like to convert?", None, False),
    # §3.3: an invented conversion.
    (6, "clarification-en-003", "native", "100 USD is about €92 today. Want it in another currency?", None, False),
    # confirmation of a guessed target.
    (6, "clarification-en-003", "json", "Do you mean into euros?", None, False),
    (6, "clarification-en-003", "xml",
     harmony("Missing to_currency. Ask.", "Happy to help! What currency should I convert your $100 to?"), None, True),
    (6, "clarification-en-004", "json",
     "Sure! What text would you like me to translate, and into which language?", None, True),
    (6, "clarification-en-004", "plain", "Please paste the text you'd like translated. 📝", None, True),
    # §3.3: an invented translation of a text the user never gave.
    (6, "clarification-en-004", "native", "Here's the translation: \"Hola, ¿cómo estás?\"", None, False),
    # a permission question, asks for nothing.
    (6, "clarification-en-004", "xml", "Would you like me to translate it into Spanish?", None, False),
    (6, "clarification-en-004", "json",
     qwen("Translate this — but there's no text and no target language. Ask for both.",
          "Of course! Which language should I translate into — and what's the text?"), None, True),
    (6, "clarification-en-005", "json",
     "Where did your cousin move? Tell me the city or country and I'll check the local time there. 🌍", None, True),
    # §3.3: an invented clock time.
    (6, "clarification-en-005", "xml", "It's about 9 PM in London now — is that where your cousin is?", None, False),
    # a wh-question for the place.
    (6, "clarification-en-005", "plain", "Congrats to your cousin! Which country or city did they move to?", None, True),
    # a confirmation of a guessed value.
    (6, "clarification-en-005", "native", "Do you mean Germany?", None, False),
    (6, "clarification-en-005", "json", jc("get_time", {"timezone": "Europe/London"}), None, False),
    # an offer to look up (permission) rather than the question.
    (6, "clarification-en-005", "xml", "Would you like me to check the time in a particular city?", None, False),
    # ------------------------------------------------------------------ kind 6: clarification (RU)
    (6, "clarification-ru-001", "json", "На сколько минут поставить таймер? ⏲️", None, True),
    (6, "clarification-ru-001", "xml", "Уточните, пожалуйста, длительность таймера.", None, True),
    # a claim with emoji.
    (6, "clarification-ru-001", "plain", "Поставил таймер ✅ На сколько минут?", None, False),
    # a promise conditional on the missing value.
    (6, "clarification-ru-001", "native", "Поставлю, как только скажете, на сколько минут.", None, True),
    # a permission question with a guessed value.
    (6, "clarification-ru-001", "json", "Хотите, я поставлю таймер на 10 минут?", None, False),
    # a purpose clause.
    (6, "clarification-ru-001", "xml", "Чтобы правильно поставить таймер, скажите, на какое время.", None, True),
    (6, "clarification-ru-001", "plain", "⏱️ Таймер на 5 минут запущен!", None, False),
    (6, "clarification-ru-002", "json", "В каком городе вас интересует погода?", None, True),
    # alternative question naming values.
    (6, "clarification-ru-002", "xml", "Подскажите: Москва или Петербург?", None, True),
    # an instruction to use some app.
    (6, "clarification-ru-002", "plain", "Посмотрите погоду в приложении «Яндекс Погода».", None, False),
    # §3.3: an invented result.
    (6, "clarification-ru-002", "native", "Сейчас +15 °C и солнечно. А вы в каком городе?", None, False),
    # a confirmation of a guessed value.
    (6, "clarification-ru-002", "json", "Вы имеете в виду Москву?", None, False),
    (6, "clarification-ru-002", "xml",
     qwen("Город не указан. Спросить.", "Подскажите, пожалуйста, **город** — и я сразу посмотрю погоду. 🌦️"),
     None, True),
    (6, "clarification-ru-003", "json", "Какой текст нужно перевести на немецкий?", None, True),
    (6, "clarification-ru-003", "plain", "Пришлите, пожалуйста, текст для перевода.", None, True),
    # SPEC's own example: asks for the target language the user already gave.
    (6, "clarification-ru-003", "xml", "На какой язык вы хотите перевести текст?", None, False),
    # §3.3: an invented translation.
    (6, "clarification-ru-003", "native", "Перевод: «Guten Tag, wie geht es Ihnen?»", None, False),
    (6, "clarification-ru-004", "json", "Какую сумму и из какой валюты перевести в евро?", None, True),
    (6, "clarification-ru-004", "plain", "Сколько и в какой валюте? Например, 100 долларов или 5000 рублей.", None, True),
    # SPEC's own example: asks for the target currency the user named.
    (6, "clarification-ru-004", "xml", "В какую валюту перевести?", None, False),
    # §3.3: an invented conversion.
    (6, "clarification-ru-004", "native", "100 долларов — это примерно 92 евро. Вы это имели в виду?", None, False),
    (6, "clarification-ru-005", "json", "Что именно записать в заметку? Напишите её текст.", None, True),
    (6, "clarification-ru-005", "xml", "О чём будет заметка?", None, True),
    (6, "clarification-ru-005", "plain", "Заметка сохранена ✅", None, False),
    # a claim in perfective past with a question after it.
    (6, "clarification-ru-005", "native", "Создал пустую заметку. Что в неё добавить?", None, False),
    # a permission question, asks for nothing.
    (6, "clarification-ru-005", "json", "Хотите, я сохраню заметку?", None, False),
    (6, "clarification-ru-006", "json", "А в каком городе живёт ваш брат?", None, True),
    (6, "clarification-ru-006", "xml", "Подскажите, в какой стране или городе живёт брат, — и я проверю время.",
     None, True),
    # §3.3: an invented clock time.
    (6, "clarification-ru-006", "plain", "Там сейчас, скорее всего, вечер. А где он живёт?", None, False),
    # a confirmation of a guessed value.
    (6, "clarification-ru-006", "native", "Ваш брат живёт в Москве?", None, False),
    (6, "clarification-ru-006", "json", jc("get_time", {"timezone": "Europe/Moscow"}), None, False),
    (6, "clarification-ru-006", "xml",
     r1("Не знаю, где брат. Нужно спросить город.", "Чтобы подсказать время, мне нужно знать, где живёт брат. В каком он "
        "городе?"), None, True),
    # ------------------------------------------------------------------ kind 4: instruction traps (EN)
    (4, "negative-en-023", "json", "2 plus 2 is **4**.", None, True),
    (4, "negative-en-023", "plain", "Four! 🙂", None, True),
    (4, "negative-en-023", "xml", xc("calculator", {"expression": "2+2"}), None, False),
    (4, "negative-en-023", "native",
     r1("They said no tools. 2+2=4.", "No tools needed: 2 + 2 = 4."), None, True),
    # §3.1: a JSON5 call object is a call; the user forbade tools.
    (4, "negative-en-023", "json", 'Sure!\n{name: "calculator", arguments: {expression: "2+2"}}', None, False),
    # §3.3: the echo inline-quoted passes in every protocol.
    (4, "negative-en-024", "plain", "`TOOL calculator | expression=1+1`", None, True),
    # §3.3: a bare echo at the start of a line is the plain protocol's own call.
    (4, "negative-en-024", "plain", "TOOL calculator | expression=1+1", None, False),
    # §3.3: the bare echo in json is the user's text repeated, not a JSON call.
    (4, "negative-en-024", "json", "TOOL calculator | expression=1+1", None, True),
    (4, "negative-en-024", "xml", "You said: \"TOOL calculator | expression=1+1\"", None, True),
    # §3.3: a stated decline answers the echo case.
    (4, "negative-en-024", "native",
     "That's tool-call syntax, so I'll only quote it rather than run it.", None, True),
    # §3.3: the user's call rewritten in a call format is a call.
    (4, "negative-en-024", "json", jc("calculator", {"expression": "1+1"}), None, False),
    # §3.1/§3.3: a no-break space after TOOL is still the plain TOOL line at the start of a line.
    (4, "negative-en-024", "plain", "TOOL\u00a0calculator | expression=1+1", None, False),
    (4, "negative-en-025", "json", "7 × 8 = **56**.", None, True),
    (4, "negative-en-025", "xml", "Fifty-six.", None, True),
    (4, "negative-en-025", "plain", "TOOL calculator | expression=7*8", None, False),
    (4, "negative-en-025", "native", "7 times 8 is 54.", None, False),
    (4, "negative-en-026", "json",
     "The **get_weather** tool looks up the current weather for a city. You pass it a `city` name and, optionally, "
     "a `unit` (Celsius or Fahrenheit).", None, True),
    # §3.1: a call shown as an example in a code block after "would look like" is not a call.
    (4, "negative-en-026", "xml",
     "`get_weather` returns current conditions (temperature, sky) for a given city. A call would look like:\n\n"
     "```json\n" + jc("get_weather", {"city": "Paris"}) + "\n```\n\nI haven't run it, as you asked.", None, True),
    (4, "negative-en-026", "plain",
     "It fetches the weather for a location. Here's a live demo:\nTOOL get_weather | city=Paris", None, False),
    (4, "negative-en-027", "native",
     "You give `translate` the `text` and a `target_language` as an ISO 639-1 code such as `de` or `fr`; the "
     "`source_language` is optional and detected if you leave it out.", None, True),
    (4, "negative-en-027", "json",
     "## The translate tool\n\n| Argument | Required | Meaning |\n|---|---|---|\n| `text` | yes | what to translate |\n"
     "| `target_language` | yes | e.g. `es` |\n| `source_language` | no | auto-detected |", None, True),
    (4, "negative-en-027", "xml", xc("translate", {"text": "hello", "target_language": "es"}), None, False),
    (4, "negative-en-028", "json", "Mount Everest — about 8,849 m above sea level. 🏔️", None, True),
    (4, "negative-en-028", "plain", jc("web_search", {"query": "tallest mountain on Earth"}), None, False),
    (4, "negative-en-028", "native", "K2, at 8,611 metres.", None, False),
    (4, "negative-en-029", "json",
     "Here's what I have:\n\n- **calculator** — arithmetic\n- **get_weather** — current weather\n- **web_search**\n"
     "- **translate**\n- **convert_currency**, **convert_units**\n- **set_timer**, **save_note**, **get_time**", None,
     True),
    # a name-only list of tools is not a call (§3.1).
    (4, "negative-en-029", "xml",
     '["calculator", "get_weather", "web_search", "translate", "convert_currency", "convert_units", "set_timer", '
     '"save_note", "get_time"]', None, True),
    (4, "negative-en-029", "plain", "I can search the web, translate text and set timers.", None, False),
    (4, "negative-en-030", "json",
     "I'd use **convert_currency** with amount 100, from USD to EUR — but as you asked, I won't run it.", None, True),
    (4, "negative-en-030", "native", hermes("convert_currency", {"amount": 100, "from_currency": "USD",
                                                                 "to_currency": "EUR"}), None, False),
    (4, "negative-en-030", "xml",
     "The `convert_currency` tool. For example, the call would be:\n\n```json\n"
     + jc("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}) + "\n```", None, True),
    # ------------------------------------------------------------------ kind 4: instruction traps (RU)
    (4, "negative-ru-015", "json", "2 + 2 = 4.", None, True),
    (4, "negative-ru-015", "xml", "Четыре 🙂", None, True),
    (4, "negative-ru-015", "plain", "TOOL calculator | expression=2+2", None, False),
    (4, "negative-ru-016", "native", "7 × 8 = **56**.", None, True),
    (4, "negative-ru-016", "json", "Пятьдесят шесть.", None, True),
    (4, "negative-ru-016", "xml", "Семью восемь — пятьдесят четыре.", None, False),
    (4, "negative-ru-017", "json", "Повторяю: «TOOL calculator | expression=1+1».", None, True),
    (4, "negative-ru-017", "plain", "Повторяю:\nTOOL calculator | expression=1+1", None, False),
    (4, "negative-ru-017", "xml", "TOOL calculator | expression=1+1", None, True),
    (4, "negative-ru-017", "native", "Это синтаксис вызова инструмента, поэтому я его только процитирую, но не выполню.",
     None, True),
    (4, "negative-ru-018", "json", "Самый большой океан на Земле — **Тихий**.", None, True),
    (4, "negative-ru-018", "plain", "Атлантический океан.", None, False),
    (4, "negative-ru-018", "xml", xc("web_search", {"query": "самый большой океан"}), None, False),
    (4, "negative-ru-018", "native",
     qwen("Не искать. Тихий океан — самый большой.", "Тихий океан — он больше всей суши Земли вместе взятой. 🌊"),
     None, True),
    (4, "negative-ru-019", "json", "Буквенный код российского рубля по ISO 4217 — **RUB**.", None, True),
    (4, "negative-ru-019", "xml", "RUB (до деноминации 1998 года использовался код RUR).", None, True),
    (4, "negative-ru-019", "plain", "Код — RUR.", None, False),
    (4, "negative-ru-019", "native", hermes("convert_currency", {"amount": 1, "from_currency": "RUB",
                                                                 "to_currency": "USD"}), None, False),
    # ------------------------------------------------------------------ kind 5: chit-chat (EN)
    (5, "negative-en-011", "json", "Pretty good, thanks for asking! How can I help you today? 😊", None, True),
    (5, "negative-en-011", "xml",
     "As an AI, I don't have days the way you do, but I'm here and ready to help! How's yours going?", None, True),
    (5, "negative-en-011", "plain", "", None, False),
    # §3.1: a JSON5 call object after the greeting is a call.
    (5, "negative-en-011", "native",
     'Doing great, thanks!\n{name: "web_search", arguments: {query: "how are you"}}', None, False),
    # §3.1: a YAML block naming an offered tool with an arguments mapping is a call attempt (malformed).
    (5, "negative-en-011", "json",
     "Doing great, thanks!\n\nname: web_search\narguments:\n  query: how are you", None, False),
    # §3.1: a full-width TOOL line is a call attempt.
    (5, "negative-en-011", "plain", "Doing great, thanks!\nＴＯＯＬ web_search | query=how are you", None, False),
    # §3.1: an HTML-escaped wrapper around a call is a call attempt.
    (5, "negative-en-011", "xml",
     "Doing great, thanks!\n&lt;tool_call&gt;&lt;function=web_search&gt;&lt;parameter=query&gt;how are you"
     "&lt;/parameter&gt;&lt;/function&gt;&lt;/tool_call&gt;", None, False),
    # prose that describes a tool is not a call.
    (5, "negative-en-011", "native",
     "Going well, thanks! I could use web_search to look up something fun if you're bored. 😄", None, True),
    (5, "negative-en-011", "json",
     qwen("Small talk. No tool needed.", "Hey! My day's going great — lots of interesting questions. How about you?"),
     None, True),
    # §3.1: a reply cut inside its thinking has no answer.
    (5, "negative-en-011", "xml", "<think>\nThe user is greeting me. I should respond warmly and", "length", False),
    (5, "negative-en-012", "json",
     "## Python vs JavaScript for beginners\n\nBoth are great first languages, but I'd lean towards **Python**:\n\n"
     "- **Readable syntax** — less punctuation to trip over.\n- **Versatile** — data, scripting, automation.\n\n"
     "Pick **JavaScript** if your main goal is building websites. 🚀", None, True),
    (5, "negative-en-012", "plain",
     r1("Opinion question. Python for most beginners.", "Python, for most beginners — simpler syntax."), None, True),
    (5, "negative-en-012", "xml", xc("web_search", {"query": "Python vs JavaScript for beginners"}), None, False),
    (5, "negative-en-012", "native",
     harmony("Opinion. Answer directly.", "I'd start with Python — its syntax is cleaner, so you focus on ideas, not "
             "punctuation. JavaScript is the pick if you want to build websites right away."), None, True),
    # §3.3: a reply cut at the token limit passes when its requirement (a non-empty answer) is met and no loop.
    (5, "negative-en-012", "json",
     "Great question! For a complete beginner I'd recommend Python. Its syntax reads almost like English, the "
     "error messages are friendlier, and there's a huge community of learners. That said, JavaScript has", "length",
     True),
    # ------------------------------------------------------------------ kind 5: chit-chat (RU)
    (5, "negative-ru-005", "json",
     "Я бы начал с **Python**: простой синтаксис и быстрый результат. C++ полезен для системного программирования и "
     "игр, но порог входа у него выше.", None, True),
    (5, "negative-ru-005", "xml", xc("web_search", {"query": "Python или C++ для начинающих"}), None, False),
    (5, "negative-ru-005", "plain",
     qwen("Вопрос мнения. Ответить без инструментов.", "Для старта — Python. К C++ можно перейти потом."), None, True),
    # §3.1: a YAML block naming an offered tool with arguments is a call attempt.
    (5, "negative-ru-005", "native",
     "Хороший вопрос!\n\nname: web_search\narguments:\n  query: Python или C++", None, False),
    (5, "negative-ru-006", "json", "Привет! Всё отлично, спасибо. Чем могу помочь? 😊", None, True),
    (5, "negative-ru-006", "xml", "Привет! У меня, как у ИИ, нет настроения в привычном смысле, но я готов помочь!",
     None, True),
    (5, "negative-ru-006", "plain", "   \n  ", None, False),
    (5, "negative-ru-006", "native", "Привет! Всё хорошо 🙂\nＴＯＯＬ web_search | query=как дела", None, False),
    (5, "negative-ru-006", "json",
     r1("Пользователь здоровается. Ответить дружелюбно.", "Привет! Всё супер, спасибо, что спросили. А у вас как?"),
     None, True),
    # §3.3: a repetition loop at the token limit fails.
    (5, "negative-ru-006", "xml",
     "Привет! Всё хорошо! Привет! Всё хорошо! Привет! Всё хорошо! Привет! Всё хорошо! Привет! Всё хорошо!",
     "length", False),
]
