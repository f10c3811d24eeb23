"""The one way Turnlog reads a file a person names (an attachment, an import, a server
list to import, profiles.json, tools.json, a model file).

- It opens without blocking (`O_NONBLOCK`: a FIFO with no writer cannot hang it), then
  checks the opened descriptor with `fstat`, so what is read is what was checked: only a
  regular file is read; a folder, a device (`/dev/zero`), a FIFO or a socket is refused.
- A symbolic link the person points at is followed (`~/Documents` may be one), but in
  Turnlog's own data and configuration directories a link is refused, as the database's
  are: nothing else should be planted there.
- It reads at most its limit and one byte more, whatever the file claims its size is.
- JSON is read with a bound on how deep it nests, and as UTF-8 only.

Every refusal is a `FileRefused` whose `reason` says why in plain words; the caller turns
it into its own named failure (`attachment_refused`, `profiles_unreadable`, …).
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from turnlog.config.paths import data_dir_path

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import IO, Any

# Settings files nest a handful of levels; an `mcpServers` file a few more.
MAX_JSON_DEPTH = 64
_KINDS = (
    (stat.S_ISDIR, "it is a folder"),
    (stat.S_ISFIFO, "it is a pipe (FIFO), not a file"),
    (stat.S_ISCHR, "it is a device, not a file"),
    (stat.S_ISBLK, "it is a device, not a file"),
    (stat.S_ISSOCK, "it is a socket, not a file"),
)


class FileRefused(ValueError):
    """A named file that is not read: `reason` says why in plain words."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True, slots=True)
class OpenedFile:
    """A regular file, opened and checked: `size` as `fstat` saw it."""

    path: Path
    handle: IO[bytes]
    size: int

    def read_at_most(self, limit: int) -> bytes:
        """Up to `limit` + 1 bytes from here on: more than `limit` means "too large",
        whatever the size said (a file may grow while it is read)."""
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = _read(self.path, self.handle, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)


def _read(path: Path, handle: IO[bytes], count: int) -> bytes:
    try:
        return handle.read(count) or b""
    except OSError as err:
        raise FileRefused(path, f"it cannot be read ({err.strerror or err})") from err


def private_dirs() -> Iterator[Path]:
    """Turnlog's own folders, where a link is refused rather than followed: the data
    directory first, then the configuration folder (asked of `platformdirs`, loaded only
    for a file that is not in the data directory: profiles.json and tools.json are)."""
    yield data_dir_path()
    import platformdirs

    yield Path(platformdirs.user_config_dir("turnlog", False))


def _in_private_dir(path: Path) -> bool:
    try:
        folder = path.absolute().parent.resolve()
        return any(folder.is_relative_to(p.resolve()) for p in private_dirs())
    except (OSError, RuntimeError, ValueError):
        return True  # a folder that cannot be resolved gets the stricter rule


@contextmanager
def open_regular(path: Path) -> Iterator[OpenedFile]:
    """`path` opened for reading, if it is a regular file (see the module's rules).
    Raises `FileNotFoundError` when there is nothing there, `FileRefused` otherwise."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    links = _in_private_dir(path)
    if links:
        flags |= os.O_NOFOLLOW
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as err:
        if links and err.errno == errno.ELOOP:
            raise FileRefused(path, "it is a link in Turnlog's own folder, which Turnlog "
                              "does not follow") from err
        raise FileRefused(path, f"it cannot be opened ({err.strerror or err})") from err
    try:
        mode, size = _checked(path, fd)
        os.set_blocking(fd, True)  # a regular file: reads never wait anyway
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with handle:
        yield OpenedFile(path, handle, size)


def _checked(path: Path, fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    for kind, reason in _KINDS:
        if kind(info.st_mode):
            raise FileRefused(path, reason)
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused(path, "it is not a regular file")
    return info.st_mode, info.st_size


def read_limited(path: Path, limit: int, *, what: str = "file") -> bytes:
    """All of `path`, refused (`FileRefused`) when it holds more than `limit` bytes or is
    no regular file; `FileNotFoundError` when it is not there."""
    with open_regular(path) as opened:
        if opened.size > limit:
            raise FileRefused(path, _too_large(what, limit))
        data = opened.read_at_most(limit)
    if len(data) > limit:
        raise FileRefused(path, _too_large(what, limit))
    return data


def _too_large(what: str, limit: int) -> str:
    return f"it is larger than {limit:,} bytes, more than a {what} can be"


def read_json(path: Path, limit: int, *, what: str = "file",
              max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The JSON value in `path` (UTF-8, at most `limit` bytes, nesting at most
    `max_depth` deep); `FileRefused` naming the problem, `FileNotFoundError` if absent."""
    return parse_json(path, read_limited(path, limit, what=what), max_depth=max_depth)


def parse_json(path: Path, data: bytes, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """`data` (read from `path`) as JSON, with `read_json`'s rules."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FileRefused(path, f"it is not UTF-8 text (byte {err.start:,} is not)") from None
    try:
        value = json.loads(text)
    except RecursionError:
        raise FileRefused(path, "its JSON is nested too deeply") from None
    except ValueError as err:
        raise FileRefused(path, f"it is not JSON ({err})") from None
    if depth_exceeds(value, max_depth):
        raise FileRefused(path, "its JSON is nested too deeply")
    return value


def depth_exceeds(data: Any, limit: int) -> bool:
    """Whether `data` nests deeper than `limit` (iteratively: no recursion to exhaust)."""
    pending: list[tuple[Any, int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children
                       if isinstance(child, dict | list))
    return False
