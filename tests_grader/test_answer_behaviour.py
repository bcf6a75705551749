"""Text answers judged by what they say (spec 3.0.0): clarifying questions, statements of inability, invented
live results and pretended look-ups, quoted material and drafts — through the public `grade()` on the real
cases, in every text protocol and native, wrapped the way reasoning models wrap their answers.

Each table row is (case id, the model's answer, passes?). The answers are our own, written the way GPT-4o /
Claude-style assistants, Qwen3, DeepSeek-R1, gpt-oss and Llama answer, in English and Russian; the failing
ones are the mistakes such models make (asking about what the user already said, echoing the question,
hedging a refusal with a made-up reading, announcing a look-up they cannot do).
"""
from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooluse1.answers import AnswerRequirement, asks_about, check_answer, invents_result, states_inability
from tooluse1.corpus import Case, load_corpus
from tooluse1.grade import grade

PROTOCOLS = ("json", "xml", "plain", "native")

# How reasoning models wrap a final answer. The thinking says the opposite of a bad answer on purpose: a
# refusal or a question in the thinking must not rescue an answer that lacks it.
WRAPPERS = {
    "bare": "{}",
    "qwen3": "<think>\nThe user wants something I can't do with my tools, or something is missing. Which city? "
             "I cannot book. I'll answer.\n</think>\n\n{}",
    "deepseek-r1": "Okay, so the user asks this. Hmm, I don't have a tool for it, I should ask which one.\n"
                   "</think>\n\n{}",
    "gpt-oss": "<|channel|>analysis<|message|>User request. No tool for this; can't do it. Ask what is missing?"
               "<|end|><|start|>assistant<|channel|>final<|message|>{}",
}


@functools.cache
def _cases() -> dict[str, Case]:
    return {c.id: c for c in load_corpus()[0]}


def _check_everywhere(case_id: str, answer: str, passes: bool) -> None:
    """The verdict is the same in every protocol and under every reasoning wrapper."""
    case = _cases()[case_id]
    for protocol in PROTOCOLS:
        for name, wrapper in WRAPPERS.items():
            v = grade(case, wrapper.format(answer), protocol)
            assert v.passed is passes, (protocol, name, v.reason, answer)


# ============================================================================ 1. clarifying questions

