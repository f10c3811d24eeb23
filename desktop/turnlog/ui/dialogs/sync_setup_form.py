"""Settings → Sync before sync is set up: where the history syncs through (a folder another
program syncs, a WebDAV server, an S3 bucket) with the fields each needs, the passphrase
(typed twice; a lost one cannot be recovered) and this machine's name.

The form only gathers and checks what was typed; `wanted` hands a `SetupAsked` to the page,
which runs the set-up off the GUI thread. Secrets stay in the fields until the set-up
worked (`clear_secrets`), never in a setting or a log."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from ...service.sync_setup import default_machine_name
from ...sync.storage import StorageConfig
from .fitting import wrap_check

translate = QCoreApplication.translate  # translate("SyncPage", …): lupdate reads it

KINDS = ("folder", "webdav", "s3")


@dataclass(frozen=True)
class SetupAsked:
    """What the form asks the set-up for: the storage, its secret, the passphrase, the
    machine's name."""

    config: StorageConfig
    secret: str | None
    passphrase: bytes
    machine: str


def is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _line(parent: QWidget, name: str, *, secret: bool = False, hint: str = "") -> QLineEdit:
    edit = QLineEdit(parent)
    edit.setAccessibleName(name)
    edit.setPlaceholderText(hint)
    if secret:
        edit.setEchoMode(QLineEdit.EchoMode.Password)
    return edit


def _with_button(parent: QWidget, edit: QLineEdit, text: str, slot: object) -> QWidget:
    row = QWidget(parent)
    line = QHBoxLayout(row)
    line.setContentsMargins(0, 0, 0, 0)
    edit.setParent(row)
    line.addWidget(edit, 1)
    button = QPushButton(text, row)
    button.clicked.connect(slot)
    line.addWidget(button)
    return row


