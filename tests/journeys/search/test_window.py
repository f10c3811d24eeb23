"""Search in the window: the sidebar filters by text too; Ctrl+Shift+F lists the matching
turns, and choosing one opens its conversation with the turn shown and selected."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from places import DATA
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.panels.search import HitRole, snippet_html
from turnlog.ui.transcript.model import Role
from uihelpers import numbered, seed

pytest_plugins = ["uiwindow"]


def titles(window) -> list[str]:
    model = window.sidebar.model
    return [model.data(model.index(r)) for r in range(model.rowCount())]


def test_the_sidebar_search_finds_text_as_well_as_titles(qtbot, store, make_window):
    seed(store, "Weekend", [("去哪里？", "去香山看红叶。")])
    seed(store, "香山 photos", [("q", "a")])
    seed(store, "Work", [("接口的预算", "预算表在共享盘里。")])
    window = make_window()
    window.sidebar.search.setText("香山")  # typed (QTest cannot type Chinese)
    qtbot.waitUntil(lambda: titles(window) == ["香山 photos", "Weekend"])
    window.sidebar.search.clear()
    window.sidebar.search.setText("预算")
    qtbot.waitUntil(lambda: titles(window) == ["Work"])
    window.sidebar.search.clear()
    qtbot.keyClicks(window.sidebar.search, "nothing like it")
    qtbot.waitUntil(lambda: titles(window) == [] and not window.sidebar_filter.pending)
    assert window.sidebar.empty.text() == "No conversation matches the search."


def open_search(qtbot, window, query: str):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    assert window.finder.action.shortcut().toString() == "Ctrl+Shift+F"
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    panel = window.finder.panel
    qtbot.waitUntil(lambda: window.finder.dock.isVisible() and panel.field.hasFocus())
    qtbot.keyClicks(panel.field, query)
    qtbot.waitUntil(lambda: panel.searched_query == query, timeout=5000)
    return panel


def test_ctrl_shift_f_lists_turns_and_a_choice_opens_and_selects_the_turn(
        qtbot, store, make_window):
    long = seed(store, "Long one", [*numbered(20), ("Where is the HYACINTH bed?", "By the fence."),
                                    *numbered(180)])
    other = seed(store, "Short", [("hello", "hi")])
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id == other.id)
    panel = open_search(qtbot, window, "hyacinth")
    model = panel.model
    assert model.rowCount() == 1
    row = [model.index(0, c).data() for c in range(4)]
    assert row[:2] == ["Long one", "21"] and row[2].startswith("20")
    assert "HYACINTH" in row[3]
    assert "<b>HYACINTH</b>" in snippet_html(model.index(0, 3).data(HitRole))
    assert panel.status.text() == "1 match."
    qtbot.keyClick(panel.field, Qt.Key.Key_Down)
    assert panel.results.hasFocus()
    qtbot.keyClick(panel.results, Qt.Key.Key_Return)
    view = window.view

    def shown() -> bool:
        current = view.currentIndex()
        return (window.conversation is not None and window.conversation.id == long.id
                and current.isValid() and current.data(Role.ORDINAL) == 21
                and view.viewport().rect().intersects(view.visualRect(current)))

    qtbot.waitUntil(shown, timeout=5000)
    # Older turns joined the rows: the one before it is the row above it.
    assert window.transcript.row_of_ordinal(20) == view.currentIndex().row() - 1
    assert view.selectionModel().isSelected(view.currentIndex())
    assert window.sidebar.current().id == long.id


def test_a_hit_in_the_open_conversation_scrolls_to_it(qtbot, store, make_window):
    seed(store, "Only", [*numbered(5), ("Marigold seeds?", "In March."), *numbered(60)])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 66)
    panel = open_search(qtbot, window, "marigold")
    panel.results.activated.emit(panel.model.index(0, 3))
    current = window.view.currentIndex()
    assert current.data(Role.ORDINAL) == 6 and current.data(Role.QUESTION) == "Marigold seeds?"


def test_esc_clears_the_search(qtbot, store, make_window):
    seed(store, "Garden", [("tulips", "in spring"), ("more tulips", "yes")])
    window = make_window()
    panel = open_search(qtbot, window, "tulips")
    assert panel.model.rowCount() == 2
    qtbot.keyClick(panel.field, Qt.Key.Key_Escape)
    assert panel.field.text() == "" and panel.model.rowCount() == 0
    assert panel.status.text() == ""


def test_odd_input_is_no_error_and_nothing_found_is_said(qtbot, store, make_window):
    seed(store, "Garden", [("C++ and NOT", "a AND b")])
    window = make_window()
    panel = open_search(qtbot, window, '"unbalanced *')
    assert panel.model.rowCount() == 0 and panel.status.text() == "Nothing matches."
    panel.field.clear()
    qtbot.keyClicks(panel.field, "C++")
    qtbot.waitUntil(lambda: panel.searched_query == "C++")
    assert panel.model.rowCount() == 1
    assert QApplication.activeModalWidget() is None


def test_an_upgrade_that_indexes_shows_its_progress(qtbot, tmp_path):
    import shutil

    from turnlog.store import TurnlogStore
    from turnlog.ui.faults.startup import UpgradeProgress

    home = tmp_path / "old"
    home.mkdir()
    shutil.copyfile(DATA / "turnlog-v2.sqlite3",
                    home / "turnlog.sqlite3")
    seen: list[tuple[int, int, bool]] = []
    progress = UpgradeProgress(after_s=0)

    def watched(done: int, total: int) -> None:
        progress(done, total)
        dialog = progress.dialog
        seen.append((dialog.value(), dialog.maximum(), dialog.isVisible()))

    with TurnlogStore.open(home, progress=watched) as store:
        assert [h.turn_id for h in store.search("红叶")] == ["fx-zh-1"]
    assert seen[0] == (0, 5, True) and seen[-1] == (5, 5, False)
    assert "5 of 5 turns" in progress.dialog.labelText()


def test_a_quick_upgrade_shows_nothing(qtbot, tmp_path):
    from turnlog.ui.faults.startup import UpgradeProgress

    progress = UpgradeProgress(after_s=60)
    progress(0, 5)
    progress(5, 5)
    assert progress.dialog is None


def test_a_hit_elsewhere_waits_while_a_request_runs(qtbot, store, make_window, loopback):
    from loopback import Behaviour

    elsewhere = seed(store, "Elsewhere", [("Where are the PEONIES?", "By the gate.")])
    here = seed(store, "Here", [("hello", "hi")])
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id == here.id)
    loopback.script(Behaviour.hang())
    window.composer.edit.setPlainText("Still there?")
    window.send()
    qtbot.waitUntil(lambda: window.running)
    panel = open_search(qtbot, window, "peonies")
    panel.results.activated.emit(panel.model.index(0, 0))
    assert window.conversation.id == here.id  # the running request's conversation stays
    assert "request is running" in panel.status.text()
    window.stop()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    panel.results.activated.emit(panel.model.index(0, 0))
    qtbot.waitUntil(lambda: window.conversation.id == elsewhere.id
                    and window.view.currentIndex().data(Role.ORDINAL) == 1, timeout=5000)


def test_a_superseded_version_opens_in_its_row(qtbot, store, make_window):
    from datetime import UTC, datetime

    from turnlog.core.model import Usage
    from turnlog.core.send import PendingTurn

    conversation = seed(store, "Versions", numbered(3))
    store.turns.commit(conversation.id, PendingTurn("old", "Which CROCUS?", "Purple crocus.",
                                                    "m", "stop", Usage(), datetime.now(UTC)))
    store.turns.commit(conversation.id, PendingTurn("new", "Which CROCUS?", "Yellow.", "m",
                                                    "stop", Usage(), datetime.now(UTC),
                                                    replaces="old"))
    window = make_window()
    qtbot.waitUntil(lambda: window.transcript.versions.group("new") == ("old", "new"),
                    timeout=5000)
    panel = open_search(qtbot, window, "purple")
    assert panel.model.index(0, 1).data() == "4 (superseded)"
    panel.results.activated.emit(panel.model.index(0, 0))
    current = window.view.currentIndex()
    assert window.transcript.turn_at(current.row()).id == "new"  # the row of the one in use
    assert window.transcript.shown_turn(current.row()).id == "old"  # showing the one found
    assert current.data(Role.ORDINAL) == 4


def test_the_sidebar_lists_titles_at_once_and_text_matches_from_the_worker(
        qtbot, store, make_window):
    """Typing in the sidebar's search never waits for the full-text search: the titles that
    match show at once, the conversations whose turns match come from the storage worker
    (held busy here, so they cannot come before it is free), and an answer for a text that
    was changed since is dropped, never shown."""
    seed(store, "Garden", [("Which TULIP is earliest?", "The red ones.")])
    seed(store, "Kitchen", [("Is ROSE water sweet?", "A little.")])
    seed(store, "Tulip festival", [("q", "a")])
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None)
    opened = window.conversation.id
    gate = threading.Event()
    window.runner.run(TaskRunner.STORAGE, "busy", lambda _context: gate.wait(10),
                      on_success=lambda _r: None, on_failure=lambda _e: None)
    shown: list[list[str]] = []
    window.sidebar.model.modelReset.connect(lambda: shown.append(titles(window)))
    qtbot.keyClicks(window.sidebar.search, "tulip")
    qtbot.waitUntil(lambda: bool(shown) and shown[-1] == ["Tulip festival"])
    window.sidebar.search.selectAll()
    qtbot.keyClicks(window.sidebar.search, "rose")
    qtbot.waitUntil(lambda: shown[-1] == [] and window.sidebar.empty.isVisible())
    assert window.sidebar.empty.text() == "Searching the text…"
    assert window.sidebar_filter.pending
    gate.set()
    qtbot.waitUntil(lambda: titles(window) == ["Kitchen"])
    qtbot.wait(100)  # anything else on its way has landed
    assert not any("Garden" in listed for listed in shown)  # "tulip"'s answer came late
    assert titles(window) == ["Kitchen"] and window.conversation.id == opened
    window.sidebar.search.clear()
    qtbot.waitUntil(lambda: titles(window) == ["Tulip festival", "Kitchen", "Garden"])
