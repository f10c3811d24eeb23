"""The sync key and the sealed objects the storage holds.

The key is derived from the passphrase with scrypt (memory-hard; its parameters and a random
salt are kept in the storage's key header, so every machine derives the same key) and kept in
the OS keyring; the passphrase itself is never stored. Objects are sealed with AES-256-GCM
under a random 96-bit nonce.

An object file, byte by byte (format version 2):

    0       4   magic b"TLSO"
    4       1   format version (2; 1 is still read)
    5       1   length L of the key id (1..64)
    6       L   key id, ASCII: which key header's key sealed it
    6+L     8   length of ciphertext+tag, big-endian
    14+L    12  nonce
    26+L    …   ciphertext + 16-byte GCM tag

The associated data is the first 14+L bytes followed by `|machine id|sequence number`: an
object copied under another machine's name or another number does not open. The plaintext
is the payload compressed (format 2: a Zstandard frame; format 1, written by earlier
Turnlogs: zlib), prefixed with its 4-byte length and padded with zeros to a size bucket
(powers of two from 4 KiB), so the storage does not learn lengths. Either is decompressed as
a stream with a bound on its output, whatever size a frame declares.

A key header (`keys/<epoch:06d>-<machine id>.tlk`) is JSON: the format, its key id and epoch,
the scrypt parameters and salt, and a key check — a fixed text sealed with the key — that
refuses a wrong passphrase before anything is written.
"""

from __future__ import annotations

import base64
import json
import os
import struct
import zlib
from dataclasses import dataclass
from typing import Any

import zstandard
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

MAGIC = b"TLSO"
# The format objects are written in (2: Zstandard), and those still read (1: zlib, written by
# earlier Turnlogs).
FORMAT = 2
READABLE_FORMATS = (1, 2)
# The key header's own format, unchanged by the objects'.
HEADER_FORMAT = 1
NONCE_BYTES = 12
TAG_BYTES = 16
KEY_BYTES = 32
SMALLEST_BUCKET = 4096
# Zstandard's level 1: on varied chat text it packs as zlib's level 1 did at about three times
# its speed (zlib 1 at about 100 MB/s a core bound a first sync); levels 2 and 3 pack a tenth
# smaller at half to two thirds of the speed, and the padding to a power of two hides most of
# that difference in the object.
COMPRESSION = 1
# The largest payload an object carries once decompressed, and the largest sealed object:
# a record is at most 4 MiB, and the engine packs at most MAX_PAYLOAD of them in one object.
MAX_PAYLOAD = 32 * 1024 * 1024
MAX_SEALED = 2 * MAX_PAYLOAD + 1024
# How much of a Zstandard frame is read at once while decompressing it.
UNZSTD_READ = 128 * 1024
# scrypt: 2**17 × 8 × 128 bytes = 128 MiB of memory per derivation. A header asking for more
# than the bounds below is refused (a hostile storage cannot make a machine swap).
DEFAULT_KDF = {"n": 2**17, "r": 8, "p": 1}
KDF_BOUNDS = {"n": (2**10, 2**20), "r": (1, 16), "p": (1, 4)}
# Tests derive keys many times: `TURNLOG_SYNC_LIGHT_KDF=1` makes new headers with n=2**10.
ENV_LIGHT_KDF = "TURNLOG_SYNC_LIGHT_KDF"
KEY_CHECK_TEXT = b"turnlog-sync key check v1"
MAX_HEADER_BYTES = 4096


class SyncCryptoError(Exception):
    """An object or a key header that cannot be opened; the message says why in words."""


class WrongPassphrase(SyncCryptoError):
    """The passphrase does not open the storage's key check."""


class Tampered(SyncCryptoError):
    """A complete object whose authentication fails: changed, damaged, or moved under
    another name."""


class Incomplete(SyncCryptoError):
    """An object shorter than its header says: a sync program is still writing it."""


@dataclass(frozen=True, slots=True)
class KeyHeader:
    """One key header of the storage: what derives the key and checks it."""

    key_id: str
    epoch: int
    salt: bytes
    n: int
    r: int
    p: int
    check: bytes  # nonce + sealed KEY_CHECK_TEXT

    def to_json(self) -> dict[str, Any]:
        return {"turnlog_sync": HEADER_FORMAT, "key_id": self.key_id, "epoch": self.epoch,
                "kdf": {"name": "scrypt", "n": self.n, "r": self.r, "p": self.p,
                        "salt": base64.b64encode(self.salt).decode()},
                "check": base64.b64encode(self.check).decode()}

    def to_bytes(self) -> bytes:
        return json.dumps(self.to_json(), sort_keys=True).encode()

    def derive(self, passphrase: bytes) -> bytes:
        """The key this header's parameters derive from `passphrase`."""
        kdf = Scrypt(salt=self.salt, length=KEY_BYTES, n=self.n, r=self.r, p=self.p)
        return kdf.derive(passphrase)

    def opens_with(self, key: bytes) -> bool:
        try:
            text = AESGCM(key).decrypt(self.check[:NONCE_BYTES], self.check[NONCE_BYTES:],
                                       _check_aad(self.key_id))
        except InvalidTag:
            return False
        return text == KEY_CHECK_TEXT

    def key_for(self, passphrase: bytes) -> bytes:
        """The key, or WrongPassphrase when the key check does not open with it."""
        key = self.derive(passphrase)
        if not self.opens_with(key):
            raise WrongPassphrase("the passphrase is not the one this sync storage was set up "
                                  "with; nothing was written")
        return key


