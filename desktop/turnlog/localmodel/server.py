"""The built-in model server: `python -m llama_cpp.server` as a child process.

`LocalServer.start` launches it on a free 127.0.0.1 port, waits (bounded,
cancellable, with progress) until `GET /v1/models` answers, and returns a
`LocalEndpoint`: the base URL to give the ordinary HTTP provider, the
context window, and an exact token counter. `stop` ends it: terminate, wait,
kill.

No orphan survives the window: on Linux the child asks the kernel for
SIGTERM when its parent dies (`PR_SET_PDEATHSIG`), and `atexit` stops every
server still running at a normal exit. The kernel sends that signal when the
*thread* that forked the child ends, so the child is forked from a keeper
thread that lives exactly as long as the server, never from a pooled worker.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import ctypes.util
import logging
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import httpx

from ..core.failures import Failure, FailureKind, ProviderFailure
from ..core.model import MAX_OUTPUT_RESERVE, MIN_OUTPUT_RESERVE
from ..core.provider import CancelToken
from ..paths import log_dir as default_log_dir
from .model_file import (
    INSTALL_HINT,
    ModelInfo,
    NotAModelFile,
    available,
    describe,
    read_metadata,
    training_context,
)
from .tokens import ServerTokenCounter

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
DEFAULT_N_CTX = 4096
DEFAULT_THREADS = 2
STARTUP_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 5.0
POLL_INTERVAL_S = 0.1
PORT_ATTEMPTS = 3
LOG_NAME = "local-model.log"
TOKENIZE_PATH = "/extras/tokenize"  # llama-cpp-python's endpoint, at the server root

_PR_SET_PDEATHSIG = 1
# How llama-cpp-python states its window when refusing an over-long prompt.
_WINDOW_STATED = re.compile(r"maximum context length is (\d+) tokens|context window of (\d+)")


class StartFailure(Exception):
    """Why a start did not produce a server (internal; surfaces as `LocalModelFailure`)."""


class LocalModelFailure(ProviderFailure):
    """The built-in model could not start (missing extra, bad model file, port taken,
    server exited or never answered) or its start was cancelled. `failure.kind` is
    `FailureKind.LOCAL_MODEL`, or `CANCELLED` when the user stopped the start."""

    def __init__(self, detail: str, hint: str = "", *, cancelled: bool = False) -> None:
        kind = FailureKind.CANCELLED if cancelled else FailureKind.LOCAL_MODEL
        super().__init__(Failure(kind, detail=detail, hint=hint, stage="starting local model"))


@dataclass(frozen=True, slots=True)
class LocalEndpoint:
    """What a running local server offers to the rest of Turnlog."""

    base_url: str  # e.g. http://127.0.0.1:40123/v1, for the ordinary HTTP provider
    model: str  # the alias to put in request bodies
    context_window: int  # n_ctx as the server reports it, else as launched
    context_window_source: str  # "server" or "launch settings"
    tokenize_url: str
    counter: ServerTokenCounter
    info: ModelInfo


def output_reserve_for(context_window: int) -> int:
    """The output reserve to use with a local window: a quarter of it, within core's limits.

    Core's default reserve (8,192) is larger than a small local window; a quarter
    leaves most of the window for the conversation and room for a full answer.
    Send it as `max_tokens` too, so the server never generates past the budget.
    """
    return max(MIN_OUTPUT_RESERVE, min(MAX_OUTPUT_RESERVE, context_window // 4))


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _death_signal_hook() -> Callable[[], None] | None:
    """A `preexec_fn` that makes the child receive SIGTERM when its parent dies (Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    libc_name = ctypes.util.find_library("c")
    if libc_name is None:
        return None
    prctl = ctypes.CDLL(libc_name, use_errno=True).prctl  # looked up before fork
    parent = os.getpid()

    def hook() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the request took effect
            os._exit(1)

    return hook


# Strong references: a server dropped without `stop` is still stopped at exit.
_live: set[LocalServer] = set()


@atexit.register
def _stop_all() -> None:
    for server in list(_live):
        server.stop()


def _rotate(path: Path) -> None:
    """Keep the previous run's log beside the new one; older ones go."""
    if path.exists():
        with contextlib.suppress(OSError):
            path.replace(path.with_name(path.name + ".1"))


def _tail(path: Path, limit: int = 16_384) -> str:
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - limit))
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""


