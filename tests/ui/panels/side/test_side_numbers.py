"""The side inspector names turns by the numbers their row headers show: after a
regenerate (the new version keeps its turn's number under an ordinal of its own) its
"recent window" and "left out" read as the history does, not by stored ordinals."""

from __future__ import annotations

from turnlog.core.model import ConversationSettings
from uihelpers import seed
from version_turns import fresh, numbered_pair

pytest_plugins = ["uiwindow"]

# Room for a few of the turns below: the oldest are left out of a side request.
SETTINGS = ConversationSettings(max_bytes=3_000, context_window=32_768, output_reserve=1024)


def test_the_side_inspector_names_turns_as_their_headers_after_a_regenerate(
        qtbot, make_window, store, loopback):
    conversation = seed(store, "versions", [numbered_pair(i) for i in range(1, 4)],
                        settings=SETTINGS)
    third = store.turns(conversation.id)[-1]  # turn 3 regenerated: ordinal 4, still number 3
    store.turns.commit(conversation.id, fresh(third.question, "answer 3 again: " + "b" * 180,
                                             replaces=third.id))
    store.turns.commit_many(conversation.id, [fresh(*numbered_pair(i)) for i in range(4, 13)])
    window = make_window()
    qtbot.waitUntil(lambda: window.side.shown_for == conversation.id
                    and len(window.transcript.turns) == 12  # the versions in use
                    and window.transcript.numbers.versions == 1, timeout=5000)
    model = window.transcript
    assert model.number_of(model.turns[-1]) == 12  # the newest row's header: "Turn 12"

    panel = window.side.panel
    panel.edit.setPlainText("What did we settle?")
    qtbot.waitUntil(lambda: panel.inspector.heading.text().startswith("Side question preview"),
                    timeout=3000)
    shown = panel.inspector.state.projection
    first_sent = model.number_of(next(t for t in model.turns if t.ordinal == shown.sent[0]))
    assert 4 < first_sent < 12  # the oldest turns, the regenerated one among them, left out
    carried = panel.inspector.endpoint.text()
    assert f"recent window: turns {first_sent}–12 " in carried
    assert f"left out: turns 1–{first_sent - 1} " in carried
    assert "13" not in carried  # no stored ordinal runs ahead of the history
    parts = panel.inspector.parts
    names = [parts.item(r, 0).text() for r in range(parts.rowCount())]
    assert "turn 12 (question + answer)" in names  # the body's turns, named as their rows
    assert not any(name.startswith("turn 13") for name in names)
