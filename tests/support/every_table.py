"""Every table of a data directory filled with one of each record a person makes
(`fill`), and each table's user-visible fields by what they point to (`dump`: row ids,
which each data directory numbers itself, compared through a conversation's title, a
folder's and an assistant's name, a summary's text): what an export and import, or a
sync, must carry across whole."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from turnlog.core.assistants import AssistantNote, AssistantSetup
from turnlog.core.attachments import Attachment
from turnlog.core.compaction import SummaryDraft
from turnlog.core.model import Usage
from turnlog.core.proof import PIN_TEXT, SYSTEM_TEXT, Remembered, RequestProof
from turnlog.core.request_record import RequestRecord
from turnlog.core.send import PendingTurn
from turnlog.core.side_records import SideAttempt
from turnlog.core.tools import ToolCall, ToolResult, ToolRound
from turnlog.formats.file_reading import read_bytes
from turnlog.store import TurnlogStore

WHEN = datetime(2024, 5, 1, 9, 30, tzinfo=UTC)
# Derived or internal tables: rebuilt by the store, not something a person sees as such
# (the sync's journal, clock and tombstones are each data directory's own).
INTERNAL = ("search", "sqlite_", "blobs", "sync_")
# Columns numbered by each data directory, and what they are compared through.
REFERENCES = {"conversation_id": "conversations", "source_id": "conversations",
              "folder_id": "folders", "assistant_id": "assistants",
              "summary_id": "summaries", "replaced_id": "summaries", "edited_from": "summaries"}
# A sync global id (`gid`): an imported copy is a new record, with ids of its own.
DROPPED = {"id", "texts_id", "set_id", "text_id", "gid"}
# Shown nowhere (neither the window nor turnlog-cli): when an assistant row was written.
UNSHOWN = {("assistants", "created_at"), ("assistants", "updated_at")}


def pending(turn_id: str, question: str, minutes: int, **extra) -> PendingTurn:
    return PendingTurn(turn_id, question, f"answer to {question}", "m1", "stop",
                       Usage(10, 5, 15), WHEN + timedelta(minutes=minutes), **extra)


def text_file(name: str, text: str) -> Attachment:
    return read_bytes(name, text.encode("utf-8"))


def fill(store: TurnlogStore) -> None:
    """Folders and stars, an assistant with files and the conversation it started, a
    turn with an attachment, a failed side question, a fork and a request record."""
    helper = store.assistants.add(AssistantSetup(
        "Editor ✍️", icon="📝", system_prompt="Edit {{language}} text.", model="m2",
        temperature=0.3, pins=("Keep it short",), notes=(AssistantNote("Formal", 4),)),
        [text_file("style.md", "# Style\nshort")])
    store.assistants.add(AssistantSetup("Plain"))
    started = store.assistants.start(helper, system_prompt="Edit English text.", model="m2",
                                     settings=store.conversations.create("x").settings)
    store.conversations.update(started.id, title="Started")
    store.turns.commit(started.id, pending("s1", "Fix this", 1, attachments=(
        text_file("draft.txt", "teh cat"),)))
    trips = store.conversations.create("Trips")
    store.turns.commit_many(trips.id, [pending(f"t{i}", f"trip {i}", 10 + i)
                                       for i in range(1, 4)])
    folder = store.folders.add("旅行 Travel")
    store.folders.add("Empty folder")
    store.folders.move([trips.id], folder.id)
    store.folders.star([trips.id])
    store.side.add_attempt(trips.id, SideAttempt(WHEN, "length", "m1", Usage(40, 0, 40),
                                                 carried=(1, 2)))
    store.forks.at(trips.id, 3, title="Trips (fork)")
    full = "row\n" * 5_000
    store.turns.commit(trips.id, pending("t4", "search it", 20, tools=(ToolRound(
        (ToolCall("call_1", "search", '{"q": "x"}'),),
        (ToolResult("call_1", full[:100] + "[cut]", cut_bytes=len(full) - 100),),
        "Looking.", full_results={"call_1": full}),)))
    store.records.save_summary(trips.id, SummaryDraft(
        ("t1", "t2"), 1, 2, "digest-1-2", "Two trips were planned.", "m-sum", "key-1", 6,
        (Usage(50, 6, 56),), (), 0))
    store.records.edit_summary(trips.id, "Two trips, both to Kyoto.", 7)
    store.records.add(RequestRecord(
        conversation_id=trips.id, started_at=WHEN, model="m1", outcome="ok", body_bytes=900,
        max_bytes=16_000, input_tokens=40, token_budget=1_000, tokens_exact=False,
        sent=(1, 2, 3), summarized=(), left_out=(), usage=Usage(40, 5, 45)))
    pin = store.memory.add_pin(trips.id, "Budget 500 €", sources=("t1",))
    store.records.add(RequestRecord(
        conversation_id=trips.id, started_at=WHEN + timedelta(minutes=30), model="m1",
        outcome="committed", body_bytes=1_200, max_bytes=16_000, input_tokens=60,
        token_budget=1_000, tokens_exact=True, sent=(3, 4), summarized=(1, 2), left_out=(),
        usage=Usage(60, 7, 67), turn_id="t4", summary_id=store.records.latest_summary(
            trips.id).id, proof=RequestProof(
            ("ab" * 32, "cd" * 32), run_first="t3", run_last="t4", run_first_ordinal=3,
            run_last_ordinal=4, run_count=2, texts=(
                Remembered(SYSTEM_TEXT, "", "Be brief."),
                Remembered(PIN_TEXT, str(pin.id), "Budget 500 €")),
            tools=({"type": "function", "function": {"name": "search"}},))))


def _plain(value: object) -> object:
    """A column's value as compared: bytes as hex, JSON text as what it says (how it is
    spaced is no field)."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def dump(store: TurnlogStore) -> dict[str, list[str]]:
    db = store.db
    names = [n for (n,) in db.execute_sql(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
        if not n.startswith(INTERNAL)]
    labels = {
        "conversations": dict(db.execute_sql("SELECT id, title FROM conversations")),
        "folders": dict(db.execute_sql("SELECT id, name FROM folders")),
        "assistants": dict(db.execute_sql("SELECT id, name FROM assistants")),
        "summaries": dict(db.execute_sql("SELECT id, content FROM summaries"))}
    found: dict[str, list[str]] = {}
    for name in names:
        cursor = db.execute_sql(f'SELECT * FROM "{name}"')
        columns = [c[0] for c in cursor.description]
        rows = []
        for row in cursor.fetchall():
            kept = {}
            for column, value in zip(columns, row, strict=True):
                if column in REFERENCES:
                    kept[column] = labels[REFERENCES[column]].get(value, value)
                elif (name, column) in UNSHOWN:
                    continue
                elif column not in DROPPED or name in ("turns", "side_questions"):
                    kept[column] = _plain(value)
            rows.append(json.dumps(kept, ensure_ascii=False, sort_keys=True, default=str))
        found[name] = sorted(rows)
    return found


