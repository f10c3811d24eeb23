"""Turns imported without ids of their own get fresh ones, as a send's would be."""

from __future__ import annotations

import uuid
from dataclasses import replace

from sync_stores import pending
from turnlog.core.imports import ImportedConversation, ImportedTurn
from turnlog.store import TurnlogStore


def test_turns_without_ids_get_distinct_random_version_4_ids(tmp_path):
    store = TurnlogStore.open(tmp_path / "data")
    try:
        turns = [ImportedTurn(replace(pending(f"question {n}"), id=""), n)
                 for n in range(1, 2_501)]  # more than one block of ids drawn at once
        store.imports.write([ImportedConversation("No ids", "", "m", turns)])
        ids = [turn_id for (turn_id,) in store.db.execute_sql(
            'SELECT "id" FROM "turns" ORDER BY "ordinal"')]
    finally:
        store.close()
    assert len(ids) == len(set(ids)) == 2_500
    for turn_id in ids:
        parsed = uuid.UUID(turn_id)
        assert parsed.hex == turn_id and parsed.version == 4
        assert parsed.variant == uuid.RFC_4122
    assert len({turn_id[:4] for turn_id in ids}) > 2_000  # random, not counted up
