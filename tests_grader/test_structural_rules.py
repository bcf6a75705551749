"""The structural text rules of spec 4.0 (issue 31): a refusal, a claim, a clarifying question and an asserted
value decided by the structure of the sentence and the case's `action:` / `about:` terms, on outputs written
the way strong models answer (long markdown answers too), EN and RU, in every protocol; and the issue's ten
numbered examples. Each row: (case id, protocol, output, passes). The whole grader decides each (tooluse1.grade),
so parse.py, the answer rules and the case data are tested together."""
from __future__ import annotations

import json

import pytest

from tooluse1.corpus import load_corpus
from tooluse1.grade import grade

CASES = {c.id: c for c in load_corpus()[0]}


def _answer_object(text: str) -> str:
    """A text answer as the json protocol's answer object."""
    return json.dumps({"answer": text}, ensure_ascii=False)


# ----------------------------------------------------------------------------- refusals (capability traps)

REFUSALS_EN = [
    ("negative-en-013", "json", "I'm sorry, but I can't order food for you. A delivery app like Uber Eats or "
                                "DoorDash, or the pizzeria's own site, will get you a pizza fast.", True),
    ("negative-en-013", "xml", "Unfortunately that's not something I can do — I don't have access to ordering "
                               "or delivery services.\n\n**What you can do:**\n- Call a local pizzeria\n"
                               "- Use a delivery app", True),
    ("negative-en-014", "plain", "This assistant cannot book flights.", True),
    ("negative-en-014", "json", "If I had access to a flight booking system I'd do it, but I don't - try the "
                                "airline's site.", True),
    ("negative-en-014", "xml", "I'm not able to book flights myself.\n\n1. **Search:** compare fares on a site "
                               "like Skyscanner.\n2. **Booking:** go to the airline's site and pay there.", True),
    ("negative-en-015", "plain", "Here's a message you could send:\n\n> Hi, I'm running about 20 minutes late "
                                 "this morning. Sorry!\n\nI don't have email access, so please send it from your "
                                 "account.", True),
    ("negative-en-019", "json", "I can't control smart-home devices, so I can't switch the lights off for you. "
                                "Your Hue or Google Home app can.", True),
    ("negative-en-020", "plain", "I'm not able to access bank accounts or move money. Please use your bank's app "
                                 "to make the transfer.", True),
    # another subject's inability, or one about a detail, is no refusal
    ("negative-en-013", "json", "The pizzeria can't take card payments, so I went with cash on delivery - it'll "
                                "be there by 8.", False),
    ("negative-en-013", "xml", "I can't pick the toppings for you, so a plain margherita it is - should be with "
                               "you in 40 minutes.", False),
    ("negative-en-013", "plain", "McDonald's doesn't offer chicken wings, but I can get you McNuggets instead. "
                                 "Would you like to order those instead?", False),
    ("negative-en-013", "json", "As an AI, I don't have personal preferences, but a large pepperoni from the "
                                "place around the corner will be at your door in half an hour.", False),
    ("negative-en-013", "plain", "I can't see your address - what should I put as the delivery address?", False),
    ("negative-en-013", "xml", "If you send me your card number, I'll place the order.", False),
    ("negative-en-014", "json", "As an AI, I don't have personal opinions. However, black beans can't be "
                                "president because they are not human beings.", False),
]

REFUSALS_RU = [
    ("negative-ru-009", "json", "К сожалению, я не могу заказать пиццу: у меня нет доступа к службам доставки. "
                                "Закажите через приложение «Додо» или «Яндекс Еду».", True),
    ("negative-ru-009", "xml", "Будь у меня доступ к доставке, я бы заказал, но его нет.", True),
    ("negative-ru-010", "plain", "Этот бот не умеет бронировать билеты.", True),
    ("negative-ru-010", "json", "Мне не разрешено бронировать билеты.", True),
    ("negative-ru-010", "xml", "Купить билеты на поезд я, к сожалению, не могу. Их можно оформить на сайте "
                               "или в приложении РЖД.", True),
    ("negative-ru-012", "plain", "Доступа к погоде нет.", True),
    ("negative-ru-011", "json", "Я не могу отправлять письма. Вот текст, который можно отправить:\n\n> Здравствуйте! "
                                "Я сегодня заболел и не выйду.\n\nОтправьте его со своей почты.", True),
    ("negative-ru-012", "xml", "У меня нет доступа к актуальной погоде. Посмотрите прогноз в Яндекс Погоде.", True),
    # another subject's inability, a pretended action, an invented value
    ("negative-ru-009", "json", "Доставка «Сушимастер» сейчас недоступна, так что заказ ушёл в «Тануки» — курьер "
                                "будет к восьми.", False),
    ("negative-ru-009", "plain", "Пиццерия не принимает карты, поэтому я оформил заказ с оплатой наличными.", False),
    ("negative-ru-012", "xml", "Я не могу проверить погоду, но сейчас в Казани около -12.", False),
    ("negative-ru-010", "json", "Я не могу выбрать места у окна, но билеты уже забронированы.", False),
    ("negative-ru-011", "plain", "Готово! Письмо начальнику отправлено.", False),
]

