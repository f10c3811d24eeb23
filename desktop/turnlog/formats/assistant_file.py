"""Assistants as a JSON file, to share or keep: a documented, versioned format.

    {"format": "turnlog-assistants", "version": 1,
     "assistants": [{"name": "Editor", "icon": "📝", "system_prompt": "…",
                     "profile": "", "model": "", "temperature": 0.3, "top_p": null,
                     "pins": ["…"], "notes": [{"text": "…", "priority": 3}],
                     "tools": ["search"],
                     "files": [{"name": "style.md", "data": "<base64 of the file>"}],
                     "folder": "Work"}]}

`profile` and `model` "" mean the default; `temperature` and `top_p` null leave them to
the server. `tools` names tool servers: an import never adds one (a server is a command
to run) and carries no approvals; it keeps only the names of servers set up on this
machine, and says which it left out. A file goes through the same checks as one attached
to a question. `folder` (optional, "" for none) names the folder the assistant's
conversations start in: an import makes a folder of that name when there is none. Reading
never fills the system prompt's variables: the person sees the
prompt as written before anything is sent with it.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.assistants import AssistantNote, AssistantRefused, AssistantSetup
from ..core.attachments import Attachment, AttachmentRefused
from ..system.user_files import FileRefused, read_json
from .file_reading import read_bytes

FORMAT = "turnlog-assistants"
VERSION = 1
MAX_FILE_BYTES = 64 * 1024 * 1024  # the whole JSON file, files included
MAX_ASSISTANTS = 200


class AssistantFileInvalid(ValueError):
    """A file that is not an assistants file this Turnlog reads, and why."""


@dataclass(frozen=True, slots=True)
class Shared:
    """One assistant as exported, or as read for import (`left_out`: tool servers it
    names that this machine does not have)."""

    setup: AssistantSetup
    files: tuple[Attachment, ...] = ()
    left_out: tuple[str, ...] = ()


def to_json(shared: Sequence[Shared]) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION,
            "assistants": [_one_to_json(s) for s in shared]}


def _one_to_json(shared: Shared) -> dict[str, Any]:
    setup = shared.setup
    return {"name": setup.name, "icon": setup.icon, "system_prompt": setup.system_prompt,
            "profile": setup.profile, "model": setup.model,
            "temperature": setup.temperature, "top_p": setup.top_p,
            "pins": list(setup.pins),
            "notes": [{"text": n.text, "priority": n.priority} for n in setup.notes],
            "tools": list(setup.tools),
            "files": [{"name": f.name,
                       "data": base64.b64encode(f.original or b"").decode("ascii")}
                      for f in shared.files],
            "folder": setup.folder}


def write(path: Path, shared: Sequence[Shared]) -> None:
    """Write a new file (UTF-8, readable by people: no escapes for non-ASCII);
    `FileExistsError` rather than replace one."""
    with path.open("x", encoding="utf-8") as handle:
        handle.write(json.dumps(to_json(shared), ensure_ascii=False, indent=2) + "\n")


def read(path: Path, servers_here: Collection[str]) -> list[Shared]:
    """The assistants in `path` (through the one bounded reader), their tools kept only
    where `servers_here` names them; `AssistantFileInvalid` saying what is wrong."""
    try:
        data = read_json(path, MAX_FILE_BYTES, what="assistants file")
    except FileRefused as err:
        raise AssistantFileInvalid(f"{path.name}: {err.reason}") from None
    except FileNotFoundError:
        raise AssistantFileInvalid(f"{path.name}: there is no such file") from None
    return from_json(data, servers_here)


def from_json(data: Any, servers_here: Collection[str]) -> list[Shared]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise AssistantFileInvalid("This is not a Turnlog assistants file.")
    if data.get("version") != VERSION:
        raise AssistantFileInvalid(f"This assistants file is version {data.get('version')!r}; "
                                   f"this Turnlog reads version {VERSION}.")
    items = data.get("assistants")
    if not isinstance(items, list) or len(items) > MAX_ASSISTANTS:
        raise AssistantFileInvalid(f"“assistants” must be a list of at most {MAX_ASSISTANTS}.")
    return [_one_from_json(item, n, servers_here) for n, item in enumerate(items, 1)]


def _text(item: dict[str, Any], key: str, where: str) -> str:
    value = item.get(key, "")
    if not isinstance(value, str):
        raise AssistantFileInvalid(f"{where}: “{key}” must be text.")
    return value


def _number(item: dict[str, Any], key: str, where: str) -> float | None:
    value = item.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise AssistantFileInvalid(f"{where}: “{key}” must be a number or null.")
    return float(value)


def _texts(item: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = item.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise AssistantFileInvalid(f"{where}: “{key}” must be a list of texts.")
    return tuple(value)


def _notes(item: dict[str, Any], where: str) -> tuple[AssistantNote, ...]:
    value = item.get("notes", [])
    if not isinstance(value, list):
        raise AssistantFileInvalid(f"{where}: “notes” must be a list.")
    notes = []
    for note in value:
        if not isinstance(note, dict) or not isinstance(note.get("text"), str) or \
                not isinstance(note.get("priority", 3), int):
            raise AssistantFileInvalid(f"{where}: a note is {{\"text\": …, \"priority\": 1–5}}.")
        notes.append(AssistantNote(note["text"], min(max(int(note.get("priority", 3)), 1), 5)))
    return tuple(notes)


def _files(item: dict[str, Any], where: str) -> tuple[Attachment, ...]:
    value = item.get("files", [])
    if not isinstance(value, list):
        raise AssistantFileInvalid(f"{where}: “files” must be a list.")
    files: list[Attachment] = []
    for entry in value:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) \
                or not isinstance(entry.get("data"), str):
            raise AssistantFileInvalid(f"{where}: a file is {{\"name\": …, \"data\": base64}}.")
        name = Path(entry["name"]).name or "file"
        try:
            data = base64.b64decode(entry["data"], validate=True)
            files.append(read_bytes(name, data, attached=files))
        except (binascii.Error, ValueError) as err:
            reason = err.reason if isinstance(err, AttachmentRefused) else "not base64"
            raise AssistantFileInvalid(f"{where}: the file {name} cannot be attached: "
                                       f"{reason}.") from None
    return tuple(files)


def _one_from_json(item: Any, number: int, servers_here: Collection[str]) -> Shared:
    where = f"assistant {number}"
    if not isinstance(item, dict):
        raise AssistantFileInvalid(f"{where} is not an object.")
    tools = _texts(item, "tools", where)
    setup = AssistantSetup(
        name=_text(item, "name", where), icon=_text(item, "icon", where),
        system_prompt=_text(item, "system_prompt", where),
        profile=_text(item, "profile", where), model=_text(item, "model", where),
        temperature=_number(item, "temperature", where), top_p=_number(item, "top_p", where),
        pins=_texts(item, "pins", where), notes=_notes(item, where),
        tools=tuple(t for t in tools if t in servers_here),
        folder=_text(item, "folder", where))
    try:
        setup = setup.checked()
    except AssistantRefused as err:
        raise AssistantFileInvalid(f"{where}: {err}") from None
    return Shared(setup, _files(item, where), tuple(t for t in tools if t not in servers_here))
