"""versions, use-version, fork: a turn's versions and new conversations from any turn."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..config.paths import data_dir
from ..core.failures import StoreError
from ..core.numbers import TurnNumbers, ordinal_in_use
from ..core.partial import incomplete_mark
from ..store import NotFound, TurnlogStore
from .numbers import whole_number
from .terminal import print_json, safe_for


def _add_versions(sub: Any) -> None:
    p = sub.add_parser("versions", help="list the versions of a turn (regenerated, edited)")
    p.add_argument("--conversation", type=whole_number, required=True, metavar="ID")
    p.add_argument("--turn", type=whole_number, required=True, metavar="NUMBER",
                   help="the turn's number, as `show` prints it (its versions share it)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--raw", action="store_true",
                   help="write text as it is, control characters included")
    p.set_defaults(run=run_versions)


def _add_use_version(sub: Any) -> None:
    p = sub.add_parser("use-version", help="make a version of the last turn the one in use")
    p.add_argument("turn_id", metavar="TURN_ID", help="a turn id, as `versions` prints it")
    p.set_defaults(run=run_use_version)


def _add_fork(sub: Any) -> None:
    p = sub.add_parser("fork", help="a new conversation with copies of the turns before one")
    p.add_argument("--conversation", type=whole_number, required=True, metavar="ID")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--at", type=whole_number, metavar="NUMBER",
                       help="the turns before turn NUMBER (as `show` prints it) are copied; "
                       "its question is the new conversation's draft")
    where.add_argument("--with-version", metavar="TURN_ID",
                       help="go on from this version of a turn that later turns followed: "
                       "the turns before it and this version are copied; the next turn's "
                       "question is the draft")
    p.add_argument("--title", metavar="T", help="the new conversation's title")
    p.set_defaults(run=run_fork)


# This module's commands in `--help`'s order, each with what adds its parser.
PARSERS = (("versions", _add_versions), ("use-version", _add_use_version),
            ("fork", _add_fork))


def run_versions(args: argparse.Namespace) -> int:
    with TurnlogStore.open(data_dir(), readonly=True) as store:
        turns = store.turns.all(args.conversation)
        versions = store.turns.versions(args.conversation)
    numbers = TurnNumbers.of(versions)
    at = next((t for t in turns if numbers.number(t.ordinal) == args.turn), None)
    if at is None:
        print(f"error: conversation {args.conversation} has no turn {args.turn}",
              file=sys.stderr)
        return 1
    by_id = {t.id: t for t in turns}
    group = [by_id[i] for i in versions.group(at.id) if i in by_id]
    rows = [{"version": n, "id": t.id, "number": args.turn, "ordinal": t.ordinal,
             "active": not versions.is_superseded(t.id), "question": t.question,
             "answer": t.answer, "created_at": t.created_at.isoformat(),
             "incomplete": t.incomplete}
            for n, t in enumerate(group, start=1)]
    if args.json:
        print_json({"conversation": args.conversation, "versions": rows})
        return 0
    safe = safe_for(sys.stdout, raw=args.raw)
    for row in rows:
        state = "in use" if row["active"] else "*replaced*"
        if row["incomplete"]:
            state += f", *{incomplete_mark(str(row['incomplete']))}*"
        first = str(row["answer"]).strip().splitlines()[0][:70] if row["answer"] else ""
        print(safe(f"version {row['version']} of {len(rows)}  turn {row['number']}  "
                   f"{row['id']}  {state}  {first}"))
    return 0


def run_use_version(args: argparse.Namespace) -> int:
    try:
        with TurnlogStore.open(data_dir()) as store:
            cid = store.turns.use_version(args.turn_id)
            line = store.turns.active(cid)
            numbers = TurnNumbers.of(store.turns.versions(cid))
    except NotFound as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except StoreError as err:
        if err.code:
            raise  # a storage fault: named by the caller
        print(f"error: {err}", file=sys.stderr)
        return 1
    ordinal = next(t.ordinal for t in line if t.id == args.turn_id)
    print(f"turn {numbers.number(ordinal)} ({args.turn_id}) is the version in use in "
          f"conversation {cid}")
    return 0


def run_fork(args: argparse.Namespace) -> int:
    try:
        with TurnlogStore.open(data_dir()) as store:
            if args.with_version is not None:
                fork, _ = store.forks.with_version(args.with_version, title=args.title,
                                                  conversation_id=args.conversation)
            else:
                at = ordinal_in_use(store.turns.versions(args.conversation), args.at)
                fork, _ = store.forks.at(args.conversation, at, title=args.title)
            copied = store.turns.count(fork.id)
            origin = store.forks.origin(fork.id)
    except NotFound as err:
        said = str(err) if args.at is None else \
            f"conversation {args.conversation} has no turn {args.at}"
        print(f"error: {said}", file=sys.stderr)
        return 1
    except StoreError as err:
        if err.code:
            raise  # a storage fault: named by the caller
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(fork.id)
    at = origin.number if origin else args.at
    print(f"copied {copied} turn(s); the question of turn {at} is its draft (the window "
          f"opens it in the composer); ask it: turnlog-cli ask --conversation {fork.id} TEXT",
          file=sys.stderr)
    return 0
