"""Settings → Tools: the MCP tool servers — add, edit, remove, import an `mcpServers` file;
each server's state (starting, ready with N tools, failed with the reason and the last
lines of its error output) and its tools with their descriptions and switches.

Changes are saved at once (tools.json; secrets in the keyring, written on the storage
worker). A server is started to show its tools only when the person asks (Check), on the
network worker; an imported one stays off until switched on, its command line in view.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...config.secrets import KeyringUnavailable, open_key_store
from ...config.tool_servers import (
    ToolConfigInvalid,
    ToolServer,
    launch_for,
    read_mcp_servers,
)
from ...toolhost.host import ServerState, ServerStatus
from ..infra import settings_operations
from ..infra.languages import arg
from ..infra.tasks import TaskContext, TaskRunner
from ..request.tool_gate import ToolGate
from .tool_server_editor import EditedServer, ToolServerEditor

log = logging.getLogger(__name__)
translate = QCoreApplication.translate  # translate("ToolsPage", …): lupdate reads it


def state_words(server: ToolServer, status: ServerStatus) -> str:
    if not server.enabled:
        return translate("ToolsPage", "off")
    if status.state is ServerState.READY:
        return arg(translate("ToolsPage", "ready with %1 tools"), len(status.tools))
    if status.state is ServerState.FAILED:
        return arg(translate("ToolsPage", "failed: %1"), status.reason)
    if status.state is ServerState.STARTING:
        return translate("ToolsPage", "starting…")
    return translate("ToolsPage", "not started yet (starts on first use)")


class ToolsPage(QWidget):
    """The servers of `gate`; `changed` after every saved change."""

    changed = Signal()

    def __init__(self, gate: ToolGate, runner: TaskRunner, parent: QWidget | None = None,
                 ) -> None:
        super().__init__(parent)
        self.setObjectName("toolsPage")
        self.gate, self.runner = gate, runner
        grid = QGridLayout(self)
        self.list = QListWidget(self)
        self.list.setAccessibleName(translate("ToolsPage", "Tool servers"))
        self.list.setWordWrap(True)
        grid.addWidget(self.list, 0, 0, 1, 2)
        buttons = QVBoxLayout()
        self.add_button = self._button(translate("ToolsPage", "&Add…"), self.add, buttons)
        self.edit_button = self._button(translate("ToolsPage", "&Edit…"), self.edit, buttons)
        self.switch_button = self._button(translate("ToolsPage", "Switch o&n"), self.switch,
                                          buttons)
        self.check_button = self._button(translate("ToolsPage", "&Check"), self.check, buttons)
        self.remove_button = self._button(translate("ToolsPage", "&Remove"), self.remove,
                                          buttons)
        self.import_button = self._button(translate("ToolsPage", "&Import…"),
                                          self.import_file, buttons)
        buttons.addStretch(1)
        grid.addLayout(buttons, 0, 2)
        self.detail = QLabel(self)
        self.detail.setObjectName("toolServerDetail")
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.PlainText)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        grid.addWidget(self.detail, 1, 0, 1, 3)
        self.tools = QListWidget(self)
        self.tools.setAccessibleName(translate("ToolsPage", "Tools of the server"))
        self.tools.setWordWrap(True)
        grid.addWidget(self.tools, 2, 0, 1, 3)
        self.problem = QLabel(self)
        self.problem.setObjectName("problem")
        self.problem.setWordWrap(True)
        self.problem.hide()
        grid.addWidget(self.problem, 3, 0, 1, 3)
        self.list.currentRowChanged.connect(lambda _row: self._show_current())
        self.tools.itemChanged.connect(self._tool_switched)
        gate.status_changed.connect(lambda _id, _status: self.refresh())
        self.refresh()

    def _button(self, text: str, slot: object, column: QVBoxLayout) -> QPushButton:
        button = QPushButton(text, self)
        button.clicked.connect(slot)
        column.addWidget(button)
        return button

    # -- reading ----------------------------------------------------------------------
    def servers(self) -> list[ToolServer]:
        try:
            return self.gate.servers.list()
        except ToolConfigInvalid as err:
            self._say(str(err))
            return []

    def current(self) -> ToolServer | None:
        item = self.list.currentItem()
        server_id = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return next((s for s in self.servers() if s.id == server_id), None)

    def refresh(self) -> None:
        keep = self.current()
        self.list.blockSignals(True)
        self.list.clear()
        for server in self.servers():
            status = self.gate.status(server)
            item = QListWidgetItem(f"{server.name} — {state_words(server, status)}\n"
                                   f"{server.command_line()}")
            item.setData(Qt.ItemDataRole.UserRole, server.id)
            self.list.addItem(item)
            if keep is not None and keep.id == server.id:
                self.list.setCurrentItem(item)
        if self.list.currentRow() < 0 and self.list.count():
            self.list.setCurrentRow(0)
        self.list.blockSignals(False)
        self._show_current()

    def _show_current(self) -> None:
        server = self.current()
        for button in (self.edit_button, self.switch_button, self.check_button,
                       self.remove_button):
            button.setEnabled(server is not None)
        self.tools.blockSignals(True)
        self.tools.clear()
        if server is None:
            self.detail.setText(translate("ToolsPage", "No tool servers yet. Add one, or "
                                          "import the mcpServers file of another client."))
            self.tools.blockSignals(False)
            return
        status = self.gate.status(server)
        self.switch_button.setText(translate("ToolsPage", "Switch o&ff") if server.enabled
                                   else translate("ToolsPage", "Switch o&n"))
        lines = [arg(translate("ToolsPage", "State: %1"), state_words(server, status)),
                 arg(translate("ToolsPage", "Runs: %1"), server.command_line())]
        if server.imported_from:
            lines.append(arg(translate("ToolsPage", "Imported from %1: nothing runs until "
                                       "you switch it on."), server.imported_from))
        if status.stderr_tail:
            lines.append(translate("ToolsPage", "Its error output ends:"))
            lines += [f"  {line}" for line in status.stderr_tail]
        self.detail.setText("\n".join(lines))
        for tool in status.tools:
            item = QListWidgetItem(f"{tool.name} — {tool.description}" if tool.description
                                   else tool.name)
            item.setData(Qt.ItemDataRole.UserRole, tool.name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if server.tool_on(tool.name)
                               else Qt.CheckState.Unchecked)
            self.tools.addItem(item)
        self.tools.blockSignals(False)

    def _say(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.setVisible(bool(text))

    # -- changing ---------------------------------------------------------------------
    def _save(self, server: ToolServer) -> bool:
        try:
            self.gate.servers.put(server)
        except ToolConfigInvalid as err:
            self._say(str(err))
            return False
        self._say("")
        self.refresh()
        self.changed.emit()
        return True

    def _tool_switched(self, item: QListWidgetItem) -> None:
        server = self.current()
        if server is None:
            return
        name = str(item.data(Qt.ItemDataRole.UserRole))
        off = set(server.tools_off)
        (off.discard if item.checkState() == Qt.CheckState.Checked else off.add)(name)
        self._save(replace(server, tools_off=frozenset(off)))

    def add(self) -> ToolServerEditor:
        return self._edit_with(ToolServerEditor(self))

    def edit(self) -> ToolServerEditor | None:
        server = self.current()
        return None if server is None else self._edit_with(ToolServerEditor(self, server))

    def _edit_with(self, editor: ToolServerEditor) -> ToolServerEditor:
        editor.accepted.connect(lambda: self._store_edited(editor.result_server))
        editor.open()
        return editor

    def _store_edited(self, edited: EditedServer | None) -> None:
        if edited is None:
            return
        settings_operations.store_tool_server_secrets(
            edited.server, edited.token, edited.env).run(
            self.runner, on_success=lambda _none: self._save(edited.server),
            on_failure=self._failed)

    def _failed(self, err: BaseException) -> None:
        if not isinstance(err, ToolConfigInvalid | KeyringUnavailable):
            raise err
        self._say(arg(translate("ToolsPage", "Not saved: %1"), str(err)))

    def switch(self) -> None:
        server = self.current()
        if server is not None:
            if server.enabled:
                self.runner.run(TaskRunner.NETWORK, "stop tool server",
                                lambda _c: self.gate.host.stop(server.id),
                                on_success=lambda _n: self.refresh(), on_failure=self._failed)
            self._save(replace(server, enabled=not server.enabled))

    def check(self) -> None:
        """Start the server now (on the network worker) to show its state and tools."""
        server = self.current()
        if server is None:
            return
        if not server.enabled:
            self._say(translate("ToolsPage", "Switch the server on first: nothing of it runs "
                                "while it is off."))
            return

        def work(_context: TaskContext) -> ServerStatus:
            keys = None
            if server.has_token or any(v.secret for v in server.env):
                keys = open_key_store()
            return self.gate.host.ensure_started(server.id, launch_for(server, keys))

        self.runner.run(TaskRunner.NETWORK, "check tool server", work,
                        on_success=lambda _s: self.refresh(), on_failure=self._failed)

    def remove(self) -> None:
        server = self.current()
        if server is None:
            return
        self.gate.servers.remove(server.id)

        settings_operations.remove_tool_server(self.gate.host, server).run(
            self.runner, on_success=lambda _n: self.refresh(), on_failure=self._failed)
        self.refresh()
        self.changed.emit()

    def import_file(self, path: str | None = None) -> None:
        """Servers from another client's `mcpServers` file, all switched off."""
        if path is None:
            path, _filter = QFileDialog.getOpenFileName(
                self, translate("ToolsPage", "Import tool servers"), str(Path.home()),
                translate("ToolsPage", "MCP server lists (*.json)"))
            if not path:
                return
        try:
            imported = read_mcp_servers(Path(path))
        except ToolConfigInvalid as err:
            self._say(arg(translate("ToolsPage", "Nothing was imported: %1"), str(err)))
            return

        def done(_added: list[ToolServer]) -> None:
            self._say("")
            self.refresh()
            self.changed.emit()

        settings_operations.import_tool_servers(self.gate.servers, imported).run(
            self.runner, on_success=done, on_failure=self._failed)


