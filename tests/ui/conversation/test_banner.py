"""The failure banner offers "Send again" exactly when the failure's kind says it can help."""

from __future__ import annotations

import pytest

from turnlog.core.failures import Failure, FailureKind
from turnlog.ui.conversation.banner import FailureBanner

pytest_plugins = ["uiwindow"]


@pytest.mark.parametrize("kind", list(FailureKind), ids=lambda kind: kind.value)
def test_send_again_is_shown_as_the_failure_kind_says(qtbot, kind: FailureKind):
    banner = FailureBanner()
    qtbot.addWidget(banner)
    banner.show()
    banner.show_failure(Failure(kind, detail="what the server said"))
    assert banner.isVisible()
    assert banner.retry_button.isVisible() is kind.offers_retry
    banner.show_text("Nothing is set up", "Add a provider in Settings")
    assert not banner.retry_button.isVisible()


def test_a_tall_banner_narrowing_the_transcript_lays_the_rows_out_again(qtbot, make_window,
                                                                         store):
    """A tall banner (its details open) takes height, the whole-log bar appears (it shows
    only when the history does not fit) and the text column narrows: each row is measured
    for the new width, so no row's text runs into the next (and the same after the window
    is made narrower)."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    from window_sending import open_window

    def assert_rows_apart() -> None:
        view, model = window.view, window.transcript
        rects = [view.visualRect(model.index(r)) for r in range(model.rowCount())]
        option = QStyleOptionViewItem()
        view.initViewItemOption(option)
        for row, (rect, below) in enumerate(zip(rects, rects[1:], strict=False)):
            needed = view.delegate.sizeHint(option, model.index(row)).height()
            assert rect.bottom() < below.top(), f"row {row} runs into row {row + 1}"
            assert below.top() - rect.top() >= needed, f"row {row} is cut short"

    pairs = [("word " * 50, "answer " * 120) for _ in range(3)]
    window, _cid = open_window(qtbot, make_window, store, pairs, size=(900, 2000))
    qtbot.wait(200)
    bar = window.view.verticalScrollBar()
    assert bar.maximum() == 0  # all three rows fit: nothing to scroll yet
    assert not window.view.history_bar.isVisible()
    assert_rows_apart()
    window.banner.show_text("Failed", "\n".join(f"line {n}" for n in range(40)))
    window.banner.details_button.click()  # the whole message, under Details
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=5000)  # they overflow now
    assert window.view.history_bar.isVisible()
    qtbot.wait(200)
    assert_rows_apart()
    window.resize(600, 2000)
    qtbot.wait(200)
    assert_rows_apart()


def test_a_cut_answer_takes_two_lines_on_a_small_screen_and_keeps_the_rest_on_demand(
        qtbot, make_window, store, loopback):
    """At 1024×600 a stream cut off half-way says so in a banner of two lines (what happened,
    what to do) and its buttons; the history above and the composer below keep their room,
    the question is back in the box, and the answer so far is there on demand (Details)."""
    from loopback import Behaviour
    from partial_clicks import click_button, offered
    from uihelpers import numbered
    from window_sending import QUESTION, open_window, type_draft, wait_done

    window, _cid = open_window(qtbot, make_window, store, numbered(3), size=(1024, 600))
    answer = "The start of an answer that never ends, " * 12
    loopback.script(Behaviour.cut(answer, after_chunks=3))
    type_draft(window)
    window.send()
    wait_done(qtbot, window)
    banner = window.banner
    qtbot.waitUntil(lambda: offered(window), timeout=5000)
    qtbot.wait(100)  # laid out
    assert window.composer.text() == QUESTION  # the draft is given back
    line = banner.fontMetrics().lineSpacing()
    button = banner.keep_button.sizeHint().height()
    # Two lines of words beside and above their buttons, one row of Keep and Continue.
    assert banner.height() <= 2 * max(2 * line, button) + button + 40, banner.height()
    assert window.view.height() >= banner.height()  # the history is not squeezed away
    edit = window.composer.edit
    assert edit.isVisible() and edit.visibleRegion().boundingRect().height() >= 2 * line
    assert not banner.partial.isVisible()  # the answer so far waits for Details
    assert banner.message.text()  # what to do, in a line
    click_button(qtbot, banner.details_button)
    qtbot.waitUntil(banner.partial.isVisible, timeout=2000)
    message = banner.message  # now whole, wrapped, not cut at the bottom
    qtbot.waitUntil(lambda: message.height() >= message.heightForWidth(message.width()) > 0,
                    timeout=2000)
    assert banner.partial.toPlainText() in answer and banner.partial.toPlainText()
    assert banner.partial.toPlainText() in banner.report()
    click_button(qtbot, banner.details_button)
    qtbot.waitUntil(lambda: not banner.partial.isVisible(), timeout=2000)


def test_the_line_under_the_title_wraps_to_two_lines_before_it_cuts(qtbot):
    """What to do comes last in the line under the title ("… Retry after 7 s."): at the
    width of a 1024-px window's centre it wraps onto a second line rather than being cut;
    only what runs past two lines is cut, with "…"."""
    from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout, QWidget

    column = QWidget()  # as in the window: the history above takes what the banner leaves
    qtbot.addWidget(column)
    layout = QVBoxLayout(column)
    layout.addWidget(QPlainTextEdit(column), 1)
    banner = FailureBanner(column)
    layout.addWidget(banner)
    column.resize(400, 600)
    column.show()
    said = "Rate limit reached for requests per minute on this project (walk server)"
    banner.show_text("Rate limited", f"{said}. Retry after 7 s.")
    qtbot.waitUntil(lambda: banner.message.width() > 0, timeout=2000)
    lines = banner.message.shown_lines()
    assert len(lines) == 2 and lines[-1].endswith("Retry after 7 s."), lines
    qtbot.waitUntil(lambda: banner.message.height()
                    >= 2 * banner.message.fontMetrics().lineSpacing(), timeout=2000)
    banner.show_text("Failed", "word " * 200)
    qtbot.wait(50)
    lines = banner.message.shown_lines()
    assert len(lines) == 2 and lines[-1].endswith("…"), lines
