"""Exact token counts from the model server itself.

A request's prompt is the chat template applied to its messages. Turnlog
counts it as: reply priming + Σ (tokens of the message content + the
template's per-message overhead for that role). Content tokens come from the
server's tokenizer (`POST /extras/tokenize` on llama-cpp-python, `POST
/tokenize` on llama.cpp and on vLLM), cached by a hash of the text so each text is
tokenized once.

The overheads are *measured against the server's own prompt count*: a few
one-token completions (`max_tokens: 1`) of small probe conversations, each
reporting `usage.prompt_tokens`, give the overhead per role and the reply
priming by difference (see `calibrate`). The split is then checked on one
more probe; a template that does not add up message by message leaves the
counter estimating, labelled so.

Templates that insert a default system prompt when the first message is not a
system message (SmolLM2's does: 21 tokens) make the priming depend on the first
role: `reply_priming_tokens_for(first_role)` says which, so a request that leads
with a system message is counted exactly too (`reply_priming_tokens` alone, with
no role known, counts the larger case).

Known, bounded differences (never an undercount):
- Content that starts with whitespace can merge with the template's newline
  before it into one token; counting content alone then overcounts by one.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.budget import ESTIMATE, REPLY_PRIMING_TOKENS
from ..system.lazy import LazyModule

if TYPE_CHECKING:
    import httpx
else:
    httpx = LazyModule("httpx")  # loaded by the first request

log = logging.getLogger(__name__)

CACHE_ENTRIES = 50_000
ROLES = ("system", "user", "assistant")


def tokenize_timeout() -> httpx.Timeout:
    """A tokenize request's timeouts (the server answers one request at a time)."""
    return httpx.Timeout(30.0, connect=2.0)

# Probe texts: plain words without leading whitespace, so content counts are exact.
_A, _B, _S = "Hello", "Hi there", "Be brief"


def _text_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class TokenizeError(Exception):
    """The server could not tokenize (no endpoint, refused, unreachable, odd answer)."""


@dataclass(frozen=True, slots=True)
class TemplateCosts:
    """What the chat template adds around message contents, in tokens."""

    overhead: dict[str, int]
    priming: int
    leading_system_overcount: int
    # The priming when the first message is not a system message, and when one is (they
    # differ by the default system prompt some templates add); None where not measured.
    priming_plain: int | None = None
    priming_system: int | None = None


