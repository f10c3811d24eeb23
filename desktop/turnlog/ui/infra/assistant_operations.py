"""The assistants' storage work, one named operation each, on the storage lane
(`operations.StorageOp`): Settings → Assistants and New from assistant call these."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .changes import Changes
from .operations import StorageOp

if TYPE_CHECKING:  # the assistants' file format, the file reader and the start from an
    # assistant load when one of these operations is first made: the first screen makes none
    from ...config.tool_servers import ToolServer
    from ...core.assistants import Assistant, AssistantSetup
    from ...core.attachments import Attachment
    from ...formats import assistant_file
    from ...store import TurnlogStore

Started = tuple[Changes, tuple[str, ...]]  # what changed, and the warnings to show


def list_assistants(store: TurnlogStore) -> StorageOp[list[Assistant]]:
    return StorageOp("list assistants", store.assistants.list)


def folder_names(store: TurnlogStore) -> StorageOp[list[str]]:
    """The folders an assistant may name, in the sidebar's order."""
    return StorageOp("list folders", lambda: [f.name for f in store.folders.list()])


def assistant_files(store: TurnlogStore, assistant_id: int
                    ) -> StorageOp[tuple[Attachment, ...]]:
    return StorageOp("read the assistant's files", lambda: store.assistants.files(assistant_id))


def add_assistant(store: TurnlogStore, setup: AssistantSetup,
                  files: Sequence[Attachment]) -> StorageOp[Assistant]:
    return StorageOp("add an assistant", lambda: store.assistants.add(setup, files))


def save_assistant(store: TurnlogStore, assistant_id: int, setup: AssistantSetup,
                   files: Sequence[Attachment]) -> StorageOp[Assistant]:
    return StorageOp("save the assistant",
                     lambda: store.assistants.update(assistant_id, setup, files))


def duplicate_assistant(store: TurnlogStore, assistant_id: int) -> StorageOp[Assistant]:
    return StorageOp("duplicate the assistant",
                     lambda: store.assistants.duplicate(assistant_id))


def delete_assistant(store: TurnlogStore, assistant_id: int) -> StorageOp[None]:
    return StorageOp("remove the assistant", lambda: store.assistants.delete(assistant_id))


def move_assistant(store: TurnlogStore, assistant_id: int, index: int
                   ) -> StorageOp[list[Assistant]]:
    return StorageOp("move the assistant", lambda: store.assistants.move(assistant_id, index))


def read_attachments(had: Sequence[Attachment], paths: Sequence[Path]
                     ) -> StorageOp[tuple[Attachment, ...]]:
    """`had` and the files at `paths`, read through the one bounded reader."""
    from ...formats.file_reading import read_file

    def work() -> tuple[Attachment, ...]:
        files = list(had)
        for path in paths:
            files.append(read_file(path, attached=files))
        return tuple(files)

    return StorageOp("read the assistant's files", work)


def read_assistants_file(path: Path, servers_here: set[str]
                         ) -> StorageOp[list[assistant_file.Shared]]:
    from ...formats import assistant_file

    return StorageOp("read assistants", lambda: assistant_file.read(path, servers_here))


def import_assistants(store: TurnlogStore, chosen: Sequence[assistant_file.Shared]
                      ) -> StorageOp[list[Assistant]]:
    return StorageOp("import assistants",
                     lambda: [store.assistants.add(s.setup, s.files, make_folder=True)
                              for s in chosen])


def export_assistants(store: TurnlogStore, path: Path) -> StorageOp[None]:
    """Every assistant, with its files, into a new file at `path`."""
    from ...formats import assistant_file

    assistants = store.assistants

    def work() -> None:
        assistant_file.write(path, [assistant_file.Shared(a.setup, assistants.files(a.id))
                                    for a in assistants.list()])

    return StorageOp("export assistants", work)


def start_from_assistant(store: TurnlogStore, assistant: Assistant, *, model: str,
                         language: str, values: Mapping[str, str],
                         servers: Sequence[ToolServer]) -> StorageOp[Started]:
    """The conversation made from the assistant, its files on its draft."""
    from ...service.assistant_start import start_from

    def work() -> Started:
        started = start_from(store, assistant, profile_model=model, language=language,
                             values=values, servers=servers)
        if started.files:
            store.attachments.save_draft(started.conversation.id, started.files)
        return Changes(started.conversation, created=True), started.warnings

    return StorageOp("start from an assistant", work)


def update_from_assistant(store: TurnlogStore, conversation_id: int, *, model: str,
                          language: str, values: Mapping[str, str],
                          servers: Sequence[ToolServer]) -> StorageOp[Started]:
    from ...service.assistant_start import update_from

    def work() -> Started:
        done = update_from(store, conversation_id, profile_model=model, language=language,
                           values=values, servers=servers)
        return Changes(done.conversation, settings=True), done.warnings

    return StorageOp("update from the assistant", work)
