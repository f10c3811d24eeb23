"""Read conversations from a file, whatever its kind, recognised by its content.

- Turnlog JSON lines (`turnlog-cli export`, File → Export…), one conversation;
- a folder or `.zip` made by Export all: one JSON-lines file per conversation;
- a ChatGPT data export: its `conversations.json`, the unpacked folder, or the `.zip`
  as downloaded (read in place, never unpacked to disk).

`Source.conversations()` reads the file from the start each time it is called, one
conversation at a time, so an import can check everything first and write after. A
conversation's turns are read as they are iterated, and must be read before the next
conversation is asked for: what is held is a batch, never a whole file or conversation.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ...core.attachments import DEFAULT_FILE_LIMIT
from ...core.imports import ImportedConversation, ImportProblem
from ...system.user_files import FileRefused, OpenedFile, open_regular, read_limited
from . import chatgpt, turnlog_jsonl

CHATGPT_FILE = "conversations.json"
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
# Bounds of one import: archive bombs and endless files end in a named problem, early.
MAX_CONVERSATIONS = 100_000
MAX_ATTACHMENT_BYTES = DEFAULT_FILE_LIMIT  # an attached file, as a question may carry
MAX_INFLATE_RATIO = 100  # real exports of JSON text compress 5 to 15 times
INFLATE_RATIO_AFTER = 64 << 20  # small members may compress better than that


class _Bounded(io.RawIOBase):
    """A zip member read through a bound on how much it inflates to, counted as read
    (the sizes an archive declares can lie)."""

    def __init__(self, member: IO[bytes], name: str, compressed: int) -> None:
        self._member, self._name = member, name
        self._limit = max(INFLATE_RATIO_AFTER, MAX_INFLATE_RATIO * max(compressed, 1))
        self._read = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._member.read(len(buffer))
        self._read += len(data)
        if self._read > self._limit:
            raise ImportProblem(
                f"{self._name} inflates to more than {MAX_INFLATE_RATIO} times its packed "
                f"size ({self._limit / (1 << 20):,.0f} MiB so far): not an export but an "
                "archive bomb; nothing was imported")
        buffer[:len(data)] = data
        return len(data)


@dataclass
class Source:
    """A file to import from and what kind it is."""

    path: Path
    kind: str  # "turnlog", "chatgpt", "turnlog-folder", "turnlog-zip", "chatgpt-zip", …
    members: tuple[str, ...] = ()
    model: str | None = None
    size: int = 0
    _tell: list[Any] = field(default_factory=list, repr=False)
    _done: int = 0

    @property
    def label(self) -> str:
        return {"turnlog": "Turnlog JSON lines", "chatgpt": "ChatGPT export",
                "chatgpt-zip": "ChatGPT export (.zip)", "chatgpt-folder": "ChatGPT export",
                "turnlog-folder": "Turnlog export folder",
                "turnlog-zip": "Turnlog export (.zip)"}[self.kind]

    def position(self) -> int:
        """How far into the file(s) reading has got, in bytes (for a progress bar)."""
        now = 0
        if self._tell:
            try:
                now = int(self._tell[-1].tell())
            except (OSError, ValueError):
                now = 0
        return min(self.size, self._done + now)

    def conversations(self) -> Iterator[ImportedConversation]:
        """Every conversation, read now; a problem is an `ImportProblem` naming the file
        (and, inside a folder or zip, the member)."""
        self._done = 0
        try:
            for count, conversation in enumerate(self._read(), start=1):
                if count > MAX_CONVERSATIONS:
                    raise ImportProblem(
                        f"the file holds more than {MAX_CONVERSATIONS:,} conversations, more "
                        "than one import takes; nothing was imported")
                yield conversation
        except UnicodeDecodeError as err:
            raise ImportProblem(f"the text is not UTF-8 ({err})") from None
        except (zipfile.BadZipFile, zlib.error, EOFError) as err:
            raise ImportProblem(f"the zip archive is damaged ({err})") from None

    def _read(self) -> Iterator[ImportedConversation]:
        if self.kind in ("turnlog", "chatgpt"):
            with self._open_file(self.path) as text:
                yield from self._parse(text, self.path.name)
        elif self.kind in ("turnlog-folder", "chatgpt-folder"):
            carried = _folder_files(self.path) if self.kind == "chatgpt-folder" else None
            for name in self.members:
                with self._open_file(self.path / name) as text:
                    yield from self._parse(text, name, inside=True, files=self._beside,
                                           carried=carried)
                self._done += (self.path / name).stat().st_size
        else:
            with ExitStack() as stack:
                raw = stack.enter_context(_opened(self.path)).handle
                self._tell[:] = [raw]
                archive = stack.enter_context(zipfile.ZipFile(raw))
                carried = _zip_files(archive) if self.kind == "chatgpt-zip" else None
                for name in self.members:
                    packed = archive.getinfo(name).compress_size
                    with archive.open(name) as member:
                        bounded = io.BufferedReader(_Bounded(member, name, packed))
                        text = io.TextIOWrapper(bounded, encoding="utf-8", errors="strict")
                        yield from self._parse(text, name, inside=True,
                                               files=lambda n, a=archive: _member(a, n),
                                               carried=carried)

    @contextmanager
    def _open_file(self, path: Path) -> Iterator[IO[str]]:
        with _opened(path, "" if path == self.path else path.name) as opened:
            self._tell[:] = [opened.handle]
            yield io.TextIOWrapper(opened.handle, encoding="utf-8", errors="strict")

    def _beside(self, name: str) -> bytes | None:
        """An attachment's file in an Export all folder."""
        return _attached_file(self.path / name)

    def _parse(self, text: IO[str], name: str, *, inside: bool = False,
               files: turnlog_jsonl.Files | None = None,
               carried: chatgpt.FileLookup | None = None) -> Iterator[ImportedConversation]:
        if self.kind.startswith("chatgpt"):
            yield from chatgpt.conversations(text, name, carried)
            return
        try:
            yield turnlog_jsonl.read(text, Path(name).stem, model=self.model, files=files)
        except ImportProblem as err:
            if inside:
                raise ImportProblem(f"{name}: {err}") from None
            raise


