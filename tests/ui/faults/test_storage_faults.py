"""The window under damage and hostile text: storage faults inline, drafts that survive a
quit, titles whose control characters show instead of acting."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QInputDialog

from held_check import HeldCheck
from loopback import Behaviour
from startup_modes import NOBODY, _restore_process, modes_apply, shared_home  # noqa: F401
from turnlog.store import TurnlogStore
from turnlog.ui.conversation.drafts import SAVE_DELAY_MS
from turnlog.ui.dialogs.privacy import Decision
from turnlog.ui.infra.export_file import ExportTarget
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.shell.window import MainWindow
from uihelpers import loopback_connector, numbered, seed

pytest_plugins = ["uiwindow"]

HOSTILE = "invoice\u202egpj.exe\u2066x\u2069 \x1b]0;pwned\x07"


def test_bidi_and_control_characters_in_titles_show_visibly(qtbot, store, make_window):
    seed(store, HOSTILE, numbered(1))
    window: MainWindow = make_window()
    model = window.sidebar.model
    listed = model.data(model.index(0))
    assert listed == "invoice\\u202egpj.exe\\u2066x\\u2069 \\x1b]0;pwned\\x07"
    qtbot.waitUntil(lambda: window.conversation is not None)
    assert window.title.text() == listed
    for text in (listed, window.title.text(), model.data(model.index(0), 3)):
        assert not set(text) & set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\x1b\x07")


# --- storage faults in the running window ----------------------------------------------

def fill_disk(window: MainWindow) -> None:
    """Let the database grow by no page more (SQLite's own limit, on each worker's
    connection): the next write that needs a page fails as a full disk does."""
    done = threading.Semaphore(0)

    def limit() -> None:
        db = window.store.db
        pages = db.execute_sql("PRAGMA page_count").fetchone()[0]
        db.execute_sql(f"PRAGMA max_page_count = {pages}")
        done.release()

    window.runner.call_on_each_worker(limit)
    assert done.acquire(timeout=5) and done.acquire(timeout=5)


def test_a_full_disk_during_commit_is_named_inline_and_the_question_given_back(
        qtbot, store, make_window, loopback):
    seed(store, "chat", numbered(2))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    fill_disk(window)
    loopback.script(Behaviour.huge(300_000))
    window.composer.set_draft("A question kept safe")
    window.refresh_preview()
    window.send()
    assert window.running
    # A 300 kB stream on a loaded machine.
    qtbot.waitUntil(lambda: not window.running, timeout=30_000)
    assert window.banner.isVisible()
    assert window.banner.title.text() == "The answer could not be saved"
    assert "is full" in window.banner.message.text()
    assert "Free some space" in window.banner.message.text()
    assert window.composer.text() == "A question kept safe"
    assert QApplication.activeModalWidget() is None
    assert len(store.turns(window.conversation.id)) == 2


def test_a_storage_fault_of_a_change_shows_in_the_banner_not_a_pop_up(qtbot, store,
                                                                      make_window):
    seed(store, "chat", numbered(1))
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None, timeout=5000)
    fill_disk(window)
    popups: list[object] = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QInputDialog)
        dialog.setTextValue("long " * 60_000)
        dialog.accept()
        QTimer.singleShot(300, lambda: popups.append(QApplication.activeModalWidget()))

    QTimer.singleShot(0, answer)
    window.rename_conversation(window.conversation)
    qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=5000)
    assert window.banner.title.text() == "The disk holding Turnlog's data is full"
    assert "Free some space and try again" in window.banner.message.text()
    assert window.banner.action("Open the folder") is not None
    qtbot.waitUntil(lambda: bool(popups), timeout=2000)
    assert popups == [None]
    assert [c.title for c in store.conversations()] == ["chat"]


def damage_rows(home: Path, marker: str) -> None:
    """Overwrite the page of the turns table that holds `marker`, as a failing disk would."""
    path = home / "turnlog.sqlite3"
    con = sqlite3.connect(path)
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    data = path.read_bytes()
    at = data.index(marker.encode())
    with open(path, "r+b") as f:
        f.seek(at - at % page_size)
        f.write(b"\xff" * page_size)


def test_a_damaged_database_turns_send_off_and_offers_what_can_be_read(
        qtbot, store, turnlog_home, tmp_path, make_window, loopback):
    pairs = [(f"question {i}", f"answer-{i:03d} " + "x" * 300) for i in range(120)]
    kept_id = seed(store, "kept", pairs).id
    other = seed(store, "other", [("other question", "other answer")])
    store.privacy.scrub()  # all of it in the main file
    store.db.close()  # this thread reads the file afresh
    damage_rows(turnlog_home, "answer-060 ")
    window = make_window()
    qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=5000)
    assert window.banner.title.text() == "Turnlog's database is damaged"
    assert "othing will be written into it" in window.banner.message.text()
    assert "Restore it from a backup" in window.banner.message.text()
    assert not window.composer.send_button.isEnabled()
    assert "damaged" in window.composer.blocked_reason
    window.composer.set_draft("Will this be written?")
    window.refresh_preview()
    assert not window.composer.send_button.isEnabled()  # the preview cannot turn it on
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert not window.running and loopback.requests == []

    target = tmp_path / "readable.md"
    window.choose_export = lambda title: ExportTarget(target, "markdown")
    window.banner.action("Export what can be read…").click()
    qtbot.waitUntil(lambda: bool(window.faults.exported), timeout=10_000)
    words = window.faults.exported
    skipped = int(words.split("; ")[1].split(" row")[0])
    assert 0 < skipped < 120
    assert words.startswith(f"Exported {121 - skipped} turns of 2 conversations")
    assert words in window.banner.message.text()
    text = target.read_text()
    assert "answer-000" in text and "answer-119" in text and "answer-060" not in text
    assert "other answer" in text

    # Opening another conversation keeps the damage named, with what can be done.
    window.sidebar.select(other.id if window.conversation.id != other.id else kept_id)
    qtbot.waitUntil(lambda: window.banner.action("Open the folder") is not None)
    assert window.banner.title.text() == "Turnlog's database is damaged"
    assert window.banner.action("Export what can be read…") is not None
    assert not window.composer.send_button.isEnabled()


# --- no lost draft ---------------------------------------------------------------------

def draft_file(home: Path, conversation_id: int) -> Path:
    return home / "drafts" / f"{conversation_id}.txt"


def test_a_draft_survives_a_crash_and_comes_back_with_its_conversation(
        qtbot, store, turnlog_home, make_window):
    first = seed(store, "first", numbered(1))
    second = seed(store, "second", numbered(1))
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None, timeout=5000)
    assert window.conversation.id == second.id
    typed = "Half a question, 半个问题 🌱"
    qtbot.keyClicks(window.composer.edit, "Half a question, ")
    window.composer.edit.insertPlainText("半个问题 🌱")  # typed with an input method
    path = draft_file(turnlog_home, second.id)
    qtbot.waitUntil(path.exists, timeout=3000)  # saved as it is typed, no quit needed
    assert path.read_text(encoding="utf-8") == typed
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    store.privacy.scrub()
    assert typed.encode() not in (turnlog_home / "turnlog.sqlite3").read_bytes()

    # Another conversation has its own (empty) draft; coming back restores this one.
    window.sidebar.select(first.id)
    qtbot.waitUntil(lambda: window.conversation.id == first.id, timeout=5000)
    assert window.composer.text() == ""
    window.sidebar.select(second.id)
    qtbot.waitUntil(lambda: window.composer.text() == typed, timeout=5000)

    # A crash: no shutdown, no save on quit. A new window finds the draft.
    again = make_window()
    qtbot.waitUntil(lambda: again.conversation is not None
                    and again.conversation.id == second.id, timeout=5000)
    qtbot.waitUntil(lambda: again.composer.text() == typed, timeout=5000)


def test_a_sent_draft_is_removed_and_a_deleted_conversation_leaves_no_draft(
        qtbot, store, turnlog_home, make_window, loopback):
    kept = seed(store, "kept", numbered(1))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    qtbot.keyClicks(window.composer.edit, "Sent soon")
    qtbot.waitUntil(draft_file(turnlog_home, kept.id).exists, timeout=3000)
    window.refresh_preview()
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    assert len(store.turns(kept.id)) == 2
    qtbot.waitUntil(lambda: not draft_file(turnlog_home, kept.id).exists(), timeout=3000)

    secret = "LILAC-42-UNSENT-DRAFT-Q9"
    qtbot.keyClicks(window.composer.edit, secret)
    qtbot.waitUntil(draft_file(turnlog_home, kept.id).exists, timeout=3000)
    window.confirm = lambda confirmation: Decision(True)
    window.delete_conversation(window.conversation)
    qtbot.waitUntil(lambda: store.conversations() == [], timeout=10_000)
    qtbot.wait(SAVE_DELAY_MS + 300)  # a save that was still due must not bring it back
    window.shutdown()
    hits = [p for p in turnlog_home.rglob("*") if p.is_file() and secret.encode()
            in p.read_bytes()]
    assert hits == []
    assert not draft_file(turnlog_home, kept.id).exists()


def test_a_read_only_database_is_named_in_the_banner_before_a_question_is_sent(
        qtbot, shared_home, loopback):  # noqa: F811 - the fixture
    home = shared_home
    with TurnlogStore.open(home) as setup:
        seed(setup, "chat", numbered(1))
    for path in [home, *home.rglob("*")]:
        os.chown(path, NOBODY, NOBODY)
    os.chmod(home / "turnlog.sqlite3", 0o444)
    with modes_apply():
        store = TurnlogStore.open(home)
        window = MainWindow(store, TaskRunner(), loopback_connector(loopback.base_url))
        qtbot.addWidget(window)
        window.show()
        try:
            qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=5000)
            assert window.banner.title.text() == "Turnlog cannot write to its data"
            assert "cannot be written" in window.banner.message.text()
            assert "Check the permissions" in window.banner.message.text()
            assert window.banner.action("Open the folder") is not None
        finally:
            window.shutdown()
            store.close()


def test_at_a_start_the_whole_file_check_waits_until_the_first_screen_is_up(
        qtbot, turnlog_home, loopback):
    """`PRAGMA quick_check` reads the whole file: seconds for a large log read from disk
    the first time. A start runs it once its first screen is up, so the reads that screen
    makes (the turns, the memory, the spend) do not wait behind it; it still runs before
    anything is written (the first write checks first)."""
    with TurnlogStore.open(turnlog_home) as setup:
        seed(setup, "chat", numbered(2))
    store = TurnlogStore.open(turnlog_home)  # as a start opens it: not checked yet
    window = MainWindow(store, TaskRunner(), loopback_connector(loopback.base_url),
                        first_screen=True)
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
        qtbot.wait(300)  # the first screen's reads are done by now
        assert not store.database.checked
        window.warm_up()  # the screen is up
        qtbot.waitUntil(lambda: store.database.checked, timeout=5000)
    finally:
        window.shutdown()
        store.close()


def test_a_window_without_a_first_screen_to_wait_for_checks_at_once(qtbot, turnlog_home,
                                                                     loopback):
    with TurnlogStore.open(turnlog_home) as setup:
        seed(setup, "chat", numbered(1))
    store = TurnlogStore.open(turnlog_home)
    window = MainWindow(store, TaskRunner(), loopback_connector(loopback.base_url))
    qtbot.addWidget(window)
    try:
        qtbot.waitUntil(lambda: store.database.checked, timeout=5000)
    finally:
        window.shutdown()
        store.close()


def start_during_a_held_check(qtbot, home: Path, loopback) -> tuple[MainWindow, HeldCheck]:
    """A start as `turnlog` makes it, on `home`, its check held once the first screen is up."""
    store = TurnlogStore.open(home)
    held = HeldCheck(store)
    window = MainWindow(store, TaskRunner(), loopback_connector(loopback.base_url),
                        first_screen=True)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.conversation is not None and bool(window.transcript.turns),
                    timeout=5000)
    window.warm_up()  # the first screen is up: the check starts
    assert held.reading.wait(5)
    return window, held


def rename(window: MainWindow, title: str) -> None:
    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QInputDialog)
        dialog.setTextValue(title)
        dialog.accept()

    QTimer.singleShot(0, answer)
    window.rename_conversation(window.conversation)


def long_and_short(store: TurnlogStore) -> tuple[int, int]:
    pairs = [(f"question {i}", f"answer-{i:03d} " + "x" * 300) for i in range(120)]
    return seed(store, "long", pairs).id, seed(store, "short", numbered(2)).id


def test_while_the_whole_file_is_checked_another_conversation_opens_and_a_rename_waits(
        qtbot, turnlog_home, loopback):
    """The check of the whole file at a start takes seconds on a large log read from disk.
    Meanwhile a conversation the person opens shows its turns at once (its reads do not
    wait behind the check); a rename waits for the check's verdict, then is saved."""
    with TurnlogStore.open(turnlog_home) as setup:
        long_id, _short_id = long_and_short(setup)
    window, held = start_during_a_held_check(qtbot, turnlog_home, loopback)
    store = window.store
    try:
        assert window.title.text() == "short"
        window.sidebar.select(long_id)
        qtbot.waitUntil(lambda: window.title.text() == "long"
                        and len(window.transcript.turns) >= 20, timeout=5000)
        assert window.transcript.turns[-1].answer.startswith("answer-119 ")
        assert not held.released.is_set() and not store.database.file_checked

        rename(window, "Renamed while checked")
        qtbot.wait(300)
        assert window.title.text() == "long"  # the write waits for the check's verdict
        assert "Renamed while checked" not in [c.title for c in store.conversations()]
        held.release()
        qtbot.waitUntil(lambda: window.title.text() == "Renamed while checked", timeout=5000)
        assert "Renamed while checked" in [c.title for c in store.conversations()]
        qtbot.waitUntil(lambda: store.database.checked, timeout=5000)
        assert not window.banner.isVisible()
    finally:
        held.release()
        window.shutdown()
        store.close()


