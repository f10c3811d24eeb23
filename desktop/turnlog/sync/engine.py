"""One sync: finish what an interrupted one left, read the other machines' new objects in
sequence order, publish this machine's new change records, and rewrite this machine's
objects that still hold records a delete everywhere removed.

Every step is safe to interrupt (kill -9) anywhere: an object is noted in the state before
it is written and becomes live in the state only once it is in the storage; an object read
is marked applied only after the store applied it (applying twice is a no-op there); an
object rewritten is removed only after its replacement is live.
"""

from __future__ import annotations

import hashlib
import logging
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from . import blobs
from .crypto import (
    Incomplete,
    KeyHeader,
    SyncCryptoError,
    WrongPassphrase,
    bucket_room,
    is_incomplete,
    key_id_of,
    new_header,
    open_sealed,
    parse_header,
    seal,
    seal_measured,
)
from .errors import PassphraseChanged, SyncProblem
from .layout import new_machine_id
from .payload import MAX_RECORDS, Fresh, Payload, PayloadInvalid, encode_json, parse_payload
from .seam import Feed, Outgoing, OutgoingPage, SyncRecordInvalid, needs_reading
from .state import PendingObject, SyncState, now
from .storage import Storage

__all__ = ["Engine", "Keys", "PassphraseChanged", "Report", "SyncProblem", "change_passphrase",
           "forget", "newest_header", "set_up", "sync_now"]

log = logging.getLogger(__name__)

# Records asked of the feed at a time where nothing says how large they are (a publish's
# first object, a forgotten machine's objects), and the most one object's payload holds (a
# record is at most 4 MiB, so one always fits).
BATCH = 500
OBJECT_PAYLOAD = 8 * 1024 * 1024
# The size class a publish fills its objects to (an object is padded to a power of two), and
# how full of its room it aims each: the record count of the next object follows from what
# the objects before packed to, so an object lands just under its class instead of just over
# the one below (500 records of chat text packed to just over 256 KiB: padded to 512 KiB, a
# first sync put about twice the bytes it packed on the storage). A page the estimate puts
# past FILL of the room is asked again, smaller. 1 MiB: half the requests of 512 KiB, and
# at most a few MiB in memory per object on its way.
OBJECT_BUCKET = 1024 * 1024
AIM = 0.92
FILL = 0.98
# The most records one object of a publish holds (the reader refuses more than MAX_RECORDS).
MOST_RECORDS = MAX_RECORDS // 2
# Objects being sealed at once while a publish runs: compressing (Zstandard at about 300 MB/s
# a core, zlib's format 1 at 100) is much of a first sync's work; two keep two cores busy, a
# third would only wait for the upload.
SEALERS = 2
# While a publish runs, how long a thread holding the interpreter lock keeps it before one
# waiting takes its turn (Python's default is 5 ms).
HANDOFF_S = 0.0005


@dataclass
class Keys:
    """The keys this machine holds, by key id, and the one it writes with."""

    current: str
    by_id: dict[str, bytes] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"current": self.current, "keys": {k: v.hex() for k, v in self.by_id.items()}}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Keys:
        return cls(raw["current"], {k: bytes.fromhex(v) for k, v in raw["keys"].items()})


@dataclass
class Report:
    """What one sync did, in counts (never text)."""

    machine: str = ""
    published_objects: int = 0
    published_records: int = 0
    received: dict[str, int] = field(default_factory=dict)  # machine name → records
    rewritten: int = 0
    removed: int = 0
    waiting: list[str] = field(default_factory=list)  # gaps waited for
    problems: list[str] = field(default_factory=list)  # rollbacks, tampering: not applied
    new_machine_id: str = ""  # restored from an old backup
    files_up: int = 0  # files (blobs) uploaded
    files_down: int = 0  # files brought in
    files_waiting: int = 0  # files records here name that no machine's objects hold yet

    def to_json(self) -> dict[str, Any]:
        return {"machine": self.machine, "published_objects": self.published_objects,
                "published_records": self.published_records, "received": self.received,
                "rewritten": self.rewritten, "removed": self.removed,
                "waiting": self.waiting, "problems": self.problems,
                "new_machine_id": self.new_machine_id, "files_up": self.files_up,
                "files_down": self.files_down, "files_waiting": self.files_waiting}


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def newest_header(storage: Storage) -> KeyHeader | None:
    """The storage's key header in force: the highest epoch (then key id)."""
    headers = storage.headers()
    for _, key_id in reversed(headers):
        data = storage.read_header(key_id)
        if data is not None:
            return parse_header(data, key_id)
    return None


