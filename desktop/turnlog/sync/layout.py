"""What a sync storage holds, by name, and which storage a machine syncs through.

A `StorageConfig` says which storage (a plain folder another program syncs, a WebDAV
collection, an S3 bucket) and how to reach it, without its secret: it is kept in the sync
state; the secret (a WebDAV password, an S3 secret key) stays in the keyring.

Every storage holds the same names under its root (`turnlog-sync/`):

    keys/<epoch:06d>-<machine id>.tlk     key headers
    <machine id>/<seq:010d>.tlo           each machine's objects
    blobs/<machine id>/<name>.tlb         each machine's files
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit

ROOT = "turnlog-sync"
KEYS = "keys"
BLOBS = "blobs"
OBJECT = re.compile(r"^(\d{10})\.tlo$")
MACHINE = re.compile(r"^[0-9a-f]{32}$")
BLOB = re.compile(r"^([0-9a-f]{64})\.tlb$")
HEADER = re.compile(r"^(\d{6})-([0-9a-f]{32})\.tlk$")

KINDS = ("folder", "webdav", "s3")


def new_machine_id() -> str:
    return secrets.token_hex(16)


@dataclass(frozen=True)
class StorageConfig:
    """Which storage, and how to reach it; never its secret."""

    kind: str  # "folder" | "webdav" | "s3"
    address: str  # the folder's path, the WebDAV URL, or the S3 endpoint URL
    bucket: str = ""  # S3 only
    prefix: str = ""  # S3: a path inside the bucket ("" for its root)
    user: str = ""  # the WebDAV user, or the S3 access key id
    ca_file: str = ""  # a CA certificate file for a server with its own certificate
    allow_plain_http: bool = False  # credentials over http:// to a host other than this one

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a sync storage is one of {', '.join(KINDS)}, not {self.kind!r}")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> StorageConfig:
        known = {k: raw[k] for k in cls.__dataclass_fields__ if k in raw}
        return cls(**known)

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def loads(cls, text: str) -> StorageConfig:
        return cls.from_json(json.loads(text))

    @property
    def needs_secret(self) -> bool:
        return self.kind != "folder" and bool(self.user)

    def describe(self) -> str:
        """A short label for a person, without secrets: "Folder · /home/me/Sync",
        "WebDAV · dav.example.com/remote.php/…", "S3 · bucket on s3.example.com"."""
        if self.kind == "folder":
            return f"Folder · {self.address}"
        parts = urlsplit(self.address)
        host = parts.hostname or self.address
        if parts.port:
            host = f"{host}:{parts.port}"
        if self.kind == "webdav":
            path = parts.path.strip("/")
            shown = path if len(path) <= 24 else f"{path[:20]}…"
            return f"WebDAV · {host}/{shown}" if shown else f"WebDAV · {host}"
        place = f"{self.bucket}/{self.prefix.strip('/')}" if self.prefix.strip("/") else \
            self.bucket
        return f"S3 · {place} on {host}"


@dataclass(slots=True)
class Listing:
    """One machine's objects as the storage shows them now."""

    objects: dict[int, int] = field(default_factory=dict)  # sequence number → size in bytes
    others: int = 0  # temporary files, conflict copies: ignored, counted for status


def object_name(machine: str, seq: int) -> str:
    """An object's path below the sync root."""
    return f"{machine}/{seq:010d}.tlo"


def blob_path(machine: str, name: str) -> str:
    if not BLOB.match(f"{name}.tlb"):
        raise ValueError("a file object's name is 64 hex digits")
    return f"{BLOBS}/{machine}/{name}.tlb"


def header_path(key_id: str) -> str:
    if not HEADER.match(f"{key_id}.tlk"):
        raise ValueError("a key header's name is its epoch and a machine id")
    return f"{KEYS}/{key_id}.tlk"
