"""Where the sync objects live, and the one interface the engine uses to reach them.

A `StorageConfig` says which storage (a plain folder another program syncs, a WebDAV
collection, an S3 bucket) and how to reach it, without its secret: it is kept in the sync
state; the secret (a WebDAV password, an S3 secret key) stays in the keyring. `open_storage`
makes the `Storage` for a config and its secret.

Every storage holds the same names under its root (`turnlog-sync/`):

    keys/<epoch:06d>-<machine id>.tlk     key headers
    <machine id>/<seq:010d>.tlo           each machine's objects
    blobs/<machine id>/<name>.tlb         each machine's files

and keeps the same promises: each machine writes only below its own id, each object once;
a reader sees a whole object or one the sealed format names incomplete (looked at again on
the next sync), never a wrong one; a name it does not know is ignored.

A storage answers what it holds (machines, listings, headers, file names) from one look at
the whole tree per sync: `refresh()` takes that look, writes and removes keep it up to date,
so a sync over the network makes few requests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .layout import Listing, StorageConfig

if TYPE_CHECKING:
    from .remote import Network

__all__ = ["Listing", "Storage", "StorageConfig", "open_storage"]


class Storage(Protocol):
    """What the sync engine uses of a storage. Names are machine ids (32 hex digits),
    sequence numbers, key ids and file names (64 hex digits); bytes in, bytes out."""

    config: StorageConfig

    def refresh(self) -> None:
        """Look at the whole tree again (once per sync); what follows answers from it."""

    def create(self) -> None:
        """Make the storage's root and key folder (a new sync storage)."""

    def exists(self) -> bool:
        """Whether the storage holds a sync root."""

    def machines(self) -> list[str]: ...

    def listing(self, machine: str) -> Listing: ...

    def read(self, machine: str, seq: int) -> bytes | None:
        """The object's bytes, or None when it is not (or no longer) there."""

    def write(self, machine: str, seq: int, data: bytes) -> None:
        """Write a new object (never over a whole one)."""

    def remove(self, machine: str, seq: int) -> None: ...

    def remove_machine(self, machine: str) -> None:
        """Every object and file of a forgotten machine."""

    def blob_machines(self) -> list[str]: ...

    def blob_names(self, machine: str) -> list[str]: ...

    def read_blob(self, machine: str, name: str) -> bytes | None: ...

    def write_blob(self, machine: str, name: str, data: bytes) -> None: ...

    def remove_blob(self, machine: str, name: str) -> None: ...

    def clean_temporary(self, machine: str) -> None:
        """This machine's temporary leftovers of an interrupted write (only it writes
        there)."""

    def headers(self) -> list[tuple[int, str]]:
        """(epoch, key id) of every key header, oldest first."""

    def read_header(self, key_id: str) -> bytes | None: ...

    def write_header(self, key_id: str, data: bytes) -> None: ...

    def close(self) -> None: ...


def open_storage(config: StorageConfig, secret: str | None = None,
                 network: Network | None = None) -> Storage:
    """The storage `config` names, reached with `secret` (a WebDAV password or an S3
    secret key; none for a folder), with `network`'s timeouts and tries. Raises a
    `StorageError` when it cannot even be addressed (plain http to another machine with a
    password, an unusable CA file)."""
    if config.kind == "folder":
        from pathlib import Path

        from .folder import SyncFolder

        return SyncFolder(Path(config.address))
    from .remote import Network, ObjectTree, Transport, refuse_plain_http

    network = network or Network()
    refuse_plain_http(config, bool(secret))
    transport: Transport
    try:
        if config.kind == "webdav":
            from .webdav import WebDavTransport

            transport = WebDavTransport(config, secret, network)
        else:
            from .s3 import S3Transport

            transport = S3Transport(config, secret, network)
    except ImportError as err:
        from .errors import StorageRefused

        raise StorageRefused(f"sync through {config.describe().split(' · ')[0]} needs the "
                             f"package {err.name}, which is not installed: install "
                             "Turnlog with its sync extra (pip install 'turnlog[sync]')"
                             ) from None
    return ObjectTree(config, transport, network)
