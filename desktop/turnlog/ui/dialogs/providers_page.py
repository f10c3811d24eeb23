"""Settings → Providers: every provider profile with its preset, address, model and
whether a key is stored; Add (from a preset), Edit, Duplicate, Remove and Make default.

Each of these is saved at once (profiles.json, the keyring) and announced with
`changed`; Settings turns that into the window's `Changes(provider=True)`. Whether a key
is stored is read on the storage worker: a keyring may be slow or wait to be unlocked.
The default profile is the first in the file: what `turnlog-cli` uses without
`--profile`, and what the window falls back to when the one in use is gone.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable
from dataclasses import replace
from enum import Enum

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont, QKeyEvent, QTextLayout, QTextOption
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from ...config.profiles import Profile, ProfilesUnreadable, builtin_profile, unique_name
from ...config.secrets import KeyringUnavailable
from ...providers import PRESETS, Preset, preset_by_id
from ..infra import settings_operations
from ..infra.languages import arg
from ..infra.tasks import TaskRunner
from ..request.connection import shown_name
from ..request.provider_setup import ProviderSetup
from .fitting import alive
from .privacy import Confirmation, Decision
from .profile_editor import ProfileEditor

translate = QCoreApplication.translate  # translate("ProvidersPage", …): lupdate reads it
ROW_PADDING = 6  # pixels above and below a row's words


class KeyState(Enum):
    """What the list says of a profile's key."""

    CHECKING = "checking"
    STORED = "stored"
    SESSION = "session"  # held for this session only
    NONE = "none"
    NOT_NEEDED = "not needed"
    UNREADABLE = "unreadable"  # the keyring could not be asked


def key_words(state: KeyState) -> str:
    return {
        KeyState.CHECKING: translate("ProvidersPage", "key: checking…"),
        KeyState.STORED: translate("ProvidersPage", "key stored in the keyring"),
        KeyState.SESSION: translate("ProvidersPage", "key kept until Turnlog closes"),
        KeyState.NONE: translate("ProvidersPage", "no key"),
        KeyState.NOT_NEEDED: translate("ProvidersPage", "no key needed"),
        KeyState.UNREADABLE: translate("ProvidersPage", "key: the keyring could not be read"),
    }[state]


def remove_question(profile: Profile, in_use: bool) -> Confirmation:
    """The confirmation before removing `profile`, naming it."""
    name = shown_name(profile.name)
    detail = translate("ProvidersPage", "Conversations keep all their turns.")
    if in_use:
        detail += " " + translate("ProvidersPage", "Requests go to the default provider "
                                  "from now on.")
    if profile.builtin:
        detail += " " + translate("ProvidersPage", "The built-in model is not added back by "
                                  "itself; choose Add → Built-in to have it again.")
    return Confirmation(
        translate("ProvidersPage", "Remove provider"),
        arg(translate("ProvidersPage", "Remove “%1”? Its API key is removed from the keyring "
                      "too."), name),
        detail, translate("ProvidersPage", "Remove"))


