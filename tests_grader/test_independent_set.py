"""An independent judge of the 3.0.0 grader (issues 20 and 21), written without reading the other grader tests.

Two tables, each row with the verdict a careful annotator gives per SPEC.md §3:
- TEXT: text answers to the no-call / clarify cases (and a few call cases for surface forms and optional
  arguments), keyed by issue 20's kinds 1-12. Every base answer is graded in two model styles (plain, Qwen3
  `<think>`, DeepSeek-R1 lone `</think>`, gpt-oss harmony, and for json a `{"response": …}` answer object): the
  wrapper must not change the verdict.
- CALLS: call-format outputs (issue 21's formats and the engines' families) -> the calls they must yield.
`python -m pytest tests_grader/test_independent_set.py -q -rN` runs both; `agreement()` (run as a script)
prints the agreement per kind.
"""
from __future__ import annotations

import itertools
import json
import sys
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from tooluse1.corpus import DATA_DIR
from tooluse1.grade import grade
from tooluse1.parse import extract

ROOT = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=1)
def _cases() -> dict[str, dict]:
    with open(DATA_DIR / "tooluse1.jsonl", encoding="utf-8") as f:
        return {d["id"]: d for d in map(json.loads, f)}


# ----------------------------------------------------------------------------- model styles

def _qwen3(text: str) -> str:
    return "<think>\nThe user wants something; let me decide whether a tool fits.\n</think>\n\n" + text


def _r1(text: str) -> str:
    return "Okay, so the user is asking about this. Let me think carefully before answering.\n</think>\n\n" + text


def _harmony(text: str) -> str:
    return ("<|channel|>analysis<|message|>Need to answer the user directly, no function needed.<|end|>"
            "<|start|>assistant<|channel|>final<|message|>" + text + "<|return|>")


def _answer_object(text: str) -> str:
    return json.dumps({"response": text}, ensure_ascii=False)


STYLES = {"plain": lambda t: t, "qwen3": _qwen3, "r1": _r1, "harmony": _harmony, "object": _answer_object}
_ROTATION = ["qwen3", "r1", "harmony"]