@contextmanager
def _opened(path: Path, member: str = "") -> Iterator[OpenedFile]:
    """`path` through the one reader of named files; `ImportProblem` saying why not
    (naming the `member` of a folder)."""
    where = f"{member}: " if member else ""
    try:
        with open_regular(path) as opened:
            yield opened
    except FileRefused as err:
        raise ImportProblem(f"{where}{err.reason}") from None
    except FileNotFoundError:
        raise ImportProblem(f"{where}there is no such file") from None


def _attached_file(path: Path) -> bytes | None:
    """A file an export carries beside its conversations (None: absent, not a regular
    file, or larger than a question may carry)."""
    try:
        return read_limited(path, MAX_ATTACHMENT_BYTES)
    except (FileRefused, FileNotFoundError):
        return None


def _member(archive: zipfile.ZipFile, name: str) -> bytes | None:
    """An attachment's file in an Export all zip, read within the bounds of one file."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        return None
    if info.file_size > MAX_ATTACHMENT_BYTES:
        return None
    with archive.open(info) as member:
        data = io.BufferedReader(_Bounded(member, name, info.compress_size)).read(
            MAX_ATTACHMENT_BYTES + 1)
    return data if len(data) <= MAX_ATTACHMENT_BYTES else None


# A ChatGPT export names the files it carries after their ids: "file-abc123-photo.png",
# "file_00000000b1c4…-3f2e….jpeg", sometimes in a folder of their own.
_FILE_ID = re.compile(r"(file[-_][A-Za-z0-9]+)")


def _file_ids(names: Iterable[str]) -> dict[str, str]:
    """File id → the member (or path) holding it."""
    found: dict[str, str] = {}
    for name in names:
        match = _FILE_ID.match(name.rsplit("/", 1)[-1])
        if match:
            found.setdefault(match.group(1), name)
    return found


def _zip_files(archive: zipfile.ZipFile) -> chatgpt.FileLookup:
    ids = _file_ids(i.filename for i in archive.infolist() if not i.is_dir())

    def lookup(file_id: str) -> tuple[str, bytes] | None:
        name = ids.get(file_id)
        data = _member(archive, name) if name is not None else None
        return (name, data) if name is not None and data is not None else None
    return lookup


def _folder_files(folder: Path) -> chatgpt.FileLookup:
    ids = _file_ids(str(p.relative_to(folder)) for p in folder.rglob("file*") if p.is_file())

    def lookup(file_id: str) -> tuple[str, bytes] | None:
        name = ids.get(file_id)
        data = _attached_file(folder / name) if name is not None else None
        return (name, data) if name is not None and data is not None else None
    return lookup


def _first_byte(head: bytes) -> bytes:
    return head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")[:4]


def open_source(path: Path, *, model: str | None = None) -> Source:
    """What `path` holds, found by its content; `ImportProblem` if nothing importable.
    `model` overrides a Turnlog file's model."""
    if path.is_dir():
        return _folder(path, model)
    with _opened(path) as opened:
        head, size = opened.read_at_most(4095), opened.size
    if head[:4] in _ZIP_MAGIC:
        return _zip(path, model, size)
    first = _first_byte(head)
    if first.startswith(b"["):
        return Source(path, "chatgpt", size=size)
    if first and not first.startswith(b"{"):
        raise ImportProblem(
            "this is neither Turnlog JSON lines nor a ChatGPT export (conversations.json "
            "or the .zip as downloaded): it does not start with JSON")
    return Source(path, "turnlog", model=model, size=size)


def _folder(path: Path, model: str | None) -> Source:
    if (path / CHATGPT_FILE).is_file():
        return Source(path, "chatgpt-folder", (CHATGPT_FILE,),
                      size=(path / CHATGPT_FILE).stat().st_size)
    members = tuple(sorted(p.name for p in path.iterdir()
                           if p.suffix == ".jsonl" and p.is_file()))
    if not members:
        raise ImportProblem("the folder holds neither conversations.json (a ChatGPT export) "
                            "nor .jsonl files (a Turnlog export)")
    return Source(path, "turnlog-folder", members, model,
                  size=sum((path / m).stat().st_size for m in members))


def _zip(path: Path, model: str | None, size: int) -> Source:
    try:
        with _opened(path) as opened, zipfile.ZipFile(opened.handle) as archive:
            names = [i.filename for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError) as err:
        raise ImportProblem(f"the zip archive cannot be read ({err})") from None
    chatgpt_files = sorted((n for n in names if n.rsplit("/", 1)[-1] == CHATGPT_FILE),
                           key=lambda n: (n.count("/"), n))
    if chatgpt_files:
        return Source(path, "chatgpt-zip", (chatgpt_files[0],), size=size)
    jsonl = tuple(sorted(n for n in names if n.endswith(".jsonl")))
    if jsonl:
        return Source(path, "turnlog-zip", jsonl, model, size=size)
    raise ImportProblem("the zip archive holds no conversations.json, so it is not a "
                        "ChatGPT data export (nor a Turnlog export: no .jsonl files)")
