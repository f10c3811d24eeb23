"""`turnlog-cli search QUERY`: every conversation's turns and titles, best first: the first
`--limit` of them, then (when there may be more) how many match, counted as the window
counts them (up to `store.search.COUNT_CAP`, more said as "more than" it)."""

from __future__ import annotations

import argparse
import sys

from ..config.paths import data_dir
from ..store import NotFound, TurnlogStore
from ..store.errors import FolderNotFound
from ..store.search import COUNT_CAP, MatchCount, SearchHit
from .terminal import print_json, safe_for

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Any

DEFAULT_LIMIT = 20
MAX_LIMIT = 1_000


def _limit(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 1 <= value <= MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"give 1 to {MAX_LIMIT:,}")
    return value


def register(sub: Any) -> None:
    p = sub.add_parser(
        "search", help="find turns and titles holding words or a \"quoted phrase\"",
        description="Search every conversation's questions, answers and titles. The query "
        "is plain text: words match as prefixes, \"quoted phrases\" exactly, Chinese words "
        "of any length; all must match. Exits 0 whether or not anything matched.")
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--limit", type=_limit, default=DEFAULT_LIMIT, metavar="N",
                   help=f"at most N results (default {DEFAULT_LIMIT})")
    p.add_argument("--folder", metavar="NAME",
                   help="only the conversations in this folder")
    p.add_argument("--json", action="store_true",
                   help='print {"results": [{"conversation", "title", "turn", "turn_id", '
                   '"snippet"}]}')
    p.add_argument("--raw", action="store_true",
                   help="write conversation text as it is, control characters included")
    p.set_defaults(run=run_search)


def run_search(args: argparse.Namespace) -> int:
    found: MatchCount | None = None  # counted only when the page is full
    try:
        with TurnlogStore.open(data_dir(), readonly=True) as store:
            folder = None if args.folder is None else store.folders.named(args.folder).id
            hits = store.search(args.query, limit=args.limit, folder=folder)
            if len(hits) >= args.limit:
                found = store.search.count(args.query, folder=folder)
    except FolderNotFound:
        raise
    except NotFound:
        hits = []  # no database yet: nothing matches
    if args.json:
        print_json({"results": [hit.to_json() for hit in hits]})
        return 0
    if not hits:
        print("no matches", file=sys.stderr)
    safe = safe_for(sys.stdout, raw=args.raw)
    for hit in hits:
        print(safe(_line(hit)))
    if found is not None and (found.more or found.total > len(hits)):
        # The same count the window's search says.
        total = f"more than {COUNT_CAP:,}" if found.more else f"{found.total:,}"
        print(f"{total} matches, {len(hits):,} shown (--limit for more)", file=sys.stderr)
    return 0


def _line(hit: SearchHit) -> str:
    when = hit.created_at.astimezone().strftime("%Y-%m-%d %H:%M") if hit.created_at else ""
    where = "title" if hit.ordinal is None else f"turn {hit.shown_number}"
    marked = " (superseded)" if hit.superseded else ""
    return (f"{hit.conversation_id:>5}  {where:<10} {when}  {hit.title}{marked}\n"
            f"       {hit.snippet.marked()}")
