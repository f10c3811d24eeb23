"""sent: the request that produced an answer, rebuilt from its record and checked against
the SHA-256 kept when it was sent."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..config.paths import data_dir
from ..core.proof import Rebuilt
from ..service.request_body import NoRecord, RoundNotFound, sent_request
from ..store import NotFound, TurnlogStore
from .numbers import whole_number
from .terminal import is_terminal, print_json, safe_for


def register(sub: Any) -> None:
    p = sub.add_parser("sent", help="the request that produced an answer, rebuilt and "
                                    "checked against its stored hash")
    p.add_argument("--conversation", type=whole_number, required=True, metavar="ID")
    p.add_argument("--turn", type=whole_number, required=True, metavar="N",
                   help="the turn's number, as the window shows it (its version in use)")
    p.add_argument("--round", type=whole_number, metavar="K",
                   help="with tools: the K-th request of the answer (1: before any tool "
                        "ran); default the one that got the answer")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--json", action="store_true",
                     help="print its parts, the turns' marks and whether it is verified")
    how.add_argument("--body", action="store_true",
                     help="write the exact body bytes (only when verified)")
    p.set_defaults(run=run_sent)


def run_sent(args: argparse.Namespace) -> int:
    try:
        with TurnlogStore.open(data_dir(), readonly=True) as store:
            rebuilt = sent_request(store, args.conversation, args.turn, args.round)
    except (NoRecord, RoundNotFound, NotFound) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    if args.body:
        if rebuilt.body is None or not rebuilt.verified:
            print(f"error: no verified body: {rebuilt.why}", file=sys.stderr)
            return 1
        if is_terminal(sys.stdout):  # a person reads it: its controls shown, never obeyed
            print(safe_for(sys.stdout)(rebuilt.body.decode("utf-8")))
            return 0
        sys.stdout.flush()
        sys.stdout.buffer.write(rebuilt.body)
        sys.stdout.buffer.flush()
        return 0
    print_json(as_json(args.conversation, args.turn, rebuilt))
    return 0


def as_json(conversation: int, number: int, rebuilt: Rebuilt) -> dict[str, object]:
    """A rebuilt request as `sent --json` prints it."""
    return {
        "conversation": conversation, "turn": number, "turn_id": rebuilt.turn_id,
        "record": rebuilt.record_id, "outcome": rebuilt.outcome,
        "round": rebuilt.round, "rounds": rebuilt.rounds,
        "verified": rebuilt.verified, "why": rebuilt.why or None,
        "stored_sha256": rebuilt.stored_sha256, "rebuilt_sha256": rebuilt.sha256,
        "bytes": len(rebuilt.body) if rebuilt.body is not None else None,
        "marks": {name: [list(run) for run in runs] for name, runs in rebuilt.marks.items()},
        "parts": [{"kind": p.kind, "state": p.state.value, "turn": p.number,
                   "ordinal": p.ordinal, "text": p.text} for p in rebuilt.parts],
        "body": json.loads(rebuilt.body) if rebuilt.body is not None else None,
    }
