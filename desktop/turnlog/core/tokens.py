"""Estimating tokens without the model's tokenizer, on the high side by character class.

Tokenizers differ, but they agree on what is cheap and what is dear:

- a run of ordinary lowercase letters after a word start is cheap (English words
  are about one token each: " the" costs 1.4 here, a further letter 0.25); a one-letter
  word after a space is a whole token;
- digits are one token each (SmolLM2, Gemma, Llama 3, Qwen and GPT-4o split numbers
  into single digits or groups of at most three), and a space before a digit is one
  more: tokenizers keep it apart ("1 234 567,89" is twelve tokens);
- letters that follow a digit or a case change, or that do not start a word —
  hashes, UUIDs, base64, identifiers — cost about a token a character, and a letter
  after the same letter half a token ("zzzz", "nooo" merge two to a token at best);
- punctuation is a token a character, less after a space, and in a run of one mark what
  a long run of that mark costs with margin ("----" merges sixteen to a token, ";;;;"
  not at all);
- whitespace runs merge (16 spaces of indentation are one token): a space costs a
  quarter token, a fifth inside a run, but a whole one where it opens a run after a
  word ("end.  Next" is ".", " ", " Next");
- anything outside ASCII costs one token per UTF-8 byte: byte-level vocabularies
  (GPT-2 style, SmolLM2) spend up to three tokens on a rare CJK character and four on
  an emoji, and byte-fallback ones (Gemma, Llama 2) the same. Two exceptions, where
  every tokenizer measured spends clearly less: a small Cyrillic or Greek letter after a
  letter of its alphabet costs half a token less, a Devanagari one a token less (even
  random strings of them cost less than that); a box-drawing line repeating the one before
  costs what a run of it does.

Each character costs what its class costs in its context (the one or two characters
before it, or the one after it), and a character with no context (at either end of the
text) costs the most its class can. So the estimate of two texts counted apart is never
below the estimate of the two joined (projection sums per-message estimates), and every
character costs at least a tenth of a token (a dash in a run of dashes).

The rates were fitted on the corpus of `tests/support/tokens_corpus.py` (64 kinds of pasted
text) against SmolLM2's and Gemma 3's tokenizers, and `tests/core/test_tokens.py`
proves the bound on it: never below either tokenizer's exact count, at most 2.0× the
larger, per kind, with the message and reply-priming overhead of `budget` included.
Latin-script languages whose words these vocabularies split finely (Swahili,
Indonesian, pinyin, long German compounds) can still be counted low; calibration from
the server's reported usage (`calibration`) raises the estimate where that happens.
"""

from __future__ import annotations

import re

# Costs in hundredths of a token.
_FULL = 100  # digits, punctuation, letters without a cheaper context, newlines
_SPACE = 25  # a space before a word or a mark of punctuation: it merges with what follows
_PUNCT = r"!-/:-@\[-`{-~"

# What a character costs where its context makes it cheaper than _FULL. The cases are
# mutually exclusive, so no character is discounted twice, and each needs its whole
# context present, so a character at either end of a text is never cheaper than it would
# be inside a longer one. `tests/core/test_budget.py` states each case as a look-behind
# pattern and checks the counting below against them.
WORD_START = 75  # a letter after whitespace or one of ( " ' . _ / [ (" a" is one token)
SECOND_LETTER = 30  # a lowercase letter after such a word start
SECOND_LETTER_AFTER_SPACE = 15  # after a space: " of" is one token (1.15 here)
FURTHER_LETTER = 25  # a lowercase letter after a lowercase one that follows a letter
LETTER_REPEATED = 50  # a lowercase letter after the same letter: "zzzz" is 2 chars a token
ALL_CAPS = 60  # a capital after two capitals, unless it repeats the one before ("HHHH")
PUNCT_AFTER_SPACE = 75  # " = ", " (": the space and the mark are one token
NEWLINE_BEFORE_NEWLINE = 50
NEWLINE_BEFORE_INDENT = 30
SPACE_IN_RUN = 20  # a space after two spaces: indentation merges 16 or more to a token
# A space before a digit is a token of its own (tokenizers keep digits apart), and so is
# the first of two or more spaces after a word ("end.  Next" is ".", " ", " Next") and a
# space at the end, where what follows is not known.
SPACE_BEFORE_DIGIT = _FULL