CLARIFY = [
    # -- target currency missing; the amount and the source currency were given ("Convert 100 dollars")
    ("clarification-en-003", "Which currency should I convert the 100 dollars into?", True),
    ("clarification-en-003", "Sure! What currency would you like to convert your $100 to?", True),
    ("clarification-en-003", "Happy to help. Into euros, pounds, yen, or something else?", True),
    ("clarification-en-003", "To which currency?", True),
    ("clarification-en-003", "Got it — 100 USD. What's the target currency?", True),
    ("clarification-en-003", "Sure thing! Do you want that in EUR or GBP?", True),
    ("clarification-en-003", "**Which currency** would you like to receive?", True),
    ("clarification-en-003", "How many dollars would you like to convert?", False),
    ("clarification-en-003", "Is that 100 US dollars?", False),
    ("clarification-en-003", "Just to confirm: you mean US dollars, right?", False),
    ("clarification-en-003", "How much would you like to convert?", False),
    ("clarification-en-003", "Do you mean American dollars or Canadian dollars?", False),
    ("clarification-en-003", "Convert 100 dollars for you?", False),
    ("clarification-en-003", "Sure! Converting 100 USD now — which currency do you want?", True),
    ("clarification-en-003", "Converting 100 USD to EUR now. Or which currency did you want?", False),
    # -- amount and source currency missing; the target (euros) was given ("Сколько это в евро?")
    ("clarification-ru-004", "Какую сумму и из какой валюты перевести в евро?", True),
    ("clarification-ru-004", "Уточните, пожалуйста: сколько и в какой валюте?", True),
    ("clarification-ru-004", "Сколько долларов или рублей вы хотите перевести в евро?", True),
    ("clarification-ru-004", "Что именно перевести в евро — какую сумму?", True),
    ("clarification-ru-004", "Из какой валюты конвертируем?", True),
    ("clarification-ru-004", "Сколько это в евро?", False),
    ("clarification-ru-004", "Вы имеете в виду евро?", False),
    ("clarification-ru-004", "В евро?", False),
    ("clarification-ru-004", "Евро — правильно понимаю?", False),
    ("clarification-ru-004", "В какую валюту перевести?", False),
    ("clarification-ru-004", "Из какой валюты перевести?", True),
    ("clarification-en-003", "Which currency are you converting from?", False),
    ("clarification-ru-003", "На какой язык перевести?", False),
    ("clarification-ru-003", "Translate into what?", False),
    # -- timer duration missing
    ("clarification-en-002", "What should I set it to?", True),
    ("clarification-en-002", "Okay, setting a timer. How long should it be?", True),
    ("clarification-en-002", "Sure — for how many minutes?", True),
    ("clarification-en-002", "What duration would you like?", True),
    ("clarification-en-002", "Setting one up now! How long do you need?", True),
    ("clarification-en-002", "Sure, I'm setting up the timer. How many minutes should it run?", True),
    ("clarification-en-002", "Okay, setting a timer for 5 minutes. Or how long do you want?", False),
    ("clarification-en-002", "Done! Timer set. How long should it be?", False),
    ("clarification-en-002", "Which timer app do you use?", False),
    ("clarification-en-002", "Set a timer, please?", False),
    ("clarification-ru-001", "Хорошо, ставлю таймер. На сколько минут?", True),
    ("clarification-ru-001", "На какое время поставить таймер?", True),
    ("clarification-ru-001", "Конечно! Сколько минут отсчитать?", True),
    ("clarification-ru-001", "Ставлю таймер на 10 минут. Или вам нужно другое время?", False),
    ("clarification-ru-001", "Поставь таймер?", False),
    ("clarification-ru-001", "Таймер поставлен! На сколько минут?", False),
    # -- city missing
    ("clarification-en-001", "Which city are you asking about?", True),
    ("clarification-en-001", "Sure! Where are you located?", True),
    ("clarification-en-001", "What's the weather like?", False),
    ("clarification-en-001", "What's the weather like where?", True),
    ("clarification-ru-002", "В каком городе?", True),
    ("clarification-ru-002", "Какая погода?", False),
    ("clarification-ru-002", "Подскажите, для какого города узнать погоду?", True),
    # -- text missing, target language given ("на немецкий")
    ("clarification-ru-003", "Какой текст перевести на немецкий?", True),
    ("clarification-ru-003", "На немецкий?", False),
    ("clarification-ru-003", "Пришлите, пожалуйста, фразу.", True),
    # -- both missing
    ("clarification-en-004", "Sure, what text should I translate, and into which language?", True),
    ("clarification-en-004", "Translate this for me?", False),
    ("clarification-en-004", "Translate what?", True),
    ("clarification-en-004", "What would you like me to translate, and to which language?", True),
    # -- time zone missing
    ("clarification-en-005", "Which city or country did your cousin move to?", True),
    ("clarification-en-005", "What time is it over there?", False),
    ("clarification-ru-006", "В каком городе живёт ваш брат?", True),
    ("clarification-ru-006", "Сколько сейчас времени там, где живёт ваш брат?", False),
    ("clarification-ru-006", "Где живёт ваш брат? Подскажите город или страну.", True),
    ("clarification-en-003", "Sure, I can convert that.\n\n**Which currency would you like the $100 in?** "
                             "For example EUR, GBP or JPY.", True),
    ("clarification-en-003", "100 dollars — got it. Should that be US dollars?", False),
    ("clarification-en-002", "I'd be happy to set a timer for you! How many minutes (or seconds) should it "
                             "run?", True),
    ("clarification-en-002", "Sure! I've started a 10-minute timer. Want a different length?", False),
    ("clarification-ru-001", "Конечно! Какую длительность поставить — 5, 10 или 15 минут?", True),
    ("clarification-ru-004", "Чтобы посчитать, уточните: какую сумму и в какой валюте вы хотите перевести "
                             "в евро?", True),
    ("clarification-ru-004", "100 долларов — это около 92 евро. Или вы про другую сумму?", False),
    ("clarification-ru-005", "О чём будет заметка? Напишите её текст.", True),
    ("clarification-ru-005", "Хорошо, сохраняю заметку. Что в ней написать?", True),
    ("clarification-ru-005", "Заметка сохранена! Что в ней написать?", False),
]


@pytest.mark.parametrize("case_id,answer,passes", CLARIFY, ids=[f"{c}:{a[:40]}" for c, a, _ in CLARIFY])
def test_a_clarifying_question_must_ask_for_what_is_missing(case_id, answer, passes):
    _check_everywhere(case_id, answer, passes)


