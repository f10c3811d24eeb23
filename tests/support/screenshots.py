"""Screenshots of the main window under a real X server (Xvfb), for people to look at.

    .venv/bin/python tests/support/screenshots.py [OUT_DIR]        (default: screenshots/)

Starts Xvfb on a free display, then runs itself there with a private data directory:
seeds a conversation (Chinese, English, emoji, a code block), sends one question to a
loopback server so the marks show a real request, and saves

    main-1280x720.png      the window after the request (sent / not sent / asked)
    narrow-480x844.png     the same window 480 px wide (side panels folded away)
    failure-banner.png     a failed request: the banner, the partial answer, the draft
    side-question-1280x720.png  a side question answered in its own panel, with the side
                           inspector; the transcript unchanged
    compaction-1280x720.png  turns in the summary beside turns sent verbatim, and the
                           summary's provenance in the inspector
    picker-1280x720.png    the header's profile and model pickers (the model list open),
                           the sampling settings, and a reasoning model's folded thought
    memory-zh-1280x720.png, memory-en-1280x720.png  the Memory panel after a send: pins
                           with their source turns, notes and preferences kept / left out
    answers-en-1280x720.png, answers-zh-1280x720.png  answers as written: a table, inline
                           code, a quote, a code block, inline and display maths
    versions-zh-1280x720.png, versions-en-1280x720.png  a turn regenerated twice, its
                           second of three versions on show (replaced, never sent) with
                           ◀ ▶ and Use this version, and part of an answer selected
    zh_CN-*.png, zh_TW-*.png  the interface in Chinese (tests/support/screenshots_languages.py):
                           main window at 1280×720 and 480 px wide, inspector, Settings and a
                           failure banner
    everyday-*.png          answers as written, a partial answer offered and kept, Settings'
                            Providers page and every preset's editor, a task list under long
                            profile and model names, the shortcuts filtered for Enter and
                            both delete questions, on 1280×720 and 1024×600 screens in
                            English and Chinese
                            (tests/support/screenshots_everyday.py)
    usage-*.png             what answers cost: a turn's cost on hover, the conversation's under
                            its header, the inspector's Cost, and View → Usage…, on 1280×720
                            and 1024×600 screens in English and both Chinese
                            (tests/support/screenshots_usage.py)

Fonts come from the system (Noto Sans CJK and Noto Color Emoji are expected).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import places

HERE = Path(__file__).resolve().parent
CHILD = "TURNLOG_SCREENSHOT_CHILD"

SEED = [
    ("帮我计划一次去杭州的三天旅行，预算大约三千元。",
     "好的！这是一个三天的杭州行程：\n\n1. **第一天**：西湖、断桥、雷峰塔\n"
     "2. **第二天**：灵隐寺、龙井村品茶 🍵\n3. **第三天**：西溪湿地\n\n"
     "预算：住宿约 1,200 元，餐饮约 900 元，交通和门票约 700 元。"),
    ("What's the best time of year to go?",
     "Spring (March–May) and autumn (September–November). West Lake is loveliest in "
     "April when the willows turn green 🌿, and October brings osmanthus blossom."),
    ("Can you write a Python snippet that splits the budget per day?",
     "Sure:\n\n```python\nbudget = {\"住宿\": 1200, \"餐饮\": 900, \"交通\": 700}\n"
     "per_day = {k: round(v / 3) for k, v in budget.items()}\nprint(per_day)\n```\n\n"
     "This prints each category divided over three days."),
    ("龙井茶怎么泡最好喝？", "用 80°C 左右的水，玻璃杯冲泡，先注少量水润茶，再加满。"
     "茶叶约 3 克，150 毫升水 🫖。"),
    ("Any vegetarian food you'd recommend? 🥗",
     "Try 素烧鹅 (vegetarian goose made of tofu skin), 西湖莼菜汤 (water-shield soup) and "
     "the temple food at 灵隐寺 — the noodles there are famous."),
    ("最后，帮我列一个行李清单。",
     "- 舒适的步行鞋 👟\n- 雨伞（杭州多雨 ☔）\n- 充电宝\n- 身份证和车票\n- 一件薄外套"),
]

GARDEN = [
    ("Never delete the backups. Keep that in mind for every plan we make together.",
     "Understood: the backups stay, whatever happens."),
    ("We are on build 4.2.17 of the installer for this whole project.", "Noted, build 4.2.17."),
    ("Our tracking ticket is ORCHID-17 in the team tracker.", "Got it: ORCHID-17."),
] + [(f"Question {i}: what should go in bed {i}? Sun all morning, clay soil, 2 m².",
      f"For bed {i}, tulips along the fence and lavender in front; water weekly. 🌷")
     for i in range(4, 41)]


def free_display() -> int:
    for number in range(90, 200):
        if not Path(f"/tmp/.X{number}-lock").exists() and \
                not Path(f"/tmp/.X11-unix/X{number}").exists():
            return number
    raise SystemExit("no free X display number")


@contextmanager
def private_display() -> Iterator[int | None]:
    """A private Xvfb screen of 1600×1000: its display number while it runs (None when it
    did not start); stopped after."""
    number = free_display()
    xvfb = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1600x1000x24",
                             "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists():
            if time.monotonic() > deadline or xvfb.poll() is not None:
                yield None
                return
            time.sleep(0.05)
        yield number
    finally:
        xvfb.terminate()
        xvfb.wait(10)


def parent(out: Path) -> int:
    if shutil.which("Xvfb") is None:
        print("Xvfb is not installed", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    with private_display() as number:
        if number is None:
            print("Xvfb did not start", file=sys.stderr)
            return 2
        with tempfile.TemporaryDirectory(prefix="turnlog-shots-") as home:
            env = {**os.environ, CHILD: "1", "DISPLAY": f":{number}",
                   "QT_QPA_PLATFORM": "xcb", "TURNLOG_HOME": home}
            done = subprocess.run([sys.executable, __file__, str(out)], env=env, timeout=120)
        if done.returncode:
            return done.returncode
        # The same window in Simplified and Traditional Chinese (a process per language).
        done = subprocess.run([sys.executable, str(HERE / "screenshots_languages.py"),
                               str(out)], timeout=300)
        if done.returncode:
            return done.returncode
        # Everyday use on 1280×720 and 1024×600 screens, in English and Chinese.
        done = subprocess.run([sys.executable, str(HERE / "screenshots_everyday.py"),
                               str(out)], timeout=600)
        if done.returncode:
            return done.returncode
        # What answers cost, and the Usage view, on both screens in three languages.
        return subprocess.run([sys.executable, str(HERE / "screenshots_usage.py"),
                               str(out)], timeout=600).returncode


def child(out: Path) -> int:
    sys.path.insert(0, str(HERE))
    from PySide6.QtWidgets import QApplication

    from loopback import Behaviour, LoopbackServer
    from screen_steps import settle, until
    from turnlog.app import application
    from turnlog.config.paths import data_dir
    from turnlog.core.model import ConversationSettings, Usage
    from turnlog.core.send import PendingTurn
    from turnlog.providers import CUSTOM
    from turnlog.store import TurnlogStore
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.request.connection import ProviderConfig, ProviderConnector
    from turnlog.ui.shell.window import MainWindow

    app = application(["turnlog"])

    def scroll_to(window: MainWindow, ordinal: int) -> None:
        from PySide6.QtWidgets import QAbstractItemView

        window.transcript.load_all()
        settle(100)
        row = window.transcript.row_of_ordinal(ordinal)
        window.view.scrollTo(window.transcript.index(row),
                             QAbstractItemView.ScrollHint.PositionAtTop)

    def shoot(window: MainWindow, name: str) -> None:
        settle(400)
        window.grab().save(str(out / name))
        print("saved", out / name)

    store = TurnlogStore.open(data_dir())
    with LoopbackServer() as server:
        config = ProviderConfig("loopback", "Local server", CUSTOM, server.base_url,
                                "qwen2.5-7b-instruct")
        connector = ProviderConnector(lambda: config, lambda: None)
        settings = ConversationSettings(max_bytes=1_800, compaction=True)
        store.conversations.create("Weekend notes")
        conversation = store.conversations.create(
            "杭州旅行 · Hangzhou trip", system_prompt="You are a helpful travel planner.",
            model="qwen2.5-7b-instruct", settings=settings)
        store.turns.commit_many(conversation.id, [
            PendingTurn(uuid.uuid4().hex, q, a, "qwen2.5-7b-instruct", "stop", Usage(),
                        datetime.now(UTC)) for q, a in SEED])
        window = MainWindow(store, TaskRunner(), connector)
        window.resize(1280, 720)
        window.show()
        until(lambda: len(window.transcript.turns) == len(SEED))

        # The oldest turns do not fit: compaction asks the server for a summary first.
        server.script(Behaviour.answer("用户计划三天杭州之行（预算三千元），"
                                       "问了最佳季节与素食。"),
                      Behaviour.slow("谢谢！Have a great trip 🎉 — 记得带伞。", delay_s=0.05,
                                     usage={"prompt_tokens": 412, "completion_tokens": 21,
                                            "total_tokens": 433}))
        window.composer.set_draft("天气怎么样？What will the weather be like? ☀️")
        window.send()
        until(lambda: not window.running)
        scroll_to(window, 1)
        shoot(window, "main-1280x720.png")


        # Narrow, with a draft: the marks preview the next request (compaction not yet run).
        window.resize(480, 844)
        until(lambda: window.width() == 480)
        window.composer.set_draft("还有什么建议吗？🙂")
        window.refresh_preview()
        scroll_to(window, 1)
        shoot(window, "narrow-480x844.png")

        window.resize(1280, 720)
        window.composer.set_draft("四月的天气怎么样？请详细说明。", 5)
        window.refresh_preview()
        # The summary is extended first only when the preview says the send will compact.
        if window.shown.to_summarize:
            server.script(Behaviour.answer("用户计划三天杭州之行，问了季节、素食与行李。"))
        server.script(Behaviour.cut("杭州的天气在四月通常温暖湿润，白天大约", after_chunks=2,
                                    chunks=4))
        window.send()
        until(lambda: not window.running)
        shoot(window, "failure-banner.png")

        # A side question: answered in its own panel on its own budget; no new turn.
        window.banner.dismiss()
        window.side_dock.raise_()
        server.script(Behaviour.slow("行程：第一天西湖，第二天灵隐寺和龙井村，第三天西溪湿地；"
                                     "预算约三千元。🧳", delay_s=0.05,
                                     usage={"prompt_tokens": 655, "completion_tokens": 40,
                                            "total_tokens": 695}))
        window.side.panel.edit.setPlainText("用一句话总结我们的行程安排")
        window.side.ask()
        until(lambda: not window.side.session.running)
        shoot(window, "side-question-1280x720.png")

        # A longer log: turns in the summary beside the verbatim ones, and a summary
        # that dropped two key facts, flagged in the inspector.
        garden = store.conversations.create(
            "Garden project", model="qwen2.5-7b-instruct",
            settings=ConversationSettings(max_bytes=6_000, compaction=True))
        store.turns.commit_many(garden.id, [
            PendingTurn(uuid.uuid4().hex, q, a, "qwen2.5-7b-instruct", "stop", Usage(),
                        datetime.now(UTC)) for q, a in GARDEN])
        window.refresh_conversations(select_id=garden.id)
        until(lambda: len(window.transcript.turns) == len(GARDEN))
        usage = {"prompt_tokens": 1_436, "completion_tokens": 38, "total_tokens": 1_474}
        server.script(Behaviour.answer("- ticket ORCHID-17\n- tulips along the fence",
                                       usage=usage),
                      Behaviour.answer("Garlic, planted in October. 🧄", usage=usage))
        window.composer.set_draft("What should we plant next?")
        window.send()
        until(lambda: not window.running)
        until(lambda: window.inspector.state is not None
              and window.inspector.state.summary is not None)
        scroll_to(window, window.shown.projection.summarized[-1] - 1)
        window.inspector.ensureWidgetVisible(window.inspector.summary_warning)
        shoot(window, "compaction-1280x720.png")
        memory_shots(window, store, server, conversation.id, garden.id, until, shoot)
        versions_shots(window, store, server, until, shoot)
        answers_shots(window, store, until, shoot)
        window.shutdown()
        window.close()
        picker_shot(store, server, out, until, settle)
    store.close()
    QApplication.processEvents()
    del app
    return 0


THOUGHT = ("用户问的是明天杭州的天气。我无法查询实时天气，但可以根据四月的气候给出建议："
           "气温大约 15–22°C，常有小雨，所以要提醒带伞。The user writes in Chinese, so I "
           "answer in Chinese and keep it short.")


def picker_shot(store, server, out: Path, until, settle) -> None:
    """The header: two profiles, the model list as the server lists it, the sampling
    settings open, and a reasoning model's turn with its thought folded (then opened)."""
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QGuiApplication

    from loopback import Behaviour
    from turnlog.config.paths import data_dir
    from turnlog.config.profiles import ProfileStore, new_profile
    from turnlog.config.secrets import SessionKeys
    from turnlog.core.model import ConversationSettings
    from turnlog.providers import CUSTOM, DEEPSEEK
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.request.connection import ProviderConnector
    from turnlog.ui.request.provider_setup import ProviderSetup
    from turnlog.ui.shell.window import MainWindow

    server.models = ["deepseek-reasoner", "deepseek-chat",
                     {"id": "qwen3-32b", "max_model_len": 32_768}]
    profiles = ProfileStore(data_dir())
    local = new_profile(DEEPSEEK, model="deepseek-chat", name="DeepSeek",
                        base_url=server.base_url)
    profiles.save([local, new_profile(CUSTOM, model="qwen2.5-7b-instruct",
                                      name="Local server", base_url=server.base_url)])
    keys = SessionKeys()
    keys.set(local.id, "sk-screenshot-only")
    setup = ProviderSetup(profiles, QSettings(str(data_dir() / "shots.ini"),
                                              QSettings.Format.IniFormat), keyring=keys)
    setup.set_active(local.id)
    conversation = store.conversations.create(
        "明天的天气 · Tomorrow", model="deepseek-reasoner",
        settings=ConversationSettings(temperature=0.6, top_p=0.95, output_reserve=2048))
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    window.resize(1280, 720)
    window.show()
    window.refresh_conversations(select_id=conversation.id)
    until(lambda: window.conversation is not None and window.conversation.id == conversation.id)
    server.script(Behaviour.answer("明天杭州可能有小雨，气温 15–22°C，出门记得带伞 ☔。",
                                   reasoning=THOUGHT,
                                   usage={"prompt_tokens": 24, "completion_tokens": 96,
                                          "total_tokens": 120}))
    window.composer.set_draft("明天杭州天气怎么样？")
    window.send()
    until(lambda: not window.running)
    header = window.centre.header
    header.sampling.click()
    window.composer.set_draft("那后天呢？")
    window.refresh_preview()
    header.model.showPopup()
    until(lambda: header.model.count() == 3)
    settle(600)
    if not header.model.view().isVisible():
        raise SystemExit("the model list did not open again once filled")
    geometry = window.frameGeometry()
    shot = QGuiApplication.primaryScreen().grabWindow(
        0, geometry.x(), geometry.y(), window.width(), window.height())
    shot.save(str(out / "picker-1280x720.png"))
    print("saved", out / "picker-1280x720.png")
    header.model.hidePopup()
    window.shutdown()
    window.close()


