"""A corpus of text classes for measuring token estimates against real tokenizers.

Every class is about 2,000 characters, made deterministically (a fixed seed, or
sentences repeated in a seeded order), so a test and the bench measure the same
texts on every machine. Used by `tests/test_tokens_corpus.py` and
`tests/bench/tokens.py`.
"""

from __future__ import annotations

import base64
import hashlib
import random
import string
import uuid

SIZE = 2_000

ENGLISH = [
    "The committee met on Tuesday to review the proposal for the new library wing.",
    "Most members agreed that the reading rooms should face the garden, away from the road.",
    "A few worried about the cost of heating such a large glass roof in winter.",
    "The architect answered that the panels would store heat during the day.",
    "Nobody could say for certain how many visitors the wing would draw in its first year.",
    "In the end they asked for a smaller design and a clearer budget by the spring.",
    "She walked home slowly, thinking about the letters she had promised to write.",
    "It was late in the afternoon, and the light had turned the color of old honey.",
    "Children were still playing by the river, shouting across the water to each other.",
    "He had never been good at waiting, but this time he had no choice.",
]

PYTHON = [
    "def load_config(path: Path) -> dict[str, Any]:\n"
    "    \"\"\"Read the settings file and fill in defaults.\"\"\"\n"
    "    with path.open(encoding=\"utf-8\") as handle:\n"
    "        data = json.load(handle)\n"
    "    for key, value in DEFAULTS.items():\n"
    "        data.setdefault(key, value)\n"
    "    return data\n\n",
    "class RetryPolicy:\n"
    "    def __init__(self, attempts: int = 3, backoff: float = 0.5) -> None:\n"
    "        self.attempts = attempts\n"
    "        self.backoff = backoff\n\n"
    "    def delays(self):\n"
    "        return [self.backoff * 2 ** i for i in range(self.attempts)]\n\n",
    "async def fetch_all(client, urls):\n"
    "    tasks = [asyncio.create_task(client.get(url)) for url in urls]\n"
    "    results = await asyncio.gather(*tasks, return_exceptions=True)\n"
    "    return {url: r for url, r in zip(urls, results) if not isinstance(r, Exception)}\n\n",
    "if __name__ == \"__main__\":\n"
    "    parser = argparse.ArgumentParser(description=\"Sync the mirror\")\n"
    "    parser.add_argument(\"--dry-run\", action=\"store_true\")\n"
    "    args = parser.parse_args()\n"
    "    sys.exit(main(args))\n\n",
]

CHINESE = [
    "今天下午我们在会议室讨论了新项目的时间安排。",
    "大家都认为第一阶段应该在三月底之前完成。",
    "如果测试环境准备好了，我们就可以开始部署。",
    "这个城市的春天很短，但是花开得特别漂亮。",
    "他每天早上骑自行车去公司，路上大约需要二十分钟。",
    "请把上周的报告发给我，我想再看一下其中的数据。",
    "图书馆周末开放到晚上九点，很多学生在那里复习。",
    "我们需要更多的时间来了解用户真正的需求。",
]

JAPANESE = [
    "今日は朝から雨が降っていたので、家で本を読んでいました。",
    "来週の会議では、新しいサービスの計画について話し合います。",
    "駅の近くに小さなパン屋さんがあって、毎朝そこでパンを買います。",
    "このプログラムはまだテスト中なので、本番環境では使わないでください。",
    "夏休みには家族と一緒に北海道へ旅行する予定です。",
    "ありがとうございます。また後で連絡します。",
]

KOREAN = [
    "오늘 오후에 회의실에서 새 프로젝트 일정에 대해 논의했습니다.",
    "주말에는 친구들과 함께 공원에서 자전거를 탔어요.",
    "이 프로그램은 아직 테스트 중이니까 운영 환경에서는 사용하지 마세요.",
    "도서관은 평일에 밤 아홉 시까지 문을 엽니다.",
    "다음 주에 보고서를 보내 드리겠습니다. 감사합니다.",
    "서울의 봄은 짧지만 꽃이 정말 아름답게 핍니다.",
]

MIXED_ZH_EN = [
    "我们把 API 的 timeout 改成了 30 秒，然后重新 deploy 了一次。",
    "这个 bug 只在 Python 3.11 上出现，其他版本都没有问题。",
    "请在 README 里写清楚怎么安装 dependencies。",
    "周五之前需要完成 code review，然后 merge 到 main 分支。",
    "Docker image 太大了，我们应该用 multi-stage build。",
    "用户反馈说 search 功能很慢，尤其是在 mobile 上。",
]

EMOJI = ["😀", "😂", "🥲", "👍", "🎉", "🚀", "❤️", "🔥", "🙏", "✨", "👨‍👩‍👧", "🇯🇵",
         "🤖", "🌧️", "☕", "🐍", "📦", "✅", "❌", "👋🏽"]

