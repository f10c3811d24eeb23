"""The profile's network rows in Settings: a warning beside a plain http:// address on
another machine with the explicit choice to send the key there anyway, the CA
certificate file to trust, the time the first token may take, and automatic retry."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from ...config.profiles import NetworkSettings, Profile
from ...providers import FIRST_TOKEN_TIMEOUT_S, LOCAL_FIRST_TOKEN_TIMEOUT_S, Preset
from ...providers.security import CaFileUnusable, key_in_clear, tls_context
from ..infra.languages import arg, number
from ..infra.theme import tone_text
from ..infra.wheel import wheel_only_when_focused
from .fitting import wrap_check

INSECURE_WARNING = QT_TRANSLATE_NOOP(
    "ProfileNetwork", "⚠ Plain http:// to another machine: an API key sent here can be read by "
    "anyone on the network in between. Use https:// if the server offers it.")


class NetworkRows:
    """Adds its rows to the provider form (the warning and its checkbox right under the
    Base URL row, `url_row`) and reports edits through `changed`."""

    def __init__(self, parent: QWidget, form: QFormLayout, url_row: int,
                 changed: Callable[[], None]) -> None:
        self.form = form
        self.warning = QLabel(
            QCoreApplication.translate("ProfileNetwork", INSECURE_WARNING), parent
        )
        self.warning.setObjectName("insecureUrlWarning")
        self.warning.setWordWrap(True)
        tone_text(self.warning, "error")
        form.insertRow(url_row + 1, "", self.warning)
        self.allow_insecure = QCheckBox(QCoreApplication.translate("ProfileNetwork", "Send the "
            "API key to this address unencrypted (only on a network you trust)"), parent)
        self.allow_insecure.setAccessibleName(
            QCoreApplication.translate("ProfileNetwork", "Allow sending the key unencrypted")
        )
        self.allow_row = wrap_check(self.allow_insecure)
        form.insertRow(url_row + 2, "", self.allow_row)
        self.ca_row = QHBoxLayout()
        self.ca_file = QLineEdit(parent)
        self.ca_file.setAccessibleName(QCoreApplication.translate("ProfileNetwork", "CA "
            "certificate file"))
        self.ca_file.setPlaceholderText(QCoreApplication.translate("ProfileNetwork", "System "
            "certificates only (PEM file to trust as well)"))
        self.ca_row.addWidget(self.ca_file, 1)
        self.ca_choose = QPushButton(
            QCoreApplication.translate("ProfileNetwork", "Choose…"), parent
        )
        self.ca_choose.clicked.connect(self.choose_ca_file)
        self.ca_row.addWidget(self.ca_choose)
        form.addRow(QCoreApplication.translate("ProfileNetwork", "CA certificate:"), self.ca_row)
        self.first_token = QSpinBox(parent)
        self.first_token.setAccessibleName(QCoreApplication.translate("ProfileNetwork", "Time to "
            "first token"))
        self.first_token.setRange(0, 86400)
        wheel_only_when_focused(self.first_token)
        self.first_token.setSingleStep(30)
        self.first_token.setSuffix(QCoreApplication.translate("ProfileNetwork", " s"))
        form.addRow(
            QCoreApplication.translate("ProfileNetwork", "Time to &first token:"), self.first_token
        )
        self.retry = QCheckBox(QCoreApplication.translate("ProfileNetwork", "Try again by itself "
            "after 429, 502–504 or a refused connection (3 attempts within 60 s)"), parent)
        self.retry.setAccessibleName(QCoreApplication.translate("ProfileNetwork", "Retry "
            "automatically"))
        form.addRow("", wrap_check(self.retry))
        self.ca_file.textChanged.connect(lambda _text: changed())
        self.allow_insecure.toggled.connect(lambda _on: changed())

    def fill(self, profile: Profile | None) -> None:
        network = profile.network if profile is not None else NetworkSettings()
        self.allow_insecure.setChecked(network.allow_insecure_key)
        self.ca_file.setText(network.ca_file or "")
        self.first_token.setValue(round(network.first_token_timeout_s or 0))
        self.retry.setChecked(network.retry)

    def show_for(self, preset: Preset, base_url: str) -> None:
        """Rows that fit the preset; the warning only beside an address that needs it."""
        remote = not preset.builtin
        default = LOCAL_FIRST_TOKEN_TIMEOUT_S if preset.local else FIRST_TOKEN_TIMEOUT_S
        self.first_token.setSpecialValueText(
            arg(QCoreApplication.translate("ProfileNetwork", "Default (%1 s)"), number(default))
        )
        clear = remote and key_in_clear(base_url)
        self.form.setRowVisible(self.warning, clear)
        self.form.setRowVisible(self.allow_row, clear)
        self.form.setRowVisible(self.ca_row, remote)

    def problems(self, preset: Preset, base_url: str, typed_key: str) -> list[str]:
        """What stops a save (a key in clear text not allowed, an unusable CA file); shows
        the warning beside the address as it is typed."""
        self.show_for(preset, base_url)
        if preset.builtin:
            return []
        found = []
        if typed_key.strip() and key_in_clear(base_url) and not self.allow_insecure.isChecked():
            found.append(QCoreApplication.translate("ProfileNetwork", "The key would travel "
                "unencrypted to another machine over plain http://. Use an https:// address, or "
                "tick “Send the API key to this address unencrypted” if the network in between "
                "is your own."))
        try:
            tls_context(self._ca_path())
        except CaFileUnusable as err:
            found.append(f"{str(err)[0].upper()}{str(err)[1:]}.")
        return found

    def settings(self, builtin: bool) -> NetworkSettings:
        return NetworkSettings(
            float(self.first_token.value()) or None, self.retry.isChecked(),
            self.allow_insecure.isChecked() and not builtin,
            None if builtin else self._ca_path())

    def verify(self) -> object:
        """What a model-list request verifies the server's certificate with."""
        try:
            return tls_context(self._ca_path())
        except CaFileUnusable:
            return True

    def choose_ca_file(self) -> None:
        start = self.ca_file.text().strip() or str(Path.home())
        path, _ = QFileDialog.getOpenFileName(
            self.ca_file,
            QCoreApplication.translate("ProfileNetwork", "Choose a CA certificate (PEM)"),
            start,
            QCoreApplication.translate(
                "ProfileNetwork", "Certificates (*.pem *.crt);;All files (*)"
            ),
        )
        if path:
            self.ca_file.setText(path)

    def _ca_path(self) -> str | None:
        text = self.ca_file.text().strip()
        return str(Path(text).expanduser().resolve()) if text else None
