"""A third-party module loaded on its first use rather than when the module naming it is
imported: the HTTP stack (httpx with its CLI's click and pygments) takes a fifth of a
second to import, and the window's first screen and most commands send nothing."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Any


class LazyModule:
    """Stands in for the module `name`, imported (once, by Python's import lock, so
    safely from any thread) when an attribute of it is first read."""

    __slots__ = ("_module", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name)
        return getattr(module, attribute)

    def __repr__(self) -> str:
        return f"<module {self._name!r}, loaded on first use>"


def lazy_names(package: str, homes: dict[str, str], namespace: dict[str, Any]
               ) -> Callable[[str], Any]:
    """A package's module `__getattr__` that loads a name's module (`homes`: name → module
    inside `package`) when the name is first read, and keeps the name in `namespace` (the
    package's globals) so it is looked up only once."""

    def attribute(name: str) -> Any:
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{homes[name]}", package), name)
        namespace[name] = value
        return value

    return attribute