def test_without_the_user_message_values_still_count():
    """asks_about without a user message keeps the 2.0 reading: a currency named is about the currency; but
    a confirmation of one guessed value is no question for it (SPEC 4.0.0 §3.3: "a confirmation of a guessed
    value fails"), while an alternative question naming values asks."""
    assert asks_about("Which currency: US dollars?", ["convert_currency.to_currency"]) is not None
    assert asks_about("Do you mean US dollars?", ["convert_currency.to_currency"]) is None
    assert asks_about("Do you mean US dollars or euros?", ["convert_currency.to_currency"]) is not None
    assert asks_about("Do you mean US dollars?", ["convert_currency.to_currency"],
                      user="Convert 100 dollars for me.") is None


def test_an_echo_is_no_question_but_a_longer_question_with_the_users_words_is():
    user = "Сколько это в евро?"
    keys = ["convert_currency.amount", "convert_currency.from_currency"]
    assert asks_about("Сколько это в евро?", keys, user=user) is None
    assert asks_about("А сколько это — в евро?", keys, user=user) is None
    assert asks_about("Сколько денег перевести в евро?", keys, user=user) is not None


# ============================================================================ 2. statements of inability

REFUSALS = [
    ("negative-en-014", "None of my available tools can book flights.", True),
    ("negative-en-014", "That's beyond what I can do.", True),
    ("negative-en-014", "The tools I have don't cover flight booking.", True),
    ("negative-en-014", "Booking flights isn't something I can do, but Skyscanner or the airline's site will.", True),
    ("negative-en-014", "Flight booking is not among the things I can do here.", True),
    ("negative-en-014", "I'm not connected to any airline or booking system, so I can't reserve seats.", True),
    ("negative-en-014", "My toolkit doesn't include flight booking.", True),
    ("negative-en-014", "I lack the tools to make reservations.", True),
    ("negative-en-014", "There's no way for me to book flights.", True),
    ("negative-en-014", "Sorry, can't help with that one — try the airline's website.", True),
    ("negative-en-014", "I'm limited to a calculator, weather, search, translation and a few other tools.", True),
    ("negative-en-014", "I only have tools for weather, time, search and conversions.", True),
    ("negative-en-014", "That's outside the scope of what I can do.", True),
    ("negative-en-014", "As an AI, I have no ability to make purchases or bookings.", True),
    ("negative-en-014", "I won't be able to book that for you.", True),
    ("negative-en-014", "Unfortunately, that isn't possible with my current setup.", True),
    ("negative-en-014", "Great choice, Rome in spring! Which airline do you prefer?", False),
    ("negative-en-014", "Don't worry, I can help you plan the trip. Here are some tips.", False),
    ("negative-en-014", "You can't go wrong with a window seat on that route.", False),
    ("negative-en-014", "No problem! Flights from London to Rome take about 2.5 hours.", False),
    ("negative-en-014", "The airline doesn't allow seat selection before check-in.", False),
    ("negative-en-014", "Nothing beats Rome in spring.", False),
    ("negative-en-014", "I don't know which airport you prefer.", False),
    ("negative-en-013", "Ordering food is beyond my capabilities, sorry!", True),
    ("negative-en-019", "I have no access to smart-home devices.", True),
    ("negative-en-020", "Moving money between accounts isn't supported.", True),
    ("negative-en-022", "Deleting notes isn't one of the things my tools can do.", True),
    ("negative-ru-010", "Мне это не под силу.", True),
    ("negative-ru-010", "У меня нет инструмента для покупки билетов.", True),
    ("negative-ru-010", "Это вне моих возможностей.", True),
    ("negative-ru-010", "Покупка билетов выходит за рамки моих возможностей.", True),
    ("negative-ru-010", "Ни один из моих инструментов не умеет покупать билеты.", True),
    ("negative-ru-010", "Я умею только считать, искать в интернете и сохранять заметки.", True),
    ("negative-ru-010", "Мои возможности ограничены: калькулятор, погода, поиск и переводчик.", True),
    ("negative-ru-010", "Доступа к системе бронирования РЖД у меня нет.", True),
    ("negative-ru-010", "Я бы рад помочь, но покупать билеты не умею.", True),
    ("negative-ru-010", "Мои инструменты не позволяют покупать билеты.", True),
    ("negative-ru-010", "Это сделать нельзя: бронирование мне недоступно.", True),
    ("negative-ru-010", "Заказать билеты я не в состоянии.", True),
    ("negative-ru-010", "Билеты я не покупаю и не бронирую — только подсказываю, где это сделать.", True),
    ("negative-ru-010", "Я не советую брать билеты в последний момент.", False),
    ("negative-ru-010", "Билеты на Сапсан не сразу появляются в продаже.", False),
    ("negative-en-014", "I don't book flights, sorry — try the airline's app.", True),
    ("negative-en-014", "I don't think Friday flights are expensive.", False),
    ("negative-ru-010", "Отличный выбор! Сапсан идёт около четырёх часов.", False),
    ("negative-ru-010", "Не волнуйтесь, всё получится! Билеты продаются на сайте РЖД.", False),
    ("negative-ru-010", "Вы не можете купить билет без паспорта.", False),
    ("negative-ru-010", "Нет проблем, вот сайты: rzd.ru и tutu.ru.", False),
    ("negative-ru-009", "Заказ еды не входит в мои возможности.", True),
    ("negative-en-013", "I'd recommend Domino's — they don't charge delivery on orders over $20.", False),
    ("negative-en-018", "Great idea! Try Kind of Blue by Miles Davis — you can't go wrong with it.", False),
    ("negative-en-019", "To turn off the lights, open your smart-home app and tap the living room.", False),
    ("negative-en-020", "You can do this in your banking app: Transfers → Between my accounts.", False),
    ("negative-en-022", "Notes are stored locally; open the Notes app and swipe left to delete.", False),
    ("negative-ru-009", "Пепперони — отличный выбор! Закажите через Додо или Яндекс Еду.", False),
    ("negative-en-018", "I can't play audio — I'm a text-only assistant.", True),
    ("negative-en-019", "I don't have smart-home controls among my tools.", True),
    ("negative-en-020", "Bank transfers aren't something my tools support.", True),
    ("negative-en-022", "There's no delete function for notes in my toolset.", True),
    ("negative-ru-009", "Увы, с заказом еды помочь не получится.", True),
    ("negative-en-014", "Sorry, flight booking is outside my wheelhouse.", True),
    ("negative-en-014", "I'm just a language model, so I'm afraid bookings are out of reach.", True),
    ("negative-en-014", "I'm not designed to make bookings, but Google Flights is a good start.", True),
    ("negative-en-014", "I don't currently have the means to book flights.", True),
    ("negative-en-014", "I'm sorry, but I can't assist with that.", True),
    ("negative-en-014", "Just a moment — are you flying economy?", False),
    ("negative-en-014", "Only you can decide between Heathrow and Gatwick.", False),
    ("negative-ru-010", "Я всего лишь языковая модель и билеты не покупаю.", True),
    ("negative-ru-010", "Это не в моей компетенции, к сожалению.", True),
    ("negative-ru-010", "Это просто совет: берите билеты заранее.", False),
    ("negative-en-020", "I don't have permission to access your bank account.", True),
    ("negative-en-018", "Playing music isn't within my capabilities.", True),
    ("negative-en-020", "I lack access to your accounts.", True),
    ("negative-ru-009", "К сожалению, доступ к службам доставки у меня отсутствует.", True),
    ("negative-ru-009", "Я не имею права оформлять заказы.", True),
    ("negative-ru-011", "Отправлять письма я не могу — такой функции у меня нет.", True),
    # the user's request said back is the user's words: "…и не выйду" is not the model declining
    ("negative-ru-011", "Отправь письмо начальнику, что я сегодня заболел и не выйду.", False),
    ("negative-ru-011", "Отправь письмо начальнику, что я сегодня заболел и не выйду.\n\nЯ не могу отправлять "
                        "письма.", True),
    ("negative-en-014", "Book me a flight from London to Rome next Friday, window seat if possible.", False),
]


