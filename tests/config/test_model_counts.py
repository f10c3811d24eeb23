"""Token counts and context windows per profile and model, over real HTTP.

The loopback server speaks each server's shape: llama.cpp's `/props` and `/tokenize`,
Ollama's `/api/show`, LM Studio's `/api/v0/models`, vLLM's `/v1/models` and
`/tokenize`, OpenRouter's `/models`. A connect asks once per profile and model; the
window's source is labelled; replies' reported usage calibrates the estimate, only
upwards; an overflow error that states the window teaches it, and the one recovery
uses it.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from loopback import (
    LMSTUDIO_MODELS_PATH,
    MODELS_PATH,
    OLLAMA_SHOW_PATH,
    PROPS_PATH,
    SERVER_TOKENIZE_PATH,
    Behaviour,
    Template,
)
from turnlog.config.model_counts import ModelCounts
from turnlog.config.model_facts import FactStore
from turnlog.config.secrets import SessionKeys
from turnlog.core.budget import (
    ESTIMATE,
    WINDOW_ASSUMED,
    WINDOW_FROM_SERVER,
    WINDOW_LEARNED,
    WINDOW_SET_BY_YOU,
    Budget,
)
from turnlog.core.calibration import MAX_RATIO
from turnlog.core.model import Conversation, ConversationSettings, Usage
from turnlog.core.projection import CostIndex, project
from turnlog.core.provider import CancelToken
from turnlog.core.send import Committed, PendingTurn
from turnlog.providers import CUSTOM, LLAMA_CPP, LM_STUDIO, OLLAMA, OPENROUTER, VLLM
from turnlog.service.chat import (
    ProviderConfig,
    budget_for,
    connect_profile,
    request_for,
    sender_for,
    window_warning,
)
from turnlog.store import TurnlogStore

MODEL = "qwen2.5-7b-instruct"
HINT = "add it here."


def config(loopback, preset, *, model: str = MODEL, window: int | None = None,
           profile_id: str = "p1") -> ProviderConfig:
    return ProviderConfig(profile_id, "Server", preset, loopback.base_url, model, window)


def conversation(window: int | None = None) -> Conversation:
    return Conversation(1, "c", "", "", ConversationSettings(context_window=window))


KEY = "sk-or-test-0123456789"


def connect(loopback, counts, preset, **kwargs):
    keys = SessionKeys()
    if preset.needs_key:
        keys.set(kwargs.get("profile_id", "p1"), KEY)
    return connect_profile(config(loopback, preset, **kwargs), lambda: keys, local=None,
                           add_key=HINT, counts=counts)


@pytest.fixture
def counts(turnlog_home):
    made = ModelCounts(FactStore.in_dir(turnlog_home))
    yield made
    made.close()


def asked(loopback, path: str) -> int:
    return sum(1 for r in loopback.requests if r.path == path)


# ------------------------------------------------------------------ each server's shape
def set_llamacpp(loopback):
    loopback.props = {"default_generation_settings": {"n_ctx": 2048, "n_predict": -1},
                      "total_slots": 1}
    return LLAMA_CPP, PROPS_PATH, 2048


def set_ollama(loopback):
    loopback.ollama_show = {MODEL: {
        "parameters": "stop \"<|im_end|>\"", "model_info": {
            "general.architecture": "qwen2", "qwen2.context_length": 32_768}}}
    return OLLAMA, OLLAMA_SHOW_PATH, 32_768


def set_ollama_num_ctx(loopback):
    loopback.ollama_show = {MODEL: {
        "parameters": "num_ctx 8192\nstop \"<|im_end|>\"", "model_info": {
            "general.architecture": "qwen2", "qwen2.context_length": 32_768}}}
    return OLLAMA, OLLAMA_SHOW_PATH, 8_192


def set_lmstudio(loopback):
    loopback.lmstudio_models = [
        {"id": "other", "max_context_length": 4096},
        {"id": MODEL, "object": "model", "state": "loaded", "max_context_length": 32_768,
         "loaded_context_length": 16_384}]
    return LM_STUDIO, LMSTUDIO_MODELS_PATH, 16_384


def set_vllm(loopback):
    loopback.models = [{"id": MODEL, "object": "model", "max_model_len": 12_288}]
    return VLLM, MODELS_PATH, 12_288


def set_openrouter(loopback):
    loopback.models = [{"id": "openai/gpt-4o", "context_length": 128_000},
                       {"id": MODEL, "context_length": 131_072,
                        "top_provider": {"context_length": 65_536}}]
    return OPENROUTER, MODELS_PATH, 131_072


SHAPES = [set_llamacpp, set_ollama, set_ollama_num_ctx, set_lmstudio, set_vllm,
          set_openrouter]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda f: f.__name__.removeprefix("set_"))
def test_the_window_comes_from_the_server_asked_once_per_profile_and_model(
        loopback, counts, shape):
    preset, path, window = shape(loopback)
    connection = connect(loopback, counts, preset)
    budget = budget_for(conversation(), connection.route)
    assert (budget.context_window, budget.window_source) == (window, WINDOW_FROM_SERVER)
    assert budget.window_label == f"{window:,} tokens, from the server"
    if preset.needs_key:
        assert loopback.requests[0].headers["authorization"] == f"Bearer {KEY}"
    connect(loopback, counts, preset)
    assert asked(loopback, path) == 1  # remembered, not asked again
    # Remembered across starts: a new store reads it from model_facts.json.
    again = ModelCounts(FactStore(counts.facts.path))
    assert again.window("p1", MODEL) == (window, WINDOW_FROM_SERVER)


def test_another_model_is_asked_again(loopback, counts):
    loopback.models = [{"id": MODEL, "max_model_len": 12_288},
                       {"id": "small", "max_model_len": 2_048}]
    connect(loopback, counts, VLLM)
    small = connect(loopback, counts, VLLM, model="small")
    assert asked(loopback, MODELS_PATH) == 2
    assert budget_for(conversation(), small.route).context_window == 2_048


def test_a_window_set_by_you_wins_and_a_larger_one_is_warned_of(loopback, counts):
    preset, _, window = set_llamacpp(loopback)
    route = connect(loopback, counts, preset, window=1_024).route
    assert budget_for(conversation(), route).window_label == "1,024 tokens, set by you"
    assert window_warning(conversation(), route) is None
    assert budget_for(conversation(4_096), route).window_label == "4,096 tokens, set by you"
    assert window_warning(conversation(4_096), route) == (2_048, WINDOW_FROM_SERVER)
    assert budget_for(conversation(1_500), route).window_source == WINDOW_SET_BY_YOU


def test_a_server_that_says_nothing_leaves_your_value_or_assumes_200k(loopback, counts):
    # llama.cpp preset pointed at a server without /props (404): nothing learnt.
    route = connect(loopback, counts, LLAMA_CPP).route
    assert asked(loopback, PROPS_PATH) == 1
    budget = budget_for(conversation(), route)
    assert (budget.context_window, budget.window_source) == (200_000, WINDOW_ASSUMED)
    assert budget.window_label == "200,000 tokens, assumed"
    route = connect(loopback, counts, LLAMA_CPP, window=8_192).route
    assert asked(loopback, PROPS_PATH) == 1  # "says nothing" is remembered too
    assert budget_for(conversation(), route).window_label == "8,192 tokens, set by you"


def test_a_server_that_states_no_window_anywhere_is_not_asked(loopback, counts):
    route = connect(loopback, counts, CUSTOM).route
    assert loopback.requests == []
    assert budget_for(conversation(), route).window_source == WINDOW_ASSUMED


# ------------------------------------------------------------------ calibration
def chat_body(text: str, model: str = MODEL) -> bytes:
    return json.dumps({"model": model, "stream": False,
                       "messages": [{"role": "user", "content": text}]}).encode()


def estimate_of(text: str) -> int:
    return ESTIMATE.reply_priming_tokens() + ESTIMATE.message_tokens("user", text)


def test_reported_usage_raises_the_estimate_and_the_label_counts_the_replies(
        loopback, counts):
    connection = connect(loopback, counts, CUSTOM)
    assert connection.costs is None and connection.route.count_label == "estimated"
    text = "The committee met on Tuesday to review the proposal."
    loopback.script(Behaviour.answer("ok", usage={"prompt_tokens": 2 * estimate_of(text)}))
    connection.provider.complete(chat_body(text), on_delta=lambda t: None,
                                 cancel=CancelToken())
    facts = counts.facts.get("p1", MODEL)
    assert (facts.ratio, facts.replies) == (2.0, 1)
    again = connect(loopback, counts, CUSTOM)
    assert again.route.count_label == "estimated, calibrated from 1 reply"
    assert again.costs is not None and not again.costs.counter.exact
    assert again.costs.counter.message_tokens("user", text) == \
        2 * ESTIMATE.message_tokens("user", text)
    # A reply that reports less never lowers it; each one is counted.
    loopback.script(Behaviour.answer("ok", usage={"prompt_tokens": 3}))
    again.provider.complete(chat_body(text), on_delta=lambda t: None, cancel=CancelToken())
    facts = counts.facts.get("p1", MODEL)
    assert (facts.ratio, facts.replies) == (2.0, 2)
    assert connect(loopback, counts, CUSTOM).route.count_label == \
        "estimated, calibrated from 2 replies"


def test_calibration_is_bounded_and_never_below_the_proven_estimate(loopback, counts):
    connection = connect(loopback, counts, CUSTOM)
    loopback.script(Behaviour.answer("ok", usage={"prompt_tokens": 10**6}),
                    Behaviour.answer("ok", usage={"prompt_tokens": 1}))
    for _ in range(2):
        connection.provider.complete(chat_body("hello there"), on_delta=lambda t: None,
                                     cancel=CancelToken())
    assert counts.facts.get("p1", MODEL).ratio == MAX_RATIO
    other = connect(loopback, counts, CUSTOM, profile_id="p2")
    loopback.script(Behaviour.answer("ok", usage={"prompt_tokens": 1}))
    other.provider.complete(chat_body("hello there"), on_delta=lambda t: None,
                            cancel=CancelToken())
    assert counts.facts.get("p2", MODEL).ratio == 1.0  # per profile, and never below 1
    assert counts.costs("p2", MODEL) is None  # the plain estimate


def test_a_send_through_the_connection_calibrates_from_its_usage(loopback, counts,
                                                                  turnlog_home):
    store = TurnlogStore.open(turnlog_home)
    try:
        conv = store.conversations.create("c", model=MODEL)
        connection = connect(loopback, counts, CUSTOM)
        loopback.script(Behaviour.answer("Hi", usage={"prompt_tokens": 500}))
        outcome = sender_for(store, connection.provider, CostIndex()).send(
            request_for(conv, "Hello?", connection.route))
        assert isinstance(outcome, Committed)
    finally:
        store.close()
    assert counts.facts.get("p1", MODEL).replies == 1
    assert counts.facts.get("p1", MODEL).ratio > 1


# ------------------------------------------------------------------ exact counts
TEMPLATE = Template()


@pytest.mark.parametrize("preset", [LLAMA_CPP, VLLM], ids=["llama.cpp", "vllm"])
@pytest.mark.parametrize("system", ["", "Be brief and precise."])
def test_servers_that_tokenize_count_exactly_what_they_report(loopback, counts, preset,
                                                               system):
    loopback.tokenize_shape = "llama.cpp" if preset is LLAMA_CPP else "vllm"
    loopback.template = TEMPLATE
    connection = connect(loopback, counts, preset)
    assert connection.costs is not None and connection.costs.counter.exact
    assert connection.route.count_label == "exact"
    assert counts.facts.get("p1", MODEL).tokenize is True
    tokenized = [r.json() for r in loopback.requests if r.path == SERVER_TOKENIZE_PATH]
    if preset is VLLM:
        assert all(r["model"] == MODEL and r["add_special_tokens"] is False for r in tokenized)
    else:
        assert all(r["add_special"] is False for r in tokenized)
    turns = tuple(_turn(i) for i in range(4))
    projection = project(turns, "What did I say first?", model=MODEL,
                         budget=Budget(100_000, 32_768, 1_024), system_prompt=system,
                         costs=connection.costs)
    assert projection.tokens_exact
    messages = json.loads(projection.body)["messages"]
    # The server's own count of the request, default system prompt and all.
    assert projection.input_tokens == TEMPLATE.prompt_tokens(messages)
    probes = len(loopback.requests)
    connect(loopback, counts, preset)
    assert len(loopback.requests) == probes  # found out once


def test_a_server_that_cannot_tokenize_is_remembered_and_estimated(loopback, counts):
    connection = connect(loopback, counts, LLAMA_CPP)  # no /tokenize: 404
    assert connection.costs is None
    assert counts.facts.get("p1", MODEL).tokenize is False
    before = len(loopback.requests)
    again = ModelCounts(FactStore(counts.facts.path))
    connect(loopback, again, LLAMA_CPP)
    assert len(loopback.requests) == before  # neither window nor tokenizer asked again


def _turn(i: int):
    from turnlog.core.model import Turn
    return Turn(f"t{i}", i + 1, f"question number {i} about the plan",
                f"answer number {i} with some words", MODEL, "stop", datetime.now(UTC))


# ------------------------------------------------------------------ learning from overflow
@pytest.mark.parametrize("overflow, window", [
    (Behaviour.llamacpp_overflow(), 4_096),  # exceed_context_size_error's n_ctx
    (Behaviour.openai_overflow(), 8_192),  # "maximum context length is 8192 tokens"
    (Behaviour.vllm_overflow(), 4_096),
])
def test_an_overflow_error_teaches_the_window(loopback, counts, overflow, window):
    connection = connect(loopback, counts, CUSTOM)
    loopback.script(overflow)
    with pytest.raises(Exception) as caught:
        connection.provider.complete(chat_body("hi"), on_delta=lambda t: None,
                                     cancel=CancelToken())
    assert caught.value.failure.context_window == window
    route = connect(loopback, counts, CUSTOM).route
    budget = budget_for(conversation(), route)
    assert (budget.context_window, budget.window_source) == (window, WINDOW_LEARNED)
    assert budget.window_label == f"{window:,} tokens, learned"


def test_the_send_that_overflowed_succeeds_within_the_learned_window(loopback, counts,
                                                                      turnlog_home):
    store = TurnlogStore.open(turnlog_home)
    try:
        conv = store.conversations.create(
            "long", model=MODEL,
            settings=ConversationSettings(max_bytes=1_000_000, compaction=False,
                                          output_reserve=1_024))
        for i in range(12):
            store.turns.commit(conv.id, PendingTurn(
                f"o{i}", f"question {i} " + "word " * 150, f"answer {i} " + "word " * 150,
                MODEL, "stop", Usage(), datetime.now(UTC)))
        connection = connect(loopback, counts, CUSTOM)
        loopback.script(Behaviour.llamacpp_overflow(), Behaviour.answer("Fits now."))
        outcome = sender_for(store, connection.provider, CostIndex()).send(
            request_for(conv, "And now?", connection.route))
        assert isinstance(outcome, Committed), outcome
        first, retry = (r.json() for r in loopback.requests[-2:])
        assert len(retry["messages"]) < len(first["messages"])
        budget = Budget(1_000_000, 4_096, 1_024)
        assert outcome.record.token_budget == budget.input_tokens
        assert counts.window("p1", MODEL) == (4_096, WINDOW_LEARNED)
    finally:
        store.close()


def test_an_empty_stream_from_a_llamacpp_profile_teaches_a_bound_and_the_send_succeeds(
        loopback, counts, turnlog_home):
    # llama-cpp-python behind a "llama.cpp" profile states its window nowhere and answers
    # an overflowing request with an empty 200 stream.
    store = TurnlogStore.open(turnlog_home)
    try:
        conv = store.conversations.create(
            "twelve", model=MODEL, settings=ConversationSettings(compaction=False))
        for i in range(12):
            store.turns.commit(conv.id, PendingTurn(
                f"e{i}", f"question {i} " + "word " * 60, f"answer {i} " + "word " * 60,
                MODEL, "stop", Usage(), datetime.now(UTC)))
        connection = connect(loopback, counts, LLAMA_CPP)
        loopback.script(Behaviour.empty_stream(), Behaviour.answer("Fits now."))
        outcome = sender_for(store, connection.provider, CostIndex()).send(
            request_for(conv, "And now?", connection.route))
        assert isinstance(outcome, Committed), outcome
        first, retry = loopback.requests[-2:]
        messages = [(m["role"], m["content"]) for m in first.json()["messages"]]
        bound = ESTIMATE.reply_priming_tokens() + sum(
            ESTIMATE.message_tokens(role, content) for role, content in messages) - 1
        assert counts.window("p1", MODEL) == (bound, WINDOW_LEARNED)
        assert len(retry.json()["messages"]) < len(messages)
        assert retry.json()["max_tokens"] == bound // 4  # the reserve fits the window
        # The next send starts inside the learned window.
        route = connect(loopback, counts, LLAMA_CPP).route
        assert budget_for(conv, route).window_label == f"{bound:,} tokens, learned"
    finally:
        store.close()


def test_an_empty_stream_elsewhere_stays_a_cut_reply(loopback, counts):
    connection = connect(loopback, counts, CUSTOM)
    loopback.script(Behaviour.empty_stream())
    with pytest.raises(Exception) as caught:
        connection.provider.complete(chat_body("hi").replace(b'"stream": false',
                                                              b'"stream": true'),
                                     on_delta=lambda t: None, cancel=CancelToken())
    assert caught.value.failure.kind.value == "truncated"
    assert counts.window("p1", MODEL) == (None, "")


def test_a_server_that_cannot_be_reached_is_asked_again_on_the_next_send(counts):
    from loopback import LoopbackServer

    gone = LoopbackServer()
    url = gone.base_url
    gone.close()
    cfg = ProviderConfig("p1", "vLLM", VLLM, url, MODEL, None)
    connection = connect_profile(cfg, lambda: None, local=None, add_key=HINT, counts=counts)
    assert connection.costs is None
    facts = counts.facts.get("p1", MODEL)
    assert (facts.window_asked, facts.tokenize) == (False, None)
