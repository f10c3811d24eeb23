"""The sidebar over thousands of conversations (an import's): the text search's answer,
made on the storage worker, reaches the list as rows made into conversations only as
they are shown (making them all there held the interpreter while the list painted), and
a conversation far down the list is still chosen and scrolled to while the list is laid
out a batch at a time."""

from __future__ import annotations

from turnlog.store import TurnlogStore
from turnlog.store.rows import ConversationRows
from turnlog.ui.panels.sidebar import Sidebar

pytest_plugins = ["uiwindow"]

COUNT = 3000


def _fill(store: TurnlogStore) -> list[int]:
    """`COUNT` conversations of one turn each, the last one the newest; every other one
    asks about packing."""
    db = store.db
    ids = []
    with db.atomic():
        for n in range(COUNT):
            stamp = f"2026-01-01T{n // 3600:02d}:{n // 60 % 60:02d}:{n % 60:02d}+00:00"
            cid = db.execute_sql(
                "INSERT INTO conversations (title, system_prompt, model, settings, "
                "created_at, updated_at, next_ordinal, generation, starred) VALUES "
                "(?, '', '', '{}', ?, ?, 2, 0, 0)", (f"trip {n} notes", stamp, stamp)).lastrowid
            db.execute_sql(
                "INSERT INTO turns (id, conversation_id, ordinal, question, answer, model, "
                "finish_reason, created_at) VALUES (?, ?, 1, ?, 'a', 'm', 'stop', ?)",
                (f"many-{n}", cid, f"question {n} about {'packing' if n % 2 else 'maps'}",
                 stamp))
            ids.append(cid)
    return ids


def _sidebar(qtbot) -> Sidebar:
    sidebar = Sidebar()
    qtbot.addWidget(sidebar)
    sidebar.resize(320, 700)
    sidebar.show()
    return sidebar


def test_the_text_search_answer_is_made_into_conversations_only_as_shown(qtbot, store,
                                                                        make_window):
    _fill(store)
    window = make_window()
    window.sidebar.search.setText("packing")  # in the turns only: the worker's answer
    qtbot.waitUntil(lambda: not window.sidebar_filter.pending
                    and window.sidebar.model.rowCount() == COUNT // 2, timeout=10_000)
    assert window.sidebar.search.text() == "packing"
    window.sidebar.list.viewport().repaint()
    found = window.sidebar.model._items
    assert isinstance(found, ConversationRows)
    shown = window.sidebar.model.conversation(0)
    assert shown is not None and shown.title == f"trip {COUNT - 1} notes"
    made = sum(1 for row in range(COUNT // 2) if row in found._made)
    assert made < 200, f"{made} of {COUNT // 2} made before they were shown"


def test_a_conversation_far_down_is_chosen_and_shown(qtbot, turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        ids = _fill(store)
        sidebar = _sidebar(qtbot)
        sidebar.set_conversations(store.conversations.listing(), ids[5])
        assert sidebar.current() is not None and sidebar.current().id == ids[5]
        sidebar.list.scrollTo(sidebar.list.currentIndex())
        qtbot.waitUntil(lambda: sidebar.list.viewport().rect().intersects(
            sidebar.list.visualRect(sidebar.list.currentIndex())), timeout=5000)
        last = sidebar.model.index(COUNT - 1)
        sidebar.list.scrollToBottom()
        qtbot.waitUntil(lambda: sidebar.list.viewport().rect().intersects(
            sidebar.list.visualRect(last)), timeout=5000)
        assert sidebar.model.data(last) == "trip 0 notes"
