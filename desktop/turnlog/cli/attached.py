"""--attach FILE: the files of a question, read before anything connects or is sent."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Any

    from ..core.attachments import Attachment


def add_attach(p: Any, more: str = "") -> None:
    p.add_argument("--attach", action="append", default=[], metavar="FILE",
                   help="attach a text file, PDF or image to the question (repeatable)" + more)


def read_attached(names: Sequence[str]) -> list[Attachment]:
    """The files in order; raises `AttachmentRefused` (its name and reason) for the first
    that cannot be attached, or that would take the question past a limit."""
    if not names:
        return []
    from ..formats.file_reading import read_file  # the bounded reader: a sending command's

    files: list[Attachment] = []
    for name in names:
        files.append(read_file(Path(name), attached=files))
    return files


