"""Turn numbers in the sentences about a turn are written as the header writes them
(1,200, not 1200): the note above the composer while a turn is edited, and what the status
bar says of the version in use."""

from __future__ import annotations

from long_history import seed_long

pytest_plugins = ["uiwindow"]


def test_editing_and_version_words_group_the_turn_number(qtbot, make_window, store):
    seed_long(store, "long", 1_200, gaps=False)
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1_200, timeout=10_000)
    window.versions.edit_current()
    note = window.versions.edit_note
    assert note.isVisible()
    assert note.text().startswith("Editing turn 1,200:"), note.text()
    window.versions.cancel_edit()
    window.versions.use_row(window.transcript.rowCount() - 1)  # the newest, already in use
    assert window.statusBar().currentMessage() == "Turn 1,200 is already the version in use."


def test_a_kept_answer_s_words_group_the_turn_number(qtbot, make_window, store, loopback):
    """Keeping an answer cut short as turn 1,201 says so in the status bar and in the
    inspector's outcome with the number as its header writes it."""
    from loopback import Behaviour
    from partial_clicks import click_button, offered
    from window_sending import type_draft

    seed_long(store, "long", 1_200, gaps=False)
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1_200, timeout=10_000)
    loopback.script(Behaviour.length("Tout droit,"))
    type_draft(window, "Which way to the station?", 3)
    window.send()
    qtbot.waitUntil(lambda: not window.running and offered(window), timeout=10_000)
    click_button(qtbot, window.banner.keep_button)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1_201, timeout=5000)
    assert window.statusBar().currentMessage() == "Kept as turn 1,201, marked incomplete."
    loopback.script(Behaviour.answer("Left, then right."))
    type_draft(window, "And then?", 3)
    window.send()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1_202, timeout=10_000)
    qtbot.waitUntil(lambda: "answered and saved as turn 1,202"
                    in window.inspector.outcome_value.text(), timeout=5000)
