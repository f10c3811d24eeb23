"""Make the upgrade fixtures: one database per released schema version, by that version's code.

Each `turnlog-v<N>.sqlite3` here was written by the Turnlog that introduced schema N,
never by today's code, so the upgrade test opens exactly what a user of that release has:

    schema  commit   what it added
    v1      8d40368  conversations, turns, request records
    v2      e137364  rolling summaries
    v3      df648e8  supersede records, fork provenance (V_VERSIONS)
    v4      2c7e1f0  a reasoning model's reasoning (V_REASONING)
    v5      93091c2  the full-text search index (V_SEARCH)
    v6      809142e  pinned facts, notes, preferences (V_MEMORY)
    v7      ddbbf19  side questions (V_SIDE)
    v8      784b610  failed side requests' usage (V_SIDE_ATTEMPTS)
    v9      66d490e  the search index in parts (V_SEARCH_PARTS)
    v10     99d7d0b  incomplete turns' reason, a title's source (V_INCOMPLETE_TITLES)
    v11     0e61713  an imported conversation's source and its model there (V_SOURCE_MODEL)
    v12     9e7f472  attachments: blobs by SHA-256, a turn's and a draft's files (V_ATTACHMENTS)
    v13     1de7c79  a turn's tool exchange, full results of cut ones (V_TOOLS)
    v14     49c3492  request records that rebuild their body and prove it (V_RECORD_PROOFS)
    v15     ea7f4c8  assistants, their files, a conversation's assistant (V_ASSISTANTS)
    v16     bd387f0  sidebar folders, a conversation's folder and star (V_FOLDERS)
    v17     95e6950  the compaction history, a summary edited by the user (V_SUMMARY_EDITS)
    v18     aa650cc  prices a record was costed at, daily usage totals (V_USAGE)
    v19     debda87  an assistant's default folder (V_ASSISTANT_FOLDER)
    v20     6efb230  files a later import added to turns imported before (V_ATTACHMENTS_ADDED)
    v21     f7f7601  sync: global ids, turns' places, the change journal, tombstones (V_SYNC)
    v22     7354038  sync journals summaries, request records, failed side requests (V_SYNC_DERIVED)
    v23     840019e  a turn's journal row carries the turn's row number (V_JOURNAL_TURN_ROW)

To make (or remake) one, check that commit out beside the repository and run this script
with that checkout first on the path, from the repository root, with a Python that has
peewee and platformdirs (the v1 and v2 files here: Python 3.11.7, peewee 4.5.3):

    git worktree add --detach /tmp/v1 8d40368
    PYTHONPATH=/tmp/v1/desktop python tests/data/make_fixtures.py tests/data/turnlog-v1.sqlite3
    git worktree add --detach /tmp/v2 e137364
    PYTHONPATH=/tmp/v2/desktop python tests/data/make_fixtures.py tests/data/turnlog-v2.sqlite3
    git worktree remove /tmp/v1; git worktree remove /tmp/v2

The script writes the same content with whatever that version can hold (a summary only
from v2 on), closes the store (which checkpoints and truncates the WAL) and leaves one
self-contained file. The content below is also what the upgrade test expects to find; a
later schema version adds its own fixture the same way and never edits an earlier one.
"""

from __future__ import annotations

import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

STAMP = datetime(2026, 11, 2, 9, 30, 15, 123456, tzinfo=UTC)

# (title, system prompt, model, [(turn id, question, answer, (prompt, completion, total))])
CONVERSATIONS = [
    (
        "周末计划 🗓️",
        "用中文回答。",
        "qwen2.5",
        [
            ("fx-zh-1", "周末去哪里爬山？", "可以去香山，秋天的红叶很美。🍁", (12, 20, 32)),
            ("fx-zh-2", "要带什么？😀", "水、零食和一件外套。\n\n- 水\n- 外套", (40, 18, 58)),
        ],
    ),
    (
        "مرحبا — שלום",
        "Answer in the language of the question.",
        "llama3",
        [
            ("fx-rtl-1", "كيف حالك؟", "أنا بخير، شكراً! 👋", (8, 9, 17)),
            ("fx-rtl-2", "מה השעה?", "אין לי שעון, אבל השעה בערך 10:00.", (None, None, None)),
            ("fx-rtl-3", "Mixed: עברית and English 🧪", "Both ← directions → work.", (5, 6, 11)),
        ],
    ),
]

