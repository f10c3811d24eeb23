"""Send → the request at the server, beside a bare httpx POST of the same body.

    .venv/bin/python tests/bench/send_latency.py [--sizes 100 100000] [--sends 20] [--firsts 3]

For conversations of each size (default 100 and 100,000 turns), the time from
`SendSession.start` — what the window calls on Send, with the window's connector
(`ProviderConnector` over a `ProviderSetup` and `ModelCounts`, as `open_window` makes it)
— to the moment a loopback chat-completions server (tests/support/loopback.py) has the request,
beside the time from a bare `httpx.Client.post` of the same body (the client already
made) to the same moment at the same server. Sizes alternate, and each window send is
followed by its bare POST.

1. First send of a session: each in a fresh child process, one second after the window's
   send pieces were made (a person types first), so whatever a process loads once and
   could not load before is paid here.
2. Steady state: one process, both conversations open, after two warm-up sends each.
   Goal: the median at most 10 ms above the bare POST's.

The key store is this session's (`SessionKeys`): a keyring read is the system's, not
Turnlog's. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

import httpx  # noqa: E402
from PySide6.QtCore import QEventLoop  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from loopback import Behaviour, LoopbackServer  # noqa: E402
from turnlog.config.model_counts import ModelCounts  # noqa: E402
from turnlog.config.model_facts import FactStore  # noqa: E402
from turnlog.config.profiles import Profile, ProfileStore  # noqa: E402
from turnlog.config.secrets import SessionKeys  # noqa: E402
from turnlog.core.model import ConversationSettings, Usage  # noqa: E402
from turnlog.core.projection import CostIndex  # noqa: E402
from turnlog.core.send import PendingTurn  # noqa: E402
from turnlog.store import TurnlogStore  # noqa: E402
from turnlog.ui.infra.tasks import TaskRunner  # noqa: E402
from turnlog.ui.infra.window_settings import window_settings  # noqa: E402
from turnlog.ui.request.connection import ProviderConnector  # noqa: E402
from turnlog.ui.request.provider_setup import ProviderSetup  # noqa: E402
from turnlog.ui.request.send_session import SendResult, SendSession  # noqa: E402

MODEL = "loopback-model"
ANSWER = ("Here is a paragraph of an answer with **some bold**, `code`, 中文字符 and an emoji 🙂. "
          "It goes on for a while so rows have realistic heights.\n\n- one\n- two\n")
CHAT_PATH = "/v1/chat/completions"
GOAL_MS = 10.0
FIRST_AFTER_S = 1.0  # the first send of a session goes this long after the window opened


def seed(home: Path, count: int) -> None:
    """A conversation of `count` turns without compaction (no summary call stands between
    Send and the request), written in one transaction: the first through the store's own
    commit, the rest as rows like it (one `executemany`)."""
    store = TurnlogStore.open(home)
    conversation = store.conversations.create(
        "big", model=MODEL, settings=ConversationSettings(compaction=False))
    first = store.turns.commit(conversation.id, PendingTurn(
        uuid.uuid4().hex, "Question 1: what about item 1?", ANSWER, MODEL, "stop", Usage(),
        datetime.now(UTC)))
    stamp = first.created_at.isoformat(timespec="microseconds")
    rows = ((uuid.uuid4().hex, conversation.id, i, f"Question {i}: what about item {i}?",
             ANSWER, MODEL, "stop", stamp) for i in range(2, count + 1))
    with store.db.atomic():
        store.db.cursor().executemany(
            "INSERT INTO turns (id, conversation_id, ordinal, question, answer, model, "
            "finish_reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        store.db.execute_sql("UPDATE conversations SET next_ordinal = ? WHERE id = ?",
                             (count + 1, conversation.id))
    store.close()


def wait(condition, timeout_s: float = 120.0) -> None:  # noqa: ANN001
    events = QEventLoop()
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("timed out")
        events.processEvents()
        time.sleep(0.0002)


def settle(seconds: float) -> None:
    """Let the GUI thread run its event loop for `seconds`."""
    until = time.monotonic() + seconds
    wait(lambda: time.monotonic() >= until)


class Arrivals:
    """When each chat request reached the server (noted on its handler thread)."""

    def __init__(self, server: LoopbackServer) -> None:
        self.times: list[float] = []
        self.bodies: list[bytes] = []
        self._noted = threading.Condition()
        arrived = server._arrived

        def noted(request):  # noqa: ANN001, ANN202
            if request.path == CHAT_PATH:
                with self._noted:
                    self.times.append(time.perf_counter())
                    self.bodies.append(request.body)
                    self._noted.notify_all()
            return arrived(request)

        server._arrived = noted  # type: ignore[method-assign]

    def wait_for(self, count: int, timeout_s: float = 120.0) -> float:
        """When the `count`th request arrived. The GUI thread waits idle meanwhile, as the
        window's does (nothing in a send waits on it): no polling competes with the send."""
        with self._noted:
            if not self._noted.wait_for(lambda: len(self.times) >= count, timeout_s):
                raise SystemExit("timed out")
            return self.times[count - 1]


