"""The storage: a plain folder that another program (Syncthing, Dropbox, a network share)
copies between machines.

    <folder>/turnlog-sync/keys/<epoch:06d>-<machine id>.tlk     key headers
    <folder>/turnlog-sync/<machine id>/<seq:010d>.tlo            each machine's objects
    <folder>/turnlog-sync/blobs/<machine id>/<name>.tlb          each machine's files

Names are random machine ids and sequence numbers only. Each machine writes only below its
own id, each object once: a temporary name, fsync, then a rename, so a reader sees a whole
object or none. What a lagging sync program leaves — a partial temporary file, a conflict
copy, an object that appears late or out of order — is ignored by name and looked at again
on the next sync, never an error.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from ..system.user_files import read_limited
from .crypto import MAX_HEADER_BYTES, MAX_SEALED
from .layout import (
    BLOB,
    BLOBS,
    HEADER,
    KEYS,
    MACHINE,
    OBJECT,
    ROOT,
    Listing,
    StorageConfig,
    blob_path,
    header_path,
    new_machine_id,
    object_name,
)

__all__ = ["Listing", "SyncFolder", "new_machine_id"]

TEMP_PREFIX = ".turnlog-"


class SyncFolder:
    """The sync storage under `root` (the folder the user named): a `Storage`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.base = root / ROOT
        self.config = StorageConfig("folder", str(root))

    def refresh(self) -> None:
        """Nothing to do: a folder is looked at afresh on every call."""

    def close(self) -> None:
        """Nothing to do: a folder holds nothing open."""

    def create(self) -> None:
        (self.base / KEYS).mkdir(parents=True, exist_ok=True)

    def exists(self) -> bool:
        return self.base.is_dir()

    def machines(self) -> list[str]:
        if not self.base.is_dir():
            return []
        return sorted(p.name for p in self.base.iterdir()
                      if MACHINE.match(p.name) and p.is_dir())

    def listing(self, machine: str) -> Listing:
        found = Listing()
        folder = self.base / machine
        if not folder.is_dir():
            return found
        for path in folder.iterdir():
            match = OBJECT.match(path.name)
            if match and int(match.group(1)) > 0:
                with contextlib.suppress(FileNotFoundError):
                    found.objects[int(match.group(1))] = path.stat().st_size
            else:
                found.others += 1
        return found

    def path(self, machine: str, seq: int) -> Path:
        return self.base / object_name(machine, seq)

    def read(self, machine: str, seq: int) -> bytes | None:
        """The object's bytes, or None when it is not (or no longer) there."""
        try:
            return read_limited(self.path(machine, seq), MAX_SEALED + 1024,
                                what="sync object")
        except FileNotFoundError:
            return None

    def write(self, machine: str, seq: int, data: bytes) -> None:
        """Write a new object: temporary name, fsync, rename; never over an existing one."""
        target = self.path(machine, seq)
        _write_new(target, data)

    def remove(self, machine: str, seq: int) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path(machine, seq).unlink()

    def remove_machine(self, machine: str) -> None:
        """Every object and file of a forgotten machine, then its folders when empty."""
        for folder in (self.base / machine, self.base / BLOBS / machine):
            if not folder.is_dir():
                continue
            for path in folder.iterdir():
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
            with contextlib.suppress(OSError):
                folder.rmdir()

    # ----------------------------------------------------------- files (blobs)
    def blob_machines(self) -> list[str]:
        folder = self.base / BLOBS
        if not folder.is_dir():
            return []
        return sorted(p.name for p in folder.iterdir() if MACHINE.match(p.name) and p.is_dir())

    def blob_path(self, machine: str, name: str) -> Path:
        return self.base / blob_path(machine, name)

    def blob_names(self, machine: str) -> list[str]:
        folder = self.base / BLOBS / machine
        if not folder.is_dir():
            return []
        return sorted(m.group(1) for p in folder.iterdir() if (m := BLOB.match(p.name)))

    def read_blob(self, machine: str, name: str) -> bytes | None:
        try:
            return read_limited(self.blob_path(machine, name), MAX_SEALED + 1024,
                                what="sync file object")
        except FileNotFoundError:
            return None

    def write_blob(self, machine: str, name: str, data: bytes) -> None:
        _write_new(self.blob_path(machine, name), data)

    def remove_blob(self, machine: str, name: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.blob_path(machine, name).unlink()

    def clean_temporary(self, machine: str) -> None:
        """This machine's temporary files a crash left behind (only it writes there)."""
        for folder in (self.base / machine, self.base / BLOBS / machine):
            if folder.is_dir():
                for path in folder.iterdir():
                    if path.name.startswith(TEMP_PREFIX):
                        with contextlib.suppress(FileNotFoundError):
                            path.unlink()

    def headers(self) -> list[tuple[int, str]]:
        """(epoch, key id) of every key header, oldest first."""
        folder = self.base / KEYS
        if not folder.is_dir():
            return []
        found = [(int(m.group(1)), p.name[:-4]) for p in folder.iterdir()
                 if (m := HEADER.match(p.name))]
        return sorted(found)

    def read_header(self, key_id: str) -> bytes | None:
        try:
            return read_limited(self.base / header_path(key_id), MAX_HEADER_BYTES + 1,
                                what="sync key header")
        except FileNotFoundError:
            return None

    def write_header(self, key_id: str, data: bytes) -> None:
        _write_new(self.base / header_path(key_id), data)


def _write_new(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        raise FileExistsError(f"{target} is already there: a sync object is written once")
    temp = target.with_name(f"{TEMP_PREFIX}{target.name}.{secrets.token_hex(4)}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.rename(temp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()
        raise
    dir_fd = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
