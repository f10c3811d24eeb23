"""sync: this data directory's history on every machine through a folder another program
syncs (Syncthing, Dropbox, a network share), end-to-end encrypted.

`sync setup` joins (or starts) the storage, `sync now` exchanges what changed, `sync status`
says which machines there are and what is pending, `sync forget` drops a machine that will
never return, `sync passphrase` changes the passphrase (or takes the one another machine
changed it to). A passphrase is read once, from a file or standard input, and never kept:
the key it derives goes to the keyring."""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from ..config.paths import data_dir
from ..config.secrets import KeyringUnavailable
from ..sync.crypto import SyncCryptoError, WrongPassphrase
from ..sync.engine import (
    Keys,
    PassphraseChanged,
    SyncProblem,
    change_passphrase,
    forget,
    set_up,
    sync_now,
)
from ..sync.folder import SyncFolder
from ..sync.state import SyncBusy, SyncState, is_sync_set_up, sync_lock
from ..system.user_files import FileRefused, read_limited
from .terminal import print_json, safe_for

MAX_PASSPHRASE = 4096
LOST = ("Keep the passphrase safe: it cannot be recovered. Without it no machine can read the "
        "sync folder, and a new machine cannot join.")


def register(sub: Any) -> None:
    p = sub.add_parser("sync", help="sync this history with other machines through a folder",
                       description="End-to-end encrypted sync through a folder another "
                       "program copies between machines.")
    sync = p.add_subparsers(dest="sync_command", required=True, metavar="ACTION")
    q = sync.add_parser("setup", help="join the sync folder (or start it)")
    q.add_argument("--folder", required=True, type=Path, metavar="DIR")
    q.add_argument("--passphrase-file", required=True, metavar="FILE",
                   help="a file holding the passphrase, or - for standard input")
    q.add_argument("--machine", metavar="NAME", help="this machine's name (its host name "
                   "unless given); kept encrypted in the folder")
    q.set_defaults(run=run_setup)
    q = sync.add_parser("now", help="send what changed here, apply what changed elsewhere")
    q.add_argument("--json", action="store_true", help="print what went up and down as JSON")
    q.set_defaults(run=run_now)
    q = sync.add_parser("status", help="the machines, the last syncs and pending deletes")
    q.add_argument("--json", action="store_true")
    q.set_defaults(run=run_status)
    q = sync.add_parser("forget", help="drop a machine that will never return; its history "
                        "is kept by this one")
    q.add_argument("machine", metavar="MACHINE", help="its name, or the start of its id")
    q.set_defaults(run=run_forget)
    q = sync.add_parser("passphrase", help="change the passphrase, or enter the one another "
                        "machine changed it to")
    q.add_argument("--passphrase-file", required=True, metavar="FILE")
    q.set_defaults(run=run_passphrase)


def read_passphrase(source: str) -> bytes:
    """The passphrase, read once from `source` (a file, or - for standard input), one
    trailing line break removed."""
    if source == "-":
        data = sys.stdin.buffer.read(MAX_PASSPHRASE + 1)
    else:
        data = read_limited(Path(source), MAX_PASSPHRASE, what="passphrase file")
    if len(data) > MAX_PASSPHRASE:
        raise SyncProblem(f"the passphrase is longer than {MAX_PASSPHRASE:,} bytes")
    data = data.removesuffix(b"\n").removesuffix(b"\r")
    if not data.strip():
        raise SyncProblem("the passphrase is empty")
    return data


@contextmanager
def open_feed(home: Path) -> Iterator[Any]:
    """The store's sync feed of the data directory `home`, open for the length of a sync."""
    from ..store import TurnlogStore

    with TurnlogStore.open(home) as store:
        feed = getattr(store, "sync_feed", None)
        if feed is None:
            raise SyncProblem("this Turnlog's store cannot say what changed yet (no sync feed)")
        yield feed


