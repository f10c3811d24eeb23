"""The store is its named parts, and callers say which part does what.

`TurnlogStore` opens and closes a data directory and holds its parts (`store.turns`,
`store.conversations`, `store.records`, `store.memory`, ...); everything else is done by
a part, named at the call: `store.turns.commit(cid, pending)`, never a flat
`store.commit_turn(...)` that hands on to one. Two rules, read from the sources with
`ast`, each proven by a planted violation as `architecture/test_layers.py` plants its own:

1. `TurnlogStore` forwards nothing: no method or property that uses one part and
   nothing else of the store (that is the part's own business), no attribute set on the
   class itself (a forwarding descriptor), no `__getattr__`. An operation that spans
   parts may stay, with a docstring saying why.
2. Outside `store/`, no code asks the store itself for what a part owns: on a store
   (a name or attribute `store` / `_store`, or a name opened with `TurnlogStore.open` or
   annotated `TurnlogStore`), no attribute that is one of a part's and not the store's
   own (`store.commit(...)`, `store.pins(...)`, `store.writable`).

Left out of rule 2: `tests/data/make_fixtures.py`, run with each released version's own
code, and the benchmarks that measure an earlier revision the same way in one run
(`tests/bench/erase_window.py`, `tests/bench/compaction.py`): they call the flat names
such code had.
"""

from __future__ import annotations

import ast
import re
import textwrap
from functools import cached_property
from pathlib import Path

import pytest

from places import ROOT
from turnlog.store import TurnlogStore

PACKAGE = ROOT / "desktop" / "turnlog"
STORE_DIR = PACKAGE / "store"
STORE_MODULE = STORE_DIR / "log.py"
RUN_WITH_OLDER_CODE = {ROOT / "tests" / "data" / "make_fixtures.py",
                       ROOT / "tests" / "bench" / "erase_window.py",
                       ROOT / "tests" / "bench" / "compaction.py"}
STORE_NAMES = {"store", "_store"}


# ------------------------------------------------------------- rule 1: no forwarding
def _self_parts(node: ast.AST, parts: set[str]) -> set[str]:
    """The parts `self.<part>` that `node` reaches."""
    return {sub.attr for sub in ast.walk(node)
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name)
            and sub.value.id == "self" and sub.attr in parts}


def _self_attributes(node: ast.AST) -> set[str]:
    """Every `self.<name>` that `node` reaches."""
    return {sub.attr for sub in ast.walk(node)
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name)
            and sub.value.id == "self"}


def _body(function: ast.FunctionDef) -> list[ast.stmt]:
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[1:]
    return body


def forwarders(source: str, parts: set[str], class_name: str = "TurnlogStore") -> list[str]:
    """What class `class_name` in `source` forwards to one of its `parts`."""
    found = []
    (cls,) = [node for node in ast.walk(ast.parse(source))
              if isinstance(node, ast.ClassDef) and node.name == class_name]
    for item in cls.body:
        if isinstance(item, (ast.Assign, ast.AnnAssign)):
            targets = item.targets if isinstance(item, ast.Assign) else [item.target]
            names = ", ".join(ast.unparse(target) for target in targets)
            found.append(f"{names}: an attribute set on the class")
        elif isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if item.name == "__getattr__":
                found.append("__getattr__: hands any name on")
                continue
            if item.name in parts:  # a part made on first use (`records`), not a forwarder
                continue
            body = ast.Module(body=_body(item), type_ignores=[])
            reached = _self_parts(body, parts)
            if len(reached) == 1 and _self_attributes(body) == reached:
                found.append(f"{item.name}: only hands on to `{reached.pop()}`")
    return found


@pytest.fixture(scope="module")
def opened(tmp_path_factory: pytest.TempPathFactory):
    with TurnlogStore.open(tmp_path_factory.mktemp("parts")) as store:
        yield store


@pytest.fixture(scope="module")
def parts(opened: TurnlogStore) -> dict[str, object]:
    """The store's parts: its attributes that are objects of `turnlog.store`'s classes
    (each is made on first use)."""
    names = {name for name, value in vars(TurnlogStore).items()
             if isinstance(value, cached_property)}
    assert {"conversations", "turns", "records", "memory", "side", "search", "forks",
            "imports", "attachments", "privacy"} <= names
    for name in sorted(names):
        assert getattr(opened, name) is not None
    found = {name: value for name, value in vars(opened).items()
             if type(value).__module__.startswith("turnlog.store.")}
    assert names | {"database"} <= set(found)
    return found


def test_the_store_forwards_nothing_to_its_parts(parts):
    assert forwarders(STORE_MODULE.read_text(encoding="utf-8"), set(parts)) == []


PLANTED_STORE = '''
class _OldName:
    def __init__(self, part, name): ...

class TurnlogStore:
    """One opened data directory."""

    def __init__(self, home):
        self.turns = Turns()
        self.privacy = Privacy()
        self.database = Database()
        self.memory = Memory()

    commit_turn = _OldName("turns", "commit")

    def active_turns(self, conversation_id):
        return self.turns.active(conversation_id)

    @property
    def writable(self):
        """Whether it may write."""
        return self.database.writable

    def delete_all(self, *, preferences=False):
        return self.privacy.delete_all(preferences=preferences).counts

    def delete_turn(self, turn_id):
        report = self.privacy.delete_turn(turn_id)
        return report.conversation_id, report.counts

    def __getattr__(self, name):
        return getattr(self.turns, name)

    def close(self):
        """Stop the background erase, then close the database."""
        self.privacy.stop()
        self.database.close()

    def pins_of_active(self, conversation_id):
        """Spans two parts: the active line's turns, and the pins made from them."""
        return [self.memory.pins_of_turn(t.id) for t in self.turns.active(conversation_id)]
'''


