"""View → Language offers to restart now in the language chosen (Restart now closes the
window and has Turnlog start again, with the same arguments, in a new program image);
choosing the language already on show asks nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMenu

import turnlog
from turnlog.ui.dialogs.privacy import Decision
from turnlog.ui.infra import languages

pytest_plugins = ["uiwindow"]


def language_actions(window) -> dict[str, object]:
    menu = window.findChild(QMenu, "languageMenu")
    return {action.text(): action for action in menu.actions() if action.isCheckable()}


def test_choosing_another_language_offers_to_restart_now(qtbot, make_window):
    window = make_window()
    asked = []
    window.confirm = lambda confirmation: (asked.append(confirmation), Decision(False))[1]
    actions = language_actions(window)
    actions["English"].trigger()  # the language on show: nothing to offer
    assert asked == []
    actions["简体中文"].trigger()
    [question] = asked
    assert question.text == "Restart Turnlog now to show it in 简体中文?"
    assert question.action == "Restart now"
    assert window.isVisible() and not languages.restart_requested()  # Later: kept open
    assert languages.chosen(window.settings) == "zh_CN"  # remembered for the next start

    window.confirm = lambda confirmation: Decision(True)
    try:
        actions["繁體中文"].trigger()
        qtbot.waitUntil(lambda: not window.isVisible(), timeout=3000)
        assert languages.restart_requested()
    finally:
        QCoreApplication.instance().setProperty(languages.RESTART, False)


def test_relaunch_starts_turnlog_again_with_the_same_arguments(tmp_path):
    script = ("import sys; from turnlog.app import relaunch; "
              "relaunch(['turnlog', '--version']); print('not replaced')")
    env = os.environ.copy()
    env["PYTHONPATH"] = os.pathsep.join([str(Path(turnlog.__file__).parents[1]),
                                         env.get("PYTHONPATH", "")])
    env["TURNLOG_HOME"] = str(tmp_path)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Turnlog {turnlog.__version__}")
    assert "not replaced" not in done.stdout