@contextmanager
def _opened(home: Path) -> Iterator[tuple[SyncState, SyncFolder]]:
    if not is_sync_set_up(home):
        raise SyncProblem("sync is not set up for this data directory: run "
                          "`turnlog-cli sync setup --folder DIR --passphrase-file FILE`")
    state = SyncState.open(home)
    try:
        folder = SyncFolder(Path(state.folder))
        if not folder.exists():
            raise SyncProblem(f"the sync folder {state.folder} is not there (is its drive "
                              "mounted?)")
        yield state, folder
    finally:
        state.close()


def _keys(state: SyncState) -> Keys:
    from ..sync.keystore import load_keys

    return load_keys(state.get("keyring_user"))


def _save(user: str, keys: Keys) -> None:
    from ..sync.keystore import save_keys

    save_keys(user, keys)


def _fail(err: Exception) -> int:
    name = {WrongPassphrase: "wrong_passphrase", SyncBusy: "sync_busy",
            PassphraseChanged: "passphrase_changed",
            KeyringUnavailable: "keyring_unavailable", FileRefused: "file_refused"}.get(
        type(err), "sync_failed")
    print(safe_for(sys.stderr)(f"error: {name}: {err}"), file=sys.stderr)
    return 1


def guarded(run: Any) -> Any:
    def wrapper(args: argparse.Namespace) -> int:
        try:
            return int(run(args))
        except (SyncProblem, SyncCryptoError, SyncBusy, KeyringUnavailable, FileRefused) as err:
            return _fail(err)
    return wrapper


@guarded
def run_setup(args: argparse.Namespace) -> int:
    home = data_dir()
    if is_sync_set_up(home):
        raise SyncProblem("sync is already set up for this data directory")
    if not args.folder.is_dir():
        raise SyncProblem(f"{args.folder} is not a folder")
    passphrase = read_passphrase(args.passphrase_file)
    name = (args.machine or socket.gethostname() or "this machine").strip()[:100]
    folder = SyncFolder(args.folder.resolve())
    joined = len(folder.machines())
    with sync_lock(home):
        state = SyncState.open(home)
        try:
            set_up(folder, state, passphrase, name, _save)
        except BaseException:
            state.close()
            (home / "sync.sqlite3").unlink(missing_ok=True)
            raise
        state.close()
    how = (f"joined the sync folder of {_plural(joined, 'machine')}" if joined else
           "started a new sync folder (on other machines, wait until the sync program has "
           "copied it before their setup)")
    print(safe_for(sys.stdout)(f"sync set up: this machine is {name}; {how}: {folder.root}"))
    print(LOST)
    print("Run `turnlog-cli sync now` to send this history and receive the others'.")
    return 0


@guarded
def run_now(args: argparse.Namespace) -> int:
    home = data_dir()
    with sync_lock(home), _opened(home) as (state, folder):
        keys = _keys(state)
        with open_feed(home) as feed:
            report = sync_now(feed, folder, state, keys)
        state.keep_last_report(report.waiting, report.problems)
    if args.json:
        print_json(report.to_json())
    else:
        _print_report(report)
    return 1 if report.problems else 0


def _print_report(report: Any) -> None:
    safe = safe_for(sys.stdout)
    down = ", ".join(f"{n:,} from {m}" for m, n in sorted(report.received.items())) or "nothing"
    print(f"up: {report.published_records:,} change(s) in {report.published_objects:,} "
          f"object(s); down: {safe(down)}")
    if report.rewritten:
        print(f"rewrote {report.rewritten:,} object(s) that held deleted history")
    for line in report.waiting:
        print(safe(f"waiting: {line}"))
    for line in report.problems:
        print(safe(f"problem: {line}"), file=sys.stderr)


def _day(at: str) -> str:
    try:
        when = datetime.fromisoformat(at)
    except ValueError:
        return at
    return f"{when.day} {when:%b}"


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}" + ("" if count == 1 else "s")


