"""Sync through a server, measured against real servers on 127.0.0.1 (tests/support/
sync_servers.py: WebDAV on wsgidav, S3 on moto), side by side with a plain upload:

- the first sync of a log of N turns (about 1 KiB each) to an empty storage, beside a plain
  upload of the same number of objects of the same sizes to the same server (goal: the sync
  reaches at least 50 % of the plain upload's throughput), and what it left on the server
  (objects, MB);
- an incremental sync of one new turn against a storage holding N turns from three machines:
  its requests (goal: at most 2 per other machine plus 3 of its own) and its time (goal:
  at most 1 s over loopback, the same at every N);
- the process's peak memory.

The turns' text is `--text varied` (default: varied sentences, English and Chinese, from
fixed word lists, compressing about as real conversation text does: tests/support/
chat_text.py) or `--text repeated` (one sentence repeated six times, which zlib shrinks about
twenty times: the plain upload then moves few bytes while the sync still handles every
record); the zlib ratio of the text is printed. `--feed lists` (default) keeps the log in
the list-shaped feed of tests/support/sync_lists.py, `--feed store` in a real data
directory (its turns written many at once, as tests/support/long_history.py does; the
store's triggers journal them as for any turn).

The servers run in a child process (`sync_servers_apart`), as a real server runs beside its
client; `--in-process` runs them in this process instead, where the server's Python and the
sync's take turns on one interpreter lock (an upload then cannot overlap the sealing of the
next object) and the peak memory errs high.

`--first-only` measures the first sync alone (the incremental one fills three more logs).
`--repeat N` syncs the same log N times, each time as a new machine to an empty place, and
makes N plain uploads, and prints the medians (a loopback run on a shared machine varies by
a fifth from one run to the next). The plain upload's clock runs only while it writes:
its objects' random bytes are made off it.
`--parts` also prints the processor time of each stage of that first sync, measured alone on
one thread over the same log (reading the records, joining each object's payload,
compressing and encrypting it, its digest) beside the processor time the sync took: the
work a first sync cannot do without, against what the plain upload does.

    .venv/bin/python tests/bench/sync_remote.py [--turns 1000 10000] [--server webdav s3]
        [--text varied|repeated] [--feed lists|store] [--in-process] [--first-only]
        [--repeat N] [--parts]
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import resource
import secrets
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

from chat_text import ChatText, zlib_ratio  # noqa: E402
from sync_lists import ListFeed, StoreFeed  # noqa: E402
from sync_machines import make_machine  # noqa: E402
from sync_servers import (  # noqa: E402
    BUCKET,
    PASSWORD,
    S3_KEY,
    S3_SECRET,
    USER,
    s3_server,
    webdav_server,
)
from sync_servers_apart import served_apart  # noqa: E402
from turnlog.sync.crypto import COMPRESSION, ENV_LIGHT_KDF, FORMAT, seal_measured  # noqa: E402
from turnlog.sync.payload import Payload  # noqa: E402
from turnlog.sync.seam import OutgoingPage  # noqa: E402
from turnlog.sync.storage import StorageConfig, open_storage  # noqa: E402

os.environ.setdefault(ENV_LIGHT_KDF, "1")
REPEATED = ("The tulip bulbs go in after the first frost, 15 cm deep, pointed end up; "
            "郁金香种球在初霜之后种下。 🌷 ") * 6  # about 1 KiB of UTF-8
FEEDS = {"lists": ListFeed, "store": StoreFeed}
PER_CONVERSATION = 100


class Turns:
    """The question and answer of turn `index`: about 1 KiB of UTF-8 in all."""

    def __init__(self, text: str) -> None:
        self.varied = ChatText() if text == "varied" else None

    def __call__(self, tag: str, index: int) -> tuple[str, str]:
        if self.varied is None:
            return f"{tag} question {index}: {REPEATED}", f"answer {index}"
        return f"{tag} {index}: {self.varied.message(300)}", self.varied.message(700)

    def ratio(self) -> float:
        """zlib's ratio on the text of 500 turns (one object's worth)."""
        return zlib_ratio("".join(q + a for q, a in (self("r", i) for i in range(500))))


def _config(served, place: str) -> tuple[StorageConfig, str]:
    if served.kind == "webdav":
        (served.root / place).mkdir()
        return StorageConfig("webdav", f"{served.url}/{place}", user=USER), PASSWORD
    return StorageConfig("s3", served.url, bucket=BUCKET, prefix=place, user=S3_KEY), S3_SECRET


def _fill(feed: ListFeed | StoreFeed, turns: int, tag: str, text: Turns) -> None:
    for start in range(0, turns, PER_CONVERSATION):
        conv = feed.new_conversation(f"{tag} {start}")
        indexes = range(start, min(turns, start + PER_CONVERSATION))
        if isinstance(feed, StoreFeed):
            _fill_store(feed, conv, [text(tag, index) for index in indexes])
            continue
        for index in indexes:
            feed.add_turn(conv, *text(tag, index))


def _fill_store(feed: StoreFeed, conv: str, pairs: list[tuple[str, str]]) -> None:
    """A conversation's turns written in one transaction (one by one through the store's
    API, 100,000 of them would take many minutes)."""
    db, cid = feed.store.db, feed._local_id(conv)
    stamp = "2026-01-02T03:04:05.000006+00:00"
    with db.atomic():
        db.cursor().executemany(
            "INSERT INTO turns (id, conversation_id, ordinal, question, answer, model, "
            "finish_reason, created_at) VALUES (?, ?, ?, ?, ?, 'm', 'stop', ?)",
            [(uuid.uuid4().hex, cid, ordinal, question, answer, stamp)
             for ordinal, (question, answer) in enumerate(pairs, 1)])
        db.execute_sql("UPDATE conversations SET next_ordinal = ? WHERE id = ?",
                       (len(pairs) + 1, cid))


def _processor_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def stages(machine, records: int, objects: int) -> dict[str, float]:
    """Processor seconds of each stage of a first sync, alone on this thread, over the
    machine's whole log in `objects` pages of the size the sync made (`records` in all),
    each page handled before the next is read."""
    feed = machine.feed
    read = getattr(feed, "outgoing_page", None) or (
        lambda after, limit: OutgoingPage.of(*feed.outgoing_json(after, limit)))
    per = math.ceil(records / max(objects, 1))
    key, name = os.urandom(32), "m" * 32
    spent: dict[str, float] = dict.fromkeys(("reading", "joining", "compressing and "
                                             "encrypting", "digests"), 0.0)
    after, seq = 0, 0
    while True:
        start = time.process_time()
        page = read(after, per)
        spent["reading"] += time.process_time() - start
        if not page.count:
            return spent
        after, seq = page.after, seq + 1
        start = time.process_time()
        joined = Payload.fresh(name, "bench", seq, "2026", {}, page).joined()
        joined_at = time.process_time()
        sealed, _ = seal_measured(key, "000001-bench", name, seq, joined)
        sealed_at = time.process_time()
        hashlib.sha256(sealed).hexdigest()
        spent["joining"] += joined_at - start
        spent["compressing and encrypting"] += sealed_at - joined_at
        spent["digests"] += time.process_time() - sealed_at


def first_sync(served, tmp: Path, turns: int, feed: str, text: Turns, parts: bool = False,
               repeat: int = 1) -> tuple[list[float], list[float], list[int], str]:
    """(sync seconds, plain upload seconds, object sizes, with `parts` a line of each
    stage's processor time) of a first sync of `turns` turns; with `repeat`, the same log
    synced that many times, each as a new machine to an empty place, and as many plain
    uploads, each to an empty place of its own."""
    machine = None
    took: list[float] = []
    for run in range(repeat):
        config, secret = _config(served, f"first-{turns}-{run}")
        filled = machine.feed if machine is not None else FEEDS[feed]
        if machine is not None:
            machine.state.close()
            machine.folder.close()
        machine = make_machine(tmp, f"first-{turns}-{run}", lambda c=config, s=secret:
                               open_storage(c, s),
                               filled if run == 0 else (lambda home, f=filled: f))
        if run == 0:
            _fill(machine.feed, turns, "first", text)
            os.sync()  # the fill's writes on disk before the clock starts, not during
        start, processor = time.perf_counter(), _processor_s()
        report = machine.sync()
        took.append(time.perf_counter() - start)
        processor = _processor_s() - processor
    assert machine is not None
    storage = machine.folder
    storage.refresh()
    sizes = [size for m in storage.machines() for size in storage.listing(m).objects.values()]
    line = ""
    if parts:
        spent = stages(machine, report.published_records, len(sizes))
        line = (f"  processor time of the first sync: {processor:.2f} s in {took[-1]:.2f} s "
                "(this process, every thread); each stage alone on one thread: "
                + ", ".join(f"{stage} {seconds:.2f} s" for stage, seconds in spent.items())
                + f": {sum(spent.values()):.2f} s in all")
    plain_took = []
    for run in range(repeat):
        plain_config, _ = _config(served, f"plain-{turns}-{run}")
        plain = open_storage(plain_config, secret)
        plain.refresh()
        me = secrets.token_hex(16)
        writing = 0.0
        for seq, size in enumerate(sizes, 1):
            data = os.urandom(size)  # made off the clock: making 58 MB of random bytes
            start = time.perf_counter()  # takes about as long as sending them
            plain.write(me, seq, data)
            writing += time.perf_counter() - start
        plain_took.append(writing)
        plain.close()
    machine.close()
    return took, plain_took, sizes, line


def incremental(served, tmp: Path, turns: int, feed: str,
                text: Turns) -> tuple[float, int, int]:
    """(seconds, requests, other machines) of a sync of one new turn against a storage
    holding `turns` turns from three machines."""
    config, secret = _config(served, f"three-{turns}")
    machines = [make_machine(tmp, f"{name}-{turns}", lambda: open_storage(config, secret),
                             FEEDS[feed]) for name in ("laptop", "office-pc", "tablet")]
    for machine in machines:
        _fill(machine.feed, turns // 3, machine.name, text)
        machine.sync()
    for machine in machines * 2:
        machine.sync()
    laptop = machines[0]
    conv = laptop.feed.new_conversation("one more")
    laptop.feed.add_turn(conv, "one new turn", "its answer")
    before = served.faults.count()
    start = time.perf_counter()
    laptop.sync()
    took = time.perf_counter() - start
    requests = served.faults.count() - before
    for machine in machines:
        machine.close()
    return took, requests, len(machines) - 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--server", nargs="+", choices=["webdav", "s3"],
                        default=["webdav", "s3"])
    parser.add_argument("--text", choices=["varied", "repeated"], default="varied")
    parser.add_argument("--feed", choices=sorted(FEEDS), default="lists")
    parser.add_argument("--in-process", action="store_true",
                        help="the servers in this process, not in a child process")
    parser.add_argument("--first-only", action="store_true",
                        help="the first sync alone, not the incremental one")
    parser.add_argument("--repeat", type=int, default=1,
                        help="first syncs of the same log (and plain uploads) to measure")
    parser.add_argument("--parts", action="store_true",
                        help="each stage's processor time of the first sync, alone")
    args = parser.parse_args()
    text = Turns(args.text)
    packer = f"Zstandard level {COMPRESSION}" if FORMAT == 2 else "zlib level 1"
    print(f"text {args.text}: zlib shrinks it {text.ratio():.1f}x (level 6; the sync packs "
          f"with {packer}), feed {args.feed}")
    for kind in args.server:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            if not args.in_process:
                serving = served_apart(kind, root)
            elif kind == "webdav":
                serving = webdav_server(root / "dav")
            else:
                serving = s3_server()
            with serving as served:
                for turns in args.turns:
                    tooks, plains, sizes, line = first_sync(
                        served, root, turns, args.feed, text, args.parts, args.repeat)
                    took, plain, size = statistics.median(tooks), statistics.median(plains), \
                        sum(sizes)
                    runs = "" if args.repeat == 1 else (
                        f" (median of {args.repeat}: sync " + " ".join(
                            f"{t:.2f}" for t in tooks) + ", plain " + " ".join(
                            f"{t:.2f}" for t in plains) + ")")
                    print(f"{kind} {turns:>7,} turns: first sync {took:6.2f} s "
                          f"({size / took / 1e6:5.1f} MB/s), plain upload of the same "
                          f"objects {plain:6.2f} s: {plain / took:4.0%} of it "
                          f"(goal >= 50 %); on the server {len(sizes)} objects, "
                          f"{size / 1e6:.1f} MB{runs}")
                    if line:
                        print(line)
                    if args.first_only:
                        continue
                    took, requests, others = incremental(served, root, turns, args.feed,
                                                         text)
                    print(f"{kind} {turns:>7,} turns from 3 machines: one new turn synced "
                          f"in {took * 1000:5.0f} ms with {requests} requests (goal <= "
                          f"{2 * others + 3}, <= 1000 ms)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    where = "servers included" if args.in_process else "servers apart"
    print(f"peak memory of the process ({where}): {peak:.0f} MB (goal <= 200 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
