"""Every feature is handed what it needs: constructor arguments, or small bundles of parts.

DESIGN.md: "a room gets what it needs handed in, never the whole window"; the rooms issue:
"every feature object is handed what it needs (constructor arguments, or a Protocol of
at most six members)". A bundle of fifteen parts is the window again under another name:
a reader cannot tell what the feature uses, and any part can reach any other.

Read from the sources with `ast`: a *bundle* is a dataclass or a `Protocol` defined in
ui/ that some feature's constructor (an `__init__` in ui/) takes as a parameter, or that
is a field of such a bundle. None has more than `MAX_MEMBERS` members (its fields,
attributes, properties and methods). The shell is not checked: it builds the window, and
its builders are handed the window itself (`WindowParts`, `MenuHost`), which is what a
feature never sees.

The last test plants an oversized bundle in a copy of the package and sees it named.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

import turnlog

PACKAGE_DIR = Path(turnlog.__file__).parent
MAX_MEMBERS = 6
NOT_CHECKED = ("shell",)  # builds the window; see the module's docstring


def _is_bundle_class(node: ast.ClassDef) -> bool:
    dataclass = any("dataclass" in ast.unparse(d) for d in node.decorator_list)
    protocol = any(ast.unparse(b).endswith("Protocol") for b in node.bases)
    return dataclass or protocol


def _members(node: ast.ClassDef, classes: dict[str, tuple[str, ast.ClassDef]]) -> list[str]:
    """Its own members and those it inherits from bundles in ui/."""
    names: list[str] = []
    for base in node.bases:
        if isinstance(base, ast.Name) and base.id in classes:
            names += [n for n in _members(classes[base.id][1], classes) if n not in names]
    for item in node.body:
        name = ""
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            name = item.target.id
        elif isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) \
                and not (item.name.startswith("__") and item.name.endswith("__")):
            name = item.name
        if name and name not in names:
            names.append(name)
    return names


def _annotation_names(annotation: ast.expr | None) -> set[str]:
    if annotation is None:
        return set()
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return set()
    return {n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(annotation) if isinstance(n, ast.Attribute)}


def oversized_bundles(package_dir: Path, limit: int = MAX_MEMBERS) -> list[str]:
    """'path:line: …' for every bundle handed to a feature with more than `limit` members."""
    classes: dict[str, tuple[str, ast.ClassDef]] = {}
    handed: set[str] = set()
    ui = package_dir / "ui"
    for path in sorted(ui.rglob("*.py")):
        if path.relative_to(ui).parts[0] in NOT_CHECKED:
            continue
        where = path.relative_to(package_dir.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and _is_bundle_class(node):
                classes[node.name] = (where, node)
            elif isinstance(node, ast.FunctionDef) and node.name == "__init__":
                arguments = node.args
                for argument in (*arguments.args, *arguments.kwonlyargs):
                    handed |= _annotation_names(argument.annotation)
    found, seen = [], set()
    todo = sorted(handed & set(classes))
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        where, node = classes[name]
        members = _members(node, classes)
        for item in node.body:  # a bundle's parts may be bundles too
            if isinstance(item, ast.AnnAssign):
                todo.extend(sorted(_annotation_names(item.annotation) & set(classes)))
        if len(members) > limit:
            found.append(f"{where}:{node.lineno}: {name} bundles {len(members)} parts "
                         f"(at most {limit}): {', '.join(members)}")
    return sorted(found)


def test_no_feature_is_handed_a_bundle_of_more_than_six_parts():
    assert oversized_bundles(PACKAGE_DIR) == []


def test_the_split_bundles_are_checked():
    """The rule sees the bundles the features are handed (a rule that checks nothing
    cannot fail)."""
    named = {line.split(": ")[1].split(" ")[0] for line in oversized_bundles(PACKAGE_DIR, 0)}
    assert {"VersionParts", "PartialParts", "HandOff", "SendParts", "HistoryParts", "OpenLog",
            "MemoryParts", "FirstSendParts", "TitleParts", "SideParts", "Reach", "ModelSource",
            "DraftBox"} <= named, named


@pytest.fixture
def copy(tmp_path):
    target = tmp_path / "turnlog"
    shutil.copytree(PACKAGE_DIR, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_a_planted_oversized_bundle_is_named(copy):
    assert oversized_bundles(copy) == []
    path = copy / "ui/conversation/versions.py"
    text = path.read_text(encoding="utf-8")
    fields = "".join(f"    part{n}: object\n" for n in range(7))
    path.write_text(text + "\n\n@dataclass(frozen=True, slots=True)\nclass TooMany:\n"
                    + fields + "\n\nclass UsesThem:\n    def __init__(self, parts: TooMany)"
                    " -> None:\n        pass\n", encoding="utf-8")
    line = len(text.splitlines()) + 4
    assert f"turnlog/ui/conversation/versions.py:{line}: TooMany bundles 7 parts" in \
        "\n".join(oversized_bundles(copy)), oversized_bundles(copy)
