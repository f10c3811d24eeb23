"""The search index (FTS5): derived data, kept by triggers, purged with its source.

`search_turns` (question, answer) is a contentless FTS5 table: the index and no copy of
the text. `search_titles` (a conversation's title, rowid = its id) is a small ordinary
FTS5 table, so renaming or deleting a conversation needs no derived text.
An index row's rowid is its turn's conversation id << 32 | ordinal (unique, and never
renumbered, unlike the turns' own rowids, which VACUUM may change): the newer of two
equally ranked hits (a larger ordinal, or a newer conversation) comes first.

Triggers on `turns` and `conversations` keep the index in the transaction that adds,
changes or deletes a row, whatever code writes it (a send, an import, a fork). They feed
FTS5 the derived text of `core.search.index_text` through an SQL function registered on
every connection of the store (`register`); a contentless table forgets a row only when
given the very text it indexed, which the delete trigger computes again. Turns are never
changed in place (versions append), so only their insert and delete are followed. A
renamed title is indexed as typed by its trigger, and then as derived text by the store
(`reindex_title`): a title changed by another program stays findable by its words.

A delete leaves the deleted row's tokens in the index's segments until they are merged:
`purge` (FTS5 `optimize`) merges them away, in the delete's transaction, and SQLite's
`secure_delete` zeroes the pages they were on.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import peewee

from ..core.search import Snippet, Term, index_text, make_snippet, match_expression, parse_query

FUNCTION = "turnlog_search_text_v1"
FILL_BATCH = 500
Progress = Callable[[int, int], None]
"""(done, total) while the index is filled."""

# Frozen with the schema step that adds the index (migrations.V_SEARCH runs them).
SCHEMA = (
    "CREATE VIRTUAL TABLE \"search_turns\" USING fts5(question, answer, content='', "
    "tokenize='unicode61 remove_diacritics 2')",
    "CREATE VIRTUAL TABLE \"search_titles\" USING fts5(title, "
    "tokenize='unicode61 remove_diacritics 2')",
    'CREATE TRIGGER "search_turn_added" AFTER INSERT ON "turns" BEGIN '
    'INSERT INTO "search_turns" (rowid, question, answer) VALUES '
    "((new.conversation_id << 32) | new.ordinal, turnlog_search_text_v1(new.question), "
    "turnlog_search_text_v1(new.answer)); END",
    'CREATE TRIGGER "search_turn_removed" AFTER DELETE ON "turns" BEGIN '
    'INSERT INTO "search_turns" ("search_turns", rowid, question, answer) VALUES '
    "('delete', (old.conversation_id << 32) | old.ordinal, "
    "turnlog_search_text_v1(old.question), turnlog_search_text_v1(old.answer)); END",
    'CREATE TRIGGER "search_title_added" AFTER INSERT ON "conversations" BEGIN '
    'INSERT INTO "search_titles" (rowid, title) '
    "VALUES (new.id, turnlog_search_text_v1(new.title)); END",
    'CREATE TRIGGER "search_title_removed" AFTER DELETE ON "conversations" BEGIN '
    'DELETE FROM "search_titles" WHERE rowid = old.id; END',
    'CREATE TRIGGER "search_title_changed" AFTER UPDATE OF "title" ON "conversations" BEGIN '
    'DELETE FROM "search_titles" WHERE rowid = old.id; '
    'INSERT INTO "search_titles" (rowid, title) VALUES (new.id, new.title); END',
)
FILL_TURNS = ('INSERT INTO "search_turns" (rowid, question, answer) '
              'SELECT ("conversation_id" << 32) | "ordinal", '
              'turnlog_search_text_v1("question"), turnlog_search_text_v1("answer") '
              'FROM "turns" WHERE rowid > ? AND rowid <= ?')
FILL_TITLES = ('INSERT INTO "search_titles" (rowid, title) '
               'SELECT "id", turnlog_search_text_v1("title") FROM "conversations"')


def _derive(text: object) -> object:
    return index_text(text) if isinstance(text, str) else text


def register(db: peewee.SqliteDatabase) -> None:
    """Make the index's text function known to every connection of `db` (the triggers
    call it; a connection without it cannot add or delete a turn)."""
    db.register_function(_derive, FUNCTION, 1, deterministic=True)


def fill(db: peewee.SqliteDatabase, progress: Progress | None = None) -> None:
    """Index every turn and title already stored (the schema step's data part), in
    batches, reporting (done, total) turns after each; (total, total) once the index is
    merged into one segment."""
    register(db)
    total, last = db.execute_sql('SELECT count(*), max(rowid) FROM "turns"').fetchone()
    done, after = 0, 0
    if progress is not None:
        progress(0, total)
    while after < (last or 0):
        cursor = db.execute_sql(FILL_TURNS, (after, after + FILL_BATCH))
        after += FILL_BATCH
        done = min(total, done + max(cursor.rowcount, 0))
        if progress is not None and done < total:
            progress(done, total)
    db.execute_sql(FILL_TITLES)
    purge(db)  # one segment: the batches left many, and queries read each of them
    if progress is not None and total:
        progress(total, total)


def purge(db: peewee.SqliteDatabase, *, turns: bool = True) -> None:
    """Merge the index's segments so no deleted row's tokens remain in them (FTS5
    `optimize`); `turns=False` only the titles' (a small table)."""
    db.execute_sql("INSERT INTO \"search_titles\" (\"search_titles\") VALUES ('optimize')")
    if turns:
        db.execute_sql("INSERT INTO \"search_turns\" (\"search_turns\") VALUES ('optimize')")


def reindex_title(db: peewee.SqliteDatabase, conversation_id: int) -> None:
    """Index a conversation's title (just renamed) as derived text."""
    db.execute_sql('DELETE FROM "search_titles" WHERE rowid = ?', (conversation_id,))
    db.execute_sql('INSERT INTO "search_titles" (rowid, title) SELECT "id", '
                   'turnlog_search_text_v1("title") FROM "conversations" WHERE "id" = ?',
                   (conversation_id,))


def install(connection: sqlite3.Connection) -> None:
    """The index's text function on a plain `sqlite3` connection (a tool or a test that
    writes turns without the store)."""
    connection.create_function(FUNCTION, 1, _derive, deterministic=True)


def delete_all_turns(db: peewee.SqliteDatabase) -> None:
    """Delete every turn with the index emptied at once (not row by row by the trigger)."""
    db.execute_sql("INSERT INTO \"search_turns\" (\"search_turns\") VALUES ('delete-all')")
    db.execute_sql('DROP TRIGGER "search_turn_removed"')
    db.execute_sql('DELETE FROM "turns"')
    db.execute_sql(next(s for s in SCHEMA if '"search_turn_removed"' in s))


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One result: a turn (or, with `turn_id` None, a conversation's title)."""

    conversation_id: int
    title: str
    turn_id: str | None
    ordinal: int | None
    created_at: datetime | None
    snippet: Snippet
    superseded: bool = False
    # The row that shows the turn: its own ordinal, or its active version's when superseded.
    row_ordinal: int | None = None

    def to_json(self) -> dict[str, object]:
        return {"conversation": self.conversation_id, "title": self.title,
                "turn": self.ordinal, "turn_id": self.turn_id,
                "snippet": self.snippet.marked(), "superseded": self.superseded}


RANK_WINDOW = 5_000
"""At most this many matching turns, the newest, are ranked: bm25 costs a lookup per
row, and a word found in nearly every turn of a large log would take ten times the
first page's time budget to rank in full."""
_TURN_HITS = (
    'SELECT t."id", t."conversation_id", t."ordinal", t."question", t."answer", '
    't."created_at", c."title" FROM (SELECT "key", "score" FROM (SELECT rowid AS "key", '
    'bm25("search_turns") AS "score" FROM "search_turns" WHERE "search_turns" MATCH ? '
    f'ORDER BY rowid DESC LIMIT {RANK_WINDOW}) ORDER BY "score", "key" DESC '
    'LIMIT ? OFFSET ?) AS hit JOIN "turns" t ON t."conversation_id" = hit."key" >> 32 '
    'AND t."ordinal" = hit."key" & 4294967295 JOIN "conversations" c ON c."id" = '
    't."conversation_id" ORDER BY hit."score", hit."key" DESC'
)
_TITLE_HITS = (
    'SELECT c."id", c."title", c."updated_at" FROM "search_titles" s '
    'JOIN "conversations" c ON c."id" = s.rowid WHERE "search_titles" MATCH ? '
    'ORDER BY s.rank, c."updated_at" DESC LIMIT ?'
)


def _when(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def search(db: peewee.SqliteDatabase, query: str, *, limit: int = 20, offset: int = 0,
           titles: bool = True) -> list[SearchHit]:
    """The best `limit` hits for the plain-text `query`: conversations whose title
    matches first (on the first page, `titles`), then turns ranked by bm25, the newest
    first on ties (among the newest `RANK_WINDOW` that match). Nothing to search for
    (`*`, punctuation): no hits."""
    terms = parse_query(query)
    expression = match_expression(terms)
    if expression is None or limit <= 0:
        return []
    hits: list[SearchHit] = []
    if titles and offset == 0:
        for cid, title, updated in db.execute_sql(_TITLE_HITS, (expression, limit)).fetchall():
            hits.append(SearchHit(cid, title, None, None, _when(updated),
                                  make_snippet([title], terms)))
    left = limit - len(hits)
    if left <= 0:
        return hits
    rows = db.execute_sql(_TURN_HITS, (expression, left, offset)).fetchall()
    for turn_id, cid, ordinal, question, answer, created, title in rows:
        hits.append(SearchHit(cid, title, turn_id, ordinal, _when(created),
                              make_snippet([question, answer], terms)))
    return hits


def matching_conversations(db: peewee.SqliteDatabase, terms: list[Term]) -> set[int]:
    """The conversations with a turn or a title matching all of `terms`."""
    expression = match_expression(terms)
    if expression is None:
        return set()
    found = {cid for (cid,) in db.execute_sql(
        'SELECT DISTINCT rowid >> 32 FROM "search_turns" WHERE "search_turns" MATCH ?',
        (expression,)).fetchall()}
    found.update(cid for (cid,) in db.execute_sql(
        'SELECT rowid FROM "search_titles" WHERE "search_titles" MATCH ?', (expression,)))
    return found