STACK_TRACE = [
    "Traceback (most recent call last):\n"
    "  File \"/srv/app/venv/lib/python3.11/site-packages/httpx/_transports/default.py\", "
    "line 69, in map_httpcore_exceptions\n"
    "    yield\n"
    "  File \"/srv/app/worker/sync.py\", line 214, in pull_batch\n"
    "    response = client.get(url, params={\"since\": cursor, \"limit\": 500})\n"
    "httpx.ReadTimeout: The read operation timed out\n\n",
    "java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"name\" is null\n"
    "\tat com.example.orders.OrderService.validate(OrderService.java:88)\n"
    "\tat com.example.orders.OrderController.create(OrderController.java:41)\n"
    "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)\n\n",
    "thread 'main' panicked at src/parser.rs:132:17:\n"
    "called `Option::unwrap()` on a `None` value\n"
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n",
]


def _repeat(pieces: list[str], seed: int, sep: str = " ") -> str:
    """Pieces in a seeded random order, joined with `sep`, until SIZE characters."""
    rng = random.Random(seed)
    out: list[str] = []
    length = 0
    while length < SIZE:
        piece = rng.choice(pieces)
        out.append(piece)
        length += len(piece) + len(sep)
    return sep.join(out)[:SIZE]


def _fill(make, seed: int, sep: str) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    length = 0
    while length < SIZE:
        piece = make(rng)
        out.append(piece)
        length += len(piece) + len(sep)
    return sep.join(out)


def _digits(seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(string.digits) for _ in range(SIZE))


def _csv(seed: int) -> str:
    def row(rng: random.Random) -> str:
        return ",".join([str(rng.randint(1, 99_999)), f"{rng.uniform(0, 1000):.2f}",
                         f"{rng.uniform(-90, 90):.5f}", str(rng.randint(0, 9))])
    return "id,amount,lat,flag\n" + _fill(row, seed, "\n")


def _hex(seed: int) -> str:
    rng = random.Random(seed)
    return _fill(lambda r: hashlib.sha256(r.randbytes(16)).hexdigest(), rng.randint(0, 9**9),
                 "\n")


def _uuids(seed: int) -> str:
    return _fill(lambda r: str(uuid.UUID(int=r.getrandbits(128), version=4)), seed, "\n")


def _base64(seed: int) -> str:
    rng = random.Random(seed)
    return base64.b64encode(rng.randbytes(SIZE * 3 // 4)).decode("ascii")


def _json(seed: int) -> str:
    def record(rng: random.Random) -> str:
        return (f'{{"id": {rng.randint(1, 10**6)}, "price": {rng.uniform(0, 500):.2f}, '
                f'"qty": {rng.randint(0, 100)}, "ratio": {rng.random():.4f}, '
                f'"tags": [{rng.randint(0, 999)}, {rng.randint(0, 999)}]}}')
    return "[" + _fill(record, seed, ",\n") + "]"


def _random_ascii(seed: int) -> str:
    rng = random.Random(seed)
    alphabet = string.ascii_letters + string.digits + string.punctuation + " "
    return "".join(rng.choice(alphabet) for _ in range(SIZE))


def _emoji(seed: int) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    while sum(map(len, out)) < SIZE // 2:
        out.append(rng.choice(EMOJI))
        if rng.random() < 0.2:
            out.append(" ")
    return "".join(out)


def _indented(seed: int) -> str:
    rng = random.Random(seed)
    lines = []
    while sum(len(line) + 1 for line in lines) < SIZE:
        depth = rng.randint(1, 8)
        lines.append(" " * (4 * depth) + rng.choice(["pass", "x = 1", "return y", "}", "end"]))
        if rng.random() < 0.2:
            lines.append("")
    return "\n".join(lines)


def _markdown(seed: int) -> str:
    rng = random.Random(seed)
    header = "| Service | Region | Latency (ms) | Errors | Owner |\n|---|---|---:|---:|---|\n"
    names = ["api", "auth", "billing", "search", "mailer", "queue"]
    regions = ["eu-west-1", "us-east-2", "ap-south-1"]
    owners = ["Alice", "Bob", "Chen Wei", "Dana"]

    def row(r: random.Random) -> str:
        return (f"| {r.choice(names)} | {r.choice(regions)} | {r.randint(5, 900)} | "
                f"{r.randint(0, 50)} | {r.choice(owners)} |")
    return header + _fill(row, rng.randint(0, 9**9), "\n")


def corpus() -> dict[str, str]:
    """Class name → text, in the order the tables print them."""
    return {
        "English prose": _repeat(ENGLISH, 1),
        "Python code": _repeat(PYTHON, 2, sep=""),
        "digits": _digits(3),
        "numbers as CSV": _csv(4),
        "hex hashes": _hex(5),
        "UUIDs": _uuids(6),
        "base64": _base64(7),
        "JSON with numbers": _json(8),
        "random ASCII": _random_ascii(9),
        "Chinese": _repeat(CHINESE, 10, sep=""),
        "emoji": _emoji(11),
        "indented whitespace": _indented(12),
        "Japanese": _repeat(JAPANESE, 13, sep=""),
        "Korean": _repeat(KOREAN, 14),
        "mixed Chinese-English": _repeat(MIXED_ZH_EN, 15, sep=""),
        "Markdown table": _markdown(16),
        "stack traces": _repeat(STACK_TRACE, 17, sep=""),
    }
