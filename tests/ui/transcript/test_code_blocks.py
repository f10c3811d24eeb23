"""Code blocks in answers: a tinted box, the language named, long lines wrapped, and Copy
code block putting exactly the block's text on the clipboard."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication, QTextDocument, QTextFormat

from turnlog.ui.transcript.answer import CODE_TINT, COPY_HEIGHT, style_code
from turnlog.ui.transcript.model import Role
from window_sending import open_window

pytest_plugins = ["uiwindow"]

FIRST = 'budget = {"住宿": 1200}\n\nprint(budget)  # 🍵'
SECOND = "echo 'done ✅' && " + "x" * 300
ANSWER = (f"Here:\n\n```python\n{FIRST}\n```\n\nThen run:\n\n```sh\n{SECOND}\n```\n\n"
          "That is all.")


def test_code_blocks_are_tinted_and_wrap(qapp):
    doc = QTextDocument()
    doc.setMarkdown(ANSWER, QTextDocument.MarkdownFeature.MarkdownNoHTML)
    found = style_code(doc)
    assert [c.language for c in found] == ["python", "sh"]
    block = doc.findBlockByNumber(found[1].first)
    assert block.blockFormat().background().color() == CODE_TINT
    assert not block.blockFormat().nonBreakableLines()
    assert not doc.findBlockByNumber(0).blockFormat().hasProperty(
        QTextFormat.Property.BackgroundBrush)


def test_a_code_blocks_language_and_copy_have_a_strip_above_its_first_line(qapp):
    """The language name and *Copy* sit in a strip of their own: never drawn over code."""
    doc = QTextDocument()
    doc.setMarkdown(ANSWER, QTextDocument.MarkdownFeature.MarkdownNoHTML)
    doc.setTextWidth(500)
    layout = doc.documentLayout()
    for code in style_code(doc):
        above = layout.blockBoundingRect(doc.findBlockByNumber(code.first - 1)).bottom()
        first = layout.blockBoundingRect(doc.findBlockByNumber(code.first)).top()
        assert first - above >= COPY_HEIGHT
        second = code.first + 1
        if second <= code.last:  # the lines below follow without a gap
            assert layout.blockBoundingRect(doc.findBlockByNumber(second)).top() == \
                layout.blockBoundingRect(doc.findBlockByNumber(code.first)).bottom()


def test_copy_code_block_copies_exactly_that_block(qtbot, make_window, store):
    window, _cid = open_window(qtbot, make_window, store, [("How? 怎么做？", ANSWER)])
    view = window.view
    index = window.transcript.index(0)
    view.setCurrentIndex(index)
    assert view.copy_code() == FIRST  # no pointer: the first block
    assert QGuiApplication.clipboard().text() == FIRST
    rect = view.visualRect(index)
    seen: list[str] = []
    for y in range(rect.top(), rect.bottom()):
        text = view.delegate.code_at(index, QPoint(rect.left() + 40, y))
        if text is not None and (not seen or seen[-1] != text):
            seen.append(text)
    assert seen == [FIRST, SECOND]  # top to bottom, each block where it is painted
    y = next(y for y in range(rect.bottom(), rect.top(), -1)
             if view.delegate.code_at(index, QPoint(40, y)) == SECOND)
    view._menu_at = QPoint(rect.left() + 40, y)  # as a right-click there leaves it
    view.copy_code_action.trigger()
    assert QGuiApplication.clipboard().text() == SECOND


def test_the_copy_button_of_a_code_block_copies_exactly_its_text(qtbot, make_window, store):
    """The button shows on the block under the pointer only, and copies that block."""
    from PySide6.QtCore import QRect

    window, _cid = open_window(qtbot, make_window, store, [("How? 怎么做？", ANSWER)])
    view = window.view
    index = window.transcript.index(0)
    rect = view.visualRect(index)
    buttons = [QPoint(x, y) for y in range(rect.top(), rect.bottom(), 2)
               for x in range(rect.right() - 60, rect.right(), 4)
               if view.delegate.copy_button_at(index, QPoint(x, y)) is not None]
    assert buttons, "every code block has a Copy button at its top right"
    first, last = buttons[0], buttons[-1]  # the first block's, the lowest: the second's

    def button_image(point: QPoint):
        return view.viewport().grab(QRect(point.x() - 30, point.y() - 8, 60, 16)).toImage()

    qtbot.mouseMove(view.viewport(), QPoint(rect.left() + 20, rect.top() + 5))  # the header
    assert view.delegate.hovered_code is None
    hidden = [button_image(first), button_image(last)]
    qtbot.mouseMove(view.viewport(), last)  # hover the second block: its Copy shows
    qtbot.waitUntil(lambda: view.delegate.hovered_code == (index.data(Role.KEY), 1))
    assert button_image(last) != hidden[1]
    assert button_image(first) == hidden[0]  # the other block's stays hidden
    copied = []
    view.delegate.code_copied.connect(copied.append)
    QGuiApplication.clipboard().setText("before")
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=last)
    assert QGuiApplication.clipboard().text() == SECOND == copied[-1]
    qtbot.mouseMove(view.viewport(), first)
    qtbot.waitUntil(lambda: view.delegate.hovered_code == (index.data(Role.KEY), 0))
    assert button_image(first) != hidden[0]
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=first)
    assert QGuiApplication.clipboard().text() == FIRST
    assert view.selected_text() == ""  # a click on Copy selects nothing


def test_copy_code_block_is_in_the_context_menu(qtbot, make_window, store):
    window, _cid = open_window(qtbot, make_window, store, [("How? 怎么做？", ANSWER)])
    assert window.view.copy_code_action in window.view.actions()
    # The view opens it itself (a right click, the menu key): fitted to the row first.
    assert window.view.contextMenuPolicy() == Qt.ContextMenuPolicy.DefaultContextMenu
