"""The compaction history of the open conversation, beside the request inspector: every
summary kept — when, by which model or edited by you, the turns it covers and folded
(each a link to that turn in the history, as Go to turn shows it), the summary it
replaced, its text then, the requests that carried it — and the summary in use, which
the person rewrites, undoes, or keeps alone (*Forget earlier versions*).

Reading and writing run on the storage worker; an edit or undo is asked of the open
conversation's owner on the change bus, so the preview (and a send, which reads the store)
carries exactly the summary shown here as in use."""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, QUrl, Signal
from PySide6.QtGui import (
    QPainter,
    QPaintEvent,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextDocumentFragment,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ...core.model import Conversation
from ...core.numbers import TurnNumbers
from ...core.summaries import (
    StoredSummary,
    SummaryEditError,
    SummaryVersion,
    VersionState,
    edited_text,
    edited_tokens,
    folded_span,
)
from ...store import TurnlogStore
from ..infra import summary_operations as operations
from ..infra.changes import ChangeHub, OpenChange
from ..infra.languages import arg, date_time, number, plural
from ..infra.operation_results import HistoryState
from ..infra.tasks import TaskRunner
from ..transcript.markdown import draw_quote_bars, render_markdown

translate = QCoreApplication.translate  # translate("CompactionHistory", …): lupdate reads it

TURN_LINK = "turn:"
REQUEST_LINK = "request:"  # followed by the id of the turn the request answered


# ------------------------------------------------------------------------ the words
def _turns_html(span: tuple[int, int], numbers: TurnNumbers) -> str:
    """"turns 3–7" with each number a link to that turn (as the window numbers turns)."""
    first, last = (numbers.number(span[0]), numbers.number(span[1]))

    def link(n: int) -> str:
        return f"<a href='{TURN_LINK}{n}'>{number(n)}</a>"  # 1,986: as its header reads

    if first == last:
        return arg(translate("CompactionHistory", "turn %1"), link(first))
    return arg(translate("CompactionHistory", "turns %1–%2"), link(first), link(last))


def _state_text(version: SummaryVersion) -> str:
    if version.state is VersionState.CURRENT:
        return translate("CompactionHistory", "in use")
    if version.state is VersionState.UNDONE:
        return translate("CompactionHistory", "undone")
    return translate("CompactionHistory", "earlier")


def entry_html(version: SummaryVersion, state: HistoryState,
               kept: dict[int, StoredSummary]) -> str:
    """What the history says of one summary, as rich text (its own text is rendered from
    its Markdown beside this: `SummaryBrowser`)."""
    made = version.summary
    who = (translate("CompactionHistory", "edited by you") if made.edited else arg(
        translate("CompactionHistory", "made by %1"), html.escape(made.model)))
    title = arg(translate("CompactionHistory", "Summary #%1"), made.id)
    lines = [f"<b>{title}</b> · {_state_text(version)} · {who} · "
             f"{html.escape(date_time(made.created_at))}"]
    covers = arg(translate("CompactionHistory", "Covers %1."),
                 _turns_html(version.folded, state.numbers))
    folded = folded_span(version, kept)
    if made.edited:
        covers += " " + arg(translate("CompactionHistory", "Your rewrite of summary #%1."),
                            made.edited_from)
    elif folded is not None:
        covers += " " + arg(translate("CompactionHistory", "Folded %1."),
                            _turns_html(folded, state.numbers))
    lines.append(covers)
    if made.replaced_id is None:
        lines.append(translate("CompactionHistory", "Replaced no summary."))
    elif version.replaced_kept:
        lines.append(arg(translate("CompactionHistory", "Replaced summary #%1."),
                         made.replaced_id))
    else:
        lines.append(arg(translate("CompactionHistory",
                                   "Replaced summary #%1 (no longer kept)."), made.replaced_id))
    if version.set_aside_for is not None:
        lines.append(arg(translate(
            "CompactionHistory", "Set aside: it and summary #%1 were made at the same time on "
            "two machines; #%1, the later by the sync's clock, is in use."),
            version.set_aside_for))
    if version.made_for is not None and version.made_for_ordinal is not None:
        made_for = state.numbers.number(version.made_for_ordinal)
        lines.append(arg(translate(
            "CompactionHistory", "Made while sending turn %1: <a href='%2'>the request "
            "that made it</a> (rebuilt and checked against its hash)."),
            f"<a href='{TURN_LINK}{made_for}'>{number(made_for)}</a>",
            f"{REQUEST_LINK}{html.escape(version.made_for)}"))
    elif version.made_in is not None:
        lines.append(translate(
            "CompactionHistory", "Made during a request that failed (no body is kept)."))
    carried = len(version.record_ids)
    lines.append(plural(translate("CompactionHistory", "Carried by %n request(s).", None,
                                  carried), carried) if carried else translate(
        "CompactionHistory", "No request has carried it yet."))
    return "<p>" + "<br>".join(lines) + "</p>"


def history_html(state: HistoryState) -> str:
    """What the history says of its summaries, newest first (without their texts)."""
    if not state.versions:
        return "<p>" + translate(
            "CompactionHistory", "No summary yet: one is made when this conversation's "
            "turns no longer all fit a request.") + "</p>"
    kept = {v.summary.id: v.summary for v in state.versions}
    return "<hr>".join(entry_html(v, state, kept) for v in reversed(state.versions))


class SummaryBrowser(QTextBrowser):
    """The history, read-only: what it says of each summary, then the summary's text
    rendered from its Markdown as the transcript renders answers (tables, code, quotes with
    their bar; formulas as typed), never as markup."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.quotes: list[int] = []  # block numbers of quoted blocks, for their bar

    def show_history(self, state: HistoryState) -> None:
        if not state.versions:
            self.setHtml(history_html(state))
            return
        self.clear()
        doc = self.document()
        doc.setDefaultFont(self.font())
        kept = {v.summary.id: v.summary for v in state.versions}
        cursor = QTextCursor(doc)
        self.quotes = []
        for n, version in enumerate(reversed(state.versions)):
            if n:
                ruled = QTextBlockFormat()
                ruled.setProperty(QTextFormat.Property.BlockTrailingHorizontalRulerWidth, 1)
                cursor.insertBlock(ruled, QTextCharFormat())
                cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
            cursor.insertHtml(entry_html(version, state, kept))
            text = QTextDocument()
            text.setDefaultFont(self.font())
            found = render_markdown(text, version.summary.content)
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
            first = cursor.blockNumber()
            cursor.insertFragment(QTextDocumentFragment(text))
            apart = QTextCursor(doc.findBlockByNumber(first))
            spaced = QTextBlockFormat()
            spaced.setTopMargin(max(apart.blockFormat().topMargin(), 8))
            apart.mergeBlockFormat(spaced)  # the text stands apart from what is said of it
            self.quotes += [first + quoted for quoted in found.quotes]
        self.moveCursor(QTextCursor.MoveOperation.Start)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        if self.quotes:
            painter = QPainter(self.viewport())
            painter.translate(-self.horizontalScrollBar().value(),
                              -self.verticalScrollBar().value())
            draw_quote_bars(painter, self.document(), self.quotes, self.palette())
            painter.end()
        super().paintEvent(event)


# ------------------------------------------------------------------------ the panel
class CompactionHistoryPanel(QWidget):
    """The history, the buttons that change the summary in use, and its editor."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compactionHistory")
        self.setAccessibleName(translate("CompactionHistory", "Compaction history"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        row = QHBoxLayout()
        self.edit_button = QPushButton(translate("CompactionHistory", "Edit summary…"), self)
        self.undo_button = QPushButton(translate("CompactionHistory", "Undo edit"), self)
        self.forget_button = QPushButton(
            translate("CompactionHistory", "Forget earlier versions"), self)
        self.forget_button.setToolTip(translate(
            "CompactionHistory", "Remove every version but the one in use, with the texts "
            "you edited away; the requests that carried them can no longer be verified"))
        for button in (self.edit_button, self.undo_button, self.forget_button):
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        self.editor = QPlainTextEdit(self)
        self.editor.setAccessibleName(translate("CompactionHistory", "Summary text"))
        self.problem = QLabel(self)
        self.problem.setWordWrap(True)
        self.problem.setObjectName("summaryEditProblem")
        edit_row = QHBoxLayout()
        self.save_button = QPushButton(translate("CompactionHistory", "Save as the summary"),
                                       self)
        self.cancel_button = QPushButton(translate("CompactionHistory", "Cancel"), self)
        edit_row.addWidget(self.save_button)
        edit_row.addWidget(self.cancel_button)
        edit_row.addStretch(1)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.problem)
        layout.addLayout(edit_row)
        self._edit_widgets = (self.editor, self.problem, self.save_button, self.cancel_button)
        self.browser = SummaryBrowser(self)
        self.browser.setAccessibleName(translate("CompactionHistory", "Summaries kept"))
        layout.addWidget(self.browser, 3)
        self.cancel_button.clicked.connect(self.close_editor)
        self.close_editor()
        self.show_state(None)

    def show_state(self, state: HistoryState | None) -> None:
        current = state.current if state is not None else None
        self.edit_button.setEnabled(current is not None)
        self.undo_button.setEnabled(current is not None and current.summary.edited)
        self.forget_button.setEnabled(state is not None and len(state.versions) > 1)
        if state is None:
            self.browser.setHtml("<p>" + translate(
                "CompactionHistory", "No conversation is open.") + "</p>")
        else:
            self.browser.show_history(state)

    def open_editor(self, text: str) -> None:
        self.editor.setPlainText(text)
        self.problem.clear()
        for widget in self._edit_widgets:
            widget.show()
        self.problem.setVisible(False)
        self.editor.setFocus()

    def close_editor(self) -> None:
        for widget in self._edit_widgets:
            widget.hide()

    def say_problem(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.show()


class CompactionHistory(QObject):
    """Keeps the panel in step with the open conversation's summaries, and changes the
    summary in use (edit, undo, forget earlier versions) on the storage worker."""

    turn_requested = Signal(int)  # the number (as the window shows it) of a turn to show
    request_requested = Signal(str)  # the id of a turn whose request to show
    loaded = Signal(object)  # HistoryState, once shown

    def __init__(self, panel: CompactionHistoryPanel, store: TurnlogStore, runner: TaskRunner,
                 hub: ChangeHub, open_now: Callable[[], tuple[Conversation | None, object]],
                 refresh_preview: Callable[[], None],
                 failed: Callable[[BaseException], None],
                 confirm_forget: Callable[[int], bool], parent: QObject) -> None:
        super().__init__(parent)
        self.panel, self.store, self.runner, self.hub = panel, store, runner, hub
        self.open_now, self.refresh_preview, self.failed = open_now, refresh_preview, failed
        self.confirm_forget = confirm_forget  # asked with how many earlier versions go
        self.state: HistoryState | None = None
        self._followed: object = None
        self.dock: QWidget | None = None  # the dock it is shown in, once made
        panel.browser.anchorClicked.connect(self._link)
        panel.edit_button.clicked.connect(self.start_edit)
        panel.save_button.clicked.connect(lambda: self.save(panel.editor.toPlainText()))
        panel.undo_button.clicked.connect(self.undo)
        panel.forget_button.clicked.connect(self.forget_earlier)
        hub.changed.connect(lambda _changes, origin: origin is self or self.reload())

    def follow(self) -> None:
        """The preview was made again: read the history again when another conversation
        is open or what `open_now` says of it changed (its summary, its turns: a send
        carried the summary, or made another)."""
        conversation, said = self.open_now()
        key = (conversation.id if conversation is not None else None, said)
        if key != self._followed:
            self._followed = key
            self.reload()

    def conversation(self) -> Conversation | None:
        return self.open_now()[0]

    def reload(self) -> None:
        conversation = self.conversation()
        if conversation is None or self.runner.closed:
            self.state = None
            self.panel.show_state(None)
            return
        operations.read_summary_history(self.store, conversation.id).run(
            self.runner, on_success=self._loaded, on_failure=self.failed)

    def _loaded(self, state: HistoryState) -> None:
        conversation = self.conversation()
        if conversation is None or conversation.id != state.conversation_id:
            return  # another conversation opened meanwhile
        self.state = state
        self.panel.show_state(state)
        self.loaded.emit(state)

    def _link(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith(REQUEST_LINK):
            self.request_requested.emit(text.removeprefix(REQUEST_LINK))
        elif text.startswith(TURN_LINK):
            self.turn_requested.emit(int(text.removeprefix(TURN_LINK)))

    # ------------------------------------------------------------------ changing
    def start_edit(self) -> None:
        current = self.state.current if self.state is not None else None
        if current is not None:
            self.panel.open_editor(current.summary.content)

    def save(self, typed: str) -> None:
        state = self.state
        if state is None:
            return
        try:
            text = edited_text(typed)
        except SummaryEditError as err:
            self.panel.say_problem(str(err))
            return
        cid, tokens = state.conversation_id, edited_tokens(text)
        operations.edit_summary(self.store, cid, text, tokens).run(
            self.runner, on_success=self._changed, on_failure=self._refused)

    def undo(self) -> None:
        if self.state is not None:
            cid = self.state.conversation_id
            operations.undo_summary_edit(self.store, cid).run(
                self.runner, on_success=self._changed, on_failure=self._refused)

    def forget_earlier(self) -> None:
        """Asked first: what goes cannot come back."""
        state = self.state
        if state is None or len(state.versions) < 2:
            return
        if not self.confirm_forget(len(state.versions) - 1):
            return
        operations.forget_earlier_summaries(self.store, state.conversation_id).run(
            self.runner, on_success=lambda _n: self.reload(), on_failure=self.failed)

    def _changed(self, summary: StoredSummary) -> None:
        self.panel.close_editor()
        self.hub.ask(OpenChange.summary_read(summary.conversation_id, summary), self)
        self.refresh_preview()
        self.reload()

    def _refused(self, error: BaseException) -> None:
        if isinstance(error, SummaryEditError):
            self.panel.say_problem(str(error))
            return
        self.failed(error)
