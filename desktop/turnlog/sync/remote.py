"""A storage on a server (WebDAV or S3): the sync tree as named objects, reached through a
`Transport` (`webdav.py`, `s3.py`) that speaks the protocol through a well-kept library.

What it holds is looked at once per sync (`refresh`: one recursive listing), and every
question about names is answered from that look, kept up to date by this machine's own
writes and removes; an object is fetched only when it is listed. So an incremental sync
makes a listing, a read of the key header, one request per new object of another machine
and one per object of its own.

Network behaviour as the providers have it: connect and read timeouts, a bounded number of
tries with back-off for what passes (5xx, 429, a connection reset, a timeout), TLS checked
against the system's CAs and a CA file of the user's, and no credentials over plain http to
another machine unless the user allowed it. A failure that stays is one of the named errors
of `errors.py` (offline, authentication failed, storage full, ...).

An object is written once, with one PUT: an upload cut off leaves nothing (S3) or an object
shorter than its header says (WebDAV), which readers take as "not yet there" and its writer
writes again on its next sync (`engine.recover`, `blobs._write`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar
from urllib.parse import urlsplit

from ..providers.security import is_loopback_host
from .crypto import MAX_HEADER_BYTES, MAX_SEALED
from .errors import Offline, PlainHttpRefused, StorageError
from .layout import (
    BLOB,
    BLOBS,
    HEADER,
    KEYS,
    MACHINE,
    OBJECT,
    Listing,
    StorageConfig,
    blob_path,
    header_path,
    object_name,
)

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Network:
    """Timeouts and tries of every request to a sync server."""

    connect_s: float = 10.0
    read_s: float = 60.0
    tries: int = 3  # a request that fails in a way that passes is sent at most this often
    backoff_s: float = 0.5  # waited before the second try; doubled before each next


class Transient(Exception):
    """A failure that may pass (a 5xx, 429, a reset connection, a timeout); `final` is
    what it means when it does not."""

    def __init__(self, final: StorageError) -> None:
        super().__init__(str(final))
        self.final = final


class Transport(Protocol):
    """One protocol's requests on paths below the storage's root (`turnlog-sync/...`).
    Each method makes one request (a walk of a server that refuses a recursive listing,
    a few); failures are errors of `errors.py` or `Transient`."""

    requests: int  # requests made so far (for the status and the tests)

    def list_tree(self) -> dict[str, int] | None:
        """Every object below the root, path → size; None when the root is not there."""

    def get(self, path: str, limit: int) -> bytes | None:
        """The object's bytes (at most `limit`), or None when it is not there."""

    def put(self, path: str, data: bytes) -> None: ...

    def delete(self, path: str) -> None:
        """Remove the object (gone already is fine)."""

    def make_root(self) -> None:
        """Make the root (and its key folder) where a server needs folders."""

    def close(self) -> None: ...


