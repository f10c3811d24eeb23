"""Setting sync up, and opening the storage a data directory syncs through: the one place
the command line (`turnlog-cli sync setup`) and the window's Sync page both use.

`set_up` checks everything before it writes anything: that the storage can be reached with
the credentials given, and that the passphrase opens the storage's key (when another
machine started it). Only then does the key, and the storage's secret (a WebDAV password, an
S3 secret key), go to the keyring, and the sync state (`sync.sqlite3`) name the storage.
A failure leaves the data directory as it was, and raises one of the named errors of
`turnlog.sync.errors`.
"""

from __future__ import annotations

import contextlib
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..sync.engine import Keys
    from ..sync.state import SyncState
    from ..sync.storage import Storage, StorageConfig


# How long Stop syncing waits for a sync that is running to end (an upload in flight is
# bounded by the storage's timeouts) before it says the sync is busy.
STOP_WAITS_S = 120.0


@dataclass(frozen=True, slots=True)
class SetupDone:
    """What a setup did: this machine's name and id, and whether it joined a storage other
    machines already use (how many) or started a new one."""

    machine_id: str
    machine_name: str
    joined: int  # machines already in the storage; 0 when this one started it
    storage: str  # the storage in words, without secrets


def default_machine_name() -> str:
    return (socket.gethostname() or "this machine").strip()[:100] or "this machine"


def set_up(home: Path, config: StorageConfig, secret: str | None, passphrase: bytes,
           machine_name: str = "") -> SetupDone:
    """Join the storage `config` names (or start it) as this data directory's machine
    `machine_name` (the host name unless given)."""
    from ..sync import engine
    from ..sync.errors import StorageMissing, SyncProblem
    from ..sync.keystore import save_keys, save_secret
    from ..sync.state import SyncState, is_sync_set_up, sync_lock
    from ..sync.storage import open_storage

    if is_sync_set_up(home):
        raise SyncProblem("sync is already set up for this data directory")
    if config.kind == "folder" and not Path(config.address).is_dir():
        raise StorageMissing(f"{config.address} is not a folder")
    name = machine_name.strip()[:100] or default_machine_name()
    storage = open_storage(config, secret)
    try:
        storage.refresh()  # reachable, and the credentials accepted, before anything
        joined = len(storage.machines())

        saved_as: list[str] = []

        def save(user: str, keys: Keys) -> None:
            saved_as.append(user)
            save_keys(user, keys)
            if secret:
                save_secret(user, secret)

        with sync_lock(home):
            state = SyncState.create(home)
            try:
                engine.set_up(storage, state, passphrase, name, save)
                machine = state.machine_id
            except BaseException:
                state.close()
                _remove_state(home, saved_as[0] if saved_as else "")
                raise
            state.close()
    finally:
        storage.close()
    return SetupDone(machine, name, joined, config.describe())


def replace_secret(home: Path, secret: str) -> None:
    """The storage's password (or secret key) changed on the server: check that the server
    accepts `secret`, then keep it in the keyring in place of the old one."""
    from ..sync.errors import SyncProblem
    from ..sync.keystore import save_secret
    from ..sync.state import SyncState, is_sync_set_up
    from ..sync.storage import open_storage

    if not is_sync_set_up(home):
        raise SyncProblem("sync is not set up for this data directory")
    with SyncState.open(home) as state:
        config, user = state.storage, state.get("keyring_user")
    if not config.needs_secret:
        raise SyncProblem(f"{config.describe()} takes no password")
    storage = open_storage(config, secret)
    try:
        storage.refresh()  # refused: AuthenticationFailed, and the old one stays
    finally:
        storage.close()
    save_secret(user, secret)


def forget_setup(home: Path) -> bool:
    """Stop syncing this data directory: its sync state, its key and the storage's secret
    go; the storage and the log are left as they are. False when it was not set up.
    Under the sync lock, once a sync running (the command line's, another window's) has
    ended, so never beside one; and whatever was asked before it and runs
    after it finds sync not set up (`SyncState.open` never makes the state again)."""
    from ..sync.state import SyncNotSetUp, SyncState, sync_lock

    with sync_lock(home, wait_s=STOP_WAITS_S):
        try:
            with SyncState.open(home) as state:
                user = state.get("keyring_user")
        except SyncNotSetUp:
            _remove_state(home, "")  # what a setup that never finished left
            return False
        _remove_state(home, user)
    return True


def _remove_state(home: Path, user: str) -> None:
    """The sync state's files first, then the keyring's entries (a keyring that cannot
    be opened leaves them, harmless without the state naming them)."""
    from ..config.secrets import KeyringUnavailable
    from ..sync.keystore import drop_keys, drop_secret
    from ..sync.state import STATE_NAME

    for suffix in ("", "-wal", "-shm"):
        (home / f"{STATE_NAME}{suffix}").unlink(missing_ok=True)
    if user:
        with contextlib.suppress(KeyringUnavailable):
            drop_keys(user)
            drop_secret(user)


def open_configured(state: SyncState) -> Storage:
    """The storage a set-up data directory syncs through, reached with the secret its
    keyring holds. Raises StorageMissing for a folder that is not there (a drive not
    mounted)."""
    from ..sync.errors import StorageMissing
    from ..sync.keystore import load_secret
    from ..sync.storage import open_storage

    config = state.storage
    secret = load_secret(state.get("keyring_user")) if config.needs_secret else None
    storage = open_storage(config, secret)
    if config.kind == "folder" and not storage.exists():
        raise StorageMissing(f"the sync folder {config.address} is not there (is its drive "
                             "mounted?)")
    return storage
