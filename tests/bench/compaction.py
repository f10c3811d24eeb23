"""Compaction over a long replay: summary calls, request sizes and input bytes, side by side
with an earlier revision of Turnlog, in one run.

    .venv/bin/python tests/bench/compaction.py [--sends 200] [--turns 120] [--before REV]
                                               [--answer-chars N]

A conversation of `--turns` turns of about 430 bytes (the first three state key facts:
"Never delete the backups", "build 4.2.17", "ORCHID-17") at the default 16,000-byte
budget takes `--sends` more questions through `sender_for` — the send path of the window
and `turnlog-cli ask` — over real HTTP to the loopback server of the tests, which answers
each question with about 210 bytes and each summary call with an extractive summary (the
previous summary's lines plus the first sentence of every folded question; over 1,500
bytes it keeps the lines with a number, an identifier or a "never" and drops the oldest
others). The same replay runs twice, in separate processes: with the package of revision
`--before` (exported with `git archive`; default: the revision before the low-water
policy) and with this checkout's. Printed per run: summary calls per send (goal ≤ 1 per 8),
median answered-request size as a share of the byte budget (goal ≥ 50 %), total input
bytes over the replay including summary calls (and the ratio after/before), and whether
each key fact is in the final summary; and the time of the sends that compacted (the
first, the last and their ratio; goal: the last within 1.5× of the first) beside the
sends that did not. `--answer-chars N` makes every answer N characters of text without
punctuation, where finding key facts used to grow quadratically with each turn's length.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
BEFORE = "8531540"
MAX_BYTES = 16_000
FACTS = ("Never delete the backups", "build 4.2.17", "ORCHID-17")
SUMMARY_CAP = 1_500
ANSWER = "Answer: plant the tulips along the fence, then water them well " * 3


def question(i: int) -> str:
    return f"Question {i}. Tell me more about the garden plans for the next season " * 3


def seed_pairs(turns: int) -> list[tuple[str, str]]:
    facts = [("Never delete the backups. Keep that in mind for every plan we make.",
              "Understood: the backups stay, whatever happens. " * 2),
             ("We are on build 4.2.17 of the installer for this whole project.",
              "Noted, build 4.2.17. " * 4),
             ("Our tracking ticket is ORCHID-17 in the team tracker.", "Got it: ORCHID-17. " * 4)]
    return facts + [(question(i), ANSWER) for i in range(len(facts) + 1, turns + 1)]


def summarize(fold: str) -> str:
    """An extractive summarizer: previous lines plus one line per folded question."""
    previous, _, turns = fold.partition("\n\nNext turns:\n")
    lines = [] if "(none yet)" in previous else previous.split("\n")[1:]
    for user in re.findall(r"^User: (.*)$", turns, re.MULTILINE):
        lines.append("- " + user.split(". ")[0][:80])
    keep = re.compile(r"\d+\.\d+|[A-Z]+-\d+|[Nn]ever")
    while len("\n".join(lines).encode()) > SUMMARY_CAP:
        drop = next((n for n, line in enumerate(lines) if not keep.search(line)), 0)
        del lines[drop]
    return "\n".join(lines)


# ------------------------------------------------------------------------- child
def child(sends: int, turns: int, answer_chars: int = 0) -> dict[str, object]:
    sys.path.insert(0, str(TESTS / "support"))
    from datetime import UTC, datetime

    from loopback import Behaviour, LoopbackServer
    from turnlog.core.compaction import SUMMARY_PROMPT
    from turnlog.core.model import ConversationSettings, Usage
    from turnlog.core.projection import CostIndex
    from turnlog.core.send import Committed, PendingTurn
    from turnlog.providers import ChatCompletionsProvider
    from turnlog.service.chat import Route, request_for, sender_for
    from turnlog.store import TurnlogStore

    class Server(LoopbackServer):
        def _arrived(self, request):  # type: ignore[no-untyped-def]
            super()._arrived(request)
            messages = json.loads(request.body)["messages"]
            if messages[0]["content"] == SUMMARY_PROMPT:
                return Behaviour.answer(summarize(messages[1]["content"]))
            return Behaviour.answer(answer)

    answer = ANSWER
    if answer_chars:
        answer = ("plant the tulips along the fence and water them well "
                  * (answer_chars // 53 + 1))[:answer_chars]

    home = Path(os.environ["TURNLOG_HOME"])
    with Server() as server, TurnlogStore.open(home) as store:
        if hasattr(store.conversations, "create"):  # a store with named parts
            create, commit_many = store.conversations.create, store.turns.commit_many
            get, latest_summary = store.conversations.get, store.records.latest_summary
        else:  # the earlier revision's store did everything itself
            create, commit_many = store.create_conversation, store.import_turns
            get, latest_summary = store.conversation, store.latest_summary
        conv = create("replay", model="loopback-model",
                      settings=ConversationSettings(max_bytes=MAX_BYTES))
        commit_many(conv.id, [
            PendingTurn(f"seed-{i}", q, a, "loopback-model", "stop", Usage(), datetime.now(UTC))
            for i, (q, a) in enumerate(seed_pairs(turns), start=1)])
        conv = get(conv.id)
        sender = sender_for(store, ChatCompletionsProvider(server.base_url), CostIndex())
        failures = 0
        started = time.perf_counter()
        compacting: list[float] = []
        plain: list[float] = []
        for i in range(turns + 1, turns + sends + 1):
            asked = len(server.requests)
            began = time.perf_counter()
            outcome = sender.send(request_for(conv, question(i), Route("loopback-model")))
            took = time.perf_counter() - began
            (compacting if len(server.requests) - asked > 1 else plain).append(took)
            failures += not isinstance(outcome, Committed)
        seconds = time.perf_counter() - started
        requests = server.requests
        summary = latest_summary(conv.id)
    summary_bodies = [r.body for r in requests
                      if json.loads(r.body)["messages"][0]["content"] == SUMMARY_PROMPT]
    answered = [len(r.body) for r in requests
                if json.loads(r.body)["messages"][0]["content"] != SUMMARY_PROMPT]
    content = summary.content if summary else ""
    return {
        "sends": sends, "failures": failures, "seconds": seconds,
        "summary_calls": len(summary_bodies),
        "median_request": statistics.median(answered) if answered else 0,
        "input_bytes": sum(len(r.body) for r in requests),
        "facts": {fact: fact in content for fact in FACTS},
        "compacting": compacting, "plain": plain,
    }


# ------------------------------------------------------------------------ parent
def export_revision(rev: str, into: Path) -> Path:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "desktop"], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "desktop"


def run(source: Path, sends: int, turns: int, answer_chars: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="turnlog-bench-") as home:
        env = {**os.environ, "PYTHONPATH": f"{source}{os.pathsep}{TESTS / 'support'}",
               "TURNLOG_HOME": home}
        done = subprocess.run([sys.executable, __file__, "--child", "--sends", str(sends),
                               "--turns", str(turns), "--answer-chars", str(answer_chars)],
                              env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"replay with {source} failed:\n{done.stderr}")
        return json.loads(done.stdout.strip().splitlines()[-1])


def report(label: str, r: dict) -> None:
    sends = r["sends"]
    share = r["median_request"] / MAX_BYTES
    facts = ", ".join(f"{fact}: {'yes' if ok else 'NO'}" for fact, ok in r["facts"].items())
    print(f"{label}")
    print(f"  summary calls:          {r['summary_calls']} for {sends} sends = "
          f"{r['summary_calls'] / sends:.3f} per send (1 per "
          f"{sends / max(r['summary_calls'], 1):.1f} sends)")
    print(f"  median answered request: {r['median_request']:,.0f} bytes = {share:.0%} of "
          f"{MAX_BYTES:,}")
    print(f"  input bytes, all calls:  {r['input_bytes']:,}")
    print(f"  key facts in summary:    {facts}")
    print(f"  failed sends: {r['failures']}; replay took {r['seconds']:.1f} s")
    compacting, plain = r["compacting"], r["plain"]
    if compacting:
        print(f"  compacting sends: {len(compacting)}, first {compacting[0]:.2f} s, last "
              f"{compacting[-1]:.2f} s (last ÷ first {compacting[-1] / compacting[0]:.2f}); "
              f"plain sends: median {statistics.median(plain) if plain else 0:.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sends", type=int, default=200)
    parser.add_argument("--turns", type=int, default=120)
    parser.add_argument("--before", default=BEFORE, metavar="REV")
    parser.add_argument("--answer-chars", type=int, default=0, metavar="N")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.sends, args.turns, args.answer_chars)))
        return 0
    print(f"{args.sends} sends onto {args.turns} turns of ~430 bytes at {MAX_BYTES:,} bytes, "
          "over HTTP to the loopback server\n")
    with tempfile.TemporaryDirectory(prefix="turnlog-before-") as tmp:
        before = run(export_revision(args.before, Path(tmp)), args.sends, args.turns,
                     args.answer_chars)
    after = run(ROOT / "desktop", args.sends, args.turns, args.answer_chars)
    report(f"before ({args.before})", before)
    report("after (this checkout)", after)
    per_send = after["summary_calls"] / after["sends"]
    share = after["median_request"] / MAX_BYTES
    print(f"\ninput bytes after/before: {after['input_bytes'] / before['input_bytes']:.2f}")
    print(f"goal ≤ 1 summary call per 8 sends: {'met' if per_send <= 1 / 8 else 'NOT met'}; "
          f"goal median request ≥ 50 % of the budget: {'met' if share >= 0.5 else 'NOT met'}; "
          f"key facts kept: {'all' if all(after['facts'].values()) else 'NOT all'}")
    compacting = after["compacting"]
    if compacting:
        flat = compacting[-1] <= 1.5 * compacting[0]
        print(f"goal last compacting send ≤ 1.5× the first: {'met' if flat else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
