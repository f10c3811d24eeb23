"""A compressed body inflated piece by piece, each piece of a bounded size.

Turnlog asks for `Accept-Encoding: identity`, yet a proxy may compress anyway. zlib's
`max_length` keeps every piece small, so the limits that count a reply see its bytes as
they come instead of after a thousandfold inflation.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

# gzip, or zlib-wrapped deflate (and raw deflate, which some servers send as "deflate").
INFLATABLE = ("gzip", "x-gzip", "deflate")


class Inflater:
    """Feeds compressed bytes in, yields pieces of at most `piece` bytes out."""

    def __init__(self, encoding: str, piece: int) -> None:
        self.piece = piece
        self._deflate = encoding == "deflate"
        # 32 + MAX_WBITS: a gzip or zlib header, found from the first bytes.
        self._inflater = zlib.decompressobj(zlib.MAX_WBITS | 32)
        self._started = False
        self._head = b""

    def feed(self, data: bytes) -> Iterator[bytes]:
        if not self._started:
            data = self._head = self._head + data
            if len(data) < 2:  # too little yet to tell zlib's header from raw deflate
                return
            self._started = True
            if self._deflate and not _zlib_header(data):
                self._inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        while data:
            out = self._inflater.decompress(data, self.piece)
            if out:
                yield out
            data = self._inflater.unconsumed_tail
            while len(out) == self.piece and not data:  # output still held inside zlib
                out = self._inflater.decompress(b"", self.piece)
                if out:
                    yield out

    def finish(self) -> Iterator[bytes]:
        if not self._started and self._head:
            raise zlib.error("the compressed body ends before its header")
        while out := self._inflater.decompress(b"", self.piece):
            yield out
        if rest := self._inflater.flush():
            yield rest


def _zlib_header(data: bytes) -> bool:
    return len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0