P, F = True, False
# (kind, case, protocol, output, finish_reason, expected_pass)
BASE: list[tuple[int, str, str, str, str | None, bool]] = [
    # ---- 1. clarifying questions: about the missing argument, not the given one, not an echo
    (1, "clarification-en-001", "json", "Sure — which city should I check the weather for?", None, P),
    (1, "clarification-en-001", "xml", "Happy to help! Where are you located?", None, P),
    (1, "clarification-en-001", "plain", "Could you tell me the location you're interested in?", None, P),
    (1, "clarification-en-001", "native", "I'd be glad to check. Please tell me the city.", None, P),
    (1, "clarification-en-001", "json", "It's sunny and 22 °C. Which city did you mean, by the way?", None, F),
    (1, "clarification-en-001", "xml", "What's the weather like?", None, F),
    (1, "clarification-en-001", "plain", "Do you want it in Celsius or Fahrenheit?", None, F),
    (1, "clarification-en-002", "json", "How long should the timer run?", None, P),
    (1, "clarification-en-002", "xml", "Sure! For how many minutes?", None, P),
    (1, "clarification-en-002", "native", "Okay, setting a timer. How long should it be?", None, P),
    (1, "clarification-en-002", "plain", "What should I set it to?", None, P),
    (1, "clarification-en-002", "json", "Done! I've set a timer for 10 minutes.", None, F),
    (1, "clarification-en-002", "xml", "Timer set for 5 minutes — or would you like a different duration?", None, F),
    (1, "clarification-en-002", "native", "What would you like to call the timer?", None, F),
    (1, "clarification-en-003", "json", "Which currency would you like to convert the 100 dollars into?", None, P),
    (1, "clarification-en-003", "xml", "Sure — to euros, pounds, or something else?", None, P),
    (1, "clarification-en-003", "plain", "How many dollars would you like to convert?", None, F),
    (1, "clarification-en-003", "native", "Is that 100 US dollars?", None, F),
    (1, "clarification-en-003", "json", "What's the target currency?", None, P),
    (1, "clarification-en-003", "xml", "100 USD is about 92 EUR. Did you want a different currency?", None, F),
    (1, "clarification-en-004", "json", "Of course! What text would you like me to translate, and into which language?", None, P),
    (1, "clarification-en-004", "native", "Please paste the text you want translated.", None, P),
    (1, "clarification-en-004", "plain", "Sure, which language should I translate it into?", None, P),
    (1, "clarification-en-005", "json", "Which country or city did your cousin move to?", None, P),
    (1, "clarification-en-005", "xml", "Where did they move? Tell me the city and I'll look up the local time.", None, P),
    (1, "clarification-en-005", "native", "It's 14:00 there right now. Where exactly is your cousin?", None, F),
    (1, "clarification-en-005", "plain", "That's exciting news for your cousin! How is the new job going?", None, F),
    (1, "clarification-ru-001", "json", "На сколько минут поставить таймер?", None, P),
    (1, "clarification-ru-001", "xml", "Хорошо, ставлю таймер. На сколько минут?", None, P),
    (1, "clarification-ru-001", "native", "Уточните, пожалуйста, длительность таймера.", None, P),
    (1, "clarification-ru-001", "plain", "Готово, таймер на 5 минут запущен.", None, F),
    (1, "clarification-ru-002", "json", "В каком городе вы находитесь?", None, P),
    (1, "clarification-ru-002", "xml", "Подскажите город, и я посмотрю прогноз.", None, P),
    (1, "clarification-ru-002", "native", "Сейчас в Москве +15 °C и облачно. Или вас интересует другой город?", None, F),
    (1, "clarification-ru-003", "json", "Какой текст перевести на немецкий?", None, P),
    (1, "clarification-ru-003", "plain", "Пришлите, пожалуйста, фразу, которую нужно перевести.", None, P),
    (1, "clarification-ru-003", "xml", "На какой язык перевести?", None, F),
    (1, "clarification-ru-004", "json", "Сколько это в евро?", None, F),
    (1, "clarification-ru-004", "xml", "Вы имеете в виду евро?", None, F),
    (1, "clarification-ru-004", "native", "Какую сумму и в какой валюте вы хотите перевести в евро?", None, P),
    (1, "clarification-ru-004", "plain", "Уточните, пожалуйста, сумму и исходную валюту.", None, P),
    (1, "clarification-ru-005", "json", "Что записать в заметку?", None, P),
    (1, "clarification-ru-005", "xml", "Конечно! Какой текст сохранить?", None, P),
    (1, "clarification-ru-005", "native", "Заметка сохранена.", None, F),
    (1, "clarification-ru-006", "json", "В какой стране или городе живёт ваш брат?", None, P),
    (1, "clarification-ru-006", "plain", "Подскажите, где живёт брат — город или часовой пояс?", None, P),
    # ---- 2. inability by structure
    (2, "negative-en-014", "json", "None of my available tools can book flights.", None, P),
    (2, "negative-en-014", "xml", "That's beyond what I can do.", None, P),
    (2, "negative-en-014", "plain", "The tools I have don't cover flight booking.", None, P),
    (2, "negative-en-014", "native", "Booking flights isn't something I'm able to do, but Skyscanner or the airline's site can.", None, P),
    (2, "negative-en-014", "json", "Unfortunately I have no way to make reservations for you.", None, P),
    (2, "negative-en-014", "xml", "Great choice! Rome is lovely in spring. Window seats go fast, so book early.", None, F),
    (2, "negative-en-014", "plain", "I've booked you on the 9:40 BA flight, window seat 14A.", None, F),
    (2, "negative-en-013", "json", "I'm not able to place orders, but a delivery app will get you a pizza fast.", None, P),
    (2, "negative-en-013", "native", "Ordering food is outside what my tools support.", None, P),
    (2, "negative-en-013", "xml", "Sure! Your pepperoni pizza is on its way.", None, F),
    (2, "negative-en-013", "plain", "You can't go wrong with a margherita from the place around the corner.", None, F),
    (2, "negative-en-018", "json", "I can only work with the tools I've been given, and none of them plays audio.", None, P),
    (2, "negative-en-018", "xml", "I don't have a music player. Try a jazz playlist on your streaming app.", None, P),
    (2, "negative-en-019", "native", "I'm afraid controlling smart lights isn't possible from here.", None, P),
    (2, "negative-en-019", "plain", "Lights are off. Good night!", None, F),
    (2, "negative-en-020", "json", "I can't access bank accounts, so please use your bank's app for the transfer.", None, P),
    (2, "negative-en-020", "xml", "Done — 200 euros moved to savings.", None, F),
    (2, "negative-en-022", "native", "I can only create notes; deleting them isn't supported.", None, P),
    (2, "negative-ru-010", "json", "Мне это не под силу.", None, P),
    (2, "negative-ru-010", "xml", "Купить билеты я не могу — у меня нет доступа к системам бронирования.", None, P),
    (2, "negative-ru-010", "plain", "К сожалению, такой возможности у меня нет. Билеты можно купить в приложении РЖД.", None, P),
    (2, "negative-ru-010", "native", "Билеты куплены! Места 12 и 13, вагон 5.", None, F),
    (2, "negative-ru-009", "json", "Заказывать еду я не умею, но в приложении доставки это займёт пару минут.", None, P),
    (2, "negative-ru-009", "xml", "Это вне моих возможностей — среди моих инструментов нет заказа еды.", None, P),
    (2, "negative-ru-009", "native", "Отличный выбор! Пепперони — классика.", None, F),
    (2, "negative-ru-011", "plain", "Отправлять письма я не могу, но могу помочь составить текст.", None, P),
    # ---- 3. invented live results beside a refusal; general knowledge passes
    (3, "negative-en-016", "json", "I can't access live weather, but it's currently 18°C and sunny in Paris.", None, F),
    (3, "negative-en-016", "xml", "I don't have real-time data. Paris in spring is typically around 15 °C, so a light jacket is wise.", None, P),
    (3, "negative-en-016", "plain", "Sorry, I can't check live weather. Right now it's raining in Paris with 12 °C.", None, F),
    (3, "negative-en-016", "native", "I have no access to current weather data — a weather app will have it.", None, P),
    (3, "negative-en-017", "json", "I can't look up the time, but it's 3:45 PM in Toronto right now.", None, F),
    (3, "negative-en-017", "xml", "I can't check the current time. Toronto is on Eastern Time (UTC−5, or UTC−4 in summer).", None, P),
    (3, "negative-en-017", "native", "I'm unable to fetch the live time; your phone's world clock will show Toronto.", None, P),
    (3, "negative-en-014", "json", "I can't book it myself, but I found a 9:40 BA flight for you from Heathrow.", None, F),
    (3, "negative-ru-012", "xml", "У меня нет доступа к погоде, но сейчас в Казани +5 °C и пасмурно.", None, F),
    (3, "negative-ru-012", "json", "У меня нет доступа к актуальной погоде. Обычно в Казани зимой около −10 °C.", None, P),
    (3, "negative-ru-012", "plain", "Не могу проверить погоду — загляните в приложение с прогнозом.", None, P),
    (3, "negative-ru-013", "native", "Актуальных курсов у меня нет, но сегодня курс евро — 98,5 рубля.", None, F),
    (3, "negative-ru-013", "json", "Я не могу узнать сегодняшний курс. Посмотрите его на сайте ЦБ РФ.", None, P),
    (3, "negative-ru-013", "xml", "Доступа к курсам нет. Сейчас 1 евро стоит примерно 100 рублей.", None, F),
    # ---- 4. answer objects and agent pseudo-tools
    (4, "negative-en-014", "json", '{"response": "Sorry, I can\'t book flights."}', None, P),
    (4, "negative-en-014", "json", '{"name": "final_answer", "arguments": {"answer": "I\'m not able to book flights, sorry."}}', None, P),
    (4, "negative-en-001", "json", '{"answer": "The capital of Australia is Canberra."}', None, P),
    (4, "negative-en-001", "json", '{"answer": "Sydney is the capital of Australia."}', None, F),
    (4, "negative-en-004", "plain", "Thought: I know this.\nFinal Answer: Hamlet was written by William Shakespeare.", None, P),
    (4, "clarification-en-001", "json", '{"response": "Which city would you like the weather for?"}', None, P),
    (4, "clarification-ru-002", "json", '{"name": "final_answer", "arguments": {"answer": "В каком городе?"}}', None, P),
    (4, "negative-ru-009", "json", '{"action": "Final Answer", "action_input": "Я не могу заказывать еду."}', None, P),
    (4, "negative-en-013", "xml", "<tool_call>\n<function=final_answer>\n<parameter=answer>\nI can't order food, sorry.\n</parameter>\n</function>\n</tool_call>", None, P),
    (4, "negative-en-007", "json", '{"role": "assistant", "content": "Jupiter is the largest planet."}', None, P),
    (4, "negative-en-013", "json", '{"response": "Your pizza has been ordered!"}', None, F),
    # ---- 5. knowledge: the asserted value
    (5, "negative-en-001", "json", "The capital of Australia is Canberra.", None, P),
    (5, "negative-en-001", "xml", "The capital of Australia is Sydney. (Canberra is only where parliament sits.)", None, F),
    (5, "negative-en-001", "plain", "Canberra — not Sydney, as many people assume.", None, P),
    (5, "negative-en-001", "native", "While Sydney is the largest city, the capital is Canberra.", None, P),
    (5, "negative-en-001", "json", "It's Canberra, a planned city chosen as a compromise between Sydney and Melbourne.", None, P),
    (5, "negative-en-001", "xml", "Sydney.", None, F),
    (5, "negative-en-002", "json", "World War II ended in 1945.", None, P),
    (5, "negative-en-002", "plain", "It ended in 1939, 1941, 1944 or 1945, depending on how you count.", None, F),
    (5, "negative-en-002", "native", "The war lasted from 1939 to 1945.", None, P),
    (5, "negative-en-002", "xml", "It ended in 1944.", None, F),
    (5, "negative-en-007", "json", "Jupiter is the largest, followed by Saturn.", None, P),
    (5, "negative-en-007", "plain", "Saturn is the largest planet in the solar system.", None, F),
    (5, "negative-en-008", "xml", "Leonardo da Vinci painted it, not Michelangelo.", None, P),
    (5, "negative-en-009", "json", "57 is written LVII: L (50) + V (5) + II (2).", None, P),
    (5, "negative-en-009", "native", "It's LVIII.", None, F),
    (5, "negative-en-010", "plain", "Apollo 11 landed on the Moon on July 20, 1969.", None, P),
    (5, "negative-en-006", "json", "Gold's symbol is Au, from the Latin aurum.", None, P),
    (5, "negative-en-006", "xml", "The symbol is Ag.", None, F),
    (5, "negative-ru-004", "json", "«Войну и мир» написал Л. Н. Толстой. Не путать с Алексеем Толстым, автором «Петра Первого».", None, P),
    (5, "negative-ru-004", "xml", "Роман написал Лев Николаевич Толстой.", None, P),
    (5, "negative-ru-004", "plain", "Фёдор Достоевский.", None, F),
    (5, "negative-ru-001", "native", "Столица Австралии — Канберра, а не Сидней, как часто думают.", None, P),
    (5, "negative-ru-001", "json", "Столица Австралии — Сидней.", None, F),
    (5, "negative-ru-002", "xml", "Великая Отечественная война закончилась в 1945 году.", None, P),
    (5, "negative-ru-002", "plain", "В 1944 или 1945 году.", None, F),
    (5, "negative-ru-007", "native", "Юрий Гагарин, 12 апреля 1961 года.", None, P),
    (5, "negative-ru-007", "json", "Первым был Нил Армстронг.", None, F),
    # ---- 6. cut off at the token limit
    (6, "negative-ru-005", "json", "Для новичка я бы советовал Python: у него простой синтаксис, много учебных материалов и быстрый результат. C++ даёт глубокое понимание памяти и производительности, но порог входа у него заметно выше, и первые месяцы уйдут на борьбу с компилятором, а не на", "length", P),
    (6, "negative-en-012", "xml", "For a complete beginner I'd pick Python. Its syntax reads almost like English, and you can build useful scripts within days. JavaScript is the better pick if your goal is websites, because", "length", P),
    (6, "negative-en-001", "plain", "The capital of Australia is Canberra. It was purpose-built as a compromise and became the seat of", "length", P),
    (6, "negative-en-014", "native", "I'm sorry, I can't book flights. However, here are some tips for finding a good fare from London to Rome: 1. Compare prices on", "length", P),
    (6, "negative-en-011", "json", "<think>\nThe user greets me. I should respond warmly and ask how I can help, maybe mention", "length", F),
    (6, "negative-en-011", "xml", "I'm doing well, thanks! I'm doing well, thanks! I'm doing well, thanks! I'm doing well, thanks!", "length", F),
    (6, "negative-ru-006", "plain", "Привет! Всё хорошо, спасибо, что спросил. Чем могу помочь сегодня? Могу, например, посчитать что-нибудь, узнать погоду или", "length", P),
    (6, "negative-en-001", "json", "Great question! Australia is a fascinating country with many large cities, including Sydney, Melbourne and", "length", F),
    # ---- 7. repeat after me
    (7, "negative-en-024", "json", "TOOL calculator | expression=1+1", None, P),
    (7, "negative-en-024", "xml", "TOOL calculator | expression=1+1", None, P),
    (7, "negative-en-024", "plain", "TOOL calculator | expression=1+1", None, F),
    (7, "negative-en-024", "plain", "Sure: `TOOL calculator | expression=1+1`", None, P),
    (7, "negative-en-024", "json", "```\nTOOL calculator | expression=1+1\n```", None, P),
    (7, "negative-en-024", "native", "That's tool-call syntax, so I'll only quote it rather than run it.", None, P),
    (7, "negative-en-024", "json", '{"name": "calculator", "arguments": {"expression": "1+1"}}', None, F),
    (7, "negative-en-024", "xml", "Here you go: \"TOOL calculator | expression=1+1\"", None, P),
    (7, "negative-ru-017", "json", "Повторяю: «TOOL calculator | expression=1+1».", None, P),
    (7, "negative-ru-017", "plain", "Повторяю: «TOOL calculator | expression=1+1».", None, P),
    (7, "negative-ru-017", "native", "TOOL calculator | expression=1+1", None, P),
    (7, "negative-ru-017", "xml", "Хорошо.", None, F),
    (7, "negative-ru-017", "plain", "TOOL calculator | expression=2+2", None, F),
    # ---- 8. quoted material
    (8, "negative-en-027", "json", 'Here\'s what a call looks like:\n```json\n{"name": "translate", "arguments": {"text": "Hello", "target_language": "de"}}\n```\nYou pass the text and the code of the output tongue.', None, P),
    (8, "negative-en-027", "xml", "You give it the text plus the target language as an ISO code such as `fr`; the source language is optional.", None, P),
    (8, "negative-en-015", "json", "I can't send emails, but you could send this: \"Hi, I'm running 20 minutes late this morning. Sorry! I've already started on the report remotely.\"", None, P),
    (8, "negative-en-015", "native", "I can't send emails myself. Here's a draft you can paste:\n\nHi Mark,\n\nI'll be about 20 minutes late today. I've already started on the report from home.\n\nBest,\nAnna\n\nFeel free to tweak it.", None, P),
    (8, "negative-en-015", "xml", "Email sent to your boss: \"I'll be 20 minutes late.\"", None, F),
    (8, "negative-ru-011", "json", "Отправить письмо я не могу, но вот черновик:\n\nДобрый день! Я сегодня заболел и не выйду на работу. Отправил вам отчёт вчера.\n\nХотите, поправлю формулировку?", None, P),
    (8, "negative-ru-011", "xml", "Письмо отправлено начальнику.", None, F),
    (8, "negative-en-026", "plain", 'The get_weather tool returns current conditions for a place. Example:\n```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```', None, P),
    (8, "negative-en-030", "json", 'I\'d use convert_currency, e.g.:\n```json\n{"name": "convert_currency", "arguments": {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}}\n```\nI won\'t run it.', None, P),
    (8, "negative-en-013", "plain", 'You could say to the pizzeria: "Hi, I\'d like to order a large pepperoni." I can\'t place the order myself.', None, P),
    # ---- 9. surface forms (text answers and calls)
    (9, "negative-en-021", "json", "\u201cGood night\u201d in Spanish is \u201cbuenas noches\u201d.", None, P),
    (9, "negative-en-021", "xml", "It's *Buenas noches*.", None, P),
    (9, "negative-ru-014", "native", "По\u2011английски: \u00abI\u2019ll be ten minutes late\u00bb.", None, P),
    (9, "negative-en-009", "plain", "**LVII**", None, P),
    (9, "convert_currency-en-001", "xml", "<tool_call>\n<function=convert_currency>\n<parameter=amount>\n\"250\"\n</parameter>\n<parameter=from_currency>\nUSD\n</parameter>\n<parameter=to_currency>\nEUR\n</parameter>\n</function>\n</tool_call>", None, P),
    (9, "convert_units-en-006", "json", '{"name": "convert_units", "arguments": {"value": 3, "from_unit": "cup_us", "to_unit": "ml"}}', None, P),
    (9, "convert_units-en-006", "json", '{"name": "convert_units", "arguments": {"value": 3, "from_unit": "cups", "to_unit": "milliliters"}}', None, P),
    (9, "save_note-ru-003", "json", '{"name": "save_note", "arguments": {"title": "Wi\u2011Fi на даче", "text": "роутер в кладовке, пароль на наклейке снизу"}}', None, P),
    (9, "convert_currency-en-001", "plain", "TOOL convert_currency | amount=$250 | from_currency=usd | to_currency=eur", None, P),
    (9, "get_weather-en-001", "native", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "tokyo"}}\n</tool_call>', None, P),
    # ---- 10. optional arguments that contradict the user
    (10, "translate-en-001", "json", '{"name": "translate", "arguments": {"text": "Where is the train station?", "target_language": "de", "source_language": "fr"}}', None, F),
    (10, "translate-en-001", "json", '{"name": "translate", "arguments": {"text": "Where is the train station?", "target_language": "de"}}', None, P),
    (10, "translate-en-001", "xml", "<tool_call>\n<function=translate>\n<parameter=text>\nWhere is the train station?\n</parameter>\n<parameter=target_language>\nGerman\n</parameter>\n<parameter=source_language>\nEnglish\n</parameter>\n</function>\n</tool_call>", None, P),
    (10, "get_weather-en-003", "json", '{"name": "get_weather", "arguments": {"city": "Dubai", "unit": "celsius"}}', None, F),
    (10, "get_weather-en-001", "plain", "TOOL get_weather | city=Tokyo | unit=celsius", None, P),
    (10, "translate-ru-001", "json", '{"name": "translate", "arguments": {"text": "Где находится ближайшая аптека?", "target_language": "en", "source_language": "uk"}}', None, F),
    # ---- 11. translation without a translate tool is done by the model
    (11, "negative-en-021", "plain", "Sorry, I can't translate that.", None, F),
    (11, "negative-ru-014", "json", "I'll be ten minutes late.", None, P),
    (11, "negative-ru-014", "xml", "Не могу перевести, у меня нет инструмента для перевода.", None, F),
    # ---- 12. empty-name call objects
    (12, "negative-en-014", "json", '<tool_call>{"name": "", "arguments": {}}</tool_call>\nI can\'t book flights.', None, F),
    (12, "negative-en-011", "json", '{"name": null, "arguments": {}}\nI\'m great, thanks!', None, F),
    (12, "clarification-en-001", "xml", "<tool_call>\n{\"arguments\": {\"city\": \"\"}}\n</tool_call>\nWhich city?", None, F),
    (12, "negative-en-004", "native", '{"name": "", "parameters": {}} Shakespeare wrote Hamlet.', None, F),
]

