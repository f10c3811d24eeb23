"""Change records' shape: what each kind carries, checked within bounds before anything of
a batch is applied (the storage they came through is untrusted)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from .errors import SyncRecordInvalid

FORMAT = 1
MAX_RECORD_BYTES = 4 * 1024 * 1024  # one record, serialised (blobs travel apart)
MAX_TEXT = 4 * 1024 * 1024  # one text field, in characters
MAX_TARGETS = 1_000_000  # the ids one delete names
MAX_LIST = 10_000  # a pin's sources
HLC = re.compile(r"\d{13}-\d{6}-[0-9a-f]{32}")
NODE = re.compile(r"[0-9a-f]{32}")  # what ends a clock reading: a node (machine) id
ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
TITLE_SOURCES = ("user", "question", "model")

# Each kind's fields: name → (types, may be None). A record may carry only these.
_TEXT = (str,)
CONVERSATION_FIELDS: dict[str, tuple[tuple[type, ...], bool]] = {
    "title": (_TEXT, False), "title_source": (_TEXT, False), "system_prompt": (_TEXT, False),
    "model": (_TEXT, False), "settings": (_TEXT, False), "folder": (_TEXT, True),
    "starred": ((bool, int), False), "source": (_TEXT, False),
    "source_model": (_TEXT, False), "created_at": (_TEXT, False),
}
CREATE_NEEDS = ("title", "created_at")
# A conversation's fields that change one at a time (the rest come with its creation).
CHANGING = {"title": ("title", "title_source"), "system_prompt": ("system_prompt",),
            "model": ("model",), "settings": ("settings",), "folder": ("folder",),
            "starred": ("starred",)}
KIND_FIELDS: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "turn": {"question": (_TEXT, False), "answer": (_TEXT, False), "model": (_TEXT, False),
             "finish_reason": (_TEXT, False), "created_at": (_TEXT, False),
             "usage": (_TEXT, True), "reasoning": (_TEXT, False),
             "incomplete": (_TEXT, True), "tool_exchange": (_TEXT, True),
             "after": (_TEXT, True), "version_of": (_TEXT, True)},
    "version": {"turn": (_TEXT, False), "by": (_TEXT, False)},
    "use_version": {"turn": (_TEXT, False), "by": (_TEXT, False)},
    "pin": {"text": (_TEXT, False), "pin_kind": (_TEXT, False), "sources": ((list,), False),
            "created_at": (_TEXT, False)},
    "note": {"text": (_TEXT, False), "priority": ((int,), False), "created_at": (_TEXT, False)},
    "preference": {"text": (_TEXT, False), "priority": ((int,), False),
                   "created_at": (_TEXT, False)},
    "folder": {"name": (_TEXT, False), "created_at": (_TEXT, False)},
    # A side question: the turns it carried (sent, summarized, left out) by id.
    "side": {"question": (_TEXT, False), "answer": (_TEXT, False), "model": (_TEXT, False),
             "created_at": (_TEXT, False), "usage": (_TEXT, True),
             "body_bytes": ((int,), False), "input_tokens": ((int,), False),
             "tokens_exact": ((bool, int), False), "sent": ((list,), False),
             "summarized": ((list,), False), "left_out": ((list,), False),
             "side_ids": ((list,), False)},
    # An assistant: tool servers and its profile by name only; its files as a turn's.
    "assistant": {"name": (_TEXT, False), "icon": (_TEXT, False), "position": ((int,), False),
                  "system_prompt": (_TEXT, False), "profile": (_TEXT, False),
                  "model": (_TEXT, False), "sampling": (_TEXT, False), "pins": (_TEXT, False),
                  "notes": (_TEXT, False), "tools": (_TEXT, False),
                  "created_at": (_TEXT, False), "updated_at": (_TEXT, False),
                  "folder": (_TEXT, True), "files": ((list,), False)},
    # Which assistant a conversation started from (id `<conversation id>.assistant`).
    "conversation_assistant": {"assistant": (_TEXT, True), "name": (_TEXT, False)},
    # A rolling summary or a kept version of it: its span as its machine numbered the turns
    # (the text a request carried names it), the summaries it replaced and was edited from
    # by id; `covered_ids` its covered turns' ids as JSON ("[]": not kept).
    "summary": {"first_ordinal": ((int,), False), "last_ordinal": ((int,), False),
                "covered_count": ((int,), False), "covered_digest": (_TEXT, False),
                "covered_ids": (_TEXT, False), "content": (_TEXT, False),
                "model": (_TEXT, False), "settings_key": (_TEXT, False),
                "created_at": (_TEXT, False), "content_bytes": ((int,), False),
                "content_tokens": ((int,), False), "usages": (_TEXT, False),
                "warnings": (_TEXT, False), "replaced": (_TEXT, True),
                "edited_from": (_TEXT, True), "undone": ((bool, int), False)},
    # A request record: its numbers, the turns it names by id (`sent`, `summarized`,
    # `left_out`: runs as [first id, last id]), its summary by id, the tool set and the
    # texts its proof keeps (`texts`: [kind, the item's id or None, text or None]) and
    # `run`: the SHA-256 of the ids of the turns it sent verbatim, in order.
    "request": {**{name: (types, type(None) in types) for name, types in (
        ("started_at", _TEXT), ("model", _TEXT), ("outcome", _TEXT),
        ("status", (int, type(None))), ("body_bytes", (int,)), ("max_bytes", (int,)),
        ("input_tokens", (int,)), ("token_budget", (int,)), ("tokens_exact", (bool, int)),
        ("usage", (str, type(None))), ("extra_usage", _TEXT),
        ("duration_s", (float, int)), ("first_token_s", (float, int, type(None))),
        ("turn_id", (str, type(None))), ("attempt", (int,)),
        ("body_format", (int, type(None))), ("sha256", (str, type(None))),
        ("run_first", (str, type(None))), ("run_last", (str, type(None))),
        ("run_count", (int,)), ("options", (str, type(None))),
        ("continued", (int, type(None))), ("prefill", (bool, int)), ("profile", _TEXT),
        ("prices", (str, type(None))), ("output_estimate", (int, type(None))),
        ("round_usage", _TEXT), ("summary", (str, type(None))),
        ("tools", (str, type(None))), ("texts", (list, type(None))),
        ("run", (str, type(None))), ("sent", (list,)), ("summarized", (list,)),
        ("left_out", (list,)))}},
    # Files a later import added to a turn already stored (id: the turn's), as the turn's
    # own record names its files; their bytes travel as blobs.
    "files": {"files": ((list,), False)},
    # A side request that failed: its usage and the turns it carried (runs, as a request's).
    "side_attempt": {"created_at": (_TEXT, False), "outcome": (_TEXT, False),
                     "usage": (_TEXT, True), "model": (_TEXT, False),
                     "carried": ((list,), False)},
}
REMOVABLE = ("pin", "note", "preference", "folder", "assistant")  # may say `removed`
WITH_FILES = ("turn", "assistant", "files")
ID_LISTS = ("sources", "sent", "summarized", "left_out", "side_ids")
# A turn's files (`files`, optional): each names its bytes by SHA-256; the bytes travel
# apart, as blobs.
FILE_FIELDS: dict[str, tuple[tuple[type, ...], bool]] = {
    "id": (_TEXT, False), "position": ((int,), False), "name": (_TEXT, False),
    "kind": (_TEXT, False), "mime": (_TEXT, False), "size": ((int,), False),
    "original": (_TEXT, False), "sent": (_TEXT, False), "sent_mime": (_TEXT, False),
    "width": ((int,), False), "height": ((int,), False), "encoding": (_TEXT, False),
    "notes": (_TEXT, False), "added_at": (_TEXT, True),
}
MAX_FILES = 1_000  # one turn's files
MAX_FILE_TEXT = 4096  # a file's name, kind, mime, encoding, notes
DIGEST = re.compile(r"[0-9a-f]{64}")
ROW_KINDS = ("pin", "note", "preference", "folder")  # added, changed or removed as a whole
ID_FIELDS = ("after", "version_of", "turn", "by", "folder", "assistant", "replaced",
             "edited_from", "turn_id", "run_first", "run_last", "summary")
# Turns named by runs of ids ([first id, last id]) rather than by a list of ids.
RUN_FIELDS = {"request": ("sent", "summarized", "left_out"), "side_attempt": ("carried",)}
TEXT_KINDS = ("system", "pin", "note", "preference")  # the texts a request's proof keeps
MAX_RESULTS = 10_000  # the full tool results one turn keeps
KINDS = ("conversation", "delete", *KIND_FIELDS)
NEEDS_CONVERSATION = ("conversation", "turn", "version", "use_version", "pin", "note",
                      "side", "conversation_assistant", "summary", "request", "side_attempt",
                      "files")


class Outgoing(NamedTuple):
    """One change record of this machine as it goes into an object: its JSON (UTF-8, one
    object) as the feed wrote it, and what the wire side reads of it without parsing it: its
    kind, id and conversation, and the record itself when the wire side needs more (a
    delete's targets and counts, the files a record names: `needs_reading`), else None. A
    first sync of 100,000 turns handles each once, as bytes (a tuple: made cheaply)."""

    json: bytes
    kind: str
    id: str
    conv: str | None
    record: dict[str, Any] | None = None


# A plain turn's record, field by field, as a page carries it by columns (`TurnColumns`):
# its kind is "turn" and its format FORMAT; these are the rest, in the record's order.
TURN_COLUMNS = ("id", "conv", "hlc", "question", "answer", "model", "finish_reason",
                "created_at", "usage", "reasoning", "incomplete", "tool_exchange", "after",
                "version_of")


class TurnColumns(NamedTuple):
    """A page's plain turns (no files, no tool results: most of a log) by columns, as
    SQLite reads them without a Python object per field: `count` turns; for each of
    TURN_COLUMNS, each turn's value as UTF-8 joined into one `data` bytes and each value's
    length in bytes (-1: null) as the text of a JSON list without its brackets
    (`lengths`)."""

    count: int
    lengths: Sequence[str]
    data: Sequence[bytes]


class OutgoingPage(NamedTuple):
    """A page of this machine's change records as they go into one object: the records
    written as JSON (`json`) and, read by columns, its plain turns (`turns`), the records
    of `json` at the places `at` of the page's order and the turns in the places between;
    the global ids they carry (`carried_ids`: what a delete everywhere can remove from the
    object), the records the wire side reads (`needs_reading`), and the feed's cursor past
    the page."""

    json: Sequence[bytes]
    ids: set[str]
    read: list[dict[str, Any]]
    after: int
    turns: TurnColumns | None = None
    at: Sequence[int] = ()

    @property
    def count(self) -> int:
        """How many records the page holds."""
        return len(self.json) + (self.turns.count if self.turns is not None else 0)

    @classmethod
    def of(cls, records: Iterable[Outgoing], after: int) -> OutgoingPage:
        written: list[bytes] = []
        ids: set[str] = set()
        read: list[dict[str, Any]] = []
        for record in records:
            written.append(record.json)
            ids.update(carried_ids(record))
            if record.record is not None:
                read.append(record.record)
        return cls(written, ids, read, after)


def carried_ids(record: Outgoing) -> tuple[str, ...]:
    """The global ids a record carries: its own, and its conversation's unless it is a
    delete (a delete names the conversation it removed; it is not about it)."""
    if record.conv is None or record.kind == "delete":
        return (record.id,)
    return (record.id, record.conv)


def needs_reading(record: dict[str, Any]) -> bool:
    """Whether the wire side looks into this record (a delete, or a record naming files)."""
    return record.get("kind") == "delete" or bool(record.get("files"))


def refuse(record: Any, why: str) -> SyncRecordInvalid:
    kind = record.get("kind") if isinstance(record, dict) else None
    name = kind if isinstance(kind, str) and kind in KINDS else "a"
    return SyncRecordInvalid(f"A change record from another machine was refused ({name} "
                             f"record: {why}); nothing of its batch was applied.")


def check(record: Any) -> dict[str, Any]:
    """`record` if it is a well-formed change record of a kind this version knows, else
    `SyncRecordInvalid` naming what is wrong."""
    if not isinstance(record, dict):
        raise refuse(record, "not an object")
    try:
        size = len(json.dumps(record, ensure_ascii=False).encode())
    except (TypeError, ValueError) as err:
        raise refuse(record, "not JSON") from err
    if size > MAX_RECORD_BYTES:
        raise refuse(record, f"{size:,} bytes, more than {MAX_RECORD_BYTES:,}")
    if record.get("v") != FORMAT:
        raise refuse(record, f"format {record.get('v')!r}, this version reads {FORMAT}")
    kind = record.get("kind")
    if kind not in KINDS:
        raise refuse(record, f"unknown kind {str(kind)[:40]!r}")
    _check_id(record, record.get("id"), "id")
    if not isinstance(record.get("hlc"), str) or not HLC.fullmatch(record["hlc"]):
        raise refuse(record, "its clock reading is malformed")
    conv = record.get("conv")
    if conv is not None or kind in NEEDS_CONVERSATION:
        _check_id(record, conv, "conv")
    if kind == "conversation":
        _check_conversation(record)
    elif kind == "delete":
        targets = record.get("targets")
        if not isinstance(targets, list) or not targets or len(targets) > MAX_TARGETS:
            raise refuse(record, "its targets are not a list of ids")
        for target in targets:
            _check_id(record, target, "target")
    elif kind in REMOVABLE and record.get("removed") is True:
        pass
    else:
        _check_fields(record, KIND_FIELDS[kind], record)
        for name in ID_FIELDS:
            if record.get(name) is not None:
                _check_id(record, record[name], name)
        for name in ID_LISTS:
            if name not in KIND_FIELDS[kind] or name in RUN_FIELDS.get(kind, ()):
                continue
            if len(record[name]) > MAX_LIST:
                raise refuse(record, f"too many {name}")
            for item in record[name]:
                _check_id(record, item, name)
        if kind in WITH_FILES and "files" in record:
            _check_files(record)
        for name in RUN_FIELDS.get(kind, ()):
            _check_runs(record, record[name], name)
        if kind == "request" and record["texts"] is not None:
            _check_texts(record)
        if kind == "turn" and "results" in record:
            _check_results(record)
    return record


def _check_runs(record: dict[str, Any], runs: list[Any], name: str) -> None:
    if len(runs) > MAX_LIST:
        raise refuse(record, f"too many {name}")
    for run in runs:
        if not isinstance(run, list) or len(run) != 2:
            raise refuse(record, f"its {name} are not runs of ids")
        for end in run:
            _check_id(record, end, name)


def _check_texts(record: dict[str, Any]) -> None:
    texts = record["texts"]
    if len(texts) > MAX_LIST:
        raise refuse(record, "too many texts")
    for item in texts:
        if not isinstance(item, list) or len(item) != 3 or item[0] not in TEXT_KINDS:
            raise refuse(record, "one of its texts is malformed")
        if item[1] is not None:
            _check_id(record, item[1], "text's item")
        if item[2] is not None and not isinstance(item[2], str):
            raise refuse(record, "one of its texts is not text")


def _check_results(record: dict[str, Any]) -> None:
    results = record["results"]
    if not isinstance(results, dict) or len(results) > MAX_RESULTS:
        raise refuse(record, "its tool results are not an object")
    for call_id, text in results.items():
        if len(call_id) > MAX_FILE_TEXT or not isinstance(text, str):
            raise refuse(record, "one of its tool results is malformed")


def _check_files(record: dict[str, Any]) -> None:
    files = record["files"]
    if not isinstance(files, list) or len(files) > MAX_FILES:
        raise refuse(record, "its files are not a list")
    positions = set()
    for item in files:
        if not isinstance(item, dict) or set(item) - set(FILE_FIELDS):
            raise refuse(record, "one of its files is malformed")
        _check_fields(record, FILE_FIELDS, item)
        _check_id(record, item["id"], "file id")
        for name in ("original", "sent"):
            if not DIGEST.fullmatch(item[name]):
                raise refuse(record, f"a file's {name} is not a SHA-256")
        if any(isinstance(v, str) and len(v) > MAX_FILE_TEXT for n, v in item.items()
               if n != "notes") or len(item["notes"]) > MAX_TEXT // 64:
            raise refuse(record, "a file's description is too long")
        if item["size"] < 0 or item["position"] < 0 or item["position"] in positions:
            raise refuse(record, "a file's size or position is wrong")
        positions.add(item["position"])


def _check_id(record: Any, value: Any, name: str) -> None:
    if not isinstance(value, str) or not ID.fullmatch(value):
        raise refuse(record, f"its {name} is not an id")


def _check_fields(record: Any, fields: dict[str, tuple[tuple[type, ...], bool]],
                  values: dict[str, Any], *, partial: bool = False) -> None:
    for name, (types, nullable) in fields.items():
        if name not in values:
            if partial:
                continue
            raise refuse(record, f"{name} is missing")
        value = values[name]
        if value is None and nullable:
            continue
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise refuse(record, f"{name} has the wrong type")
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise refuse(record, f"{name} is longer than {MAX_TEXT:,} characters")


def _check_conversation(record: dict[str, Any]) -> None:
    fields = record.get("fields")
    if not isinstance(fields, dict) or not fields:
        raise refuse(record, "it changes no field")
    unknown = set(fields) - set(CONVERSATION_FIELDS)
    if unknown:
        raise refuse(record, f"unknown field {sorted(unknown)[0][:40]!r}")
    _check_fields(record, CONVERSATION_FIELDS, fields, partial=True)
    if record.get("create") is True:
        if any(name not in fields for name in CREATE_NEEDS):
            raise refuse(record, "a new conversation without its title")
        fork = record.get("fork", {"of": None, "at": 0})
        if not isinstance(fork, dict) or set(fork) != {"of", "at"} or not isinstance(
                fork["at"], int) or isinstance(fork["at"], bool):
            raise refuse(record, "where it was forked from is malformed")
        if fork["of"] is not None:
            _check_id(record, fork["of"], "fork's source")
    elif record.get("field") not in CHANGING or set(fields) - set(CHANGING[record["field"]]):
        raise refuse(record, "a change of no known field")
    if fields.get("title_source", "user") not in TITLE_SOURCES:
        raise refuse(record, "unknown title source")
    if fields.get("folder") is not None:
        _check_id(record, fields["folder"], "folder")
    settings = fields.get("settings")
    if settings is not None:
        try:
            parsed = json.loads(settings)
        except ValueError as err:
            raise refuse(record, "its settings are not JSON") from err
        if not isinstance(parsed, dict):
            raise refuse(record, "its settings are not an object")
