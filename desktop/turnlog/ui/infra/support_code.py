"""PySide's own Python code, compiled once and kept, as Python keeps a module's byte code.

When PySide6 first loads, shiboken starts its signature support: `signature_bootstrap`
and the dozen modules its importer loads (`shibokensupport.feature`, `signature.loader`,
`mapping`, `parser`, `layout`, …). Their source is embedded in shiboken's binary and each
is compiled with `compile` at every start, as no byte code is kept for them: about 14 ms.
While PySide loads, `kept` answers those `compile` calls with the code compiled from the
same source at an earlier start (`system.compiled_methods`, in the file that keeps the
dataclass methods) and keeps what it compiled now for the next start.

The code is what `compile` would make: the same source bytes, file name and mode, the
future features the caller's code passes on to it (`signature_bootstrap` has
`from __future__ import annotations`) and the interpreter's optimization level. Only
calls from `signature_bootstrap` (and shiboken's own of `signature_bootstrap.py`) are
answered so: every other `compile` goes to the standard one with the flags it would have
inherited, and `compile` is the standard one again once PySide is loaded. A PySide that
loads its support some other way (`SBK_EMBED=0`: from files, with byte code) asks
nothing, and nothing is kept.
"""

from __future__ import annotations
import __future__

import builtins
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...system.compiled_methods import CompiledMethods

BOOTSTRAP = "signature_bootstrap"  # the module whose importer compiles the others
BOOTSTRAP_FILE = "signature_bootstrap.py"  # its own source, compiled by shiboken
LOADED = "shibokensupport"  # there once PySide has loaded its support
# What `compile` passes on from its caller's code (CPython's `PyCF_MASK`): the future
# features, not the other code flags (`nested_scopes` is one: `CO_NESTED`)
FUTURE_FLAGS = 0
for _name in ("division", "absolute_import", "with_statement", "print_function",
              "unicode_literals", "barry_as_FLUFL", "generator_stop", "annotations"):
    FUTURE_FLAGS |= getattr(__future__, _name).compiler_flag


@contextmanager
def kept(methods: CompiledMethods) -> Iterator[bool]:
    """Within: PySide's support modules are compiled through `methods` (True), or not at
    all when PySide is loaded already (False). `keep` `methods` later to keep them."""
    if LOADED in sys.modules:
        yield False
        return
    plain = builtins.compile
    builtins.compile = answering(plain, methods)
    try:
        yield True
    finally:
        builtins.compile = plain


def answering(plain: Callable[..., Any], methods: CompiledMethods) -> Callable[..., Any]:
    """A `compile` that takes the code of PySide's support modules from `methods` and
    passes every other call to `plain`, with the future flags `plain` would have
    inherited from the caller (not from this function)."""

    def compile(source: Any, filename: Any, mode: Any, flags: Any = 0,  # noqa: A001
                dont_inherit: Any = False, optimize: Any = -1, **more: Any) -> Any:
        caller = sys._getframe(1)
        if not dont_inherit:
            flags |= caller.f_code.co_flags & FUTURE_FLAGS
        if (optimize == -1 and not more and builtins.type(source) is bytes
                and builtins.type(filename) is str and builtins.type(mode) is str
                and builtins.type(flags) is int and not flags & ~FUTURE_FLAGS
                and (filename == BOOTSTRAP_FILE
                     or caller.f_globals.get("__name__") == BOOTSTRAP)):
            return methods.compiled(source, filename, mode, flags)
        return plain(source, filename, mode, flags, True, optimize, **more)

    compile.plain = plain  # type: ignore[attr-defined] # the standard one, for comparison
    return compile
