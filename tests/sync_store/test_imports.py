"""An import journals its turns a batch at a time (its trigger set aside, places given with the
rows): a sync after it publishes every imported turn exactly once, in order, with the same
places the per-turn triggers gave, and another machine shows what this one does."""

from __future__ import annotations

import uuid
from contextlib import nullcontext
from dataclasses import replace

import pytest

from sync_stores import dump, machines_open, pending, published, pull
from turnlog.core.imports import ImportCancelled, ImportedConversation, ImportedTurn
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
    for store in (a, c):  # each turn's row found by its number, as the trigger notes it
        assert set(imported) <= set(_numbered(store)) == set(_published_turns(store))

    applied = pull(b, a)
    assert applied.counts["turn"] == len(imported) + 2
    assert dump(b) == dump(a)
    assert pull(b, a).counts == {}  # nothing twice


def _numbered(store) -> list[str]:
    """The turns whose journal row names them by their row number."""
    return [g for (g,) in store.db.execute_sql(
        'SELECT j."gid" FROM "sync_journal" j JOIN "turns" t ON t."rowid" = j."turn_row" AND '
        't."id" = j."gid" WHERE j."kind" = \'turn\'')]


def _random_indexes(store) -> dict[str, str]:
    return dict(store.db.execute_sql(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name IN (?, ?, ?)",
        import_journal.BY_RANDOM_IDS).fetchall())


def _sound(store) -> bool:
    return store.db.execute_sql("PRAGMA integrity_check").fetchall() == [("ok",)]


def _sourced(title: str, turns: list[ImportedTurn]) -> ImportedConversation:
    return ImportedConversation(title, "", "m", turns, source_ids=True,
                                global_id=uuid.uuid5(uuid.NAMESPACE_URL, title).hex)


def test_a_large_import_sets_the_random_id_indexes_aside_and_builds_them_again(
        machines, monkeypatch):
    a, b = machines["A"], machines["B"]
    monkeypatch.setattr(imports, "BATCH", 3)
    schema = _random_indexes(a)
    assert sorted(schema) == sorted(import_journal.BY_RANDOM_IDS)
    seen: list[int] = []  # how many of the indexes stood as each batch was written
    a.imports.write([_sourced("Big", _turns("big", 20))],
                    progress=lambda done: seen.append(len(_random_indexes(a))))
    assert seen[0] == 3 and 0 in seen  # set aside once the import outgrew the store
    assert _random_indexes(a) == schema and _sound(a)  # the same indexes, every row in them
    plan = " ".join(str(row) for row in a.db.execute_sql(
        'EXPLAIN QUERY PLAN SELECT 1 FROM "sync_journal" WHERE "gid" = ?', ("x",)))
    assert "sync_journal_gid" in plan
    pull(b, a)
    assert dump(b) == dump(a)

    def cancelled() -> bool:
        return len(seen) >= 16  # the second import's 9th batch, once it outgrew the store

    with pytest.raises(ImportCancelled):  # rolled back with its turns: the indexes stand
        a.imports.write([_sourced("Cancelled", _turns("gone", 30))], cancelled=cancelled,
                        progress=lambda done: seen.append(len(_random_indexes(a))))
    assert 0 in seen[7:] and _random_indexes(a) == schema and _sound(a)


def test_a_small_import_into_a_large_store_keeps_the_indexes(machines, monkeypatch):
    a = machines["A"]
    a.imports.write([_sourced("Held", _turns("held", 60))])
    monkeypatch.setattr(imports, "BATCH", 3)
    seen: list[int] = []  # 60 turns held: set aside after an eighth as many, 7
    a.imports.write([_sourced("Small", _turns("small", 6))],
                    progress=lambda done: seen.append(len(_random_indexes(a))))
    a.imports.write([_sourced("Larger", _turns("larger", 12))],
                    progress=lambda done: seen.append(len(_random_indexes(a))))
    assert seen == [3, 3, 3, 3, 3, 0]


def test_a_conversation_rolled_back_while_they_were_aside_leaves_them_whole(
        machines, monkeypatch):
    """A source's conversation found changed after its new turns were written (one of its
    later turns is stored in another conversation) is rolled back to its savepoint, which
    brings the indexes back; the next conversation sets them aside again."""
    a, b = machines["A"], machines["B"]
    held = _turns("held", 3)
    a.imports.write([_sourced("Held", held)])
    monkeypatch.setattr(imports, "BATCH", 3)
    schema = _random_indexes(a)
    seen: list[int] = []
    changed = [*_turns("new", 9), held[1]]
    outcomes = a.imports.write(
        [_sourced("Changed", changed), _sourced("After", _turns("after", 9))],
        progress=lambda done: seen.append(len(_random_indexes(a))))
    assert seen[2] == 0 and 3 in seen[3:] and seen[-1] == 0  # aside, back, aside again
    assert [o.turns for o in outcomes] == [0, 9]
    assert _random_indexes(a) == schema and _sound(a)
    sent = _published_turns(a)
    assert [i for i in sent if i.startswith(("new", "after"))] == [
        t.pending.id for t in _turns("after", 9)]
    # the last conversation rolled back: nothing sets them aside again
    seen.clear()
    again = a.imports.write([_sourced("Changed again", [*_turns("more", 30), held[1]])],
                            progress=lambda done: seen.append(len(_random_indexes(a))))
    assert 0 in seen and again[0].turns == 0 and _random_indexes(a) == schema and _sound(a)
    pull(b, a)
    assert dump(b) == dump(a)
