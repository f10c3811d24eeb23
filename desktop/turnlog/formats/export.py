"""Export a conversation in formats a person controls: JSON lines (re-importable) and Markdown.

The JSON-lines format (version 2; `importers.turnlog_jsonl` reads 1 and 2): a header
with the conversation (title, system prompt, model, settings, times, next turn number;
for an imported one `source` and `source_model`, where it came from and its model there),
then one line per turn, superseded versions too (with `superseded_by`, the id of the turn
that replaced it), the reasoning a model streamed before its answer, and for a turn kept
incomplete, why (`incomplete`: "stopped", "cut", "length", "no_finish_reason"). Whatever else a
conversation holds is written as lines with a `"record"` key naming their kind (see
`importers.turnlog_jsonl.RECORD_KINDS`). The header carries every supersede record in
order with its time (`versions`) and the rolling summaries with their provenance: the
turn ids each covers, its model, its time (`summaries`).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from ..core.attachments import Attachment, describe
from ..core.imports import source_name
from ..core.memory import (
    MAX_MEMORY_TEXT,
    MAX_PRIORITY,
    MIN_PRIORITY,
    StoredNote,
    StoredPin,
    StoredPreference,
)
from ..core.model import Conversation, Turn, Usage
from ..core.numbers import TurnNumbers
from ..core.partial import incomplete_mark
from ..core.side_records import SideAttempt, SideQuestion
from ..core.versions import Versions
from . import EXPORT_FORMATS

NO_VERSIONS = Versions((), {})

FORMAT_VERSION = 2
FORMATS = EXPORT_FORMATS
SIDE_KEY = "side_question"  # a line holding one side question (never a turn)
REQUEST_RECORD = "request"  # the kind of a line holding one request record (Export all)


def side_line(side: SideQuestion) -> dict[str, Any]:
    """A side question with what its request carried (sizes, the ordinals sent verbatim,
    summarized and left out, the earlier side questions it carried)."""
    line: dict[str, Any] = {"id": side.id, "question": side.question, "answer": side.answer,
                            "model": side.model, "created_at": side.created_at.isoformat()}
    if side.usage.known:
        line["usage"] = side.usage.to_json()
    line.update(body_bytes=side.body_bytes, input_tokens=side.input_tokens,
                tokens_exact=side.tokens_exact, sent=list(side.sent),
                summarized=list(side.summarized), left_out=list(side.left_out),
                side_ids=list(side.side_ids))
    return {SIDE_KEY: line}


def _ints(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
        raise ValueError("a side question's ordinals must be a list of turn numbers")
    return tuple(value)


def side_of(obj: dict[str, Any]) -> SideQuestion | None:
    """The side question a line holds, or None if it holds none (a turn); raises
    ValueError when it is one but malformed."""
    side = obj.get(SIDE_KEY)
    if side is None:
        return None
    if not isinstance(side, dict) or not all(
            isinstance(side.get(k), str) and side[k].strip() for k in ("question", "answer")):
        raise ValueError(f"'{SIDE_KEY}' needs a non-empty question and answer")
    try:
        created = datetime.fromisoformat(str(side.get("created_at")))
    except ValueError:
        created = datetime.now(UTC)
    counts = [side.get(k, 0) for k in ("body_bytes", "input_tokens")]
    if not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts):
        raise ValueError("a side question's sizes must be whole numbers")
    carried = side.get("side_ids", [])
    if not isinstance(carried, list) or not all(isinstance(s, str) for s in carried):
        raise ValueError("'side_ids' of a side question must be a list of ids")
    return SideQuestion(str(side.get("id") or ""), side["question"], side["answer"],
                        str(side.get("model") or ""),
                        created if created.tzinfo else created.replace(tzinfo=UTC),
                        Usage.from_json(side.get("usage")), body_bytes=counts[0],
                        input_tokens=counts[1], tokens_exact=side.get("tokens_exact") is True,
                        sent=_ints(side.get("sent", [])),
                        summarized=_ints(side.get("summarized", [])),
                        left_out=_ints(side.get("left_out", [])), side_ids=tuple(carried))


def memory_section(pins: list[StoredPin], notes: list[StoredNote],
                   preferences: list[StoredPreference]) -> dict[str, Any]:
    """The header's "memory": pins with their source turn ids, notes, and the preferences
    the conversation uses (import adds those it does not have yet); each with its id here,
    which a request record's texts name it by."""
    return {
        "pins": [{"text": p.text, "kind": p.kind, "sources": list(p.sources),
                  "created_at": p.created_at, "id": p.id} for p in pins],
        "notes": [{"text": n.text, "priority": n.priority, "created_at": n.created_at,
                   "id": n.id} for n in notes],
        "preferences": [{"text": p.text, "priority": p.priority, "created_at": p.created_at,
                         "id": p.id} for p in preferences],
    }