def _keep(record: dict[str, Any], deleted: set[str]) -> bool:
    """A delete record always stays (ids only); any other goes with its id or its
    conversation's."""
    if record.get("kind") == "delete":
        return True
    return record.get("id") not in deleted and record.get("conv") not in deleted


def _ids(sections: dict[int, list[dict[str, Any]]]) -> list[str]:
    """The global ids a delete everywhere can remove from these sections (a delete record
    names its conversation but always stays, so only its own id counts)."""
    found: set[str] = set()
    for records in sections.values():
        for record in records:
            if isinstance(gid := record.get("id"), str):
                found.add(gid)
            if isinstance(conv := record.get("conv"), str) and record.get("kind") != "delete":
                found.add(conv)
    return sorted(found)


def as_outgoing(record: dict[str, Any]) -> Outgoing:
    """A record of a feed that hands dicts, as one that writes its records hands it."""
    return Outgoing(encode_json(record), record["kind"], record["id"], record.get("conv"),
                    record if needs_reading(record) else None)


_turns_lock = threading.Lock()
_turns_asked: list[float] = []  # the interval before the first publish running asked


@contextmanager
def _prompt_turns() -> Iterator[None]:
    """While this thread writes payloads (pure Python, holding the interpreter lock), the
    upload worker needs the lock for a moment between each wait on the network: with the
    default 5 ms turns an upload took about twice as long beside a publish as alone, and the
    publish waited for it. Shorter turns while publishes run (two data directories may
    sync in one process), then as before the first."""
    with _turns_lock:
        _turns_asked.append(sys.getswitchinterval())
        sys.setswitchinterval(min(_turns_asked[-1], HANDOFF_S))
    try:
        yield
    finally:
        with _turns_lock:
            first = _turns_asked[0]
            _turns_asked.pop()
            if not _turns_asked:
                sys.setswitchinterval(first)


def _after(before: Future[None] | None, upload: Callable[..., None], *args: Any) -> None:
    """`upload(*args)` once the upload queued before it is in the storage (on the upload
    worker, which takes them in order): never after one that failed, so no object is in the
    storage while one before it is not."""
    if before is not None:
        before.result()
    upload(*args)


def _sealed_with(key: bytes, key_id: str, machine: str, seq: int,
                 payload: Fresh) -> tuple[bytes, str, int]:
    """The object file of `payload`, its digest and the payload's compressed size (on the
    sealing worker)."""
    data, packed = seal_measured(key, key_id, machine, seq, payload.joined())
    return data, digest(data), packed


def _delete_counts(records: list[dict[str, Any]]) -> list[tuple[int, int, int]]:
    counts = []
    for record in records:
        if record.get("kind") == "delete":
            targets = record.get("targets") or []
            kinds = record.get("counts") if isinstance(record.get("counts"), dict) else {}
            conversations = int(kinds.get("conversation", 1 if record.get("conv") in targets
                                          else 0))
            counts.append((conversations, int(kinds.get("turn", 0)), len(targets)))
    return counts


