"""`store.attachments`: the files of one store's questions and drafts (the SQL is in
`attachments`)."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.attachments import Attachment
from . import attachments
from .database import Database


class Attachments:
    """The attached files of one store."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def original(self, digest: str) -> bytes:
        """An attached file's original bytes, to open or save (`NotFound` once deleted)."""
        with self.database.guard():
            return attachments.blob(self.database.db, digest)

    def of_draft(self, conversation_id: int) -> tuple[Attachment, ...]:
        """The files attached to the conversation's draft, with their originals."""
        with self.database.guard():
            return attachments.load_draft(self.database.db, conversation_id)

    def save_draft(self, conversation_id: int, files: Sequence[Attachment]) -> None:
        """Keep the draft's files in the database (none: forget them), so they survive a
        restart with the draft."""
        self.database.need_writer()
        with self.database.guard(), self.database.db.atomic("IMMEDIATE"):
            attachments.save_draft(self.database.db, conversation_id, files)
