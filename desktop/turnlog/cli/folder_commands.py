"""folder: the sidebar's folders from the command line (add, rename, remove, move a
conversation in or out, list them)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..config.paths import data_dir
from ..store import NotFound, TurnlogStore
from .numbers import whole_number
from .privacy_commands import confirm
from .terminal import print_json, safe_for


def register(sub: Any) -> None:
    p = sub.add_parser("folder", help="add, rename, remove and fill the sidebar's folders",
                       description="Folders group conversations in the sidebar (one level).")
    folders = p.add_subparsers(dest="folder_command", required=True, metavar="ACTION")
    q = folders.add_parser("add", help="make a new, empty folder")
    q.add_argument("name", metavar="NAME")
    q.set_defaults(run=run_add)
    q = folders.add_parser("rename", help="give a folder a new name")
    q.add_argument("old", metavar="OLD")
    q.add_argument("new", metavar="NEW")
    q.set_defaults(run=run_rename)
    q = folders.add_parser(
        "remove", help="remove a folder; its conversations move out of it, or are deleted "
        "with it (--with-conversations), as `delete` deletes them")
    q.add_argument("name", metavar="NAME")
    q.add_argument("--with-conversations", action="store_true",
                   help="delete the conversations in it too, with every derived copy")
    q.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    q.set_defaults(run=run_remove)
    q = folders.add_parser("move", help="put conversations in a folder, or take them out "
                           "(--out)")
    q.add_argument("--conversation", type=whole_number, action="append", required=True,
                   metavar="ID", help="the conversation (give it again for more)")
    where = q.add_mutually_exclusive_group(required=True)
    where.add_argument("name", metavar="NAME", nargs="?")
    where.add_argument("--out", action="store_true", help="out of any folder")
    q.set_defaults(run=run_move)
    q = folders.add_parser("list", help="list the folders and how many conversations each "
                           "holds")
    q.add_argument("--json", action="store_true", help='print {"folders": [{"id", "name", '
                   '"conversations"}]}')
    q.set_defaults(run=run_list)


def run_add(args: argparse.Namespace) -> int:
    with TurnlogStore.open(data_dir()) as store:
        folder = store.folders.add(args.name)
    print(safe_for(sys.stdout)(f"added folder {folder.name}"))
    return 0


def run_rename(args: argparse.Namespace) -> int:
    with TurnlogStore.open(data_dir()) as store:
        folder = store.folders.rename(store.folders.named(args.old).id, args.new)
    print(safe_for(sys.stdout)(f"renamed folder {args.old.strip()} to {folder.name}"))
    return 0


def run_remove(args: argparse.Namespace) -> int:
    with TurnlogStore.open(data_dir()) as store:
        folder = store.folders.named(args.name)
        if args.with_conversations:
            ids = store.folders.conversation_ids(folder.id)
            counts = store.privacy.preview_conversations(ids)
            if ids and not args.yes and not confirm(safe_for(sys.stderr)(
                    f"Remove folder {folder.name} and delete {counts.describe()}? This "
                    "cannot be undone. [y/N]")):
                print("nothing removed", file=sys.stderr)
                return 1
        deleted = store.folders.delete(folder.id, with_conversations=args.with_conversations)
    safe = safe_for(sys.stdout)
    if deleted is not None:
        print(safe(f"removed folder {folder.name} and deleted {deleted.counts.describe()}"))
    else:
        moved = folder.conversations
        print(safe(f"removed folder {folder.name}; its {moved:,} conversation(s) moved out"
                   if moved else f"removed folder {folder.name}"))
    return 0


def run_move(args: argparse.Namespace) -> int:
    with TurnlogStore.open(data_dir()) as store:
        for cid in args.conversation:
            store.conversations.get(cid)  # a clear error for an id that is not there
        folder = None if args.out else store.folders.named(args.name)
        store.folders.move(args.conversation, None if folder is None else folder.id)
    ids = ", ".join(str(c) for c in dict.fromkeys(args.conversation))
    where = "out of its folder" if folder is None else f"into folder {folder.name}"
    print(safe_for(sys.stdout)(f"moved conversation {ids} {where}"))
    return 0


def run_list(args: argparse.Namespace) -> int:
    try:
        with TurnlogStore.open(data_dir(), readonly=True) as store:
            folders = store.folders()
    except NotFound:
        folders = []  # no database yet
    if args.json:
        print_json({"folders": [{"id": f.id, "name": f.name,
                                 "conversations": f.conversations} for f in folders]})
        return 0
    if not folders:
        print("no folders yet")
    safe = safe_for(sys.stdout)
    for folder in folders:
        print(safe(f"{folder.conversations:>6,}  {folder.name}"))
    return 0