RECORD = {
    "conversation": 0,  # index into CONVERSATIONS
    "model": "qwen2.5",
    "outcome": "committed",
    "status": 200,
    "body_bytes": 1234,
    "max_bytes": 16000,
    "input_tokens": 321,
    "token_budget": 7000,
    "tokens_exact": True,
    "sent": (1, 2),
    "summarized": (),
    "left_out": (),
    "usage": (40, 18, 58),
    "duration_s": 1.5,
    "first_token_s": 0.25,
    "turn_id": "fx-zh-2",
    "attempt": 1,
}

SUMMARY = {
    "conversation": 1,
    "covered": ("fx-rtl-1", "fx-rtl-2"),
    "first_ordinal": 1,
    "last_ordinal": 2,
    "covered_digest": "digest-0123456789abcdef",
    "content": "ملخص: تحية وسؤال عن الوقت. סיכום: ברכה ושאלה. 摘要 📝",
    "model": "llama3",
    "settings_key": "summary-v1",
    "content_tokens": 24,
    "usages": ((30, 12, 42),),
    "warnings": ("an unreadable turn was skipped ⚠️",),
}

# From the memory version on: a pin taken from a turn, a note, a preference.
MEMORY = {
    "conversation": 0,
    "pin": ("fx-zh-1", "香山 — never on a rainy day ☔"),
    "note": ("带水和外套", 4),
    "preference": ("Answer briefly. 简短回答。", 2),
}

# From the side questions version on: a side question about the first conversation.
SIDE = {
    "conversation": 0,
    "id": "fx-side-1",
    "question": "我们决定去哪里？🤔",
    "answer": "香山。",
    "model": "qwen2.5",
    "usage": (50, 4, 54),
    "sent": (1, 2),
}

# A side request of the same conversation cut at the output limit (from v8 on).
SIDE_ATTEMPT = {"outcome": "length", "model": "qwen2.5", "usage": (48, 1_024, 1_072),
                "carried": (1, 2)}

# From the attachments version on: a GBK text file with a turn of its own in the first
# conversation (its text sent as UTF-8 beside the original), and the same file attached
# to the second conversation's draft (one blob each, however many name them).
ATTACHMENT = {
    "conversation": 0,
    "turn": ("fx-zh-3", "看看这个清单。", "清单里有水和外套。", (60, 9, 69)),
    "name": "清单.txt",
    "original": "水\n外套\n".encode("gbk"),
    "text": "水\n外套\n",
    "encoding": "gb18030",
    "draft": 1,
}


# From the tools version on: turn fx-zh-2 was answered after one round of tool calls (an
# echo, and a search whose result was cut for sending: its full result is kept apart).
TOOLS = {
    "turn": "fx-zh-2",
    "content": "我先查一下。",
    "calls": (("call_1", "echo", '{"text":"香山 🍁"}', "香山 🍁", False, 0.125, "approved", 0),
              ("call_2", "search", '{"q":"天气"}', "晴 …[cut]", False, 1.5, "always allowed",
               4_000)),
    "full": {"call_2": "晴 " + "☀" * 2_000},
}


def _tool_rounds():
    from turnlog.core.tools import Approval, ToolCall, ToolResult, ToolRound

    calls = tuple(ToolCall(i, name, args) for i, name, args, *_ in TOOLS["calls"])
    results = tuple(ToolResult(i, text, error, seconds, Approval(approval), cut)
                    for i, _n, _a, text, error, seconds, approval, cut in TOOLS["calls"])
    return (ToolRound(calls, results, TOOLS["content"], dict(TOOLS["full"])),)


class _PartsByOldNames:
    """A store with named parts (conversations, turns, records …), called by the method
    names the store had before it had them, so one script makes every fixture."""

    def __init__(self, store) -> None:
        self.store = store
        self.records = store.records
        parts = {
            "create_conversation": store.conversations.create,
            "commit_turn": store.turns.commit, "record_request": store.records.add,
            "save_summary": store.records.save_summary,
            "generation": store.conversations.generation, "add_pin": store.memory.add_pin,
            "add_note": store.memory.add_note, "add_preference": store.memory.add_preference,
            "add_side_question": store.side.add, "add_side_attempt": store.side.add_attempt,
            "save_draft_attachments": store.attachments.save_draft,
            "tool_result": store.turns.tool_result, "close": store.close,
        }
        for name, method in parts.items():
            setattr(self, name, method)


