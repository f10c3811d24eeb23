"""PySide's question about every module imported after it, answered from the file.

Once PySide6 is loaded it looks at each module imported from then on and asks whether
its source names "PySide6" (its `__feature__` switches, snake_case and true_property,
apply only in such modules; Turnlog uses neither). It asks through
`inspect.getsource`, which finds the file again, decodes it line by line and keeps every
line in `linecache` for the life of the process: about a tenth of a millisecond per
module, some 250 modules before the window's first screen, and their text held in
memory after. `quicken` answers the same question from the file's bytes ("PySide6" is
the same bytes in every encoding a Python source may declare but UTF-16, which Python
cannot read as source), and leaves every module without a `.py` file to PySide's own
check, so each module gets the answer it got before.

Reading the files is still some 6 ms of a start. `KeptAnswers` keeps each file's answer
with its size and modification time, where Python keeps byte code (as
`system.compiled_methods` keeps dataclass methods), so a later start reads a file again
only when it changed, as Python compiles a module again only when its source changed.
The kept answers are bounded as the kept methods are (`compiled_methods.bounded`): the
paths of an older installation or a removed virtual environment are not kept for ever.
"""

from __future__ import annotations

import marshal
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from ...system import compiled_methods

_QUICK = "_turnlog_quick"  # set on the answer installed here: installed once
KEPT_NAME = "pyside_uses"  # the kept answers' file, beside the kept dataclass methods

# A source file's answer as kept: its modification time (ns), its size, the answer
Kept = tuple[int, int, bool]


class KeptAnswers:
    """Whether each `.py` file names PySide6, by path: read from `path` (if any), added
    to as files are read, written back by `keep`. Thread-safe."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._answers: dict[str, Kept] = _read(path)
        self._asked: set[str] = set()
        self._added = 0

    def uses_pyside(self, path: str) -> bool:
        """Whether the file at `path` names PySide6 (OSError: it cannot be read)."""
        found = os.stat(path)
        stamp = (found.st_mtime_ns, found.st_size)
        with self._lock:
            kept = self._answers.get(path)
            self._asked.add(path)
        if kept is not None and kept[:2] == stamp:
            return kept[2]
        with open(path, "rb") as source:
            answer = b"PySide6" in source.read()
        with self._lock:
            self._answers[path] = (*stamp, answer)
            self._added += 1
        return answer

    def keep(self) -> bool:
        """Write the answers read in this run with those kept, bounded (True: written)."""
        if self.path is None or not compiled_methods.keeps():
            return False
        with self._lock:
            if not self._added:
                return False
            data = marshal.dumps(compiled_methods.bounded(self._answers, self._asked))
            self._added = 0
        return compiled_methods.keep_file(self.path, data)


def kept_answers() -> KeptAnswers:
    """The answers kept where Python keeps this installation's byte code."""
    return KeptAnswers(compiled_methods.kept_path(KEPT_NAME))


def _read(path: Path | None) -> dict[str, Kept]:
    return {name: kept for name, kept in compiled_methods.read_kept(path).items()
            if isinstance(name, str) and isinstance(kept, tuple) and len(kept) == 3
            and type(kept[0]) is int and type(kept[1]) is int and type(kept[2]) is bool}


def quicken(answers: KeptAnswers | None = None) -> bool:
    """Answer PySide's per-module check from the file's bytes from now on (True), or
    leave it alone (False) where this PySide does not ask it that way. With `answers`,
    a file's answer is read again only when the file changed since it was kept."""
    feature = sys.modules.get("shibokensupport.feature")
    asked = getattr(feature, "_mod_uses_pyside", None)
    if not callable(asked):
        return False
    if getattr(asked, _QUICK, False):
        return True
    feature._mod_uses_pyside = quick_answer(  # type: ignore[union-attr]
        asked, KeptAnswers(None) if answers is None else answers)
    return True


def quick_answer(slow: Callable[[ModuleType], bool],
                 answers: KeptAnswers) -> Callable[[ModuleType], bool]:
    """Whether `module`'s source names PySide6, from `answers` (its `.py` file's bytes);
    `slow` for a module without one (built in, frozen, compiled, byte code only) or whose
    file cannot be read."""

    def uses_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.endswith(".py"):
            try:
                return answers.uses_pyside(path)
            except OSError:
                pass
        return slow(module)

    setattr(uses_pyside, _QUICK, True)
    uses_pyside.slow = slow  # type: ignore[attr-defined] # PySide's own, for comparison
    uses_pyside.answers = answers  # type: ignore[attr-defined]
    return uses_pyside