def refuse_plain_http(config: StorageConfig, has_secret: bool) -> None:
    """Credentials never travel unencrypted to another machine unless the user allowed
    it (`--allow-plain-http`)."""
    parts = urlsplit(config.address.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise StorageError(f"{config.address} is not an http:// or https:// address")
    if (has_secret and parts.scheme.lower() == "http" and not config.allow_plain_http
            and not is_loopback_host(parts.hostname)):
        raise PlainHttpRefused(
            f"{config.address} is plain http:// to {parts.hostname}, another machine: the "
            "password would be readable by anyone on the network in between. Use an https:// "
            "address, or allow it explicitly (--allow-plain-http) if the network is your own")


class ObjectTree:
    """A `Storage` over a `Transport`."""

    def __init__(self, config: StorageConfig, transport: Transport, network: Network) -> None:
        self.config, self.transport, self.network = config, transport, network
        self._tree: dict[str, int] | None = None
        self._root = False

    # ------------------------------------------------------------ requests, with tries
    def _call(self, request: Callable[[], T]) -> T:
        wait = self.network.backoff_s
        for attempt in range(1, self.network.tries + 1):
            try:
                return request()
            except Transient as err:
                if attempt == self.network.tries:
                    raise err.final from None
                log.info("sync storage: %s; trying again in %.1f s", err, wait)
                time.sleep(wait)
                wait *= 2
        raise Offline("the sync server could not be reached")  # tries < 1

    @property
    def requests(self) -> int:
        return self.transport.requests

    # ------------------------------------------------------------- the look at the tree
    def refresh(self) -> None:
        tree = self._call(self.transport.list_tree)
        self._root = tree is not None
        self._tree = dict(tree or {})

    def _names(self) -> dict[str, int]:
        if self._tree is None:
            self.refresh()
        assert self._tree is not None
        return self._tree

    def create(self) -> None:
        self._call(self.transport.make_root)
        self._root = True
        self._names()

    def exists(self) -> bool:
        self._names()
        return self._root

    def _under(self, folder: str) -> dict[str, int]:
        """name → size of the objects directly in `folder/`."""
        start = f"{folder}/"
        return {path[len(start):]: size for path, size in self._names().items()
                if path.startswith(start) and "/" not in path[len(start):]}

    def _folders(self, below: str = "") -> list[str]:
        start = f"{below}/" if below else ""
        found = {path[len(start):].split("/", 1)[0] for path in self._names()
                 if path.startswith(start) and "/" in path[len(start):]}
        return sorted(m for m in found if MACHINE.match(m))

    # ------------------------------------------------------------------ the protocol
    def machines(self) -> list[str]:
        return self._folders()

    def listing(self, machine: str) -> Listing:
        found = Listing()
        for name, size in self._under(machine).items():
            match = OBJECT.match(name)
            if match and int(match.group(1)) > 0:
                found.objects[int(match.group(1))] = size
            else:
                found.others += 1
        return found

    def _get(self, path: str, limit: int) -> bytes | None:
        if path not in self._names():
            return None  # not listed: no request
        data = self._call(lambda: self.transport.get(path, limit))
        if data is None:
            self._names().pop(path, None)
        return data

    def _put(self, path: str, data: bytes) -> None:
        self._call(lambda: self.transport.put(path, data))
        self._names()[path] = len(data)

    def _delete(self, path: str) -> None:
        if path in self._names():
            self._call(lambda: self.transport.delete(path))
            self._names().pop(path, None)

    def read(self, machine: str, seq: int) -> bytes | None:
        return self._get(object_name(machine, seq), MAX_SEALED + 1024)

    def write(self, machine: str, seq: int, data: bytes) -> None:
        self._put(object_name(machine, seq), data)

    def remove(self, machine: str, seq: int) -> None:
        self._delete(object_name(machine, seq))

    def remove_machine(self, machine: str) -> None:
        for start in (f"{machine}/", f"{BLOBS}/{machine}/"):
            for path in [p for p in self._names() if p.startswith(start)]:
                self._delete(path)

    def blob_machines(self) -> list[str]:
        return self._folders(BLOBS)

    def blob_names(self, machine: str) -> list[str]:
        return sorted(m.group(1) for name in self._under(f"{BLOBS}/{machine}")
                      if (m := BLOB.match(name)))

    def read_blob(self, machine: str, name: str) -> bytes | None:
        return self._get(blob_path(machine, name), MAX_SEALED + 1024)

    def write_blob(self, machine: str, name: str, data: bytes) -> None:
        self._put(blob_path(machine, name), data)

    def remove_blob(self, machine: str, name: str) -> None:
        self._delete(blob_path(machine, name))

    def clean_temporary(self, machine: str) -> None:
        """Nothing to clean: an object is written with one request, under its name."""

    def headers(self) -> list[tuple[int, str]]:
        return sorted((int(m.group(1)), name[:-4]) for name in self._under(KEYS)
                      if (m := HEADER.match(name)))

    def read_header(self, key_id: str) -> bytes | None:
        return self._get(header_path(key_id), MAX_HEADER_BYTES + 1)

    def write_header(self, key_id: str, data: bytes) -> None:
        self._put(header_path(key_id), data)

    def close(self) -> None:
        self.transport.close()

