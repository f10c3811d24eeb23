"""Settings → Assistants: saved setups a new conversation starts from — add, edit,
duplicate, remove, reorder; import and export as a JSON file (`formats.assistant_file`);
examples (English and Chinese) that join the list only when added.

Every change is saved at once on the storage worker; files are read there too, through
the one bounded reader. An import lists each assistant's prompt as written and the tool
servers it would switch on (only those set up here) before anything is added.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core.assistants import Assistant, AssistantNote, AssistantRefused, AssistantSetup
from ...core.attachments import Attachment, AttachmentRefused
from ...formats import assistant_file
from ...formats.assistant_examples import examples
from ...store import TurnlogStore
from ..infra import assistant_operations as ops
from ..infra.languages import arg
from ..infra.operations import StorageOp
from ..infra.tasks import TaskRunner

log = logging.getLogger(__name__)
translate = QCoreApplication.translate  # translate("AssistantsPage", …): lupdate reads it
NO_SAMPLING = -0.1  # the spin boxes' special value: leave it to the server


def _lines(edit: QPlainTextEdit) -> tuple[str, ...]:
    return tuple(line.strip() for line in edit.toPlainText().splitlines() if line.strip())


class AssistantsPage(QWidget):
    """The assistants of `store`, in order, and the form of the one chosen. `changed`
    after every saved change. `servers` names the tool servers set up here; `confirm`
    asks before an import or a remove (a message box unless given)."""

    changed = Signal()

    def __init__(self, store: TurnlogStore, runner: TaskRunner,
                 servers: Callable[[], Sequence[str]], parent: QWidget | None = None, *,
                 confirm: Callable[[str], bool] | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("assistantsPage")
        self.store, self.runner, self.servers = store, runner, servers
        self._confirm = confirm or self._ask
        self.assistants: list[Assistant] = []
        self.files: tuple[Attachment, ...] = ()
        self._editing: int | None = None  # the assistant in the form (None: a new one)
        grid = QGridLayout(self)
        self.list = QListWidget(self)
        self.list.setAccessibleName(translate("AssistantsPage", "Assistants, in order"))
        grid.addWidget(self.list, 0, 0)
        grid.addLayout(self._buttons(), 0, 1)
        grid.addWidget(self._form(), 1, 0, 1, 2)
        self.problem = QLabel(self)
        self.problem.setObjectName("problem")
        self.problem.setWordWrap(True)
        self.problem.hide()
        grid.addWidget(self.problem, 2, 0, 1, 2)
        self.list.currentRowChanged.connect(lambda _row: self._show_current())
        self.refresh()

    # -- layout -------------------------------------------------------------------------
    def _button(self, text: str, slot: Callable[[], object], column: QVBoxLayout
                ) -> QPushButton:
        button = QPushButton(text, self)
        button.clicked.connect(lambda _checked=False: slot())
        column.addWidget(button)
        return button

    def _buttons(self) -> QVBoxLayout:
        column = QVBoxLayout()
        self.add_button = self._button(translate("AssistantsPage", "&Add"), self.new, column)
        self.duplicate_button = self._button(translate("AssistantsPage", "D&uplicate"),
                                             self.duplicate, column)
        self.remove_button = self._button(translate("AssistantsPage", "&Remove"),
                                          self.remove, column)
        self.up_button = self._button(translate("AssistantsPage", "Move u&p"),
                                      lambda: self.move(-1), column)
        self.down_button = self._button(translate("AssistantsPage", "Move do&wn"),
                                        lambda: self.move(1), column)
        self.import_button = self._button(translate("AssistantsPage", "&Import…"),
                                          self.import_file, column)
        self.export_button = self._button(translate("AssistantsPage", "E&xport…"),
                                          self.export_file, column)
        self.examples_button = QPushButton(translate("AssistantsPage", "Exa&mples"), self)
        menu = QMenu(self.examples_button)
        for example in examples():
            action = menu.addAction(f"{example.setup.icon} {example.setup.name}".strip())
            action.triggered.connect(lambda _c=False, e=example: self.add_example(e))
        self.examples_button.setMenu(menu)
        column.addWidget(self.examples_button)
        column.addStretch(1)
        return column

    def _form(self) -> QWidget:
        box = QWidget(self)
        form = QFormLayout(box)
        form.setContentsMargins(0, 0, 0, 0)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.name, self.icon = QLineEdit(box), QLineEdit(box)
        self.icon.setMaxLength(16)
        self.icon.setPlaceholderText("📝")
        form.addRow(translate("AssistantsPage", "&Name:"), self.name)
        form.addRow(translate("AssistantsPage", "I&con:"), self.icon)
        self.prompt = self._text(box, translate("AssistantsPage", "System prompt"), 6)
        self.prompt.setPlaceholderText(translate(
            "AssistantsPage", "{{date}}, {{time}}, {{language}}, {{model}} and your own "
            "{{names}} are filled when a conversation starts; {{{{ writes {{"))
        form.addRow(translate("AssistantsPage", "&System prompt:"), self.prompt)
        self.profile, self.model = QLineEdit(box), QLineEdit(box)
        self.profile.setPlaceholderText(translate("AssistantsPage", "the default"))
        self.model.setPlaceholderText(translate("AssistantsPage", "the profile's"))
        form.addRow(translate("AssistantsPage", "&Profile:"), self.profile)
        form.addRow(translate("AssistantsPage", "&Model:"), self.model)
        self.temperature = self._sampling(box, 2.0)
        self.top_p = self._sampling(box, 1.0)
        form.addRow(translate("AssistantsPage", "&Temperature:"), self.temperature)
        form.addRow(translate("AssistantsPage", "Top &p:"), self.top_p)
        self.pins = self._text(box, translate("AssistantsPage", "Pinned facts"), 3)
        self.pins.setPlaceholderText(translate("AssistantsPage", "One per line"))
        self.notes = self._text(box, translate("AssistantsPage", "Notes"), 3)
        self.notes.setPlaceholderText(translate("AssistantsPage", "One per line"))
        form.addRow(translate("AssistantsPage", "Pinned &facts:"), self.pins)
        form.addRow(translate("AssistantsPage", "N&otes:"), self.notes)
        self.tools = QListWidget(box)
        self.tools.setAccessibleName(translate("AssistantsPage", "Tool servers it switches on"))
        self.tools.setMaximumHeight(self.fontMetrics().lineSpacing() * 4 + 10)
        form.addRow(translate("AssistantsPage", "Tools:"), self.tools)
        form.addRow(translate("AssistantsPage", "Files:"), self._files_row(box))
        self.folder = QComboBox(box)
        self.folder.setAccessibleName(translate(
            "AssistantsPage", "The folder its conversations start in"))
        self.folder.addItem(translate("AssistantsPage", "(none)"), "")
        form.addRow(translate("AssistantsPage", "Fol&der:"), self.folder)
        self.save_button = QPushButton(translate("AssistantsPage", "&Save assistant"), box)
        self.save_button.clicked.connect(lambda _checked=False: self.save())
        form.addRow("", self.save_button)
        return box

    def _files_row(self, box: QWidget) -> QWidget:
        row = QWidget(box)
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        self.file_list = QLabel(row)
        self.file_list.setWordWrap(True)
        self.file_list.setTextFormat(Qt.TextFormat.PlainText)
        line.addWidget(self.file_list, 1)
        attach = QPushButton(translate("AssistantsPage", "A&ttach…"), row)
        attach.clicked.connect(lambda _checked=False: self.attach_dialog())
        clear = QPushButton(translate("AssistantsPage", "No files"), row)
        clear.clicked.connect(lambda _checked=False: self.set_files(()))
        line.addWidget(attach)
        line.addWidget(clear)
        return row

    def _text(self, box: QWidget, name: str, lines: int) -> QPlainTextEdit:
        edit = QPlainTextEdit(box)
        edit.setAccessibleName(name)
        edit.setTabChangesFocus(True)
        edit.setMaximumHeight(self.fontMetrics().lineSpacing() * lines + 14)
        return edit

    def _sampling(self, box: QWidget, high: float) -> QDoubleSpinBox:
        spin = QDoubleSpinBox(box)
        spin.setRange(NO_SAMPLING, high)
        spin.setSingleStep(0.1)
        spin.setDecimals(2)
        spin.setSpecialValueText(translate("AssistantsPage", "server default"))
        spin.setValue(NO_SAMPLING)
        return spin

    # -- reading ------------------------------------------------------------------------
    def _run(self, op: StorageOp[Any], then: Callable[[Any], None] | None = None) -> None:
        """Run a change, then list the assistants again."""
        def done(result: object) -> None:
            if then is not None:
                then(result)
            self.refresh()
            self.changed.emit()

        op.run(self.runner, on_success=done, on_failure=self._failed)

    def _failed(self, error: BaseException) -> None:
        if not isinstance(error, AssistantRefused | AttachmentRefused
                          | assistant_file.AssistantFileInvalid) and not hasattr(error, "kind"):
            raise error  # a bug: the window's report shows it
        self._say(str(error))

    def _say(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.setVisible(bool(text))

    def refresh(self) -> None:
        ops.folder_names(self.store).run(self.runner, on_success=self._folders_read,
                                         on_failure=self._failed)
        ops.list_assistants(self.store).run(self.runner, on_success=self._listed,
                                            on_failure=self._failed)

    def _folders_read(self, names: list[str]) -> None:
        """The folders that exist now, after "(none)"; the choice shown is kept."""
        chosen = str(self.folder.currentData() or "")
        self.folder.blockSignals(True)
        while self.folder.count() > 1:
            self.folder.removeItem(1)
        for name in names:
            self.folder.addItem(name, name)
        self.folder.blockSignals(False)
        self._choose_folder(chosen)

    def _choose_folder(self, name: str) -> None:
        index = self.folder.findData(name)
        if index < 0:  # named by the assistant, not listed yet
            self.folder.addItem(name, name)
            index = self.folder.count() - 1
        self.folder.setCurrentIndex(index)

    def _listed(self, found: list[Assistant]) -> None:
        keep = self._editing
        self.assistants = found
        self.list.blockSignals(True)
        self.list.clear()
        for assistant in found:
            item = QListWidgetItem(assistant.label)
            item.setData(Qt.ItemDataRole.UserRole, assistant.id)
            self.list.addItem(item)
            if assistant.id == keep:
                self.list.setCurrentItem(item)
        if self.list.currentRow() < 0 and self.list.count() and keep is None \
                and not self.name.text():
            self.list.setCurrentRow(0)
        self.list.blockSignals(False)
        self._show_current()

    def current(self) -> Assistant | None:
        row = self.list.currentRow()
        return self.assistants[row] if 0 <= row < len(self.assistants) else None

    def _show_current(self) -> None:
        assistant = self.current()
        for button in (self.duplicate_button, self.remove_button, self.up_button,
                       self.down_button):
            button.setEnabled(assistant is not None)
        if assistant is None or assistant.id == self._editing and self.name.isModified():
            return
        self._editing = assistant.id
        self.fill(assistant.setup)
        ops.assistant_files(self.store, assistant.id).run(
            self.runner, on_success=self._files_read, on_failure=self._failed)

    def _files_read(self, files: tuple[Attachment, ...]) -> None:
        self.set_files(files)

    def fill(self, setup: AssistantSetup) -> None:
        """Show `setup` in the form."""
        self.name.setText(setup.name)
        self.icon.setText(setup.icon)
        self.prompt.setPlainText(setup.system_prompt)
        self.profile.setText(setup.profile)
        self.model.setText(setup.model)
        self.temperature.setValue(NO_SAMPLING if setup.temperature is None
                                  else setup.temperature)
        self.top_p.setValue(NO_SAMPLING if setup.top_p is None else setup.top_p)
        self.pins.setPlainText("\n".join(setup.pins))
        self.notes.setPlainText("\n".join(n.text for n in setup.notes))
        self.tools.clear()
        for name in sorted({*self.servers(), *setup.tools}):
            item = QListWidgetItem(name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if name in setup.tools
                               else Qt.CheckState.Unchecked)
            self.tools.addItem(item)
        self._choose_folder(setup.folder)
        self._say("")

    def set_files(self, files: Sequence[Attachment]) -> None:
        self.files = tuple(files)
        self.file_list.setText(", ".join(f.name for f in self.files)
                               or translate("AssistantsPage", "(none)"))

    def setup(self) -> AssistantSetup:
        """The setup the form shows."""
        def sampling(spin: QDoubleSpinBox) -> float | None:
            return None if spin.value() <= NO_SAMPLING + 1e-9 else round(spin.value(), 2)

        here = set(self.servers())
        tools = tuple(self.tools.item(i).text() for i in range(self.tools.count())
                      if self.tools.item(i).checkState() == Qt.CheckState.Checked
                      and self.tools.item(i).text() in here)
        return AssistantSetup(
            name=self.name.text(), icon=self.icon.text().strip(),
            system_prompt=self.prompt.toPlainText(), profile=self.profile.text().strip(),
            model=self.model.text().strip(), temperature=sampling(self.temperature),
            top_p=sampling(self.top_p), pins=_lines(self.pins),
            notes=tuple(AssistantNote(t) for t in _lines(self.notes)), tools=tools,
            folder=str(self.folder.currentData() or ""))

    # -- changes ------------------------------------------------------------------------
    def new(self) -> None:
        """An empty form: Save adds it."""
        self._editing = None
        self.list.clearSelection()
        self.list.setCurrentRow(-1)
        self.fill(AssistantSetup(""))
        self.set_files(())
        self.name.setFocus()

    def save(self) -> None:
        try:
            setup = self.setup().checked()
        except AssistantRefused as err:
            self._say(str(err))
            return
        if self._editing is None:
            self._run(ops.add_assistant(self.store, setup, self.files), self._made)
        else:
            self._run(ops.save_assistant(self.store, self._editing, setup, self.files),
                      self._made)

    def _made(self, assistant: object) -> None:
        if isinstance(assistant, Assistant):
            self._editing = assistant.id
            self.name.setModified(False)

    def duplicate(self) -> None:
        current = self.current()
        if current is not None:
            self._run(ops.duplicate_assistant(self.store, current.id), self._made)

    def remove(self) -> None:
        current = self.current()
        if current is None or not self._confirm(arg(translate(
                "AssistantsPage", "Remove the assistant %1 and its files? Conversations it "
                "started stay as they are."), current.label)):
            return
        self._editing = None
        self.name.clear()
        self._run(ops.delete_assistant(self.store, current.id))

    def move(self, step: int) -> None:
        current, row = self.current(), self.list.currentRow()
        if current is not None and 0 <= row + step < len(self.assistants):
            self._run(ops.move_assistant(self.store, current.id, row + step))

    def add_example(self, example: assistant_file.Shared) -> None:
        """Add one of the shipped examples (under a free name)."""
        taken = {a.name for a in self.assistants}
        name, n = example.setup.name, 2
        while name in taken:
            name, n = f"{example.setup.name} ({n})", n + 1
        setup = replace(example.setup, name=name)
        self._editing = None
        self._run(ops.add_assistant(self.store, setup, example.files), self._made)

    # -- files --------------------------------------------------------------------------
    def attach_dialog(self) -> None:
        names, _filter = QFileDialog.getOpenFileNames(
            self, translate("AssistantsPage", "Files attached to every first question"))
        if names:
            self.attach([Path(n) for n in names])

    def attach(self, paths: Sequence[Path]) -> None:
        """Read the files (on the storage worker, through the bounded reader) and add them
        to the form's; Save keeps them."""
        ops.read_attachments(self.files, paths).run(
            self.runner, on_success=self._files_read, on_failure=self._failed)

    # -- import and export --------------------------------------------------------------
    def import_file(self) -> None:
        name, _filter = QFileDialog.getOpenFileName(
            self, translate("AssistantsPage", "Import assistants"), "",
            translate("AssistantsPage", "Assistants (*.json)"))
        if name:
            self.import_from(Path(name))

    def import_from(self, path: Path) -> None:
        """Read `path` on the storage worker, list what it holds, add it if the person
        agrees."""
        ops.read_assistants_file(path, set(self.servers())).run(
            self.runner, on_success=self._read_for_import, on_failure=self._failed)

    def _read_for_import(self, shared: list[assistant_file.Shared]) -> None:
        if not shared or not self._confirm(import_question(shared)):
            return
        taken = {a.name for a in self.assistants}
        chosen = []
        for one in shared:
            name, n = one.setup.name, 2
            while name in taken:
                name, n = f"{one.setup.name} ({n})", n + 1
            taken.add(name)
            chosen.append(replace(one, setup=replace(one.setup, name=name)))
        self._run(ops.import_assistants(self.store, chosen))

    def export_file(self) -> None:
        name, _filter = QFileDialog.getSaveFileName(
            self, translate("AssistantsPage", "Export assistants"), "assistants.json",
            translate("AssistantsPage", "Assistants (*.json)"))
        if name:
            self.export_to(Path(name))

    def export_to(self, path: Path) -> None:
        ops.export_assistants(self.store, path).run(
            self.runner, on_success=lambda _none: self._say(
                arg(translate("AssistantsPage", "Saved to %1."), path.name)),
            on_failure=lambda err: self._say(str(err)))

    def _ask(self, question: str) -> bool:
        answer = QMessageBox.question(self, translate("AssistantsPage", "Assistants"), question)
        return answer == QMessageBox.StandardButton.Yes


def import_question(shared: Sequence[assistant_file.Shared]) -> str:
    """What an import would add, prompts as written and the tool servers each switches
    on (and those it names that are not set up here)."""
    parts = []
    for one in shared:
        setup = one.setup
        lines = [f"{setup.icon} {setup.name}".strip(), setup.system_prompt,
                 arg(translate("AssistantsPage", "Switches on: %1"),
                     ", ".join(setup.tools) or translate("AssistantsPage", "no tool server"))]
        if one.left_out:
            lines.append(arg(translate("AssistantsPage", "Not set up here, left off: %1"),
                             ", ".join(one.left_out)))
        parts.append("\n".join(lines))
    return translate("AssistantsPage", "Add these assistants?") + "\n\n" + "\n\n".join(parts)
