"""Reading a file to attach: what it is (by its content, not its name) and what is sent.

- Text and code: UTF-8 (a byte-order mark is honoured, UTF-16 too), else the encoding
  charset-normalizer finds (GBK, Big5, Shift-JIS, …), named on the attachment; text that
  is in no encoding it can tell is refused with that reason.
- PDFs: their text, page by page (pypdf), each page headed with its number; a page with
  no text layer says so, and a PDF with none at all (a scan) says that instead of
  sending nothing.
- Images (PNG, JPEG, WebP, GIF's first frame, by Pillow): sent as they are, or, when
  their longest side is over the limit, downscaled (the original is kept beside it).

Every refusal is an `AttachmentRefused` naming the file and the reason; a file over the
size limit is refused before it is read.
"""

from __future__ import annotations

import hashlib
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.attachments import (
    DEFAULT_FILE_COUNT,
    DEFAULT_FILE_LIMIT,
    DEFAULT_LONGEST_SIDE,
    DEFAULT_QUESTION_LIMIT,
    Attachment,
    AttachmentKind,
    AttachmentRefused,
    size_text,
)
from ..system.user_files import FileRefused, open_regular

if TYPE_CHECKING:
    from PIL.Image import Image as PilImage

log = logging.getLogger(__name__)

_IMAGE_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)
# Formats that are neither text nor anything Turnlog reads, told by their first bytes.
_OTHER_MAGIC = (
    (b"PK\x03\x04", "a ZIP archive (or an Office document)"),
    (b"\x7fELF", "a program"),
    (b"MZ", "a Windows program"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!", "a RAR archive"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"BM", "a BMP image"),
    (b"SQLite format 3\x00", "a SQLite database"),
)
_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig", ""), (b"\xff\xfe", "utf-16-le", "UTF-16"),
         (b"\xfe\xff", "utf-16-be", "UTF-16"))
# What the chip calls an encoding charset-normalizer names.
_ENCODING_NAMES = {
    "gb18030": "GBK", "gbk": "GBK", "gb2312": "GBK", "big5": "Big5", "big5hkscs": "Big5",
    "shift_jis": "Shift-JIS", "cp932": "Shift-JIS", "euc_jp": "EUC-JP", "euc_kr": "EUC-KR",
    "cp949": "EUC-KR", "utf_16": "UTF-16", "cp1252": "Windows-1252", "latin_1": "Latin-1",
    "cp1251": "Windows-1251", "koi8_r": "KOI8-R",
}


@dataclass(frozen=True, slots=True)
class AttachmentLimits:
    """Bounds on what one question may carry (bytes of the files as they were read)."""

    per_file: int = DEFAULT_FILE_LIMIT
    per_question: int = DEFAULT_QUESTION_LIMIT
    count: int = DEFAULT_FILE_COUNT
    longest_side: int = DEFAULT_LONGEST_SIDE

    def check_file(self, name: str, size: int) -> None:
        if size > self.per_file:
            raise AttachmentRefused(
                name, f"it is {size_text(size)}, and a file may be at most "
                f"{size_text(self.per_file)}")

    def check_question(self, attached: Sequence[Attachment], name: str, size: int) -> None:
        """Whether a file of `size` bytes may join `attached`."""
        self.check_file(name, size)
        if len(attached) >= self.count:
            raise AttachmentRefused(
                name, f"a question may carry at most {self.count} files")
        total = sum(a.size for a in attached) + size
        if total > self.per_question:
            raise AttachmentRefused(
                name, f"with it the question's files would take {size_text(total)}, and a "
                f"question may carry at most {size_text(self.per_question)}")


DEFAULT_LIMITS = AttachmentLimits()
MAX_PIXELS = 50_000_000  # an image larger than this is refused rather than decoded
_FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp", "GIF": "image/gif"}


def read_file(path: Path, *, limits: AttachmentLimits = DEFAULT_LIMITS,
              attached: Sequence[Attachment] = ()) -> Attachment:
    """Read `path` as an attachment that may join `attached` (the question's others)."""
    return read_bytes(path.name, file_bytes(path, limits=limits, attached=attached),
                      limits=limits, attached=attached)


