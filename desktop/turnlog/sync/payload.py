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
finds their records there, in order, and no gap."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..system.user_files import depth_exceeds

PAYLOAD_FORMAT = 1
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
              records: Sequence[bytes]) -> Fresh:
        """The payload `to_bytes` writes for a new object covering its own number only,
        its records given as their JSON: joined as they are (`Fresh.joined`), never read
        again."""
        head = encode_json({"v": PAYLOAD_FORMAT, "machine": machine, "name": name, "seq": seq,
                            "at": at, "covers": [seq], "read": read, "forgotten": []})
        return Fresh(b"".join((head[:-1], b',"sections":{"', str(seq).encode(), b'":[')),
                     records)

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

    @property
    def size(self) -> int:
        return (len(self.head) + sum(map(len, self.records)) + max(len(self.records) - 1, 0)
                + len(_TAIL))

    def joined(self) -> bytes:
        return b"".join((self.head, b",".join(self.records), _TAIL))


_TAIL = b"]}}"


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise PayloadInvalid(what)


def parse_payload(data: bytes, machine: str, seq: int) -> Payload:
    """The payload of the object named `machine`/`seq`, every part checked."""
    try:
        raw = json.loads(data)
    except RecursionError:
        raise PayloadInvalid("it is nested too deeply") from None
    except ValueError as err:
        raise PayloadInvalid(f"it is not JSON ({err})") from None
    _check(not depth_exceeds(raw, MAX_DEPTH), "it is nested too deeply")
    _check(isinstance(raw, dict) and raw.get("v") == PAYLOAD_FORMAT,
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
