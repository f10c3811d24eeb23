"""Search shows what it found: every match counted and listed a page at a time, each row
saying where (title, turn, date) with a snippet that holds the match, and the turn a hit
opens with its matches highlighted and F3 / Shift+F3 going from one to the next. Real
widgets, a real SQLite file; Chinese and English."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCursor
from PySide6.QtWidgets import QStyleOptionViewItem

from turnlog.core.search import make_snippet, parse_query, safe_cut
from turnlog.ui.panels.search import LIMIT
from turnlog.ui.panels.search_hits import HitRole, SearchHitsModel, first_match_at
from turnlog.ui.transcript.found import CURRENT, MATCH
from turnlog.ui.transcript.model import Role
from turnlog.ui.transcript.row_header import turn_title
from uihelpers import numbered, seed

pytest_plugins = ["uiwindow"]

LONG_TITLE = "季度计划与采购清单（第二版，包含所有部门的意见和附件说明）"


def search(qtbot, window, query: str):
    """Ctrl+Shift+F, then the query put in the field (QTest cannot type Chinese), and its
    first page shown and counted."""
    window.finder.action.trigger()
    panel = window.finder.panel
    qtbot.waitUntil(lambda: window.finder.dock.isVisible())
    panel.field.setText(query)
    panel.run()
    qtbot.waitUntil(lambda: panel.searched_query == query, timeout=5000)
    qtbot.waitUntil(lambda: "counting" not in panel.status.text(), timeout=5000)
    return panel


def budget_turns(count: int) -> list[tuple[str, str]]:
    """`count` turns about 预算, every fifth with the word far into a long answer."""
    turns = []
    for n in range(1, count + 1):
        if n % 5 == 0:
            answer = "这是一段很长的说明文字。" * 120 + f"第{n}项的预算在最后。"
        else:
            answer = f"第{n}项：预算是{n}万元。"
        turns.append((f"问题 {n}", answer))
    return turns


def test_180_matches_show_100_then_all_after_show_more(qtbot, store, make_window):
    seed(store, LONG_TITLE, budget_turns(180))
    window = make_window()
    panel = search(qtbot, window, "预算")
    assert panel.model.rowCount() == LIMIT
    assert panel.status.text() == "180 matches, 100 shown."
    assert panel.more.isVisible()
    qtbot.mouseClick(panel.more, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.model.rowCount() == 180, timeout=5000)
    assert panel.status.text() == "180 matches."
    assert not panel.more.isVisible()
    ordinals = [hit.ordinal for hit in panel.model.hits]
    assert sorted(ordinals) == list(range(1, 181))  # each once, none skipped
    for row in range(180):
        hit = panel.model.index(row, 0).data(HitRole)
        assert panel.model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole) == LONG_TITLE
        assert SearchHitsModel.place(hit).startswith(f"turn {hit.ordinal} · 20")
        assert "预算" in hit.snippet.text


def option_for(panel, row: int) -> QStyleOptionViewItem:
    option = QStyleOptionViewItem()
    panel.results.initViewItemOption(option)
    option.rect = panel.results.visualRect(panel.model.index(row, 0))
    return option


def test_each_row_shows_where_and_a_snippet_holding_the_match(qtbot, store, make_window):
    seed(store, LONG_TITLE, budget_turns(20))
    seed(store, "Planning", [("How big is the budget?", "Words. " * 300
                              + "The final BUDGET is 4,000 euros. " + "More words. " * 100)])
    for size in ((1280, 720), (1024, 600)):
        window = make_window(size=size)
        panel = search(qtbot, window, "预算")
        qtbot.waitUntil(lambda window=window: window.finder.dock.width() >= 300)
        delegate = panel.results.itemDelegate()
        line = panel.results.fontMetrics().lineSpacing()
        for row in range(panel.model.rowCount()):
            hit = panel.model.index(row, 0).data(HitRole)
            option = option_for(panel, row)
            title, _room, place = delegate.first_line(
                option, hit, option.rect.width() - 2 * delegate.PAD)
            assert place == SearchHitsModel.place(hit)  # "turn N · date", never cut
            assert "…" in title and title.startswith("季度") and title.endswith("说明）")
            doc = delegate._document(hit, option)
            top, height = delegate.shown_lines(hit, doc)
            assert height <= delegate.LINES * line * 1.5
            layout = doc.firstBlock().layout()
            at = layout.lineForTextPosition(first_match_at(hit))
            assert top <= at.y() and at.y() + at.height() <= top + height + 0.5
            assert "预算" in hit.snippet.text
        panel.field.setText("budget")
        panel.run()
        qtbot.waitUntil(lambda panel=panel: panel.searched_query == "budget", timeout=5000)
        hit = panel.model.index(0, 0).data(HitRole)
        assert "budget" in hit.snippet.text and "BUDGET" not in hit.snippet.text  # question
        window.close()


def test_snippets_are_centred_and_never_cut_a_character_in_two():
    terms = parse_query("预算")
    text = "前" * 500 + "预算" + "后" * 500
    snippet = make_snippet([text], terms)
    start = snippet.text.index("预算")
    assert abs(start - (len(snippet.text) - start - 2)) <= 2  # centred
    flags = "🇨🇳" * 200 + "预算" + "👍🏽" * 200 + "e\u0301" * 200
    snippet = make_snippet([flags], terms)
    body = snippet.text
    assert body.startswith("🇨🇳") and body.endswith(("👍🏽", "e\u0301"))
    assert len(body.split("预算")[0]) % 2 == 0  # whole flags only
    assert safe_cut("e\u0301x", 1, forward=True) == 2
    assert safe_cut("a👍🏽b", 2, forward=False) == 1


def open_hit(qtbot, window, panel, row: int = 0):
    panel.results.activated.emit(panel.model.index(row, 0))
    qtbot.waitUntil(lambda: window.finder.matches.found.key is not None, timeout=5000)
    return window.view.currentIndex()


def painted(window) -> dict[str, int]:
    image = window.view.viewport().grab().toImage()
    counts = {"match": 0, "current": 0}
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            color = QColor(image.pixel(x, y))
            if color == MATCH:
                counts["match"] += 1
            elif color == CURRENT:
                counts["current"] += 1
    return counts


@pytest.mark.parametrize(("query", "question", "answer", "count"), [
    ("预算", "🎉 今年的预算？", "\n\n".join(f"第{n}段：预算调整。" for n in range(1, 7)), 7),
    ("budget", "What is the Budget?", "\n\n".join(f"Part {n}: budget moved, not budgets."
                                                for n in range(1, 4)), 7),
])
def test_a_hit_highlights_every_match_and_f3_walks_them_round(
        qtbot, store, make_window, query, question, answer, count):
    seed(store, "Plans", [*numbered(30), (question, answer), *numbered(30)])
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None)
    panel = search(qtbot, window, query)
    index = open_hit(qtbot, window, panel)
    assert index.data(Role.ORDINAL) == 31
    matches = window.finder.matches
    docs = [doc for doc, _at in window.view.delegate.text_layout(index)]
    found = matches.found.matches(docs)
    assert len(found) == count
    for match in found:  # each span is the word, even after an emoji (two UTF-16 units)
        cursor = QTextCursor(docs[match.doc])
        cursor.setPosition(match.start)
        cursor.setPosition(match.end, QTextCursor.MoveMode.KeepAnchor)
        assert cursor.selectedText().lower() == query.lower()
    assert window.statusBar().currentMessage() == f"Match 1 of {count} in turn 31"
    qtbot.waitUntil(lambda: painted(window)["current"] > 0 and painted(window)["match"] > 0)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_F3)
    assert window.statusBar().currentMessage() == f"Match 2 of {count} in turn 31"
    qtbot.keyClick(window.view, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(window.view, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert window.statusBar().currentMessage() == f"Match {count} of {count} in turn 31"
    qtbot.keyClick(window.view, Qt.Key.Key_F3)
    assert window.statusBar().currentMessage() == f"Match 1 of {count} in turn 31"
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert matches.found.key is None and not matches.next_action.isEnabled()
    qtbot.waitUntil(lambda: painted(window) == {"match": 0, "current": 0})


def test_f3_scrolls_to_a_match_far_down_a_long_answer(qtbot, store, make_window):
    answer = "预算开头。\n\n" + "\n\n".join("普通的一段话，没有那个词。" * 4 for _ in range(120)) \
        + "\n\n最后的预算。"
    seed(store, "Long", [*numbered(3), ("问", answer)])
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None)
    panel = search(qtbot, window, "预算")
    index = open_hit(qtbot, window, panel)
    qtbot.keyClick(window.view, Qt.Key.Key_F3)
    assert window.statusBar().currentMessage() == "Match 2 of 2 in turn 4"
    placed = window.view.delegate.text_layout(index)
    match = window.finder.matches.found.matches([d for d, _ in placed])[1]
    doc, origin = placed[match.doc]
    block = doc.findBlock(match.start)
    top = origin.y() + doc.documentLayout().blockBoundingRect(block).top()
    assert 0 <= top <= window.view.viewport().height()  # in sight


def test_a_new_search_clears_the_highlight(qtbot, store, make_window):
    seed(store, "Garden", [("Where are the tulips?", "The tulips are by the gate.")])
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None)
    panel = search(qtbot, window, "tulips")
    open_hit(qtbot, window, panel)
    panel.field.setText("gate")
    panel.run()
    qtbot.waitUntil(lambda: panel.searched_query == "gate", timeout=5000)
    assert window.finder.matches.found.key is None


def test_matches_are_found_as_the_index_finds_them_diacritics_aside():
    from turnlog.core.search import highlighter

    find = highlighter(parse_query("cafe"))
    text = "Un Café noir, un cafe, CAFÉ, cafe\u0301s"
    assert [text[a:b] for a, b in find.spans(text)] == ["Café", "cafe", "CAFÉ", "cafe\u0301"]
    snippet = make_snippet(["x " * 200 + "Le Café est fermé"], parse_query("cafe"))
    assert snippet.marked().endswith("Le [Café] est fermé")  # centred on the real match
    find = highlighter(parse_query("预算"))
    assert find.spans("🎉预算，预算") == [(1, 3), (4, 6)]


def test_a_new_query_paints_its_own_matches_in_bold(qtbot, store, make_window):
    from PySide6.QtGui import QFont

    seed(store, "Plans", [("问题", "第1项：预算是1万元。")])
    window = make_window()
    panel = search(qtbot, window, "预算")
    panel.results.viewport().grab()  # painted: the row's snippet is laid out

    def bold_words() -> set[str]:
        option = option_for(panel, 0)
        doc = panel.delegate._document(panel.model.index(0, 0).data(HitRole), option)
        text = doc.toPlainText()
        cursor = QTextCursor(doc)
        bold = set()
        for word in ("预算", "万元"):
            cursor.setPosition(text.index(word) + 1)
            if cursor.charFormat().fontWeight() >= QFont.Weight.Bold:
                bold.add(word)
        return bold

    assert bold_words() == {"预算"}
    panel.field.setText("万元")
    panel.run()
    qtbot.waitUntil(lambda: panel.searched_query == "万元", timeout=5000)
    panel.results.viewport().grab()
    assert bold_words() == {"万元"}


def test_a_dock_left_narrow_by_an_older_window_state_opens_beside_the_inspector(
        qtbot, store, make_window):
    window = make_window(size=(1024, 600))
    dock = window.finder.dock
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)  # as states kept it
    window.resizeDocks([dock], [150], Qt.Orientation.Horizontal)
    dock.hide()
    search(qtbot, window, "anything")
    assert window.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea
    qtbot.waitUntil(lambda: dock.width() >= 300)


def test_the_inspector_is_the_side_tab_in_front_of_a_new_window(qtbot, store, make_window):
    """The search tab, made beside the inspector and then hidden, left the Memory tab in
    front of a new window; the inspector belongs there until something else is asked for."""
    seed(store, "budget", numbered(2))
    window = make_window(size=(1024, 600))
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2)
    qtbot.waitUntil(lambda: not window.inspector_dock.visibleRegion().isEmpty())
    assert window.memory_dock.visibleRegion().isEmpty()


def test_numbers_read_alike_in_the_panel_the_hit_the_match_line_and_the_row(
        qtbot, store, make_window):
    seed(store, "Many", [*numbered(1316), ("Where is the MARIGOLD bed?", "By the gate.")])
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None)
    panel = search(qtbot, window, "question")
    shown = panel.model.rowCount()
    assert 0 < shown < 1316
    assert panel.status.text() == f"1,316 matches, {shown} shown."
    panel = search(qtbot, window, "marigold")
    assert panel.model.index(0, 1).data() == "1,317"  # the hit's turn
    index = open_hit(qtbot, window, panel)
    assert window.statusBar().currentMessage() == "Match 1 of 1 in turn 1,317"
    assert turn_title(index.data(Role.NUMBER)) == "Turn 1,317"  # the row's painted header
    assert str(index.data(Qt.ItemDataRole.DisplayRole)).startswith("Turn 1,317,")
