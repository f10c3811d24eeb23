"""PySide's enum classes, made the standard library's quicker way, are the classes the
functional API made: the same members, values, aliases, masks, names and behaviour."""

from __future__ import annotations

import enum
import subprocess
import sys
from collections.abc import Callable

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from turnlog.ui.infra import enum_classes


def pyside_enums() -> list[enum.EnumType]:
    """Every enum class of the Qt classes (and namespaces) the window uses."""
    found: dict[int, enum.EnumType] = {}
    for module in (QtCore, QtGui, QtWidgets):
        for owner_name in dir(module):
            owner = getattr(module, owner_name)
            if not isinstance(owner, type):
                continue
            for name in dir(owner):
                value = getattr(owner, name, None)
                if isinstance(value, enum.EnumType) and value.__module__.startswith("PySide6"):
                    found[id(value)] = value
    return list(found.values())


def pairs(made: enum.EnumType) -> list[tuple[str, int]]:
    """The (name, value) pairs PySide passed: every name, aliases included, in order."""
    return [(name, member._value_) for name, member in made._member_map_.items()]


def both_ways(made: enum.EnumType) -> tuple[enum.EnumType, enum.EnumType]:
    base = made.__mro__[1]
    assert enum_classes.quicken()
    quick = enum.EnumType.__dict__["_create_"]
    enum.EnumType._create_ = quick.slow  # type: ignore[method-assign]
    try:
        standard = base(made.__name__, pairs(made), boundary=enum.KEEP)
    finally:
        enum.EnumType._create_ = quick  # type: ignore[method-assign]
    return standard, base(made.__name__, pairs(made), boundary=enum.KEEP)


def behaviour(made: enum.EnumType) -> list[object]:
    """What a program sees of a class: its members and how they print, compare, combine,
    convert and what a pickle keeps, and what an unknown value gives."""
    seen: list[object] = [made.__name__, made.__qualname__, made.__module__, made.__doc__,
                          list(made.__members__), made._member_names_, len(made)]
    for name, member in made.__members__.items():
        seen += [name, member.name, member.value, repr(member), str(member), format(member),
                 made(member.value).name, made[name].name, int(member) if isinstance(
                     member, int) else None, member == member.value, hash(member)]
        if isinstance(member, enum.Flag):
            seen += [(~member).value, (member | member).name,
                     outcome(lambda m=member: [getattr(bit, "name", None) for bit in m])]
        seen.append(member.__reduce_ex__(4)[1])  # what a pickle keeps of it
    unknown = max([m.value for m in made] + [0]) * 2 + 1
    seen.append(outcome(lambda: repr(made(unknown))))
    return seen


def outcome(work: Callable[[], object]) -> object:
    """What `work` gives, or the error it raises (its kind and words)."""
    try:
        return work()
    except (ValueError, TypeError, AttributeError) as err:
        return type(err).__name__, str(err)


def test_every_pyside_enum_class_is_the_class_the_functional_api_makes():
    classes = pyside_enums()
    assert len(classes) > 500
    for made in classes:
        standard, quick = both_ways(made)
        enum._test_simple_enum(standard, quick)  # the standard library's own comparison
        assert type(quick) is type(standard) and quick.__mro__[1:] == standard.__mro__[1:]
        assert behaviour(quick) == behaviour(standard), made


def test_other_calls_of_the_functional_api_are_left_to_it():
    assert enum_classes.quicken()
    calls = [lambda: enum.IntEnum("Plain", [("A", 1), ("B", 2)]),  # no boundary
             lambda: enum.Enum("Named", "A B C", boundary=enum.KEEP),
             lambda: enum.IntFlag("Private", [("_A", 1)], boundary=enum.KEEP),
             lambda: enum.IntEnum("Placed", [("A", 1)], module="elsewhere",
                                  boundary=enum.KEEP)]
    for call in calls:
        made = call()
        assert made.__doc__ is None or made.__doc__ == "An enumeration."
    with pytest.raises(TypeError):  # a name given twice is still refused
        enum.IntEnum("Twice", [("A", 1), ("A", 2)], boundary=enum.KEEP)
    assert enum.IntEnum("Placed", [("A", 1)], module="elsewhere",
                        boundary=enum.KEEP).__module__ == "elsewhere"


def test_it_is_installed_once_and_the_start_installs_it_before_pyside_loads():
    assert enum_classes.quicken()
    first = enum.EnumType.__dict__["_create_"]
    assert enum_classes.quicken()
    assert enum.EnumType.__dict__["_create_"] is first
    script = ("import enum, sys\nimport turnlog.app\n"
              "assert getattr(enum.EnumType.__dict__['_create_'], '_turnlog_quick', False)\n"
              "from PySide6.QtCore import Qt\n"
              "assert Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop == 0x21\n"
              "assert Qt.Key.Key_A.name == 'Key_A' and Qt.Key(0x41) is Qt.Key.Key_A\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
