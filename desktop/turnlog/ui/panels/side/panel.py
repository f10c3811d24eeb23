"""The Side questions panel: lists the conversation's side questions, shows the answer
streaming in, keeps the side draft on any failure with the reason inline, offers "Keep as
a turn", and has a side inspector showing the side request like any request, labelled
"side question"."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from PySide6.QtCore import QCoreApplication, QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from ....core.model import Usage
from ....core.side import (
    SideAttempt,
    SideQuestion,
    attempts_usage,
)
from ...conversation.composer import DraftEdit
from ...infra.cost_text import money
from ...infra.languages import arg, plural
from ...infra.theme import tone_text
from ...request.inspector import Inspector
from ...transcript.markdown import AnswerBrowser
from ...transcript.marks import usage_text

ITEM_CHARS = 160  # of the answer, in the list
_READ_CHARS = 4_000  # of the answer's Markdown read for them: far more than they need


def reads_as(markdown: str) -> str:
    """`markdown` as it reads once rendered (no `**`, no code fences), on one line."""
    doc = QTextDocument()
    doc.setMarkdown(markdown[:_READ_CHARS], QTextDocument.MarkdownFeature.MarkdownNoHTML)
    return " ".join(doc.toPlainText().split())


def side_item_text(side: SideQuestion) -> str:
    """The list's entry: the question, then the start of the answer as it reads."""
    answer = reads_as(side.answer)
    cut = "…" if len(answer) > ITEM_CHARS else ""
    return f"{side.question.strip()}\n→ {answer[:ITEM_CHARS]}{cut}"


def side_usage_text(sides: Sequence[SideQuestion],
                    attempts: Sequence[SideAttempt] = ()) -> str:
    """The side questions' usage, failed side requests' included (named apart)."""
    known = [s.usage for s in sides if s.usage.known]
    if not sides and not attempts:
        return QCoreApplication.translate(
            "SidePanel", "No side questions in this conversation yet."
        )
    failed = attempts_usage(attempts)
    total = Usage(*(sum(getattr(u, name) or 0 for u in [*known, failed]) or None
                    for name in ("prompt_tokens", "completion_tokens", "total_tokens")))
    asked, failures = len(sides), len(attempts)
    text = arg(
        plural(
            QCoreApplication.translate(
                "SidePanel",
                "%n side question(s), counted in the conversation's usage: %1",
                None,
                asked,
            ),
            asked,
        ),
        usage_text(total) + side_cost_text([*sides, *attempts]),
    )
    if attempts:
        text += arg(
            plural(
                QCoreApplication.translate(
                    "SidePanel", " — %n failed side request(s) included: %1", None, failures
                ),
                failures,
            ),
            usage_text(failed),
        )
    return text


def side_cost_text(asked: Sequence[SideQuestion | SideAttempt]) -> str:
    """" · 0.0012 USD" for what side requests cost at the prices they went at (each
    currency apart, estimated where a count was Turnlog's own); "" when none was priced."""
    amounts: dict[str, tuple[Decimal, bool]] = {}
    for item in asked:
        amount, prices = item.cost, item.pricing.prices
        if amount is None or prices is None:
            continue
        got, estimated = amounts.get(prices.currency, (Decimal(0), False))
        amounts[prices.currency] = got + amount, estimated or item.tokens.estimated
    return "".join(" · " + money(amount, currency, estimated=estimated)
                   for currency, (amount, estimated) in sorted(amounts.items()))


