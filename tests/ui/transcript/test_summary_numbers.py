"""A summary is named by the turn numbers the history shows: after a regenerate (a new
version keeps its turn's number under an ordinal of its own) the inspector's "summary #1
of turns 1–N" and the tooltip of a summarized turn agree with the row headers, in grouped
digits ("turns 1–1,807")."""

from __future__ import annotations

from PySide6.QtCore import Qt

from loopback import Behaviour
from turnlog.core.model import ConversationSettings
from turnlog.ui.transcript.marks import runs_text
from uihelpers import seed
from version_turns import fresh, numbered_pair

pytest_plugins = ["uiwindow"]

SETTINGS = ConversationSettings(max_bytes=8_000, context_window=32_768, output_reserve=1024)


def pair(i: int) -> tuple[str, str]:
    return numbered_pair(i, question_fill=220, answer_fill=200)


def test_the_summary_names_turns_by_their_numbers_after_a_regenerate(
        qtbot, make_window, store, loopback):
    conversation = seed(store, "versions", [pair(i) for i in range(1, 4)], settings=SETTINGS)
    third = store.turns(conversation.id)[-1]  # turn 3 was regenerated: ordinal 4, number 3
    store.turns.commit(conversation.id, fresh(third.question, "answer 3 again: " + "b" * 200,
                                             replaces=third.id))
    store.turns.commit_many(conversation.id, [fresh(*pair(i)) for i in range(4, 41)])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 40, timeout=5000)
    loopback.default = Behaviour.answer("Summary made by the model.")
    window.composer.set_draft("now?")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=15_000)
    qtbot.waitUntil(lambda: window.inspector.state.summary is not None
                    and window.transcript.summary is not None, timeout=5000)
    made = store.records.latest_summary(conversation.id)
    last = made.last_ordinal - 1  # the number of the newest turn it covers
    assert made.last_ordinal > 4
    caption = f"summary #{made.id} of turns 1–{last} ({made.covered_count} turns)"
    assert caption in window.inspector.summary_value.text()

    model = window.transcript
    model.load_all()
    row = model.row_of_ordinal(made.last_ordinal)
    tip = model.index(row).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith(f"Turn {last} is in the rolling {caption}")

    # A window opened on it names them so from the first preview (the versions are read
    # after the turns).
    window.shutdown()
    again = make_window()
    qtbot.waitUntil(lambda: len(again.transcript.turns) == 41, timeout=5000)
    again.composer.set_draft("and now?")
    again.preview.draft_edited()
    again.refresh_preview()
    qtbot.waitUntil(lambda: caption in again.inspector.summary_value.text(), timeout=5000)
    assert f"Stands in for turns 1–{last} of the log" in again.inspector.summary_value.text()


def test_turn_ranges_are_written_in_grouped_digits(qtbot):
    assert runs_text([(1808, 1985)]) == "turns 1,808–1,985"
    assert runs_text([(2001, 2001)]) == "turn 2,001"
