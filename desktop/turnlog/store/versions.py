"""Supersede records: reading them into `core.versions.Versions`, appending them, and
re-linking a version group when a privacy delete removes one of its turns.

The functions here run inside the caller's transaction and fault translation.
"""

from __future__ import annotations

from collections.abc import Collection

import peewee

from ..core.failures import FailureKind, StoreError
from ..core.versions import Supersede, Versions
from . import rows
from .errors import NotFound
from .models import SupersedeRow, TurnRow, insert


def read(db: peewee.Database, conversation_id: int) -> Versions:
    """The conversation's versions as its records say now (one query when it has none)."""
    records = [Supersede(r.turn_id, r.by_turn_id, r.created_at) for r in
               SupersedeRow.select().where(SupersedeRow.conversation == conversation_id)
               .order_by(SupersedeRow.id).execute(db)]
    if not records:
        return Versions((), {})
    ids = {r.turn_id for r in records} | {r.by_turn_id for r in records}
    ordinals = dict(TurnRow.select(TurnRow.id, TurnRow.ordinal)
                    .where(TurnRow.id.in_(list(ids))).tuples().execute(db))
    return Versions(records, ordinals)


def last_active(db: peewee.Database, conversation_id: int, hidden: Collection[str]
                ) -> TurnRow | None:
    """The newest turn of the active line (None: no turn)."""
    query = TurnRow.select().where(TurnRow.conversation == conversation_id)
    if hidden:
        query = query.where(TurnRow.id.not_in(list(hidden)))
    return query.order_by(TurnRow.ordinal.desc()).first(db)


def check_replaceable(db: peewee.Database, conversation_id: int, turn_id: str) -> None:
    """A new version may replace only the last turn of the active line."""
    last = last_active(db, conversation_id, read(db, conversation_id).superseded)
    if last is None or last.id != turn_id:
        raise StoreError(
            "The conversation changed while the answer arrived (the turn it replaces is no "
            "longer the last); it was not saved.", kind=FailureKind.CONVERSATION_GONE)


def append(db: peewee.Database, conversation_id: int, turn_id: str, by_turn_id: str) -> None:
    insert(db, SupersedeRow, conversation=conversation_id, turn_id=turn_id,
           by_turn_id=by_turn_id, created_at=rows.now_iso())


def use_version(db: peewee.Database, turn_id: str) -> tuple[int, bool]:
    """Make `turn_id` the active version of its position by an appended record; returns
    its conversation id and whether anything changed. Only the last position's versions
    can be switched: later turns were asked after the active one."""
    row = TurnRow.select().where(TurnRow.id == turn_id).first(db)
    if row is None:
        raise NotFound(f"There is no turn {turn_id}.")
    cid = row.conversation_id
    versions = read(db, cid)
    if not versions.is_superseded(turn_id):
        return cid, False
    active = versions.active_of(turn_id)
    last = last_active(db, cid, versions.superseded)
    if last is None or last.id != active:
        raise StoreError(
            "Only the last turn's versions can be switched: later turns were asked after "
            "the active one. Fork from this turn instead.")
    append(db, cid, active, turn_id)
    return cid, True


def forget(db: peewee.Database, conversation_id: int, versions: Versions,
           deleted: Collection[str]) -> None:
    """With a privacy delete of `deleted` turns (`versions` read before it): their records
    go, and each group that keeps two or more versions is linked again (each replaced by
    the one that stays active: the active one if it stays, else the newest)."""
    touched = {g for t in deleted for g in [versions.group(t)] if len(g) > 1}
    for group in touched:
        SupersedeRow.delete().where(
            (SupersedeRow.conversation == conversation_id)
            & (SupersedeRow.turn_id.in_(list(group)) | SupersedeRow.by_turn_id.in_(list(group)))
        ).execute(db)
        kept = [t for t in group if t not in deleted]
        if len(kept) < 2:
            continue
        active = versions.active_of(group[0])
        if active not in kept:
            active = kept[-1]
        for turn_id in kept:
            if turn_id != active:
                append(db, conversation_id, turn_id, active)