def test_a_planted_forwarder_is_reported():
    assert forwarders(PLANTED_STORE, {"turns", "privacy", "database", "memory"}) == [
        "commit_turn: an attribute set on the class",
        "active_turns: only hands on to `turns`",
        "writable: only hands on to `database`",
        "delete_all: only hands on to `privacy`",
        "delete_turn: only hands on to `privacy`",
        "__getattr__: hands any name on",
    ]  # `close` and `pins_of_active` each span two parts: not forwarders


# ---------------------------------------------- rule 2: callers name the part they use
STORE_TYPES = re.compile(r"\b(TurnlogStore|ChatStore|LogStore|SideStore|TitleStore)\b")


def _opens_a_store(value: ast.AST | None) -> bool:
    return isinstance(value, ast.Call) and ast.unparse(value.func) in (
        "TurnlogStore.open", "TurnlogStore")


def _own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of `scope` outside the functions and classes it defines."""
    found, todo = [], list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        found.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return found


def _bindings(scope: ast.AST, outer: dict[str, bool]) -> dict[str, bool]:
    """Which names are a store in `scope` (True) and which are something else (False):
    opened with `TurnlogStore.open`, or annotated with the store's type or one of core's
    store protocols, is a store; `store` given another type, or made by another call
    (`store = ProfileStore()`), is not."""
    names = dict(outer)
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = scope.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            if arg.annotation is not None:
                names[arg.arg] = bool(STORE_TYPES.search(ast.unparse(arg.annotation)))
    for node in _own_nodes(scope):
        if isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
            names[node.optional_vars.id] = _opens_a_store(node.context_expr)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            opens = _opens_a_store(node.value)
            for target in node.targets:
                if isinstance(target, ast.Name) and (
                        opens or target.id in names or target.id in STORE_NAMES):
                    names[target.id] = opens or ast.unparse(node.value.func) == "paged"
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = bool(STORE_TYPES.search(ast.unparse(node.annotation)))
    return names


class _AsksTheStore(ast.NodeVisitor):
    def __init__(self, owned: set[str]) -> None:
        self.owned = owned
        self.scopes: list[dict[str, bool]] = [{}]
        self.found: list[tuple[int, str]] = []

    def _scope(self, node: ast.AST) -> None:
        self.scopes.append(_bindings(node, self.scopes[-1]))
        self.generic_visit(node)
        self.scopes.pop()

    visit_Module = visit_FunctionDef = visit_AsyncFunctionDef = _scope

    def _is_store(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return self.scopes[-1].get(node.id, node.id in STORE_NAMES)
        return isinstance(node, ast.Attribute) and node.attr in STORE_NAMES

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in self.owned and self._is_store(node.value):
            self.found.append((node.lineno, ast.unparse(node)))
        self.generic_visit(node)


def part_owned(parts: dict[str, object]) -> set[str]:
    """What a part has and the store itself does not: methods, properties, attributes."""
    names = set()
    for part in parts.values():
        names.update(name for name in [*dir(type(part)), *vars(part)]
                     if not name.startswith("_"))
    store_own = {name for name in [*dir(TurnlogStore), *parts, "home", "path", "db"]
                 if not name.startswith("_")}
    return names - store_own


def asks_the_store(source: str, owned: set[str]) -> list[tuple[int, str]]:
    """Where `source` asks a store itself for something one of its parts owns."""
    visitor = _AsksTheStore(owned)
    visitor.visit(ast.parse(source))
    return visitor.found


def python_sources() -> list[Path]:
    files = [*PACKAGE.rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
    return sorted(path for path in files
                  if STORE_DIR not in path.parents and path not in RUN_WITH_OLDER_CODE
                  and "node_modules" not in path.parts)


def test_callers_name_the_part_that_does_it(parts):
    owned = part_owned(parts)
    assert {"commit", "active", "pins", "add", "writable", "check_sound"} <= owned
    found = [f"{path.relative_to(ROOT)}:{line}: {text}"
             for path in python_sources()
             for line, text in asks_the_store(path.read_text(encoding="utf-8"), owned)]
    assert found == []


PLANTED_CALLERS = '''
from turnlog.store import TurnlogStore


def send(store, pending):
    store.turns.commit(1, pending)          # the part named: fine
    return store.commit(1, pending)         # asks the store for the turns' commit


class Panel:
    def refresh(self, cid):
        self._store.memory.pins(cid)        # fine
        return self.host.store.pins(cid)    # asks the store for the memory's pins


def check(home, cid):
    with TurnlogStore.open(home) as opened:
        if not opened.writable:             # the database's, asked of the store
            return opened.database.damage   # fine
        opened.close()                      # the store's own
    kept: TurnlogStore = TurnlogStore.open(home)
    return kept.active(cid), kept.turns(cid)  # the turns' active line; calling a part


def handed_in(store, cid):
    return store.get(cid)                   # a store handed in: the conversations' get


def elsewhere(keys):
    store = keys()                          # made by another call: a key store, whose
    return store.get("profile")             # `get` is its own


def profiles(store: ProfileStore):
    return store.list()                     # another kind of store, by its type
'''


def test_planted_calls_on_the_store_are_reported(parts):
    found = asks_the_store(textwrap.dedent(PLANTED_CALLERS), part_owned(parts))
    assert found == [
        (7, "store.commit"),
        (13, "self.host.store.pins"),
        (18, "opened.writable"),
        (22, "kept.active"),
        (26, "store.get"),
    ]