# A mark after the same mark, by mark: about 1.5× what a long run of it costs in the
# tokenizers measured ("----" merges 16 to a token, ";;;;" not at all).
PUNCT_REPEATED = {
    **dict.fromkeys("#*-._=~", 10),
    **dict.fromkeys("+/", 20),
    **dict.fromkeys("!%),:^", 40),
    **dict.fromkeys("\"$'(<>?@[\\]`{|}", 75),
    **dict.fromkeys("&;", _FULL),
}

# Beyond ASCII a character costs a token per UTF-8 byte, but a character of Cyrillic,
# Greek or Devanagari after a character of the same alphabet costs less: even random
# strings of them cost the tokenizers measured less than this. A small Cyrillic or Greek
# letter saves half a token (their capitals cost two tokens each and save nothing); a
# Devanagari character, three bytes, saves one (it spends one or two tokens, but for a
# few rare signs Gemma 3 spells out byte by byte). A box-drawing line after the same
# line costs what a long run of it does, with margin. The patterns here are compiled
# (and kept, by `re`) by the first text that needs them: most texts are ASCII.
_ALPHABETS = [("[\u0400-\u045f](?=[\u0430-\u045f])", 50),
              ("[\u0386-\u03ce](?=[\u03ac-\u03ce])", 50),
              ("[\u0900-\u097f](?=[\u0900-\u097f])", 100)]
_ANY_ALPHABET = "[\u0386-\u045f\u0900-\u097f]"
LINE_REPEATED = {"\u2500": 25, "\u2550": 75, "\u2588": 75}  # ─ ═ █, in place of 300
# A combining mark after a space has no letter to join: the space is a token of its own.
_SPACE_BEFORE_MARK = " [\u0300-\u036f]"
_RUN_SPACE_BEFORE_MARK = "   [\u0300-\u036f]"

_WHITESPACE = b" \t\n\r\f\v"
_WORD_OPENERS = _WHITESPACE + b"(\"'._/["
_PUNCTUATION = bytes(range(0x21, 0x30)) + bytes(range(0x3A, 0x41)) + bytes(range(0x5B, 0x61)) \
    + bytes(range(0x7B, 0x7F))


def _table(mapping: dict[int, int], default: int) -> bytes:
    table = bytearray((default,)) * 256  # set byte by byte, not made from 256 lookups
    for byte, value in mapping.items():
        table[byte] = value
    return bytes(table)


# UTF-8 bytes to classes: "a" lowercase, "A" capital, "0" digit, whitespace and
# punctuation as themselves (a tab, CR, FF and VT as a tab), "x" anything else.
_CLASSES = _table(
    {**{b: b for b in _PUNCTUATION + b" \n\t"},
     **{b: ord("\t") for b in b"\r\f\v"},
     **{b: ord("a") for b in range(0x61, 0x7B)},
     **{b: ord("A") for b in range(0x41, 0x5B)},
     **{b: ord("0") for b in range(0x30, 0x3A)}},
    ord("x"),
)
# Views of the classes: word openers as a space, letters kept, the rest "." (for counting
# word starts); one class as "a" and the rest spaces (runs, by bytes.split); punctuation
# as "!" beside spaces.
_OPENER_VIEW = _table({**{b: ord(" ") for b in b" \n\t(\"'._/["}, ord("a"): ord("a"),
                       ord("A"): ord("A")}, ord("."))
