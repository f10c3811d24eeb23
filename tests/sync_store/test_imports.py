"""An import journals its turns a batch at a time (its trigger set aside, places given with the
rows): a sync after it publishes every imported turn exactly once, in order, with the same
places the per-turn triggers gave, and another machine shows what this one does."""

from __future__ import annotations

import uuid
from contextlib import nullcontext
from dataclasses import replace

import pytest

from sync_stores import dump, machines_open, pending, published, pull
from turnlog.core.imports import ImportedConversation, ImportedTurn
from turnlog.store import import_journal, imports


@pytest.fixture
def machines(tmp_path):
    with machines_open(tmp_path, "ABC") as opened:
        yield opened


def _turns(prefix: str, count: int) -> list[ImportedTurn]:
    return [ImportedTurn(replace(pending(f"{prefix} question {n}"), id=f"{prefix}{n:04d}"), n)
            for n in range(1, count + 1)]


def _import_everything(store, own, sourced_first, sourced_later) -> None:
    """A conversation typed here first, then a Turnlog file's conversation with a version,
    a source's conversation, and that source again with more turns (appended)."""
    typed = store.conversations.create("Typed here")
    store.turns.commit(typed.id, pending("typed one"))
    store.turns.commit(typed.id, pending("typed two"))
    store.imports.write([ImportedConversation(
        "From a file", "", "m", own, superseded_by={own[2].pending.id: own[3].pending.id})])
    source_gid = uuid.uuid5(uuid.NAMESPACE_URL, "chat/1").hex
    for turns in (sourced_first, sourced_later):
        store.imports.write([ImportedConversation("From a source", "", "m", list(turns),
                                                  source_ids=True, global_id=source_gid)])


def _places(store) -> dict[str, tuple[str | None, str | None]]:
    return {turn_id: (after, version) for turn_id, after, version in store.db.execute_sql(
        'SELECT "id", "after_id", "version_of" FROM "turns" WHERE "id" NOT LIKE \'%typed%\' '
        'AND "conversation_id" > 1')}


def _published_turns(store) -> list[str]:
    return [r["id"] for r in published(store) if r["kind"] == "turn"]


def test_an_import_then_a_sync_publishes_every_turn_once_in_order(machines, monkeypatch):
    a, b, c = machines["A"], machines["B"], machines["C"]
    monkeypatch.setattr(imports, "BATCH", 3)  # several batches per conversation
    own, first, later = _turns("own", 8), _turns("src", 5), _turns("src", 9)
    _import_everything(a, own, first, later)
    # C imports the same through the per-turn triggers (what every import did before)
    monkeypatch.setattr(import_journal, "trigger_set_aside", lambda db: nullcontext())
    monkeypatch.setattr(import_journal, "journal_turns", lambda db, conv, ids: None)
    _import_everything(c, own, first, later)

    sent = _published_turns(a)
    imported = [t.pending.id for t in own] + [t.pending.id for t in later]
    assert [i for i in sent if i in set(imported)] == imported  # each once, in order
    assert len(sent) == len(set(sent)) == len(imported) + 2
    assert _published_turns(a)[2:] == _published_turns(c)[2:]
    assert _places(a) == _places(c)  # the places the triggers gave
    assert _places(a)[own[3].pending.id] == (own[1].pending.id, own[2].pending.id)
    assert _places(a)[later[5].pending.id] == (later[4].pending.id, None)  # appended
    clock = [hlc for (hlc,) in a.db.execute_sql(
        'SELECT "hlc" FROM "sync_journal" WHERE "origin" IS NULL ORDER BY "seq"')]
    assert clock == sorted(clock) and len(set(clock)) == len(clock)

    applied = pull(b, a)
    assert applied.counts["turn"] == len(imported) + 2
    assert dump(b) == dump(a)
    assert pull(b, a).counts == {}  # nothing twice