def file_bytes(path: Path, *, limits: AttachmentLimits = DEFAULT_LIMITS,
               attached: Sequence[Attachment] = ()) -> bytes:
    """The bytes of `path`, through the one reader of named files (a regular file only,
    never more than the limit and one byte); `AttachmentRefused` with the reason."""
    name = path.name
    try:
        with open_regular(path) as opened:
            limits.check_question(attached, name, opened.size)  # before reading a byte
            data = opened.read_at_most(limits.per_file)
    except FileRefused as err:
        raise AttachmentRefused(name, err.reason) from err
    except FileNotFoundError as err:
        raise AttachmentRefused(name, "it cannot be read (there is no such file)") from err
    limits.check_file(name, len(data))  # it grew while it was read
    return data


def read_bytes(name: str, data: bytes, *, limits: AttachmentLimits = DEFAULT_LIMITS,
               attached: Sequence[Attachment] = ()) -> Attachment:
    """`data` (a file's content, a pasted image) as an attachment named `name`."""
    limits.check_question(attached, name, len(data))
    if not data:
        raise AttachmentRefused(name, "it is empty")
    if data.startswith(b"%PDF-"):
        return _pdf(name, data)
    if _image_mime(data) is not None:
        return _image(name, data, limits.longest_side)
    for magic, what in _OTHER_MAGIC:
        if data.startswith(magic):
            raise AttachmentRefused(
                name, f"it is {what}, not text, a PDF or an image Turnlog reads (PNG, JPEG, "
                "WebP, GIF)")
    return _text(name, data)


def _image_mime(data: bytes) -> str | None:
    for magic, mime in _IMAGE_MAGIC:
        if data.startswith(magic):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def _made(name: str, kind: AttachmentKind, mime: str, data: bytes, sent: bytes, **more: object
          ) -> Attachment:
    return Attachment(name=name, kind=kind, mime=mime, size=len(data),
                      digest=hashlib.sha256(data).hexdigest(), sent=sent, original=data,
                      **more)  # type: ignore[arg-type]


# ------------------------------------------------------------------------- text
def _text(name: str, data: bytes) -> Attachment:
    text, encoding = _decode(name, data)
    bad = next((c for c in text if (ord(c) < 32 and c not in "\t\n\r\f\v")
                or 0xFFF9 <= ord(c) <= 0xFFFD), None)
    if bad is not None:
        raise AttachmentRefused(
            name, f"it holds binary data (character U+{ord(bad):04X}), not text")
    text = text.replace("\r\n", "\n")
    return _made(name, AttachmentKind.TEXT, "text/plain", data, text.encode("utf-8"),
                 encoding=encoding)


def _decode(name: str, data: bytes) -> tuple[str, str]:
    """The text and the encoding it was read in ("" for UTF-8)."""
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(codec), label
            except UnicodeDecodeError as err:
                raise AttachmentRefused(
                    name, f"it starts as {label or 'UTF-8'} but byte {err.start + len(bom):,} "
                    "is not") from err
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError:
        pass
    if b"\x00" in data:
        raise AttachmentRefused(name, "it holds binary data, not text")
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None or best.chaos > 0.3:
        raise AttachmentRefused(
            name, "its text is not UTF-8 and its encoding could not be told (it may not "
            "be text)")
    return str(best), _ENCODING_NAMES.get(best.encoding, best.encoding.replace("_", "-"))