class ServerTokenCounter:
    """A `TokenCounter` whose counts are the server's own (`exact = True`).

    If the server stops tokenizing, the counter falls back to the estimate for
    good and says so (`exact` becomes False, `fallback_reason` tells why):
    counts it already handed out may be cached by a `CostIndex`, so a counter
    never claims exactness again once any of its counts was estimated.
    """

    def __init__(
        self,
        tokenize_url: str,
        *,
        costs: TemplateCosts | None,
        client: httpx.Client | None = None,
        fallback_reason: str = "",
        cache_entries: int = CACHE_ENTRIES,
        model: str = "",
    ) -> None:
        self.tokenize_url = tokenize_url
        self.model = model  # vLLM's tokenizer is asked per model
        self.costs = costs
        self._client = client or httpx.Client(timeout=tokenize_timeout(), trust_env=False)
        self._lock = threading.Lock()
        self._cache: OrderedDict[bytes, int] = OrderedDict()
        self._cache_entries = cache_entries
        self._special: int | None = None
        self.fallback_reason = fallback_reason
        self.tokenize_calls = 0

    # ------------------------------------------------------------ TokenCounter
    @property
    def exact(self) -> bool:
        return self.costs is not None and not self.fallback_reason

    def message_tokens(self, role: str, content: str) -> int:
        if self.exact:
            try:
                return self.content_tokens(content) + self._overhead(role)
            except TokenizeError as err:
                self._fall_back(str(err))
        return ESTIMATE.message_tokens(role, content)

    def reply_priming_tokens(self) -> int:
        if self.costs is None:
            return REPLY_PRIMING_TOKENS
        if self.exact:
            return self.costs.priming
        return max(self.costs.priming, REPLY_PRIMING_TOKENS)

    def reply_priming_tokens_for(self, first_role: str) -> int:
        """The priming of a request that starts with a `first_role` message: without the
        default system prompt the template leaves out when a system message leads."""
        if not self.exact:
            return self.reply_priming_tokens()
        assert self.costs is not None
        by_role = self.costs.priming_system if first_role == "system" else \
            self.costs.priming_plain
        return self.costs.priming if by_role is None else by_role

    @property
    def leading_system_overcount(self) -> int:
        """Tokens counted for a default system prompt the template leaves out when the
        request starts with a system message (0 for templates without one)."""
        return self.costs.leading_system_overcount if self.costs else 0

    def known_message_tokens(self, role: str, content: str) -> int | None:
        """`message_tokens` if it can be answered without asking the server (the content
        was counted before), else None. Never touches the network."""
        if not self.exact:
            return ESTIMATE.message_tokens(role, content)
        key = _text_key(content)
        with self._lock:
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
        return None if cached is None else cached + self._overhead(role)

    # --------------------------------------------------------------- counting
    def content_tokens(self, text: str) -> int:
        """Tokens of `text` alone, as the server tokenizes it; cached by text hash."""
        key = _text_key(text)
        with self._lock:
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                return cached
        count = self._tokenize(text) - self._added_special()
        with self._lock:
            self._cache[key] = count
            while len(self._cache) > self._cache_entries:
                self._cache.popitem(last=False)
        return count

    def _added_special(self) -> int:
        """Tokens the endpoint adds to any text (a BOS token on some models)."""
        if self._special is None:
            self._special = self._tokenize("")
        return self._special

    def _tokenize(self, text: str) -> int:
        if self.tokenize_url.endswith("/extras/tokenize"):
            payload: dict[str, object] = {"input": text}
        elif self.model:  # vLLM: per model, no BOS added
            payload = {"model": self.model, "prompt": text, "add_special_tokens": False}
        else:  # llama.cpp: special tokens parsed as in its prompts, no BOS added
            payload = {"content": text, "add_special": False}
        self.tokenize_calls += 1
        try:
            response = self._client.post(self.tokenize_url, json=payload)
        except httpx.HTTPError as err:
            raise TokenizeError(f"the server could not be reached to count tokens ({err})") \
                from err
        except RuntimeError as err:  # httpx refuses to send on a closed client
            raise TokenizeError("the model server was stopped") from err
        if response.status_code != 200:
            raise TokenizeError(f"the server's tokenizer answered HTTP {response.status_code}")
        try:
            tokens = response.json()["tokens"]
        except (ValueError, KeyError, TypeError) as err:
            raise TokenizeError("the server's tokenizer sent an unexpected answer") from err
        if not isinstance(tokens, list):
            raise TokenizeError("the server's tokenizer sent an unexpected answer")
        return len(tokens)

    def _overhead(self, role: str) -> int:
        assert self.costs is not None
        overhead = self.costs.overhead
        # A role the probes did not cover costs as much as the dearest one measured.
        return overhead.get(role, max(overhead.values()))

    def _fall_back(self, reason: str) -> None:
        if not self.fallback_reason:
            log.warning("token counts fall back to estimates: %s", reason)
            self.fallback_reason = reason

    def close(self) -> None:
        self._client.close()

    # ------------------------------------------------------------ calibration
    @classmethod
    def calibrate(
        cls, tokenize_url: str, base_url: str, model: str, *, client: httpx.Client | None = None,
        per_model: bool = False,
    ) -> ServerTokenCounter:
        """Measure the server's chat template and return a counter for it.

        Each probe is a real completion with `max_tokens: 1`; its
        `usage.prompt_tokens` is the server's count of the templated prompt. With
        c(x) the content tokens of x (from the tokenizer):
          P1 = [user A]                      = priming₀ + user + c(A)
          P2 = [user A, user A]              → user      = P2 − P1 − c(A)
          P3 = [user A, assistant B, user A] → assistant = P3 − P2 − c(B)
          P4 = [system S, user A]            = priming_S + system + c(S) + user + c(A)
          P5 = [system S, system S, user A]  → system    = P5 − P4 − c(S)
        priming₀ (no leading system message) and priming_S (one leads) differ when
        the template inserts a default system prompt; the counter takes the larger.
        A sixth probe, [system S, user A, assistant B, user A], must come out as
        predicted, or the counter estimates instead. `per_model`: the tokenizer is asked
        with the model's name (vLLM).
        """
        counter = cls(tokenize_url, costs=None, client=client,
                      model=model if per_model else "")
        chat_url = base_url.rstrip("/") + "/chat/completions"
        try:
            c_a, c_b, c_s = (counter.content_tokens(t) for t in (_A, _B, _S))
            probe = _Prober(counter._client, chat_url, model)
            p1 = probe([("user", _A)])
            p2 = probe([("user", _A), ("user", _A)])
            p3 = probe([("user", _A), ("assistant", _B), ("user", _A)])
            p4 = probe([("system", _S), ("user", _A)])
            p5 = probe([("system", _S), ("system", _S), ("user", _A)])
            user = p2 - p1 - c_a
            assistant = p3 - p2 - c_b
            system = p5 - p4 - c_s
            priming_plain = p1 - c_a - user
            priming_system = p4 - c_s - system - c_a - user
            check = probe([("system", _S), ("user", _A), ("assistant", _B), ("user", _A)])
        except TokenizeError as err:
            counter._fall_back(str(err))
            return counter
        predicted = priming_system + system + c_s + 2 * (user + c_a) + assistant + c_b
        values = (user, assistant, system, priming_plain, priming_system)
        if check != predicted or min(values) < 0:
            counter._fall_back("the server's chat template does not add up message by message")
            return counter
        counter.costs = TemplateCosts(
            overhead={"user": user, "assistant": assistant, "system": system},
            priming=max(priming_plain, priming_system),
            leading_system_overcount=abs(priming_plain - priming_system),
            priming_plain=priming_plain,
            priming_system=priming_system,
        )
        return counter


class _Prober:
    """Asks the server how many tokens it counts for a small conversation."""

    def __init__(self, client: httpx.Client, chat_url: str, model: str) -> None:
        self.client = client
        self.chat_url = chat_url
        self.model = model

    def __call__(self, messages: Sequence[tuple[str, str]]) -> int:
        body = {
            "model": self.model,
            "messages": [{"role": role, "content": content} for role, content in messages],
            "max_tokens": 1,
            "temperature": 0,
            "stream": False,
        }
        try:
            response = self.client.post(self.chat_url, json=body,
                                        timeout=httpx.Timeout(60.0, connect=2.0))
        except httpx.HTTPError as err:
            raise TokenizeError(f"the server could not be reached to measure its template "
                                f"({err})") from err
        if response.status_code != 200:
            raise TokenizeError(f"measuring the chat template failed (HTTP "
                                f"{response.status_code})")
        try:
            prompt_tokens = response.json()["usage"]["prompt_tokens"]
        except (ValueError, KeyError, TypeError) as err:
            raise TokenizeError("the server does not report prompt token usage") from err
        if not isinstance(prompt_tokens, int) or isinstance(prompt_tokens, bool):
            raise TokenizeError("the server does not report prompt token usage")
        return prompt_tokens
