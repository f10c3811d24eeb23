"""The approval card: before a tool call runs, the window shows which tool, of which
server, with which arguments, and asks — Run, Always allow this tool in this
conversation, or Deny. Inline above the composer, never a pop-up over it."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core.tools import Approval, ToolCall
from ..infra import operations
from ..infra.languages import arg
from ..request.send_session import ToolProblems
from ..request.tool_gate import ToolGate

translate = QCoreApplication.translate  # translate("ToolApproval", …): lupdate reads it


class ApprovalCard(QFrame):
    """One call waiting for the person's answer (`answered`)."""

    answered = Signal(object)  # Approval

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("toolApprovalCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        column = QVBoxLayout(self)
        self.heading = QLabel(self)
        self.heading.setObjectName("toolApprovalHeading")
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        column.addWidget(self.heading)
        self.arguments = QPlainTextEdit(self)
        self.arguments.setReadOnly(True)
        self.arguments.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.arguments.setMaximumHeight(140)
        self.arguments.setAccessibleName(translate("ToolApproval", "Arguments"))
        column.addWidget(self.arguments)
        row = QHBoxLayout()
        self.run_button = QPushButton(translate("ToolApproval", "Run"), self)
        self.always_button = QPushButton(
            translate("ToolApproval", "Always allow this tool in this conversation"), self)
        self.deny_button = QPushButton(translate("ToolApproval", "Deny"), self)
        for button, approval in ((self.run_button, Approval.RUN),
                                 (self.always_button, Approval.ALWAYS),
                                 (self.deny_button, Approval.DENY)):
            button.clicked.connect(lambda _=False, a=approval: self._answer(a))
            row.addWidget(button)
        row.addStretch(1)
        column.addLayout(row)
        self.call: ToolCall | None = None
        self.hide()

    def ask(self, call: ToolCall, server: str) -> None:
        self.call = call
        self.heading.setText(
            arg(translate("ToolApproval", "The model wants to run the tool “%1” of %2. "
                          "Run it?"), call.name, server) if server else
            arg(translate("ToolApproval", "The model wants to run the tool “%1”. Run it?"),
                call.name))
        self.arguments.setPlainText(call.pretty_arguments())
        self.show()
        self.run_button.setFocus()
        QApplication.alert(self.window())

    def _answer(self, approval: Approval) -> None:
        self.hide()
        self.answered.emit(approval)


def attach_tools(window: Any) -> ToolGate:
    """The window's tool servers and the approval card above its composer, wired; the
    servers stop when the window goes."""
    gate = ToolGate(window.store.home, window)
    window.session.tools = gate
    window.preview.tools = gate  # the preview offers what a send offers
    card = ApprovalCard(window.centre)
    column = window.centre.layout()
    column.insertWidget(column.indexOf(window.banner), card)
    gate.approval_needed.connect(card.ask)
    gate.approval_over.connect(card.hide)
    card.answered.connect(gate.answer)

    def remember(approval: Approval) -> None:
        conversation_id = window.session.conversation_id
        if approval is Approval.ALWAYS and card.call is not None and conversation_id:
            operations.allow_tool_always(window.store, conversation_id, card.call.name).announce(
                window.runner, window.changes, card, on_failure=window.history.failed.emit)

    card.answered.connect(remember)

    def say_problems(problems: ToolProblems) -> None:
        text = "; ".join(arg(translate("ToolApproval", "%1 %2"), name, what)
                         for name, what in problems.servers)
        window.statusBar().showMessage(arg(translate(
            "ToolApproval", "Sent without the tools of: %1 (Settings → Tools)"), text), 30_000)

    window.session.tool_problems.connect(say_problems)
    window.destroyed.connect(gate.host.close)
    app = QCoreApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(gate.close)
    window.tool_card = card
    return gate