def read_memory_section(value: Any) -> dict[str, list[dict[str, Any]]]:
    """The header's "memory" checked: each entry a non-empty "text", priorities 1–5,
    sources a list of turn ids; ValueError names what is wrong."""
    if value is None:
        return {"pins": [], "notes": [], "preferences": []}
    if not isinstance(value, dict):
        raise ValueError("'memory' must be an object")
    out: dict[str, list[dict[str, Any]]] = {}
    for key in ("pins", "notes", "preferences"):
        entries = value.get(key, [])
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise ValueError(f"'memory.{key}' must be a list of objects")
        for entry in entries:
            if not isinstance(entry.get("text"), str) or not entry["text"].strip():
                raise ValueError(f"each of 'memory.{key}' needs a non-empty 'text'")
            if (size := len(entry["text"].strip())) > MAX_MEMORY_TEXT:
                raise ValueError(f"a text in 'memory.{key}' is {size:,} characters; a pin, "
                                 f"note or preference may be at most {MAX_MEMORY_TEXT:,}")
            priority = entry.get("priority", 3)
            if key != "pins" and (not isinstance(priority, int)
                                  or not MIN_PRIORITY <= priority <= MAX_PRIORITY):
                raise ValueError(f"a priority in 'memory.{key}' must be 1–5")
            sources = entry.get("sources", [])
            if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
                raise ValueError("'sources' of a pin must be a list of turn ids")
            _check_time(entry.get("created_at"), key)
        out[key] = entries
    return out


def _check_time(value: Any, key: str) -> None:
    """A memory entry's `created_at`: absent, or a time with its zone (ISO 8601)."""
    if value is None:
        return
    try:
        stamp = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        stamp = None
    if stamp is None or stamp.tzinfo is None:
        raise ValueError(f"a 'created_at' in 'memory.{key}' is not a time with its zone "
                         f"({str(value)[:40]!r})")


def jsonl_header(conversation: Conversation, next_ordinal: int | None = None,
                 memory: dict[str, Any] | None = None, versions: Versions = NO_VERSIONS,
                 summaries: Sequence[dict[str, Any]] = (), folder: str = "",
                 held: dict[str, Any] | None = None) -> str:
    """The header line; it carries the conversation's `memory_section`, if given and not
    empty, its supersede records and its summaries, if any, and the name of the sidebar
    folder it is in (`folder`) and its star, if it has them; `held` adds what an Export
    all carries besides (`side_attempts`, the `assistant` it started from, `fork`)."""
    header: dict[str, Any] = {
        "turnlog": FORMAT_VERSION,
        "title": conversation.title,
        "system": conversation.system_prompt,
        "model": conversation.model,
        "settings": conversation.settings.to_json(),
        "created_at": conversation.created_at.isoformat(),
        "updated_at": conversation.updated_at.isoformat(),
    }
    if conversation.source:  # imported: where from, and the model it had there
        header["source"] = conversation.source
        header["source_model"] = conversation.source_model
    if memory and any(memory.values()):
        header["memory"] = memory
    if next_ordinal is not None:
        header["next_ordinal"] = next_ordinal
    if versions.records:
        header["versions"] = [[r.turn_id, r.by_turn_id, r.created_at]
                              for r in versions.records]
    if summaries:
        header["summaries"] = list(summaries)
    if folder:
        header["folder"] = folder
    if conversation.starred:
        header["starred"] = True
    header.update(held or {})
    return json.dumps(header, ensure_ascii=False) + "\n"


def attempt_entry(attempt: SideAttempt) -> dict[str, Any]:
    """A failed side request as the header's `side_attempts` carry it."""
    return {"created_at": attempt.created_at.isoformat(), "outcome": attempt.outcome,
            "model": attempt.model, "usage": attempt.usage.to_json(),
            "carried": list(attempt.carried)}


