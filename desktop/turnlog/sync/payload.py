"""What a sync object holds once opened, and how it is read within bounds.

    {"v": 1, "machine": "<machine id>", "name": "<machine name>", "seq": 12,
     "at": "<UTC time it was written>",
     "covers": [5, 7, 12],                 # the sequence numbers it stands for
     "sections": {"5": [records], "7": [records]},   # the records of each, oldest first
     "read": {"<machine id>": 40},         # how far this machine had read each other one
     "forgotten": ["<machine id>"]}        # machines forgotten, their content republished

A fresh object covers its own number only. An object rewritten (a delete everywhere removed
some of its records, or the passphrase changed) is written again under a new number that
covers the old ones, before the old one is removed: a reader that had not read them yet
finds their records there, in order, and no gap.

That is format 1: one JSON document. A new object of plain turns (most of a first sync) is
written in format 2: the document (no raw newline in it), a newline, and the turns' text
by columns, which the document describes:

    "turns": {"5": {"count": 1700,                # plain turns in section 5
                    "at": [0, 101],               # the places of its records among all
                    "fields": ["id", "conv", …],  # TURN_COLUMNS: each turn's fields
                    "lengths": [[32, …], …]}}     # each field's values' lengths in bytes
                                                  # (-1: null), the values in that order

The columns hold each field's values (UTF-8) one after another, field after field,
section after section in order of number; read back, each turn is the record its JSON
would be (`{"v": 1, "kind": "turn", "id": …}`) and is checked as any other. Writing them
needs no JSON escaping of the text (the largest cost of a first sync's reading) and
compresses as well. Format 1 is still written where no plain turns are (a rewritten
object, a list-shaped feed) and read by every Turnlog; a Turnlog that reads only format 1
says an object is of a format it does not know."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import islice, pairwise
from typing import Any

from ..store.sync_records import FORMAT as RECORD_FORMAT
from ..store.sync_records import TURN_COLUMNS
from ..system.user_files import depth_exceeds
from .seam import OutgoingPage

PAYLOAD_FORMAT = 1  # one JSON document
COLUMNS_FORMAT = 2  # the document, a newline, then plain turns by columns
MAX_DEPTH = 48
MAX_RECORDS = 50_000
MAX_COVERS = 1_000_000
MAX_NAME = 200
MAX_MACHINES = 10_000


class PayloadInvalid(ValueError):
    """An opened object whose content breaks the format or its bounds."""


def plain_json(document: dict[str, Any]) -> bytes:
    """Compact UTF-8 JSON, as the standard library writes it."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


def _encoder() -> Callable[[dict[str, Any]], bytes]:
    """msgspec's encoder where the sync extra is installed: the document `plain_json` writes
    (the same bytes but for how some floats are spelled, 1e16 for 1e+16), about fifteen
    times faster (a first sync spent a fifth of its time here)."""
    try:
        import msgspec
    except ImportError:  # a folder sync without the sync extra
        return plain_json
    fast = msgspec.json.Encoder().encode

    def encode(document: dict[str, Any]) -> bytes:
        try:
            return fast(document)
        except (TypeError, OverflowError, msgspec.EncodeError):  # what only json takes
            return plain_json(document)

    return encode


encode_json = _encoder()


