"""The first minute in the window, before any conversation exists.

A question typed with no conversation open is previewed as the first request of the
conversation Send will start for it (`unsaved`): the counter under the composer and the
inspector measure it, and Send is on whenever there is text to send. The welcome in the
empty history (`centre.Welcome`) offers the built-in model or Settings.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject

from ...config import profiles
from ...core.model import Conversation
from ..infra import operations
from ..infra.changes import ChangeHub, Changes
from ..request.provider_setup import ProviderSetup
from .actions import HistoryActions
from .centre import Welcome
from .composer import Composer

UNSAVED_ID = 0  # no stored conversation has it (ids start at 1)


def unsaved(history: HistoryActions, draft: str) -> Conversation | None:
    """The conversation Send would start for `draft`, typed with none open: the model of
    the provider in use and default settings, as `conversations.create` stores it. None
    while nothing is typed (there is no request to preview)."""
    if not draft.strip():
        return None
    return Conversation(UNSAVED_ID, "", model=history.default_model())


translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it


class FirstMinute(QObject):
    """Wires the welcome's buttons and keeps the built-in model's button truthful; a
    provider chosen here is announced on `changes`, and the composer takes the focus."""

    def __init__(self, welcome: Welcome, setup: ProviderSetup | None, changes: ChangeHub,
                 composer: Composer, open_settings: Callable[[], object],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.welcome, self.setup, self.changes, self.composer = welcome, setup, changes, composer
        welcome.builtin_requested.connect(self.use_builtin)
        welcome.settings_requested.connect(open_settings)
        changes.changed.connect(self._changed)
        self._update()

    def _changed(self, changes: Changes, origin: object) -> None:
        if changes.provider and origin is not self:
            self._update()

    def _update(self) -> None:
        setup = self.setup
        active = setup.active() if setup is not None else None
        self.welcome.set_builtin(
            in_use=active is not None and active.builtin, offered=setup is not None)

    def use_builtin(self) -> bool:
        """Make the built-in model the provider in use (adding its profile if there is
        none); says why not where it cannot run here."""
        setup, welcome = self.setup, self.welcome
        if setup is None:
            return False
        profile = next((p for p in setup.load() if p.builtin), None)
        if profile is None:
            availability = profiles.available()
            if not availability.ok:
                welcome.say(availability.reason)
                return False
            profile = profiles.builtin_profile()
            setup.profiles.save([*setup.load(), profile], builtin_offered=True)
        setup.set_active(profile.id)
        welcome.say(
            translate(
                "FirstMinute",
                "The built-in model answers from now on: type a question below. It "
                "starts with the first question, which takes a few seconds.",
            )
        )
        self._update()
        operations.announce_provider_changed(self.changes, self)
        self.composer.edit.setFocus()
        return True
