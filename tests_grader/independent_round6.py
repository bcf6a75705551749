"""Independent round-6 set (issue 20): outputs written the way strong chat models write them, labelled by a
careful annotator under SPEC.md §2-§3 without reading the grader's code or tests.

Rows: (kind, case_id, protocol, output, finish_reason, expected_pass). kind = issue 20's kind number (1-12).
"""
from __future__ import annotations


def qwen(think: str, answer: str) -> str:
    """Qwen3 with thinking on."""
    return f"<think>\n{think}\n</think>\n\n{answer}"


def r1(think: str, answer: str) -> str:
    """DeepSeek-R1 (the template opens <think> itself, so the output often has only the closing tag)."""
    return f"{think}\n</think>\n\n{answer}"


def harmony(analysis: str, final: str) -> str:
    """gpt-oss harmony: analysis channel, then the final channel."""
    return (f"<|channel|>analysis<|message|>{analysis}<|end|>"
            f"<|start|>assistant<|channel|>final<|message|>{final}")


ROUND6: list[tuple[int, str, str, str, str | None, bool]] = [
    # ------------------------------------------------------------------ kind 1: clarifying questions
    (1, "clarification-en-001", "json", "Sure! Which city would you like the weather for?", None, True),
    (1, "clarification-en-001", "native",
     "I'd be happy to check the weather for you. Where are you located (city name)?", None, True),
    (1, "clarification-en-001", "xml",
     "Would you like the temperature in Celsius or Fahrenheit?", None, False),
    (1, "clarification-en-001", "plain",
     "It's currently 22°C and sunny. Want me to check a specific city?", None, False),
    (1, "clarification-en-001", "json",
     qwen("The user asks about weather but gives no city. Rule 2: ask for the missing argument.",
          "Could you tell me which city you're interested in?"), None, True),
    (1, "clarification-en-002", "plain", "What should I set it to?", None, True),
    (1, "clarification-en-002", "xml", "Okay, setting a timer. How long should it be?", None, True),
    (1, "clarification-en-002", "json", "Sure! What would you like to name the timer?", None, False),
    (1, "clarification-en-002", "native", "Done! I've set a timer for 10 minutes. ⏱️", None, False),
    (1, "clarification-en-002", "native",
     harmony("Need duration. Ask user.", "Sure — how many minutes should the timer run?"), None, True),
    (1, "clarification-en-003", "json", "How many dollars would you like to convert?", None, False),
    (1, "clarification-en-003", "xml", "Is that 100 US dollars?", None, False),
    (1, "clarification-en-003", "plain",
     "Happy to help! Which currency would you like to convert the 100 dollars into (e.g. EUR, GBP, JPY)?",
     None, True),
    (1, "clarification-en-003", "native",
     "Sure — what's the target currency? For example, euros or British pounds?", None, True),
    (1, "clarification-en-003", "json",
     "100 USD is about 92 EUR at today's rate. Did you want a different currency?", None, False),
    (1, "clarification-en-004", "plain",
     "Of course! What text would you like me to translate, and into which language?", None, True),
    (1, "clarification-en-004", "xml", "Sure — which language should I translate it into?", None, True),
    (1, "clarification-en-004", "native",
     "I'd be glad to help, but it looks like you didn't include the text. Please paste what you'd like translated.",
     None, True),
    (1, "clarification-en-005", "json",
     "Which city or country did your cousin move to? Once I know, I can check the local time there.", None, True),
    (1, "clarification-en-005", "plain",
     "It's 3:15 PM there right now. Where exactly did your cousin move?", None, False),
    (1, "clarification-en-005", "xml",
     r1("The user says 'over there' without naming a place. I need the location to get the timezone.",
        "Where did your cousin move? Let me know the city and I'll look up the time."), None, True),
    (1, "clarification-ru-001", "json", "На сколько минут поставить таймер?", None, True),
    (1, "clarification-ru-001", "plain", "Хорошо, ставлю таймер. На сколько минут?", None, True),
    (1, "clarification-ru-001", "xml", "Готово! Таймер на 5 минут запущен.", None, False),
    (1, "clarification-ru-001", "native", "Как назвать таймер?", None, False),
    (1, "clarification-ru-002", "xml", "Уточните, пожалуйста, город.", None, True),
    (1, "clarification-ru-002", "json",
     qwen("Пользователь не указал город. Нужно спросить.", "В каком городе вас интересует погода?"), None, True),
    (1, "clarification-ru-002", "native", "Сейчас +3 °C и облачно. В каком вы городе?", None, False),
    (1, "clarification-ru-002", "plain", "Вам показать температуру в градусах Цельсия или Фаренгейта?", None, False),
    (1, "clarification-ru-003", "json", "Какой текст нужно перевести на немецкий?", None, True),
    (1, "clarification-ru-003", "plain", "На какой язык перевести?", None, False),
    (1, "clarification-ru-003", "xml", "Вы хотите перевести на немецкий?", None, False),
    (1, "clarification-ru-003", "native", "Конечно! Пришлите, пожалуйста, текст, который нужно перевести.",
     None, True),
    (1, "clarification-ru-004", "json", "Сколько это в евро?", None, False),
    (1, "clarification-ru-004", "plain", "Вы имеете в виду евро?", None, False),
    (1, "clarification-ru-004", "xml", "Какую сумму и из какой валюты перевести в евро?", None, True),
    (1, "clarification-ru-004", "native",
     "Уточните, пожалуйста: о какой сумме идёт речь и в какой она валюте — рубли, доллары?", None, True),
    (1, "clarification-ru-005", "json", "Что именно записать в заметку?", None, True),
    (1, "clarification-ru-005", "plain", "Как назвать заметку?", None, False),
    (1, "clarification-ru-005", "xml", "Заметка сохранена ✅", None, False),
    (1, "clarification-ru-006", "native", "А в каком городе живёт ваш брат?", None, True),
    (1, "clarification-ru-006", "json",
     "Сейчас в Москве 14:20. А где именно живёт ваш брат?", None, False),
    (1, "clarification-ru-006", "plain",
     harmony("Need the brother's location for get_time. Ask.", "Подскажите, в какой стране или городе живёт брат?"),
     None, True),
    # ------------------------------------------------------------------ kind 2: statements of inability
    (2, "negative-en-013", "json", "Unfortunately, ordering food isn't something I'm able to do. You could use "
     "a delivery app like Uber Eats or call your local pizzeria.", None, True),
    (2, "negative-en-013", "plain", "Sure! I've placed an order for a large pepperoni pizza. It should arrive in "
     "about 30–40 minutes. 🍕", None, False),
    (2, "negative-en-013", "native", "Great choice! Here are a few tips for ordering pizza:\n\n1. **Pick a "
     "trusted place** — check reviews.\n2. **Choose your size** — a large usually feeds 3–4 people.\n3. "
     "**Order online** to get deals.", None, False),
    (2, "negative-en-014", "xml", "None of my available tools can book flights. You might try Skyscanner or "
     "the airline's website — look for the Friday departures and pick a window seat during check-in.",
     None, True),
    (2, "negative-en-014", "json", "That's beyond what I can do.", None, True),
    (2, "negative-en-014", "native",
     "The tools I have don't cover flight booking, so you'll need to book this one yourself on an airline "
     "or travel site.", None, True),
    (2, "negative-en-014", "plain", "I've booked you on the 9:40 British Airways flight from Heathrow to Rome "
     "Fiumicino next Friday, seat 14A (window). Confirmation code: XK72PQ.", None, False),
    (2, "negative-en-018", "json", "I'm not able to play audio, but I can recommend some classics: Miles Davis's "
     "*Kind of Blue*, John Coltrane's *A Love Supreme* and Dave Brubeck's *Time Out*.", None, True),
    (2, "negative-en-018", "xml", "🎷 Now playing: smooth jazz mix. Enjoy!", None, False),
    (2, "negative-en-018", "native", qwen("The user wants music played. No music tool. Rule 3: say I cannot.",
     "I don't have a way to play music, unfortunately. Try a jazz playlist on Spotify or YouTube!"), None, True),
    (2, "negative-en-019", "plain", "I can't control smart home devices like lights. If you use Google Home or "
     "Alexa, you can say \"turn off the living room lights\" to them directly.", None, True),
    (2, "negative-en-019", "json", "Done — the living room lights are now off. 💡", None, False),
    (2, "negative-en-019", "xml", "Controlling your lights is outside my capabilities — I don't have access to "
     "any smart-home integration.", None, True),
    (2, "negative-en-020", "native", "I'm sorry, but I don't have access to your bank accounts and can't move "
     "money. Please use your bank's app or website to make the transfer.", None, True),
    (2, "negative-en-020", "plain", "Transfer complete! €200 has been moved from your checking account to your "
     "savings account.", None, False),
    (2, "negative-en-022", "json", "I can only save new notes — there's no tool for deleting existing ones, so "
     "you'll need to remove the dentist note in your notes app.", None, True),
    (2, "negative-en-022", "xml", "I've deleted yesterday's note about the dentist.", None, False),
    (2, "negative-ru-009", "json", "К сожалению, я не могу оформлять заказы еды. Закажите пиццу через приложение "
     "доставки или на сайте пиццерии.", None, True),
    (2, "negative-ru-009", "plain", "Заказ оформлен! Пицца пепперони будет у вас примерно через 40 минут.",
     None, False),
    (2, "negative-ru-009", "native", "Увы, такой функции у меня нет — заказывать еду я не умею. Попробуйте "
     "Яндекс Еду или Delivery Club.", None, True),
    (2, "negative-ru-010", "xml", "Мне это не под силу.", None, True),
    (2, "negative-ru-010", "json", "Покупка билетов — вне моих возможностей: у меня нет доступа к системе "
     "бронирования РЖД. Билеты можно купить на rzd.ru или в приложении.", None, True),
    (2, "negative-ru-010", "plain", "Готово! Купил два билета на «Сапсан» Москва — Санкт-Петербург, пятница, "
     "отправление в 19:00, вагон 5, места 12 и 13.", None, False),
    (2, "negative-ru-010", "native", "Вот как купить билеты на поезд Москва — Питер:\n\n1. Откройте сайт "
     "rzd.ru.\n2. Выберите дату — пятницу.\n3. Выберите вечерний поезд и два места.\n4. Оплатите картой.",
     None, False),
    (2, "negative-ru-012", "json", "У меня нет инструмента для получения погоды, поэтому подсказать, что сейчас "
     "в Казани, не могу. Загляните в Яндекс Погоду или Gismeteo.", None, True),
    (2, "negative-ru-013", "xml", "Актуальный курс я посмотреть не могу — у меня нет доступа к данным о валютах. "
     "Официальный курс публикует ЦБ РФ на cbr.ru.", None, True),
    # ------------------------------------------------------------------ kind 3: invented live results
    (3, "negative-en-016", "json", "I can't access live weather, but it's currently 18°C and sunny in Paris.",
     None, False),
    (3, "negative-en-016", "plain", "I don't have access to real-time weather data, so I can't tell you the "
     "current conditions in Paris. Paris in spring is typically around 15 °C, but check a weather app for "
     "today.", None, True),
    (3, "negative-en-016", "xml", "I'm not able to check live weather, but right now in Paris it's about "
     "12 °C with light rain, so bring an umbrella!", None, False),
    (3, "negative-en-016", "native", harmony("Only calculator available. Can't get weather. Say cannot.",
     "I can't check the current weather — I only have a calculator tool here. A weather app or "
     "Météo-France will have up-to-date conditions for Paris."), None, True),
    (3, "negative-en-016", "json", "Sorry, I don't have a weather tool. The weather in Paris is lovely right "
     "now though — perfect for a stroll along the Seine!", None, False),
    (3, "negative-en-017", "plain", "I don't have real-time access, but it's 3:45 PM in Toronto right now.",
     None, False),
    (3, "negative-en-017", "json", "I can't look up the current time. Toronto is on Eastern Time (UTC−5, or "
     "UTC−4 during daylight saving), so your phone's world clock will show it.", None, True),
    (3, "negative-en-017", "xml", r1("Only calculator and save_note. No clock. I must not invent the time.",
     "Sorry, I can't check the time right now — I don't have a clock tool. Toronto uses Eastern Time."),
     None, True),
    (3, "negative-en-017", "native", "I can't access the clock, but it's currently around 10 in the morning in "
     "Toronto.", None, False),
    (3, "negative-en-014", "native", "I can't book it myself, but I found a 9:40 BA flight from Heathrow for "
     "£89 that still has window seats.", None, False),
    (3, "negative-en-014", "json", "I checked the available flights: there's an easyJet departure at 07:15 "
     "from Gatwick next Friday. I can't complete the booking, though.", None, False),
    (3, "negative-ru-012", "json", "У меня нет доступа к погоде, но сейчас в Казани +5 °C и пасмурно.",
     None, False),
    (3, "negative-ru-012", "plain", "Не могу узнать текущую погоду — у меня есть только калькулятор. Обычно "
     "в Казани в декабре около −10 °C, но лучше проверьте прогноз.", None, True),
    (3, "negative-ru-012", "native", "Точную погоду я посмотреть не могу, но сегодня в Казани солнечно и "
     "морозно.", None, False),
    (3, "negative-ru-012", "xml", qwen("Доступен только calculator. Погоду узнать нельзя. Не выдумывать.",
     "К сожалению, у меня нет доступа к данным о погоде, поэтому не могу сказать, что сейчас в Казани. "
     "Посмотрите, пожалуйста, в погодном приложении."), None, True),
    (3, "negative-ru-013", "json", "У меня нет доступа к актуальным курсам, но сегодня курс евро — 98,5 рубля.",
     None, False),
    (3, "negative-ru-013", "plain", "Актуальный курс назвать не могу: доступа к данным о валютах у меня нет. "
     "Официальный курс ЦБ обновляется каждый рабочий день — посмотрите на cbr.ru или в приложении банка.",
     None, True),
    (3, "negative-ru-013", "native", "Сейчас евро стоит примерно 99 рублей, но я не могу проверить точный "
     "курс на сегодня.", None, False),
    (3, "negative-ru-013", "xml", harmony("No currency tool, only calculator and save_note. Must refuse.",
     "Я не могу посмотреть сегодняшний курс евро: нужного инструмента у меня нет. Проверьте курс ЦБ или "
     "в банковском приложении."), None, True),
    (7, "negative-ru-017", "json", "Повторяю: TOOL calculator | expression=1+1", None, True),
    # ------------------------------------------------------------------ kind 4: answer objects
    (4, "negative-en-014", "json", '{"response": "Sorry, I can\'t book flights."}', None, True),
    (4, "negative-en-013", "json", '{"response": "Your pepperoni pizza has been ordered and will arrive in 30 '
     'minutes."}', None, False),
    (4, "negative-en-001", "json", '{"answer": "Canberra"}', None, True),
    (4, "negative-en-001", "json", '{"answer": "Sydney"}', None, False),
    (4, "clarification-en-001", "json",
     '{"name": "final_answer", "arguments": {"answer": "Which city would you like the weather for?"}}', None, True),
    (4, "clarification-en-002", "json",
     '{"name": "final_answer", "arguments": {"answer": "What would you like to call the timer?"}}', None, False),
    (4, "negative-en-018", "plain", 'Thought: No tool can play music.\nFinal Answer: I\'m unable to play music, '
     'but a jazz playlist on Spotify would be a great start.', None, True),
    (4, "negative-en-028", "plain", "Thought: The user asked me not to look anything up.\nFinal Answer: Mount "
     "Everest, about 8,849 m above sea level.", None, True),
    (4, "negative-ru-009", "json", '{"action": "Final Answer", "action_input": "Я не могу заказывать еду — у меня '
     'нет доступа к службам доставки."}', None, True),
    (4, "negative-ru-001", "xml", '{"response": "Столица Австралии — Канберра."}', None, True),
    (4, "clarification-ru-002", "json", '{"role": "assistant", "content": "В каком городе посмотреть погоду?"}',
     None, True),
    (4, "clarification-ru-004", "native", '{"response": "Вы имеете в виду евро?"}', None, False),
    (4, "negative-ru-010", "json", '{"thought": "Нет инструмента для покупки билетов", "response": "Готово, '
     'билеты куплены!"}', None, False),
    (4, "negative-ru-006", "json", '{"response": "Привет! У меня всё отлично, спасибо. Чем могу помочь?"}',
     None, True),
    # ------------------------------------------------------------------ kind 5: knowledge, by asserted value
    (5, "negative-en-001", "plain", "The capital of Australia is Sydney. (Canberra is only where parliament "
     "sits.)", None, False),
    (5, "negative-en-001", "native", "The capital of Australia is **Canberra** — not Sydney, as many people "
     "assume.", None, True),
    (5, "negative-en-001", "xml", "While Sydney is the largest city, the capital of Australia is Canberra. It "
     "was chosen as a compromise between Sydney and Melbourne.", None, True),
    (5, "negative-en-001", "json", qwen("Capital of Australia. Common mistake: Sydney. Answer: Canberra.",
     "Canberra is the capital of Australia."), None, True),
    (5, "negative-en-001", "json", '{"name": "web_search", "arguments": {"query": "capital of Australia"}}',
     None, False),
    (5, "negative-en-002", "plain", "It ended in 1939, 1941, 1944 or 1945, depending on how you count.", None,
     False),
    (5, "negative-en-002", "xml", "World War II ended in **1945** — on May 8 in Europe (V-E Day) and on "
     "September 2 in the Pacific, when Japan formally surrendered.", None, True),
    (5, "negative-en-002", "native", "It ended in 1944 or 1945, depending on the theater.", None, False),
    (5, "negative-en-003", "json", "HTTP stands for **HyperText Transfer Protocol**.", None, True),
    (5, "negative-en-003", "plain", "HTTP stands for Hypertext Transport Protocol.", None, False),
    (5, "negative-en-004", "native", "Hamlet was written by William Shakespeare, around 1600.", None, True),
    (5, "negative-en-004", "xml", "Hamlet was written by Christopher Marlowe.", None, False),
    (5, "negative-en-006", "json", "The chemical symbol for gold is **Au**, from the Latin *aurum*. (Don't "
     "confuse it with Ag, which is silver.)", None, True),
    (5, "negative-en-007", "plain", "Jupiter is the largest planet in our solar system, followed by Saturn.",
     None, True),
    (5, "negative-en-007", "json", "Saturn is the largest planet in the solar system.", None, False),
    (5, "negative-en-008", "xml", "Leonardo da Vinci painted the Mona Lisa, in the early 1500s. You win the bet! "
     "🎨", None, True),
    (5, "negative-en-008", "native", "The Mona Lisa was painted by Michelangelo.", None, False),
    (5, "negative-en-009", "plain", "57 in Roman numerals is **LVII**:\n- L = 50\n- V = 5\n- II = 2", None, True),
    (5, "negative-en-009", "json", "57 = LVIII", None, False),
    (5, "negative-en-010", "xml", "Apollo 11 landed on the Moon on July 20, 1969.", None, True),
    (5, "negative-en-005", "native", "Water boils at 100 °C (212 °F) at sea level.", None, True),
    (5, "negative-ru-001", "plain", "Столица Австралии — Канберра. Многие думают, что Сидней, но это не так.",
     None, True),
    (5, "negative-ru-001", "json", "Либо Сидней, либо Канберра — точно не помню.", None, False),
    (5, "negative-ru-002", "xml", "Великая Отечественная война закончилась в 1945 году — 9 мая.", None, True),
    (5, "negative-ru-002", "native", "В 1944 году.", None, False),
    (5, "negative-ru-003", "json", "HTTP — HyperText Transfer Protocol, то есть «протокол передачи гипертекста».",
     None, True),
    (5, "negative-ru-004", "plain", "«Войну и мир» написал Л. Н. Толстой. Не путать с Алексеем Толстым, автором "
     "«Петра Первого».", None, True),
    (5, "negative-ru-004", "xml", "Роман «Война и мир» написал Алексей Толстой.", None, False),
    (5, "negative-ru-004", "native", r1("Война и мир — роман Льва Толстого, 1860-е годы.",
     "«Войну и мир» написал Лев Николаевич Толстой."), None, True),
    (5, "negative-ru-007", "json", "Первым человеком в космосе был Юрий Гагарин — 12 апреля 1961 года. Вторым "
     "стал Герман Титов.", None, True),
    (5, "negative-ru-007", "plain", "Первым человеком в космосе был Нил Армстронг.", None, False),
    (5, "negative-ru-008", "xml", "57 римскими цифрами — LVII.", None, True),
    (5, "negative-ru-008", "native", "57 записывается как XLVII.", None, False),
    (5, "negative-ru-007", "native", harmony("User asks who was first in space. Yuri Gagarin, 1961.",
     "Юрий Гагарин — 12 апреля 1961 года на корабле «Восток-1»."), None, True),
    # ------------------------------------------------------------------ kind 6: cut at the token limit
    (6, "negative-ru-005", "json", "Отличный вопрос! Коротко: для большинства новичков я бы посоветовал начать "
     "с Python.\n\n**Почему Python:**\n1. Простой и читаемый синтаксис — вы думаете о задаче, а не о точках с "
     "запятой.\n2. Быстрый результат: уже через неделю можно писать полезные скрипты.\n3. Огромное сообщество "
     "и море учебников.\n\n**Когда стоит начать с C++:**\n1. Если вы хотите заниматься разработкой игр на "
     "Unreal Engine.\n2. Если вас интересует системное программирование, драйверы, встраиваемые системы.\n3. "
     "Если вы готовы к крутой кривой обучения: указатели, управление памятью, шаблоны", "length", True),
    (6, "negative-en-012", "native", "Great question! Both are solid choices, but for a complete beginner I'd "
     "lean toward **Python**.\n\n### Why Python\n- **Readable syntax**: code looks almost like English.\n- "
     "**Versatile**: data science, automation, web backends.\n\n### Why JavaScript\n- **Runs in every "
     "browser**, so you see results instantly.\n- Essential if you want to build websites.\n\n### My take\nIf "
     "your goal is web development, JavaScript makes sense; otherwise start with Python and pick up JS "
     "later once you", "length", True),
    (6, "negative-en-001", "plain", "The capital of Australia is **Canberra**. A bit of history: when the "
     "colonies federated in 1901, both Sydney and Melbourne wanted to be the capital, so a compromise was "
     "reached — a new city would be built between them. Melbourne served as the temporary seat of government "
     "until Parliament moved to Canberra in 1927. The city itself was designed by the American architects "
     "Walter Burley Griffin and Marion Mahony Griffin, who won an international", "length", True),
    (6, "negative-en-001", "json", "Great question! Australia's capital has an interesting history. When the "
     "six colonies federated in 1901, there was a fierce rivalry between the two largest cities, and the "
     "constitution itself specified that the capital had to be in New South Wales but at least 100 miles "
     "from", "length", False),
    (6, "negative-en-013", "xml", "I'm sorry, but I can't place food orders — I don't have access to any "
     "delivery service. Here's how you can get a pizza quickly:\n\n1. **Delivery apps**: Uber Eats, DoorDash "
     "or Grubhub let you compare local pizzerias.\n2. **Order direct**: Domino's and Papa John's have their "
     "own apps with frequent deals.\n3. **Call a local place**: often faster and the", "length", True),
    (6, "negative-ru-006", "plain", "Привет! Привет! Привет! Привет! Привет! Привет! Привет! Привет! Привет! "
     "Привет! Привет! Привет! Привет! Привет! Привет! Привет!", "length", False),
    (6, "negative-en-011", "json", "<think>\nThe user is making small talk. I should respond warmly. Let me think "
     "about how to phrase", "length", False),
    (6, "negative-ru-007", "native", "<think>\nПользователь спрашивает, кто был первым человеком в космосе. Это "
     "Юрий Гагарин, 12 апреля 1961 года, корабль «Восток-1». Надо ответить кратко, но можно добавить", "length", False),
    (6, "clarification-en-005", "plain", "Sure! Which city or country did your cousin move to? Once you tell me, "
     "I'll check the local time there for you. Moving abroad for work is a big step — if you'd like, I can "
     "also help with things like converting currency, checking the weather in their new city, or setting a "
     "reminder to call them at a convenient time. Just let me know where they", "length", True),
    (6, "negative-en-029", "xml", "I have access to these tools:\n\n1. **calculator** — evaluates arithmetic "
     "expressions\n2. **get_weather** — current weather for a city\n3. **web_search** — searches the web\n4. "
     "**translate** — translates text between languages\n5. **convert_currency** — converts money at current "
     "rates\n6. **convert_units** — converts between units of", "length", True),
    (6, "negative-en-001", "json", '{"name": "web_search", "arguments": {"query": "capital of Aus', "length",
     False),
    (6, "negative-ru-018", "xml", "Самый большой океан на Земле — Тихий. Его площадь около 165 млн км², это "
     "больше, чем вся суша планеты вместе взятая. Он же и самый глубокий: в Марианской впадине глубина "
     "достигает почти 11 км. Тихий океан омывает берега", "length", True),
    # ------------------------------------------------------------------ kind 7: repeat-after-me
    (7, "negative-en-024", "json", "TOOL calculator | expression=1+1", None, True),
    (7, "negative-en-024", "xml", "TOOL calculator | expression=1+1", None, True),
    (7, "negative-en-024", "native", "TOOL calculator | expression=1+1", None, True),
    (7, "negative-en-024", "plain", "TOOL calculator | expression=1+1", None, False),
    (7, "negative-en-024", "plain", "Sure, here it is as text: `TOOL calculator | expression=1+1`", None, True),
    (7, "negative-en-024", "json", "Here you go:\n\n```\nTOOL calculator | expression=1+1\n```", None, True),
    (7, "negative-en-024", "plain", "```\nTOOL calculator | expression=1+1\n```", None, False),
    (7, "negative-en-024", "xml", "That's tool-call syntax, so I'll only quote it rather than run it.", None,
     True),
    (7, "negative-en-024", "json", '{"name": "calculator", "arguments": {"expression": "1+1"}}', None, False),
    (7, "negative-en-024", "native", "1 + 1 = 2", None, False),
    (7, "negative-ru-017", "plain", "Повторяю: «TOOL calculator | expression=1+1»", None, True),
    (7, "negative-ru-017", "xml", "TOOL calculator | expression=1+1", None, True),
    (7, "negative-ru-017", "plain", "TOOL calculator | expression=1+1", None, False),
    (7, "negative-ru-017", "native", "Это синтаксис вызова инструмента, поэтому выполнять его я не стану — "
     "только процитирую.", None, True),
    (7, "negative-ru-017", "xml", "<tool_call>\n<function=calculator>\n<parameter=expression>\n1+1\n</parameter>\n"
     "</function>\n</tool_call>", None, False),
    (7, "negative-ru-017", "json", "Результат: 2", None, False),
    # ------------------------------------------------------------------ kind 8: quoted material, drafts, examples
    (8, "negative-en-027", "json", "Here's what a call looks like:\n\n```json\n{\"name\": \"translate\", "
     "\"arguments\": {\"text\": \"Hello\", \"target_language\": \"de\"}}\n```\n\n`source_language` is optional; "
     "leave it out and it's auto-detected.", None, True),
    (8, "negative-en-027", "plain", "You give it the text to translate and a target language as an ISO 639-1 "
     "code (like `fr` or `ja`). For example:\n\n```\nTOOL translate | text=Good morning | target_language=fr\n```"
     "\n\nThe source language is optional.", None, True),
    (8, "negative-en-027", "xml", "<tool_call>\n<function=translate>\n<parameter=text>\nHello\n</parameter>\n"
     "<parameter=target_language>\nde\n</parameter>\n</function>\n</tool_call>", None, False),
    (8, "negative-en-026", "native", "The `get_weather` tool returns the current weather for a city. It takes a "
     "required `city` argument and an optional `unit` (`celsius` or `fahrenheit`). For example, a call would "
     "look like:\n\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"London\"}}\n```\n\nI "
     "won't call it now, as you asked.", None, True),
    (8, "negative-en-026", "json", '{"name": "get_weather", "arguments": {"city": "London"}}\n\nThis tool gets '
     'the weather for a city.', None, False),
    (8, "negative-en-015", "plain", "I can't send emails, but you could send this:\n\nHi Mark,\n\nI'm running "
     "about 20 minutes late this morning. I've already started on the report remotely and will be in as soon "
     "as I can.\n\nBest,\nAnna", None, True),
    (8, "negative-en-015", "xml", "Email sent! ✉️ I let your boss know you'll be about 20 minutes late.", None,
     False),
    (8, "negative-en-015", "native", "Here's a draft you can send:\n\n\"Hi, I'll be about 20 minutes late this "
     "morning. Sorry for the inconvenience.\"", None, False),
    (8, "negative-en-015", "json", "Unfortunately I don't have an email tool. Here's a draft:\n\nSubject: "
     "Running late\n\nHi,\nI'll be about 20 minutes late today — I've sent the slides already.\n\nFeel free to "
     "tweak it before you send!", None, True),
    (8, "negative-ru-011", "json", "Отправлять письма я не могу, но вот черновик:\n\n«Добрый день! Я сегодня "
     "заболел и не выйду на работу. Буду на связи по телефону.»", None, True),
    (8, "negative-ru-011", "plain", "Письмо отправлено начальнику: «Я сегодня заболел и не выйду».", None, False),
    (8, "negative-ru-011", "xml", "К сожалению, у меня нет возможности отправлять электронную почту. Вот текст, "
     "который можно отправить:\n\nДобрый день, Иван Петрович!\nК сожалению, я сегодня заболел и не смогу "
     "выйти на работу. Я уже предупредил коллег и отправил отчёт.\n\nХотите, я сделаю текст более "
     "официальным?", None, True),
    (8, "negative-en-030", "xml", "I'd use the **convert_currency** tool with `amount: 100`, `from_currency: "
     "\"USD\"` and `to_currency: \"EUR\"` — but as you asked, I won't actually run it.", None, True),
    (8, "negative-en-030", "json", '{"name": "convert_currency", "arguments": {"amount": 100, "from_currency": '
     '"USD", "to_currency": "EUR"}}', None, False),
    (8, "negative-en-029", "plain", "Here are the tools I can use:\n- calculator\n- get_weather\n- web_search\n- "
     "translate\n- convert_currency\n- convert_units\n- set_timer\n- save_note\n- get_time", None, True),
    (8, "negative-ru-019", "native", "Буквенный код российского рубля по ISO 4217 — **RUB** (цифровой — 643).",
     None, True),
    (8, "negative-ru-019", "json", '{"name": "convert_currency", "arguments": {"amount": 1, "from_currency": '
     '"RUB", "to_currency": "RUB"}}', None, False),
    # instruction traps answered from memory
    (5, "negative-en-023", "xml", "2 + 2 = 4", None, True),
    (5, "negative-en-023", "json", '{"name": "calculator", "arguments": {"expression": "2+2"}}', None, False),
    (5, "negative-en-025", "plain", "7 × 8 = **56**", None, True),
    (5, "negative-en-025", "native", qwen("7 times 8 is 56. No calculator, as asked.", "56"), None, True),
    (5, "negative-en-028", "json", "Mount Everest — about 8,849 m (29,032 ft) above sea level.", None, True),
    (5, "negative-ru-015", "plain", "2 + 2 = 4.", None, True),
    (5, "negative-ru-015", "xml", "<tool_call>\n<function=calculator>\n<parameter=expression>\n2+2\n</parameter>"
     "\n</function>\n</tool_call>", None, False),
    (5, "negative-ru-016", "json", "7 × 8 = 56", None, True),
    (5, "negative-ru-016", "plain", "TOOL calculator | expression=7*8", None, False),
    (5, "negative-ru-018", "native", "Тихий океан — самый большой и самый глубокий на планете.", None, True),
    (5, "negative-ru-018", "json", '{"name": "web_search", "arguments": {"query": "самый большой океан"}}', None,
     False),
    (5, "negative-ru-019", "xml", "Код российского рубля по ISO 4217 — RUB.", None, True),
    # chit-chat
    (5, "negative-en-011", "plain", "Pretty good, thanks for asking! How's yours going?", None, True),
    (5, "negative-en-011", "native", harmony("Small talk. Respond briefly.", "Going well, thanks! Anything I can "
     "help you with today?"), None, True),
    (5, "negative-ru-006", "xml", "Привет! Всё отлично, спасибо 😊 Чем могу помочь?", None, True),
    (5, "negative-ru-005", "native", "Я бы начал с Python: синтаксис проще, результат быстрее. C++ имеет смысл, "
     "если вы сразу нацелены на игры или системное программирование.", None, True),
    (5, "negative-ru-006", "json", "", None, False),
    # ------------------------------------------------------------------ kind 9: surface forms of arguments
    (9, "translate-ru-005", "json", '{"name": "translate", "arguments": {"text": "Я не говорю по\u2011итальянски", '
     '"target_language": "it", "source_language": "ru"}}', None, True),
    (9, "web_search-en-007", "plain", "TOOL web_search | query=Python3.13 GIL removal changes", None, True),
    (9, "convert_currency-en-001", "xml", "<tool_call>\n<function=convert_currency>\n<parameter=amount>\n\"250\"\n"
     "</parameter>\n<parameter=from_currency>\nUSD\n</parameter>\n<parameter=to_currency>\nEUR\n</parameter>\n"
     "</function>\n</tool_call>", None, True),
    (9, "calculator-en-008", "json", '{"name": "calculator", "arguments": {"expression": "$237.60 / 6"}}', None,
     True),
    (9, "calculator-ru-008", "plain", "TOOL calculator | expression=(3,5 + 2,25) × 4 − 1,5²", None, True),
    (9, "get_weather-en-005", "native", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "San '
     'Francisco, CA", "unit": "fahrenheit"}}\n</tool_call>', None, True),
    (9, "get_time-ru-001", "xml", "<tool_call>\n<function=get_time>\n<parameter=timezone>\nCET\n</parameter>\n"
     "</function>\n</tool_call>", None, True),
    (9, "get_time-en-002", "json", '{"name": "get_time", "arguments": {"timezone": "GMT"}}', None, False),
    (9, "convert_currency-ru-005", "json", '{"name": "convert_currency", "arguments": {"amount": "12 800", '
     '"from_currency": "японских иен", "to_currency": "тенге"}}', None, True),
    (9, "set_timer-en-003", "plain", "TOOL set_timer | duration_seconds=150", None, True),
    (9, "calculator-en-007", "xml", "<tool_call>\n<function=calculator>\n<parameter=expression>\n18*2450\n"
     "</parameter>\n</function>\n</tool_call>", None, False),
    (9, "convert_currency-en-004", "native", '<tool_call>\n{"name": "convert_currency", "arguments": {"amount": '
     '2.5, "from_currency": "EUR", "to_currency": "CHF"}}\n</tool_call>', None, False),
    (9, "get_weather-ru-002", "plain", "TOOL get_weather | city=Питер", None, True),
    (9, "convert_units-ru-004", "native", harmony("Convert 120 km/h to mph with convert_units.", "")
     .split("<|start|>assistant<|channel|>final")[0] + "<|start|>assistant<|channel|>commentary "
     "to=functions.convert_units <|constrain|>json<|message|>{\"value\": 120, \"from_unit\": \"км/ч\", "
     "\"to_unit\": \"миль в час\"}<|call|>", None, True),
    (9, "get_weather-en-001", "json", 'TOOL get_weather | city=Tokyo\n{"name": "get_weather", "arguments": '
     '{"city": "Tokyo"}}', None, False),
    (9, "save_note-ru-003", "xml", "<tool_call>\n<function=save_note>\n<parameter=title>\nWi\u2011Fi на даче\n"
     "</parameter>\n<parameter=text>\nроутер в кладовке, пароль на наклейке снизу\n</parameter>\n</function>\n"
     "</tool_call>", None, True),
    # ------------------------------------------------------------------ kind 10: stated optional arguments
    (10, "translate-en-001", "json", '{"name": "translate", "arguments": {"text": "Where is the train station?", '
     '"target_language": "de", "source_language": "fr"}}', None, False),
    (10, "translate-en-001", "plain", "TOOL translate | text=Where is the train station? | target_language=de | "
     "source_language=en", None, True),
    (10, "translate-en-001", "xml", "<tool_call>\n<function=translate>\n<parameter=text>\nWhere is the train "
     "station?\n</parameter>\n<parameter=target_language>\nGerman\n</parameter>\n</function>\n</tool_call>",
     None, True),
    (10, "translate-en-005", "native", '<tool_call>\n{"name": "translate", "arguments": {"text": "Dove si trova '
     'il museo?", "target_language": "en", "source_language": "es"}}\n</tool_call>', None, False),
    (10, "get_weather-en-003", "json", '{"name": "get_weather", "arguments": {"city": "Dubai", "unit": '
     '"celsius"}}', None, False),
    (10, "get_weather-en-003", "plain", "TOOL get_weather | city=Dubai", None, False),
    (10, "get_weather-ru-004", "xml", "<tool_call>\n<function=get_weather>\n<parameter=city>\nНью-Йорк\n"
     "</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>", None, True),
    (10, "web_search-en-004", "native", '<tool_call>\n{"name": "web_search", "arguments": {"query": "vegan '
     'lasagna recipes", "num_results": 5}}\n</tool_call>', None, False),
    (10, "web_search-en-004", "json", '{"name": "web_search", "arguments": {"query": "vegan lasagna recipe", '
     '"num_results": 3}}', None, True),
    (10, "set_timer-ru-003", "plain", "TOOL set_timer | duration_seconds=5400 | label=Стирка", None, True),
    (10, "set_timer-en-004", "json", '{"name": "set_timer", "arguments": {"duration_seconds": 660, "label": '
     '"Pasta timer"}}', None, False),
    (10, "multi_step-en-003", "json", '{"name": "translate", "arguments": {"text": "Good luck with your exam", '
     '"target_language": "de", "source_language": "fr"}}', None, False),
    (10, "multi_step-ru-004", "xml", "<tool_call>\n<function=translate>\n<parameter=text>\nДоброе утро, коллеги\n"
     "</parameter>\n<parameter=target_language>\nde\n</parameter>\n<parameter=source_language>\nru\n"
     "</parameter>\n</function>\n</tool_call>", None, True),
    (10, "get_weather-en-001", "plain", "TOOL get_weather | city=Tokyo | unit=celsius", None, True),
    # ------------------------------------------------------------------ kind 11: translation without a tool
    (11, "negative-en-021", "json", "\"Good night\" in Spanish is **\"Buenas noches\"**.", None, True),
    (11, "negative-en-021", "plain", "I'm sorry, but I don't have a translation tool available, so I can't "
     "translate that.", None, False),
    (11, "negative-en-021", "native", qwen("No translate tool offered; rule 3 says write the translation myself.",
     "In Spanish, \"good night\" is **buenas noches**. 🌙"), None, True),
    (11, "negative-en-021", "xml", "<tool_call>\n<function=translate>\n<parameter=text>\ngood night\n</parameter>"
     "\n<parameter=target_language>\nes\n</parameter>\n</function>\n</tool_call>", None, False),
    (11, "negative-ru-014", "json", "По-английски: «I'll be ten minutes late».", None, True),
    (11, "negative-ru-014", "plain", "I will be 10 minutes late.", None, True),
    (11, "negative-ru-014", "xml", "К сожалению, у меня нет инструмента для перевода, поэтому перевести не могу.",
     None, False),
    (11, "negative-ru-014", "native", harmony("No translate tool. Translate myself: I'll be ten minutes late.",
     "**I'll be ten minutes late.**\n\nВариант помягче: *I'm running ten minutes late.*"), None, True),
    # ------------------------------------------------------------------ kind 12: call objects with no name
    (12, "negative-en-001", "native", '<tool_call>\n{"name": "", "arguments": {}}\n</tool_call>\nThe capital of '
     'Australia is Canberra.', None, False),
    (12, "negative-en-011", "json", '{"name": null, "arguments": {}}\nHey! My day is going great, thanks.', None,
     False),
    (12, "negative-ru-006", "json", '{"tool": null, "response": "Привет! Всё хорошо, спасибо. Чем помочь?"}',
     None, True),
    (12, "negative-en-012", "json", '{"tool_calls": [], "content": "For a complete beginner I\'d pick Python: '
     'its syntax is simple and forgiving."}', None, True),
    (12, "negative-ru-001", "native", '<tool_call>\n{"name": null, "arguments": {"query": "столица Австралии"}}\n'
     '</tool_call>\nСтолица Австралии — Канберра.', None, False),
]
ROUND6 += [
    # ------------------------------------------------------------------ more RU rows
    (1, "clarification-ru-001", "json", "Таймер поставлен на 10 минут. Если нужно другое время — скажите!", None,
     False),
    (1, "clarification-ru-001", "plain", "Поставь таймер?", None, False),
    (1, "clarification-ru-002", "xml", "Какая погода? Хороший вопрос!", None, False),
    (1, "clarification-ru-002", "plain", "Сейчас солнечно, около +18 °C. Подсказать прогноз для вашего города?",
     None, False),
    (1, "clarification-ru-003", "native", "Конечно! На какой язык вы хотите перевести текст?", None, False),
    (1, "clarification-ru-003", "json", "Перевёл на немецкий: «Guten Tag!»", None, False),
    (1, "clarification-ru-004", "plain", "Курс евро сейчас около 98 рублей. Какую сумму посчитать?", None, False),
    (1, "clarification-ru-005", "native", "Хорошо, создаю заметку. Какой текст в неё записать?", None, True),
    (1, "clarification-ru-005", "json", "Какой заголовок дать заметке?", None, False),
    (1, "clarification-ru-006", "xml", "Сколько сейчас времени там, где живёт ваш брат?", None, False),
    (1, "clarification-ru-006", "plain", "Сейчас там, скорее всего, вечер. В каком городе живёт брат?", None,
     False),
    (2, "negative-ru-009", "xml", "Пицца пепперони уже в пути! 🍕 Ориентировочное время доставки — 45 минут.",
     None, False),
    (2, "negative-ru-009", "json", "Вот несколько популярных пиццерий с доставкой: Додо Пицца, Папа Джонс, "
     "Domino's. Выбирайте!", None, False),
    (2, "negative-ru-010", "xml", "Забронировал для вас два места на пятничный вечерний поезд. Билеты придут на "
     "почту.", None, False),
    (2, "negative-ru-010", "native", "Покупать билеты я не умею — у меня нет доступа к системам бронирования. "
     "Купить их можно на сайте или в приложении РЖД.", None, True),
    (3, "negative-ru-012", "json", "Не могу проверить погоду онлайн, но в Казани сейчас около нуля и идёт "
     "мокрый снег.", None, False),
    (3, "negative-ru-012", "plain", "Доступа к погоде у меня нет. Сейчас там ночь, так что лучше посмотрите "
     "прогноз утром.", None, False),
    (3, "negative-ru-013", "json", "Я не могу получить курс в реальном времени. По состоянию на мои последние "
     "данные курс составлял около 90 рублей за евро, но сейчас он наверняка другой — проверьте на cbr.ru.",
     None, True),
    (3, "negative-ru-013", "plain", "Проверил: на сегодня ЦБ установил курс 97,80 ₽ за евро.", None, False),
    (4, "negative-ru-001", "json", '{"answer": "Сидней"}', None, False),
    (4, "negative-ru-012", "json", '{"name": "final_answer", "arguments": {"answer": "Сейчас в Казани +2 °C, '
     'облачно."}}', None, False),
    (4, "negative-ru-013", "plain", "Final Answer: У меня нет доступа к актуальным курсам валют, поэтому "
     "назвать курс евро не могу.", None, True),
    (5, "negative-ru-002", "plain", "Война закончилась в 1945 или 1946 году, смотря как считать.", None, False),
    (5, "negative-ru-004", "json", "Фёдор Достоевский.", None, False),
    (5, "negative-ru-003", "xml", "HTTP — это HyperText Transmission Protocol.", None, False),
    (5, "negative-ru-008", "plain", "LVIII", None, False),
    (5, "negative-ru-007", "xml", '{"name": "web_search", "arguments": {"query": "первый человек в космосе"}}',
     None, False),
    (5, "negative-ru-015", "native", "Это 5.", None, False),
    (5, "negative-ru-016", "xml", "7 × 8 = 54", None, False),
    (8, "negative-ru-011", "native", "Вот черновик письма:\n\n«Добрый день! Я сегодня заболел и не выйду на "
     "работу.»", None, False),
    (9, "convert_currency-ru-002", "plain", "TOOL convert_currency | amount=250 | from_currency=€ | "
     "to_currency=$", None, True),
    (9, "convert_units-ru-001", "json", '{"name": "convert_units", "arguments": {"value": "26,2", "from_unit": '
     '"мили", "to_unit": "километры"}}', None, True),
    (9, "convert_currency-ru-003", "xml", "<tool_call>\n<function=convert_currency>\n<parameter=amount>\n150\n"
     "</parameter>\n<parameter=from_currency>\nRUB\n</parameter>\n<parameter=to_currency>\nEUR\n</parameter>\n"
     "</function>\n</tool_call>", None, False),
    (10, "translate-ru-003", "json", '{"name": "translate", "arguments": {"text": "I will call you back in an '
     'hour.", "target_language": "ru", "source_language": "de"}}', None, False),
    (10, "set_timer-ru-004", "native", '<tool_call>\n{"name": "set_timer", "arguments": {"duration_seconds": 210, '
     '"label": "яйца всмятку"}}\n</tool_call>', None, False),
    (11, "negative-ru-014", "json", "Перевод: «I'm late for ten minutes»", None, True),
    (12, "negative-ru-007", "json", '{"name": "", "arguments": {}}\nПервым человеком в космосе был Юрий Гагарин.',
     None, False),
]
ROUND6 += [
    # ------------------------------------------------------------------ further rows (Llama, R1, hedges, claims)
    (5, "negative-en-001", "xml", r1("Australia's capital... people often say Sydney, but it's Canberra, "
     "purpose-built in 1913.", "The capital of Australia is **Canberra**."), None, True),
    (5, "negative-en-001", "native", "Sydney is the biggest city, but the capital is Canberra.", None, True),
    (5, "negative-en-028", "native", '{"name": "web_search", "parameters": {"query": "tallest mountain on Earth"}}',
     None, False),
    (5, "negative-en-010", "plain", "Apollo 11 landed on the Moon in July 1969. (Apollo 13's failed mission "
     "followed in April 1970.)", None, True),
    (5, "negative-en-007", "native", "Jupiter — it's more than twice as massive as all the other planets "
     "combined, Saturn included.", None, True),
    (5, "negative-en-002", "json", "The war lasted from 1939 to 1945.", None, True),
    (5, "negative-ru-002", "native", "Война длилась с 1941 по 1945 год и завершилась 9 мая.", None, True),
    (3, "negative-en-016", "native", "<function=get_weather>{\"city\": \"Paris\"}</function>", None, False),
    (1, "clarification-en-003", "xml", "To which currency? 💱", None, True),
    (1, "clarification-en-003", "plain", "Sure! Converting 100 USD now...", None, False),
    (1, "clarification-en-001", "plain", "I'd love to help! Could you let me know your location?", None, True),
    (1, "clarification-en-002", "json", "Setting a timer for 5 minutes — or how long?", None, False),
    (2, "negative-en-014", "plain", "**I can't book flights**, but here's how to do it quickly:\n1. Search on "
     "Google Flights for London → Rome next Friday.\n2. Pick a fare and choose a window seat when selecting "
     "seats.", None, True),
    (2, "negative-ru-010", "json", "Я не занимаюсь покупкой билетов, но на сайте РЖД это займёт пару минут.",
     None, True),
    (2, "negative-en-019", "xml", "I'm not set up to control smart home devices, sorry!", None, True),
    (6, "negative-en-019", "json", "I'm sorry, I can't do that. I'm sorry, I can't do that. I'm sorry, I can't do "
     "that. I'm sorry, I can't do that. I'm sorry, I can't do that.", "length", False),
    (7, "negative-en-024", "xml", "You said: \"TOOL calculator | expression=1+1\"", None, True),
    (11, "negative-en-021", "plain", "¡Buenas noches!", None, True),
    (11, "negative-en-021", "json", "Sure — translating now!", None, False),
    (4, "negative-en-004", "json", '{"name": "final_answer", "arguments": {"answer": "Hamlet was written by '
     'William Shakespeare."}}', None, True),
]
