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
