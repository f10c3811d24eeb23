"""Profiles changed by another process (`turnlog-cli profile add/remove`) show in an open
window within a second: `ProfileWatch` watches profiles.json and its folder (a writer
replaces the file atomically, so the file's own watch ends with each write), asks
`ProfileStore.refresh_if_changed` whether it really changed, and announces
`Changes(provider=True)` on the window's change bus. Coming back to Turnlog checks
too. If the profile in use is gone, it says so and nothing is sent until the person
chooses another.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QFileSystemWatcher, QObject, Qt, QTimer
from PySide6.QtGui import QGuiApplication

from ...config.profiles import Profile, ProfilesUnreadable
from ..infra import operations
from ..infra.changes import ChangeHub
from ..infra.languages import arg
from .connection import shown_name
from .provider_setup import ProviderSetup

log = logging.getLogger(__name__)

SETTLE_MS = 150  # a burst of events (temporary file, rename) is one change


class ProfileWatch(QObject):
    """Watches `setup`'s profiles.json for `parent` (the window); coming back to Turnlog
    checks too. `note` shows a plain line when the profile in use went away."""

    def __init__(self, setup: ProviderSetup, changes: ChangeHub, note: Callable[[str], None],
                 parent: QObject) -> None:
        super().__init__(parent)
        self._setup, self._changes, self._note = setup, changes, note
        self._path = setup.profiles.path
        active = setup.active()
        self._in_use = active
        self._tell_cleaned()
        self._watcher = QFileSystemWatcher(self)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SETTLE_MS)
        self._timer.timeout.connect(self.check)
        self._watcher.fileChanged.connect(lambda _path: self._timer.start())
        self._watcher.directoryChanged.connect(lambda _path: self._timer.start())
        changes.changed.connect(lambda _changes, _origin: self._remember_in_use())
        self._watch()
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):  # coming back to Turnlog checks too
            app.applicationStateChanged.connect(self._state_changed)

    def _watch(self) -> None:
        """Watch the folder, and the file while it exists (a replaced file is a new one)."""
        watched = set(self._watcher.files()) | set(self._watcher.directories())
        wanted = [str(self._path.parent)] + ([str(self._path)] if self._path.exists() else [])
        missing = [path for path in wanted if path not in watched]
        if missing and self._path.parent.exists():
            self._watcher.addPaths(missing)

    def _remember_in_use(self) -> None:
        self._in_use = self._setup.active()

    def _state_changed(self, state: Qt.ApplicationState) -> None:
        if state == Qt.ApplicationState.ApplicationActive:
            self.check()

    def check(self) -> bool:
        """Read profiles.json again if another process wrote it; True when it had."""
        self._watch()
        if not self._setup.profiles.refresh_if_changed():
            return False
        before, now = self._in_use, self._setup.active()
        try:
            ids = {profile.id for profile in self._setup.profiles.load()}
        except ProfilesUnreadable as err:  # hand-edited, say: left as it is, and said
            self._note(arg(QCoreApplication.translate(
                "ProfileWatch", "The providers could not be read again: %1"), err))
            ids = set()
        else:
            self._lost(before, now, ids)
        self._tell_cleaned()
        log.debug("profiles.json changed on disk: %d profile(s)", len(ids))
        operations.announce_provider_changed(self._changes, self)
        return True

    def _tell_cleaned(self) -> None:
        """Say which profiles' stored base URL lost a user name and password."""
        for name in self._setup.profiles.take_cleaned():
            self._note(arg(QCoreApplication.translate(
                "ProfileWatch", "The base URL of “%1” held a user name and password; they "
                "were removed (a key belongs in the key field, kept in the keyring)."),
                shown_name(name)))

    def _lost(self, before: Profile | None, now: Profile | None, ids: set[str]) -> None:
        """The profile in use is gone: say so, and send nothing until the person chooses
        another (a request never goes to another provider unasked)."""
        if before is not None and before.id not in ids:
            self._setup.lost(before)
            self._note(arg(QCoreApplication.translate(
                "ProfileWatch", "The provider “%1” was removed elsewhere; nothing is sent "
                "until you choose one in the header or in Settings (Ctrl+,)."),
                shown_name(before.name)))
