"""The inspector and the what-if slider agree with what the server received."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

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
    assert store.conversation(conversation.id).settings.max_bytes == 16_000
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