class EntryDelegate(QStyledItemDelegate):
    """Rows as tall as their words: with Qt's own hint a row whose first line holds
    Chinese (drawn from a taller fallback font) has no room left for its second line, which
    is then cut. The words are laid out as they will be drawn, with a little room."""

    def __init__(self, view: QListWidget) -> None:
        super().__init__(view)
        self._view = view

    def sizeHint(self, option: QStyleOptionViewItem,  # noqa: N802 - Qt override
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        width = max(1, self._view.viewport().width() - 8)
        needed = words_height(str(index.data() or ""), option.font, width) + ROW_PADDING
        return QSize(size.width(), max(size.height(), needed))


def words_height(text: str, font: QFont, width: int) -> int:
    """The height of `text` wrapped at `width`, each line as tall as its tallest glyph."""
    wrap = QTextOption()
    wrap.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    total = 0.0
    for paragraph in text.split("\n"):
        layout = QTextLayout(paragraph, font)
        layout.setTextOption(wrap)
        layout.beginLayout()
        line = layout.createLine()
        while line.isValid():
            line.setLineWidth(width)
            total += line.height()
            line = layout.createLine()
        layout.endLayout()
    return math.ceil(total)


class ProviderList(QListWidget):
    """The list of profiles; Enter opens the chosen one's editor and goes no further (a
    list view passes Enter on, and the dialog's Save would close Settings with it)."""

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentItem():
            self.itemActivated.emit(self.currentItem())
            event.accept()
            return
        super().keyPressEvent(event)


class ProvidersPage(QWidget):
    """The profiles as a list, with the buttons that change them; `editor` is the profile
    editor open now (None: none)."""

    changed = Signal()  # profiles.json (or the profile in use) was changed here

    def __init__(self, setup: ProviderSetup, runner: TaskRunner,
                 confirm: Callable[[Confirmation], Decision],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setup, self.runner, self._confirm = setup, runner, confirm
        self.editor: ProfileEditor | None = None
        self._alive = alive(self)
        self.keys: dict[str, KeyState] = {}
        column = QVBoxLayout(self)
        self.list = ProviderList(self)
        self.list.setObjectName("providerList")
        self.list.setAccessibleName(translate("ProvidersPage", "Providers"))
        self.list.setWordWrap(True)
        self.list.setResizeMode(QListView.ResizeMode.Adjust)  # rows re-wrap with the width
        self.list.setItemDelegate(EntryDelegate(self.list))
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.list.currentRowChanged.connect(lambda _row: self._enable())
        self.list.itemActivated.connect(lambda _item: self.edit_selected())
        column.addWidget(self.list, 1)
        self.empty = QLabel(translate("ProvidersPage", "No provider yet. Choose Add and a "
                                      "preset: a server you run (Ollama, LM Studio, …), a "
                                      "service with an API key, or the built-in model."), self)
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        column.addWidget(self.empty, 1)  # in the list's place while there is none
        column.addLayout(self._buttons())
        self.note = QLabel(self)
        self.note.setObjectName("providersNote")
        self.note.setWordWrap(True)
        self.note.hide()
        column.addWidget(self.note)
        self.refresh()

    def _buttons(self) -> QGridLayout:
        grid = QGridLayout()
        self.add = QPushButton(translate("ProvidersPage", "&Add…"), self)
        self.add.setAccessibleName(translate("ProvidersPage", "Add a provider from a preset"))
        menu = QMenu(self.add)
        for preset in PRESETS:
            action = menu.addAction(shown_name(preset.name))
            action.setData(preset.id)
            action.triggered.connect(lambda _on=False, p=preset.id: self.add_profile(p))
        self.add.setMenu(menu)
        self.edit = QPushButton(translate("ProvidersPage", "&Edit…"), self)
        self.edit.clicked.connect(self.edit_selected)
        self.duplicate = QPushButton(translate("ProvidersPage", "D&uplicate…"), self)
        self.duplicate.clicked.connect(self.duplicate_selected)
        self.remove = QPushButton(translate("ProvidersPage", "&Remove…"), self)
        self.remove.clicked.connect(self.remove_selected)
        self.make_default = QPushButton(translate("ProvidersPage", "Make &default"), self)
        self.make_default.setToolTip(translate(
            "ProvidersPage", "Use this provider now, in new windows and in turnlog-cli"))
        self.make_default.clicked.connect(self.make_selected_default)
        for index, button in enumerate((self.add, self.edit, self.duplicate, self.remove,
                                        self.make_default)):
            grid.addWidget(button, index // 3, index % 3)
        return grid

    # ------------------------------------------------------------------ showing
    def selected(self) -> Profile | None:
        item = self.list.currentItem()
        profile_id = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return self.setup.profiles.get(profile_id) if isinstance(profile_id, str) else None

    def select(self, profile_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == profile_id:
                self.list.setCurrentRow(row)

    def refresh(self) -> None:
        """The list as profiles.json holds it now (the selection kept), keys asked again."""
        chosen = self.selected()
        try:
            profiles = self.setup.profiles.load()
        except ProfilesUnreadable as err:  # shown, and nothing written over it
            self.say(arg(translate("ProvidersPage", "The providers could not be read: %1"),
                         err))
            profiles = []
        active = self.setup.active()
        self.list.clear()
        for profile in profiles:  # known at once: no "checking…" for a key never needed
            if profile.builtin:
                self.keys[profile.id] = KeyState.NOT_NEEDED
        for index, profile in enumerate(profiles):
            item = QListWidgetItem(self.entry_text(profile, index == 0,
                                                   active is not None
                                                   and active.id == profile.id))
            item.setData(Qt.ItemDataRole.UserRole, profile.id)
            item.setToolTip(item.text())
            self.list.addItem(item)
        wanted = chosen or active
        if wanted is not None:
            self.select(wanted.id)
        if self.list.currentRow() < 0 and profiles:
            self.list.setCurrentRow(0)
        self.empty.setVisible(not profiles)
        self.list.setVisible(bool(profiles))
        self._enable()
        self._check_keys(profiles)

    def entry_text(self, profile: Profile, default: bool, in_use: bool) -> str:
        """Two lines: name · preset (unless the name says it) · default · in use, then
        address · model · key."""
        first = [shown_name(profile.name)]
        if shown_name(profile.server.name) != first[0]:
            first.append(shown_name(profile.server.name))
        if default:
            first.append(translate("ProvidersPage", "default"))
        if in_use:
            first.append(translate("ProvidersPage", "in use"))
        where = profile.base_url or translate("ProvidersPage", "started by Turnlog")
        model = profile.model or translate("ProvidersPage", "no model")
        state = self.keys.get(profile.id, KeyState.CHECKING)
        return " · ".join(first) + "\n" + " · ".join((where, model, key_words(state)))

    def _enable(self) -> None:
        chosen = self.selected()
        for button in (self.edit, self.duplicate, self.remove):
            button.setEnabled(chosen is not None)
        self.make_default.setEnabled(chosen is not None and self.setup.load()[0].id != chosen.id)

    def _check_keys(self, profiles: list[Profile]) -> None:
        """Which profiles have a key, asked on the storage worker; the list follows."""
        session, keyring = self.setup.session, self.setup.keyring
        wanted = [p for p in profiles if not p.builtin]
        asked = [p for p in wanted if session.get(p.id) is None]  # held: nothing to ask

        def known(stored: dict[str, bool | None]) -> None:
            found = {p.id: KeyState.SESSION for p in wanted}
            for profile in asked:
                kept = stored[profile.id]
                found[profile.id] = KeyState.UNREADABLE if kept is None else \
                    KeyState.STORED if kept else \
                    KeyState.NONE if profile.server.needs_key else KeyState.NOT_NEEDED
            self._keys_known(found)

        if wanted and not self.runner.closed:
            settings_operations.check_stored_keys(keyring, [p.id for p in asked]).run(
                self.runner, on_success=known, on_failure=self._keys_failed)

    def _keys_known(self, found: dict[str, KeyState]) -> None:
        if not self._alive:
            return
        self.keys.update(found)
        for row in range(self.list.count()):
            item = self.list.item(row)
            profile = self.setup.profiles.get(str(item.data(Qt.ItemDataRole.UserRole)))
            if profile is not None:
                item.setText(self.entry_text(profile, row == 0,
                                             self.setup.active() == profile))
                item.setToolTip(item.text())

    def _keys_failed(self, error: BaseException) -> None:
        raise error

    def say(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    # ------------------------------------------------------------------ editing
    def add_profile(self, preset_id: str) -> ProfileEditor:
        """Open the editor on a new profile from the preset, its name made unique."""
        preset = preset_by_id(preset_id)
        return self._open(self._draft(preset), new=True)

    def _draft(self, preset: Preset, like: Profile | None = None) -> Profile:
        taken = [shown_name(p.name) for p in self.setup.load()]
        name = unique_name(shown_name(like.name if like is not None else preset.name), taken)
        if like is not None:
            return replace(like, id=uuid.uuid4().hex, name=name)
        if preset.builtin:
            return builtin_profile(name=name)
        return Profile(uuid.uuid4().hex, name, preset.id, preset.base_url, "")

    def edit_selected(self) -> ProfileEditor | None:
        chosen = self.selected()
        return self._open(chosen, new=False) if chosen is not None else None

    def duplicate_selected(self) -> ProfileEditor | None:
        """A copy of the chosen profile under a new name (its key is not copied)."""
        chosen = self.selected()
        return (self._open(self._draft(chosen.server, chosen), new=True)
                if chosen is not None else None)

    def _open(self, profile: Profile, *, new: bool) -> ProfileEditor:
        state = self.keys.get(profile.id)
        known = {KeyState.STORED: True, KeyState.SESSION: True, KeyState.NONE: False,
                 KeyState.NOT_NEEDED: False}
        editor = ProfileEditor(self.setup, self.runner, profile, new=new,
                               key_stored=None if new or state is None else known.get(state),
                               parent=self.window())
        editor.saved.connect(self._saved)
        editor.finished.connect(lambda _result: self._closed(editor))
        self.editor = editor
        editor.open()
        return editor

    def _closed(self, editor: ProfileEditor) -> None:
        if self.editor is editor:
            self.editor = None

    def _saved(self, profile: Profile) -> None:
        self.keys.pop(profile.id, None)
        self.say("")
        self.refresh()
        self.select(profile.id)
        self.changed.emit()

    # ------------------------------------------------------------ remove, default
    def remove_selected(self) -> bool:
        """Ask, naming the profile; then remove it and its key. True when removed."""
        chosen = self.selected()
        if chosen is None:
            return False
        active = self.setup.active()
        in_use = active is not None and active.id == chosen.id
        if not self._confirm(remove_question(chosen, in_use)).accepted:
            return False
        try:
            self.setup.profiles.remove(chosen.id)
        except (OSError, ValueError, ProfilesUnreadable) as err:
            self.say(arg(translate("ProvidersPage", "“%1” could not be removed: %2"),
                         shown_name(chosen.name), err))
            return False
        self.setup.session.delete(chosen.id)
        self.keys.pop(chosen.id, None)
        self._forget_key(chosen)
        now = self.setup.active()
        self.say(arg(translate("ProvidersPage", "Removed “%1”; requests go to “%2” now."),
                     shown_name(chosen.name), shown_name(now.name)) if in_use and now
                 else arg(translate("ProvidersPage", "Removed “%1”."), shown_name(chosen.name)))
        if in_use and now is not None:
            self.setup.set_active(now.id)
        self.refresh()
        self.changed.emit()
        return True

    def _forget_key(self, profile: Profile) -> None:
        """Remove the profile's key from the keyring on the storage worker."""
        keyring = self.setup.keyring
        if keyring is None or self.runner.closed:
            return

        def failed(error: BaseException) -> None:
            if not isinstance(error, KeyringUnavailable):
                raise error
            if self._alive:
                self.say(arg(translate("ProvidersPage", "“%1” was removed, but its key is "
                                       "still in the keyring: %2"),
                             shown_name(profile.name), error))

        settings_operations.remove_api_key(keyring, profile.id).run(
            self.runner, on_success=lambda _gone: None, on_failure=failed)

    def make_selected_default(self) -> None:
        """The chosen profile goes first (the default) and is used from now on."""
        chosen = self.selected()
        if chosen is None:
            return
        profiles = self.setup.load()
        try:
            self.setup.profiles.save([chosen, *(p for p in profiles if p.id != chosen.id)])
        except (OSError, ValueError, ProfilesUnreadable) as err:
            self.say(arg(translate("ProvidersPage", "The provider could not be saved: %1"), err))
            return
        self.setup.set_active(chosen.id)
        self.refresh()
        self.changed.emit()
