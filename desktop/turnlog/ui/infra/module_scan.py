"""PySide's question about every module imported after it, answered from the file.

Once PySide6 is loaded it looks at each module imported from then on and asks whether
its source names "PySide6" (its `__feature__` switches, snake_case and true_property,
apply only in such modules; Turnlog uses neither). It asks through
`inspect.getsource`, which finds the file again, decodes it line by line and keeps every
line in `linecache` for the life of the process: about a tenth of a millisecond per
module, some 270 modules before the window's first screen, and their text held in
memory after. `quicken` answers the same question from the file's bytes ("PySide6" is
the same bytes in every encoding a Python source may declare but UTF-16, which Python
cannot read as source), and leaves every module without a `.py` file to PySide's own
check, so each module gets the answer it got before.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType

_QUICK = "_turnlog_quick"  # set on the answer installed here: installed once


def quicken() -> bool:
    """Answer PySide's per-module check from the file's bytes from now on (True), or
    leave it alone (False) where this PySide does not ask it that way."""
    feature = sys.modules.get("shibokensupport.feature")
    asked = getattr(feature, "_mod_uses_pyside", None)
    if not callable(asked):
        return False
    if getattr(asked, _QUICK, False):
        return True
    feature._mod_uses_pyside = quick_answer(asked)  # type: ignore[union-attr]
    return True


def quick_answer(slow: Callable[[ModuleType], bool]) -> Callable[[ModuleType], bool]:
    """Whether `module`'s source names PySide6, read from its `.py` file's bytes; `slow`
    for a module without one (built in, frozen, compiled, byte code only) or whose file
    cannot be read."""

    def uses_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.endswith(".py"):
            try:
                with open(path, "rb") as source:
                    return b"PySide6" in source.read()
            except OSError:
                pass
        return slow(module)

    setattr(uses_pyside, _QUICK, True)
    uses_pyside.slow = slow  # type: ignore[attr-defined] # PySide's own, for comparison
    return uses_pyside
