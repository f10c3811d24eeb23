"""Search all text (Ctrl+Shift+F): a results list over every conversation's turns and titles
(conversation, turn, date, snippet with the match in bold) that opens the conversation and
highlights the turn chosen. The query runs on the storage worker, a moment after typing
stops; Esc clears it."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Protocol

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QLabel,
    QLineEdit,
    QListView,
    QMainWindow,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from ...core.model import Conversation
from ...core.visible import visible
from ...store import TurnlogStore
from ...store.search import SearchHit
from ..infra.languages import arg, date_time, plural
from ..infra.tasks import TaskRunner
from ..infra.titles import shown_title
from ..transcript.model import TranscriptModel
from ..transcript.view import TranscriptView
from .sidebar import Sidebar

ModelIndex = QModelIndex | QPersistentModelIndex
HitRole = Qt.ItemDataRole.UserRole + 1
LIMIT = 100
COLUMNS = (
    QT_TRANSLATE_NOOP("SearchPanel", "Conversation"),
    QT_TRANSLATE_NOOP("SearchPanel", "Turn"),
    QT_TRANSLATE_NOOP("SearchPanel", "Date"),
    QT_TRANSLATE_NOOP("SearchPanel", "Snippet"),
)


def snippet_html(hit: SearchHit) -> str:
    """The snippet as HTML: escaped (controls shown as escapes), the matches in bold."""
    snippet = hit.snippet
    out, at = [], 0
    for start, end in snippet.spans:
        out.append(html.escape(visible(snippet.text[at:start])))
        out.append(f"<b>{html.escape(visible(snippet.text[start:end]))}</b>")
        at = end
    out.append(html.escape(visible(snippet.text[at:])))
    return ("…" if snippet.cut_before else "") + "".join(out) + (
        "…" if snippet.cut_after else "")


class SearchHitsModel(QAbstractTableModel):
    """The hits of the last search, best first."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._hits: list[SearchHit] = []

    def set_hits(self, hits: Sequence[SearchHit]) -> None:
        self.beginResetModel()
        self._hits = list(hits)
        self.endResetModel()

    @property
    def hits(self) -> tuple[SearchHit, ...]:
        return tuple(self._hits)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._hits)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return QCoreApplication.translate("SearchPanel", COLUMNS[section])
        return None

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._hits):
            return None
        hit = self._hits[index.row()]
        if role == HitRole:
            return hit
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(hit, index.column())
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{self.where(hit)}: {self._text(hit, 3)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return visible(hit.snippet.marked("", ""))
        return None

    @staticmethod
    def where(hit: SearchHit) -> str:
        """Conversation · turn · date, as the list's first line says it."""
        parts = [SearchHitsModel._text(hit, 0)]
        turn = SearchHitsModel._text(hit, 1)
        parts.append(
            QCoreApplication.translate("SearchPanel", "title")
            if hit.ordinal is None
            else arg(QCoreApplication.translate("SearchPanel", "turn %1"), turn)
        )
        when = SearchHitsModel._text(hit, 2)
        if when:
            parts.append(when)
        return " · ".join(parts)

    @staticmethod
    def _text(hit: SearchHit, column: int) -> str:
        if column == 0:
            return shown_title(hit.title)
        if column == 1:
            if hit.ordinal is None:
                return QCoreApplication.translate("SearchPanel", "title")
            return (
                arg(QCoreApplication.translate("SearchPanel", "%1 (superseded)"), str(hit.ordinal))
                if hit.superseded
                else str(hit.ordinal)
            )
        if column == 2:
            when = hit.created_at
            return date_time(when) if when else ""
        return visible(hit.snippet.marked("", ""))


class HitDelegate(QStyledItemDelegate):
    """Paints a hit in two parts: where it is (conversation · turn · date, dimmed), then
    its snippet with the matches in bold, wrapped to at most `LINES` lines. The snippet is
    escaped text (nothing in it is markup)."""

    LINES = 3
    PAD = 4

    def _document(self, hit: SearchHit, option: QStyleOptionViewItem,
                  color: str) -> QTextDocument:
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        doc.setDocumentMargin(0)
        doc.setHtml(f'<span style="color:{color}">{snippet_html(hit)}</span>')
        doc.setTextWidth(max(40, option.rect.width() - 2 * self.PAD))
        return doc

    def _snippet_height(self, doc: QTextDocument, option: QStyleOptionViewItem) -> int:
        return min(int(doc.size().height()), self.LINES * option.fontMetrics.lineSpacing())

    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:  # noqa: N802
        hit = index.data(HitRole)
        line = option.fontMetrics.lineSpacing()
        if not isinstance(hit, SearchHit):
            return QSize(option.rect.width(), line + 2 * self.PAD)
        doc = self._document(hit, option, "black")
        return QSize(option.rect.width(),
                     line + self._snippet_height(doc, option) + 3 * self.PAD)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        hit = index.data(HitRole)
        if not isinstance(hit, SearchHit):
            super().paint(painter, option, index)
            return
        self.initStyleOption(option, index)
        option.text = ""
        style = option.widget.style() if option.widget else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter,
                              option.widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        palette = option.palette
        text = palette.color(QPalette.ColorRole.HighlightedText if selected
                             else QPalette.ColorRole.Text)
        dim = text if selected else palette.color(QPalette.ColorRole.PlaceholderText)
        rect = option.rect.adjusted(self.PAD, self.PAD, -self.PAD, -self.PAD)
        line = option.fontMetrics.lineSpacing()
        painter.save()
        painter.setPen(dim)
        where = option.fontMetrics.elidedText(SearchHitsModel.where(hit),
                                              Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(QRect(rect.left(), rect.top(), rect.width(), line),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, where)
        doc = self._document(hit, option, text.name())
        top = rect.top() + line + self.PAD
        painter.translate(rect.left(), top)
        painter.setClipRect(0, 0, rect.width(), self._snippet_height(doc, option))
        doc.drawContents(painter)
        painter.restore()


class SearchPanel(QWidget):
    """The search field, a line saying what was found, and the results list. `chosen`
    carries the hit the person picked (Enter, a click or a double-click)."""

    chosen = Signal(object)  # SearchHit
    searched = Signal(str)  # the query whose results are now shown

    def __init__(self, store: TurnlogStore, runner: TaskRunner,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("searchPanel")
        self.store, self.runner = store, runner
        self._asked = 0  # the number of the newest query sent; older answers are dropped
        self.searched_query = ""  # the query whose results are shown
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.field = QLineEdit(self)
        self.field.setObjectName("searchField")
        self.field.setPlaceholderText(
            QCoreApplication.translate("SearchPanel", "Search all conversations")
        )
        self.field.setAccessibleName(
            QCoreApplication.translate("SearchPanel", "Search the text of all conversations")
        )
        self.field.setToolTip(
            QCoreApplication.translate(
                "SearchPanel",
                'Words match as prefixes, "quoted phrases" exactly, Chinese words of any length; '
                "Esc clears",
            )
        )
        self.field.setClearButtonEnabled(True)
        self.field.installEventFilter(self)
        layout.addWidget(self.field)
        self.status = QLabel(self)
        self.status.setObjectName("searchStatus")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.model = SearchHitsModel(self)
        self.results = self._list()
        self.results.installEventFilter(self)
        layout.addWidget(self.results, 1)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(200)
        self._timer.timeout.connect(self.run)
        self.field.textChanged.connect(lambda _text: self._timer.start())
        self.field.returnPressed.connect(self._first_or_run)

    def _list(self) -> QListView:
        results = QListView(self)
        results.setObjectName("searchResults")
        results.setAccessibleName(
            QCoreApplication.translate(
                "SearchPanel", "Search results: conversation, turn, date and snippet"
            )
        )
        results.setModel(self.model)
        results.setItemDelegate(HitDelegate(results))
        results.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        results.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        results.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        results.setResizeMode(QListView.ResizeMode.Adjust)
        results.setSpacing(1)
        results.activated.connect(self._activated)
        results.clicked.connect(self._activated)
        return results

    # -------------------------------------------------------------------- queries
    def run(self) -> None:
        """Search for what the field holds now (on the storage worker)."""
        self._timer.stop()
        query = self.field.text().strip()
        self._asked += 1
        asked = self._asked
        if not query:
            self.model.set_hits(())
            self.status.setText("")
            self.searched_query = ""
            return
        self.status.setText(QCoreApplication.translate("SearchPanel", "Searching…"))
        store = self.store
        self.runner.run(TaskRunner.STORAGE, "search",
                        lambda _context: store.search(query, limit=LIMIT),
                        on_success=lambda hits: self._show(asked, query, hits),
                        on_failure=lambda error: self._failed(asked, error))

    def _show(self, asked: int, query: str, hits: list[SearchHit]) -> None:
        if asked != self._asked:
            return  # a newer query is on its way
        self.model.set_hits(hits)
        if not hits:
            self.status.setText(QCoreApplication.translate("SearchPanel", "Nothing matches."))
        elif len(hits) >= LIMIT:
            self.status.setText(
                arg(QCoreApplication.translate("SearchPanel", "The best %1 matches."), LIMIT)
            )
        else:
            found = len(hits)
            self.status.setText(
                plural(
                    QCoreApplication.translate("SearchPanel", "%n match(es).", None, found),
                    found,
                )
            )
        self.searched_query = query
        self.searched.emit(query)

    def _failed(self, asked: int, error: BaseException) -> None:
        if asked == self._asked:
            self.status.setText(
                arg(QCoreApplication.translate("SearchPanel", "Could not search: %1"), error)
            )

    def clear(self) -> None:
        """Esc: no query, no results."""
        self.field.clear()
        self.run()
        self.field.setFocus()

    def _first_or_run(self) -> None:
        if self._timer.isActive() or not self.model.rowCount():
            self.run()
            return
        self._activated(self.model.index(0, 0))

    def _activated(self, index: QModelIndex) -> None:
        hit = self.model.data(index, HitRole)
        if isinstance(hit, SearchHit):
            self.chosen.emit(hit)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.key() == Qt.Key.Key_Escape:
                self.clear()
                return True
            if watched is self.field and event.key() == Qt.Key.Key_Down and \
                    self.model.rowCount():
                self.results.setFocus()
                self.results.setCurrentIndex(self.model.index(0, 0))
                return True
        return super().eventFilter(watched, event)


class SearchHost(Protocol):
    """What a jump to a hit needs of the main window."""

    store: TurnlogStore
    runner: TaskRunner
    conversation: Conversation | None
    sidebar: Sidebar
    transcript: TranscriptModel
    view: TranscriptView
    view_menu: QMenu

    @property
    def running(self) -> bool: ...

    def refresh_conversations(self, select_id: int | None = None) -> None: ...


class TurnJump:
    """Opens a hit's conversation (waiting for it to load) and shows its turn selected."""

    def __init__(self, window: SearchHost) -> None:
        self.window = window
        self._waiting: SearchHit | None = None
        window.transcript.modelReset.connect(self._loaded)

    def go(self, hit: SearchHit) -> bool:
        """Show `hit`; False while a request runs in another conversation (the window
        stays on it, as the sidebar does)."""
        window = self.window
        if window.conversation is not None and window.conversation.id == hit.conversation_id:
            self._waiting = None
            self._show(hit)
            return True
        if window.running:
            return False
        self._waiting = hit
        if not window.sidebar.select(hit.conversation_id):  # hidden by the sidebar's filter
            window.sidebar.search.clear()
            window.refresh_conversations(select_id=hit.conversation_id)
        return True

    def _loaded(self) -> None:
        hit, window = self._waiting, self.window
        if hit is None or window.conversation is None:
            return
        if window.conversation.id != hit.conversation_id:
            self._waiting = None  # the person opened another one meanwhile
            return
        if not len(window.transcript.turns):
            return  # the reset that clears the last conversation; its turns come next
        self._waiting = None
        QTimer.singleShot(0, lambda: self._show(hit))

    def _show(self, hit: SearchHit) -> bool:
        if hit.ordinal is None:
            return True  # a title: the conversation is what was asked for
        model = self.window.transcript
        index = model.reveal(hit.row_ordinal or hit.ordinal)
        if index is None:
            return False
        for _ in range(len(model.versions.group(hit.turn_id or ""))):
            shown = model.shown_turn(index.row())
            if not hit.superseded or shown is None or shown.id == hit.turn_id:
                break  # a superseded version: shown in its row, when its versions are known
            model.step_version(index.row(), -1)
        view = self.window.view
        view.setCurrentIndex(index)
        view.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtTop)
        view.setFocus()
        # Again once the rows that joined are laid out (their heights are known then).
        target = QPersistentModelIndex(index)
        QTimer.singleShot(0, lambda: target.isValid() and view.scrollTo(
            QModelIndex(target), QAbstractItemView.ScrollHint.PositionAtTop))
        return True


class SearchDock:
    """The search panel in a dock of the window, Ctrl+Shift+F, and the jump to a hit."""

    def __init__(self, window: SearchHost) -> None:
        assert isinstance(window, QMainWindow)
        self.panel = SearchPanel(window.store, window.runner, window)
        self.dock = QDockWidget(QCoreApplication.translate("SearchPanel", "Search"), window)
        self.dock.setObjectName("searchDock")
        self.dock.setAccessibleName(QCoreApplication.translate("SearchPanel", "Search"))
        self.dock.setWidget(self.panel)
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock)
        self.dock.hide()
        self.jump = TurnJump(window)
        self.panel.chosen.connect(self._go)
        self.action = QAction(
            QCoreApplication.translate("SearchPanel", "Search all &text…"), window
        )
        self.action.setShortcut(QKeySequence("Ctrl+Shift+F"))
        self.action.setStatusTip(
            QCoreApplication.translate(
                "SearchPanel", "Find a turn in any conversation by its words"
            )
        )
        self.action.triggered.connect(lambda _checked=False: self.open())
        window.view_menu.addAction(self.action)

    def _go(self, hit: SearchHit) -> None:
        if not self.jump.go(hit):
            self.panel.status.setText(
                QCoreApplication.translate(
                    "SearchPanel",
                    "A request is running: stop it or let it finish, then open the result.",
                )
            )

    def open(self) -> None:
        """Show the panel with its field focused and its text selected (the first time
        with most of the height beside the conversation list)."""
        if self.dock.isHidden() and not self.dock.isFloating():
            window = self.dock.parentWidget()
            assert isinstance(window, QMainWindow)
            self.dock.show()
            window.resizeDocks([window.sidebar_dock, self.dock], [1, 2],  # type: ignore[attr-defined]
                               Qt.Orientation.Vertical)
        self.dock.show()
        self.dock.raise_()
        self.panel.field.setFocus()
        self.panel.field.selectAll()