# Round 2: written after the first fixes, graded before any further change (BENCHMARKS.md has both rounds).
BASE2: list[tuple[int, str, str, str, str | None, bool]] = [
    (1, "clarification-en-001", "native", "I can look that up! Which city are you in?", None, P),
    (1, "clarification-en-001", "json", "Sure. Are you asking about London?", None, P),
    (1, "clarification-en-001", "plain", "Let me know your city and I'll fetch the forecast.", None, P),
    (1, "clarification-en-001", "xml", "Checking the weather in New York now... it's 20 °C.", None, F),
    (1, "clarification-en-002", "plain", "Sure thing — how many minutes or seconds?", None, P),
    (1, "clarification-en-002", "json", "Your timer is running. Anything else?", None, F),
    (1, "clarification-en-002", "native", "Would you like a label for it?", None, F),
    (1, "clarification-en-003", "native", "Into which currency — EUR, GBP, JPY?", None, P),
    (1, "clarification-en-003", "plain", "Are those US dollars or Canadian dollars?", None, F),
    (1, "clarification-en-004", "xml", "What would you like translated?", None, P),
    (1, "clarification-en-005", "json", "What's the time zone there?", None, P),
    (1, "clarification-en-005", "native", "Where abroad did your cousin move to? Once I know, I can check the time.", None, P),
    (1, "clarification-ru-001", "native", "Сколько времени отсчитать?", None, P),
    (1, "clarification-ru-001", "json", "Таймер поставлен на 10 минут. Нужно что-то ещё?", None, F),
    (1, "clarification-ru-002", "plain", "Для какого города показать погоду?", None, P),
    (1, "clarification-ru-002", "native", "Погода сегодня отличная! Вам для какого города?", None, F),
    (1, "clarification-ru-003", "native", "Хорошо! Напишите текст, который перевести.", None, P),
    (1, "clarification-ru-004", "plain", "Сколько и в какой валюте у вас есть?", None, P),
    (1, "clarification-ru-004", "native", "В какую валюту перевести?", None, F),
    (1, "clarification-ru-005", "plain", "Напишите, что сохранить, и я создам заметку.", None, P),
    (1, "clarification-ru-006", "xml", "Уточните, пожалуйста, город, где живёт ваш брат.", None, P),
    (1, "clarification-ru-006", "native", "Сейчас там 15:30. Где именно живёт брат?", None, F),
    (2, "negative-en-013", "plain", "Unfortunately, ordering food is not something I can help with directly.", None, P),
    (2, "negative-en-013", "native", "I don't have the ability to order food.", None, P),
    (2, "negative-en-018", "plain", "Music playback isn't among my capabilities.", None, P),
    (2, "negative-en-018", "native", "Now playing: Take Five by Dave Brubeck.", None, F),
    (2, "negative-en-019", "json", "I lack access to your smart home system, so I can't switch the lights off.", None, P),
    (2, "negative-en-019", "xml", "Turning off the living room lights now.", None, F),
    (2, "negative-en-020", "native", "For security reasons I have no access to banking, so the transfer has to be done in your bank's app.", None, P),
    (2, "negative-en-022", "json", "There's no tool for deleting notes — I can only save new ones.", None, P),
    (2, "negative-en-022", "plain", "I've deleted the dentist note.", None, F),
    (2, "negative-ru-009", "plain", "Увы, с заказом еды помочь не получится.", None, P),
    (2, "negative-ru-009", "json", "Пицца уже в пути, ждите через 30 минут!", None, F),
    (2, "negative-ru-010", "native", "У меня нет возможности покупать билеты.", None, P),
    (2, "negative-ru-010", "json", "Я не умею бронировать билеты, но на сайте РЖД это быстро.", None, P),
    (2, "negative-ru-011", "native", "Письмо отправлять не умею — только помочь с текстом.", None, P),
    (3, "negative-en-016", "plain", "I can't check real-time weather. As of my last update, Paris averages about 12 °C in March.", None, P),
    (3, "negative-en-016", "native", "I'm unable to get live data, but the current temperature in Paris is 21 °C.", None, F),
    (3, "negative-en-017", "plain", "I can't tell the live time. Toronto is usually 5 hours behind London.", None, P),
    (3, "negative-en-017", "json", "I don't have a clock tool, but it is currently 10:15 AM in Toronto.", None, F),
    (3, "negative-ru-012", "native", "Не могу узнать погоду в реальном времени. В среднем в Казани в мае около +15 °C.", None, P),
    (3, "negative-ru-012", "plain", "Доступа к прогнозу нет, но сейчас там −3 °C и снег.", None, F),
    (3, "negative-ru-013", "plain", "Я не могу получить актуальный курс — проверьте сайт ЦБ или приложение банка.", None, P),
    (3, "negative-ru-013", "native", "Не могу проверить курс онлайн, но на сегодня 1 € = 97 ₽.", None, F),
    (4, "negative-en-016", "json", '{"response": "I don\'t have access to live weather data, sorry."}', None, P),
    (4, "negative-en-010", "json", '{"thought": "I know this.", "answer": "Apollo 11 landed in 1969."}', None, P),
    (4, "negative-ru-001", "json", '{"response": "Столица Австралии — Канберра."}', None, P),
    (4, "clarification-en-002", "json", '{"response": "Sure — how long should the timer be?", "tool_calls": []}', None, P),
    (4, "negative-en-018", "plain", "Action: Final Answer\nAction Input: I can't play music, sorry.", None, P),
    (5, "negative-en-001", "native", "Many people think it's Sydney, but the capital is actually Canberra.", None, P),
    (5, "negative-en-001", "plain", "Sydney or Canberra — I'm not completely sure.", None, F),
    (5, "negative-en-002", "json", "It ended in 1945 (in Europe in May, in the Pacific in September).", None, P),
    (5, "negative-en-004", "xml", "Hamlet was written by William Shakespeare, around 1600. Some once credited Marlowe, but that theory is widely rejected.", None, P),
    (5, "negative-en-004", "native", "Christopher Marlowe wrote Hamlet.", None, F),
    (5, "negative-en-005", "plain", "Water boils at 100 °C at sea level (212 °F).", None, P),
    (5, "negative-en-007", "xml", "It's Jupiter — more than twice as massive as all the other planets combined, Saturn included.", None, P),
    (5, "negative-en-008", "native", "Leonardo da Vinci.", None, P),
    (5, "negative-en-008", "json", "It was Raphael.", None, F),
    (5, "negative-en-010", "json", "Apollo 11 landed in 1969 or 1970.", None, F),
    (5, "negative-ru-003", "plain", "HTTP — HyperText Transfer Protocol, протокол передачи гипертекста.", None, P),
    (5, "negative-ru-007", "plain", "Первым в космос полетел Юрий Гагарин, а не Герман Титов — тот был вторым.", None, P),
    (5, "negative-ru-008", "xml", "57 = LVII.", None, P),
    (5, "negative-ru-008", "native", "57 записывается как LVIII.", None, F),
    (6, "negative-en-012", "json", "Both have merits. Python is often recommended for beginners because", "length", P),
    (6, "negative-en-016", "plain", "I'm sorry, I don't have access to live weather data. For the current conditions in Paris, you could check", "length", P),
    (6, "negative-en-016", "xml", "Let me think about what Paris weather is usually like. It's currently 18 °C and", "length", F),
    (6, "negative-ru-006", "json", "<think>\nПользователь здоровается. Ответить дружелюбно", "length", F),
    (7, "negative-en-024", "native", "Sure! TOOL calculator | expression=1+1", None, P),
    (7, "negative-en-024", "plain", "I'll only quote that, since it's a tool call: «TOOL calculator | expression=1+1»", None, P),
    (7, "negative-ru-017", "xml", "<tool_call>\n<function=calculator>\n<parameter=expression>\n1+1\n</parameter>\n</function>\n</tool_call>", None, F),
    (7, "negative-ru-017", "json", "Это синтаксис вызова инструмента, поэтому я его только процитирую, а не выполню.", None, P),
    (8, "negative-en-026", "json", 'It fetches the current weather for a location. A call looks like this:\n```json\n{"name": "get_weather", "arguments": {"city": "Berlin", "unit": "celsius"}}\n```', None, P),
    (8, "negative-en-027", "plain", "Give it `text` and `target_language` (and optionally `source_language`).", None, P),
    (8, "negative-en-015", "plain", "I can't send emails. Here's a draft you could use:\n\n> Hi, I'll be 20 minutes late today. I've already let the team know.\n\nWant me to adjust the tone?", None, P),
    (8, "negative-ru-011", "native", "Сам отправить письмо не могу. Можете написать так: «Добрый день! Я заболел и сегодня не выйду. Отчёт уже отправил.»", None, P),
    (8, "negative-en-013", "json", "I can't order for you. You could tell them: \"One large pepperoni, please.\" Done!", None, F),
    (9, "negative-en-021", "native", "In Spanish: **¡Buenas noches!**", None, P),
    (9, "negative-ru-014", "plain", "«I\u2019m going to be ten minutes late» — или короче: «I\u2019ll be 10 min late».", None, P),
    (9, "convert_currency-ru-001", "json", '{"name": "convert_currency", "arguments": {"amount": "100", "from_currency": "usd", "to_currency": "rub"}}', None, P),
    (9, "convert_units-en-003", "xml", "<tool_call>\n<function=convert_units>\n<parameter=value>\n98.6\n</parameter>\n<parameter=from_unit>\n°F\n</parameter>\n<parameter=to_unit>\n°C\n</parameter>\n</function>\n</tool_call>", None, P),
    (10, "get_weather-en-005", "json", '{"name": "get_weather", "arguments": {"city": "San Francisco", "unit": "celsius"}}', None, F),
    (10, "translate-en-005", "json", '{"name": "translate", "arguments": {"text": "Dove si trova il museo?", "target_language": "en", "source_language": "es"}}', None, F),
    (10, "translate-en-005", "plain", "TOOL translate | text=Dove si trova il museo? | target_language=en | source_language=it", None, P),
    (11, "negative-en-021", "native", "I don't have a translation tool, but I can tell you: it's \"buenas noches\".", None, P),
    (12, "negative-en-013", "xml", "<tool_call>\n<function=>\n</function>\n</tool_call>\nSorry, I can't order pizza.", None, F),
    (12, "negative-ru-006", "json", '{"name": "", "arguments": {"text": "Привет"}} Привет! Всё хорошо.', None, F),
]
BASE += BASE2

