"""`store.sync_feed`: the store's side of sync: this machine's change records for other
machines (`outgoing`), applying theirs by the stated rules (`incoming`, sync_apply.py),
the ids deletes everywhere removed (`deleted`), and deletes with a scope.

What changed here is journaled by SQLite triggers on the synced tables (schema step
V_SYNC) rather than by each writer: every path that writes those tables (a send, an
import, a fork, the window, the command line) is covered without being touched, and a
write made while another machine's records are applied is told apart by
`sync_state.quiet`, set and cleared inside the applying transaction (files a later
import adds to a stored turn are journaled by that import: `attachments.journal_added`,
no trigger telling them from a turn's own). Each journal row
carries a hybrid logical clock reading ("<ms:13>-<counter:6>-<node id>", sorting in clock
order; the trigger keeps it ahead of every reading this machine has seen), so a machine
whose wall clock runs ahead wins only until the others have read it.

Records are built from the journal when asked, from the rows as they are then (a turn's
text is never copied into the journal); a conversation's field changes keep their values
there: the conversation's history of changes (`history`).
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import peewee

from . import attachments, deletion, sync_apply, sync_derived, titles, versions
from .database import Database
from .errors import NotFound, SyncRecordInvalid
from .sync_records import (
    FILE_FIELDS,
    FORMAT,
    NODE,
    ROW_KINDS,
    TURN_COLUMNS,
    Outgoing,
    OutgoingPage,
    TurnColumns,
    carried_ids,
    check,
    needs_reading,
    refuse,
)

if TYPE_CHECKING:
    from .privacy import ConversationsDeleted, Privacy, TurnsDeleted
    from .turns import Turns

log = logging.getLogger(__name__)

FILE_COLUMNS = tuple(FILE_FIELDS)  # a file in a turn record: its row's columns, its id first
_NAMED_FILES = ('SELECT "original" FROM "turn_attachments" UNION SELECT "sent" FROM '
                '"turn_attachments" UNION SELECT "original" FROM "assistant_files" UNION '
                'SELECT "sent" FROM "assistant_files"')
_FILE_SQL = ", ".join(f'"{c}"' for c in ("gid", *FILE_COLUMNS[1:]))

# A turn record as `_turn_record` builds it (with `outgoing`'s frame), written by SQLite's
# json_object for a turn of a conversation still here with no files and no tool results;
# NULL for the rest (built in Python). As bytes: UTF-8 as SQLite keeps it, never decoded.
# A test holds the two writers to the same record. The turn is found by the row number its
# journal row carries (schema step 23: an integer key, not the index of its id text) and
# its id checked (VACUUM may renumber the turns: one renumbered, or journaled without a
# row number, goes the slow way, still right); its conversation by the turn's own key: a
# turn whose conversation is not the one its journal row names (none is) goes the slow way.
_PLAIN_TURN = (
    'j."kind" = \'turn\' AND t."id" IS NOT NULL AND EXISTS (SELECT 1 FROM '
    '"conversations" c WHERE c."id" = t."conversation_id" AND c."gid" = j."conv") AND NOT '
    'EXISTS (SELECT 1 FROM '
    '"turn_attachments" a WHERE a."turn_id" = t."id") AND NOT EXISTS (SELECT 1 FROM '
    '"tool_results" r WHERE r."turn_id" = t."id")')
_TURN_JSON = (
    f'CASE WHEN {_PLAIN_TURN} THEN CAST(json_object('
    f'\'v\', {FORMAT}, \'kind\', \'turn\', \'id\', j."gid", \'conv\', j."conv", '
    '\'hlc\', j."hlc", \'question\', t."question", \'answer\', t."answer", \'model\', '
    't."model", \'finish_reason\', t."finish_reason", \'created_at\', t."created_at", '
    '\'usage\', t."usage", \'reasoning\', t."reasoning", \'incomplete\', t."incomplete", '
    '\'tool_exchange\', t."tool_exchange", \'after\', t."after_id", \'version_of\', '
    't."version_of") AS BLOB) END')
_JOURNAL_TURNS = (
    'FROM "sync_journal" j LEFT JOIN "turns" t ON t."rowid" = j."turn_row" AND '
    't."id" = j."gid" WHERE j."origin" IS NULL AND j."seq" > ? ORDER BY j."seq" LIMIT ?')
_OUTGOING_SQL = (
    'SELECT j."seq", j."kind", j."gid", j."conv", j."subject", j."value", j."hlc", '
    f'{_TURN_JSON} {_JOURNAL_TURNS}')

# A page as a sync packs it (`outgoing_page`), in one statement: the journal's rows after
# the cursor, each marked plain (a turn SQLite can write as `_TURN_JSON` does) or not;
# first one row of the page's size, its last number, and its plain turns by columns (each
# column's values joined by SQLite, then their lengths in bytes), then the other rows one
# by one.
_PAGE = (f'WITH "page" AS (SELECT j."seq" AS "seq", t."rowid" AS "row", {_PLAIN_TURN} AS '
         f'"plain" {_JOURNAL_TURNS}) ')
_COLUMN_SOURCES = {"id": 'j."gid"', "conv": 'j."conv"', "hlc": 'j."hlc"', "after": 't."after_id"'}
_PAGE_SQL = (
    _PAGE + 'SELECT (SELECT count(*) FROM "page"), (SELECT max("seq") FROM "page"), '
    'group_concat(p."seq"), json_group_array(j."gid"), json_group_array(DISTINCT j."conv"), '
    + ", ".join(
        f"CAST(group_concat({source}, '') AS BLOB), "
        f"group_concat(coalesce(length(CAST({source} AS BLOB)), -1))"
        for source in (_COLUMN_SOURCES.get(name, f't."{name}"') for name in TURN_COLUMNS))
    + ' FROM "page" p JOIN "sync_journal" j ON j."seq" = p."seq" JOIN "turns" t ON '
    't."rowid" = p."row" WHERE p."plain" UNION ALL SELECT j."seq", j."kind", j."gid", '
    'j."conv", j."subject", j."value", j."hlc", '
    + ", ".join(["NULL"] * (2 * len(TURN_COLUMNS) - 2))
    + ' FROM "page" p JOIN "sync_journal" j ON j."seq" = p."seq" WHERE NOT p."plain"')


def _written(record: dict[str, Any]) -> bytes:
    """A record's JSON as it travels: compact UTF-8."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode()


