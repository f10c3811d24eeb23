"""Nothing but the one body builder makes the body of a conversation's request.

The body of a request for a conversation is built in one place: `service.request_body`
(over core's `project`, which `Sender` runs with the same `SendRequest`). The window's
preview, counter and send, `turnlog-cli ask` and `project` all take it from there. This
test reads the sources with `ast` and names any other construction:

- a call of the low-level serializer `build_body` outside the core modules that each
  build their own kind of request (a turn's, a summary call's, a title's, a side
  question's);
- a call of `project`, `preview`, `request_for` or a `SendRequest(...)` made outside core,
  the send wiring (`route.request_for` itself) and the service layer;
- a dict written with both a "model" and a "messages" key (a chat-completions body by
  hand) outside `core.body`, except the built-in server's own probes of itself.

The last tests plant each kind of violation in a copy of the package and see it named.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

import turnlog

PACKAGE_DIR = Path(turnlog.__file__).parent

# The core modules that serialize a body, each for its own kind of request.
SERIALIZERS = {
    "core/body.py": "the serializer itself",
    "core/projection.py": "a turn's request (project)",
    "core/compaction.py": "a summary call",
    "core/compaction_plan.py": "a summary call's prompt, measured for the room it leaves",
    "core/titles.py": "a title request",
    "core/side.py": "a side question",
}
# Who may plan a conversation's request.
PLANNERS = ("core/", "service/")
PLANNING_CALLS = {"project", "preview", "request_for", "SendRequest"}
# Bodies written by hand that are not a conversation's request: the built-in server's
# probes of itself (its chat template's size, the window it was launched with).
HAND_BODIES = {
    "localmodel/tokens.py": "the built-in server's template probe",
    "localmodel/server.py": "the built-in server's window probe",
}


def _called_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _is_body_dict(node: ast.Dict) -> bool:
    keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
    return {"model", "messages"} <= keys


def violations(package_dir: Path) -> list[str]:
    """Every construction of a request body outside the one builder, as path:line: what."""
    found = []
    for path in sorted(package_dir.rglob("*.py")):
        relative = path.relative_to(package_dir).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            where = f"turnlog/{relative}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call):
                name = _called_name(node)
                if name == "build_body" and relative not in SERIALIZERS:
                    found.append(f"{where}: calls build_body — only the body builder "
                                 "serializes a request")
                elif name in PLANNING_CALLS and not relative.startswith(PLANNERS):
                    found.append(f"{where}: calls {name} — a request is planned by "
                                 "service.request_body")
            elif isinstance(node, ast.Dict) and _is_body_dict(node) \
                    and relative != "core/body.py" and relative not in HAND_BODIES:
                found.append(f"{where}: writes a chat-completions body by hand")
    return found


def test_only_the_builder_makes_a_request_body():
    assert violations(PACKAGE_DIR) == []


def test_the_allowed_places_exist_and_do_what_they_are_allowed_for():
    """An allowance for a file that no longer does it would hide a violation later."""
    for relative in SERIALIZERS:
        assert "build_body(" in (PACKAGE_DIR / relative).read_text(encoding="utf-8"), relative
    for relative in HAND_BODIES:
        assert '"messages":' in (PACKAGE_DIR / relative).read_text(encoding="utf-8"), relative
    builder = (PACKAGE_DIR / "service" / "request_body.py").read_text(encoding="utf-8")
    assert "preview(" in builder and "request_for(" in builder


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "turnlog"
    shutil.copytree(PACKAGE_DIR, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


@pytest.mark.parametrize("relative, code, expected", [
    ("cli/log_commands.py",
     "def f(m, o):\n    from ..core.body import build_body\n    return build_body(m, [], o)",
     "calls build_body"),
    ("ui/request/live_preview.py",
     "def f(turns, q, m, b):\n    from ...core.projection import project\n"
     "    return project(turns, q, model=m, budget=b)",
     "calls project"),
    ("ui/request/send_session.py",
     "def f(c, q, r):\n    from ...chat import request_for\n    return request_for(c, q, r)",
     "calls request_for"),
    ("cli/chat_commands.py",
     "def f(m, text):\n    return {\"model\": m, \"messages\": [{\"role\": \"user\", "
     "\"content\": text}]}",
     "writes a chat-completions body by hand"),
])
def test_a_planted_construction_is_named(copy, relative, code, expected):
    assert violations(copy) == []
    path = copy / relative
    line = len(path.read_text(encoding="utf-8").splitlines()) + 2
    path.write_text(path.read_text(encoding="utf-8") + "\n" + code + "\n", encoding="utf-8")
    found = violations(copy)
    assert len(found) == 1, found
    assert found[0].startswith(f"turnlog/{relative}:"), found
    assert expected in found[0], found
    assert int(found[0].split(":")[1]) >= line