@dataclass(slots=True)
class Payload:
    machine: str
    name: str
    seq: int
    at: str
    covers: list[int]
    sections: dict[int, list[dict[str, Any]]]
    read: dict[str, int] = field(default_factory=dict)
    forgotten: list[str] = field(default_factory=list)

    def to_bytes(self) -> bytes:
        return encode_json({
            "v": PAYLOAD_FORMAT, "machine": self.machine, "name": self.name, "seq": self.seq,
            "at": self.at, "covers": sorted(self.covers),
            "sections": {str(s): records for s, records in sorted(self.sections.items())},
            "read": self.read, "forgotten": self.forgotten,
        })

    @staticmethod
    def fresh(machine: str, name: str, seq: int, at: str, read: dict[str, int],
              page: OutgoingPage) -> Fresh:
        """The payload of a new object covering its own number only, holding `page`: its
        records as their JSON are joined as they are (`Fresh.joined`), never read again;
        its plain turns by columns (format 2, or format 1, what `to_bytes` writes, when
        it has none)."""
        fmt = PAYLOAD_FORMAT if page.turns is None else COLUMNS_FORMAT
        head = encode_json({"v": fmt, "machine": machine, "name": name, "seq": seq, "at": at,
                            "covers": [seq], "read": read, "forgotten": []})
        opening = b"".join((head[:-1], b',"sections":{"', str(seq).encode(), b'":['))
        if page.turns is None:
            return Fresh(opening, page.json)
        turns = page.turns
        tail = b"".join((
            b']},"turns":{"', str(seq).encode(), b'":{"count":', str(turns.count).encode(),
            b',"at":', encode_json(list(page.at)), b',"fields":', _FIELDS, b',"lengths":[',
            b",".join(b"[" + lengths.encode() + b"]" for lengths in turns.lengths),
            b"]}}}\n"))
        return Fresh(opening, page.json, tail, turns.data)

    def ids(self) -> set[str]:
        """Every global id its records carry (their own and their conversation's)."""
        found: set[str] = set()
        for records in self.sections.values():
            for record in records:
                found.update(v for v in (record.get("id"), record.get("conv"))
                             if isinstance(v, str))
        return found


@dataclass(frozen=True, slots=True)
class Fresh:
    """A new object's payload before it is joined: its size is known at once (what sizes
    the next object), the bytes are made by `joined` (on the sealing worker: copying the
    records is a first sync's largest copy)."""

    head: bytes
    records: Sequence[bytes]
    tail: bytes = b"]}}"
    columns: Sequence[bytes] = ()

    @property
    def size(self) -> int:
        return (len(self.head) + sum(map(len, self.records)) + max(len(self.records) - 1, 0)
                + len(self.tail) + sum(map(len, self.columns)))

    def joined(self) -> bytes:
        return b"".join((self.head, b",".join(self.records), self.tail, *self.columns))


_FIELDS = json.dumps(list(TURN_COLUMNS), separators=(",", ":")).encode()


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise PayloadInvalid(what)


def parse_payload(data: bytes, machine: str, seq: int) -> Payload:
    """The payload of the object named `machine`/`seq`, every part checked."""
    document, newline, columns = data.partition(b"\n")
    try:
        raw = json.loads(document)
    except RecursionError:
        raise PayloadInvalid("it is nested too deeply") from None
    except ValueError as err:
        raise PayloadInvalid(f"it is not JSON ({err})") from None
    _check(not depth_exceeds(raw, MAX_DEPTH), "it is nested too deeply")
    _check(not (isinstance(raw, dict) and _whole(raw.get("v")) and raw["v"] > COLUMNS_FORMAT),
           "it is of a newer format than this Turnlog reads (update Turnlog here)")
    _check(isinstance(raw, dict) and (raw.get("v"), bool(newline)) in (
        (PAYLOAD_FORMAT, False), (COLUMNS_FORMAT, True)),
           "it is of a format this Turnlog does not know")
    _check(raw.get("machine") == machine and raw.get("seq") == seq,
           "its content names another machine or number than its file")
    name, at = raw.get("name"), raw.get("at")
    _check(isinstance(name, str) and 0 < len(name) <= MAX_NAME, "its machine name is invalid")
    _check(isinstance(at, str) and len(at) <= 40, "its time is invalid")
    covers = raw.get("covers")
    _check(isinstance(covers, list) and len(covers) <= MAX_COVERS
           and all(_whole(c) and 0 < c <= seq for c in covers) and seq in covers,
           "its list of numbers it stands for is invalid")
    sections = _sections(raw.get("sections"), set(covers))
    if newline:
        _with_turns(sections, raw.get("turns"), columns)
    read = raw.get("read", {})
    _check(isinstance(read, dict) and len(read) <= MAX_MACHINES
           and all(isinstance(k, str) and len(k) <= 64 and _whole(v) for k, v in read.items()),
           "its read marks are invalid")
    forgotten = raw.get("forgotten", [])
    _check(isinstance(forgotten, list) and len(forgotten) <= MAX_MACHINES
           and all(isinstance(m, str) and len(m) <= 64 for m in forgotten),
           "its forgotten machines are invalid")
    return Payload(machine, name, seq, at, covers, sections, read, forgotten)