class EntryDelegate(QStyledItemDelegate):
    """A list entry as wide as the list (never wider: its lines are cut, not scrolled)."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
                 ) -> QSize:  # noqa: N802 - Qt's name
        return QSize(1, super().sizeHint(option, index).height())


class SidePanel(QWidget):
    """The dock's contents: side questions of the open conversation, the side draft,
    its stages and failures, and the side inspector."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidePanel")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        top = QWidget(splitter)
        layout = QVBoxLayout(top)
        layout.setContentsMargins(0, 0, 0, 0)
        about = QLabel(
            QCoreApplication.translate(
                "SidePanel",
                "Ask about this conversation without adding to it. Answers stay here, not in the "
                "transcript.",
            ),
            top,
        )
        about.setWordWrap(True)
        layout.addWidget(about)
        self.list = QListWidget(top)
        self.list.setObjectName("sideList")
        self.list.setAccessibleName(QCoreApplication.translate("SidePanel", "Side questions"))
        # Two lines an entry, each cut with "…" to the list's width: an entry always fits,
        # so no line is cut through by the list's edge and scrolling reaches every one.
        self.list.setWordWrap(False)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setItemDelegate(EntryDelegate(self.list))
        layout.addWidget(self.list, 1)
        self.answer = AnswerBrowser(top)
        self.answer.setObjectName("sideAnswer")
        self.answer.setAccessibleName(QCoreApplication.translate("SidePanel", "Side answer"))
        self.answer.setOpenLinks(False)
        layout.addWidget(self.answer, 2)
        self.keep_button = QPushButton(
            QCoreApplication.translate("SidePanel", "Keep as a turn"), top
        )
        self.keep_button.setToolTip(
            QCoreApplication.translate(
                "SidePanel",
                "Append this side question and its answer to the conversation as a normal turn",
            )
        )
        self.keep_button.setEnabled(False)
        layout.addWidget(self.keep_button)
        self._build_input(top, layout)
        self.usage = QLabel(top)
        self.usage.setObjectName("sideUsage")
        self.usage.setWordWrap(True)
        layout.addWidget(self.usage)
        self.inspector = Inspector(splitter)
        self.inspector.setAccessibleName(
            QCoreApplication.translate("SidePanel", "Side request inspector")
        )
        self.inspector.slider.hide()
        self.inspector.reset_button.hide()
        splitter.addWidget(top)
        splitter.addWidget(self.inspector)
        outer.addWidget(splitter)

    def keep_two_entries(self) -> None:
        """However small the window, the list keeps room for two whole entries (their
        height is known once they are there: Chinese lines are taller), so it never shows
        one entry above an empty half."""
        if self.list.count():
            tallest = max(self.list.sizeHintForRow(row) for row in range(self.list.count()))
            self.list.setMinimumHeight(2 * tallest + 2 * self.list.frameWidth())

    def _build_input(self, top: QWidget, layout: QVBoxLayout) -> None:
        self.stage = QLabel(top)
        self.stage.setObjectName("sideStage")
        self.stage.hide()
        layout.addWidget(self.stage)
        self.problem = QLabel(top)
        self.problem.setObjectName("sideProblem")
        self.problem.setWordWrap(True)
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        tone_text(self.problem, "error")
        self.problem.hide()
        layout.addWidget(self.problem)
        self.edit = DraftEdit(top)
        self.edit.setObjectName("sideDraft")
        self.edit.setAccessibleName(QCoreApplication.translate("SidePanel", "Side question"))
        self.edit.setPlaceholderText(
            QCoreApplication.translate(
                "SidePanel", "Ask aside… (Ctrl+Enter here, or Ctrl+Shift+Enter in the composer)"
            )
        )
        line = self.edit.fontMetrics().lineSpacing()
        self.edit.setMaximumHeight(line * 4 + 14)
        layout.addWidget(self.edit)
        row = QHBoxLayout()
        row.addStretch(1)
        self.stop_button = QPushButton(QCoreApplication.translate("SidePanel", "Stop"), top)
        self.stop_button.setEnabled(False)
        row.addWidget(self.stop_button)
        self.ask_button = QPushButton(QCoreApplication.translate("SidePanel", "Ask aside"), top)
        self.ask_button.setObjectName("askAside")
        self.ask_button.setToolTip(
            QCoreApplication.translate(
                "SidePanel",
                "Ask a side question about this conversation (Ctrl+Shift+Enter in the composer)",
            )
        )
        row.addWidget(self.ask_button)
        layout.addLayout(row)

    def show_markdown(self, text: str) -> None:
        """The side answer, rendered as the transcript renders an answer."""
        self.answer.show_markdown(text)