class Window:
    """The window's send pieces over one data directory, pointed at `server`."""

    def __init__(self, home: Path, server: LoopbackServer, runner: TaskRunner,
                 arrivals: Arrivals) -> None:
        profiles = ProfileStore(home)
        profiles.save([Profile("loopback", "Loopback", "custom", server.base_url, MODEL)])
        self.setup = ProviderSetup(profiles, window_settings(home), keyring=SessionKeys())
        self.connector = ProviderConnector(self.setup.config, self.setup.keys,
                                           counts=ModelCounts(FactStore.in_dir(home)))
        self.store = TurnlogStore.open(home)
        self.session = SendSession(self.store, self.connector, runner)
        self.session.prepare()  # as the window's warm-up does once its first screen is up
        self.results: list[SendResult] = []
        self.session.finished.connect(self.results.append)
        self.session.crashed.connect(lambda draft: self.results.append(draft))
        self.costs = CostIndex()
        self.conversation_id = self.store.conversations()[0].id
        self.arrivals = arrivals

    def send_ms(self, question: str) -> float:
        """Send → the request at the server, then wait for the send to end (committed)."""
        conversation = self.store.conversations.get(self.conversation_id)
        endpoint = self.connector.endpoint(conversation)
        before, done = len(self.arrivals.times), len(self.results)
        started = time.perf_counter()
        self.session.start(conversation, question, (question, len(question)), endpoint,
                           self.costs)
        arrived = self.arrivals.wait_for(before + 1)
        wait(lambda: len(self.results) > done)
        result = self.results[-1]
        if not isinstance(result, SendResult) or not hasattr(result.outcome, "turn"):
            raise SystemExit(f"the send did not commit: {result!r}")
        return (arrived - started) * 1000

    def close(self) -> None:
        self.connector.close()
        self.store.close()


def bare_ms(client: httpx.Client, server: LoopbackServer, arrivals: Arrivals,
            body: bytes) -> float:
    """A bare POST of `body` (the client already made) → the request at the server."""
    before = len(arrivals.times)
    started = time.perf_counter()
    client.post(server.base_url + "/chat/completions", content=body,
                headers={"Content-Type": "application/json"}).raise_for_status()
    return (arrivals.times[before] - started) * 1000


def pair(window: Window, client: httpx.Client, server: LoopbackServer,
         question: str) -> tuple[float, float]:
    sent = window.send_ms(question)
    body = window.arrivals.bodies[-1]
    return sent, bare_ms(client, server, window.arrivals, body)


def first_send(home: Path) -> None:
    """In a fresh child: the first send of a session and its bare POST, as JSON."""
    QApplication([])
    runner = TaskRunner()
    with LoopbackServer() as server:
        server.default = Behaviour.answer("Noted.")
        arrivals = Arrivals(server)
        window = Window(home, server, runner, arrivals)
        try:
            settle(FIRST_AFTER_S)  # nobody sends within a second of the window opening
            sent = window.send_ms("What was the first item again?")
            # Made only now: whatever the HTTP stack loads on first use counts for the send.
            with httpx.Client(trust_env=False) as client:
                bare = bare_ms(client, server, arrivals, arrivals.bodies[-1])
        finally:
            window.close()
            runner.shutdown()
    print(json.dumps({"send": sent, "bare": bare}))


