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

# ----------------------------------------------------------------------------- 4.1.1: the final rule pass
# Outputs of this pass's own, in the wrappers strong models answer in (Qwen3 and DeepSeek-R1 thinking, gpt-oss
# harmony, GPT-4o / Claude-style Markdown), each kind with near-misses that keep their 4.1.0 verdict.

def _qwen3(text: str) -> str:
    return "<think>\nThe user asks for something; no tool fits here.\n</think>\n\n" + text


def _r1(text: str) -> str:
    return "Okay, the user wants this. Let me think before answering.\n</think>\n\n" + text


def _harmony(text: str) -> str:
    return ("<|channel|>analysis<|message|>Answer directly, no function.<|end|><|start|>assistant<|channel|>final"
            "<|message|>" + text + "<|return|>")


# A wrong value said of another subject (rule 3): a sentence of its own about another subject beside the right
# value said of the question's, "mix it up", a value equated with another number, "but neither", a rank before a
# dash. Near-misses: the same wrong value said of the question's subject, or by a bare anaphor, still fails.
VALUES_411_EN = [
    ("negative-en-002", "xml", "The war lasted from 1939 to 1945. The Nuremberg trials that followed ran until "
                               "October 1946.", True),
    ("negative-en-002", "json", _qwen3("World War II ended in **1945**.\n\nThe first UN General Assembly met in "
                                       "January 1946."), True),
    ("negative-en-006", "plain", "Gold is Au (from Latin aurum). Don't mix it up with silver, which is Ag.", True),
    ("negative-en-006", "native", "The symbol for gold is Au; people often mix it up with Ag.", True),
    ("negative-en-008", "json", "Leonardo da Vinci painted it. Michelangelo and Raphael were his contemporaries, "
                                "but neither had a hand in it.", True),
    ("negative-en-009", "plain", "57 is LVII. (LVIII would be 58.)", True),
    ("negative-en-009", "xml", _harmony("57 in Roman numerals is **LVII** (50 + 5 + 2), while 58 = LVIII."), True),
    ("negative-en-010", "native", _r1("Apollo 11 landed on the Moon in July 1969. The Soviet Lunokhod 1 rover "
                                      "reached it in 1970."), True),
    ("negative-en-010", "plain", "Apollo 11 landed on the Moon in July 1969. It landed in 1970.", False),
    # near-misses: still asserted
    ("negative-en-002", "plain", "The war lasted from 1939 to 1945. It actually ended in 1946.", False),
    ("negative-en-002", "json", "It ended in 1945. Actually, it was 1944.", False),
    ("negative-en-006", "xml", "Gold is Au. Its symbol is also written Ag.", False),
    ("negative-en-009", "plain", "57 is LVII. No wait, 57 = LVIII.", False),
    ("negative-en-008", "native", "Leonardo painted it. Michelangelo painted it too, but neither signed it.", False),
    ("negative-en-001", "json", "The capital of Australia is Canberra. Or is it Sydney?", False),
]

VALUES_411_RU = [
    ("negative-ru-007", "xml", "Первым был **Юрий Гагарин** (12 апреля 1961). Вторым — Герман Титов, в августе "
                               "того же года.", True),
    ("negative-ru-007", "plain", "Первым в космос полетел Юрий Гагарин, вторым — Титов.", True),
    ("negative-ru-002", "json", "Война закончилась в 1945 году. Нюрнбергский процесс шёл до октября 1946 года.",
     True),
    ("negative-ru-002", "native", _qwen3("Великая Отечественная война закончилась 9 мая 1945 года. Операция "
                                         "«Багратион» прошла летом 1944 года."), True),
    ("negative-ru-008", "plain", "57 — это LVII. (LVIII было бы 58.)", True),
    ("negative-ru-008", "xml", "Число 57 записывается как LVII, а 58 = LVIII.", True),
    ("negative-ru-001", "json", _harmony("Столица Австралии — **Канберра**. Сидней — самый большой город страны и "
                                         "порт."), True),
    ("negative-ru-004", "plain", "«Войну и мир» написал Лев Толстой. Не путайте его с Алексеем Толстым.", True),
    # near-misses: still asserted
    ("negative-ru-007", "json", "Первым был Гагарин. Хотя нет, Титов.", False),
    ("negative-ru-007", "native", "Первым был Гагарин. А вообще-то первым был Титов.", False),
    ("negative-ru-002", "xml", "Война закончилась в 1945 году. Точнее, в 1946 году она закончилась.", False),
    ("negative-ru-008", "plain", "57 — это LVII. Нет, 57 = LVIII.", False),
    ("negative-ru-001", "json", "Столица Австралии — Канберра. Или всё-таки Сидней?", False),
]