@dataclass(slots=True)
class _Sizing:
    """How many records a publish asks of the feed for its next object, learnt from what
    the pages before held (payload bytes per record) and what their objects packed to
    (compressed bytes per payload byte): as many as fill OBJECT_BUCKET to AIM. Until an
    object says how the text packs it is taken not to (the first objects land a class
    lower, never higher); the first page, of BATCH records, starts the uploads soon."""

    packed_per_byte: float = 1.0
    bytes_per_record: float = 0.0

    def _room(self) -> float:
        """The payload bytes the next object should hold."""
        return min(bucket_room(OBJECT_BUCKET) / self.packed_per_byte, OBJECT_PAYLOAD)

    def limit(self) -> int:
        if not self.bytes_per_record:
            return BATCH
        return max(1, min(MOST_RECORDS, int(AIM * self._room() / self.bytes_per_record)))

    def fits(self, payload: int) -> bool:
        return payload <= FILL * self._room()

    def fewer(self, records: int, payload: int) -> int:
        """Fewer records than `records` whose payload (`payload` bytes) did not fit."""
        return max(1, min(records - 1, int(records * AIM * self._room() / payload)))

    def read(self, records: int, payload: int) -> None:
        self.bytes_per_record = payload / records

    def packed(self, payload: int, packed: int) -> None:
        self.packed_per_byte = max(packed, 1) / payload


@dataclass(frozen=True, slots=True)
class _Sealed:
    """An object of this machine ready to upload."""

    item: PendingObject
    data: bytes
    after: int  # the feed's cursor past its records
    deletes: list[tuple[int, int, int]]
    records: int


@dataclass(slots=True)
class _Making:
    """What every object one publish makes says of this machine, and the next number."""

    machine: str
    name: str
    frontiers: dict[str, int]
    seq: int


@dataclass(frozen=True, slots=True)
class _Sealing:
    """An object of this machine whose payload is written and is being sealed (compressed,
    encrypted, its digest taken: work that lets go of the interpreter lock)."""

    seq: int
    after: int
    ids: list[str]
    deletes: list[tuple[int, int, int]]
    records: int
    payload: int  # bytes, before compressing
    sealing: Future[tuple[bytes, str, int]]

    def sealed(self, sizing: _Sizing) -> _Sealed:
        data, made_digest, packed = self.sealing.result()
        sizing.packed(self.payload, packed)
        item = PendingObject(self.seq, made_digest, self.after, self.ids, [])
        return _Sealed(item, data, self.after, self.deletes, self.records)


class _Inline:
    """Runs what it is given at once, on the calling thread (`ThreadPoolExecutor.submit`'s
    answer, for a feed read on one thread only)."""

    def submit(self, work: Callable[..., Any], *args: Any) -> Future[Any]:
        done: Future[Any] = Future()
        try:
            done.set_result(work(*args))
        except BaseException as err:  # handed on as the pool would: by result()
            done.set_exception(err)
        return done


@dataclass(frozen=True, slots=True)
class _Flight:
    sealed: _Sealed
    upload: Future[None]


