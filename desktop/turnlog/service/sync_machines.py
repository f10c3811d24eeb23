"""Forgetting another machine and changing the passphrase, as the window does them: the
same steps as `turnlog-cli sync forget` and `sync passphrase` (the lock, the state, the key
from the keyring), through the window's open store, off the GUI thread, every failure a
person can act on named as a `SyncFailure` (`service.sync_runner`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .sync_runner import NOT_SET_UP, SyncFailure, named_failures

if TYPE_CHECKING:
    from pathlib import Path

    from ..store import TurnlogStore


def forget_machine(store: TurnlogStore, machine_id: str) -> int:
    """Forget the machine `machine_id`, which will never return: its live history is kept
    in this machine's objects, its own are removed from the storage. Returns how many
    changes of its history were kept."""
    from ..sync.engine import forget
    from ..sync.errors import SyncProblem
    from ..sync.keystore import load_keys
    from ..sync.state import SyncState, is_sync_set_up, sync_lock
    from .sync_setup import open_configured

    home = store.home
    if not is_sync_set_up(home):
        raise SyncFailure(NOT_SET_UP)
    with named_failures(home), sync_lock(home), SyncState.open(home) as state:
        peer = state.peers().get(machine_id)
        if peer is None or peer.forgotten or machine_id == state.machine_id:
            raise SyncProblem("that machine is not one this machine syncs with")
        storage = open_configured(state)
        try:
            keys = load_keys(state.get("keyring_user"))
            return forget(store.sync_feed, storage, state, keys, machine_id)
        finally:
            storage.close()


def change_passphrase(home: Path, passphrase: bytes) -> str:
    """Change the passphrase to `passphrase`, or take it when another machine changed it
    to that: "changed" or "joined". This machine's objects are sealed with the new key on
    its next sync."""
    from ..sync import engine
    from ..sync.keystore import load_keys, save_keys
    from ..sync.state import SyncState, is_sync_set_up, sync_lock
    from .sync_setup import open_configured

    if not is_sync_set_up(home):
        raise SyncFailure(NOT_SET_UP)
    with named_failures(home), sync_lock(home), SyncState.open(home) as state:
        storage = open_configured(state)
        try:
            user = state.get("keyring_user")
            return engine.change_passphrase(storage, state, load_keys(user), passphrase,
                                            lambda keys: save_keys(user, keys))
        finally:
            storage.close()