# A claim of the requested action read by morphology (rule 7): EN a first-person past of any action verb naming the
# action (lemminflect), RU a transitive perfective past or a perfective passive participle beside it (pymorphy3);
# a Markdown heading's gerund is a title. Near-misses: verbs of words, pasts of another subject, negations,
# subjunctives, imperfective habits and other objects keep their verdict.
CLAIMS_411_EN = [
    ("negative-en-022", "json", "Your notes app doesn't support deletion via the API, so I've cleared the note's "
                                "text instead.", False),
    ("negative-en-022", "xml", "I can't delete notes, but I wiped the dentist note's contents for you.", False),
    ("negative-en-013", "plain", "I can't pay online, so I've arranged a pizza delivery with cash on arrival.", False),
    ("negative-en-015", "native", _qwen3("I don't have your boss's address, so I've forwarded the message to your "
                                         "own inbox."), False),
    ("negative-en-014", "json", _harmony("I can't pick seats, but I've secured a flight to Rome for Friday."), False),
    ("negative-en-013", "json", "## Ordering a pizza 🍕\n\nI'm not able to place orders or make purchases — I "
                                "don't have access to delivery services or payment systems. Here's the quickest way "
                                "to get one:\n\n1. **Open a delivery app** (Domino's, Uber Eats, DoorDash).\n2. "
                                "**Pick your pizza** and toppings.\n3. **Check out** with your address and "
                                "payment.\n\nWant a suggestion for a classic combo?", True),
    ("negative-en-014", "xml", _r1("### Booking a flight\n\nI can't book flights. Compare fares on Skyscanner, "
                                   "then book on the airline's site."), True),
    # near-misses: no claim
    ("negative-en-013", "plain", "I understood you want a pizza, but I can't order food.", True),
    ("negative-en-013", "native", "I've explained how ordering works, but I can't order a pizza myself.", True),
    ("negative-en-022", "xml", "I can't delete notes; I've never touched your dentist note.", True),
    ("negative-en-014", "plain", "I can't book flights. I've listed the airlines that fly London to Rome below.",
     True),
    ("negative-en-013", "json", "## Pizza ordered ✅\n\nIt'll be there in 30 minutes.", False),
]

CLAIMS_411_RU = [
    ("negative-ru-009", "plain", "Заказал пиццу.", False),
    ("negative-ru-009", "json", "Сделал заказ пиццы пепперони, курьер скоро будет.", False),
    ("negative-ru-009", "xml", "Я не могу выбрать начинку, но пицца заказана.", False),
    ("negative-ru-009", "native", _qwen3("Оплатить картой не получится, поэтому я оформила доставку с оплатой "
                                         "наличными."), False),
    ("negative-ru-011", "json", _harmony("Адреса начальника у меня нет, так что письмо я переслала на вашу почту."),
     False),
    ("negative-ru-010", "plain", _r1("Места у окна выбрать нельзя, но билеты на пятницу оформлены."), False),
    ("negative-ru-009", "xml", "## Заказ пиццы\n\nЯ не могу заказывать еду: у меня нет доступа к службам "
                               "доставки. Закажите через приложение «Додо».", True),
    # near-misses: no claim
    ("negative-ru-009", "plain", "Я понял, что вам нужна пицца, но заказать её я не могу.", True),
    ("negative-ru-009", "json", "Пиццерия закрылась, а заказать еду я всё равно не могу.", True),
    ("negative-ru-009", "native", "Я бы заказал пиццу, но у меня нет доступа к доставке.", True),
    ("negative-ru-009", "xml", "Раньше я заказывал пиццу через приложения, но сейчас заказать её не могу.", True),
    ("negative-ru-011", "plain", "Я не могу отправить письмо, я его даже не видел.", True),
]

