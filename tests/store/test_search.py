"""Full-text search: what a query finds, on a real SQLite file through the store, and the
query rules checked against a naive substring search (hypothesis)."""

from __future__ import annotations

import re
import shutil
import sqlite3
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from places import DATA
from searchindex import distinctive_tokens, index_hits, index_terms
from turnlog.core.imports import ImportCancelled, ImportedConversation, ImportedTurn
from turnlog.core.model import Usage
from turnlog.core.search import index_text, match_expression, parse_query
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore
from turnlog.store.errors import StoreError
from turnlog.store.migrations import MIGRATIONS, V_SEARCH
from turnlog.store.search import BLOCK, PARTS, RANK_WINDOW, SCHEMA, install

STAMP = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def pending(turn_id: str, question: str, answer: str = "ok", minutes: int = 0) -> PendingTurn:
    return PendingTurn(turn_id, question, answer, "m", "stop", Usage(),
                       STAMP + timedelta(minutes=minutes))


@pytest.fixture
def store(turnlog_home):
    s = TurnlogStore.open(turnlog_home)
    yield s
    s.close()


def found(store: TurnlogStore, query: str) -> list[str]:
    """The turns a search finds (titles apart)."""
    return [hit.turn_id for hit in store.search(query, limit=100) if hit.turn_id is not None]


@pytest.fixture
def garden(store) -> TurnlogStore:
    work = store.conversations.create("API 接口设计")
    home = store.conversations.create("Weekend")
    for i, (question, answer) in enumerate([
        ("这个接口的预算是多少？", "预算表在共享盘里。"),
        ("What is the project code?", "It is ORCHID-17, kept in the vault."),
        ("How does C++ embedding work?", "Use a and b; NOT this one. \"Quotes\" too."),
        ("一", "字"),
        ("Plain words about the rolling summary cache", "the cache rolls"),
    ]):
        store.turns.commit(work.id, pending(f"w{i}", question, answer, i))
    store.turns.commit(home.id, pending("h0", "去香山看红叶", "Bring a summary of the trail", 9))
    return store


def test_index_text_pairs_chinese_runs_and_leaves_other_text_alone():
    assert index_text("预算表 and ORCHID-17") == " 预算 算表 表  and ORCHID-17"
    assert index_text("Plain English, no change.") == "Plain English, no change."
    assert index_text("一") == " 一 "


def reference_index_text(text: str) -> str:
    """`index_text` as first released, one run at a time: the index's deletes need the
    very text it indexed, so the faster one must give the same, character for character."""
    cjk = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff" \
          "\U00020000-\U0003134f"

    def pairs(run: str) -> str:
        if len(run) == 1:
            return run
        return " ".join([*(run[i:i + 2] for i in range(len(run) - 1)), run[-1]])
    return re.sub(f"[{cjk}]+", lambda m: " " + pairs(m.group()) + " ", text)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from("接口预算表 a1-。、\n𠀀ひカ\u3400\uf900\u30ff\u3040"
                                        "\u9fff\u4e00é\u0301"), max_size=30) | st.text())
def test_index_text_is_the_released_derivation(text):
    assert index_text(text) == reference_index_text(text)


@pytest.mark.parametrize(("query", "expected"), [
    ("接口", ["w0"]),  # a 2-character word inside a longer run
    ("预算", ["w0"]),
    ("预", ["w0"]),  # 1 character, in the middle of a run
    ("算", ["w0"]),
    ("一", ["w3"]),  # a run of 1
    ("预算表", ["w0"]),
    ("表在共享", ["w0"]),
    ("共享盘里", ["w0"]),
    ("香山", ["h0"]),
    ("ORCHID-17", ["w1"]),
    ("orch", ["w1"]),  # a prefix
    ("vault", ["w1"]),
    ('"kept in the vault"', ["w1"]),
    ('"kept the vault"', []),  # a phrase is exact
    ("embed", ["w2"]),
    ("C++", ["w2"]),
    ("a AND b", ["w2"]),
    ("NOT", ["w2"]),
    ('"Quotes', ["w2"]),  # an unbalanced quote is a character
    ("*", []),
    ("++", []),
    ('"', []),
    ("", []),
    ("NEAR(a b)", []),
    ("title:接口", []),
    ("预算 vault", []),  # every word must match
    ("接口 预算", ["w0"]),
    ("算表外", []),
])
def test_plain_text_queries_find_what_they_say_or_nothing(garden, query, expected):
    assert found(garden, query) == expected