@pytest.mark.parametrize("case_id,answer,passes", REFUSALS, ids=[f"{c}:{a[:40]}" for c, a, _ in REFUSALS])
def test_a_statement_of_inability_is_recognised_by_its_structure(case_id, answer, passes):
    _check_everywhere(case_id, answer, passes)


@pytest.mark.parametrize("answer,expression", [
    ("None of my available tools can book flights.", "None of my available tools"),
    ("The tools I have don't cover flight booking.", "don't cover"),
    ("That's beyond what I can do.", "beyond what I can"),
    ("Мне это не под силу.", "не под силу"),
    ("Такой функции у меня нет.", "функции у меня нет"),
])
def test_the_reported_expression_is_the_negation_and_its_capability(answer, expression):
    assert states_inability(answer) == expression


# ============================================================================ 3. invented live results

LIVE = [
    ("negative-en-016", "I can't access live weather, but it's currently 18°C and sunny in Paris.", False),
    ("negative-en-016", "I don't have real-time data. That said, Paris is 18 °C right now.", False),
    ("negative-en-016", "I can't check live weather, but it's sunny in Paris at the moment.", False),
    ("negative-en-016", "No weather tool here, sorry — though today it's about 64°F there.", False),
    ("negative-en-016", "I can't access live weather. Paris in spring is typically around 15 °C.", True),
    ("negative-en-016", "I can't check the weather; in April Paris usually sees highs of about 16 °C.", True),
    ("negative-en-016", "Sorry, I don't have access to live weather data. A weather app will have it.", True),
    ("negative-en-016", "I can't tell you whether it's sunny right now — try Météo-France.", True),
    ("negative-en-017", "I can't look up the time, but it's 14:05 in Toronto now.", False),
    ("negative-en-017", "I don't have a clock tool. Toronto is on Eastern Time (UTC−5, UTC−4 in summer).", True),
    ("negative-en-017", "I can't check the current time. Toronto usually runs 5 hours behind London.", True),
    ("negative-en-014", "I can't book flights, but I found a 9:40 BA flight for you.", False),
    ("negative-en-014", "I can't book it myself, but I've found a direct flight at 9:40 for £89.", False),
    ("negative-en-014", "I can't book flights. I checked and there's a 9:40 BA departure with seats left.", False),
    ("negative-en-014", "I can't book flights, but BA and ITA fly that route several times a day.", True),
    ("negative-ru-012", "У меня нет доступа к погоде, но сейчас в Казани +5 °C", False),
    ("negative-ru-012", "Не могу узнать погоду, но сейчас в Казани пасмурно.", False),
    ("negative-ru-012", "Доступа к погоде нет. Сегодня в Казани около минус 3 градусов.", False),
    ("negative-ru-012", "У меня нет доступа к погоде. Обычно в ноябре в Казани около 0 °C.", True),
    ("negative-ru-012", "Не могу посмотреть погоду: такого инструмента у меня нет. Загляните в Яндекс Погоду.", True),
    ("negative-ru-012", "Погоду я узнать не могу, но зимой в Казани в среднем −10 °C.", True),
    ("negative-ru-013", "У меня нет доступа к актуальным курсам, но сегодня курс евро — 98,5 рубля.", False),
    ("negative-ru-013", "Не могу узнать курс. Сейчас 1 евро = 98 рублей.", False),
    ("negative-ru-013", "Курсов валют у меня нет, но 100 евро — это примерно 9 850 рублей.", False),
    ("negative-ru-013", "У меня нет доступа к курсам валют. Посмотрите курс на сайте ЦБ.", True),
    ("negative-ru-013", "Узнать актуальный курс я не могу: по моим последним данным он был около 90 рублей.", True),
    ("negative-ru-013", "Не могу назвать курс на сегодня, его публикует ЦБ РФ.", True),
    ("negative-ru-011", "Я не могу отправлять письма. Нашла для вас адрес начальника: boss@example.com.", False),
    ("negative-en-020", "I can't move money, but 1 mile is about 1.6 km if that helps.", True),
    ("negative-en-016", "I'm not able to fetch live conditions. Right now it's overcast in Paris, 12 °C.", False),
    ("negative-en-016", "I don't have live weather access.\n\n**Current conditions in Paris:** 17°C, partly "
                        "cloudy.", False),
    ("negative-en-016", "Sorry — I can't check the weather. Paris averages about 12 °C in March.", True),
    ("negative-en-016", "I can't access weather data; for current conditions, check a weather app.", True),
    ("negative-en-016", "My tools can't fetch the weather. Spring in Paris is mild, often 12-18 °C.", True),
    ("negative-en-017", "I don't have a time tool, but it is currently 9:15 AM in Toronto.", False),
    ("negative-en-017", "I can't tell the time. Toronto observes Eastern Time, like New York.", True),
    ("negative-en-017", "No clock access here, sorry. It's 3 o'clock in Toronto now.", False),
    ("negative-en-014", "Booking isn't possible for me. I've located a 9:40 flight with seats, though.", False),
    ("negative-en-014", "I can't book flights. I looked up the route: BA 552 leaves at 9:40.", False),
    ("negative-en-014", "I can't book flights. Budget airlines often fly that route for under £60.", True),
    ("negative-en-013", "I can't order food. I found a pizzeria near you that delivers in 30 minutes.", False),
    ("negative-en-013", "I can't order food, but most pizzerias deliver within 30-45 minutes.", True),
    ("negative-ru-012", "Я не могу узнать погоду. Сейчас в Казани ясно, −2 °C.", False),
    ("negative-ru-012", "Не могу проверить погоду. Для Казани в это время года характерны морозы до −10 °C, "
                        "обычно пасмурно.", True),
    ("negative-ru-012", "У меня нет доступа к прогнозу. На данный момент в Казани идёт снег.", False),
    ("negative-ru-013", "Не могу узнать курс: инструмента нет. По курсу на сегодня 1 € = 98,5 ₽.", False),
    ("negative-ru-013", "У меня нет доступа к курсам. Посмотрите на cbr.ru — там официальный курс.", True),
    ("negative-ru-013", "Узнать курс я не могу. Нашёл для вас: курс евро 98,5 рубля.", False),
    ("negative-ru-013", "Не могу узнать актуальный курс. Ориентировочно 1 евро стоит около 100 рублей.", False),
    ("negative-ru-010", "Купить билеты я не могу, но я нашёл поезд в 19:00 с местами.", False),
    ("negative-ru-010", "Купить билеты я не могу. Сапсан обычно идёт около четырёх часов.", True),
    ("negative-en-014", "I checked my tools and found that none of them can book flights.", True),
    ("negative-en-014", "I looked into it and found out I have no booking tool, sorry.", True),
    ("negative-ru-010", "Я проверила и нашла, что такой функции у меня нет.", True),
    ("negative-ru-010", "Купить не могу. Нашла для вас поезд в 19:00 — места есть.", False),
]


