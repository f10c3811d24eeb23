"""summaries: a conversation's compaction history, and the summary the user rewrites."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..config.paths import data_dir
from ..core.numbers import TurnNumbers
from ..core.summaries import (
    MAX_EDITED_SUMMARY_BYTES,
    StoredSummary,
    SummaryEditError,
    SummaryVersion,
    edited_text,
    edited_tokens,
    folded_span,
)
from ..store import NotFound, TurnlogStore
from ..system.user_files import FileRefused, read_limited
from .numbers import whole_number
from .terminal import print_json, safe_for

ACTIONS = ("history", "edit", "undo", "forget-earlier")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "summaries", help="a conversation's compaction history; edit or undo its summary",
        description="ACTION: history (the default) lists every summary kept, by whom and "
        "when it was made, the turns it covers and folded, the one it replaced and the "
        "requests that carried it; edit makes the text of --file the summary sent from now "
        "on; undo returns to the version before your edit; forget-earlier removes every "
        "version but the one in effect.")
    p.add_argument("action", nargs="?", default="history", choices=ACTIONS, metavar="ACTION")
    p.add_argument("--conversation", type=whole_number, required=True, metavar="ID")
    p.add_argument("--file", type=Path, metavar="F", help="edit: the new summary (UTF-8)")
    p.add_argument("--json", action="store_true", help="history: as JSON")
    p.set_defaults(run=run_summaries)


def run_summaries(args: argparse.Namespace) -> int:
    try:
        if args.action == "history":
            return _history(args.conversation, args.json)
        if args.action == "edit":
            return _edit(args.conversation, args.file)
        if args.action == "undo":
            return _write(args.conversation, lambda s: s.records.undo_summary_edit(
                args.conversation), "back to summary")
        return _forget(args.conversation)
    except NotFound as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except SummaryEditError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


def _history(conversation: int, as_json: bool) -> int:
    with TurnlogStore.open(data_dir(), readonly=True) as store:
        store.conversations.get(conversation)
        numbers = TurnNumbers.of(store.turns.versions(conversation))
        found = store.records.summary_history(conversation)
    entries = history_json(found, numbers)
    if as_json:
        print_json({"conversation": conversation, "summaries": entries})
        return 0
    if not entries:
        print(f"conversation {conversation} has no summary yet")
        return 0
    shown = safe_for(sys.stdout)
    for entry in entries:
        print(_heading(entry, conversation))
        print(shown(_indented(str(entry["text"]))))
    return 0


def history_json(found: list[SummaryVersion], numbers: TurnNumbers) -> list[dict[str, Any]]:
    """The history as `summaries --json` prints it, turns named by the numbers the window
    shows."""
    kept = {v.summary.id: v.summary for v in found}

    def turns(span: tuple[int, int] | None) -> list[int] | None:
        return None if span is None else [numbers.number(span[0]), numbers.number(span[1])]

    return [{
        "id": v.summary.id, "state": v.state.value,
        "created_at": v.summary.created_at.isoformat(timespec="seconds"),
        "model": v.summary.model, "edited_by_you": v.summary.edited,
        "edited_from": v.summary.edited_from,
        "replaced": v.summary.replaced_id, "replaced_kept": v.replaced_kept,
        "covers_turns": turns(v.folded), "folded_turns": turns(folded_span(v, kept)),
        "records": list(v.record_ids), "made_in_record": v.made_in,
        "made_for_turn": None if v.made_for_ordinal is None
        else numbers.number(v.made_for_ordinal),
        "set_aside_for": v.set_aside_for,
        "bytes": v.summary.content_bytes,
        "text": v.summary.content,
    } for v in found]


def _span(turns: list[int] | None) -> str:
    if turns is None:
        return "none"
    first, last = turns
    return f"turn {first}" if first == last else f"turns {first}–{last}"


def _heading(entry: dict[str, Any], conversation: int) -> str:
    who = "edited by you" if entry["edited_by_you"] else f"made by {entry['model']}"
    replaced = entry["replaced"]
    then = ("replaced none" if replaced is None else f"replaced #{replaced}"
            + ("" if entry["replaced_kept"] else " (no longer kept)"))
    folded = ("folded " + _span(entry["folded_turns"])) if not entry["edited_by_you"] \
        else f"an edit of #{entry['edited_from']}"
    records = ", ".join(f"#{r}" for r in entry["records"]) or "none yet"
    made = "" if entry["made_for_turn"] is None else (
        f"; made while sending turn {entry['made_for_turn']} (that request: turnlog-cli "
        f"sent --conversation {conversation} --turn {entry['made_for_turn']} --json)")
    aside = "" if entry["set_aside_for"] is None else (
        f"; set aside: it and #{entry['set_aside_for']} were made at the same time on two "
        f"machines; #{entry['set_aside_for']}, the later by the sync's clock, is in use")
    return (f"summary #{entry['id']} [{entry['state']}] {who}, {entry['created_at']}; "
            f"covers {_span(entry['covers_turns'])}; {folded}; {then}; "
            f"requests that carried it: {records}{made}{aside}")


def _indented(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def _edit(conversation: int, file: Path | None) -> int:
    if file is None:
        print("error: edit needs --file F, the new summary's text", file=sys.stderr)
        return 2
    try:
        raw = read_limited(file, MAX_EDITED_SUMMARY_BYTES * 2, what="summary")
        text = edited_text(raw.decode("utf-8"))
    except FileNotFoundError:
        print(f"error: {file}: there is no such file", file=sys.stderr)
        return 1
    except FileRefused as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except UnicodeDecodeError as err:
        print(f"error: {file}: byte {err.start:,} is not UTF-8", file=sys.stderr)
        return 1
    tokens = edited_tokens(text)
    return _write(conversation, lambda s: s.records.edit_summary(conversation, text, tokens),
                  "summary")


def _write(conversation: int, change: Callable[[TurnlogStore], StoredSummary],
           said: str) -> int:
    with TurnlogStore.open(data_dir()) as store:
        store.conversations.get(conversation)
        made = change(store)
    mark = ", edited by you" if made.edited else ""
    print(f"{said} #{made.id}{mark} is sent from now on")
    return 0


def _forget(conversation: int) -> int:
    with TurnlogStore.open(data_dir()) as store:
        store.conversations.get(conversation)
        removed = store.records.forget_earlier_summaries(conversation)
    print(f"removed {removed} earlier version(s) of the summary")
    return 0
