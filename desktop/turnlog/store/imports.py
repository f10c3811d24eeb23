"""Many conversations written at once (an import): one transaction, rows in batches.

The caller holds the transaction; a cancel or any error rolls all of it back, so an
import is all there or not at all. Turns go in through `executemany` in batches of
`BATCH` rows, read from the source as they are written, so memory stays bounded
whatever the size of the file; a conversation re-imported from its source (ChatGPT) is
matched against what is stored batch by batch too. The search index is filled batch by
batch in the same transaction (`search.bulk_index`), and each batch's turns journaled for
sync after it (`import_journal`), their per-row insert triggers set aside while the writer
is open (`ImportWriter.open`), and the indexes keyed by random ids too once the import is
large beside the store (`import_journal.RandomIndexes`).
"""

from __future__ import annotations

import json
import os
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import peewee

from ..core.attachments import Attachment, AttachmentKind
from ..core.imports import (
    NOT_ATTACHED,
    ImportCancelled,
    ImportedConversation,
    ImportedTurn,
    ImportOutcome,
)
from ..core.model import UNKNOWN_USAGE, ConversationSettings
from ..core.tools import rounds_to_json
from ..core.versions import restore_order
from . import attachments, import_journal, search
from .folders import folder_for

BATCH = 2_000
ALREADY = "already imported"
ALREADY_EMPTY = "already imported (a conversation without turns)"
CHANGED = "changed since an earlier import (another branch)"
ELSEWHERE = ("turns already stored in another conversation, or changed since "
             "(import as copies to add it anyway)")
_INSERT_TURNS = ("INSERT INTO turns (conversation_id, id, ordinal, question, answer, model, "
                 "finish_reason, created_at, usage, reasoning, incomplete, tool_exchange, "
                 "after_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
MAX_ORDINAL = 2 ** 53


def _iso(value: datetime | None) -> str:
    stamp = value or datetime.now(UTC)
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=UTC)
    return stamp.isoformat(timespec="microseconds")


def _settings(data: dict[str, Any] | None) -> str:
    """The file's settings where each has the type Turnlog keeps; the default otherwise."""
    defaults = ConversationSettings().to_json()
    kept: dict[str, Any] = {}
    for key, value in (data or {}).items():
        if key not in defaults or isinstance(value, dict | list):
            continue
        default = defaults[key]
        number = type(value) in (int, float)
        if type(value) is type(default) or (default is None and (value is None or number)) \
                or (isinstance(default, float) and number):
            kept[key] = value
    return json.dumps(ConversationSettings.from_json({**defaults, **kept}).to_json())


def fresh_ids(block: int = 1024) -> Iterator[str]:
    """Random turn ids, each as `uuid.uuid4().hex` writes one (version 4, RFC 4122 variant),
    drawn from the system's random source `block` at a time: one call per turn was a
    tenth of the time of importing 100,000 turns without ids."""
    while True:
        raw = bytearray(os.urandom(16 * block))
        raw[6::16] = bytes(b & 0x0F | 0x40 for b in raw[6::16])
        raw[8::16] = bytes(b & 0x3F | 0x80 for b in raw[8::16])
        text = raw.hex()
        for start in range(0, len(text), 32):
            yield text[start:start + 32]


def _batches(turns: Iterable[ImportedTurn], size: int) -> Iterator[list[ImportedTurn]]:
    batch: list[ImportedTurn] = []
    for turn in turns:
        batch.append(turn)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


class _Sourced:
    """What the turns of a sourced conversation read so far say: the conversation that
    holds its first turn (`owner`), how many turns from the start it holds (`prefix`),
    and whether a stored turn turned up anywhere else (`changed`)."""

    def __init__(self) -> None:
        self.total = self.known = self.prefix = self.appended = self.last = 0
        self.owner: int | None = None
        self.first_known: int | None = None
        self.target: int | None = None  # where new turns go
        self.changed = False
        # Stored turns for which the source now has files: id → how many.
        self.with_files: dict[str, int] = {}
        # The stored turns of the last batch that the source gives files: their files.
        self.known_files: list[tuple[str, tuple[Attachment, ...]]] = []

    def classify(self, batch: list[ImportedTurn], owners: dict[str, int]) -> list[ImportedTurn]:
        """The turns of `batch` that are new; stored ones are counted."""
        fresh: list[ImportedTurn] = []
        self.known_files = []
        for turn in batch:
            self.total += 1
            owner = owners.get(turn.pending.id)
            if self.total == 1:
                self.owner = owner
            if owner is None:
                fresh.append(turn)
                continue
            self.known += 1
            if turn.pending.attachments:
                self.with_files[turn.pending.id] = len(turn.pending.attachments)
                self.known_files.append((turn.pending.id, turn.pending.attachments))
            self.first_known = self.first_known if self.first_known is not None else owner
            if owner != self.owner or self.prefix != self.total - 1:
                self.changed = True
            else:
                self.prefix += 1
        return fresh


