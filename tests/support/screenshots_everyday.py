"""Everyday screenshots, in English and Simplified Chinese, on 1280×720 and 1024×600 screens.

    .venv/bin/python tests/support/screenshots_everyday.py [OUT_DIR]
    (tests/support/screenshots.py runs it)

A virtual X server per screen size; on each, a process per language starts as the app does
(the language remembered in its data directory) with several providers, and saves

    everyday-LANG-SIZE-answer.png     an answer as written: a table, inline code, a quote, a
                                      code block, inline and display maths
    everyday-LANG-SIZE-partial.png    an answer cut at the output limit: the banner offers
                                      Keep as an incomplete turn and Continue
    everyday-LANG-SIZE-incomplete.png the same answer kept: the turn marked incomplete
    everyday-LANG-SIZE-providers.png  the whole screen: Settings' Providers page over the window
    everyday-LANG-SIZE-presets.png    the profile editor for every preset, side by side (each
                                      as it opens on that screen)
    everyday-LANG-SIZE-tasks.png      an answer with a task list (done tasks checked, open
                                      ones not), under a long profile name and a long model
                                      name: both boxes cut at the end with "…"
    everyday-LANG-SIZE-shortcuts.png  Help → Keyboard shortcuts (Ctrl+/) with "Enter" typed in
                                      its filter: Send and the other Enter keys found
    everyday-LANG-SIZE-delete-conversation.png  the question before deleting a conversation
    everyday-LANG-SIZE-delete-history.png       the question before Delete all history, with
                                      its offer to forget the providers' API keys

LANG is en or zh_CN, SIZE 1280x720 or 1024x600.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import places
from screen_steps import run_script

HERE = Path(__file__).resolve().parent
CHILD = "TURNLOG_EVERYDAY_SHOT"
LANGUAGES = ("en", "zh_CN")
SIZES = ((1280, 720), (1024, 600))
NAMES = ("answer", "partial", "incomplete", "providers", "presets", "tasks", "shortcuts",
         "delete-conversation", "delete-history")
WORDS = {
    "en": {"title": "Loan plans", "question": "Write the loan summary for the bank, please.",
           "partial": "Dear Ms Chen,\n\nthank you for your time on Monday. As agreed, here "
                      "is the summary of the two plans we compared:\n\n- **Fixed**: 3.9 % "
                      "for 25 years, $1,046 a month\n- **Variable**: 3.6 % for the first "
                      "two years, then"},
    "zh_CN": {"title": "花坛面积", "question": "请帮我写一封给物业的说明信。",
              "partial": "尊敬的物业管理处：\n\n您好！关于小区东侧花坛的改造，"
                         "我们比较了两种方案：\n\n"
                         "- **圆形花坛**：面积约 12.6 m²，造价约 ¥3,800\n"
                         "- **方形花坛**：面积 16 m²，造价约 ¥4,200\n\n"
                         "综合考虑材料和维护，我们建议"},
}
# The profile and model names the header has to cut, and an answer with a task list.
LONG = {
    "en": {"profile": "Home server (Qwen2.5-7B-Instruct, quantised, in the study)",
           "model": "Qwen2.5-14B-Instruct-1M-GGUF-Q4_K_M-long-context",
           "title": "Moving day 📦", "question": "Where does the move stand?",
           "answer": "Where the move stands 🚚:\n\n- [x] Book the van for Saturday\n"
                     "- [x] Tell the landlord the date\n- [ ] Pack the kitchen\n"
                     "- [ ] Change the address at the bank\n\nTwo done, two to go."},
    "zh_CN": {"profile": "家里的服务器（Qwen2.5-7B-Instruct 本地量化模型，书房）",
              "model": "Qwen2.5-14B-Instruct-1M-GGUF-Q4_K_M-长上下文",
              "title": "搬家清单 📦", "question": "搬家准备得怎么样了？",
              "answer": "搬家进度 🚚：\n\n- [x] 预订周六的货车\n- [x] 通知房东搬家日期\n"
                        "- [ ] 打包厨房用品\n- [ ] 到银行更改地址\n\n完成两项，还剩两项。"},
}


def shot_name(language: str, size: tuple[int, int], name: str) -> str:
    return f"everyday-{language}-{size[0]}x{size[1]}-{name}.png"


def parent(out: Path) -> int:
    sys.path.insert(0, str(HERE))
    from screenshots import free_display

    out.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        started = start_xvfb(free_display, width, height)
        if started is None:
            print("Xvfb did not start", file=sys.stderr)
            return 2
        number, xvfb = started
        try:
            for language in LANGUAGES:
                with tempfile.TemporaryDirectory(prefix="turnlog-everyday-") as home:
                    env = {**os.environ, CHILD: language, "DISPLAY": f":{number}",
                           "QT_QPA_PLATFORM": "xcb", "TURNLOG_HOME": home}
                    done = subprocess.run([sys.executable, __file__, str(out)], env=env,
                                          timeout=300)
                    if done.returncode:
                        return done.returncode
        finally:
            xvfb.terminate()
            xvfb.wait(10)
    return 0


def start_xvfb(free_display, width: int, height: int):
    """A virtual X server of that size: (display number, process), or None. Another
    program may take the free number first: then the next one is tried."""
    for _attempt in range(3):
        number = free_display()
        xvfb = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", f"{width}x{height}x24",
                                 "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while xvfb.poll() is None and time.monotonic() < deadline:
            if Path(f"/tmp/.X11-unix/X{number}").exists():
                return number, xvfb
            time.sleep(0.05)
        xvfb.kill()
        xvfb.wait(10)
    return None


def each_size_and_language(script: str, out: Path, sizes, languages, child_variable: str,
                           prefix: str) -> int:
    """Run `script` again as a child per language (named by `child_variable`) in a fresh
    data directory, on a virtual X server of each of `sizes`: the pictures it takes land
    in `out`. A child's failure stops the rest (its exit status)."""
    from screenshots import free_display

    out.mkdir(parents=True, exist_ok=True)
    for width, height in sizes:
        started = start_xvfb(free_display, width, height)
        if started is None:
            print("Xvfb did not start", file=sys.stderr)
            return 2
        number, xvfb = started
        try:
            for language in languages:
                with tempfile.TemporaryDirectory(prefix=prefix) as home:
                    env = {**os.environ, child_variable: language, "DISPLAY": f":{number}",
                           "QT_QPA_PLATFORM": "xcb", "TURNLOG_HOME": home}
                    done = subprocess.run([sys.executable, script, str(out)], env=env,
                                          timeout=300)
                    if done.returncode:
                        return done.returncode
        finally:
            xvfb.terminate()
            xvfb.wait(10)
    return 0


