"""A first question starts a conversation only with its answer: `kill -9` during
`turnlog-cli ask --new` (or any failure) leaves no empty conversation behind."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

from cli_runs import add_profile, cli
from crashing import ANSWER, CHUNKS, DELAY_S, WINDOW_S, cli_command
from loopback import Behaviour
from places import SUPPORT


def conversations(home) -> list[tuple[int, int]]:
    """(id, number of turns) of every conversation in the file."""
    con = sqlite3.connect(home / "turnlog.sqlite3")
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return con.execute("SELECT c.id, (SELECT count(*) FROM turns t WHERE "
                           "t.conversation_id = c.id) FROM conversations c").fetchall()
    finally:
        con.close()


def ask_new_and_kill(loopback, home, delay_s: float, *, idle: bool = True) -> None:
    seen = len(loopback.requests)
    proc = subprocess.Popen(cli_command("ask", "--new", "A first question"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "TURNLOG_HOME": str(home)})
    try:
        loopback.wait_for_requests(seen + 1, timeout=30)
        time.sleep(delay_s)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    if idle:
        loopback.wait_idle(timeout=10)


def test_kill_9_while_the_first_answer_streams_leaves_no_conversation(loopback,
                                                                      turnlog_home):
    add_profile(loopback)
    loopback.script(Behaviour.hang(after_chunks=2, text="The first answer, streaming"))
    ask_new_and_kill(loopback, turnlog_home, 0.3, idle=False)  # the server hangs on
    assert conversations(turnlog_home) == []
    assert cli("list").stdout == "no conversations yet\n"


def test_kill_9_anywhere_in_a_first_send_leaves_a_whole_conversation_or_none(loopback,
                                                                             turnlog_home):
    add_profile(loopback)
    loopback.default = Behaviour.slow(ANSWER, delay_s=DELAY_S, chunks=CHUNKS)
    rng = random.Random(13)
    for _ in range(12):
        ask_new_and_kill(loopback, turnlog_home, rng.uniform(0, WINDOW_S))
    found = conversations(turnlog_home)
    assert all(turns == 1 for _, turns in found), found  # never an empty one
    listed = cli("list").stdout
    assert listed.count("\n") == max(1, len(found))


def test_a_failed_first_send_keeps_no_request_records_and_a_later_one_keeps_its_own(
        loopback, turnlog_home):
    add_profile(loopback)
    loopback.script(Behaviour.error(503, "busy", type="server_error"),
                    Behaviour.answer("Second try"))
    result = cli("ask", "--new", "Hello there")
    assert result.returncode == 0, result.stderr
    assert "conversation 1" in result.stderr
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    try:
        rows = con.execute("SELECT conversation_id, attempt, outcome FROM requests "
                           "ORDER BY id").fetchall()
    finally:
        con.close()
    assert rows == [(1, 1, "http_status"), (1, 2, "committed")]


WINDOW_FIRST_SEND = """
import os, sys
from pathlib import Path
sys.path.insert(0, {tests!r})
from PySide6.QtWidgets import QApplication
from turnlog.store import TurnlogStore
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.shell.window import MainWindow
from uihelpers import loopback_connector

app = QApplication([])
store = TurnlogStore.open(Path(os.environ["TURNLOG_HOME"]))
window = MainWindow(store, TaskRunner(), loopback_connector({url!r}))
window.show()
window.composer.set_draft("A first question from the window")
window.send()  # no conversation open: one is started for it
app.exec()
"""


def test_kill_9_during_the_windows_first_send_leaves_nothing_listed_after(
        loopback, turnlog_home, qtbot):
    """The window starts a conversation for a question sent with none open; killed while
    the answer streams, that conversation is gone from the list on the next start."""

    from turnlog.store import TurnlogStore
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.shell.window import MainWindow
    from uihelpers import loopback_connector

    loopback.script(Behaviour.hang(after_chunks=1, text="Streaming into the window"))
    script = WINDOW_FIRST_SEND.format(tests=str(SUPPORT),
                                      url=loopback.base_url)
    proc = subprocess.Popen([sys.executable, "-c", script],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "TURNLOG_HOME": str(turnlog_home),
                                 "QT_QPA_PLATFORM": "offscreen"})
    try:
        loopback.wait_for_requests(1, timeout=60)
        time.sleep(0.2)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert conversations(turnlog_home) == [(1, 0)]  # what the kill left
    with TurnlogStore.open(turnlog_home) as store:  # the next start
        window = MainWindow(store, TaskRunner(), loopback_connector(loopback.base_url))
        qtbot.addWidget(window)
        try:
            qtbot.waitUntil(lambda: window.sidebar.current() is None
                            and not store.conversations(), timeout=5000)
            assert window.conversation is None
            qtbot.waitUntil(lambda: window.composer.text()  # the question is not lost
                            == "A first question from the window", timeout=5000)
        finally:
            window.shutdown()
    assert conversations(turnlog_home) == []
    assert cli("list").stdout == "no conversations yet\n"


def test_a_conversation_a_first_send_started_is_kept_once_answered(turnlog_home):
    from datetime import UTC, datetime

    from turnlog.core.model import Usage
    from turnlog.core.send import PendingTurn
    from turnlog.store import TurnlogStore

    with TurnlogStore.open(turnlog_home) as store:
        answered = store.conversations.create("answered", first_send=True)
        store.turns.commit(answered.id, PendingTurn("t1", "q", "a", "m", "stop", Usage(),
                                                    datetime.now(UTC)))
        store.privacy.delete_turn("t1")  # emptied by hand later: still the person's conversation
        typed = store.conversations.create("typed in", first_send=True)
        (turnlog_home / "drafts").mkdir(exist_ok=True)
        from turnlog.store.drafts import save_draft
        save_draft(turnlog_home, typed.id, "my unsent question")
        plain = store.conversations.create("made with New")
        unanswered = store.conversations.create("unanswered", first_send=True)
        store.database.check_sound()
        assert store.conversations.sweep_unanswered() == []  # this run's: left to its send
    with TurnlogStore.open(turnlog_home) as store:  # the next run
        store.database.check_sound()
        assert store.conversations.sweep_unanswered() == [unanswered.id]
        assert {c.id for c in store.conversations()} == {answered.id, typed.id, plain.id}
