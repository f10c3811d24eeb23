"""The sealed object format and the key header: what opens, what is refused and named, what
sizes the storage can see, and a key derivation that is memory-hard by default."""

from __future__ import annotations

import json
import os
import struct
import zlib

import pytest
import zstandard
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from turnlog.sync import crypto
from turnlog.sync.crypto import (
    ENV_LIGHT_KDF,
    SMALLEST_BUCKET,
    Incomplete,
    SyncCryptoError,
    Tampered,
    WrongPassphrase,
    new_header,
    open_sealed,
    parse_header,
    seal,
)
from turnlog.sync.payload import Payload, PayloadInvalid, parse_payload

KEY = bytes(range(32))
MACHINE = "0123456789abcdef0123456789abcdef"


def test_an_object_opens_under_its_own_name_only():
    sealed = seal(KEY, "000001-k", MACHINE, 7, b"payload")
    assert open_sealed(KEY, MACHINE, 7, sealed) == b"payload"
    with pytest.raises(Tampered, match="moved under another name"):
        open_sealed(KEY, MACHINE, 8, sealed)
    with pytest.raises(Tampered):
        open_sealed(KEY, "f" * 32, 7, sealed)
    with pytest.raises(Tampered):
        open_sealed(bytes(32), MACHINE, 7, sealed)
    flipped = bytearray(sealed)
    flipped[-1] ^= 0x40
    with pytest.raises(Tampered):
        open_sealed(KEY, MACHINE, 7, bytes(flipped))
    with pytest.raises(Tampered, match="longer than its header"):
        open_sealed(KEY, MACHINE, 7, sealed + b"x")