_ONLY_LOWER = _table({ord("a"): ord("a")}, ord(" "))
_ONLY_CAPS = _table({ord("A"): ord("a")}, ord(" "))
_ONLY_SPACES = _table({ord(" "): ord("a")}, ord(" "))
_ONLY_PUNCT = _table({**{b: ord("!") for b in _PUNCTUATION}, ord(" "): ord(" ")}, ord("."))
_PUNCT_RUN = rb"([!-/:-@\[-`{-~])\1+"  # compiled by the first text with a run


def _beyond_second(classes: bytes, only: bytes) -> int:
    """Characters of one class that follow two of the same class: over its runs of k
    characters, Σ max(0, k − 2) = characters − runs − runs of two or more."""
    view = b" " + classes.translate(only)
    return view.count(b"a") - view.count(b" a") - view.count(b" aa")


# The same classes, with "?" as class "x": for the ASCII encoding of a text without a
# question mark, where each "?" stands for one character beyond ASCII.
_CLASSES_REPLACED = _CLASSES[:0x3F] + b"x" + _CLASSES[0x40:]


def _classes(text: str) -> bytes:
    """`text` as classes, one byte per character of ASCII (beyond-ASCII characters only
    separate, so how many bytes stand for one does not matter)."""
    if "?" in text:
        return text.encode("utf-8", "surrogatepass").translate(_CLASSES)
    return text.encode("ascii", "replace").translate(_CLASSES_REPLACED)


# One byte per byte of a text: 1 where the byte is of the class, else 0; as big integers
# these masks are combined a whole text at a time (a bit per byte), never a byte at a time.
_IS_LOWER = _table({b: 1 for b in range(0x61, 0x7B)}, 0)
_IS_UPPER = _table({b: 1 for b in range(0x41, 0x5B)}, 0)
_IS_LETTER = _table({b: 1 for b in range(0x41, 0x5B)} | {b: 1 for b in range(0x61, 0x7B)}, 0)
_IS_SPACE = _table({ord(" "): 1}, 0)
_IS_OTHER_OPENER = _table({b: 1 for b in _WORD_OPENERS if b != ord(" ")}, 0)
_IS_WHITESPACE = _table({b: 1 for b in b" \t\n"}, 0)  # in classes, where \r\f\v are \t
_IS_ZERO = _table({0: 1}, 0)


def _mask(raw: bytes, table: bytes) -> int:
    return int.from_bytes(raw.translate(table), "big")


def _letters_repeated(raw: bytes) -> int:
    """Hundredths of a token letters after the same letter cost over the rules they take
    the place of: a small one 50 instead of a second letter's, a further one's or 100; a
    capital 100 instead of ALL_CAPS."""
    # A bit at byte j where byte j+1 is the same (shifting right by 8 moves j-1 onto j).
    same_next = _mask((int.from_bytes(raw, "big")
                       ^ int.from_bytes(raw[1:] + b"\0", "big")).to_bytes(len(raw), "big"),
                      _IS_ZERO)
    lower = same_next & _mask(raw, _IS_LOWER)
    saved = 0
    if lower:
        after_space = (lower & (_mask(raw, _IS_SPACE) >> 8)).bit_count()
        after_opener = (lower & (_mask(raw, _IS_OTHER_OPENER) >> 8)).bit_count()
        further = (lower & (_mask(raw, _IS_LETTER) >> 8)).bit_count()
        other = lower.bit_count() - after_space - after_opener - further
        saved = (after_space * (LETTER_REPEATED - SECOND_LETTER_AFTER_SPACE)
                 + after_opener * (LETTER_REPEATED - SECOND_LETTER)
                 + further * (LETTER_REPEATED - FURTHER_LETTER)
                 - other * (_FULL - LETTER_REPEATED))
    upper = _mask(raw, _IS_UPPER)
    caps = same_next & upper & (upper >> 8)
    return saved + caps.bit_count() * (_FULL - ALL_CAPS)


