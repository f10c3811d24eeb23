"""A turn's files in the storage: each file's bytes once per machine, as an object of its
own (sealed and padded as every object is), under a name no one without the key can link
to the file: HMAC-SHA-256 of the machine id and the file's SHA-256, keyed by the sync key.
The storage therefore cannot tell that a file equals one it knows, nor that two machines
hold the same file.

A machine uploads the files its own records name before the object that publishes those
records; reads the files the records it applied name, from whichever machine has them
(trying every key it holds: a file keeps the name its key gave it until it is sealed
again); and removes its file objects once every record that named them was deleted
everywhere. A file the store refuses (its bytes do not match its SHA-256) is named as a
problem and not kept.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Any, Protocol

from ..store.errors import NotFound
from .crypto import Incomplete, SyncCryptoError, is_incomplete, key_id_of, open_sealed, seal
from .seam import SyncRecordInvalid
from .state import SyncState
from .storage import Storage


class Engine(Protocol):
    """What of the sync engine the files use: its feed, storage, state, keys and report."""

    feed: Any
    storage: Storage
    state: SyncState
    keys: Any
    report: Any

    @property
    def me(self) -> str: ...

MAX_BLOB = 30 * 1024 * 1024  # a file larger than one object carries stays on its machine


def blob_name(key: bytes, machine: str, digest: str) -> str:
    names = hmac.new(key, b"turnlog-sync blob names v1", hashlib.sha256).digest()
    return hmac.new(names, f"{machine}|{digest}".encode(), hashlib.sha256).hexdigest()


def _where(machine: str, name: str) -> str:
    """What a file object's seal is bound to: a copy under another name does not open."""
    return f"{machine}/blob/{name}"


def files_named(records: Iterable[dict[str, Any]]) -> dict[str, list[tuple[str, str | None]]]:
    """SHA-256 → (record id, conversation) of the records that name that file."""
    found: dict[str, list[tuple[str, str | None]]] = {}
    for record in records:
        if record.get("kind") not in ("turn", "assistant", "files"):
            continue
        for item in record.get("files") or ():
            for digest in {item["original"], item["sent"]}:
                found.setdefault(digest, []).append((record["id"], record.get("conv")))
    return found


def upload(engine: Engine, records: list[dict[str, Any]]) -> None:
    """Put the files `records` name in the storage (each once for this machine)."""
    if not hasattr(engine.feed, "blob"):
        return
    for digest, refs in files_named(records).items():
        if engine.state.own_blob(digest) is None:
            try:
                data = engine.feed.blob(digest)
            except NotFound:
                continue  # not here (deleted since): nothing to upload
            if len(data) > MAX_BLOB:
                engine.report.problems.append(
                    f"a file of {len(data) // 1_000_000} MB is too large to sync; its turn "
                    "travels without it")
                continue
            _write(engine, digest, data)
            engine.report.files_up += 1
        engine.state.add_own_blob(digest, *engine.state.own_blob(digest), refs)


def _write(engine: Engine, digest: str, data: bytes) -> None:
    me, key_id = engine.me, engine.keys.current
    name = blob_name(engine.keys.by_id[key_id], me, digest)
    there = engine.storage.read_blob(me, name)
    if there is not None and is_incomplete(there):  # an upload cut off: written again
        engine.storage.remove_blob(me, name)
        there = None
    if there is None:  # else written before a kill
        engine.storage.write_blob(me, name, seal(engine.keys.by_id[key_id], key_id,
                                                _where(me, name), 0, data))
    engine.state.add_own_blob(digest, name, key_id, ())


def fetch(engine: Engine) -> None:
    """Bring in the files the records applied here name and this machine lacks."""
    if not hasattr(engine.feed, "missing_blobs"):
        return
    for digest in engine.feed.missing_blobs():
        data = _find(engine, digest)
        if data is None:
            engine.report.files_waiting += 1
            continue
        try:
            engine.feed.add_blob(data, digest)
        except SyncRecordInvalid as err:
            engine.report.problems.append(f"a file is not applied: {err}")
            continue
        engine.report.files_down += 1


def _find(engine: Engine, digest: str) -> bytes | None:
    for machine in engine.storage.blob_machines():
        for key in engine.keys.by_id.values():
            name = blob_name(key, machine, digest)
            sealed = engine.storage.read_blob(machine, name)
            if sealed is None:
                continue
            try:
                return open_sealed(key, _where(machine, name), 0, sealed)
            except Incomplete:
                continue  # still being copied: looked at again on the next sync
            except SyncCryptoError as err:
                engine.report.problems.append(f"a file object of machine {machine[:8]} is "
                                              f"not applied: {err}")
    return None


def tidy(engine: Engine, deleted: set[str], reseal: bool) -> None:
    """Remove this machine's file objects whose every record was deleted everywhere;
    when the key changed, seal the others again under the new key (and name)."""
    me = engine.me
    for digest, name in engine.state.unreferenced_blobs(deleted):
        engine.storage.remove_blob(me, name)
        engine.state.drop_own_blob(digest)
        engine.report.removed += 1
    if not reseal:
        return
    for digest, name, key_id in engine.state.own_blobs():
        if key_id == engine.keys.current:
            continue
        sealed = engine.storage.read_blob(me, name)
        key = engine.keys.by_id.get(key_id_of(sealed)) if sealed is not None else None
        if key is None:
            continue
        _write(engine, digest, open_sealed(key, _where(me, name), 0, sealed))
        engine.storage.remove_blob(me, name)
