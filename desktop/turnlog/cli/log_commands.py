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
from ..core.model import Usage
from ..core.projection import ProjectionRefused, project
from ..core.send import PendingTurn, check_question
from ..export import FORMAT_VERSION, FORMATS, export_text
from ..model_counts import ModelCounts
from ..model_facts import FactStore
from ..paths import data_dir
from ..store import TurnlogStore


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
    p.set_defaults(run=run_export)

    p = sub.add_parser("list", help="list conversations, most recent first")
    p.set_defaults(run=run_list)

    p = sub.add_parser("show", help="print a conversation's whole history")
    p.add_argument("conversation", type=int, metavar="ID")
    p.set_defaults(run=run_show)


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


def run_project(args: argparse.Namespace) -> int:
    problem = check_question(args.question)
    if problem is not None:
        print(f"failure: {problem.kind.value}\n{problem.message()}", file=sys.stderr)
        return 4
    with TurnlogStore.open(data_dir(), readonly=True) as store:
        conversation = store.conversation(args.conversation)
        turns = store.turns(conversation.id)
    settings = conversation.settings
    overrides: dict[str, Any] = {}
    if args.max_bytes is not None:
        overrides["max_bytes"] = args.max_bytes
    if args.window is not None:
        overrides["context_window"] = args.window
    if args.output_reserve is not None:
        overrides["output_reserve"] = args.output_reserve
    conversation = replace(conversation, settings=replace(settings, **overrides))
    route = default_route(args.profile)
    try:
        request = request_for(conversation, args.question, route)
    except InvalidBudget as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        projection = project(
            turns,
            request.question,
            model=request.model,
            budget=request.budget,
            system_prompt=conversation.system_prompt,
            options=request.options,
        )
    except ProjectionRefused as refusal:
        if args.json:
            print(json.dumps(refusal.to_json(), ensure_ascii=False))
        else:
            print(refusal.describe(), file=sys.stderr)
        return 3
    budget = request.budget
    if args.json:
        out = {
            "sent": list(projection.sent),
            "summarized": list(projection.summarized),
            "left_out": list(projection.left_out),
            "body": projection.body.decode("utf-8"),
            "body_bytes": projection.body_bytes,
            "max_bytes": budget.max_bytes,
            "input_tokens": projection.input_tokens,
            "token_budget": budget.input_tokens,
            "tokens_exact": projection.tokens_exact,
            "context_window": budget.context_window,
            "window_source": budget.window_source,
        }
        print(json.dumps(out, ensure_ascii=False))
        return 0
    kind = "exact" if projection.tokens_exact else "estimated"
    print(f"conversation {conversation.id}: {conversation.title}")
    print(f"body: {projection.body_bytes:,} of {budget.max_bytes:,} bytes")
    print(f"input: {projection.input_tokens:,} of {budget.input_tokens:,} tokens ({kind}); "
          f"window {budget.window_label}")
    print(f"sent verbatim: {_runs(projection.sent)}")
    print(f"not sent:      {_runs(projection.left_out)}")
    return 0


def _runs(ordinals: tuple[int, ...]) -> str:
    if not ordinals:
        return "none"
    from ..core.send import ordinal_ranges

    return ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in ordinal_ranges(ordinals))


def read_jsonl(stream: TextIO) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Parse an export: a header line, then one object per turn. Blank lines are skipped."""
    header: dict[str, Any] | None = None
    turns: list[dict[str, Any]] = []
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise ImportError_(f"line {number} is not JSON ({err.msg})") from None
        if not isinstance(obj, dict):
            raise ImportError_(f"line {number} is not a JSON object")
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
    return header, turns


def run_import(args: argparse.Namespace) -> int:
    try:
        with args.file.open(encoding="utf-8", errors="strict") as stream:
            header, lines = read_jsonl(stream)
    except (OSError, UnicodeDecodeError, ImportError_) as err:
        print(f"error: cannot import {args.file}: {err}", file=sys.stderr)
        return 1
    model = args.model or str(header.get("model") or "")
    with TurnlogStore.open(data_dir()) as store, store.db.atomic():
        conversation = store.create_conversation(
            str(header.get("title") or args.file.stem),
            system_prompt=str(header.get("system") or ""),
            model=model,
        )
        pending = []
        taken: set[str] = set()
        for obj in lines:
            turn_id = obj.get("id") or uuid.uuid4().hex
            if turn_id in taken or _exists(store, turn_id):
                turn_id = uuid.uuid4().hex  # ids are global; a re-import gets fresh ones
            taken.add(turn_id)
            created = _time(obj.get("created_at"))
            pending.append(
                PendingTurn(
                    id=turn_id,
                    question=obj["question"],
                    answer=obj["answer"],
                    model=str(obj.get("model") or model),
                    finish_reason="stop",
                    usage=Usage.from_json(obj.get("usage")),
                    created_at=created,
                )
            )
        store.import_turns(conversation.id, pending)
    print(conversation.id)
    return 0


def _exists(store: TurnlogStore, turn_id: str) -> bool:
    from ..store.models import TurnRow

    return TurnRow.get_or_none(TurnRow.id == turn_id) is not None


def _time(value: Any) -> datetime:
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
        except ValueError:
            pass
    return datetime.now(UTC)


def run_export(args: argparse.Namespace) -> int:
    with TurnlogStore.open(data_dir(), readonly=True) as store:
        conversation = store.conversation(args.conversation)
        turns = store.turns(conversation.id)
    sys.stdout.write(export_text(conversation, turns, args.format))
    return 0


def run_list(args: argparse.Namespace) -> int:
    home = data_dir()
    if not (home / "turnlog.sqlite3").exists():
        print("no conversations yet")
        return 0
    with TurnlogStore.open(home, readonly=True) as store:
        rows = [(c, store.turn_count(c.id)) for c in store.conversations()]
    if not rows:
        print("no conversations yet")
    for conversation, count in rows:
        stamp = conversation.updated_at.astimezone().strftime("%Y-%m-%d %H:%M") \
            if conversation.updated_at else ""
        print(f"{conversation.id:>5}  {stamp}  {count:>6} turns  {conversation.title}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    with TurnlogStore.open(data_dir(), readonly=True) as store:
        conversation = store.conversation(args.conversation)
        turns = store.turns(conversation.id)
    print(f"# {conversation.title}  (conversation {conversation.id}, model "
          f"{conversation.model or 'not set'})")
    if conversation.system_prompt:
        print(f"\nsystem: {conversation.system_prompt}")
    for turn in turns:
        print(f"\n## turn {turn.ordinal}  [{turn.id}]\n\n> {turn.question}\n\n{turn.answer}")
    return 0
