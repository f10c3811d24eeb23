"""The context window a conversation's requests use, where it came from, and what it
leaves for input: one line under the Context window field of the "This conversation"
page, a warning when the server stated (or an overflow taught) a smaller window than the
one set by you, and *Forget learned window* while a window taught by an overflow is known.

It follows the page's fields as they are typed (the window set by you wins at once), from
the route the connector builds without touching the network or the keyring."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ...core.budget import (
    WINDOW_ASSUMED,
    WINDOW_FROM_SERVER,
    WINDOW_LEARNED,
    WINDOW_SET_BY_YOU,
    Budget,
    InvalidBudget,
)
from ...core.model import Conversation
from ...service.chat import Route, budget_for, window_for, window_warning
from ..infra.languages import arg

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it

SOURCES = {
    WINDOW_SET_BY_YOU: QT_TRANSLATE_NOOP("WindowInEffect", "set by you"),
    WINDOW_FROM_SERVER: QT_TRANSLATE_NOOP("WindowInEffect", "from the server"),
    WINDOW_ASSUMED: QT_TRANSLATE_NOOP("WindowInEffect", "assumed"),
}


def source_text(source: str, learned_on: str) -> str:
    """"set by you", "from the server", "learned from an overflow on 2026-12-02", …"""
    if source == WINDOW_LEARNED:
        if learned_on:
            return arg(translate("WindowInEffect", "learned from an overflow on %1"), learned_on)
        return translate("WindowInEffect", "learned from an overflow")
    return translate("WindowInEffect", SOURCES.get(source, source))


def in_effect_text(budget: Budget, source: str, learned_on: str) -> str:
    return arg(translate("WindowInEffect", "In effect: %1 tokens, %2 · output reserve %3 · "
                         "input up to %4 tokens"),
               f"{budget.context_window:,}", source_text(source, learned_on),
               f"{budget.output_reserve:,}", f"{max(budget.input_tokens, 0):,}")


class WindowInEffect(QWidget):
    """The window in effect for `conversation` with the settings being edited.
    `route()`: the conversation's route now (None: no provider set up); `forget()`: forget
    the window an overflow taught for that route's profile and model. `forgotten` is
    emitted after a forget, so the page shows the window in effect again."""

    forgotten = Signal()

    def __init__(self, route: Callable[[], Route | None],
                 forget: Callable[[], None] | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._route_of = route
        self._forget = forget
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.summary = QLabel(self)
        self.summary.setObjectName("windowInEffect")
        self.summary.setWordWrap(True)
        column.addWidget(self.summary)
        self.warning = QLabel(self)
        self.warning.setObjectName("windowWarning")
        self.warning.setWordWrap(True)
        column.addWidget(self.warning)
        row = QHBoxLayout()
        self.forget_button = QPushButton(
            translate("WindowInEffect", "&Forget learned window"), self)
        self.forget_button.setToolTip(translate("WindowInEffect",
            "Forget the window an overflow error stated; the server is asked again with "
            "the next question"))
        self.forget_button.clicked.connect(self._forget_now)
        row.addWidget(self.forget_button)
        row.addStretch(1)
        column.addLayout(row)
        self._route: Route | None = None

    def show_for(self, conversation: Conversation) -> None:
        """Say what `conversation` (with the settings as typed) would send in."""
        self._route = route = self._route_of()
        if route is None:
            self.setVisible(False)
            return
        self.setVisible(True)
        window, source = window_for(conversation, route)
        learned_on = route.server_window_learned_on if source == WINDOW_LEARNED else ""
        try:
            budget = budget_for(conversation, route)
        except InvalidBudget:
            self.summary.setText("")  # the page's problem line says what is wrong
        else:
            self.summary.setText(in_effect_text(budget, source, learned_on))
        warned = window_warning(conversation, route)
        self.warning.setVisible(warned is not None)
        if warned is not None and window is not None:
            stated, stated_source = warned
            self.warning.setText(arg(translate("WindowInEffect",
                "⚠ The server’s window is %1 tokens (%2), smaller than the %3 set by you: "
                "requests larger than that may overflow."), f"{stated:,}",
                source_text(stated_source, route.server_window_learned_on), f"{window:,}"))
        self.forget_button.setVisible(self._forget is not None
                                      and route.server_window_source == WINDOW_LEARNED)

    def _forget_now(self) -> None:
        if self._forget is not None:
            self._forget()
            self.forgotten.emit()
