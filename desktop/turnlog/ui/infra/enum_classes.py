"""The enum classes PySide makes, made by the standard library's quicker way.

PySide6 turns each C++ enum of a Qt class into a Python enum class when the class is
first used, through `enum`'s functional API (`IntEnum(name, [(member, value), …],
boundary=KEEP)`): some 290 classes with 3,000 members before the window's first screen,
the `Qt` namespace alone 93 of them. That API checks every member as a class body would
(reused names, descriptors, `auto()`) and builds each through `__set_name__`: about
0.1 ms per class. The standard library makes its own large enums (`re`, `http`, `ssl`)
with `enum._simple_enum`, which builds the same class from plain pairs in half the time;
`quicken` makes PySide's classes that way.

Only calls of PySide's shape take the quicker way: a base that is exactly `Enum`,
`IntEnum`, `Flag` or `IntFlag`, a list of (name, int) pairs with distinct public names,
`boundary=KEEP`, no module, qualified name, mixin type or start given. Everything else
goes through `enum` as before. Each class has the members, values, aliases, masks,
module and qualified name it had (`enum._test_simple_enum`, the standard library's own
comparison, finds no difference in any of PySide's classes), and no documentation text,
as before.
"""

from __future__ import annotations

import builtins
import enum
import sys
from typing import Any

_QUICK = "_turnlog_quick"  # set on the `_create_` installed here: installed once
_PLAIN_BASES = (enum.Enum, enum.IntEnum, enum.Flag, enum.IntFlag)


def quicken() -> bool:
    """Make PySide's enum classes the quicker way from now on (True), or leave `enum`
    alone (False) where this Python has no `_simple_enum`."""
    make = getattr(enum, "_simple_enum", None)
    slow = enum.EnumType.__dict__.get("_create_")
    if not callable(make) or not callable(slow):
        return False
    if getattr(slow, _QUICK, False):
        return True
    enum.EnumType._create_ = quick_create(slow, make)  # type: ignore[method-assign]
    return True


def pyside_shaped(cls: Any, names: Any, module: Any, qualname: Any, mixin: Any,
                  start: Any, boundary: Any) -> bool:
    """Whether a functional call has the shape PySide gives it (see the module's text)."""
    if (cls not in _PLAIN_BASES or module is not None or qualname is not None
            or mixin is not None or start != 1 or boundary is not enum.KEEP
            or builtins.type(names) is not list):
        return False
    seen = set()
    for item in names:
        if builtins.type(item) is not tuple or len(item) != 2:
            return False
        name, value = item
        if (builtins.type(name) is not str or builtins.type(value) is not int
                or not name or name[0] == "_" or name in seen):
            return False
        seen.add(name)
    return True


def quick_create(slow: Any, make: Any) -> Any:
    """`EnumType._create_` that makes a PySide-shaped class with `make` (`_simple_enum`),
    and any other with `slow`, the standard one."""

    def _create_(cls: Any, class_name: str, names: Any, *, module: Any = None,
                 qualname: Any = None, type: Any = None, start: int = 1,  # noqa: A002
                 boundary: Any = None) -> Any:
        if pyside_shaped(cls, names, module, qualname, type, start, boundary):
            try:  # the module that was running, as the standard `_create_` finds it
                found = sys._getframe(2).f_globals["__name__"]
            except (AttributeError, ValueError, KeyError):
                found = None
            if found is not None:
                body: dict[str, Any] = dict(names)
                body["__module__"] = found
                made = make(cls, boundary=boundary)(builtins.type(class_name, (), body))
                made.__doc__ = None  # the functional API gives none
                return made
        return slow(cls, class_name, names, module=module, qualname=qualname, type=type,
                    start=start, boundary=boundary)

    setattr(_create_, _QUICK, True)
    _create_.slow = slow  # type: ignore[attr-defined] # the standard one, for comparison
    return _create_
