"""Search on a large log: the first page of hits comes with a limit, the newest first among
equals, and how many match is counted after it, up to `COUNT_CAP` ("more than 10,000").

One data directory of 20,000 turns in three conversations, written in turns of each so
the index's parts hold keys of all three (every part's range overlaps the others'):
"garden" is in 99 % of them, "rose" in 80 % (1 to 4 times, so the ranking matters),
接口 in 40. Every turn has as many tokens as every other, so turns holding a word as often
are ranked alike within a part (each part ranks by its own statistics) and the newest of
them comes first."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from turnlog.core.model import Usage
from turnlog.core.search import match_expression, parse_query
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore
from turnlog.store import search as search_index
from turnlog.store.search import BLOCK, COUNT_CAP, RANK_WINDOW, MatchCount

pytest_plugins = ["uiwindow"]

TURNS = 20_000
ROUNDS = ((0, 1_700), (1, 1_700), (2, 1_600))  # (conversation, turns) of each round
STAMP = datetime(2026, 3, 1, tzinfo=UTC)


def texts(n: int) -> tuple[str, str]:
    """Turn `n`'s question and answer: ten tokens each time (six of them Chinese pairs)."""
    place = "meadow" if n % 100 == 99 else "garden"
    roses = n % 5
    answer = " ".join(["rose"] * roses + ["bed"] * (4 - roses))
    word = "接口" if n % 500 == 7 else "花园"
    return f"turn {n} in the {place}", f"{answer} 新的{word}说明"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, dict[int, list[tuple[int, int]]]]:
    """The data directory, and for each conversation its turns as (ordinal, n)."""
    home = tmp_path_factory.mktemp("large-log")
    placed: dict[int, list[tuple[int, int]]] = {}
    with TurnlogStore.open(home) as store:
        ids = [store.conversations.create(title).id for title in ("Alpha", "Beta", "Gamma")]
        n = 0
        while n < TURNS:
            for which, count in ROUNDS:
                batch = []
                for _ in range(count):
                    question, answer = texts(n)
                    batch.append(PendingTurn(f"t{n}", question, answer, "m", "stop", Usage(),
                                             STAMP + timedelta(seconds=n)))
                    placed.setdefault(ids[which], []).append(
                        (len(placed.get(ids[which], [])) + 1, n))
                    n += 1
                store.turns.commit_many(ids[which], batch)
    return home, placed


@pytest.fixture
def store(built, turnlog_home):
    """A copy of the large log, opened (the window's tests take `store` too)."""
    for path in built[0].glob("turnlog.sqlite3*"):
        shutil.copy(path, turnlog_home / path.name)
    opened = TurnlogStore.open(turnlog_home)
    yield opened
    opened.close()


def newest_first(built, word: str) -> list[str]:
    """The turns holding `word`, the newest (largest conversation, then ordinal) first."""
    _home, placed = built
    keyed = [(cid, ordinal, n) for cid, turns in placed.items() for ordinal, n in turns
             if word in " ".join(texts(n))]
    return [f"t{n}" for _cid, _ordinal, n in sorted(keyed, reverse=True)]


def test_a_word_in_99_percent_of_turns_gives_its_first_page_newest_first_and_a_capped_count(
        store, built):
    hits = store.search("garden", limit=100)
    assert [hit.turn_id for hit in hits] == newest_first(built, "garden")[:100]
    assert hits[0].title == "Gamma" and hits[0].snippet.marked() == f"turn {TURNS - 2} in " \
        "the [garden]"
    assert len(newest_first(built, "garden")) == 19_800
    assert store.search.count("garden") == MatchCount(0, COUNT_CAP, more=True)
    assert store.search.count("rose") == MatchCount(0, COUNT_CAP, more=True)
    assert store.search.count("meadow") == MatchCount(0, 200, more=False)


