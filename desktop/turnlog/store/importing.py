"""`store.imports`: writing imported conversations, each import in one transaction
(the batched writes themselves are `imports.ImportWriter`'s)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.assistants import AssistantRefused, AssistantSetup
from ..core.attachments import Attachment
from ..core.imports import ImportedConversation, ImportedProject, ImportOutcome, ProjectOutcome
from ..core.model import Conversation
from ..core.pending import PendingTurn
from ..core.proof import NOTE_TEXT, PIN_TEXT, PREFERENCE_TEXT
from ..core.side_records import SideQuestion
from ..core.versions import restore_order
from . import carried_records, versions
from .assistants import Assistants
from .conversations import Conversations
from .database import Database
from .folders import clean_name, folder_for, folder_named
from .imports import ImportWriter
from .memory import Memory
from .models import ConversationAssistantRow, FolderRow, ForkRow, insert
from .side import SideQuestions
from .turns import Turns


@dataclass(slots=True)
class Library:
    """What an Export all holds besides its conversations: its folders (name, when made)
    and its assistants with their files; `added` gets the names of those added."""

    folders: Sequence[tuple[str, str]] = ()
    assistants: Sequence[tuple[AssistantSetup, Sequence[Attachment]]] = ()
    added: list[str] = field(default_factory=list)
    # Each assistant's name in the file → its name as stored (a taken one gets “ (2)”).
    names: dict[str, str] = field(default_factory=dict)


class Imports:
    """The imports into one store."""

    def __init__(self, database: Database, conversations: Conversations, turns: Turns,
                 side: SideQuestions, memory: Memory, assistants: Assistants) -> None:
        self.database = database
        self.db = database.db
        self.conversations = conversations
        self.turns = turns
        self.side = side
        self.memory = memory
        self.assistants = assistants

    def write_one(
        self, title: str, *, system_prompt: str, model: str, turns: Sequence[PendingTurn],
        superseded_by: Mapping[str, str] | None = None,
        side: Sequence[SideQuestion] = (),
    ) -> Conversation:
        """A new conversation with `turns`, in one transaction: all of it or nothing. The
        transaction sits inside the fault translation, so a full disk is named as such
        (the original SQLite error, not the rollback's). `superseded_by` (turn id → the
        id of the turn that replaced it, both among `turns`) restores their versions."""
        self.database.need_writer()
        with self.database.guard(), self.db.atomic():
            conversation = self.conversations.create(title, system_prompt=system_prompt,
                                                    model=model)
            for pending in turns:
                self.turns.commit(conversation.id, pending)
            for old, new in restore_order(superseded_by or {}):
                versions.append(self.db, conversation.id, old, new)
            for question in side:
                self.side.add(conversation.id, question, spent_here=False)
        return self.conversations.get(conversation.id)

    def write(
        self, items: Iterable[ImportedConversation], *,
        cancelled: Callable[[], bool] = lambda: False,
        progress: Callable[[int], None] = lambda turns: None,
        as_copies: bool = False, projects: Iterable[ImportedProject] = (),
        projected: list[ProjectOutcome] | None = None,
        library: Library | None = None,
    ) -> list[ImportOutcome]:
        """Write every conversation `items` yields, in one transaction with batched
        inserts: all of them or, on any error or a cancel (`ImportCancelled`), none.
        `projects` (a Claude export's) come first, each a folder and an assistant; what
        became of them is appended to `projected`. `library` (an Export all's folders and
        assistants) comes first too; the names of the assistants added are noted in it.
        `progress` is told the number of turns written so far. A Turnlog file's
        conversation already stored is not added again unless `as_copies`."""
        self.database.need_writer()
        with self.database.guard(), self.db.atomic("IMMEDIATE"), ImportWriter.open(
                self.db, cancelled=cancelled, progress=progress,
                as_copies=as_copies) as writer:
            if library is not None:
                self._library(library)
            for project in projects:
                outcome = self._project(project)
                if projected is not None:
                    projected.append(outcome)
            outcomes = []
            forks: list[tuple[int, str | None, int]] = []
            for item in items:
                outcome = writer.write(item)
                if outcome.id is not None and not item.source_ids and writer.created:
                    self.add_held(outcome.id, item, writer.stored_ids)
                    self._links(outcome.id, item, library, forks)
                    # Its totals as the file counted them (its side requests included).
                    carried_records.write_usage(self.db, outcome.id, item.usage)
                outcomes.append(outcome)
            self._forks(forks)
            writer.check()  # a cancel that came after the last batch still counts
            return outcomes

    def _links(self, conversation_id: int, item: ImportedConversation,
               library: Library | None, forks: list[tuple[int, str | None, int]]) -> None:
        """A Turnlog file's failed side requests, the assistant it started from (linked
        by name when it is among the assistants), and its fork link (made once every
        conversation is written: its source may come later)."""
        for attempt in item.side_attempts:
            self.side.add_attempt(conversation_id, attempt)
        if item.assistant is not None:
            name, linked = item.assistant
            stored = (library.names.get(name) if library is not None else None) or name
            found = self.db.execute_sql("SELECT id FROM assistants WHERE name = ?",
                                        (stored,)).fetchone() if linked else None
            insert(self.db, ConversationAssistantRow, conversation=conversation_id,
                   assistant=found[0] if found else None, name=name)
        if item.fork is not None:
            forks.append((conversation_id, *item.fork))

    def _forks(self, forks: list[tuple[int, str | None, int]]) -> None:
        for conversation_id, source_turn, at_ordinal in forks:
            found = None if source_turn is None else self.db.execute_sql(
                "SELECT conversation_id FROM turns WHERE id = ?", (source_turn,)).fetchone()
            insert(self.db, ForkRow, conversation=conversation_id,
                   source_id=found[0] if found else None, at_ordinal=at_ordinal)

    def _library(self, library: Library) -> None:
        """An Export all's folders (empty ones too, with when they were made) and
        assistants: one with the same setup and files under the same name (or that name
        with “ (2)” …) is there already; else it is added under the first name free."""
        for name, created_at in library.folders:
            if folder_named(self.db, name) is None:
                insert(self.db, FolderRow, name=clean_name(name), created_at=created_at)
        for setup, files in library.assistants:
            name, added = self._assistant(setup, files, [setup.name] + [
                f"{setup.name[:75].strip()} ({n})" for n in range(2, 100)])
            library.names[setup.name] = name
            if added:
                library.added.append(name)

    def _assistant(self, setup: AssistantSetup, files: Sequence[Attachment],
                   names: Sequence[str]) -> tuple[str, bool]:
        """The assistant's name and whether it was added now: one of `names` with this
        setup and these files is the one an earlier import made (not added again); else
        it is added under the first of `names` that is free."""
        by_name = {a.name: a for a in self.assistants.list()}
        digests = tuple((f.name, f.digest) for f in files)
        for name in names:
            have = by_name.get(name)
            if have is None:
                return self.assistants.add(replace(setup, name=name), files).name, True
            if have.setup == replace(setup, name=name).checked() and digests == tuple(
                    (f.name, f.digest) for f in self.assistants.files(have.id)):
                return name, False
        raise AssistantRefused("name_taken", f"Every name like “{setup.name}” is taken.")

    def _project(self, project: ImportedProject) -> ProjectOutcome:
        """Its folder (made if missing) and its assistant; a name the person's own
        assistant has takes “(Claude project)” after it."""
        folder_for(self.db, project.folder)
        files = tuple(a.name for a in project.files)
        base = project.assistant
        names = [base, *(f"{base[:80 - len(t)].strip()}{t}" for t in [" (Claude project)"] + [
            f" (Claude project {n})" for n in range(2, 100)])]
        try:
            name, added = self._assistant(AssistantSetup(base, system_prompt=project.prompt),
                                          project.files, names)
        except AssistantRefused as err:
            return ProjectOutcome(project.folder, "", project.prompt, files, added=False,
                                  problem=str(err), skipped=project.skipped)
        return ProjectOutcome(project.folder, name, project.prompt, files, added=added,
                              skipped=project.skipped)

    def add_held(self, conversation_id: int, item: ImportedConversation,
                     stored_ids: dict[str, str]) -> None:
        """What a Turnlog file's conversation holds besides its turns: side questions (with
        fresh ids), its memory (`_memory`), summaries and request records (their
        references turned into this data directory's numbers)."""
        taken = {q.id for q in self.side.of(conversation_id)}
        renamed: dict[str, str] = {}
        for question in item.side_questions:
            if not question.id or question.id in taken or self._side_stored(question.id):
                renamed[question.id] = uuid.uuid4().hex  # a copy's get fresh ids
            taken.add(renamed.get(question.id, question.id))
        for question in item.side_questions:
            self.side.add(conversation_id, replace(
                question, id=renamed.get(question.id, question.id),
                side_ids=tuple(renamed.get(s, s) for s in question.side_ids)), spent_here=False)
        sources = self._memory(conversation_id, item.memory or {}, stored_ids)
        made = self._summaries(conversation_id, item.summaries, stored_ids)
        carried_records.write(self.db, conversation_id, item.requests, turn_ids=stored_ids,
                              summary_ids=made, sources=sources)

    def _memory(self, conversation_id: int, memory: dict[str, list[dict[str, Any]]],
                stored_ids: dict[str, str]) -> dict[tuple[str, str], str]:
        """Pins (their sources mapped to the ids the turns were stored under; a source
        not in the file is dropped), notes, and the preferences not there yet; returns
        each one's (kind, id in the file) → its id here, for the request records' texts."""
        sources: dict[tuple[str, str], str] = {}

        def note(kind: str, entry: dict[str, Any], stored: int) -> None:
            if entry.get("id") is not None:
                sources[(kind, str(entry["id"]))] = str(stored)

        for pin in memory.get("pins", []):
            taken = [stored_ids[s] for s in pin.get("sources", []) if s in stored_ids]
            note(PIN_TEXT, pin, self.memory.add_pin(
                conversation_id, pin["text"], sources=taken, kind=str(pin.get("kind") or ""),
                created_at=pin.get("created_at")).id)
        for entry in memory.get("notes", []):
            note(NOTE_TEXT, entry, self.memory.add_note(
                conversation_id, entry["text"], priority=entry.get("priority", 3),
                created_at=entry.get("created_at")).id)
        have = {p.text.strip(): p.id for p in self.memory.preferences()}
        for preference in memory.get("preferences", []):
            text = preference["text"].strip()
            if text not in have:
                have[text] = self.memory.add_preference(
                    preference["text"], priority=preference.get("priority", 3),
                    created_at=preference.get("created_at")).id
            note(PREFERENCE_TEXT, preference, have[text])
        return sources

    def _summaries(self, conversation_id: int, summaries: list[dict[str, Any]],
                   stored_ids: dict[str, str]) -> dict[int, int]:
        """A file's rolling summaries with their provenance and times, and which earlier
        version each replaced or was edited from (by place in the list); one covering a
        turn that is not in the file any more is dropped (derived data follows its
        source), and a link to it with it. Returns each one's place → its id here."""
        made: dict[int, int] = {}  # place in the file → the id stored
        for place, entry in enumerate(summaries):
            covered = entry["covered_ids"]
            if not all(i in stored_ids for i in covered):
                continue
            cursor = self.db.execute_sql(
                "INSERT INTO summaries (conversation_id, first_ordinal, last_ordinal, "
                "covered_count, covered_digest, covered_ids, content, model, settings_key, "
                "created_at, content_bytes, content_tokens, usages, warnings) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (conversation_id, entry["first_ordinal"], entry["last_ordinal"], len(covered),
                 entry["covered_digest"], json.dumps([stored_ids[i] for i in covered]),
                 entry["content"], entry["model"], entry["settings_key"], entry["created_at"],
                 len(entry["content"].encode("utf-8")), entry["content_tokens"],
                 json.dumps(entry.get("usages", [])),
                 json.dumps(entry.get("warnings", []), ensure_ascii=False)))
            made[place] = int(cursor.lastrowid)
        for place, stored in made.items():
            entry = summaries[place]
            links = [made.get(entry[k]) if isinstance(entry.get(k), int) else None
                     for k in ("replaced", "edited_from")]
            self.db.execute_sql(
                "UPDATE summaries SET replaced_id = ?, edited_from = ?, undone = ? "
                "WHERE id = ?", (*links, int(entry.get("undone") is True), stored))
        return made

    def exported_records(self, conversation_id: int) -> list[dict[str, Any]]:
        """A conversation's request records as an export's `request` lines carry them."""
        with self.database.guard(), self.db.atomic():
            return carried_records.exported(self.db, conversation_id)

    def exported_usage(self, conversation_id: int) -> list[dict[str, Any]]:
        """A conversation's usage totals as an export's header carries them."""
        with self.database.guard():
            return carried_records.exported_usage(self.db, conversation_id)

    def exported_folders(self) -> list[dict[str, str]]:
        """Every folder (empty ones too) as an Export all carries them: name, when made."""
        with self.database.guard():
            return [{"name": name, "created_at": created} for name, created in
                    self.db.execute_sql("SELECT name, created_at FROM folders ORDER BY id")]

    def exported_summaries(self, conversation_id: int) -> list[dict[str, Any]]:
        """A conversation's rolling summaries as an export's `summary` records carry
        them: provenance (the turn ids covered, model, settings, time) and content."""
        with self.database.guard():
            cursor = self.db.execute_sql(
                "SELECT id, first_ordinal, last_ordinal, covered_digest, covered_ids, content, "
                "model, settings_key, created_at, content_tokens, usages, warnings, "
                "replaced_id, edited_from, undone FROM summaries WHERE conversation_id = ? "
                "ORDER BY id", (conversation_id,))
            rows = cursor.fetchall()
        place = {row[0]: n for n, row in enumerate(rows)}
        return [{"first_ordinal": first, "last_ordinal": last, "covered_digest": digest,
                 "covered_ids": json.loads(ids), "content": content, "model": model,
                 "settings_key": key, "created_at": created, "content_tokens": tokens,
                 "usages": json.loads(usages), "warnings": json.loads(warnings),
                 # the version it replaced and the one it was edited from, by place
                 "replaced": place.get(replaced), "edited_from": place.get(edited),
                 "undone": bool(undone)}
                for _id, first, last, digest, ids, content, model, key, created, tokens,
                usages, warnings, replaced, edited, undone in rows]

    def _side_stored(self, side_id: str) -> bool:
        return self.db.execute_sql("SELECT 1 FROM side_questions WHERE id = ?",
                                   (side_id,)).fetchone() is not None