def _check_aad(key_id: str) -> bytes:
    return b"turnlog-sync key|" + key_id.encode()


def new_header(passphrase: bytes, key_id: str, epoch: int) -> tuple[KeyHeader, bytes]:
    """A new key header with a random salt, and the key it derives from `passphrase`."""
    params = dict(DEFAULT_KDF)
    if os.environ.get(ENV_LIGHT_KDF) == "1":
        params["n"] = 2**10
    salt = os.urandom(16)
    key = Scrypt(salt=salt, length=KEY_BYTES, **params).derive(passphrase)
    nonce = os.urandom(NONCE_BYTES)
    check = nonce + AESGCM(key).encrypt(nonce, KEY_CHECK_TEXT, _check_aad(key_id))
    return KeyHeader(key_id, epoch, salt, params["n"], params["r"], params["p"], check), key


def parse_header(data: bytes, key_id: str) -> KeyHeader:
    """The key header in `data` (named `key_id` by its file), within bounds, or
    SyncCryptoError saying what is wrong with it."""
    if len(data) > MAX_HEADER_BYTES:
        raise SyncCryptoError("the key header is larger than any Turnlog writes")
    try:
        raw = json.loads(data)
        kdf = raw["kdf"]
        params = {name: kdf[name] for name in ("n", "r", "p")}
        header = KeyHeader(raw["key_id"], raw["epoch"], base64.b64decode(kdf["salt"]),
                           params["n"], params["r"], params["p"],
                           base64.b64decode(raw["check"]))
    except (ValueError, KeyError, TypeError) as err:
        raise SyncCryptoError(f"the key header is not readable ({err})") from None
    if raw.get("turnlog_sync") != HEADER_FORMAT or kdf.get("name") != "scrypt":
        raise SyncCryptoError("the key header is of a format this Turnlog does not know")
    if header.key_id != key_id or not isinstance(header.epoch, int) or header.epoch < 1:
        raise SyncCryptoError("the key header's name and content do not match")
    for name, (low, high) in KDF_BOUNDS.items():
        value = params[name]
        if not isinstance(value, int) or not low <= value <= high:
            raise SyncCryptoError(f"the key header asks for scrypt {name}={value!r}, outside "
                                  f"{low}..{high}")
    if len(header.check) != NONCE_BYTES + len(KEY_CHECK_TEXT) + TAG_BYTES:
        raise SyncCryptoError("the key header's key check is damaged")
    return header


def _bucket(size: int) -> int:
    bucket = SMALLEST_BUCKET
    while bucket < size:
        bucket *= 2
    return bucket


def bucket_room(bucket: int) -> int:
    """How many compressed bytes an object padded to `bucket` holds (its length prefix
    takes the rest)."""
    return bucket - 4


def pad(payload: bytes) -> bytes:
    """`payload` compressed (a Zstandard frame), length-prefixed and padded with zeros to its
    size bucket."""
    return _padded(payload)[0]


def _padded(payload: bytes) -> tuple[bytes, int]:
    """`pad`'s bytes and how many of them the compressed payload takes."""
    packed = zstandard.ZstdCompressor(level=COMPRESSION).compress(payload)
    framed = struct.pack(">I", len(packed)) + packed
    return framed + bytes(_bucket(len(framed)) - len(framed)), len(packed)


def unpad(padded: bytes, fmt: int = FORMAT) -> bytes:
    """The payload `pad` made (or, for format 1, an earlier Turnlog's zlib), within
    MAX_PAYLOAD once decompressed."""
    if len(padded) < 4:
        raise Tampered("the object's content is too short")
    (length,) = struct.unpack(">I", padded[:4])
    if length > len(padded) - 4:
        raise Tampered("the object's content is damaged")
    packed = padded[4:4 + length]
    if fmt == 1:
        return _inflate(packed)
    return _unzstd(packed)


