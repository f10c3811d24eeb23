"""Hostile PDFs for the tests, made here (plain PDF syntax, no library): a stream that
inflates to 1 GiB, 40 pages sharing one 70 MiB stream, 100,000 pages in about 16 MB."""

from __future__ import annotations

import io
import zlib
from collections.abc import Iterable

MIB = 1024 * 1024


def assemble(objects: Iterable[bytes]) -> bytes:
    """A PDF of `objects` (object 1 the catalogue), with its cross-reference table."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n"
              % (len(offsets) + 1, xref))
    return out.getvalue()


def _deflated_text(size: int) -> bytes:
    """A content stream of `size` bytes (text drawn again and again), deflated."""
    unit = b"BT /F1 12 Tf 72 720 Td (inflate) Tj ET\n"
    packer = zlib.compressobj(1)
    block = unit * (MIB // len(unit))
    parts = [packer.compress(block) for _ in range(size // len(block))]
    parts.append(packer.flush())
    return b"".join(parts)


def _stream(packed: bytes) -> bytes:
    return (b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed) + packed
            + b"\nendstream")


def _pages(count: int, contents: list[int], font: int) -> list[bytes]:
    kids = b" ".join(b"%d 0 R" % (3 + i) for i in range(count))
    out = [b"<< /Type /Catalog /Pages 2 0 R >>",
           b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % count]
    out += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
            b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (contents[i], font)
            for i in range(count)]
    return out


FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def inflating(size: int = 1024 * MIB) -> bytes:
    """One page whose content stream inflates to `size` bytes."""
    return assemble([*_pages(1, [4], 5), _stream(_deflated_text(size)), FONT])


def shared_stream(pages: int = 40, size: int = 70 * MIB) -> bytes:
    """`pages` pages whose contents are all the one stream of `size` bytes."""
    stream, font = 3 + pages, 4 + pages
    return assemble([*_pages(pages, [stream] * pages, font), _stream(_deflated_text(size)),
                     FONT])


def many_pages(pages: int = 100_000) -> bytes:
    """`pages` pages (about 16 MB for 100,000) sharing one line of text."""
    stream, font = 3 + pages, 4 + pages
    text = b"BT /F1 12 Tf 72 720 Td (one of the many pages) Tj ET"
    return assemble([*_pages(pages, [stream] * pages, font),
                     b"<< /Length %d >>\nstream\n" % len(text) + text + b"\nendstream", FONT])
