"""What request records that rebuild their body cost: storage per 1,000 requests on a long
conversation with many compactions, and the time to rebuild and verify one request.

    .venv/bin/python tests/bench/records.py [--turns 100000] [--requests 1000]
                                            [--compactions 200] [--all-ids]

A conversation of `--turns` turns (about 300 bytes each) with a system prompt, three
pinned facts, a note, a preference and a tool offered takes `--requests` more questions.
Each request is planned by core's `project` over the store's paged log (the summary of
the moment standing in for the oldest turns), its answer committed and its record written
through `store.records.add` with the references the sender keeps (`proof_of`); a new
summary is saved `--compactions` times, evenly (naming as its provenance the turns folded
since the previous one; `--all-ids`: every turn it covers, as a compaction does, which
makes the run take the compaction's own time — the list is not kept for the summaries
kept only because a record shows them), and every 50th request one pinned fact is
edited by adding to it (a new version the older records keep showing). Printed side by
side: the bytes of the record tables (SQLite's own page count, `dbstat`) per request,
against the same records' ordinal-run columns alone (what a record kept before); the
kept versions (texts, summaries kept only because a record shows them, tool sets); and
the time to rebuild and verify the newest request (median of 21; goal ≤ 50 ms) beside the
time `project` takes to plan one request on the same log (their ratio). The same replay
then runs again with records as they were before request hashes (no references, no
hashes, no kept versions): the storage of the two, side by side, and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "desktop"))

from turnlog.core.attachments import Question  # noqa: E402
from turnlog.core.compaction import SummaryDraft, summary_text  # noqa: E402
from turnlog.core.model import ConversationSettings, Usage  # noqa: E402
from turnlog.core.projection import SummaryPart, project, proof_of  # noqa: E402
from turnlog.core.proof import sha256_hex  # noqa: E402
from turnlog.core.send import PendingTurn, RequestRecord  # noqa: E402
from turnlog.core.tools import ToolSpec  # noqa: E402
from turnlog.service.chat import Route, request_for  # noqa: E402
from turnlog.service.request_body import request_of_turn  # noqa: E402
from turnlog.store import TurnlogStore  # noqa: E402

STAMP = datetime(2026, 12, 1, tzinfo=UTC)
TOOL = ToolSpec("read_file", "Read a file of the project.",
                {"type": "object", "properties": {"path": {"type": "string"}}})


def pending(n: int) -> PendingTurn:
    return PendingTurn(f"t{n:06d}", f"Question {n}: what about the garden beds? " * 3,
                       f"Answer {n}: water them in the morning, mulch them well. " * 3,
                       "m", "stop", Usage(40, 30, 70), STAMP)


def table_bytes(store: TurnlogStore, tables: tuple[str, ...]) -> int:
    """Bytes of the pages SQLite holds for these tables and their indexes."""
    marks = ", ".join("?" * len(tables))
    return int(store.db.execute_sql(
        f"SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN ({marks})",
        tables).fetchone()[0]) + index_bytes(store, tables)


def index_bytes(store: TurnlogStore, tables: tuple[str, ...]) -> int:
    marks = ", ".join("?" * len(tables))
    names = [n for (n,) in store.db.execute_sql(
        f"SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ({marks})",
        tables)]
    if not names:
        return 0
    marks = ", ".join("?" * len(names))
    return int(store.db.execute_sql(
        f"SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN ({marks})",
        names).fetchone()[0])


def seed(store: TurnlogStore, turns: int) -> int:
    conv = store.conversations.create(
        "bench", model="bench-model", system_prompt="You are a careful gardener. Be brief.",
        settings=ConversationSettings(max_bytes=16_000, context_window=32_768))
    for start in range(1, turns + 1, 10_000):
        store.turns.commit_many(conv.id, [pending(n) for n in range(
            start, min(turns, start + 9_999) + 1)])
    for fact in ("The garden is 12 m by 8 m.", "Never use peat.", "Beds face south."):
        store.memory.add_pin(conv.id, fact)
    store.memory.add_note(conv.id, "The soil is clay.", priority=4)
    store.memory.add_preference("Metric units.", priority=5)
    return conv.id


def summarize(store: TurnlogStore, cid: int, log, n: int, folded_from: int,
              all_ids: bool) -> tuple[object, int]:
    """Save summary `n`, standing in for all but the newest 40 turns. Its provenance names
    the turns folded since the previous one (`all_ids`: every turn it covers, as a real
    compaction writes it — the compaction's own cost, minutes on a 100,000-turn log)."""
    covered = len(log) - 40
    ids = log.ids(0 if all_ids else folded_from, covered)
    stored = store.records.save_summary(cid, SummaryDraft(
        tuple(ids), log[0].ordinal, log[covered - 1].ordinal, f"digest-{n}",
        f"Summary {n}: the garden beds, watering in the morning, mulch, no peat. " * 8,
        "m", "bench", 200, (), (), store.conversations.generation(cid)))
    return stored, covered


def one_request(store: TurnlogStore, cid: int, i: int, summary,
                proofs: bool = True) -> tuple[float, str]:
    """Plan, commit and record request `i`; the seconds `project` took, and its turn id."""
    conv = store.conversations.get(cid)
    memory = store.memory(cid)
    question = f"Request {i}: and the tomatoes? " * 2
    request = request_for(conv, question, Route("bench-model"), memory=memory)
    log = store.turns.log(cid)
    started = time.perf_counter()
    projection = project(log, Question(question), model=request.model, budget=request.budget,
                         system_prompt=conv.system_prompt, options=request.options,
                         pinned=memory, summary=summary, tools=(TOOL,))
    planned = time.perf_counter() - started
    turn = store.turns.commit(cid, PendingTurn(f"q{i:05d}", question, "Stake them early.",
                                               "m", "stop", Usage(900, 5, 905), STAMP))
    store.records.add(RequestRecord(
        cid, STAMP, request.model, "committed", projection.body_bytes,
        request.budget.max_bytes, projection.input_tokens, request.budget.input_tokens,
        projection.tokens_exact, projection.sent, projection.summarized, projection.left_out,
        turn_id=turn.id, summary_id=summary.summary_id if summary else None,
        proof=proof_of(projection, conv.system_prompt, memory, [sha256_hex(projection.body)])
        if proofs else None))
    return planned, turn.id


def run(turns: int, requests: int, compactions: int, all_ids: bool, proofs: bool = True
        ) -> int:
    """One replay; the bytes of its record rows (with `proofs` off: records as they were
    before request hashes, the side-by-side baseline)."""
    with tempfile.TemporaryDirectory() as home:
        store = TurnlogStore.open(Path(home))
        store.records.max_per_conversation = max(requests, 5_000)
        started = time.perf_counter()
        cid = seed(store, turns)
        print(f"seeded {turns:,} turns in {time.perf_counter() - started:.1f} s", flush=True)
        every = max(1, requests // compactions)
        summary, planned, last, folded = None, [], "", 0
        started = time.perf_counter()
        for i in range(requests):
            if i % every == 0:
                stored, covered = summarize(store, cid, store.turns.log(cid), i // every,
                                            folded, all_ids)
                summary, folded = SummaryPart(summary_text(stored), covered, stored.id), covered
            if i % 50 == 49:
                pin = store.memory.pins(cid)[0]
                store.memory.edit_pin(pin.id, pin.text + f" (+{i})")
            seconds, last = one_request(store, cid, i, summary, proofs)
            planned.append(seconds)
        print(f"{requests:,} requests with {compactions} compactions in "
              f"{time.perf_counter() - started:.1f} s", flush=True)
        if not proofs:
            found = table_bytes(store, ("requests",))
            store.close()
            return found
        report(store, cid, requests, last, statistics.median(planned))
        found = table_bytes(store, ("requests", "text_sets", "text_set_members",
                                    "kept_texts", "tool_sets"))
        store.close()
        return found


def report(store: TurnlogStore, cid: int, requests: int, last: str, plan_s: float) -> None:
    records = table_bytes(store, ("requests",))
    runs = store.db.execute_sql(
        "SELECT sum(length(sent) + length(summarized) + length(left_out)), "
        "sum(length(coalesce(sha256, '')) + length(coalesce(options, '')) "
        "+ length(coalesce(run_first, '')) + length(coalesce(run_last, '')) "
        "+ length(coalesce(tools_digest, '')) + 24) FROM requests").fetchone()
    links = table_bytes(store, ("text_sets", "text_set_members"))
    texts = table_bytes(store, ("kept_texts",))
    tools = table_bytes(store, ("tool_sets",))
    kept = store.db.execute_sql(
        "SELECT count(*), coalesce(sum(length(content) + length(covered_ids)), 0) FROM "
        "summaries WHERE conversation_id = ?", (cid,)).fetchone()
    versions = store.db.execute_sql("SELECT count(*) FROM kept_texts").fetchone()[0]
    per = 1_000 / requests
    print(f"per 1,000 requests: record rows {records * per / 1024:,.0f} KiB "
          f"({records / requests:,.0f} B a request, pages and index included)")
    print(f"  of which ordinal runs (what a record kept before) {runs[0] / requests:,.0f} B, "
          f"references and hashes {runs[1] / requests:,.0f} B a request (column bytes)")
    print(f"  lists of texts carried (each distinct one once): {links / 1024:,.0f} KiB; kept "
          f"versions: "
          f"{versions} texts in {texts / 1024:,.0f} KiB, tool sets {tools / 1024:,.0f} KiB")
    print(f"  summaries kept (3 newest, the rest only while a record shows them): {kept[0]} "
          f"holding {kept[1] / 1024:,.0f} KiB")
    times = []
    for _ in range(21):
        started = time.perf_counter()
        rebuilt = request_of_turn(store, cid, last)
        times.append(time.perf_counter() - started)
        assert rebuilt.verified, rebuilt.why
    rebuild_s = statistics.median(times)
    print(f"rebuild and verify one request at {store.turns.count(cid):,} turns: "
          f"{rebuild_s * 1000:.1f} ms (goal <= 50 ms; median of 21), "
          f"{len(rebuilt.body or b''):,} bytes, {sum(p.kind == 'turn' for p in rebuilt.parts)} "
          f"turns verbatim")
    print(f"planning one request (project) on the same log: {plan_s * 1000:.1f} ms; "
          f"rebuild/plan = {rebuild_s / plan_s:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=1_000)
    parser.add_argument("--compactions", type=int, default=200)
    parser.add_argument("--all-ids", action="store_true",
                        help="each summary names every turn it covers (slow: the compaction's "
                             "own cost)")
    args = parser.parse_args()
    after = run(args.turns, args.requests, args.compactions, args.all_ids)
    print("the same replay with records as they were before request hashes:", flush=True)
    before = run(args.turns, args.requests, args.compactions, args.all_ids, proofs=False)
    print(f"record storage per 1,000 requests: before {before * 1_000 / args.requests / 1024:,.0f}"
          f" KiB, now {after * 1_000 / args.requests / 1024:,.0f} KiB with every kept version "
          f"and list (ratio {after / before:.2f})")


if __name__ == "__main__":
    main()
