"""A row's header in a narrow window: the version words, Regenerate or Use this version
and the mark's label ("just asked", "replaced") sit side by side, never painted over each
other; "version 2 of 2" reads "2/2" when the words need the room."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, Qt
from PySide6.QtGui import QFontMetrics, QHelpEvent
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem, QToolTip

from loopback import Behaviour
from turnlog.ui.shell.window import MainWindow
from turnlog.ui.transcript.marks import RowMark
from turnlog.ui.transcript.model import Role
from turnlog.ui.transcript.row_header import header_font, header_height, mark_label
from turnlog.ui.transcript.row_layout import RowParts
from version_clicks import click
from window_sending import keep_cut_answer, open_window, wait_done

pytest_plugins = ["uiwindow"]

PAIRS = [("How do I keep retries idempotent?", "Use a request id.")]


def header_words(window: MainWindow, row: int) -> tuple[list[tuple[str, str, QRect]],
                                                        tuple[str, QRect] | None, QRect]:
    """What row `row`'s header paints: its controls, the mark's label, the header."""
    view = window.view
    index = window.transcript.index(row)
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = view.visualRect(index)
    header = view.delegate.layout.place(option.rect, RowParts(header_height(option), 0, 0, 0)
                                        ).header
    controls = view.delegate.header_controls(option, index)
    return controls, mark_label(option, index, header, controls), header


def regenerated(qtbot, make_window, store, loopback, size: tuple[int, int]) -> MainWindow:
    window, _cid = open_window(qtbot, make_window, store, PAIRS, size=size)
    loopback.script(Behaviour.answer("Send an idempotency key."))
    qtbot.keyClick(window.view, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: window.transcript.index(0).data(Role.VERSION) == (2, 2),
                    timeout=5000)
    return window


def apart(controls: list[tuple[str, str, QRect]], label: tuple[str, QRect] | None,
          header: QRect) -> None:
    assert label is not None
    for name, _text, rect in controls:
        assert not rect.intersects(label[1]), (name, rect, label)
        assert rect.right() <= header.right(), (name, rect, header)


def test_regenerate_and_just_asked_sit_apart_in_a_1024_by_600_window(qtbot, make_window,
                                                                     store, loopback):
    window = regenerated(qtbot, make_window, store, loopback, (1024, 600))
    window.view.setFixedWidth(340)  # a transcript beside the inspector and the sidebar
    qtbot.waitUntil(lambda: window.view.viewport().width() < 340)
    controls, label, header = header_words(window, 0)
    assert window.transcript.index(0).data(Role.MARK) is RowMark.ASKED
    assert [name for name, _t, _r in controls] == ["older", "label", "newer", "regenerate"]
    assert label is not None and label[0] == "just asked"
    apart(controls, label, header)
    assert dict((n, t) for n, t, _r in controls)["label"] == "2/2"

    click(qtbot, window, 0, "older")  # version 1, replaced: Use this version and its mark
    qtbot.waitUntil(lambda: window.transcript.index(0).data(Role.MARK) is RowMark.REPLACED,
                    timeout=5000)
    controls, label, header = header_words(window, 0)
    assert "use" in [name for name, _t, _r in controls]
    apart(controls, label, header)
    assert label[0].startswith("rep")


def test_a_wide_window_keeps_the_whole_words(qtbot, make_window, store, loopback):
    window = regenerated(qtbot, make_window, store, loopback, (1600, 900))
    controls, label, header = header_words(window, 0)
    assert dict((n, t) for n, t, _r in controls)["label"] == "version 2 of 2"
    assert label is not None and label[0] == "just asked"
    apart(controls, label, header)


def test_a_larger_list_font_measures_the_header_words_in_it(qtbot, make_window, store,
                                                            loopback):
    """The header's fonts are made once per list font: once the list's font grows, the
    words are measured in the larger one, and still keep apart from the mark's label."""
    window = regenerated(qtbot, make_window, store, loopback, (1600, 900))
    controls, _label, _header = header_words(window, 0)
    before = dict((n, r.width()) for n, _t, r in controls)["regenerate"]
    font = window.view.font()
    font.setPointSizeF(font.pointSizeF() * 1.5)
    window.view.setFont(font)
    controls, label, header = header_words(window, 0)
    assert dict((n, r.width()) for n, _t, r in controls)["regenerate"] > before * 1.3
    apart(controls, label, header)


def kept_incomplete(qtbot, make_window, store, loopback) -> MainWindow:
    window, _cid = open_window(qtbot, make_window, store, PAIRS, size=(1024, 600))
    keep_cut_answer(qtbot, window, loopback, "Please explain failed retries in detail")
    return window


def tooltip_at(qtbot, window: MainWindow, rect: QRect) -> str:
    view = window.view
    QToolTip.hideText()
    point = rect.center()
    QApplication.sendEvent(view.viewport(), QHelpEvent(
        QEvent.Type.ToolTip, point, view.viewport().mapToGlobal(point)))
    qtbot.waitUntil(QToolTip.isVisible, timeout=2000)
    return QToolTip.text()


def test_a_kept_incomplete_turn_s_header_never_cuts_a_word(qtbot, make_window, store,
                                                          loopback):
    window = kept_incomplete(qtbot, make_window, store, loopback)
    window.view.setFixedWidth(340)  # the transcript beside the inspector at 1024×600
    qtbot.waitUntil(lambda: window.view.viewport().width() < 340)
    window.view.scrollToBottom()
    controls, label, header = header_words(window, 1)
    words = {name: text for name, text, _r in controls}
    assert list(words) == ["incomplete", "continue", "regenerate"]
    # Continue and Regenerate fall back to their icons; the reason is cut with "…".
    assert words["continue"] == "→" and words["regenerate"] == "↻"
    assert words["incomplete"].endswith("…")
    metrics = QFontMetrics(header_font(view_option(window)))
    for name, text, rect in controls:  # each painted whole in its place
        assert metrics.horizontalAdvance(text) <= rect.width(), (name, text, rect)
    mark = window.transcript.index(1).data(Role.MARK)
    assert label is not None and label[0] == mark.label  # the mark's label, whole
    apart(controls, label, header)
    # Their tooltips say what the icons and the cut words stand for.
    rects = {name: rect for name, _t, rect in controls}
    assert tooltip_at(qtbot, window, rects["regenerate"]) == "Regenerate"
    assert tooltip_at(qtbot, window, rects["continue"]) == "Continue"
    assert tooltip_at(qtbot, window, rects["incomplete"]) == \
        "incomplete (cut off at the output limit)"
    # A screen reader names the header's buttons whatever the width.
    assert window.transcript.index(1).data(Qt.ItemDataRole.AccessibleDescriptionRole) == \
        "Buttons in its header: Continue, Regenerate"


def view_option(window: MainWindow) -> QStyleOptionViewItem:
    option = QStyleOptionViewItem()
    window.view.initViewItemOption(option)
    return option