def status(state: SyncState) -> dict[str, Any]:
    """What `sync status` says: machines, last syncs, waits and problems, and pending
    deletes as counts and dates (no titles, no text)."""
    peers = state.peers()
    machines = [{"id": p.machine, "name": p.name or p.machine[:8], "last_object": p.last_at,
                 "read_up_to": p.frontier, "has_read_mine_up_to": p.read_of_mine,
                 "forgotten": p.forgotten} for p in sorted(peers.values(), key=lambda p: p.name)]
    pending = []
    for seq, at, conversations, turns, records in state.deletes():
        behind = sorted(p.name or p.machine[:8] for p in peers.values()
                        if not p.forgotten and p.read_of_mine < seq)
        if behind:
            pending.append({"deleted": at, "conversations": conversations, "turns": turns,
                            "records": records, "not_synced_since": behind})
    last = state.last_report()
    return {"machine": {"id": state.machine_id, "name": state.machine_name},
            "folder": state.folder, "last_sync": state.get("last_sync"),
            "machines": machines, "pending_deletes": pending, **last}


def _describe_delete(item: dict[str, Any]) -> str:
    what = [_plural(item["conversations"], "conversation")] if item["conversations"] else []
    if item["turns"]:
        what.append(_plural(item["turns"], "turn"))
    if not what:
        what.append(_plural(item["records"], "record"))
    names = ", ".join(item["not_synced_since"])
    verb = "has" if len(item["not_synced_since"]) == 1 else "have"
    return f"{', '.join(what)}, deleted {_day(item['deleted'])}; {names} {verb} not synced since"


@guarded
def run_status(args: argparse.Namespace) -> int:
    home = data_dir()
    if not is_sync_set_up(home):
        if args.json:
            print_json({"set_up": False})
        else:
            print("sync is not set up for this data directory")
        return 0
    with _opened(home) as (state, _):
        found = status(state)
    if args.json:
        print_json({"set_up": True, **found})
        return 0
    safe = safe_for(sys.stdout)
    me = found["machine"]
    print(safe(f"this machine: {me['name']} ({me['id'][:8]}), folder {found['folder']}"))
    print(f"last sync: {found['last_sync'] or 'never'}")
    for m in found["machines"]:
        state_word = "forgotten" if m["forgotten"] else (
            f"last wrote {m['last_object'] or 'nothing yet'}, read up to {m['read_up_to']}")
        print(safe(f"  {m['name']} ({m['id'][:8]}): {state_word}"))
    for item in found["pending_deletes"]:
        print(safe(f"pending delete: {_describe_delete(item)}"))
    for line in found["waiting"]:
        print(safe(f"waiting: {line}"))
    for line in found["problems"]:
        print(safe(f"problem: {line}"))
    return 0


@guarded
def run_forget(args: argparse.Namespace) -> int:
    home = data_dir()
    with sync_lock(home), _opened(home) as (state, folder):
        wanted = args.machine.strip()
        matches = [p for p in state.peers().values() if not p.forgotten and (
            p.name == wanted or (len(wanted) >= 4 and p.machine.startswith(wanted)))]
        if len(matches) != 1:
            raise SyncProblem(f"no single machine is called {wanted!r}" if not matches else
                              f"{len(matches)} machines are called {wanted!r}: give the start "
                              "of its id instead (see `turnlog-cli sync status`)")
        keys = _keys(state)
        with open_feed(home) as feed:
            count = forget(feed, folder, state, keys, matches[0].machine)
    print(safe_for(sys.stdout)(f"forgot {matches[0].name}: {count:,} change(s) of its history "
                               "are kept in this machine's objects"))
    return 0


@guarded
def run_passphrase(args: argparse.Namespace) -> int:
    home = data_dir()
    passphrase = read_passphrase(args.passphrase_file)
    with sync_lock(home), _opened(home) as (state, folder):
        keys = _keys(state)
        user = state.get("keyring_user")
        outcome = change_passphrase(folder, state, keys, passphrase,
                                    lambda changed: _save(user, changed))
    if outcome == "joined":
        print("took the passphrase another machine changed it to; this machine's objects "
              "are sealed with it on the next `turnlog-cli sync now`")
    else:
        print("passphrase changed; this machine's objects are sealed again on the next "
              "`turnlog-cli sync now`, and the other machines ask for the new passphrase")
        print(LOST)
    return 0