def test_two_chinese_characters_still_find_their_turns_among_20000(store, built):
    hits = store.search("接口", limit=100)
    assert sorted(hit.turn_id for hit in hits) == sorted(newest_first(built, "接口"))
    assert keys(hits) == reference(store, "接口", RANK_WINDOW)  # ranked: parts differ
    assert len(hits) == TURNS // 500
    assert all(hit.snippet.marked().endswith("新的[接口]说明") for hit in hits)
    assert store.search.count("接口") == MatchCount(0, TURNS // 500)


def keys(hits) -> list[int]:
    return [(hit.conversation_id << 32) | (hit.ordinal or 0) for hit in hits]


def reference(store: TurnlogStore, query: str, window: int) -> list[int]:
    """Every match's key ranked as the search promises, computed the plain way: each part's
    bm25 of every match, the newest `window` keys kept, best score first, newest on ties."""
    expression = match_expression(parse_query(query))
    scored = []
    for part in range(search_index.parts_in_use(store.db)):
        table = f'"search_part_{part}"'
        scored += store.db.execute_sql(f"SELECT rowid, bm25({table}) FROM {table} WHERE "
                                       f"{table} MATCH ?", (expression,)).fetchall()
    newest = sorted(scored, reverse=True)[:window]
    return [key for key, _score in sorted(newest, key=lambda row: (row[1], -row[0]))]


@pytest.mark.parametrize("window", [700, 5_000, 30_000])
def test_the_pages_hold_the_ranked_newest_matches_in_order_whatever_parts_hold_them(
        store, monkeypatch, window):
    """The parts' keys overlap (three conversations written in turns): the newest matches
    are found wherever they are, ranked exactly as a plain ranking of all of them."""
    assert search_index.parts_in_use(store.db) == -(-TURNS // BLOCK)
    monkeypatch.setattr(search_index, "RANK_WINDOW", window)
    for query in ("rose", "garden", "meadow", "接口", '"rose rose rose"', "meadow rose",
                  '"rose rose rose rose"'):
        expected = reference(store, query, window)
        for offset in (0, 100, max(0, min(window, len(expected)) - 60)):
            page = store.search(query, limit=100, offset=offset, titles=False)
            assert keys(page) == expected[offset:offset + 100], (query, offset)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, timeout=120, env=os.environ.copy())


def test_the_cli_lists_its_limited_first_page_and_says_the_count_as_the_window_does(
        store, built):
    store.close()
    result = cli("search", "garden")
    assert result.returncode == 0, result.stderr
    assert result.stderr == "more than 10,000 matches, 20 shown (--limit for more)\n"
    lines = result.stdout.splitlines()
    assert len(lines) == 40 and "  turn 6399  " in lines[0] and lines[0].endswith("Gamma")
    found = json.loads(cli("search", "garden", "--json", "--limit", "7").stdout)["results"]
    assert [hit["turn_id"] for hit in found] == newest_first(built, "garden")[:7]
    result = cli("search", "接口", "--limit", "5")
    assert result.stderr == "40 matches, 5 shown (--limit for more)\n"


def search_in(qtbot, window, query: str):
    window.finder.action.trigger()
    panel = window.finder.panel
    qtbot.waitUntil(lambda: window.finder.dock.isVisible())
    panel.field.setText(query)  # QTest cannot type Chinese
    panel.run()
    qtbot.waitUntil(lambda: panel.searched_query == query, timeout=10_000)
    return panel


def test_the_window_shows_the_first_page_then_more_than_10000_matches(qtbot, store,
                                                                       make_window, built):
    window = make_window()
    panel = search_in(qtbot, window, "garden")
    assert [hit.turn_id for hit in panel.model.hits] == newest_first(built, "garden")[:100]
    qtbot.waitUntil(lambda: "counting" not in panel.status.text(), timeout=10_000)
    assert panel.status.text() == "More than 10,000 matches, 100 shown."
    assert panel.more.isVisible()
    panel = search_in(qtbot, window, "meadow")
    qtbot.waitUntil(lambda: "counting" not in panel.status.text(), timeout=10_000)
    assert panel.status.text() == "200 matches, 100 shown."
    panel = search_in(qtbot, window, "接口")
    assert panel.status.text() == "40 matches."
    assert keys(panel.model.hits) == reference(store, "接口", RANK_WINDOW)
