"""The transcript's view: keeps to the newest turn while it is showing, loads older turns
when the top is reached, selects and copies text."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QContextMenuEvent,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
)
from PySide6.QtWidgets import QAbstractItemView, QListView, QMenu, QWidget

from ..infra.reasoned_menu import ReasonedMenu
from ..infra.viewports import own_viewport
from .delegate import TranscriptDelegate
from .files import files_of, fill_files_menu
from .history_bar import HistoryBar
from .model import Role, TranscriptModel
from .selection import inside_text, whole_text

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it


class TranscriptView(QListView):
    """The history list: keeps to the newest turn while it is showing, loads older
    turns when the top is reached, and copies a turn's text."""

    copied = Signal(str)
    delete_requested = Signal(str)  # turn id
    menu_opening = Signal(QModelIndex)  # the context menu is about to show for this row
    menu_closed = Signal()  # and it closed (what it disabled for that row applies again)
    file_requested = Signal(object, str)  # (Attachment, files.OPEN or files.SAVE)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        own_viewport(self)  # before the delegate asks for it
        self.setObjectName("transcript")
        self.setAccessibleName(translate("Transcript", "Conversation history"))
        self.setAccessibleDescription(translate("Transcript", "Every saved turn of the "
            "conversation, oldest first, with how each took part in the request"))
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setUniformItemSizes(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSpacing(2)
        self.verticalScrollBar().setSingleStep(24)
        self.delegate = TranscriptDelegate(self, relayout=self.relayout)
        self.setItemDelegate(self.delegate)
        self._follow = True
        # (ordinal, top) of a row on show while rows join or leave above it: after the
        # layout it is put back where it was, so what is read does not move.
        self._anchor: tuple[int, int] | None = None
        self._bar_waiting = False  # rows joined or left and are not laid out yet
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._scrolled)
        bar.rangeChanged.connect(self._range_changed)
        # The bar a person sees spans the whole log, one step a turn; the list's own bar
        # (hidden) scrolls the rows that are loaded, by pixel.
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.history_bar = HistoryBar(self)
        self.history_bar.moved.connect(self._history_moved)
        bar.valueChanged.connect(self._sync_history_bar)
        bar.rangeChanged.connect(self._sync_history_bar)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self._copy_turn = self._action(
            QCoreApplication.translate("TranscriptView", "Copy turn"),
            QKeySequence.StandardKey.Copy, "turn")
        self._copy_question = self._action(
            QCoreApplication.translate("TranscriptView", "Copy question"), None, "question")
        self._copy_answer = self._action(
            QCoreApplication.translate("TranscriptView", "Copy answer"), None, "answer")
        self.copy_code_action = QAction(
            QCoreApplication.translate("TranscriptView", "Copy code block"), self)
        self.copy_code_action.setToolTip(QCoreApplication.translate("TranscriptView",
            "Copy the code block under the pointer (else the answer's first one), exactly "
            "as it is"))
        self.copy_code_action.triggered.connect(self.copy_code)
        self.addAction(self.copy_code_action)
        self._menu_at: QPoint | None = None
        self._selecting: QPersistentModelIndex | None = None  # the row a drag selects in
        separator = QAction(self)
        separator.setSeparator(True)
        self.addAction(separator)
        self.delete_action = QAction(translate("Transcript", "Delete turn…"), self)
        self.delete_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.delete_action.setToolTip(translate("Transcript",
            "Delete this turn and everything derived from it (summaries covering it, its place "
            "in request records)"))
        self.delete_action.triggered.connect(self.delete_current)
        self.addAction(self.delete_action)
        self.reasoning_action = QAction(translate("Transcript", "Show or hide reasoning"), self)
        self.reasoning_action.setToolTip(translate("Transcript",
            "Open or fold what a reasoning model thought before this answer"))
        self.reasoning_action.triggered.connect(self.toggle_reasoning)
        self.addAction(self.reasoning_action)
        self.copy_reasoning_action = self._action(
            translate("Transcript", "Copy reasoning"), None, "reasoning")
        self.files_menu = QMenu(translate("Transcript", "Attached files"), self)
        self.files_action = self.files_menu.menuAction()
        self.files_action.setToolTip(translate(
            "Transcript", "Open or save a file attached to this question"))
        self.addAction(self.files_action)
        self.setMouseTracking(True)  # the pointer shows a code block's Copy, and a text cursor
        self.delegate.selector.changed.connect(self._selection_changed)

    def _action(self, text: str, shortcut: QKeySequence.StandardKey | None, part: str) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        action.triggered.connect(lambda: self.copy_current(part))
        self.addAction(action)
        return action

    def setModel(self, model: object) -> None:  # noqa: N802 - Qt override
        assert isinstance(model, TranscriptModel)
        super().setModel(model)
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved):
            signal.connect(lambda *_: setattr(self, "_bar_waiting", True))
        model.modelReset.connect(self._after_reset)
        model.rowsAboutToBeInserted.connect(self._before_insert)
        model.rowsInserted.connect(self._after_insert)
        model.rowsAboutToBeRemoved.connect(self._before_remove)
        model.dataChanged.connect(self._after_change)
        model.pending_saved.connect(self.delegate.adopt_pending)

    def transcript(self) -> TranscriptModel:
        model = self.model()
        assert isinstance(model, TranscriptModel)
        return model

    # -------------------------------------------------------------- scrolling
    def _at_bottom(self) -> bool:
        return self.verticalScrollBar().value() >= self.verticalScrollBar().maximum() - 4

    def _scrolled(self, value: int) -> None:
        bar, model = self.verticalScrollBar(), self.transcript()
        at_bottom = value >= bar.maximum() - 4
        self._follow = at_bottom and model.at_newest
        if self._anchor is not None or model.moving:  # the rows' mover checks the edges
            return
        if value == bar.minimum():
            model.request_older()
        elif at_bottom and not model.at_newest:
            model.request_newer()

    def _range_changed(self, minimum: int, maximum: int) -> None:
        if self._follow and self._anchor is None:
            self.verticalScrollBar().setValue(maximum)
        if maximum == minimum and self.model() is not None and not self.transcript().moving:
            # Everything loaded fits on screen: show older turns too if there are any.
            self.transcript().request_older()

    def _take_anchor(self) -> None:
        """Note the row at the top of the viewport and where it is (once per layout)."""
        if self._anchor is not None or self.transcript().loaded_count == 0:
            return
        if (index := self.top_index()).isValid() and not index.data(Role.PENDING):
            self._anchor = (int(index.data(Role.ORDINAL)), self.visualRect(index).top())

    def updateGeometries(self) -> None:  # noqa: N802 - Qt override
        """After each layout: the anchored row put back, then the whole-log bar placed."""
        self._bar_waiting = False
        super().updateGeometries()
        anchor, self._anchor = getattr(self, "_anchor", None), None  # (None in __init__)
        row = None if anchor is None or self.model() is None else \
            self.transcript().row_of_ordinal(anchor[0])
        if anchor is not None and row is not None:
            bar = self.verticalScrollBar()
            bar.setValue(bar.value() + self.visualRect(self.transcript().index(row)).top()
                         - anchor[1])
        self._sync_history_bar()

    def relayout(self) -> None:
        """Rows changed height: laid out again, the top row kept in place (unless following)."""
        if not self._follow:
            self._take_anchor()
        self.scheduleDelayedItemsLayout()

    def _before_insert(self, parent: QModelIndex, first: int, last: int) -> None:
        if first == 0 and self.transcript().loaded_count > 0:
            self._take_anchor()

    def _after_insert(self, parent: QModelIndex, first: int, last: int) -> None:
        if first > 0 and self._follow:
            self.scrollToBottom()

    def _before_remove(self, parent: QModelIndex, first: int, last: int) -> None:
        model = self.transcript()
        if model.trimming:  # rows leave the window, not the log: their heights are kept
            if first == 0:
                self._take_anchor()
            return
        for row in range(first, last + 1):
            key = str(model.index(row).data(Role.KEY))
            self.delegate.forget(key)
            self.delegate.selector.forget(key)

    def _after_reset(self) -> None:
        self.delegate.selector.clear()
        model = self.transcript()
        if model.moving:  # the same log seen elsewhere: its rows' documents still hold
            self.delegate.reset_pending()
        else:
            self.delegate.clear_cache()
        self._follow, self._anchor = model.at_newest, None
        (self.scrollToBottom if self._follow else self.scrollToTop)()

    # ------------------------------------------------------------ moving about
    def show_oldest(self) -> None:
        """Ctrl+Home: turn 1 (the oldest turn) at the top, at once."""
        model = self.transcript()
        model.show_oldest()
        self.executeDelayedItemsLayout()
        self._follow = False
        self.scrollToTop()
        self._set_current(model.index(0))

    def show_newest(self) -> None:
        """Ctrl+End: the newest turn, at once, and the list keeps to it again."""
        model = self.transcript()
        model.show_newest()
        self.executeDelayedItemsLayout()
        self.scroll_to_newest()
        self._set_current(model.index(model.rowCount() - 1))

    def reveal_ordinal(self, ordinal: int) -> QModelIndex | None:
        """Show turn `ordinal` at the top of the list and make it the current row; None
        when the log shown has no such turn (never was, or deleted)."""
        index = self.transcript().reveal(ordinal)
        if index is None:
            return None
        self.executeDelayedItemsLayout()
        self._follow = False
        self.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtTop)
        self._scrolled(self.verticalScrollBar().value())  # an edge in view: a page joins
        self._set_current(index)
        # Again once its neighbours are painted (their true heights are known then).
        target = QPersistentModelIndex(index)
        QTimer.singleShot(0, lambda: target.isValid() and self.scrollTo(
            QModelIndex(target), QAbstractItemView.ScrollHint.PositionAtTop))
        return index

    def page(self, direction: int) -> None:
        """PageUp (-1) / PageDown (+1): one viewport's height, loading the next page at an
        edge within the same press, so presses in a quick run are never lost."""
        bar = self.verticalScrollBar()
        self.executeDelayedItemsLayout()
        remaining = direction * bar.pageStep()
        for _ in range(4):
            target = bar.value() + remaining
            clamped = min(max(target, bar.minimum()), bar.maximum())
            if clamped == bar.value():  # already at the edge: no valueChanged says so
                self._scrolled(clamped)
            bar.setValue(clamped)  # at an edge, the next page joins (`_scrolled`)
            self.executeDelayedItemsLayout()
            remaining = target - clamped
            if not remaining:
                break
        index = self.top_index()
        if index.isValid():
            self._set_current(index)

    def top_index(self) -> QModelIndex:
        """The row at the top of the view, found just below its edge: a row placed at the
        top can sit a little lower, under the spacing between rows, which is no row's."""
        x = self.viewport().width() // 2
        for y in range(self.spacing() + 1, 3 * self.spacing() + 5):
            index = self.indexAt(QPoint(x, y))
            if index.isValid():
                return index
        return QModelIndex()

    def _sync_history_bar(self, *_: object) -> None:
        """The whole-log bar follows what is shown: its value is the top row's place; not as
        rows join or leave (finding the top row would lay every row out in that event, again
        as the far end gives way): `updateGeometries` places it once they are laid out."""
        model = self.model()
        if not isinstance(model, TranscriptModel) or self._bar_waiting:
            return
        index = self.top_index()
        top = model.turns_before(index.row()) if index.isValid() else 0
        row_height = self.visualRect(index).height() if index.isValid() else 0
        self.history_bar.show_turns(len(model.turns), top, row_height, self.viewport().height(),
                                    at_end=model.at_newest and self._at_bottom())
        fits = model.at_oldest and model.at_newest and self.verticalScrollBar().maximum() == 0
        if fits == self.history_bar.isVisibleTo(self):  # all in view: no bar (its room kept,
            self.history_bar.setVisible(not fits)  # so no row is measured again for it)

    def _history_moved(self, place: int) -> None:
        """The whole-log bar was dragged or clicked: show the turns from `place` on."""
        model = self.transcript()
        self.history_bar.read_ahead(place, model.turns, model.PAGE)
        if place >= self.history_bar.maximum():
            self.show_newest()
            return
        index = model.reveal_position(place)  # a few older turns above it, as Go to turn
        self.executeDelayedItemsLayout()
        self._follow, self._anchor = False, None
        self.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtTop)
        self._scrolled(self.verticalScrollBar().value())  # an edge in view: a page joins

    def _place_history_bar(self) -> None:
        width = self.history_bar.sizeHint().width()
        self.setViewportMargins(0, 0, width, 0)
        inner = self.contentsRect()
        self.history_bar.setGeometry(inner.right() - width + 1, inner.top(), width, inner.height())
        self._width_changed()

    def _set_current(self, index: QModelIndex) -> None:
        """Make `index` the current row without scrolling to it."""
        if not index.isValid():
            return
        scrolls = self.hasAutoScroll()
        self.setAutoScroll(False)
        try:
            self.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        finally:
            self.setAutoScroll(scrolls)

    def _after_change(self, top_left: QModelIndex, bottom_right: QModelIndex,
                      roles: Sequence[int] = ()) -> None:
        if Role.PINS in roles:  # underlined anew from the text
            for row in range(top_left.row(), bottom_right.row() + 1):
                self.delegate.forget(str(self.transcript().index(row).data(Role.KEY)))
            self.viewport().update()
        if Role.ANSWER in roles or Role.REASONING in roles:
            # The streaming row grew: its height changes, so lay the rows out again.
            self.delegate.sizeHintChanged.emit(top_left)

    def _width_changed(self) -> None:
        """A new width (the window, a tall banner, a scroll bar took some): every row is
        measured again, or a taller row would run into the next."""
        if self.delegate.layout.set_width(self.viewport().width()):
            self.scheduleDelayedItemsLayout()

    def scroll_to_newest(self) -> None:
        self._follow = True
        self.scrollToBottom()

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        follow = self._follow
        super().resizeEvent(event)  # type: ignore[arg-type]
        self._place_history_bar()
        if follow:
            self.scrollToBottom()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            # Another theme: formulas are typeset in the text colour, so the answers are
            # rendered again (from the formula cache where it has that colour already).
            self.delegate.clear_cache()
            self.scheduleDelayedItemsLayout()

    # ----------------------------------------------------------------- deleting
    def delete_current(self) -> str | None:
        """Ask to delete the current turn (the pending question is not a turn yet)."""
        index = self.currentIndex()
        if not index.isValid() or index.data(Role.PENDING):
            return None
        turn_id = str(index.data(Role.KEY))
        self.delete_requested.emit(turn_id)
        return turn_id

    def toggle_reasoning(self) -> bool | None:
        """Open or fold the current turn's reasoning and tool calls (None: it has none)."""
        index = self.currentIndex()
        if not index.isValid() or not (index.data(Role.REASONING)
                                       or index.data(Role.TOOL_CALLS) is not None):
            return None
        return self.delegate.toggle_reasoning(index)

    # ------------------------------------------------------------------ copying
    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 - Qt override
        # A right click's menu of actions (the menu key's comes to `contextMenuEvent`).
        if event.type() == QEvent.Type.ContextMenu and isinstance(event, QContextMenuEvent):
            self._prepare_menu(event.pos())
            self._show_menu(event)
            return True
        if event.type() == QEvent.Type.Resize:
            self._width_changed()
        with self.delegate.frame() if event.type() == QEvent.Type.Paint else nullcontext():
            return super().viewportEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 - Qt override
        point = self.visualRect(self.currentIndex()).center()  # the menu key: the current row
        self._prepare_menu(point)
        self._show_menu(event)

    def _show_menu(self, event: QContextMenuEvent) -> None:
        """The menu of the view's actions: an entry says why, to the keyboard too."""
        menu = ReasonedMenu(self)
        menu.addActions(self.actions())
        menu.exec(event.globalPos())
        menu.deleteLater()
        self.menu_closed.emit()

    def _prepare_menu(self, point: QPoint) -> None:
        """Fit the menu to the row under `point` before it shows."""
        self._menu_at = point  # which code block "Copy code block" means
        index = self.indexAt(point)
        reasoning = bool(index.data(Role.REASONING))
        self.copy_reasoning_action.setVisible(reasoning)
        self.reasoning_action.setVisible(reasoning)
        self.copy_code_action.setVisible(index.isValid()
                                         and bool(self.delegate.code_blocks(index)))
        files = files_of(index)
        self.files_action.setVisible(bool(files))
        fill_files_menu(self.files_menu, files, self.file_requested.emit, self)
        self.menu_opening.emit(index)

    def copy_code(self) -> str:
        """Copy the code block the context menu was opened on, else the current answer's
        first one; "" when the answer has none."""
        index = self.currentIndex()
        if not index.isValid():
            return ""
        text = None
        at, self._menu_at = self._menu_at, None
        if at is not None and self.indexAt(at) == index:
            text = self.delegate.code_at(index, at)
        if text is None:
            blocks = self.delegate.code_blocks(index)
            text = blocks[0] if blocks else None
        if text is None:
            return ""
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(text)
        return text

    def copy_current(self, part: str) -> str:
        """Copy the current turn's `part` ("turn": the text selected in it, if any, else
        the whole turn; "reasoning": what a reasoning model thought before its answer)."""
        index = self.currentIndex()
        if not index.isValid():
            return ""
        question = str(index.data(Role.QUESTION) or "")
        answer = str(index.data(Role.ANSWER) or "")
        selected = self.selected_text() if part == "turn" else ""
        if selected:
            text = selected
        elif part == "question":
            text = question
        elif part == "answer":
            text = answer
        elif part == "reasoning":
            text = str(index.data(Role.REASONING) or "")
        else:
            text = f"{question}\n\n{answer}" if answer else question
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(text)
        return text

    # ---------------------------------------------------------------- selecting
    def selected_text(self) -> str:
        """The text selected in the current turn ("" if none)."""
        index = self.currentIndex()
        selection = self.delegate.selector.selection
        if not index.isValid() or not selection or index.data(Role.KEY) != selection.key:
            return ""
        return self.delegate.selector.text(self.delegate.text_layout(index))

    def current_text(self) -> tuple[str, tuple[int, int] | None]:
        """The current turn's text as it reads here (its Markdown rendered), and where the
        words selected in it are (None: none are)."""
        index = self.currentIndex()
        if not index.isValid():
            return "", None
        selection = self.delegate.selector.selection
        if selection is not None and index.data(Role.KEY) != selection.key:
            selection = None
        return whole_text(self.delegate.text_layout(index), selection)

    def _selection_changed(self) -> None:
        selected = bool(self.delegate.selector.selection)
        self._copy_turn.setText(
            QCoreApplication.translate("TranscriptView", "Copy selection") if selected
            else QCoreApplication.translate("TranscriptView", "Copy turn"))
        self.viewport().update()

    def currentChanged(self, current: QModelIndex, previous: QModelIndex) -> None:  # noqa: N802
        """Another turn became the current one: the text selected in the old one goes, as
        it does when a text field loses focus to another."""
        super().currentChanged(current, previous)
        selection = self.delegate.selector.selection
        if selection is not None and (not current.isValid()
                                      or current.data(Role.KEY) != selection.key):
            self.delegate.selector.clear()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        super().mousePressEvent(event)
        if event.button() != Qt.MouseButton.LeftButton:
            return
        index = self.indexAt(event.position().toPoint())
        if not index.isValid():
            self.delegate.selector.clear()
            return
        self._selecting = QPersistentModelIndex(index)
        self.delegate.selector.press(str(index.data(Role.KEY)),
                                     self.delegate.text_layout(index), event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        point = event.position().toPoint()
        index = QModelIndex(self._selecting) if self._selecting is not None else QModelIndex()
        if event.buttons() & Qt.MouseButton.LeftButton and index.isValid() \
                and self.delegate.selector.drag(self.delegate.text_layout(index), point):
            bar = self.verticalScrollBar()  # dragging past an edge scrolls the list
            if point.y() < 0:
                bar.setValue(bar.value() + point.y())
            elif point.y() > self.viewport().height():
                bar.setValue(bar.value() + point.y() - self.viewport().height())
            return
        self._hover(point)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        self.delegate.selector.release()
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        super().mouseDoubleClickEvent(event)
        index = self.indexAt(event.position().toPoint())
        if event.button() == Qt.MouseButton.LeftButton and index.isValid():
            self.delegate.selector.double_click(str(index.data(Role.KEY)),
                                                self.delegate.text_layout(index),
                                                event.position().toPoint())

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if self._move_key(event):
            event.accept()
            return
        index = self.currentIndex()
        if index.isValid() and self.delegate.selector.key(
                str(index.data(Role.KEY)), self.delegate.text_layout(index), event):
            event.accept()
            return
        super().keyPressEvent(event)

    def _move_key(self, event: QKeyEvent) -> bool:
        """Ctrl+Home / Ctrl+End and PageUp / PageDown move through the whole log."""
        key, modifiers = event.key(), event.modifiers()
        control = modifiers & Qt.KeyboardModifier.ControlModifier
        if modifiers & Qt.KeyboardModifier.ShiftModifier:
            return False  # extending a selection of text
        if control and key == Qt.Key.Key_Home:
            self.show_oldest()
        elif control and key == Qt.Key.Key_End:
            self.show_newest()
        elif key == Qt.Key.Key_PageUp:
            self.page(-1)
        elif key == Qt.Key.Key_PageDown:
            self.page(1)
        else:
            return False
        return True

    def _hover(self, point: QPoint) -> None:
        """The pointer moved (no button held): show the Copy of the code block under it,
        and a text cursor over text."""
        index = self.indexAt(point)
        hovered = None
        beam = False
        if index.isValid():
            code = self.delegate.code_index_at(index, point)
            if code is not None and not index.data(Role.PENDING):
                hovered = (str(index.data(Role.KEY)), code)
            beam = inside_text(self.delegate.text_layout(index), point)
        if self.delegate.hover_code(hovered):
            self.viewport().update()
        shape = Qt.CursorShape.IBeamCursor if beam else Qt.CursorShape.ArrowCursor
        if self.viewport().cursor().shape() != shape:
            self.viewport().setCursor(shape)

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if self.delegate.hover_code(None):
            self.viewport().update()
        super().leaveEvent(event)

