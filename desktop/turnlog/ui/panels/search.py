"""Search all text (Ctrl+Shift+F): a results list over every conversation's turns and titles
(conversation, turn, date, snippet with the match in bold; `search_hits`), listed `LIMIT`
at a time (*Show more*) and counted once the first page is shown (up to
`store.search.COUNT_CAP`, more said as "more than" it). A hit opens its conversation at the
turn chosen with the query's matches highlighted in it (`turn_matches`: F3 / Shift+F3).
The query runs on the storage worker, a moment after typing stops; Esc clears it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QLabel,
    QLineEdit,
    QListView,
    QMainWindow,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core.model import Conversation
from ...store import TurnlogStore
from ...store.search import COUNT_CAP, RANK_WINDOW, MatchCount, SearchHit
from ..infra import operations
from ..infra.languages import arg, plural
from ..infra.tasks import TaskRunner
from ..transcript.model import TranscriptModel
from ..transcript.view import TranscriptView
from .search_hits import HitDelegate, HitRole, SearchHitsModel, snippet_html
from .sidebar import Sidebar
from .turn_matches import TurnMatches

__all__ = ["HitRole", "SearchDock", "SearchPanel", "TurnJump", "snippet_html"]

LIMIT = 100  # hits a page lists
MIN_WIDTH = 280  # narrower, a hit's title, turn and date do not fit side by side

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
        self.more = QPushButton(QCoreApplication.translate("SearchPanel", "Show more"), self)
        self.more.setObjectName("searchMore")
        self.more.setToolTip(QCoreApplication.translate(
            "SearchPanel", "List the next matches, after those shown"))
        self.more.clicked.connect(self.show_more)
        self.more.hide()
        layout.addWidget(self.more)
        self.found: MatchCount | None = None  # what the shown query matches; None: counting
        self._turns_listed = 0  # turn hits listed: where the next page starts
        self._page_full = False  # the last page asked for came back full
        self._shown = 0  # the number of the query whose hits are listed
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
        self.delegate = HitDelegate(results)
        self.model.modelAboutToBeReset.connect(self.delegate.clear_cache)  # new snippets
        results.setItemDelegate(self.delegate)
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
        """Search for what the field holds now (on the storage worker): the first page,
        then (`_counted`) how many match in all."""
        self._timer.stop()
        query = self.field.text().strip()
        self._asked += 1
        asked = self._asked
        if not query:
            self.model.set_hits(())
            self.status.setText("")
            self.more.hide()
            self.searched_query = ""
            self.searched.emit("")
            return
        self.status.setText(QCoreApplication.translate("SearchPanel", "Searching…"))
        operations.search_first_page(self.store, query, LIMIT).run(
            self.runner, on_success=lambda hits: self._show(asked, query, hits),
            on_failure=lambda error: self._failed(asked, error))

    def show_more(self) -> None:
        """*Show more*: the next page of turns, after those listed."""
        query, after = self.searched_query, self._turns_listed
        asked = self._shown  # dropped if another query was asked for since
        if not query or asked != self._asked:
            return
        self.more.setEnabled(False)
        operations.search_more_turns(self.store, query, LIMIT, after).run(
            self.runner, on_success=lambda hits: self._more(asked, hits),
            on_failure=lambda error: self._failed(asked, error))

    def _show(self, asked: int, query: str, hits: list[SearchHit]) -> None:
        if asked != self._asked:
            return  # a newer query is on its way
        self._shown = asked
        self._turns_listed = sum(hit.turn_id is not None for hit in hits)
        self._page_full = len(hits) >= LIMIT
        # A page that is not full holds every match: nothing more to count.
        self.found = None if self._page_full else MatchCount(
            len(hits) - self._turns_listed, self._turns_listed)
        self.model.set_hits(hits)
        self.searched_query = query
        self._say()
        self.searched.emit(query)
        if self.found is None:
            operations.count_matches(self.store, query).run(
                self.runner, on_success=lambda found: self._counted(asked, found),
                on_failure=lambda error: self._failed(asked, error))

    def _counted(self, asked: int, found: MatchCount) -> None:
        if asked == self._asked:
            self.found = found
            self._say()

    def _more(self, asked: int, hits: list[SearchHit]) -> None:
        if asked != self._asked:
            return
        self._turns_listed += len(hits)
        self._page_full = len(hits) >= LIMIT
        self.model.add_hits(hits)
        self._say()

    def _listable(self) -> int:
        """How many turns can be listed: the newest `RANK_WINDOW` matches are ranked."""
        return RANK_WINDOW if self.found is None else min(self.found.turns, RANK_WINDOW)

    def _say(self) -> None:
        """The status line (how many match, how many are shown) and *Show more*."""
        shown = self.model.rowCount()
        more = self._page_full and self._turns_listed < self._listable()
        self.more.setVisible(more)
        self.more.setEnabled(True)
        self.status.setText(self._found_text(shown, more))

    def _found_text(self, shown: int, more: bool) -> str:
        found = self.found
        if not shown:
            return QCoreApplication.translate("SearchPanel", "Nothing matches.")
        if found is None:
            return arg(QCoreApplication.translate("SearchPanel", "%1 shown, counting…"), shown)
        if found.more:
            return arg(QCoreApplication.translate(
                "SearchPanel", "More than %1 matches, %2 shown."), COUNT_CAP, shown)
        total = found.total
        if more or shown < total:
            return plural(arg(QCoreApplication.translate(
                "SearchPanel", "%n match(es), %1 shown.", None, total), shown), total)
        return plural(QCoreApplication.translate(
            "SearchPanel", "%n match(es).", None, total), total)

    def _failed(self, asked: int, error: BaseException) -> None:
        self.more.setEnabled(True)
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


@dataclass(frozen=True, slots=True)
class JumpParts:
    """What a jump to a hit works with: the open conversation and whether a send of it
    runs, the list that opens another, and the history on show."""

    conversation: Callable[[], Conversation | None]  # the open one
    running: Callable[[], bool]  # a send runs: the window stays on its conversation
    sidebar: Sidebar
    list_conversations: Callable[[int], None]  # list them all again, this one selected
    transcript: TranscriptModel
    view: TranscriptView


class TurnJump:
    """Opens a hit's conversation (waiting for it to load), shows its turn selected and
    highlights the query's matches in it."""

    def __init__(self, parts: JumpParts, matches: TurnMatches) -> None:
        self.parts, self.matches = parts, matches
        self._waiting: tuple[SearchHit, str] | None = None
        parts.transcript.modelReset.connect(self._loaded)

    def go(self, hit: SearchHit, query: str = "") -> bool:
        """Show `hit` (found by `query`); False while a request runs in another
        conversation (the window stays on it, as the sidebar does)."""
        parts, conversation = self.parts, self.parts.conversation()
        self.matches.clear()
        if conversation is not None and conversation.id == hit.conversation_id:
            self._waiting = None
            self._show(hit, query)
            return True
        if parts.running():
            return False
        self._waiting = hit, query
        if not parts.sidebar.select(hit.conversation_id):  # hidden by the sidebar's filter
            parts.sidebar.show_every_conversation()  # or by the folder chosen
            parts.sidebar.search.clear()
            parts.list_conversations(hit.conversation_id)
        return True

    def _loaded(self) -> None:
        waiting, conversation = self._waiting, self.parts.conversation()
        if waiting is None or conversation is None:
            return
        hit, query = waiting
        if conversation.id != hit.conversation_id:
            self._waiting = None  # the person opened another one meanwhile
            return
        if not len(self.parts.transcript.turns):
            return  # the reset that clears the last conversation; its turns come next
        self._waiting = None
        QTimer.singleShot(0, lambda: self._show(hit, query))

    def reveal_turn(self, ordinal: int) -> QModelIndex | None:
        """The row of turn `ordinal`, made one of the model's rows (the one way a hit
        brings its turn into the transcript)."""
        return self.parts.transcript.reveal(ordinal)

    def _show(self, hit: SearchHit, query: str) -> bool:
        if hit.ordinal is None:
            return True  # a title: the conversation is what was asked for
        model = self.parts.transcript
        index = self.reveal_turn(hit.row_ordinal or hit.ordinal)
        if index is None:
            return False
        for _ in range(len(model.versions.group(hit.turn_id or ""))):
            shown = model.shown_turn(index.row())
            if not hit.superseded or shown is None or shown.id == hit.turn_id:
                break  # a superseded version: shown in its row, when its versions are known
            model.step_version(index.row(), -1)
        view = self.parts.view
        view.setCurrentIndex(index)
        view.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtTop)
        view.setFocus()
        # Again once the rows that joined are laid out (their heights are known then),
        # and then the matches, where the row is.
        target = QPersistentModelIndex(index)

        def again() -> None:
            if target.isValid():
                view.scrollTo(QModelIndex(target), QAbstractItemView.ScrollHint.PositionAtTop)
                if query:
                    self.matches.show(QModelIndex(target), query)

        QTimer.singleShot(0, again)
        return True


