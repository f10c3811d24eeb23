"""The open conversation's state has one owner, changed only through the change bus.

DESIGN.md: "the open conversation's state lives in one object, changed only through the
typed change bus; nobody writes another object's fields." The conversation open in the
window, its newest summary, its memory and the turn edit and resend makes a new version
of live in `ui/shell/open_conversation.py` (`OpenConversation`). Everyone else reads
them from it and asks for a change on the bus (`ChangeHub.ask`, an `OpenChange` with its
origin); the owner applies it before any view hears it.

Read from the sources with `ast`:
- outside the owner, no attribute named like that state (`conversation`, `summary`,
  `memory`, `editing`) is assigned anywhere in ui/ — not a copy of one's own
  (`self.summary = …`), not through another object (`window.conversation = …`) — but for
  the few named below that hold something else under the same name;
- only the owner listens for what is asked (`….asked.connect`), and nothing emits on
  the bus's signals but the bus itself (`….asked.emit`).

The last tests plant violations in a copy of the package and see them named; the first
ones drive the owner and a real window.
"""

from __future__ import annotations

import ast
import shutil
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

import turnlog
from turnlog.core.compaction import StoredSummary
from turnlog.core.memory import NO_MEMORY, Memory
from turnlog.core.model import Conversation
from turnlog.ui.infra import operations
from turnlog.ui.infra.changes import ChangeHub, Changes, OpenChange
from turnlog.ui.shell.open_conversation import OpenConversation
from window_sending import open_window

pytest_plugins = ["uiwindow"]

PACKAGE_DIR = Path(turnlog.__file__).parent
OWNER = "turnlog/ui/shell/open_conversation.py"
BUS = "turnlog/ui/infra/changes.py"  # `ChangeHub.ask` emits what is asked
STATE = ("conversation", "summary", "memory", "editing")
# (module, class, field): something else under a state's name.
ELSEWHERE = {
    ("turnlog/ui/dialogs/settings.py", "SettingsDialog", "conversation"),  # the one whose
    # settings the dialog edits (saved by a named operation, announced on the bus)
    ("turnlog/ui/dialogs/import_export.py", "ReportDialog", "summary"),  # a label
    ("turnlog/ui/dialogs/window_in_effect.py", "WindowInEffect", "summary"),  # a label
    ("turnlog/ui/shell/window.py", "MainWindow", "memory"),  # the Memory dock's controls
}


def _classes(tree: ast.Module) -> dict[ast.AST, str]:
    """Each node of `tree` → the name of the class it is inside ("" for none)."""
    inside: dict[ast.AST, str] = {}

    def visit(node: ast.AST, name: str) -> None:
        for child in ast.iter_child_nodes(node):
            inside[child] = name
            visit(child, child.name if isinstance(child, ast.ClassDef) else name)

    visit(tree, "")
    return inside


def state_violations(package_dir: Path) -> list[str]:
    """'path:line: …' for every write of the open conversation's state outside its owner,
    and every listener to or emitter on the bus's asks."""
    found = []
    for path in sorted((package_dir / "ui").rglob("*.py")):
        where = path.relative_to(package_dir.parent).as_posix()
        if where == OWNER:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        inside = _classes(tree)
        for node in ast.walk(tree):
            if where != BUS and isinstance(node, ast.Call) \
                    and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("connect", "emit") \
                    and isinstance(node.func.value, ast.Attribute) \
                    and node.func.value.attr == "asked":
                found.append(f"{where}:{node.lineno}: `{ast.unparse(node.func)}(…)` — only "
                             "the open conversation's owner hears what is asked; ask with "
                             "ChangeHub.ask")
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            for target in (t for top in targets for t in ast.walk(top)):
                if isinstance(target, ast.Attribute) and isinstance(target.ctx, ast.Store) \
                        and target.attr in STATE and (where, inside.get(node, ""),
                                                      target.attr) not in ELSEWHERE:
                    found.append(f"{where}:{target.lineno}: `{ast.unparse(target)} = …` "
                                 "writes the open conversation's state outside its owner — "
                                 "ask OpenConversation on the change bus")
    return sorted(found)


def test_only_the_owner_writes_the_open_conversations_state():
    assert state_violations(PACKAGE_DIR) == []


def test_what_is_allowed_elsewhere_still_exists():
    """An allowance whose field went away is dropped, not kept as a hole in the rule."""
    for module, cls, field in ELSEWHERE:
        tree = ast.parse((PACKAGE_DIR.parent / module).read_text(encoding="utf-8"))
        inside = _classes(tree)
        assert any(isinstance(n, ast.Attribute) and n.attr == field
                   and isinstance(n.ctx, ast.Store) and inside.get(n) is not None
                   for n in ast.walk(tree)), (module, cls, field)
        assert any(isinstance(n, ast.ClassDef) and n.name == cls for n in ast.walk(tree))