def memory_shots(window, store, server, chinese: int, english: int, until, shoot) -> None:
    """The Memory panel in Chinese and in English, with marks from a real request."""
    from loopback import Behaviour

    cases = [
        (chinese, "memory-zh-1280x720.png", "还有什么要注意的？",
         ["预算三千元，不要超支", "第二天：灵隐寺、龙井村"], [("喜欢安静的地方", 4),
                                                   ("杭州春天多雨，记得带伞 ☔。" * 20, 2)],
         [("用中文回答，简洁一点。", 5)]),
        (english, "memory-en-1280x720.png", "Anything else for next spring?",
         ["Never delete the backups", "Installer build 4.2.17"],
         [("Beds 4–12 get morning sun", 4),
          ("Clay soil everywhere; compost it every autumn. " * 20, 1)],
         [("Answer in English, briefly.", 5)]),
    ]
    for conversation_id, name, question, pins, notes, preferences in cases:
        sources = [t.id for t in store.turns(conversation_id)[:len(pins)]]
        for text, source in zip(pins, sources, strict=True):
            store.memory.add_pin(conversation_id, text, sources=[source])
        for text, priority in notes:
            store.memory.add_note(conversation_id, text, priority=priority)
        for old in store.memory.preferences():  # one language per picture
            store.memory.remove_preference(old.id)
        for text, priority in preferences:
            store.memory.add_preference(text, priority=priority)
        window.refresh_conversations(select_id=conversation_id)
        until(lambda cid=conversation_id: window.memory.panel.state is not None
              and window.memory.panel.state.conversation.id == cid)
        server.default = Behaviour.answer("Noted — 好的。")
        window.composer.set_draft(question)
        window.send()
        until(lambda: not window.running)
        until(lambda: window.memory.panel.selection is not None
              and bool(window.memory.panel.selection.choices))
        window.memory.go_to()
        shoot(window, name)


