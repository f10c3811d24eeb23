"""btw: side questions from the terminal, answered apart from the conversation's turns."""

from __future__ import annotations

import argparse
import sys

from ..config.paths import data_dir
from ..config.profiles import Profile
from ..core.budget import InvalidBudget
from ..core.failures import FailureKind
from ..core.memory import Memory
from ..core.model import Conversation
from ..core.numbers import TurnNumbers
from ..core.projection import CostIndex, ProjectionRefused
from ..core.request_record import ordinal_ranges
from ..core.side import SideAnswered, SideAttempt, SideQuestion, attempts_usage, plan_side
from ..service.chat import Connection, Route, side_asker_for, side_request_for
from ..store import TurnlogStore
from ..store.pages import paged
from .chat_commands import (
    EXIT_FAILED,
    EXIT_REFUSED,
    AnswerStream,
    StagePrinter,
    fail,
    interruptible,
    with_connection,
)
from .numbers import whole_number
from .terminal import print_json, print_refusal, runs_text, safe_for

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("btw", help="ask a side question about a conversation (not saved as a "
                                   "turn; kept with its side questions)")
    p.add_argument("--conversation", type=whole_number, required=True, metavar="ID")
    p.add_argument("--profile", metavar="P", help="provider profile name or id")
    p.add_argument("--list", action="store_true", help="list the conversation's side questions")
    p.add_argument("--json", action="store_true",
                   help="with --list: one JSON object per line (a last one with "
                        "\"failed_attempts\" if side requests failed)")
    p.add_argument("text", metavar="TEXT", nargs="?",
                   help="the side question ('-' reads it from stdin)")
    p.add_argument("--raw", action="store_true",
                   help="write the answer as it is, control characters included")
    p.set_defaults(run=run_btw)


def run_btw(args: argparse.Namespace) -> int:
    if args.list:
        return list_side_questions(args)
    if args.text is None:
        print("error: give the side question (or --list)", file=sys.stderr)
        return 2
    draft = sys.stdin.read().removesuffix("\n") if args.text == "-" else args.text
    args.draft = draft
    return with_connection(args, draft, ask_aside)


def ask_aside(args: argparse.Namespace, profile: Profile, draft: str,
              connection: Connection) -> int:
    """Stream the side answer to stdout and keep it apart; the conversation's turns, summary
    and request records are not written."""
    with TurnlogStore.open(data_dir()) as store:
        store.database.check_sound()
        conversation = store.conversations.get(args.conversation)
        try:
            request = side_request_for(conversation, draft, connection.route,
                                       memory=store.memory(conversation.id))
        except InvalidBudget as err:
            return fail(FailureKind.REFUSED.value, str(err), draft, EXIT_REFUSED)
        if not request.model:
            return fail(FailureKind.MODEL_NOT_FOUND.value,
                        f"No model set: give profile “{profile.name}” a --model.", draft)
        out = AnswerStream(args.raw)
        with interruptible() as cancel:
            asker = side_asker_for(store, connection.provider, connection.costs or CostIndex())
            outcome = asker.ask(request, cancel=cancel, on_delta=out, on_stage=StagePrinter())
    out.end()
    if isinstance(outcome, SideAnswered):
        if not out.streamed:
            print(out.safe(outcome.side.answer))
        print(f"kept as side question {outcome.side.id} (not a turn)", file=sys.stderr)
        return 0
    failure = outcome.failure
    code = EXIT_REFUSED if failure.kind is FailureKind.REFUSED else EXIT_FAILED
    if out.streamed:
        print("(the text above was not kept)", file=sys.stderr)
    return fail(failure.name, failure.message(), outcome.draft, code)


def side_json(side: SideQuestion) -> dict[str, object]:
    return {"id": side.id, "question": side.question, "answer": side.answer,
            "model": side.model, "created_at": side.created_at.isoformat(),
            "usage": side.usage.to_json(), "body_bytes": side.body_bytes,
            "input_tokens": side.input_tokens, "tokens_exact": side.tokens_exact,
            "sent": ordinal_ranges(side.sent), "left_out": ordinal_ranges(side.left_out)}


