"""Log commands: project, import, export, list, show."""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from ..chat import (  # options_for: the window imports it here
    ProviderConfig,
    Route,
    profile_route,
    request_for,
)
from ..core.budget import InvalidBudget
from ..core.compaction import preview
from ..core.failures import StoreError
from ..core.model import Conversation, Usage
from ..core.projection import CostIndex, ProjectionRefused
from ..core.send import PendingTurn, check_question
from ..core.versions import ForkOrigin, Versions, active_line, restore_order
from ..export import FORMAT_VERSION, FORMATS, export_text, read_memory_section
from ..model_counts import ModelCounts
from ..model_facts import FactStore
from ..paths import data_dir
from ..providers import DEFAULT_MAX_CONTENT_BYTES
from ..store import NotFound, TurnlogStore
from ..store.salvage import Readable
from .memory_commands import import_memory, memory_json, memory_of
from .terminal import safe_for

MAX_TURN_TEXT_BYTES = DEFAULT_MAX_CONTENT_BYTES
"""An imported question or answer may be as large as a live reply may be, no larger."""
EXIT_DAMAGED = 5
"""export/show wrote what could be read, but some rows of the conversation could not."""


class ImportError_(ValueError):
    """A JSON-lines file that is not a Turnlog export, with the line that is wrong."""


def register(sub: Any) -> None:
    p = sub.add_parser("project", help="show what a send would carry, without sending or writing")
    p.add_argument("--conversation", type=int, required=True, metavar="ID")
    p.add_argument("--question", required=True, metavar="TEXT")
    p.add_argument("--max-bytes", type=int, metavar="N", help="byte limit of the request body")
    p.add_argument("--window", type=int, metavar="T", help="context window in tokens")
    p.add_argument("--output-reserve", type=int, metavar="T", help="tokens kept for the answer")
    p.add_argument("--profile", metavar="P",
                   help="provider profile whose model and options a send would use")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_project)

    p = sub.add_parser("import", help="import a conversation from a JSON-lines file")
    p.add_argument("file", type=Path, metavar="FILE.jsonl")
    p.add_argument("--model", help="model for the conversation (overrides the file's header)")
    p.set_defaults(run=run_import)

    p = sub.add_parser("export", help="write a conversation as JSON lines to stdout")
    p.add_argument("conversation", type=int, metavar="ID")
    p.add_argument("--format", choices=FORMATS, default="jsonl",
                   help="jsonl (re-importable, the default) or markdown")
    add_raw(p)
    p.set_defaults(run=run_export)

    p = sub.add_parser("list", help="list conversations, most recent first")
    add_raw(p)
    p.set_defaults(run=run_list)

    p = sub.add_parser("show", help="print a conversation's whole history")
    p.add_argument("conversation", type=int, metavar="ID")
    add_raw(p)
    p.set_defaults(run=run_show)


def add_raw(p: argparse.ArgumentParser) -> None:
    p.add_argument("--raw", action="store_true",
                   help="write conversation text as it is, control characters included "
                   "(on a terminal they are shown as escapes such as \\x1b)")


def default_route(wanted: str | None) -> Route:
    """The route `ask` would take: the named (or first) profile's model and options."""
    from ..profiles import ProfileStore, ProfilesUnreadable

    try:
        profiles = ProfileStore(data_dir()).list()
    except ProfilesUnreadable:
        profiles = []
    chosen = next((p for p in profiles if wanted in (None, p.id, p.name)), None)
    if chosen is None:
        return Route(model="")
    # With the window the server stated, or an overflow taught, as a send would use it.
    return profile_route(ProviderConfig.of(chosen), chosen.model,
                         ModelCounts(FactStore.in_dir(data_dir())))


def _with_limits(conversation: Conversation, args: argparse.Namespace) -> Conversation:
    """The conversation with the limits given on the command line."""
    overrides: dict[str, Any] = {}
    if args.max_bytes is not None:
        overrides["max_bytes"] = args.max_bytes
    if args.window is not None:
        overrides["context_window"] = args.window
    if args.output_reserve is not None:
        overrides["output_reserve"] = args.output_reserve
    return replace(conversation, settings=replace(conversation.settings, **overrides))


