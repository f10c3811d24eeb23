"""Deleting one turn asks about it by the number its row header shows, grouped as the
header writes it ("turn 1,317")."""

from __future__ import annotations

from turnlog.store.deletion import DeletionCounts
from turnlog.ui.dialogs.privacy import delete_turn_question


def test_the_question_names_the_turn_as_its_header(qtbot):
    counts = DeletionCounts(conversations=0, turns=1, summaries=0, requests=1)
    assert delete_turn_question(1317, counts).text.startswith("Delete turn 1,317? ")
    assert delete_turn_question(1317, counts, versions=2).text == \
        "Delete turn 1,317? This removes this version."