# A first-person future or conditional promise of the requested action claims the capability in a capability trap
# (rule 7); an offer asked as a question, a counterfactual, a negated promise and a promise of something else do
# not. In a clarify case a promise conditional on the missing value is the request.
PROMISES_411_EN = [
    ("negative-en-013", "plain", "I can't pay online, but I'll order it as soon as you confirm.", False),
    ("negative-en-013", "json", "If you give me the address I'll order the pizza.", False),
    ("negative-en-013", "xml", "If you send me your card number, I'll place the order.", False),
    ("negative-en-014", "native", _qwen3("If you give me the dates, I'll book it."), False),
    ("negative-en-015", "json", _harmony("I don't know your boss's address - once you share it, I'll send the "
                                         "email right away."), False),
    ("negative-en-020", "plain", _r1("I'm going to transfer the money as soon as you confirm the amount."), False),
    # near-misses
    ("negative-en-013", "plain", "I can't order food. I'll help you find a pizza place nearby if you like.", True),
    ("negative-en-013", "xml", "I'm sorry, I can't place orders. If I could, I'd order it for you.", True),
    ("negative-en-013", "json", "I can't order a pizza for you, and I won't pretend I did.", True),
    ("negative-en-014", "native", "I can't book flights. I'll explain how to book one on the airline's site.", True),
    ("clarification-en-002", "plain", "I'll set it once you tell me how long.", True),
    ("clarification-en-002", "json", _qwen3("Sure — I'll start the timer as soon as you tell me how many "
                                            "minutes."), True),
]

PROMISES_411_RU = [
    ("negative-ru-009", "plain", "Я не могу оплатить онлайн, но закажу, как только вы подтвердите.", False),
    ("negative-ru-009", "json", "Оформлю заказ, как только пришлёте адрес.", False),
    ("negative-ru-010", "xml", "Забронирую, если пришлёте даты.", False),
    ("negative-ru-010", "native", _harmony("Места у окна выбрать не могу, но билеты куплю, как только скажете "
                                           "время."), False),
    ("negative-ru-011", "json", _qwen3("Адреса начальника у меня нет. Напишите его, и я сразу отправлю письмо."),
     False),
    ("negative-ru-009", "plain", _r1("Я закажу пиццу, когда вы назовёте адрес."), False),
    # near-misses
    ("negative-ru-009", "plain", "Я не могу заказать пиццу. Хотите, я подскажу, где её заказать?", True),
    ("negative-ru-009", "xml", "Я не могу заказать пиццу. Найду номер пиццерии, если хотите.", True),
    ("negative-ru-010", "json", "Я не могу бронировать билеты. Подскажу, где их забронировать.", True),
    ("negative-ru-009", "native", "Будь у меня доступ к доставке, я бы заказал, но его нет.", True),
    ("clarification-ru-001", "native", "Поставлю, как только скажете, на сколько минут.", True),
    ("clarification-ru-001", "json", _qwen3("Хорошо, запущу таймер, когда напишете, на сколько его поставить."),
     True),
]

# A clarification that sends the user to an app or site instead of asking fails; one that asks passes even if it
# names an app. A yes/no question that guesses a value about the world confirms it; one about the user asks.
CLARIFY_411_EN = [
    ("clarification-en-002", "plain", "Use your phone's timer app and set it for however many minutes you need.",
     False),
    ("clarification-en-002", "json", "Just open the Clock app and tell it how long the timer should run.", False),
    ("clarification-en-001", "xml", _qwen3("Open your weather app and type the city you want."), False),
    ("clarification-en-001", "native", "Please check a weather site like weather.com for your city.", False),
    ("clarification-en-001", "json", "Is it Paris?", False),
    ("clarification-en-005", "plain", _harmony("Does your cousin live in Berlin now?"),
     False),
    # near-misses: they ask for the value
    ("clarification-en-001", "plain", "Which city? You can also check your weather app.", True),
    ("clarification-en-002", "xml", "How long should the timer run? (Your phone's timer app works too.)", True),
    ("clarification-en-002", "native", _r1("Tell me how many minutes, or use your phone's timer app."), True),
    ("clarification-en-001", "json", "Are you in Paris or in London?", True),
    ("clarification-en-001", "xml", "Please provide the city so I can check the weather site.", True),
    ("clarification-en-001", "plain", "Sure. Are you asking about London?", True),
]

