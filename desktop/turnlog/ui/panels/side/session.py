"""A side question sent: `SideSession` is a `SendSession` whose worker asks a side question
(core's `SideAsker`) instead of sending a turn: the same stages, streaming, prompt cancel
and network worker; "Keep as a turn" makes one a turn of the conversation."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ....core.attachments import Attachment
from ....core.budget import InvalidBudget
from ....core.failures import Failure, FailureKind, ProviderFailure, StoreError
from ....core.model import Conversation
from ....core.projection import CostIndex
from ....core.send_request import PartialAnswer
from ....core.side import (
    SideFailed,
    SideProjection,
)
from ....service.route import side_request_for
from ...infra.tasks import TaskContext
from ...request.connection import Endpoint, NotConnected, Reach
from ...request.send_session import SendSession, Sent, StreamBuffer

if TYPE_CHECKING:
    from ....service.chat import ChatStore


def side_on_worker(context: TaskContext, store: ChatStore, connector: Reach,
                   conversation: Conversation, question: str, costs: CostIndex,
                   stream: StreamBuffer) -> Sent:
    """The network worker's part: connect, then ask aside through core's `SideAsker`."""
    on_stage = lambda stage, detail: context.report((stage, detail))  # noqa: E731
    try:
        link = connector.connect(conversation, cancel=context.cancel, on_stage=on_stage)
        request = side_request_for(conversation, question, link.route,
                                   memory=store.memory(conversation.id))
    except StoreError as err:
        return Sent(SideFailed(err.failure(), question), None, summary_read=False)
    except (NotConnected, ProviderFailure) as err:
        return Sent(SideFailed(err.failure, question), None, summary_read=False)
    except InvalidBudget as err:
        failure = Failure(FailureKind.REFUSED, detail=str(err),
                          hint="Set the side questions' output reserve in Settings")
        return Sent(SideFailed(failure, question), None, summary_read=False)
    from ....service.chat import side_asker_for  # with the first side question, or the warm-up

    outcome = side_asker_for(store, link.provider, link.costs or costs).ask(
        request, cancel=context.cancel, on_stage=on_stage, on_delta=stream.append,
        on_projection=context.report)
    return Sent(outcome, None, summary_read=False)


class SideSession(SendSession):
    """One side question at a time, through the network worker like any send."""

    def _work(self, conversation: Conversation, question: str, endpoint: Endpoint,
              costs: CostIndex, stream: StreamBuffer, replaces: str | None,
              partial: PartialAnswer | None = None, attachments: tuple[Attachment, ...] = (),
              seed: int | None = None) -> Callable[[TaskContext], Sent]:
        # A side answer is never continued nor regenerated (no seed), and a side question
        # is asked without files (the window keeps the draft's files for the next question
        # of the conversation).
        store, connector = self._store, self._connector

        def work(context: TaskContext) -> Sent:
            return side_on_worker(context, store, connector, conversation, question, costs,
                                  stream)

        return work

    def _progress(self, item: object) -> None:
        if isinstance(item, SideProjection):
            if not self._discard:
                self.projected.emit(item)
            return
        super()._progress(item)
