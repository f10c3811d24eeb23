"""An import's turns journaled for sync a batch at a time (`ImportWriter`).

Schema step 21's trigger `sync_turns_added` gives each turn inserted its place (`after_id`)
through a subquery and a journal row, whose own trigger `sync_journal_clock` updates the
clock twice more; and a table with triggers makes each row's insert keep a statement
journal (a temporary file written for every row). Most of an import's time went there.
While the writer is open the trigger is set aside (`trigger_set_aside`, as the search
index's is); the batch's places go in with its rows (`place_before`: the first turn's,
then each turn stands after the one before it) and its journal rows after it in one
statement (`journal_turns`): the same rows in the same order as the trigger writes (each
with its turn's row number, schema step 23), with clock readings that follow its rule (the
clock read once for the block, the counter advanced once per row), so a sync after an
import publishes what it did before.

Three indexes are keyed by random ids (a turn's place, a journal row's id and subject):
each new row lands on a page of its own in them, so once they outgrow SQLite's page cache
every insert reads a page back and spills one (most of what sync added to an import's
time). An import that has written an eighth as many turns as the store held when it began
sets them aside (`RandomIndexes`) and builds them again as it closes, sorted, in one pass:
the same indexes. By then its rows have cost about what building them again does (some
16 µs a turn beside 2 µs a row held, measured at 100,000 turns), so an import costs at
most about twice what the better way, chosen knowing its size, would; a small one into a
large store keeps them as they are.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import peewee

TRIGGER = "sync_turns_added"
BY_RANDOM_IDS = ("turns_after_id", "sync_journal_gid", "sync_journal_subject_hlc")
SHARE_HELD = 8  # an import sets them aside once it has written 1/8 of the rows held
_CLOCK_NOW = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"


def journaling(db: peewee.SqliteDatabase) -> bool:
    """Whether the store journals what changes here (not while applying another machine's)."""
    return not db.execute_sql('SELECT "quiet" FROM "sync_state"').fetchone()[0]


@contextmanager
def trigger_set_aside(db: peewee.SqliteDatabase) -> Iterator[None]:
    """Within the caller's transaction: turns inserted meanwhile get neither a place nor a
    journal row from the trigger (the caller gives both); the trigger is back after, as the
    schema has it, or the transaction's rollback restores it."""
    (statement,) = db.execute_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?",
        (TRIGGER,)).fetchone()
    db.execute_sql(f'DROP TRIGGER "{TRIGGER}"')
    yield
    db.execute_sql(statement)


def place_before(db: peewee.SqliteDatabase, conversation_id: int, ordinal: int) -> str | None:
    """The place (`after_id`) of a new turn at `ordinal`: the first turn of the version
    group that stands before it (its latest supersede record does not replace it), as the
    trigger finds it; None: it is the first."""
    found = db.execute_sql(
        'SELECT coalesce(p."version_of", p."id") FROM "turns" p WHERE p."conversation_id" = ? '
        'AND p."ordinal" < ? AND coalesce((SELECT s."turn_id" = p."id" FROM "supersedes" s '
        'WHERE s."turn_id" = p."id" OR s."by_turn_id" = p."id" ORDER BY s."id" DESC LIMIT 1), '
        '0) = 0 ORDER BY p."ordinal" DESC LIMIT 1', (conversation_id, ordinal)).fetchone()
    return found[0] if found else None


def journal_turns(db: peewee.SqliteDatabase, conversation_id: int,
                  turn_ids: Sequence[str]) -> None:
    """A journal row for each of `turn_ids` (new turns of the conversation, in the order
    written), each with its clock reading: the clock read once, then as the trigger
    advances it per row (a reading later than the last one starts the counter at 0, else
    the counter goes up by one)."""
    if not turn_ids:
        return
    phys, counter, node, now, conv = db.execute_sql(
        f'SELECT "phys", "counter", "node", {_CLOCK_NOW}, (SELECT "gid" FROM "conversations" '
        'WHERE "id" = ?) FROM "sync_state"', (conversation_id,)).fetchone()
    first = 0 if now > phys else counter + 1  # the first row's counter, then one more a row
    phys = max(phys, now)
    db.execute_sql(
        'INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value", "hlc", '
        '"turn_row") SELECT \'turn\', j.value, ?, j.value, NULL, printf(\'%013d-%06d-%s\', ?, '
        '? + j.key, ?), (SELECT t."rowid" FROM "turns" t WHERE t."id" = j.value) FROM '
        "json_each(?) j ORDER BY j.key", (conv, phys, first, node, json.dumps(list(turn_ids))))
    db.execute_sql('UPDATE "sync_state" SET "phys" = ?, "counter" = ?',
                   (phys, first + len(turn_ids) - 1))


class RandomIndexes:
    """The indexes keyed by random ids, set aside within the caller's transaction once an
    import is large beside the store (`make_room`), and built again (`restore`) by their
    schema's own statements. A rollback (the import's, or a conversation's savepoint)
    brings back whatever it undoes."""

    def __init__(self, db: peewee.SqliteDatabase, *, at_least: int) -> None:
        self.db = db
        (held,) = db.execute_sql(
            'SELECT max(coalesce((SELECT max("seq") FROM "sync_journal"), 0), '
            'coalesce((SELECT max(rowid) FROM "turns"), 0))').fetchone()
        self.threshold = max(int(held) // SHARE_HELD, at_least)  # turns written first
        self.statements: dict[str, str] = {}

    def _present(self) -> list[tuple[str, str]]:
        return self.db.execute_sql(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name IN "
            f"({', '.join('?' * len(BY_RANDOM_IDS))})", BY_RANDOM_IDS).fetchall()

    def make_room(self, written: int) -> None:
        """Before a batch, `written` turns into the import: set the indexes aside once it
        has written its share of what the store held (again, if a savepoint's rollback
        brought them back)."""
        if written < self.threshold:
            return
        for name, statement in self._present():
            self.statements[name] = statement
            self.db.execute_sql(f'DROP INDEX "{name}"')

    def restore(self) -> None:
        """The indexes set aside, built again as the schema has them."""
        present = {name for name, _statement in self._present()}
        for name, statement in self.statements.items():
            if name not in present:
                self.db.execute_sql(statement)
        self.statements.clear()
