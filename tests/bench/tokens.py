"""The token estimate against two real tokenizers, per kind of text, beside the one before.

    .venv/bin/python tests/bench/tokens.py

For each kind of `tests/support/tokens_corpus.py` (about 2,000 characters each) it prints the
exact input tokens of a one-message request under SmolLM2's and Gemma 3's chat
templates, today's estimate ÷ each and ÷ the larger, and the same for the estimator
before runs, spaces before digits and alphabets were priced (written out below, one
character at a time), both with the chat template's message and reply-priming overhead.
The goal, checked by `tests/core/test_tokens.py`: every ratio to the larger count
between 1.00 and 2.00. Needs the `local` and `test` extras.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

import real_tokenizers  # noqa: E402
from tokens_corpus import corpus  # noqa: E402
from turnlog.core.budget import ESTIMATE  # noqa: E402

OPENERS = " \t\n\r\f\v(\"'._/["
PUNCT = "".join(ch for ch in map(chr, range(0x21, 0x7F)) if not ch.isalnum())
LOWER, UPPER = "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _before_cost(text: str, i: int) -> int:
    """Character i's cost, in hundredths, under the estimator before this one."""
    ch = text[i]
    prev = text[i - 1] if i >= 1 else ""
    prev2 = text[i - 2] if i >= 2 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    letters = LOWER + UPPER
    if ord(ch) > 0x7F:
        return 100 * len(ch.encode("utf-8", "surrogatepass"))
    if ch == " ":
        return 25
    if ch in letters:
        if prev and prev in OPENERS:
            return 60
        if ch in LOWER and prev and prev in letters and prev2 and prev2 in OPENERS:
            return 30
        if ch in LOWER and prev and prev in LOWER and prev2 and prev2 in letters:
            return 25
        if ch in UPPER and prev and prev in UPPER and prev2 and prev2 in UPPER:
            return 60
    if ch in PUNCT and prev == " ":
        return 60
    if ch in PUNCT and prev == ch:
        return 50
    if ch == "\n" and after == "\n":
        return 50
    if ch == "\n" and after and after in " \t\r\f\v":
        return 30
    return 100


def before_estimate(text: str) -> int:
    """The request's tokens under the estimator before this one: 8 a message, 32 of
    reply priming, as today."""
    return (sum(_before_cost(text, i) for i in range(len(text))) + 99) // 100 + 8 + 32


def main() -> int:
    reason = real_tokenizers.missing()
    if reason:
        print(f"cannot run: {reason}")
        return 2
    names = real_tokenizers.NAMES
    print(f"{'kind':<22} {'chars':>5} {'SmolLM2':>7} {'Gemma 3':>7} │ "
          f"{'now ÷S':>6} {'now ÷G':>6} {'now ÷max':>8} │ {'before ÷max':>11}")
    now_low, now_high, before_low, before_high, elapsed = 9.0, 0.0, 9.0, 0.0, 0.0
    kinds = corpus()
    for name, text in kinds.items():
        counts = [real_tokenizers.prompt_tokens(n, [("user", text)]) for n in names]
        started = time.perf_counter()
        now = ESTIMATE.message_tokens("user", text) + ESTIMATE.reply_priming_tokens()
        elapsed += time.perf_counter() - started
        larger = max(counts)
        before = before_estimate(text) / larger
        now_low, now_high = min(now_low, now / larger), max(now_high, now / larger)
        before_low, before_high = min(before_low, before), max(before_high, before)
        flag = "" if 1.0 <= now / larger <= 2.0 else "  ✗"
        was = "" if 1.0 <= before <= 2.0 else " ✗"
        print(f"{name:<22} {len(text):>5} {counts[0]:>7} {counts[1]:>7} │ "
              f"{now / counts[0]:>6.2f} {now / counts[1]:>6.2f} {now / larger:>8.2f} │ "
              f"{before:>9.2f}{was:<2}{flag}")
    ok = now_low >= 1.0 and now_high <= 2.0
    print(f"\nestimate ÷ larger exact count over {len(kinds)} kinds: "
          f"now {now_low:.2f} … {now_high:.2f}, before {before_low:.2f} … {before_high:.2f} "
          f"(goal 1.00 … 2.00): {'met' if ok else 'NOT met'}; "
          f"estimating all {len(kinds)} texts took {elapsed * 1000:.1f} ms")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