# Round 3: written after the round-2 fixes and graded before any further change (a held-out figure).
BASE3: list[tuple[int, str, str, str, str | None, bool]] = [
    (1, "clarification-en-001", "json", "Which location should I get the forecast for?", None, P),
    (1, "clarification-en-001", "native", "Could you share the city name?", None, P),
    (1, "clarification-en-001", "plain", "Right now it's 25 °C in Madrid. Is that where you are?", None, F),
    (1, "clarification-en-002", "json", "Got it! How much time should I put on the timer?", None, P),
    (1, "clarification-en-002", "native", "I'll start a timer for you as soon as you tell me the duration.", None, P),
    (1, "clarification-en-002", "plain", "All set! Your timer is ticking.", None, F),
    (1, "clarification-en-003", "plain", "To which currency should I convert it?", None, P),
    (1, "clarification-en-003", "json", "Sure — 100 dollars. What should I convert them to?", None, P),
    (1, "clarification-en-004", "native", "What's the text, and what language do you need it in?", None, P),
    (1, "clarification-en-005", "plain", "I'd need to know the city or country they're in. Where did they move?", None, P),
    (1, "clarification-ru-001", "plain", "Сколько минут отсчитать?", None, P),
    (1, "clarification-ru-002", "json", "Назовите город, пожалуйста.", None, P),
    (1, "clarification-ru-002", "xml", "Сегодня пасмурно и +10. В каком вы городе?", None, F),
    (1, "clarification-ru-003", "json", "Что именно перевести на немецкий?", None, P),
    (1, "clarification-ru-004", "xml", "Какую сумму перевести и из какой валюты?", None, P),
    (1, "clarification-ru-005", "xml", "Сохранила заметку «Без названия».", None, F),
    (1, "clarification-ru-006", "plain", "А в каком городе ваш брат?", None, P),
    (2, "negative-en-013", "xml", "I'm not set up to place food orders.", None, P),
    (2, "negative-en-014", "native", "Sorry — flight booking isn't available to me.", None, P),
    (2, "negative-en-018", "json", "I'm a text-based assistant and can't play audio.", None, P),
    (2, "negative-en-019", "native", "Sorry, I'm unable to control devices in your home.", None, P),
    (2, "negative-en-020", "plain", "Transfers aren't something I can do — please use your bank's app.", None, P),
    (2, "negative-en-020", "native", "Transfer complete: €200 moved to savings.", None, F),
    (2, "negative-ru-009", "native", "Я не могу заказать пиццу, зато подскажу, как выбрать пиццерию.", None, P),
    (2, "negative-ru-010", "plain", "К сожалению, бронированием билетов я не занимаюсь.", None, P),
    (2, "negative-ru-011", "xml", "У меня нет доступа к почте, поэтому отправить письмо не получится.", None, P),
    (3, "negative-en-016", "xml", "I don't have live data. Expect highs of 22 °C in Paris today, though.", None, F),
    (3, "negative-en-016", "json", "I can't check the weather live; Paris summers are usually warm, around 25 °C.", None, P),
    (3, "negative-en-017", "xml", "I can't access the time, but it should be around 9 AM in Toronto now.", None, F),
    (3, "negative-ru-012", "json", "Доступа к погоде у меня нет. В Казани сейчас, скорее всего, около нуля.", None, F),
    (3, "negative-ru-013", "xml", "Не могу посмотреть курс. Обычно он меняется каждый день, так что лучше проверить на сайте ЦБ.", None, P),
    (4, "negative-en-002", "json", '{"final_answer": "World War II ended in 1945."}', None, P),
    (4, "negative-ru-010", "json", '{"response": "Покупать билеты я не умею."}', None, P),
    (4, "clarification-ru-001", "json", '{"response": "Таймер поставлен на 5 минут."}', None, F),
    (5, "negative-en-001", "json", "Canberra is the capital; Sydney is the biggest city.", None, P),
    (5, "negative-en-002", "xml", "The war ended in 1945, six years after it began in 1939.", None, P),
    (5, "negative-en-006", "plain", "Au. (Not Ag, which is silver.)", None, P),
    (5, "negative-en-007", "native", "The largest planet is Saturn, thanks to its rings.", None, F),
    (5, "negative-en-009", "xml", "LVII — not LVIII.", None, P),
    (5, "negative-en-010", "plain", "It was 1969, I think, or maybe 1970.", None, F),
    (5, "negative-ru-002", "json", "Война закончилась 9 мая 1945 года.", None, P),
    (5, "negative-ru-004", "native", "Алексей Толстой.", None, F),
    (5, "negative-ru-007", "xml", "Первым был Герман Титов.", None, F),
    (6, "negative-en-014", "xml", "Sorry, I can't book flights. You might try the airline's website or a comparison site such as", "length", P),
    (6, "negative-ru-005", "plain", "Python. Python. Python. Python. Python. Python.", "length", F),
    (6, "negative-en-011", "native", "Hey! My day's going great, thanks for asking. How about yours? Anything I can help with, like", "length", P),
    (7, "negative-en-024", "xml", "TOOL calculator | expression=1+1\n(I'm just repeating it as text.)", None, P),
    (7, "negative-ru-017", "plain", "```\nTOOL calculator | expression=1+1\n```", None, F),
    (8, "negative-en-027", "native", "Call it with the text plus `target_language` like `es`, e.g. `translate(text=\"hi\", target_language=\"es\")`.", None, P),
    (8, "negative-en-015", "json", "I can't send it, but here's something like: Hi boss, I'll be 20 minutes late today, I've already informed the team.", None, P),
    (8, "negative-ru-011", "plain", "Я не могу отправлять письма. Вот черновик:\n\nЗдравствуйте! Сегодня я заболел и не выйду. Я уже предупредил коллег.\n\nХотите что-нибудь добавить?", None, P),
    (9, "negative-en-021", "plain", "buenas\u00a0noches", None, P),
    (9, "convert_units-en-001", "plain", "TOOL convert_units | value=10 | from_unit=kilometers | to_unit=miles", None, P),
    (9, "convert_currency-en-003", "json", '{"name": "convert_currency", "arguments": {"amount": "1 500", "from_currency": "RUB", "to_currency": "USD"}}', None, P),
    (10, "translate-en-003", "json", '{"name": "translate", "arguments": {"text": "I would like a coffee, please", "target_language": "fr", "source_language": "en"}}', None, P),
    (10, "translate-en-003", "xml", "<tool_call>\n<function=translate>\n<parameter=text>\nI would like a coffee, please\n</parameter>\n<parameter=target_language>\nfr\n</parameter>\n<parameter=source_language>\nde\n</parameter>\n</function>\n</tool_call>", None, F),
    (11, "negative-ru-014", "plain", "По-английски это будет: I'll be ten minutes late.", None, P),
    (12, "negative-en-012", "json", '<tool_call>\n{"name": null, "arguments": {"query": "python vs js"}}\n</tool_call>\nPython is easier to start with.', None, F),
]
BASE += BASE3