class SearchDock:
    """The search panel in its dock (built by the window, a tab beside `beside`), the
    action that opens it (Ctrl+Shift+F, made with the window's menus before the panel),
    and the jump to a hit."""

    def __init__(self, panel: SearchPanel, dock: QDockWidget, beside: QDockWidget,
                 jump: TurnJump, action: QAction) -> None:
        self.panel, self.dock, self.jump, self._beside = panel, dock, jump, beside
        self.matches = jump.matches
        self.action = action
        self.panel.chosen.connect(self._go)
        self.panel.searched.connect(lambda _query: self.matches.clear())  # a new search

    def _go(self, hit: SearchHit) -> None:
        if not self.jump.go(hit, self.panel.searched_query):
            self.panel.status.setText(
                QCoreApplication.translate(
                    "SearchPanel",
                    "A request is running: stop it or let it finish, then open the result.",
                )
            )

    def open(self) -> None:
        """Show the panel (a tab beside the inspector) with its field focused and its
        text selected."""
        window = self.dock.parentWidget()
        if isinstance(window, QMainWindow) and self.dock.isHidden() \
                and not self.dock.isFloating() and self.dock.width() < MIN_WIDTH \
                and window.dockWidgetArea(self.dock) != Qt.DockWidgetArea.RightDockWidgetArea:
            # Too narrow where it was (the left column, as window states before kept it).
            window.tabifyDockWidget(self._beside, self.dock)
        self.dock.show()
        self.dock.raise_()
        self.panel.field.setFocus()
        self.panel.field.selectAll()
