"""Every way a sync, its setup or its storage can fail that a person can act on, in one
place, so the window and the command line name them the same way.

Each carries a sentence in plain words (no secret, no history text) and a short `kind` the
window maps to its own translated text."""

from __future__ import annotations

from .crypto import SyncCryptoError, WrongPassphrase
from .state import SyncBusy, SyncNotSetUp

__all__ = ["AuthenticationFailed", "Offline", "PassphraseChanged", "PlainHttpRefused",
           "StorageError", "StorageFull", "StorageMissing", "StorageRefused", "SyncBusy",
           "SyncCryptoError", "SyncNotSetUp", "SyncProblem", "TlsFailed", "WrongPassphrase",
           "kind_of"]


class SyncProblem(Exception):
    """A sync that cannot go on, in words a person can act on."""

    kind = "failed"


class PassphraseChanged(SyncProblem):
    """The storage's newest key is one this machine has no key for."""

    kind = "passphrase_changed"


class StorageError(SyncProblem):
    """The storage could not be used (the network, the server, the folder)."""

    kind = "storage"


class Offline(StorageError):
    """The server cannot be reached (no network, a wrong address, it does not answer in
    time); the next sync tries again."""

    kind = "offline"


class AuthenticationFailed(StorageError):
    """The server refused the user name and password (or access key), or the account may
    not use this place (HTTP 401 / 403)."""

    kind = "authentication_failed"


class StorageFull(StorageError):
    """The server has no room for another object (HTTP 507, a quota)."""

    kind = "storage_full"


class StorageMissing(StorageError):
    """The folder, WebDAV collection or bucket named in the setup is not there."""

    kind = "storage_missing"


class StorageRefused(StorageError):
    """The server answered with an error that is none of the above (its own words kept)."""

    kind = "storage_refused"


class TlsFailed(StorageError):
    """The server's certificate could not be verified (a self-signed one needs its CA
    file)."""

    kind = "tls_failed"


class PlainHttpRefused(StorageError):
    """Credentials would travel unencrypted over plain http to another machine."""

    kind = "plain_http_refused"


def kind_of(err: BaseException) -> str:
    """The short name of a failure, for JSON output and the window's words."""
    if isinstance(err, WrongPassphrase):
        return "wrong_passphrase"
    if isinstance(err, SyncBusy):
        return "sync_busy"
    if isinstance(err, SyncProblem | SyncNotSetUp):
        return err.kind
    return "failed"
