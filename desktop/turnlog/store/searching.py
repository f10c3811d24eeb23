"""`store.search`: finding turns and titles by their words (the index itself is in
`search`). Calling the part searches (`store.search("words")`)."""

from __future__ import annotations

from dataclasses import replace

from ..core.numbers import TurnNumbers
from . import search
from .database import Database
from .search import MatchCount, SearchHit

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from ..core.versions import Versions

# The versions' reader and the tables load with the first hit in a conversation that has
# versions: most searches find none.


class Search:
    """The search of one store."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.db = database.db

    def __call__(self, query: str, *, limit: int = 20, offset: int = 0,
                 titles: bool = True, folder: int | None = None) -> list[SearchHit]:
        """Turns and titles matching the plain-text `query`, best first (see
        `store.search.search`: `offset` counts turns; titles come on the first page);
        `folder`: only in the conversations of that folder."""
        with self.database.guard():
            hits = search.search(self.db, query, limit=limit, offset=offset, titles=titles,
                                 folder=folder)
            return [self.marked(hit, found) for hit, found in
                    zip(hits, self.versions_of(hits), strict=True)]

    def count(self, query: str, *, folder: int | None = None) -> MatchCount:
        """How many titles and turns match `query` (in `folder`, when given), turns up to
        `search.COUNT_CAP` (see `store.search.count`)."""
        with self.database.guard():
            return search.count(self.db, query, folder)

    def versions_of(self, hits: list[SearchHit]) -> list[Versions | None]:
        """Each hit's conversation's versions (None: a title, or none recorded), read only
        for the conversations that have any (one query finds them)."""
        cids = sorted({hit.conversation_id for hit in hits if hit.turn_id is not None})
        with_records = {cid for (cid,) in self.db.execute_sql(
            'SELECT DISTINCT "conversation_id" FROM "supersedes" WHERE "conversation_id" '
            f'IN ({", ".join("?" * len(cids))})', cids)} if cids else set()
        known: dict[int, Versions] = {}
        out: list[Versions | None] = []
        for hit in hits:
            if hit.turn_id is None or hit.conversation_id not in with_records:
                out.append(None)
                continue
            if hit.conversation_id not in known:
                from . import versions

                known[hit.conversation_id] = versions.read(self.db, hit.conversation_id)
            out.append(known[hit.conversation_id])
        return out

    def marked(self, hit: SearchHit, found: Versions | None) -> SearchHit:
        """A superseded version is found too: marked as such, with the ordinal of the row
        that shows it (its active version's)."""
        if hit.turn_id is None or found is None or hit.ordinal is None:
            return hit if hit.row_ordinal == hit.ordinal else replace(hit,
                                                                     row_ordinal=hit.ordinal)
        number = TurnNumbers.of(found).number(hit.ordinal)
        if not found.is_superseded(hit.turn_id):
            return replace(hit, row_ordinal=hit.ordinal, number=number)
        from .models import TurnRow

        row = TurnRow.select().where(TurnRow.id == found.active_of(hit.turn_id)
                                     ).first(self.db)
        return replace(hit, superseded=True, number=number,
                       row_ordinal=row.ordinal if row is not None else hit.ordinal)