def profiles_for(server_url: str, own_name: str = "Home server"):
    """A profile per kind a person keeps side by side: their own server, two services with
    keys, and the built-in model."""
    from turnlog.config.profiles import builtin_profile, new_profile
    from turnlog.providers import CUSTOM, DEEPSEEK, OPENAI

    own = new_profile(CUSTOM, model="qwen2.5-7b-instruct", name=own_name,
                      base_url=server_url)
    return [own, new_profile(OPENAI, model="gpt-4o-mini"),
            new_profile(DEEPSEEK, model="deepseek-chat"), builtin_profile()]


def grid(images, columns: int):
    """The editors side by side on a light background, `columns` to a row."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter

    gap = 12
    cell_w = max(i.width() for i in images)
    cell_h = max(i.height() for i in images)
    rows = (len(images) + columns - 1) // columns
    sheet = QImage(columns * (cell_w + gap) + gap, rows * (cell_h + gap) + gap,
                   QImage.Format.Format_RGB32)
    sheet.fill(Qt.GlobalColor.lightGray)
    painter = QPainter(sheet)
    for n, image in enumerate(images):
        painter.drawImage(gap + (n % columns) * (cell_w + gap),
                          gap + (n // columns) * (cell_h + gap), image)
    painter.end()
    return sheet


def child(out: Path, language: str) -> int:  # noqa: C901 - one walk through the window
    sys.path.insert(0, str(HERE))
    from PySide6.QtGui import QGuiApplication

    from loopback import Behaviour, LoopbackServer
    from screen_steps import close_down, settle, start_in, until
    from screenshots import ANSWERS
    from turnlog.config.profiles import ProfileStore
    from turnlog.config.secrets import SessionKeys
    from turnlog.core.model import Usage
    from turnlog.core.send import PendingTurn
    from turnlog.providers import PRESETS
    from turnlog.store import TurnlogStore
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.request.connection import ProviderConnector
    from turnlog.ui.request.provider_setup import ProviderSetup
    from turnlog.ui.shell.window import MainWindow

    home, remembered, app = start_in(language)
    screen = QGuiApplication.primaryScreen()
    size = (screen.geometry().width(), screen.geometry().height())
    words = WORDS[language]

    def save(image, name: str) -> None:
        path = out / shot_name(language, size, name)
        image.save(str(path))
        print("saved", path)

    def shoot_screen(name: str) -> None:
        settle(400)
        save(screen.grabWindow(0).toImage(), name)

    store = TurnlogStore.open(home)
    with LoopbackServer() as server:
        profiles = ProfileStore(home)
        kept = profiles_for(server.base_url, LONG[language]["profile"])
        profiles.save(kept, builtin_offered=True)
        keyring = SessionKeys()
        for profile in kept[1:3]:  # the services' keys, as typed in Settings
            keyring.set(profile.id, "sk-" + "0" * 32)
        setup = ProviderSetup(profiles, remembered, keyring=keyring)
        question, answer = ANSWERS["en" if language == "en" else "zh"]
        conversation = store.conversations.create(words["title"], model="qwen2.5-7b-instruct")
        store.turns.commit_many(conversation.id, [
            PendingTurn(uuid.uuid4().hex, question, answer, "qwen2.5-7b-instruct", "stop",
                        Usage(), datetime.now(UTC))])
        window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                            setup=setup)
        window.setGeometry(screen.availableGeometry())
        window.show()
        until(lambda: len(window.transcript.turns) == 1)
        until(lambda: not window.view.delegate.formulas.waiting)
        shoot_screen("answer")

        server.script(Behaviour.length(words["partial"]))
        window.composer.set_draft(words["question"])
        window.send()
        until(lambda: not window.running and window.banner.isVisible())
        shoot_screen("partial")
        window.banner.keep_button.click()
        until(lambda: len(window.transcript.turns) == 2)
        window.view.scrollToBottom()
        shoot_screen("incomplete")

        dialog = window.open_settings()
        until(dialog.isVisible)
        shoot_screen("providers")
        editors = []
        for preset in PRESETS:
            editor = dialog.providers.add_profile(preset.id)
            until(editor.isVisible)
            settle(250)
            editors.append(editor.grab().toImage())
            editor.reject()
        dialog.reject()
        save(grid(editors, 5 if size[0] >= 1280 else 4), "presets")
        later_shots(window, store, LONG[language], until, shoot_screen,
                    lambda name, start: shoot_question(name, start, until, save))
        close_down(window, store)
    del app
    return 0


def later_shots(window, store, words, until, shoot_screen, shoot_question) -> None:
    """A task list under long names, the shortcuts filtered for Enter, and both delete
    questions (answered Cancel)."""
    from PySide6.QtGui import QAction, QKeySequence
    from PySide6.QtTest import QTest

    from turnlog.core.model import Usage
    from turnlog.core.send import PendingTurn
    from turnlog.ui.dialogs.shortcuts import ShortcutsDialog

    first = window.conversation
    tasks = store.conversations.create(words["title"], model=words["model"])
    store.turns.commit_many(tasks.id, [
        PendingTurn(uuid.uuid4().hex, words["question"], words["answer"], words["model"],
                    "stop", Usage(), datetime.now(UTC))])
    window.refresh_conversations(select_id=tasks.id)
    until(lambda: window.conversation is not None and window.conversation.id == tasks.id
          and len(window.transcript.turns) == 1)
    window.composer.edit.setFocus()
    shoot_screen("tasks")

    keys = QKeySequence("Ctrl+/")  # Help → Keyboard shortcuts, as the menu offers it
    next(a for a in window.findChildren(QAction) if keys in a.shortcuts()).trigger()
    until(lambda: any(d.isVisible() for d in window.findChildren(ShortcutsDialog)))
    dialog = next(d for d in window.findChildren(ShortcutsDialog) if d.isVisible())
    QTest.keyClicks(dialog.filter, "Enter")
    shoot_screen("shortcuts")
    dialog.close()

    shoot_question("delete-conversation", lambda: window.delete_conversation(first))
    shoot_question("delete-history", window.delete_all_history)


def shoot_question(name: str, start, until, save) -> None:
    """Start what asks (a modal message box), save the whole screen once the box is on show,
    and answer Cancel."""
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication, QMessageBox

    answered: list[bool] = []

    def look() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox) and box.isVisible():
            poll.stop()
            QTimer.singleShot(500, lambda: answer(box))

    def answer(box) -> None:
        save(QGuiApplication.primaryScreen().grabWindow(0).toImage(), name)
        answered.append(True)
        box.reject()

    poll = QTimer()
    poll.timeout.connect(look)
    poll.start(50)
    start()
    until(lambda: answered)


if __name__ == "__main__":
    run_script(parent, child, places.ROOT / "screenshots", CHILD)
