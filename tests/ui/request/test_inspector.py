"""The inspector and the what-if slider agree with what the server received."""

from __future__ import annotations

import json

from PySide6.QtCore import QEvent, QObject, Qt

from loopback import Behaviour
from turnlog.core.model import ConversationSettings
from turnlog.ui.transcript.marks import RowMark
from turnlog.ui.transcript.model import Role
from uihelpers import exported, numbered, seed

pytest_plugins = ["uiwindow"]


def marks(window):
    model = window.transcript
    return {model.index(r).data(Role.ORDINAL): model.index(r).data(Role.MARK)
            for r in range(model.rowCount())}


def part_rows(window) -> list[tuple[str, int, int]]:
    table = window.inspector.parts
    return [(table.item(r, 0).text(), int(table.item(r, 1).text().replace(",", "")),
             int(table.item(r, 2).text().replace(",", "")))
            for r in range(table.rowCount())]


def test_what_if_changes_the_marks_and_not_the_log(qtbot, make_window, store, loopback,
                                                   turnlog_home):
    conversation = seed(store, "chat", numbered(10),
                        settings=ConversationSettings(max_bytes=16_000, compaction=False))
    before = exported(turnlog_home, conversation.id)
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 10)
    window.composer.set_draft("What if?")
    window.refresh_preview()
    assert set(marks(window).values()) == {RowMark.SENT}

    slider = window.inspector.slider
    slider.setValue(700)
    shown = marks(window)
    assert shown[10] is RowMark.SENT
    assert shown[1] is RowMark.NOT_SENT
    assert window.shown.kind == "what-if"
    assert window.shown.projection.body_bytes <= 700
    assert "700 bytes" in window.inspector.what_if_label.text()
    assert window.legend.source.text().startswith(
        "Marks show what would be sent if the limit were 700 bytes")
    # Keyboard: the slider moves by page with PageUp and the preview follows.
    slider.setFocus()
    qtbot.keyClick(slider, Qt.Key.Key_PageUp)
    assert slider.value() == 700 + slider.pageStep()
    assert window.what_if_bytes == slider.value()

    qtbot.mouseClick(window.inspector.reset_button, Qt.MouseButton.LeftButton)
    assert window.what_if_bytes is None
    assert set(marks(window).values()) == {RowMark.SENT}
    assert store.conversations.get(conversation.id).settings.max_bytes == 16_000
    assert loopback.requests == []
    assert exported(turnlog_home, conversation.id) == before


def test_inspector_agrees_with_the_body_the_server_received(qtbot, make_window, store,
                                                            loopback):
    conversation = seed(store, "chat", numbered(8), system_prompt="Answer briefly. 简短回答。",
                        settings=ConversationSettings(max_bytes=1_000, compaction=False))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 8)
    loopback.script(Behaviour.answer("Sure.", usage={"prompt_tokens": 321,
                                                     "completion_tokens": 2,
                                                     "total_tokens": 323}))
    window.composer.set_draft("Tell me 👋")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    [request] = loopback.requests
    body = request.body

    rows = part_rows(window)
    assert rows[-1][0] == "total = the body" and rows[-1][1] == len(body)
    assert sum(size for _, size, _ in rows[:-1]) == len(body)
    assert [name for name, _, _ in rows[:2]] == ["model, options, brackets", "system prompt"]
    assert rows[-2][0] == "current question"
    turn_rows = [int(name.split()[1]) for name, _, _ in rows if name.startswith("turn ")]
    shown = marks(window)
    assert turn_rows == [o for o in range(1, 9) if shown[o] is RowMark.SENT]
    assert 0 < len(turn_rows) < 8
    assert json.loads(window.inspector.body.toPlainText()) == json.loads(body)
    assert f"{len(body):,} bytes" in window.inspector.body_label.text()
    assert window.inspector.bytes_label.text().startswith(f"Body: {len(body):,} of 1,000 bytes")
    assert "(estimated)" in window.inspector.tokens_label.text()
    assert "321 prompt" in window.inspector.usage_value.text()
    assert "saved as turn 9" in window.inspector.outcome_value.text()
    assert window.inspector.heading.text().startswith("Last request")
    assert conversation.id == window.conversation.id


def test_the_wheel_scrolls_the_inspector_past_the_slider_and_last_request_stays_offered(
        qtbot, make_window, store, loopback):
    """Wheel-scrolling the inspector over the byte-limit slider scrolls, and sets no what-if
    limit (the slider takes the wheel only when focused); *Last request* shows the body
    actually sent beside the preview, also after a what-if and *Reset*."""
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    seed(store, "chat", numbered(4),
         settings=ConversationSettings(max_bytes=16_000, compaction=False))
    window = make_window(size=(1280, 500))
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 4)
    loopback.script(Behaviour.answer("Sent and saved."))
    window.composer.set_draft("First?")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    sent = loopback.requests[-1].body
    window.composer.set_draft("And the next?")
    window.refresh_preview()
    assert window.shown.kind == "preview"
    inspector, slider = window.inspector, window.inspector.slider
    before = slider.value()

    def wheel(widget) -> None:
        centre = QPointF(widget.rect().center())
        event = QWheelEvent(centre, QPointF(widget.mapToGlobal(QPoint(10, 10))), QPoint(0, 0),
                            QPoint(0, -120), Qt.MouseButton.NoButton,
                            Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                            False)
        QApplication.sendEvent(widget, event)

    inspector.verticalScrollBar().setValue(0)
    wheel(slider)
    assert slider.value() == before and window.what_if_bytes is None
    assert window.shown.kind == "preview"
    if inspector.verticalScrollBar().maximum() > 0:
        assert inspector.verticalScrollBar().value() > 0  # the inspector scrolled instead
    slider.setFocus()
    wheel(slider)
    assert slider.value() != before  # focused, it takes the wheel

    def show_last() -> None:
        assert inspector.last_button.isVisibleTo(window) and inspector.last_button.isEnabled()
        inspector.last_button.click()
        assert window.shown.kind == "last"
        assert json.loads(inspector.body.toPlainText()) == json.loads(sent)

    show_last()
    inspector.preview_button.click()
    assert window.shown.kind == "preview"
    slider.setValue(700)
    assert window.shown.kind == "what-if"
    inspector.reset_button.click()
    assert window.what_if_bytes is None
    show_last()


class PaintCount(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def test_the_request_in_flight_moves_the_bars_without_painting_the_window_from_inside(
        qtbot, make_window, store):
    """While an answer streams in, showing the body in flight moves the inspector's bars;
    the growing answer waiting for a paint is painted with the next frame, not from inside
    that update (one long stall instead of two short ones)."""
    seed(store, "chat", numbered(10), settings=ConversationSettings(max_bytes=16_000))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 10)
    window.composer.set_draft("x" * 6_000)
    window.refresh_preview()
    in_flight = window.shown.projection
    window.composer.set_draft("")
    window.refresh_preview()
    qtbot.wait(50)
    bar = window.inspector.bytes_bar
    before = bar.value()
    paints = PaintCount()
    window.view.viewport().installEventFilter(paints)
    window.view.viewport().update()  # the transcript waits for a paint (a streamed piece)
    window.preview.show_sent(in_flight)
    assert bar.value() > before
    assert paints.count == 0
    qtbot.waitUntil(lambda: paints.count > 0)
    window.view.viewport().removeEventFilter(paints)
