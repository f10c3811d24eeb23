"""What an import brings in, before the store writes it: conversations read from a file
(Turnlog's JSON lines, a ChatGPT export), each with its turns and what was left out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .attachments import Attachment
from .import_sources import SOURCE_NAMES as SOURCE_NAMES  # named here as before
from .import_sources import source_name as source_name
from .pending import PendingTurn
from .side_records import SideAttempt, SideQuestion


class ImportProblem(ValueError):
    """A file that cannot be imported, said in words a person can act on."""


class ImportCancelled(Exception):
    """The person cancelled an import; the transaction is rolled back."""


@dataclass(frozen=True, slots=True)
class ImportedTurn:
    """A turn as the file has it; `ordinal` when the file numbers its turns."""

    pending: PendingTurn
    ordinal: int | None = None


@dataclass(slots=True)
class ImportedConversation:
    """One conversation read from a file.

    `source_ids`: the turn ids come from the source (a ChatGPT message id), so a
    re-import finds what it already brought in and adds only what is new. Otherwise the
    ids are the file's own (a Turnlog export): kept where free, a fresh one where taken.
    A turn id of `""` gets a fresh one when written. `turns` may be a one-shot iterable
    read from the file as it is written, so a long
    conversation never sits in memory whole.
    """

    title: str
    system_prompt: str
    model: str
    turns: Iterable[ImportedTurn]
    created_at: datetime | None = None
    updated_at: datetime | None = None
    settings: dict[str, Any] | None = None
    next_ordinal: int | None = None
    source_ids: bool = False
    # The conversation's global id, derived from its source's id (UUID 5), so machines that
    # import the same export hold one conversation; "" for a random one.
    global_id: str = ""
    skipped: Counter[str] = field(default_factory=Counter)
    # Turn id → the id of the turn that replaced it (versions), as the file has them;
    # complete once `turns` has been read through.
    superseded_by: dict[str, str] = field(default_factory=dict)
    # The conversation's memory as an export's header has it (pins with the file's turn
    # ids as sources, notes, preferences), and its side questions, read after its turns.
    memory: dict[str, list[dict[str, Any]]] | None = None
    side_questions: list[SideQuestion] = field(default_factory=list)
    # Where a conversation from elsewhere comes from ("chatgpt") and the model it had
    # there: provenance, never its `model` (a request names the profile's model, or one
    # the user picks). A Turnlog file gives back its conversation's own chosen model.
    source: str = ""
    source_model: str = ""
    # A Turnlog file's: every supersede record as (turn id, by turn id, time), in order,
    # and its summaries (as its header has them).
    supersede_records: list[tuple[str, str, str]] = field(default_factory=list)
    summaries: list[dict[str, Any]] = field(default_factory=list)
    # A Turnlog file's: the sidebar folder it was in ("" none; made if missing) and its star.
    folder: str = ""
    starred: bool = False
    # An Export all's: failed side requests, the assistant it started from (its name, and
    # whether it still existed), and where it was forked from (a turn id of the source,
    # None once that was deleted; the ordinal).
    side_attempts: list[SideAttempt] = field(default_factory=list)
    assistant: tuple[str, bool] | None = None
    fork: tuple[str | None, int] | None = None
    # An Export all's request records (numbers and references, as `request` lines carry
    # them, read after its turns) and its usage totals as the exporting directory counted
    # them (one entry per profile, model and currency).
    requests: list[dict[str, Any]] = field(default_factory=list)
    usage: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ImportedProject:
    """A project of another service (a Claude project): a folder for the conversations
    that name it, and an assistant whose system prompt is its instructions as written
    (never filled), with its documents as the assistant's files."""

    source_id: str
    folder: str  # the folder's name, one a folder can have
    assistant: str  # the assistant's name, one an assistant can have
    prompt: str
    files: tuple[Attachment, ...] = ()
    skipped: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class ProjectOutcome:
    """What became of a project: its folder, its assistant (named as stored), the prompt
    as written, the files' names; `added` False when an earlier import brought it."""

    folder: str
    assistant: str
    prompt: str
    files: tuple[str, ...]
    added: bool
    problem: str = ""  # why no assistant was made ("" when one was or is there)
    skipped: tuple[tuple[str, int], ...] = ()  # what of it was not imported, with why

    def to_json(self) -> dict[str, Any]:
        return {"folder": self.folder, "assistant": self.assistant, "prompt": self.prompt,
                "files": list(self.files), "added": self.added, "problem": self.problem}

    def describe(self) -> str:
        state = "added" if self.added else "already there"
        made = f"assistant {self.assistant} {state}" if not self.problem else \
            f"no assistant ({self.problem})"
        line = f"Claude project “{self.folder}”: folder {self.folder}, {made}"
        if self.files:
            line += ", files: " + ", ".join(self.files)
        prompt = self.prompt.replace("\n", "\n    ") if self.prompt.strip() else "(none)"
        return line + "; its system prompt, as written:\n    " + prompt