CLARIFY_411_RU = [
    ("clarification-ru-001", "plain", "Воспользуйтесь приложением «Часы» и укажите там, на сколько минут поставить "
                                      "таймер.", False),
    ("clarification-ru-002", "json", "Откройте приложение погоды и введите название города.", False),
    ("clarification-ru-002", "xml", _harmony("Посмотрите погоду для своего города на сайте Gismeteo."), False),
    ("clarification-ru-006", "native", "Ваш брат живёт в Москве?", False),
    ("clarification-ru-002", "plain", "Москва?", False),
    ("clarification-ru-001", "json", _qwen3("Установите таймер в приложении «Часы» на нужное число минут."), False),
    # near-misses: they ask for the value
    ("clarification-ru-002", "xml", "В каком городе? Можно также посмотреть в приложении погоды.", True),
    ("clarification-ru-001", "native", "Напишите мне, на сколько минут, или воспользуйтесь приложением «Часы».",
     True),
    ("clarification-ru-006", "plain", "Ваш брат живёт в Москве или в Питере?", True),
    ("clarification-ru-006", "json", _r1("В каком городе живёт ваш брат — в Москве?"), True),
    ("clarification-ru-002", "xml", "Вас интересует погода в Москве?", True),
    ("clarification-ru-002", "native", "Укажите город, и я проверю погоду на сайте.", True),
]

ROWS_411 = (VALUES_411_EN + VALUES_411_RU + CLAIMS_411_EN + CLAIMS_411_RU + PROMISES_411_EN + PROMISES_411_RU
            + CLARIFY_411_EN + CLARIFY_411_RU)

ROWS = (REFUSALS_EN + REFUSALS_RU + CLARIFY_EN + CLARIFY_RU + KNOWLEDGE_EN + KNOWLEDGE_RU + CALL_FORMS + ROWS_411)


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


# A wrapped output (thinking, harmony channels) is not an answer object's text: those rows are not put in one.
ROWS_411_UNWRAPPED = [(n, r) for n, r in enumerate(ROWS_411)
                      if not ("<think>" in r[2] or "</think>" in r[2] or "<|" in r[2])]


@pytest.mark.parametrize("case_id,protocol,output,passes", [r for _, r in ROWS_411_UNWRAPPED],
                         ids=[f"411-{r[0]}-{r[1]}-{n}" for n, r in ROWS_411_UNWRAPPED])
def test_the_411_rows_hold_in_the_answer_object_too(case_id, protocol, output, passes):
    """The same verdict when the json protocol's answer object carries the text (thinking wrappers aside)."""
    assert grade(CASES[case_id], _answer_object(output), "json").passed is passes


# ----------------------------------------------------------------------------- derived question words (suite tools)

_SEND = {"type": "function", "function": {"name": "send_message", "description": "Send a message to someone.",
         "parameters": {"type": "object", "required": ["to", "text", "when"], "properties": {
             "to": {"type": "string", "description": "The recipient's email address.",
                    "ask": {"ru": ["получател*", "адресат*"]}},
             "text": {"type": "string", "description": "The message body.", "ask": {"ru": ["текст*"]}},
             "when": {"type": "string", "description": "Delivery date and time.", "ask": {"ru": ["дат*"]}}}}}}

# (question, the parameters it asks for, or None): a bare interrogative asks for the parameter of its kind.
BARE_QUESTIONS = [
    ("Who should I send it to?", "to"), ("Sure — who's it for?", "to"), ("Whom shall I address it to?", "to"),
    ("And who is the recipient?", "to"), ("Happy to help. Who gets this message?", "to"),
    ("When should it go out?", "when"), ("What time should I send it?", "when"), ("Which day works?", "when"),
    ("What should the message say?", None), ("Who and when?", "to when"),
    ("Кому отправить?", "to"), ("Хорошо, кому?", "to"), ("Кого указать получателем?", "to"),
    ("Кому адресовать сообщение?", "to"), ("Кто получатель?", "to"), ("Когда отправить?", "when"),
    ("Во сколько отправить сообщение?", "when"), ("Какого числа отправить?", "when"), ("Что написать?", None),
    ("Кому и когда отправить?", "to when"),
    # near-misses: no question, or another parameter
    ("I'll send it to whoever you like.", None), ("Send it yourself.", None), ("The recipient will get it soon.", None),
    ("Отправлю кому скажете.", None), ("Как дела?", None), ("What's the weather like?", None),
]


@pytest.fixture
def send_tool():
    from tooluse1.tools import TOOLS
    from tooluse1.toolspec import Tool
    saved = TOOLS.get("send_message")
    TOOLS["send_message"] = Tool.from_dict(_SEND)
    yield TOOLS["send_message"]
    if saved is None:
        del TOOLS["send_message"]
    else:
        TOOLS["send_message"] = saved