# ------------------------------------------------------------------------- the owner
def _summary(conversation_id: int, content: str = "so far") -> StoredSummary:
    return StoredSummary(7, conversation_id, 1, 1, 1, "digest", content, "m", "key",
                         datetime(2026, 1, 1, tzinfo=UTC), len(content), 2)


def test_the_owner_applies_what_is_asked_and_announced(qapp):
    hub = ChangeHub()
    owner = OpenConversation(hub)
    heard = []
    hub.asked.connect(lambda change, origin: heard.append((owner.conversation, origin)))
    one, two = Conversation(1, "one"), Conversation(2, "two")
    hub.ask(OpenChange.opening(one), "sidebar")
    assert heard == [(one, "sidebar")]  # a view hearing the ask reads the state it made
    memory = Memory(share_percent=12)
    for change in (OpenChange.summary_read(1, _summary(1)), OpenChange.memory_read(1, memory),
                   OpenChange.summary_read(2, _summary(2, "late")),  # another's: ignored
                   OpenChange.memory_read(2, Memory(share_percent=3)),
                   OpenChange.edit(1, "turn-b")):
        hub.ask(change, "a view")
    assert (owner.summary, owner.memory, owner.turn_for(1), owner.turn_for(2)) == (
        _summary(1), memory, "turn-b", None)
    renamed = replace(one, title="renamed")
    hub.publish(Changes(conversation=renamed, renamed=True), "header")
    hub.publish(Changes(conversation=replace(two, title="other"), renamed=True), "header")
    assert owner.conversation == renamed and owner.summary == _summary(1)
    hub.publish(Changes(turns_deleted=("a",), turns_of=2, summary=None), "delete")
    assert owner.summary == _summary(1)  # another conversation's turn
    hub.publish(Changes(turns_deleted=("a",), turns_of=1, summary=None), "delete")
    assert owner.summary is None  # the summary covered the deleted turn
    hub.ask(OpenChange.opening(replace(renamed, title="again")), "sidebar")  # the same one
    assert (owner.conversation.title, owner.memory) == ("again", memory)
    hub.ask(OpenChange.opening(two), "sidebar")  # nothing of the last one stays
    assert (owner.conversation, owner.summary, owner.memory) == (two, None, NO_MEMORY)
    hub.ask(OpenChange.leave_edit(), "versions")
    assert owner.editing is None


def test_the_window_reads_the_state_and_a_rename_reaches_it(qtbot, make_window, store):
    window, cid = open_window(qtbot, make_window, store, [("Where?", "Here.")])
    assert window.conversation is window.open_state.conversation is not None
    with pytest.raises(AttributeError):
        window.conversation = None  # nobody writes it: a change is asked on the bus
    operations.rename_conversation(store, cid, "Named on the bus").announce(
        window.runner, window.changes, "test", on_failure=pytest.fail)
    qtbot.waitUntil(lambda: window.title.text() == "Named on the bus", timeout=5000)
    assert window.open_state.conversation.title == "Named on the bus"
    assert window.preview.summary is window.open_state.summary
    assert window.preview.memory is window.open_state.memory


# ------------------------------------------------------------ planted violations
@pytest.fixture
def copy(tmp_path):
    target = tmp_path / "turnlog"
    shutil.copytree(PACKAGE_DIR, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def plant(copy: Path, relative: str, code: str) -> int:
    """Append `code` to a module of the copy; the line its last line lands on."""
    path = copy / relative
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "\n\n" + code + "\n", encoding="utf-8")
    return len(text.splitlines()) + 3 + code.count("\n")


@pytest.mark.parametrize("relative, code, expected", [
    ("ui/request/live_preview.py", "class Kept:\n    def adopt(self, summary):\n"
     "        self.summary = summary", "`self.summary = …` writes the open conversation's"),
    ("ui/panels/memory/dock.py", "def adopt(window, conversation):\n"
     "    window.conversation = conversation", "`window.conversation = …` writes"),
    ("ui/conversation/versions.py", "def loaded(parts, memory):\n"
     "    parts.preview.memory = memory", "`parts.preview.memory = …` writes"),
    ("ui/shell/window.py", "class Other:\n    def edit(self, turn):\n"
     "        self.editing: object = turn", "`self.editing = …` writes"),
    ("ui/conversation/partial_answers.py", "def overhear(hub, slot):\n"
     "    hub.asked.connect(slot)", "`hub.asked.connect(…)` — only the open conversation's"),
])
def test_a_planted_write_of_the_state_is_named(copy, relative, code, expected):
    assert state_violations(copy) == []
    line = plant(copy, relative, code)
    assert f"turnlog/{relative}:{line}: {expected}" in "\n".join(state_violations(copy)), \
        state_violations(copy)
