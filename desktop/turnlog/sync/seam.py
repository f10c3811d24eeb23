"""The store side's feed, as the wire side uses it: this machine's change records going out,
other machines' coming in, the ids deletes everywhere have removed, and the files (blobs)
records name."""

from __future__ import annotations

from typing import Any, Protocol

from ..store.errors import SyncRecordInvalid
from ..store.sync_records import Outgoing, OutgoingPage, needs_reading

__all__ = ["Feed", "Outgoing", "OutgoingPage", "SyncRecordInvalid", "needs_reading"]


class Feed(Protocol):
    def outgoing(self, after: int, limit: int = 2000) -> tuple[list[dict[str, Any]], int]: ...

    def incoming(self, records: list[dict[str, Any]], origin: str) -> Any: ...

    def deleted(self) -> set[str]: ...

    # A feed whose records carry files (turns' attachments) has these too; the engine
    # uses them when present: `blob(sha256) -> bytes` (NotFound when absent),
    # `missing_blobs() -> list[str]`, `add_blob(data, sha256) -> bool` (SyncRecordInvalid
    # when the bytes do not match).
    # And, when present: `outgoing_json(after, limit) -> (list[Outgoing], after)`, what
    # `outgoing` returns, each record already written as its JSON (the engine then never
    # builds a dict per record nor writes it); or `outgoing_page(after, limit) ->
    # OutgoingPage`, the same records as one page, read by columns.
    # And, when present: `close_reading()`, which says pages may be read on a thread the
    # engine makes (a connection per thread) and closes that thread's connection.
    # And, when present: `follow_machine(machine_id)` (this machine's id, a new one after
    # a restore: its clock's node id follows it; else a `machine` attribute is set) and
    # `name_machines({machine id: name})` (what a fork it continued on shows).