def run_project(args: argparse.Namespace) -> int:
    problem = check_question(args.question)
    if problem is not None:
        print(f"failure: {problem.kind.value}\n{problem.message()}", file=sys.stderr)
        return 4
    found = _read_conversation(args.conversation)
    if found.skipped:
        _report_skipped(found)
        print("error: storage_damaged: a projection needs every turn; export what can be "
              "read instead", file=sys.stderr)
        return 1
    conversation = found.conversation
    with TurnlogStore.open(data_dir(), readonly=True) as store:
        cached = store.latest_summary(conversation.id)  # the summary a send would reuse
        memory = store.memory(conversation.id)
        versions = store.versions(conversation.id)
    turns = active_line(found.turns, versions)  # superseded versions are never sent
    conversation = _with_limits(conversation, args)
    route = default_route(args.profile)
    try:
        request = request_for(conversation, args.question, route, memory=memory)
    except InvalidBudget as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        # What a send would carry: with the cached summary where a send would reuse it.
        planned = preview(
            turns, request.question, model=request.model, budget=request.budget,
            system_prompt=conversation.system_prompt, options=request.options,
            costs=CostIndex(), compaction=conversation.settings.compaction, cached=cached,
            target=conversation.settings.compaction_share, pinned=memory,
        )
    except ProjectionRefused as refusal:
        if args.json:
            print(json.dumps(refusal.to_json(), ensure_ascii=False))
        else:
            print(refusal.describe(), file=sys.stderr)
        return 3
    budget = request.budget
    projection = planned.projection
    # While a summary is to be made, the turns it will cover are not "left out".
    summarized = planned.summarized
    folded = set(summarized)
    left_out = [o for o in projection.left_out if o not in folded]
    if args.json:
        out = {
            "sent": list(projection.sent),
            "summarized": list(summarized),
            "left_out": left_out,
            "superseded": sorted(t.ordinal for t in found.turns
                                 if versions.is_superseded(t.id)),
            "summary": planned.summary_json(),
            "final": planned.final,
            "body": projection.body.decode("utf-8"),
            "body_bytes": projection.body_bytes,
            "max_bytes": budget.max_bytes,
            "input_tokens": projection.input_tokens,
            "token_budget": budget.input_tokens,
            "tokens_exact": projection.tokens_exact,
            "context_window": budget.context_window,
            "window_source": budget.window_source,
            "memory": memory_json(projection.memory),
        }
        print(json.dumps(out, ensure_ascii=False))
        return 0
    kind = "exact" if projection.tokens_exact else "estimated"
    print(f"conversation {conversation.id}: {conversation.title}")
    print(f"body: {projection.body_bytes:,} of {budget.max_bytes:,} bytes")
    print(f"input: {projection.input_tokens:,} of {budget.input_tokens:,} tokens ({kind}); "
          f"window {budget.window_label}")
    print(f"sent verbatim: {_runs(projection.sent)}")
    print(f"summarized:    {_runs(summarized)} ({planned.state})")
    print(f"not sent:      {_runs(tuple(left_out))}")
    print("final:         " + ("yes, this is the body a send carries" if planned.final else
                               "no, a summary is made first and the body changes"))
    return 0


def _runs(ordinals: tuple[int, ...]) -> str:
    if not ordinals:
        return "none"
    from ..core.send import ordinal_ranges

    return ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in ordinal_ranges(ordinals))


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


def _parse_line(line: str, number: int) -> dict[str, Any]:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        raise ImportError_(f"line {number} is not JSON ({err.msg})") from None
    except RecursionError:
        raise ImportError_(f"line {number} is nested too deeply") from None
    except ValueError as err:  # e.g. an integer of thousands of digits
        raise ImportError_(f"line {number} holds a value that cannot be read ({err})") from None
    if not isinstance(obj, dict):
        raise ImportError_(f"line {number} is not a JSON object")
    for key, value in obj.items():
        if isinstance(value, str):
            problem = _text_problem(value, key, number)
            if problem is not None:
                raise ImportError_(problem)
    return obj