def make(path: Path) -> None:
    from turnlog.core.model import ConversationSettings, Usage
    from turnlog.core.send import PendingTurn, RequestRecord
    from turnlog.store import TurnlogStore

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        store = TurnlogStore.open(home)
        if not hasattr(store, "create_conversation"):
            store = _PartsByOldNames(store)
        ids = []
        for title, system, model, turns in CONVERSATIONS:
            conv = store.create_conversation(
                title, system_prompt=system, model=model,
                settings=ConversationSettings(max_bytes=24000, temperature=0.5),
            )
            ids.append(conv.id)
            for turn_id, question, answer, usage in turns:
                extra = {}
                if turn_id == TOOLS["turn"] and hasattr(store, "tool_result"):
                    extra["tools"] = _tool_rounds()
                store.commit_turn(conv.id, PendingTurn(
                    id=turn_id, question=question, answer=answer, model=model,
                    finish_reason="stop", usage=Usage(*usage), created_at=STAMP, **extra,
                ))
        fields = {k: v for k, v in RECORD.items() if k not in ("conversation", "usage")}
        store.record_request(RequestRecord(
            conversation_id=ids[RECORD["conversation"]], started_at=STAMP,
            usage=Usage(*RECORD["usage"]), **fields,
        ))
        if hasattr(store, "save_summary"):
            from turnlog.core.compaction import SummaryDraft

            cid = ids[SUMMARY["conversation"]]
            store.save_summary(cid, SummaryDraft(
                covered_turn_ids=SUMMARY["covered"],
                first_ordinal=SUMMARY["first_ordinal"],
                last_ordinal=SUMMARY["last_ordinal"],
                covered_digest=SUMMARY["covered_digest"],
                content=SUMMARY["content"],
                model=SUMMARY["model"],
                settings_key=SUMMARY["settings_key"],
                content_tokens=SUMMARY["content_tokens"],
                usages=tuple(Usage(*u) for u in SUMMARY["usages"]),
                warnings=SUMMARY["warnings"],
                generation=store.generation(cid),
            ))
        if hasattr(store, "add_pin"):
            cid = ids[MEMORY["conversation"]]
            store.add_pin(cid, MEMORY["pin"][1], sources=[MEMORY["pin"][0]])
            store.add_note(cid, MEMORY["note"][0], priority=MEMORY["note"][1])
            store.add_preference(MEMORY["preference"][0], priority=MEMORY["preference"][1])
        if hasattr(store, "add_side_question"):
            from turnlog.core.side import SideQuestion

            store.add_side_question(ids[SIDE["conversation"]], SideQuestion(
                id=SIDE["id"], question=SIDE["question"], answer=SIDE["answer"],
                model=SIDE["model"], created_at=STAMP, usage=Usage(*SIDE["usage"]),
                body_bytes=321, input_tokens=99, sent=SIDE["sent"],
            ))
        if hasattr(store, "add_side_attempt"):
            from turnlog.core.side import SideAttempt

            store.add_side_attempt(ids[SIDE["conversation"]], SideAttempt(
                STAMP, SIDE_ATTEMPT["outcome"], SIDE_ATTEMPT["model"],
                Usage(*SIDE_ATTEMPT["usage"]), SIDE_ATTEMPT["carried"]))
        if hasattr(store, "save_draft_attachments"):
            _add_attachment(store, ids)
        if hasattr(store, "records") and hasattr(store.records, "sources"):
            _add_proven_records(store, ids)
        if hasattr(getattr(store, "store", store), "assistants"):
            _add_assistant(getattr(store, "store", store))
        if hasattr(getattr(store, "store", store), "folders"):
            _add_folders(store, ids)
        if hasattr(store, "records") and hasattr(store.records, "edit_summary"):
            store.records.edit_summary(ids[SUMMARY["conversation"]], SUMMARY_EDIT["content"],
                                       SUMMARY_EDIT["tokens"])
        if hasattr(getattr(store, "store", store), "usage"):
            _add_priced_records(getattr(store, "store", store), ids)
        _put_assistant_in_folder(getattr(store, "store", store))
        store.close()
        db = home / "turnlog.sqlite3"
        leftovers = [p.name for p in home.iterdir() if p.name.startswith("turnlog.sqlite3-")]
        if any((home / name).stat().st_size for name in leftovers):
            raise SystemExit(f"the WAL was not checkpointed: {leftovers}")
        path.write_bytes(db.read_bytes())
    print(f"wrote {path} with the code in {sys.modules['turnlog'].__file__}")