# ------------------------------------------------------------------------- PDF
def _pdf(name: str, data: bytes) -> Attachment:
    """Its text, read in a bounded child process (`pdf_text`); past a limit, the first
    pages, and the chip and the text both say what was left out and why."""
    from .pdf_text import PdfUnreadable, read_pdf

    try:
        read = read_pdf(data)
    except PdfUnreadable as err:
        raise AttachmentRefused(name, str(err)) from err
    pages = read.pages
    if not pages:
        raise AttachmentRefused(name, "the PDF has no pages")
    failed = set(read.unreadable)
    if len(failed) == len(pages) and not read.partial:
        raise AttachmentRefused(name, f"no page of the PDF could be read: page 1 {pages[0]}")
    blank = [n for n, text in enumerate(pages, start=1) if not text.strip() and n not in failed]
    notes: tuple[str, ...]
    if len(blank) == len(pages) and not read.partial:
        count = f"{len(pages)} page" + ("s" if len(pages) != 1 else "")
        text = (f"[{name} is a scanned PDF of {count}: it has no text layer, so its "
                "content could not be read as text]")
        notes = ("scanned: no text layer",)
    else:
        text = "\n\n".join(_pdf_page(n, body, n in failed)
                            for n, body in enumerate(pages, start=1))
        notes = tuple(f"page {n} has no text layer" for n in blank[:20])
        if len(blank) > 20:
            notes += (f"{len(blank) - 20} more pages have no text layer",)
        notes += tuple(f"page {n} could not be read" for n in sorted(failed)[:20])
    if read.partial:
        text = f"[{name}: only part of it is here — {read.partial}]\n\n{text}"
        notes = (f"partial: {read.partial}", *notes)
    return _made(name, AttachmentKind.PDF, "application/pdf", data, text.encode("utf-8"),
                 notes=notes)


def _pdf_page(number: int, body: str, failed: bool) -> str:
    if failed:
        return f"[page {number}: {body}]"
    return f"[page {number}]\n{body.strip()}" if body.strip() else \
        f"[page {number}: no text layer]"


# ----------------------------------------------------------------------- images
def _image(name: str, data: bytes, longest_side: int) -> Attachment:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            image.seek(0)  # a GIF's or an animated WebP's first frame
            width, height = image.size
            fmt = image.format or ""
            if width * height > MAX_PIXELS:
                raise AttachmentRefused(
                    name, f"it is {width:,}×{height:,} pixels, more than Turnlog reads "
                    f"({MAX_PIXELS // 1_000_000} million)")
            if fmt not in _FORMATS:
                raise AttachmentRefused(name, f"{fmt or 'this'} images are not read")
            animated = bool(getattr(image, "is_animated", False))
            if max(width, height) <= longest_side and not animated:
                image.load()  # a broken file is refused now, not by the server
                return _made(name, AttachmentKind.IMAGE, _FORMATS[fmt], data, data,
                             sent_mime=_FORMATS[fmt], width=width, height=height)
            return _scaled(name, data, image, fmt, longest_side, animated)
    except AttachmentRefused:
        raise
    except UnidentifiedImageError as err:  # its text names a memory address, not the file
        begun = (_image_mime(data) or "image/").removeprefix("image/").upper()
        raise AttachmentRefused(name, f"the image cannot be read: it begins as a {begun} "
                                "image, but the rest is damaged or cut short") from err
    except (Image.DecompressionBombError, OSError, SyntaxError) as err:
        raise AttachmentRefused(name, f"the image cannot be read ({err})") from err
    except Exception as err:  # Pillow's plugins raise what they raise
        # A decompression bomb in a PNG's text or colour profile (ValueError), a broken
        # header (struct.error, IndexError, …): the file is refused, naming the error.
        raise AttachmentRefused(
            name, f"the image cannot be read ({type(err).__name__}: {err})") from err


def _scaled(name: str, data: bytes, image: PilImage, fmt: str, longest_side: int,
            animated: bool) -> Attachment:
    from PIL import Image

    width, height = image.size
    frame = image.convert("RGBA" if fmt != "JPEG" else "RGB")
    notes: list[str] = []
    if animated:
        notes.append("first frame only")
    if max(width, height) > longest_side:
        frame.thumbnail((longest_side, longest_side), Image.Resampling.LANCZOS)
        notes.append(f"downscaled from {width}×{height}")
    out = io.BytesIO()
    if fmt == "JPEG":
        frame.save(out, "JPEG", quality=90)
        mime = "image/jpeg"
    else:
        frame.save(out, "PNG", optimize=True)
        mime = "image/png"
    log.debug("%s: %s×%s sent as %s×%s (%s)", name, width, height, *frame.size,
              size_text(out.tell()))
    return _made(name, AttachmentKind.IMAGE, _FORMATS[fmt], data, out.getvalue(),
                 sent_mime=mime, width=frame.width, height=frame.height, notes=tuple(notes))