def _sections(raw: object, covers: set[int]) -> dict[int, list[dict[str, Any]]]:
    _check(isinstance(raw, dict), "its sections are invalid")
    assert isinstance(raw, dict)
    sections: dict[int, list[dict[str, Any]]] = {}
    count = 0
    for key, records in raw.items():
        _check(isinstance(key, str) and key.isdigit() and int(key) in covers,
               "a section names a number the object does not stand for")
        _check(isinstance(records, list) and all(isinstance(r, dict) for r in records),
               "a section's records are invalid")
        count += len(records)
        _check(count <= MAX_RECORDS, f"it holds more than {MAX_RECORDS:,} records")
        sections[int(key)] = records
    return sections


def _with_turns(sections: dict[int, list[dict[str, Any]]], blocks: object,
                columns: bytes) -> None:
    """Format 2: each section's plain turns, read from `columns` as `blocks` describes
    them, put among its records at their places."""
    _check(isinstance(blocks, dict) and bool(blocks) and all(
        isinstance(key, str) and key.isdigit() and int(key) in sections for key in blocks),
        "its turns name a number the object does not stand for")
    assert isinstance(blocks, dict)
    total = sum(map(len, sections.values()))
    offset = 0
    for key in sorted(blocks, key=int):
        block, records = blocks[key], sections[int(key)]
        _check(isinstance(block, dict) and block.get("fields") == list(TURN_COLUMNS),
               "its turns have fields this Turnlog does not know")
        count, at, lengths = block.get("count"), block.get("at"), block.get("lengths")
        _check(_whole(count) and count > 0, "its count of turns is invalid")
        total += count
        _check(total <= MAX_RECORDS, f"it holds more than {MAX_RECORDS:,} records")
        _check(isinstance(at, list) and len(at) == len(records)
               and all(_whole(place) for place in at)
               and all(a < b for a, b in pairwise(at)), "its records' places are invalid")
        _check(isinstance(lengths, list) and len(lengths) == len(TURN_COLUMNS) and all(
            isinstance(sizes, list) and len(sizes) == count and all(
                isinstance(n, int) and not isinstance(n, bool) and n >= -1 for n in sizes)
            for sizes in lengths), "its turns' lengths are invalid")
        values = []
        for sizes in lengths:
            column, offset = _column(columns, offset, sizes)
            values.append(column)
        turns = [{"v": RECORD_FORMAT, "kind": "turn", **dict(zip(TURN_COLUMNS, fields,
                                                                  strict=True))}
                 for fields in zip(*values, strict=True)]
        sections[int(key)] = _placed(records, at, turns)
    _check(offset == len(columns), "its turns' text is longer than it says")


def _column(columns: bytes, offset: int, sizes: list[int]) -> tuple[list[str | None], int]:
    """One field's values from `offset` on, and the offset past them."""
    values: list[str | None] = []
    try:
        for size in sizes:
            if size < 0:
                values.append(None)
                continue
            end = offset + size
            _check(end <= len(columns), "its turns' text is shorter than it says")
            values.append(columns[offset:end].decode())
            offset = end
    except UnicodeDecodeError:
        raise PayloadInvalid("its turns' text is not UTF-8") from None
    return values, offset


def _placed(records: list[dict[str, Any]], at: list[int],
            turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`records` at the places `at` (ascending) and `turns` in order in the places between."""
    placed: list[dict[str, Any]] = []
    rest = iter(turns)
    for place, record in zip(at, records, strict=True):
        placed.extend(islice(rest, place - len(placed)))
        _check(len(placed) == place, "its records' places are invalid")
        placed.append(record)
    placed.extend(rest)
    return placed
