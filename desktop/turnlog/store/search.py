"""The search index (FTS5): derived data, kept by triggers, purged with its source.

Two contentless FTS5 tables hold the index and no copy of the text: `search_turns`
(question, answer) and `search_titles` (a conversation's title, rowid = its id).
`search_keys` maps an index row to its turn; its own integer key (not the turn's rowid,
which VACUUM may renumber) is the index's rowid, in the order turns were added, so the
newest comes first among equally ranked hits.

Triggers on `turns` and `conversations` keep the index in the transaction that adds,
changes or deletes a row, whatever code writes it (a send, an import, a fork). They feed
FTS5 the derived text of `core.search.index_text` through an SQL function registered on
every connection of the store (`register`); a contentless table forgets a row only when
given the very text it indexed, which the delete triggers compute again.

A delete leaves the deleted row's tokens in the index's segments until they are merged:
`purge` (FTS5 `optimize`) merges them away, in the delete's transaction, and SQLite's
`secure_delete` zeroes the pages they were on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import peewee

from ..core.search import Snippet, Term, index_text, make_snippet, match_expression, parse_query

FUNCTION = "turnlog_search_text_v1"
FILL_BATCH = 2_000
Progress = Callable[[int, int], None]
"""(done, total) while the index is filled."""

# Frozen with the schema step that adds the index (migrations.V_SEARCH runs them).
SCHEMA = (
    'CREATE TABLE "search_keys" ("id" INTEGER NOT NULL PRIMARY KEY, '
    '"turn_id" TEXT NOT NULL, "conversation_id" INTEGER NOT NULL)',
    'CREATE UNIQUE INDEX "search_keys_turn_id" ON "search_keys" ("turn_id")',
    "CREATE VIRTUAL TABLE \"search_turns\" USING fts5(question, answer, content='', "
    "prefix='1', tokenize='unicode61 remove_diacritics 2')",
    "CREATE VIRTUAL TABLE \"search_titles\" USING fts5(title, content='', "
    "prefix='1', tokenize='unicode61 remove_diacritics 2')",
    'CREATE TRIGGER "search_turn_added" AFTER INSERT ON "turns" BEGIN '
    'INSERT INTO "search_keys" ("turn_id", "conversation_id") '
    "VALUES (new.id, new.conversation_id); "
    'INSERT INTO "search_turns" (rowid, question, answer) '
    'SELECT "id", turnlog_search_text_v1(new.question), turnlog_search_text_v1(new.answer) '
    'FROM "search_keys" WHERE "turn_id" = new.id; END',
    'CREATE TRIGGER "search_turn_removed" AFTER DELETE ON "turns" BEGIN '
    'INSERT INTO "search_turns" ("search_turns", rowid, question, answer) '
    "SELECT 'delete', \"id\", turnlog_search_text_v1(old.question), "
    'turnlog_search_text_v1(old.answer) FROM "search_keys" WHERE "turn_id" = old.id; '
    'DELETE FROM "search_keys" WHERE "turn_id" = old.id; END',
    'CREATE TRIGGER "search_turn_changed" AFTER UPDATE OF "question", "answer" ON "turns" '
    'BEGIN INSERT INTO "search_turns" ("search_turns", rowid, question, answer) '
    "SELECT 'delete', \"id\", turnlog_search_text_v1(old.question), "
    'turnlog_search_text_v1(old.answer) FROM "search_keys" WHERE "turn_id" = old.id; '
    'INSERT INTO "search_turns" (rowid, question, answer) '
    'SELECT "id", turnlog_search_text_v1(new.question), turnlog_search_text_v1(new.answer) '
    'FROM "search_keys" WHERE "turn_id" = new.id; END',
    'CREATE TRIGGER "search_title_added" AFTER INSERT ON "conversations" BEGIN '
    'INSERT INTO "search_titles" (rowid, title) '
    "VALUES (new.id, turnlog_search_text_v1(new.title)); END",
    'CREATE TRIGGER "search_title_removed" AFTER DELETE ON "conversations" BEGIN '
    "INSERT INTO \"search_titles\" (\"search_titles\", rowid, title) "
    "VALUES ('delete', old.id, turnlog_search_text_v1(old.title)); END",
    'CREATE TRIGGER "search_title_changed" AFTER UPDATE OF "title" ON "conversations" BEGIN '
    "INSERT INTO \"search_titles\" (\"search_titles\", rowid, title) "
    "VALUES ('delete', old.id, turnlog_search_text_v1(old.title)); "
    'INSERT INTO "search_titles" (rowid, title) '
    "VALUES (new.id, turnlog_search_text_v1(new.title)); END",
)
FILL_KEYS = ('INSERT INTO "search_keys" ("turn_id", "conversation_id") '
             'SELECT "id", "conversation_id" FROM "turns" '
             'ORDER BY "created_at", "conversation_id", "ordinal"')
FILL_TURNS = ('INSERT INTO "search_turns" (rowid, question, answer) '
              'SELECT k."id", turnlog_search_text_v1(t."question"), '
              'turnlog_search_text_v1(t."answer") FROM "search_keys" k '
              'JOIN "turns" t ON t."id" = k."turn_id" WHERE k."id" > ? AND k."id" <= ?')
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
    batches, reporting (done, total) turns after each."""
    register(db)
    db.execute_sql(FILL_KEYS)
    total = int(db.execute_sql('SELECT count(*) FROM "search_keys"').fetchone()[0])
    done = 0
    if progress is not None:
        progress(0, total)
    while done < total:
        db.execute_sql(FILL_TURNS, (done, done + FILL_BATCH))
        done = min(total, done + FILL_BATCH)
        if progress is not None:
            progress(done, total)
    db.execute_sql(FILL_TITLES)