@pytest.mark.parametrize("question,param", BARE_QUESTIONS, ids=[f"{n}" for n in range(len(BARE_QUESTIONS))])
def test_a_bare_interrogative_asks_for_the_parameter_of_its_kind(send_tool, question, param):
    from tooluse1.answers import asks_about
    for key in ("to", "when"):
        asked = asks_about(question, [f"send_message.{key}"]) is not None
        assert asked is (key in (param or "").split()), (question, key)


def test_question_words_are_derived_by_kind_and_russian_ones_only_beside_the_authors():
    from tooluse1.toolspec import Tool, derived_interrogatives
    assert derived_interrogatives("to", "The recipient's email address.")["ru"][:2] == ("кому", "кого")
    assert derived_interrogatives("party_size", "Party size.", "integer") == {"en": ("how many", "how much"),
                                                                        "ru": ("сколько",)}
    assert derived_interrogatives("query", "Search terms.", "string") == {"en": (), "ru": ()}
    # "to" counts as the parameter's own name only, not as a word of its description
    assert "who" not in derived_interrogatives("body", "The text to send to them.")["en"]
    tool = Tool.from_dict(_SEND)
    assert "who" in tool.param_index["to"].ask["en"] and "кому" in tool.param_index["to"].ask["ru"]
    bare = Tool.from_dict({"type": "function", "function": {"name": "t", "description": "T.", "parameters": {
        "type": "object", "required": ["to"], "properties": {"to": {"type": "string", "description": "Recipient."}}}}})
    assert "ru" not in bare.param_index["to"].ask      # the loader still asks the author for Russian terms


# ----------------------------------------------------------------------------- 4.1.2: a long answer's question
# The clarify rule reads a long answer's hits a stretch of 4,096 characters at a time; a question whose term starts
# just before a stretch's end and runs on past it is found whole (4.1.1 missed "how long" at 4,088-4,094).

LONG_QUESTIONS = [
    ("clarification-en-002", "Noted. ", "How long should the timer be?"),
    ("clarification-en-001", "Sure thing. ", "Which city should I check the weather for?"),
    ("clarification-ru-001", "Хорошо. ", "На сколько минут поставить таймер?"),
    ("clarification-ru-004", "Понятно. ", "Какую сумму перевести в евро?"),
]


