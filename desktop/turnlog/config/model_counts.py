"""Token counts and context windows per profile and model, for the window and the CLI.

`ModelCounts` finds out, once per profile and model (on the network worker, when a send
connects), what the server can say: its context window (`providers.discovery`), and,
for llama.cpp's and vLLM's servers, whether it counts tokens exactly (`POST /tokenize`,
with the chat template's costs measured as for the built-in model). What it found is
kept in a `FactStore`, so the GUI thread reads it without asking anyone.

`ObservingProvider` wraps the provider a send goes through and tells `ModelCounts` what
the server said along the way: each reply's reported `prompt_tokens` calibrates the
estimate (only ever upwards, see `core.calibration`), and a context overflow error that
states the window teaches it ("learned").
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable

from ..core.budget import WINDOW_FROM_SERVER, WINDOW_LEARNED
from ..core.calibration import CalibratedCounter, count_label, estimated_request_tokens
from ..core.failures import ProviderFailure
from ..core.projection import CostIndex
from ..system.lazy import LazyModule
from .model_facts import LEARNED, FactStore, ModelFacts

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    import ssl
    from typing import Any

    import httpx

    from ..core.provider import CancelToken, ChatProvider, Reply
    from ..localmodel import ServerTokenCounter
    from ..providers import Preset
else:
    httpx = LazyModule("httpx")  # loaded by the first request

log = logging.getLogger(__name__)

_Key = tuple[str, str]


def _messages(body: bytes) -> tuple[str, list[tuple[str, str]]]:
    """The model and (role, content) messages of a request body ("" and [] if odd)."""
    try:
        data = json.loads(body)
        model = data.get("model") if isinstance(data.get("model"), str) else ""
        messages = [(m["role"], m["content"]) for m in data["messages"]
                    if isinstance(m.get("content"), str)]
    except (ValueError, KeyError, TypeError, AttributeError):
        return "", []
    return model, messages


class ModelCounts:
    """What each profile's server says about its model's tokens and window (thread-safe)."""

    def __init__(self, facts: FactStore) -> None:
        self.facts = facts
        self._lock = threading.Lock()
        self._exact: dict[_Key, tuple[ServerTokenCounter, CostIndex]] = {}
        self._calibrated: dict[tuple[str, str, float], CostIndex] = {}

    # ------------------------------------------------------------ GUI thread, cheap
    def window(self, profile_id: str, model: str) -> tuple[int | None, str]:
        """The window the server stated or an overflow taught, and which; (None, "")."""
        facts = self.facts.get(profile_id, model)
        if facts.window is None:
            return None, ""
        return facts.window, WINDOW_LEARNED if facts.window_source == LEARNED \
            else WINDOW_FROM_SERVER

    def learned_on(self, profile_id: str, model: str) -> str:
        """The date (YYYY-MM-DD) an overflow taught the window in use, "" if none did."""
        facts = self.facts.get(profile_id, model)
        return facts.learned_on if facts.window_source == LEARNED else ""

    def forget_learned_window(self, profile_id: str, model: str) -> None:
        self.facts.forget_learned_window(profile_id, model)
        log.info("forgot the learned context window of %s", model)

    def costs(self, profile_id: str, model: str) -> CostIndex | None:
        """The cost index to count with: the server's exact counter once it is known to
        count, else the estimate calibrated from replies when they raised it, else None
        (the plain estimate)."""
        key = (profile_id, model)
        with self._lock:
            exact = self._exact.get(key)
        if exact is not None and exact[0].exact:
            return exact[1]
        facts = self.facts.get(profile_id, model)
        if facts.replies == 0 or facts.ratio <= 1.0:
            return None
        with self._lock:
            return self._calibrated.setdefault(
                (profile_id, model, facts.ratio),
                CostIndex(CalibratedCounter(facts.ratio, facts.replies)))

    def label(self, profile_id: str, model: str) -> str:
        """How counts are made for this profile and model, as the window says it."""
        with self._lock:
            exact = self._exact.get((profile_id, model))
        if exact is not None and exact[0].exact:
            return "exact"
        facts = self.facts.get(profile_id, model)
        return count_label(CalibratedCounter(facts.ratio, facts.replies))

    # ------------------------------------------------------------ network worker
    def find_out(self, profile_id: str, preset: Preset, base_url: str, model: str,
                 api_key: str | None, *, verify: ssl.SSLContext | bool = True) -> None:
        """Ask the server, once per profile and model, for its window and whether it
        counts tokens (the latter once per run: the template costs are measured again),
        trusting what a send through the profile trusts (`verify`). The askers load with
        the first question: reading what is known needs none of them."""
        from ..providers.discovery import NotAnswered, can_state_window, server_window

        facts = self.facts.get(profile_id, model)
        if not facts.window_asked and can_state_window(preset):
            try:
                window = server_window(preset, base_url, model, api_key=api_key,
                                       verify=verify)
            except NotAnswered as err:  # asked again on the next send
                log.info("the server could not be asked for its window: %s", err)
                return
            facts = self.facts.server_window(profile_id, model, window)
        self._find_tokenizer(profile_id, preset, base_url, model, api_key, facts, verify)

    def _find_tokenizer(self, profile_id: str, preset: Preset, base_url: str, model: str,
                        api_key: str | None, facts: ModelFacts,
                        verify: ssl.SSLContext | bool = True) -> None:
        from ..localmodel import ServerTokenCounter
        from ..localmodel.tokens import tokenize_timeout
        from ..providers.discovery import tokenize_flavour
        from ..providers.security import context_for

        flavour = tokenize_flavour(preset)
        url = preset.tokenize_url(base_url)
        key = (profile_id, model)
        with self._lock:
            known = key in self._exact
        if flavour is None or url is None or known or facts.tokenize is False:
            return
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        client = httpx.Client(timeout=tokenize_timeout(), trust_env=False, headers=headers,
                              verify=context_for(url, verify))
        counter = ServerTokenCounter.calibrate(url, base_url, model, client=client,
                                               per_model=flavour == "vllm")
        log.info("token counts for %s at %s: %s", model, base_url,
                 "exact" if counter.exact else f"estimated ({counter.fallback_reason})")
        if not counter.exact and "could not be reached" in counter.fallback_reason:
            counter.close()  # not an answer: found out on the next send
            return
        self.facts.tokenize(profile_id, model, counter.exact)
        with self._lock:
            self._exact[key] = (counter, CostIndex(counter))

    # ------------------------------------------------------------ what servers said
    def reported(self, profile_id: str, body: bytes, prompt_tokens: int) -> None:
        model, messages = _messages(body)
        if not messages:
            return
        estimated = estimated_request_tokens(messages)
        facts = self.facts.calibrate(profile_id, model, estimated, prompt_tokens)
        log.debug("calibration of %s: %.3f from %d replies", model, facts.ratio,
                  facts.replies)

    def overflowed(self, profile_id: str, body: bytes, window: int) -> None:
        model, _ = _messages(body)
        self.facts.learn_window(profile_id, model, window)
        log.info("learned the context window of %s from an overflow: %s", model, window)

    def close(self) -> None:
        with self._lock:
            counters = [counter for counter, _ in self._exact.values()]
            self._exact.clear()
        for counter in counters:
            counter.close()


class ObservingProvider:
    """`inner`, telling `counts` what the server said about tokens: each reply's
    `prompt_tokens`, and the window an overflow error states."""

    def __init__(self, inner: ChatProvider, counts: ModelCounts, profile_id: str) -> None:
        self.inner = inner
        self.counts = counts
        self.profile_id = profile_id

    def complete(self, body: bytes, *, on_delta: Callable[[str], None],
                 cancel: CancelToken, on_reasoning: Callable[[str], None] | None = None
                 ) -> Reply:
        try:
            if on_reasoning is None:
                reply = self.inner.complete(body, on_delta=on_delta, cancel=cancel)
            else:
                reply = self.inner.complete(body, on_delta=on_delta, cancel=cancel,
                                            on_reasoning=on_reasoning)
        except ProviderFailure as err:
            if err.failure.context_window is not None:
                self.counts.overflowed(self.profile_id, body, err.failure.context_window)
            raise
        prompt = reply.usage.prompt_tokens
        if prompt is not None and prompt > 0:
            self.counts.reported(self.profile_id, body, prompt)
        return reply

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
