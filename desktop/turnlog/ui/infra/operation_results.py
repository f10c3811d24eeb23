"""What the window's storage operations (`operations`) answer with, besides `Changes`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...core.model import Conversation, Turn
from ...core.summaries import StoredSummary, SummaryVersion, VersionState
from ...core.versions import ForkOrigin, Versions

if TYPE_CHECKING:  # what the results hold: loaded by the operations that make them
    from ...core.memory import StoredNote, StoredPin, StoredPreference
    from ...core.numbers import TurnNumbers
    from .export_file import ExportTarget

# A conversation's versions, the turns they are made of (by id), and where it was forked.
Found = tuple[Versions, dict[str, Turn], ForkOrigin | None]


@dataclass(frozen=True, slots=True)
class Loaded:
    """A conversation's turns and newest summary, as opening it shows them."""

    conversation_id: int
    turns: Sequence[Turn]
    summary: StoredSummary | None


@dataclass(frozen=True, slots=True)
class Exported:
    turns: int
    bytes: int
    target: ExportTarget


@dataclass(frozen=True, slots=True)
class Kept:
    conversation_id: int
    turn: Turn


@dataclass(frozen=True, slots=True)
class MemoryState:
    """What the memory panel shows of one conversation, read in one go."""

    conversation: Conversation
    pins: list[StoredPin]
    notes: list[StoredNote]
    preferences: list[StoredPreference]
    ordinals: dict[str, int]  # source turn id → its ordinal
    numbers: dict[str, int]  # source turn id → its number as shown (`core.numbers`)


@dataclass(frozen=True, slots=True)
class HistoryState:
    """A conversation's compaction history as read, with its turns' numbers."""

    conversation_id: int
    versions: tuple[SummaryVersion, ...]
    numbers: TurnNumbers

    @property
    def current(self) -> SummaryVersion | None:
        return next((v for v in self.versions if v.state is VersionState.CURRENT), None)