# What never travels: listed here, named in the README's Sync section (secrets, tool
# servers' commands and profiles are outside the store: they never reach it).
NOT_CARRIED = {
    "drafts": "drafts (a machine's own unsent text)",
    "usage": "usage totals (each machine counts what it spent)",
}


@dataclass
class Applied:
    """What one `incoming` batch did: records applied per kind, records passed over (seen
    before, or about something deleted), and the ids its deletes removed."""

    counts: dict[str, int] = field(default_factory=dict)
    skipped: int = 0
    erased: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One value a conversation's field had, from the history of changes."""

    field: str
    value: Any
    hlc: str
    origin: str | None  # None: made on this machine
    current: bool


class SyncFeed:
    """The sync side of one store. `machine`: this machine's name as other machines know
    it (the wire side sets it), shown on a fork a concurrent append made here."""

    def __init__(self, database: Database, turns: Turns, privacy: Callable[[], Privacy],
                 records_cap: Callable[[], int]) -> None:
        self.database = database
        self.db = database.db
        self.turns = turns
        self.privacy = privacy
        self.records_cap = records_cap  # request records kept per conversation, as locally
        self.machine = "this machine"

    def follow_machine(self, machine_id: str) -> None:
        """This machine's id as the sync names it (the wire side tells it): kept on a fork
        a concurrent append made here, and the node id that ends this machine's clock
        readings from now on, so a machine restored from an old backup (given a new id)
        makes no reading its old self could have made, and a tie between two readings is
        broken by machine id."""
        self.machine = machine_id
        if not NODE.fullmatch(machine_id):
            return
        self.database.need_writer()
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            self.db.execute_sql('UPDATE "sync_state" SET "node" = ? WHERE "node" IS NOT ?',
                                (machine_id, machine_id))

    def name_machines(self, names: Mapping[str, str]) -> None:
        """Each machine's name (machine id → name) as the sync last heard it: a fork a
        concurrent append made shows the machine it continued on by it."""
        self.database.need_writer()
        with self.database.guard(), self.db.atomic():
            self.db.cursor().executemany(
                'INSERT INTO "sync_machines" ("id", "name") VALUES (?, ?) ON CONFLICT ("id") '
                'DO UPDATE SET "name" = excluded."name" WHERE "name" IS NOT excluded."name"',
                [(machine, name) for machine, name in sorted(names.items()) if name])

    # ------------------------------------------------------------------- outgoing
    def outgoing(self, after: int, limit: int = 2000) -> tuple[list[dict[str, Any]], int]:
        """This machine's own change records after local cursor `after` (0: all), oldest
        first, at most `limit`, and the cursor after the last one looked at. Records of
        rows deleted since are left out; records applied from others never appear."""
        found, after = self.outgoing_json(after, limit)
        return [json.loads(record.json) for record in found], after

    def outgoing_json(self, after: int, limit: int = 2000) -> tuple[list[Outgoing], int]:
        """`outgoing`, each record as its JSON. A turn's record (most of a log) is written
        by SQLite from its row as the journal row is read (`_TURN_JSON`), without a Python
        object per field; a turn with files or tool results, and every other kind, is
        built by `_record` and written here (`_built`)."""
        found = self._page_rows(after, limit)
        out = []
        with self.database.guard():
            for seq, kind, gid, conv, subject, value, hlc, written in found:
                after = seq
                made = (Outgoing(written, kind, gid, conv) if written is not None
                        else self._built(kind, gid, conv, subject, value, hlc))
                if made is not None:
                    out.append(made)
        return out, after

    def outgoing_page(self, after: int, limit: int = 2000) -> OutgoingPage:
        """`outgoing_json` as one page, what a sync packs into an object. Its plain turns
        (most of a log) are read by columns (`TurnColumns`): SQLite joins each field's
        values, so a turn costs no Python object and no JSON is written for it (escaping
        the text was a first sync's largest cost); the other records (a conversation's, a
        turn with files …) are built and written one by one, at their places in the page.
        A page whose records were all deleted here since is passed over: an empty page is
        the end of the journal."""
        while True:
            page = self._outgoing_page(after, limit)
            if page.count or page.after == after:
                return page
            after = page.after

    def _outgoing_page(self, after: int, limit: int) -> OutgoingPage:
        read = self._page(after, limit)
        if read[0] < limit:
            # Near the end, assistants and side questions are looked at for changes to
            # journal (as `_page_rows` does), then the page is read again.
            self._journal_assistants()  # before the links of conversations to them
            self._journal_side_questions()
            read = self._page(after, limit)
        rows, last, seqs, turn_ids, conversation_ids, turns, others = read
        if not rows:
            return OutgoingPage((), set(), [], after)
        plain = list(map(int, seqs.split(","))) if seqs else []
        if any(a >= b for a, b in pairwise(plain)):  # SQLite joined them out of order
            return OutgoingPage.of(*self.outgoing_json(after, limit))
        columns, ids = None, set()
        if plain:
            columns = TurnColumns(len(plain), turns[1::2], [d or b"" for d in turns[0::2]])
            ids.update(json.loads(turn_ids), json.loads(conversation_ids))
        written: list[bytes] = []
        at: list[int] = []
        needed: list[dict[str, Any]] = []
        with self.database.guard():
            for seq, kind, gid, conv, subject, value, hlc in others:
                made = self._built(kind, gid, conv, subject, value, hlc)
                if made is None:  # deleted since it was journaled
                    continue
                at.append(bisect_left(plain, seq) + len(written))
                written.append(made.json)
                ids.update(carried_ids(made))
                if made.record is not None:
                    needed.append(made.record)
        return OutgoingPage(written, ids, needed, last, columns, at)

    def _page(self, after: int, limit: int) -> tuple[Any, ...]:
        """(the page's rows, the last one's number, its plain turns' numbers, their ids and
        their conversations' as JSON lists, their columns (each column's data, then its
        lengths), the page's other rows in order)."""
        with self.database.guard():
            (rows, last, seqs, turn_ids, conversation_ids, *turns), *others = \
                self.db.execute_sql(_PAGE_SQL, (after, limit)).fetchall()
        return (rows, last, seqs, turn_ids, conversation_ids, turns,
                sorted(row[:7] for row in others))

    def close_reading(self) -> None:
        """Close the calling thread's own connection to the log: a sync reads its pages on
        a thread it makes for one publish (each thread has a connection of its own), never
        on the store's."""
        with self.database.guard():
            self.db.close()

    def _page_rows(self, after: int, limit: int) -> list[tuple[Any, ...]]:
        """The journal's rows of this machine after `after`, at most `limit`, each with
        its JSON when SQLite writes it (`_OUTGOING_SQL`)."""
        with self.database.guard():
            found = self.db.execute_sql(_OUTGOING_SQL, (after, limit)).fetchall()
        if len(found) < limit:
            # Near the end, assistants and side questions are looked at for changes to
            # journal (a look reads the whole journal: not on each of the hundreds of pages
            # a first sync of 100,000 turns asks for), then the page is read again.
            self._journal_assistants()  # before the links of conversations to them
            self._journal_side_questions()
            with self.database.guard():
                found = self.db.execute_sql(_OUTGOING_SQL, (after, limit)).fetchall()
        return found

    def _built(self, kind: str, gid: str, conv: str | None, subject: str, value: str | None,
               hlc: str) -> Outgoing | None:
        """A record SQLite does not write, built and written here (None: deleted since)."""
        record = self._record(kind, gid, conv, subject, value)
        if record is None:
            return None
        record = {"v": FORMAT, "kind": record.pop("kind", kind), "id": gid, "conv": conv,
                  "hlc": hlc, **record}
        return Outgoing(_written(record), record["kind"], gid, conv,
                        record if needs_reading(record) else None)

    def _journal_side_questions(self) -> None:
        """Journal the side questions kept since the last look (they are written whole,
        once, by several paths; those applied from others are journaled already)."""
        with self.database.guard(), self.db.atomic():
            self.db.execute_sql(
                'INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value") '
                'SELECT \'side\', s."id", c."gid", s."id", NULL FROM "side_questions" s '
                'JOIN "conversations" c ON c."id" = s."conversation_id" WHERE NOT EXISTS '
                '(SELECT 1 FROM "sync_journal" j WHERE j."gid" = s."id") AND '
                '(SELECT "quiet" FROM "sync_state") = 0 ORDER BY s."created_at", s."id"')
            self.db.execute_sql(
                'INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value") '
                'SELECT \'conversation_assistant\', c."gid" || \'.assistant\', c."gid", '
                'c."gid" || \'.assistant\', NULL FROM "conversation_assistants" x JOIN '
                '"conversations" c ON c."id" = x."conversation_id" WHERE NOT EXISTS (SELECT 1 '
                'FROM "sync_journal" j WHERE j."gid" = c."gid" || \'.assistant\') AND '
                '(SELECT "quiet" FROM "sync_state") = 0')

    def _journal_assistants(self) -> None:
        """Journal each assistant whose state no longer matches the latest mark the
        journal keeps of it (added, changed, removed here since the last look)."""
        db = self.db
        with self.database.guard(), db.atomic():
            if db.execute_sql('SELECT "quiet" FROM "sync_state"').fetchone()[0]:
                return
            # An assistant's rows name no conversation: the index on it finds them without
            # reading the whole journal (a look came to 0.1-0.2 s at 100,000 turns).
            marks = dict(db.execute_sql(
                'SELECT "gid", "value" FROM "sync_journal" WHERE "seq" IN (SELECT max("seq") '
                'FROM "sync_journal" WHERE "conv" IS NULL AND "kind" = \'assistant\' GROUP BY '
                '"gid")').fetchall())
            present = [g for (g,) in db.execute_sql('SELECT "gid" FROM "assistants"')]
            for gid in sorted(set(present) | set(marks)):
                mark = sync_apply.assistant_mark(db, gid)
                if marks.get(gid, json.dumps({"removed": True})) != mark:
                    db.execute_sql('INSERT INTO "sync_journal" ("kind", "gid", "conv", '
                                   '"subject", "value") VALUES (\'assistant\', ?, NULL, ?, ?)',
                                   (gid, gid, mark))

    def _record(self, kind: str, gid: str, conv: str | None, subject: str,
                value: str | None) -> dict[str, Any] | None:
        db = self.db
        if conv is not None and sync_apply.conversation_id(db, conv) is None \
                and kind != "delete":
            return None  # deleted (or swept unanswered) since
        if kind == "conversation":
            field_name = subject[len(gid) + 1:]
            fields = json.loads(value or "{}")
            if not isinstance(fields.get("settings", ""), str):
                # settings rewritten by a JSON function (a first send's flag cleared) are
                # journaled as JSON, not as their text: the record carries the text
                fields["settings"] = json.dumps(fields["settings"], separators=(",", ":"))
            if field_name:
                return {"create": False, "field": field_name, "fields": fields}
            fork = db.execute_sql(  # a fork the user made: where it came from
                'SELECT s."gid", f."at_ordinal" FROM "forks" f JOIN "conversations" c ON '
                'c."id" = f."conversation_id" LEFT JOIN "conversations" s ON s."id" = '
                'f."source_id" WHERE c."gid" = ? AND f."continued_on" IS NULL', (gid,)).fetchone()
            if fork is not None:
                return {"create": True, "fields": fields, "fork": {"of": fork[0], "at": fork[1]}}
            return {"create": True, "fields": fields}
        if kind == "delete":  # its targets, and how many conversations and turns they are
            stored = json.loads(value or "[]")
            return stored if isinstance(stored, dict) else {"targets": stored}
        if kind == "turn":
            return self._turn_record(gid)
        if kind == "files":  # a file a later import added (gone with its turn: None)
            files = [dict(zip(FILE_COLUMNS, found, strict=True)) for found in db.execute_sql(
                f'SELECT {_FILE_SQL} FROM "turn_attachments" WHERE "gid" = ?', (subject,))]
            return {"files": files} if files else None
        if kind == "version":
            return self._version_record(subject, json.loads(value or "{}"))
        if kind == "side":
            return sync_apply.side_record(db, gid)
        if kind == "conversation_assistant":
            return sync_apply.conversation_assistant_record(db, conv)
        if kind == "assistant":
            if json.loads(value or "{}").get("removed"):
                return {"removed": True}
            return sync_apply.assistant_record(db, gid)
        if kind in _DERIVED_RECORDS:  # a summary removed goes as a delete of its id
            return _DERIVED_RECORDS[kind](db, gid)
        if value is not None and json.loads(value).get("removed"):
            return {"removed": True}
        return _row_record(db, kind, gid)

    def _turn_record(self, turn_id: str) -> dict[str, Any] | None:
        row = self.db.execute_sql(
            'SELECT "question", "answer", "model", "finish_reason", "created_at", "usage", '
            '"reasoning", "incomplete", "tool_exchange", "after_id", "version_of" FROM "turns" '
            'WHERE "id" = ?', (turn_id,)).fetchone()
        if row is None:
            return None
        names = ("question", "answer", "model", "finish_reason", "created_at", "usage",
                 "reasoning", "incomplete", "tool_exchange", "after", "version_of")
        record = dict(zip(names, row, strict=True))
        files = [dict(zip(FILE_COLUMNS, found, strict=True)) for found in self.db.execute_sql(
            f'SELECT {_FILE_SQL} FROM '
            '"turn_attachments" WHERE "turn_id" = ? ORDER BY "position"', (turn_id,))]
        if files:
            record["files"] = files
        results = dict(self.db.execute_sql('SELECT "call_id", "content" FROM "tool_results" '
                                           'WHERE "turn_id" = ?', (turn_id,)).fetchall())
        if results:
            record["results"] = results
        return record

    # ------------------------------------------------------------------------ blobs
    def blob(self, digest: str) -> bytes:
        """A file's bytes by their SHA-256 (NotFound when this machine lacks them)."""
        with self.database.guard():
            return attachments.blob(self.db, digest)

    def missing_blobs(self) -> list[str]:
        """The SHA-256 of the files turns here name whose bytes are not here yet (they
        came from another machine before their blob)."""
        with self.database.guard():
            return [d for (d,) in self.db.execute_sql(
                f'{_NAMED_FILES} EXCEPT SELECT "digest" FROM "blobs" ORDER BY 1')]

    def add_blob(self, data: bytes, digest: str | None = None) -> bool:
        """Store a file's bytes that a turn here names; `digest`, when given, must be
        their SHA-256 (else `SyncRecordInvalid`). False when no turn names them (a file
        deleted since, or bytes nobody asked for): nothing is stored."""
        found = attachments.digest_of(data)
        if digest is not None and found != digest:
            raise SyncRecordInvalid("A file from another machine was refused: its bytes do "
                                    "not match its SHA-256; nothing was stored.")
        self.database.need_writer()
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            named = self.db.execute_sql(
                f'SELECT 1 FROM ({_NAMED_FILES}) WHERE "original" = ?', (found,)).fetchone()
            if named is None:
                return False
            self.db.execute_sql('INSERT OR IGNORE INTO "blobs" ("digest", "data") VALUES '
                                '(?, ?)', (found, data))
        return True

    def _version_record(self, root: str, value: dict[str, Any]) -> dict[str, Any] | None:
        turn, by = value.get("turn"), value.get("by")
        known = self.db.execute_sql(
            'SELECT count(*) FROM "turns" WHERE "id" IN (?, ?)', (turn, by)).fetchone()[0]
        if known < (1 if turn == by else 2):
            return None
        made = self.db.execute_sql('SELECT "version_of" FROM "turns" WHERE "id" = ?',
                                   (by,)).fetchone()
        # A new version names its group for the first time; a switch names an older one.
        first = self.db.execute_sql(
            'SELECT min("seq") FROM "sync_journal" WHERE "subject" = ? AND json_extract('
            '"value", \'$.by\') = ?', (root, by)).fetchone()[0]
        newest_for_by = self.db.execute_sql(
            'SELECT max("seq") FROM "sync_journal" WHERE "subject" = ? AND json_extract('
            '"value", \'$.by\') = ? AND json_extract("value", \'$.turn\') = ?',
            (root, by, turn)).fetchone()[0]
        is_new = made is not None and made[0] == root and first == newest_for_by
        return {"kind": "version" if is_new else "use_version", "turn": turn, "by": by}

    # ------------------------------------------------------------------- incoming
    def incoming(self, records: list[dict[str, Any]], origin: str) -> Applied:
        """Apply another machine's records (`origin`: its machine id) in one transaction,
        in clock order. Applying a record twice is a no-op; a malformed record (or one
        about a conversation never seen) raises `SyncRecordInvalid` and nothing of the
        batch is applied. Deletes are erased from the disk as a local delete is."""
        return self.incoming_from({origin: records})

    def incoming_from(self, machines: dict[str, list[dict[str, Any]]]) -> Applied:
        """`incoming` for the new records of several machines at once (machine id →
        records), merged in clock order: a record that builds on another machine's (a
        turn after a turn it read from there) always comes after it, so a sync reading
        every machine's new objects applies them in one call whatever order they came in."""
        self.database.need_writer()
        tagged = []
        for origin, records in machines.items():
            if not isinstance(origin, str) or not origin or len(origin) > 200:
                raise refuse({}, "the machine it came from is not named")
            tagged += [(check(r), origin) for r in records]
        ordered = sorted({(r["hlc"], r["id"], r["kind"]): (r, o) for r, o in tagged}.values(),
                         key=lambda pair: (pair[0]["hlc"], pair[0]["id"]))
        deletes = [r for r, _o in ordered if r["kind"] == "delete"]
        applied = Applied()
        erase = self.privacy() if deletes else None
        if erase is not None:
            erase.erasing.acquire()
        try:
            if erase is not None:
                erase.begin_erase()
            with self.database.guard(), self.db.atomic("IMMEDIATE"):
                # Quiet inside this transaction only: what it writes is not this machine's.
                self.db.execute_sql('UPDATE "sync_state" SET "quiet" = 1')
                gone = self._gone({t for r in deletes for t in r["targets"]})
                for record, origin in ordered:
                    self._apply(record, origin, gone, applied)
                if applied.counts.get("request"):
                    sync_derived.cap_requests(self.db, {r["conv"] for r, _o in ordered
                                                        if r["kind"] == "request"},
                                              self.records_cap())
                self._clock_seen([r for r, _o in ordered])
                self.db.execute_sql('UPDATE "sync_state" SET "quiet" = 0')
            self.turns.counts_changed(None)
            if erase is not None:
                erase.after_delete(time.monotonic())
        finally:
            if erase is not None:
                erase.erasing.release()
        return applied

    def _gone(self, targets: set[str]) -> Callable[[str | None], bool]:
        """Whether an id was deleted (everywhere, here, or by a delete in this batch)."""
        def gone(gid: str | None) -> bool:
            if gid is None:
                return False
            if gid in targets:
                return True
            return self.db.execute_sql(
                'SELECT 1 FROM "sync_tombstones" WHERE "gid" = ? UNION ALL SELECT 1 FROM '
                '"sync_here_deleted" WHERE "gid" = ?', (gid, gid)).fetchone() is not None
        return gone

    def _apply(self, record: dict[str, Any], origin: str, gone: Callable[[str | None], bool],
               applied: Applied) -> None:
        db, kind = self.db, record["kind"]
        seen = db.execute_sql('SELECT 1 FROM "sync_journal" WHERE "gid" = ? AND "hlc" = ?',
                              (record["id"], record["hlc"])).fetchone()
        if seen is not None or (kind != "delete" and (
                gone(record["id"]) or gone(record.get("conv"))
                or gone(record.get("version_of")))):
            applied.skipped += 1
            return
        if kind == "delete":
            applied.erased += self.erase_targets(record["targets"])
            sync_apply.journal(db, record, origin, record["id"],
                               json.dumps(record["targets"]))
        elif kind == "conversation":
            sync_apply.conversation(db, record, origin)
        elif kind == "turn":
            if db.execute_sql('SELECT 1 FROM "turns" WHERE "id" = ?',
                              (record["id"],)).fetchone() is not None:
                applied.skipped += 1
                return
            sync_apply.turn(db, record, origin, self.machine)
        elif kind == "side":
            if not sync_apply.side(db, record, origin):
                applied.skipped += 1
                return
        elif kind == "files":
            if not sync_apply.added_files(db, record, origin):
                applied.skipped += 1
                return
        elif kind == "assistant":
            sync_apply.assistant(db, record, origin)
        elif kind == "conversation_assistant":
            sync_apply.conversation_assistant(db, record, origin)
        elif kind in _DERIVED_APPLY:
            if not _DERIVED_APPLY[kind](db, record, gone):
                applied.skipped += 1
                return
            sync_apply.journal(db, record, origin, record["id"])
        elif kind in ("version", "use_version"):
            if gone(record["turn"]) or gone(record["by"]):
                applied.skipped += 1
                return
            sync_apply.version(db, record, origin)
        else:
            assert kind in ROW_KINDS
            sync_apply.row_kind(db, record, origin)
        applied.counts[kind] = applied.counts.get(kind, 0) + 1

    def _clock_seen(self, records: Sequence[dict[str, Any]]) -> None:
        """Keep this machine's clock ahead of every reading it has applied."""
        if not records:
            return
        phys, counter, _node = max(r["hlc"] for r in records).split("-")
        self.db.execute_sql(
            'UPDATE "sync_state" SET "counter" = CASE WHEN ? > "phys" THEN ? ELSE '
            'max("counter", ?) END, "phys" = max("phys", ?)',
            (int(phys), int(counter), int(counter), int(phys)))

    # ---------------------------------------------------------------------- deletes
    def erase_targets(self, targets: Iterable[str]) -> list[str]:
        """Delete what these ids name and everything derived from it, as a local delete
        does (inside the caller's transaction; the caller erases the disk after), and
        keep them as tombstones. Returns the ids that were stored here."""
        db, ids = self.db, json.dumps(sorted(set(targets)))
        within = "(SELECT value FROM json_each(?))"
        conversations = db.execute_sql(
            f'SELECT "id", "gid" FROM "conversations" WHERE "gid" IN {within}',
            (ids,)).fetchall()
        forks = _sync_forks(db, [c for c, _g in conversations])  # they hold its turns
        conversations += db.execute_sql(
            'SELECT "id", "gid" FROM "conversations" WHERE "id" IN (SELECT value FROM '
            'json_each(?))', (json.dumps(forks),)).fetchall()
        found = [g for _c, g in conversations]
        cids = json.dumps([c for c, _g in conversations])
        found += [t for (t,) in db.execute_sql(
            'SELECT "id" FROM "turns" WHERE "conversation_id" IN (SELECT value FROM '
            'json_each(?))', (cids,))] + _derived_gids(db, cids)
        deletion.delete_conversations(db, [c for c, _g in conversations])
        # A deleted turn takes its versions along, and the copies forks made of it.
        turns = db.execute_sql(
            f'SELECT "conversation_id", "id" FROM "turns" WHERE "id" IN {within} OR '
            f'"version_of" IN {within} OR "id" IN (SELECT "id" FROM "sync_copies" WHERE '
            f'"original" IN {within})', (ids, ids, ids)).fetchall()
        by_conversation: dict[int, list[str]] = {}
        for cid, turn_id in turns:
            by_conversation.setdefault(cid, []).append(turn_id)
            found.append(turn_id)
        for cid, turn_ids in by_conversation.items():
            known, first = versions.read(db, cid), titles.first_turn(db, cid)
            deletion.delete_turns(db, cid, turn_ids)
            versions.forget(db, cid, known, turn_ids)
            titles.follow_first_turn(db, cid, first_before=first)  # as a local delete does
        self._erase_derived(ids)
        for table in ("pins", "notes", "preferences", "folders"):
            found += [g for (g,) in db.execute_sql(
                f'SELECT "gid" FROM "{table}" WHERE "gid" IN {within}', (ids,))]
            db.execute_sql(f'DELETE FROM "{table}" WHERE "gid" IN {within}', (ids,))
        db.execute_sql('INSERT OR IGNORE INTO "sync_tombstones" SELECT value FROM json_each(?)',
                       (ids,))
        db.execute_sql(f'DELETE FROM "sync_journal" WHERE "kind" != \'delete\' AND ("gid" IN '
                       f'{within} OR "conv" IN {within})', (ids, ids))
        db.execute_sql('DELETE FROM "sync_copies" WHERE "id" NOT IN (SELECT "id" FROM "turns")')
        return found

    def deleted(self) -> set[str]:
        """Every id a delete everywhere removed (and every pin, note, preference or folder
        removed): tombstones, ids only, kept for good."""
        with self.database.guard():
            return {g for (g,) in self.db.execute_sql('SELECT "gid" FROM "sync_tombstones"')}

    def is_deleted(self, gid: str) -> bool:
        with self.database.guard():
            return self._gone(set())(gid)

    def delete_conversations(self, conversation_ids: Sequence[int], *, everywhere: bool
                             ) -> ConversationsDeleted:
        """A privacy delete of these conversations with a scope: `everywhere` writes a
        delete record (their ids and their turns', nothing else) and tombstones; else a
        marker keeps records arriving later for them out of this machine."""
        self.database.need_writer()
        with self.database.guard():
            if everywhere:  # the forks a concurrent append made of them hold their turns
                conversation_ids = [*conversation_ids, *_sync_forks(self.db, conversation_ids)]
            ids = json.dumps(list(conversation_ids))
            conv_gids = [g for (g,) in self.db.execute_sql(
                'SELECT "gid" FROM "conversations" WHERE "id" IN (SELECT value FROM '
                'json_each(?))', (ids,))]
            if not conv_gids:
                raise NotFound("There is no such conversation.")
            targets = conv_gids + [t for (t,) in self.db.execute_sql(
                'SELECT "id" FROM "turns" WHERE "conversation_id" IN (SELECT value FROM '
                'json_each(?))', (ids,))]
            derived = _derived_gids(self.db, ids)
            targets += derived
        conv = conv_gids[0] if len(conv_gids) == 1 else None
        counts = {"conversation": len(conv_gids), "turn": len(targets) - len(conv_gids)
                  - len(derived)}
        self._mark(targets, conv, everywhere, counts)
        return self._unmark_on_failure(
            targets, lambda: self.privacy().delete_conversations(list(conversation_ids)))

    def delete_turn(self, turn_id: str, *, everywhere: bool, with_versions: bool = True,
                    keep_pins: bool = False) -> TurnsDeleted:
        """A privacy delete of a turn (with its versions) with a scope, as
        `delete_conversations` has."""
        self.database.need_writer()
        with self.database.guard():
            cid = deletion.conversation_of(self.db, turn_id)
            ids = list(versions.read(self.db, cid).group(turn_id)) if with_versions \
                else [turn_id]
            conv = self.db.execute_sql('SELECT "gid" FROM "conversations" WHERE "id" = ?',
                                       (cid,)).fetchone()[0]
            # What is derived from them goes everywhere too (its text may echo theirs).
            derived = sync_derived.of_turns(self.db, cid, ids, keep_pins=keep_pins)
        self._mark(ids + derived, conv, everywhere, {"conversation": 0, "turn": len(ids)})
        return self._unmark_on_failure(ids + derived, lambda: self.privacy().delete_turn(
            turn_id, with_versions=with_versions, keep_pins=keep_pins))

    def _mark(self, targets: list[str], conv: str | None, everywhere: bool,
              counts: dict[str, int]) -> None:
        """Before the delete: tombstones and the delete record (ids, and how many
        conversations and turns they are: no title, no text), or the markers; what the
        journal kept of them (a title's history) goes with them."""
        payload = json.dumps(sorted(set(targets)))
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            table = "sync_tombstones" if everywhere else "sync_here_deleted"
            self.db.execute_sql(f'INSERT OR IGNORE INTO "{table}" SELECT value FROM '
                                'json_each(?)', (payload,))
            self.db.execute_sql(
                'DELETE FROM "sync_journal" WHERE "kind" != \'delete\' AND ("gid" IN (SELECT '
                'value FROM json_each(?)) OR "conv" IN (SELECT value FROM json_each(?)))',
                (payload, payload))
            if everywhere:
                self._erase_copies(payload)
                self._erase_derived(payload)
                self.db.execute_sql(
                    'INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value") '
                    "VALUES ('delete', ?, ?, NULL, ?)",
                    (uuid.uuid4().hex, conv,
                     json.dumps({"targets": sorted(set(targets)), "counts": counts})))

    def _erase_derived(self, ids: str) -> None:
        """Summaries, request records, side questions and failed side requests these ids
        name (what a delete of turns takes along from every machine, a summary removed on
        its machine): gone here as on every machine that reads the delete."""
        within = "(SELECT value FROM json_each(?))"
        sync_derived.erase(self.db, ids)
        for table, column in (("requests", "gid"), ("side_questions", "id"),
                              ("side_attempts", "gid")):
            self.db.execute_sql(f'DELETE FROM "{table}" WHERE "{column}" IN {within}', (ids,))

    def _erase_copies(self, ids: str) -> None:
        """The copies forks made of these turns (a fork that a concurrent append made holds
        copies of the turns before it): a delete everywhere takes them along here as
        `erase_targets` does on every machine that reads it, so all keep the same."""
        db = self.db
        copies = db.execute_sql(
            'SELECT "conversation_id", "id" FROM "turns" WHERE "id" IN (SELECT "id" FROM '
            '"sync_copies" WHERE "original" IN (SELECT value FROM json_each(?)))',
            (ids,)).fetchall()
        by_conversation: dict[int, list[str]] = {}
        for cid, turn_id in copies:
            by_conversation.setdefault(cid, []).append(turn_id)
        for cid, turn_ids in by_conversation.items():
            known, first = versions.read(db, cid), titles.first_turn(db, cid)
            deletion.delete_turns(db, cid, turn_ids)
            versions.forget(db, cid, known, turn_ids)
            titles.follow_first_turn(db, cid, first_before=first)
        db.execute_sql('DELETE FROM "sync_copies" WHERE "id" NOT IN (SELECT "id" FROM "turns")')

    def _unmark_on_failure(self, targets: list[str], delete: Callable[[], Any]) -> Any:
        try:
            return delete()
        except BaseException:
            log.warning("a scoped delete failed; its markers are taken back")
            payload = json.dumps(targets)
            with self.database.guard(), self.db.atomic():
                for table in ("sync_tombstones", "sync_here_deleted"):
                    self.db.execute_sql(f'DELETE FROM "{table}" WHERE "gid" IN (SELECT value '
                                        'FROM json_each(?))', (payload,))
            raise

    # ---------------------------------------------------------------------- history
    def history(self, conversation_id: int) -> list[FieldChange]:
        """Every value the conversation's changing fields have had here and on the
        machines it synced with, oldest first; `current` marks the values in effect."""
        with self.database.guard():
            gid = self.db.execute_sql('SELECT "gid" FROM "conversations" WHERE "id" = ?',
                                      (conversation_id,)).fetchone()
            if gid is None:
                raise NotFound(f"There is no conversation {conversation_id}.")
            found = self.db.execute_sql(
                'SELECT "subject", "value", "hlc", "origin" FROM "sync_journal" WHERE "kind" = '
                "'conversation' AND \"conv\" = ? ORDER BY \"hlc\"", (gid[0],)).fetchall()
        from .sync_records import CHANGING

        changes: list[FieldChange] = []
        latest: dict[str, str] = {}
        for subject, value, hlc, origin in found:
            values = json.loads(value)
            named = subject.split("/", 1)[1]
            for name, columns in CHANGING.items():
                if (named == name or not named) and columns[0] in values:
                    changes.append(FieldChange(name, values[columns[0]], hlc, origin, False))
                    latest[name] = hlc
        return [FieldChange(c.field, c.value, c.hlc, c.origin, latest[c.field] == c.hlc)
                for c in changes]