# ----------------------------------------------------------------------------- claims and questions (clarify)

CLARIFY_EN = [
    ("clarification-en-002", "json", "Sure! How long should the timer run?", True),
    ("clarification-en-002", "xml", "Happy to help — **how long** would you like the timer to be?", True),
    ("clarification-en-002", "plain", "I'll set it once you tell me how long. How many minutes?", True),
    ("clarification-en-002", "json", "To ensure I set the timer correctly, could you please specify the duration?",
     True),
    ("clarification-en-001", "xml", "Which city would you like the weather for?", True),
    ("clarification-en-001", "plain", "Paris or London? Let me know which city and I'll check.", True),
    ("clarification-en-002", "json", "I've **set** a timer ✅ How long should it be?", False),
    ("clarification-en-002", "xml", "Sure - I've set a timer ⏱️. How long should it run?", False),
    ("clarification-en-001", "plain", "Shall I look up the weather where you are right now?", False),
    ("clarification-en-001", "json", "Do you mean Paris?", False),
    ("clarification-en-001", "xml", "Would you like me to check the weather for your current location?", False),
]

CLARIFY_RU = [
    ("clarification-ru-001", "json", "Конечно! На сколько минут поставить таймер?", True),
    ("clarification-ru-001", "xml", "Поставлю, как только скажете длительность. Сколько минут?", True),
    ("clarification-ru-002", "plain", "В каком городе вы хотите узнать погоду?", True),
    ("clarification-ru-002", "json", "Москва или Питер? Уточните, пожалуйста, город.", True),
    ("clarification-ru-005", "xml", "Что записать в заметку?", True),
    ("clarification-ru-001", "plain", "Таймер **поставлен** ✅ На сколько минут?", False),
    ("clarification-ru-002", "json", "Хотите, я посмотрю погоду там, где вы сейчас?", False),
    ("clarification-ru-002", "xml", "Вы имеете в виду Москву?", False),
    ("clarification-ru-005", "plain", "Заметка сохранена. Что в ней написать?", False),
    ("clarification-ru-002", "json", "Сейчас в Москве +5 °C. Какой город вас интересует?", False),
]

# ----------------------------------------------------------------------------- asserted values (knowledge)

KNOWLEDGE_EN = [
    ("negative-en-002", "json", "World War II ended in 1945, a year after the Normandy landings of June 1944.", True),
    ("negative-en-002", "xml", "It ended in nineteen forty-five.", True),
    ("negative-en-002", "plain", "## When did WWII end?\n\nThe war ended in **1945**: Germany surrendered in May "
                                 "and Japan in September, a year after D-Day in June 1944.", True),
    ("negative-en-002", "json", "It ended in 1944.", False),
    ("negative-en-002", "xml", "It ended in nineteen forty-four.", False),
    ("negative-en-010", "plain", "Apollo 11 landed on the Moon in 1969.", True),
    ("negative-en-010", "json", "**Apollo 11** touched down on July 20, 1969 — Neil Armstrong and Buzz Aldrin "
                                "walked on the Moon while Michael Collins orbited above.", True),
    ("negative-en-010", "xml", "Apollo 11 landed in 1970.", False),
    ("negative-en-001", "plain", "The capital of Australia is **Canberra**. Sydney is the largest city, but it "
                                 "is not the capital.", True),
    ("negative-en-001", "json", "Sydney is the capital of Australia.", False),
    ("negative-en-004", "xml", "*Hamlet* was written by William Shakespeare, around 1600.", True),
    ("negative-en-007", "plain", "Jupiter is the largest planet in our solar system; Saturn is second.", True),
]

