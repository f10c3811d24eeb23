"""Real files for the attachment tests, made here: PDFs with and without a text layer,
PNG and JPEG images (with a marker in their metadata), text in several encodings."""

from __future__ import annotations

import io
import zlib
from pathlib import Path

from PIL import Image, PngImagePlugin


def pdf_bytes(pages: list[str | None]) -> bytes:
    """A PDF with one page per item: a line of Helvetica text, or (None) a page whose
    only content is a drawn rectangle, as a scan's page has no text layer."""
    objects: list[bytes] = []
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(len(pages)))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    font = 3 + 2 * len(pages)
    for i, text in enumerate(pages):
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font} 0 R >> >> >>".encode())
        if text is None:
            stream = b"0.5 g 72 72 468 648 re f"
        else:
            escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            stream = f"BT /F1 12 Tf 72 720 Td ({escaped}) Tj ET".encode("latin-1")
        packed = zlib.compress(stream)
        objects.append(f"<< /Length {len(packed)} /Filter /FlateDecode >>\nstream\n".encode()
                       + packed + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
              .encode())
    return out.getvalue()


def png_bytes(width: int, height: int, *, marker: str = "", color=(200, 40, 40)) -> bytes:
    image = Image.new("RGB", (width, height), color)
    for x in range(0, width, 7):  # some detail, so a downscale is not trivial
        image.putpixel((x, (x * 3) % height), (10, 200, 10))
    info = PngImagePlugin.PngInfo()
    if marker:
        info.add_text("Comment", marker)
    out = io.BytesIO()
    image.save(out, "PNG", pnginfo=info)
    return out.getvalue()


def jpeg_bytes(width: int, height: int, *, marker: str = "", color=(30, 60, 200)) -> bytes:
    image = Image.new("RGB", (width, height), color)
    for x in range(0, width, 5):
        image.putpixel((x, (x * 7) % height), (250, 250, 0))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85, comment=marker.encode() if marker else b"")
    return out.getvalue()


def write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path
