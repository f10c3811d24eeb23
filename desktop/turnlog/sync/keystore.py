"""The sync keys in the OS keyring (service `turnlog-sync`, one entry per data directory;
a second holds the storage's password or secret key when it has one), never in a file. The
passphrase itself is never kept anywhere: only the keys it derived."""

from __future__ import annotations

import json
from typing import Any

from ..config.secrets import SystemKeyring
from .engine import Keys, SyncProblem

SERVICE = "turnlog-sync"


def _keyring(backend: Any = None) -> SystemKeyring:
    return SystemKeyring(backend, service=SERVICE)


def _entry(user: str) -> str:
    return f"sync-{user}"


def save_keys(user: str, keys: Keys, backend: Any = None) -> None:
    _keyring(backend).set(_entry(user), json.dumps(keys.to_json(), separators=(",", ":")))


def load_keys(user: str, backend: Any = None) -> Keys:
    raw = _keyring(backend).get(_entry(user))
    if raw is None:
        raise SyncProblem("the sync key is not in this machine's keyring (was the keyring "
                          "reset?): set sync up again with `turnlog-cli sync setup`")
    try:
        return Keys.from_json(json.loads(raw))
    except (ValueError, KeyError, TypeError):
        raise SyncProblem("the sync key in the keyring is damaged: set sync up again with "
                          "`turnlog-cli sync setup`") from None


def drop_keys(user: str, backend: Any = None) -> bool:
    return _keyring(backend).delete(_entry(user))


def _storage_entry(user: str) -> str:
    return f"storage-{user}"


def save_secret(user: str, secret: str, backend: Any = None) -> None:
    """The storage's secret (a WebDAV password, an S3 secret key), beside the sync key.
    Kept hex-encoded: a password may hold spaces and any character."""
    _keyring(backend).set(_storage_entry(user), secret.encode("utf-8").hex())


def load_secret(user: str, backend: Any = None) -> str | None:
    raw = _keyring(backend).get(_storage_entry(user))
    if raw is None:
        return None
    try:
        return bytes.fromhex(raw).decode("utf-8")
    except ValueError:
        raise SyncProblem("the sync storage's password in the keyring is damaged: set sync "
                          "up again") from None


def drop_secret(user: str, backend: Any = None) -> bool:
    return _keyring(backend).delete(_storage_entry(user))