_DERIVED_RECORDS = {"summary": sync_derived.summary_record,
                    "request": sync_derived.request_record,
                    "side_attempt": sync_derived.side_attempt_record}
_DERIVED_APPLY = {"summary": sync_derived.summary, "request": sync_derived.request,
                  "side_attempt": sync_derived.side_attempt}


def _sync_forks(db: peewee.Database, conversation_ids: Sequence[int]) -> list[int]:
    """The forks sync made of these conversations (a turn that lost its place to another
    machine's concurrent one went there, with the turns after it), forks of forks too:
    what a delete everywhere of a conversation takes along, on every machine alike."""
    found: list[int] = []
    todo = list(conversation_ids)
    while todo:
        todo = [c for (c,) in db.execute_sql(
            'SELECT "conversation_id" FROM "forks" WHERE "continued_on" IS NOT NULL AND '
            '"source_id" IN (SELECT value FROM json_each(?))', (json.dumps(todo),))
            if c not in found and c not in conversation_ids]
        found += todo
    return found


def _derived_gids(db: peewee.Database, ids: str) -> list[str]:
    """The ids of what these conversations' delete takes along (pins, notes, versions)."""
    out: list[str] = []
    for table in ("pins", "notes", "supersedes"):
        out += [g for (g,) in db.execute_sql(
            f'SELECT "gid" FROM "{table}" WHERE "conversation_id" IN (SELECT value FROM '
            'json_each(?)) AND "gid" IS NOT NULL', (ids,))]
    return out


def _row_record(db: peewee.Database, kind: str, gid: str) -> dict[str, Any] | None:
    if kind == "folder":
        row = db.execute_sql('SELECT "name", "created_at" FROM "folders" WHERE "gid" = ?',
                             (gid,)).fetchone()
        return None if row is None else {"name": row[0], "created_at": row[1]}
    if kind == "pin":
        row = db.execute_sql('SELECT "text", "kind", "sources", "created_at" FROM "pins" '
                             'WHERE "gid" = ?', (gid,)).fetchone()
        return None if row is None else {"text": row[0], "pin_kind": row[1],
                                         "sources": json.loads(row[2]), "created_at": row[3]}
    table = {"note": "notes", "preference": "preferences"}[kind]
    row = db.execute_sql(f'SELECT "text", "priority", "created_at" FROM "{table}" WHERE '
                         '"gid" = ?', (gid,)).fetchone()
    return None if row is None else {"text": row[0], "priority": row[1], "created_at": row[2]}