def read_attempts(value: Any) -> list[SideAttempt]:
    """The header's `side_attempts` checked; ValueError names what is wrong."""
    if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
        raise ValueError("'side_attempts' must be a list of objects")
    found = []
    for entry in value:
        try:
            created = datetime.fromisoformat(str(entry.get("created_at")))
        except ValueError:
            raise ValueError("a side attempt needs its time") from None
        if not all(isinstance(entry.get(k), str) for k in ("outcome", "model")):
            raise ValueError("a side attempt needs its outcome and model")
        found.append(SideAttempt(created if created.tzinfo else created.replace(tzinfo=UTC),
                                 entry["outcome"], entry["model"],
                                 Usage.from_json(entry.get("usage")),
                                 _ints(entry.get("carried", []))))
    return found


ATTACHMENTS_DIR = "attachments"
Place = Callable[[str, bytes], dict[str, str]]
"""Where a file's bytes go in an export, given its SHA-256 and bytes: the reference the
JSON line holds (`{"base64": …}` inline, `{"file": "attachments/<sha256>"}` beside)."""
Files = Callable[[Turn], list[dict[str, Any]]]
"""A turn's attachments as the JSON line carries them (`attachment_entries`)."""


def inline(_digest: str, data: bytes) -> dict[str, str]:
    """A file's bytes inside the JSON line, in base64 (a one-conversation export)."""
    return {"base64": base64.b64encode(data).decode("ascii")}


def attachment_entry(attachment: Attachment, original: bytes, place: Place) -> dict[str, Any]:
    """One attachment of a turn line: what it is, its original and the bytes it was sent
    as (each referenced through `place`; the sent copy only where it differs)."""
    sent_digest = hashlib.sha256(attachment.sent).hexdigest()
    entry: dict[str, Any] = {
        "name": attachment.name, "kind": attachment.kind.value, "mime": attachment.mime,
        "size": attachment.size, "sha256": attachment.digest,
        "original": place(attachment.digest, original),
        "sent_mime": attachment.sent_mime, "sent_sha256": sent_digest,
    }
    if sent_digest != attachment.digest:
        entry["sent"] = place(sent_digest, attachment.sent)
    if attachment.width or attachment.height:
        entry["width"], entry["height"] = attachment.width, attachment.height
    if attachment.encoding:
        entry["encoding"] = attachment.encoding
    if attachment.notes:
        entry["notes"] = list(attachment.notes)
    if attachment.added_at:  # added by a later import to a turn imported before
        entry["added_at"] = attachment.added_at
    return entry


def attachment_entries(original_of: Callable[[str], bytes], place: Place) -> Files:
    """`Files` for a store's originals (`original_of(sha256)`), placed by `place`."""
    return lambda turn: [attachment_entry(a, original_of(a.digest), place)
                         for a in turn.attachments]


FullResult = Callable[[str, str], str | None]
"""The full result of a call cut for sending, by turn id and call id (None: none kept)."""


def jsonl_turn(turn: Turn, versions: Versions = NO_VERSIONS, files: Files | None = None,
               full: FullResult | None = None) -> str:
    line: dict[str, Any] = {
        "id": turn.id,
        "ordinal": turn.ordinal,
        "question": turn.question,
        "answer": turn.answer,
        "model": turn.model,
        "finish_reason": turn.finish_reason,
        "created_at": turn.created_at.isoformat(),
    }
    usage = turn.usage.to_json()
    if usage:
        line["usage"] = usage
    if turn.reasoning:
        line["reasoning"] = turn.reasoning
    if turn.incomplete:  # kept by the person although incomplete: why
        line["incomplete"] = turn.incomplete
    if turn.tools:  # the tool exchange that led to the answer, round by round
        line["tool_rounds"] = [tool_round.to_json() for tool_round in turn.tools]
        if full is not None:  # a result cut for sending goes out whole beside it
            for entry in line["tool_rounds"]:
                for call in entry["calls"]:
                    whole = full(turn.id, call["id"]) if call["cut_bytes"] else None
                    if whole is not None:
                        call["full_result"] = whole
    if turn.id in versions.replaced_by:
        line["superseded_by"] = versions.replaced_by[turn.id]
    if turn.attachments and files is not None:
        line["attachments"] = files(turn)
    return json.dumps(line, ensure_ascii=False) + "\n"