class ImportWriter:
    """Writes `ImportedConversation`s into an open transaction of `db`."""

    def __init__(self, db: peewee.SqliteDatabase, *, cancelled: Callable[[], bool],
                 progress: Callable[[int], None], as_copies: bool = False) -> None:
        self.db, self._cancelled, self._progress = db, cancelled, progress
        self.indexes = import_journal.RandomIndexes(db, at_least=BATCH)
        self._fresh_ids = fresh_ids()
        # A Turnlog file's conversations are matched by their turn ids (a second import
        # adds nothing) unless copies are asked for: then each is a new conversation.
        self.as_copies = as_copies
        self.turns_written = 0
        self.created = False  # whether the last conversation written is a new one
        self._attached = 0  # files of the last conversation's new turns
        # Files of the last conversation added to its turns imported before: how many,
        # to how many turns, how many of them are not images.
        self._added = self._added_turns = self._added_other = 0
        self._renamed: dict[str, str] = {}  # a file's turn id → the fresh id it got
        # The last conversation written: each of the file's turn ids → the id stored.
        self.stored_ids: dict[str, str] = {}
        self._global_id: str | None = None  # the conversation being written's (sync)

    @classmethod
    @contextmanager
    def open(cls, db: peewee.SqliteDatabase, *, cancelled: Callable[[], bool],
             progress: Callable[[int], None], as_copies: bool = False
             ) -> Iterator[ImportWriter]:
        """A writer inside the caller's transaction, with the turns' insert triggers set
        aside: the writer indexes and journals each batch itself (and builds the indexes
        it set aside again when it is done)."""
        with search.triggers_set_aside(db), import_journal.trigger_set_aside(db):
            writer = cls(db, cancelled=cancelled, progress=progress, as_copies=as_copies)
            yield writer
            writer.indexes.restore()

    def check(self) -> None:
        if self._cancelled():
            raise ImportCancelled("The import was cancelled; nothing was imported.")

    def write(self, item: ImportedConversation) -> ImportOutcome:
        self.check()
        # Per conversation (its pins are mapped through it): kept across conversations it
        # grew with every turn of the file, 50 MB over 240,000 turns.
        self.stored_ids = {}
        self.created, self._attached = False, 0
        self._added = self._added_turns = self._added_other = 0
        skipped: Counter[str] = Counter(item.skipped)
        self._global_id = revive(self.db, item)
        if item.source_ids:
            conv_id, count = self._write_sourced(item, skipped)
        elif self.as_copies:
            conv_id, count = self._write_new(item)
            self.created = True
        else:
            conv_id, count = self._write_own(item, skipped)
        order = sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0]))
        return ImportOutcome(conv_id, item.title, count, tuple((r, n) for r, n in order if n),
                             attached=self._attached, added=self._added,
                             added_turns=self._added_turns,
                             added_images=self._added - self._added_other)

    # ------------------------------------------------------------------ conversations
    def _create(self, item: ImportedConversation) -> int:
        cursor = self.db.execute_sql(
            "INSERT INTO conversations (title, system_prompt, model, settings, created_at, "
            "updated_at, next_ordinal, generation, source, source_model, gid) "
            "VALUES (?, ?, ?, ?, ?, ?, 1, 0, ?, ?, ?)",
            (item.title, item.system_prompt, item.model, _settings(item.settings),
             _iso(item.created_at), _iso(item.updated_at), item.source, item.source_model,
             self._global_id))
        conv_id = int(cursor.lastrowid)
        if item.folder or item.starred:  # a Turnlog export's: its folder (made if missing)
            self.db.execute_sql(
                "UPDATE conversations SET folder_id = ?, starred = ? WHERE id = ?",
                (folder_for(self.db, item.folder) if item.folder else None, int(item.starred),
                 conv_id))
        return conv_id

    def _finish(self, conv_id: int, next_ordinal: int, updated: datetime | None) -> None:
        self.db.execute_sql(
            "UPDATE conversations SET next_ordinal = max(next_ordinal, ?), "
            "updated_at = max(updated_at, ?) WHERE id = ?",
            (next_ordinal, _iso(updated), conv_id))

    def _write_new(self, item: ImportedConversation) -> tuple[int, int]:
        """A new conversation; a turn id already taken gets a fresh one (a copy)."""
        conv_id = self._create(item)
        last = 0
        count = 0
        batch: list[ImportedTurn] = []
        for turn in item.turns:
            batch.append(turn)
            if len(batch) >= BATCH:
                last = self._insert(conv_id, batch, last)
                count += len(batch)
                batch.clear()
        if batch:
            last = self._insert(conv_id, batch, last)
            count += len(batch)
        self._finish(conv_id, max(last + 1, item.next_ordinal or 0), item.updated_at)
        self._versions(conv_id, item)
        return conv_id, count

    def _versions(self, conv_id: int, item: ImportedConversation) -> None:
        """The file's supersede records, those naming a turn written now (ids as stored):
        as the file lists them, with their times; from a file without them (written
        before they were exported), records that give back its versions."""
        ids = self.stored_ids
        rows = [(conv_id, ids.get(a, a), ids.get(b, b), at)
                for a, b, at in item.supersede_records if a in ids or b in ids]
        if not item.supersede_records:
            now = _iso(None)
            replaced = {ids.get(a, a): ids.get(b, b) for a, b in item.superseded_by.items()
                        if a in ids or b in ids}
            rows = [(conv_id, a, b, now) for a, b in restore_order(replaced)]
        self._renamed.clear()
        self.db.cursor().executemany(
            "INSERT INTO supersedes (conversation_id, turn_id, by_turn_id, created_at) "
            "VALUES (?, ?, ?, ?)", rows)

    def _write_own(self, item: ImportedConversation,
                   skipped: Counter[str]) -> tuple[int | None, int]:
        """A Turnlog file's conversation, matched by its turns' ids as a source's is: one
        stored before is not added again (turns after it are appended, with their
        versions); a conversation without turns by its title and creation time."""
        conv_id, count = self._write_sourced(item, skipped, own=True)
        if self.stored_ids and conv_id is not None:
            self._versions(conv_id, item)
        if conv_id is not None or skipped[ALREADY] or skipped[ELSEWHERE]:
            return conv_id, count
        found = self.db.execute_sql(
            "SELECT id FROM conversations c WHERE title = ? AND created_at = ? AND NOT EXISTS "
            "(SELECT 1 FROM turns t WHERE t.conversation_id = c.id) LIMIT 1",
            (item.title, _iso(item.created_at))).fetchone() if item.created_at else None
        if found is not None:
            skipped[ALREADY_EMPTY] += 1
            return int(found[0]), 0
        conv_id = self._create(item)
        self._finish(conv_id, item.next_ordinal or 1, item.updated_at)
        self.created = True
        return conv_id, 0

    def _write_sourced(self, item: ImportedConversation, skipped: Counter[str], *,
                       own: bool = False) -> tuple[int | None, int]:
        """Ids from the source: what an earlier import brought in is not added again;
        turns after it are appended to that conversation. Read in batches (a conversation
        may hold 100,000 turns): new turns are written as they come, in a savepoint that
        is rolled back if a later turn shows the conversation changed since. `own`: a
        Turnlog file's (its ordinals and its turns' ids noted for its pins and versions)."""
        seen = _Sourced()
        with self.db.savepoint() as written:
            for batch in _batches(item.turns, BATCH):
                fresh = seen.classify(batch, self._owners([t.pending.id for t in batch]))
                if seen.changed:
                    written.rollback()
                    self.turns_written -= seen.appended
                    seen.appended, self._attached = 0, 0
                    self._added = self._added_turns = self._added_other = 0
                    self.stored_ids.clear()
                    continue
                if seen.known_files and not own:
                    self._add_files(seen.known_files)
                if fresh:
                    self._append_sourced(item, seen, fresh, own)
            if seen.target is not None and not seen.changed:
                next_ordinal = max(seen.last + 1, item.next_ordinal or 0) if own and \
                    seen.owner is None else seen.last + 1
                self._finish(seen.target, next_ordinal, item.updated_at)
        self.created = seen.owner is None and seen.target is not None and not seen.changed
        if seen.total == 0:
            return None, 0
        if seen.changed:  # nothing was added to its turns: say what they still lack
            skipped[NOT_ATTACHED] += self._not_attached(seen.with_files)
        if seen.changed or (seen.owner is None and seen.known):
            self.stored_ids.clear()
            skipped[ALREADY] += seen.known
            skipped[ELSEWHERE if own else CHANGED] += seen.total - seen.known
            return seen.first_known, 0
        skipped[ALREADY] += seen.prefix
        return seen.target if seen.target is not None else seen.owner, seen.appended

    def _add_files(self, known: list[tuple[str, tuple[Attachment, ...]]]) -> None:
        """The files the source now has for turns imported before that those turns lack
        (a `.zip` after its `conversations.json`): appended to the turn's files, dated,
        the turn itself unchanged; one the turn has already (by its SHA-256) is not
        added again."""
        stored = attachments.stored_originals(self.db, [turn_id for turn_id, _ in known])
        now = _iso(None)
        for turn_id, files in known:
            have, start = stored.get(turn_id, (set(), 0))
            missing: list[Attachment] = []
            for attachment in files:
                if attachment.digest not in have:
                    have.add(attachment.digest)
                    missing.append(replace(attachment, added_at=now))
            if missing:
                attachments.add_to_turn(self.db, turn_id, missing, start)
                attachments.journal_added(self.db, turn_id, start)
                self._added += len(missing)
                self._added_turns += 1
                self._added_other += sum(a.kind is not AttachmentKind.IMAGE for a in missing)

    def _not_attached(self, wanted: dict[str, int]) -> int:
        """How many of the files the source now has for stored turns those turns lack
        (a conversation that changed since it was imported gets none added)."""
        ids = list(wanted)
        have: dict[str, int] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            have.update(self.db.execute_sql(
                "SELECT turn_id, count(*) FROM turn_attachments WHERE turn_id IN "
                f"({', '.join('?' * len(chunk))}) GROUP BY turn_id", chunk).fetchall())
        return sum(max(0, n - have.get(turn_id, 0)) for turn_id, n in wanted.items())

    def _append_sourced(self, item: ImportedConversation, seen: _Sourced,
                        fresh: list[ImportedTurn], own: bool = False) -> None:
        if seen.target is None:
            if seen.owner is None:
                seen.target, seen.last = self._create(item), 0
            else:
                (next_ordinal,) = self.db.execute_sql(
                    "SELECT next_ordinal FROM conversations WHERE id = ?",
                    (seen.owner,)).fetchone()
                seen.target, seen.last = seen.owner, int(next_ordinal) - 1
        seen.last = self._insert(seen.target, fresh, seen.last,
                                 keep_ordinals=own or seen.owner is None, sourced=not own,
                                 unstored=True)
        seen.appended += len(fresh)

    # ------------------------------------------------------------------------ turns
    def _owners(self, ids: Sequence[str]) -> dict[str, int]:
        """Which of `ids` are stored, and in which conversation (looked up in batches)."""
        found: dict[str, int] = {}
        for start in range(0, len(ids), 500):
            chunk = list(ids[start:start + 500])
            marks = ", ".join("?" * len(chunk))
            for turn_id, owner in self.db.execute_sql(
                    f"SELECT id, conversation_id FROM turns WHERE id IN ({marks})", chunk):
                found[turn_id] = int(owner)
        return found

    def _insert(self, conv_id: int, turns: Iterable[ImportedTurn], last: int, *,
                keep_ordinals: bool = True, sourced: bool = False,
                unstored: bool = False) -> int:
        """Insert `turns` after ordinal `last`; returns the last ordinal used. The ids
        they were stored under are noted for the conversation's pins unless `sourced`
        (a source's conversations bring no pins). `unstored`: the caller has just found
        none of their ids stored (only a repeat among them needs a fresh one)."""
        self.check()
        self.indexes.make_room(self.turns_written)
        turns = list(turns)
        taken = {} if unstored else self._owners([t.pending.id for t in turns if t.pending.id])
        rows: list[tuple[Any, ...]] = []
        files = []
        full: list[tuple[str, str, str]] = []
        journaling = import_journal.journaling(self.db)
        place: str | None = None  # the next turn's (each new turn stands after the last)
        stamped: tuple[object, str] = (None, "")  # a time and its text (turns often share one)
        for turn in turns:
            pending = turn.pending
            turn_id = pending.id
            if not turn_id or turn_id in taken:
                turn_id = next(self._fresh_ids)  # ids are global; a copy gets fresh ones
            else:
                taken[turn_id] = conv_id
            given = turn.ordinal if keep_ordinals else None
            last = given if given is not None and last < given < MAX_ORDINAL else last + 1
            if journaling and not rows:
                place = import_journal.place_before(self.db, conv_id, last)
            usage = None if pending.usage is UNKNOWN_USAGE else pending.usage.to_json()
            if pending.created_at is None or pending.created_at is not stamped[0]:
                stamped = (pending.created_at, _iso(pending.created_at))
            if turn_id != pending.id and pending.id:
                self._renamed[pending.id] = turn_id
            if pending.id and not sourced:
                self.stored_ids[pending.id] = turn_id
            rows.append((conv_id, turn_id, last, pending.question, pending.answer,
                         pending.model, pending.finish_reason, stamped[1],
                         json.dumps(usage) if usage else None, pending.reasoning,
                         pending.incomplete,
                         rounds_to_json(pending.tools) if pending.tools else None,
                         place if journaling else None))
            place = turn_id
            if pending.attachments:
                files.append((turn_id, pending.attachments))
            if pending.tools:
                full.extend((turn_id, call_id, text) for tool_round in pending.tools
                            for call_id, text in tool_round.full_results.items())
        self.db.cursor().executemany(_INSERT_TURNS, rows)
        if journaling:
            import_journal.journal_turns(self.db, conv_id, [row[1] for row in rows])
        if full:  # the full results of calls cut for sending
            self.db.cursor().executemany(
                "INSERT INTO tool_results (turn_id, call_id, content) VALUES (?, ?, ?)", full)
        for turn_id, attached in files:  # each file once, however many turns hold it
            attachments.add_to_turn(self.db, turn_id, attached)
            self._attached += len(attached)
        search.bulk_index(self.db, [((row[0] << 32) | row[2], row[3], row[4]) for row in rows])
        self.turns_written += len(rows)
        self._progress(self.turns_written)
        return last


