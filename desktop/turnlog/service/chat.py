"""Wiring a send for a conversation: the sender, with the summary maker it compacts
through, and a new conversation's first send.

The window and `turnlog-cli` both build requests here, so a preview, a CLI
projection and a real send of the same question produce the same bytes. Connecting
(`service.connect`), the route and the candidate (`service.route`) and counting without
waiting (`service.known_counts`) are named here too, for who connects and sends.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from ..core.compaction import SummaryStore
from ..core.memory import Memory
from ..core.model import (
    Conversation,
    ConversationSettings,
    Turn,
)
from ..core.projection import CostIndex
from ..core.provider import ChatProvider
from ..core.retry import RetryPolicy
from ..core.send import (
    LogStore,
    PendingTurn,
    RequestLog,
    RequestRecord,
    Room,
    Sender,
)
from ..core.title_sources import QUESTION, USER
from ..store.pages import paged

# Connecting, named here too for who connects and sends.
from .connect import Connection as Connection
from .connect import KeyLookup as KeyLookup
from .connect import LocalModels as LocalModels
from .connect import NotConnected as NotConnected
from .connect import Providers as Providers
from .connect import connect_local as connect_local
from .connect import connect_profile as connect_profile
from .connect import key_for as key_for
from .connect import network_checks as network_checks
from .connect import prepare_profile as prepare_profile

# Counting without waiting, named here too.
from .known_counts import CancellableCounts as CancellableCounts
from .known_counts import CountNotKnown as CountNotKnown
from .known_counts import KnowingCounter as KnowingCounter
from .known_counts import KnownCounts as KnownCounts
from .known_counts import known_costs as known_costs

# The route and the candidate, named here too.
from .route import ProviderConfig as ProviderConfig
from .route import Route as Route
from .route import budget_for as budget_for
from .route import local_route as local_route
from .route import model_for as model_for
from .route import options_for as options_for
from .route import pending_local_route as pending_local_route
from .route import profile_route as profile_route
from .route import request_for as request_for
from .route import settings_for as settings_for
from .route import side_request_for as side_request_for
from .route import side_reserve_for as side_reserve_for
from .route import window_for as window_for
from .route import window_warning as window_warning

if TYPE_CHECKING:
    from ..core.side import SideAsker, SideLog, SideStore


def side_asker_for(store: SideStore, provider: ChatProvider, costs: CostIndex) -> SideAsker:
    """An asker that reads the log as a send does (a page at a time)."""
    from ..core.side import SideAsker

    return SideAsker(paged(store), provider, costs=costs)


class ChatRecords(RequestLog, SummaryStore, Protocol):
    """The records part of a store (`store.records`), as a send that compacts uses it."""


class MemoryOf(Protocol):
    """The memory part of a store (`store.memory`), as a request reads it."""

    def __call__(self, conversation_id: int) -> Memory: ...


class ChatStore(LogStore, Protocol):
    """The log, its summaries, side questions and memory, part by part (`TurnlogStore`
    is one)."""

    @property
    def records(self) -> ChatRecords: ...

    @property
    def side(self) -> SideLog: ...

    @property
    def memory(self) -> MemoryOf: ...


def sender_for(store: ChatStore, provider: ChatProvider, costs: CostIndex,
               retry: RetryPolicy | None = None) -> Sender:
    """A sender that compacts through the same provider as it answers, and tries an
    answer again within `retry`'s budget (None: never)."""
    from ..core.compaction import Compactor  # the summary maker: a send's, not a preview's

    return Sender(paged(store), provider, costs=costs,
                  compactor=Compactor(store.records, provider, costs=costs), retry=retry)


class FirstTurns(Protocol):
    """The turns part of a store (`store.turns`), as a first send writes it."""

    def start_with_turn(self, title: str, pending: PendingTurn, *, model: str = "",
                        settings: ConversationSettings | None = None,
                        title_source: str = USER) -> tuple[Conversation, Turn]: ...


class FirstTurnStore(Protocol):
    """A store that can start a conversation with its first turn, part by part
    (`TurnlogStore` is one)."""

    @property
    def turns(self) -> FirstTurns: ...

    @property
    def records(self) -> RequestLog: ...

    @property
    def database(self) -> Room: ...


class _NoTurnsYet:
    """The turns of a conversation that does not exist yet: none, until the first commit
    creates it (`NewConversation.turns`)."""

    def __init__(self, new: NewConversation) -> None:
        self._new = new

    def __call__(self, conversation_id: int) -> tuple[Turn, ...]:
        return ()

    def commit(self, conversation_id: int, pending: PendingTurn) -> Turn:
        return self._new.commit_first(pending)


class _FirstGeneration:
    """A conversation that does not exist yet has had nothing deleted."""

    def generation(self, conversation_id: int) -> int:
        return 0


class _HeldRecords:
    """Request records of a conversation that does not exist yet: held until its first
    commit, then written with it (`NewConversation.records`)."""

    def __init__(self, new: NewConversation) -> None:
        self._new = new

    def add(self, record: RequestRecord) -> None:
        self._new.record(record)


class NewConversation:
    """The log of a conversation that does not exist yet: empty until its first answer
    is committed, which creates it in the same transaction (`turns.start_with_turn`). Nothing
    is written before: a failed or killed first send leaves no empty conversation. The
    request records of attempts before the commit are kept here and written with it;
    after a failure they go with the conversation that never was. With no `title`, it is
    titled after its first question (`core.titles`). It has the parts a send uses
    (`turns`, `conversations`, `records`, `database`), as a store has."""

    def __init__(self, store: FirstTurnStore, title: str | None = None, *,
                 model: str = "") -> None:
        self.store = store
        self.draft = Conversation(0, title or "", model=model,
                                  title_source=USER if title else QUESTION)
        self.created: Conversation | None = None
        self._records: list[RequestRecord] = []
        self.turns = _NoTurnsYet(self)
        self.conversations = _FirstGeneration()
        self.records = _HeldRecords(self)
        self.database = store.database

    def commit_first(self, pending: PendingTurn) -> Turn:
        """Create the conversation with `pending` as its first turn, then write the
        request records held until now."""
        self.created, turn = self.store.turns.start_with_turn(
            self.draft.title, pending, model=self.draft.model, settings=self.draft.settings,
            title_source=self.draft.title_source)
        records, self._records = self._records, []
        for record in records:
            self.record(record)
        return turn

    def record(self, record: RequestRecord) -> None:
        """Keep a request record: held while the conversation does not exist yet."""
        if self.created is None:
            self._records.append(record)
        else:
            self.store.records.add(replace(record, conversation_id=self.created.id))

    def sender(self, provider: ChatProvider, costs: CostIndex,
               retry: RetryPolicy | None = None) -> Sender:
        """A sender into this conversation (no compaction: it has no turns to fold)."""
        return Sender(self, provider, costs=costs, retry=retry)


