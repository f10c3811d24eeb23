"""Settings (Edit → Preferences…): the Providers page (every provider profile; see
`providers_page`), Tools, Assistants (`assistants_page`), Sync (`sync_page`) and the open
conversation's limits and system prompt, each page in a scroll area with the problem line
and Save/Cancel below, always in view (`FittedDialog`).

The Providers page saves what it changes at once (each profile through its own editor);
Save and Cancel are the Conversation page's: its settings are validated (the budget
checks) before anything is saved."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...config.tool_servers import ToolConfigInvalid
from ...core.budget import Budget, InvalidBudget
from ...core.model import (
    MAX_COMPACTION_TARGET,
    MAX_OUTPUT_RESERVE,
    MIN_COMPACTION_TARGET,
    MIN_OUTPUT_RESERVE,
    Conversation,
    ConversationSettings,
)
from ...service.chat import Route, budget_for
from ...store import TurnlogStore
from ..infra import operations
from ..infra.changes import ChangeHub, Changes
from ..infra.languages import arg
from ..infra.tasks import TaskRunner
from ..infra.wheel import wheel_only_when_focused
from ..request.connection import NotConnected, Reach
from ..request.provider_setup import ProviderSetup
from ..request.tool_gate import ToolGate
from .assistants_page import AssistantsPage
from .fitting import FittedDialog
from .privacy import Confirmation, Decision, ask
from .providers_page import ProvidersPage
from .sync_page import SyncPage, SyncRuns
from .tools_page import ConversationTools, ToolsPage
from .window_in_effect import WindowInEffect

log = logging.getLogger(__name__)

MAX_BYTE_LIMIT = 64 * 1024 * 1024
MIN_BYTE_LIMIT = 256


# What the session-only key store calls itself (secrets.SessionKeys), for the translations.
SESSION_ONLY = QT_TRANSLATE_NOOP("SettingsDialog", "memory only, until Turnlog closes")


class SettingsDialog(FittedDialog):
    """The Providers and Conversation pages; `accept` only with valid conversation
    settings. `changes`: where the providers' changes are announced (and others' heard);
    `confirm`: asks before a profile is removed (a message box unless given)."""

    def __init__(self, setup: ProviderSetup, runner: TaskRunner,
                 conversation: Conversation | None, parent: QWidget | None = None, *,
                 changes: ChangeHub | None = None,
                 confirm: Callable[[Confirmation], Decision] | None = None,
                 connector: Reach | None = None, tools: ToolGate | None = None,
                 store: TurnlogStore | None = None, sync: SyncRuns | None = None) -> None:
        super().__init__(parent)
        self._gate = tools
        self._connector = connector
        self.setWindowTitle(QCoreApplication.translate("SettingsDialog", "Settings"))
        self.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Settings"))
        self.setObjectName("settingsDialog")
        self.setup = setup
        self.runner = runner
        self.conversation = conversation
        self._changes = changes
        self.saved_settings: ConversationSettings | None = None
        self.saved_system_prompt: str | None = None
        self.pages = QTabWidget(self)
        self.pages.setDocumentMode(True)
        self.providers = ProvidersPage(setup, runner, confirm or (lambda c: ask(self, c)), self)
        self.providers.changed.connect(self._providers_changed)
        self.providers_tab = self.scrolled(self.providers)
        self.pages.addTab(self.providers_tab, QCoreApplication.translate(
            "SettingsDialog", "Providers"))
        self.tools_page: ToolsPage | None = None
        if tools is not None:  # beside Providers: the MCP tool servers
            self.tools_page = ToolsPage(tools, runner, self)
            self.tools_tab = self.scrolled(self.tools_page)
            self.pages.addTab(self.tools_tab, QCoreApplication.translate(
                "SettingsDialog", "Tools"))
        self.assistants_page: AssistantsPage | None = None
        if store is not None:  # saved setups a new conversation starts from
            self.assistants_page = AssistantsPage(store, runner, self._server_names, self)
            self.assistants_tab = self.scrolled(self.assistants_page)
            self.pages.addTab(self.assistants_tab, QCoreApplication.translate(
                "SettingsDialog", "Assistants"))
        self.sync_page: SyncPage | None = None
        if store is not None:  # set up, watched and managed here
            self.sync_page = SyncPage(store, runner, confirm or (lambda c: ask(self, c)), sync,
                                      self)
            self.sync_tab = self.scrolled(self.sync_page)
            self.pages.addTab(self.sync_tab, QCoreApplication.translate("SettingsDialog",
                                                                        "Sync"))
        self.conversation_tab = self.scrolled(self._conversation_page())
        self.pages.addTab(self.conversation_tab, QCoreApplication.translate(
            "SettingsDialog", "This conversation"))
        self.body.addWidget(self.pages, 1)
        self.finish_layout()
        self.buttons.accepted.connect(self.save)
        if changes is not None:
            changes.changed.connect(self._heard)
        self._fill()
        for spin in (self.window_tokens, self.reserve, self.max_bytes):
            spin.valueChanged.connect(self._revalidate)
        # A reserve typed (or stepped) here is yours, kept as set even when it is 8,192.
        self._reserve_typed = False
        self.reserve.lineEdit().textEdited.connect(self._reserve_edited)
        self.reserve.valueChanged.connect(self._reserve_edited)
        self._revalidate()

    def _server_names(self) -> list[str]:
        """The tool servers set up here, by name (what an assistant may switch on)."""
        if self._gate is None:
            return []
        try:
            return [s.name for s in self._gate.servers.list()]
        except ToolConfigInvalid:
            return []

    def _reserve_edited(self, *_: object) -> None:
        self._reserve_typed = True

    def show_conversation_page(self) -> None:
        self.pages.setCurrentWidget(self.conversation_tab)

    def show_sync_page(self) -> None:
        if self.sync_page is not None:
            self.pages.setCurrentWidget(self.sync_tab)

    def _providers_changed(self) -> None:
        self._revalidate()  # a profile's window may be the one in effect
        if self._changes is not None:
            operations.announce_provider_changed(self._changes, self.providers)

    def _heard(self, changes: Changes, origin: object) -> None:
        """Another part changed the profiles (turnlog-cli, the header): list them again."""
        if changes.provider and origin is not self.providers:
            self.providers.refresh()

    # ------------------------------------------------------------------ layout
    def _conversation_page(self) -> QWidget:
        page = QWidget(self)
        column = QVBoxLayout(page)
        self.no_conversation = QLabel(QCoreApplication.translate(
            "SettingsDialog", "Open a conversation to change its limits and system prompt."),
            page)
        self.no_conversation.setWordWrap(True)
        column.addWidget(self.no_conversation)
        chat = QWidget(page)
        column.addWidget(chat)
        column.addStretch(1)
        chat_form = QFormLayout(chat)
        chat_form.setContentsMargins(0, 0, 0, 0)
        chat_form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.window_tokens = self._spin(chat, 0, 10_000_000, 1024, QCoreApplication.translate(
            "SettingsDialog", " tokens"),
                                        QCoreApplication.translate(
                                            "SettingsDialog", "Context window in tokens"))
        self.window_tokens.setSpecialValueText(QCoreApplication.translate(
            "SettingsDialog", "unknown"))
        chat_form.addRow(QCoreApplication.translate(
            "SettingsDialog", "Context &window:"), self.window_tokens)
        self.window_in_effect = WindowInEffect(self._route, self._forget_for()
                                               if self._connector is not None else None, chat)
        self.window_in_effect.forgotten.connect(self._revalidate)
        chat_form.addRow("", self.window_in_effect)
        self.reserve = self._spin(chat, MIN_OUTPUT_RESERVE, MAX_OUTPUT_RESERVE, 256,
                                  QCoreApplication.translate("SettingsDialog", " tokens"),
                                  QCoreApplication.translate(
                                      "SettingsDialog", "Output reserve in tokens"))
        chat_form.addRow(QCoreApplication.translate(
            "SettingsDialog", "&Output reserve:"), self.reserve)
        self.side_reserve = self._spin(chat, MIN_OUTPUT_RESERVE, MAX_OUTPUT_RESERVE, 256,
                                       QCoreApplication.translate("SettingsDialog", " tokens"),
                                       QCoreApplication.translate(
                                           "SettingsDialog",
                                           "Side questions' output reserve in tokens"))
        self.side_reserve.setToolTip(QCoreApplication.translate(
            "SettingsDialog", "Tokens kept for a side question's answer (Ask aside), "
            "independent of the conversation's output reserve"))
        chat_form.addRow(QCoreApplication.translate(
            "SettingsDialog", "Side &questions' reserve:"), self.side_reserve)
        self.max_bytes = self._spin(chat, MIN_BYTE_LIMIT, MAX_BYTE_LIMIT, 1000,
                                    QCoreApplication.translate("SettingsDialog", " bytes"),
                                    QCoreApplication.translate(
                                        "SettingsDialog", "Byte limit of the request body"))
        chat_form.addRow(QCoreApplication.translate(
            "SettingsDialog", "&Byte limit:"), self.max_bytes)
        self.compaction = QCheckBox(QCoreApplication.translate(
            "SettingsDialog", "Summarize turns that no longer fit"), chat)
        chat_form.addRow("", self.compaction)
        self.compaction_target = self._spin(
            chat, MIN_COMPACTION_TARGET, MAX_COMPACTION_TARGET, 5, " %",
            QCoreApplication.translate("SettingsDialog", "Verbatim share after compacting"))
        self.compaction_target.setToolTip(QCoreApplication.translate(
            "SettingsDialog", "When a request no longer fits, older turns are summarized until "
            "the newest turns take at most this share of the budget; new turns then accumulate "
            "verbatim until the next summary is needed."))
        self.compaction.toggled.connect(self.compaction_target.setEnabled)
        chat_form.addRow(QCoreApplication.translate(
            "SettingsDialog", "&Keep verbatim:"), self.compaction_target)
        self.system_prompt = QPlainTextEdit(chat)
        self.system_prompt.setAccessibleName(QCoreApplication.translate(
            "SettingsDialog", "System prompt"))
        self.system_prompt.setTabChangesFocus(True)
        self.system_prompt.setMaximumHeight(self.fontMetrics().lineSpacing() * 5 + 14)
        chat_form.addRow(QCoreApplication.translate(
            "SettingsDialog", "&System prompt:"), self.system_prompt)
        self.tool_switches = ConversationTools(self._gate, chat)
        if self.tools_page is not None:
            self.tools_page.changed.connect(self.tool_switches.refresh)
        chat_form.addRow(QCoreApplication.translate("SettingsDialog", "Tools:"),
                         self.tool_switches)
        chat.setEnabled(self.conversation is not None)
        self.no_conversation.setVisible(self.conversation is None)
        return page

    def _route(self) -> Route | None:
        """The conversation's route now (None: no conversation or no provider set up)."""
        if self._connector is None or self.conversation is None:
            return None
        try:
            return self._connector.endpoint(self.conversation).route
        except NotConnected:
            return None

    def _forget_for(self) -> Callable[[], None]:
        connector, conversation = self._connector, self.conversation

        def forget() -> None:
            if connector is not None and conversation is not None:
                connector.forget_learned_window(conversation)
        return forget

    @staticmethod
    def _spin(parent: QWidget, low: int, high: int, step: int, suffix: str,
              name: str) -> QSpinBox:
        spin = QSpinBox(parent)
        spin.setRange(low, high)
        spin.setSingleStep(step)
        spin.setSuffix(suffix)
        spin.setAccessibleName(name)
        wheel_only_when_focused(spin)
        return spin

    # ------------------------------------------------------------------ filling
    def _fill(self) -> None:
        settings = self.conversation.settings if self.conversation else ConversationSettings()
        self.window_tokens.setValue(settings.context_window or 0)
        self.reserve.setValue(settings.output_reserve)
        self.side_reserve.setValue(settings.side_output_reserve)
        self.max_bytes.setValue(settings.max_bytes)
        self.compaction.setChecked(settings.compaction)
        self.compaction_target.setValue(settings.compaction_target)
        self.compaction_target.setEnabled(settings.compaction)
        self.system_prompt.setPlainText(self.conversation.system_prompt
                                        if self.conversation else "")
        self.tool_switches.fill(settings.tool_servers)

    # --------------------------------------------------------------- validation
    def problems(self) -> list[str]:
        found: list[str] = []
        if self.conversation is not None:
            edited = replace(self.conversation, settings=self._settings())
            route = self._route()
            try:
                budget = budget_for(edited, route) if route is not None \
                    else Budget.from_settings(edited.settings)
            except InvalidBudget as err:
                found.append(str(err))
            else:
                if budget.input_tokens <= 0:
                    found.append(arg(QCoreApplication.translate(
                        "SettingsDialog", "The context window (%1 tokens) leaves no room for "
                        "input after the output reserve (%2) and the safety margin (%3). Raise "
                        "the window or lower the reserve."),
                        budget.context_window, budget.output_reserve, budget.safety_margin))
        return found

    def _revalidate(self) -> None:
        if self.conversation is not None:
            self.window_in_effect.show_for(replace(self.conversation,
                                                   settings=self._settings()))
        found = self.problems()
        self.problem.setText("\n".join(found))
        self.problem.setVisible(bool(found))
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(not found)

    def _settings(self) -> ConversationSettings:
        base = self.conversation.settings if self.conversation else ConversationSettings()
        return replace(base, context_window=self.window_tokens.value() or None,
                       output_reserve=self.reserve.value(), max_bytes=self.max_bytes.value(),
                       reserve_set=base.reserve_set or self._reserve_typed,
                       compaction=self.compaction.isChecked(),
                       compaction_target=self.compaction_target.value(),
                       side_output_reserve=self.side_reserve.value(),
                       tool_servers=self.tool_switches.chosen(base.tool_servers))

    # -------------------------------------------------------------------- save
    def save(self) -> None:
        """Remember the conversation's new settings (the window saves them to the log's
        database) and close; the providers were saved as they were changed."""
        if self.problems():
            self._revalidate()
            self.show_conversation_page()
            return
        conversation = self.conversation
        if conversation is not None:  # only a change is saved (a save forgets the marks)
            settings, prompt = self._settings(), self.system_prompt.toPlainText()
            if settings != conversation.settings or prompt != conversation.system_prompt:
                self.saved_settings, self.saved_system_prompt = settings, prompt
        self.accept()
