"""An opened store owns its database: two data directories open side by side in one
process (and in two threads) each keep their own log, and a privacy delete in one leaves
the other's files untouched (byte scan, as the privacy tests scan).

With it, the architecture rule that keeps it so: nothing in `store/` holds a global or
proxied database, binds the tables process-wide, or reaches into another part's private
members (each rule proven by a planted violation).
"""

from __future__ import annotations

import ast
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from places import DESKTOP
from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore

STORE_DIR = DESKTOP / "turnlog" / "store"


def pending(turn_id: str, text: str) -> PendingTurn:
    return PendingTurn(turn_id, f"{text} question", f"{text} answer", "m", "stop", Usage(),
                       datetime.now(UTC))


def files_holding(home: Path, needle: bytes) -> list[str]:
    return sorted(path.name for path in home.rglob("*")
                  if path.is_file() and needle in path.read_bytes())


def fill(store: TurnlogStore, secret: str, turns: int) -> int:
    conversation = store.conversations.create(f"{secret} title")
    for index in range(turns):
        store.turns.commit(conversation.id, pending(f"{secret}-{index}", f"{secret} {index}"))
    store.memory.add_pin(conversation.id, f"{secret} pin", sources=[f"{secret}-0"])
    store.memory.add_note(conversation.id, f"{secret} note")
    return conversation.id


def read_back(store: TurnlogStore, cid: int) -> tuple[str, list[str], list[str], list[str]]:
    return (store.conversations.get(cid).title,
            [t.question for t in store.turns.active(cid)],
            [p.text for p in store.memory.pins(cid)],
            [n.text for n in store.memory.notes(cid)])


def expected(secret: str, turns: int) -> tuple[str, list[str], list[str], list[str]]:
    return (f"{secret} title", [f"{secret} {i} question" for i in range(turns)],
            [f"{secret} pin"], [f"{secret} note"])


def test_two_data_directories_open_in_one_process_keep_their_own_logs(tmp_path):
    with TurnlogStore.open(tmp_path / "a") as a, TurnlogStore.open(tmp_path / "b") as b:
        # Interleaved: each write goes to the store that makes it, never to the last opened.
        ca = a.conversations.create("ALPACA title")
        cb = b.conversations.create("BISON title")
        for index in range(5):
            a.turns.commit(ca.id, pending(f"a{index}", f"ALPACA {index}"))
            b.turns.commit(cb.id, pending(f"b{index}", f"BISON {index}"))
        assert [c.title for c in a.conversations()] == ["ALPACA title"]
        assert [c.title for c in b.conversations()] == ["BISON title"]
        assert [t.question for t in a.turns.active(ca.id)] == \
            [f"ALPACA {i} question" for i in range(5)]
        assert [t.question for t in b.turns.active(cb.id)] == \
            [f"BISON {i} question" for i in range(5)]
        assert len(a.turns.log(ca.id)) == 5 and len(b.turns.log(cb.id)) == 5
        assert [h.turn_id for h in a.search("BISON")] == []
    # Read again after closing both: on disk each holds only its own.
    with TurnlogStore.open(tmp_path / "a", readonly=True) as a:
        assert [t.id for t in a.turns.active(ca.id)] == [f"a{i}" for i in range(5)]
    assert files_holding(tmp_path / "a", b"BISON") == []
    assert files_holding(tmp_path / "b", b"ALPACA") == []


