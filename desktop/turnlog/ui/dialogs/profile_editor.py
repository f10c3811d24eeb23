"""The profile editor: one provider profile, by its id — its name, address, model, key and
network rows — validated before anything is saved. Saving writes that profile and no
other: a new one is added beside the others, an edited one keeps its place and its id.

A new profile's preset can still be changed here; an existing profile's preset is fixed
(another preset is another profile: Add one), so editing never turns the built-in model's
profile into a remote one.

For the built-in preset there is no address, model list or key: the profile names a
GGUF file (the shipped SmolLM2 unless the user picks another), checked with
`turnlog.localmodel.available`, and the dialog says what that model is and how large
its window is, with the caveat that the built-in one is small and weak."""

from __future__ import annotations

import logging
import uuid
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from ...config.profiles import Profile, ProfilesUnreadable, check_base_url, unique_name
from ...config.secrets import KeyringUnavailable, check_key
from ...core.failures import ProviderFailure
from ...localmodel import DEFAULT_N_CTX
from ...localmodel import ModelInfo as LocalModelInfo
from ...providers import PRESETS, ChatCompletionsProvider, ModelInfo, Preset, preset_by_id
from ..infra import failure_text, settings_operations
from ..infra.languages import arg, plural
from ..infra.tasks import TaskContext, TaskRunner
from ..request.connection import shown_name
from ..request.provider_setup import ProviderSetup
from .fitting import FittedDialog, wrap_check
from .model_file_facts import check_model_file, model_file_text
from .profile_network import NetworkRows
from .profile_prices import PriceRows

log = logging.getLogger(__name__)

# What `check_base_url` says, for the translations (shown translated).
URL_PROBLEMS = (
    QT_TRANSLATE_NOOP("SettingsDialog", "The base URL must start with http:// or https:// and "
                      "name a server, for example http://localhost:8080/v1"),
    QT_TRANSLATE_NOOP("SettingsDialog", "The base URL must not contain ? or #"),
    QT_TRANSLATE_NOOP("SettingsDialog", "The base URL must not contain control characters "
                      "such as a line break"),
    QT_TRANSLATE_NOOP("SettingsDialog", "The base URL must not hold a user name or password "
                      "(user:password@): put the key in the key field, which keeps it in the "
                      "keyring"),
)
# Why there is no keyring (`secrets.usable_backend`), for the translations.
KEYRING_PROBLEMS = (
    QT_TRANSLATE_NOOP("SettingsDialog", "The only keyring available stores keys in a plain "
                      "file, which Turnlog does not use. Install and unlock a system keyring "
                      "(GNOME Keyring, KWallet, macOS Keychain or Windows Credential Manager), "
                      "or use the key only until Turnlog closes."),
    QT_TRANSLATE_NOOP("SettingsDialog", "No system keyring was found to keep the API key. "
                      "Install and unlock one (GNOME Keyring, KWallet, macOS Keychain or "
                      "Windows Credential Manager), or use the key only until Turnlog closes."),
)


translate = QCoreApplication.translate  # translate("SettingsDialog", …): lupdate reads it


