"""Read conversations from a file, whatever its kind, recognised by its content.

- Turnlog JSON lines (`turnlog-cli export`, File → Export…), one conversation;
- a folder or `.zip` made by Export all: one JSON-lines file per conversation;
- a ChatGPT, Claude or DeepSeek data export: its `conversations.json`, the unpacked
  folder, or the `.zip` as downloaded (read in place, never unpacked to disk); which of
  the three is told by the first conversation's fields, not by the file's name.

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
from collections.abc import Collection, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ...core.attachments import DEFAULT_FILE_LIMIT
from ...core.folders import name_problem
from ...core.imports import ImportedConversation, ImportedProject, ImportProblem
from ...system.user_files import FileRefused, OpenedFile, open_regular, parse_json, read_limited
from .. import assistant_file
from . import chatgpt, claude, deepseek, turnlog_jsonl

CHATGPT_FILE = "conversations.json"  # every source's export names it so
PROJECTS_FILE = "projects.json"  # Claude's projects
ACCOUNT_FILE = "users.json"  # Claude's account data: never read, never stored
ASSISTANTS_FILE = "assistants.json"  # an Export all's assistants (turnlog-assistants)
FOLDERS_FILE = "folders.json"  # an Export all's folders, empty ones too
MAX_FOLDERS_BYTES = 16 << 20
ACCOUNT_SKIPPED = "account data (users.json), never stored"
SNIFF_BYTES = 64 * 1024
_LABELS = {"chatgpt": "ChatGPT export", "claude": "Claude export", "deepseek": "DeepSeek export"}
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

    def close(self) -> None:
        if not self.closed:
            self._member.close()
        super().close()


@dataclass
class Source:
    """A file to import from and what kind it is."""

    path: Path
    kind: str  # "turnlog", "chatgpt", "turnlog-folder", "turnlog-zip", "chatgpt-zip", …
    members: tuple[str, ...] = ()
    model: str | None = None
    size: int = 0
    # What the source holds that is not imported, with how many: (why, count).
    skipped: tuple[tuple[str, int], ...] = ()
    # A Claude export's `projects.json` (its path in the folder or zip, "" none) and each
    # project's uuid → the folder its conversations go in.
    projects_member: str = ""
    project_folders: dict[str, str] = field(default_factory=dict)
    # An Export all's folders and assistants files, among its members' neighbours.
    library_files: tuple[str, ...] = ()
    _tell: list[Any] = field(default_factory=list, repr=False)
    _done: int = 0

    @property
    def label(self) -> str:
        fixed = {"turnlog": "Turnlog JSON lines", "turnlog-folder": "Turnlog export folder",
                 "turnlog-zip": "Turnlog export (.zip)"}
        if self.kind in fixed:
            return fixed[self.kind]
        source = self.kind.split("-")[0]
        return _LABELS[source] + (" (.zip)" if self.kind.endswith("-zip") else "")

    @property
    def exported(self) -> bool:
        """An export of another service (its ids are the source's)."""
        return not self.kind.startswith("turnlog")

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

    def projects(self) -> Iterator[ImportedProject]:
        """A Claude export's projects, read now from its `projects.json` (none for any
        other source)."""
        if not self.projects_member:
            return
        try:
            if self.kind.endswith("-folder"):
                with _opened(self.path / self.projects_member, PROJECTS_FILE) as opened, \
                        io.TextIOWrapper(opened.handle, encoding="utf-8",
                                         errors="strict") as text:
                    yield from claude.projects(text, PROJECTS_FILE)
                return
            with _opened(self.path) as opened, zipfile.ZipFile(opened.handle) as archive, \
                    _zip_text(archive, self.projects_member) as text:
                yield from claude.projects(text, PROJECTS_FILE)
        except UnicodeDecodeError as err:
            raise ImportProblem(f"{PROJECTS_FILE}: the text is not UTF-8 ({err})") from None
        except (zipfile.BadZipFile, zlib.error, EOFError) as err:
            raise ImportProblem(f"the zip archive is damaged ({err})") from None

    def library(self, servers_here: Collection[str]) -> Library | None:
        """An Export all's folders and assistants (None when it holds neither); its tool
        servers kept where `servers_here` names them; `ImportProblem` for a bad file."""
        if not self.library_files:
            return None
        found: dict[str, Any] = {}
        for name in self.library_files:
            limit = assistant_file.MAX_FILE_BYTES if name == ASSISTANTS_FILE \
                else MAX_FOLDERS_BYTES
            try:
                data = self._library_bytes(name, limit)
                found[name] = parse_json(Path(name), data)
            except FileRefused as err:
                raise ImportProblem(f"{name}: {err.reason}") from None
        try:
            shared = assistant_file.from_json(found[ASSISTANTS_FILE], servers_here) \
                if ASSISTANTS_FILE in found else []
        except assistant_file.AssistantFileInvalid as err:
            raise ImportProblem(f"{ASSISTANTS_FILE}: {err}") from None
        return Library(_folders(found.get(FOLDERS_FILE)), shared)

    def _library_bytes(self, name: str, limit: int) -> bytes:
        if self.kind.endswith("-folder"):
            return read_limited(self.path / name, limit)
        with _opened(self.path) as opened, zipfile.ZipFile(opened.handle) as archive:
            data = _member(archive, name, limit)
        if data is None:
            raise ImportProblem(f"{name} is larger than {limit / (1 << 20):,.0f} MiB")
        return data

    def _read(self) -> Iterator[ImportedConversation]:
        if "-" not in self.kind:
            with self._open_file(self.path) as text:
                yield from self._parse(text, self.path.name)
        elif self.kind.endswith("-folder"):
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
        if self.kind.startswith("claude"):
            yield from claude.conversations(text, name, self.project_folders)
            return
        if self.kind.startswith("deepseek"):
            yield from deepseek.conversations(text, name)
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


def _member(archive: zipfile.ZipFile, name: str, limit: int = MAX_ATTACHMENT_BYTES
            ) -> bytes | None:
    """An attachment's file in an Export all zip, read within the bounds of one file."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        return None
    if info.file_size > limit:
        return None
    with archive.open(info) as member:
        data = io.BufferedReader(_Bounded(member, name, info.compress_size)).read(limit + 1)
    return data if len(data) <= limit else None


@dataclass(frozen=True, slots=True)
class Library:
    """An Export all's folders (name, when made) and assistants with their files."""

    folders: tuple[tuple[str, str], ...]
    assistants: list[assistant_file.Shared]


def _folders(data: Any) -> tuple[tuple[str, str], ...]:
    """`folders.json` checked: each folder a name a folder can have, and a time."""
    if data is None:
        return ()
    if not isinstance(data, dict) or data.get("format") != "turnlog-folders" \
            or data.get("version") != 1 or not isinstance(data.get("folders"), list):
        raise ImportProblem(f"{FOLDERS_FILE} is not a Turnlog folders file of version 1")
    found = []
    for entry in data["folders"]:
        name = entry.get("name") if isinstance(entry, dict) else None
        created = entry.get("created_at") if isinstance(entry, dict) else None
        problem = name_problem(name.strip()) if isinstance(name, str) else "not text"
        if problem is not None or not isinstance(created, str) \
                or turnlog_jsonl.parse_time(created) is None:
            raise ImportProblem(f"{FOLDERS_FILE}: a folder needs a name and a time "
                                f"({problem or 'no time'})")
        found.append((name.strip(), created))
    return tuple(found)


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
        return Source(path, _sniff_file(path), size=size)
    if first and not first.startswith(b"{"):
        raise ImportProblem(
            "this is neither Turnlog JSON lines nor a ChatGPT, Claude or DeepSeek export "
            "(conversations.json or the .zip as downloaded): it does not start with JSON")
    return Source(path, "turnlog", model=model, size=size)


def _folder(path: Path, model: str | None) -> Source:
    if (path / CHATGPT_FILE).is_file():
        kind = _sniff_file(path / CHATGPT_FILE)
        source = Source(path, f"{kind}-folder", (CHATGPT_FILE,),
                        size=(path / CHATGPT_FILE).stat().st_size)
        if kind == "claude":
            _claude_folder(source)
        return source
    members = tuple(sorted(p.name for p in path.iterdir()
                           if p.suffix == ".jsonl" and p.is_file()))
    library = tuple(n for n in (FOLDERS_FILE, ASSISTANTS_FILE) if (path / n).is_file())
    if not members and not library:
        raise ImportProblem("the folder holds neither conversations.json (a ChatGPT export) "
                            "nor .jsonl files (a Turnlog export)")
    return Source(path, "turnlog-folder", members, model,
                  size=sum((path / m).stat().st_size for m in members), library_files=library)


def _zip(path: Path, model: str | None, size: int) -> Source:
    try:
        with _opened(path) as opened, zipfile.ZipFile(opened.handle) as archive:
            names = [i.filename for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError) as err:
        raise ImportProblem(f"the zip archive cannot be read ({err})") from None
    chatgpt_files = sorted((n for n in names if n.rsplit("/", 1)[-1] == CHATGPT_FILE),
                           key=lambda n: (n.count("/"), n))
    if chatgpt_files:
        source = Source(path, "", (chatgpt_files[0],), size=size)
        _zip_kind(source, names)
        return source
    jsonl = tuple(sorted(n for n in names if n.endswith(".jsonl")))
    library = tuple(n for n in (FOLDERS_FILE, ASSISTANTS_FILE) if n in names)
    if jsonl or library:
        return Source(path, "turnlog-zip", jsonl, model, size=size, library_files=library)
    raise ImportProblem("the zip archive holds no conversations.json, so it is not a "
                        "ChatGPT, Claude or DeepSeek data export (nor a Turnlog export: no "
                        ".jsonl files)")


# A key as it stands in JSON (not inside a string, where its quotes would be escaped).
_KEY = r'(?<!\\)"{}"\s*:'
_CLAUDE_KEYS = re.compile("|".join(_KEY.format(k) for k in ("chat_messages", "sender")))
_DEEPSEEK_KEYS = re.compile("|".join(_KEY.format(k) for k in ("inserted_at", "fragments")))


def sniff(head: str) -> str:
    """Whose export a `conversations.json` is, from its first bytes: "claude" (its
    conversations hold `chat_messages`), "deepseek" (`inserted_at`, messages of
    `fragments`), else "chatgpt"."""
    claude_at = _CLAUDE_KEYS.search(head)
    deepseek_at = _DEEPSEEK_KEYS.search(head)
    if claude_at and (not deepseek_at or claude_at.start() < deepseek_at.start()):
        return "claude"
    return "deepseek" if deepseek_at else "chatgpt"


def _sniff_file(path: Path) -> str:
    with _opened(path) as opened:
        return sniff(opened.read_at_most(SNIFF_BYTES).decode("utf-8", "replace"))


def _zip_text(archive: zipfile.ZipFile, member: str) -> IO[str]:
    info = archive.getinfo(member)
    return io.TextIOWrapper(io.BufferedReader(_Bounded(archive.open(info), member,
                                                       info.compress_size)),
                            encoding="utf-8", errors="strict")


def _zip_kind(source: Source, names: list[str]) -> None:
    """Whose export the zip is, and (Claude's) where its projects are and what it holds
    that is never imported."""
    member = source.members[0]
    folder = member.rpartition("/")[0]
    try:
        with _opened(source.path) as opened, zipfile.ZipFile(opened.handle) as archive:
            info = archive.getinfo(member)
            with archive.open(info) as packed:
                head = io.BufferedReader(_Bounded(packed, member, info.compress_size)).read(
                    SNIFF_BYTES)
            kind = sniff(head.decode("utf-8", "replace"))
            source.kind = f"{kind}-zip"
            if kind != "claude":
                return
            projects = f"{folder}/{PROJECTS_FILE}" if folder else PROJECTS_FILE
            if projects in names:
                with _zip_text(archive, projects) as text:
                    source.project_folders = claude.project_folders(text, PROJECTS_FILE)
                source.projects_member = projects
            account = (f"{folder}/{ACCOUNT_FILE}" if folder else ACCOUNT_FILE) in names
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as err:
        raise ImportProblem(f"the zip archive cannot be read ({err})") from None
    except UnicodeDecodeError as err:
        raise ImportProblem(f"{PROJECTS_FILE}: the text is not UTF-8 ({err})") from None
    source.skipped = _claude_skipped(account)


def _claude_folder(source: Source) -> None:
    """Where a Claude export folder's projects are, and what it never imports."""
    if (source.path / PROJECTS_FILE).is_file():
        with _opened(source.path / PROJECTS_FILE, PROJECTS_FILE) as opened, \
                io.TextIOWrapper(opened.handle, encoding="utf-8") as text:
            try:
                source.project_folders = claude.project_folders(text, PROJECTS_FILE)
            except UnicodeDecodeError as err:
                raise ImportProblem(f"{PROJECTS_FILE}: the text is not UTF-8 ({err})") \
                    from None
        source.projects_member = PROJECTS_FILE
    source.skipped = _claude_skipped((source.path / ACCOUNT_FILE).exists())


def _claude_skipped(account: bool) -> tuple[tuple[str, int], ...]:
    return ((ACCOUNT_SKIPPED, 1),) if account else ()
