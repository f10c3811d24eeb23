"""A window open on a seeded conversation, a draft typed into it, and waiting for its send."""

from __future__ import annotations

from loopback import Behaviour
from turnlog.ui.shell.window import MainWindow
from turnlog.ui.transcript.model import Role
from uihelpers import seed

QUESTION = "Wie geht's? 你好吗？ 👋\nSecond line"


CURSOR = 9  # inside the first line: a restored draft must put it back here


def open_window(qtbot, make_window, store, pairs, **kwargs) -> tuple[MainWindow, int]:
    settings = kwargs.pop("settings", None)
    conversation = seed(store, "chat", pairs, settings=settings)
    window = make_window(**kwargs)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == len(pairs), timeout=5000)
    return window, conversation.id


def type_draft(window: MainWindow, text: str = QUESTION, cursor: int = CURSOR) -> None:
    window.composer.set_draft(text, cursor)
    window.refresh_preview()


def wait_done(qtbot, window: MainWindow, timeout: int = 10_000) -> None:
    qtbot.waitUntil(lambda: not window.running, timeout=timeout)


def keep_cut_answer(qtbot, window: MainWindow, loopback, question: str) -> None:
    """Send `question`, have the server cut the answer at the output limit, and press Keep:
    the kept incomplete turn becomes the newest row."""
    rows = window.transcript.rowCount()
    loopback.script(Behaviour.length("First half,"))
    window.composer.set_draft(question)
    window.send()
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=5000)
    window.partial_answers.keep()
    qtbot.waitUntil(lambda: window.transcript.rowCount() == rows + 1
                    and bool(window.transcript.index(rows).data(Role.INCOMPLETE)), timeout=5000)
