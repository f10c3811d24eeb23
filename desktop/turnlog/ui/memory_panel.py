"""The Memory panel: the open conversation's pinned facts (with their source turns), its
notes and the preferences, with what the last request or the preview kept or left out.

`attach_memory(window)` builds the panel in a dock, wires it to the window's preview,
transcript and inspector, and keeps `LivePreview.memory` in step with what is stored, so
the preview (and the send, which reads the store) carries exactly what the panel shows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..core.compaction import pinned_facts_missing
from ..core.memory import (
    DEFAULT_PRIORITY,
    MAX_MEMORY_SHARE,
    ItemKind,
    MemorySelection,
    StoredNote,
    StoredPin,
    StoredPreference,
)
from ..core.model import Conversation
from ..store import TurnlogStore
from .languages import arg
from .memory_rows import SHOWN_IN_LIST, reason_text, shortened
from .operations import StorageOp
from .tasks import TaskRunner
from .theme import tone_text

log = logging.getLogger(__name__)
@dataclass(frozen=True, slots=True)
class MemoryState:
    """What the panel shows of one conversation, read in one go on the storage lane."""

    conversation: Conversation
    pins: list[StoredPin]
    notes: list[StoredNote]
    preferences: list[StoredPreference]
    ordinals: dict[str, int]  # source turn id → its ordinal


def read_memory(store: TurnlogStore, conversation_id: int) -> MemoryState:
    pins = store.pins(conversation_id)
    ordinals = {}
    for pin in pins:
        for turn_id in pin.sources:
            ordinals[turn_id] = store.turn(turn_id)[1].ordinal
    return MemoryState(store.conversation(conversation_id), pins,
                       store.notes(conversation_id), store.preferences(), ordinals)


class ItemEditor(QWidget):
    """One line to type an item, its priority (notes, preferences), Add / Save / Remove."""

    def __init__(self, what: str, parent: QWidget, *, priority: bool = True) -> None:
        super().__init__(parent)
        what = QCoreApplication.translate("MemoryPanel", what)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.text = QLineEdit(self)
        self.text.setPlaceholderText(
            arg(QCoreApplication.translate("MemoryPanel", "Type a %1…"), what)
        )
        self.text.setAccessibleName(arg(QCoreApplication.translate("MemoryPanel", "New %1"), what))
        layout.addWidget(self.text, 1)
        self.priority = QSpinBox(self)
        self.priority.setRange(1, 5)
        self.priority.setValue(DEFAULT_PRIORITY)
        self.priority.setPrefix("p")
        self.priority.setAccessibleName(
            arg(QCoreApplication.translate("MemoryPanel", "Priority of the %1 (1–5)"), what)
        )
        self.priority.setVisible(priority)
        layout.addWidget(self.priority)
        self.add = QPushButton(QCoreApplication.translate("MemoryPanel", "Add"), self)
        self.save = QPushButton(QCoreApplication.translate("MemoryPanel", "Save"), self)
        self.remove = QPushButton(QCoreApplication.translate("MemoryPanel", "Remove"), self)
        for button in (self.add, self.save, self.remove):
            button.setAccessibleName(
                arg(
                    QCoreApplication.translate(
                        "MemoryPanel", "%1 %2", "a button and what it acts on"
                    ),
                    button.text(),
                    what,
                )
            )
            layout.addWidget(button)
        self.text.returnPressed.connect(self.add.click)


class MemoryPanel(QWidget):
    """Pins, notes and preferences of the open conversation, with kept/left-out marks."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("memoryPanel")
        self.setAccessibleName(QCoreApplication.translate("MemoryPanel", "Memory"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        self.share = QSpinBox(self)
        self.share.setRange(0, MAX_MEMORY_SHARE)
        self.share.setSuffix(QCoreApplication.translate("MemoryPanel", " % of each budget"))
        self.share.setAccessibleName(
            QCoreApplication.translate("MemoryPanel", "Memory share for preferences and notes")
        )
        self.use_preferences = QCheckBox(
            QCoreApplication.translate("MemoryPanel", "Use preferences in this conversation"), self
        )
        row = QHBoxLayout()
        row.addWidget(QLabel(QCoreApplication.translate("MemoryPanel", "Memory share:"), self))
        row.addWidget(self.share, 1)
        layout.addLayout(row)
        layout.addWidget(self.use_preferences)
        self.pins = self._list(
            layout,
            QCoreApplication.translate("MemoryPanel", "Pinned facts — always sent, word for word"),
            "pins",
        )
        self.pin_editor = ItemEditor(
            QT_TRANSLATE_NOOP("MemoryPanel", "pinned fact"), self, priority=False
        )
        self.pin_editor.save.setText(QCoreApplication.translate("MemoryPanel", "Save"))
        layout.addWidget(self.pin_editor)
        self.offer = QPushButton(
            QCoreApplication.translate("MemoryPanel", "Use in all conversations (as a preference)"),
            self,
        )
        layout.addWidget(self.offer)
        self.notes = self._list(
            layout,
            QCoreApplication.translate(
                "MemoryPanel", "Notes — sent when the memory share has room"
            ),
            "notes",
        )
        self.note_editor = ItemEditor(QT_TRANSLATE_NOOP("MemoryPanel", "note"), self)
        layout.addWidget(self.note_editor)
        self.preferences = self._list(
            layout,
            QCoreApplication.translate("MemoryPanel", "Preferences — every conversation"),
            "preferences",
        )
        self.preference_editor = ItemEditor(QT_TRANSLATE_NOOP("MemoryPanel", "preference"), self)
        layout.addWidget(self.preference_editor)
        self.choice = QLabel(self)
        self.choice.setWordWrap(True)
        layout.addWidget(self.choice)
        self.warning = QLabel(self)
        self.warning.setObjectName("pinWarning")
        self.warning.setWordWrap(True)
        self.warning.setTextFormat(Qt.TextFormat.PlainText)
        tone_text(self.warning, "warning")
        self.warning.hide()
        layout.addWidget(self.warning)
        self.state: MemoryState | None = None
        self.selection: MemorySelection | None = None

    def _list(self, layout: QVBoxLayout, title: str, name: str) -> QListWidget:
        label = QLabel(title, self)
        label.setWordWrap(True)
        layout.addWidget(label)
        widget = QListWidget(self)
        widget.setObjectName(f"memory_{name}")
        widget.setAccessibleName(title)
        widget.setWordWrap(True)
        label.setBuddy(widget)
        layout.addWidget(widget, 1)
        return widget

    def show_state(self, state: MemoryState | None) -> None:
        self.state = state
        self.setEnabled(state is not None)
        settings = state.conversation.settings if state else None
        self.share.blockSignals(True)
        self.use_preferences.blockSignals(True)
        self.share.setValue(settings.memory_share if settings else 0)
        self.use_preferences.setChecked(bool(settings and settings.preferences))
        self.share.blockSignals(False)
        self.use_preferences.blockSignals(False)
        self._fill()

    def show_selection(self, selection: MemorySelection | None, summary: str = "") -> None:
        """Kept / left-out marks from the request on show (the preview or the last send);
        a warning when the summary it carries lacks facts of the pins."""
        self.selection = selection
        missing = pinned_facts_missing([p.text for p in self.state.pins], summary) \
            if summary and self.state is not None else []
        self.warning.setVisible(bool(missing))
        self.warning.setText(
            arg(
                QCoreApplication.translate(
                    "MemoryPanel",
                    "⚠ The summary lacks pinned facts: %1. The pins are sent word for word "
                    "regardless.",
                ),
                "; ".join(f"“{m}”" for m in missing),
            )
            if missing
            else ""
        )
        self._fill()

    def _marks(self) -> dict[tuple[ItemKind, str], str]:
        if self.selection is None:
            return {}
        return {
            (c.item.kind, c.item.id): QCoreApplication.translate("MemoryPanel", "kept")
            if c.kept
            else arg(
                QCoreApplication.translate("MemoryPanel", "left out: %1"), reason_text(c.reason)
            )
            for c in self.selection.choices
        }

    def _fill(self) -> None:
        state, marks = self.state, self._marks()
        pins = state.pins if state else []
        self._fill_list(
            self.pins,
            [
                (
                    p.id,
                    f"📌 {p.text}\n   "
                    + (
                        QCoreApplication.translate("MemoryPanel", "typed")
                        if p.typed
                        else arg(
                            QCoreApplication.translate("MemoryPanel", "from %1"),
                            ", ".join(
                                arg(
                                    QCoreApplication.translate("MemoryPanel", "turn %1"),
                                    str(state.ordinals.get(s, "?")),
                                )
                                for s in p.sources
                            ),
                        )
                    ),
                )  # type: ignore[union-attr]
                for p in pins
            ],
        )
        self._fill_list(
            self.notes,
            [
                (
                    n.id,
                    f"p{n.priority} {n.text}\n   "
                    + marks.get(
                        (ItemKind.NOTE, str(n.id)),
                        QCoreApplication.translate("MemoryPanel", "not in this request"),
                    ),
                )
                for n in (state.notes if state else [])
            ],
        )
        off = state is not None and not state.conversation.settings.preferences
        self._fill_list(
            self.preferences,
            [
                (
                    p.id,
                    f"p{p.priority} {p.text}\n   "
                    + (
                        QCoreApplication.translate("MemoryPanel", "off in this conversation")
                        if off
                        else marks.get(
                            (ItemKind.PREFERENCE, str(p.id)),
                            QCoreApplication.translate("MemoryPanel", "not in this request"),
                        )
                    ),
                )
                for p in (state.preferences if state else [])
            ],
        )
        selection = self.selection
        self.choice.setText(
            ""
            if selection is None or not selection.choices
            else (
                arg(
                    QCoreApplication.translate("MemoryPanel", "Share: %1 bytes, %2 tokens; %3"),
                    selection.limit.bytes,
                    selection.limit.tokens,
                    QCoreApplication.translate("MemoryPanel", "approximate choice (greedy)")
                    if selection.approximate
                    else QCoreApplication.translate("MemoryPanel", "exact choice"),
                )
            )
        )

    @staticmethod
    def _fill_list(widget: QListWidget, rows: list[tuple[int, str]]) -> None:
        current = widget.currentItem()
        keep = current.data(Qt.ItemDataRole.UserRole) if current is not None else None
        widget.clear()
        for item_id, text in rows:
            first, _, rest = text.partition("\n")
            item = QListWidgetItem(shortened(first, SHOWN_IN_LIST) + ("\n" + rest if rest else ""),
                                   widget)
            item.setToolTip(first)
            item.setData(Qt.ItemDataRole.UserRole, item_id)
            if item_id == keep:
                widget.setCurrentItem(item)

    @staticmethod
    def chosen(widget: QListWidget) -> int | None:
        item = widget.currentItem()
        return None if item is None else int(item.data(Qt.ItemDataRole.UserRole))


class PinFromTurn(QDialog):
    """A turn's text to select from: the selection (or the edited line) becomes a pin
    whose source is that turn."""

    def __init__(self, turn_id: str, ordinal: int, text: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.turn_id = turn_id
        self.setWindowTitle(
            arg(QCoreApplication.translate("MemoryPanel", "Pin from turn %1"), str(ordinal))
        )
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel(QCoreApplication.translate("MemoryPanel", "Select the words to pin:"), self)
        )
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setPlainText(text)
        self.text.setAccessibleName(
            arg(QCoreApplication.translate("MemoryPanel", "Turn %1"), str(ordinal))
        )
        layout.addWidget(self.text, 1)
        self.buttons = QDialogButtonBox(self)
        self.pin = self.buttons.addButton(
            QCoreApplication.translate("MemoryPanel", "Pin"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.pin.setEnabled(False)
        self.text.selectionChanged.connect(
            lambda: self.pin.setEnabled(bool(self.selected().strip())))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def selected(self) -> str:
        # Qt gives a paragraph break as U+2029: a pin keeps ordinary newlines.
        return self.text.textCursor().selectedText().replace("\u2029", "\n")


class MemoryDock(QObject):
    """Keeps the panel, the preview's memory and the store in step."""

    changed = Signal()  # the stored memory of the open conversation changed

    def __init__(self, window: Any, panel: MemoryPanel) -> None:
        super().__init__(window)
        self.window, self.panel = window, panel
        self.store: TurnlogStore = window.store
        self.runner: TaskRunner = window.runner
        self.loaded_id: int | None = None
        self.dialog: PinFromTurn | None = None
        self._wire()

    def _wire(self) -> None:
        panel, window = self.panel, self.window
        window.preview.shown_changed.connect(self._shown)
        window.inspector.pin_requested.connect(self.pin_text)
        window.history.changed.connect(lambda _changes: self.reload())  # a turn's pins go
        panel.pins.itemActivated.connect(lambda _item: self.show_source())
        panel.pin_editor.add.clicked.connect(lambda: self.pin_text(panel.pin_editor.text.text()))
        panel.pin_editor.save.clicked.connect(self._save_pin)
        panel.pin_editor.remove.clicked.connect(lambda: self._remove(
            panel.pins, self.store.remove_pin))
        panel.offer.clicked.connect(self._offer)
        panel.note_editor.add.clicked.connect(self._add_note)
        panel.note_editor.save.clicked.connect(lambda: self._save(
            panel.notes, panel.note_editor, self.store.edit_note))
        panel.note_editor.remove.clicked.connect(lambda: self._remove(
            panel.notes, self.store.remove_note))
        panel.preference_editor.add.clicked.connect(self._add_preference)
        panel.preference_editor.save.clicked.connect(lambda: self._save(
            panel.preferences, panel.preference_editor, self.store.edit_preference))
        panel.preference_editor.remove.clicked.connect(lambda: self._remove(
            panel.preferences, self.store.remove_preference))
        panel.share.valueChanged.connect(lambda v: self._settings(memory_share=v))
        panel.use_preferences.toggled.connect(lambda on: self._settings(preferences=on))
        for widget, editor in ((panel.pins, panel.pin_editor), (panel.notes, panel.note_editor),
                               (panel.preferences, panel.preference_editor)):
            widget.currentItemChanged.connect(
                lambda item, _old, w=widget, e=editor: self._picked(w, e))

    # ------------------------------------------------------------------ loading
    def _conversation_id(self) -> int | None:
        conversation = self.window.conversation
        return conversation.id if conversation is not None else None

    def _shown(self, shown: Any) -> None:
        cid = self._conversation_id()
        if cid != self.loaded_id:
            self.loaded_id = cid
            self.window.transcript.set_pins({})
            self.panel.show_state(None)
            self.panel.show_selection(None)
            if cid is not None:
                self.reload()
            return
        projection = shown.projection
        if projection is None:
            self.panel.show_selection(None)
            return
        summary = projection.summary.content if projection.summary is not None else ""
        self.panel.show_selection(projection.memory, summary)

    def reload(self) -> None:
        cid = self.loaded_id
        if cid is None or self.runner.closed:  # the window is closing
            return
        StorageOp("read memory", lambda: read_memory(self.store, cid)).run(
            self.runner, on_success=self._loaded, on_failure=self.window._storage_failed)

    def _loaded(self, state: MemoryState) -> None:
        if state.conversation.id != self._conversation_id():
            return  # another conversation opened meanwhile
        self.panel.show_state(state)
        pinned: dict[str, tuple[str, ...]] = {}
        for pin in state.pins:
            for turn_id in pin.sources:
                pinned[turn_id] = (*pinned.get(turn_id, ()), pin.text)
        self.window.transcript.set_pins(pinned)
        memory = self.store_memory(state)
        if memory != self.window.preview.memory:  # the preview reads turns: only if needed
            self.window.preview.memory = memory
            self.window.refresh_preview()

    @staticmethod
    def store_memory(state: MemoryState) -> Any:
        from ..core.memory import conversation_memory

        settings = state.conversation.settings
        return conversation_memory(state.pins, state.notes,
                                   state.preferences if settings.preferences else [],
                                   share_percent=settings.memory_share)

    # ----------------------------------------------------------------- changing
    def _change(self, name: str, work: Callable[[], object],
                then: Callable[[Any], None] | None = None) -> None:
        def done(result: object) -> None:
            if then is not None:
                then(result)
            self.changed.emit()
            self.reload()

        if self.runner.closed:
            return
        StorageOp(name, work).run(self.runner, on_success=done,
                                  on_failure=self.window._storage_failed)

    def pin_text(self, text: str, sources: tuple[str, ...] = ()) -> None:
        cid = self.loaded_id
        if cid is None or not text.strip():
            return
        self.panel.pin_editor.text.clear()
        self._change("pin", lambda: self.store.add_pin(cid, text, sources=sources))

    def _save_pin(self) -> None:
        pin_id, text = self.panel.chosen(self.panel.pins), self.panel.pin_editor.text.text()
        if pin_id is not None and text.strip():
            self._change("edit pin", lambda: self.store.edit_pin(pin_id, text))

    def _offer(self) -> None:
        """A pin offered as a preference: the user's click is the confirmation."""
        pin_id, state = self.panel.chosen(self.panel.pins), self.panel.state
        pin = next((p for p in state.pins if p.id == pin_id), None) if state else None
        if pin is not None:
            self._change("offer pin", lambda: self.store.add_preference(pin.text))

    def _add_note(self) -> None:
        cid, editor = self.loaded_id, self.panel.note_editor
        text, priority = editor.text.text(), editor.priority.value()
        if cid is not None and text.strip():
            editor.text.clear()
            self._change("note", lambda: self.store.add_note(cid, text, priority=priority))

    def _add_preference(self) -> None:
        editor = self.panel.preference_editor
        text, priority = editor.text.text(), editor.priority.value()
        if text.strip():
            editor.text.clear()
            self._change("preference", lambda: self.store.add_preference(
                text, priority=priority))

    def _save(self, widget: QListWidget, editor: ItemEditor,
              edit: Callable[[int, str, int], None]) -> None:
        item_id, text = self.panel.chosen(widget), editor.text.text()
        priority = editor.priority.value()
        if item_id is not None and text.strip():
            self._change("edit", lambda: edit(item_id, text, priority))

    def _remove(self, widget: QListWidget, remove: Callable[[int], None]) -> None:
        item_id = self.panel.chosen(widget)
        if item_id is not None:
            self._change("remove", lambda: remove(item_id))

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

        def adopt(updated: Conversation) -> None:
            if self._conversation_id() == updated.id:
                self.window.conversation = updated
                self.window.preview.forget_last()

        self._change("memory settings", lambda: self.store.update_conversation(
            conversation.id, settings=settings), adopt)

    def go_to(self) -> None:
        """View → Memory: show the panel and put the cursor where a pin is typed."""
        self.window.memory_dock.show()
        self.window.memory_dock.raise_()
        self.panel.pin_editor.text.setFocus()

    # -------------------------------------------------------------- the turns
    def show_source(self) -> int | None:
        """Show and select the source turn of the chosen pin; its row, if loaded."""
        pin_id, state = self.panel.chosen(self.panel.pins), self.panel.state
        pin = next((p for p in state.pins if p.id == pin_id), None) if state else None
        if pin is None or not pin.sources:
            return None
        row = self.window.transcript.row_of_ordinal(state.ordinals[pin.sources[0]])  # type: ignore[union-attr]
        if row is None:
            self.window.statusBar().showMessage(
                arg(
                    QCoreApplication.translate(
                        "MemoryPanel", "Turn %1 is not loaded: scroll up to it."
                    ),
                    str(state.ordinals[pin.sources[0]]),
                )
            )  # type: ignore[union-attr]
            return None
        view = self.window.view
        index = self.window.transcript.index(row)
        view.setCurrentIndex(index)
        view.scrollTo(index)
        view.setFocus()
        return row

    def pin_from_current_turn(self) -> PinFromTurn | None:
        """Transcript → Pin from this turn…: select words of the turn to pin."""
        from .transcript import Role

        index = self.window.view.currentIndex()
        if not index.isValid() or index.data(Role.PENDING):
            return None
        turn_id = str(index.data(Role.KEY))
        text = f"{index.data(Role.QUESTION)}\n\n{index.data(Role.ANSWER)}"
        dialog = PinFromTurn(turn_id, int(index.data(Role.ORDINAL)), text, self.window)
        dialog.accepted.connect(lambda: self.pin_text(dialog.selected(), (turn_id,)))
        self.dialog = dialog
        dialog.open()
        return dialog


def attach_memory(window: Any) -> MemoryDock:
    """The Memory dock of `window` (a tab beside the inspector; View → Memory), wired;
    the transcript's menu gains Pin from this turn…"""
    from PySide6.QtGui import QAction

    panel = MemoryPanel(window)
    window.memory_dock = memory_dock = window._dock(
        QCoreApplication.translate("MemoryPanel", "Memory"),
        "memoryDock",
        panel,
        Qt.DockWidgetArea.RightDockWidgetArea,
    )
    window.tabifyDockWidget(window.inspector_dock, memory_dock)  # a tab beside the inspector
    window.inspector_dock.raise_()
    window.folding.also_fold(memory_dock)
    dock = MemoryDock(window, panel)
    go = QAction(QCoreApplication.translate("MemoryPanel", "&Memory"), window)
    go.setShortcut("Ctrl+Shift+M")
    go.triggered.connect(dock.go_to)
    window.view_menu.addAction(go)
    action = QAction(QCoreApplication.translate("MemoryPanel", "Pin from this turn…"), window.view)
    action.setShortcut("Ctrl+Shift+P")
    action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    action.triggered.connect(dock.pin_from_current_turn)
    window.view.addAction(action)
    dock.pin_action = action
    return dock
