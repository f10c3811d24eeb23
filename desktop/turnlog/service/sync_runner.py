"""One sync of a data directory as the window runs it, off the GUI thread: the same steps as
`turnlog-cli sync now` (the lock, the state, the key from the keyring, the store's feed),
through the window's open store (which holds the data directory's writer lock; on the
sync's worker thread the store's database gives it a connection of its own), and every
way it can fail named in one `SyncFailure` whose `kind` the window puts in plain words.

Nothing here is imported before a sync is first asked for: the sync package, the keyring
and the cryptography stack load on that worker thread.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..store import TurnlogStore
    from ..sync.storage import StorageConfig

# The kinds of failure a person can act on; anything else is "failed" with its text. The
# storage's own (offline, authentication_failed, storage_full, tls_failed, ...) are the
# `kind` of `turnlog.sync.errors`' exceptions.
NOT_SET_UP = "not_set_up"
BUSY = "busy"
FOLDER_MISSING = "folder_missing"
WRONG_PASSPHRASE = "wrong_passphrase"
PASSPHRASE_CHANGED = "passphrase_changed"
KEYRING = "keyring"
FAILED = "failed"
OFFLINE = "offline"
AUTHENTICATION_FAILED = "authentication_failed"
STORAGE_FULL = "storage_full"


class SyncFailure(Exception):
    """A sync that did not happen (or stopped), of one `kind`; `detail` is for the person
    (a folder's path, the wire side's own words) and never holds history text."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind, self.detail = kind, detail


@dataclass(frozen=True, slots=True)
class SyncDone:
    """What one sync did, in counts, and whether the conversation open in the window
    (`open_id`) is still there afterwards."""

    received: int
    published: int
    problems: tuple[str, ...]
    open_gone: bool


def sync_data_directory(store: TurnlogStore, open_id: int | None = None) -> SyncDone:
    """Run one whole sync of the open `store`'s data directory (raises SyncFailure)."""
    from ..sync.state import is_sync_set_up, sync_lock

    home = store.home
    if not is_sync_set_up(home):
        raise SyncFailure(NOT_SET_UP)
    with named_failures(home), sync_lock(home):
        return _locked(store, open_id)


@contextmanager
def named_failures(home: Path) -> Iterator[None]:
    """Whatever a sync, a setup, a forget or a passphrase change of the data directory
    `home` raises that a person can act on, as one `SyncFailure` of its kind."""
    from ..config.secrets import KeyringUnavailable
    from ..sync.crypto import SyncCryptoError, WrongPassphrase
    from ..sync.errors import PassphraseChanged, StorageError, StorageMissing, SyncProblem
    from ..sync.state import SyncBusy, SyncNotSetUp

    try:
        yield
    except SyncBusy as err:
        raise SyncFailure(BUSY, str(err)) from None
    except SyncNotSetUp:  # stopped since it was asked for
        raise SyncFailure(NOT_SET_UP) from None
    except WrongPassphrase as err:
        raise SyncFailure(WRONG_PASSPHRASE, str(err)) from None
    except PassphraseChanged as err:
        raise SyncFailure(PASSPHRASE_CHANGED, str(err)) from None
    except KeyringUnavailable as err:
        raise SyncFailure(KEYRING, str(err)) from None
    except StorageMissing as err:
        config = storage_of(home)
        if config is not None and config.kind == "folder":
            raise SyncFailure(FOLDER_MISSING, config.address) from None
        raise SyncFailure(err.kind, str(err)) from None
    except StorageError as err:
        raise SyncFailure(err.kind, str(err)) from None
    except (SyncProblem, SyncCryptoError, OSError) as err:
        raise SyncFailure(FAILED, str(err)) from None


def storage_of(home: Path) -> StorageConfig | None:
    """The storage the data directory syncs through; None when it does not (any more)."""
    from ..sync.state import SyncNotSetUp, SyncState

    try:
        with SyncState.open(home) as state:
            return state.storage
    except SyncNotSetUp:
        return None


def _locked(store: TurnlogStore, open_id: int | None) -> SyncDone:
    from ..store.errors import NotFound
    from ..sync.engine import sync_now
    from ..sync.keystore import load_keys
    from ..sync.state import SyncState
    from .sync_setup import open_configured

    with SyncState.open(store.home) as state:
        storage = open_configured(state)
        try:
            keys = load_keys(state.get("keyring_user"))
            report = sync_now(store.sync_feed, storage, state, keys)
        finally:
            storage.close()
        gone = False
        if open_id is not None:
            try:
                store.conversations.get(open_id)
            except NotFound:
                gone = True
        state.keep_last_report(report.waiting, report.problems)
    return SyncDone(sum(report.received.values()), report.published_records,
                    tuple(report.problems), gone)

