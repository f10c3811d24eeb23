"""Attachments: the files and images of a question, as a request carries them.

A text file or a PDF goes into the question's text as a delimited block named after the
file (the text as read: decoded, or extracted page by page); an image goes as an
`image_url` content part holding a base64 data URL of the image as sent (downscaled
when large). Reading files is not done here (that is I/O): `turnlog.attachments` reads
them and gives back `Attachment` values.

An attachment belongs to its turn: its bytes and tokens are part of the turn's cost, so
projection keeps or drops the turn with all of its files. Once a turn with an image is
no longer sent verbatim, its image is never sent again: the summary input names it
("[image: name, W×H]").
"""

from __future__ import annotations

import enum
import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

MB = 1_000_000
DEFAULT_FILE_LIMIT = 20 * MB
DEFAULT_QUESTION_LIMIT = 50 * MB
DEFAULT_FILE_COUNT = 10
DEFAULT_LONGEST_SIDE = 2_048


class AttachmentKind(enum.Enum):
    TEXT = "text"
    PDF = "pdf"
    IMAGE = "image"


class AttachmentRefused(ValueError):
    """A file that cannot be attached: its name and the reason, in plain words."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason
        super().__init__(f"{name} cannot be attached: {reason}.")


def size_text(size: int) -> str:
    """1,234 bytes, 12.3 KB, 4.5 MB (decimal units, as file managers show them)."""
    if size < 1_000:
        return f"{size:,} bytes"
    if size < MB:
        return f"{size / 1_000:.1f} KB"
    return f"{size / MB:.1f} MB"


@dataclass(frozen=True, slots=True)
class Attachment:
    """One file of a question. `sent` is what the request carries: the text as UTF-8 for
    a text file or a PDF, the image's bytes (`sent_mime`) for an image. `digest` is the
    SHA-256 of the original file; `original` holds its bytes only until it is stored
    (a turn read back leaves it out: the store gives it on demand)."""

    name: str
    kind: AttachmentKind
    mime: str
    size: int
    digest: str
    sent: bytes = field(repr=False)
    sent_mime: str = "text/plain"
    width: int = 0  # an image's, as sent
    height: int = 0
    encoding: str = ""  # the encoding a text file was read in ("" for UTF-8)
    notes: tuple[str, ...] = ()  # pages without a text layer, a downscale, …
    original: bytes | None = field(default=None, repr=False, compare=False)
    # When a later import added it to a turn imported before (ISO time; "": asked with
    # the question). A request made before then did not carry it.
    added_at: str = field(default="", compare=False)

    @property
    def text(self) -> str:
        """A text file's or a PDF's text as sent ("" for an image)."""
        return "" if self.kind is AttachmentKind.IMAGE else self.sent.decode("utf-8")

    @property
    def data_url(self) -> str:
        """An image as the request carries it (made once per image: every preview of the
        draft builds the body again)."""
        return _data_url(self.sent, self.sent_mime)

    @property
    def mention(self) -> str:
        """What stands in for the attachment where its content is not sent."""
        if self.kind is AttachmentKind.IMAGE:
            return f"[image: {self.name}, {self.width}×{self.height}]"
        return f"[file: {self.name}]"


def describe(attachment: Attachment) -> str:
    """One line about an attachment: "notes.txt — text, GBK, 1.2 KB",
    "photo.jpg — image, 2,048×1,536, 812.3 KB (downscaled from 4000×3000)"."""
    facts = [attachment.kind.value if attachment.kind is not AttachmentKind.PDF else "PDF"]
    if attachment.kind is AttachmentKind.IMAGE:
        facts.append(f"{attachment.width:,}×{attachment.height:,}")
    if attachment.encoding:
        facts.append(attachment.encoding)
    facts.append(size_text(attachment.size))
    notes = f" ({'; '.join(attachment.notes)})" if attachment.notes else ""
    added = f" · added by import on {added_on(attachment)}" if attachment.added_at else ""
    return f"{attachment.name} — {', '.join(facts)}{notes}{added}"


def added_on(attachment: Attachment) -> str:
    """The day a later import added the file (local time, YYYY-MM-DD; "" if it came with
    the question)."""
    if not attachment.added_at:
        return ""
    try:
        return datetime.fromisoformat(attachment.added_at).astimezone().strftime("%Y-%m-%d")
    except ValueError:
        return attachment.added_at[:10]


def added_after(attachment: Attachment, moment: str) -> bool:
    """Whether a later import added the file after `moment` (an ISO time): a request made
    then did not carry it."""
    if not attachment.added_at:
        return False
    try:
        return datetime.fromisoformat(attachment.added_at) > datetime.fromisoformat(moment)
    except (ValueError, TypeError):
        return True


_URLS: OrderedDict[int, tuple[bytes, str, str]] = OrderedDict()
_URLS_KEPT = 64


def _data_url(data: bytes, mime: str) -> str:
    found = _URLS.get(id(data))
    if found is not None and found[0] is data and found[1] == mime:
        _URLS.move_to_end(id(data))
        return found[2]
    import base64  # with the first image sent: a preview of text alone needs none

    url = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    _URLS[id(data)] = (data, mime, url)  # holding `data` keeps its id from being reused
    while len(_URLS) > _URLS_KEPT:
        _URLS.popitem(last=False)
    return url


def text_block(attachment: Attachment) -> str:
    """A text file or PDF inside the question: its text between lines naming it."""
    return (f"--- file: {attachment.name} ---\n{attachment.text}\n"
            f"--- end of file: {attachment.name} ---")


def user_text(question: str, attachments: Sequence[Attachment], *,
              images: bool = True) -> str:
    """The question's text with its files' blocks after it. With `images` off (a model
    that takes no images), each image is named in the text instead."""
    blocks = [text_block(a) if a.kind is not AttachmentKind.IMAGE else a.mention
              for a in attachments if a.kind is not AttachmentKind.IMAGE or not images]
    return "\n\n".join([question, *blocks]) if blocks else question


def image_urls(attachments: Sequence[Attachment], *, images: bool = True) -> tuple[str, ...]:
    if not images:
        return ()
    return tuple(a.data_url for a in attachments if a.kind is AttachmentKind.IMAGE)


def has_images(attachments: Sequence[Attachment]) -> bool:
    return any(a.kind is AttachmentKind.IMAGE for a in attachments)


# OpenAI's published rule for an image at "high"/"auto" detail: fit within 2,048 × 2,048,
# scale the shorter side down to 768, then 170 tokens per 512-px tile and 85 for the image.
TILE = 512
TILE_TOKENS = 170
IMAGE_BASE_TOKENS = 85


def image_tokens(width: int, height: int) -> int:
    """Input tokens of one image by OpenAI's tile rule (an estimate for other servers)."""
    if width <= 0 or height <= 0:
        return IMAGE_BASE_TOKENS
    w, h = float(width), float(height)
    if max(w, h) > 2_048:
        scale = 2_048 / max(w, h)
        w, h = w * scale, h * scale
    if min(w, h) > 768:
        scale = 768 / min(w, h)
        w, h = w * scale, h * scale
    tiles = math.ceil(w / TILE) * math.ceil(h / TILE)
    return IMAGE_BASE_TOKENS + TILE_TOKENS * tiles


def images_tokens(attachments: Sequence[Attachment], *, images: bool = True) -> int:
    if not images:
        return 0
    return sum(image_tokens(a.width, a.height) for a in attachments
               if a.kind is AttachmentKind.IMAGE)


@dataclass(frozen=True, slots=True)
class Question:
    """What the user asks: the text typed and the files attached to it."""

    text: str
    attachments: tuple[Attachment, ...] = ()


Asked = str | Question
"""A question as `project` takes it: text alone, or text with attachments."""


def question_of(asked: Asked) -> Question:
    return asked if isinstance(asked, Question) else Question(asked)