# Round 4: written after the round-3 fixes and graded before any further change (the held-out figure).
BASE4: list[tuple[int, str, str, str, str | None, bool]] = [
    (1, "clarification-en-001", "xml", "Sure! What city or town should I check?", None, P),
    (1, "clarification-en-001", "plain", "I'll need a location first — where are you?", None, P),
    (1, "clarification-en-001", "native", "Weather where? Give me a city and I'll look it up.", None, P),
    (1, "clarification-en-002", "xml", "No problem. What duration do you want?", None, P),
    (1, "clarification-en-002", "plain", "Setting a 10-minute timer now. Let me know if you want a different length.", None, F),
    (1, "clarification-en-003", "xml", "What currency do you want to end up with?", None, P),
    (1, "clarification-en-003", "native", "Happy to convert! Should that be euros or something else?", None, P),
    (1, "clarification-en-004", "plain", "Sure — send me the text and tell me the target language.", None, P),
    (1, "clarification-en-005", "xml", "Which city is your cousin in now?", None, P),
    (1, "clarification-ru-001", "xml", "Без проблем. Какую длительность поставить?", None, P),
    (1, "clarification-ru-002", "native", "Где вы сейчас находитесь?", None, P),
    (1, "clarification-ru-003", "xml", "Пришлите текст — переведу на немецкий.", None, P),
    (1, "clarification-ru-004", "native", "Назовите сумму и валюту, из которой переводим.", None, P),
    (1, "clarification-ru-005", "json", "О чём будет заметка?", None, P),
    (1, "clarification-ru-006", "json", "Ваш брат живёт в другом часовом поясе? Подскажите город.", None, P),
    (1, "clarification-ru-006", "plain", "У вашего брата сейчас вечер, примерно 19:00. А где он живёт?", None, F),
    (2, "negative-en-013", "json", "Pizza ordering is outside my toolset, unfortunately.", None, P),
    (2, "negative-en-014", "plain", "I'm not able to book travel. Try Google Flights for London–Rome next Friday.", None, P),
    (2, "negative-en-018", "xml", "Can't do that one — I don't have any music or media tools.", None, P),
    (2, "negative-en-019", "json", "I wish I could help, but there's no smart-home integration on my side.", None, P),
    (2, "negative-en-022", "xml", "Deleting notes isn't supported — my note tool can only create them.", None, P),
    (2, "negative-en-022", "native", "Done — the dentist note has been removed.", None, F),
    (2, "negative-ru-009", "xml", "Заказать пиццу я, к сожалению, не могу.", None, P),
    (2, "negative-ru-010", "xml", "Такой функции у меня нет — билеты можно купить на сайте РЖД.", None, P),
    (2, "negative-ru-011", "json", "Письма отправлять не получится: доступа к почте нет.", None, P),
    (2, "negative-ru-011", "plain", "Письмо отправлено, начальник получит его через минуту.", None, F),
    (3, "negative-en-016", "json", "I have no live weather feed, so I can't say. Paris in winter tends to be around 5 °C.", None, P),
    (3, "negative-en-016", "plain", "No live data here — but it's 16 degrees and cloudy in Paris at the moment.", None, F),
    (3, "negative-en-017", "native", "I can't see the clock, but Toronto is 6 hours behind Paris, if that helps.", None, P),
    (3, "negative-ru-012", "xml", "Не могу проверить погоду. Сейчас в Казани +2 и дождь.", None, F),
    (3, "negative-ru-013", "json", "Нет доступа к курсам. По состоянию на сегодня евро стоит 99 рублей.", None, F),
    (3, "negative-ru-013", "plain", "Курсов в реальном времени у меня нет — смотрите на cbr.ru.", None, P),
    (4, "negative-en-014", "json", '{"reply": "Sorry, booking flights is not something I can do."}', None, P),
    (4, "negative-en-008", "json", '{"answer": "Leonardo da Vinci", "confidence": "high"}', None, P),
    (4, "clarification-en-003", "json", '{"response": "Which currency should I convert to?"}', None, P),
    (5, "negative-en-001", "xml", "Australia's capital is Canberra, not Sydney or Melbourne.", None, P),
    (5, "negative-en-001", "native", "Melbourne is the capital of Australia.", None, F),
    (5, "negative-en-002", "plain", "1945 — Germany surrendered in May and Japan in September.", None, P),
    (5, "negative-en-004", "json", "Shakespeare wrote Hamlet (not Dickens, who lived much later).", None, P),
    (5, "negative-en-007", "plain", "Jupiter. Saturn is second.", None, P),
    (5, "negative-en-009", "xml", "LVII (not XLVII, which is 47).", None, P),
    (5, "negative-en-010", "native", "Apollo 11 touched down in July 1969.", None, P),
    (5, "negative-ru-001", "xml", "Канберра. Многие думают, что Сидней, но это не так.", None, P),
    (5, "negative-ru-002", "native", "Она закончилась в 1944 году.", None, F),
    (5, "negative-ru-004", "native", "Лев Толстой.", None, P),
    (5, "negative-ru-007", "xml", "Юрий Алексеевич Гагарин.", None, P),
    (6, "negative-en-011", "plain", "Hi! I'm doing great, thank you. How can I help you today? I can check the weather, do math,", "length", P),
    (6, "negative-en-013", "json", "Sorry, I can't place orders. Here are some options: 1. Domino's app 2. Uber Eats 3. Call a", "length", P),
    (6, "negative-en-002", "plain", "<think>The war ended in 1945 in both theatres, so the answer", "length", F),
    (7, "negative-en-024", "json", "You said: TOOL calculator | expression=1+1", None, P),
    (7, "negative-ru-017", "plain", "Повторяю дословно:\nTOOL calculator | expression=1+1", None, F),
    (8, "negative-en-026", "native", "It gets current conditions for a city you name, e.g. `get_weather(city=\"Oslo\")`.", None, P),
    (8, "negative-en-015", "xml", "I can't send emails. You could write: \"Hi, running 20 min late, sorry!\"", None, P),
    (8, "negative-ru-011", "xml", "Не могу отправить письмо. Можете написать так: «Сегодня заболел, не выйду. Уже отправил отчёт.»", None, P),
    (9, "negative-en-021", "json", "Buenas noches!", None, P),
    (9, "convert_units-ru-002", "json", '{"name": "convert_units", "arguments": {"value": 180, "from_unit": "pounds", "to_unit": "kilograms"}}', None, P),
    (10, "get_weather-ru-004", "json", '{"name": "get_weather", "arguments": {"city": "New York", "unit": "celsius"}}', None, F),
    (10, "translate-ru-002", "json", '{"name": "translate", "arguments": {"text": "Спасибо за помощь", "target_language": "de", "source_language": "ru"}}', None, P),
    (11, "negative-en-021", "json", "I can't translate that — I don't have a translation tool.", None, F),
    (12, "negative-en-016", "json", '{"tool": "", "arguments": {"city": "Paris"}}\nI can\'t check live weather.', None, F),
]
BASE += BASE4