VERSIONS = {
    "zh": ("咖啡计划",
           [("我每天喝几杯咖啡比较合适？", "一般建议每天不超过 3–4 杯（约 400 毫克咖啡因）。"),
            ("下午三点以后还能喝吗？", "最好不要，咖啡因的半衰期约 5 小时 ☕，会影响睡眠。")],
           ["可以，但换成低因咖啡更好；下午喝一小杯问题不大。",
            "不太建议：咖啡因半衰期约 5 小时，三点喝到晚上八点还剩一半 🌙。"]),
    "en": ("Coffee plan", [("How many cups of coffee a day are fine?",
                            "Most guidance says up to 3–4 cups (about 400 mg of caffeine)."),
                           ("Can I still have one after 3 pm?",
                            "Better not: caffeine's half-life is about 5 hours ☕.")],
           ["Yes, but switch to decaf; a small cup in the afternoon is fine.",
            "I'd skip it: half of a 3 pm cup is still with you at 8 pm 🌙."]),
}


ANSWERS = {
    "en": ("How do the two plans compare, and what does the loan cost?",
           "Side by side:\n\n| Plan | Rate | Term | Monthly |\n|---|---:|---:|---:|\n"
           "| Fixed | 3.9 % | 25 y | $1,046 |\n| Variable | ~~4.4 %~~ 3.6 % | 25 y | $1,013 |\n"
           "\n> The variable rate is only fixed for the first two years.\n\n"
           "The monthly payment for a loan $P$ at a monthly rate $r$ over $n$ months is\n\n"
           "$$M = P\\,\\frac{r(1+r)^n}{(1+r)^n - 1}$$\n\n"
           "so with \\(P = 200{,}000\\) and $r = 0.039/12$ it is about $1,046. "
           "Run `loan.py` to check:\n\n```python\n"
           "M = P * r * (1 + r)**n / ((1 + r)**n - 1)\n```\n"),
    "zh": ("两种方案比较一下？面积怎么算？",
           "对比如下：\n\n| 方案 | 面积 | 造价 |\n|---|---:|---:|\n"
           "| 圆形花坛 | 12.6 m² | ¥3,800 |\n"
           "| 方形花坛 | 16 m² | ¥4,200 |\n\n> 提示：圆形花坛更省材料。\n\n"
           "圆的面积是 $A = \\pi r^2$，半径 $r = 2$ 时：\n\n"
           "$$\\text{面积} = \\pi \\times 2^2 \\approx 12.57\\ \\text{m}^2$$\n\n"
           "用 `area.py` 验算：\n\n```python\nimport math\nprint(math.pi * 2 ** 2)\n```\n"),
}