def _inflate(packed: bytes) -> bytes:
    inflate = zlib.decompressobj()
    try:
        payload = inflate.decompress(packed, MAX_PAYLOAD + 1)
    except zlib.error as err:
        raise Tampered(f"the object's content is damaged ({err})") from None
    if len(payload) > MAX_PAYLOAD or inflate.unconsumed_tail:
        raise Tampered("the object's content is larger than any Turnlog writes")
    return payload


def _unzstd(packed: bytes) -> bytes:
    """One whole Zstandard frame, read as a stream that stops past MAX_PAYLOAD: the size the
    frame declares bounds nothing, it only has to match what the frame gives (a frame cut
    short gives less)."""
    try:
        declared = zstandard.frame_content_size(packed)
        reader = zstandard.ZstdDecompressor().stream_reader(packed, read_size=UNZSTD_READ)
        payload = bytearray()
        while len(payload) <= MAX_PAYLOAD:
            chunk = reader.read(MAX_PAYLOAD + 1 - len(payload))
            if not chunk:
                break
            payload += chunk
    except zstandard.ZstdError as err:
        raise Tampered(f"the object's content is damaged ({err})") from None
    if len(payload) > MAX_PAYLOAD:
        raise Tampered("the object's content is larger than any Turnlog writes")
    if declared != len(payload):
        raise Tampered("the object's content is damaged (its frame is not whole)")
    return bytes(payload)


def _aad(head: bytes, machine: str, seq: int) -> bytes:
    return head + b"|" + machine.encode() + b"|" + str(seq).encode()


def seal(key: bytes, key_id: str, machine: str, seq: int, payload: bytes) -> bytes:
    """The object file for `payload`, named `machine`/`seq`, sealed under `key`."""
    return seal_measured(key, key_id, machine, seq, payload)[0]


def seal_measured(key: bytes, key_id: str, machine: str, seq: int,
                  payload: bytes) -> tuple[bytes, int]:
    """`seal`'s object file, and how many bytes the payload compressed to (what the writer
    learns to fill the next object's bucket from)."""
    kid = key_id.encode("ascii")
    if not 1 <= len(kid) <= 64:
        raise ValueError("a key id is 1 to 64 ASCII characters")
    padded, packed = _padded(payload)
    head = MAGIC + bytes([FORMAT, len(kid)]) + kid + struct.pack(">Q", len(padded) + TAG_BYTES)
    nonce = os.urandom(NONCE_BYTES)
    return head + nonce + AESGCM(key).encrypt(nonce, padded, _aad(head, machine, seq)), packed


def key_id_of(sealed: bytes) -> str:
    """Which key sealed an object (read from its clear header)."""
    if len(sealed) < 6:
        raise Incomplete("the object is still being written")
    if sealed[:4] != MAGIC:
        raise Tampered("the file is not a Turnlog sync object")
    if sealed[4] not in READABLE_FORMATS:
        raise SyncCryptoError(f"the object is of format {sealed[4]}, which this Turnlog "
                              "does not know; update Turnlog")
    length = sealed[5]
    if not 1 <= length <= 64:
        raise Tampered("the object's header is damaged")
    if len(sealed) < 6 + length:
        raise Incomplete("the object is still being written")
    try:
        return sealed[6:6 + length].decode("ascii")
    except UnicodeDecodeError:
        raise Tampered("the object's header is damaged") from None


def is_incomplete(sealed: bytes) -> bool:
    """Whether an object is shorter than its own header says (a sync program still copying
    it, or an upload cut off): looked at again later, or written again by its writer."""
    try:
        start = 6 + len(key_id_of(sealed))
    except Incomplete:
        return True
    except SyncCryptoError:
        return False
    if len(sealed) < start + 8:
        return True
    (length,) = struct.unpack(">Q", sealed[start:start + 8])
    return len(sealed) < start + 8 + NONCE_BYTES + length


def open_sealed(key: bytes, machine: str, seq: int, sealed: bytes) -> bytes:
    """The payload of an object named `machine`/`seq`: Incomplete while a sync program is
    still writing it, Tampered when a complete one does not authenticate."""
    kid = key_id_of(sealed)
    start = 6 + len(kid)
    if len(sealed) < start + 8:
        raise Incomplete("the object is still being written")
    (length,) = struct.unpack(">Q", sealed[start:start + 8])
    if length > MAX_SEALED:
        raise Tampered("the object says it is larger than any Turnlog writes")
    body = start + 8 + NONCE_BYTES
    if len(sealed) < body + length:
        raise Incomplete("the object is still being written")
    if len(sealed) > body + length:
        raise Tampered("the object is longer than its header says")
    head = sealed[:start + 8]
    try:
        padded = AESGCM(key).decrypt(sealed[start + 8:body], sealed[body:],
                                     _aad(head, machine, seq))
    except InvalidTag:
        raise Tampered("the object does not authenticate: it was changed, damaged, or "
                       "moved under another name") from None
    return unpad(padded, sealed[4])