def read_jsonl(stream: TextIO) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Parse an export: a header line, then one object per turn. Blank lines are skipped;
    a byte-order mark at the start is allowed. Every error names its line."""
    header: dict[str, Any] | None = None
    turns: list[dict[str, Any]] = []
    for number, line in enumerate(stream, start=1):
        if number == 1:
            line = line.removeprefix("\ufeff")
        if not line.strip():
            continue
        obj = _parse_line(line, number)
        if header is None:
            if obj.get("turnlog") != FORMAT_VERSION:
                raise ImportError_(
                    f'line {number} should be the header {{"turnlog": {FORMAT_VERSION}, ...}}'
                )
            header = obj
            continue
        for key in ("question", "answer"):
            value = obj.get(key)
            if not isinstance(value, str) or not value.strip():
                raise ImportError_(f"line {number}: '{key}' must be a non-empty string")
            if check_question(value) is not None:
                raise ImportError_(f"line {number}: '{key}' holds text that is not valid UTF-8")
        if "id" in obj and not isinstance(obj["id"], str):
            raise ImportError_(f"line {number}: 'id' must be a string")
        turns.append(obj)
    if header is None:
        raise ImportError_("the file is empty: expected a header line")
    try:
        header["memory"] = read_memory_section(header.get("memory"))
    except ValueError as err:
        raise ImportError_(f"the header's memory: {err}") from None
    return header, turns


def run_import(args: argparse.Namespace) -> int:
    try:
        with args.file.open(encoding="utf-8", errors="strict") as stream:
            header, lines = read_jsonl(stream)
    except (OSError, UnicodeDecodeError, ImportError_) as err:
        print(f"error: cannot import {args.file}: {err}", file=sys.stderr)
        return 1
    try:
        replaced = _superseded_by(lines)
    except ImportError_ as err:
        print(f"error: cannot import {args.file}: {err}", file=sys.stderr)
        return 1
    model = args.model or str(header.get("model") or "")
    with TurnlogStore.open(data_dir()) as store:
        pending = []
        taken: set[str] = set()
        new_ids: dict[str, str] = {}  # the file's ids → the ids stored
        for obj in lines:
            turn_id = obj.get("id") or uuid.uuid4().hex
            if turn_id in taken or store.turn_exists(turn_id):
                turn_id = uuid.uuid4().hex  # ids are global; a re-import gets fresh ones
            taken.add(turn_id)
            if isinstance(obj.get("id"), str):
                new_ids[obj["id"]] = turn_id
            pending.append(
                PendingTurn(
                    id=turn_id,
                    question=obj["question"],
                    answer=obj["answer"],
                    model=str(obj.get("model") or model),
                    finish_reason="stop",
                    usage=Usage.from_json(obj.get("usage")),
                    created_at=_time(obj.get("created_at")),
                )
            )
        conversation = store.import_conversation(
            str(header.get("title") or args.file.stem),
            system_prompt=str(header.get("system") or ""),
            model=model,
            turns=pending,
            superseded_by={new_ids[old]: new_ids[new] for old, new in replaced.items()},
        )
        import_memory(store, conversation.id, header["memory"], new_ids)  # sources follow
    print(conversation.id)
    return 0


def _superseded_by(lines: list[dict[str, Any]]) -> dict[str, str]:
    """The file's "A was superseded by B" pairs (ids as in the file), checked: both turns
    in the file, no loop."""
    ids = {obj["id"] for obj in lines if isinstance(obj.get("id"), str)}
    replaced: dict[str, str] = {}
    for number, obj in enumerate(lines, start=1):
        by = obj.get("superseded_by")
        if by is None:
            continue
        if not isinstance(by, str) or by not in ids or obj.get("id") not in ids \
                or by == obj.get("id"):
            raise ImportError_(f"turn {number}: 'superseded_by' must name another turn's "
                               "id in this file")
        replaced[obj["id"]] = by
    try:
        restore_order(replaced)
    except ValueError as err:
        raise ImportError_(str(err)) from None
    return replaced


def _time(value: Any) -> datetime:
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
        except ValueError:
            pass
    return datetime.now(UTC)


def _read_conversation(conversation_id: int) -> Readable:
    """What can be read of a conversation; rows that cannot are counted, not fatal."""
    with TurnlogStore.open(data_dir(), readonly=True) as store:
        return store.readable(conversation_id)


def _versions(conversation_id: int) -> Versions:
    """The conversation's versions; none when its records cannot be read (a damaged file:
    every turn that can be read is shown, unmarked)."""
    try:
        with TurnlogStore.open(data_dir(), readonly=True) as store:
            return store.versions(conversation_id)
    except StoreError:
        return Versions((), {})


def _report_skipped(found: Readable) -> int:
    """Tell about rows that could not be read (stderr, one line each); the exit status."""
    if not found.skipped:
        return 0
    print(f"warning: {len(found.skipped)} of {len(found.turns) + len(found.skipped)} turns "
          "could not be read and were skipped (the database is damaged):", file=sys.stderr)
    for row in found.skipped:
        print(f"  {row.describe()}", file=sys.stderr)
    return EXIT_DAMAGED


def run_export(args: argparse.Namespace) -> int:
    found = _read_conversation(args.conversation)
    safe = safe_for(sys.stdout, raw=args.raw)
    versions = _versions(args.conversation)
    sys.stdout.write(safe(export_text(found.conversation, found.turns, args.format, versions,
                                      memory_of(found.conversation.id))))
    sys.stdout.flush()
    return _report_skipped(found)


def run_list(args: argparse.Namespace) -> int:
    home = data_dir()
    try:
        with TurnlogStore.open(home, readonly=True) as store:
            rows = store.readable_conversations()
    except NotFound:
        rows = []  # no database yet, or an empty file
    if not rows:
        print("no conversations yet")
    safe = safe_for(sys.stdout, raw=args.raw)
    for conversation, count in rows:
        stamp = conversation.updated_at.astimezone().strftime("%Y-%m-%d %H:%M") \
            if conversation.updated_at else ""
        print(f"{conversation.id:>5}  {stamp}  {count:>6} turns  {safe(conversation.title)}")
    return 0


def _origin(conversation_id: int) -> ForkOrigin | None:
    try:
        with TurnlogStore.open(data_dir(), readonly=True) as store:
            return store.fork_origin(conversation_id)
    except StoreError:
        return None


def run_show(args: argparse.Namespace) -> int:
    found = _read_conversation(args.conversation)
    conversation = found.conversation
    safe = safe_for(sys.stdout, raw=args.raw)
    print(safe(f"# {conversation.title}  (conversation {conversation.id}, model "
               f"{conversation.model or 'not set'})"))
    if conversation.system_prompt:
        print(safe(f"\nsystem: {conversation.system_prompt}"))
    versions, origin = _versions(conversation.id), _origin(conversation.id)
    if origin is not None:
        print(safe(f"\n({origin.describe()})"))
    ordinals = {t.id: t.ordinal for t in found.turns}
    for turn in found.turns:
        mark = ""
        if versions.is_superseded(turn.id):
            by = ordinals.get(versions.active_of(turn.id), "?")
            mark = f"  (*replaced*: turn {by} is the version in use)"
        elif len(versions.group(turn.id)) > 1:
            group = versions.group(turn.id)
            mark = f"  (version {group.index(turn.id) + 1} of {len(group)})"
        print(safe(f"\n## turn {turn.ordinal}  [{turn.id}]{mark}\n\n> {turn.question}\n\n"
                   f"{turn.answer}"))
    sys.stdout.flush()
    return _report_skipped(found)