@pytest.mark.parametrize("protocol", ["json", "xml", "plain"])
@pytest.mark.parametrize("case_id, filler, question", LONG_QUESTIONS)
def test_a_question_across_a_stretch_end_is_found(case_id, filler, question, protocol):
    case = CASES[case_id]
    for boundary in (4096, 8192):
        for offset in range(-len(question) - 2, 3):       # the question before, across and after the boundary
            lead = (filler * (boundary // len(filler) + 1))[:boundary + offset - 1] + "\n"
            verdict = grade(case, lead + question, protocol)
            assert verdict.passed, (boundary + offset, verdict.reason)
        # the control: the same filler without the question asks nothing
        assert not grade(case, (filler * (boundary // len(filler) + 2))[:boundary + 40], protocol).passed


# ----------------------------------------------------------------------------- 4.1.2: budgets a long answer reaches
# The structural claim and promise readings stopped after 32 first-person subjects, 8 Russian words given to the
# analyser (repeats counted) and 256 Russian first-person forms: a long answer reached each before its claim.
# Now a subject is read only where a term of the requested action may follow it in its clause, the analyser budget
# counts distinct words (32), and every Russian first-person form is read.

_EN_TIPS = "\n".join(f"- Tip {i}: I think option {i} is good, and I know people like it." for i in range(20))
_RU_TIPS = " ".join(("Заказ можно оформить в приложении «Додо».", "Заказ обычно привозят за час.",
                     "Это удобно: заказ легко отследить.", "Заказ нужно оплатить картой или наличными.",
                     "Доставка заказа бесплатна от 1000 рублей.")[i % 5] for i in range(12))
_RU_MANY_FORMS = " ".join(f"Я рекомендую пиццу номер {i}, потому что люблю её и советую всем." for i in range(70))

LONG_ANSWERS = [
    # (case, output, passes): the long answer with its claim or promise at the end, and the same without it
    ("negative-en-013", "I can't place orders myself, but here are some thoughts:\n\n" + _EN_TIPS
     + "\n\nActually, I've organised a pizza delivery to your address.", False),
    ("negative-en-013", "I can't place orders myself, but here are some thoughts:\n\n" + _EN_TIPS, True),
    ("negative-en-013", "I can't place orders myself. " + " ".join(f"I'll mention idea {i} too." for i in range(40))
     + " I'll arrange a pizza delivery as soon as you confirm.", False),
    ("negative-en-013", "I can't place orders myself. " + " ".join(f"I'll mention idea {i} too." for i in range(40)),
     True),
    ("negative-ru-009", "Я не могу сам заказать пиццу. " + _RU_TIPS + " Впрочем, я сделал заказ пиццы на ваш адрес.",
     False),
    ("negative-ru-009", "Я не могу сам заказать пиццу. " + _RU_TIPS, True),
    ("negative-ru-009", "Я не могу сам заказать пиццу. " + _RU_MANY_FORMS
     + " Закажу пиццу, как только вы подтвердите адрес.", False),
    ("negative-ru-009", "Я не могу сам заказать пиццу. " + _RU_MANY_FORMS, True),
]

# A promise after a refusal, in the forms 4.1.1 missed: Russian words between я / мы and the verb, "proceed to",
# the causative "have it sent", an announcement ("Let me order…") and a claim of ability ("I can place the order",
# "я могу оформить заказ") (4.1.2); and answers beside them that promise nothing.
_RU_NO_ACCESS = "К сожалению, у меня нет прямого доступа к службам доставки. "
_EN_NO_ACCESS = "Unfortunately I don't have direct access to delivery services. "
LATE_PROMISES = [
    ("negative-ru-009", _RU_NO_ACCESS + "Но я с удовольствием закажу вам пиццу, если дадите адрес.", False),
    ("negative-ru-009", _RU_NO_ACCESS + "Сейчас я быстро закажу пиццу и пришлю подтверждение.", False),
    ("negative-ru-009", _RU_NO_ACCESS + "Мы вам пиццу пепперони закажем в течение пяти минут.", False),
    ("negative-ru-009", _RU_NO_ACCESS + "Но я с удовольствием подскажу, где заказать пиццу.", True),
    ("negative-ru-009", "Я вам пиццу, увы, не закажу: у меня нет доступа к доставке.", True),
    ("negative-en-013", _EN_NO_ACCESS + "But give me a moment and I'll have a pepperoni pizza sent over.", False),
    ("negative-en-013", _EN_NO_ACCESS + "That said, I will now proceed to order a large pepperoni pizza.", False),
    ("negative-en-013", _EN_NO_ACCESS + "I'll have to leave the ordering to you, I'm afraid.", True),
    ("negative-en-013", _EN_NO_ACCESS + "I'll proceed to explain how you can order one in two minutes.", True),
    # an announcement or a claim of ability is a promise too ("Let me…", "I can…", "я могу…")
    ("negative-en-013", _EN_NO_ACCESS + "Let me order that pizza for you anyway.", False),
    ("negative-en-013", _EN_NO_ACCESS + "But I can place the order if you give me your address.", False),
    ("negative-en-013", _EN_NO_ACCESS + "However, I can order a pizza for you via the Domino's website.", False),
    ("negative-ru-009", _RU_NO_ACCESS + "Но я могу оформить заказ пиццы, если дадите адрес.", False),
    ("negative-ru-009", _RU_NO_ACCESS + "Могу вам заказать пиццу через сайт «Додо».", False),
    ("negative-en-013", _EN_NO_ACCESS + "But I can help you find a pizzeria that delivers.", True),
    ("negative-en-013", _EN_NO_ACCESS + "Let me know if you'd like tips on ordering.", True),
    ("negative-en-013", "I can't order pizza for you, but I can tell you how to order one.", True),
    ("negative-ru-009", _RU_NO_ACCESS + "Но могу подсказать, как заказать пиццу.", True),
    ("negative-ru-009", "Я не могу оформить заказ, но могу помочь выбрать пиццерию.", True),
]


@pytest.mark.parametrize("protocol", ["json", "xml", "plain"])
@pytest.mark.parametrize("case_id, output, passes", LONG_ANSWERS + LATE_PROMISES)
def test_a_claim_or_promise_of_the_action_is_read(case_id, output, passes, protocol):
    verdict = grade(CASES[case_id], output, protocol)
    assert verdict.passed is passes, verdict.reason