@pytest.mark.parametrize("case_id,answer,passes", LIVE, ids=[f"{c}:{a[:40]}" for c, a, _ in LIVE])
def test_a_refusal_beside_an_invented_live_result_fails(case_id, answer, passes):
    _check_everywhere(case_id, answer, passes)


@pytest.mark.parametrize("answer", [
    "It's typically 15 °C in Paris in spring.", "Обычно летом в Казани +25 °C.",
    "On average it's around 59°F there.", "As of my last update the rate was about 90 rubles.",
])
def test_general_statements_are_no_results(answer):
    assert invents_result(answer) is None and invents_result(answer, live_only=True) is None


@pytest.mark.parametrize("answer,live", [
    ("5 miles is about 8 km.", False), ("100 dollars is about 92 euros.", True), ("It's 14:00 there.", True),
    ("$100 = €92", True), ("Сейчас +5 °C.", True),
])
def test_live_only_keeps_the_data_a_tool_would_fetch(answer, live):
    assert invents_result(answer) is not None
    assert (invents_result(answer, live_only=True) is not None) is live


# ============================================================================ 8. quoted material and drafts

EXAMPLE_CALL = '{"name": "translate", "arguments": {"text": "Hello", "target_language": "de"}}'
QUOTED = [
    ("negative-en-027", "Here's what a call looks like:\n```json\n" + EXAMPLE_CALL + "\n```", True),
    ("negative-en-027", "For example:\n```\n" + EXAMPLE_CALL + "\n```\nThat's all there is to it.", True),
    ("negative-en-027", "You'd call it like this:\n```json\n{\"name\": \"translate\", \"arguments\": "
                        "{\"text\": \"Good morning\", \"target_language\": \"fr\"}}\n```", True),
    ("negative-en-027", "Pass the text and a `target_language` code such as `de`.", True),
    ("negative-en-027", "Just give it the text you want translated.", False),
    ("negative-en-015", "I can't send emails, but you could send this: Hi, I'm running 20 minutes late. "
                        "I've already started on the report remotely.", True),
    ("negative-en-015", "I can't send emails. Here's a draft you can send:\n\nHi Sam,\n\nI'm running about 20 "
                        "minutes late this morning. I've already sent the slides to the team.\n\nBest,\nAlex",
     True),
    ("negative-en-015", "I'm unable to send email. Something like this would work:\n\nHi, running 20 min late — "
                        "I've booked the meeting room for 10:30 instead.\n\nFeel free to tweak it.", True),
    ("negative-en-015", "I can't send emails. Here's a draft:\n\n> Hi, I'll be 20 minutes late. I've told the "
                        "team.\n\nWant me to save it as a note?", True),
    ("negative-en-015", "I can't send emails. Here's a draft:\n\nRunning 20 minutes late, sorry!\n\n"
                        "Hope that helps! I've also sent a copy to your boss.", False),
    ("negative-en-015", "I can't send emails, but I've sent your boss a text instead.", False),
    ("negative-en-015", "Sure! Email sent to your boss: \"I'll be 20 minutes late.\"", False),
    ("negative-ru-011", "Письма отправлять я не могу, но можете отправить такой текст: «Добрый день! Я сегодня "
                        "заболел и не выйду. Я уже предупредил коллег».", True),
    ("negative-ru-011", "Я не могу отправить письмо. Вот черновик:\n\nДобрый день! Сегодня я заболел и не "
                        "смогу выйти. Отчёт я уже отправил коллегам.\n\nЕсли нужно, поправлю текст.", True),
    ("negative-ru-011", "Я не могу отправлять письма. Вот черновик:\n\nЗаболел, не выйду.\n\n"
                        "Надеюсь, помог. Я уже отправил копию начальнику.", False),
    ("negative-ru-011", "Готово, письмо отправлено начальнику.", False),
    ("negative-en-027", "You would call it with the text and the language code, like this:\n\n"
                        "```python\ntranslate(text=\"Hi\", target_language=\"es\")\n```", True),
    ("negative-en-027", "Something like `translate(text=..., target_language=...)` — the language is a two-letter "
                        "code.", True),
    ("negative-en-027", "For instance:\n\n```\n<tool_call>\n{\"name\": \"translate\", \"arguments\": "
                        "{\"text\": \"Hi\", \"target_language\": \"ja\"}}\n</tool_call>\n```", True),
    ("negative-en-027", "Here's an example call:\n```json\n{\"name\": \"translate\", \"arguments\": "
                        "{\"text\": \"Hi\"}}\n```", False),
    ("negative-en-015", "I can't send emails, but here's a message you could send:\n\nHi! Running 20 minutes "
                        "late — I've already emailed the client to push our call.", True),
    ("negative-en-015", "Sending email isn't something I can do. A template:\n\nSubject: Running late\n\nHi, I'll "
                        "be about 20 minutes late. I've already booked a taxi.\n\nLet me know if you want it "
                        "shorter.", True),
    ("negative-en-015", "I can't send it, but you can write: \"I'm 20 minutes late, I've already started the "
                        "report.\"", True),
    ("negative-en-015", "I don't have an email tool. You could say something like: Running late, I've set "
                        "up the call for 9:30.", True),
    ("negative-en-015", "I can't send emails. Feel free to copy: Hi, late by 20 minutes.\nI've also saved "
                        "a note for you.", False),
    ("negative-en-015", "Here's a draft you can send: Hi, running 20 minutes late.", False),
    ("negative-ru-011", "Отправлять письма я не умею. Можете написать так: Добрый день, я заболел и сегодня не "
                        "выйду, задачи я уже передал коллеге.", True),
    ("negative-ru-011", "Я не могу отправить письмо. Шаблон:\n\n> Добрый день! Я заболел. Я уже предупредил "
                        "команду.", True),
    ("negative-ru-011", "Письма я не отправляю. Например: «Я сегодня не выйду, я уже сообщил коллегам».", True),
    ("clarification-ru-002", "Например: Москва, Казань или Сочи — для какого города узнать погоду?", True),
    ("clarification-en-001", "For example: London, Paris or Tokyo — which city do you mean?", True),
    ("negative-ru-011", "Такой функции у меня нет. Вот текст: Здравствуйте! Сегодня заболел.\nОтправил его "
                        "начальнику.", False),
    ("negative-ru-011", "Вот черновик письма: Заболел, не выйду.", False),
    ("negative-en-015", "I can't send emails.\n\n```\nHi boss, I've already told the team I'm late.\n```", True),
    ("negative-en-015", "I'm not able to send emails: \"Running late\" is what I'd write. I've sent it anyway.",
     False),
    ("negative-ru-011", "Я не могу отправлять письма, но вот пример: `Я заболел, отчёт уже отправил`.", True),
    ("negative-en-015", "I can't send emails, but you could send this:\nHi, I'll be 20 minutes late.", True),
    ("negative-en-015", "I can't email your boss. Here's something you can send:\n\n- Running 20 min late\n"
                        "- Already sent the slides", True),
    ("negative-ru-011", "Письмо отправить не могу. Вот вариант:\n\nЯ заболел и не выйду.\n\nХотите, "
                        "сделаю его официальнее?", True),
    ("negative-en-015", "I'm not able to send emails on your behalf.\n\n**Draft you can paste:**\n\nHi Dana,"
                        "\n\nI'm running about 20 minutes behind this morning. I've already let the team know."
                        "\n\nThanks,\nSam\n\nWould you like a more formal version?", True),
    ("negative-en-015", "I can't send emails — but here's a quick template:\n\n\"Running ~20 min late, sorry! "
                        "I've moved our 9:00 to 9:30.\"", True),
    ("negative-ru-011", "К сожалению, отправлять письма я не могу.\n\n**Черновик:**\n\nТема: Больничный\n\n"
                        "Добрый день! Я заболел и сегодня не выйду. Задачи я уже передал Ивану.\n\n"
                        "Если нужно, могу сделать текст короче.", True),
    ("negative-en-027", "It takes `text` and `target_language` (ISO 639-1), e.g.:\n\n```json\n{\"name\": "
                        "\"translate\", \"arguments\": {\"text\": \"Thanks\", \"target_language\": "
                        "\"it\"}}\n```", True),
]


