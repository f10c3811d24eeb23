"""The header's pickers at work: `HeaderPicker` fills the header from the open
conversation and turns a choice into a storage operation (`operations`), whose
`Changes` the window refreshes the preview, budgets and marks from. The model is the
conversation's own, chosen from the profile's `/models` list, fetched on the network
worker once per profile and kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer

from ...core.failures import ProviderFailure
from ...core.import_sources import source_name
from ...core.model import (
    MIN_OUTPUT_RESERVE,
    Conversation,
    ConversationSettings,
)
from ...service.route import settings_for
from ...store import TurnlogStore
from ..infra import failure_text, operations
from ..infra.changes import ChangeHub, Changes
from ..infra.languages import arg
from ..infra.tasks import TaskContext, TaskHandle, TaskRunner
from ..request.connection import Endpoint, ModelSource, NotConnected, shown_name
from ..request.provider_setup import ProviderSetup
from ..request.send_session import SendSession
from .header import APPLY_DELAY_MS, NO_TEMPERATURE, NO_TOP_P, ConversationHeader, sampling_summary

if TYPE_CHECKING:  # the HTTP client loads with the first list of models fetched
    from ...providers import ModelInfo


class HeaderPicker(QObject):
    """Keeps the header in step with the open conversation and saves what is picked.

    A choice is saved by a named storage operation; its `Changes` go out through the
    window's `ChangeHub`, like those of the Settings dialog, so the window refreshes the
    preview from them. Nothing can be picked while a request runs.
    """

    def __init__(self, header: ConversationHeader, connector: ModelSource, runner: TaskRunner,
                 store: TurnlogStore, setup: ProviderSetup | None, changes: ChangeHub,
                 failed: Callable[[BaseException], None], session: SendSession,
                 current: Callable[[], Conversation | None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.header, self._connector, self._runner, self._store = header, connector, runner, store
        self._setup, self._session, self._current = setup, session, current
        self._changes, self._failed = changes, failed
        self.models: dict[str, list[ModelInfo]] = {}  # per endpoint, as the server listed them
        self._fetching: TaskHandle[list[ModelInfo]] | None = None
        self._fetching_for = ""
        self._endpoint: Endpoint | None = None
        self._shown: Conversation | None = None  # whose settings the fields show
        self._open_when_listed = False
        self._profiles: list[tuple[str, str | None, str]] = []  # as the combo lists them
        self._filling = False
        self._filled_tokens = 0  # max output as shown: a reserve the endpoint sets stays its
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(APPLY_DELAY_MS)
        self._timer.timeout.connect(self.apply_sampling)
        header.profile.activated.connect(self._profile_picked)
        header.model.activated.connect(self._model_activated)
        header.model.lineEdit().returnPressed.connect(self._model_typed)
        header.model.opening.connect(self._list_opening)
        header.refresh.clicked.connect(lambda: self.fetch_models(force=True))
        header.sampling.toggled.connect(header.sampling_row.setVisible)
        for spin in (header.temperature, header.top_p, header.max_tokens):
            spin.valueChanged.connect(self._sampling_edited)
        self._active_id: str | None = None  # the profile in use, as last shown
        # Its own changes too: the fields then show the conversation as it was saved.
        changes.changed.connect(self._changed)
        session.running_changed.connect(lambda running: self._enable(self._current(), running))
        self.show_for(current())

    # ------------------------------------------------------------------ showing
    def _changed(self, changes: Changes, origin: object) -> None:
        """Show what changed. The profile in use changed elsewhere (Make default, or the
        one in use removed): the conversation takes the new one's model, as when picked."""
        before = self._active_id
        self.show_for(self._current())
        conversation = self._current()
        if (changes.provider and origin is not self and before is not None
                and self._active_id not in (before, None) and conversation is not None
                and conversation.model and not self._session.running):
            self._save(conversation, conversation.settings, model="")

    def show_for(self, conversation: Conversation | None) -> None:
        """Show the profile, model and sampling settings `conversation` sends with. A
        sampling edit not saved yet is kept, or saved first if another conversation opens."""
        shown, self._shown = self._shown, conversation
        editing = self._timer.isActive()
        if editing and (conversation is None or shown is None or conversation.id != shown.id):
            self._shown = shown
            self.apply_sampling()
            self._shown, editing = conversation, False
        self._filling = True
        try:
            self._fill_profiles()
            self._fill_model(conversation)
            self._fill_provenance(conversation)
            if not editing:
                self._fill_sampling(conversation)
        finally:
            self._filling = False
        self._enable(conversation)

    def _enable(self, conversation: Conversation | None, running: bool | None = None) -> None:
        """Nothing can be picked while a request runs; a model and sampling only for a
        conversation. The profiles can be, even with one listed (the list shows them)."""
        running = self._session.running if running is None else running
        usable = conversation is not None and not running
        header = self.header
        header.profile.setEnabled(not running and self._setup is not None)
        for widget in (header.model, header.refresh, header.sampling_row):
            widget.setEnabled(usable and self._endpoint is not None)
        header.sampling.setEnabled(conversation is not None)

    def _fill_profiles(self) -> None:
        """The profiles to pick from, the one in use current (rebuilt only when they
        changed: a rebuild makes the header lay itself out again)."""
        setup = self._setup
        entries: list[tuple[str, str | None, str]] = []
        active_id: str | None = None
        if setup is None:
            try:
                label = self._connector.endpoint(Conversation(0, "")).label
            except NotConnected as err:
                label = err.title
            entries.append((label.split(" · ")[0], None, label))
        else:
            active = setup.active()
            active_id = active.id if active is not None else None
            for profile in setup.load():
                where = profile.base_url or QCoreApplication.translate(
                    "HeaderPicker", "started by Turnlog")
                entries.append((shown_name(profile.name), profile.id,
                                f"{shown_name(profile.name)} · {where} · {profile.model}"))
            if active is None:
                gone = setup.gone()  # removed elsewhere while in use: another is chosen here
                entries.append((arg(QCoreApplication.translate(
                    "HeaderPicker", "“%1” was removed: choose a provider"),
                    shown_name(gone.name)) if gone is not None else QCoreApplication.translate(
                    "HeaderPicker", "No provider: open Settings (Ctrl+,)"), None, ""))
        combo = self.header.profile
        if entries != self._profiles:
            self._profiles = entries
            combo.clear()
            for name, profile_id, tip in entries:
                combo.addItem(name, profile_id)
                combo.setItemData(combo.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
        combo.setCurrentIndex(max(0, combo.findData(active_id)))
        self._active_id = active_id

    def _fill_model(self, conversation: Conversation | None) -> None:
        combo = self.header.model
        self.header.status.hide()
        try:
            self._endpoint = self._connector.endpoint(conversation or Conversation(0, ""))
        except NotConnected as err:
            self._endpoint = None
            combo.clear()
            combo.setEditText("")
            self._say(err.message)
            return
        model = self._endpoint.model  # with none open: the one a new conversation gets
        listed = self.models.get(self._endpoint.label)
        names = [info.id for info in listed or ()]
        if [combo.itemText(i) for i in range(combo.count())] != names:
            combo.clear()
            for info in listed or ():
                label = info.id if info.context_window is None else \
                    arg(QCoreApplication.translate(
                        "HeaderPicker", "%1  (%2 tokens)"), info.id, info.context_window)
                combo.addItem(label, info.id)
        index = combo.findData(model)
        if index >= 0 and index != combo.currentIndex():
            combo.setCurrentIndex(index)
        if combo.currentText() != model:
            combo.setEditText(model)
        line = combo.lineEdit()
        if line is not None and not line.hasFocus():
            line.setCursorPosition(0)  # a narrow window shows the name's start, not its end

    def _fill_provenance(self, conversation: Conversation | None) -> None:
        """“imported from ChatGPT · gpt-4o”: where an imported conversation was held and
        with which model; the model box beside it shows the one a request names."""
        label = self.header.provenance
        if conversation is None or not conversation.source:
            label.hide()
            return
        where = source_name(conversation.source)
        text = arg(QCoreApplication.translate("HeaderPicker", "imported from %1 · %2"), where,
                   conversation.source_model) if conversation.source_model else \
            arg(QCoreApplication.translate("HeaderPicker", "imported from %1"), where)
        label.setText(text)
        label.setToolTip(QCoreApplication.translate(
            "HeaderPicker", "Where this conversation was imported from and the model it had "
            "there. Requests name the model in the box, never that one unless you pick it."))
        label.show()

    def _fill_sampling(self, conversation: Conversation | None) -> None:
        header = self.header
        if conversation is None:
            header.sampling.setText(QCoreApplication.translate("HeaderPicker", "Sampling"))
            return
        settings = conversation.settings
        if self._endpoint is not None:  # the reserve a small window sets, as sent
            settings = settings_for(conversation, self._endpoint.route)
        header.temperature.setValue(settings.temperature if settings.temperature is not None
                                    else NO_TEMPERATURE)
        header.top_p.setValue(settings.top_p if settings.top_p is not None else NO_TOP_P)
        self._filled_tokens = settings.output_reserve if settings.send_max_tokens else 0
        header.max_tokens.setValue(self._filled_tokens)
        header.sampling.setText(sampling_summary(settings))
        header.sampling.setToolTip(sampling_summary(settings))  # whole where a narrow one elides

    def _say(self, text: str) -> None:
        self.header.status.setText(text)
        self.header.status.setVisible(bool(text))

    # ------------------------------------------------------------------- models
    def _list_opening(self) -> None:
        """The model list is opening: fill it first if it was never asked for (Qt opens
        no empty list: it opens once the server's answer fills it)."""
        if self._endpoint is not None and self._endpoint.label not in self.models:
            self._open_when_listed = True
            self.fetch_models()

    def fetch_models(self, *, force: bool = False) -> None:
        """Ask the provider in use for its models on the network worker (once per
        profile unless `force`: when the list first opens, or ⟳); the list is kept."""
        endpoint = self._endpoint
        if endpoint is None or self._runner.closed:
            return
        key = endpoint.label
        if not force and (key in self.models or self._fetching_for == key):
            return
        if self._fetching is not None:
            self._fetching.cancel()
        self._fetching_for = key
        self._say(QCoreApplication.translate("HeaderPicker", "Asking the server for its models…"))

        def work(context: TaskContext) -> list[ModelInfo]:
            return self._connector.list_models(cancel=context.cancel)

        def listed(models: list[ModelInfo]) -> None:
            if self._fetching is not handle:
                return
            self._fetching, self._fetching_for = None, ""
            self.models[key] = models
            self.show_for(self._current())
            if self._open_when_listed and models:  # asked for by opening the empty list
                QTimer.singleShot(0, self.header.model.showPopup)
            self._open_when_listed = False
            if not models:
                self._say(QCoreApplication.translate(
                    "HeaderPicker", "The server lists no models; type the name instead."))

        def failed(error: BaseException) -> None:
            if self._fetching is not handle:
                return
            self._fetching, self._fetching_for = None, ""
            self._open_when_listed = False
            if not isinstance(error, ProviderFailure | NotConnected):
                raise error
            self.models[key] = []  # asked: ⟳ asks again
            message = failure_text.message(error.failure) if isinstance(error, ProviderFailure) \
                else error.message
            self._say(arg(QCoreApplication.translate(
                "HeaderPicker", "The models could not be listed: %1 You can type the name."),
                message))

        handle = self._runner.run(TaskRunner.NETWORK, "list models", work,
                                  on_success=listed, on_failure=failed)
        self._fetching = handle

    # ------------------------------------------------------------------ picking
    def _profile_picked(self, index: int) -> None:
        profile_id = self.header.profile.itemData(index)
        setup, conversation = self._setup, self._current()
        if self._filling or setup is None or not isinstance(profile_id, str):
            return
        active = setup.active()
        if active is not None and active.id == profile_id:
            return
        setup.set_active(profile_id)
        operations.announce_provider_changed(self._changes, self)
        if conversation is not None and conversation.model:
            # The conversation takes the new profile's own model (a name from the old
            # profile's server would mean nothing to the new one).
            self._save(conversation, conversation.settings, model="")

    def _model_activated(self, index: int) -> None:
        combo = self.header.model
        self.pick_model(str(combo.itemData(index) or combo.itemText(index)))

    def _model_typed(self) -> None:
        combo = self.header.model
        text = combo.currentText().strip()
        index = combo.findText(text)  # a listed entry's label names its window too
        self.pick_model(str(combo.itemData(index)) if index >= 0 else text)

    def pick_model(self, model: str) -> None:
        """Make `model` (a listed model or a typed name) the conversation's model."""
        conversation = self._current()
        model = model.strip()
        if self._filling or conversation is None or not model or self._session.running:
            return
        if self._endpoint is not None and model == self._endpoint.model:
            return
        self._save(conversation, conversation.settings, model=model)

    def _sampling_edited(self) -> None:
        if not self._filling:
            self._timer.start()

    def sampling_settings(self, settings: ConversationSettings) -> ConversationSettings:
        """`settings` with the sampling fields as the header shows them."""
        header = self.header
        temperature = header.temperature.value()
        top_p = header.top_p.value()
        tokens = header.max_tokens.value()
        settings = replace(
            settings,
            temperature=None if temperature <= NO_TEMPERATURE else round(temperature, 2),
            top_p=None if top_p <= NO_TOP_P else round(top_p, 2))
        if tokens == self._filled_tokens:  # untouched (it may show the endpoint's reserve)
            return settings
        return replace(settings, send_max_tokens=tokens > 0,
                       output_reserve=max(tokens, MIN_OUTPUT_RESERVE) if tokens > 0
                       else settings.output_reserve,
                       reserve_set=settings.reserve_set or tokens > 0)  # typed: yours

    def apply_sampling(self) -> None:
        """Save the sampling fields (at once; typing or turning waits `APPLY_DELAY_MS`)."""
        self._timer.stop()
        conversation = self._shown
        if conversation is None or self._session.running:
            return
        settings = self.sampling_settings(conversation.settings)
        if settings != conversation.settings:
            self._save(conversation, settings, model=None)

    def _save(self, conversation: Conversation, settings: ConversationSettings, *,
              model: str | None) -> None:
        operations.save_conversation_settings(
            self._store, conversation.id, settings, None, model).announce(
            self._runner, self._changes, self, on_failure=self._failed)