def test_titles_match_first_and_a_rename_is_found_at_once(garden):
    hits = garden.search("接口")
    assert [(h.turn_id, h.title) for h in hits] == [(None, "API 接口设计"), ("w0", "API 接口设计")]
    assert hits[0].snippet.marked() == "API [接口]设计"
    weekend = next(c for c in garden.conversations() if c.title == "Weekend")
    garden.conversations.update(weekend.id, title="周末计划")
    assert [h.title for h in garden.search("计划")] == ["周末计划"]
    assert garden.search("weekend") == []


def test_results_are_ranked_then_newest_first(store):
    conv = store.conversations.create("ranking")
    store.turns.commit(conv.id, pending("once", "a tulip " + "filler " * 40))
    store.turns.commit(conv.id, pending("many", "tulip tulip tulip tulip " + "filler " * 40))
    store.turns.commit(conv.id, pending("once-newer", "a tulip " + "filler " * 40))
    assert found(store, "tulip") == ["many", "once-newer", "once"]


def test_a_hit_says_where_it_is_with_the_match_marked(garden):
    (hit,) = garden.search("香山")
    conversation = next(c for c in garden.conversations() if c.title == "Weekend")
    assert (hit.conversation_id, hit.title, hit.ordinal, hit.turn_id) == (
        conversation.id, "Weekend", 1, "h0")
    assert hit.created_at == STAMP + timedelta(minutes=9)
    assert hit.superseded is False
    assert hit.snippet.marked() == "去[香山]看红叶"
    assert hit.to_json() == {"conversation": conversation.id, "title": "Weekend", "turn": 1,
                             "turn_id": "h0", "snippet": "去[香山]看红叶", "superseded": False}


def test_a_long_answer_gives_a_short_snippet_around_the_match(store):
    conv = store.conversations.create("long")
    answer = "lorem ipsum " * 200 + "the HYACINTH bulbs\nneed cold " + "dolor sit " * 200
    store.turns.commit(conv.id, pending("long", "q", answer))
    snippet = store.search("hyacinth")[0].snippet
    assert snippet.cut_before and snippet.cut_after and len(snippet.text) <= 200
    assert "[HYACINTH] bulbs need cold" in snippet.marked()


def test_the_sidebar_filter_keeps_conversations_whose_turns_match(garden):
    assert [c.title for c in garden.conversations("红叶")] == ["Weekend"]
    assert [c.title for c in garden.conversations("summary")] == ["Weekend", "API 接口设计"]
    assert [c.title for c in garden.conversations("pi 接")] == ["API 接口设计"]  # title text
    assert garden.conversations("nothing-like-this") == []


def test_a_turn_is_indexed_in_its_commit_and_a_refused_commit_leaves_nothing(store):
    conv = store.conversations.create("c")
    store.turns.commit(conv.id, pending("t1", "first MARIGOLD"))
    assert found(store, "marigold") == ["t1"]
    stale = PendingTurn("t2", "second MARIGOLD", "a", "m", "stop", Usage(), STAMP, generation=7)
    with pytest.raises(StoreError):
        store.turns.commit(conv.id, stale)
    assert found(store, "marigold") == ["t1"]
    assert "second" not in index_terms(store.path)


def test_turns_written_many_at_once_are_indexed_too(store):
    """Rows written by any code (an import's batched insert), not only commit_turn."""
    conv = store.conversations.create("imported")
    store.turns.commit_many(conv.id, [pending(f"i{n}", f"imported question {n} 兰花")
                                      for n in range(50)])
    with store.db.atomic():
        store.db.cursor().executemany(
            "INSERT INTO turns (id, conversation_id, ordinal, question, answer, model, "
            "finish_reason, created_at) VALUES (?, ?, ?, ?, ?, 'm', 'stop', ?)",
            [(uuid.uuid4().hex, conv.id, 100 + n, f"raw {n} 郁金香", "a", STAMP.isoformat())
             for n in range(30)])
    assert len(store.search("兰花", limit=100)) == 50
    assert len(store.search("郁金香", limit=100)) == 30


