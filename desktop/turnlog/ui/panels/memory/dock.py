"""The Memory dock: the panel wired to the parts it is handed (the preview, the transcript
and its view), keeping the open conversation's memory in step with what is stored (asked
of its owner on the change bus), so the preview (and the send, which reads the store)
carries exactly what the panel shows.

The memory is kept in step from the start (the transcript's pins, the preview's memory);
the panel is built when the dock first comes into view or something asks for it (View →
Memory, `MemoryDock.panel`), and shows then what was read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QListWidget, QScrollArea, QWidget

from ....core.memory import DEFAULT_PRIORITY
from ....core.model import Conversation
from ....store import TurnlogStore
from ...conversation.parts import HistoryParts
from ...infra import operations
from ...infra.changes import Changes, OpenChange
from ...infra.languages import arg
from ...infra.open_log import OpenLog
from ...infra.operation_results import MemoryState
from ...infra.tasks import TaskRunner
from ...request.live_preview import LivePreview

if TYPE_CHECKING:  # the panel: loaded when the dock first shows; the dialog: with the
    # first pin chosen from a turn
    from .panel import ItemEditor, MemoryPanel
    from .pin_dialog import PinFromTurn


@dataclass(frozen=True, slots=True)
class MemoryParts:
    """What the Memory dock works with: the store, the open conversation, the preview whose
    memory it keeps, the transcript whose pins it marks, and where it reports."""

    log: OpenLog  # a deleted turn's pins go; settings changed here are announced
    preview: LivePreview
    history: HistoryParts  # the pins are marked on its turns
    failed: Callable[[BaseException], None]  # a storage operation failed
    status: Callable[[str], None]  # a line in the status bar


class MemoryDock(QObject):
    """Keeps the panel, the preview's memory and the store in step."""

    changed = Signal()  # the stored memory of the open conversation changed

    def __init__(self, dock: QDockWidget, parts: MemoryParts, parent: QWidget) -> None:
        """`dock` holds a scroll area, where the panel goes when it is built."""
        super().__init__(parent)
        self.dock, self.parts, self._parent = dock, parts, parent
        self.store: TurnlogStore = parts.log.store
        self.runner: TaskRunner = parts.log.runner
        self.loaded_id: int | None = None
        self.dialog: PinFromTurn | None = None
        self.pin_action: QAction | None = None
        self._panel: MemoryPanel | None = None
        self._state: MemoryState | None = None  # as read: the panel shows it when built
        self._selection: tuple[Any, ...] = (None,)  # what the preview chose, likewise
        parts.preview.shown_changed.connect(self._shown)
        parts.log.changes.changed.connect(  # a deleted turn's pins go with it
            lambda _changes, origin: origin is self or self.reload())
        dock.visibilityChanged.connect(self._visible)

    @property
    def built(self) -> bool:
        return self._panel is not None

    @property
    def panel(self) -> MemoryPanel:
        """The panel, built now (with what was read) if it was not yet."""
        if self._panel is None:
            from .panel import MemoryPanel

            panel = MemoryPanel(self._parent)
            holder = self.dock.widget()
            if isinstance(holder, QScrollArea):
                holder.setWidget(panel)  # the empty one it held goes
            else:
                self.dock.setWidget(panel)
            self._panel = panel
            self._wire(panel)
            panel.show_state(self._state)
            panel.show_selection(*self._selection)
        return self._panel

    def _visible(self, visible: bool) -> None:
        if visible:
            self.panel  # noqa: B018 - built as it comes into view

    def _show_state(self, state: MemoryState | None) -> None:
        self._state = state
        if self._panel is not None:
            self._panel.show_state(state)

    def _show_selection(self, *selection: Any) -> None:
        self._selection = selection
        if self._panel is not None:
            self._panel.show_selection(*selection)

    def _wire(self, panel: MemoryPanel) -> None:
        panel.pins.itemActivated.connect(lambda _item: self.show_source())
        panel.pin_editor.add.clicked.connect(lambda: self.pin_text(panel.pin_editor.text.text()))
        panel.pin_editor.save.clicked.connect(self._save_pin)
        panel.pin_editor.remove.clicked.connect(lambda: self._remove(
            panel.pins, self.store.memory.remove_pin))
        panel.offer.clicked.connect(self._offer)
        panel.note_editor.add.clicked.connect(self._add_note)
        panel.note_editor.save.clicked.connect(lambda: self._save(
            panel.notes, panel.note_editor, self.store.memory.edit_note))
        panel.note_editor.remove.clicked.connect(lambda: self._remove(
            panel.notes, self.store.memory.remove_note))
        panel.preference_editor.add.clicked.connect(self._add_preference)
        panel.preference_editor.save.clicked.connect(lambda: self._save(
            panel.preferences, panel.preference_editor, self.store.memory.edit_preference))
        panel.preference_editor.remove.clicked.connect(lambda: self._remove(
            panel.preferences, self.store.memory.remove_preference))
        panel.share.valueChanged.connect(lambda v: self._settings(memory_share=v))
        panel.use_preferences.toggled.connect(lambda on: self._settings(preferences=on))
        for widget, editor in ((panel.pins, panel.pin_editor), (panel.notes, panel.note_editor),
                               (panel.preferences, panel.preference_editor)):
            widget.currentItemChanged.connect(
                lambda item, _old, w=widget, e=editor: self._picked(w, e))

    # ------------------------------------------------------------------ loading
    def _conversation_id(self) -> int | None:
        conversation = self.parts.log.conversation()
        return conversation.id if conversation is not None else None

    def _shown(self, shown: Any) -> None:
        cid = self._conversation_id()
        if cid != self.loaded_id:
            self.loaded_id = cid
            self.parts.history.transcript.set_pins({})
            self._show_state(None)
            self._show_selection(None)
            if cid is not None:
                self.reload()
            return
        projection = shown.projection
        if projection is None:
            self._show_selection(None)
            return
        summary = projection.summary.content if projection.summary is not None else ""
        self._show_selection(projection.memory, summary, projection.summarized)

    def reload(self) -> None:
        cid = self.loaded_id
        if cid is None or self.runner.closed:  # the window is closing
            return
        operations.read_memory(self.store, cid).run(
            self.runner, on_success=self._loaded, on_failure=self.parts.failed)

    def _loaded(self, state: MemoryState) -> None:
        if state.conversation.id != self._conversation_id():
            return  # another conversation opened meanwhile
        self._show_state(state)
        pinned: dict[str, tuple[str, ...]] = {}
        for pin in state.pins:
            for turn_id in pin.sources:
                pinned[turn_id] = (*pinned.get(turn_id, ()), pin.text)
        self.parts.history.transcript.set_pins(pinned)
        memory = self.store_memory(state)
        if memory != self.parts.preview.memory:  # previewed again only when it differs
            self.parts.log.changes.ask(OpenChange.memory_read(state.conversation.id, memory), self)
            self.parts.preview.refresh()

    @staticmethod
    def store_memory(state: MemoryState) -> Any:
        from ....core.memory import conversation_memory

        settings = state.conversation.settings
        return conversation_memory(state.pins, state.notes,
                                   state.preferences if settings.preferences else [],
                                   share_percent=settings.memory_share)

    # ----------------------------------------------------------------- changing
    def _change(self, op: operations.StorageOp[Any],
                then: Callable[[Any], None] | None = None) -> None:
        def done(result: object) -> None:
            if then is not None:
                then(result)
            self.changed.emit()
            self.reload()

        if self.runner.closed:
            return
        op.run(self.runner, on_success=done, on_failure=self.parts.failed)

    def pin_text(self, text: str, sources: tuple[str, ...] = ()) -> None:
        cid = self.loaded_id
        if cid is None or not text.strip():
            return
        if self._panel is not None:
            self._panel.pin_editor.text.clear()
        self._change(operations.add_pin(self.store, cid, text, sources))

    def _save_pin(self) -> None:
        pin_id, text = self.panel.chosen(self.panel.pins), self.panel.pin_editor.text.text()
        if pin_id is not None and text.strip():
            self._change(operations.edit_pin(self.store, pin_id, text))

    def _offer(self) -> None:
        """A pin offered as a preference: the user's click is the confirmation."""
        pin_id, state = self.panel.chosen(self.panel.pins), self.panel.state
        pin = next((p for p in state.pins if p.id == pin_id), None) if state else None
        if pin is not None:
            self._change(operations.offer_as_preference(self.store, pin.text))

    def _add_note(self) -> None:
        cid, editor = self.loaded_id, self.panel.note_editor
        text, priority = editor.text.text(), editor.priority.value()
        if cid is not None and text.strip():
            editor.text.clear()
            self._change(operations.add_note(self.store, cid, text, priority))

    def _add_preference(self) -> None:
        editor = self.panel.preference_editor
        text, priority = editor.text.text(), editor.priority.value()
        if text.strip():
            editor.text.clear()
            self._change(operations.add_preference(self.store, text, priority))

    def _save(self, widget: QListWidget, editor: ItemEditor,
              edit: Callable[[int, str, int], None]) -> None:
        item_id, text = self.panel.chosen(widget), editor.text.text()
        priority = editor.priority.value()
        if item_id is not None and text.strip():
            self._change(operations.edit_memory_item(edit, item_id, text, priority))

    def _remove(self, widget: QListWidget, remove: Callable[[int], None]) -> None:
        item_id = self.panel.chosen(widget)
        if item_id is not None:
            self._change(operations.remove_memory_item(remove, item_id))

    def _picked(self, widget: QListWidget, editor: ItemEditor) -> None:
        """Selecting an item puts its text and priority in the editor, to change it."""
        item_id, state = self.panel.chosen(widget), self.panel.state
        if item_id is None or state is None:
            return
        items: list[Any] = (state.pins if widget is self.panel.pins else state.notes
                            if widget is self.panel.notes else state.preferences)
        found = next((i for i in items if i.id == item_id), None)
        if found is not None:
            editor.text.setText(found.text)
            editor.priority.setValue(getattr(found, "priority", DEFAULT_PRIORITY))

    def _settings(self, **changes: object) -> None:
        state = self.panel.state
        if state is None:
            return
        conversation = state.conversation
        settings = replace(conversation.settings, **changes)  # type: ignore[arg-type]

        def adopt(updated: Conversation) -> None:  # the window adopts it, and the preview
            operations.announce(self.parts.log.changes,
                                Changes(conversation=updated, settings=True), self)

        self._change(operations.save_memory_settings(self.store, conversation.id, settings),
                     adopt)

    def go_to(self) -> None:
        """View → Memory: show the panel and put the cursor where a pin is typed."""
        self.dock.show()
        self.dock.raise_()
        self.panel.pin_editor.text.setFocus()

    # -------------------------------------------------------------- the turns
    def show_source(self) -> int | None:
        """Show and select the source turn of the chosen pin; its row, if loaded."""
        pin_id, state = self.panel.chosen(self.panel.pins), self.panel.state
        pin = next((p for p in state.pins if p.id == pin_id), None) if state else None
        if pin is None or not pin.sources:
            return None
        row = self.parts.history.transcript.row_of_ordinal(state.ordinals[pin.sources[0]])  # type: ignore[union-attr]
        if row is None:
            self.parts.status(
                arg(
                    QCoreApplication.translate(
                        "MemoryPanel", "Turn %1 is not loaded: scroll up to it."
                    ),
                    state.numbers[pin.sources[0]],
                )
            )
            return None
        view = self.parts.history.view
        index = self.parts.history.transcript.index(row)
        view.setCurrentIndex(index)
        view.scrollTo(index)
        view.setFocus()
        return row

    def pin_from_current_turn(self) -> PinFromTurn | None:
        """Transcript → Pin from this turn…: select words of the turn to pin."""
        from ...transcript.model import Role
        from .pin_dialog import PinFromTurn

        index = self.parts.history.view.currentIndex()
        if not index.isValid() or index.data(Role.PENDING):
            return None
        turn_id = str(index.data(Role.KEY))
        text, selected = self.parts.history.view.current_text()  # words selected there, chosen
        dialog = PinFromTurn(turn_id, int(index.data(Role.NUMBER)), text, self._parent,
                             chosen=selected)
        dialog.accepted.connect(lambda: self.pin_text(dialog.selected(), (turn_id,)))
        self.dialog = dialog
        dialog.open()
        return dialog
