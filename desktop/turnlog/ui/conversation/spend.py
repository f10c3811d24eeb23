"""What the open conversation cost: in the header (in all) and on each turn's hover (its
answer, with its tool rounds, summary and title calls), read from its request records off
the GUI thread when another conversation opens, a request ends or turns go."""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject

from ...service.usage import ConversationCosts
from ..infra.changes import Changes
from ..infra.cost_text import totals_text, turn_cost_text
from ..infra.open_log import OpenLog
from ..infra.usage_operations import read_conversation_costs
from ..request.live_preview import LivePreview
from ..transcript.model import TranscriptModel
from .header import ConversationHeader

log = logging.getLogger(__name__)


class ConversationSpend(QObject):
    """Keeps the header's cost line and the turns' cost tooltips of the open conversation."""

    def __init__(self, log: OpenLog, header: ConversationHeader, transcript: TranscriptModel,
                 preview: LivePreview, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.log, self.header, self.transcript = log, header, transcript
        self.loaded_id: int | None = None
        self._record: object = None  # the last request's record a read was made after
        preview.shown_changed.connect(self._shown)
        log.changes.changed.connect(lambda changes, _origin: self._changed(changes))

    def _open_id(self) -> int | None:
        conversation = self.log.conversation()
        return conversation.id if conversation is not None else None

    def _shown(self, shown: Any) -> None:
        cid = self._open_id()
        record = getattr(shown, "record", None)
        if cid != self.loaded_id:
            self.loaded_id = cid
            self._show(None)
            self.reload()
        elif record is not None and record is not self._record:
            self._record = record  # a request ended: its cost joins the conversation's
            self.reload()

    def _changed(self, changes: Changes) -> None:
        cid = self.loaded_id
        if cid is None:
            return
        if changes.closes(cid):
            self.loaded_id = None
            self._show(None)
        elif changes.turns_of == cid or (changes.conversation is not None
                                         and changes.conversation.id == cid
                                         and (changes.renamed or changes.appended)):
            self.reload()

    def reload(self) -> None:
        cid = self.loaded_id
        if cid is None or self.log.runner.closed:
            return
        read_conversation_costs(self.log.store, cid).run(
            self.log.runner, on_success=self._loaded, on_failure=self._not_read)

    @staticmethod
    def _not_read(error: BaseException) -> None:
        # Bookkeeping: the conversation works without its cost line; the fault is logged.
        log.warning("the conversation's costs could not be read: %s", error)

    def _loaded(self, costs: ConversationCosts) -> None:
        if costs.conversation_id == self.loaded_id:  # not another one opened meanwhile
            self._show(costs)

    def _show(self, costs: ConversationCosts | None) -> None:
        self.header.set_spent(totals_text(costs.totals) if costs is not None else "")
        self.transcript.set_costs({turn: turn_cost_text(line) for turn, line in
                                   costs.turns.items()} if costs is not None else {})
