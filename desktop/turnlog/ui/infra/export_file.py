"""Where an export goes and how it is written: the file and its format, written whole or
not at all."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class ExportTarget:
    path: Path
    fmt: str  # "markdown" or "jsonl", as turnlog.formats.export names them


def write_export(path: Path, text: str) -> int:
    """Write `text` as UTF-8 next to `path`, then move it into place, so an existing file
    is never left half-written. Returns the bytes written."""
    data = text.encode("utf-8")
    partial = path.with_name(f".{path.name}.part")
    try:
        with partial.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return len(data)
