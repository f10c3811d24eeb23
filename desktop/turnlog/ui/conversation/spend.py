"""What the open conversation cost: in the header (in all) and on each turn's hover (its
answer, with its tool rounds, summary and title calls), read from its request records off
the GUI thread when another conversation opens, a request ends or turns go — the newest
turns' at once, an older turn's when it is hovered (then its tooltip is shown again)."""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QAbstractItemView, QToolTip

from ...core.cost import UsageLine
from ...service.usage import ConversationCosts
from ..infra.changes import Changes
from ..infra.cost_text import totals_text, turn_cost_text
from ..infra.open_log import OpenLog
from ..infra.usage_operations import read_conversation_costs, read_turn_cost
from ..request.live_preview import LivePreview
from ..transcript.model import PENDING_KEY, Role, TranscriptModel
from .header import ConversationHeader

log = logging.getLogger(__name__)


class ConversationSpend(QObject):
    """Keeps the header's cost line and the turns' cost tooltips of the open conversation."""

    def __init__(self, log: OpenLog, header: ConversationHeader, transcript: TranscriptModel,
                 preview: LivePreview, parent: QObject | None = None, *,
                 view: QAbstractItemView | None = None) -> None:
        super().__init__(parent)
        self.log, self.header, self.transcript, self.view = log, header, transcript, view
        self.loaded_id: int | None = None
        self._record: object = None  # the last request's record a read was made after
        self._costs: dict[str, str] = {}  # turn id → its cost in words: newest and hovered
        self._asked: set[str] = set()  # the turns whose cost a hover read (or is reading)
        self._hovered: tuple[str, QPoint] | None = None  # the turn under the pointer, and where
        if view is not None:
            view.viewport().installEventFilter(self)
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
        self._asked.clear()
        if costs is None:
            self._costs = {}
        else:  # the turns hovered before keep theirs; the newest are read again
            self._costs.update((turn, turn_cost_text(line)) for turn, line in
                               costs.turns.items())
        self.transcript.set_costs(self._costs)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            self._hover(event.pos())
        elif event.type() == QEvent.Type.Leave:
            self._hovered = None
        return False  # the view shows its tooltip as ever

    def _hover(self, pos: QPoint) -> None:
        """Read the hovered turn's cost when it is not known yet (one read per turn)."""
        assert self.view is not None
        turn = self.view.indexAt(pos).data(Role.KEY)
        cid = self.loaded_id
        if not isinstance(turn, str) or turn == PENDING_KEY or cid is None:
            self._hovered = None
            return
        self._hovered = (turn, QPoint(pos))
        if turn in self._costs or turn in self._asked or self.log.runner.closed:
            return
        self._asked.add(turn)
        read_turn_cost(self.log.store, cid, turn).run(
            self.log.runner, on_success=lambda line: self._turn_read(cid, turn, line),
            on_failure=self._not_read)

    def _turn_read(self, cid: int, turn: str, line: UsageLine | None) -> None:
        text = turn_cost_text(line)
        if cid != self.loaded_id or not text:
            return
        self._costs[turn] = text
        self.transcript.set_costs(self._costs)
        hovered, view = self._hovered, self.view
        if view is None or hovered is None or hovered[0] != turn:
            return  # the pointer moved on: the cost shows at the next hover
        index = view.indexAt(hovered[1])
        tip = index.data(Qt.ItemDataRole.ToolTipRole)
        if index.data(Role.KEY) == turn and tip:
            viewport = view.viewport()
            QToolTip.showText(viewport.mapToGlobal(hovered[1]), tip, viewport)
