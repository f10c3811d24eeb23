"""A request record's proof: writing its references (texts kept as versions, the tool
set stored once) and reading back what they lead to (`core.proof.Sources`). The
functions here run inside the caller's transaction and fault translation."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import replace

import peewee

from ..core.attachments import added_after
from ..core.body import encode_json
from ..core.model import Turn
from ..core.proof import (
    PREFERENCE_TEXT,
    SYSTEM_TEXT,
    RequestProof,
    Sources,
    options_from_json,
    options_to_json,
)
from ..core.summaries import summary_text
from ..core.versions import Supersede, Versions
from . import rows
from .attachments import of_turns
from .models import (
    KeptTextRow,
    RequestRow,
    SummaryRow,
    SupersedeRow,
    TextSetMemberRow,
    TextSetRow,
    ToolSetRow,
    TurnRow,
    insert,
)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def columns(db: peewee.Database, conversation_id: int, proof: RequestProof | None
            ) -> dict[str, object]:
    """The record's columns for `proof` (none for a record without one), its tool set
    and the list of texts it carried stored (once each)."""
    if proof is None:
        return {}
    digest = None
    if proof.tools:
        definitions = encode_json(list(proof.tools))
        digest = _digest(definitions)
        db.execute_sql('INSERT OR IGNORE INTO "tool_sets" ("digest", "definitions") '
                       "VALUES (?, ?)", (digest, definitions))
    mark = (SupersedeRow.select(peewee.fn.MAX(SupersedeRow.id))
            .where(SupersedeRow.conversation == conversation_id).scalar(db))
    return {
        "body_format": proof.format, "sha256": encode_json(list(proof.sha256)),
        "run_first": proof.run_first, "run_last": proof.run_last,
        "run_first_ordinal": proof.run_first_ordinal,
        "run_last_ordinal": proof.run_last_ordinal, "run_count": proof.run_count,
        "version_mark": mark or 0, "options": encode_json(options_to_json(proof.options)),
        "tools_digest": digest, "texts_id": _text_set(db, conversation_id, proof),
        "continued": proof.continued, "prefill": proof.prefill,
    }


def _text_set(db: peewee.Database, conversation_id: int, proof: RequestProof) -> int | None:
    """The `text_sets` row of the texts `proof` carried, in wire order (None: none)."""
    return text_set(db, conversation_id, [(t.kind, t.source, t.text) for t in proof.texts])


def text_set(db: peewee.Database, conversation_id: int,
             texts: Sequence[tuple[str, str, str | None]]) -> int | None:
    """The `text_sets` row of `texts` (kind, source, text; text None: a version deleted
    since), in wire order (None: none): each text by its version (one row per distinct
    version of an item), each list once."""
    if not texts:
        return None
    members: list[list[object]] = []
    for kind, given, text in texts:
        if text is None:
            members.append([kind, None])
            continue
        owner = None if kind == PREFERENCE_TEXT else conversation_id
        source = str(conversation_id) if kind == SYSTEM_TEXT else given
        digest = _digest(text)
        query = KeptTextRow.select(KeptTextRow.id).where(
            (KeptTextRow.kind == kind) & (KeptTextRow.source == source)
            & (KeptTextRow.digest == digest))
        query = query.where(KeptTextRow.conversation.is_null() if owner is None
                            else KeptTextRow.conversation == owner)
        found = query.scalar(db)
        if found is None:
            found = insert(db, KeptTextRow, conversation=owner, kind=kind,
                           source=source, digest=digest, text=text).id
        members.append([kind, found])
    listed = json.dumps(members, separators=(",", ":"))
    digest = _digest(listed)
    found = TextSetRow.select(TextSetRow.id).where(TextSetRow.digest == digest).scalar(db)
    if found is not None:
        return int(found)
    row = insert(db, TextSetRow, digest=digest, members=listed)
    for text_id in {int(m[1]) for m in members if m[1] is not None}:  # type: ignore[call-overload]
        insert(db, TextSetMemberRow, set=row.id, text_id=text_id)
    return int(row.id)


def active_run(db: peewee.Database, conversation_id: int, first: int, last: int,
               mark: int, at: str | None = None) -> list[Turn]:
    """The turns of the active line between ordinals `first` and `last` as the supersede
    records up to `mark` left it, with their files (those a later import added after
    `at`, the request's time, left out)."""
    found = [rows.turn_of(*r) for r in db.execute_sql(
        f"SELECT {', '.join(rows.TURN_COLUMNS)} FROM turns WHERE conversation_id = ? "
        "AND ordinal BETWEEN ? AND ? ORDER BY ordinal", (conversation_id, first, last))]
    if mark:
        records = [Supersede(r.turn_id, r.by_turn_id, r.created_at) for r in
                   SupersedeRow.select().where((SupersedeRow.conversation == conversation_id)
                                               & (SupersedeRow.id <= mark))
                   .order_by(SupersedeRow.id).execute(db)]
        ids = list({r.turn_id for r in records} | {r.by_turn_id for r in records})
        ordinals = dict(TurnRow.select(TurnRow.id, TurnRow.ordinal)
                        .where(TurnRow.id.in_(ids)).tuples().execute(db)) if ids else {}
        hidden = Versions(records, ordinals).superseded
        found = [t for t in found if t.id not in hidden]
    return _with_files(db, found, at)


def _with_files(db: peewee.Database, turns: list[Turn], at: str | None = None) -> list[Turn]:
    """`turns` with their files as a request made at `at` carried them: none a later
    import added after it (a rebuild reproduces what was sent)."""
    files = of_turns(db, (t.id for t in turns))
    if at is not None:
        files = {turn_id: tuple(a for a in found if not added_after(a, at))
                 for turn_id, found in files.items()}
    return [replace(t, attachments=files[t.id]) if t.id in files else t for t in turns]


def _texts(db: peewee.Database, set_id: int | None) -> list[tuple[str, str | None]]:
    """The texts of a set in wire order, None where a version was deleted."""
    if set_id is None:
        return []
    listed = TextSetRow.select(TextSetRow.members).where(TextSetRow.id == set_id).scalar(db)
    members = json.loads(listed) if listed is not None else []
    ids = [m[1] for m in members if m[1] is not None]
    found = dict(KeptTextRow.select(KeptTextRow.id, KeptTextRow.text)
                 .where(KeptTextRow.id.in_(ids)).tuples().execute(db)) if ids else {}
    return [(kind, found.get(text_id)) for kind, text_id in members]


def _marks(row: RequestRow) -> dict[str, list[tuple[int, int]]]:
    return {name: [(a, b) for a, b in json.loads(getattr(row, name))]
            for name in ("sent", "summarized", "left_out")}


def sources(db: peewee.Database, row: RequestRow) -> Sources:
    """What `row`'s references lead to now."""
    answered = None
    if row.turn_id is not None:
        found = TurnRow.select().where(TurnRow.id == row.turn_id).first(db)
        answered = _with_files(db, [rows.turn(found)], row.started_at)[0] \
            if found is not None else None
    summary = None
    if row.summary_id is not None:
        # Not its list of covered turn ids: megabytes on a long log, not part of a body.
        wanted = [f for f in SummaryRow._meta.sorted_fields if f.name != "covered_ids"]
        found_summary = (SummaryRow.select(*wanted).where(SummaryRow.id == row.summary_id)
                         .first(db))
        if found_summary is not None:  # as the request carried it (`summary_text`)
            summary = summary_text(rows.stored_summary(found_summary))
    base = Sources(record_id=row.id, conversation_id=row.conversation_id, outcome=row.outcome,
                   model=row.model, turn_id=row.turn_id, format=row.body_format,
                   sha256=tuple(json.loads(row.sha256)) if row.sha256 else None,
                   marks=_marks(row), summary_id=row.summary_id, summary=summary,
                   answered=answered)
    if row.body_format is None:
        return base
    texts = _texts(db, row.texts_id)
    tools: tuple[dict[str, object], ...] | None = ()
    if row.tools_digest is not None:
        definitions = (ToolSetRow.select(ToolSetRow.definitions)
                       .where(ToolSetRow.digest == row.tools_digest).scalar(db))
        tools = tuple(json.loads(definitions)) if definitions is not None else None
    turns: Sequence[Turn] = ()
    if row.run_first_ordinal is not None and row.run_last_ordinal is not None:
        turns = active_run(db, row.conversation_id, row.run_first_ordinal,
                           row.run_last_ordinal, row.version_mark, row.started_at)
    return replace(base, options=options_from_json(json.loads(row.options)),
                   texts=tuple(texts), turns=tuple(turns), run_count=row.run_count,
                   tools=tools, continued=row.continued, prefill=bool(row.prefill))


# ---------------------------------------------------------------- privacy
def _in(ids: Sequence[int]) -> str:
    return ", ".join("?" * len(ids))


def forget_texts(db: peewee.Database, text_ids: Sequence[int]) -> int:
    """Delete these kept versions; every record that carried one loses its body hashes
    (a hash of deleted text is a fingerprint of it) and shows that part deleted."""
    ids = set(text_ids)
    if not ids:
        return 0
    listed = list(ids)
    sets = [int(i) for (i,) in db.execute_sql(
        f'SELECT DISTINCT "set_id" FROM "text_set_members" WHERE "text_id" IN ({_in(listed)})',
        listed)]
    for set_id in sets:
        members = json.loads(TextSetRow.select(TextSetRow.members)
                             .where(TextSetRow.id == set_id).scalar(db))
        left = [[kind, None if text_id in ids else text_id] for kind, text_id in members]
        TextSetRow.update(members=json.dumps(left, separators=(",", ":"))).where(
            TextSetRow.id == set_id).execute(db)
        db.execute_sql('UPDATE "requests" SET "sha256" = NULL WHERE "texts_id" = ?', (set_id,))
    db.execute_sql(f'DELETE FROM "text_set_members" WHERE "text_id" IN ({_in(listed)})',
                   listed)
    db.execute_sql(f'DELETE FROM "kept_texts" WHERE "id" IN ({_in(listed)})', listed)
    return len(ids)


def removed_pieces(old: str, new: str) -> list[str]:
    """What an edit from `old` to `new` took out (empty: it only added)."""
    import difflib  # an edit of a pin or note: not every start that opens the store

    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [old[i1:i2].strip() for op, i1, i2, _j1, _j2 in matcher.get_opcodes()
            if op in ("delete", "replace") and old[i1:i2].strip()]


def forget_item(db: peewee.Database, kind: str, source: str, conversation_id: int | None,
                old: str | None = None, new: str | None = None) -> int:
    """A pin, note or preference removed (`new` None), or edited to take something out of
    it, or a system prompt (`source`: its conversation's id) edited so: the kept versions
    that held what went are deleted, with the hashes of every request that carried them.
    An edit that only adds keeps every version (old requests still show what they sent)."""
    pieces = None if new is None or old is None else removed_pieces(old, new)
    if pieces == []:
        return 0
    query = KeptTextRow.select(KeptTextRow.id, KeptTextRow.text).where(
        (KeptTextRow.kind == kind) & (KeptTextRow.source == source))
    query = query.where(KeptTextRow.conversation.is_null() if conversation_id is None
                        else KeptTextRow.conversation == conversation_id)
    found = [(i, text) for i, text in query.tuples().execute(db)]
    gone = [i for i, text in found if pieces is None or any(p in text for p in pieces)]
    return forget_texts(db, gone)


def forget_requests_carrying(db: peewee.Database, request_ids: Sequence[int]) -> None:
    """These requests carried deleted turns: their body hashes go."""
    ids = list(request_ids)
    for start in range(0, len(ids), 500):
        batch = ids[start:start + 500]
        db.execute_sql(f'UPDATE "requests" SET "sha256" = NULL WHERE "id" IN ({_in(batch)})',
                       batch)


def forget_all(db: peewee.Database) -> None:
    """Delete all history: no kept version, no tool set stays."""
    db.execute_sql('DELETE FROM "text_sets"')  # and their members
    db.execute_sql('DELETE FROM "kept_texts"')
    db.execute_sql('DELETE FROM "tool_sets"')
