"""delete: remove a turn, a conversation or everything, with every derived copy."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..config.paths import data_dir
from ..store import TurnlogStore
from ..store.deletion import DeletionCounts
from .numbers import whole_number
from .terminal import safe_for


def register(sub: Any) -> None:
    p = sub.add_parser(
        "delete",
        help="delete a turn, a conversation or all history, with its summaries and records",
        description="Deletes from disk: the turns, every summary derived from them, and their "
        "references in request records. Export first if you want a copy.",
    )
    scope = p.add_mutually_exclusive_group(required=True)
    scope.add_argument("--turn", metavar="ID", help="a turn id, as `export` prints it")
    scope.add_argument("--conversation", type=whole_number, metavar="ID")
    scope.add_argument("--all", action="store_true", help="every conversation")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p.add_argument("--with-forks", action="store_true",
                   help="with --conversation: also delete the forks holding copies of its turns")
    p.add_argument("--only-this-version", action="store_true",
                   help="with --turn: keep the turn's other versions (by default they go too)")
    p.add_argument(
        "--keys", action="store_true",
        help="with --all: also remove the provider API keys from the keyring",
    )
    p.add_argument("--preferences", action="store_true",
                   help="with --all: also delete the preferences (asked for otherwise)")
    p.add_argument("--assistants", action="store_true",
                   help="with --all: also delete the assistants and their files (asked for "
                   "otherwise)")
    p.add_argument("--usage-totals", action="store_true",
                   help="with --all: also forget the daily usage totals (kept otherwise, so "
                        "the spend of deleted conversations still counts)")
    p.add_argument("--keep-pins", action="store_true",
                   help="with --turn: keep the facts pinned from it, as typed")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--everywhere", action="store_true",
                       help="delete it on every machine this data directory syncs with "
                       "(they erase it when they next sync)")
    where.add_argument("--this-machine", action="store_true",
                       help="delete it here only; the next sync does not bring it back, and "
                       "it stays on the other machines")
    p.set_defaults(run=run_delete)


def sync_set_up(home: Path) -> bool:
    """Whether sync is set up for data directory `home`: then a delete without
    --everywhere or --this-machine asks which. The sync's own state answers; a data
    directory that has never been set up to sync answers False."""
    from ..sync.state import is_sync_set_up

    return is_sync_set_up(home)


THIS_MACHINE_NOTE = ("Deleted on this machine only: the text still exists on your other "
                     "machines and in the sync storage until it is deleted there.")


def confirm(prompt: str) -> bool:
    print(safe_for(sys.stderr)(prompt), end=" ", file=sys.stderr, flush=True)
    answer = sys.stdin.readline().strip().lower()
    return answer in ("y", "yes")


def run_delete(args: argparse.Namespace) -> int:
    assistants = 0
    if (args.keys or args.usage_totals) and not args.all:
        print("error: --keys and --usage-totals go with --all", file=sys.stderr)
        return 2
    if args.with_forks and args.conversation is None:
        print("error: --with-forks goes with --conversation", file=sys.stderr)
        return 2
    with TurnlogStore.open(data_dir()) as store:
        counts: DeletionCounts
        with_versions = not args.only_this_version
        if args.turn:
            counts = store.privacy.preview_turn(args.turn, with_versions=with_versions)
            what = f"turn {args.turn}" + ("" if counts.turns == 1 else " and its other versions")
        elif args.conversation is not None:
            counts = store.privacy.preview_conversation(args.conversation,
                                                        with_forks=args.with_forks)
            title = store.conversations.get(args.conversation).title
            what = f"conversation {args.conversation} ({title})"
            _name_forks(store, args.conversation, args.with_forks)
        else:
            counts = store.privacy.preview_all()
            what = "all history"
        if not args.yes and not confirm(
            f"Delete {what}: {counts.describe()}? This cannot be undone. [y/N]"
        ):
            print("nothing deleted", file=sys.stderr)
            return 1
        scope = _scope(args, store)
        if not scope:
            print("nothing deleted", file=sys.stderr)
            return 1
        if scope != PLAIN:
            done = _scoped_delete(args, store, scope == EVERYWHERE)
        elif args.turn:
            done = store.privacy.delete_turn(args.turn, with_versions=with_versions,
                                             keep_pins=args.keep_pins).counts
        elif args.conversation is not None:
            done = store.privacy.delete_conversation(args.conversation,
                                                     with_forks=args.with_forks).counts
        else:
            done = store.privacy.delete_all(preferences=_with_preferences(args, store),
                                            usage_totals=_with_usage(args, store)).counts
        if args.all:
            assistants = store.assistants.delete_all() if _with_assistants(args, store) else 0
    print(f"deleted {done.describe()}")
    if scope == THIS_MACHINE:
        print(THIS_MACHINE_NOTE)
    if args.all and assistants:
        print(f"deleted {assistants} assistant(s)")
    if args.all:
        return _delete_keys(args)
    return 0


def _with_preferences(args: argparse.Namespace, store: TurnlogStore) -> bool:
    """Delete-all offers the preferences too (they are not history, so never by default)."""
    if args.preferences:
        return True
    count = len(store.memory.preferences())
    return bool(count) and not args.yes and confirm(
        f"Also delete the {count} preference(s) used in every conversation? [y/N]")


def _with_assistants(args: argparse.Namespace, store: TurnlogStore) -> bool:
    """Delete-all offers the assistants too (saved setups, not history: never by default)."""
    if args.assistants:
        return True
    count = len(store.assistants.list())
    return bool(count) and not args.yes and confirm(
        f"Also delete the {count} assistant(s) and their files? [y/N]")


def _with_usage(args: argparse.Namespace, store: TurnlogStore) -> bool:
    """Delete-all offers the daily usage totals too (numbers only: kept by default)."""
    if args.usage_totals:
        return True
    return not args.yes and bool(store.usage.days()) and confirm(
        "Also forget the daily usage totals (tokens and cost per day, no text)? [y/N]")


def _name_forks(store: TurnlogStore, conversation_id: int, with_forks: bool) -> None:
    """Say which forks hold copies of the conversation's turns, and what happens to them."""
    forks = store.forks(conversation_id)
    if not forks:
        return
    names = ", ".join(f"{f.id} ({f.title})" for f in forks)
    fate = "they are deleted too" if with_forks else \
        "they stay (add --with-forks to delete them too)"
    print(safe_for(sys.stderr)(f"{len(forks)} fork(s) hold copies of its turns: {names}; {fate}"),
          file=sys.stderr)