class Engine:
    """One data directory's sync against one storage."""

    def __init__(self, feed: Feed, storage: Storage, state: SyncState, keys: Keys) -> None:
        self.feed, self.storage, self.state, self.keys = feed, storage, state, keys
        self._follow(state.machine_id)
        self.report = Report(machine=state.machine_name)
        self._opened: dict[tuple[str, int], None] = {}  # objects refused this sync
        self._checked: set[str] = set()  # machines checked for a rollback this sync

    def _follow(self, machine_id: str) -> None:
        """Tell the feed this machine's id: what the store keeps of it (a fork's "continued
        on", as other machines' records arrive with theirs, so every machine keeps the
        same; a name is shown from `name_machines`) and the node id of its clock."""
        if hasattr(self.feed, "follow_machine"):
            self.feed.follow_machine(machine_id)
        elif hasattr(self.feed, "machine"):
            self.feed.machine = machine_id

    def name_machines(self) -> None:
        """Tell the feed every machine's name the sync knows (its own, and the others' as
        their objects say)."""
        if hasattr(self.feed, "name_machines"):
            names = {m: p.name for m, p in self.state.peers().items()}
            self.feed.name_machines({**names, self.me: self.state.machine_name})

    @property
    def me(self) -> str:
        return self.state.machine_id

    # ----------------------------------------------------------------- the key
    def check_key(self) -> None:
        header = newest_header(self.storage)
        if header is None:
            raise SyncProblem("the sync storage holds no key header: is it the right place, "
                              "and (for a folder) has the sync program copied it yet?")
        if header.key_id in self.keys.by_id and not header.opens_with(
                self.keys.by_id[header.key_id]):
            # a key made from another passphrase under the same key id: refused before
            # anything is read or written
            raise WrongPassphrase("the key in this machine's keyring does not open the sync "
                                  "storage")
        if header.key_id not in self.keys.by_id:
            raise PassphraseChanged(
                "the sync passphrase was changed on another machine: enter the new one with "
                "`turnlog-cli sync passphrase --passphrase-file FILE` (or -)")
        if header.key_id != self.keys.current:
            self.keys.current = header.key_id
            self.state.put("key_id", header.key_id)
            self.state.put("reseal", 1)

    # ------------------------------------------------------- writing one object
    def write_object(self, sections: dict[int, list[dict[str, Any]]], covers: list[int], *,
                     cursor: int | None = None, replaces: list[int] | None = None,
                     forgotten: list[str] | None = None,
                     deletes: list[tuple[int, int, int]] | None = None) -> int:
        """Seal and write one object of this machine under its next number."""
        seq = self.state.next_seq()
        sealed = self._seal(seq, self._payload(seq, sections, covers, forgotten or []))
        item = PendingObject(seq, digest(sealed), cursor, _ids(sections), replaces or [])
        with self.state.transaction():
            self.state.add_pending(item)
        self.storage.write(self.me, seq, sealed)
        self.state.finish_pending(item, deletes or ())
        for old in item.replaces:
            self.storage.remove(self.me, old)
            self.report.removed += 1
        return seq

    # -------------------------------------------------- what a killed sync left
    def recover(self) -> None:
        """Finish or forget an object being written; remove objects already replaced;
        take a new machine id when the storage knows more of this machine than its state."""
        self.storage.clean_temporary(self.me)
        for item in self.state.pending():
            data = self.storage.read(self.me, item.seq)
            if data is not None and digest(data) == item.digest:
                self.state.finish_pending(item)
            elif data is None or is_incomplete(data):
                if data is not None:  # an upload cut off: never readable, written again
                    self.storage.remove(self.me, item.seq)
                with self.state.transaction():
                    self.state.drop_pending(item.seq)
            else:
                raise SyncProblem(f"this machine's object {item.seq} in the storage is not the "
                                  "one it wrote; another Turnlog uses this machine's id")
        own = self.state.own()
        for seq in sorted(self.storage.listing(self.me).objects):
            known = own.get(seq)
            if known is None:
                self._restored()
                return
            if not known[1]:
                self.storage.remove(self.me, seq)  # replaced; its removal was interrupted
                self.report.removed += 1

    def _restored(self) -> None:
        old = self.me
        new = new_machine_id()
        self.state.take_new_machine_id(new)
        self._follow(new)
        self.report.new_machine_id = new
        self.report.problems.append(
            f"this machine's state is older than the storage (restored from a backup?): it "
            f"continues as a new machine id {new[:8]} and reads its old objects ({old[:8]})")

    def _payload(self, seq: int, sections: dict[int, list[dict[str, Any]]],
                 covers: list[int], forgotten: list[str]) -> bytes:
        return Payload(self.me, self.state.machine_name, seq, now(), [*covers, seq], sections,
                       self.state.frontiers(), forgotten).to_bytes()

    def _seal(self, seq: int, payload: bytes) -> bytes:
        return seal(self.keys.by_id[self.keys.current], self.keys.current, self.me, seq,
                    payload)

    # ------------------------------------------------------------- publishing
    def publish(self) -> None:
        """This machine's new change records, as many an object as fill OBJECT_BUCKET
        (`_Sizing`), in four lanes: a reader reads the feed's next page (`_reader`) while
        this thread sizes the object of the page before and SEALERS workers join and seal
        the objects before it (compressing is much of a first sync's work, and lets go of
        the interpreter lock) and another uploads them, one at a time and back to back.
        Each object is noted as pending (sealed) before its upload is queued, and is made
        live once it is in the storage, in the transaction that notes a later one: the
        rules at the top hold for each object, and no upload waits for a transaction (a
        commit waits for the disk; it runs while the upload before is on its way). An
        upload queued behind one that failed is never made (`_after`); an object sealed but
        never noted was never written."""
        cursor = self.state.cursor
        made = _Making(self.me, self.state.machine_name, self.state.frontiers(),
                       self.state.next_seq())
        sizing = _Sizing()
        sealings: deque[_Sealing] = deque()
        flight: _Flight | None = None  # queued or uploading, noted as pending
        landed: _Sealed | None = None  # in the storage, not yet live in the state
        with ThreadPoolExecutor(1, thread_name_prefix="sync-upload") as uploads, \
                ThreadPoolExecutor(SEALERS, thread_name_prefix="sync-seal") as sealer, \
                self._reader() as reader, _prompt_turns():
            ahead = reader.submit(self._outgoing, cursor, sizing.limit())
            try:
                while True:
                    while len(sealings) < SEALERS and (page := ahead.result()).count:
                        sealings.append(self._sealing(made, cursor, page, sealer, sizing))
                        made.seq, cursor = made.seq + 1, sealings[-1].after
                        ahead = reader.submit(self._outgoing, cursor, sizing.limit())
                    if not sealings:
                        break
                    sealed = sealings.popleft().sealed(sizing)
                    self._note(sealed, landed)  # while the upload before is on its way
                    landed = None
                    upload = uploads.submit(_after, flight and flight.upload,
                                            self.storage.write, made.machine,
                                            sealed.item.seq, sealed.data)
                    if flight is not None:
                        flight.upload.result()
                        landed = flight.sealed
                    flight = _Flight(sealed, upload)
                if flight is not None:
                    flown, flight = flight, None
                    self._live(landed)
                    landed = None
                    flown.upload.result()
                    self._live(flown.sealed)
            except BaseException:
                # A failure on the way: what reached the storage is made live (the upload on
                # its way ends first); the rest stays pending, for the next sync's recovery.
                with suppress(Exception):
                    self._live(landed)
                    if flight is not None and not flight.upload.cancel():
                        flight.upload.result()
                        self._live(flight.sealed)
                raise
        if page.after != self.state.cursor:  # records the feed skipped
            with self.state.transaction():
                self.state.put("cursor", page.after)

    @contextmanager
    def _reader(self) -> Iterator[ThreadPoolExecutor | _Inline]:
        """Where a publish reads the feed's next page while this thread hands the page
        before to the sealers: a thread of its own when the feed can be read there (it has
        `close_reading`: reading is a first sync's largest part, most of it in SQLite,
        which lets go of the interpreter lock), its connection closed at the end; else this
        thread."""
        if not hasattr(self.feed, "close_reading"):
            yield _Inline()
            return
        with ThreadPoolExecutor(1, thread_name_prefix="sync-read") as reader:
            try:
                yield reader
            finally:
                reader.submit(self.feed.close_reading).result()

    def _outgoing(self, cursor: int, limit: int) -> OutgoingPage:
        """The feed's next records after `cursor`, as their JSON (written here when the
        feed hands dicts)."""
        if hasattr(self.feed, "outgoing_page"):
            return self.feed.outgoing_page(cursor, limit)
        if hasattr(self.feed, "outgoing_json"):
            return OutgoingPage.of(*self.feed.outgoing_json(cursor, limit))
        records, after = self.feed.outgoing(cursor, limit)
        return OutgoingPage.of((as_outgoing(record) for record in records), after)

    def _sealing(self, made: _Making, cursor: int, page: OutgoingPage,
                 sealer: ThreadPoolExecutor, sizing: _Sizing) -> _Sealing:
        """This machine's next object of `page` (the feed's records after `cursor`, fewer
        of them again until `sizing` expects them to fit its bucket), its payload handed to
        `sealer` to be joined and sealed."""
        seq = made.seq
        while True:
            payload = Payload.fresh(made.machine, made.name, seq, now(), made.frontiers,
                                    page)
            size = payload.size
            sizing.read(page.count, size)
            if sizing.fits(size) or page.count == 1:
                break
            page = self._outgoing(cursor, sizing.fewer(page.count, size))
        blobs.upload(self, page.read)  # before the records that name them
        key_id = self.keys.current
        sealing = sealer.submit(_sealed_with, self.keys.by_id[key_id], key_id, made.machine, seq,
                                payload)
        return _Sealing(seq, page.after, sorted(page.ids), _delete_counts(page.read),
                        page.count, size, sealing)

    def _note(self, sealed: _Sealed, landed: _Sealed | None) -> None:
        """`sealed` noted as pending, and `landed` (in the storage) made live, at once."""
        if landed is None:
            with self.state.transaction():
                self.state.add_pending(sealed.item)
            return
        self.state.finish_pending(landed.item, landed.deletes, then=sealed.item)
        self._count(landed)

    def _live(self, landed: _Sealed | None) -> None:
        """An object in the storage made live (its own transaction: the last one)."""
        if landed is not None:
            self.state.finish_pending(landed.item, landed.deletes)
            self._count(landed)

    def _count(self, landed: _Sealed) -> None:
        self.report.published_objects += 1
        self.report.published_records += landed.records

    # ------------------------------------------------------------------ reading
    def open_object(self, machine: str, seq: int) -> tuple[str, Payload] | None:
        """(digest, payload) of another machine's object, or None while it is not readable
        yet (absent, still being written); a tampered or malformed one is named."""
        if (machine, seq) in self._opened:
            return self._opened[(machine, seq)]
        data = self.storage.read(machine, seq)
        opened = None
        if data is not None:
            try:
                key_id = key_id_of(data)
                key = self.keys.by_id.get(key_id)
                if key is None:
                    raise SyncCryptoError("it is sealed with a key this machine does not hold "
                                          "(the passphrase was changed?)")
                payload = parse_payload(open_sealed(key, machine, seq, data), machine, seq)
                opened = (digest(data), payload)
            except Incomplete:
                return None  # looked at again on the next sync
            except (SyncCryptoError, PayloadInvalid) as err:
                self.report.problems.append(f"object {seq} of machine {machine[:8]} is not "
                                            f"applied: {err}")
                self._opened[(machine, seq)] = None  # named once per sync
        return opened

    def read_all(self) -> None:
        """Other machines' objects, each in sequence order; a record refused because it
        needs another machine's records first is tried again after the others."""
        machines = [m for m in self.storage.machines() if m != self.me]
        forgotten = set(self.state.forgotten())
        blocked: dict[str, str] = {}
        for _ in range(len(machines) + 1):
            progress = False
            for machine in machines:
                if machine not in forgotten:
                    progress |= self.read_machine(machine, blocked)
                forgotten = set(self.state.forgotten())
            if not progress:
                break
        for machine, why in blocked.items():
            self.report.waiting.append(f"machine {machine[:8]}: {why}")

    def read_machine(self, machine: str, blocked: dict[str, str]) -> bool:
        """Apply `machine`'s next sections in sequence order, opening its objects one at a
        time (further ahead only to find a rewritten object that stands for a missing
        one). True when anything was applied."""
        present = self.storage.listing(machine).objects
        peer = self.state.peer(machine)
        if machine not in self._checked:  # once a sync: over a network, each is a request
            self._checked.add(machine)
            self._check_rollback(machine, present, peer.frontier)
        ahead = iter(sorted(s for s in present if s > peer.frontier))
        covers: dict[int, tuple[str, Payload]] = {}
        progress, at = False, peer.frontier + 1
        blocked.pop(machine, None)
        while True:
            while at not in covers and (seq := next(ahead, None)) is not None:
                opened = self.open_object(machine, seq)
                if opened is not None:
                    self._note_forgotten(opened[1])
                    covers.update((c, opened) for c in opened[1].covers if c >= at)
            if at not in covers:
                break
            seen, payload = covers.pop(at)
            records = payload.sections.pop(at, [])
            try:
                if records:
                    self.feed.incoming(records, machine)
            except SyncRecordInvalid as err:
                blocked[machine] = f"object {at} waits: {err}"
                return progress
            with self.state.transaction():
                self.state.mark_applied(machine, at, seen, payload.name, payload.at,
                                        payload.read.get(self.me, 0))
            if records:
                self.report.received[payload.name] = (
                    self.report.received.get(payload.name, 0) + len(records))
            progress, at = True, at + 1
        if covers or any(s >= at for s in present):
            blocked[machine] = f"waiting for its object {at} (not in the storage yet)"
        return progress

    def _check_rollback(self, machine: str, present: dict[int, Any], frontier: int) -> None:
        if not frontier:
            return
        if present and max(present) < frontier:
            self.report.problems.append(
                f"machine {machine[:8]}: the storage holds its objects only up to "
                f"{max(present)}, but {frontier} were read: rolled back, or the sync program "
                "has not caught up")
        if frontier in present:
            known = self.state.applied_digest(machine, frontier)
            data = self.storage.read(machine, frontier)
            if known and data is not None and digest(data) != known:
                self.report.problems.append(
                    f"machine {machine[:8]}: its object {frontier} changed after it was read "
                    "(a rollback or tampering): not applied")

    def _note_forgotten(self, payload: Payload) -> None:
        for machine in payload.forgotten:
            if machine == self.me:
                self.report.problems.append(f"machine {payload.name} forgot this machine")
            elif machine not in self.state.forgotten():
                with self.state.transaction():
                    self.state.forget(machine)

    # -------------------------------------------------- rewriting after deletes
    def rewrite(self, seqs: list[int], keep: Callable[[dict[str, Any]], bool]) -> None:
        """Write each of this machine's objects `seqs` again, without what `keep` refuses,
        under the current key and a new number, then remove it."""
        for seq in seqs:
            data = self.storage.read(self.me, seq)
            if data is None:
                self.report.problems.append(f"this machine's object {seq} is missing from the "
                                            "storage; it cannot be rewritten")
                continue
            key_id = key_id_of(data)
            payload = parse_payload(open_sealed(self.keys.by_id[key_id], self.me, seq, data),
                                    self.me, seq)
            sections = {c: [r for r in records if keep(r)]
                        for c, records in payload.sections.items()}
            self.write_object({c: r for c, r in sections.items() if r}, payload.covers,
                              replaces=[seq], forgotten=payload.forgotten)
            self.report.rewritten += 1

    def compact(self) -> None:
        deleted = self.feed.deleted()
        if deleted:
            holding = self.state.objects_holding(deleted)
            self.rewrite(holding, lambda record: _keep(record, deleted))
        reseal = self.state.get("reseal") == "1"
        blobs.tidy(self, deleted, reseal)
        if reseal:
            stale = [s for s in self.state.live_objects()
                     if (data := self.storage.read(self.me, s)) is not None
                     and key_id_of(data) != self.keys.current]
            self.rewrite(stale, lambda record: _keep(record, deleted))
            self.state.put("reseal", 0)

    def acknowledge(self, before: dict[str, int]) -> None:
        """An object carrying only how far this machine has read the others, when that moved
        and nothing else was written (the others' status shows who has synced since)."""
        if not self.report.published_objects and self.state.frontiers() != before:
            self.write_object({}, [])