def jsonl_lines(conversation: Conversation, turns: Iterable[Turn],
                versions: Versions = NO_VERSIONS,
                next_ordinal: int | None = None, memory: dict[str, Any] | None = None,
                side: Iterable[SideQuestion] = (), files: Files | None = None,
                summaries: Sequence[dict[str, Any]] = (), folder: str = "",
                held: dict[str, Any] | None = None,
                full: FullResult | None = None,
                requests: Iterable[dict[str, Any]] = ()) -> Iterator[str]:
    """The header line (with `summaries`, as `store.importing` gives them), then one line
    per turn (superseded ones too, with the id of the turn that replaced them; with
    `files`, its attachments), then one per side question (`{"side_question": {...}}`),
    then one per request record (`{"record": "request", ...}`, `core.imports.REQUEST_FIELDS`);
    `turnlog-cli import` reads it back, versions, memory, attachments, side questions and
    summaries included."""
    yield jsonl_header(conversation, next_ordinal, memory, versions, summaries, folder, held)
    for turn in turns:
        yield jsonl_turn(turn, versions, files, full)
    for question in side:
        yield json.dumps(side_line(question), ensure_ascii=False) + "\n"
    for record in requests:
        yield json.dumps({"record": REQUEST_RECORD, **record}, ensure_ascii=False) + "\n"


def export_jsonl(conversation: Conversation, turns: tuple[Turn, ...],
                 versions: Versions = NO_VERSIONS, memory: dict[str, Any] | None = None,
                 side: Sequence[SideQuestion] = (), files: Files | None = None) -> str:
    return "".join(jsonl_lines(conversation, turns, versions, memory=memory, side=side,
                               files=files))


def markdown_parts(conversation: Conversation, turns: Iterable[Turn],
                   versions: Versions = NO_VERSIONS,
                   side: Iterable[SideQuestion] = ()) -> Iterator[str]:
    out = [f"# {conversation.title}", ""]
    if conversation.model:
        out += [f"Model: {conversation.model}", ""]
    if conversation.source:
        out += [f"Imported from: {source_name(conversation.source)}"
                + (f" · {conversation.source_model}" if conversation.source_model else ""), ""]
    if conversation.system_prompt:
        out += ["System prompt:", "", *[f"> {line}" for line in
                                         conversation.system_prompt.splitlines()], ""]
    yield "\n".join(out)
    numbers = TurnNumbers.of(versions)
    for turn in turns:
        stamp = turn.created_at.astimezone().strftime("%Y-%m-%d %H:%M")
        group = versions.group(turn.id)
        mark = f" · version {group.index(turn.id) + 1} of {len(group)}" if len(group) > 1 else ""
        mark += " · *replaced*" if versions.is_superseded(turn.id) else ""
        if turn.incomplete:
            mark += f" · *{incomplete_mark(turn.incomplete)}*"
        attached = [f"📎 {describe(a)}" for a in turn.attachments]
        heading = f"## Turn {numbers.number(turn.ordinal)} · {stamp}{mark}"
        yield "\n" + "\n".join([heading, "", "**You:**", "",
                                turn.question, *([""] + attached if attached else []), "",
                                *markdown_tools(turn),
                                f"**{turn.model or 'Assistant'}:**", "", turn.answer, ""])
    for q in side:
        stamp = q.created_at.astimezone().strftime("%Y-%m-%d %H:%M")
        yield "\n" + "\n".join([f"## Side question · {stamp}", "", "**You (aside):**", "",
                                q.question, "", f"**{q.model or 'Assistant'}:**", "",
                                q.answer, ""])


def markdown_tools(turn: Turn) -> list[str]:
    """A turn's tool calls and their results (as sent), between question and answer."""
    out: list[str] = []
    for tool_round in turn.tools:
        for call, result in tool_round.pairs():
            how = result.approval.value if result.ran else "not run"
            out += [f"**Tool call:** `{call.name}` ({how}, {result.duration_s:.2f} s)", "",
                    "```json", call.pretty_arguments(), "```", "",
                    "**Result:**" + (" (error)" if result.is_error else ""), "", "```",
                    result.content.replace("```", "` ` `"), "```", ""]
    return out


def export_markdown(conversation: Conversation, turns: tuple[Turn, ...],
                    versions: Versions = NO_VERSIONS, side: Sequence[SideQuestion] = ()) -> str:
    return "".join(markdown_parts(conversation, turns, versions, side))


def export_text(conversation: Conversation, turns: tuple[Turn, ...], fmt: str,
                versions: Versions = NO_VERSIONS, memory: dict[str, Any] | None = None,
                side: Sequence[SideQuestion] = (), files: Files | None = None) -> str:
    if fmt == "jsonl":
        return export_jsonl(conversation, turns, versions, memory, side, files)
    if fmt == "markdown":
        return export_markdown(conversation, turns, versions, side)
    raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
