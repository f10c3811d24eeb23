"""Import speed and memory: `turnlog-cli import` of 100,000-turn files, this checkout beside
an earlier revision, in one run; and a large ChatGPT export.

    .venv/bin/python tests/bench/import_speed.py [--turns 100000] [--before REV]
        [--before-large] [--chatgpt-mb 200] [--skip-before]
        [--long-turns 80000] [--long-gb 1] [--long-before REV] [--chatgpt-only]
        [--claude-turns 100000] [--claude-per-conversation 1000] [--claude-only]

Files made here: Turnlog JSON lines of `--turns` turns of ~170 bytes (question and answer
together) and of ~1 KiB (English and Chinese mixed), and a ChatGPT `conversations.json`
of about `--chatgpt-mb` MB (conversations of 200 messages with a regenerated answer and a
tool call in each). Each import runs as its own `turnlog-cli` process into an empty data
directory; printed: wall time (process start included), the process's CPU time (user +
system: on a busy machine the wall time says more about the neighbours), turns per
second and the process's peak resident memory. The ~170-byte file is also imported with
the package of revision `--before` (exported with `git archive`; default: the revision before the
batched import), and the ratio is printed. Goals: ≤ 10 s for the ~170-byte turns, ≤ 30 s
for the ~1 KiB ones, memory bounded (the peak does not grow with the file). The search
index, where the checkout has one, is filled by its triggers in the same pass: the line
"search index triggers" says whether it was there.

Long ChatGPT conversations (`--long-turns`, 0: skip): one conversation of that many turns
(80,000: ~110 MB), and `--long-gb` GB of such conversations (0: skip), each imported by
this checkout and by `--long-before` (default: the revision before the message tree was
streamed), peak memory and time side by side. Goal: peak ≤ 200 MB whatever the size, and
no slower than before.

A Claude export (`--claude-turns`, 0: skip) of that many turns in conversations of
`--claude-per-conversation` turns (English and Chinese, every fifth answer with thinking
and a tool call, every tenth question with an attachment's extracted text), imported
beside Turnlog JSON lines of the same turns' text, time and peak side by side; then the
same turns as one conversation (walked message by message). Goal: peak ≤ 200 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
BEFORE = "5014bc5"
LONG_BEFORE = "db0cde6"  # the conversation's message tree decoded whole
sys.path.insert(0, str(TESTS / "support"))
import chatgpt_export  # noqa: E402 - the tests' export maker, beside this folder

WORDS = ("budget", "turn", "window", "reply", "log", "token", "summary", "request", "model",
         "draft", "预算", "接口", "上下文", "模型")


def text(n: int, size: int) -> str:
    out, i = [], n
    while sum(len(w.encode()) + 1 for w in out) < size:
        out.append(WORDS[i % len(WORDS)] if size > 400 else WORDS[i % 10])
        i = i * 7 + 3
    return f"{n} " + " ".join(out)


def write_turnlog(path: Path, turns: int, size: int) -> Path:
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"turnlog": 1, "title": f"{turns} turns", "model": "m"}) + "\n")
        for n in range(turns):
            out.write(json.dumps({"question": text(n, size * 2 // 5),
                                  "answer": text(n + 1, size * 3 // 5)},
                                 ensure_ascii=False) + "\n")
    return path


def _message(node: str, parent: str | None, role: str, content: dict, t: float,
             recipient: str = "all") -> str:
    message = {"id": node, "author": {"role": role}, "create_time": t, "content": content,
               "metadata": {"model_slug": "gpt-4o"}, "recipient": recipient}
    return json.dumps(node) + ": " + json.dumps(
        {"id": node, "parent": parent, "children": [], "message": message},
        ensure_ascii=False)


def write_chatgpt(path: Path, megabytes: int) -> tuple[Path, int]:
    """A conversations.json of about `megabytes` MB, written as it goes."""
    turns = 0
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        c = 0
        while out.tell() < megabytes * 1_000_000:
            nodes, parent, t = [], None, 1.7e9 + c
            for k in range(100):
                q, a = f"c{c}q{k}", f"c{c}a{k}"
                nodes.append(_message(q, parent, "user",
                                      {"content_type": "text", "parts": [text(k, 400)]}, t))
                if k % 10 == 0:  # a regenerated answer on another branch, a tool call
                    nodes.append(_message(f"{a}x", q, "assistant", {
                        "content_type": "text", "parts": [text(k, 600)]}, t))
                    nodes.append(_message(f"{a}c", q, "assistant", {
                        "content_type": "code", "text": "1 + 1"}, t, "python"))
                nodes.append(_message(a, q, "assistant",
                                      {"content_type": "text", "parts": [text(k + 1, 600)]}, t))
                parent, turns = a, turns + 1
            out.write(("," if c else "") + json.dumps({
                "title": f"chat {c}", "create_time": 1.7e9, "update_time": 1.7e9 + 1,
                "conversation_id": f"c{c}", "current_node": parent,
                "default_model_slug": "gpt-4o"})[:-1] + ', "mapping": {' + ", ".join(nodes)
                + "}}")
            c += 1
        out.write("]")
    return path, turns


def _claude_message(n: int, human: bool, minute: int) -> dict:
    stamp = f"2024-06-01T{minute // 60 % 24:02d}:{minute % 60:02d}:00.000000Z"
    said = text(n, 160 if human else 240)
    content: list[dict] = [{"type": "text", "text": said}]
    attachments = []
    if human and n % 10 == 0:
        attachments = [{"file_name": f"notes-{n}.txt", "file_size": 400, "file_type": "txt",
                        "extracted_content": text(n + 2, 400)}]
    if not human and n % 5 == 0:
        content = [{"type": "thinking", "thinking": text(n + 3, 200)},
                   {"type": "tool_use", "id": f"toolu_{n}", "name": "web_search",
                    "input": {"query": text(n, 30)}},
                   {"type": "tool_result", "tool_use_id": f"toolu_{n}", "name": "web_search",
                    "content": [{"type": "text", "text": text(n + 4, 120)}]}, *content]
    return {"uuid": f"m{n}-{'h' if human else 'a'}", "text": said, "content": content,
            "sender": "human" if human else "assistant", "created_at": stamp,
            "updated_at": stamp, "attachments": attachments, "files": []}


def write_claude(path: Path, turns: int, per_conversation: int) -> Path:
    """A Claude `conversations.json` of `turns` turns, written as it goes."""
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        for c, first in enumerate(range(0, turns, per_conversation)):
            head = {"uuid": f"conv-{c}", "name": f"chat {c} 对话", "summary": "",
                    "created_at": "2024-06-01T00:00:00Z", "updated_at": "2024-06-02T00:00:00Z"}
            out.write(("," if c else "") + json.dumps(head)[:-1] + ', "chat_messages": [')
            for n in range(first, min(turns, first + per_conversation)):
                out.write(("," if n > first else "") + json.dumps(
                    _claude_message(n, True, n), ensure_ascii=False) + "," + json.dumps(
                    _claude_message(n, False, n), ensure_ascii=False))
            out.write("]}")
        out.write("]")
    return path


def claude_exports(args: argparse.Namespace, folder: Path, after: Path) -> None:
    """A Claude export beside JSON lines of the same size, then as one conversation."""
    plain = write_turnlog(folder / "claude-beside.jsonl", args.claude_turns, 400)
    for per in (args.claude_per_conversation, args.claude_turns):
        path = write_claude(folder / f"claude-{per}.json", args.claude_turns, per)
        size = path.stat().st_size / 1e6
        print(f"Claude export of {size:,.0f} MB: {args.claude_turns:,} turns in "
              f"conversations of {per:,} turns, goal peak ≤ 200 MB")
        now = timed_import(after, path)
        show("Claude export", now)
        if per == args.claude_per_conversation:
            beside = timed_import(after, plain)
            show("JSON lines, same turns", beside)
            print(f"  Claude/JSON lines: time {now['seconds'] / beside['seconds']:.2f}, CPU "
                  f"{now['cpu'] / beside['cpu']:.2f}, peak "
                  f"{now['peak_mb'] / beside['peak_mb']:.2f}")
        print(f"  goal peak ≤ 200 MB: {'met' if now['peak_mb'] <= 200 else 'NOT met'}\n")


def export_revision(rev: str, into: Path) -> Path:
    """The package of revision `rev`, exported into `into` (once per run)."""
    if (into / "desktop").is_dir():
        return into / "desktop"
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "desktop"], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "desktop"


def timed_import(source: Path, file: Path) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="turnlog-bench-") as home:
        env = {**os.environ, "PYTHONPATH": str(source), "TURNLOG_HOME": home}
        report = Path(home) / "report.txt"  # a file, not a pipe: the report may be long
        with report.open("wb") as out:
            start = time.perf_counter()
            child = subprocess.Popen([sys.executable, "-m", "turnlog.cli", "import",
                                      str(file)], env=env, stdout=subprocess.DEVNULL,
                                     stderr=out)
            _pid, status, usage = os.wait4(child.pid, 0)
            seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        err = report.read_text(errors="replace")[-2000:]
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"import of {file.name} with {source} failed:\n{err}")
        con = sqlite3.connect(Path(home) / "turnlog.sqlite3")
        try:
            (turns,) = con.execute("SELECT count(*) FROM turns").fetchone()
            (triggers,) = con.execute("SELECT count(*) FROM sqlite_master WHERE type = "
                                      "'trigger' AND tbl_name = 'turns'").fetchone()
        finally:
            con.close()
    return {"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime, "turns": turns,
            "peak_mb": usage.ru_maxrss / 1024, "triggers": triggers}


def show(label: str, r: dict[str, float]) -> None:
    print(f"  {label:<24} {r['seconds']:7.1f} s (CPU {r['cpu']:6.1f} s)  "
          f"{r['turns'] / r['seconds']:8,.0f} turns/s  "
          f"peak {r['peak_mb']:6.0f} MB  ({r['turns']:,} turns; search index triggers: "
          f"{'yes' if r['triggers'] else 'none'})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--before", default=BEFORE, metavar="REV")
    parser.add_argument("--before-large", action="store_true",
                        help="also import the ~1 KiB file with the earlier revision")
    parser.add_argument("--skip-before", action="store_true")
    parser.add_argument("--chatgpt-mb", type=int, default=200, help="0: skip")
    parser.add_argument("--long-turns", type=int, default=80_000, help="0: skip")
    parser.add_argument("--long-gb", type=float, default=1.0, help="0: skip")
    parser.add_argument("--long-before", default=LONG_BEFORE, metavar="REV")
    parser.add_argument("--chatgpt-only", action="store_true",
                        help="only the ChatGPT export, not the JSON-lines files")
    parser.add_argument("--claude-turns", type=int, default=100_000, help="0: skip")
    parser.add_argument("--claude-per-conversation", type=int, default=1_000)
    parser.add_argument("--claude-only", action="store_true",
                        help="only the Claude export")
    args = parser.parse_args()
    after = ROOT / "desktop"
    with tempfile.TemporaryDirectory(prefix="turnlog-import-bench-") as tmp:
        folder = Path(tmp)
        if args.claude_only:
            claude_exports(args, folder, after)
            return 0
        files = [] if args.chatgpt_only else [
            (write_turnlog(folder / "small.jsonl", args.turns, 170), 10, "~170 bytes"),
            (write_turnlog(folder / "large.jsonl", args.turns, 1024), 30, "~1 KiB")]
        small = files[0][0] if files else None
        for file, goal, label in files:
            size = file.stat().st_size / 1e6
            print(f"{args.turns:,} turns of {label} ({size:,.1f} MB of JSON lines), goal "
                  f"≤ {goal} s")
            now = timed_import(after, file)
            if not args.skip_before and (file is small or args.before_large):
                before = timed_import(export_revision(args.before, folder / "before"), file)
                show(f"before ({args.before})", before)
                show("after (this checkout)", now)
                print(f"  after/before: {now['seconds'] / before['seconds']:.3f} "
                      f"({before['seconds'] / now['seconds']:.0f}× faster)")
            else:
                show("after (this checkout)", now)
            load = os.getloadavg()[0]
            print(f"  goal ≤ {goal} s: wall {now['seconds']:.1f} s "
                  f"{'met' if now['seconds'] <= goal else 'NOT met'}; CPU {now['cpu']:.1f} s "
                  f"{'met' if now['cpu'] <= goal else 'NOT met'} (load average {load:.1f} on "
                  f"{os.cpu_count()} cores: the wall time waits for other processes)\n")
        if args.chatgpt_mb:
            path, turns = write_chatgpt(folder / "conversations.json", args.chatgpt_mb)
            print(f"ChatGPT export of {path.stat().st_size / 1e6:,.0f} MB ({turns:,} turns "
                  "on the current branches, conversations of 200 messages): no slower than "
                  "before the message tree was streamed")
            now = timed_import(after, path)
            if not args.skip_before:
                was = timed_import(export_revision(args.long_before, folder / "long-before"),
                                   path)
                show(f"before ({args.long_before})", was)
                print(f"  after/before: time {now['seconds'] / was['seconds']:.2f}, CPU "
                      f"{now['cpu'] / was['cpu']:.2f}, peak {now['peak_mb'] / was['peak_mb']:.2f}")
            show("after (this checkout)", now)
        if args.long_turns:
            long_exports(args, folder, after)
        if args.claude_turns:
            claude_exports(args, folder, after)
    return 0


def long_exports(args: argparse.Namespace, folder: Path, after: Path) -> None:
    """One long conversation, and a file of `--long-gb` GB of them: before and after."""
    files = [(chatgpt_export.write_long(folder / "long.json", args.long_turns), 1)]
    if args.long_gb:
        one = files[0][0].stat().st_size
        count = max(1, round(args.long_gb * 1e9 / one))
        files.append((chatgpt_export.write_long(folder / "long-many.json", args.long_turns,
                                                conversations=count), count))
    before = None if args.skip_before else export_revision(args.long_before,
                                                           folder / "long-before")
    for path, count in files:
        size = path.stat().st_size / 1e6
        print(f"ChatGPT export of {size:,.0f} MB: {count} conversation(s) of "
              f"{args.long_turns:,} turns, goal peak ≤ 200 MB")
        now = timed_import(after, path)
        if before is not None:
            was = timed_import(before, path)
            show(f"before ({args.long_before})", was)
            show("after (this checkout)", now)
            print(f"  after/before: time {now['seconds'] / was['seconds']:.2f}, CPU "
                  f"{now['cpu'] / was['cpu']:.2f}, peak {now['peak_mb'] / was['peak_mb']:.2f}")
        else:
            show("after (this checkout)", now)
        print(f"  goal peak ≤ 200 MB: {'met' if now['peak_mb'] <= 200 else 'NOT met'}\n")


if __name__ == "__main__":
    raise SystemExit(main())