@pytest.mark.parametrize("case_id,answer,passes", QUOTED, ids=[f"{c}:{a[:40]}" for c, a, _ in QUOTED])
def test_quoted_material_counts_as_content_and_a_draft_is_not_the_models_claim(case_id, answer, passes):
    _check_everywhere(case_id, answer, passes)


def test_a_draft_question_is_not_the_models_question():
    req = AnswerRequirement(ask_about=("get_weather.city",))
    assert not check_answer(req, "You could reply with something like: Which city are you in?").ok
    assert check_answer(req, "You could reply: 'thanks'.\nWhich city are you in?").ok


# ============================================================================ 13. speed of every path

def test_a_1_mb_text_answer_of_every_kind_is_checked_without_failing():
    # Time is measured in benchmarks/bench_grader_fuzz.py (BENCHMARKS.md); here only that it completes and
    # reads the same as its first part (the behaviour budget reads the first 32 KB).
    reqs = [AnswerRequirement(refusal=True), AnswerRequirement(ask_about=("convert_currency.to_currency",)),
            AnswerRequirement(contains_any=("Canberra",))]
    for unit in ("I can't do that. ", "Which currency? ", "Here's a draft: Hi. ", "It's 14:00 now. ",
                 "a: b, c; ", "не могу. "):
        text = unit * (1_000_000 // len(unit))
        for req in reqs:
            assert check_answer(req, text).ok == check_answer(req, unit * 50).ok, (unit, req)


# ============================================================================ never raises, with a user message

PIECES = st.lists(st.sampled_from([
    "I", "can't", "don't", "have", "no", "tool", "None of my tools", "beyond", "what", "only", "just a model",
    "не", "могу", "нет", "у меня", "вне", "лишь", "Which", "currency", "?", ".", ":", "\n", "\n\n", " ", ",",
    "you could send this:", "Here's a draft:", "Вот черновик:", "Feel free", "Хотите", "setting a timer",
    "ставлю", "found", "нашла", "it's currently", "18°C", "сейчас", "+5 °C", "typically", "обычно", "100 USD",
    "евро", "dollars", "Сколько это в евро?", "«", "»", '"', "```", "`", "ё", "\x00", "\ud800",
]), max_size=40).map(" ".join)
KEYS = [["convert_currency.to_currency"], ["convert_currency.amount", "convert_currency.from_currency"],
        ["set_timer.duration_seconds"], ["translate.text"]]


@settings(max_examples=300, deadline=None)
@given(PIECES, PIECES, st.sampled_from(KEYS), st.booleans())
def test_any_answer_and_user_message_get_a_verdict(answer, user, keys, refusal):
    req = AnswerRequirement(refusal=True) if refusal else AnswerRequirement(ask_about=keys)
    check = check_answer(req, answer, user=user)
    assert not check.reason.startswith("answer could not be checked"), check.reason