class ProfileEditor(FittedDialog):
    """Edits `profile` (a new one when `new`); `accept` only with valid input, once the
    key (if one was typed) and the profile are saved. `key_stored`: whether a key is
    stored for it (None: not known)."""

    saved = Signal(object)  # the Profile as written

    def __init__(self, setup: ProviderSetup, runner: TaskRunner, profile: Profile, *,
                 new: bool, key_stored: bool | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("profileEditor")
        title = (translate("ProfileEditor", "Add a provider") if new
                 else arg(translate("ProfileEditor", "Provider “%1”"),
                          shown_name(profile.name)))
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self.setup, self.runner, self.profile, self.new = setup, runner, profile, new
        self.key_stored = key_stored
        self._local_checked: dict[str, tuple[str, LocalModelInfo | None, int | None]] = {}
        self._listed_windows: dict[str, int] = {}  # model → window, as the server listed
        self._saving = False  # the key is on its way to the key store
        self._cancelled = False
        self._as_new = False  # removed elsewhere while open: saved as a new provider
        content = QWidget(self)
        self.form = QFormLayout(content)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self._preset_rows(content)
        self._model_rows(content)
        self._key_rows(content)
        self._model_file_rows(content)
        self.network = NetworkRows(content, self.form,
                                   self.form.getWidgetPosition(self.base_url)[0],
                                   self._revalidate)
        self._title_row(content)
        self.prices = PriceRows(content, self.form, self._revalidate)
        self.body.addWidget(self.scrolled(content), 1)
        self.finish_layout()
        self.buttons.accepted.connect(self.save)
        # A field left blank is not an error before it is edited: the editor opens quiet
        # (Save waits for it all the same).
        self._untouched: set[QWidget] = {self.name, self.base_url, self.model}
        self._fill()
        self.preset.currentIndexChanged.connect(self._preset_changed)
        for field in (self.name, self.base_url):
            field.textChanged.connect(lambda _text, f=field: self._untouched.discard(f))
        self.model.editTextChanged.connect(lambda _text: self._untouched.discard(self.model))
        for line in (self.name, self.base_url, self.key, self.model_file):
            line.textChanged.connect(self._revalidate)
        self.model.editTextChanged.connect(self._revalidate)
        self._show_preset_rows()
        self._revalidate()

    # ------------------------------------------------------------------ layout
    def _preset_rows(self, parent: QWidget) -> None:
        form = self.form
        self.name = QLineEdit(parent)
        self.name.setAccessibleName(translate("ProfileEditor", "Name"))
        form.addRow(translate("ProfileEditor", "&Name:"), self.name)
        self.preset = QComboBox(parent)
        self.preset.setAccessibleName(translate("SettingsDialog", "Provider preset"))
        for preset in PRESETS:
            self.preset.addItem(shown_name(preset.name), preset.id)
        self.preset.setEnabled(self.new)
        if not self.new:
            self.preset.setToolTip(translate(
                "ProfileEditor", "A provider keeps its preset; for another one, choose Add"))
        form.addRow(translate("SettingsDialog", "&Preset:"), self.preset)
        self.base_url = QLineEdit(parent)
        self.base_url.setAccessibleName(translate("SettingsDialog", "Base URL"))
        self.base_url.setPlaceholderText("http://localhost:8080/v1")
        form.addRow(translate("SettingsDialog", "Base &URL:"), self.base_url)

    def _model_rows(self, parent: QWidget) -> None:
        form = self.form
        self.model_row = QHBoxLayout()
        self.model = QComboBox(parent)
        self.model.setEditable(True)
        self.model.setAccessibleName(translate("SettingsDialog", "Model"))
        self.model.lineEdit().setPlaceholderText(translate(
            "SettingsDialog", "Type a model name or fetch the list"))
        self.model_row.addWidget(self.model, 1)
        self.fetch = QPushButton(translate("SettingsDialog", "&Fetch models"), parent)
        self.fetch.setAccessibleName(translate("SettingsDialog", "Fetch the server's model list"))
        self.fetch.clicked.connect(self.fetch_models)
        self.model_row.addWidget(self.fetch)
        form.addRow(translate("SettingsDialog", "&Model:"), self.model_row)
        model_label = form.labelForField(self.model_row)
        if isinstance(model_label, QLabel):  # a row of a layout: its label needs the buddy
            model_label.setBuddy(self.model)
        self.models_status = QLabel(parent)
        self.models_status.setWordWrap(True)
        form.addRow("", self.models_status)
        self.model.activated.connect(self._model_picked)

    def _key_rows(self, parent: QWidget) -> None:
        form = self.form
        self.key = QLineEdit(parent)
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setAccessibleName(translate("SettingsDialog", "API key"))
        keeps = not self.new and self.key_stored is not False  # a key may be stored
        self.key.setPlaceholderText(
            translate("SettingsDialog", "Leave empty to keep the stored key") if keeps
            else translate("ProfileEditor", "Paste the provider's API key"))
        form.addRow(translate("SettingsDialog", "API &key:"), self.key)
        self.key_backend = QLabel(parent)
        self.key_backend.setWordWrap(True)
        form.addRow("", self.key_backend)
        self.session_only = QCheckBox(translate(
            "ProfileEditor", "Use this key until Turnlog closes; do not store it"), parent)
        self.session_only.setAccessibleName(translate(
            "ProfileEditor", "Use the key until Turnlog closes, without storing it"))
        self.session_only.toggled.connect(self._describe_backend)
        self.session_row = wrap_check(self.session_only)
        form.addRow("", self.session_row)

    def _model_file_rows(self, parent: QWidget) -> None:
        """The built-in preset: a model file instead of an address, model list and key."""
        file_row = QHBoxLayout()
        self.model_file = QLineEdit(parent)
        self.model_file.setAccessibleName(translate("SettingsDialog", "Model file (GGUF)"))
        self.model_file.setPlaceholderText(translate(
            "SettingsDialog", "The built-in SmolLM2-135M (leave empty)"))
        file_row.addWidget(self.model_file, 1)
        self.choose_file = QPushButton(translate("SettingsDialog", "C&hoose…"), parent)
        self.choose_file.setAccessibleName(translate("SettingsDialog", "Choose a GGUF model file"))
        self.choose_file.clicked.connect(self.choose_model_file)
        file_row.addWidget(self.choose_file)
        self.builtin_file = QPushButton(translate("SettingsDialog", "B&uilt-in"), parent)
        self.builtin_file.setAccessibleName(translate(
            "SettingsDialog", "Use the built-in model file"))
        self.builtin_file.clicked.connect(self.model_file.clear)
        file_row.addWidget(self.builtin_file)
        self.model_file_row = QWidget(parent)
        self.model_file_row.setLayout(file_row)
        file_row.setContentsMargins(0, 0, 0, 0)
        self.form.addRow(translate("SettingsDialog", "Model &file:"), self.model_file_row)
        self.local_status = QLabel(parent)
        self.local_status.setObjectName("localModelStatus")
        self.local_status.setWordWrap(True)
        self.local_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.form.addRow("", self.local_status)

    def _title_row(self, content: QWidget) -> None:
        self.model_titles = QCheckBox(translate(
            "SettingsDialog", "Let the model name new conversations"), content)
        self.model_titles.setToolTip(translate(
            "SettingsDialog", "After the first answer, one short extra request asks the model "
            "for a title; a title you typed is never replaced"))
        self.form.addRow("", wrap_check(self.model_titles))
        self.accepts_images = QCheckBox(translate(
            "SettingsDialog", "Accepts images (the model takes pictures in a question)"),
            content)
        self.accepts_images.setObjectName("acceptsImages")
        self.accepts_images.setToolTip(translate(
            "SettingsDialog", "Off: a question with an image is refused before anything is "
            "sent. The default follows the server kind (off for DeepSeek, a llama.cpp server "
            "and the built-in model)"))
        self.form.addRow("", wrap_check(self.accepts_images))

    # ------------------------------------------------------------------ filling
    def _fill(self) -> None:
        profile = self.profile
        self._given_name = shown_name(profile.name)
        self.name.setText(self._given_name)
        self.preset.setCurrentIndex(max(0, self.preset.findData(profile.preset)))
        self.base_url.setText(profile.base_url)
        self.model_file.setText(profile.model_path or "")
        self.model.setEditText(profile.model)
        self.network.fill(profile)
        self.model_titles.setChecked(profile.makes_titles)
        self.accepts_images.setChecked(profile.takes_images)
        self.prices.fill(profile.prices)
        # Checked where this profile's key is kept for this session only (or must be).
        self.session_only.setChecked(self.setup.keyring is None
                                     or self.setup.session.get(profile.id) is not None)
        self.session_only.setEnabled(self.setup.keyring is not None)
        self._describe_backend()

    def _describe_backend(self) -> None:
        if self.setup.keyring is None:
            self.key_backend.setText(arg(translate(
                "SettingsDialog", "%1 The key will be kept only until Turnlog closes."),
                translate("SettingsDialog", self.setup.keyring_problem)))
        elif self.session_only.isChecked():
            self.key_backend.setText(translate(
                "SettingsDialog", "The key is kept in memory until Turnlog quits."))
        else:
            self.key_backend.setText(arg(
                translate("SettingsDialog", "Stored in: %1"),
                translate("SettingsDialog", self.setup.keyring.backend_name())))

    def _preset_changed(self) -> None:
        preset = self.chosen_preset()
        defaults = {p.base_url for p in PRESETS}
        if not self.base_url.text().strip() or self.base_url.text().strip() in defaults:
            self.base_url.setText(preset.base_url)
        if self.new and self.name.text() == self._given_name:  # not typed: it follows
            taken = [shown_name(p.name) for p in self.setup.load()]
            self._given_name = unique_name(shown_name(preset.name), taken)
            self.name.setText(self._given_name)
        if self.profile.accepts_images is None:
            self.accepts_images.setChecked(preset.images)
        self._show_preset_rows()
        self._revalidate()

    def chosen_preset(self) -> Preset:
        return preset_by_id(str(self.preset.currentData()))

    @property
    def builtin(self) -> bool:
        """Whether the chosen preset is the built-in local model."""
        return bool(self.chosen_preset().builtin)

    def _show_preset_rows(self) -> None:
        builtin = self.builtin
        form = self.form
        form.setRowVisible(self.model_row, not builtin)
        for widget in (self.base_url, self.key, self.key_backend, self.session_row):
            form.setRowVisible(widget, not builtin)
        # What the model list said, in a row only while it says something (no empty gap).
        form.setRowVisible(self.models_status, not builtin and bool(self.models_status.text()))
        for widget in (self.model_file_row, self.local_status):
            form.setRowVisible(widget, builtin)
        for row in (self.prices.row, self.prices.source):  # the built-in model is free
            form.setRowVisible(row, not builtin)
        self.network.show_for(self.chosen_preset(), self.base_url.text())

    def _say_models(self, text: str) -> None:
        self.models_status.setText(text)
        self.form.setRowVisible(self.models_status, not self.builtin and bool(text))

    # ------------------------------------------------------------ local model
    def choose_model_file(self) -> None:
        start = self.model_file.text().strip() or str(Path.home())
        path, _ = QFileDialog.getOpenFileName(
            self, translate("SettingsDialog", "Choose a GGUF model file"), start,
            translate("SettingsDialog", "GGUF models (*.gguf);;All files (*)"))
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
        found: list[str] = self._name_problems()
        if self.builtin:
            self._describe_local()
            problem = self.local_model()[0]
            if problem:
                found.append(problem)
        else:
            try:
                check_base_url(self.base_url.text())
            except ValueError as err:
                found.append(translate("SettingsDialog", str(err)))
            if not self.model.currentText().strip():
                found.append(translate("SettingsDialog", "Choose or type a model name."))
        found += self.network.problems(self.chosen_preset(), self.base_url.text(),
                                       self.key.text()) + self.prices.problems()
        if self.key.text().strip() and not self.builtin:
            try:
                check_key(self.key.text())
            except ValueError as err:
                found.append(f"{err}.")
        return found

    def _name_problems(self) -> list[str]:
        name = self.name.text().strip()
        if not name:
            return [translate("ProfileEditor", "Give the provider a name.")]
        others = {shown_name(p.name).casefold() for p in self.setup.load()
                  if p.id != self.profile.id}
        if name.casefold() in others:
            return [arg(translate(
                "ProfileEditor", "Another provider is already called “%1”; choose another "
                "name."), name)]
        return []

    def _waiting(self) -> list[str]:
        """What `problems` says of fields still blank as they opened: not said yet."""
        blank = [field for field, text in ((self.name, self.name.text()),
                                           (self.base_url, self.base_url.text()),
                                           (self.model, self.model.currentText()))
                 if field in self._untouched and not text.strip()]
        waiting = [translate("ProfileEditor", "Give the provider a name.")] \
            if self.name in blank else []
        if self.base_url in blank and not self.builtin:
            waiting.append(translate("SettingsDialog", URL_PROBLEMS[0]))
        if self.model in blank and not self.builtin:
            waiting.append(translate("SettingsDialog", "Choose or type a model name."))
        return waiting

    def _revalidate(self) -> None:
        found = self.problems()
        waiting = self._waiting()
        shown = [problem for problem in found if problem not in waiting]
        self.problem.setText("\n".join(shown))
        self.problem.setVisible(bool(shown))
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(
            not found and not self._saving)

    # ------------------------------------------------------------------ models
    def fetch_models(self) -> None:
        try:
            url = check_base_url(self.base_url.text())
        except ValueError as err:
            self._say_models(translate("SettingsDialog", str(err)))
            return
        preset = self.chosen_preset()
        typed = self.key.text().strip() or None
        keys = self.setup.keys()
        profile_id = None if self.new else self.profile.id
        verify, allow = self.network.verify(), self.network.allow_insecure.isChecked()
        self.fetch.setEnabled(False)
        self._say_models(translate("SettingsDialog", "Asking the server for its models…"))

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
        if not self.alive:
            return
        self.fetch.setEnabled(True)
        typed = self.model.currentText()
        self.model.clear()
        for info in models:
            label = info.id if info.context_window is None else \
                arg(translate("SettingsDialog", "%1  (%2 tokens)"), info.id, info.context_window)
            self.model.addItem(label, info)
            if info.context_window:
                self._listed_windows[info.id] = info.context_window
        self.model.setEditText(typed or (models[0].id if models else ""))
        listed = len(models)
        self._say_models(
            plural(translate("SettingsDialog", "The server lists %n model(s).",
                                              None, listed), listed) if models
            else translate("SettingsDialog", "The server lists no models; type the name instead."))

    def _model_picked(self, index: int) -> None:
        info = self.model.itemData(index)
        if isinstance(info, ModelInfo):
            self.model.setEditText(info.id)
            self.prices.offer(info.prices)

    def _models_failed(self, error: BaseException) -> None:
        if not self.alive:
            return
        self.fetch.setEnabled(True)
        if isinstance(error, ProviderFailure):
            self._say_models(arg(translate(
                "SettingsDialog", "%1 You can type the model name instead."),
                failure_text.message(error.failure)))
            return
        raise error

    # -------------------------------------------------------------------- save
    def save(self) -> None:
        """Write the key, then the profile. The key goes to the key store on the storage
        worker: a keyring may be slow, or wait for the person to unlock it."""
        if self._saving:
            return
        if self.problems():
            self._revalidate()
            return
        if self._removed_elsewhere():
            self._offer_as_new()
            return
        profile = self.described_profile()
        key = self.key.text().strip() if not profile.builtin else ""
        self.setup.keep_keys_for_session(self.setup.keyring is None
                                         or self.session_only.isChecked())
        if not key:
            self._store_profile(profile)
            return
        self._set_saving(True)
        settings_operations.save_api_key(self.setup.keys(), profile.id, key).run(
            self.runner, on_success=lambda _: self._key_saved(profile),
            on_failure=self._key_failed)

    def _removed_elsewhere(self) -> bool:
        """The profile was removed while this editor was open (`turnlog-cli profile remove`,
        another window): saving would bring it back unasked."""
        if self.new or self._as_new:
            return False
        profiles = self.setup.profiles
        try:
            profiles.refresh_if_changed()  # another process may have written the file
            return profiles.get(self.profile.id) is None
        except ProfilesUnreadable:
            return False  # saving names the problem

    def _offer_as_new(self) -> None:
        """Say so, and make the next Save add it as a new provider (Cancel leaves it gone)."""
        self._as_new = True
        self.profile = replace(self.profile, id=uuid.uuid4().hex)
        self.problem.setText(arg(translate(
            "ProfileEditor", "“%1” was removed (with turnlog-cli or in another window) while "
            "you edited it. Save again to add it as a new provider, or Cancel."),
            shown_name(self.profile.name)))
        self.problem.show()
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setText(
            translate("ProfileEditor", "Save as new"))

    def reject(self) -> None:
        self._cancelled = True
        super().reject()

    def _set_saving(self, saving: bool) -> None:
        self._saving = saving
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(not saving)

    def _key_saved(self, profile: Profile) -> None:
        if not self.alive:
            return
        self._set_saving(False)
        if not self._cancelled:  # else cancelled while the key was being stored
            self._store_profile(profile)

    def _key_failed(self, error: BaseException) -> None:
        if not self.alive:
            return
        self._set_saving(False)
        if not isinstance(error, KeyringUnavailable):
            raise error
        self.problem.setText(f"{error}")
        self.problem.show()
        self.session_only.setChecked(True)

    def described_profile(self) -> Profile:
        """The profile as the dialog now describes it: the same id, whatever changed."""
        name = self.name.text().strip()
        if self.builtin:
            profile = self._builtin_profile()
        else:
            model = self.model.currentText().strip()
            # The window goes with the model: kept for the same one, else the server's.
            window = (self.profile.context_window if model == self.profile.model
                      else self._listed_windows.get(model))
            profile = replace(self.profile, preset=self.chosen_preset().id,
                              base_url=check_base_url(self.base_url.text()), model=model,
                              context_window=window, model_path=None)
        if name != shown_name(self.profile.name):
            profile = replace(profile, name=name)
        images = self.accepts_images.isChecked()
        return replace(profile.with_network(self.network.settings(profile.builtin)),
                       model_titles=self.model_titles.isChecked(),
                       accepts_images=None if images == profile.server.images and
                       profile.accepts_images is None else images,
                       prices=None if profile.builtin else self.prices.prices())

    def _store_profile(self, profile: Profile) -> None:
        try:
            self.setup.profiles.put(profile)
        except (OSError, ValueError, ProfilesUnreadable) as err:
            self.problem.setText(arg(translate(
                "SettingsDialog", "The provider could not be saved: %1"), err))
            self.problem.show()
            return
        self.profile = profile
        self.saved.emit(profile)
        self.accept()

    def _builtin_profile(self) -> Profile:
        """The built-in model's profile as chosen (the model file checked in `problems`)."""
        path = self._model_path()
        info = self.local_model()[1]
        assert info is not None
        model_path = str(path.resolve()) if path is not None else None
        return replace(self.profile, preset="builtin", base_url="", model=info.alias,
                       model_path=model_path, context_window=None)