def _add_attachment(store, ids) -> None:
    import hashlib

    from turnlog.core.attachments import Attachment, AttachmentKind
    from turnlog.core.model import Usage
    from turnlog.core.send import PendingTurn

    original = ATTACHMENT["original"]
    attachment = Attachment(
        name=ATTACHMENT["name"], kind=AttachmentKind.TEXT, mime="text/plain",
        size=len(original), digest=hashlib.sha256(original).hexdigest(),
        sent=ATTACHMENT["text"].encode("utf-8"), encoding=ATTACHMENT["encoding"],
        original=original)
    turn_id, question, answer, usage = ATTACHMENT["turn"]
    store.commit_turn(ids[ATTACHMENT["conversation"]], PendingTurn(
        id=turn_id, question=question, answer=answer, model="qwen2.5", finish_reason="stop",
        usage=Usage(*usage), created_at=STAMP, attachments=(attachment,)))
    store.save_draft_attachments(ids[ATTACHMENT["draft"]], [attachment])


# From the assistants version on: a saved setup with a file of its own (a glossary), which
# no turn has, so the assistant alone keeps its blob.
ASSISTANT = {
    "name": "编辑 Editor", "icon": "📝",
    "system_prompt": "You edit for {{audience}} on {{date}}. {{{{kept}}",
    "model": "qwen2.5", "temperature": 0.3, "pins": ("术语以表为准。",),
    "notes": (("The reader is busy. 读者很忙。", 4),), "tools": ("search",),
    "file": ("术语表.txt", "香山 = Fragrant Hills\n".encode()),
}


def _add_assistant(store) -> None:
    from turnlog.core.assistants import AssistantNote, AssistantSetup
    from turnlog.formats.file_reading import read_bytes

    expected = ASSISTANT
    setup = AssistantSetup(
        name=expected["name"], icon=expected["icon"], system_prompt=expected["system_prompt"],
        model=expected["model"], temperature=expected["temperature"], pins=expected["pins"],
        notes=tuple(AssistantNote(t, p) for t, p in expected["notes"]), tools=expected["tools"])
    store.assistants.add(setup, [read_bytes(*expected["file"])])


# From the folders version on: a folder holding the second conversation, an empty one, and
# the first conversation starred.
FOLDERS = {"folders": ("工作 📁 Work", "Empty"), "in": {1: 0}, "starred": (0,)}


def _add_folders(store, ids) -> None:
    store = getattr(store, "store", store)
    made = [store.folders.add(name) for name in FOLDERS["folders"]]
    for conversation, folder in FOLDERS["in"].items():
        store.folders.move([ids[conversation]], made[folder].id)
    store.folders.star([ids[c] for c in FOLDERS["starred"]])


# From the assistant folder version on: the assistant's conversations start in the first
# folder.
ASSISTANT_FOLDER = FOLDERS["folders"][0]


def _put_assistant_in_folder(store) -> None:
    from dataclasses import fields, replace

    from turnlog.core.assistants import AssistantSetup

    if "folder" not in {f.name for f in fields(AssistantSetup)}:
        return
    [assistant] = store.assistants.list()
    store.assistants.update(assistant.id, replace(assistant.setup, folder=ASSISTANT_FOLDER))


# From the summary edits version on: the user rewrote the second conversation's summary
# (after the proven record carried the one the model made).
SUMMARY_EDIT = {"content": "סיכום שלי: ברכה, ושאלה על השעה. 我改写的摘要 ✍️", "tokens": 21}