def _delete_keys(args: argparse.Namespace) -> int:
    from ..config.profiles import ProfileStore
    from ..config.secrets import KeyringUnavailable, open_key_store

    profiles = ProfileStore(data_dir()).list()
    if not profiles:
        return 0
    if not args.keys and (args.yes or not confirm(
        f"Also remove the API keys of {len(profiles)} provider profile(s) from the keyring? [y/N]"
    )):
        return 0
    try:
        keys = open_key_store()
        removed = sum(1 for profile in profiles if keys.delete(profile.id))
    except KeyringUnavailable as err:
        print(f"error: the keys could not be removed: {err}", file=sys.stderr)
        return 1
    print(f"removed {removed} API key(s) from the keyring")
    return 0


EVERYWHERE, THIS_MACHINE, PLAIN = "everywhere", "this machine", "plain"


def _scope(args: argparse.Namespace, store: TurnlogStore) -> str:
    """Where the delete reaches: EVERYWHERE, THIS_MACHINE (a marker keeps the next sync
    from bringing it back) or PLAIN (sync not set up: a local delete as always); "" when
    a data directory that syncs was not told which."""
    if args.everywhere:
        return EVERYWHERE
    if args.this_machine:
        return THIS_MACHINE
    if not sync_set_up(store.home):
        return PLAIN
    if args.yes:
        print("error: this data directory syncs: say --everywhere or --this-machine",
              file=sys.stderr)
        return ""
    print(safe_for(sys.stderr)("Delete it on every machine you sync with (e), or on this "
                               "machine only (t)? [e/t]"), end=" ", file=sys.stderr, flush=True)
    answer = sys.stdin.readline().strip().lower()
    return {"e": EVERYWHERE, "everywhere": EVERYWHERE, "t": THIS_MACHINE,
            "this machine": THIS_MACHINE}.get(answer, "")


def _scoped_delete(args: argparse.Namespace, store: TurnlogStore, everywhere: bool
                   ) -> DeletionCounts:
    if args.turn:
        return store.sync_feed.delete_turn(args.turn, everywhere=everywhere,
                                           with_versions=not args.only_this_version,
                                           keep_pins=args.keep_pins).counts
    if args.all:  # every conversation, through the scoped delete; then what --all adds
        ids = [c for (c,) in store.db.execute_sql('SELECT "id" FROM "conversations"')]
        done = store.sync_feed.delete_conversations(ids, everywhere=everywhere).counts \
            if ids else store.privacy.preview_all()
        store.privacy.delete_all(preferences=_with_preferences(args, store),
                                 usage_totals=_with_usage(args, store))
        return done
    ids = [args.conversation]
    if args.with_forks:
        ids += [fork.id for fork in store.forks.of(args.conversation)]
    return store.sync_feed.delete_conversations(ids, everywhere=everywhere).counts
