"""`store.conversations`: making, listing, reading and renaming conversations.

Calling the part lists them (`store.conversations("text")`), as a store always could.
"""

from __future__ import annotations

import json

import peewee

from ..core.model import Conversation, ConversationSettings
from ..core.title_sources import MODEL, QUESTION, SOURCES, USER
from ..system.lazy import LazyModule
from . import drafts, rows
from .database import Database
from .errors import NotFound

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Any

    from . import projectable, salvage, search
    from .models import ConversationRow
else:
    # the index's SQL: loaded by the first change of a title or search, not by reading
    search = LazyModule("turnlog.store.search")

# The tables (`models`) and the titles' SQL load with the first query made through them:
# `list` reads the file as it is (`salvage`) and needs neither.

FIRST_SEND = "first_send"  # in a conversation's settings: made for a first question
NOT_IN_A_FOLDER = 0  # `list(folder=...)`: the conversations in no folder (ids start at 1)


def conversation_row(db: peewee.Database, conversation_id: int) -> ConversationRow | None:
    from .models import ConversationRow

    return ConversationRow.select().where(ConversationRow.id == conversation_id).first(db)


class Conversations:
    """The conversations of one store."""

    def __init__(self, database: Database) -> None:
        self.database = database
        # First sends this opened store made: theirs to finish, never swept from under them.
        self.sent_here: set[int] = set()

    def __call__(self, text: str = "", *, content: bool = True,
                 folder: int | None = None) -> list[Conversation]:
        return self.list(text, content=content, folder=folder)

    def list(self, text: str = "", *, content: bool = True,
             folder: int | None = None) -> list[Conversation]:
        """`listing`, as a list."""
        return list(self.listing(text, content=content, folder=folder))

    def listing(self, text: str = "", *, content: bool = True,
                folder: int | None = None) -> rows.ConversationRows:
        """Starred ones first, then newest (most recently active) first; `text` keeps
        those whose title holds it (case-insensitively) or (`content`) whose turns or
        title match it as a search; `folder` those in that folder (`NOT_IN_A_FOLDER`: in
        none)."""
        from .models import ConversationRow

        db = self.database.db
        with self.database.guard():
            query = ConversationRow.select(*(getattr(ConversationRow, name) for name in
                                             rows.CONVERSATION_COLUMNS[:-2]),
                                           ConversationRow.folder, ConversationRow.starred)
            if folder == NOT_IN_A_FOLDER:
                query = query.where(ConversationRow.folder.is_null())
            elif folder is not None:
                query = query.where(ConversationRow.folder == folder)
            if text and not content:
                query = query.where(ConversationRow.title.contains(text))
            elif text:
                matching = search.matching_conversations(db, search.rules.parse_query(text))
                # The ids as one JSON parameter: thousands of them (a word every
                # conversation has) are not thousands of expressions to build.
                found_ids = peewee.SQL('(SELECT "value" FROM json_each(?))',
                                       [json.dumps(sorted(matching))])
                query = query.where(ConversationRow.title.contains(text)
                                    | ConversationRow.id.in_(found_ids))
            found = query.order_by(ConversationRow.starred.desc(),
                                   ConversationRow.updated_at.desc(), ConversationRow.id.desc())
            # Straight from SQLite's cursor (no per-column conversion: `conversation_of`
            # takes the stored values), each made when shown: thousands of rows (an
            # import's) list at once.
            return rows.ConversationRows(db.execute(found).fetchall())

    def create(
        self,
        title: str,
        *,
        system_prompt: str = "",
        model: str = "",
        settings: ConversationSettings | None = None,
        first_send: bool = False,
        title_source: str = USER,
        source: str = "",
        source_model: str = "",
    ) -> Conversation:
        """A new, empty conversation. `first_send`: it is made for a question about to be
        sent; until that (or a later) question is answered, `sweep_unanswered` may remove
        it (the mark sits in its settings, so it is written with the row itself).
        `title_source` "question": the title is taken from the first question once it is
        answered (until then the neutral empty title)."""
        from .models import ConversationRow, insert

        self.database.need_writer()
        if title_source not in SOURCES:
            raise ValueError(f"unknown title source {title_source!r}")
        stamp = rows.now_iso()
        stored = (settings or ConversationSettings()).to_json()
        if first_send:
            stored[FIRST_SEND] = True
        # IMMEDIATE: the write lock is waited for (busy timeout) before anything is read; a
        # deferred transaction whose insert triggers read first fails at once when another
        # connection (a background erase's checkpoint) moved the log on meanwhile.
        with self.database.guard(), self.database.db.atomic("IMMEDIATE"):
            row = insert(self.database.db, ConversationRow, title=title,
                         system_prompt=system_prompt, model=model, settings=json.dumps(stored),
                         created_at=stamp, updated_at=stamp, title_source=title_source,
                         source=source, source_model=source_model)
        if first_send:
            self.sent_here.add(row.id)
        return rows.conversation(row)

    def get(self, conversation_id: int) -> Conversation:
        with self.database.guard():
            row = conversation_row(self.database.db, conversation_id)
        if row is None:
            raise NotFound(f"There is no conversation {conversation_id}.")
        return rows.conversation(row)

    def update(
        self,
        conversation_id: int,
        *,
        title: str | None = None,
        system_prompt: str | None = None,
        model: str | None = None,
        settings: ConversationSettings | None = None,
    ) -> Conversation:
        """Change what is given; a title given is the user's own from now on (it is never
        made again from the first question, nor by the model)."""
        from .models import ConversationRow

        self.database.need_writer()
        current = self.get(conversation_id)
        changes: dict[Any, Any] = {}
        if title is not None:
            changes[ConversationRow.title] = title
            changes[ConversationRow.title_source] = USER
        if system_prompt is not None:
            changes[ConversationRow.system_prompt] = system_prompt
        if model is not None:
            changes[ConversationRow.model] = model
        if settings is not None:
            changes[ConversationRow.settings] = json.dumps(settings.to_json())
        if not changes:
            return current
        db = self.database.db
        with self.database.guard(), db.atomic():
            ConversationRow.update(changes).where(ConversationRow.id == conversation_id
                                                  ).execute(db)
            forgot = 0
            if system_prompt is not None:
                from ..core.proof import SYSTEM_TEXT
                from . import proofs  # what requests kept of the old prompt: a writer's

                forgot = proofs.forget_item(db, SYSTEM_TEXT, str(conversation_id),
                                            conversation_id, old=current.system_prompt,
                                            new=system_prompt)
            if title is not None:
                search.reindex_title(db, conversation_id)
                search.purge(db, turns=False)  # the old title leaves the index
        if forgot:  # text requests kept went: no copy stays in `-wal`
            with self.database.guard():
                self.database.checkpoint()
        return self.get(conversation_id)

    def generation(self, conversation_id: int) -> int:
        with self.database.guard():
            row = conversation_row(self.database.db, conversation_id)
        if row is None:
            raise NotFound(f"Conversation {conversation_id} no longer exists.")
        return int(row.generation)

    def first_turn(self, conversation_id: int) -> str | None:
        """The id of the first turn of the active line (None: no turn yet)."""
        from . import titles

        with self.database.guard():
            return titles.first_turn(self.database.db, conversation_id)

    def set_model_title(self, conversation_id: int, title: str,
                        from_turn: str) -> Conversation | None:
        """Give the conversation the title the model made from its first turn
        `from_turn`, unless it no longer should have it: the user typed a title meanwhile,
        or that turn is no longer the first (deleted, or another version in use) — a late
        write never brings back what was removed. Returns the conversation, or None when
        nothing was written."""
        from . import titles

        self.database.need_writer()
        db = self.database.db
        with self.database.guard(), db.atomic("IMMEDIATE"):
            row = conversation_row(db, conversation_id)
            first = titles.first_turn(db, conversation_id) if row is not None else None
            if row is None or row.title_source != QUESTION or first != from_turn:
                return None
            titles.set_title(db, conversation_id, title, MODEL)
        return self.get(conversation_id)

    # ------------------------------------------------- first sends left unanswered
    def sweep_unanswered(self) -> list[int]:
        """Remove the conversations a first send of a run that ended before started that
        never got an answer (the window was killed, or quit after it failed), unless they
        hold a draft someone typed: a question that failed is not left behind as an empty
        conversation. One this store made is left to its send (the check that sweeps may
        end after it began). Run after `check_sound` (never into a damaged file). Returns
        the ids removed."""
        home = self.database.home
        found = [cid for cid in self.unanswered() if cid not in self.sent_here]
        swept = [cid for cid in found if not drafts.load_draft(home, cid).strip()
                 and self.discard_if_empty(cid)]
        for cid in swept:
            drafts.remove_draft(home, cid)
        return swept

    def unanswered_first_send(self, conversation_id: int) -> bool:
        """Whether a first send made this conversation and it has no turn yet."""
        return conversation_id in self.unanswered(conversation_id)

    def unanswered(self, conversation_id: int | None = None) -> list[int]:
        """The conversations (or this one) a first send made that have no turn yet."""
        one = "" if conversation_id is None else " AND id = ?"
        args = (f"$.{FIRST_SEND}",) + (() if conversation_id is None else (conversation_id,))
        with self.database.guard():
            return [int(r[0]) for r in self.database.db.execute_sql(
                "SELECT id FROM conversations WHERE json_extract(settings, ?) = 1 AND NOT "
                "EXISTS (SELECT 1 FROM turns WHERE conversation_id = conversations.id)"
                + one, args).fetchall()]

    def discard_if_empty(self, conversation_id: int) -> bool:
        """Delete a conversation that never got a turn (a first question that failed),
        so no empty conversation is left behind, with the records of its failed
        requests; returns whether it was deleted. One with a turn is kept."""
        from .models import ConversationRow, TurnRow

        self.database.need_writer()
        db = self.database.db
        with self.database.guard(), db.atomic("IMMEDIATE"):
            if TurnRow.select().where(TurnRow.conversation == conversation_id).exists(db):
                return False
            gone = ConversationRow.delete().where(
                ConversationRow.id == conversation_id).execute(db)
            search.purge(db, turns=False)
        if gone:
            with self.database.guard():
                # Its title (the question's first line) leaves no copy in -wal.
                self.database.checkpoint()
        return bool(gone)

    def readable(self) -> list[tuple[Conversation, int]]:
        """Every conversation and its number of turns, newest first, read leniently: a
        title holding damaged text is shown with U+FFFD, never a failure."""
        from . import salvage

        with self.database.guard():
            return salvage.readable_conversations(self.database.path,
                                                  immutable=self.database.immutable)

    def projectable(self, conversation_id: int) -> projectable.Projectable:
        """What a preview of a send reads: the turns as `readable_turns` reads them and,
        when all could be read, the summary in effect, the memory and the versions, on
        one connection and without the tables (`turnlog-cli project`)."""
        from . import projectable

        with self.database.guard():
            return projectable.read(self.database.path, conversation_id,
                                    immutable=self.database.immutable)

    def readable_turns(self, conversation_id: int) -> salvage.Readable:
        """What can be read of one conversation: its turns row by row (those that cannot
        be decoded or read are counted, not fatal), its versions, whether it is a fork.
        Works on a damaged file, never writes, and loads none of the tables (`show`)."""
        from . import salvage

        with self.database.guard():
            return salvage.readable_turns(self.database.path, conversation_id,
                                          immutable=self.database.immutable)
