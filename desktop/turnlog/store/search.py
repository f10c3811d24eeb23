"""The search index (FTS5): derived data, kept by triggers, purged with its source.

The turns' index is split into `PARTS` contentless FTS5 tables (`search_part_N`: the index
and no copy of the text), each taking blocks of `BLOCK` turns in the order they are
indexed (`search_fill` counts them; `search_keys` says which part holds each turn). A
delete must leave no token of the deleted text in the index's pages, and SQLite 3.40's
FTS5 forgets one only by rewriting the segments holding it (`optimize`): with one table,
deleting one turn of 100,000 rewrote all of the index (seconds); with parts, only the
part that held it (`search_dirty` names it until `purge` has merged it, in the delete's
transaction), and SQLite's `secure_delete` zeroes the pages its old segments were on. A
log of up to `BLOCK` turns is one part, ranked exactly as one index; beyond that each
part's bm25 reads its own statistics (of thousands of turns: close to the whole's).
`search_titles` (a conversation's title, rowid = its id) is a small ordinary FTS5 table,
so renaming or deleting a conversation needs no derived text.

An index row's rowid is its turn's conversation id << 32 | ordinal (unique, and never
renumbered, unlike the turns' own rowids, which VACUUM may change): the newer of two
equally ranked hits (a larger ordinal, or a newer conversation) comes first.

Triggers on `turns` and `conversations` keep the index in the transaction that adds or
deletes a row, whatever code writes it (a send, an import, a fork). They feed FTS5 the
derived text of `core.search.index_text` through an SQL function registered on every
connection of the store (`register`); a contentless table forgets a row only when given
the very text it indexed, which the delete trigger computes again. Turns are never
changed in place (versions append), so only their insert and delete are followed. An
import writes many turns with the insert trigger set aside and indexes them itself in
batches (`bulk_index`), in its transaction. A renamed title is indexed as typed by its
trigger, and then as derived text by the store (`reindex_title`): a title changed by
another program stays findable by its words.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import cache, lru_cache

import peewee

from ..system.lazy import LazyModule

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from ..core.search import Snippet, Term

# The query language and the index's text, loaded by the first search or write: opening
# the store to read a conversation needs neither.
rules = LazyModule("turnlog.core.search")

FUNCTION = "turnlog_search_text_v1"
FILL_BATCH = 500
PARTS = 32
BLOCK = 4096
"""The index's parts, and how many turns in a row (in the order indexed) each takes
(written out in the triggers: `>> 12`, `& 31`)."""
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


# The first index, as released (`SCHEMA`, `fill`), is replaced by parts (`PARTS_SCHEMA`,
# `fill_parts`: migrations.V_SEARCH_PARTS). Frozen with that schema step.
_KEY = "((new.conversation_id << 32) | new.ordinal)"
_OLD_KEY = "((old.conversation_id << 32) | old.ordinal)"
_PART_OF_ADDED = '(("added" - 1) >> 12) & 31'  # the part of the turn just counted
PART_TABLE = ('CREATE VIRTUAL TABLE "search_part_{n}" USING fts5(question, answer, '
              "content='', tokenize='unicode61 remove_diacritics 2')")
PART_ADDED_TRIGGER = (
    'CREATE TRIGGER "search_turn_indexed" AFTER INSERT ON "turns" BEGIN '
    'UPDATE "search_fill" SET "added" = "added" + 1; '
    f'INSERT INTO "search_keys" ("key", "part") SELECT {_KEY}, {_PART_OF_ADDED} '
    'FROM "search_fill"; '
    + " ".join(
        f'INSERT INTO "search_part_{n}" (rowid, question, answer) SELECT {_KEY}, '
        "turnlog_search_text_v1(new.question), turnlog_search_text_v1(new.answer) "
        f'FROM "search_fill" WHERE {_PART_OF_ADDED} = {n};' for n in range(32))
    + " END")
PART_REMOVED_TRIGGER = (
    'CREATE TRIGGER "search_turn_unindexed" AFTER DELETE ON "turns" BEGIN '
    + " ".join(
        f'INSERT INTO "search_part_{n}" ("search_part_{n}", rowid, question, answer) '
        "SELECT 'delete', \"key\", turnlog_search_text_v1(old.question), "
        'turnlog_search_text_v1(old.answer) FROM "search_keys" '
        f'WHERE "key" = {_OLD_KEY} AND "part" = {n};' for n in range(32))
    + ' INSERT OR IGNORE INTO "search_dirty" ("part") SELECT "part" FROM "search_keys" '
    f'WHERE "key" = {_OLD_KEY}; '
    f'DELETE FROM "search_keys" WHERE "key" = {_OLD_KEY}; END')
PARTS_SCHEMA = (
    'DROP TRIGGER "search_turn_added"',
    'DROP TRIGGER "search_turn_removed"',
    'DROP TABLE "search_turns"',
    *(PART_TABLE.format(n=n) for n in range(32)),
    'CREATE TABLE "search_keys" ("key" INTEGER NOT NULL PRIMARY KEY, '
    '"part" INTEGER NOT NULL)',
    'CREATE TABLE "search_fill" ("id" INTEGER NOT NULL PRIMARY KEY, '
    '"added" INTEGER NOT NULL)',
    'INSERT INTO "search_fill" ("id", "added") VALUES (1, 0)',
    'CREATE TABLE "search_dirty" ("part" INTEGER NOT NULL PRIMARY KEY)',
    PART_ADDED_TRIGGER,
    PART_REMOVED_TRIGGER,
)
BULK_BATCH = 2_000


def _derive(text: object) -> object:
    return rules.index_text(text) if isinstance(text, str) else text


def register(db: peewee.SqliteDatabase) -> None:
    """Make the index's text function known to every connection of `db` (the triggers
    call it; a connection without it cannot add or delete a turn)."""
    db.register_function(_derive, FUNCTION, 1, deterministic=True)


def fill(db: peewee.SqliteDatabase, progress: Progress | None = None) -> None:
    """Index every turn and title already stored (the first index's schema step), in
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
    # One segment: the batches left many, and queries read each of them.
    for table in ("search_titles", "search_turns"):
        _optimize(db, table)
    if progress is not None and total:
        progress(total, total)


def fill_parts(db: peewee.SqliteDatabase, progress: Progress | None = None) -> None:
    """Index every turn already stored into the parts (the titles stay as indexed), in
    batches, reporting (done, total) turns; (total, total) once each part is one
    segment."""
    (total,) = db.execute_sql('SELECT count(*) FROM "turns"').fetchone()
    if progress is not None:
        progress(0, total)
    cursor = db.cursor()  # its own cursor: the index's inserts run on others meanwhile
    cursor.execute('SELECT ("conversation_id" << 32) | "ordinal", "question", "answer" '
                   'FROM "turns" ORDER BY "conversation_id", "ordinal"')
    done = 0
    while rows := cursor.fetchmany(BULK_BATCH):
        bulk_index(db, rows)
        done += len(rows)
        if progress is not None and done < total:
            progress(done, total)
    for part in range(parts_in_use(db)):
        _optimize(db, f"search_part_{part}")
    if progress is not None and total:
        progress(total, total)


def parts_in_use(db: peewee.SqliteDatabase) -> int:
    """How many parts hold turns: they are filled in order, a block at a time."""
    (added,) = db.execute_sql('SELECT "added" FROM "search_fill"').fetchone()
    return min(PARTS, -(-int(added) // BLOCK))


def bulk_index(db: peewee.SqliteDatabase, rows: Sequence[tuple[int, str, str]]) -> None:
    """Index turns written with the insert trigger set aside (`triggers_set_aside`):
    (key, question, answer) each, placed in the parts as the trigger would place them."""
    (added,) = db.execute_sql('SELECT "added" FROM "search_fill"').fetchone()
    by_part: dict[int, list[tuple[int, str, str]]] = {}
    keys: list[tuple[int, int]] = []
    index_text = rules.index_text  # looked up once, not twice a turn
    for number, (key, question, answer) in enumerate(rows, start=int(added)):
        part = (number // BLOCK) % PARTS
        by_part.setdefault(part, []).append((key, index_text(question), index_text(answer)))
        keys.append((key, part))
    cursor = db.cursor()
    cursor.executemany('INSERT INTO "search_keys" ("key", "part") VALUES (?, ?)', keys)
    for part, items in by_part.items():
        cursor.executemany(f'INSERT INTO "search_part_{part}" (rowid, question, answer) '
                           "VALUES (?, ?, ?)", items)
    db.execute_sql('UPDATE "search_fill" SET "added" = "added" + ?', (len(keys),))


@contextmanager
def triggers_set_aside(db: peewee.SqliteDatabase) -> Iterator[None]:
    """Within the caller's transaction: turns inserted meanwhile are not indexed by the
    trigger (the caller indexes them with `bulk_index`); the trigger is back after,
    or the transaction's rollback restores it."""
    db.execute_sql('DROP TRIGGER "search_turn_indexed"')
    yield
    db.execute_sql(PART_ADDED_TRIGGER)


def _optimize(db: peewee.SqliteDatabase, table: str) -> None:
    db.execute_sql(f"INSERT INTO \"{table}\" (\"{table}\") VALUES ('optimize')")


def purge(db: peewee.SqliteDatabase, *, turns: bool = True) -> None:
    """Merge the segments of the index's tables that a delete touched, so no deleted
    row's tokens remain in them (FTS5 `optimize`): the titles', and (`turns`) the parts
    that held a deleted turn."""
    _optimize(db, "search_titles")
    if turns:
        for (part,) in db.execute_sql('SELECT "part" FROM "search_dirty"').fetchall():
            _optimize(db, f"search_part_{int(part)}")
        db.execute_sql('DELETE FROM "search_dirty"')


def unreadable(err: BaseException) -> bool:
    """Whether a delete failed because the index's text function could not be given a
    deleted turn's text: it is not valid UTF-8 (written into the file by something else,
    or damage), so the text the index holds for it cannot be derived again."""
    return (isinstance(err, (sqlite3.OperationalError, peewee.OperationalError))
            and "user-defined function raised exception" in str(err))


_GONE = ('FROM "search_keys" WHERE "key" NOT IN '
         '(SELECT ("conversation_id" << 32) | "ordinal" FROM "turns")')


@contextmanager
def deleting_unreadable(db: peewee.SqliteDatabase) -> Iterator[None]:
    """Within the caller's transaction: turns deleted meanwhile are not forgotten one by
    one by the trigger (which cannot read a damaged turn's text); after, every part that
    held one is emptied and indexed again from the turns that remain, and merged, so none
    of the deleted text stays in the index."""
    db.execute_sql('DROP TRIGGER "search_turn_unindexed"')
    yield
    parts = [int(part) for (part,) in db.execute_sql(f'SELECT DISTINCT "part" {_GONE}')]
    db.execute_sql(f"DELETE {_GONE}")
    for part in parts:
        _reindex_part(db, part)
    db.execute_sql(PART_REMOVED_TRIGGER)


def _reindex_part(db: peewee.SqliteDatabase, part: int) -> None:
    """Empty one part and index again the turns it holds (as bytes: a damaged turn's text
    is indexed with its unreadable bytes replaced, so deleting it later is no harder)."""
    table = f"search_part_{part}"
    db.execute_sql(f"INSERT INTO \"{table}\" (\"{table}\") VALUES ('delete-all')")
    cursor = db.cursor()  # its own cursor: the inserts run on another meanwhile
    cursor.execute('SELECT k."key", CAST(t."question" AS BLOB), CAST(t."answer" AS BLOB) '
                   'FROM "search_keys" k JOIN "turns" t ON t."conversation_id" = k."key" >> 32 '
                   'AND t."ordinal" = k."key" & 4294967295 WHERE k."part" = ?', (part,))
    while rows := cursor.fetchmany(BULK_BATCH):
        db.cursor().executemany(
            f'INSERT INTO "{table}" (rowid, question, answer) VALUES (?, ?, ?)',
            [(key, _readable(question), _readable(answer)) for key, question, answer in rows])
    _optimize(db, table)


def _readable(raw: bytes | None) -> str:
    return rules.index_text(bytes(raw or b"").decode("utf-8", errors="replace"))


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
    for part in range(PARTS):
        db.execute_sql(f"INSERT INTO \"search_part_{part}\" (\"search_part_{part}\") "
                       "VALUES ('delete-all')")
    db.execute_sql('DELETE FROM "search_keys"')
    db.execute_sql('DELETE FROM "search_dirty"')
    db.execute_sql('UPDATE "search_fill" SET "added" = 0')
    db.execute_sql('DROP TRIGGER "search_turn_unindexed"')
    db.execute_sql('DELETE FROM "turns"')
    db.execute_sql(PART_REMOVED_TRIGGER)


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
    # The turn's number as every surface shows it (`core.numbers`); None for a title.
    number: int | None = None

    @property
    def shown_number(self) -> int | None:
        return self.ordinal if self.number is None else self.number

    def to_json(self) -> dict[str, object]:
        return {"conversation": self.conversation_id, "title": self.title,
                "turn": self.shown_number, "turn_id": self.turn_id,
                "snippet": self.snippet.marked(), "superseded": self.superseded}


RANK_WINDOW = 5_000
"""At most this many matching turns, the newest, are ranked: bm25 costs a lookup per
row, and a word found in nearly every turn of a large log would take ten times the
first page's time budget to rank in full."""
COUNT_CAP = 10_000
"""Matching turns are counted up to this many; more is said as "more than" it (a word in
nearly every turn of a large log would otherwise be counted one by one)."""
_OLDEST = -(1 << 63)  # below every key: a rank over every match


def _each_part(select: str, parts: Iterable[int]) -> str:
    """`select` (its table written `{t}`) over each of `parts`."""
    return " UNION ALL ".join(select.format(t=f'"search_part_{n}"') for n in parts)


Scope = tuple[int, int, int]
"""A folder's id, and the lowest and highest key its conversations' turns can have."""


def _in_folder(at: int) -> str:
    """A turn's key in a conversation of the folder given as parameter ?`at`, between
    the keys ?`at + 1` and ?`at + 2` (one range FTS5 reads alone: a small folder's
    matches of a word found everywhere are read, not all of them)."""
    return (f' AND rowid BETWEEN ?{at + 1} AND ?{at + 2} AND (rowid >> 32) IN '
            f'(SELECT "id" FROM "conversations" WHERE "folder_id" = ?{at})')


def _with_folder(args: tuple[object, ...], scope: Scope | None) -> tuple[object, ...]:
    return args if scope is None else (*args, *scope)


def _scope(db: peewee.SqliteDatabase, folder: int | None) -> Scope | None:
    if folder is None:
        return None
    low, high = db.execute_sql('SELECT min("id"), max("id") FROM "conversations" WHERE '
                               '"folder_id" = ?', (folder,)).fetchone()
    if low is None:  # an empty folder: a range nothing is in
        return folder, 1, 0
    return folder, int(low) << 32, (int(high) << 32) | 0xFFFFFFFF


@cache
def _newest_keys(part: int, folder: bool = False) -> str:
    return (f'SELECT rowid FROM "search_part_{part}" WHERE "search_part_{part}" MATCH ?1'
            + (_in_folder(3) if folder else "") + " ORDER BY rowid DESC LIMIT ?2")


@cache
def _newest_first(parts: int) -> str:
    """The newest key each of the first `parts` parts holds (None: it holds none), as the
    rowids of its row lengths (FTS5's `_docsize`, a B-tree lookup, no match read)."""
    return " UNION ALL ".join(f'SELECT {n}, (SELECT max("id") FROM "search_part_{n}_docsize")'
                              for n in range(parts))


def _window(db: peewee.SqliteDatabase, terms: list[Term], expression: str,
            scope: Scope | None = None) -> tuple[tuple[int, ...], int]:
    """The parts holding the newest `RANK_WINDOW` turns that match `expression` (of
    `terms`; in a folder's conversations, `scope`), and the oldest key among them
    (`_OLDEST` when no more match: all are ranked)."""
    parts = parts_in_use(db)
    if not parts:
        return (), _OLDEST
    if _few(db, terms, expression, parts, scope):
        return tuple(range(parts)), _OLDEST
    return _newest_parts(db, expression, parts, scope)


WORD_TRIES = 3


def _few(db: peewee.SqliteDatabase, terms: list[Term], expression: str, parts: int,
         scope: Scope | None = None) -> bool:
    """Whether at most `RANK_WINDOW` turns match: said by one of the query's first
    `WORD_TRIES` words that few turns hold (every match holds each of its words, and a
    word's turns are counted faster than a phrase's), else by counting the matches. Each
    count stops at one more than the window."""
    words = [rules.Term((token,), term.prefix and at == len(term.tokens) - 1)
             for term in terms for at, token in enumerate(term.tokens)]
    tries = [word.fts() for word in words[:WORD_TRIES]] if len(words) > 1 else []
    for counted in (*tries, expression):
        (many,) = db.execute_sql(_counted(parts, scope is not None),
                                 _with_folder((counted, RANK_WINDOW + 1), scope)).fetchone()
        if many <= RANK_WINDOW:
            return True
    return False


def _newest_parts(db: peewee.SqliteDatabase, expression: str, parts: int,
                  scope: Scope | None = None) -> tuple[tuple[int, ...], int]:
    """`_window` when more than `RANK_WINDOW` match: parts are read newest key first, each
    only up to `RANK_WINDOW` of its keys (FTS5 reads a doclist backwards), and not at all
    once the window holds that many keys newer than any the part holds, so a word in
    nearly every turn reads a part or two, never all of its matches."""
    window = RANK_WINDOW
    newest = sorted(((top, part) for part, top in db.execute_sql(_newest_first(parts))
                     if top is not None), reverse=True)
    keys: list[int] = []  # newest first, at most `window`
    tops: dict[int, int] = {}  # the newest match of each part read that holds one
    for top, part in newest:
        if len(keys) >= window and keys[window - 1] > top:
            break
        found = [key for (key,) in db.execute_sql(_newest_keys(part, scope is not None),
                                                  _with_folder((expression, window), scope))]
        if found:
            tops[part] = found[0]
            # Two runs, each newest first: sorting them is a merge.
            keys = sorted(keys + found, reverse=True)[:window]
    edge = keys[-1] if len(keys) >= window else _OLDEST  # fewer: deleted since counted
    return tuple(sorted(part for part, top in tops.items() if top >= edge)), edge


_PAGE = (
    'SELECT t."id", t."conversation_id", t."ordinal", t."question", t."answer", '
    't."created_at", c."title" FROM (SELECT "key", "score" FROM ({}) '
    'ORDER BY "score", "key" DESC LIMIT ?3 OFFSET ?4) AS hit JOIN "turns" t ON '
    't."conversation_id" = hit."key" >> 32 AND t."ordinal" = hit."key" & 4294967295 '
    'JOIN "conversations" c ON c."id" = t."conversation_id" '
    'ORDER BY hit."score", hit."key" DESC')
_RANKED = ('SELECT rowid AS "key", bm25({t}) AS "score" FROM {t} WHERE {t} MATCH ?1 '
           'AND rowid >= ?2')


@lru_cache(maxsize=64)  # sets of parts: many in a long session over an interleaved log
def _ranked_page(parts: tuple[int, ...], folder: bool = False) -> str:
    """A page of the matches from key ?2 on in `parts` (in folder ?5's conversations,
    keys ?6 to ?7),
    ranked (each part's bm25 reads its own statistics), the newest first on ties, with
    each one's turn and title."""
    return _PAGE.format(_each_part(_RANKED + (_in_folder(5) if folder else ""), parts))


_TITLE_HITS = (
    'SELECT c."id", c."title", c."updated_at" FROM "search_titles" s '
    'JOIN "conversations" c ON c."id" = s.rowid WHERE "search_titles" MATCH ? '
    'ORDER BY s.rank, c."updated_at" DESC LIMIT ?'
)
_FOLDER_TITLE_HITS = (
    'SELECT c."id", c."title", c."updated_at" FROM "search_titles" s '
    'JOIN "conversations" c ON c."id" = s.rowid WHERE "search_titles" MATCH ?1 '
    'AND c."folder_id" = ?3 ORDER BY s.rank, c."updated_at" DESC LIMIT ?2'
)


def _when(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def search(db: peewee.SqliteDatabase, query: str, *, limit: int = 20, offset: int = 0,
           titles: bool = True, folder: int | None = None) -> list[SearchHit]:
    """The best `limit` hits for the plain-text `query`: conversations whose title
    matches first (on the first page, `titles`), then turns ranked by bm25, the newest
    first on ties (among the newest `RANK_WINDOW` that match). Only that window is read
    and ranked, and only `limit` rows leave SQLite. Nothing to search for (`*`,
    punctuation): no hits. `folder`: only the conversations in that folder."""
    terms = rules.parse_query(query)
    expression = rules.match_expression(terms)
    if expression is None or limit <= 0:
        return []
    hits: list[SearchHit] = []
    marks = rules.highlighter(terms)
    if titles and offset == 0:
        titled = _TITLE_HITS if folder is None else _FOLDER_TITLE_HITS
        for cid, title, updated in db.execute_sql(
                titled, (expression, limit) + (() if folder is None else (folder,))).fetchall():
            hits.append(SearchHit(cid, title, None, None, _when(updated),
                                  rules.make_snippet([title], terms, pattern=marks)))
    left = limit - len(hits)
    if left <= 0:
        return hits
    scope = _scope(db, folder)
    parts, edge = _window(db, terms, expression, scope)
    if not parts:
        return hits
    rows = db.execute_sql(_ranked_page(parts, scope is not None),
                          _with_folder((expression, edge, left, offset), scope)).fetchall()
    for turn_id, cid, ordinal, question, answer, created, title in rows:
        hits.append(SearchHit(cid, title, turn_id, ordinal, _when(created),
                              rules.make_snippet([question, answer], terms, pattern=marks),
                              row_ordinal=ordinal))
    return hits


@dataclass(frozen=True, slots=True)
class MatchCount:
    """How many titles and turns match a query: turns counted up to `COUNT_CAP`, `more`
    saying that more match than that."""

    titles: int
    turns: int
    more: bool = False

    @property
    def total(self) -> int:
        return self.titles + self.turns


def count(db: peewee.SqliteDatabase, query: str, folder: int | None = None) -> MatchCount:
    """How many titles and how many turns match the plain-text `query` (ranked or not;
    in `folder`'s conversations, when given): the total a list of hits says it pages
    through, turns counted up to `COUNT_CAP`."""
    expression = rules.match_expression(rules.parse_query(query))
    if expression is None:
        return MatchCount(0, 0)
    (titles,) = db.execute_sql(
        'SELECT count(*) FROM "search_titles" WHERE "search_titles" MATCH ?1'
        + (' AND rowid IN (SELECT "id" FROM "conversations" WHERE "folder_id" = ?2)'
           if folder is not None else ""),
        (expression,) + (() if folder is None else (folder,))).fetchone()
    parts = parts_in_use(db)
    if not parts:
        return MatchCount(int(titles), 0)
    scope = _scope(db, folder)
    (turns,) = db.execute_sql(_counted(parts, scope is not None),
                              _with_folder((expression, COUNT_CAP + 1), scope)).fetchone()
    return MatchCount(int(titles), min(int(turns), COUNT_CAP), int(turns) > COUNT_CAP)


@cache
def _counted(parts: int, folder: bool = False) -> str:
    """Counts up to ?2 matches (in folder ?3's conversations, keys ?4 to ?5): the parts are
    read one after another until that many."""
    return ('SELECT count(*) FROM (SELECT 1 FROM (' + _each_part(
        'SELECT rowid FROM {t} WHERE {t} MATCH ?1' + (_in_folder(3) if folder else ""),
        range(parts)) + ") LIMIT ?2)")


@cache
def _conversations_found(parts: int) -> str:
    return ('SELECT DISTINCT "key" >> 32 FROM (' + _each_part(
        'SELECT rowid AS "key" FROM {t} WHERE {t} MATCH ?1', range(parts)) + ")")


def matching_conversations(db: peewee.SqliteDatabase, terms: list[Term]) -> set[int]:
    """The conversations with a turn or a title matching all of `terms`."""
    expression = rules.match_expression(terms)
    if expression is None:
        return set()
    found: set[int] = set()
    parts = parts_in_use(db)
    if parts:
        found.update(cid for (cid,) in db.execute_sql(_conversations_found(parts),
                                                       (expression,)))
    found.update(cid for (cid,) in db.execute_sql(
        'SELECT rowid FROM "search_titles" WHERE "search_titles" MATCH ?', (expression,)))
    return found
