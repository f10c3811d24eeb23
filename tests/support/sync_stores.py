"""Two or three data directories open in one process, exchanging change records the way
the sync's wire side does (each machine's outgoing records, applied by another), and a
canonical dump of what each holds, by global id (local row ids and ordinals differ)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from turnlog.core.model import Usage
from turnlog.core.pending import PendingTurn
from turnlog.core.summaries import SummaryDraft
from turnlog.store import TurnlogStore


def open_machines(root: Path, names: str = "AB") -> dict[str, TurnlogStore]:
    machines = {}
    for name in names:
        store = TurnlogStore.open(root / f"machine-{name}")
        store.sync_feed.machine = name
        machines[name] = store
    return machines


@contextmanager
def machines_open(root: Path, names: str = "AB") -> Iterator[dict[str, TurnlogStore]]:
    """`open_machines`, each store closed again at the end."""
    machines = open_machines(root, names)
    try:
        yield machines
    finally:
        for store in machines.values():
            store.close()


def pending(question: str, answer: str = "", *, replaces: str | None = None) -> PendingTurn:
    return PendingTurn(id=uuid.uuid4().hex, question=question, answer=answer or f"re: {question}",
                       model="m", finish_reason="stop", usage=Usage(1, 2, 3),
                       created_at=datetime.now(UTC), replaces=replaces)


def summarize(store: TurnlogStore, conversation_id: int, content: str) -> Any:
    """A summary of the conversation's active line as it stands here, saved as a
    compaction saves one."""
    line = store.turns.active(conversation_id)
    return store.records.save_summary(conversation_id, SummaryDraft(
        tuple(t.id for t in line), line[0].ordinal, line[-1].ordinal, "digest", content, "m",
        "key", 5, (), (), store.conversations.generation(conversation_id)))


def current_summary(store: TurnlogStore, conversation_id: int) -> str | None:
    """The global id of the summary a send would carry now."""
    found = store.records.latest_summary(conversation_id)
    return None if found is None else store.db.execute_sql(
        'SELECT "gid" FROM "summaries" WHERE "id" = ?', (found.id,)).fetchone()[0]


def published(store: TurnlogStore) -> list[dict[str, Any]]:
    """Everything this machine has to publish (a first sync's worth), in pages."""
    out, cursor = [], 0
    while True:
        page, cursor_after = store.sync_feed.outgoing(cursor, limit=50)
        out += page
        if cursor_after == cursor:
            return out
        cursor = cursor_after


def pull(store: TurnlogStore, *others: TurnlogStore) -> Any:
    """`store` reads what each of `others` published in one call (as a sync reads every
    machine's new objects), records passed through JSON as the storage carries them."""
    return store.sync_feed.incoming_from({
        other.sync_feed.machine: [json.loads(json.dumps(r)) for r in published(other)]
        for other in others})


def conversation_by_gid(store: TurnlogStore, gid: str) -> int | None:
    row = store.db.execute_sql('SELECT "id" FROM "conversations" WHERE "gid" = ?',
                               (gid,)).fetchone()
    return None if row is None else row[0]


def gid_of(store: TurnlogStore, conversation_id: int) -> str:
    return store.db.execute_sql('SELECT "gid" FROM "conversations" WHERE "id" = ?',
                                (conversation_id,)).fetchone()[0]


def dump(store: TurnlogStore) -> dict[str, Any]:
    """What a person would see, by global id: each conversation's title, settings, fork
    origin, the turns of its active line (ids and text), every turn kept with its place
    (the group it follows, the group it is a version in), pins, notes, preferences and
    folders, and the summary a send would carry. The line's order on screen is compared
    where a test knows it: a version that arrives after another machine's continuation of
    its turn is shown after that continuation on the machine that had the continuation
    first (ordinals are local)."""
    db = store.db
    out: dict[str, Any] = {}
    for cid, gid, title, prompt, model, settings, starred in db.execute_sql(
            'SELECT "id", "gid", "title", "system_prompt", "model", "settings", "starred" '
            'FROM "conversations"').fetchall():
        line = sorted((t.id, t.question, t.answer) for t in store.turns.active(cid))
        every = sorted(db.execute_sql('SELECT "id", "after_id", "version_of" FROM "turns" '
                                      'WHERE "conversation_id" = ?', (cid,)).fetchall())
        fork = db.execute_sql('SELECT "continued_on" FROM "forks" WHERE "conversation_id" = ?',
                              (cid,)).fetchone()
        pins = sorted(db.execute_sql('SELECT "gid", "text" FROM "pins" WHERE '
                                     '"conversation_id" = ?', (cid,)).fetchall())
        notes = sorted(db.execute_sql('SELECT "gid", "text", "priority" FROM "notes" WHERE '
                                      '"conversation_id" = ?', (cid,)).fetchall())
        out[gid] = {"title": title, "prompt": prompt, "model": model, "settings": settings,
                    "starred": starred, "line": line, "all": every,
                    "fork": fork[0] if fork else None, "pins": pins, "notes": notes,
                    "summary": current_summary(store, cid)}
    out["preferences"] = sorted(db.execute_sql(
        'SELECT "gid", "text", "priority" FROM "preferences"').fetchall())
    out["folders"] = sorted(db.execute_sql('SELECT "gid", "name" FROM "folders"').fetchall())
    return out


def file_bytes(store: TurnlogStore) -> bytes:
    """Every byte of the store's database and what SQLite keeps beside it."""
    return b"".join(p.read_bytes() for p in sorted(store.home.glob("turnlog.sqlite3*"))
                    if p.is_file())