def test_a_partial_object_is_incomplete_not_tampered():
    sealed = seal(KEY, "000001-k", MACHINE, 1, b"x" * 100)
    for cut in (10, 30, len(sealed) // 2, len(sealed) - 1):
        with pytest.raises(Incomplete):
            open_sealed(KEY, MACHINE, 1, sealed[:cut])


def test_sizes_are_buckets_and_nonces_are_fresh():
    small = seal(KEY, "000001-k", MACHINE, 1, b"a")
    other = seal(KEY, "000001-k", MACHINE, 1, os.urandom(3000))
    assert len(small) == len(other)  # both in the 4 KiB bucket
    larger = seal(KEY, "000001-k", MACHINE, 1, os.urandom(5000))
    assert len(larger) - len(small) == 4096  # the next bucket, 8 KiB
    assert seal(KEY, "000001-k", MACHINE, 1, b"a") != small


def _framed(packed: bytes) -> bytes:
    return struct.pack(">I", len(packed)) + packed


def _sealed_as(fmt: int, packed: bytes, seq: int = 1) -> bytes:
    """An object of format `fmt` whose payload is `packed` as it stands (how an earlier
    Turnlog, or a hostile writer holding the key, would seal it)."""
    padded = _framed(packed) + bytes(SMALLEST_BUCKET - 4 - len(packed) % SMALLEST_BUCKET)
    kid = b"000001-k"
    head = crypto.MAGIC + bytes([fmt, len(kid)]) + kid + struct.pack(">Q", len(padded) + 16)
    nonce = os.urandom(12)
    return head + nonce + AESGCM(KEY).encrypt(nonce, padded, head + f"|{MACHINE}|{seq}".encode())


def test_objects_are_written_in_format_2_and_an_earlier_format_1_still_opens():
    sealed = seal(KEY, "000001-k", MACHINE, 1, b"payload " * 1000)
    assert sealed[4] == 2
    assert open_sealed(KEY, MACHINE, 1, sealed) == b"payload " * 1000
    older = _sealed_as(1, zlib.compress(b"an earlier Turnlog's records", 1))
    assert open_sealed(KEY, MACHINE, 1, older) == b"an earlier Turnlog's records"


def test_an_object_of_a_newer_format_is_named():
    newer = _sealed_as(3, zstandard.ZstdCompressor().compress(b"records"))
    with pytest.raises(SyncCryptoError, match="format 3.*update Turnlog"):
        open_sealed(KEY, MACHINE, 1, newer)


@pytest.mark.parametrize("fmt, bomb", [
    (1, zlib.compress(bytes(crypto.MAX_PAYLOAD + 10))),
    (2, zstandard.ZstdCompressor(level=1).compress(bytes(crypto.MAX_PAYLOAD + 10))),
    # A frame that declares a small size and inflates past MAX_PAYLOAD all the same.
    (2, zstandard.ZstdCompressor(write_content_size=False).compress(
        bytes(crypto.MAX_PAYLOAD + 10))),
])
def test_a_compression_bomb_is_refused(fmt, bomb):
    assert len(bomb) < 64 * 1024
    with pytest.raises(Tampered, match="larger than any"):
        crypto.unpad(_framed(bomb), fmt)
    with pytest.raises(Tampered, match="larger than any"):
        open_sealed(KEY, MACHINE, 1, _sealed_as(fmt, bomb))


def test_a_damaged_frame_is_refused_as_tampered():
    frame = zstandard.ZstdCompressor(level=1).compress(os.urandom(20000) + bytes(20000))
    cut = frame[:len(frame) // 2]
    garbled = frame[:8] + bytes(64) + frame[72:]
    for damaged in (cut, garbled, b"not a frame at all", b""):
        with pytest.raises(Tampered, match="damaged"):
            open_sealed(KEY, MACHINE, 1, _sealed_as(2, damaged))
    with pytest.raises(Tampered, match="damaged"):
        open_sealed(KEY, MACHINE, 1, _sealed_as(2, frame + b"trailing"))


def test_the_default_key_derivation_is_memory_hard(monkeypatch):
    monkeypatch.delenv(ENV_LIGHT_KDF, raising=False)
    header, key = new_header(b"pass", "000001-k", 1)
    assert (header.n, header.r) == (2**17, 8)  # 128 MiB per derivation
    assert header.key_for(b"pass") == key and len(key) == 32


def test_a_wrong_passphrase_fails_the_key_check(monkeypatch):
    monkeypatch.setenv(ENV_LIGHT_KDF, "1")
    header, key = new_header(b"right", "000001-k", 1)
    again = parse_header(header.to_bytes(), "000001-k")
    assert again.key_for(b"right") == key
    with pytest.raises(WrongPassphrase):
        again.key_for(b"wrong")


@pytest.mark.parametrize("change, says", [
    ({"kdf": {"name": "scrypt", "n": 2**30, "r": 8, "p": 1, "salt": "AAAA"}}, "outside"),
    ({"key_id": "000002-other"}, "do not match"),
    ({"turnlog_sync": 9}, "format"),
    ({"check": "AAAA"}, "damaged"),
])
def test_a_hostile_key_header_is_refused_and_named(monkeypatch, change, says):
    monkeypatch.setenv(ENV_LIGHT_KDF, "1")
    header, _ = new_header(b"p", "000001-k", 1)
    raw = {**header.to_json(), **change}
    with pytest.raises(SyncCryptoError, match=says):
        parse_header(json.dumps(raw).encode(), "000001-k")


def _payload(**change) -> bytes:
    raw = {"v": 1, "machine": MACHINE, "name": "laptop", "seq": 3, "at": "t",
           "covers": [3], "sections": {"3": [{"id": "x"}]}, "read": {}, "forgotten": []}
    return json.dumps({**raw, **change}).encode()


@pytest.mark.parametrize("change, says", [
    ({"seq": 4}, "another machine or number"),
    ({"covers": [3, 9]}, "stands for"),
    ({"sections": {"5": []}}, "does not stand for"),
    ({"sections": {"3": "text"}}, "records are invalid"),
    ({"name": "x" * 500}, "machine name"),
    ({"read": {"m": -1}}, "read marks"),
    ({"v": 2}, "format"),
])
def test_an_opened_payload_is_checked_within_bounds(change, says):
    assert parse_payload(_payload(), MACHINE, 3).sections == {3: [{"id": "x"}]}
    with pytest.raises(PayloadInvalid, match=says):
        parse_payload(_payload(**change), MACHINE, 3)


def test_deep_nesting_and_too_many_records_are_refused():
    deep: object = "x"
    for _ in range(100):
        deep = [deep]
    with pytest.raises(PayloadInvalid, match="nested"):
        parse_payload(_payload(sections={"3": [{"id": "x", "deep": deep}]}), MACHINE, 3)
    many = Payload(MACHINE, "m", 3, "t", [3], {3: [{}] * 50_001}).to_bytes()
    with pytest.raises(PayloadInvalid, match="more than"):
        parse_payload(many, MACHINE, 3)