def purge(db: peewee.SqliteDatabase, *, turns: bool = True) -> None:
    """Merge the index's segments so no deleted row's tokens remain in them (FTS5
    `optimize`); `turns=False` only the titles' (a small table)."""
    db.execute_sql("INSERT INTO \"search_titles\" (\"search_titles\") VALUES ('optimize')")
    if turns:
        db.execute_sql("INSERT INTO \"search_turns\" (\"search_turns\") VALUES ('optimize')")


def forget_all_turns(db: peewee.SqliteDatabase) -> None:
    """Empty the turns' index at once, before every turn is deleted (the delete trigger
    then finds no key to remove one by one)."""
    db.execute_sql("INSERT INTO \"search_turns\" (\"search_turns\") VALUES ('delete-all')")
    db.execute_sql('DELETE FROM "search_keys"')


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

    def to_json(self) -> dict[str, object]:
        return {"conversation": self.conversation_id, "title": self.title,
                "turn": self.ordinal, "turn_id": self.turn_id,
                "snippet": self.snippet.marked(), "superseded": self.superseded}


_TURN_HITS = (
    'SELECT k."turn_id", k."conversation_id", t."ordinal", t."question", t."answer", '
    't."created_at", c."title" FROM (SELECT rowid AS "key", rank AS "score" '
    'FROM "search_turns" WHERE "search_turns" MATCH ? ORDER BY rank, rowid DESC '
    'LIMIT ? OFFSET ?) AS hit JOIN "search_keys" k ON k."id" = hit."key" '
    'JOIN "turns" t ON t."id" = k."turn_id" JOIN "conversations" c ON c."id" = k."conversation_id" '
    'ORDER BY hit."score", hit."key" DESC'
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
    first on ties. Nothing to search for (`*`, punctuation): no hits."""
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
        'SELECT DISTINCT k."conversation_id" FROM "search_turns" f JOIN "search_keys" k '
        'ON k."id" = f.rowid WHERE "search_turns" MATCH ?', (expression,)).fetchall()}
    found.update(cid for (cid,) in db.execute_sql(
        'SELECT rowid FROM "search_titles" WHERE "search_titles" MATCH ?', (expression,)))
    return found