class ConversationTools(QWidget):
    """This conversation's tool switches: one box per server that is switched on (off by
    default: a conversation uses no tools until the person switches them on here)."""

    def __init__(self, gate: ToolGate | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.gate = gate
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.boxes: dict[str, QCheckBox] = {}
        self._on: tuple[str, ...] = ()
        self.none = QLabel(self)
        self.none.setWordWrap(True)
        self.column.addWidget(self.none)
        self.refresh()

    def fill(self, on: tuple[str, ...]) -> None:
        self._on = on
        for server_id, box in self.boxes.items():
            box.setChecked(server_id in on)

    def refresh(self) -> None:
        checked = set(self.chosen(self._on))
        for box in self.boxes.values():
            box.deleteLater()
        self.boxes = {}
        servers = [s for s in self.gate.servers.list() if s.enabled] if self.gate else []
        for server in servers:
            box = QCheckBox(arg(translate("ToolsPage", "Use the tools of %1"), server.name),
                            self)
            box.setChecked(server.id in checked)
            self.column.addWidget(box)
            self.boxes[server.id] = box
        self.none.setText(translate("ToolsPage", "No tool servers are switched on (Settings → "
                                    "Tools)."))
        self.none.setVisible(not servers)

    def chosen(self, before: tuple[str, ...]) -> tuple[str, ...]:
        """The servers switched on here: the boxes ticked, and any server of `before` that
        has no box now (switched off in Tools: it comes back on when switched on again)."""
        ticked = [server_id for server_id, box in self.boxes.items() if box.isChecked()]
        return tuple(ticked + [s for s in before if s not in self.boxes])
