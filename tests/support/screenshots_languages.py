"""Screenshots of the window in Simplified and Traditional Chinese, under a real X server.

    .venv/bin/python tests/support/screenshots_languages.py [OUT_DIR]
    (tests/support/screenshots.py runs it)

For each of zh_CN and zh_TW, a process of its own starts as the app does with that language
remembered in its data directory (View → Language), and saves

    LANG-main-1280x720.png      the window after a request
    LANG-main-480x844.png       the same window 480 px wide
    LANG-inspector-1280x720.png the request inspector of that request, full height
    LANG-settings.png           the Settings dialog, and LANG-settings-480.png 480 px wide
    LANG-failure-1280x720.png   a failed request: the banner with its next step
    LANG-failure-480x844.png    the same banner 480 px wide
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import uuid
from datetime import UTC, datetime
from pathlib import Path

import places
from screen_steps import run_script

HERE = Path(__file__).resolve().parent
CHILD = "TURNLOG_LANGUAGE_SHOT"
LANGUAGES = ("zh_CN", "zh_TW")
NAMES = ("main-1280x720", "main-480x844", "inspector-1280x720", "settings",
         "failure-1280x720", "failure-480x844")
QUESTIONS = {
    "zh_CN": ("明天杭州会下雨吗？需要带伞吗？☔", "四月去杭州穿什么合适？请详细说明。"),
    "zh_TW": ("明天杭州會下雨嗎？需要帶傘嗎？☔", "四月去杭州穿什麼合適？請詳細說明。"),
}


def parent(out: Path) -> int:
    """Run a child per language on a private Xvfb display and data directory."""
    sys.path.insert(0, str(HERE))
    from screenshots import private_display

    out.mkdir(parents=True, exist_ok=True)
    with private_display() as number:
        if number is None:
            print("Xvfb did not start", file=sys.stderr)
            return 2
        for language in LANGUAGES:
            with tempfile.TemporaryDirectory(prefix="turnlog-shots-") as home:
                env = {**os.environ, CHILD: language, "DISPLAY": f":{number}",
                       "QT_QPA_PLATFORM": "xcb", "TURNLOG_HOME": home}
                done = subprocess.run([sys.executable, __file__, str(out)], env=env,
                                      timeout=120)
                if done.returncode:
                    return done.returncode
        return 0


def child(out: Path, language: str) -> int:
    sys.path.insert(0, str(HERE))

    from loopback import Behaviour, LoopbackServer
    from screen_steps import close_down, settle, until
    from screenshots import SEED
    from turnlog.app import application
    from turnlog.config.paths import data_dir
    from turnlog.config.profiles import ProfileStore
    from turnlog.config.secrets import SessionKeys
    from turnlog.core.model import ConversationSettings, Usage
    from turnlog.core.send import PendingTurn
    from turnlog.providers import CUSTOM
    from turnlog.store import TurnlogStore
    from turnlog.ui.dialogs.settings import SettingsDialog
    from turnlog.ui.infra.languages import SETTING, install_for
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.infra.window_settings import window_settings
    from turnlog.ui.request.connection import ProviderConfig, ProviderConnector
    from turnlog.ui.request.provider_setup import ProviderSetup
    from turnlog.ui.shell.window import MainWindow

    home = data_dir()
    remembered = window_settings(home)
    remembered.setValue(SETTING, language)  # as View → Language leaves it
    remembered.sync()
    app = application(["turnlog"])
    install_for(home)  # what the start does

    def shoot(widget, name: str) -> None:
        settle(400)
        path = out / f"{language}-{name}.png"
        widget.grab().save(str(path))
        print("saved", path)

    def resize(window, width: int, height: int) -> None:
        window.resize(width, height)
        until(lambda: window.width() == width)

    store = TurnlogStore.open(home)
    with LoopbackServer() as server:
        config = ProviderConfig("loopback", "Local server", CUSTOM, server.base_url,
                                "qwen2.5-7b-instruct")
        connector = ProviderConnector(lambda: config, lambda: None)
        conversation = store.conversations.create(
            "杭州旅行 · Hangzhou trip", model="qwen2.5-7b-instruct",
            settings=ConversationSettings(max_bytes=2_400))
        store.turns.commit_many(conversation.id, [
            PendingTurn(uuid.uuid4().hex, q, a, "qwen2.5-7b-instruct", "stop", Usage(),
                        datetime.now(UTC)) for q, a in SEED])
        window = MainWindow(store, TaskRunner(), connector)
        resize(window, 1280, 720)
        window.show()
        until(lambda: len(window.transcript.turns) == len(SEED))
        ask, fail = QUESTIONS[language]
        server.script(Behaviour.slow("四月的杭州常有小雨，最好带一把折叠伞 🌂。", delay_s=0.05,
                                     usage={"prompt_tokens": 512, "completion_tokens": 24,
                                            "total_tokens": 536}))
        window.composer.set_draft(ask)
        window.send()
        until(lambda: not window.running)
        shoot(window, "main-1280x720")
        window.inspector_dock.raise_()
        shoot(window.inspector_dock, "inspector-1280x720")
        resize(window, 480, 844)
        shoot(window, "main-480x844")

        resize(window, 1280, 720)
        server.script(Behaviour.cut("四月的杭州白天大约 15–22°C，早晚偏凉，建议", after_chunks=2,
                                    chunks=4))
        window.composer.set_draft(fail, 5)
        window.refresh_preview()
        window.send()
        until(lambda: not window.running)
        shoot(window, "failure-1280x720")
        resize(window, 480, 844)
        shoot(window, "failure-480x844")
        resize(window, 1280, 720)

        setup = ProviderSetup(ProfileStore(home), remembered, keyring=SessionKeys())
        settings = SettingsDialog(setup, window.runner, window.conversation, window)
        settings.show()
        shoot(settings, "settings")
        dialog = settings.providers.add_profile("custom")
        dialog.show()
        shoot(dialog, "settings-provider")
        dialog.resize(480, dialog.height())  # Chinese labels leave it room at 480 px
        until(lambda: dialog.width() == 480)
        shoot(dialog, "settings-480")
        dialog.reject()
        settings.close()
        close_down(window, store)
    del app
    return 0


if __name__ == "__main__":
    run_script(parent, child, places.ROOT / "screenshots", CHILD)