def test_two_threads_each_with_their_own_data_directory(tmp_path):
    results: dict[str, object] = {}
    start = threading.Barrier(2)

    def work(secret: str) -> None:
        try:
            with TurnlogStore.open(tmp_path / secret) as store:
                start.wait(timeout=30)
                cid = fill(store, secret, 40)
                results[secret] = read_back(store, cid)
        except BaseException as err:  # reported by the main thread
            results[secret] = err

    threads = [threading.Thread(target=work, args=(name,)) for name in ("OTTER", "HERON")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert results == {"OTTER": expected("OTTER", 40), "HERON": expected("HERON", 40)}
    assert files_holding(tmp_path / "OTTER", b"HERON") == []
    assert files_holding(tmp_path / "HERON", b"OTTER") == []


def test_a_delete_in_one_data_directory_leaves_the_other_untouched(tmp_path):
    with TurnlogStore.open(tmp_path / "gone") as gone, \
            TurnlogStore.open(tmp_path / "kept") as kept:
        fill(gone, "WALRUS", 30)
        cid = fill(kept, "PUFFIN", 30)
        kept.privacy.scrub()
        before = {p.name: p.read_bytes() for p in (tmp_path / "kept").iterdir()
                  if p.is_file() and not p.name.endswith("-shm")}
        gone.privacy.delete_all(preferences=True)
        assert files_holding(tmp_path / "gone", b"WALRUS") == []
        after = {p.name: p.read_bytes() for p in (tmp_path / "kept").iterdir()
                 if p.is_file() and not p.name.endswith("-shm")}
        assert after == before  # not a byte of the other directory changed
        assert files_holding(tmp_path / "kept", b"PUFFIN")
        assert read_back(kept, cid) == expected("PUFFIN", 30)
        assert gone.conversations() == []


# ------------------------------------------------------------------ the rule, checked
GLOBAL_DATABASE_CALLS = {"DatabaseProxy", "Proxy", "bind_ctx", "bind", "initialize"}
DATABASE_CLASSES = {"SqliteDatabase", "SqliteExtDatabase", "Database", "APSWDatabase"}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def global_databases(source: str, name: str) -> list[str]:
    """Where a module makes or binds a database that every store would share: a proxy, a
    process-wide `bind`/`bind_ctx`/`initialize`, a database made at module level, or a
    table class whose `Meta.database` is anything but None."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else \
                func.id if isinstance(func, ast.Name) else ""
            if called in GLOBAL_DATABASE_CALLS:
                found.append(f"{name}:{node.lineno} calls {called}")
        if isinstance(node, ast.ClassDef) and node.name == "Meta":
            for item in node.body:
                if isinstance(item, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == "database" for t in item.targets) \
                        and not (isinstance(item.value, ast.Constant)
                                 and item.value.value is None):
                    found.append(f"{name}:{item.lineno} binds a table to a database")
    for node in tree.body:  # module level
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            made = node.value
            if isinstance(made, ast.Call):
                func = made.func
                called = func.attr if isinstance(func, ast.Attribute) else \
                    func.id if isinstance(func, ast.Name) else ""
                if called in DATABASE_CLASSES:
                    found.append(f"{name}:{node.lineno} makes a module-level database")
    return found


def _defined(cls: ast.ClassDef) -> set[str]:
    """Names a class itself defines: its methods, class attributes and `self.x =`
    assignments (a stub under `if TYPE_CHECKING` defines nothing)."""
    names: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for item in body:
            if isinstance(item, ast.If) and _type_checking(item):
                continue
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                names.add(item.name)
                for sub in ast.walk(item):
                    targets = sub.targets if isinstance(sub, ast.Assign) else \
                        [sub.target] if isinstance(sub, ast.AnnAssign | ast.AugAssign) else []
                    for target in [e for t in targets for e in
                                   (t.elts if isinstance(t, ast.Tuple) else [t])]:
                        if isinstance(target, ast.Attribute) and \
                                isinstance(target.value, ast.Name) and target.value.id == "self":
                            names.add(target.attr)
            elif isinstance(item, ast.Assign):
                names.update(t.id for t in item.targets if isinstance(t, ast.Name))
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                names.add(item.target.id)
            elif isinstance(item, ast.If | ast.Try | ast.With):
                visit(item.body)
    visit(cls.body)
    return names


def private_reaches(sources: dict[str, str]) -> list[str]:
    """Where a part uses a private member it does not own: `other._x` on anything but
    `self`/`cls` (unless its own class defines `_x`), `self._x` that neither its class nor
    a base class of the store defines (a mixin reaching back), or `from .part import _x`."""
    trees = {name: ast.parse(text) for name, text in sources.items()}
    classes = {node.name: node for tree in trees.values() for node in ast.walk(tree)
               if isinstance(node, ast.ClassDef)}
    # Private names defined anywhere in the store (stubs under TYPE_CHECKING too); those
    # of other libraries (peewee's `_meta`, say) are not the store's parts' business.
    ours = {node.name for tree in trees.values() for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and node.name.startswith("_")} | {
        node.attr for tree in trees.values() for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name) and node.value.id == "self"
        and node.attr.startswith("_")}

    def owned(cls: ast.ClassDef) -> set[str]:
        names = set(_defined(cls))
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id in classes:
                names |= owned(classes[base.id])
        return names

    found = []
    for name, tree in trees.items():
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.level and any(
                    a.name.startswith("_") and not a.name.startswith("__") for a in node.names):
                found.append(f"{name}:{node.lineno} imports another part's private name")
        for node, cls in _with_class(tree, None):
            if not (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__") and node.attr in ours):
                continue
            if cls is None or node.attr not in owned(cls):
                owner = node.value.id if isinstance(node.value, ast.Name) else "…"
                found.append(f"{name}:{node.lineno} reaches {owner}.{node.attr}")
    return sorted(set(found))


def _with_class(node: ast.AST, cls: ast.ClassDef | None
                ) -> list[tuple[ast.AST, ast.ClassDef | None]]:
    """Every node under `node`, with the innermost class it sits in."""
    out: list[tuple[ast.AST, ast.ClassDef | None]] = []
    for child in ast.iter_child_nodes(node):
        out.append((child, cls))
        out += _with_class(child, child if isinstance(child, ast.ClassDef) else cls)
    return out


def store_sources() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(STORE_DIR.glob("*.py"))}


def test_no_global_or_proxied_database_in_store():
    found = [f for name, text in store_sources().items() for f in global_databases(text, name)]
    assert found == []


@pytest.mark.parametrize("planted", [
    "import peewee\ndatabase = peewee.DatabaseProxy()\n",
    "import peewee\nclass Row(peewee.Model):\n    class Meta:\n        database = db\n",
    "def run(db, models):\n    with db.bind_ctx(models):\n        pass\n",
    "def run(db, Row):\n    Row.bind(db)\n",
    "import peewee\ndb = peewee.SqliteDatabase('x')\n",
])
def test_a_planted_global_database_is_caught(planted):
    assert global_databases(planted, "planted.py")


def test_no_part_reaches_into_another_parts_private_members():
    assert private_reaches(store_sources()) == []


@pytest.mark.parametrize("planted", [
    # A mixin calling what only the class it is mixed into defines.
    "from typing import TYPE_CHECKING\nclass Memory:\n    if TYPE_CHECKING:\n"
    "        def _guard(self): ...\n    def pins(self):\n        with self._guard():\n"
    "            pass\n",
    # One part calling another part's private method.
    "class Turns:\n    def _need_writer(self):\n        pass\nclass Privacy:\n"
    "    def __init__(self, turns):\n        self.turns = turns\n"
    "    def delete(self):\n        self.turns._need_writer()\n",
    "from .log import _sync_folder\n",
])
def test_a_planted_private_reach_is_caught(planted):
    assert private_reaches({**store_sources(), "planted.py": planted})