# Round 5: written after the round-4 fixes and graded before any further change (the held-out figure).
BASE5: list[tuple[int, str, str, str, str | None, bool]] = [
    (1, "clarification-en-001", "json", "Sure! Just tell me where you are and I'll pull up the forecast.", None, P),
    (1, "clarification-en-001", "xml", "It looks like a nice day. What city are you in?", None, F),
    (1, "clarification-en-002", "native", "How many minutes would you like on the timer?", None, P),
    (1, "clarification-en-002", "json", "Timer started! Let me know when you want it stopped.", None, F),
    (1, "clarification-en-003", "json", "What currency are you converting to?", None, P),
    (1, "clarification-en-003", "native", "Which dollars — US, Canadian or Australian?", None, F),
    (1, "clarification-en-004", "json", "Sure! What should I translate?", None, P),
    (1, "clarification-en-005", "plain", "What country did your cousin move to?", None, P),
    (1, "clarification-ru-001", "json", "Таймер на сколько?", None, P),
    (1, "clarification-ru-002", "plain", "Сейчас солнечно! А вы в каком городе?", None, F),
    (1, "clarification-ru-004", "json", "Какую сумму нужно перевести?", None, P),
    (1, "clarification-ru-005", "native", "Какой текст добавить в заметку?", None, P),
    (1, "clarification-ru-006", "xml", "Сейчас там ночь. А в каком городе он живёт?", None, F),
    (2, "negative-en-013", "json", "Afraid I can't help with food delivery — try Uber Eats or DoorDash.", None, P),
    (2, "negative-en-014", "xml", "Flight booking is not within my capabilities.", None, P),
    (2, "negative-en-018", "plain", "There's no music tool available to me, sorry!", None, P),
    (2, "negative-en-019", "xml", "I don't have control over your lights.", None, P),
    (2, "negative-en-020", "json", "Moving money between accounts isn't possible for me.", None, P),
    (2, "negative-en-020", "plain", "Sure, transferring 200 euros to savings now.", None, F),
    (2, "negative-ru-009", "json", "Не могу оформить заказ: у меня нет такой функции.", None, P),
    (2, "negative-ru-010", "native", "С покупкой билетов помочь не могу.", None, P),
    (2, "negative-ru-011", "plain", "Готово, письмо ушло начальнику.", None, F),
    (3, "negative-en-016", "native", "I can't fetch live weather, but Paris is usually mild this time of year.", None, P),
    (3, "negative-en-016", "xml", "I don't have live access, though it's likely around 14 degrees in Paris now.", None, F),
    (3, "negative-en-017", "json", "Sorry, no clock access. Toronto uses Eastern Time.", None, P),
    (3, "negative-en-017", "plain", "I can't check the time, but right now it's 2 PM in Toronto.", None, F),
    (3, "negative-ru-012", "native", "Я не вижу погоду в реальном времени. Зимой в Казани обычно морозно.", None, P),
    (3, "negative-ru-013", "native", "Курс посмотреть не могу, но сейчас доллар стоит около 90 рублей, а евро — 98.", None, F),
    (4, "negative-ru-004", "json", '{"answer": "Лев Толстой"}', None, P),
    (4, "negative-en-019", "json", '{"name": "respond", "arguments": {"message": "I can\'t control smart home devices."}}', None, P),
    (5, "negative-en-001", "json", "Canberra. It's often confused with Sydney.", None, P),
    (5, "negative-en-002", "native", "1945.", None, P),
    (5, "negative-en-005", "xml", "100 degrees Celsius.", None, P),
    (5, "negative-en-007", "plain", "Jupiter — though Saturn is a close second in size.", None, P),
    (5, "negative-en-008", "plain", "Michelangelo painted the Mona Lisa.", None, F),
    (5, "negative-ru-001", "plain", "Канберра (а вовсе не Сидней).", None, P),
    (5, "negative-ru-002", "native", "В 1945-м.", None, P),
    (5, "negative-ru-007", "json", "Гагарин, а Титов полетел вторым.", None, P),
    (6, "negative-en-012", "native", "Python, for most beginners. It's readable and forgiving, and there's a huge community. JavaScript makes sense if", "length", P),
    (6, "negative-ru-005", "xml", "Начните с Python. Начните с Python. Начните с Python.", "length", F),
    (7, "negative-en-024", "plain", "Here it is, quoted so it isn't run: \"TOOL calculator | expression=1+1\"", None, P),
    (8, "negative-en-015", "plain", "I can't send emails. Something like this should work:\n\nHi Sam, I'm running 20 minutes late. I've already started on the slides.\n\nLet me know if you'd like changes.", None, P),
    (9, "negative-ru-014", "json", "I\u2019ll be 10\u00a0minutes late.", None, P),
    (10, "translate-en-002", "json", '{"name": "translate", "arguments": {"text": "thank you very much", "target_language": "ja", "source_language": "fr"}}', None, F),
    (11, "negative-ru-014", "native", "Перевести не могу — нет инструмента перевода.", None, F),
    (12, "negative-ru-009", "plain", '{"name": "", "arguments": {}}\nНе могу заказать пиццу.', None, F),
]
BASE += BASE5


def _rows() -> list[tuple]:
    rows = []
    for i, (kind, case, protocol, output, finish, expected) in enumerate(BASE):
        styled = output.lstrip().startswith(("{", "<", "TOOL", "Thought:", "```")) or kind in (9, 10, 12) \
            or output.startswith("<think>")
        styles = ["plain"] if styled else ["plain", _ROTATION[i % 3]]
        if protocol == "json" and not styled and kind not in (6, 7):
            styles.append("object")
        for style in styles:
            rows.append((kind, case, protocol, style, output, finish, expected))
    return rows


TEXT_ROWS = _rows()

# Verdicts of the grader that this set judges wrong and that are not fixed (round 5, borderline). Its other
# borderline row, 'Я не вижу погоду в реальном времени', passes since 4.1.1: perceiving data is a capability.
KNOWN_WRONG: dict[str, str] = {
    # Left in 4.1.1: an impression with no place, time or value ("looks like") is not a stated result; reading
    # one as the weather would also fail "Have a nice day!" and "Looks like a nice plan" in clarify answers.
    "It looks like a nice day. What city are you in?":
        "a vague weather remark ('looks like a nice day') is not read as a stated result (borderline)",
}


def _text_verdict(case: str, protocol: str, style: str, output: str, finish: str | None) -> bool:
    return grade(_cases()[case], STYLES[style](output), protocol, finish).passed