def revive(db: peewee.Database, item: ImportedConversation) -> str | None:
    """The global id of `item`'s conversation (None: a random one). A conversation deleted
    everywhere keeps its tombstone for good: importing its source again is a new act, with
    a new id derived from the deleted one (so machines that both import it again still
    hold one conversation), and its turns' ids derived from that (the old ones stay
    tombstoned)."""
    gid = item.global_id or None
    revived = False
    while gid is not None and db.execute_sql(
            'SELECT 1 FROM "sync_tombstones" WHERE "gid" = ?', (gid,)).fetchone() is not None:
        gid, revived = uuid.uuid5(REVIVED, gid).hex, True
    if revived and gid is not None:
        again = gid
        item.turns = (ImportedTurn(replace(t.pending, id=uuid.uuid5(REVIVED, f"{again}/"
                                                                    f"{t.pending.id}").hex),
                                   t.ordinal) for t in item.turns)
    # The same source imported as a new conversation beside the one it made before (it
    # changed since): an id derived from that one's.
    while gid is not None and db.execute_sql(
            'SELECT 1 FROM "conversations" WHERE "gid" = ?', (gid,)).fetchone() is not None:
        gid = uuid.uuid5(REVIVED, f"beside/{gid}").hex
    return gid


REVIVED = uuid.UUID("6e0d9a3c-27b4-4f1e-9c85-d4a1f3b7e902")
