"""A conversation's title after an answer is saved.

A title taken from the first question is written by the store with the first turn;
`ConversationTitles` reads it back (on the storage worker) and announces it, so the
list, the header and the window show it at once. Where the profile in use asks for it
(`Profile.makes_titles`), the model then names the conversation after its first answer:
one short request of its own on the network worker, recorded like any request, that
never holds up the chat (a send cancels it; it is tried again after the next answer)
and never replaces a title the user typed. Its failure is only logged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QObject, SignalInstance

from ...core.failures import ProviderFailure, StoreError
from ...core.model import Conversation
from ...core.outcome import Committed, Stage
from ...core.titles import QUESTION, name_by_model
from ..infra.changes import Changes
from ..infra.open_log import OpenLog
from ..infra.operations import announce, reread_conversation
from ..infra.tasks import TaskContext, TaskHandle, TaskRunner
from ..request.connection import NotConnected, Reach
from ..request.provider_setup import ProviderSetup
from ..request.send_session import SendResult, SendSession

log = logging.getLogger(__name__)


class Requests(Protocol):
    """Requests of the chat (a send, a side question) a title request yields to."""

    @property
    def running_changed(self) -> SignalInstance: ...


@dataclass(frozen=True, slots=True)
class TitleParts:
    """What titles work with: storage and the connection, the profiles (whose one in use
    may ask the model for titles), the send session, and the conversations on show."""

    log: OpenLog  # a title read back or made is announced on its bus
    connector: Reach
    setup: ProviderSetup | None
    session: SendSession
    shown: Callable[[], Iterable[Conversation]]  # the open conversation first, then the list


class ConversationTitles(QObject):
    """Listens to the send session and names its conversations."""

    def __init__(self, parts: TitleParts, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.parts = parts
        self._naming: TaskHandle[Conversation | None] | None = None
        self._named: set[int] = set()  # conversations the model was asked to name
        self._naming_id: int | None = None
        parts.session.finished.connect(self.finished)
        self.yield_to(parts.session)

    def yield_to(self, session: Requests) -> None:
        """Requests of `session` (a send, a side question) go first: one starting stops a
        title request still running."""
        session.running_changed.connect(self._running_changed)

    def finished(self, result: SendResult) -> None:
        """An answer was saved in a conversation titled after its first question: show
        the title as it is now, then let the model name it if the profile asks for that."""
        parts = self.parts
        conversation = self._known(result.conversation_id)
        if not isinstance(result.outcome, Committed) or parts.log.runner.closed \
                or conversation is None or conversation.title_source != QUESTION:
            return
        reread_conversation(parts.log.store, conversation).run(
            parts.log.runner, on_success=lambda changes: self._reread(changes, conversation),
            on_failure=lambda error: log.warning("reading a title back: %s", error))

    def _known(self, conversation_id: int) -> Conversation | None:
        """The conversation as the window shows it: the open one, or the list's (the
        person may have moved on while the answer arrived)."""
        return next((c for c in self.parts.shown() if c.id == conversation_id), None)

    def _reread(self, changes: Changes, conversation: Conversation) -> None:
        if changes.conversation is not None:
            announce(self.parts.log.changes, changes, self)
        now = changes.conversation or conversation
        if now.title_source == QUESTION and self.model_names():
            self.name(now)

    def model_names(self) -> bool:
        """Whether the profile in use has the model name new conversations."""
        setup = self.parts.setup
        profile = setup.active() if setup is not None else None
        return profile is not None and profile.makes_titles

    @property
    def naming(self) -> bool:
        """Whether a title request is running."""
        return self._naming is not None and not self._naming.done

    def name(self, conversation: Conversation) -> None:
        """Ask the model, once per conversation, for a title made from its first turn."""
        parts = self.parts
        if conversation.id in self._named or self.naming or parts.log.runner.closed:
            return
        self._named.add(conversation.id)
        self._naming_id = conversation.id
        store, connector = parts.log.store, parts.connector

        def work(context: TaskContext) -> Conversation | None:
            first = store.conversations.first_turn(conversation.id)
            if first is None:
                return None
            _, turn = store.turns.get(first)
            link = connector.connect(conversation, cancel=context.cancel,
                                     on_stage=_quiet)
            return name_by_model(store, link.provider, conversation, turn, link.route.model,
                                 cancel=context.cancel, pricing=link.route.pricing)

        self._naming = parts.log.runner.run(
            TaskRunner.NETWORK, "name the conversation", work,
            on_success=self._named_by_model,
            on_failure=lambda error: self._not_named(conversation.id, error))

    def _named_by_model(self, conversation: Conversation | None) -> None:
        if conversation is not None:
            announce(self.parts.log.changes, Changes(conversation, renamed=True), self)

    def _not_named(self, conversation_id: int, error: BaseException) -> None:
        if isinstance(error, NotConnected | ProviderFailure | StoreError):
            log.info("no title from the model for conversation %s: %s", conversation_id,
                     error)
            return
        raise error  # a bug: for the crash report, never a banner over the chat

    def _running_changed(self, running: bool) -> None:
        """A send goes first: a title request still running is stopped, and asked again
        after the next answer."""
        handle = self._naming
        if running and handle is not None and not handle.done:
            handle.cancel()
            self._named.discard(self._naming_id or 0)


def _quiet(stage: Stage, detail: str) -> None:
    """A title request shows no stages: it is not the chat's."""