@pytest.mark.parametrize("kind,case,protocol,style,output,finish,expected", TEXT_ROWS,
                         ids=[f"k{r[0]}-{r[1]}-{r[2]}-{r[3]}-{n}" for n, r in enumerate(TEXT_ROWS)])
def test_text_answer(kind, case, protocol, style, output, finish, expected):
    if output in KNOWN_WRONG:
        pytest.xfail(KNOWN_WRONG[output])
    assert _text_verdict(case, protocol, style, output, finish) is expected


# ----------------------------------------------------------------------------- call formats (issue 21)

W = ("get_weather", {"city": "Paris"})
# (family, output, expected calls)
CALLS: list[tuple[str, str, list[tuple[str, dict]]]] = [
    ("json", '{"name": "get_weather", "arguments": {"city": "Paris"}}', [W]),
    ("json", 'Let me check.\n{"name": "get_weather", "parameters": {"city": "Paris"}}', [W]),
    ("json", '```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```', [W]),
    ("json", '[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "arguments": {"timezone": "Europe/Paris"}}]',
     [W, ("get_time", {"timezone": "Europe/Paris"})]),
    ("openai", '{"tool_calls": [{"type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}]}', [W]),
    ("openai", '{"function_call": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}', [W]),
    ("gemini", '{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}', [W]),
    ("langchain", '{"action": "get_weather", "action_input": {"city": "Paris"}}', [W]),
    ("cohere", '[{"tool_name": "get_weather", "parameters": {"city": "Paris"}}]', [W]),
    ("hermes", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>', [W]),
    ("hermes", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>',
     [W, ("get_weather", {"city": "Rome"})]),
    ("qwen3", '<think>\nThe user wants weather, call the tool.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>', [W]),
    ("qwen3", "<think>\nI could answer with <tool_call>{\"name\": \"get_time\", \"arguments\": {}}</tool_call> but no.\n</think>\nIt is sunny.", []),
    ("qwen3-coder", "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>", [W]),
    ("qwen3-coder", "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</function>\n</tool_call>", [W]),
    ("qwen3-coder", "<tool_call>\n<function=convert_currency>\n<parameter=amount>\n250\n</parameter>\n<parameter=from_currency>\nUSD\n</parameter>\n<parameter=to_currency>\nEUR\n</parameter>\n</function>\n</tool_call>",
     [("convert_currency", {"amount": 250, "from_currency": "USD", "to_currency": "EUR"})]),
    ("llama3.1", '<function=get_weather>{"city": "Paris"}</function>', [W]),
    ("llama3.2", '{"type": "function", "name": "get_weather", "parameters": {"city": "Paris"}}', [W]),
    ("llama3.2", '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}', [W]),
    ("llama4", 'Checking now. <|python_start|>[get_weather(city="Paris")]<|python_end|>', [W]),
    ("pythonic", '[get_weather(city="Paris"), get_time(timezone="Asia/Tokyo")]', [W, ("get_time", {"timezone": "Asia/Tokyo"})]),
    ("pythonic", 'get_weather(city="Paris")', [W]),
    ("pythonic", '[set_timer(duration_seconds=300, label=null)]', [("set_timer", {"duration_seconds": 300})]),
    ("pythonic", 'You could write get_weather(city="Paris") in your own code, but I will just tell you: it is cloudy.', []),
    ("olmo3", "<function_calls>get_weather(city='Paris')</function_calls>", [W]),
    ("olmo3", "<function_calls>\nget_weather(city='Paris')\nget_weather(city='Rome')\n</function_calls>",
     [W, ("get_weather", {"city": "Rome"})]),
    ("mistral", '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]', [W]),
    ("mistral", '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}', [W]),
    ("mistral", '[TOOL_CALLS]get_weather{"city": "Paris"}', [W]),
    ("harmony", '<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>', [W]),
    ("harmony", '<|channel|>analysis to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>', [W]),
    ("harmony", '<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city":"Paris"}<|call|>', [W]),
    ("harmony", '<|channel|>analysis<|message|>Just chat.<|end|><|start|>assistant<|channel|>final<|message|>Hi there!<|return|>', []),
    ("harmony", '<|channel|>commentary to=browser.search <|constrain|>json<|message|>{"query": "Paris weather"}<|call|>',
     [("browser.search", {"query": "Paris weather"})]),   # gpt-oss's own browser tool: a call, not web_search
    ("multi_tool_use", '{"recipient_name": "multi_tool_use.parallel", "parameters": {"tool_uses": [{"recipient_name": "functions.get_weather", "parameters": {"city": "Paris"}}, {"recipient_name": "functions.get_weather", "parameters": {"city": "Rome"}}]}}',
     [W, ("get_weather", {"city": "Rome"})]),
    ("deepseek-v3", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>", [W]),
    ("deepseek-v3.1", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>", [W]),
    ("deepseek-r1", "Okay, weather needed.\n</think>\n\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>", [W]),
    ("dsml", '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>', [W]),
    ("dsml", '<｜DSML｜function_calls>\n<｜DSML｜invoke name="set_timer">\n<｜DSML｜parameter name="duration_seconds" string="false">600</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>', [("set_timer", {"duration_seconds": 600})]),
    ("invoke", '<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n</function_calls>', [W]),
    ("invoke", '<invoke name="get_weather">\n<parameter name="city" string="true">Paris</parameter>\n</invoke>', [W]),
    ("kimi", "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_calls_section_end|>", [W]),
    ("kimi", "<think>Let me look.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_calls_section_end|>", [W]),
    ("kimi", "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Par<|tool_call_end|><|tool_call_begin|>functions.get_weather:1<|tool_call_argument_begin|>{\"city\": \"Rome\"}<|tool_call_end|><|tool_calls_section_end|>",
     [("get_weather", {"city": "Rome"})]),
    ("glm4.5", "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>", [W]),
    ("glm4.7", "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>", [W]),
    ("minicpm4", '<function name="get_weather"><param name="city">Paris</param></function>', [W]),
    ("lfm2", '<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>', [W]),
    ("functionary", '>>>get_weather\n{"city": "Paris"}', [W]),
    ("functionary", '>>>all\nIt is sunny in Paris today, I think.', []),
    ("name-as-key", '<tool_call>[{"get_weather": {"city": "Paris"}}]</tool_call>', [W]),
    ("apertus", '<|tools_prefix|>[{"get_weather": {"city": "Paris"}}]<|tools_suffix|>', [W]),
    ("granite", '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]', [W]),
    ("internlm", '<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"city": "Paris"}}<|action_end|>', [W]),
    ("jamba", '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>', [W]),
    ("phi4mini", 'functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]', [W]),
    ("nemotron", '<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</TOOLCALL>', [W]),
    ("minimax", '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n</minimax:tool_call>', [W]),
    ("xlam", '[{"name": "get_weather", "arguments": {"city": "Paris"}}]', [W]),
    ("gemma", '```tool_code\nget_weather(city="Paris")\n```', [W]),
    ("react", 'Thought: I need the weather.\nAction: get_weather\nAction Input: {"city": "Paris"}', [W]),
    ("react", "Thought: I know this.\nFinal Answer: Paris is the capital of France.", []),
    ("plain", "TOOL get_weather | city=Paris", [W]),
    ("plain", "TOOL set_timer | duration_seconds=300 | label=tea", [("set_timer", {"duration_seconds": 300, "label": "tea"})]),
    ("plain", "TOOL RESULT get_weather | city=Paris", []),
    ("plain", "Sure.\nTOOL get_weather | city=Paris", [W]),
    ("xml", "<tool_call>\n<function=set_timer>\n<parameter=duration_seconds>\n300\n</parameter>\n</function>\n</tool_call>", [("set_timer", {"duration_seconds": 300})]),
    ("xml", "<tool_call>\n<function=get_weather>\n<parameter=city>\nSão Paulo\n</parameter>\n</function>\n</tool_call>", [("get_weather", {"city": "São Paulo"})]),
    ("python-dict", "{'name': 'get_weather', 'arguments': {'city': 'Paris'}}", [W]),
    ("namespace", '{"name": "functions.get_weather", "arguments": {"city": "Paris"}}', [W]),
    ("namespace", '{"name": "default_api.get_weather", "arguments": {"city": "Paris"}}', [W]),
    ("string-args", '{"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}', [W]),
    ("twice", '{"name": "get_weather", "arguments": {"city": "Paris"}}\n{"name": "get_weather", "arguments": {"city": "Paris"}}', [W, W]),
    ("example", 'For example, a call would look like:\n```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```', []),
    ("schema", '{"name": "get_weather", "description": "Current weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}', []),
    ("template", '{"name": "get_weather", "arguments": {"city": "<city>"}}', []),
    ("tools-list", '{"tools": ["get_weather", "calculator"]}', []),
    ("prose", "The weather in Paris is usually mild in May.", []),
    ("prose", "I'd call get_weather with the city Paris, but you asked me not to.", []),
    ("answer-object", '{"response": "It is sunny."}', []),
    ("answer-object", '{"name": "final_answer", "arguments": {"answer": "Hello!"}}', []),
    ("calc", '{"name": "calculator", "arguments": {"expression": "348*27"}}', [("calculator", {"expression": "348*27"})]),
    ("calc", '<tool_call>\n{"name": "calculator", "arguments": {"expression": "(12+8)*3"}}\n</tool_call>', [("calculator", {"expression": "(12+8)*3"})]),
    ("ru", '{"name": "save_note", "arguments": {"text": "Позвонить маме в воскресенье"}}', [("save_note", {"text": "Позвонить маме в воскресенье"})]),
    ("ru-xml", "<tool_call>\n<function=translate>\n<parameter=text>\nСпасибо за помощь\n</parameter>\n<parameter=target_language>\nde\n</parameter>\n</function>\n</tool_call>",
     [("translate", {"text": "Спасибо за помощь", "target_language": "de"})]),
    ("step3", '<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather"><steptml:parameter name="city">Paris</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>', [W]),
    ("seed-oss", "<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n</function>\n</seed:tool_call>", [W]),
    ("hunyuan", '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>', [W]),
    ("gigachat", 'function call{"name": "get_weather", "arguments": {"city": "Paris"}}', [W]),
    ("command-r", 'Action: ```json\n[{"tool_name": "get_weather", "parameters": {"city": "Paris"}}]\n```', [W]),
    ("longcat", '<longcat_tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</longcat_tool_call>', [W]),
    ("ernie", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>', [W]),
    ("broken", '{"name": "get_weather", "arguments": {"city": "Paris"', []),
    ("broken", '<tool_call>\n{"name": "get_weather", "arguments": {city: Paris}}\n</tool_call>', []),
    ("numbers", '{"name": "convert_units", "arguments": {"value": 26.2, "from_unit": "mi", "to_unit": "km"}}', [("convert_units", {"value": 26.2, "from_unit": "mi", "to_unit": "km"})]),
    ("bools", '[get_weather(city="Paris", unit=null)]', [W]),
    ("gemma4", '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>', [W]),
    ("functiongemma", '<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>', [W]),
    ("xml-multi", "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n<parameter=timezone>\nEurope/Rome\n</parameter>\n</function>\n</tool_call>",
     [W, ("get_time", {"timezone": "Europe/Rome"})]),
]

CALLS3: list[tuple[str, str, list[tuple[str, dict]]]] = [
    ("hermes", 'I\'ll check that.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n</tool_call>', [("get_weather", {"city": "Paris", "unit": "celsius"})]),
    ("qwen3", "<think>\nNeed the time and the weather.\n</think>\n<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"timezone\": \"Europe/Paris\"}}\n</tool_call>", [("get_time", {"timezone": "Europe/Paris"})]),
    ("llama3.1", '<function=calculator>{"expression": "2+2"}</function>', [("calculator", {"expression": "2+2"})]),
    ("llama3.2", '[get_weather(city="Paris"), calculator(expression="3*4")]', [W, ("calculator", {"expression": "3*4"})]),
    ("mistral", '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_weather", "arguments": {"city": "Lyon"}}]', [W, ("get_weather", {"city": "Lyon"})]),
    ("mistral-v11", '[TOOL_CALLS]get_weather[CALL_ID]abc123456[ARGS]{"city": "Paris"}', [W]),
    ("harmony", '<|start|>assistant to=functions.calculator<|channel|>commentary <|constrain|>json<|message|>{"expression": "7*8"}<|call|>', [("calculator", {"expression": "7*8"})]),
    ("deepseek-v3.1", "<think>Need weather.</think><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>", [W]),
    ("kimi", "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_call_begin|>functions.get_time:1<|tool_call_argument_begin|>{\"timezone\": \"Asia/Tokyo\"}<|tool_call_end|><|tool_calls_section_end|>", [W, ("get_time", {"timezone": "Asia/Tokyo"})]),
    ("glm4.5", "Let me check.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>unit</arg_key>\n<arg_value>celsius</arg_value>\n</tool_call>", [("get_weather", {"city": "Paris", "unit": "celsius"})]),
    ("qwen3-coder", "<tool_call>\n<function=set_timer>\n<parameter=duration_seconds>\n600\n</parameter>\n<parameter=label>\npasta\n</parameter>\n</function>\n</tool_call>", [("set_timer", {"duration_seconds": 600, "label": "pasta"})]),
    ("dsml-ascii", '<|DSML|function_calls>\n<|DSML|invoke name="get_weather">\n<|DSML|parameter name="city" string="true">Paris</|DSML|parameter>\n</|DSML|invoke>\n</|DSML|function_calls>', [W]),
    ("minimax", '<minimax:tool_call>\n<invoke name="calculator">\n<parameter name="expression">1500/12</parameter>\n</invoke>\n</minimax:tool_call>', [("calculator", {"expression": "1500/12"})]),
    ("functionary", '>>>calculator\n{"expression": "348*27"}', [("calculator", {"expression": "348*27"})]),
    ("olmo3", "<function_calls>\nget_weather(city='Paris')\n</function_calls>", [W]),
    ("pythonic-json-literals", '[set_timer(duration_seconds=60, label="eggs"), get_weather(city="Paris", unit=null)]', [("set_timer", {"duration_seconds": 60, "label": "eggs"}), W]),
    ("react", 'Thought: weather lookup\nAction: get_weather\nAction Input: {"city": "Paris"}\nObservation:', [W]),
    ("gemini", '{"functionCall": {"name": "calculator", "args": {"expression": "2**10"}}}', [("calculator", {"expression": "2**10"})]),
    ("openai-array", '[{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}}]', [W]),
    ("prose-only", "Sure! To get the weather, I would need to call a tool, but here it is from memory: Paris is mild.", []),
    ("example-ru", 'Например, вызов выглядит так:\n```json\n{"name": "get_weather", "arguments": {"city": "Москва"}}\n```', []),
    ("broken-then-good", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>', [("get_weather", {"city": "Rome"})]),
    ("plain-ru", "TOOL save_note | text=Позвонить маме в воскресенье", [("save_note", {"text": "Позвонить маме в воскресенье"})]),
    ("xml-number", "<tool_call>\n<function=convert_units>\n<parameter=value>\n26.2\n</parameter>\n<parameter=from_unit>\nmi\n</parameter>\n<parameter=to_unit>\nkm\n</parameter>\n</function>\n</tool_call>", [("convert_units", {"value": 26.2, "from_unit": "mi", "to_unit": "km"})]),
    ("nemotron", '<TOOLCALL>[{"name": "calculator", "arguments": {"expression": "57/5"}}]</TOOLCALL>', [("calculator", {"expression": "57/5"})]),
]
CALLS += CALLS3


def _same(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return float(a) == float(b)
    return a == b


def _calls_agree(output: str, expected: list[tuple[str, dict]]) -> bool:
    got = [(c.name.removeprefix("functions.").removeprefix("default_api."), {k: v for k, v in c.arguments.items() if v is not None}) for c in extract(output).calls]
    if len(got) != len(expected):
        return False
    return all(gn == en and set(ga) == set(ea) and all(_same(ga[k], ea[k]) for k in ea)
               for (gn, ga), (en, ea) in zip(got, expected))


@pytest.mark.parametrize("family,output,expected", CALLS, ids=[f"{r[0]}-{n}" for n, r in enumerate(CALLS)])
def test_call_format(family, output, expected):
    assert _calls_agree(output, expected), extract(output).as_dict()


def _round(base_index: int) -> int:
    """The round a base answer was written in (1-5: each round before the fixes of the round after it)."""
    firsts = [len(BASE) - len(BASE2) - len(BASE3) - len(BASE4) - len(BASE5), len(BASE2), len(BASE3), len(BASE4)]
    bounds = list(itertools.accumulate(firsts))
    return 1 + sum(base_index >= b for b in bounds)


def agreement() -> None:
    """Print every disagreement, then the agreement per round and kind (text) and overall (calls)."""
    per: dict[tuple[str, str], Counter] = {}
    rows = iter(TEXT_ROWS)
    row = next(rows, None)
    for i, base in enumerate(BASE):
        while row is not None and row[1:3] == base[1:3] and row[4] == base[3]:
            kind, case, protocol, style, output, finish, expected = row
            ok = _text_verdict(case, protocol, style, output, finish) is expected
            for key in ((str(_round(i)), str(kind)), (str(_round(i)), "text"), ("all", str(kind)), ("all", "text")):
                per.setdefault(key, Counter())[ok] += 1
            if not ok:
                print(f"TEXT k{kind} {case} {protocol} {style} expected={expected}: {output[:110]!r}")
            row = next(rows, None)
    for n, (fam, out, exp) in enumerate(CALLS):
        ok = _calls_agree(out, exp)
        for key in (("1" if n < len(CALLS) - len(CALLS3) else "3", "calls"), ("all", "calls")):
            per.setdefault(key, Counter())[ok] += 1
        if not ok:
            print(f"CALL {fam}: {out[:110]!r} -> {extract(out).as_dict()['calls']}")
    for (rnd, kind), c in sorted(per.items(), key=lambda kv: (kv[0][0], len(kv[0][1]), kv[0][1])):
        print(f"round {rnd:>3} {kind:>5}: {c[True]}/{c[True] + c[False]} = {c[True] / (c[True] + c[False]):.3f}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    agreement()
