"""The Memory panel's widget: the open conversation's pinned facts (with their source
turns), its notes and the preferences, with what the last request or the preview kept or
left out."""

from __future__ import annotations

from collections.abc import Collection

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QSize, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ....core.key_facts import pinned_facts_missing
from ....core.memory import (
    DEFAULT_PRIORITY,
    MAX_MEMORY_SHARE,
    ItemKind,
    MemorySelection,
)
from ...infra.languages import arg
from ...infra.operation_results import MemoryState
from ...infra.theme import tone_text
from ...infra.wheel import wheel_only_when_focused
from ...request.memory_rows import SHOWN_IN_LIST, reason_text, shortened


class ItemEditor(QWidget):
    """One line to type an item, and under it its priority (notes, preferences), Add / Save /
    Remove: side by side they left the typing line a few letters in a narrow panel."""

    def __init__(self, what: str, parent: QWidget, *, priority: bool = True) -> None:
        super().__init__(parent)
        what = QCoreApplication.translate("MemoryPanel", what)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        layout = QHBoxLayout()
        self.text = QLineEdit(self)
        self.text.setPlaceholderText(
            arg(QCoreApplication.translate("MemoryPanel", "Type a %1…"), what)
        )
        self.text.setAccessibleName(arg(QCoreApplication.translate("MemoryPanel", "New %1"), what))
        column.addWidget(self.text)
        column.addLayout(layout)
        self.priority = QSpinBox(self)
        self.priority.setRange(1, 5)
        wheel_only_when_focused(self.priority)
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
        layout.addStretch(1)
        self.text.returnPressed.connect(self.add.click)


class _ShortList(QListWidget):
    """A list that asks for no more height than its minimum: the panel (in a scroll area)
    fits its dock when there is room, the lists sharing what is left."""

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(super().sizeHint().width(), self.minimumSizeHint().height())


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
        wheel_only_when_focused(self.share)
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
        widget = _ShortList(self)
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

    def show_selection(self, selection: MemorySelection | None, summary: str = "",
                       summarized: Collection[int] | None = None) -> None:
        """Kept / left-out marks from the request on show (the preview or the last send);
        a warning when the summary it carries lacks facts of the pins it should hold:
        typed pins, and pins taken from a turn it summarized (`summarized`, ordinals;
        None: all pins). A pin whose turns are sent word for word is not the summary's."""
        self.selection = selection
        missing = pinned_facts_missing(self._summarized_pins(summarized), summary) \
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

    def _summarized_pins(self, summarized: Collection[int] | None) -> list[str]:
        state = self.state
        if state is None:
            return []
        if summarized is None:
            return [p.text for p in state.pins]
        covered = set(summarized)
        return [p.text for p in state.pins if p.typed or any(
            state.ordinals.get(source) in covered for source in p.sources)]

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
                                    state.numbers.get(s, "?"),
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
