"""Attachments in projection, against the obviously-correct selector: a turn goes with all
of its files or not at all, the body is measured with its base64 included, and once a
turn with an image is no longer sent verbatim its image is only ever named."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attachment_samples import image, text_file
from turnlog.core.attachments import (
    Attachment,
    AttachmentKind,
    Question,
    image_tokens,
)
from turnlog.core.body import RequestOptions
from turnlog.core.budget import ESTIMATE, Budget
from turnlog.core.compaction import chunk_turns
from turnlog.core.model import Turn
from turnlog.core.projection import (
    CostIndex,
    PartKind,
    ProjectionRefused,
    attachment_costs,
    project,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)
OPTIONS = RequestOptions(stream=False)


def turn(ordinal: int, question: str, answer: str, *files: Attachment) -> Turn:
    return Turn(f"t{ordinal}", ordinal, question, answer, "m", "stop", T0, attachments=files)


# The reference: the body written out by hand from the OpenAI format, whole turns dropped
# oldest first until it fits.
def naive_user(question: str, files, images: bool = True) -> dict:
    text = question
    for f in files:
        if f.kind is AttachmentKind.IMAGE:
            if not images:
                text += f"\n\n[image: {f.name}, {f.width}×{f.height}]"
            continue
        text += f"\n\n--- file: {f.name} ---\n{f.sent.decode()}\n--- end of file: {f.name} ---"
    urls = [f"data:{f.sent_mime};base64,{base64.b64encode(f.sent).decode()}"
            for f in files if f.kind is AttachmentKind.IMAGE and images]
    if not urls:
        return {"role": "user", "content": text}
    return {"role": "user", "content": [{"type": "text", "text": text}] + [
        {"type": "image_url", "image_url": {"url": url}} for url in urls]}


def naive_body(kept, question: Question, images: bool = True) -> bytes:
    messages = []
    for t in kept:
        messages += [naive_user(t.question, t.attachments, images),
                     {"role": "assistant", "content": t.answer}]
    messages.append(naive_user(question.text, question.attachments, images))
    body = {"model": "m", "messages": messages, "stream": False}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def naive_tokens(kept, question: Question, images: bool = True) -> int:
    def user(text, files):
        message = naive_user(text, files, images)
        content = message["content"]
        words = content if isinstance(content, str) else content[0]["text"]
        pictures = sum(image_tokens(f.width, f.height) for f in files
                       if f.kind is AttachmentKind.IMAGE and images)
        return ESTIMATE.message_tokens("user", words) + pictures
    total = ESTIMATE.reply_priming_tokens() + user(question.text, question.attachments)
    for t in kept:
        total += user(t.question, t.attachments) + ESTIMATE.message_tokens("assistant", t.answer)
    return total


def naive_project(turns, question: Question, budget: Budget, images: bool = True):
    for first in range(len(turns) + 1):
        kept = turns[first:]
        body = naive_body(kept, question, images)
        if len(body) <= budget.max_bytes and \
                naive_tokens(kept, question, images) <= budget.input_tokens:
            return body
    return None


files_of = st.lists(st.one_of(
    st.builds(text_file, st.sampled_from(["a.txt", "笔记.md", 'q"uote.py']),
              st.text(st.characters(codec="utf-8"), max_size=300)),
    st.builds(image, st.sampled_from(["p.png", "图.png"]), st.integers(1, 3_000),
              st.integers(1, 5_000), st.integers(1, 5_000)),
), max_size=3)


@settings(max_examples=120, deadline=None)
@given(
    pairs=st.lists(st.tuples(st.text(max_size=80), st.text(max_size=80), files_of), max_size=8),
    asked=files_of,
    max_bytes=st.integers(200, 20_000),
    window=st.integers(2_000, 12_000),
    images=st.booleans(),
)
def test_projection_matches_the_naive_selector_with_files(pairs, asked, max_bytes, window,
                                                          images):
    turns = tuple(turn(i, q, a, *files) for i, (q, a, files) in enumerate(pairs, start=1))
    question = Question("what now?", tuple(f for f in asked
                                           if images or f.kind is not AttachmentKind.IMAGE))
    budget = Budget(max_bytes=max_bytes, context_window=window, output_reserve=256)
    expected = naive_project(turns, question, budget, images)
    options = RequestOptions(stream=False, images=images)
    try:
        projection = project(turns, question, model="m", budget=budget, options=options)
    except ProjectionRefused:
        assert expected is None
        return
    assert projection.body == expected
    assert sum(p.bytes for p in projection.parts) == len(projection.body)


def test_a_turn_leaves_with_its_files_never_without_them():
    big = image("scan.png", 30_000)
    turns = (turn(1, "old", "fine"), turn(2, "look at this", "a cat", big),
             turn(3, "and now?", "nothing"))
    budget = Budget(max_bytes=20_000, context_window=200_000, output_reserve=256)
    projection = project(turns, "next", model="m", budget=budget, options=OPTIONS)
    # Turn 2 does not fit with its image, so it goes, and turn 1 with it (contiguous).
    assert projection.sent == (3,) and projection.left_out == (1, 2)
    assert b"look at this" not in projection.body and b"base64" not in projection.body
    roomy = Budget(max_bytes=60_000, context_window=200_000, output_reserve=256)
    whole = project(turns, "next", model="m", budget=roomy, options=OPTIONS)
    assert whole.sent == (1, 2, 3)
    sent = json.loads(whole.body)["messages"][2]["content"]
    assert sent[1]["image_url"]["url"] == (
        "data:image/png;base64," + base64.b64encode(big.sent).decode())
    (cost,) = [p for p in whole.parts if p.kind is PartKind.TURN and p.ordinal == 2]
    assert cost.bytes > 4 * 30_000 // 3  # the base64 is measured, not the raw bytes


def test_a_question_whose_files_do_not_fit_is_refused_with_sizes():
    budget = Budget(max_bytes=16_000, context_window=200_000, output_reserve=256)
    with pytest.raises(ProjectionRefused) as refused:
        project((), Question("read", (text_file("long.txt", "x" * 20_000),)), model="m",
                budget=budget, options=OPTIONS)
    assert refused.value.mandatory_bytes > 20_000 and refused.value.max_bytes == 16_000


def test_attachment_costs_add_up_to_the_question_message():
    question = Question("compare", (text_file("a.txt", "alpha 中文"), image("p.png", 900),
                                    image("q.png", 10, 1024, 1024)))
    budget = Budget(max_bytes=100_000, context_window=200_000, output_reserve=256)
    projection = project((), question, model="m", budget=budget, options=OPTIONS)
    bare = project((), "compare", model="m", budget=budget, options=OPTIONS)
    costs = attachment_costs(question)
    assert sum(c.bytes for c in costs) == projection.body_bytes - bare.body_bytes
    assert sum(c.tokens for c in costs) == projection.input_tokens - bare.input_tokens
    assert costs[2].tokens == image_tokens(1024, 1024) and costs[2].estimated
    assert not projection.tokens_exact or not ESTIMATE.exact


def test_without_image_support_earlier_images_are_named_not_sent():
    turns = (turn(1, "see", "seen", image("cat.png", 500, 640, 480)),)
    budget = Budget(max_bytes=100_000, context_window=200_000, output_reserve=256)
    projection = project(turns, "more", model="m", budget=budget,
                         options=RequestOptions(stream=False, images=False))
    first = json.loads(projection.body)["messages"][0]
    assert first == {"role": "user", "content": "see\n\n[image: cat.png, 640×480]"}
    assert CostIndex().cost(turns[0], images=False).bytes < CostIndex().cost(turns[0]).bytes


def test_the_summary_input_names_images_and_files_and_carries_no_bytes():
    picture = image("chart.png", 2_000, 1200, 800)
    turns = [turn(1, "what is in it?", "a rising line", picture,
                  text_file("data.csv", "x,y\n1,2\n"))]
    (chunk,) = chunk_turns(turns, 10_000)
    assert "[image: chart.png, 1200×800]" in chunk and "[file: data.csv]" in chunk
    assert base64.b64encode(picture.sent).decode()[:40] not in chunk
