"""The tabs beside the inspector whose panels are built when first needed (Side
questions, Memory): the tab is there from the start, and choosing it, or asking aside from
the composer, shows the panel with the open conversation's side questions or memory."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabBar

from loopback import Behaviour
from turnlog.core.side import SideQuestion
from uihelpers import numbered, seed

pytest_plugins = ["uiwindow"]

TABS = ["Inspector", "Side questions", "Memory", "Compaction history"]


def inspector_tabs(window) -> QTabBar:
    (bar,) = [b for b in window.findChildren(QTabBar)
              if b.isVisible() and "Side questions" in [b.tabText(i) for i in range(b.count())]]
    return bar


def in_front(widget) -> bool:
    """On show, not a tab behind another (Qt keeps those visible, with nothing of them
    on screen)."""
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


def choose(qtbot, bar: QTabBar, name: str) -> None:
    index = [bar.tabText(i) for i in range(bar.count())].index(name)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())


def test_each_tab_beside_the_inspector_shows_its_panel_when_chosen(qtbot, make_window, store):
    conversation = seed(store, "渡轮 ferries", numbered(2))
    store.side.add(conversation.id, SideQuestion(
        uuid.uuid4().hex, "Aside: which pier? 哪个码头", "Pier 4.", "loopback-model",
        datetime.now(UTC)))
    store.memory.add_pin(conversation.id, "Meet at pier 4")
    window = make_window(size=(1280, 720))
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    bar = inspector_tabs(window)
    assert [bar.tabText(i) for i in range(bar.count())] == TABS
    assert bar.tabText(bar.currentIndex()) == "Inspector"

    choose(qtbot, bar, "Side questions")
    qtbot.waitUntil(lambda: window.side.panel.list.count() == 1, timeout=5000)
    assert window.side_dock.widget() is window.side.panel and in_front(window.side.panel)
    assert "which pier" in window.side.panel.list.item(0).text()
    assert not in_front(window.inspector)

    assert not window.memory.built
    choose(qtbot, bar, "Memory")
    qtbot.waitUntil(lambda: window.memory.built, timeout=5000)
    panel = window.memory_dock.widget().widget()  # in its scroll area
    qtbot.waitUntil(lambda: panel.pins.count() == 1, timeout=5000)
    assert panel is window.memory.panel
    assert in_front(panel) and not in_front(window.side.panel)

    choose(qtbot, bar, "Compaction history")
    qtbot.waitUntil(lambda: in_front(window.compaction_history.panel), timeout=5000)

    choose(qtbot, bar, "Inspector")
    qtbot.waitUntil(lambda: in_front(window.inspector), timeout=5000)
    assert not in_front(window.side.panel)


def test_asking_aside_before_the_side_panel_was_ever_shown_asks_once(qtbot, make_window,
                                                                     store, loopback):
    seed(store, "plans", numbered(2))
    window = make_window(size=(1280, 720))
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    loopback.script(Behaviour.slow("Pier 4.", delay_s=0.02, chunks=2))
    window.composer.set_draft("Which pier?")
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.side_dock.isVisible() and window.side.session.running
    assert window.composer.text() == ""
    qtbot.waitUntil(lambda: not window.side.session.running, timeout=10_000)
    asked = [json.loads(r.body)["messages"][-1]["content"] for r in loopback.requests]
    assert asked.count("Which pier?") == 1
    assert window.side.panel.list.count() == 1
    assert "Pier 4." in window.side.panel.answer.toPlainText()


def test_ctrl_shift_f_opens_the_search_panel_never_shown_before(qtbot, make_window, store):
    seed(store, "plans", numbered(2))
    window = make_window(size=(1280, 720))
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    window.activateWindow()
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_F,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    panel = window.finder.panel
    qtbot.waitUntil(lambda: in_front(panel) and panel.field.hasFocus(), timeout=5000)
    assert window.finder.dock.widget() is panel
    qtbot.keyClicks(panel.field, "question 2")
    qtbot.waitUntil(lambda: panel.results.model().rowCount() >= 1, timeout=5000)


def test_the_memory_is_kept_in_step_before_its_panel_is_ever_shown(qtbot, make_window, store,
                                                                   loopback):
    """The pins mark their turns and reach the preview from the start; a fact pinned from
    the inspector's warning before the tab was ever chosen is in the panel when it is."""
    conversation = seed(store, "渡轮 ferries", numbered(2))
    first = store.turns(conversation.id)[0]
    store.memory.add_pin(conversation.id, "Meet at pier 4", sources=[first.id])
    window = make_window(size=(1280, 720))
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.transcript.pins_of(first.id) == ("Meet at pier 4",),
                    timeout=5000)
    qtbot.waitUntil(lambda: [p.text for p in window.preview.memory.pins] == ["Meet at pier 4"],
                    timeout=5000)
    window.inspector.pin_requested.emit("Tickets at gate 7 七号门")
    qtbot.waitUntil(lambda: len(store.memory.pins(conversation.id)) == 2, timeout=5000)
    assert not window.memory.built and not in_front(window.memory_dock)

    choose(qtbot, inspector_tabs(window), "Memory")
    qtbot.waitUntil(lambda: window.memory.built, timeout=5000)
    panel = window.memory.panel
    qtbot.waitUntil(lambda: panel.pins.count() == 2, timeout=5000)
    assert any("Tickets at gate 7 七号门" in panel.pins.item(i).text() for i in range(2))
    assert panel.selection is not None  # what the preview chose, shown with them
