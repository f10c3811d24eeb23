"""Help → Keyboard shortcuts: every shortcut of the window, read from its actions and
buttons when the list opens, so it cannot drift from what the keys do.

The menus' actions come grouped by menu (File, Edit, View → Theme …), in menu order; then
the actions set on widgets that are not in a menu (the history's, the conversation
list's), grouped by the widget's name, and the buttons with a shortcut of their own
(Send). A filter above the list keeps the rows whose words or keys hold what is typed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QMenu,
    QMenuBar,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

translate = QCoreApplication.translate  # translate("Shortcuts", …): lupdate reads it


@dataclass(frozen=True, slots=True)
class Shortcut:
    """One row of the list: where it is, what it does, its keys as this desktop names
    them."""

    group: str
    action: str
    keys: str


def plain(text: str) -> str:
    """A menu text without its mnemonic marks (`&File` → `File`, `&&` → `&`)."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def key_words(sequence: QKeySequence) -> str:
    """`sequence` as this desktop names it, with Return called Enter as the keyboard, the
    composer and the menus say it ("Ctrl+Enter"), in every interface language."""
    shown = sequence.toString(QKeySequence.SequenceFormat.NativeText).split("+")
    # Qt's own translations name Return in the interface language (回车): which key it is
    # is read from the portable text, so the list says what the composer says.
    keys = sequence.toString(QKeySequence.SequenceFormat.PortableText).split("+")
    if len(keys) != len(shown):
        keys = shown
    return "+".join(translate("Shortcuts", "Enter") if key == "Return" else word
                    for word, key in zip(shown, keys, strict=True))


def keys_of(sequences: Iterable[QKeySequence]) -> str:
    return translate("Shortcuts", ", ").join(
        key_words(s) for s in sequences if not s.isEmpty())


def _menu_rows(menu: QMenu, group: str, seen: set[QAction]) -> list[Shortcut]:
    rows: list[Shortcut] = []
    for action in menu.actions():
        seen.add(action)
        sub = action.menu()
        if isinstance(sub, QMenu):
            rows += _menu_rows(sub, f"{group} → {plain(sub.title())}", seen)
        elif not action.isSeparator() and keys_of(action.shortcuts()):
            rows.append(Shortcut(group, plain(action.text()), keys_of(action.shortcuts())))
    return rows


def _widget_group(action: QAction, root: QWidget) -> str:
    for owner in action.associatedObjects():
        if isinstance(owner, QWidget) and not isinstance(owner, QMenu) and owner is not root:
            name = owner.accessibleName() or owner.windowTitle()
            if name:
                return name
    return translate("Shortcuts", "Anywhere in the window")


def window_shortcuts(menu_bar: QMenuBar, root: QWidget) -> list[Shortcut]:
    """Every shortcut of `root` (the window): its menus', then those of actions and
    buttons elsewhere in it."""
    seen: set[QAction] = set()
    rows: list[Shortcut] = []
    for top in menu_bar.actions():
        menu = top.menu()
        if isinstance(menu, QMenu):
            rows += _menu_rows(menu, plain(menu.title()), seen)
    others = [a for a in root.findChildren(QAction)
              if a not in seen and keys_of(a.shortcuts())]
    rows += sorted((Shortcut(_widget_group(a, root), plain(a.text()) or a.toolTip(),
                             keys_of(a.shortcuts())) for a in others),
                   key=lambda row: (row.group, row.action))
    for button in root.findChildren(QAbstractButton):
        if not button.shortcut().isEmpty():
            rows.append(Shortcut(translate("Shortcuts", "Buttons"),
                                 plain(button.text()) or button.accessibleName(),
                                 keys_of([button.shortcut()])))
    return rows


class ShortcutsDialog(QDialog):
    """The list, filtered as one types; built from `window_shortcuts` when opened."""

    def __init__(self, menu_bar: QMenuBar, root: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("Shortcuts", "Keyboard shortcuts"))
        layout = QVBoxLayout(self)
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText(translate("Shortcuts", "Filter by action or key"))
        self.filter.setAccessibleName(translate("Shortcuts", "Filter the shortcuts"))
        self.filter.setClearButtonEnabled(True)
        layout.addWidget(self.filter)
        self.tree = QTreeWidget(self)
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels([translate("Shortcuts", "Action"),
                                   translate("Shortcuts", "Keys")])
        self.tree.setRootIsDecorated(False)
        self.tree.setAccessibleName(translate("Shortcuts", "Keyboard shortcuts"))
        layout.addWidget(self.tree, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.shortcuts = window_shortcuts(menu_bar, root)
        self._fill()
        self.filter.textChanged.connect(self._filter)
        self.resize(520, 560)

    def _fill(self) -> None:
        groups: dict[str, tuple[QTreeWidgetItem, list[QTreeWidgetItem]]] = {}
        for row in self.shortcuts:
            if row.group not in groups:
                group = QTreeWidgetItem(self.tree, [row.group])
                font = group.font(0)
                font.setBold(True)
                group.setFont(0, font)
                group.setFirstColumnSpanned(True)
                group.setFlags(Qt.ItemFlag.ItemIsEnabled)
                groups[row.group] = (group, [])
            group, items = groups[row.group]
            items.append(QTreeWidgetItem(group, [row.action, row.keys]))
        self._groups = list(groups.values())
        self.tree.expandAll()
        self.tree.resizeColumnToContents(0)

    def _filter(self, text: str) -> None:
        wanted = text.strip().casefold()
        for group, items in self._groups:
            in_group = wanted in group.text(0).casefold()
            shown = 0
            for item in items:
                match = not wanted or in_group or any(
                    wanted in item.text(column).casefold() for column in (0, 1))
                item.setHidden(not match)
                shown += match
            group.setHidden(shown == 0)

    def visible_rows(self) -> list[tuple[str, str, str]]:
        """(group, action, keys) of the rows on show, in order."""
        return [(group.text(0), item.text(0), item.text(1)) for group, items in self._groups
                if not group.isHidden() for item in items if not item.isHidden()]