def steady(homes: dict[int, Path], sends: int) -> dict[int, list[tuple[float, float]]]:
    """Both conversations open in one process; two warm-up sends each, then `sends`
    measured pairs each, sizes alternating."""
    QApplication.instance() or QApplication([])
    runner = TaskRunner()
    figures: dict[int, list[tuple[float, float]]] = {size: [] for size in homes}
    with LoopbackServer() as server:
        server.default = Behaviour.answer("Noted.")
        arrivals = Arrivals(server)
        client = httpx.Client(trust_env=False)
        windows = {size: Window(home, server, runner, arrivals) for size, home in homes.items()}
        try:
            for window in windows.values():
                for _ in range(2):
                    pair(window, client, server, "Warming up: where were we?")
            order = list(homes)
            for n in range(sends):
                for size in order if n % 2 == 0 else reversed(order):
                    figures[size].append(pair(windows[size], client, server,
                                              f"Question {n}: and what about the budget?"))
        finally:
            for window in windows.values():
                window.close()
            client.close()
            runner.shutdown()
    return figures


def line(label: str, pairs: list[tuple[float, float]]) -> str:
    sent = statistics.median(p[0] for p in pairs)
    bare = statistics.median(p[1] for p in pairs)
    worst = max(p[0] for p in pairs)
    return (f"  {label:<28} send {sent:7.1f} ms (worst {worst:6.1f})   bare POST "
            f"{bare:6.1f} ms   +{sent - bare:6.1f} ms   ×{sent / bare:5.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 100_000])
    parser.add_argument("--sends", type=int, default=20, help="steady-state pairs per size")
    parser.add_argument("--firsts", type=int, default=3, help="first sends per size")
    parser.add_argument("--seed", nargs=2, metavar=("HOME", "TURNS"), help=argparse.SUPPRESS)
    parser.add_argument("--first", metavar="HOME", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed:
        seed(Path(args.seed[0]), int(args.seed[1]))
        return 0
    if args.first:
        first_send(Path(args.first))
        return 0
    with tempfile.TemporaryDirectory(prefix="turnlog-send-latency-") as tmp:
        homes = {size: Path(tmp) / f"turns-{size}" for size in args.sizes}
        for size, home in homes.items():
            home.mkdir()
            started = time.perf_counter()
            subprocess.run([sys.executable, __file__, "--seed", str(home), str(size)],
                           check=True)
            print(f"seeded {size:,} turns in {time.perf_counter() - started:.1f} s",
                  flush=True)
        firsts: dict[int, list[tuple[float, float]]] = {size: [] for size in homes}
        for n in range(args.firsts):
            for size in args.sizes if n % 2 == 0 else reversed(args.sizes):
                out = subprocess.run([sys.executable, __file__, "--first", str(homes[size])],
                                     check=True, capture_output=True, text=True).stdout
                figures = json.loads(out.strip().splitlines()[-1])
                firsts[size].append((figures["send"], figures["bare"]))
        steadies = steady(homes, args.sends)
    print("Send → request at the server (median), beside a bare httpx POST of the same body")
    worst_over = 0.0
    for size in args.sizes:
        print(f"{size:,} turns")
        print(line(f"first send ({args.firsts} processes)", firsts[size]))
        print(line(f"steady state ({args.sends} sends)", steadies[size]))
        over = statistics.median(p[0] for p in steadies[size]) - statistics.median(
            p[1] for p in steadies[size])
        worst_over = max(worst_over, over)
    verdict = "met" if worst_over <= GOAL_MS else "NOT met"
    print(f"goal: steady state at most {GOAL_MS:.0f} ms above the bare POST — {verdict} "
          f"(+{worst_over:.1f} ms at worst)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
