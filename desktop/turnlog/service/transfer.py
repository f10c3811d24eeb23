"""Import a file into the log and export everything out of it: what the window's File →
Import… / Export all… and `turnlog-cli import` share.

An import reads the whole file once to check it (nothing is opened for writing while a
file might still turn out bad), then reads it again and writes every conversation in one
transaction: a bad file, an error or a cancel leaves the log as it was. Export all writes
each conversation as JSON lines and as Markdown into one new folder or zip, made under a
temporary name and renamed when complete, so no half-written export is left behind.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import zipfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..config.tool_servers import ToolServerStore
from ..core.imports import ImportCancelled, ImportReport, ProjectOutcome
from ..core.model import Conversation, Turn
from ..formats import assistant_file
from ..formats.export import (
    ATTACHMENTS_DIR,
    attachment_entries,
    attempt_entry,
    jsonl_lines,
    markdown_parts,
)
from ..formats.importers import ASSISTANTS_FILE, FOLDERS_FILE, Source, open_source
from ..store import TurnlogStore
from ..store.importing import Library


@dataclass(frozen=True, slots=True)
class Progress:
    """How far an import or export is: `stage` is "reading", "writing" or "exporting"."""

    stage: str
    done: int
    total: int

    def describe(self) -> str:
        if self.stage == "reading":
            return f"Checking the file… {self.done / 1e6:,.1f} of {self.total / 1e6:,.1f} MB"
        if self.stage == "writing":
            return f"Importing… {self.done:,} of {self.total:,} turns"
        return f"Exporting… {self.done:,} of {self.total:,} conversations"


Report = Callable[[Progress], None]


@dataclass(frozen=True, slots=True)
class Checked:
    """A file read through once: it can be imported, and how much it holds."""

    source: Source
    conversations: int
    turns: int
    projects: int = 0


def _never() -> bool:
    return False


def check_file(path: Path, *, model: str | None = None, cancelled: Callable[[], bool] = _never,
               progress: Report = lambda p: None) -> Checked:
    """Read all of `path` (raises `ImportProblem` for anything that cannot be imported)."""
    source = open_source(path, model=model)
    projects = sum(1 for _project in source.projects())
    source.library(())  # an Export all's folders and assistants: readable, or a problem
    conversations = turns = 0
    for item in source.conversations():
        conversations += 1
        for _turn in item.turns:
            turns += 1
            if turns % 5_000 == 0:
                _step(cancelled, progress, Progress("reading", source.position(), source.size))
        _step(cancelled, progress, Progress("reading", source.position(), source.size))
    return Checked(source, conversations, turns, projects)


def _step(cancelled: Callable[[], bool], progress: Report, now: Progress) -> None:
    if cancelled():
        raise ImportCancelled("The import was cancelled; nothing was imported.")
    progress(now)


def import_checked(store: TurnlogStore, checked: Checked, *,
                   cancelled: Callable[[], bool] = _never,
                   progress: Report = lambda p: None, as_copies: bool = False) -> ImportReport:
    """Write what `check_file` found, in one transaction. What was imported before is
    not added again (a Turnlog file's conversations too, unless `as_copies`)."""
    total = checked.turns
    projects: list[ProjectOutcome] = []
    held = checked.source.library({s.name for s in ToolServerStore(store.home).list()})
    library = None if held is None else Library(
        held.folders, [(one.setup, one.files) for one in held.assistants])
    outcomes = store.imports.write(
        checked.source.conversations(), cancelled=cancelled,
        progress=lambda done: progress(Progress("writing", done, total)), as_copies=as_copies,
        projects=checked.source.projects(), projected=projects, library=library)
    return ImportReport(outcomes, source=checked.source.label, skipped=checked.source.skipped,
                        projects=projects,
                        assistants=library.added if library is not None and
                        library.assistants else None)


def import_file(store: TurnlogStore, path: Path, *, model: str | None = None,
                cancelled: Callable[[], bool] = _never,
                progress: Report = lambda p: None, as_copies: bool = False) -> ImportReport:
    checked = check_file(path, model=model, cancelled=cancelled, progress=progress)
    return import_checked(store, checked, cancelled=cancelled, progress=progress,
                          as_copies=as_copies)


# ------------------------------------------------------------------------------ export
@dataclass(frozen=True, slots=True)
class ExportedAll:
    path: Path
    conversations: int
    turns: int


def file_stem(conversation: Conversation) -> str:
    """`00012-Trip plans`: the id keeps names unique and in order; the title is made safe
    for any file system."""
    title = re.sub(r'[\x00-\x1f\x7f/\\:*?"<>|]+', "-", conversation.title).strip(" .-")
    return f"{conversation.id:05d}-{title[:60].rstrip(' .') or 'conversation'}"


def export_all(store: TurnlogStore, target: Path, *, cancelled: Callable[[], bool] = _never,
               progress: Report = lambda p: None) -> ExportedAll:
    """Every conversation into `target`: a folder, or a zip when its name ends in .zip.
    `target` must not exist yet. Cancel or an error leaves nothing at `target`."""
    if target.exists():
        raise FileExistsError(f"{target} already exists; choose a new name")
    conversations = store.conversations()
    folders = {folder.id: folder.name for folder in store.folders()}
    part = target.with_name(target.name + ".part")
    turns = 0
    try:
        with _Writer(part, zip_it=target.suffix.lower() == ".zip") as writer:
            for done, conversation in enumerate(conversations):
                _step_export(cancelled, progress, done, len(conversations))
                turns += _export_one(store, conversation, writer,
                                     folders.get(conversation.folder_id or 0, ""))
            _export_library(store, writer)
        _step_export(cancelled, progress, len(conversations), len(conversations))
        os.replace(part, target)
    except BaseException:
        _remove(part)
        raise
    return ExportedAll(target, len(conversations), turns)


def _export_library(store: TurnlogStore, writer: _Writer) -> None:
    """The folders (empty ones too) and the assistants with their files, each in a file
    of its own (`assistants.json` is what `turnlog-cli assistant import` reads too)."""
    folders = store.imports.exported_folders()
    if folders:
        writer.write(FOLDERS_FILE, [json.dumps({"format": "turnlog-folders", "version": 1,
                                                "folders": folders}, ensure_ascii=False)])
    shared = [assistant_file.Shared(a.setup, store.assistants.files(a.id))
              for a in store.assistants.list()]
    if shared:
        writer.write(ASSISTANTS_FILE, [json.dumps(assistant_file.to_json(shared),
                                                  ensure_ascii=False, indent=1), "\n"])


def _step_export(cancelled: Callable[[], bool], progress: Report, done: int,
                 total: int) -> None:
    if cancelled():
        raise ImportCancelled("The export was cancelled; nothing was written.")
    progress(Progress("exporting", done, total))


def _export_one(store: TurnlogStore, conversation: Conversation, writer: _Writer,
                folder: str = "") -> int:
    stem = file_stem(conversation)
    count = 0

    def turns() -> Iterator[Turn]:
        nonlocal count
        for batch in store.turns.batches(conversation.id):
            count += len(batch)
            yield from batch

    versions = store.turns.versions(conversation.id)
    sides = store.side.of(conversation.id)
    files = attachment_entries(store.attachments.original, writer.put_file)
    writer.write(f"{stem}.jsonl", jsonl_lines(conversation, turns(), versions,
                                              store.turns.next_ordinal(conversation.id),
                                              store.memory.export_memory(conversation.id), sides,
                                              files,
                                              store.imports.exported_summaries(conversation.id),
                                              folder, _held(store, conversation.id),
                                              store.turns.tool_result,
                                              store.imports.exported_records(conversation.id)))
    total, count = count, 0
    writer.write(f"{stem}.md", markdown_parts(conversation, turns(), versions, sides))
    return total


def _held(store: TurnlogStore, conversation_id: int) -> dict[str, Any]:
    """What the header carries besides: failed side requests, the assistant the
    conversation started from, where it was forked from, its usage totals."""
    held: dict[str, Any] = {}
    attempts = store.side.attempts(conversation_id)
    if attempts:
        held["side_attempts"] = [attempt_entry(a) for a in attempts]
    origin = store.assistants.origin(conversation_id)
    if origin is not None:
        held["assistant"] = {"name": origin.name, "linked": origin.assistant_id is not None}
    fork = store.forks.origin(conversation_id)
    if fork is not None:
        source = None if fork.source_id is None else \
            store.conversations.first_turn(fork.source_id)
        held["fork"] = {"source_turn": source, "at_ordinal": fork.at_ordinal}
    usage = store.imports.exported_usage(conversation_id)
    if usage:
        held["usage"] = usage
    return held


class _Writer:
    """Files into a new folder or a new zip archive."""

    def __init__(self, path: Path, *, zip_it: bool) -> None:
        self.path, self.zip_it = path, zip_it
        self._zip: zipfile.ZipFile | None = None
        self._files: set[str] = set()
        # A zip takes one member at a time: files met while a JSON-lines member is being
        # written wait until it is closed (one conversation's files at most).
        self._waiting: list[tuple[str, bytes]] = []

    def __enter__(self) -> _Writer:
        if self.zip_it:
            self._zip = zipfile.ZipFile(self.path, "x", zipfile.ZIP_DEFLATED)
        else:
            self.path.mkdir(mode=0o700)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._zip is not None:
            self._zip.close()

    def put_file(self, digest: str, data: bytes) -> dict[str, str]:
        """An attachment's bytes as `attachments/<sha256>`, written once however many
        turns hold it; the reference a JSON line gives it."""
        name = f"{ATTACHMENTS_DIR}/{digest}"
        if digest not in self._files:
            self._files.add(digest)
            if self._zip is not None:
                self._waiting.append((name, data))
            else:
                folder = self.path / ATTACHMENTS_DIR
                folder.mkdir(mode=0o700, exist_ok=True)
                (folder / digest).write_bytes(data)
        return {"file": name}

    def write(self, name: str, parts: Iterable[str]) -> None:
        out: IO[bytes]
        if self._zip is not None:
            out = self._zip.open(name, "w", force_zip64=True)
        else:
            out = (self.path / name).open("xb")
        with out:
            for part in parts:
                out.write(part.encode("utf-8"))
        if self._zip is not None:
            for waiting, data in self._waiting:
                self._zip.writestr(waiting, data)
            self._waiting.clear()


def _remove(path: Path) -> None:
    with suppress(OSError):
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()
