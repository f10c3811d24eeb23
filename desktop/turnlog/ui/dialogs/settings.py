"""Settings: the provider profile (preset, address, model, key) and the open conversation's
limits and system prompt, validated before anything is saved.

For the built-in preset there is no address, model list or key: the profile names a
GGUF file (the shipped SmolLM2 unless the user picks another), checked with
`turnlog.localmodel.available`, and the dialog says what that model is and how large
its window is, with the caveat that the built-in one is small and weak."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...core.budget import Budget, InvalidBudget
from ...core.failures import ProviderFailure
from ...core.model import (
    MAX_COMPACTION_TARGET,
    MAX_OUTPUT_RESERVE,
    MIN_COMPACTION_TARGET,
    MIN_OUTPUT_RESERVE,
    Conversation,
    ConversationSettings,
)
from ...localmodel import (
    DEFAULT_N_CTX,
)
from ...localmodel import ModelInfo as LocalModelInfo
from ...profiles import Profile, ProfilesUnreadable, builtin_profile, check_base_url, new_profile
from ...providers import PRESETS, ChatCompletionsProvider, ModelInfo, preset_by_id
from ...secrets import KeyringUnavailable, check_key
from ..infra import failure_text
from ..infra.languages import arg, plural
from ..infra.tasks import TaskContext, TaskRunner
from ..infra.wheel import wheel_only_when_focused
from ..request.connection import shown_name
from ..request.provider_setup import ProviderSetup
from .model_file_facts import check_model_file, model_file_text
from .profile_network import NetworkRows

log = logging.getLogger(__name__)

MAX_BYTE_LIMIT = 64 * 1024 * 1024
MIN_BYTE_LIMIT = 256


# What the session-only key store calls itself (secrets.SessionKeys), for the translations.
SESSION_ONLY = QT_TRANSLATE_NOOP("SettingsDialog", "this session only (not saved)")


class SettingsDialog(QDialog):
    """Edits the profile in use and the conversation; `accept` only with valid input."""

    def __init__(self, setup: ProviderSetup, runner: TaskRunner,
                 conversation: Conversation | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(QCoreApplication.translate("SettingsDialog", "Settings"))
        self.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Settings"))
        self.setup = setup
        self.runner = runner
        self.conversation = conversation
        self.profile = setup.active()
        self.saved_settings: ConversationSettings | None = None
        self.saved_system_prompt: str | None = None
        self.saved_model: str | None = None
        self._local_checked: dict[str, tuple[str, LocalModelInfo | None, int | None]] = {}
        self._saving = False  # the key is on its way to the key store
        self._cancelled = False
        layout = QVBoxLayout(self)
        layout.addWidget(self._provider_group())
        layout.addWidget(self._conversation_group())
        self.problem = QLabel(self)
        self.problem.setObjectName("settingsProblem")
        self.problem.setWordWrap(True)
        self.problem.setAccessibleName(QCoreApplication.translate(
            "SettingsDialog", "What needs fixing"))
        self.problem.setStyleSheet("color: palette(bright-text); background: #b42318; "
                                   "padding: 4px; border-radius: 4px;")
        self.problem.hide()
        layout.addWidget(self.problem)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

        self._fill()
        self.preset.currentIndexChanged.connect(self._preset_changed)
        for widget in (self.base_url, self.key, self.model_file):
            widget.textChanged.connect(self._revalidate)
        self._show_preset_rows()
        self.model.editTextChanged.connect(self._revalidate)
        for spin in (self.window_tokens, self.reserve, self.max_bytes):
            spin.valueChanged.connect(self._revalidate)
        self._revalidate()
        self.resize(560, 640)

    # ------------------------------------------------------------------ layout
    def _provider_group(self) -> QGroupBox:
        provider = QGroupBox(QCoreApplication.translate("SettingsDialog", "Provider"), self)
        form = QFormLayout(provider)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.provider_form = form
        self.preset = QComboBox(provider)
        self.preset.setAccessibleName(QCoreApplication.translate(
            "SettingsDialog", "Provider preset"))
        for preset in PRESETS:
            self.preset.addItem(shown_name(preset.name), preset.id)
        form.addRow(QCoreApplication.translate("SettingsDialog", "&Preset:"), self.preset)
        self.base_url = QLineEdit(provider)
        self.base_url.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Base URL"))
        self.base_url.setPlaceholderText("http://localhost:8080/v1")
        form.addRow(QCoreApplication.translate("SettingsDialog", "Base &URL:"), self.base_url)
        self.model_row = QHBoxLayout()
        self.model = QComboBox(provider)
        self.model.setEditable(True)
        self.model.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Model"))
        self.model.lineEdit().setPlaceholderText(QCoreApplication.translate(
            "SettingsDialog", "Type a model name or fetch the list"))
        self.model_row.addWidget(self.model, 1)
        self.fetch = QPushButton(QCoreApplication.translate(
            "SettingsDialog", "&Fetch models"), provider)
        self.fetch.setAccessibleName(QCoreApplication.translate(
            "SettingsDialog", "Fetch the server's model list"))
        self.fetch.clicked.connect(self.fetch_models)
        self.model_row.addWidget(self.fetch)
        form.addRow(QCoreApplication.translate("SettingsDialog", "&Model:"), self.model_row)
        model_label = form.labelForField(self.model_row)
        if isinstance(model_label, QLabel):  # a row of a layout: its label needs the buddy
            model_label.setBuddy(self.model)
        self.models_status = QLabel(provider)
        self.models_status.setWordWrap(True)
        form.addRow("", self.models_status)
        self._key_rows(provider, form)
        self._model_file_rows(provider, form)
        self.network = NetworkRows(provider, form, form.getWidgetPosition(self.base_url)[0],
                                   self._revalidate)
        self.model_titles = QCheckBox(QCoreApplication.translate(
            "SettingsDialog", "Let the model name new conversations"), provider)
        self.model_titles.setToolTip(QCoreApplication.translate(
            "SettingsDialog", "After the first answer, one short extra request asks the model "
            "for a title; a title you typed is never replaced"))
        form.addRow("", self.model_titles)
        return provider

    def _key_rows(self, provider: QWidget, form: QFormLayout) -> None:
        self.key = QLineEdit(provider)
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setAccessibleName(QCoreApplication.translate("SettingsDialog", "API key"))
        self.key.setPlaceholderText(QCoreApplication.translate(
            "SettingsDialog", "Leave empty to keep the stored key"))
        form.addRow(QCoreApplication.translate("SettingsDialog", "API &key:"), self.key)
        self.key_backend = QLabel(provider)
        self.key_backend.setWordWrap(True)
        form.addRow("", self.key_backend)
        self.session_only = QCheckBox(QCoreApplication.translate(
            "SettingsDialog", "Keep the key for this session only (not saved)"), provider)
        self.session_only.setAccessibleName(QCoreApplication.translate(
            "SettingsDialog", "Keep the key for this session only"))
        self.session_only.toggled.connect(self._describe_backend)
        form.addRow("", self.session_only)

    def _model_file_rows(self, provider: QWidget, form: QFormLayout) -> None:
        """The built-in preset: a model file instead of an address, model list and key."""
        file_row = QHBoxLayout()
        self.model_file = QLineEdit(provider)
        self.model_file.setAccessibleName(QCoreApplication.translate(
            "SettingsDialog", "Model file (GGUF)"))
        self.model_file.setPlaceholderText(QCoreApplication.translate(
            "SettingsDialog", "The built-in SmolLM2-135M (leave empty)"))
        file_row.addWidget(self.model_file, 1)
        self.choose_file = QPushButton(QCoreApplication.translate(
            "SettingsDialog", "C&hoose…"), provider)
        self.choose_file.setAccessibleName(QCoreApplication.translate(
            "SettingsDialog", "Choose a GGUF model file"))
        self.choose_file.clicked.connect(self.choose_model_file)
        file_row.addWidget(self.choose_file)
        self.builtin_file = QPushButton(QCoreApplication.translate(
            "SettingsDialog", "B&uilt-in"), provider)
        self.builtin_file.setAccessibleName(QCoreApplication.translate(
            "SettingsDialog", "Use the built-in model file"))
        self.builtin_file.clicked.connect(self.model_file.clear)
        file_row.addWidget(self.builtin_file)
        self.model_file_row = QWidget(provider)
        self.model_file_row.setLayout(file_row)
        file_row.setContentsMargins(0, 0, 0, 0)
        form.addRow(QCoreApplication.translate(
            "SettingsDialog", "Model &file:"), self.model_file_row)
        self.local_status = QLabel(provider)
        self.local_status.setObjectName("localModelStatus")
        self.local_status.setWordWrap(True)
        self.local_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow("", self.local_status)

    def _conversation_group(self) -> QGroupBox:
        chat = QGroupBox(QCoreApplication.translate("SettingsDialog", "This conversation"), self)
        chat_form = QFormLayout(chat)
        chat_form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.window_tokens = self._spin(chat, 0, 10_000_000, 1024, QCoreApplication.translate(
            "SettingsDialog", " tokens"),
                                        QCoreApplication.translate(
                                            "SettingsDialog", "Context window in tokens"))
        self.window_tokens.setSpecialValueText(QCoreApplication.translate(
            "SettingsDialog", "unknown"))
        chat_form.addRow(QCoreApplication.translate(
            "SettingsDialog", "Context &window:"), self.window_tokens)
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
        chat.setEnabled(self.conversation is not None)
        return chat

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
        profile = self.profile
        preset = profile.server if profile else PRESETS[0]
        self.preset.setCurrentIndex(max(0, self.preset.findData(preset.id)))
        self.base_url.setText(profile.base_url if profile else preset.base_url)
        self.model_file.setText(profile.model_path or "" if profile else "")
        model = (self.conversation.model if self.conversation and self.conversation.model
                 else profile.model if profile else "")
        self.model.setEditText(model)
        self.network.fill(profile)
        self.model_titles.setChecked(profile.makes_titles if profile else preset.builtin)
        self.session_only.setChecked(self.setup.session_only)
        self.session_only.setEnabled(self.setup.keyring is not None)
        self._describe_backend()
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

    def _describe_backend(self) -> None:
        if self.setup.keyring is None:
            self.key_backend.setText(arg(QCoreApplication.translate(
                "SettingsDialog", "%1 The key will be kept for this session only."),
                self.setup.keyring_problem))
        elif self.session_only.isChecked():
            self.key_backend.setText(QCoreApplication.translate(
                "SettingsDialog", "The key is kept in memory until Turnlog quits."))
        else:
            self.key_backend.setText(arg(QCoreApplication.translate(
                "SettingsDialog", "Stored in: %1"),
                QCoreApplication.translate("SettingsDialog", self.setup.keyring.backend_name())))

    def _preset_changed(self) -> None:
        preset = preset_by_id(str(self.preset.currentData()))
        defaults = {p.base_url for p in PRESETS}
        if not self.base_url.text().strip() or self.base_url.text().strip() in defaults:
            self.base_url.setText(preset.base_url)
        self._show_preset_rows()
        if self.profile is None or self.profile.model_titles is None:
            self.model_titles.setChecked(preset.builtin)  # the preset's default
        self._revalidate()

    @property
    def builtin(self) -> bool:
        """Whether the chosen preset is the built-in local model."""
        return preset_by_id(str(self.preset.currentData())).builtin

    def _show_preset_rows(self) -> None:
        builtin = self.builtin
        form = self.provider_form
        form.setRowVisible(self.model_row, not builtin)
        for widget in (self.base_url, self.models_status, self.key, self.key_backend,
                       self.session_only):
            form.setRowVisible(widget, not builtin)
        for widget in (self.model_file_row, self.local_status):
            form.setRowVisible(widget, builtin)
        self.network.show_for(preset_by_id(str(self.preset.currentData())),
                              self.base_url.text())

    # ------------------------------------------------------------ local model
    def choose_model_file(self) -> None:
        start = self.model_file.text().strip() or str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self, QCoreApplication.translate(
            "SettingsDialog", "Choose a GGUF model file"), start,
                                              QCoreApplication.translate(
                                                  "SettingsDialog", "GGUF models (*.gguf);;All "
                                                  "files (*)"))
        if path:
            self.model_file.setText(path)

    def _model_path(self) -> Path | None:
        text = self.model_file.text().strip()
        return Path(text).expanduser() if text else None

    def local_model(self) -> tuple[str, LocalModelInfo | None, int | None]:
        """(problem, model, context window) for the chosen file; checked once per path."""
        path = self._model_path()
        key = str(path) if path else ""
        known = self._local_checked.get(key)
        if known is None:
            local = self.setup.local
            known = check_model_file(path, local.n_ctx if local is not None else DEFAULT_N_CTX)
            self._local_checked[key] = known
        return known

    def _describe_local(self) -> None:
        _problem, info, window = self.local_model()
        local = self.setup.local
        running = local.running(self._model_path()) if local is not None else None
        self.local_status.setText("" if info is None else model_file_text(
            info, window, running.context_window if running is not None else None))

    # --------------------------------------------------------------- validation
    def problems(self) -> list[str]:
        found: list[str] = []
        if self.builtin:
            self._describe_local()
            problem = self.local_model()[0]
            if problem:
                found.append(problem)
        else:
            try:
                check_base_url(self.base_url.text())
            except ValueError as err:
                found.append(str(err))
            if not self.model.currentText().strip():
                found.append(QCoreApplication.translate(
                    "SettingsDialog", "Choose or type a model name."))
        found += self.network.problems(preset_by_id(str(self.preset.currentData())),
                                       self.base_url.text(), self.key.text())
        if self.key.text().strip() and not self.builtin:
            try:
                check_key(self.key.text())
            except ValueError as err:
                found.append(f"{err}.")
        if self.conversation is not None:
            try:
                budget = Budget.from_settings(self._settings())
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
        found = self.problems()
        self.problem.setText("\n".join(found))
        self.problem.setVisible(bool(found))
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(
            not found and not self._saving)

    def _settings(self) -> ConversationSettings:
        base = self.conversation.settings if self.conversation else ConversationSettings()
        return replace(base, context_window=self.window_tokens.value() or None,
                       output_reserve=self.reserve.value(), max_bytes=self.max_bytes.value(),
                       compaction=self.compaction.isChecked(),
                       compaction_target=self.compaction_target.value(),
                       side_output_reserve=self.side_reserve.value())

    # ------------------------------------------------------------------ models
    def fetch_models(self) -> None:
        try:
            url = check_base_url(self.base_url.text())
        except ValueError as err:
            self.models_status.setText(str(err))
            return
        preset = preset_by_id(str(self.preset.currentData()))
        typed = self.key.text().strip() or None
        keys = self.setup.keys()
        profile_id = self.profile.id if self.profile else None
        verify, allow = self.network.verify(), self.network.allow_insecure.isChecked()
        self.fetch.setEnabled(False)
        self.models_status.setText(QCoreApplication.translate(
            "SettingsDialog", "Asking the server for its models…"))

        def work(context: TaskContext) -> list[ModelInfo]:
            key = typed
            if key is None and profile_id is not None:
                try:
                    key = keys.get(profile_id)
                except KeyringUnavailable:
                    key = None
            provider = ChatCompletionsProvider(url, api_key=key, preset=preset, verify=verify,
                                               allow_insecure_key=allow)
            return provider.list_models(cancel=context.cancel)

        self.runner.run(TaskRunner.NETWORK, "list models", work,
                        on_success=self._models_listed, on_failure=self._models_failed)

    def _models_listed(self, models: list[ModelInfo]) -> None:
        self.fetch.setEnabled(True)
        typed = self.model.currentText()
        self.model.clear()
        for info in models:
            label = info.id if info.context_window is None else \
                arg(QCoreApplication.translate(
                    "SettingsDialog", "%1  (%2 tokens)"), info.id, info.context_window)
            self.model.addItem(label, info)
        self.model.setEditText(typed or (models[0].id if models else ""))
        listed = len(models)
        self.models_status.setText(plural(QCoreApplication.translate(
            "SettingsDialog", "The server lists %n model(s).", None, listed), listed)
                                   if models else
                                   QCoreApplication.translate(
                                       "SettingsDialog", "The server lists no models; type the "
                                       "name instead."))
        self.model.activated.connect(self._model_picked)

    def _model_picked(self, index: int) -> None:
        info = self.model.itemData(index)
        if isinstance(info, ModelInfo):
            self.model.setEditText(info.id)
            if info.context_window and self.conversation is not None:
                self.window_tokens.setValue(info.context_window)

    def _models_failed(self, error: BaseException) -> None:
        self.fetch.setEnabled(True)
        if isinstance(error, ProviderFailure):
            self.models_status.setText(arg(QCoreApplication.translate(
                "SettingsDialog", "%1 You can type the model name instead."),
                failure_text.message(error.failure)))
            return
        raise error

    # -------------------------------------------------------------------- save
    def save(self) -> None:
        """Write the key, then the profile, and remember the conversation's new settings;
        the window saves those to the log's database. The key goes to the key store on the
        storage worker: a keyring may be slow, or wait for the person to unlock it."""
        if self._saving:
            return
        if self.problems():
            self._revalidate()
            return
        profile, model = self._chosen_profile()
        key = self.key.text().strip() if not profile.builtin else ""
        self.setup.session_only = self.setup.keyring is None or self.session_only.isChecked()
        if not key:
            self._store_profile(profile, model)
            return
        keys = self.setup.keys()

        def store_key(context: TaskContext) -> None:
            keys.set(profile.id, key)

        self._set_saving(True)
        self.runner.run(TaskRunner.STORAGE, "save the API key", store_key,
                        on_success=lambda _: self._key_saved(profile, model),
                        on_failure=self._key_failed)

    def reject(self) -> None:
        self._cancelled = True
        super().reject()

    def _set_saving(self, saving: bool) -> None:
        self._saving = saving
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(not saving)

    def _key_saved(self, profile: Profile, model: str) -> None:
        self._set_saving(False)
        if not self._cancelled:  # else cancelled while the key was being stored
            self._store_profile(profile, model)

    def _key_failed(self, error: BaseException) -> None:
        self._set_saving(False)
        if not isinstance(error, KeyringUnavailable):
            raise error
        self.problem.setText(f"{error}")
        self.problem.show()
        self.session_only.setChecked(True)

    def _chosen_profile(self) -> tuple[Profile, str]:
        """The profile as the dialog now describes it, and the conversation's model."""
        profile, model = self._described_profile()
        return replace(profile.with_network(self.network.settings(profile.builtin)),
                       model_titles=self.model_titles.isChecked()), model

    def _described_profile(self) -> tuple[Profile, str]:
        preset = preset_by_id(str(self.preset.currentData()))
        if preset.builtin:
            profile = self._builtin_profile()
            return profile, profile.model
        model = self.model.currentText().strip()
        url = check_base_url(self.base_url.text())
        if self.profile is None:
            return new_profile(preset, model=model, base_url=url), model
        # The model field is the conversation's when it has its own (as `_fill` shows it):
        # conversation settings never write the profile.
        own = self.conversation is not None and bool(self.conversation.model)
        profile_model = self.profile.model if own and self.profile.model else model
        return replace(self.profile, preset=preset.id, base_url=url, model=profile_model,
                       name=preset.name if self.profile.preset != preset.id
                       else self.profile.name, model_path=None), model

    def _store_profile(self, profile: Profile, model: str) -> None:
        try:
            self.setup.profiles.put(profile)
        except (OSError, ValueError, ProfilesUnreadable) as err:
            self.problem.setText(arg(QCoreApplication.translate(
                "SettingsDialog", "The provider could not be saved: %1"), err))
            self.problem.show()
            return
        self.setup.set_active(profile.id)
        self.profile = profile
        if self.conversation is not None:
            self.saved_settings = self._settings()
            self.saved_system_prompt = self.system_prompt.toPlainText()
            self.saved_model = model
        self.accept()

    def _builtin_profile(self) -> Profile:
        """The built-in model's profile as chosen (the model file checked in `problems`)."""
        path = self._model_path()
        info = self.local_model()[1]
        assert info is not None
        model_path = str(path.resolve()) if path is not None else None
        if self.profile is None:
            return builtin_profile(model_path, name=info.profile_name, model=info.alias)
        renamed = not self.profile.builtin or self.profile.model_path != model_path
        return replace(self.profile, preset="builtin", base_url="", model=info.alias,
                       model_path=model_path,
                       name=info.profile_name if renamed else self.profile.name)