def attempts_json(attempts: list[SideAttempt]) -> dict[str, object]:
    """What the side requests that failed used, by outcome too."""
    outcomes: dict[str, int] = {}
    for attempt in attempts:
        outcomes[attempt.outcome] = outcomes.get(attempt.outcome, 0) + 1
    return {"failed_attempts": len(attempts), "failed_outcomes": outcomes,
            "failed_usage": attempts_usage(attempts).to_json()}


def list_side_questions(args: argparse.Namespace) -> int:
    with TurnlogStore.open(data_dir(), readonly=True) as store:
        store.conversations.get(args.conversation)
        sides = store.side.of(args.conversation)
        attempts = store.side.attempts(args.conversation)
    safe = safe_for(sys.stdout, raw=args.raw)
    if args.json:
        for side in sides:
            print_json(side_json(side))
        if attempts:
            print_json(attempts_json(attempts))
        return 0
    if not sides:
        print("no side questions yet")
    for side in sides:
        stamp = side.created_at.astimezone().strftime("%Y-%m-%d %H:%M")
        usage = side.usage.total_tokens
        used = f"  {usage:,} tokens" if usage is not None else ""
        print(safe(f"## {stamp}  [{side.id}]{used}\n\n> {side.question}\n\n{side.answer}\n"))
    if attempts:
        total = attempts_usage(attempts).total_tokens
        used = f", {total:,} tokens" if total is not None else ", usage not reported"
        print(f"{len(attempts):,} failed side request{'s' if len(attempts) != 1 else ''}"
              f" (no answer kept){used}")
    return 0


def project_side_question(args: argparse.Namespace, conversation: Conversation,
                          route: Route, memory: Memory, numbers: TurnNumbers) -> int:
    """`project --side`: the side request a `btw` would send now, with `project`'s fields
    (in words, turns named by `numbers`, as `show` heads them)."""
    try:
        request = side_request_for(conversation, args.question, route, memory=memory)
    except InvalidBudget as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    with TurnlogStore.open(data_dir(), readonly=True) as store:
        try:
            planned = plan_side(paged(store), request, CostIndex())
        except ProjectionRefused as refusal:
            return print_refusal(refusal, args.json)
    p = planned.projection
    budget = p.budget
    summary = next((part for part in p.parts if part.kind.value == "summary"), None)
    out = {
        "kind": "side question",
        "sent": list(p.sent),
        "summarized": list(p.summarized),
        "left_out": list(p.left_out),
        "summary": {"state": "cached" if summary else "none",
                    "covers": [p.summarized[0], p.summarized[-1]] if p.summarized else None,
                    "bytes": summary.bytes if summary else 0,
                    "tokens": summary.tokens if summary else 0},
        "final": True,
        "side_questions": len(planned.side_ids),
        "body": p.body.decode("utf-8"),
        "body_bytes": p.body_bytes,
        "max_bytes": budget.max_bytes,
        "input_tokens": p.input_tokens,
        "token_budget": budget.input_tokens,
        "tokens_exact": p.tokens_exact,
        "context_window": budget.context_window,
        "window_source": budget.window_source,
        "output_reserve": budget.output_reserve,
    }
    if args.json:
        print_json(out)
        return 0
    kind = "exact" if p.tokens_exact else "estimated"
    print(f"side question about conversation {conversation.id}: "
          f"{safe_for(sys.stdout)(conversation.title)}")
    print(f"body: {p.body_bytes:,} of {budget.max_bytes:,} bytes")
    print(f"input: {p.input_tokens:,} of {budget.input_tokens:,} tokens ({kind}); "
          f"window {budget.window_label}; output reserve {budget.output_reserve:,}")
    print(f"recent turns:  {runs_text(p.sent, numbers)}")
    print(f"summarized:    {runs_text(p.summarized, numbers)}")
    print(f"left out:      {runs_text(p.left_out, numbers)}")
    print(f"earlier side questions carried: {len(planned.side_ids)}")
    return 0