def test_a_rename_made_while_the_check_runs_is_refused_when_it_finds_damage(
        qtbot, turnlog_home, loopback):
    with TurnlogStore.open(turnlog_home) as setup:
        long_and_short(setup)
        setup.privacy.scrub()  # all of it in the main file
    damage_rows(turnlog_home, "answer-060 ")
    window, held = start_during_a_held_check(qtbot, turnlog_home, loopback)
    store = window.store
    try:
        rename(window, "Written into a damaged file?")
        qtbot.wait(300)
        assert not window.banner.isVisible() and window.title.text() == "short"
        held.release()
        qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=5000)
        assert window.banner.title.text() == "Turnlog's database is damaged"
        assert not window.composer.send_button.isEnabled()
        qtbot.wait(300)  # the rename's answer is in by now
        assert window.title.text() == "short"
        assert [c.title for c in store.conversations()] == ["short", "long"]
        assert store.database.damage is not None and not store.database.checked
    finally:
        held.release()
        window.shutdown()
        store.close()


def test_closing_the_window_while_the_whole_file_is_checked_stops_the_check(
        qtbot, turnlog_home, loopback):
    """Quitting during the check ends it at its next step: no wait for the whole file, no
    verdict (the next start checks again), nothing shown."""
    with TurnlogStore.open(turnlog_home) as setup:
        long_and_short(setup)
    window, held = start_during_a_held_check(qtbot, turnlog_home, loopback)
    store = window.store
    held.pace = 0.5  # the rest of the file: seconds more
    ending = threading.Timer(0.2, held.release)  # the step in progress returns
    ending.start()
    try:
        started = time.monotonic()
        window.shutdown()  # cancels the check: it stops at its next step
        store.close()
        assert time.monotonic() - started < 3
        assert not store.database.file_checked and store.database.damage is None
        assert not [t for t in threading.enumerate() if t.name.startswith("turnlog-check")]
        assert not window.banner.isVisible()
    finally:
        ending.cancel()
        held.release()
