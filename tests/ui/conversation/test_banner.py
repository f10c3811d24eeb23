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
    """A tall banner takes height, the whole-log bar appears (it shows only when the history
    does not fit) and the text column narrows: each row is measured for the new width, so no
    row's text runs into the next (and the same after the window is made narrower)."""
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
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=5000)  # they overflow now
    assert window.view.history_bar.isVisible()
    qtbot.wait(200)
    assert_rows_apart()
    window.resize(600, 2000)
    qtbot.wait(200)
    assert_rows_apart()