def answers_shots(window, store, until, shoot) -> None:
    """Answers as written, in English and in Chinese."""
    from turnlog.core.model import Usage
    from turnlog.core.send import PendingTurn

    for language, (question, answer) in ANSWERS.items():
        conversation = store.conversations.create(
            "Loan plans" if language == "en" else "花坛面积", model="qwen2.5-7b-instruct")
        store.turns.commit_many(conversation.id, [
            PendingTurn(uuid.uuid4().hex, question, answer, "qwen2.5-7b-instruct", "stop",
                        Usage(), datetime.now(UTC))])
        window.refresh_conversations(select_id=conversation.id)
        until(lambda: len(window.transcript.turns) == 1)
        window.view.viewport().repaint()
        until(lambda: not window.view.delegate.formulas.waiting)
        shoot(window, f"answers-{language}-1280x720.png")


def versions_shots(window, store, server, until, shoot) -> None:
    """A turn with three versions, in Chinese and in English: regenerated twice over HTTP,
    then ◀ to its second version (replaced: never sent, Use this version), with part of
    the first answer selected as a person would drag over it."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    from loopback import Behaviour
    from turnlog.core.model import Usage
    from turnlog.core.send import PendingTurn
    from turnlog.ui.transcript.model import Role

    window.inspector_dock.raise_()
    for old in store.memory.preferences():  # the Memory pictures' own
        store.memory.remove_preference(old.id)
    for language, (title, pairs, regenerated) in VERSIONS.items():
        made = store.conversations.create(title, model="qwen2.5-7b-instruct")
        store.turns.commit_many(made.id, [
            PendingTurn(uuid.uuid4().hex, q, a, "qwen2.5-7b-instruct", "stop", Usage(),
                        datetime.now(UTC)) for q, a in pairs])
        window.refresh_conversations(select_id=made.id)
        count = len(pairs)
        until(lambda n=count: len(window.transcript.turns) == n
              and window.transcript.rowCount() == n)
        for answer in regenerated:
            server.script(Behaviour.answer(answer))
            window.versions.regenerate()
            until(lambda: not window.running)
            until(lambda a=answer: window.transcript.index(1).data(Role.VERSION) is not None
                  and window.transcript.index(1).data(Role.ANSWER) == a)
        window.transcript.step_version(1, -1)  # version 2 of 3
        view, index = window.view, window.transcript.index(0)
        doc, origin = view.delegate.text_layout(index)[1]
        line = doc.firstBlock().layout().lineAt(0)
        y = origin.y() + int(line.y() + line.height() / 2)
        start, end = QPoint(origin.x() + 2, y), QPoint(origin.x() + int(line.naturalTextWidth()
                                                                       * 0.6), y)
        QTest.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
        QTest.mouseMove(view.viewport(), end)
        QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=end)
        shoot(window, f"versions-{language}-1280x720.png")


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else places.ROOT / "screenshots"
    sys.exit(child(target) if os.environ.get(CHILD) else parent(target))