def sync_now(feed: Feed, storage: Storage, state: SyncState, keys: Keys) -> Report:
    """One whole sync; what went up and down."""
    storage.refresh()
    engine = Engine(feed, storage, state, keys)
    engine.check_key()
    engine.recover()
    before = state.frontiers()
    engine.read_all()
    engine.name_machines()
    blobs.fetch(engine)
    engine.publish()
    engine.compact()
    engine.acknowledge(before)
    with state.transaction():
        state.put("last_sync", now())
        state.put("last_problems", len(engine.report.problems))
    return engine.report


def forget(feed: Feed, storage: Storage, state: SyncState, keys: Keys, machine: str) -> int:
    """Forget a machine that will never return: its live records are written again in this
    machine's objects (in its order), then its objects are removed. Returns the records
    republished."""
    storage.refresh()
    engine = Engine(feed, storage, state, keys)
    engine.check_key()
    engine.recover()
    deleted = feed.deleted()
    sections: list[list[dict[str, Any]]] = []
    present = storage.listing(machine).objects
    covered: dict[int, list[dict[str, Any]]] = {}
    for seq in sorted(present):
        opened = engine.open_object(machine, seq)
        if opened is not None:
            covered.update(opened[1].sections)
    for c in sorted(covered):
        sections.append([r for r in covered[c] if _keep(r, deleted)])
    records = [r for section in sections for r in section]
    blobs.upload(engine, records)  # its files are removed with it
    chunks = [records[i:i + BATCH] for i in range(0, len(records), BATCH)] or [[]]
    for index, chunk in enumerate(chunks):
        seq = state.next_seq()
        engine.write_object({seq: chunk} if chunk else {}, [],
                            forgotten=[machine] if index == len(chunks) - 1 else [])
    with state.transaction():
        state.forget(machine)
    storage.remove_machine(machine)
    return len(records)