def test_deletes_take_the_tokens_out_of_the_index(garden):
    tokens = distinctive_tokens("ORCHID-17")  # none: "orchid" and "17" apart
    assert not tokens
    conv = garden.conversations.create("secrets")
    garden.turns.commit(conv.id, pending("s1", "ZEBRA7CODE 机密兰花 x1secret", "SHADOW9 y1secret"))
    garden.turns.commit(conv.id, pending("s2", "keep k2secret", "keep"))
    assert index_hits(garden.home, ["x1secret y1secret"]) == []  # the store holds the file open
    garden.close()
    assert {t for _, t in index_hits(garden.home, ["x1secret y1secret zebra7code"])} == {
        "x1secret", "y1secret", "zebra7code"}
    with TurnlogStore.open(garden.home) as store:
        store.privacy.delete_turn("s1")
        assert found(store, "zebra7code") == [] and found(store, "x1secret") == []
        assert found(store, "k2secret") == ["s2"]
    assert index_hits(garden.home, ["x1secret y1secret zebra7code shadow9"]) == []
    with TurnlogStore.open(garden.home) as store:
        store.privacy.delete_conversation(conv.id)
        assert found(store, "k2secret") == [] and store.search("secrets") == []
        assert found(store, "香山") == ["h0"]
    assert index_hits(garden.home, ["k2secret"]) == []
    with TurnlogStore.open(garden.home) as store:
        store.privacy.delete_all()
        assert store.search("香山") == [] and store.search("api") == []
        conv = store.conversations.create("after")
        store.turns.commit(conv.id, pending("n1", "a new 香山 turn"))
        assert found(store, "香山") == ["n1"]
        store.privacy.delete_turn("n1")  # the delete trigger still works after delete-all
        assert found(store, "香山") == []
    assert index_terms(garden.home / "turnlog.sqlite3") <= {"after"}


FIXTURES = sorted(int(p.stem.removeprefix("turnlog-v")) for p in DATA.glob("turnlog-v*.sqlite3"))


# Databases made before the search step (a later step's upgrade has no index to fill).
@pytest.mark.parametrize("version", [v for v in FIXTURES if v <= MIGRATIONS.index(V_SEARCH)])
def test_an_upgraded_database_is_searchable_with_its_progress_reported(tmp_path, version):
    home = tmp_path / "home"
    home.mkdir()
    shutil.copyfile(DATA / f"turnlog-v{version}.sqlite3", home / "turnlog.sqlite3")
    con = sqlite3.connect(f"file:{home / 'turnlog.sqlite3'}?immutable=1", uri=True)
    total = con.execute("SELECT count(*) FROM turns").fetchone()[0]
    con.close()
    heard: list[tuple[int, int]] = []
    with TurnlogStore.open(home, progress=lambda done, total: heard.append((done, total))) as s:
        assert [h.turn_id for h in s.search("香山")] == ["fx-zh-1"]
        assert [h.turn_id for h in s.search("外套")] == ["fx-zh-2"]
        assert [(h.turn_id, h.title) for h in s.search("周末")][:2] == [
            (None, "周末计划 🗓️"), ("fx-zh-1", "周末计划 🗓️")]
        assert [h.turn_id for h in s.search("directions")] == ["fx-rtl-3"]
    assert heard[0] == (0, total) and heard[-1] == (total, total)
    count = len(heard)
    with TurnlogStore.open(home, progress=lambda done, total: heard.append((done, total))):
        pass
    assert len(heard) == count  # already current: no fill again


def test_a_plain_sqlite_connection_writes_turns_with_the_index_function(turnlog_home):
    TurnlogStore.open(turnlog_home).close()
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    with pytest.raises(sqlite3.OperationalError, match="turnlog_search_text_v1"):
        con.execute("INSERT INTO conversations (title, system_prompt, model, settings, "
                    "created_at, updated_at, next_ordinal, generation) "
                    "VALUES ('x', '', '', '{}', '', '', 1, 0)")
    install(con)
    con.execute("INSERT INTO conversations (title, system_prompt, model, settings, "
                "created_at, updated_at, next_ordinal, generation) "
                "VALUES ('花园', '', '', '{}', '', '', 1, 0)")
    con.commit()
    con.close()
    with TurnlogStore.open(turnlog_home) as store:
        assert [h.title for h in store.search("花园")] == ["花园"]