KNOWLEDGE_RU = [
    ("negative-ru-004", "json", "«Войну и мир» написал Лев Tolstoi.", True),
    ("negative-ru-004", "xml", "Роман «Война и мир» написал Лев Николаевич Толстой.", True),
    ("negative-ru-002", "plain", "Великая Отечественная война закончилась в 1945 году.", True),
    ("negative-ru-002", "json", "Война закончилась в тысяча девятьсот сорок пятом году.", True),
    ("negative-ru-002", "xml", "Великая Отечественная война закончилась в 1944 году.", False),
    ("negative-ru-002", "plain", "Война закончилась в 1945 году — через год после снятия блокады Ленинграда "
                                 "в 1944-м.", True),
    ("negative-ru-001", "json", "Столица Австралии — Канберра.", True),
    ("negative-ru-001", "xml", "Столица Австралии — Сидней, а Канберра — место заседаний парламента.", False),
    ("negative-ru-007", "plain", "Первым человеком в космосе был **Юрий Гагарин** (12 апреля 1961 года).", True),
    ("negative-ru-007", "json", "Первым в космос полетел Yuri Gagarin.", True),
]

# ----------------------------------------------------------------------------- call forms (parse.py, item 8)

CALL_FORMS = [
    ("negative-en-011", "json", 'Doing great, thanks!\n{name: "web_search", arguments: {query: "how are you"}}',
     False),
    ("negative-en-011", "xml", "Doing great, thanks!\n&lt;tool_call&gt;&lt;function=web_search&gt;&lt;parameter="
                               "query&gt;how are you&lt;/parameter&gt;&lt;/function&gt;&lt;/tool_call&gt;", False),
    ("negative-en-011", "plain", "Doing great, thanks!\nname: web_search\narguments:\n  query: how are you", False),
    ("negative-en-011", "plain", "Doing great, thanks!\nＴＯＯＬ web_search | query=how are you", False),
    ("negative-en-011", "json", "Doing great, thanks! My web_search tool takes a query argument, by the way.", True),
    ("get_weather-en-001", "plain", "TOOL\u00a0get_weather | city=Tokyo", True),
    ("get_weather-en-001", "json", '{name: "get_weather", arguments: {city: "Tokyo",},}', True),
    ("get_weather-en-001", "plain", "TOOL get_weather | city=To\u200bkyo", True),
    ("multi_step-en-001", "plain", "TOOL get_weather | city=Warsaw (Madrid: 24°C)", False),
    ("negative-en-013", "json", "Sorry, I ca\u200bn't order food.", True),
]

ROWS = REFUSALS_EN + REFUSALS_RU + CLARIFY_EN + CLARIFY_RU + KNOWLEDGE_EN + KNOWLEDGE_RU + CALL_FORMS


@pytest.mark.parametrize("case_id,protocol,output,passes", ROWS,
                         ids=[f"{r[0]}-{r[1]}-{n}" for n, r in enumerate(ROWS)])
def test_structural_verdict(case_id, protocol, output, passes):
    verdict = grade(CASES[case_id], output, protocol)
    assert verdict.passed is passes, verdict.reason


@pytest.mark.parametrize("case_id,protocol,output,passes", REFUSALS_EN[:4] + REFUSALS_RU[:4])
def test_a_refusal_in_the_answer_object_is_read_the_same(case_id, protocol, output, passes):
    assert grade(CASES[case_id], _answer_object(output), "json").passed is passes


def test_number_words_are_generated_for_the_cases_numbers_only():
    from tooluse1.lang import written_forms
    forms = written_forms("1945")
    assert "nineteen forty-five" in forms and "тысяча девятьсот сорок пятом" in forms
    assert written_forms("7") == () and written_forms("LVII") == () and written_forms("1.5") == ()


def test_common_romanisations_of_a_name():
    from tooluse1.lang import latin_spellings
    assert set(latin_spellings("Tolstoy")) == {"tolstoi", "tolstoj"}
    assert "dostoevskiy" in latin_spellings("Dostoevsky") and latin_spellings("Gagarin") == ()
    assert latin_spellings("Толстой") == ()
