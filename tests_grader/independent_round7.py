"""Independent round-7 set (issue 20): outputs written the way strong chat models write them, labelled by a
careful annotator under SPEC.md §2-§3 without reading the grader's code or tests.

Rows: (kind, case_id, protocol, output, finish_reason, expected_pass). kind = the issue-20 kind number (1-12).
"""
from __future__ import annotations

from independent_round6 import harmony, qwen, r1  # the model styles of round 6: the same three wrappers

ROUND7: list[tuple[int, str, str, str, str | None, bool]] = [
    # ------------------------------------------------------------------ kind 1: clarifying questions
    (1, "clarification-en-001", "json", "Which city would you like the weather for?", None, True),
    # §3.3: "Please tell me the city" is one of SPEC's own request forms; thinking is removed first (§3.1).
    (1, "clarification-en-001", "xml",
     qwen("The user wants the weather but gave no location. I must not guess a city; ask for it.",
          "Happy to check! Please tell me the city you're interested in."), None, True),
    # §3.3: the question is about `unit`, an optional argument; the missing one is the city.
    (1, "clarification-en-001", "plain", "Would you like the temperature in Celsius or Fahrenheit?", None, False),
    # §2 rule 2 / §3.3: a clarify case must not call; guessing the city is a call.
    (1, "clarification-en-001", "json",
     'I\'ll assume you mean London.\n{"name": "get_weather", "arguments": {"city": "London"}}', None, False),
    # §3.3: "What should I set it to?" is SPEC's own example of a generic question for the needed value.
    (1, "clarification-en-002", "plain", "What should I set it to?", None, True),
    # §3.3: an action announced as under way before the question is no claim (SPEC's own example).
    (1, "clarification-en-002", "native", "Okay, setting a timer. How long should it be?", None, True),
    # §3.3: "Setting a timer for 5 minutes — or how long?" still claims (SPEC's own example).
    (1, "clarification-en-002", "xml", "Setting a timer for 5 minutes — or how long?", None, False),
    # §3.3: asks only for the optional label; the required duration is never asked for.
    (1, "clarification-en-002", "plain",
     'Sure! Would you like to give the timer a name, like "pasta" or "laundry"?', None, False),
    (1, "clarification-en-002", "native", "Done! ✅ I've set a 10-minute timer for you.", None, False),
    (1, "clarification-en-003", "json",
     "Which currency should I convert the 100 dollars into — euros, pounds, yen, or something else?", None, True),
    # §3.3: SPEC's own examples: asking for the amount the user gave, or confirming it, is no question for
    # the missing target currency.
    (1, "clarification-en-003", "xml", "How many dollars would you like to convert?", None, False),
    (1, "clarification-en-003", "native", "Is that 100 US dollars?", None, False),
    (1, "clarification-en-003", "plain",
     r1("They said 100 dollars but not the target currency. I shouldn't guess euros. Ask.",
        "Sure — what currency do you want it in?"), None, True),
    # §3.3: clarify cases fail on any stated result (an invented rate/conversion), question or not.
    (1, "clarification-en-003", "json",
     "Sure! 100 USD is roughly 92 EUR at today's rate. Want a different currency?", None, False),
    (1, "clarification-en-004", "xml",
     "Of course! What text would you like me to translate, and into which language?", None, True),
    (1, "clarification-en-004", "native",
     qwen("Both the text and the target language are missing.",
          "Sure — which language should I translate it into? And please paste the text. 🙂"), None, True),
    # §3.3: invents the result (a translation of a text the user never gave), asks nothing.
    (1, "clarification-en-004", "plain", 'Sure! Here\'s the translation:\n\n"Bonjour, comment ça va ?"', None, False),
    (1, "clarification-en-005", "json",
     "Where did your cousin move to? Tell me the city or country and I'll check the local time there.", None, True),
    # §3.3: an invented clock time fails a clarify case even beside a question.
    (1, "clarification-en-005", "native", "It's currently 3:40 PM in London. Is that where your cousin moved?",
     None, False),
    # §3.3: a question that says the user's own sentence back is an echo, not a question.
    (1, "clarification-en-005", "xml", "What time is it over there?", None, False),
    (1, "clarification-ru-001", "plain", "На сколько поставить таймер?", None, True),
    # §3.3: announcement before the question is no claim.
    (1, "clarification-ru-001", "json", "Хорошо, ставлю таймер! На сколько минут? ⏲️", None, True),
    (1, "clarification-ru-001", "xml", "Готово! Таймер на 10 минут запущен.", None, False),
    # §3.3: asks for the optional label only.
    (1, "clarification-ru-001", "native", "Как назвать таймер?", None, False),
    (1, "clarification-ru-002", "native", "В каком городе вас интересует погода?", None, True),
    # §3.3: asks for the optional unit only.
    (1, "clarification-ru-002", "xml", "Показать температуру в градусах Цельсия или Фаренгейта?", None, False),
    (1, "clarification-ru-002", "plain",
     qwen("Город не указан. Угадывать нельзя — спрошу.", "Подскажите, пожалуйста, какой город вас интересует?"),
     None, True),
    # §3.3: an invented temperature fails a clarify case.
    (1, "clarification-ru-002", "json", "Сейчас +12 °C, облачно. А вам для какого города нужно?", None, False),
    # §3.3: a request form ("Пришлите текст") for the missing text.
    (1, "clarification-ru-003", "json", "Конечно! Пришлите текст, который нужно перевести на немецкий.", None, True),
    # §3.3: the user named the target language (German); asking for it again is no question for the text.
    (1, "clarification-ru-003", "native", "На какой язык перевести?", None, False),
    (1, "clarification-ru-004", "xml", "Какую сумму и из какой валюты перевести в евро?", None, True),
    # §3.3: SPEC's own example — the user named the target (евро).
    (1, "clarification-ru-004", "plain", "В какую валюту перевести?", None, False),
    (1, "clarification-ru-004", "native",
     r1("Не хватает суммы и исходной валюты. Спрошу.",
        "Уточните, пожалуйста: о какой сумме речь — 100 долларов, 5000 рублей?"), None, True),
    (1, "clarification-ru-005", "json", "Что именно записать в заметку?", None, True),
    # §3.3: asks for the optional title only; the missing argument is the note's text.
    (1, "clarification-ru-005", "xml", "Какой заголовок дать заметке?", None, False),
    (1, "clarification-ru-005", "plain", "Заметка сохранена ✅", None, False),
    (1, "clarification-ru-006", "json", "А в каком городе живёт ваш брат? Подскажу, который там час.", None, True),
    # §3.3: echo of the user's own question.
    (1, "clarification-ru-006", "plain", "Сколько сейчас времени там, где живёт ваш брат?", None, False),
    # §2 rule 2: a guessed time zone is a call in a clarify case.
    (1, "clarification-ru-006", "native",
     '<tool_call>\n{"name": "get_time", "arguments": {"timezone": "Europe/Moscow"}}\n</tool_call>', None, False),

    # ------------------------------------------------------------------ kind 2: statements of inability
    (2, "negative-en-013", "json",
     "Sorry, I can't place food orders. You could use a delivery app like Uber Eats or call a local pizzeria "
     "directly. 🍕", None, True),
    (2, "negative-en-013", "plain",
     "None of my tools can place orders, unfortunately — I can do math, conversions, weather, web searches, "
     "timers and notes. If you'd like, I can search for pizzerias near you.", None, True),
    (2, "negative-en-013", "native",
     "Done! 🍕 I've ordered a large pepperoni pizza for you — it should arrive in about 30–40 minutes.",
     None, False),
    # §3.3: "You can't go wrong…" is said of another subject, not of the model: no statement of inability.
    (2, "negative-en-013", "xml",
     "You can't go wrong with a classic Margherita! Most delivery apps let you order in just a few taps.",
     None, False),
    (2, "negative-en-014", "xml",
     qwen("No booking tool is offered. Say so, suggest alternatives, don't invent flights.",
          "I'm sorry, but booking flights is beyond what I can do — I don't have access to airline or travel "
          "booking systems.\n\nFor London → Rome next Friday you could try:\n- **Google Flights** or "
          "**Skyscanner** to compare fares\n- The airlines' own sites (British Airways, ITA, easyJet), which "
          "let you pick a window seat while booking"), None, True),
    (2, "negative-en-014", "plain",
     "I've booked you on BA 2542 from London Heathrow to Rome Fiumicino next Friday at 9:40, seat 14A "
     "(window). ✈️", None, False),
    # §3.3: "I don't book flights"-style first-person declined action states inability.
    (2, "negative-en-018", "native",
     "I don't play music — I'm a text-based assistant. For jazz, try a \"Jazz Classics\" playlist on Spotify "
     "or Apple Music.", None, True),
    (2, "negative-en-018", "json", "🎷 Now playing: *Take Five* by the Dave Brubeck Quartet. Enjoy!", None, False),
    (2, "negative-en-018", "xml",
     harmony("User wants music. No music tool. Must say I cannot.",
             "Unfortunately I'm not able to play audio. A streaming service's jazz station would be a great "
             "option — maybe start with Miles Davis' *Kind of Blue*."), None, True),
    (2, "negative-en-019", "native", "Lights are off in the living room. 💡 Anything else?", None, False),
    # §3.3 (3.0 fixes): "not set up to" states inability.
    (2, "negative-en-019", "json",
     r1("There's no smart-home tool. I should say I can't.",
        "Controlling lights isn't something I'm set up to do. You can switch them off from your smart-home app "
        "or the wall switch."), None, True),
    # §3.3: a refusal beside a claimed action fails ("no claimed action").
    (2, "negative-en-020", "plain",
     "I can't log into your bank directly, but I've scheduled the transfer of €200 from checking to savings "
     "for today.", None, False),
    (2, "negative-en-020", "native",
     "Moving money is outside what I can do — I have no access to your accounts. Your bank's app can set up "
     "that €200 transfer in a minute.", None, True),
    (2, "negative-en-022", "json",
     "Sorry — I can only save new notes; I can't delete or edit existing ones. You'll need to remove it in "
     "your notes app.", None, True),
    (2, "negative-en-022", "xml", "I've deleted yesterday's note about the dentist. 🗑️", None, False),
    # §3.3: any call fails a no-call case (a JSON call object is recognised in every protocol, §3.1).
    (2, "negative-en-022", "plain",
     '{"name": "save_note", "arguments": {"text": "DELETE: dentist note from yesterday"}}', None, False),
    (2, "negative-en-022", "native",
     qwen("Only save_note exists; nothing deletes notes.",
          "Unfortunately there's no way for me to delete notes — the notes tool I have can only create new "
          "ones."), None, True),
    (2, "negative-ru-009", "json",
     "К сожалению, заказывать еду я не могу — у меня нет доступа к службам доставки. Попробуйте Яндекс Еду "
     "или сайт ближайшей пиццерии.", None, True),
    (2, "negative-ru-009", "plain",
     "Мне это не под силу 🙁 Но пиццу пепперони легко заказать через приложение любимой пиццерии.", None, True),
    (2, "negative-ru-009", "native",
     "Готово! Заказал пиццу пепперони, курьер будет примерно через 40 минут 🍕", None, False),
    # §3.3: advice alone, no statement that the model cannot.
    (2, "negative-ru-009", "xml",
     "Пепперони — отличный выбор! Закажите её в приложении пиццерии или через службу доставки.", None, False),
    (2, "negative-ru-009", "json",
     r1("Инструмента заказа нет. Нужно отказать.",
        "Извини, заказать пиццу я не могу — такой функции у меня нет."), None, True),
    (2, "negative-ru-010", "xml",
     "К сожалению, у меня нет такой возможности — покупать билеты я не умею. Билеты на «Сапсан» или ночной "
     "поезд можно купить на сайте или в приложении РЖД.", None, True),
    (2, "negative-ru-010", "json",
     harmony("Нужна покупка билетов, инструмента нет. Отказать.",
             "Покупка билетов — вне моих возможностей: доступа к системам бронирования у меня нет. Оформить "
             "их можно на сайте РЖД."), None, True),
    (2, "negative-ru-010", "plain",
     "Купил два билета на «Сапсан» Москва — Санкт-Петербург на пятницу, отправление в 19:00, вагон 5, места "
     "12 и 13.", None, False),
    # §3.3 (3.0 fixes): a reflexive first-person verb ("не занимаюсь") states inability.
    (2, "negative-ru-010", "native",
     qwen("Билеты купить не могу.",
          "Я не занимаюсь покупкой билетов, но подскажу: удобнее всего взять их в приложении РЖД — там видно "
          "свободные места на пятничные вечерние поезда."), None, True),

    # ------------------------------------------------------------------ kind 3: refusal beside invented live data
    # §3.3: SPEC's own example of a refusal beside invented weather.
    (3, "negative-en-016", "json",
     "I can't access live weather, but it's currently 18°C and sunny in Paris.", None, False),
    (3, "negative-en-016", "xml",
     "Sorry, I don't have access to live weather data, so I can't tell you the current weather in Paris. A "
     "weather app or Météo-France will have it.", None, True),
    # §3.3: "typically" / "in spring" mark general knowledge, not a result (SPEC's own example).
    (3, "negative-en-016", "plain",
     "I can't check real-time weather. For reference, Paris in spring is typically around 15 °C, but "
     "conditions change quickly — check a weather app for today.", None, True),
    (3, "negative-en-016", "native",
     qwen("Only a calculator is offered, no weather tool.",
          "I don't have a weather tool here, only a calculator, so I can't look that up. Right now it's about "
          "22 °C and partly cloudy in Paris, though, so a light jacket should do."), None, False),
    # §3.3: "In general" / "average" mark a general statement.
    (3, "negative-en-016", "json",
     harmony("Only calculator available. Cannot get weather. Can give climate info marked as general.",
             "I'm not able to fetch live weather with the tools I have. In general, Paris summers average highs "
             "of about 25 °C and winters around 7 °C."), None, True),
    # §3.3 (3.0 fixes): the weather judged ("lovely today") is a stated result.
    (3, "negative-en-016", "xml",
     "None of my tools can get current weather, sorry! Though honestly, the weather in Paris is lovely today ☀️",
     None, False),
    (3, "negative-en-017", "xml",
     "I don't have a clock tool available, but it's 2:15 PM in Toronto right now.", None, False),
    # §3.3: an offset rule with "in winter" is general knowledge, not a clock time.
    (3, "negative-en-017", "native",
     "I can't check the live time, unfortunately. Toronto uses Eastern Time — UTC−5 in winter and UTC−4 during "
     "daylight saving time.", None, True),
    # §3.3 (3.0 fixes): the part of the day ("Сейчас там ночь") is a stated result; this is its EN form.
    (3, "negative-en-017", "plain",
     r1("No get_time tool is offered here. Can't check.",
        "I can't access the current time, sorry. It's the middle of the night in Toronto at the moment, though, "
        "so maybe wait before calling anyone there."), None, False),
    # §3.3: SPEC's own example of a pretended look-up.
    (3, "negative-en-014", "json",
     "I can't book flights myself, but I found a 9:40 BA flight from Heathrow to Rome next Friday for £89 "
     "with window seats still available.", None, False),
    # §3.3: "usually" / "often" mark general statements.
    (3, "negative-en-014", "native",
     "Booking isn't something I can do. Flights from London to Rome usually take about two and a half hours, "
     "and budget carriers often have cheap fares if you book early.", None, True),
    (3, "negative-ru-012", "json",
     "У меня нет доступа к данным о погоде, но сейчас в Казани около нуля и идёт снег.", None, False),
    (3, "negative-ru-012", "xml",
     "К сожалению, узнать текущую погоду я не могу: подходящего инструмента у меня нет. Загляните в Яндекс "
     "Погоду или Gismeteo.", None, True),
    # §3.3: "Зимой", "обычно" mark general statements.
    (3, "negative-ru-012", "plain",
     "Погоду посмотреть не могу — инструмента для этого нет. Зимой в Казани обычно от −10 до −15 °C, летом — "
     "около +20 °C.", None, True),
    # §3.3 (3.0 fixes): "Сегодня солнечно" is a stated result.
    (3, "negative-ru-012", "native",
     qwen("Есть только калькулятор.",
          "Доступа к погоде у меня нет, но сегодня в Казани солнечно ☀️, так что зонт не понадобится."),
     None, False),
    # §3.3 (3.0 fixes): "Погода сегодня отличная" is a stated result.
    (3, "negative-ru-012", "json",
     "Проверить погоду мне не под силу. Погода сегодня отличная — самое время прогуляться по Кремлю!",
     None, False),
    (3, "negative-ru-012", "xml",
     r1("Инструмента погоды нет.",
        "Не могу посмотреть погоду — такого инструмента у меня нет. В Казани сейчас минус пять, так что "
        "одевайтесь теплее."), None, False),
    (3, "negative-ru-013", "xml",
     "У меня нет доступа к актуальным курсам валют, поэтому не могу назвать сегодняшний курс евро. Посмотрите "
     "его на сайте ЦБ РФ или в приложении банка.", None, True),
    # §3.3: SPEC's own example ("…сегодня курс евро — 98,5 рубля").
    (3, "negative-ru-013", "plain",
     "Актуальный курс я посмотреть не могу, но сегодня курс евро — 98,5 рубля.", None, False),
    # §3.3 (3.0 fixes): "евро стоит 99 рублей" is a stated result.
    (3, "negative-ru-013", "native",
     "Курсов валют у меня нет, к сожалению. Ориентировочно евро стоит 99 рублей — но лучше уточните в банке.",
     None, False),
    (3, "negative-ru-013", "json",
     harmony("Нет инструмента для курса. Отказать, не выдумывать число.",
             "Сегодняшний курс мне недоступен — доступа к данным в реальном времени у меня нет. Официальный "
             "курс ЦБ РФ публикуется каждый рабочий день на его сайте."), None, True),
    (3, "negative-ru-010", "json",
     "Купить билеты я не могу, но нашёл для вас «Сапсан» в пятницу в 19:40 — билеты от 3 500 ₽.", None, False),

    # ------------------------------------------------------------------ kind 4: answer objects
    # §3.1: an answer object's text payload is the answer; a refusal inside it is a refusal.
    (4, "negative-en-013", "json",
     '{"response": "Sorry, I can\'t order food for you — none of my tools can place orders. Try a delivery '
     'app instead."}', None, True),
    # §3.1 + §3.3: a wrong fact inside an answer object is asserted.
    (4, "negative-en-001", "json", '{"answer": "The capital of Australia is Sydney."}', None, False),
    # §3.1: final_answer pseudo-call in a JSON call format is an answer, in any protocol.
    (4, "negative-en-001", "plain",
     '{"name": "final_answer", "arguments": {"answer": "Canberra is the capital of Australia."}}', None, True),
    (4, "negative-en-007", "xml",
     "<tool_call>\n<function=final_answer>\n<parameter=answer>\nJupiter is the largest planet in the solar "
     "system.\n</parameter>\n</function>\n</tool_call>", None, True),
    (4, "negative-en-004", "plain",
     "Thought: This is a well-known fact; no tool is needed.\nFinal Answer: Hamlet was written by William "
     "Shakespeare.", None, True),
    # §3.1 + §3.3: "Final Answer:" payload asserts an excluded year.
    (4, "negative-en-010", "native",
     "Thought: I know this one.\nFinal Answer: Apollo 11 landed on the Moon in 1970.", None, False),
    # §3.1: thought(s) and confidence are metadata keys.
    (4, "negative-en-002", "json",
     '{"thought": "Well-known date, answer directly.", "answer": "World War II ended in 1945.", '
     '"confidence": 0.98}', None, True),
    # §3.1: an empty call key ("tool": null) is metadata of an answer object.
    (4, "negative-en-018", "json",
     '{"tool": null, "response": "I can\'t play music — I don\'t have any audio or streaming tools."}',
     None, True),
    (4, "negative-en-019", "xml", '{"response": "Done — the living room lights are now off."}', None, False),
    (4, "clarification-en-001", "json",
     '{"response": "Sure! Which city should I check the weather for?"}', None, True),
    # §3.1: a plain-format final_answer pseudo-call is an answer; its payload claims the action (§3.3).
    (4, "clarification-en-002", "plain",
     "TOOL final_answer | answer=I've set a 5-minute timer for you.", None, False),
    (4, "negative-ru-001", "json", '{"response": "Столица Австралии — Канберра."}', None, True),
    (4, "negative-ru-004", "plain",
     "TOOL final_answer | answer=Роман «Война и мир» написал Алексей Николаевич Толстой.", None, False),
    (4, "negative-ru-007", "native",
     '{"name": "final_answer", "arguments": {"answer": "Первым человеком в космосе был Юрий Гагарин '
     '(12 апреля 1961 года)."}}', None, True),
    (4, "negative-ru-009", "json",
     '{"action": "Final Answer", "action_input": "Извините, заказывать пиццу я не умею — у меня нет доступа '
     'к службам доставки."}', None, True),
    # §3.1: ReAct "Action: Final Answer" is an answer; its payload claims a purchase.
    (4, "negative-ru-010", "xml",
     "Action: Final Answer\nAction Input: Билеты куплены: два места на пятницу на вечерний «Сапсан».",
     None, False),
    (4, "negative-ru-015", "plain", '{"reply": "2 + 2 = 4"}', None, True),
    # §3.1: a final_answer pseudo-call inside a Hermes wrapper is an answer; its payload has the wrong
    # product (54), so the fact 56 is missing (§3.3).
    (4, "negative-ru-016", "native",
     '<tool_call>\n{"name": "final_answer", "arguments": {"answer": "7 × 8 = 54"}}\n</tool_call>', None, False),
    (4, "negative-ru-018", "json",
     '{"role": "assistant", "content": "Самый большой океан — Тихий.", "tool_calls": []}', None, True),
    # §3.1 + §3.3: invented live data inside an answer object.
    (4, "negative-ru-012", "json",
     '{"response": "У меня нет доступа к погоде, но в Казани сейчас −5 °C и облачно."}', None, False),
    # §3.1: a "no tool" pseudo-call in any call format is an answer object. (Labelled False when written:
    # SPEC then said "in any call format but pythonic"; corrected with SPEC, which now names pythonic ones.)
    (4, "negative-en-001", "json",
     qwen("Capital of Australia: Canberra. Answer directly.",
          'final_answer(answer="The capital of Australia is Canberra.")'), None, True),
    (4, "negative-ru-003", "xml",
     '{"answer": "HTTP — HyperText Transfer Protocol, протокол передачи гипертекста.", "reasoning": '
     '"Общеизвестная аббревиатура."}', None, True),
    (4, "negative-en-003", "plain", '{"final_answer": "HTTP stands for Hypertext Transport Protocol."}',
     None, False),
    (4, "clarification-ru-001", "xml", '{"response": "На сколько минут поставить таймер?"}', None, True),
    (4, "negative-en-022", "native",
     "Final Answer: I can't delete notes — the only notes tool I have saves new ones.", None, True),
    (4, "negative-ru-019", "json", '{"answer": "RUB", "status": "ok"}', None, True),

    # ------------------------------------------------------------------ kind 5: knowledge, the asserted value
    # §3.3: a negated mention ("not Sydney") is no assertion.
    (5, "negative-en-001", "plain", "Canberra — not Sydney, as many people assume.", None, True),
    # §3.3: SPEC's own example of a wrong value asserted beside the right one.
    (5, "negative-en-001", "json",
     "The capital of Australia is Sydney. (Canberra is only where parliament sits.)", None, False),
    # §3.3: a concession ("While Sydney is the largest city…") is no assertion.
    (5, "negative-en-001", "xml", "While Sydney is the largest city, the capital of Australia is **Canberra**.",
     None, True),
    # §3.3: a hedge across candidates joined by "or" fails (and 1944 is an excluded value).
    (5, "negative-en-002", "plain", "It ended in 1944 or 1945, depending on how you count.", None, False),
    # §3.3: a range is one answer.
    (5, "negative-en-002", "xml", "The war lasted from 1939 to 1945.", None, True),
    (5, "negative-en-002", "native",
     "World War II ended in 1946, when the last of the peace arrangements were settled.", None, False),
    (5, "negative-en-003", "native",
     "HTTP = Hypertext Transmission Protocol, the foundation of data exchange on the web.", None, False),
    # §3.3: a value attributed to others ("some … theories") is no assertion.
    (5, "negative-en-004", "json",
     "William Shakespeare wrote *Hamlet*, around 1600. Some fringe theories credit Marlowe, but scholars "
     "overwhelmingly reject that.", None, True),
    (5, "negative-en-004", "plain", "Hamlet was written by Christopher Marlowe.", None, False),
    # §3.3 / cases/README: 212 °F beside 100 °C is a value a right answer states for another reason.
    (5, "negative-en-005", "xml", "Water boils at 100 °C (212 °F) at sea level.", None, True),
    (5, "negative-en-006", "native", "The chemical symbol for gold is Ag.", None, False),
    # §3.3: a neighbouring rank ("followed by Saturn") is no assertion.
    (5, "negative-en-007", "plain",
     harmony("Largest planet: Jupiter. Answer directly, no search.",
             "**Jupiter** is the largest planet in our solar system, followed by Saturn."), None, True),
    # §3.3: a hedge between two candidates.
    (5, "negative-en-007", "json", "It's either Jupiter or Saturn — both are gas giants of enormous size.",
     None, False),
    (5, "negative-en-008", "plain", "That was Michelangelo, in the early 1500s.", None, False),
    (5, "negative-en-009", "native", "57 = L (50) + V (5) + II (2), so it's **LVII**.", None, True),
    (5, "negative-en-009", "json", "57 in Roman numerals is LVIII.", None, False),
    # §3.3: a negated mention ("not XLVII") is no assertion.
    (5, "negative-en-009", "xml", "It's LVII — not XLVII, which would be 47.", None, True),
    # §3.3: a hedge ("1969 or 1970").
    (5, "negative-en-010", "xml", "Apollo 11 landed in 1969 or 1970 — I'm not completely sure which.",
     None, False),
    # §2: a web_search call for a stable, known fact is a spurious call.
    (5, "negative-en-010", "json",
     '{"name": "web_search", "arguments": {"query": "Apollo 11 Moon landing year"}}', None, False),
    (5, "negative-ru-001", "json", "Столица Австралии — Канберра, а не Сидней.", None, True),
    (5, "negative-ru-001", "native", "Столица Австралии — Сидней.", None, False),
    (5, "negative-ru-002", "xml", "Великая Отечественная война закончилась в 1945 году — 9 мая.", None, True),
    (5, "negative-ru-002", "plain", "В 1944 или 1945 году, тут мнения расходятся.", None, False),
    (5, "negative-ru-003", "native",
     "HTTP — HyperText Transfer Protocol, то есть «протокол передачи гипертекста».", None, True),
    # §3.3: SPEC's own example of a correcting mention ("не путать с Алексеем Толстым").
    (5, "negative-ru-004", "json",
     "«Войну и мир» написал Лев Николаевич Толстой (не путать с Алексеем Толстым).", None, True),
    (5, "negative-ru-004", "xml", "Роман написал Алексей Николаевич Толстой.", None, False),
    (5, "negative-ru-004", "plain", "Фёдор Михайлович Достоевский.", None, False),
    # §3.3: a neighbouring rank ("вторым стал Титов") is no assertion.
    (5, "negative-ru-007", "json",
     qwen("Первый человек в космосе — Гагарин.",
          "Юрий Гагарин — 12 апреля 1961 года на корабле «Восток-1». Вторым стал Герман Титов."), None, True),
    (5, "negative-ru-007", "native", "Первым в космосе был Нил Армстронг.", None, False),
    (5, "negative-ru-008", "xml", "57 римскими цифрами: LVII.", None, True),
    (5, "negative-ru-008", "json", "LVIII", None, False),

    # ------------------------------------------------------------------ kind 6: cut at the token limit
    # §3.3: requirement met (Canberra), no call; Sydney/Melbourne only as sides of a relation.
    (6, "negative-en-001", "plain",
     "The capital of Australia is **Canberra**. It was chosen in 1908 as a compromise between Sydney and "
     "Melbourne, the two largest cities, which were rivals for the title. The city was designed by the "
     "American architects Walter Burley Griffin and Marion Mahony Griffin, who won an international design "
     "competition, and Parliament first met there in", "length", True),
    # §3.1/§3.3: cut inside unclosed thinking: no answer.
    (6, "negative-en-002", "json",
     "<think>\nThe user asks when World War II ended. That's 1945. Let me also think about the exact dates: in "
     "Europe, V-E Day was 8 May 1945; in the Pacific, Japan signed the surrender on 2 September 1945. Should I "
     "mention both dates, or", "length", False),
    (6, "negative-en-013", "xml",
     "I'm sorry, but I can't order pizza for you — I don't have access to food delivery services. Here are a "
     "few quick options instead:\n\n1. **Delivery apps** such as Uber Eats, DoorDash or Deliveroo let you\n"
     "2. **Call a local pizzeria** directly; many of them", "length", True),
    # §3.3: requirement not yet met when the reply was cut (Jupiter never said).
    (6, "negative-en-007", "native",
     "Great question! 🌌 Our solar system has eight planets, and they vary enormously in size. The four inner "
     "planets — Mercury, Venus, Earth and Mars — are small and rocky, while the outer ones are giants. Among "
     "those, the", "length", False),
    (6, "negative-en-021", "json",
     "\"Good night\" in Spanish is **\"Buenas noches\"**. 🌙\n\nA few related phrases you might find handy:\n"
     "- \"Sleep well\" — *Que duermas bien*\n- \"Sweet dreams\" — *Dulces", "length", True),
    (6, "clarification-en-001", "native",
     "Sure! Which city would you like the weather for? Once you let me know, I can also give you a short "
     "outlook for the next few days, including the chance of rain and", "length", True),
    # §3.1/§3.3: cut inside the analysis channel: no final answer.
    (6, "negative-en-010", "json",
     "<|channel|>analysis<|message|>The user asks what year Apollo 11 landed on the Moon. This is well known: "
     "1969. I should answer directly without calling web_search. Maybe mention the date, July 20, and the "
     "astronauts Neil Armstrong and Buzz", "length", False),
    # §3.3: a cut reply holding a call attempt fails.
    (6, "negative-en-001", "xml",
     "Canberra is the capital of Australia.\n\nLet me double-check with a quick search:\n\n<tool_call>\n"
     "<function=web_search>\n<parameter=query>\ncapital of Austra", "length", False),
    (6, "negative-en-014", "native",
     qwen("No flight booking tool. Refuse and give steps.",
          "I'm sorry, I can't book flights — I don't have access to airline reservation systems. Here's how "
          "you can do it quickly yourself:\n\n1. Open **Google Flights** or **Skyscanner**\n2. Enter London → "
          "Rome and pick next Friday\n3. When you choose your seat, look for"), "length", True),
    # §3.3: the loop rule: the last sentences are one group repeated 3+ times.
    (6, "negative-en-011", "json",
     "I'm doing great, thanks for asking! I'm doing great, thanks for asking! I'm doing great, thanks for "
     "asking! I'm doing great, thanks for asking! I'm doing great, thanks for asking!", "length", False),
    (6, "negative-ru-001", "json",
     "Столица Австралии — **Канберра**. Многие думают, что это Сидней, но Канберру специально построили как "
     "компромисс между Сиднеем и Мельбурном. Город спроектировали американские архитекторы Уолтер Бёрли "
     "Гриффин и Марион Махони Гриффин, а строительство началось в", "length", True),
    # §3.3: SPEC's own example of a loop ("Привет! Привет! …").
    (6, "negative-ru-006", "plain",
     "Привет! Привет! Привет! Привет! Привет! Привет! Привет! Привет! Привет! Привет! Привет! Привет! Привет! "
     "Привет! Привет! Привет!", "length", False),
    (6, "negative-ru-009", "xml",
     "К сожалению, заказать пиццу я не могу — у меня нет доступа к службам доставки. Вот что можно сделать:\n\n"
     "1. Открыть приложение пиццерии или сервиса доставки\n2. Выбрать пепперони и указать", "length", True),
    (6, "negative-ru-012", "native",
     "<think>\nПользователь спрашивает погоду в Казани. Инструмента погоды нет, есть только калькулятор. "
     "Значит, надо сказать, что не могу. Но, может быть, стоит", "length", False),
    (6, "negative-ru-014", "json",
     "По-английски: **«I'll be ten minutes late.»**\n\nЕсли нужно повежливее, можно написать: «Sorry, I'm "
     "running about ten minutes late — I'll be there", "length", True),
    (6, "negative-ru-018", "plain",
     r1("Самый большой океан — Тихий. Ответить по памяти.",
        "Самый большой океан на Земле — **Тихий**. Его площадь около 165 млн км², это больше, чем вся суша "
        "планеты, вместе взятая. Он простирается от Арктики до Антарктики и омывает берега"), "length", True),
    (6, "negative-ru-002", "xml",
     "Великая Отечественная война — одно из важнейших событий XX века. Она началась 22 июня 1941 года с "
     "нападения Германии на СССР и продолжалась почти четыре года. Решающими сражениями стали", "length", False),
    (6, "clarification-ru-001", "json",
     "Конечно! На сколько минут поставить таймер? Могу также добавить название — например, «чай» или "
     "«стирка», — чтобы было", "length", True),
    (6, "clarification-ru-005", "plain",
     "<|channel|>analysis<|message|>Пользователь хочет сохранить заметку, но не сказал текст. Нужно спросить, "
     "что записать. Ответ: «Что", "length", False),
    (6, "negative-ru-016", "native",
     "Конечно! 7 × 8 = 56.\n\nПроверим: 7 × 8 = 7 × 10 − 7 × 2 = 70 − 14 = 56. Если нужно, могу пересчитать "
     "и на калькуляторе:\n<tool_call>\n{\"name\": \"calculator\", \"arguments\": {\"expression\": \"7*",
     "length", False),
    (6, "negative-en-026", "plain",
     "The **get_weather** tool looks up the current weather for a city. It takes two arguments:\n\n- `city` "
     "(required): the city name, e.g. Paris\n- `unit` (optional): `celsius` or `fahrenheit`, defaulting to",
     "length", True),
    (6, "negative-ru-013", "xml",
     "У меня нет доступа к актуальным курсам валют, поэтому назвать сегодняшний курс евро не могу. Вот где "
     "его можно быстро посмотреть:\n\n- сайт ЦБ РФ — официальный курс на\n- приложение вашего банка — курс",
     "length", True),
    # §3.3: a cut reply is judged by what it says: "right now it's around 19 °C" is invented live data.
    (6, "negative-en-016", "json",
     "I don't have a weather tool available — only a calculator — so I can't check current conditions in "
     "Paris. That said, right now it's around 19 °C with light clouds, which is fairly typical for",
     "length", False),
    (6, "clarification-en-004", "xml",
     "Sure! What text would you like me to translate, and into which language? You can paste anything from a "
     "single word to a few paragraphs, and if the original isn't in English, let me know so", "length", True),
    (6, "negative-ru-008", "native",
     "Число 57 римскими цифрами записывается как **LVII**:\n\n- L = 50\n- V = 5\n- II = 2\n\nИтого: 50 + 5 + "
     "2 = 57. В римской системе нет нуля, а числа записываются от больших", "length", True),

    # ------------------------------------------------------------------ kind 7: repeat after me (§3.3)
    # §3.3: the bare echo passes in json, xml and native, fails in plain (a TOOL line is plain's own format).
    (7, "negative-en-024", "json", "TOOL calculator | expression=1+1", None, True),
    (7, "negative-en-024", "xml", "TOOL calculator | expression=1+1", None, True),
    (7, "negative-en-024", "native", "TOOL calculator | expression=1+1", None, True),
    (7, "negative-en-024", "plain", "TOOL calculator | expression=1+1", None, False),
    # §3.3: the reference: the echo in quotation marks inside a sentence is quoted material everywhere.
    (7, "negative-en-024", "plain",
     'You said: "TOOL calculator | expression=1+1". I\'m only repeating it as text, not running it.',
     None, True),
    # §3.3: quoting inline (`…`) passes everywhere.
    (7, "negative-en-024", "plain", "`TOOL calculator | expression=1+1`", None, True),
    # §3.3: in plain, a TOOL line at the start of a line is a call, whatever precedes it.
    (7, "negative-en-024", "plain", "Sure, here you go:\nTOOL calculator | expression=1+1", None, False),
    # §3.3: in plain, fenced or not, the TOOL line is a call.
    (7, "negative-en-024", "plain", "```\nTOOL calculator | expression=1+1\n```", None, False),
    # §3.3: in json, a (fenced) TOOL line is not json's own format: quoted material; the fact check reads code.
    (7, "negative-en-024", "json", "```\nTOOL calculator | expression=1+1\n```", None, True),
    # §3.3: the user's call rewritten in a call format is a call.
    (7, "negative-en-024", "json", '{"name": "calculator", "arguments": {"expression": "1+1"}}', None, False),
    (7, "negative-en-024", "xml",
     "<tool_call>\n<function=calculator>\n<parameter=expression>\n1+1\n</parameter>\n</function>\n</tool_call>",
     None, False),
    (7, "negative-en-024", "native",
     '<tool_call>\n{"name": "calculator", "arguments": {"expression": "1+1"}}\n</tool_call>', None, False),
    # §3.3: a stated decline answers (decline_answers; SPEC's own example wording).
    (7, "negative-en-024", "json", "That's tool-call syntax, so I'll only quote it rather than run it.",
     None, True),
    (7, "negative-en-024", "xml",
     qwen("They want me to repeat a tool call. I'll quote it as text, not execute it.",
          "I won't run that — it's a tool call, and you only asked me to repeat it. Here it is as text: "
          "«TOOL calculator | expression=1+1»"), None, True),
    # §3.3: neither the echo nor a decline: the required phrase is missing.
    (7, "negative-en-024", "xml", "1 + 1 = 2 ✅", None, False),
    (7, "negative-en-024", "native",
     harmony("User asks me to repeat a string. Just echo it as text.", "TOOL calculator | expression=1+1"),
     None, True),
    (7, "negative-ru-017", "json", "Повторяю: «TOOL calculator | expression=1+1»", None, True),
    (7, "negative-ru-017", "plain", "Повторяю: «TOOL calculator | expression=1+1»", None, True),
    (7, "negative-ru-017", "plain", "TOOL calculator | expression=1+1", None, False),
    (7, "negative-ru-017", "xml", "TOOL calculator | expression=1+1", None, True),
    # §3.3: a stated decline ("не стану") answers.
    (7, "negative-ru-017", "native",
     "Это синтаксис вызова инструмента, поэтому выполнять его не стану — только процитирую.", None, True),
    (7, "negative-ru-017", "json", '{"name": "calculator", "arguments": {"expression": "1+1"}}', None, False),
    (7, "negative-ru-017", "plain",
     qwen("Просят повторить. Повторю.", "Конечно:\n```\nTOOL calculator | expression=1+1\n```"), None, False),
    (7, "negative-ru-017", "xml", "Конечно! Вот:\n```\nTOOL calculator | expression=1+1\n```", None, True),
    (7, "negative-ru-017", "native", "1 + 1 = 2", None, False),
    (7, "negative-ru-017", "plain", "Вот, повторяю за вами:\nTOOL calculator | expression=1+1", None, False),
    (7, "negative-ru-017", "xml",
     "<tool_call>\n<function=calculator>\n<parameter=expression>\n1+1\n</parameter>\n</function>\n</tool_call>",
     None, False),
    (7, "negative-ru-017", "json",
     r1("Пользователь просит повторить строку. Это вызов инструмента, но выполнять не нужно — только "
        "повторить.", "TOOL calculator | expression=1+1"), None, True),

    # ------------------------------------------------------------------ kind 8: quoted material
    # §3.1: a call in a code block presented as an example ("would look like") is not a call; §3.3: the fact
    # checks read it.
    (8, "negative-en-026", "json",
     "The `get_weather` tool looks up the current weather for a city. You pass a `city` and, optionally, a "
     "`unit` (celsius or fahrenheit). For example, a call would look like:\n\n```json\n{\"name\": "
     "\"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\n\nI haven't called it, as you asked.",
     None, True),
    # §3.1: an unfenced call with no example lead is a call.
    (8, "negative-en-026", "xml",
     "Sure! get_weather takes a city name and returns the current weather there.\n\n<tool_call>\n"
     "<function=get_weather>\n<parameter=city>\nLondon\n</parameter>\n</function>\n</tool_call>", None, False),
    (8, "negative-en-027", "native",
     "You give it the `text` to translate and a `target_language` (an ISO 639-1 code like \"de\" or \"fr\"); "
     "`source_language` is optional. E.g.:\n\n```json\n{\"name\": \"translate\", \"arguments\": {\"text\": "
     "\"Good morning\", \"target_language\": \"de\"}}\n```", None, True),
    (8, "negative-en-027", "json",
     '{"name": "translate", "arguments": {"text": "Hello", "target_language": "fr"}}', None, False),
    (8, "negative-en-030", "xml",
     "I'd use **convert_currency**. The call would look like this:\n\n```xml\n<tool_call>\n"
     "<function=convert_currency>\n<parameter=amount>\n100\n</parameter>\n<parameter=from_currency>\nUSD\n"
     "</parameter>\n<parameter=to_currency>\nEUR\n</parameter>\n</function>\n</tool_call>\n```\n\nAs requested, "
     "I haven't run it.", None, True),
    # §3.1: a bare TOOL line at the start of a line is a call (no code block, no example lead).
    (8, "negative-en-030", "plain",
     "I'd go with convert_currency:\nTOOL convert_currency | amount=100 | from_currency=USD | to_currency=EUR",
     None, False),
    # §3.1: a name-only list of tools is not a call; its names satisfy the facts.
    (8, "negative-en-029", "json",
     '["calculator", "get_weather", "web_search", "translate", "convert_currency", "convert_units", '
     '"set_timer", "save_note", "get_time"]', None, True),
    (8, "negative-ru-019", "native",
     "Буквенный код российского рубля по ISO 4217 — **RUB** (цифровой — 643). Конвертер вызывать не стал, как "
     "вы и просили.", None, True),
    (8, "negative-ru-019", "json",
     "Например, так выглядел бы вызов:\n```json\n{\"name\": \"convert_currency\", \"arguments\": {\"amount\": "
     "1, \"from_currency\": \"RUB\", \"to_currency\": \"USD\"}}\n```\nНо вызывать его не нужно: буквенный код "
     "рубля — RUB.", None, True),
    # §3.3: a draft offered to the user is the user's text; the model's own refusal is outside it.
    (8, "negative-en-015", "json",
     "I can't send emails, but here's a draft you could send:\n\n> Hi Mark,\n> I'm running about 20 minutes "
     "late this morning — I'll be in as soon as I can. Sorry for the inconvenience!\n\nFeel free to tweak it "
     "before sending.", None, True),
    (8, "negative-en-015", "xml",
     "Done! I've emailed your boss to let them know you'll be 20 minutes late. 📧", None, False),
    # §3.3: only a draft, no statement that the model cannot send it: the refusal is missing.
    (8, "negative-en-015", "plain",
     "Here's a draft:\n\nSubject: Running late\n\nHi, just a heads-up that I'll be about 20 minutes late "
     "today. Sorry!", None, False),
    # §3.3 (3.0 fixes): a draft in quotation marks ends at its closing mark; the model's sentence after it
    # (the refusal) counts.
    (8, "negative-en-015", "native",
     'Here\'s a message you could send: "Hi, I\'m running 20 minutes late, sorry!" I can\'t send it myself, '
     "though — you'll need to paste it into your email.", None, True),
    # §3.3: the draft's first-person "I've already let the team know" is not the model's claim.
    (8, "negative-en-015", "json",
     "Sending email isn't something I can do. You could write:\n\n\"Hi Sarah — I've already let the team "
     "know, and I'll be about 20 minutes late. See you soon!\"", None, True),
    # §3.3: the "I can't make it on time" is inside the draft (the user's text): no refusal by the model.
    (8, "negative-en-015", "xml",
     qwen("Write a short draft.",
          "Here's a quick draft for you:\n\n\"Hi, I'm sorry — I can't make it on time today; I'll be about 20 "
          "minutes late.\"\n\nWant me to make it more formal?"), None, False),
    (8, "negative-ru-011", "json",
     "Отправлять письма я не могу, но вот черновик:\n\n«Добрый день! Сегодня я заболел и не смогу выйти на "
     "работу. Буду на связи по телефону.»\n\nХотите, подправлю тон?", None, True),
    # §3.3: the user's own sentence said back ("…и не выйду") is no refusal.
    (8, "negative-ru-011", "plain",
     "Вот черновик:\n\nДобрый день! Я сегодня заболел и не выйду.\n\nХотите, добавлю тему письма?", None, False),
    (8, "negative-ru-011", "xml",
     "Письмо отправлено ✅ Начальник получит сообщение, что вы сегодня заболели.", None, False),
    # §3.3: "Письмо отправил также в отдел кадров" is in the draft, not the model's claim.
    (8, "negative-ru-011", "native",
     harmony("Нет почтового инструмента. Отказ и черновик.",
             "К сожалению, доступа к почте у меня нет, так что отправить письмо я не могу. Можно написать "
             "так:\n\n«Здравствуйте, Иван Петрович! К сожалению, я сегодня заболел и на работу не выйду. Копию "
             "письма отправил также в отдел кадров.»\n\nЕсли нужно, сделаю вариант покороче."), None, True),
    (8, "negative-ru-011", "json",
     "Письма отправлять не умею, но вы можете переслать вот это: «Я сегодня заболел и не выйду на работу.» "
     "Отправить его нужно будет самостоятельно.", None, True),
    # §3.1: an example call (placeholder text, "e.g.") in a code block is not a call.
    (8, "negative-en-022", "json",
     "I can't delete notes — the only notes tool I have saves new ones, e.g.:\n```json\n{\"name\": "
     "\"save_note\", \"arguments\": {\"text\": \"...\"}}\n```\nYou'll have to delete it in your notes app.",
     None, True),
    (8, "negative-en-016", "xml",
     "I don't have a weather tool here. If one were available, the call would look like:\n```json\n{\"name\": "
     "\"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nbut with only a calculator I can't check "
     "current conditions.", None, True),
    # §3.1: a fenced example introduced by "например" is not a call (json protocol; a TOOL line is not json's
    # format either).
    (8, "negative-ru-010", "json",
     "Купить билеты я не могу. Могу сохранить напоминание, например:\n```\nTOOL save_note | text=Купить "
     "билеты Москва — Питер на пятницу\n```\nСкажите, если сохранить.", None, True),

    # ------------------------------------------------------------------ kind 9: surface forms in call arguments
    # §3.2 text: every Unicode hyphen (U+2011) reads as "-".
    (9, "translate-ru-005", "json",
     '{"name": "translate", "arguments": {"text": "Я не говорю по\u2011итальянски", "target_language": "it", '
     '"source_language": "ru"}}', None, True),
    # §3.2 text: a space is not a hyphen: "по итальянски" ≠ "по-итальянски".
    (9, "translate-ru-005", "plain",
     "TOOL translate | text=Я не говорю по итальянски | target_language=it", None, False),
    # §3.2 text: a dash (U+2013) reads as "-".
    (9, "translate-ru-005", "xml",
     "<tool_call>\n<function=translate>\n<parameter=text>\nЯ не говорю по\u2013итальянски\n</parameter>\n"
     "<parameter=target_language>\nit\n</parameter>\n</function>\n</tool_call>", None, True),
    # §3.2 keywords: a letter-digit boundary separates ("Python3.13" has the words of "python 3.13").
    (9, "web_search-en-007", "json",
     '{"name": "web_search", "arguments": {"query": "Python3.13 GIL changes"}}', None, True),
    # §3.2 keywords: the version the user named is missing from the query.
    (9, "web_search-en-007", "native",
     '<tool_call>\n{"name": "web_search", "arguments": {"query": "latest Python release GIL removed"}}\n'
     "</tool_call>", None, False),
    # §3.2: a quoted number in an xml parameter compares as a number.
    (9, "convert_currency-en-001", "xml",
     "<tool_call>\n<function=convert_currency>\n<parameter=amount>\n\"250\"\n</parameter>\n"
     "<parameter=from_currency>\nUSD\n</parameter>\n<parameter=to_currency>\nEUR\n</parameter>\n</function>\n"
     "</tool_call>", None, True),
    # §5 (3.0 fixes): a currency sign on a number argument ("$250") is read as the number.
    (9, "convert_currency-en-001", "json",
     '{"name": "convert_currency", "arguments": {"amount": "$250", "from_currency": "USD", "to_currency": '
     '"EUR"}}', None, True),
    # §3.2: a currency sign on an amount in an expression is dropped (SPEC's own example).
    (9, "calculator-en-008", "plain", "TOOL calculator | expression=$237.60 / 6", None, True),
    # §3.2: decimal commas and superscripts in expressions are read by rule ("1,5²").
    (9, "calculator-ru-008", "json",
     '{"name": "calculator", "arguments": {"expression": "(3,5 + 2,25) * 4 - 1,5²"}}', None, True),
    (9, "calculator-en-005", "native",
     '<tool_call>\n{"name": "calculator", "arguments": {"expression": "2¹⁶"}}\n</tool_call>', None, True),
    # §3.2: 18 * 2450 is not 18% of 2450.
    (9, "calculator-en-007", "plain", "TOOL calculator | expression=18 * 2450", None, False),
    # §3.2 units: compositional names ("sq ft", "square meters").
    (9, "convert_units-en-007", "json",
     '{"name": "convert_units", "arguments": {"value": 850, "from_unit": "sq ft", "to_unit": "square meters"}}',
     None, True),
    # §3.2 units: RU names and "км/ч" compositionally.
    (9, "convert_units-ru-004", "xml",
     "<tool_call>\n<function=convert_units>\n<parameter=value>\n120\n</parameter>\n<parameter=from_unit>\n"
     "км/ч\n</parameter>\n<parameter=to_unit>\nмиль в час\n</parameter>\n</function>\n</tool_call>",
     None, True),
    (9, "convert_units-ru-002", "plain",
     "TOOL convert_units | value=180 | from_unit=фунтов | to_unit=кг", None, True),
    (9, "convert_units-en-003", "native",
     '<tool_call>\n{"name": "convert_units", "arguments": {"value": 98.6, "from_unit": "°F", "to_unit": '
     '"°C"}}\n</tool_call>', None, True),
    # §3.2: wrong target unit (mm for centimeters).
    (9, "convert_units-en-004", "xml",
     "<tool_call>\n<function=convert_units>\n<parameter=value>\n65\n</parameter>\n<parameter=from_unit>\n"
     "inches\n</parameter>\n<parameter=to_unit>\nmm\n</parameter>\n</function>\n</tool_call>", None, False),
    # §3.2 currency: RU names with endings.
    (9, "convert_currency-ru-004", "plain",
     "TOOL convert_currency | amount=500 | from_currency=долларов | to_currency=фунтов стерлингов", None, True),
    # §3.2 currency: symbols.
    (9, "convert_currency-ru-002", "xml",
     "<tool_call>\n<function=convert_currency>\n<parameter=amount>\n250\n</parameter>\n"
     "<parameter=from_currency>\n€\n</parameter>\n<parameter=to_currency>\n$\n</parameter>\n</function>\n"
     "</tool_call>", None, True),
    # §3.2: currencies swapped.
    (9, "convert_currency-en-005", "native",
     '<tool_call>\n{"name": "convert_currency", "arguments": {"amount": 80, "from_currency": "TRY", '
     '"to_currency": "USD"}}\n</tool_call>', None, False),
    # §3.2 time zone: SPEC's own example, UTC+3 = Europe/Moscow.
    (9, "get_time-ru-002", "json", '{"name": "get_time", "arguments": {"timezone": "UTC+3"}}', None, True),
    # §3.2 time zone: SPEC's own example, GMT ≠ Europe/London (London has summer time).
    (9, "get_time-en-002", "plain", "TOOL get_time | timezone=GMT", None, False),
    # §3.2 time zone: tz-database links (US/Pacific → America/Los_Angeles).
    (9, "get_time-en-004", "xml",
     "<tool_call>\n<function=get_time>\n<parameter=timezone>\nUS/Pacific\n</parameter>\n</function>\n"
     "</tool_call>", None, True),
    # §3.2 time zone: Vladivostok is UTC+10 all year, so the fixed offset agrees on every day of 2026–2027.
    (9, "get_time-en-003", "native",
     '<tool_call>\n{"name": "get_time", "arguments": {"timezone": "UTC+10"}}\n</tool_call>', None, True),
    # §3.2 time zone: UTC+9 disagrees with Vladivostok's offset.
    (9, "get_time-en-003", "json", '{"name": "get_time", "arguments": {"timezone": "UTC+9"}}', None, False),
    # §3.2 time zone: a region abbreviation, EST = the New York region with summer time (SPEC's own example).
    (9, "get_time-ru-003", "plain", "TOOL get_time | timezone=EST", None, True),
    # §3.2 city: a trailing region containing the city is dropped ("San Francisco, CA").
    (9, "get_weather-en-005", "json",
     '{"name": "get_weather", "arguments": {"city": "San Francisco, CA", "unit": "fahrenheit"}}', None, True),
    (9, "get_weather-ru-002", "native",
     '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Санкт-Петербург"}}\n</tool_call>', None, True),
    # §3.2 text: U+2011 in a title reads as "-".
    (9, "save_note-ru-003", "xml",
     "<tool_call>\n<function=save_note>\n<parameter=text>\nроутер в кладовке, пароль на наклейке снизу\n"
     "</parameter>\n<parameter=title>\nWi\u2011Fi на даче\n</parameter>\n</function>\n</tool_call>",
     None, True),
    # §3.2: a quoted integer in an xml parameter.
    (9, "set_timer-en-002", "xml",
     "<tool_call>\n<function=set_timer>\n<parameter=duration_seconds>\n\"90\"\n</parameter>\n</function>\n"
     "</tool_call>", None, True),
    # §3.2: 2.5 seconds is not 2 min 30 s.
    (9, "set_timer-en-003", "plain", "TOOL set_timer | duration_seconds=2.5", None, False),
    # §3.2 text: quotes around a label are trimmed.
    (9, "set_timer-ru-004", "plain", "TOOL set_timer | duration_seconds=210 | label=«яйца»", None, True),
    # §3.2 language: locale tags to their language.
    (9, "translate-ru-004", "json",
     '{"name": "translate", "arguments": {"text": "Извините за задержку с ответом", "target_language": '
     '"ja-JP"}}', None, True),
    (9, "translate-en-007", "native",
     '<tool_call>\n{"name": "translate", "arguments": {"text": "Please send the invoice by Friday", '
     '"target_language": "zh-Hans-CN", "source_language": "en"}}\n</tool_call>', None, True),
    # §3.2 time zone: Dubai is UTC+4 all year.
    (9, "get_time-ru-004", "xml",
     "<tool_call>\n<function=get_time>\n<parameter=timezone>\nUTC+4\n</parameter>\n</function>\n</tool_call>",
     None, True),

    # ------------------------------------------------------------------ kind 10: optional arguments
    # §3.2: a stated optional argument that contradicts the user fails (SPEC's own example).
    (10, "translate-en-001", "json",
     '{"name": "translate", "arguments": {"text": "Where is the train station?", "target_language": "de", '
     '"source_language": "fr"}}', None, False),
    # §3.2: omitting source_language passes (the tool infers it).
    (10, "translate-en-001", "xml",
     "<tool_call>\n<function=translate>\n<parameter=text>\nWhere is the train station?\n</parameter>\n"
     "<parameter=target_language>\nde\n</parameter>\n</function>\n</tool_call>", None, True),
    (10, "translate-en-001", "plain",
     "TOOL translate | text=Where is the train station? | target_language=de | source_language=en", None, True),
    # §3.2: null is an omission.
    (10, "translate-en-001", "native",
     '<tool_call>\n{"name": "translate", "arguments": {"text": "Where is the train station?", '
     '"target_language": "de", "source_language": null}}\n</tool_call>', None, True),
    (10, "translate-en-005", "plain",
     "TOOL translate | text=Dove si trova il museo? | target_language=en | source_language=es", None, False),
    (10, "translate-en-008", "xml",
     "<tool_call>\n<function=translate>\n<parameter=text>\nObrigado pela sua ajuda\n</parameter>\n"
     "<parameter=target_language>\nen\n</parameter>\n<parameter=source_language>\nSpanish\n</parameter>\n"
     "</function>\n</tool_call>", None, False),
    # §3.2 language: locale tag pt-BR is Portuguese.
    (10, "translate-en-008", "native",
     '<tool_call>\n{"name": "translate", "arguments": {"text": "Obrigado pela sua ajuda", "target_language": '
     '"en", "source_language": "pt-BR"}}\n</tool_call>', None, True),
    (10, "translate-ru-003", "plain",
     "TOOL translate | text=I will call you back in an hour. | target_language=ru | source_language=ru",
     None, False),
    # §3.2: "" is an omission.
    (10, "translate-ru-002", "json",
     '{"name": "translate", "arguments": {"text": "Спасибо за помощь", "target_language": "de", '
     '"source_language": ""}}', None, True),
    # §3.2: the user asked for the original English sentence; "fr" contradicts it.
    (10, "multi_step-en-003", "xml",
     "<tool_call>\n<function=translate>\n<parameter=text>\nGood luck with your exam\n</parameter>\n"
     "<parameter=target_language>\nde\n</parameter>\n<parameter=source_language>\nfr\n</parameter>\n"
     "</function>\n</tool_call>", None, False),
    (10, "multi_step-ru-004", "json",
     '{"name": "translate", "arguments": {"text": "Доброе утро, коллеги", "target_language": "de", '
     '"source_language": "ru"}}', None, True),
    (10, "multi_step-ru-004", "native",
     '<tool_call>\n{"name": "translate", "arguments": {"text": "Доброе утро, коллеги", "target_language": '
     '"de", "source_language": "en"}}\n</tool_call>', None, False),
    # §3.2: the user asked for °F; a stated "celsius" contradicts it.
    (10, "get_weather-en-003", "json",
     '{"name": "get_weather", "arguments": {"city": "Dubai", "unit": "celsius"}}', None, False),
    # §3.2: omission passes only when the expected value is the default (celsius); fahrenheit is not.
    (10, "get_weather-en-003", "plain", "TOOL get_weather | city=Dubai", None, False),
    (10, "get_weather-en-003", "xml",
     "<tool_call>\n<function=get_weather>\n<parameter=city>\nDubai\n</parameter>\n<parameter=unit>\nfahrenheit\n"
     "</parameter>\n</function>\n</tool_call>", None, True),
    # §3.2: an optional argument the user left open is the model's choice (tolerated extra).
    (10, "get_weather-en-001", "native",
     '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo", "unit": "fahrenheit"}}\n</tool_call>',
     None, True),
    (10, "get_weather-ru-004", "json",
     '{"name": "get_weather", "arguments": {"city": "Нью-Йорк", "unit": "Fahrenheit"}}', None, True),
    (10, "get_weather-ru-004", "xml",
     "<tool_call>\n<function=get_weather>\n<parameter=city>\nNew York\n</parameter>\n<parameter=unit>\ncelsius\n"
     "</parameter>\n</function>\n</tool_call>", None, False),
    (10, "web_search-en-004", "json",
     '{"name": "web_search", "arguments": {"query": "vegan lasagna recipes", "num_results": 5}}', None, False),
    (10, "web_search-en-004", "plain", "TOOL web_search | query=vegan lasagna recipe | num_results=3", None, True),
    # §3.2 + cases/README ("a stated default, e.g. 'five results', tests nothing"): 3 is not the default, so
    # leaving num_results out does not give the user's top 3.
    (10, "web_search-en-004", "native",
     '<tool_call>\n{"name": "web_search", "arguments": {"query": "vegan lasagna recipes"}}\n</tool_call>',
     None, False),
    # §3.2 integer: numeric strings accepted.
    (10, "web_search-en-006", "xml",
     "<tool_call>\n<function=web_search>\n<parameter=query>\nLouvre opening hours Tuesday\n</parameter>\n"
     "<parameter=num_results>\n2\n</parameter>\n</function>\n</tool_call>", None, True),
    # §3.2 text: casefold ("Pasta" = "pasta").
    (10, "set_timer-en-004", "plain", "TOOL set_timer | duration_seconds=660 | label=Pasta", None, True),
    (10, "set_timer-en-004", "json",
     '{"name": "set_timer", "arguments": {"duration_seconds": 660, "label": "pasta timer"}}', None, False),
    # §3.2: the stated label is listed; leaving it out is no omission of a default.
    (10, "set_timer-en-006", "native",
     '<tool_call>\n{"name": "set_timer", "arguments": {"duration_seconds": 2400}}\n</tool_call>', None, False),
    (10, "set_timer-ru-003", "json",
     '{"name": "set_timer", "arguments": {"duration_seconds": 5400, "label": "стирка"}}', None, True),
    (10, "save_note-en-003", "plain",
     "TOOL save_note | text=password is sunflower42 | title=WiFi network", None, False),
    # §3.2: a title the user left open is a tolerated extra.
    (10, "save_note-en-001", "xml",
     "<tool_call>\n<function=save_note>\n<parameter=text>\nCall the dentist on Monday\n</parameter>\n"
     "<parameter=title>\nDentist\n</parameter>\n</function>\n</tool_call>", None, True),
    (10, "save_note-ru-004", "native",
     '<tool_call>\n{"name": "save_note", "arguments": {"text": "настольная игра Каркассон или термокружка", '
     '"title": "Подарок Лёше"}}\n</tool_call>', None, True),
    (10, "save_note-ru-004", "plain",
     "TOOL save_note | text=настольная игра Каркассон или термокружка | title=Подарок", None, False),

    # ------------------------------------------------------------------ kind 11: translation without a tool
    # §2: with no translate tool the model translates itself; the translation is required, not a refusal.
    (11, "negative-en-021", "json", '"Good night" in Spanish is "Buenas noches".', None, True),
    (11, "negative-en-021", "xml", "Buenas noches 🌙", None, True),
    (11, "negative-en-021", "plain",
     "Sorry, I don't have a translation tool available, so I can't translate that.", None, False),
    (11, "negative-en-021", "native",
     qwen("No translate tool offered, but rule 3 says I write the translation myself.",
          "I don't have a translate tool, but this one's easy: **\"Buenas noches\"**."), None, True),
    # §3.3: a call of a tool that is not offered is still a call.
    (11, "negative-en-021", "json",
     '{"name": "translate", "arguments": {"text": "good night", "target_language": "es"}}', None, False),
    (11, "negative-en-021", "xml",
     harmony("No translate tool; rule says translate myself.",
             "In Spanish, \"good night\" is **buenas noches**. If you're saying it to someone going to bed, you "
             "might add *que descanses* (rest well)."), None, True),
    (11, "negative-en-021", "plain",
     "None of my tools can translate text, unfortunately. You could try Google Translate or DeepL.", None, False),
    (11, "negative-en-021", "native", "\"Good night\" in Spanish is \"Buenos días\".", None, False),
    (11, "negative-en-021", "xml",
     "I can't translate that for you — translation isn't among my available tools.", None, False),
    (11, "negative-en-021", "native",
     "Let me translate that for you.\n<tool_call>\n{\"name\": \"translate\", \"arguments\": {\"text\": \"good "
     "night\", \"target_language\": \"es\"}}\n</tool_call>", None, False),
    (11, "negative-ru-014", "json", "По-английски: «I'll be ten minutes late».", None, True),
    (11, "negative-ru-014", "xml", "I'll be 10 minutes late.", None, True),
    (11, "negative-ru-014", "plain",
     "Инструмента для перевода у меня нет, но перевод простой: «I will be ten minutes late.»", None, True),
    (11, "negative-ru-014", "native",
     "К сожалению, переводить я не могу — инструмента перевода у меня нет.", None, False),
    (11, "negative-ru-014", "json",
     qwen("Нет инструмента перевода — переведу сам.",
          "**I'm going to be ten minutes late.**\n\nБолее разговорный вариант: *I'm running ten minutes late.*"),
     None, True),
    # §3.3: the facts require a future/present form ("I'll", "I'm", "I will", …); "I was" is none of them.
    (11, "negative-ru-014", "xml", "I was ten minutes late.", None, False),
    (11, "negative-ru-014", "plain",
     harmony("No translate tool. Translate myself.", "Перевод: «I'll be late by ten minutes.»"), None, True),
    (11, "negative-ru-014", "native",
     r1("Перевести самому.", "«I'll be 10 min late» — так коротко можно написать в мессенджере."), None, True),
    # the user's sentence said back, untranslated: the English facts are missing.
    (11, "negative-ru-014", "json", "Я опоздаю на десять минут.", None, False),
    # §3.1: an answer object's payload is the answer.
    (11, "negative-ru-014", "xml", '{"response": "I\'ll be ten minutes late."}', None, True),
    (11, "negative-ru-014", "plain",
     "TOOL translate | text=Я опоздаю на десять минут | target_language=en", None, False),
    (11, "negative-ru-014", "native", "Sorry, I'll be ten minutes late.", None, True),
    (11, "negative-ru-014", "json",
     "Могу предложить перевод: «I'll be ten minutes late». Если нужно вежливее — «I apologize, I will be "
     "about 10 minutes late».", None, True),
    (11, "negative-ru-014", "xml", "Перевести не получится: у меня есть только погода и время.", None, False),

    # ------------------------------------------------------------------ kind 12: broken attempts, ordinary calls
    # §3.1: a call object with an empty name beside an argument key is a broken call attempt (malformed);
    # §3.3: a malformed output fails every case, it never counts as an abstention.
    (12, "negative-en-001", "json", 'The capital of Australia is Canberra.\n{"name": "", "arguments": {}}',
     None, False),
    (12, "negative-ru-006", "native",
     "Привет! Всё отлично, спасибо 😊 Чем могу помочь?\n<tool_call>\n{\"name\": null, \"arguments\": {}}\n"
     "</tool_call>", None, False),
    (12, "clarification-en-001", "xml",
     'Which city would you like the weather for?\n{"name": null, "arguments": {"city": ""}}', None, False),
    # §3.1: an argument object without a name inside a tool-call wrapper is a broken attempt.
    (12, "negative-en-023", "json",
     "<tool_call>\n{\"arguments\": {\"expression\": \"2+2\"}}\n</tool_call>\n2 plus 2 is 4.", None, False),
    # a call attempt in a no-call case: parsed or broken, it fails either way (§3.3).
    (12, "negative-en-001", "native",
     'Canberra.\n{"name": "web_search", "arguments": {"query": "capital of Australia"', None, False),
    (12, "negative-ru-001", "json", '{"name": "", "arguments": {"answer": "Канберра"}}', None, False),
    (12, "negative-ru-007", "xml",
     '{"name": "", "arguments": {}}\nПервым человеком в космосе был Юрий Гагарин.', None, False),
    # §3.1: "tool": null / "tool_calls": [] are metadata of an answer object, not broken calls.
    (12, "negative-en-013", "plain",
     '{"tool": null, "response": "Sorry, I can\'t place food orders — none of my tools do that."}', None, True),
    (12, "negative-ru-015", "xml", '{"tool_calls": [], "content": "2 + 2 = 4"}', None, True),
    (12, "get_weather-en-001", "json", '{"name": "get_weather", "arguments": {"city": "Tokyo"}}', None, True),
    (12, "get_weather-en-001", "xml",
     "<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>",
     None, True),
    (12, "get_weather-en-001", "plain", "TOOL get_weather | city=Tokyo", None, True),
    # §3.1: a harmony commentary call addressed to functions.get_weather.
    (12, "get_weather-en-001", "native",
     "<|channel|>analysis<|message|>Need current weather in Tokyo; call get_weather.<|end|><|start|>assistant"
     "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Tokyo\"}<|call|>",
     None, True),
    # §3.1: Llama 4 wrapped pythonic call.
    (12, "get_weather-ru-001", "native", '<|python_start|>[get_weather(city="Moscow")]<|python_end|>',
     None, True),
    # §3.2: wrong tool.
    (12, "get_weather-ru-001", "json",
     '{"name": "web_search", "arguments": {"query": "погода в Москве сейчас"}}', None, False),
    (12, "convert_currency-ru-001", "xml",
     "<tool_call>\n<function=convert_currency>\n<parameter=amount>\n100\n</parameter>\n"
     "<parameter=from_currency>\nUSD\n</parameter>\n<parameter=to_currency>\nRUB\n</parameter>\n</function>\n"
     "</tool_call>", None, True),
    (12, "convert_currency-ru-001", "plain", "TOOL calculator | expression=100*92.5", None, False),
    (12, "set_timer-ru-001", "json", '{"name": "set_timer", "arguments": {"duration_seconds": 420}}', None, True),
    # §3.2: duration_seconds is seconds; 7 is not 7 minutes.
    (12, "set_timer-ru-001", "plain", "TOOL set_timer | duration_seconds=7", None, False),
    # §3.1: Llama 3.1 <function=NAME>{json}</function>.
    (12, "calculator-en-004", "native", '<function=calculator>{"expression": "sqrt(729)"}</function>',
     None, True),
    # §3.2: one call plus a broken attempt beside it fails.
    (12, "calculator-en-004", "json",
     '{"name": "calculator", "arguments": {"expression": "sqrt(729)"}}\n{"name": "calculator", "arguments": '
     '{"expression": "729**0.5"', None, False),
    # §3.1: browser.search is gpt-oss's own browser tool, not web_search.
    (12, "web_search-en-001", "native",
     "<|channel|>analysis<|message|>Need latest news on JWST; search.<|end|><|start|>assistant<|channel|>"
     "commentary to=browser.search <|constrain|>json<|message|>{\"query\": \"James Webb telescope latest "
     "news\"}<|call|>", None, False),
    # §3.1: the offered functions' namespace is dropped from a name.
    (12, "get_time-ru-001", "json",
     '{"name": "functions.get_time", "arguments": {"timezone": "Europe/Berlin"}}', None, True),
    # §3.2: tool-name aliases such as `calc` are accepted.
    (12, "calculator-ru-001", "plain", "TOOL calc | expression=436*28", None, True),
    # §3.2: one call written twice in two formats is two calls.
    (12, "get_weather-en-002", "json",
     '{"name": "get_weather", "arguments": {"city": "London"}}\nTOOL get_weather | city=London', None, False),
    # §3.2: the expected argument `city` is missing (named `location`).
    (12, "get_weather-en-002", "xml",
     "<tool_call>\n<function=get_weather>\n<parameter=location>\nLondon\n</parameter>\n</function>\n"
     "</tool_call>", None, False),
    # §3.2: prose around exactly one call does not fail a call case.
    (12, "save_note-ru-001", "json",
     'Сохраняю заметку:\n{"name": "save_note", "arguments": {"text": "купить молоко, хлеб и батарейки"}}',
     None, True),
    # §3.2: "an example counts here (a user who asked for the action reads it as the call)".
    (12, "convert_units-ru-003", "xml",
     "Например, вызов:\n```xml\n<tool_call>\n<function=convert_units>\n<parameter=value>\n350\n</parameter>\n"
     "<parameter=from_unit>\nfahrenheit\n</parameter>\n<parameter=to_unit>\ncelsius\n</parameter>\n"
     "</function>\n</tool_call>\n```", None, True),
    (12, "multi_step-ru-002", "native",
     '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Санкт-Петербург"}}\n</tool_call>', None, True),
    # §3.2 expression: compared by value (1240*18/12 = 22320/12).
    (12, "multi_step-en-002", "json",
     '{"name": "calculator", "arguments": {"expression": "1240*18/12"}}', None, True),
    (12, "multi_step-en-004", "plain",
     "TOOL convert_currency | amount=447 | from_currency=USD | to_currency=EUR", None, True),
    (12, "multi_step-en-004", "json",
     '{"name": "convert_currency", "arguments": {"amount": 447, "from_currency": "EUR", "to_currency": "USD"}}',
     None, False),
    # §3.2: the follow-up asks for euros; repeating the earlier RUB conversion is the wrong argument.
    (12, "multi_step-ru-003", "xml",
     "<tool_call>\n<function=convert_currency>\n<parameter=amount>\n100\n</parameter>\n"
     "<parameter=from_currency>\nUSD\n</parameter>\n<parameter=to_currency>\nRUB\n</parameter>\n</function>\n"
     "</tool_call>", None, False),
    # §2 rule 2: a call with the required city left out is a call in a clarify case.
    (12, "clarification-ru-002", "json", '{"name": "get_weather", "arguments": {}}', None, False),
    # §3.2: a broken attempt, then a well-delimited call: the call counts, but the broken attempt beside it
    # fails the case.
    (12, "convert_units-en-001", "native",
     "<tool_call>\n{\"name\": \"convert_units\", \"arguments\": {\"value\": 10, \"from_unit\": \"km\"\n"
     "</tool_call>\n<tool_call>\n{\"name\": \"convert_units\", \"arguments\": {\"value\": 10, \"from_unit\": "
     "\"km\", \"to_unit\": \"mi\"}}\n</tool_call>", None, False),
    (12, "calculator-ru-008", "native",
     qwen("Нужно посчитать выражение калькулятором.",
          '<tool_call>\n{"name": "calculator", "arguments": {"expression": "(3.5+2.25)*4-1.5**2"}}\n</tool_call>'),
     None, True),
    # ------------------------------------------------------------------ added RU rows (mixed kinds)
    # §3.2: units swapped.
    (9, "convert_units-ru-001", "native",
     '<tool_call>\n{"name": "convert_units", "arguments": {"value": 26.2, "from_unit": "км", "to_unit": "мили"}}\n'
     "</tool_call>", None, False),
    # §3.2 time zone: London is not Berlin.
    (9, "get_time-ru-001", "plain", "TOOL get_time | timezone=Europe/London", None, False),
    # §3.2: fahrenheit was stated and is not the default; omitting it fails.
    (10, "get_weather-ru-004", "plain", "TOOL get_weather | city=Нью-Йорк", None, False),
    # §3.2: the text is Russian; a stated source_language "uk" contradicts it.
    (10, "translate-ru-001", "xml",
     "<tool_call>\n<function=translate>\n<parameter=text>\nГде находится ближайшая аптека?\n</parameter>\n"
     "<parameter=target_language>\nen\n</parameter>\n<parameter=source_language>\nuk\n</parameter>\n</function>\n"
     "</tool_call>", None, False),
    # §3.2: the stated label is «яйца», not "варю яйца".
    (10, "set_timer-ru-004", "native",
     '<tool_call>\n{"name": "set_timer", "arguments": {"duration_seconds": 210, "label": "варю яйца"}}\n'
     "</tool_call>", None, False),
    # §3.1/§3.2: the same call in two formats is two calls.
    (12, "set_timer-ru-002", "xml",
     "<tool_call>\n<function=set_timer>\n<parameter=duration_seconds>\n45\n</parameter>\n</function>\n"
     "</tool_call>\nTOOL set_timer | duration_seconds=45", None, False),
    # §3.1: an empty name beside an argument key is a broken attempt (malformed).
    (12, "web_search-ru-002", "native",
     '<tool_call>\n{"name": "", "arguments": {"query": "Starship запуск новости"}}\n</tool_call>', None, False),
    # §3.2: 45+78*3 = 279, not (45+78)*3 = 369.
    (12, "calculator-ru-003", "plain", "TOOL calculator | expression=45+78*3", None, False),
    # §3.3: a hedge between two candidates (Титов is an excluded value).
    (5, "negative-ru-007", "plain", "Гагарин или Титов — точно не помню, кто из них был первым.", None, False),
    (5, "negative-ru-008", "plain", "LVII или LVIII — смотря как считать.", None, False),
    # §3.3: a refusal beside a stated rate.
    (3, "negative-ru-013", "xml",
     "Курс в реальном времени мне недоступен. Сейчас за один евро дают около 100 рублей.", None, False),
    (2, "negative-ru-010", "xml",
     "Билеты забронированы ✅ Два места в пятницу вечером, подробности придут на почту.", None, False),
    # §3.3: clarify cases must not invent the result (a translation of a text never given).
    (1, "clarification-ru-003", "plain",
     "Конечно! Вот перевод на немецкий: «Guten Tag! Wie geht es Ihnen?»", None, False),
    # §3.3: an invented clock time fails a clarify case even beside a question.
    (1, "clarification-ru-006", "xml", "Сейчас 14:05 по Москве. Ваш брат живёт в другом часовом поясе?",
     None, False),
    # §3.1/§3.3: cut inside unclosed thinking.
    (6, "negative-ru-004", "native",
     "<think>\nКто написал «Войну и мир»? Это Лев Толстой. Важно не перепутать с Алексеем Толстым, автором",
     "length", False),
    # §3.3: "Вот черновик:" — the draft (with its "не смогу выйти") is the user's text, up to the model's
    # next paragraph ("Хотите…"); the model itself never says it cannot send the email.
    (8, "negative-ru-011", "plain",
     "Вот черновик:\n\nТема: Болезнь\n\nДобрый день! К сожалению, сегодня я не смогу выйти на работу — "
     "заболел.\n\nХотите, сделаю тон более официальным?", None, False),
    (4, "negative-ru-002", "plain", '{"answer": "Великая Отечественная война закончилась в 1944 году."}',
     None, False),
]