# A request record as an Export all carries it (a `{"record": "request", ...}` line): its
# numbers as stored, each with the types it may have (JSON columns as their stored text),
# and its references in terms of the file: `turn_id`, `run_first`, `run_last` are turn ids
# of the file, `summary` the place of a summary in the header's `summaries`,
# `versions_seen` how many of the header's `versions` the request saw, `tools` the tool
# definitions it offered (JSON text) and `texts` what it carried besides its turns, in
# wire order, as [kind, source, text] (text null: deleted since).
_INT, _TEXT, _REAL = (int,), (str,), (int, float)
_NONE = (type(None),)
REQUEST_FIELDS: dict[str, tuple[type, ...]] = {
    "started_at": _TEXT, "model": _TEXT, "outcome": _TEXT, "status": _INT + _NONE,
    "body_bytes": _INT, "max_bytes": _INT, "input_tokens": _INT, "token_budget": _INT,
    "tokens_exact": _INT, "sent": _TEXT, "summarized": _TEXT, "left_out": _TEXT,
    "usage": _TEXT + _NONE, "extra_usage": _TEXT, "duration_s": _REAL,
    "first_token_s": _REAL + _NONE, "turn_id": _TEXT + _NONE, "attempt": _INT,
    "body_format": _INT + _NONE, "sha256": _TEXT + _NONE, "run_first": _TEXT + _NONE,
    "run_last": _TEXT + _NONE, "run_first_ordinal": _INT + _NONE,
    "run_last_ordinal": _INT + _NONE, "run_count": _INT, "options": _TEXT + _NONE,
    "continued": _INT + _NONE, "prefill": _INT, "profile": _TEXT, "prices": _TEXT + _NONE,
    "output_estimate": _INT + _NONE, "round_usage": _TEXT,
}
REQUEST_REFERENCES: dict[str, tuple[type, ...]] = {
    "summary": _INT + _NONE, "versions_seen": _INT, "tools": _TEXT + _NONE,
    "texts": (list,) + _NONE}
# The JSON columns: each must hold JSON.
REQUEST_JSON = ("sent", "summarized", "left_out", "usage", "extra_usage", "sha256",
                "options", "prices", "round_usage", "tools")
# A conversation's usage totals as an Export all carries them (the header's `usage`).
USAGE_FIELDS: dict[str, tuple[type, ...]] = {
    "profile": _TEXT, "model": _TEXT, "currency": _TEXT, "requests": _INT,
    "input_tokens": _INT, "cached_tokens": _INT, "output_tokens": _INT, "estimated": _INT,
    "unpriced": _INT, "cost": _TEXT}


NOT_ATTACHED = "images not attached: these conversations changed since they were imported"


def added_text(files: int, images: int, turns: int) -> str:
    """What a richer import added to turns imported before: "attached 3 images to 3
    earlier imported turns"."""
    noun = ("image" if files == 1 else "images") if images == files else \
        ("file" if files == 1 else "files")
    return (f"attached {files:,} {noun} to {turns:,} earlier imported "
            f"turn{'' if turns == 1 else 's'}")


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    """What happened to one conversation: `id` is None when nothing was stored (every
    turn was skipped); `attached`: how many files its new turns brought; `added`: how
    many files a richer form of the export added to `added_turns` of its turns imported
    before (`added_images` of them images)."""

    id: int | None
    title: str
    turns: int
    skipped: tuple[tuple[str, int], ...]
    attached: int = 0
    added: int = 0
    added_turns: int = 0
    added_images: int = 0

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"id": self.id, "title": self.title, "turns": self.turns,
                                 "attached": self.attached}
        if self.added:  # a richer form of an export imported before
            found["added_to_earlier_turns"] = {"files": self.added, "turns": self.added_turns}
        return found | {"skipped": [{"reason": r, "count": n} for r, n in self.skipped]}

    def describe(self) -> str:
        where = f"conversation {self.id}" if self.id is not None else "not imported"
        line = f"{where}: {self.title} — {self.turns:,} turns imported"
        if self.attached:
            line += f", {self.attached:,} files attached"
        if self.added:
            line += ", " + added_text(self.added, self.added_images, self.added_turns)
        if self.skipped:
            line += "; skipped: " + "; ".join(f"{r}: {n:,}" for r, n in self.skipped)
        return line


class ImportReport(list[ImportOutcome]):
    """Each conversation's outcome, in the order read, with the source's name ("Claude
    export (.zip)") and what it held besides conversations that was not imported, with why
    (`skipped`: a project, the account data)."""

    def __init__(self, outcomes: Iterable[ImportOutcome] = (), *, source: str = "",
                 skipped: tuple[tuple[str, int], ...] = (),
                 projects: Iterable[ProjectOutcome] = (),
                 assistants: list[str] | None = None) -> None:
        super().__init__(outcomes)
        self.source = source
        self.skipped = skipped
        self.projects = list(projects)
        # An Export all's: the names of the assistants it added (None: it carried none).
        self.assistants = assistants

    def totals(self) -> dict[str, int]:
        """Conversations read, turns imported, files attached, and everything skipped
        (by reason, the source's own and each conversation's added up)."""
        found: Counter[str] = Counter(dict(self.skipped))
        for outcome in self:
            found.update(dict(outcome.skipped))
        for project in self.projects:
            found.update(dict(project.skipped))
        return {"conversations": len(self), "turns": sum(o.turns for o in self),
                "attached": sum(o.attached for o in self), **found}

    def summary(self) -> str:
        """One paragraph: the source, how much came in, and what did not, with why."""
        totals = self.totals()
        text = (f"{self.source}: {totals.pop('conversations'):,} conversations read, "
                f"{totals.pop('turns'):,} turns imported, {totals.pop('attached'):,} files "
                "attached")
        not_attached = totals.pop(NOT_ATTACHED, 0)
        if totals:
            text += "; skipped: " + "; ".join(f"{r}: {n:,}" for r, n in sorted(
                totals.items(), key=lambda kv: (-kv[1], kv[0])))
        added = sum(o.added for o in self)
        if added:
            text += "\n" + added_text(added, sum(o.added_images for o in self),
                                      sum(o.added_turns for o in self))
        if not_attached:
            text += (f"\n{not_attached:,} images not attached: these conversations changed "
                     "since they were imported (delete them and import the .zip again to "
                     "have their images)")
        if self.assistants is not None:
            text += "\nassistants added: " + (", ".join(self.assistants) or "none")
        for project in self.projects:  # each prompt seen as written before it is used
            text += "\n" + project.describe()
        return text
