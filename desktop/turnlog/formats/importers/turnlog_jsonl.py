"""Turnlog's own JSON-lines format: a header line, then one line per turn or record.

Format version 2 (written since Export all) adds to the header the conversation's
settings, its times and its next turn number, and to each turn its `finish_reason`;
version 1 files read as before. A line with a `"record"` key is a record of a kind
named there (each thing a conversation holds besides its turns adds a kind: versions,
pins, notes, side questions); a kind this Turnlog does not know is refused by name, so
nothing is dropped in silence. Lines are read one at a time: a long conversation is
never held whole.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from typing import IO, Any, TypeGuard

from ...core.attachments import DEFAULT_FILE_LIMIT, Attachment, AttachmentKind, size_text
from ...core.folders import name_problem
from ...core.imports import (
    REQUEST_FIELDS,
    REQUEST_JSON,
    REQUEST_REFERENCES,
    USAGE_FIELDS,
    ImportedConversation,
    ImportedTurn,
    ImportProblem,
)
from ...core.model import Usage
from ...core.send import PendingTurn
from ...core.side_records import SideAttempt, SideQuestion
from ...core.tools import ToolRound
from ...core.versions import restore_order
from ...providers import DEFAULT_MAX_CONTENT_BYTES
from ..export import REQUEST_RECORD, SIDE_KEY, read_attempts, read_memory_section, side_of

FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)
MAX_TURN_TEXT_BYTES = DEFAULT_MAX_CONTENT_BYTES
"""An imported question or answer may be as large as a live reply may be, no larger."""

Files = Callable[[str], bytes | None]
"""An export's files beside its JSON lines, by the name a line gives (`attachments/<sha256>`);
None when there is no such file."""
_FILE_NAME = re.compile(r"attachments/[0-9a-f]{64}")
_INLINE = ("attachments.original.base64", "attachments.sent.base64")

RECORD_KINDS: tuple[str, ...] = (REQUEST_RECORD,)
"""Record kinds this Turnlog reads besides turns and side questions: request records."""
MAX_REQUESTS = 5_000
"""Request records one conversation may bring: as many as a data directory keeps."""
_SUMMARY_INTS = ("first_ordinal", "last_ordinal", "content_tokens")
_SUMMARY_TEXTS = ("content", "model", "settings_key", "covered_digest", "created_at")


def _text_problem(value: str, key: str, number: int) -> str | None:
    """Why `value` cannot be stored as text, or None."""
    try:
        size = len(value.encode("utf-8", "strict"))
    except UnicodeEncodeError:
        return f"line {number}: '{key}' holds text that is not valid UTF-8 (a lone surrogate)"
    if size > MAX_TURN_TEXT_BYTES:
        return (f"line {number}: '{key}' is {size:,} bytes; a turn's text may be at most "
                f"{MAX_TURN_TEXT_BYTES:,} bytes (4 MiB, the limit of a live reply)")
    return None


def parse_line(line: str, number: int) -> dict[str, Any]:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        raise ImportProblem(f"line {number} is not JSON ({err.msg})") from None
    except RecursionError:
        raise ImportProblem(f"line {number} is nested too deeply") from None
    except ValueError as err:  # e.g. an integer of thousands of digits
        raise ImportProblem(f"line {number} holds a value that cannot be read ({err})") from None
    if not isinstance(obj, dict):
        raise ImportProblem(f"line {number} is not a JSON object")
    for key, value in _texts(obj):
        if key in _INLINE:  # a file's bytes, checked as a file (`_attachments`)
            continue
        problem = _text_problem(value, key, number)
        if problem is not None:
            raise ImportProblem(problem)
    return obj


def _texts(obj: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every string of a line, however deep (a pin in the header's memory, a side
    question's answer), with where it is: `answer`, `memory.pins.text`."""
    pending: list[tuple[str, Any]] = [(key, value) for key, value in obj.items()]
    while pending:
        where, value = pending.pop()
        if isinstance(value, str):
            yield where, value
        elif isinstance(value, dict):
            pending.extend((f"{where}.{key}", item) for key, item in value.items())
        elif isinstance(value, list):
            pending.extend((where, item) for item in value)


