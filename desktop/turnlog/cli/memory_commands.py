"""pin, pref, note: the memory a conversation's requests carry besides the log."""

from __future__ import annotations

import argparse
import sys

from ..config.paths import data_dir
from ..core.failures import StoreError
from ..core.memory import DEFAULT_PRIORITY, MemorySelection
from ..store import NotFound, TurnlogStore
from .numbers import whole_number
from .terminal import print_json, safe_for

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Any


def _priority(value: str) -> int:
    number = int(value)
    if not 1 <= number <= 5:
        raise argparse.ArgumentTypeError("a priority is 1–5")
    return number


def _add_pin(sub: Any) -> None:
    pin = sub.add_parser("pin", help="pinned facts: sent word for word in every request")
    verbs = pin.add_subparsers(dest="verb", required=True, metavar="VERB")
    p = verbs.add_parser("add", help="pin a fact (prints the pin id)")
    p.add_argument("--conversation", type=whole_number, required=True, metavar="ID")
    p.add_argument("--turn", action="append", default=[], metavar="TURN_ID",
                   help="the turn the fact was taken from (repeatable; none: typed)")
    p.add_argument("--kind", default="", choices=("", "constraint", "decision", "identifier",
                                                  "pending step"))
    p.add_argument("text", metavar="TEXT")
    p.set_defaults(run=run_pin_add)
    p = verbs.add_parser("list", help="a conversation's pins with their sources")
    p.add_argument("--conversation", type=whole_number, required=True, metavar="ID")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_pin_list)
    p = verbs.add_parser("remove", help="remove a pin")
    p.add_argument("id", type=whole_number, metavar="PIN_ID")
    p.set_defaults(run=lambda a: _remove(lambda s: s.memory.remove_pin(a.id), f"pin {a.id}"))


def _add_pref(sub: Any) -> None:
    pref = sub.add_parser("pref", help="preferences: for every conversation, as room allows")
    verbs = pref.add_subparsers(dest="verb", required=True, metavar="VERB")
    p = verbs.add_parser("add", help="add a preference (prints its id)")
    p.add_argument("--priority", type=_priority, default=DEFAULT_PRIORITY, metavar="N")
    p.add_argument("text", metavar="TEXT")
    p.set_defaults(run=run_pref_add)
    p = verbs.add_parser("list", help="every preference")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_pref_list)
    p = verbs.add_parser("remove", help="remove a preference")
    p.add_argument("id", type=whole_number, metavar="ID")
    p.set_defaults(run=lambda a: _remove(lambda s: s.memory.remove_preference(a.id),
                                         f"preference {a.id}"))


def _add_note(sub: Any) -> None:
    note = sub.add_parser("note", help="notes: a conversation's background, as room allows")
    verbs = note.add_subparsers(dest="verb", required=True, metavar="VERB")
    p = verbs.add_parser("add", help="add a note (prints its id)")
    p.add_argument("--conversation", type=whole_number, required=True, metavar="ID")
    p.add_argument("--priority", type=_priority, default=DEFAULT_PRIORITY, metavar="N")
    p.add_argument("text", metavar="TEXT")
    p.set_defaults(run=run_note_add)
    p = verbs.add_parser("list", help="a conversation's notes")
    p.add_argument("--conversation", type=whole_number, required=True, metavar="ID")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_note_list)
    p = verbs.add_parser("remove", help="remove a note")
    p.add_argument("id", type=whole_number, metavar="ID")
    p.set_defaults(run=lambda a: _remove(lambda s: s.memory.remove_note(a.id), f"note {a.id}"))


# This module's commands in `--help`'s order, each with what adds its parser.
PARSERS = (("pin", _add_pin), ("pref", _add_pref), ("note", _add_note))


def _added(make: Any) -> int:
    from ..store.memory import TextRefused  # the memory's writer: `project --json` needs none

    try:
        with TurnlogStore.open(data_dir()) as store:
            made = make(store)
    except TextRefused as err:
        print(f"error: {err.code}: {err}", file=sys.stderr)
        return 1
    except (NotFound, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(made.id)
    return 0


def _remove(action: Any, what: str) -> int:
    try:
        with TurnlogStore.open(data_dir()) as store:
            action(store)
    except NotFound as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"removed {what}")
    return 0


def run_pin_add(args: argparse.Namespace) -> int:
    return _added(lambda s: s.memory.add_pin(args.conversation, args.text, sources=args.turn,
                                             kind=args.kind))


def run_pref_add(args: argparse.Namespace) -> int:
    return _added(lambda s: s.memory.add_preference(args.text, priority=args.priority))


def run_note_add(args: argparse.Namespace) -> int:
    return _added(lambda s: s.memory.add_note(args.conversation, args.text, priority=args.priority))


def _listed(args: argparse.Namespace, read: Any, to_json: Any, to_line: Any) -> int:
    try:
        with TurnlogStore.open(data_dir(), readonly=True) as store:
            items = read(store)
    except NotFound as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.json:
        print_json([to_json(i) for i in items])
        return 0
    safe = safe_for(sys.stdout, raw=False)
    for item in items:
        print(safe(to_line(item)))
    return 0


def run_pin_list(args: argparse.Namespace) -> int:
    return _listed(
        args, lambda s: (s.conversations.get(args.conversation),
                         s.memory.pins(args.conversation))[1],
        lambda p: {"id": p.id, "text": p.text, "kind": p.kind, "sources": list(p.sources),
                   "created_at": p.created_at},
        lambda p: f"{p.id}\t{'typed' if p.typed else 'from ' + ', '.join(p.sources)}\t{p.text}",
    )


def run_pref_list(args: argparse.Namespace) -> int:
    return _listed(
        args, lambda s: s.memory.preferences(),
        lambda p: {"id": p.id, "text": p.text, "priority": p.priority,
                   "created_at": p.created_at},
        lambda p: f"{p.id}\tpriority {p.priority}\t{p.text}",
    )


def run_note_list(args: argparse.Namespace) -> int:
    return _listed(
        args, lambda s: (s.conversations.get(args.conversation),
                         s.memory.notes(args.conversation))[1],
        lambda n: {"id": n.id, "text": n.text, "priority": n.priority,
                   "created_at": n.created_at},
        lambda n: f"{n.id}\tpriority {n.priority}\t{n.text}",
    )


def memory_json(selection: MemorySelection) -> dict[str, Any]:
    """`project --json`'s "memory": the share, the pins' sizes, each optional item kept or
    not, and whether the choice was approximate."""
    return {
        "budget": {"bytes": selection.limit.bytes, "tokens": selection.limit.tokens},
        "pinned": [{"id": int(pin.id), "bytes": cost.bytes, "tokens": cost.tokens}
                   for pin, cost in selection.pins],
        "optional": [{"id": int(c.item.id), "kind": c.item.kind.value,
                      "priority": c.item.priority, "bytes": c.cost.bytes,
                      "tokens": c.cost.tokens, "kept": c.kept,
                      **({} if c.kept else {"why": c.reason.value})}
                     for c in selection.choices],
        "approximate": selection.approximate,
    }


def memory_of(conversation_id: int) -> dict[str, Any]:
    """The conversation's memory as an export carries it (read-only; none from a file
    the store cannot read as current)."""
    try:
        with TurnlogStore.open(data_dir(), readonly=True) as store:
            return store.memory.export_memory(conversation_id)
    except StoreError:  # a damaged file: export what can be read, the turns
        return {}