def _explain_exit(log_text: str, code: int | None) -> tuple[str, str, bool]:
    """(detail, hint, port_taken) for a server that exited while starting."""
    text = log_text.lower()
    if "address already in use" in text or "errno 98" in text:
        return "the port it was given was taken by another program", "Try again", True
    if "no module named" in text:
        return "part of the local model server is not installed", INSTALL_HINT, False
    if "failed to load model" in text or "gguf" in text or "llama_model_load" in text:
        return (
            "the model file could not be loaded (it may be damaged or of an unsupported "
            "kind)",
            "Choose another GGUF file in Settings",
            False,
        )
    last = next((line.strip() for line in reversed(log_text.splitlines()) if line.strip()), "")
    detail = f"the server stopped while starting (exit code {code})"
    if last:
        detail += f": {last[:200]}"
    return detail, "See the local model log for details", False


class LocalServer:
    """One llama-cpp-python server process for one GGUF file. Thread-safe; `start` is
    idempotent and returns the running server's endpoint."""

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        n_ctx: int = DEFAULT_N_CTX,
        n_threads: int = DEFAULT_THREADS,
        log_dir: Path | None = None,
        python: str = sys.executable,
        startup_timeout: float = STARTUP_TIMEOUT_S,
    ) -> None:
        self.model_path = model_path
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self._log_dir = log_dir
        self.python = python
        self.startup_timeout = startup_timeout
        self._lock = threading.RLock()
        self._process: subprocess.Popen[bytes] | None = None
        self._released: threading.Event | None = None
        self._endpoint: LocalEndpoint | None = None
        self._log_handle: IO[bytes] | None = None
        self.log_path: Path | None = None

    # ------------------------------------------------------------------ state
    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def endpoint(self) -> LocalEndpoint | None:
        """The endpoint of the running server, or None before `start` or after `stop`."""
        return self._endpoint if self.running else None

    # ------------------------------------------------------------------ start
    def start(
        self,
        *,
        on_progress: Callable[[str], None] = lambda message: None,
        cancel: CancelToken | None = None,
    ) -> LocalEndpoint:
        """Start the server (if it is not running) and wait until it answers.

        Raises `LocalModelFailure` with plain words when it cannot start, and
        with kind CANCELLED when `cancel` fires first (the child is stopped).
        """
        cancel = cancel or CancelToken()
        with self._lock:
            if self._endpoint is not None and self.running:
                return self._endpoint
            self.stop()  # a server that died since: clean up before starting anew
            check = available(self.model_path)
            if not check.ok or check.model_path is None:
                raise LocalModelFailure(check.reason)
            model_path = check.model_path
            try:
                info = describe(model_path)
                trained = training_context(read_metadata(model_path))
            except (NotAModelFile, OSError) as err:
                raise LocalModelFailure(str(err), "Choose another GGUF file in Settings") from err
            n_ctx = self.n_ctx if trained is None else min(self.n_ctx, trained)
            on_progress(f"Starting {info.name}…")
            for attempt in range(1, PORT_ATTEMPTS + 1):
                port = free_port()
                try:
                    self._launch(model_path, info.alias, port, n_ctx)
                    root = self._wait_ready(port, info, on_progress, cancel)
                except StartFailure:
                    self.stop()
                    if attempt == PORT_ATTEMPTS:
                        raise LocalModelFailure(
                            "every free port it tried was taken before it could listen",
                            "Try again",
                        ) from None
                    continue
                except BaseException:
                    self.stop()
                    raise
                break
            window, source = self._read_context_window(root, info.alias, n_ctx)
            counter = ServerTokenCounter.calibrate(
                root + TOKENIZE_PATH, root + "/v1", info.alias
            )
            self._endpoint = LocalEndpoint(
                base_url=root + "/v1",
                model=info.alias,
                context_window=window,
                context_window_source=source,
                tokenize_url=root + TOKENIZE_PATH,
                counter=counter,
                info=info,
            )
            log.info(
                "local model %s ready on port %d (n_ctx %d from %s, tokens %s)",
                info.alias, port, window, source, "exact" if counter.exact else "estimated",
            )
            return self._endpoint

    def _launch(self, model_path: Path, alias: str, port: int, n_ctx: int) -> None:
        folder = self._log_dir or default_log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        self.log_path = folder / LOG_NAME
        _rotate(self.log_path)
        self._log_handle = self.log_path.open("wb")
        argv = [
            self.python, "-m", "llama_cpp.server",
            "--model", str(model_path),
            "--model_alias", alias,
            "--host", HOST,
            "--port", str(port),
            "--n_ctx", str(n_ctx),
            "--n_threads", str(self.n_threads),
            # Requests queue rather than cut off a reply that is still streaming
            # (a token count during an answer would otherwise end the answer).
            "--interrupt_requests", "False",
            # Model metadata and timings only; prompts are never logged either way.
            "--verbose", "False",
        ]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        hook = _death_signal_hook()
        result: queue.Queue[subprocess.Popen[bytes] | OSError] = queue.Queue(maxsize=1)
        released = threading.Event()
        handle = self._log_handle

        def keep() -> None:
            try:
                process = subprocess.Popen(
                    argv, stdin=subprocess.DEVNULL, stdout=handle, stderr=subprocess.STDOUT,
                    env=env, close_fds=True, preexec_fn=hook,  # noqa: PLW1509 - see module doc
                )
            except OSError as err:
                result.put(err)
                return
            result.put(process)
            released.wait()  # this thread's life is the child's death-signal anchor

        threading.Thread(target=keep, name="turnlog-local-model", daemon=True).start()
        got = result.get()
        if isinstance(got, OSError):
            raise LocalModelFailure(
                f"the server could not be launched ({got.strerror or got})", INSTALL_HINT
            )
        self._process = got
        self._released = released
        _live.add(self)
        log.info("local model server launched (pid %d, port %d)", got.pid, port)

    def _wait_ready(
        self, port: int, info: ModelInfo, on_progress: Callable[[str], None],
        cancel: CancelToken,
    ) -> str:
        root = f"http://{HOST}:{port}"
        started = time.monotonic()
        last_report = started
        assert self._process is not None and self.log_path is not None
        with httpx.Client(timeout=httpx.Timeout(2.0), trust_env=False) as client:
            while True:
                code = self._process.poll()
                if code is not None:
                    detail, hint, port_taken = _explain_exit(_tail(self.log_path), code)
                    if port_taken:
                        raise StartFailure(detail)
                    raise LocalModelFailure(detail, hint)
                try:
                    response = client.get(root + "/v1/models")
                    if response.status_code == 200 and isinstance(
                        response.json().get("data"), list
                    ):
                        return root
                except (httpx.HTTPError, ValueError, AttributeError):
                    pass
                now = time.monotonic()
                if now - started > self.startup_timeout:
                    raise LocalModelFailure(
                        f"the server did not answer within {self.startup_timeout:.0f} s",
                        "See the local model log for details",
                    )
                if now - last_report >= 1.0:
                    on_progress(f"Starting {info.name}… {now - started:.0f} s")
                    last_report = now
                if cancel.wait(POLL_INTERVAL_S):
                    raise LocalModelFailure("stopped while the local model was starting",
                                            cancelled=True)

    @staticmethod
    def _read_context_window(root: str, model: str, launched: int) -> tuple[int, str]:
        """The context window as the server states it, else as launched.

        llama.cpp says it in `/props`. llama-cpp-python has no such endpoint but names
        its window when refusing a prompt that is one window long (before evaluating
        anything, so the probe costs only a tokenization).
        """
        try:
            with httpx.Client(timeout=httpx.Timeout(30.0, connect=2.0),
                              trust_env=False) as client:
                response = client.get(root + "/props")
                if response.status_code == 200:
                    data = response.json()
                    settings = data.get("default_generation_settings", {})
                    value = settings.get("n_ctx", data.get("n_ctx"))
                    if isinstance(value, int) and value > 0:
                        return value, "server"
                response = client.post(root + "/v1/chat/completions", json={
                    "model": model, "stream": False, "max_tokens": 1,
                    "messages": [{"role": "user", "content": "word " * launched}],
                })
                if response.status_code == 400:
                    found = _WINDOW_STATED.search(response.text)
                    if found:
                        return int(found.group(1) or found.group(2)), "server"
        except (httpx.HTTPError, ValueError, AttributeError):
            pass
        return launched, "launch settings"

    # ------------------------------------------------------------------- stop
    def stop(self, timeout: float = STOP_TIMEOUT_S) -> None:
        """Terminate the child, wait up to `timeout`, then kill it. Safe to call twice."""
        with self._lock:
            process, self._process = self._process, None
            if self._endpoint is not None:
                self._endpoint.counter.close()
            self._endpoint = None
            if process is not None:
                if process.poll() is None:
                    process.terminate()
                    try:
                        process.wait(timeout)
                    except subprocess.TimeoutExpired:
                        log.warning("local model server ignored SIGTERM; killing it")
                        process.kill()
                        process.wait()
                log.info("local model server stopped (pid %d, exit %s)", process.pid,
                         process.returncode)
            if self._released is not None:
                self._released.set()
                self._released = None
            if self._log_handle is not None:
                self._log_handle.close()
                self._log_handle = None
            _live.discard(self)

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