# From the record proofs version on: two committed requests of body format 1, built by the
# one body builder and kept with the SHA-256 of their bodies (they must verify forever).
# The first carries the system prompt, the pin, note and preference, two verbatim turns
# (one with a tool exchange), a question with a file, a tool offered and a seed; the second
# the summary standing in for the turns it covers.
PROVEN = {"seed": 4242, "max_tokens": 512,
          "tool": ("echo", "Return the text unchanged. 原样返回。",
                   {"type": "object", "properties": {"text": {"type": "string"}}})}


def _add_proven_records(store, ids) -> None:
    from turnlog.core.attachments import Question
    from turnlog.core.compaction import summary_text
    from turnlog.core.model import Usage
    from turnlog.core.projection import SummaryPart, project, proof_of
    from turnlog.core.proof import sha256_hex
    from turnlog.core.send import RequestRecord
    from turnlog.core.tools import ToolSpec
    from turnlog.service.chat import Route, request_for

    store = getattr(store, "store", store)

    def record(cid, asked, before, summary=None, tools=()):
        conversation = store.conversations.get(cid)
        memory = store.memory(cid)
        request = request_for(conversation, asked.question, Route(conversation.model),
                              memory=memory, attachments=asked.attachments)
        options = request.options.__class__(**{
            **{f: getattr(request.options, f) for f in request.options.__slots__},
            "seed": PROVEN["seed"], "max_tokens": PROVEN["max_tokens"]})
        projection = project(before, Question(asked.question, asked.attachments),
                             model=request.model, budget=request.budget,
                             system_prompt=conversation.system_prompt, options=options,
                             pinned=memory, summary=summary, tools=tools)
        store.records.add(RequestRecord(
            conversation_id=cid, started_at=STAMP, model=request.model, outcome="committed",
            body_bytes=projection.body_bytes, max_bytes=request.budget.max_bytes,
            input_tokens=projection.input_tokens, token_budget=request.budget.input_tokens,
            tokens_exact=projection.tokens_exact, sent=projection.sent,
            summarized=projection.summarized, left_out=projection.left_out,
            usage=Usage(70, 9, 79), turn_id=asked.id, seed=PROVEN["seed"],
            summary_id=summary.summary_id if summary else None,
            proof=proof_of(projection, conversation.system_prompt, memory,
                           [sha256_hex(projection.body)])))

    turns = store.turns(ids[ATTACHMENT["conversation"]])
    record(ids[ATTACHMENT["conversation"]], turns[-1], turns[:-1],
           tools=(ToolSpec(*PROVEN["tool"]),))
    cid = ids[SUMMARY["conversation"]]
    turns = store.turns(cid)
    stored = store.records.latest_summary(cid)
    record(cid, turns[-1], turns[:-1], SummaryPart(summary_text(stored), 2, stored.id))


# From the usage version on: two requests of the second conversation costed at a profile's
# prices: one with the usage the server reported (some input cached), one without usage,
# costed from Turnlog's count of its answer; the daily totals count both.
PRICED = {"conversation": 1, "profile": "Priced ¥", "model": "llama3",
          "prices": {"input": "0.5", "cached": "0.05", "output": "1.5", "currency": "CNY",
                     "set_on": "2026-11-01", "source": "you"},
          "usage": {"prompt_tokens": 1200, "completion_tokens": 300, "total_tokens": 1500,
                    "cached_tokens": 1000},
          "estimated": (400, 25)}  # the body's count, the answer's count


def _add_priced_records(store, ids) -> None:
    from turnlog.core.cost import Prices, Pricing
    from turnlog.core.model import Usage
    from turnlog.core.send import RequestRecord

    pricing = Pricing(PRICED["profile"], Prices.from_json(PRICED["prices"]))
    cid = ids[PRICED["conversation"]]
    for usage, (tokens, answer) in ((Usage.from_json(PRICED["usage"]), (1180, None)),
                                    (Usage(), PRICED["estimated"])):
        store.records.add(RequestRecord(
            conversation_id=cid, started_at=STAMP, model=PRICED["model"],
            outcome="committed", body_bytes=2048, max_bytes=24000, input_tokens=tokens,
            token_budget=7000, tokens_exact=False, sent=(1,), summarized=(), left_out=(),
            usage=usage, pricing=pricing, output_estimate=answer))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    make(Path(sys.argv[1]))
