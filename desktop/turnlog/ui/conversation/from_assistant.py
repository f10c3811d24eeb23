"""New from an assistant (the New button's menu, File → New from assistant, Ctrl+Shift+N):
a conversation that starts with a copy of the assistant's setup, opened at once.

The person's own variables in its system prompt are asked for first (one at a time); the
rest is done on the storage worker: the conversation made with the prompt filled, its
pins and notes, and the assistant's files put on its draft (they go with the first
question, where the person sees them as chips and may remove one)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QInputDialog, QMenu, QWidget

from ...config.profiles import Profile
from ...config.tool_servers import ToolConfigInvalid, ToolServer
from ...core.assistant_vars import own_names
from ...core.assistants import Assistant
from ...core.model import Conversation
from ...store import TurnlogStore
from ..infra import assistant_operations
from ..infra.changes import ChangeHub, Changes
from ..infra.languages import arg, shown_language
from ..infra.operations import announce, announce_provider_changed
from ..infra.tasks import TaskRunner
from ..request.connection import NotConnected, Reach
from ..request.provider_setup import ProviderSetup

log = logging.getLogger(__name__)
translate = QCoreApplication.translate  # translate("FromAssistant", …): lupdate reads it

AskValue = Callable[[Assistant, str], str | None]  # (assistant, name) → value; None: cancel


class AssistantStarter(QObject):
    """Starts conversations from the store's assistants; `status` says what was left as
    typed or off, `failed` a storage fault. An assistant that names a provider profile
    makes that profile the one in use (as picking it in the header does), so its
    conversation's requests go there; one not set up here is said, never passed over."""

    status = Signal(str)
    failed = Signal(object)

    def __init__(self, store: TurnlogStore, runner: TaskRunner, changes: ChangeHub,
                 reach: Reach, servers: Callable[[], Sequence[ToolServer]],
                 window: QWidget, *, ask_value: AskValue | None = None,
                 setup: ProviderSetup | None = None) -> None:
        super().__init__(window)
        self.store, self.runner, self.changes, self.reach = store, runner, changes, reach
        self.setup = setup
        self.servers, self.window = servers, window
        self.ask_value = ask_value or self._ask
        self.menu: QMenu | None = None

    def fill(self, menu: QMenu) -> None:
        """List the assistants in `menu` (it is about to show)."""
        menu.clear()
        found = self.store.assistants.list()  # a handful of short rows
        for assistant in found:
            action = menu.addAction(assistant.label)
            action.triggered.connect(lambda _checked=False, a=assistant: self.start(a))
        if not found:
            empty = menu.addAction(translate(
                "FromAssistant", "No assistants yet: add one in Settings → Assistants"))
            empty.setEnabled(False)

    def popup(self) -> QMenu:
        """Ctrl+Shift+N: the assistants in a menu at the pointer (over the window)."""
        if self.menu is None:
            self.menu = QMenu(self.window)
            self.menu.setObjectName("newFromAssistantMenu")
        self.fill(self.menu)
        where = QCursor.pos()
        if not self.window.rect().contains(self.window.mapFromGlobal(where)):
            where = self.window.mapToGlobal(self.window.rect().center())
        self.menu.popup(where)
        return self.menu

    def start(self, assistant: Assistant) -> None:
        """Ask for its own variables, then make and open the conversation."""
        values = self._values(assistant)
        if values is None:
            return  # cancelled: nothing is made
        profile = self._profile(assistant)
        assistant_operations.start_from_assistant(
            self.store, assistant, model=self._model(profile), language=shown_language(),
            values=values, servers=self._servers()).run(
            self.runner, on_success=lambda done: self._started_with(assistant, profile, done),
            on_failure=self.failed.emit)

    def _profile(self, assistant: Assistant) -> Profile | None:
        """The profile the assistant names (by id or name), if it is set up here."""
        wanted = assistant.setup.profile.strip()
        if not wanted or self.setup is None:
            return None
        return next((p for p in self.setup.load() if wanted in (p.id, p.name)), None)

    def _started_with(self, assistant: Assistant, profile: Profile | None,
                      done: tuple[Changes, tuple[str, ...]]) -> None:
        """Its profile in use before the conversation opens (so the header, the preview
        and the first send all go there); a profile not set up here is said."""
        changes, warnings = done
        wanted = assistant.setup.profile.strip()
        if profile is not None and self.setup is not None:
            active = self.setup.active()
            if active is None or active.id != profile.id:
                self.setup.set_active(profile.id)
                announce_provider_changed(self.changes, self)
        elif wanted:
            warnings = (arg(translate(
                "FromAssistant", "“%1” asks through the provider “%2”, which is not set up "
                "here: its conversation uses the provider in use instead"),
                assistant.label, wanted), *warnings)
        self._started((changes, warnings))

    def came_from(self, conversation: Conversation | None) -> bool:
        """Whether `conversation` started from an assistant that still exists."""
        origin = None if conversation is None else self.store.assistants.origin(
            conversation.id)
        return origin is not None and origin.assistant_id is not None

    def update_open(self, conversation: Conversation | None) -> None:
        """*Update from assistant*: the conversation takes the assistant's current setup
        (its own variables asked for again); its turns stay as they are."""
        if not self.came_from(conversation):
            return
        assert conversation is not None
        origin = self.store.assistants.origin(conversation.id)
        assert origin is not None and origin.assistant_id is not None
        assistant = self.store.assistants.get(origin.assistant_id)
        values = self._values(assistant)
        if values is None:
            return
        assistant_operations.update_from_assistant(
            self.store, conversation.id, model=self._model(), language=shown_language(),
            values=values, servers=self._servers()).run(
            self.runner, on_success=self._started, on_failure=self.failed.emit)

    def _values(self, assistant: Assistant) -> dict[str, str] | None:
        """The person's own variables of its prompt (None: they cancelled)."""
        values: dict[str, str] = {}
        for name in own_names(assistant.setup.system_prompt):
            value = self.ask_value(assistant, name)
            if value is None:
                return None
            if value:
                values[name] = value
        return values

    def _servers(self) -> list[ToolServer]:
        try:
            return list(self.servers())
        except ToolConfigInvalid as err:
            log.warning("tool servers unreadable: %s", err)
            return []

    def _started(self, done: tuple[Changes, tuple[str, ...]]) -> None:
        changes, warnings = done
        announce(self.changes, changes, self)
        if warnings:
            self.status.emit("; ".join(warnings))

    def _model(self, profile: Profile | None = None) -> str:
        """The model `profile` (else the profile in use) names, for {{model}} when the
        assistant names none; "" when nothing is set up."""
        if profile is not None:
            return profile.model
        try:
            return self.reach.endpoint(Conversation(0, "")).route.model
        except NotConnected:
            return ""

    def _ask(self, assistant: Assistant, name: str) -> str | None:
        value, ok = QInputDialog.getText(
            self.window, assistant.label,
            arg(translate("FromAssistant", "Value of {{%1}} in the system prompt:"), name))
        return value if ok else None
