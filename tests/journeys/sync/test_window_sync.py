"""Sync in the window: two data directories set up on one sync folder through
`turnlog-cli sync setup`, a window on the first. The window syncs by itself after the first
screen, after each committed answer and on its timer, off the GUI thread; the other machine
(the command line) sees what the window sent, and the window shows what the other machine
renamed, added and deleted everywhere; the status bar says each step in plain words."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer

from loopback import Behaviour
from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore
from turnlog.sync import engine
from turnlog.sync.crypto import ENV_LIGHT_KDF
from turnlog.ui.dialogs.privacy import Confirmation, Decision, Scoped
from turnlog.ui.shell.sync_control import SyncTimes
from turnlog.ui.transcript.marks import RowMark
from turnlog.ui.transcript.model import Role
from uihelpers import seed

pytest_plugins = ["uiwindow"]
pytestmark = pytest.mark.keyring

QUICK = SyncTimes(first=50, after_change=300, every=1_500, words=200)


def cli(home: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TURNLOG_HOME": str(home), ENV_LIGHT_KDF: "1"}
    done = subprocess.run([sys.executable, "-m", "turnlog.cli", *args], input=stdin,
                          capture_output=True, timeout=120, env=env)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(),
                                       done.stderr.decode())


def set_up(home: Path, folder: Path, name: str) -> None:
    home.mkdir(exist_ok=True)
    made = cli(home, "sync", "setup", "--folder", str(folder), "--passphrase-file", "-",
               "--machine", name, stdin=b"tulips in autumn\n")
    assert made.returncode == 0, made.stderr


def titles(window) -> list[str]:
    return [c.title for c in window.sidebar.model.items]


@pytest.fixture
def machines(tmp_path, turnlog_home, secret_service, monkeypatch):
    """A (the window's data directory, two conversations) and B, synced once (before the
    window opens A: a data directory has one writer)."""
    monkeypatch.setenv(ENV_LIGHT_KDF, "1")
    folder = tmp_path / "Sync"
    folder.mkdir()
    b = tmp_path / "b"
    with TurnlogStore.open(turnlog_home) as store:
        garden = seed(store, "Garden", [("When do tulips go in?", "In autumn.")])
        old = seed(store, "Old plans", [("Shed?", "Paint it green.")])
    set_up(turnlog_home, folder, "laptop")
    set_up(b, folder, "office-pc")
    for home in (turnlog_home, b):
        assert cli(home, "sync", "now").returncode == 0
    assert cli(turnlog_home, "sync", "now").returncode == 0
    return folder, b, garden.id, old.id


def window_with_sync(qtbot, make_window, loopback):
    window = make_window()
    said: list[str] = []
    window.sync.said.connect(said.append)
    window.sync.retime(QUICK)
    window.warm_up()  # the first screen is up
    qtbot.waitUntil(lambda: window.sync.last_done_at is not None, timeout=20_000)
    return window, said


def b_conversation(b: Path, title: str) -> int:
    with TurnlogStore.open(b) as other:
        return next(c.id for c in other.conversations.list() if c.title == title)


def test_the_window_syncs_by_itself_and_shows_the_other_machines_changes(
        machines, qtbot, make_window, loopback):
    folder, b, garden_id, old_id = machines
    window, said = window_with_sync(qtbot, make_window, loopback)
    qtbot.waitUntil(window.sync.button.isVisible)
    assert said[0] == "Synced just now"  # nothing is said before sync is known set up
    window.refresh_conversations(select_id=garden_id)
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id == garden_id)
    # A commits an answer: the debounced sync publishes it, B reads it.
    loopback.script(Behaviour.answer("Plant the bulbs 15 cm deep."))
    before = window.sync.last_done_at
    said.clear()
    window.composer.set_draft("How deep?")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=15_000)
    qtbot.waitUntil(lambda: window.sync.last_done_at != before, timeout=20_000)
    assert said[:1] == ["Syncing…"] and said[-1] == "Synced just now"
    down = cli(b, "sync", "now")
    assert down.returncode == 0 and "from laptop" in down.stdout, down.stderr
    garden_b = b_conversation(b, "Garden")
    with TurnlogStore.open(b) as other:
        assert "Plant the bulbs 15 cm deep." in [t.answer for t in
                                                   other.turns.all(garden_b)]
        other.conversations.update(garden_b, title="Garden in autumn")
        other.turns.commit(garden_b, PendingTurn("t-from-b", "And garlic?", "October too.",
                                                 "m", "stop", Usage(1, 1, 2),
                                                 datetime.now(UTC)))
    gone = cli(b, "delete", "--conversation", str(b_conversation(b, "Old plans")),
               "--everywhere", "--yes")
    assert gone.returncode == 0, gone.stderr
    assert cli(b, "sync", "now").returncode == 0
    # A's timer sync shows the rename, the new turn, and no deleted conversation.
    qtbot.waitUntil(lambda: "Garden in autumn" in titles(window), timeout=20_000)
    assert "Old plans" not in titles(window)
    qtbot.waitUntil(lambda: window.title.text() == "Garden in autumn")
    qtbot.waitUntil(lambda: "October too." in [t.answer for t in window.transcript.turns])
    # (a timer's sync may be running just now: it says so, then the same)
    qtbot.waitUntil(lambda: window.sync.button.text() == "Synced just now")
    assert old_id not in [c.id for c in window.sidebar.model.items]


def test_an_open_conversation_deleted_elsewhere_closes_and_keeps_the_draft(
        machines, qtbot, make_window, loopback):
    folder, b, garden_id, _ = machines
    window, _said = window_with_sync(qtbot, make_window, loopback)
    window.refresh_conversations(select_id=garden_id)
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id == garden_id)
    window.composer.set_draft("a question I am still writing")
    gone = cli(b, "delete", "--conversation", str(b_conversation(b, "Garden")),
               "--everywhere", "--yes")
    assert gone.returncode == 0, gone.stderr
    assert cli(b, "sync", "now").returncode == 0
    qtbot.waitUntil(lambda: window.conversation is None
                    or window.conversation.id != garden_id, timeout=20_000)
    assert window.statusBar().currentMessage() == (
        "The conversation you had open was deleted on another machine.")
    assert window.composer.text() == "a question I am still writing"
    assert "Garden" not in titles(window)


def test_the_status_bar_names_what_stops_a_sync(machines, qtbot, make_window, loopback):
    folder, b, _, _ = machines
    window, _said = window_with_sync(qtbot, make_window, loopback)
    window.sync.retime(SyncTimes(first=50, after_change=60_000, every=60_000, words=200))
    moved = folder.with_name("Sync-unplugged")
    folder.rename(moved)
    window.sync.button.click()
    qtbot.waitUntil(lambda: window.sync.button.text().startswith("Sync folder"), timeout=20_000)
    assert window.sync.button.text().startswith(f"Sync folder not found: {folder}, retrying "
                                                "in ")
    moved.rename(folder)
    # A key in the keyring made from another passphrase: refused before anything is read.
    from turnlog.sync.crypto import new_header
    from turnlog.sync.keystore import load_keys, save_keys
    from turnlog.sync.state import SyncState

    with SyncState.open(window.store.home) as state:
        user = state.get("keyring_user")
    keys = load_keys(user)
    _, other_key = new_header(b"not the passphrase", keys.current, 1)
    keys.by_id[keys.current] = other_key
    save_keys(user, keys)
    window.sync.sync_now()
    qtbot.waitUntil(lambda: "passphrase" in window.sync.button.text(), timeout=20_000)
    assert window.sync.button.text() == "Sync: wrong passphrase — open Settings → Sync"
    # Another machine changes the passphrase: named, with what to run here.
    changed = cli(b, "sync", "passphrase", "--passphrase-file", "-", stdin=b"roses in May\n")
    assert changed.returncode == 0, changed.stderr
    window.sync.sync_now()
    qtbot.waitUntil(lambda: "another machine" in window.sync.button.text(), timeout=20_000)
    assert window.sync.button.text() == ("Sync: another machine changed the passphrase — "
                                         "open Settings → Sync")


def test_a_slow_sync_runs_off_the_gui_thread(machines, qtbot, make_window, loopback,
                                             monkeypatch):
    window, _said = window_with_sync(qtbot, make_window, loopback)
    window.sync.retime(SyncTimes(first=50, after_change=60_000, every=60_000, words=200))
    real = engine.sync_now
    threads: list[str] = []

    def slow(*args, **kwargs):
        threads.append(threading.current_thread().name)
        time.sleep(1.5)
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "sync_now", slow)
    ticks: list[float] = []
    timer = QTimer(window)
    timer.setInterval(50)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start()
    before = window.sync.last_done_at
    window.sync.sync_now()
    assert window.sync.button.text() == "Syncing…"
    window.sync.sync_now()  # a second ask while one runs: one more after it, never two at once
    qtbot.waitUntil(lambda: len(threads) == 2 and window.sync.last_done_at != before
                    and not window.sync.running, timeout=20_000)
    timer.stop()
    assert all(name.startswith("turnlog-sync") for name in threads)
    # The GUI thread went on ticking through 3 s of syncing (a sync on the GUI thread would
    # leave one gap of 1.5 s or more each time; a machine under load leaves shorter ones).
    assert len(ticks) >= 20
    assert max(b - a for a, b in zip(ticks, ticks[1:], strict=False)) < 1.0


def test_a_delete_in_a_window_that_syncs_asks_everywhere_or_here(
        machines, qtbot, make_window, loopback):
    folder, b, garden_id, old_id = machines
    window, _said = window_with_sync(qtbot, make_window, loopback)
    asked: list[Scoped] = []
    answers = [Decision(True), Decision(True, other=True)]  # everywhere, then here only
    window.confirm = lambda question: (asked.append(question), answers.pop(0))[1]
    old = next(c for c in window.sidebar.model.items if c.id == old_id)
    window.delete_conversation(old)
    qtbot.waitUntil(lambda: "Old plans" not in titles(window), timeout=10_000)
    assert asked[0].question.action == "Delete everywhere"
    assert asked[0].here == "On this machine only"
    assert ("still exists on your other machines and in the sync storage"
            in asked[0].question.detail)
    window.refresh_conversations(select_id=garden_id)
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id == garden_id
                    and len(window.transcript.turns) == 1)
    turn = next(iter(window.transcript.turns))
    window.history.delete_turn(turn.id)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 0, timeout=10_000)
    assert asked[1].here == "On this machine only"
    before = window.sync.last_done_at
    window.sync.sync_now()
    qtbot.waitUntil(lambda: window.sync.last_done_at != before, timeout=20_000)
    assert cli(b, "sync", "now").returncode == 0
    with TurnlogStore.open(b) as other:
        left = {c.title: [t.answer for t in other.turns.all(c.id)]
                for c in other.conversations.list()}
    assert "Old plans" not in left  # deleted everywhere
    assert left["Garden"] == ["In autumn."]  # deleted on the laptop only: still here


def test_a_delete_in_a_window_that_does_not_sync_asks_as_before(qtbot, make_window, store):
    conversation = seed(store, "Plans", [("q", "a")])
    window = make_window()
    asked: list[Confirmation] = []
    window.confirm = lambda question: (asked.append(question), Decision(True))[1]
    window.delete_conversation(conversation)
    qtbot.waitUntil(lambda: "Plans" not in titles(window), timeout=10_000)
    assert isinstance(asked[0], Confirmation) and asked[0].action == "Delete"


def test_turns_a_sync_brings_into_the_open_conversation_carry_their_marks(
        machines, qtbot, make_window, loopback):
    folder, b, garden_id, _ = machines
    window, _said = window_with_sync(qtbot, make_window, loopback)
    window.refresh_conversations(select_id=garden_id)
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id == garden_id)
    qtbot.waitUntil(lambda: window.transcript.index(0).data(Role.MARK) is RowMark.SENT)
    garden_b = b_conversation(b, "Garden")
    with TurnlogStore.open(b) as other:
        other.turns.commit(garden_b, PendingTurn(
            "t-garlic", "And garlic?", "October too.", "m", "stop", Usage(1, 1, 2),
            datetime.now(UTC)))
    assert cli(b, "sync", "now").returncode == 0
    qtbot.waitUntil(lambda: window.transcript.rowCount() == 2, timeout=20_000)
    # Both rows say what the next request carries, as after opening the conversation.
    marks = [window.transcript.index(r).data(Role.MARK) for r in range(2)]
    assert marks == [RowMark.SENT, RowMark.SENT]
    assert b"October too." in window.preview.shown.projection.body
