"""sync: this data directory's history on every machine through a folder another program
syncs (Syncthing, Dropbox, a network share), a WebDAV server (Nextcloud, Nutstore, Synology)
or an S3 bucket (AWS, R2, B2, MinIO), end-to-end encrypted.

`sync setup` joins (or starts) the storage, `sync now` exchanges what changed, `sync status`
says which machines there are and what is pending, `sync forget` drops a machine that will
never return, `sync passphrase` changes the passphrase (or takes the one another machine
changed it to). A passphrase is read once, from a file or standard input, and never kept:
the key it derives goes to the keyring, as does a WebDAV password or an S3 secret key."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from ..config.paths import data_dir
from ..config.secrets import KeyringUnavailable
from ..service.sync_setup import open_configured, set_up
from ..service.sync_status import status_of
from ..sync.crypto import SyncCryptoError
from ..sync.engine import Keys, change_passphrase, forget, sync_now
from ..sync.errors import SyncProblem, kind_of
from ..sync.state import SyncBusy, SyncNotSetUp, SyncState, is_sync_set_up, sync_lock
from ..sync.storage import Storage, StorageConfig
from ..system.user_files import FileRefused, read_limited
from .terminal import print_json, safe_for

MAX_PASSPHRASE = 4096
MAX_SECRET = 4096
LOST = ("Keep the passphrase safe: it cannot be recovered. Without it no machine can read the "
        "sync storage, and a new machine cannot join.")


def register(sub: Any) -> None:
    p = sub.add_parser("sync", help="sync this history with other machines through a folder, "
                       "WebDAV or S3",
                       description="End-to-end encrypted sync through a folder another "
                       "program copies between machines, a WebDAV server or an S3 bucket.")
    sync = p.add_subparsers(dest="sync_command", required=True, metavar="ACTION")
    _register_setup(sync.add_parser("setup", help="join the sync storage (or start it)"))
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


def _register_setup(q: Any) -> None:
    where = q.add_mutually_exclusive_group(required=True)
    where.add_argument("--folder", type=Path, metavar="DIR",
                       help="a folder another program syncs (Syncthing, Dropbox, a share)")
    where.add_argument("--webdav", metavar="URL", help="a WebDAV folder's URL (Nextcloud: "
                       "https://HOST/remote.php/dav/files/USER/Turnlog)")
    where.add_argument("--s3", metavar="ENDPOINT", help="an S3 API's endpoint URL (AWS, R2, "
                       "B2, MinIO)")
    q.add_argument("--passphrase-file", required=True, metavar="FILE",
                   help="a file holding the passphrase, or - for standard input")
    q.add_argument("--machine", metavar="NAME", help="this machine's name (its host name "
                   "unless given); kept encrypted in the storage")
    q.add_argument("--user", metavar="USER", help="WebDAV: the user name")
    q.add_argument("--password-file", metavar="FILE",
                   help="WebDAV: a file holding the password (an app password), or -")
    q.add_argument("--bucket", metavar="BUCKET", help="S3: the bucket (it must exist)")
    q.add_argument("--prefix", default="", metavar="PATH", help="S3: a folder in the bucket")
    q.add_argument("--access-key", metavar="KEY", help="S3: the access key id")
    q.add_argument("--secret-file", metavar="FILE",
                   help="S3: a file holding the secret access key, or -")
    q.add_argument("--ca-file", type=Path, metavar="FILE",
                   help="a CA certificate (PEM) for a server with a certificate of its own")
    q.add_argument("--allow-plain-http", action="store_true",
                   help="send the password over http:// to another machine (unencrypted)")
    q.set_defaults(run=run_setup)


def _read_once(source: str, limit: int, what: str) -> bytes:
    """A secret read once from `source` (a file, or - for standard input), one trailing
    line break removed; refused when empty or longer than `limit` bytes."""
    if source == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        data = read_limited(Path(source), limit, what=f"{what} file")
    if len(data) > limit:
        raise SyncProblem(f"the {what} is longer than {limit:,} bytes")
    data = data.removesuffix(b"\n").removesuffix(b"\r")
    if not data.strip():
        raise SyncProblem(f"the {what} is empty")
    return data


def read_secret(source: str) -> str:
    """A WebDAV password or an S3 secret key (see `_read_once`)."""
    return _read_once(source, MAX_SECRET, "password").decode("utf-8", "replace")


def storage_config(args: argparse.Namespace) -> tuple[StorageConfig, str | None]:
    """The storage `sync setup`'s options name, and its secret (read once)."""
    ca = str(args.ca_file.resolve()) if args.ca_file else ""
    if args.folder is not None:
        return StorageConfig("folder", str(args.folder.resolve())), None
    secret_from = args.password_file if args.webdav else args.secret_file
    if secret_from == "-" and args.passphrase_file == "-":
        raise SyncProblem("only one secret can come from standard input: give the passphrase "
                          "or the password in a file")
    if args.webdav:
        if bool(args.user) != bool(args.password_file):
            raise SyncProblem("--user and --password-file go together")
        config = StorageConfig("webdav", args.webdav, user=args.user or "", ca_file=ca,
                               allow_plain_http=args.allow_plain_http)
    else:
        if not args.bucket:
            raise SyncProblem("--s3 needs --bucket")
        if bool(args.access_key) != bool(args.secret_file):
            raise SyncProblem("--access-key and --secret-file go together")
        config = StorageConfig("s3", args.s3, bucket=args.bucket, prefix=args.prefix.strip("/"),
                               user=args.access_key or "", ca_file=ca,
                               allow_plain_http=args.allow_plain_http)
    return config, (read_secret(secret_from) if secret_from else None)