class SetupForm(QWidget):
    """The set-up fields; `wanted` with a checked `SetupAsked` when *Set up* is pressed,
    `refused` with what to fix when something is missing."""

    wanted = Signal(object)  # SetupAsked
    refused = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("syncSetupForm")
        self.form = form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        self.kind = QComboBox(self)
        self.kind.setAccessibleName(translate("SyncPage", "Where to sync through"))
        for text in (translate("SyncPage", "A folder another program syncs"),
                     translate("SyncPage", "A WebDAV server (Nextcloud, Nutstore, Synology)"),
                     translate("SyncPage", "An S3 bucket (AWS, R2, B2, MinIO)")):
            self.kind.addItem(text)
        form.addRow(translate("SyncPage", "&Sync through:"), self.kind)
        # Each kind's rows, shown only while it is chosen (one form: the labels line up).
        self.rows: dict[str, list[QWidget]] = {
            "folder": self._folder_fields(), "webdav": self._webdav_fields(),
            "s3": self._s3_fields()}
        self.ca_file = _line(self, translate("SyncPage", "CA certificate file"),
                             hint=translate("SyncPage", "only for a server with a "
                                            "certificate of its own"))
        self.ca_row = _with_button(self, self.ca_file, translate("SyncPage", "Choose…"),
                                   self._choose_ca)
        form.addRow(translate("SyncPage", "C&A file:"), self.ca_row)
        self.plain_http = QCheckBox(translate(
            "SyncPage", "Allow plain http: the password travels unencrypted to this server"),
            self)
        self.plain_http_row = wrap_check(self.plain_http)
        form.addRow("", self.plain_http_row)
        self._passphrase_rows(form)
        self.set_up_button = QPushButton(translate("SyncPage", "Set &up"), self)
        self.set_up_button.setObjectName("syncSetUp")
        self.set_up_button.clicked.connect(self.submit)
        form.addRow("", self.set_up_button)
        self.kind.currentIndexChanged.connect(lambda _index: self._show_rows())
        for edit in (self.webdav_url, self.s3_endpoint):
            edit.textChanged.connect(lambda _text: self._show_rows())
        self._show_rows()

    # -- layout ------------------------------------------------------------------------
    def _row(self, label: str, field: QWidget) -> QWidget:
        self.form.addRow(label, field)
        return field

    def _folder_fields(self) -> list[QWidget]:
        self.folder = _line(self, translate("SyncPage", "Sync folder"),
                            hint=translate("SyncPage", "e.g. ~/Sync/turnlog"))
        return [self._row(translate("SyncPage", "&Folder:"),
                          _with_button(self, self.folder, translate("SyncPage", "Choose…"),
                                       self._choose_folder))]

    def _webdav_fields(self) -> list[QWidget]:
        self.webdav_url = _line(self, translate("SyncPage", "WebDAV address"),
                                hint="https://cloud.example.com/remote.php/dav/files/me/Turnlog")
        self.webdav_user = _line(self, translate("SyncPage", "User name"))
        self.webdav_password = _line(self, translate("SyncPage", "Password"), secret=True,
                                     hint=translate("SyncPage", "an app password"))
        return [self._row(translate("SyncPage", "&Address:"), self.webdav_url),
                self._row(translate("SyncPage", "&User:"), self.webdav_user),
                self._row(translate("SyncPage", "Pass&word:"), self.webdav_password)]

    def _s3_fields(self) -> list[QWidget]:
        self.s3_endpoint = _line(self, translate("SyncPage", "S3 endpoint"),
                                 hint="https://s3.eu-central-1.amazonaws.com")
        self.s3_bucket = _line(self, translate("SyncPage", "Bucket"))
        self.s3_prefix = _line(self, translate("SyncPage", "Folder in the bucket"),
                               hint=translate("SyncPage", "optional"))
        self.s3_access_key = _line(self, translate("SyncPage", "Access key"))
        self.s3_secret = _line(self, translate("SyncPage", "Secret key"), secret=True)
        return [self._row(translate("SyncPage", "&Endpoint:"), self.s3_endpoint),
                self._row(translate("SyncPage", "&Bucket:"), self.s3_bucket),
                self._row(translate("SyncPage", "Fol&der:"), self.s3_prefix),
                self._row(translate("SyncPage", "Access &key:"), self.s3_access_key),
                self._row(translate("SyncPage", "Secret ke&y:"), self.s3_secret)]

    def _passphrase_rows(self, form: QFormLayout) -> None:
        self.passphrase = _line(self, translate("SyncPage", "Passphrase"), secret=True)
        self.again = _line(self, translate("SyncPage", "Passphrase again"), secret=True)
        form.addRow(translate("SyncPage", "&Passphrase:"), self.passphrase)
        form.addRow(translate("SyncPage", "A&gain:"), self.again)
        lost = QLabel(translate(
            "SyncPage", "The same passphrase on every machine. A lost passphrase cannot be "
            "recovered: without it no machine can read the sync storage, and no new machine "
            "can join. It is not stored; the key made from it goes to the system keyring."),
            self)
        lost.setObjectName("syncPassphraseNote")
        lost.setWordWrap(True)
        form.addRow("", lost)
        self.machine = _line(self, translate("SyncPage", "This machine's name"))
        self.machine.setText(default_machine_name())
        form.addRow(translate("SyncPage", "&Machine name:"), self.machine)

    def kind_chosen(self) -> str:
        return KINDS[self.kind.currentIndex()]

    def _show_rows(self) -> None:
        kind = self.kind_chosen()
        for name, fields in self.rows.items():
            for field in fields:
                self.form.setRowVisible(field, name == kind)
        self.form.setRowVisible(self.ca_row, kind != "folder")
        address = self._address()
        plain = (kind != "folder" and address.lower().startswith("http://")
                 and not is_loopback(address))
        self.form.setRowVisible(self.plain_http_row, plain)
        if not plain:
            self.plain_http.setChecked(False)

    def _choose_folder(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, translate("SyncPage", "Sync folder"),
                                                  self.folder.text() or str(Path.home()))
        if chosen:
            self.folder.setText(chosen)

    def _choose_ca(self) -> None:
        chosen, _ = QFileDialog.getOpenFileName(
            self, translate("SyncPage", "CA certificate"), str(Path.home()),
            translate("SyncPage", "Certificates (*.pem *.crt *.cer);;All files (*)"))
        if chosen:
            self.ca_file.setText(chosen)

    # -- reading -----------------------------------------------------------------------
    def _address(self) -> str:
        kind = self.kind_chosen()
        edit = {"folder": self.folder, "webdav": self.webdav_url, "s3": self.s3_endpoint}[kind]
        return edit.text().strip()

    def set_busy(self, busy: bool) -> None:
        for child in self.findChildren(QWidget):
            child.setEnabled(not busy)

    def clear_secrets(self) -> None:
        for edit in (self.webdav_password, self.s3_secret, self.passphrase, self.again):
            edit.clear()

    def submit(self) -> None:
        """Check what was typed; `wanted` with it, or `refused` with what to fix."""
        try:
            asked = self.asked()
        except ValueError as err:
            self.refused.emit(str(err))
            return
        self.wanted.emit(asked)

    def asked(self) -> SetupAsked:
        """What was typed, checked (ValueError with what to fix)."""
        config, secret = self._storage()
        passphrase = self.passphrase.text()
        if not passphrase.strip():
            raise ValueError(translate("SyncPage", "Type a passphrase."))
        if passphrase != self.again.text():
            raise ValueError(translate("SyncPage", "The two passphrases differ."))
        return SetupAsked(config, secret, passphrase.encode("utf-8"), self.machine.text().strip())

    def _storage(self) -> tuple[StorageConfig, str | None]:
        kind, address = self.kind_chosen(), self._address()
        if not address:
            raise ValueError({"folder": translate("SyncPage", "Choose the sync folder."),
                              "webdav": translate("SyncPage", "Type the WebDAV address."),
                              "s3": translate("SyncPage", "Type the S3 endpoint.")}[kind])
        if kind == "folder":
            return StorageConfig("folder", str(Path(address).expanduser().resolve())), None
        if not address.lower().startswith(("http://", "https://")):
            raise ValueError(translate("SyncPage", "The address starts with https://."))
        ca = self.ca_file.text().strip()
        ca = str(Path(ca).expanduser().resolve()) if ca else ""
        allow = self.plain_http.isChecked()
        if kind == "webdav":
            user, secret = self.webdav_user.text().strip(), self.webdav_password.text()
            if bool(user) != bool(secret):
                raise ValueError(translate("SyncPage", "Type both the user name and the "
                                           "password, or neither."))
            return StorageConfig("webdav", address, user=user, ca_file=ca,
                                 allow_plain_http=allow), secret or None
        bucket = self.s3_bucket.text().strip()
        if not bucket:
            raise ValueError(translate("SyncPage", "Type the bucket's name."))
        key, secret = self.s3_access_key.text().strip(), self.s3_secret.text()
        if bool(key) != bool(secret):
            raise ValueError(translate("SyncPage", "Type both the access key and the secret "
                                       "key, or neither."))
        return StorageConfig("s3", address, bucket=bucket,
                             prefix=self.s3_prefix.text().strip().strip("/"), user=key,
                             ca_file=ca, allow_plain_http=allow), secret or None
