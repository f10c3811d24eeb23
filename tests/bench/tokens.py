"""The token estimate against two real tokenizers, per class of text, beside the old one.

    .venv/bin/python tests/bench/tokens.py

For each class of `tests/tokens_corpus.py` (about 2,000 characters each) it prints the
exact input tokens of a one-message request under SmolLM2's and Gemma 3's chat
templates, and estimate ÷ exact for today's estimator and for the byte-based one it
replaced (2.5 ASCII bytes a token, a token per other byte, 8 + 4 tokens of overhead).
The goal, checked by `tests/test_tokens_corpus.py`: every ratio ≥ 1.00, and the ratio to
the larger count ≤ 2.00. Needs the `local` and `test` extras.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import real_tokenizers  # noqa: E402
from tokens_corpus import corpus  # noqa: E402
from turnlog.core.budget import ESTIMATE  # noqa: E402


def old_estimate(text: str) -> int:
    """The estimator before character classes: 2.5 ASCII bytes a token, a token a byte
    beyond ASCII, 8 tokens a message and 4 of reply priming."""
    total = len(text.encode("utf-8", "surrogatepass"))
    ascii_bytes = len(text.encode("ascii", "ignore"))
    return (ascii_bytes * 2 + 4) // 5 + (total - ascii_bytes) + 8 + 4


def main() -> int:
    reason = real_tokenizers.missing()
    if reason:
        print(f"cannot run: {reason}")
        return 2
    names = real_tokenizers.NAMES
    print(f"{'class':<22} {'chars':>5} {'SmolLM2':>7} {'Gemma 3':>7} │ "
          f"{'now ÷S':>6} {'now ÷G':>6} {'now ÷max':>8} │ {'old ÷S':>6} {'old ÷G':>6}")
    worst_low, worst_high, elapsed = float("inf"), 0.0, 0.0
    for name, text in corpus().items():
        counts = [real_tokenizers.prompt_tokens(n, [("user", text)]) for n in names]
        started = time.perf_counter()
        now = ESTIMATE.message_tokens("user", text) + ESTIMATE.reply_priming_tokens()
        elapsed += time.perf_counter() - started
        old = old_estimate(text)
        larger = max(counts)
        worst_low = min(worst_low, now / larger)
        worst_high = max(worst_high, now / larger)
        flag = "" if 1.0 <= now / larger <= 2.0 else "  ✗"
        print(f"{name:<22} {len(text):>5} {counts[0]:>7} {counts[1]:>7} │ "
              f"{now / counts[0]:>6.2f} {now / counts[1]:>6.2f} {now / larger:>8.2f} │ "
              f"{old / counts[0]:>6.2f} {old / counts[1]:>6.2f}{flag}")
    ok = worst_low >= 1.0 and worst_high <= 2.0
    print(f"\nestimate ÷ larger exact count: {worst_low:.2f} … {worst_high:.2f} "
          f"(goal 1.00 … 2.00): {'met' if ok else 'NOT met'}; "
          f"estimating all {len(corpus())} texts took {elapsed * 1000:.1f} ms")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