def _spaces(c: bytes) -> int:
    """Hundredths of a token saved on spaces in runs, less what spaces kept apart (before
    a digit, opening a run after a word, or at the end) cost over a quarter token."""
    saved = _beyond_second(c, _ONLY_SPACES) * (_SPACE - SPACE_IN_RUN)
    kept_apart = c.count(b" 0") + c.endswith(b" ")
    in_run = c.count(b"   0") + c.endswith(b"   ")
    if b"  " in c:
        # A bit at byte j for a space followed by a space, after no whitespace or none.
        space = _mask(c, _IS_SPACE)
        ones = int.from_bytes(b"\1" * len(c), "big")
        kept_apart += (space & (space << 8) & (ones ^ (_mask(c, _IS_WHITESPACE) >> 8))
                       ).bit_count()
    return saved - kept_apart * (SPACE_BEFORE_DIGIT - _SPACE) \
        - in_run * (_SPACE - SPACE_IN_RUN)


def _discount(text: str) -> int:
    """Hundredths of a token saved by the cheap contexts in `text` (see above)."""
    c = _classes(text)
    opened = c.translate(_OPENER_VIEW)
    saved = (opened.count(b" a") + opened.count(b" A")) * (_FULL - WORD_START)
    saved += (opened.count(b" aa") + opened.count(b" Aa")) * (_FULL - SECOND_LETTER)
    saved += (c.count(b" aa") + c.count(b" Aa")) * (SECOND_LETTER - SECOND_LETTER_AFTER_SPACE)
    further = _beyond_second(c, _ONLY_LOWER) + c.count(b"Aaa")
    saved += further * (_FULL - FURTHER_LETTER)
    raw = text.encode("utf-8", "surrogatepass")
    saved -= _letters_repeated(raw)
    if b"AAA" in c:
        saved += _beyond_second(c, _ONLY_CAPS) * (_FULL - ALL_CAPS)
    punct = c.translate(_ONLY_PUNCT)
    saved += punct.count(b" !") * (_FULL - PUNCT_AFTER_SPACE)
    if b"!!" in punct:
        saved += sum((m.end() - m.start() - 1) * (_FULL - PUNCT_REPEATED[chr(m.group(1)[0])])
                     for m in re.finditer(_PUNCT_RUN, c))
    if b"\n\n" in c:
        saved += c.split(b"\n")[1:-1].count(b"") * (_FULL - NEWLINE_BEFORE_NEWLINE)
    saved += (c.count(b"\n ") + c.count(b"\n\t")) * (_FULL - NEWLINE_BEFORE_INDENT)
    return saved + _spaces(c)


def _discount_beyond_ascii(text: str) -> int:
    """Hundredths of a token saved on letters that continue an alphabet's word and on
    repeated box-drawing lines, less what spaces before combining marks cost extra."""
    saved = 0
    if re.search(_ANY_ALPHABET, text):
        saved += sum(len(re.findall(pattern, text)) * less for pattern, less in _ALPHABETS)
    for line, cost in LINE_REPEATED.items():
        if line * 2 in text:
            saved += sum(len(run) - 1 for run in re.findall(line + "{2,}", text)) \
                * (300 - cost)
    if " " in text:
        saved -= len(re.findall(_SPACE_BEFORE_MARK, text)) * (_FULL - _SPACE) \
            + len(re.findall(_RUN_SPACE_BEFORE_MARK, text)) * (_SPACE - SPACE_IN_RUN)
    return saved


def estimate_text_tokens(text: str) -> int:
    """Input tokens of `text` alone, estimated on the high side (see the module)."""
    if not text:
        return 0
    utf8 = len(text.encode("utf-8", "surrogatepass"))
    ascii_chars = len(text.encode("ascii", "ignore"))
    spaces = text.count(" ")
    hundredths = (ascii_chars - spaces) * _FULL + spaces * _SPACE
    hundredths += (utf8 - ascii_chars) * 100  # a token per byte outside ASCII
    hundredths -= _discount(text)
    if utf8 != ascii_chars:
        hundredths -= _discount_beyond_ascii(text)
    return (hundredths + 99) // 100