# ---------------------------------------------------------------- against a naive search
HAN = "接口预算表山红叶"
WORDS = ["tulip", "tulips", "fence", "garden", "gardener", "rose"]
texts = st.lists(st.one_of(st.text(alphabet=HAN, min_size=1, max_size=6),
                           st.sampled_from(WORDS), st.sampled_from([" ", ", ", "。", "-"])),
                 max_size=12).map("".join)


def naive(docs: list[str], query: str) -> set[int]:
    """Chinese: a plain substring; a word: some word of the text starts with it."""
    if re.fullmatch(f"[{HAN}]+", query):
        return {i for i, d in enumerate(docs) if query in d}
    return {i for i, d in enumerate(docs)
            if any(w.startswith(query) for w in re.findall(r"[a-z]+", d))}


def fts(docs: list[str], query: str) -> set[int]:
    con = sqlite3.connect(":memory:")
    con.execute(next(s for s in SCHEMA if '"search_turns"' in s and "VIRTUAL" in s))
    con.executemany('INSERT INTO "search_turns" (rowid, question, answer) VALUES (?, ?, "")',
                    [(i, index_text(d)) for i, d in enumerate(docs)])
    expression = match_expression(parse_query(query))
    assert expression is not None
    return {r for (r,) in con.execute(
        'SELECT rowid FROM "search_turns" WHERE "search_turns" MATCH ?', (expression,))}


@settings(max_examples=300, deadline=None)
@given(st.lists(texts, min_size=1, max_size=8), st.data())
def test_chinese_of_any_length_and_word_prefixes_match_like_a_naive_search(docs, data):
    source = data.draw(st.sampled_from(docs))
    runs = re.findall(f"[{HAN}]+", source)
    words = re.findall("[a-z]+", source)
    if runs and data.draw(st.booleans()):
        run = data.draw(st.sampled_from(runs))
        start = data.draw(st.integers(0, len(run) - 1))
        query = run[start:data.draw(st.integers(start + 1, len(run)))]
    elif words:
        word = data.draw(st.sampled_from(words))
        query = word[:data.draw(st.integers(1, len(word)))]
    else:
        return
    assert fts(docs, query) == naive(docs, query)


@given(st.text(max_size=40))
def test_no_query_is_an_fts5_error(query):
    expression = match_expression(parse_query(query))
    if expression is None:
        return
    con = sqlite3.connect(":memory:")
    con.execute(next(s for s in SCHEMA if '"search_turns"' in s and "VIRTUAL" in s))
    con.execute("INSERT INTO search_turns (rowid, question, answer) VALUES (1, 'x', 'y')")
    con.execute('SELECT rowid FROM "search_turns" WHERE "search_turns" MATCH ?', (expression,))


def test_a_superseded_version_is_found_and_marked(store):
    conv = store.conversations.create("versions")
    store.turns.commit(conv.id, pending("v1", "Which CROCUS colour?", "Purple."))
    store.turns.commit(conv.id, PendingTurn("v2", "Which CROCUS colour?", "Yellow, then.", "m",
                                            "stop", Usage(), STAMP, replaces="v1"))
    hits = {h.turn_id: (h.superseded, h.ordinal, h.row_ordinal)
            for h in store.search("crocus")}
    assert hits == {"v1": (True, 1, 2), "v2": (False, 2, 2)}
    assert store.search("purple")[0].to_json()["superseded"] is True


# ------------------------------------------------------------------- a log of many parts
def imported(store: TurnlogStore, texts: list[tuple[str, str]]) -> int:
    """One conversation of `texts` (question, answer), written as an import writes."""
    turns = [ImportedTurn(pending(f"m{n}", q, a)) for n, (q, a) in enumerate(texts)]
    (outcome,) = store.imports.write([ImportedConversation("many", "", "m", turns)])
    assert outcome.id is not None
    return outcome.id


def part_pages(store: TurnlogStore) -> dict[int, list[bytes]]:
    return {part: [b for (b,) in store.db.execute_sql(
        f'SELECT block FROM "search_part_{part}_data" ORDER BY id')]
        for part in range(PARTS)}