def read_passphrase(source: str) -> bytes:
    """The passphrase (see `_read_once`)."""
    return _read_once(source, MAX_PASSPHRASE, "passphrase")


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
def _opened(home: Path) -> Iterator[tuple[SyncState, Storage]]:
    if not is_sync_set_up(home):
        raise SyncProblem("sync is not set up for this data directory: run "
                          "`turnlog-cli sync setup --folder DIR --passphrase-file FILE`")
    state = SyncState.open(home)
    try:
        storage = open_configured(state)
        try:
            yield state, storage
        finally:
            storage.close()
    finally:
        state.close()


def _keys(state: SyncState) -> Keys:
    from ..sync.keystore import load_keys

    return load_keys(state.get("keyring_user"))


def _save(user: str, keys: Keys) -> None:
    from ..sync.keystore import save_keys

    save_keys(user, keys)


def _fail(err: Exception) -> int:
    name = {KeyringUnavailable: "keyring_unavailable", FileRefused: "file_refused"}.get(
        type(err)) or kind_of(err)
    name = "sync_failed" if name == "failed" else name
    print(safe_for(sys.stderr)(f"error: {name}: {err}"), file=sys.stderr)
    return 1


def guarded(run: Any) -> Any:
    def wrapper(args: argparse.Namespace) -> int:
        try:
            return int(run(args))
        except (SyncProblem, SyncCryptoError, SyncBusy, SyncNotSetUp, KeyringUnavailable,
                FileRefused) as err:
            return _fail(err)
    return wrapper


@guarded
def run_setup(args: argparse.Namespace) -> int:
    home = data_dir()
    if is_sync_set_up(home):
        raise SyncProblem("sync is already set up for this data directory")
    config, secret = storage_config(args)
    passphrase = read_passphrase(args.passphrase_file)
    done = set_up(home, config, secret, passphrase, args.machine or "")
    how = (f"joined the sync storage of {_plural(done.joined, 'machine')}" if done.joined else
           "started a new sync storage" + (" (on other machines, wait until the sync program "
                                           "has copied it before their setup)"
                                           if config.kind == "folder" else ""))
    print(safe_for(sys.stdout)(f"sync set up: this machine is {done.machine_name}; {how}: "
                               f"{done.storage}"))
    print(LOST)
    print("Run `turnlog-cli sync now` to send this history and receive the others'.")
    return 0


@guarded
def run_now(args: argparse.Namespace) -> int:
    home = data_dir()
    with sync_lock(home), _opened(home) as (state, storage):
        keys = _keys(state)
        with open_feed(home) as feed:
            report = sync_now(feed, storage, state, keys)
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
    try:
        with SyncState.open(data_dir()) as state:
            found = status_of(state).to_json()
    except SyncNotSetUp:
        if args.json:
            print_json({"set_up": False})
        else:
            print("sync is not set up for this data directory")
        return 0
    if args.json:
        print_json({"set_up": True, **found})
        return 0
    safe = safe_for(sys.stdout)
    me = found["machine"]
    print(safe(f"this machine: {me['name']} ({me['id'][:8]}), storage "
               f"{found['storage_words']}"))
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
    with sync_lock(home), _opened(home) as (state, storage):
        wanted = args.machine.strip()
        matches = [p for p in state.peers().values() if not p.forgotten and (
            p.name == wanted or (len(wanted) >= 4 and p.machine.startswith(wanted)))]
        if len(matches) != 1:
            raise SyncProblem(f"no single machine is called {wanted!r}" if not matches else
                              f"{len(matches)} machines are called {wanted!r}: give the start "
                              "of its id instead (see `turnlog-cli sync status`)")
        keys = _keys(state)
        with open_feed(home) as feed:
            count = forget(feed, storage, state, keys, matches[0].machine)
    print(safe_for(sys.stdout)(f"forgot {matches[0].name}: {count:,} change(s) of its history "
                               "are kept in this machine's objects"))
    return 0


@guarded
def run_passphrase(args: argparse.Namespace) -> int:
    home = data_dir()
    passphrase = read_passphrase(args.passphrase_file)
    with sync_lock(home), _opened(home) as (state, storage):
        keys = _keys(state)
        user = state.get("keyring_user")
        outcome = change_passphrase(storage, state, keys, passphrase,
                                    lambda changed: _save(user, changed))
    if outcome == "joined":
        print("took the passphrase another machine changed it to; this machine's objects "
              "are sealed with it on the next `turnlog-cli sync now`")
    else:
        print("passphrase changed; this machine's objects are sealed again on the next "
              "`turnlog-cli sync now`, and the other machines ask for the new passphrase")
        print(LOST)
    return 0