def change_passphrase(storage: Storage, state: SyncState, keys: Keys, passphrase: bytes,
                      save: Callable[[Keys], None]) -> str:
    """Take the passphrase the storage's newest key was made with (another machine changed
    it), or make a new key header for `passphrase`; `save` keeps the keys (in the keyring)
    before the storage names a new one. This machine's objects are sealed again with the new
    key on the next sync. Returns "joined" or "changed"."""
    storage.refresh()
    header = newest_header(storage)
    if header is not None and header.key_id not in keys.by_id:
        keys.by_id[header.key_id] = header.key_for(passphrase)
        outcome = "joined"
        key_id = header.key_id
        keys.current = key_id
        save(keys)
    else:
        epoch = (header.epoch if header else 0) + 1
        key_id = f"{epoch:06d}-{state.machine_id}"
        new, key = new_header(passphrase, key_id, epoch)
        keys.by_id[key_id] = key
        keys.current = key_id
        save(keys)  # kept before the storage names it: a kill here loses no key in use
        storage.write_header(key_id, new.to_bytes())
        outcome = "changed"
    with state.transaction():
        state.put("key_id", key_id)
        state.put("reseal", 1)
    return outcome


def set_up(storage: Storage, state: SyncState, passphrase: bytes, name: str,
           save: Callable[[str, Keys], None]) -> Keys:
    """Join `storage` (or start it, when it holds no key header yet) as a new
    machine called `name`. A passphrase the storage's key check refuses raises
    WrongPassphrase before anything is written. `save(keyring_user, keys)` keeps the key
    (in the keyring) before the storage or the state names it."""
    machine = new_machine_id()
    storage.refresh()
    header = newest_header(storage) if storage.exists() else None
    if header is not None:
        keys = Keys(header.key_id, {header.key_id: header.key_for(passphrase)})
        save(machine, keys)
    else:
        key_id = f"{1:06d}-{machine}"
        new, key = new_header(passphrase, key_id, 1)
        keys = Keys(key_id, {key_id: key})
        save(machine, keys)
        storage.create()
        storage.write_header(key_id, new.to_bytes())
    state.set_up(machine, name, storage.config, keys.current)
    with state.transaction():
        state.put("keyring_user", machine)
    return keys