def test_a_large_log_is_ranked_among_its_newest_matches_and_a_delete_merges_one_part(store):
    """More turns than one part takes (`BLOCK`) and more matches than are ranked
    (`RANK_WINDOW`): the best of the newest matches comes first, a word is found in
    whichever part holds it, and deleting a turn rewrites only its part, leaving no token."""
    count = RANK_WINDOW + 1_000
    assert count > BLOCK
    texts = [(f"turn {n} about a tulip", "filler words " * 5) for n in range(count)]
    texts[0] = ("tulip " * 8 + "the OLDEST z0secret", "filler")  # outside the window
    texts[-1] = ("tulip " * 8 + "the newest", "filler")
    texts[10] = ("a rare MARIGOLD here", "x")
    texts[BLOCK + 10] = ("another MARIGOLD there", "y")
    imported(store, texts)
    best = store.search("tulip", limit=3)
    assert best[0].turn_id == f"m{count - 1}"
    assert "m0" not in {h.turn_id for h in store.search("tulip", limit=100)}
    assert found(store, "oldest") == ["m0"]  # found by what it alone holds
    assert sorted(found(store, "marigold")) == sorted([f"m{BLOCK + 10}", "m10"])
    before = part_pages(store)
    store.privacy.delete_turn("m0")
    after = part_pages(store)
    assert after[1] == before[1] and after[0] != before[0]
    assert found(store, "oldest") == [] and len(found(store, "marigold")) == 2
    store.close()
    assert index_hits(store.home, ["z0secret"]) == []


def test_after_an_import_or_a_cancelled_one_a_new_turn_is_indexed_by_its_commit(store):
    """An import indexes its turns itself, with the per-turn trigger set aside inside its
    transaction: after it, and after a cancel rolled one back, commits are indexed again."""
    imported(store, [("imported PEONY", "a"), ("more", "b")])
    assert found(store, "peony") == ["m0"]
    turns = [ImportedTurn(pending("c0", "cancelled DAHLIA", "a"))]
    with pytest.raises(ImportCancelled):
        store.imports.write([ImportedConversation("no", "", "m", turns)],
                            cancelled=lambda: True)
    assert found(store, "dahlia") == []
    conv = store.conversations.create("after")
    store.turns.commit(conv.id, pending("n1", "a committed LILAC"))
    assert found(store, "lilac") == ["n1"]
    store.privacy.delete_turn("m0")
    assert found(store, "peony") == []


def damage_text(home: Path, turn_id: str) -> None:
    """Write bytes that are not UTF-8 into a turn's question, as another program (or
    damage) might: the index can no longer derive the text it holds for that turn."""
    con = sqlite3.connect(home / "turnlog.sqlite3")
    con.execute("UPDATE turns SET question = CAST(X'ff00fe' AS TEXT) WHERE id = ?", (turn_id,))
    con.commit()
    con.close()


def test_a_turn_whose_text_is_not_utf8_is_deleted_with_nothing_left_in_the_index(store):
    """The index's delete trigger cannot read a damaged turn's text: the turn is still
    deleted (alone, then a conversation holding another), the part that held it is indexed
    again from what remains, and no token of the deleted text stays in the index."""
    conv = store.conversations.create("damaged")
    store.turns.commit(conv.id, pending("d1", "broken q1secret", "ANSWER d1secret"))
    store.turns.commit(conv.id, pending("d2", "kept k2secret", "kept"))
    other = store.conversations.create("other")
    store.turns.commit(other.id, pending("o1", "gone g3secret", "GONE a3secret"))
    store.turns.commit(other.id, pending("o2", "gone too g4secret", "x"))
    home = store.home
    store.close()
    damage_text(home, "d1")
    damage_text(home, "o2")
    with TurnlogStore.open(home) as again:
        again.privacy.delete_turn("d1")
        assert [t.id for t in again.turns(conv.id)] == ["d2"]
        assert found(again, "k2secret") == ["d2"] and found(again, "d1secret") == []
        again.privacy.delete_conversation(other.id)
        assert found(again, "g3secret") == [] and found(again, "k2secret") == ["d2"]
        again.turns.commit(conv.id, pending("d3", "after n5secret", "x", 5))
        assert found(again, "n5secret") == ["d3"]
        again.privacy.delete_turn("d3")  # the trigger is back
        assert found(again, "n5secret") == []
    assert index_hits(home, ["q1secret d1secret g3secret a3secret g4secret n5secret"]) == []
    assert {t for _, t in index_hits(home, ["k2secret"])} == {"k2secret"}
