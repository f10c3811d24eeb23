"""The store side's feed, as the wire side uses it: this machine's change records going out,
other machines' coming in, and the ids deletes everywhere have removed."""

from __future__ import annotations

from typing import Any, Protocol

from ..store.errors import SyncRecordInvalid

__all__ = ["Feed", "SyncRecordInvalid"]


class Feed(Protocol):
    def outgoing(self, after: int, limit: int = 2000) -> tuple[list[dict[str, Any]], int]: ...

    def incoming(self, records: list[dict[str, Any]], origin: str) -> Any: ...

    def deleted(self) -> set[str]: ...