def parse_time(value: Any) -> datetime | None:
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            return None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return None


def _lines(stream: IO[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(stream, start=1):
        if number == 1:
            line = line.removeprefix("\ufeff")
        if line.strip():
            yield number, parse_line(line, number)


def read(stream: IO[str], name: str, *, model: str | None = None,
         files: Files | None = None) -> ImportedConversation:
    """The header now; the turns as they are iterated (`stream` must stay open till then,
    and `files`, the export's attachments beside it, readable). Every error names its
    line."""
    lines = _lines(stream)
    found = next(lines, None)
    if found is None:
        raise ImportProblem("the file is empty: expected a header line")
    number, header = found
    if header.get("turnlog") not in READABLE_VERSIONS:
        if isinstance(header.get("turnlog"), int) and header["turnlog"] > FORMAT_VERSION:
            raise ImportProblem(f"line {number}: the file is format version "
                                f"{header['turnlog']}, written by a newer Turnlog")
        raise ImportProblem(
            f'line {number} should be the header {{"turnlog": {FORMAT_VERSION}, ...}}')
    # Turnlog's own file gives back the model chosen for the conversation, and for one
    # imported from elsewhere before it was exported, where from and its model there.
    chosen = model or str(header.get("model") or "")
    source = header.get("source")
    replaced: dict[str, str] = {}
    sides: list[SideQuestion] = []
    try:
        memory = read_memory_section(header.get("memory"))
    except ValueError as err:
        raise ImportProblem(f"line {number}: the header's memory: {err}") from None
    settings = header.get("settings")
    next_ordinal = header.get("next_ordinal")
    folder = _folder(header.get("folder", ""), number)
    held = _Held()
    held.read(header, number)
    return ImportedConversation(
        title=str(header.get("title") or name), system_prompt=str(header.get("system") or ""),
        model=chosen, turns=_turns(lines, chosen, replaced, sides, files, held),
        superseded_by=replaced,
        source=source if isinstance(source, str) else "",
        source_model=str(header.get("source_model") or ""),
        memory=memory, side_questions=sides,
        created_at=parse_time(header.get("created_at")),
        updated_at=parse_time(header.get("updated_at")),
        settings=settings if isinstance(settings, dict) else None,
        next_ordinal=next_ordinal if _is_int(next_ordinal) else None,
        supersede_records=held.records, summaries=held.summaries, folder=folder,
        starred=header.get("starred") is True, side_attempts=held.attempts,
        assistant=held.assistant, fork=held.fork, requests=held.requests, usage=held.usage)


def _folder(value: Any, number: int) -> str:
    """The header's "folder": a name a folder can have, or "" (in none)."""
    if not isinstance(value, str):
        raise ImportProblem(f"line {number}: the header's folder is not text")
    problem = name_problem(value.strip()) if value.strip() else None
    if problem is not None:
        raise ImportProblem(f"line {number}: the header's folder: {problem}")
    return value.strip()


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _list(entry: dict[str, Any], key: str) -> list[Any]:
    """`entry[key]` when it is a list (absent: empty); a list of one bad item otherwise."""
    value = entry.get(key, [])
    return value if isinstance(value, list) else [object()]


def _all(value: Any, kind: type) -> bool:
    return isinstance(value, list) and all(isinstance(v, kind) for v in value)


class _Held:
    """What a header holds besides the conversation: its supersede records (`versions`)
    and its rolling summaries (`summaries`)."""

    def __init__(self) -> None:
        self.records: list[tuple[str, str, str]] = []
        self.summaries: list[dict[str, Any]] = []
        self.attempts: list[SideAttempt] = []
        self.assistant: tuple[str, bool] | None = None
        self.fork: tuple[str | None, int] | None = None
        self.requests: list[dict[str, Any]] = []  # filled as the lines are read
        self.usage: list[dict[str, Any]] = []

    def read(self, header: dict[str, Any], number: int) -> None:
        self._read_links(header, number)
        usage = header.get("usage", [])
        if not _all(usage, dict) or not all(_fits(e, USAGE_FIELDS) for e in usage):
            raise ImportProblem(f"line {number}: 'usage' must be a list of totals (profile, "
                                "model, currency, counts and cost)")
        self.usage = usage
        found = header.get("versions", [])
        if not isinstance(found, list) or not all(
                isinstance(r, list) and len(r) == 3 and all(isinstance(v, str) for v in r)
                and parse_time(r[2]) is not None for r in found):
            raise ImportProblem(f"line {number}: 'versions' must be a list of [turn id, "
                                "turn id, time]")
        self.records.extend((a, b, at) for a, b, at in found)
        summaries = header.get("summaries", [])
        if not _all(summaries, dict):
            raise ImportProblem(f"line {number}: 'summaries' must be a list of objects")
        for entry in summaries:
            if not all(_is_int(entry.get(k)) for k in _SUMMARY_INTS) \
                    or not all(isinstance(entry.get(k), str) for k in _SUMMARY_TEXTS) \
                    or parse_time(entry["created_at"]) is None \
                    or not _all(entry.get("covered_ids"), str) \
                    or not all(isinstance(u, dict | None) for u in _list(entry, "usages")) \
                    or not _all(entry.get("warnings", []), str):
                raise ImportProblem(f"line {number}: a summary needs its ordinals, covered "
                                    "turn ids, content, model and time")
            self.summaries.append(entry)


    def _read_links(self, header: dict[str, Any], number: int) -> None:
        """Failed side requests, the assistant it started from, where it was forked."""
        try:
            self.attempts = read_attempts(header.get("side_attempts", []))
        except ValueError as err:
            raise ImportProblem(f"line {number}: {err}") from None
        assistant = header.get("assistant")
        if assistant is not None:
            if not isinstance(assistant, dict) or not isinstance(assistant.get("name"), str):
                raise ImportProblem(f"line {number}: 'assistant' needs the assistant's name")
            self.assistant = (assistant["name"], assistant.get("linked") is True)
        fork = header.get("fork")
        if fork is not None:
            source = fork.get("source_turn") if isinstance(fork, dict) else 0
            if not isinstance(source, str | None) or not _is_int(fork.get("at_ordinal")) \
                    or fork["at_ordinal"] < 1:
                raise ImportProblem(f"line {number}: 'fork' needs a turn id (or null) and "
                                    "the ordinal it was forked at")
            self.fork = (source, fork["at_ordinal"])


def _turns(lines: Iterator[tuple[int, dict[str, Any]]], model: str,
           replaced: dict[str, str], sides: list[SideQuestion], files: Files | None,
           held: _Held) -> Iterator[ImportedTurn]:
    """The turn lines; `replaced` is filled with the file's "A was superseded by B" pairs,
    checked once the last line is read (both turns in the file, no loop), and `sides`
    with its side questions."""
    now = datetime.now(UTC)  # for turns the file gives no time
    ids: set[str] = set()
    pending: list[tuple[int, str, Any]] = []
    for number, obj in lines:
        if SIDE_KEY in obj:
            try:
                side = side_of(obj)
            except ValueError as err:
                raise ImportProblem(f"line {number}: {err}") from None
            if side is not None:
                sides.append(side)
            continue
        if "record" in obj:
            kind = obj["record"]
            if kind not in RECORD_KINDS:
                raise ImportProblem(f"line {number}: a {kind!r} record is not known to this "
                                    "Turnlog (the file was written by a newer one)")
            held.requests.append(_request(obj, number))
            if len(held.requests) > MAX_REQUESTS:
                raise ImportProblem(f"line {number}: more than {MAX_REQUESTS:,} request "
                                    "records for one conversation")
            continue
        turn = _turn(obj, number, model, now, files)
        if isinstance(obj.get("id"), str):
            ids.add(obj["id"])
        if obj.get("superseded_by") is not None:
            pending.append((number, turn.pending.id, obj["superseded_by"]))
        yield turn
    for number, old, by in pending:
        if not isinstance(by, str) or by not in ids or not old or by == old:
            raise ImportProblem(f"line {number}: 'superseded_by' must name another turn's id "
                                "in this file")
        replaced[old] = by
    if any(a not in ids or b not in ids for a, b, _at in held.records):
        raise ImportProblem("the header's 'versions' name a turn that is not in this file")
    try:
        restore_order(replaced)
    except ValueError as err:
        raise ImportProblem(str(err)) from None


def _fits(entry: dict[str, Any], fields: dict[str, tuple[type, ...]]) -> bool:
    """Every field present with one of its types (a bool is no number here)."""
    return all(k in entry and isinstance(entry[k], types)
               and not (isinstance(entry[k], bool) and bool not in types)
               for k, types in fields.items())


def _request(obj: dict[str, Any], number: int) -> dict[str, Any]:
    """A request record line checked: its numbers, JSON columns and references."""
    if not _fits(obj, REQUEST_FIELDS | REQUEST_REFERENCES):
        wrong = next(k for k, t in (REQUEST_FIELDS | REQUEST_REFERENCES).items()
                     if not _fits({k: obj[k]} if k in obj else {}, {k: t}))
        raise ImportProblem(f"line {number}: a request record's '{wrong}' is missing or not "
                            "what it should be")
    for key in REQUEST_JSON:
        if obj[key] is not None:
            try:
                json.loads(obj[key])
            except ValueError:
                raise ImportProblem(f"line {number}: a request record's '{key}' is not "
                                    "JSON") from None
    texts = obj["texts"]
    if texts is not None and not all(
            isinstance(t, list) and len(t) == 3 and isinstance(t[0], str)
            and isinstance(t[1], str) and isinstance(t[2], str | None) for t in texts):
        raise ImportProblem(f"line {number}: a request record's 'texts' must be a list of "
                            "[kind, source, text]")
    if obj["versions_seen"] < 0 or (obj["summary"] is not None and obj["summary"] < 0):
        raise ImportProblem(f"line {number}: a request record's references cannot be "
                            "negative")
    return {k: obj[k] for k in (*REQUEST_FIELDS, *REQUEST_REFERENCES)}


def _tool_rounds(value: Any, number: int) -> tuple[ToolRound, ...]:
    """A turn's `tool_rounds` as exported (none when absent)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ImportProblem(f"line {number}: 'tool_rounds' must be a list")
    try:
        return tuple(replace(ToolRound.from_json(item), full_results={
            str(c["id"]): c["full_result"] for c in item["calls"]
            if isinstance(c.get("full_result"), str)}) for item in value)
    except (KeyError, TypeError, AttributeError, ValueError) as err:
        raise ImportProblem(f"line {number}: 'tool_rounds' cannot be read ({err!r})") from None


def _turn(obj: dict[str, Any], number: int, model: str, now: datetime,
          files: Files | None = None) -> ImportedTurn:
    """One turn line (its text was checked by `parse_line`). A turn without an id gets
    one when it is written (`""` here)."""
    for key in ("question", "answer"):
        value = obj.get(key)
        if not isinstance(value, str) or not value.strip():
            raise ImportProblem(f"line {number}: '{key}' must be a non-empty string")
    if "id" in obj and not isinstance(obj["id"], str):
        raise ImportProblem(f"line {number}: 'id' must be a string")
    ordinal = obj.get("ordinal")
    finish = obj.get("finish_reason")
    reasoning = obj.get("reasoning")
    incomplete = obj.get("incomplete")
    if incomplete is not None and (not isinstance(incomplete, str) or not incomplete.strip()):
        raise ImportProblem(f"line {number}: 'incomplete' must say why the answer is "
                            "incomplete (a word such as \"stopped\")")
    return ImportedTurn(
        PendingTurn(
            id=obj.get("id") or "", question=obj["question"],
            answer=obj["answer"], model=str(obj.get("model") or model),
            finish_reason=finish if isinstance(finish, str) and finish else "stop",
            usage=Usage.from_json(obj.get("usage")),
            created_at=parse_time(obj.get("created_at")) or now,
            reasoning=reasoning if isinstance(reasoning, str) else "",
            incomplete=incomplete, attachments=_attachments(obj, number, files),
            tools=_tool_rounds(obj.get("tool_rounds"), number)),
        ordinal=ordinal if _is_int(ordinal) and ordinal > 0 else None)


def _attachments(obj: dict[str, Any], number: int, files: Files | None
                 ) -> tuple[Attachment, ...]:
    """A turn line's files, each checked against its SHA-256."""
    entries = obj.get("attachments", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ImportProblem(f"line {number}: 'attachments' must be a list of objects")
    return tuple(_attachment(entry, number, files) for entry in entries)


def _attachment(entry: dict[str, Any], number: int, files: Files | None) -> Attachment:
    name = entry.get("name")
    kinds = [k.value for k in AttachmentKind]
    if not isinstance(name, str) or not name or entry.get("kind") not in kinds:
        raise ImportProblem(f"line {number}: an attachment needs a 'name' and a 'kind' "
                            f"({', '.join(kinds)})")
    where = f"line {number}: attachment {name}"
    original = _file_bytes(entry.get("original"), files, where)
    if hashlib.sha256(original).hexdigest() != entry.get("sha256"):
        raise ImportProblem(f"{where} does not match its SHA-256: the export was changed "
                            "or damaged")
    sent = _file_bytes(entry["sent"], files, where) if "sent" in entry else original
    if entry.get("sent_sha256") not in (None, hashlib.sha256(sent).hexdigest()):
        raise ImportProblem(f"{where}: the copy sent does not match its SHA-256: the export "
                            "was changed or damaged")
    kind = AttachmentKind(entry["kind"])
    if kind is not AttachmentKind.IMAGE:
        try:
            sent.decode("utf-8")
        except UnicodeDecodeError:
            raise ImportProblem(f"{where}: its text as sent is not UTF-8") from None
    notes = entry.get("notes", [])
    width, height = entry.get("width", 0), entry.get("height", 0)
    added_at = entry.get("added_at")
    if added_at is not None and parse_time(added_at) is None:
        raise ImportProblem(f"{where}: 'added_at' is not a time")
    if not (isinstance(notes, list) and all(isinstance(n, str) for n in notes)
            and _is_int(width) and _is_int(height)):
        raise ImportProblem(f"{where}: 'notes', 'width' or 'height' is not what it should be")
    return Attachment(name=name, kind=kind, mime=str(entry.get("mime") or ""),
                      size=len(original), digest=entry["sha256"], sent=sent,
                      sent_mime=str(entry.get("sent_mime") or "text/plain"), width=width,
                      height=height, encoding=str(entry.get("encoding") or ""),
                      notes=tuple(notes), original=original, added_at=added_at or "")


def _file_bytes(ref: Any, files: Files | None, where: str) -> bytes:
    """The bytes a reference names: inline base64, or a file beside the JSON lines."""
    data: bytes | None = None
    if isinstance(ref, dict) and isinstance(ref.get("base64"), str):
        if len(ref["base64"]) > DEFAULT_FILE_LIMIT * 4 // 3 + 4:
            raise ImportProblem(f"{where} is larger than a file may be "
                                f"({size_text(DEFAULT_FILE_LIMIT)})")
        try:
            data = base64.b64decode(ref["base64"], validate=True)
        except (binascii.Error, ValueError):
            raise ImportProblem(f"{where}: its bytes are not valid base64") from None
    elif isinstance(ref, dict) and isinstance(ref.get("file"), str):
        if not _FILE_NAME.fullmatch(ref["file"]):
            raise ImportProblem(f"{where}: {ref['file']!r} is not a file of the export")
        data = files(ref["file"]) if files is not None else None
        if data is None:
            raise ImportProblem(f"{where}: {ref['file']} is missing from the export "
                                "(a JSON-lines file alone carries no files beside it)")
    else:
        raise ImportProblem(f"{where} names no bytes ('base64' or 'file')")
    return data
