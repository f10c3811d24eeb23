"""Add or edit one MCP tool server: a command (stdio) or an address (streamable HTTP).

Values of environment variables whose names say KEY, TOKEN, SECRET or PASSWORD, those
named under "Secret", and the token go to the keyring when saved, never to tools.json.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from ...config.tool_servers import ToolConfigInvalid, ToolServer, new_server, secret_by_default

translate = QCoreApplication.translate  # translate("ToolServerEditor", …): lupdate reads it


@dataclass(frozen=True, slots=True)
class EditedServer:
    """What the editor made: the server, and the secrets to put in the keyring."""

    server: ToolServer
    token: str | None
    env: dict[str, str]


class ToolServerEditor(QDialog):
    def __init__(self, parent: QWidget | None = None, server: ToolServer | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("toolServerEditor")
        self.setWindowTitle(translate("ToolServerEditor", "Edit tool server") if server
                            else translate("ToolServerEditor", "Add tool server"))
        self._server = server
        self.result_server: EditedServer | None = None
        column = QVBoxLayout(self)
        form = QFormLayout()
        self.name = QLineEdit(self)
        form.addRow(translate("ToolServerEditor", "&Name:"), self.name)
        self.stdio = QRadioButton(translate("ToolServerEditor", "A command Turnlog starts "
                                                                "(stdio)"), self)
        self.http = QRadioButton(translate("ToolServerEditor", "An address (streamable HTTP)"),
                                 self)
        form.addRow("", self.stdio)
        form.addRow("", self.http)
        self.command = QLineEdit(self)
        self.command.setPlaceholderText("npx -y @modelcontextprotocol/server-filesystem ~/文档")
        form.addRow(translate("ToolServerEditor", "&Command line:"), self.command)
        self.env = QPlainTextEdit(self)
        self.env.setPlaceholderText("API_KEY=…\nLOG_LEVEL=info")
        self.env.setMaximumHeight(self.fontMetrics().lineSpacing() * 4 + 14)
        form.addRow(translate("ToolServerEditor", "&Environment:"), self.env)
        self.secret = QLineEdit(self)
        self.secret.setToolTip(translate(
            "ToolServerEditor", "Variables whose values go to the keyring, separated by "
            "commas. Names with KEY, TOKEN, SECRET or PASSWORD are secret anyway."))
        form.addRow(translate("ToolServerEditor", "Also &secret:"), self.secret)
        self.url = QLineEdit(self)
        self.url.setPlaceholderText("https://example.com/mcp")
        form.addRow(translate("ToolServerEditor", "&Address:"), self.url)
        self.token = QLineEdit(self)
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token.setPlaceholderText(translate("ToolServerEditor", "kept in the keyring"))
        form.addRow(translate("ToolServerEditor", "Bearer &token:"), self.token)
        column.addLayout(form)
        self.problem = QLabel(self)
        self.problem.setObjectName("problem")
        self.problem.setWordWrap(True)
        self.problem.hide()
        column.addWidget(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self._save)
        buttons.rejected.connect(self.reject)
        column.addWidget(buttons)
        self.stdio.toggled.connect(self._kind_changed)
        self._fill(server)

    def _fill(self, server: ToolServer | None) -> None:
        http = server is not None and bool(server.url)
        (self.http if http else self.stdio).setChecked(True)
        self._kind_changed()
        if server is None:
            return
        self.name.setText(server.name)
        self.command.setText(shlex.join([server.command, *server.args]) if server.command
                             else "")
        self.env.setPlainText("\n".join(f"{v.name}=" if v.secret else f"{v.name}={v.value}"
                                        for v in server.env))
        self.secret.setText(", ".join(v.name for v in server.env
                                      if v.secret and not secret_by_default(v.name)))
        self.url.setText(server.url)

    def _kind_changed(self) -> None:
        stdio = self.stdio.isChecked()
        for widget in (self.command, self.env, self.secret):
            widget.setEnabled(stdio)
        for widget in (self.url, self.token):
            widget.setEnabled(not stdio)

    def edited(self) -> EditedServer:
        """The server as typed; ToolConfigInvalid says what is wrong."""
        name = self.name.text().strip()
        token = self.token.text().strip() or None
        if self.http.isChecked():
            had = self._server is not None and self._server.has_token
            server = new_server(name, url=self.url.text().strip(),
                                has_token=bool(token) or had, enabled=True)
            return self._keep_identity(server, token, {})
        try:
            words = shlex.split(self.command.text())
        except ValueError as err:
            raise ToolConfigInvalid(translate("ToolServerEditor", "The command line cannot be "
                                              "read: %1").replace("%1", str(err))) from err
        env: dict[str, str] = {}
        for line in self.env.toPlainText().splitlines():
            if line.strip():
                key, sep, value = line.partition("=")
                if not sep:
                    raise ToolConfigInvalid(translate(
                        "ToolServerEditor", "Write each variable as NAME=VALUE: %1")
                        .replace("%1", line.strip()))
                env[key.strip()] = value
        extra = {n.strip() for n in self.secret.text().split(",") if n.strip()}
        secret = sorted(n for n in env if n in extra or secret_by_default(n))
        server = new_server(name, command=words[0] if words else "", args=words[1:],
                            env=env, secret=secret, enabled=True)
        return self._keep_identity(server, None, {n: env[n] for n in secret if env[n]})

    def _keep_identity(self, server: ToolServer, token: str | None,
                       env: dict[str, str]) -> EditedServer:
        old = self._server
        if old is not None:  # the same server, edited: its id (and secrets), its switches
            server = replace(server, id=old.id, enabled=old.enabled, tools_off=old.tools_off,
                             imported_from=old.imported_from)
        return EditedServer(server, token, env)

    def _save(self) -> None:
        try:
            self.result_server = self.edited()
        except ToolConfigInvalid as err:
            self.problem.setText(str(err))
            self.problem.show()
            return
        self.accept()
