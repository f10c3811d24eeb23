"""usage: tokens and cost per day and month, per profile and model."""

from __future__ import annotations

import argparse
import sys
from datetime import date
from typing import Any

from ..config.paths import data_dir
from ..core.cost import UsageLine, shown
from ..service.usage import DAILY_TOTALS, UsageReport, usage_report
from ..store import NotFound, TurnlogStore
from .numbers import whole_number
from .terminal import print_json, safe_for


def day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"“{text}” is not a date such as 2026-12-01") from None


def register(sub: Any) -> None:
    p = sub.add_parser(
        "usage", help="tokens and cost per day and month, per profile and model",
        description="Tokens in, cached and out, and their cost at the prices each request "
        "was costed at. Without --conversation: the daily totals, which still count the "
        "spend of deleted conversations. A cost marked estimated was made from Turnlog's "
        "own count where the server reported no usage; without prices, tokens only.")
    p.add_argument("--conversation", type=whole_number, metavar="ID",
                   help="only this conversation's requests")
    p.add_argument("--since", type=day, metavar="DATE", help="from this day on (YYYY-MM-DD)")
    p.add_argument("--by", choices=("day", "month"), default="day",
                   help="one line per day (default) or per month")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--clear", action="store_true",
                   help="forget the daily totals (conversations and their records stay)")
    p.add_argument("--yes", action="store_true", help="with --clear: do not ask")
    p.set_defaults(run=run_usage)


def run_usage(args: argparse.Namespace) -> int:
    if args.clear:
        return _clear(args)
    try:
        with TurnlogStore.open(data_dir(), readonly=True) as store:
            if args.conversation is not None:
                store.conversations.get(args.conversation)  # NotFound names it
            report = usage_report(store.usage, conversation_id=args.conversation,
                                  since=args.since)
    except NotFound:
        if args.conversation is not None:
            raise
        report = usage_report(_Nothing(), since=args.since)
    if args.json:
        print_json(report.to_json(), indent=2)
        return 0
    _print(report, args.by)
    return 0


class _Nothing:
    """No database yet: no usage."""

    def days(self, since: date | None = None) -> list[UsageLine]:
        return []

    def of_conversation(self, conversation_id: int,
                        since: date | None = None) -> list[UsageLine]:
        return []


def cost_text(line: UsageLine) -> str:
    """The cost for people: none without prices, marked when partly so or estimated."""
    if line.cost is None:
        return "no prices"
    text = shown(line.cost, line.currency)
    if line.unpriced:
        text += f" (+{line.unpriced} unpriced)"
    return text + (" estimated" if line.estimated else "")


def _print(report: UsageReport, by: str) -> None:
    safe = safe_for(sys.stdout)
    if report.empty:
        print("no usage yet" if report.since is None else
              f"no usage since {report.since.isoformat()}")
        return
    lines = report.days if by == "day" else report.months
    print(f"{by.upper():<10}  {'PROFILE / MODEL':<32} {'IN':>12} {'CACHED':>12} "
          f"{'OUT':>12}  COST")
    for line in lines:
        who = f"{line.profile or '(no profile)'} / {line.model}"
        print(safe(f"{line.day:<10}  {who:<32} {line.input:>12,} {line.cached:>12,} "
                   f"{line.output:>12,}  {cost_text(line)}"))
    for line in report.totals:
        print(f"{'total':<10}  {'':<32} {line.input:>12,} {line.cached:>12,} "
              f"{line.output:>12,}  {cost_text(line)}")
    if report.source == DAILY_TOTALS:
        print("(daily totals: deleted conversations' spend still counts; "
              "`turnlog-cli usage --clear` forgets them)")


def _clear(args: argparse.Namespace) -> int:
    if not args.yes:
        print("Forget the daily usage totals? Conversations stay. [y/N]", end=" ",
              file=sys.stderr, flush=True)
        if sys.stdin.readline().strip().lower() not in ("y", "yes"):
            print("nothing forgotten", file=sys.stderr)
            return 1
    with TurnlogStore.open(data_dir()) as store:
        gone = store.usage.forget_all()
    print(f"forgot the usage totals of {gone} day/model line(s)")
    return 0
