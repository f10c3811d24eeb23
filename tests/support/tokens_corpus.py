"""A corpus of kinds of text for measuring token estimates against real tokenizers.

Every kind is about 2,000 characters, made deterministically (a fixed seed, or
sentences repeated in a seeded order), so a test and the bench measure the same
texts on every machine. Used by `tests/core/test_tokens.py` and
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


# ------------------------------------------------------------------ more scripts
RUSSIAN = [
    "Вчера вечером мы обсуждали план работ на следующий квартал.",
    "Если тестовая среда будет готова к пятнице, мы начнём развёртывание.",
    "Пожалуйста, пришлите мне отчёт за прошлую неделю, я хочу ещё раз посмотреть цифры.",
    "Библиотека открыта по выходным до девяти часов вечера.",
    "Зима в этом городе долгая, но весна наступает внезапно.",
    "Он каждый день ездит на работу на велосипеде, дорога занимает двадцать минут.",
    "Нам нужно больше времени, чтобы понять, чего на самом деле хотят пользователи.",
]

ARABIC = [
    "ناقشنا مساء أمس خطة العمل للربع القادم من السنة.",
    "إذا كانت بيئة الاختبار جاهزة يوم الجمعة، سنبدأ في النشر.",
    "من فضلك أرسل لي تقرير الأسبوع الماضي، أريد أن أراجع الأرقام مرة أخرى.",
    "المكتبة مفتوحة في عطلة نهاية الأسبوع حتى الساعة التاسعة مساءً.",
    "الشتاء في هذه المدينة طويل، لكن الربيع يأتي فجأة.",
    "نحتاج إلى مزيد من الوقت لفهم ما يريده المستخدمون حقًا.",
]

HEBREW = [
    "אתמול בערב דנו בתוכנית העבודה לרבעון הבא.",
    "אם סביבת הבדיקות תהיה מוכנה ביום שישי, נתחיל בפריסה.",
    "בבקשה שלח לי את הדוח של השבוע שעבר, אני רוצה לעבור שוב על המספרים.",
    "הספרייה פתוחה בסופי שבוע עד תשע בערב.",
    "החורף בעיר הזאת ארוך, אבל האביב מגיע פתאום.",
    "אנחנו צריכים עוד זמן כדי להבין מה המשתמשים באמת רוצים.",
]

HINDI = [
    "कल शाम हमने अगली तिमाही की कार्य योजना पर चर्चा की।",
    "अगर परीक्षण का माहौल शुक्रवार तक तैयार हो जाता है, तो हम तैनाती शुरू करेंगे।",
    "कृपया मुझे पिछले सप्ताह की रिपोर्ट भेजें, मैं आंकड़े फिर से देखना चाहता हूँ।",
    "पुस्तकालय सप्ताहांत में रात नौ बजे तक खुला रहता है।",
    "इस शहर में सर्दी लंबी होती है, लेकिन वसंत अचानक आ जाता है।",
    "हमें यह समझने के लिए और समय चाहिए कि उपयोगकर्ता वास्तव में क्या चाहते हैं।",
]

THAI = [
    "เมื่อวานตอนเย็นเราได้หารือเกี่ยวกับแผนงานสำหรับไตรมาสหน้า",
    "ถ้าสภาพแวดล้อมสำหรับทดสอบพร้อมภายในวันศุกร์ เราจะเริ่มติดตั้งระบบ",
    "กรุณาส่งรายงานของสัปดาห์ที่แล้วให้ฉัน ฉันอยากดูตัวเลขอีกครั้ง",
    "ห้องสมุดเปิดในวันหยุดสุดสัปดาห์จนถึงสามทุ่ม",
    "ฤดูหนาวในเมืองนี้ยาวนาน แต่ฤดูใบไม้ผลิมาถึงอย่างกะทันหัน",
    "เราต้องการเวลามากขึ้นเพื่อเข้าใจว่าผู้ใช้ต้องการอะไรจริงๆ",
]

GREEK = [
    "Χθες το βράδυ συζητήσαμε το σχέδιο εργασιών για το επόμενο τρίμηνο.",
    "Αν το περιβάλλον δοκιμών είναι έτοιμο μέχρι την Παρασκευή, θα ξεκινήσουμε την εγκατάσταση.",
    "Παρακαλώ στείλτε μου την αναφορά της προηγούμενης εβδομάδας.",
    "Η βιβλιοθήκη είναι ανοιχτή τα Σαββατοκύριακα μέχρι τις εννέα το βράδυ.",
    "Ο χειμώνας σε αυτή την πόλη είναι μακρύς, αλλά η άνοιξη έρχεται ξαφνικά.",
    "Χρειαζόμαστε περισσότερο χρόνο για να καταλάβουμε τι θέλουν πραγματικά οι χρήστες.",
]

VIETNAMESE = [
    "Tối hôm qua chúng tôi đã thảo luận về kế hoạch làm việc cho quý tới.",
    "Nếu môi trường thử nghiệm sẵn sàng trước thứ Sáu, chúng tôi sẽ bắt đầu triển khai.",
    "Vui lòng gửi cho tôi báo cáo của tuần trước, tôi muốn xem lại các con số.",
    "Thư viện mở cửa vào cuối tuần đến chín giờ tối.",
    "Mùa đông ở thành phố này rất dài, nhưng mùa xuân đến thật bất ngờ.",
    "Chúng ta cần thêm thời gian để hiểu người dùng thực sự muốn gì.",
]

TRADITIONAL_CHINESE = [
    "昨天晚上我們在會議室討論了下一季度的工作計畫。",
    "如果測試環境在星期五之前準備好，我們就開始部署。",
    "請把上週的報告寄給我，我想再看一遍其中的數據。",
    "圖書館週末開放到晚上九點，許多學生在那裡複習。",
    "這個城市的冬天很長，但是春天來得很突然。",
    "我們需要更多時間來瞭解使用者真正的需求。",
    "臺灣的夜市裡有各式各樣的小吃，觀光客總是絡繹不絕。",
]

JAPANESE_KANA = [
    "きょうは あさから あめが ふっていたので、いえで ほんを よんでいました。",
    "あしたは ともだちと いっしょに こうえんへ いく よていです。",
    "コンピューター の セットアップ が おわったら、メール で れんらく します。",
    "すみません、この ちかくに コンビニ は ありますか。",
    "ちょっと まってください、いま データベース を チェック しています。",
    "おいしい ラーメン やさん を しっていたら、おしえてください。",
]

JAPANESE_KANJI = [
    "東京都千代田区霞が関一丁目中央合同庁舎第二号館。",
    "本年度予算案審議委員会議事録第三回定例会開催報告。",
    "情報処理推進機構技術本部安全保障対策部門所属研究員。",
    "国立大学法人東京工業大学大学院理工学研究科機械物理工学専攻。",
    "高度経済成長期以降日本国内製造業海外移転問題調査研究。",
    "株式会社日本経済新聞社編集局経済部記者執筆記事一覧。",
]

LATIN_ACCENTS = [
    "Zażółć gęślą jaźń — w przyszłym tygodniu wyślę raport.",
    "Příští týden pošlu zprávu; děkuji za trpělivost.",
    "Größere Änderungen müssen vorher im Team besprochen werden.",
    "L'équipe a déjà préparé les données pour la réunion de jeudi.",
    "¿Podrías enviarme el informe del año pasado, por favor?",
    "Bu haftanın sonunda güncellemeyi yayınlayacağız, teşekkürler.",
    "A Svéd Királyság fővárosa Stockholm, ahol sok híd található.",
]


# ------------------------------------------------------------------ numbers
def _decimals(seed: int) -> str:
    def number(r: random.Random) -> str:
        value = r.uniform(0, 10 ** r.randint(1, 9))
        style = r.randrange(4)
        if style == 0:
            return f"{value:,.2f}"  # 1,234,567.89
        if style == 1:
            return f"{value:,.2f}".replace(",", " ").replace(".", ",")  # 1 234 567,89
        if style == 2:
            return f"{value:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")
        return f"{value:.{r.randint(1, 6)}f}"
    return _fill(number, seed, " ")


def _scientific(seed: int) -> str:
    def number(r: random.Random) -> str:
        value = r.uniform(-1, 1) * 10 ** r.randint(-30, 30)
        return r.choice([f"{value:.6e}", f"{value:.3E}", f"{value:g}"])
    return _fill(number, seed, ", ")


def _phones(seed: int) -> str:
    def phone(r: random.Random) -> str:
        d = lambda n: "".join(r.choice(string.digits) for _ in range(n))  # noqa: E731
        return r.choice([f"+1 ({d(3)}) {d(3)}-{d(4)}", f"+44 {d(2)} {d(4)} {d(4)}",
                         f"+49-{d(3)}-{d(7)}", f"0{d(2)}.{d(2)}.{d(2)}.{d(2)}.{d(2)}",
                         f"+81 {d(2)}-{d(4)}-{d(4)}", f"tel:+{d(11)}"])
    return _fill(phone, seed, "\n")


def _dates(seed: int) -> str:
    def stamp(r: random.Random) -> str:
        y, mo, day = r.randint(1990, 2035), r.randint(1, 12), r.randint(1, 28)
        h, mi, s = r.randint(0, 23), r.randint(0, 59), r.randint(0, 59)
        return r.choice([f"{y}-{mo:02}-{day:02}T{h:02}:{mi:02}:{s:02}.{r.randint(0, 999):03}Z",
                         f"{mo:02}/{day:02}/{y} {h:02}:{mi:02}",
                         f"{day}.{mo}.{y}", f"{y}年{mo}月{day}日 {h}時{mi}分",
                         f"{h % 12 or 12}:{mi:02} {'AM' if h < 12 else 'PM'}",
                         f"{y}{mo:02}{day:02}-{h:02}{mi:02}{s:02}",
                         str(r.randint(10**9, 2 * 10**9))])
    return _fill(stamp, seed, "\n")


def _currency(seed: int) -> str:
    def amount(r: random.Random) -> str:
        v = r.uniform(0, 100_000)
        return r.choice([f"${v:,.2f}", f"€ {v:,.2f}".replace(",", " ").replace(".", ","),
                         f"£{v:.2f}", f"¥{int(v):,}", f"{v:,.0f} ₽", f"₹{v:,.2f}",
                         f"USD {v:,.2f}", f"-${v:.2f}", f"CHF {v:.2f}", f"{v / 1000:.1f}k €"])
    return _fill(amount, seed, "; ")


def _ip_addresses(seed: int) -> str:
    def address(r: random.Random) -> str:
        if r.random() < 0.6:
            ip = ".".join(str(r.randint(0, 255)) for _ in range(4))
            return r.choice([ip, f"{ip}/{r.randint(8, 32)}", f"{ip}:{r.randint(1, 65535)}"])
        return ":".join(f"{r.getrandbits(16):x}" for _ in range(8))
    return _fill(address, seed, "\n")


def _versions(seed: int) -> str:
    names = ["numpy", "react", "django", "openssl", "node", "kernel", "rustc", "libc6"]

    def version(r: random.Random) -> str:
        v = f"{r.randint(0, 20)}.{r.randint(0, 40)}.{r.randint(0, 99)}"
        return r.choice([f"{r.choice(names)}=={v}", f"v{v}-rc.{r.randint(1, 9)}",
                         f"{r.choice(names)}@^{v}", f"{v}+build.{r.randint(1, 9999)}",
                         f"{r.choice(names)} {v}-{r.randint(0, 9)}ubuntu{r.randint(1, 9)}",
                         f">={v},<{r.randint(21, 30)}"])
    return _fill(version, seed, "\n")


# ------------------------------------------------------------------ structured data
def _json_config(seed: int) -> str:
    keys = ["name", "description", "enabled", "timeout", "retries", "endpoint", "labels",
            "owner", "region", "mode"]
    words = ["primary", "fallback", "eu-west", "read-only", "nightly", "alice@example.com",
             "https://api.example.com/v2/items", "true", "false", "null"]

    def block(r: random.Random) -> str:
        fields = [f'    "{k}": "{r.choice(words)}"' for k in r.sample(keys, 4)]
        return "  {\n" + ",\n".join(fields) + "\n  }"
    return "[\n" + _fill(block, seed, ",\n") + "\n]"


def _yaml(seed: int) -> str:
    def service(r: random.Random) -> str:
        name = r.choice(["web", "worker", "db", "cache", "proxy"]) + str(r.randint(1, 9))
        return (f"  {name}:\n    image: registry.example.com/{name}:{r.randint(1, 9)}."
                f"{r.randint(0, 20)}\n    restart: unless-stopped\n    ports:\n"
                f"      - \"{r.randint(1000, 9999)}:{r.randint(80, 9000)}\"\n"
                f"    environment:\n      LOG_LEVEL: {r.choice(['debug', 'info', 'warn'])}\n"
                f"      MAX_CONNECTIONS: {r.randint(10, 500)}\n")
    return "version: \"3.9\"\nservices:\n" + _fill(service, seed, "")


HTML = [
    '<div class="card">\n  <h2 class="card-title">Monthly report</h2>\n'
    '  <p>Revenue grew by <strong>12%</strong> compared to last month.</p>\n'
    '  <a href="/reports/2024/05" target="_blank" rel="noopener">Open</a>\n</div>\n',
    '<?xml version="1.0" encoding="UTF-8"?>\n<order id="A-1042" status="shipped">\n'
    '  <item sku="XK-200" qty="2">USB-C cable</item>\n  <total currency="EUR">24.90</total>\n'
    '</order>\n',
    '<table>\n  <tr><th>Name</th><th>Role</th></tr>\n  <tr><td>Alice</td><td>Admin</td></tr>\n'
    '</table>\n',
    '<input type="email" name="email" id="email" placeholder="you@example.com" required>\n',
]


def _tsv(seed: int) -> str:
    def row(r: random.Random) -> str:
        return "\t".join([f"{r.randint(1, 9999):04}", r.choice(["Berlin", "Lagos", "Lima"]),
                          f"{r.uniform(0, 100):.1f}", r.choice(["yes", "no"]),
                          f"2024-{r.randint(1, 12):02}-{r.randint(1, 28):02}"])
    return "id\tcity\tscore\tactive\tdate\n" + _fill(row, seed, "\n")


SQL = [
    "SELECT u.id, u.email, COUNT(o.id) AS orders\nFROM users u\n"
    "LEFT JOIN orders o ON o.user_id = u.id AND o.created_at >= '2024-01-01'\n"
    "WHERE u.deleted_at IS NULL\nGROUP BY u.id, u.email\nHAVING COUNT(o.id) > 3\n"
    "ORDER BY orders DESC\nLIMIT 50;\n\n",
    "CREATE TABLE invoices (\n    id BIGSERIAL PRIMARY KEY,\n"
    "    customer_id INTEGER NOT NULL REFERENCES customers(id),\n"
    "    amount NUMERIC(12, 2) NOT NULL CHECK (amount >= 0),\n"
    "    issued_on DATE DEFAULT CURRENT_DATE\n);\n\n",
    "UPDATE accounts SET balance = balance - 100.00 WHERE id = 42;\n"
    "INSERT INTO audit_log (account_id, change, at) VALUES (42, -100.00, NOW());\n\n",
]

LATEX = [
    r"\begin{equation} \int_{-\infty}^{\infty} e^{-x^2}\,dx = \sqrt{\pi} \end{equation}"
    "\n",
    r"$$ \sum_{k=1}^{n} k^2 = \frac{n(n+1)(2n+1)}{6} $$" "\n",
    r"\[ \mathbf{A}\mathbf{x} = \lambda \mathbf{x}, \quad \det(\mathbf{A} - \lambda I) = 0 \]"
    "\n",
    r"$f'(x) = \lim_{h \to 0} \frac{f(x+h) - f(x)}{h}$ and "
    r"$\nabla \cdot \vec{E} = \frac{\rho}{\varepsilon_0}$" "\n",
    r"\begin{pmatrix} a_{11} & a_{12} \\ a_{21} & a_{22} \end{pmatrix}" "\n",
]


# ------------------------------------------------------------------ logs
def _syslog(seed: int) -> str:
    hosts = ["web-01", "db-primary", "edge-eu-3"]
    messages = ["sshd[{p}]: Accepted publickey for deploy from 10.0.{a}.{b} port {q} ssh2",
                "kernel: [{p}.{q}] EXT4-fs (sda1): mounted filesystem with ordered data mode",
                "systemd[1]: Started Session {p} of user deploy.",
                "CRON[{p}]: (root) CMD (/usr/local/bin/backup.sh --incremental)",
                "nginx[{p}]: upstream timed out (110: Connection timed out) while reading"]

    def line(r: random.Random) -> str:
        message = r.choice(messages).format(p=r.randint(100, 99999), q=r.randint(1000, 65535),
                                            a=r.randint(0, 255), b=r.randint(0, 255))
        return (f"{r.choice(['Jan', 'Feb', 'Mar', 'Oct'])} {r.randint(1, 28):2} "
                f"{r.randint(0, 23):02}:{r.randint(0, 59):02}:{r.randint(0, 59):02} "
                f"{r.choice(hosts)} {message}")
    return _fill(line, seed, "\n")


def _access_log(seed: int) -> str:
    paths = ["/api/v1/users", "/static/app.3f9a1c.js", "/login", "/favicon.ico",
             "/api/v1/orders?page=2&limit=50", "/health"]
    agents = ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)",
              "curl/8.4.0", "python-httpx/0.27.0"]

    def line(r: random.Random) -> str:
        ip = ".".join(str(r.randint(1, 254)) for _ in range(4))
        return (f'{ip} - - [{r.randint(1, 28):02}/Mar/2024:{r.randint(0, 23):02}:'
                f'{r.randint(0, 59):02}:{r.randint(0, 59):02} +0000] '
                f'"{r.choice(["GET", "POST", "PUT"])} {r.choice(paths)} HTTP/1.1" '
                f'{r.choice([200, 201, 304, 404, 500])} {r.randint(0, 99999)} "-" '
                f'"{r.choice(agents)}"')
    return _fill(line, seed, "\n")


MORE_STACK_TRACES = [
    "TypeError: Cannot read properties of undefined (reading 'map')\n"
    "    at renderList (webpack-internal:///./src/components/List.tsx:42:19)\n"
    "    at processChild (/app/node_modules/react-dom/cjs/react-dom-server.node.js:3043:14)\n"
    "    at async Promise.all (index 0)\n\n",
    "panic: runtime error: index out of range [5] with length 3\n\n"
    "goroutine 1 [running]:\nmain.parseHeader(0xc000012345, 0x3, 0x8)\n"
    "\t/home/dev/proj/cmd/server/main.go:87 +0x1d4\nmain.main()\n"
    "\t/home/dev/proj/cmd/server/main.go:23 +0x65\nexit status 2\n\n",
    "Unhandled exception. System.InvalidOperationException: Sequence contains no elements\n"
    "   at System.Linq.ThrowHelper.ThrowNoElementsException()\n"
    "   at Orders.Api.Controllers.OrderController.Get(Int32 id) in "
    "C:\\src\\Orders.Api\\Controllers\\OrderController.cs:line 57\n\n",
    "Segmentation fault (core dumped)\n#0  0x00007ffff7a5e8f5 in __strlen_avx2 () from "
    "/lib/x86_64-linux-gnu/libc.so.6\n#1  0x0000555555555189 in main (argc=1, "
    "argv=0x7fffffffe3c8) at crash.c:12\n\n",
]


# ------------------------------------------------------------------ code
JAVASCRIPT = [
    "export async function fetchUser(id: string): Promise<User | null> {\n"
    "  const res = await fetch(`/api/users/${encodeURIComponent(id)}`);\n"
    "  if (!res.ok) return null;\n  return (await res.json()) as User;\n}\n\n",
    "const debounce = (fn, ms = 300) => {\n  let timer;\n  return (...args) => {\n"
    "    clearTimeout(timer);\n    timer = setTimeout(() => fn.apply(this, args), ms);\n"
    "  };\n};\n\n",
    "interface Props {\n  items: Array<{ id: number; label: string }>;\n"
    "  onSelect?: (id: number) => void;\n}\n\n",
    "document.querySelectorAll('.tab').forEach((el, i) => {\n"
    "  el.addEventListener('click', () => setActive(i));\n});\n\n",
]

RUST = [
    "impl<T: Clone + Send> Cache<T> {\n    pub fn get_or_insert(&mut self, key: &str, "
    "make: impl FnOnce() -> T) -> &T {\n"
    "        self.map.entry(key.to_owned()).or_insert_with(make)\n    }\n}\n\n",
    "#[derive(Debug, Serialize, Deserialize)]\npub struct Config {\n    pub port: u16,\n"
    "    pub hosts: Vec<String>,\n    #[serde(default)]\n    pub verbose: bool,\n}\n\n",
    "fn parse(input: &str) -> Result<Vec<u32>, ParseIntError> {\n"
    "    input.split(',').map(|s| s.trim().parse::<u32>()).collect()\n}\n\n",
]

GO = [
    "func (s *Server) handle(w http.ResponseWriter, r *http.Request) {\n"
    "\tctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)\n\tdefer cancel()\n"
    "\tif err := s.store.Ping(ctx); err != nil {\n"
    "\t\thttp.Error(w, err.Error(), http.StatusServiceUnavailable)\n\t\treturn\n\t}\n"
    "\tw.WriteHeader(http.StatusOK)\n}\n\n",
    "type Item struct {\n\tID    int64  `json:\"id\"`\n\tName  string `json:\"name\"`\n"
    "\tPrice float64 `json:\"price,omitempty\"`\n}\n\n",
    "for i, v := range values {\n\tif v > max {\n\t\tmax, idx = v, i\n\t}\n}\n\n",
]

C_CPP = [
    "#include <stdio.h>\n#include <stdlib.h>\n\nint main(int argc, char **argv) {\n"
    "    if (argc < 2) { fprintf(stderr, \"usage: %s FILE\\n\", argv[0]); return 1; }\n"
    "    FILE *f = fopen(argv[1], \"rb\");\n    if (!f) { perror(\"fopen\"); return 2; }\n"
    "    fclose(f);\n    return 0;\n}\n\n",
    "template <typename T>\nstd::vector<T> merge(const std::vector<T>& a, "
    "const std::vector<T>& b) {\n    std::vector<T> out;\n    out.reserve(a.size() + b.size());\n"
    "    std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));\n"
    "    return out;\n}\n\n",
    "static inline uint32_t rotl(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }\n\n",
]

JAVA = [
    "public class OrderService {\n    private final OrderRepository repository;\n\n"
    "    public OrderService(OrderRepository repository) {\n"
    "        this.repository = Objects.requireNonNull(repository);\n    }\n\n"
    "    public Optional<Order> findById(long id) {\n"
    "        return repository.findById(id).filter(o -> !o.isDeleted());\n    }\n}\n\n",
    "@Override\npublic boolean equals(Object other) {\n    if (this == other) return true;\n"
    "    if (!(other instanceof Point p)) return false;\n    return x == p.x && y == p.y;\n}\n\n",
]

SHELL = [
    "#!/usr/bin/env bash\nset -euo pipefail\n\nfor f in \"$@\"; do\n"
    "  [[ -f \"$f\" ]] || { echo \"missing: $f\" >&2; exit 1; }\n"
    "  sha256sum \"$f\" | tee -a checksums.txt\ndone\n\n",
    "find . -name '*.log' -mtime +7 -print0 | xargs -0 gzip -9\n",
    "docker run --rm -it -v \"$PWD\":/src -w /src -e HOME=/tmp python:3.12-slim "
    "pip install -r requirements.txt\n",
    "awk -F, 'NR>1 {sum[$2]+=$3} END {for (k in sum) printf \"%s\\t%.2f\\n\", k, sum[k]}' "
    "data.csv | sort -k2 -nr | head -n 20\n",
    "export PATH=\"$HOME/.local/bin:$PATH\" && cd ~/proj && git pull --rebase && make -j$(nproc)\n",
]


def _minified_js(seed: int) -> str:
    rng = random.Random(seed)
    names = [a + b for a in "abcdefghijklmnopqrstuvwxyz" for b in "_$0123456789abc"]

    def statement(r: random.Random) -> str:
        a, b, c = r.sample(names, 3)
        return r.choice([f"var {a}={b}.{c}||{{}};", f"function {a}({b},{c}){{return {b}&&{c}}}",
                         f"{a}.prototype.{b}=function(){{return this.{c}}};",
                         f"if(!{a}){a}=[{r.randint(0, 99)},{r.randint(0, 99)}];",
                         f"{a}=({b}<<{r.randint(1, 9)})^{c}>>>0;",
                         f'{a}["{b}"]=!0,{c}=void 0;'])
    return "!function(){" + _fill(statement, rng.randint(0, 9**9), "") + "}();"


# ------------------------------------------------------------------ decorative text
def _box_drawing(seed: int) -> str:
    rng = random.Random(seed)
    out = []
    while sum(map(len, out)) < SIZE:
        width = rng.randint(10, 40)
        label = rng.choice(["Status", "Memory 64%", "CPU ██▌", "Queue: 12", "OK"])
        out.append("┌" + "─" * width + "┐\n│ " + label.ljust(width - 1)[:width - 1] + "│\n"
                   + "├" + "─" * width + "┤\n│" + " " * width + "│\n"
                   + "└" + "─" * width + "┘\n")
        if rng.random() < 0.4:
            out.append("╔══" + "═" * width + "╗\n║  tree ╠═ ├── src/ └── README ║\n╚"
                       + "═" * (width + 2) + "╝\n")
    return "".join(out)[:SIZE]


ASCII_ART = [
    "  ____        _   _             \n |  _ \\ _   _| |_| |__   ___  _ __  \n"
    " | |_) | | | | __| '_ \\ / _ \\| '_ \\ \n |  __/| |_| | |_| | | | (_) | | | |\n"
    " |_|    \\__, |\\__|_| |_|\\___/|_| |_|\n        |___/                       \n\n",
    "   /\\_/\\  \n  ( o.o ) \n   > ^ <  \n\n",
    "+-------+--------+\n| key   | value  |\n+=======+========+\n| a     | 1      |\n"
    "+-------+--------+\n\n",
    "        .--.\n       |o_o |\n       |:_/ |\n      //   \\ \\\n     (|     | )\n"
    "    /'\\_   _/`\\\n    \\___)=(___/\n\n",
    "  *    .  *       .             *\n      .    *   .        .   *\n\n",
]

EMOJI_SEQUENCES = ["👩‍💻", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🏴‍☠️", "👍🏻", "👍🏿", "🤝🏽", "🧑🏾‍🚀",
                   "👩🏼‍🦰", "🇩🇪", "🇧🇷", "🇮🇳", "🇺🇸", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "❤️‍🔥", "🐻‍❄️",
                   "1️⃣", "#️⃣", "👁️‍🗨️", "🧔‍♀️"]


def _emoji_sequences(seed: int) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    while sum(map(len, out)) < SIZE:
        out.append(rng.choice(EMOJI_SEQUENCES))
        if rng.random() < 0.3:
            out.append(" ")
    return "".join(out)[:SIZE]


def _zalgo(seed: int) -> str:
    rng = random.Random(seed)
    marks = [chr(c) for c in range(0x0300, 0x036F)]
    base = "the quick brown fox jumps over the lazy dog "
    out: list[str] = []
    i = 0
    while sum(map(len, out)) < SIZE:
        ch = base[i % len(base)]
        i += 1
        out.append(ch + "".join(rng.choice(marks) for _ in range(rng.randint(0, 6))))
    return "".join(out)[:SIZE]


def _full_width(seed: int) -> str:
    def to_wide(text: str) -> str:
        return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else "\u3000" if c == " "
                       else c for c in text)
    return to_wide(_repeat(ENGLISH, seed))


def _math_alphanumerics(seed: int) -> str:
    starts = [0x1D400, 0x1D434, 0x1D468, 0x1D5A0, 0x1D5D4, 0x1D670]  # bold, italic, …

    def styled(r: random.Random) -> str:
        word = r.choice(ENGLISH).split()[r.randint(0, 5)].strip(".,").lower()
        start = r.choice(starts) + 26  # lowercase block of the style
        return "".join(chr(start + ord(c) - 97) if "a" <= c <= "z" else c for c in word)
    return _fill(styled, seed, " ")


def _repeated_punctuation(seed: int) -> str:
    pieces = ["!!!", "???", "?!?!", "...", "…", "!!!!!!!", "——", "~~~", "***", "--", "!?",
              ";-)", ":-(", "<<<", ">>>", "##", "$$$", "((()))", "''", '""']

    def burst(r: random.Random) -> str:
        return r.choice(["What", "No way", "Really", "Wait", "Done", "Help"]) + \
            "".join(r.choice(pieces) for _ in range(r.randint(1, 4)))
    return _fill(burst, seed, " ")


def _long_runs(seed: int) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    while sum(map(len, out)) < SIZE:
        ch = rng.choice("=-_*#.~+ 0aAxz/")
        out.append(ch * rng.randint(20, 300) + "\n")
    return "".join(out)[:SIZE]


def _whitespace_heavy(seed: int) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    while sum(map(len, out)) < SIZE:
        out.append(rng.choice(["\t" * rng.randint(1, 6), " " * rng.randint(1, 30),
                               "\n" * rng.randint(1, 5), "\r\n", " \t ", "word",
                               "x = 1", "   \n"]))
    return "".join(out)[:SIZE]


URLS = [
    "https://github.com/example-org/project/blob/main/src/components/Button.tsx#L42",
    "https://www.example.com/search?q=token+estimate&lang=en&page=3&utm_source=newsletter",
    "/home/alice/Projects/turnlog/desktop/turnlog/core/projection.py",
    r"C:\Users\Bob\AppData\Local\Temp\build-7f3a\output.log",
    "s3://my-bucket-prod/exports/2024/05/17/part-00042.snappy.parquet",
    "file:///var/lib/docker/volumes/pgdata/_data/base/16384",
    "https://docs.python.org/3/library/functools.html#functools.lru_cache",
]


SANSKRIT_MARATHI = [
    "धर्मक्षेत्रे कुरुक्षेत्रे समवेता युयुत्सवः। मामकाः पाण्डवाश्चैव किमकुर्वत सञ्जय॥",
    "कर्मण्येवाधिकारस्ते मा फलेषु कदाचन। मा कर्मफलहेतुर्भूर्मा ते सङ्गोऽस्त्वकर्मणि॥",
    "मराठी ही महाराष्ट्राची राजभाषा आहे आणि ती कोट्यवधी लोक बोलतात.",
    "नेपाली भाषा नेपालको राष्ट्रभाषा हो र यो देवनागरी लिपिमा लेखिन्छ।",
    "आम्ही पुढच्या आठवड्यात अहवाल पाठवू, कृपया वाट पाहा.",
]

UKRAINIAN_SERBIAN = [
    "Привіт! Ми надішлемо звіт наступного тижня, дякуємо за терпіння.",
    "Київ — столиця України, місто з їжаками, ґанками та єнотами в парках.",
    "Ђорђе и Љиљана живе у Београду, њихова ћерка учи џудо.",
    "Састанак је померен за четвртак у девет часова ујутру.",
    "Білоруська мова: Мінск — сталіца Беларусі, у ім шмат зялёных паркаў.",
]

DOUBLE_SPACED = [sentence.replace(". ", ".  ") + "  " for sentence in [
    "The meeting ran late. Nobody minded.",
    "Send the draft by Friday. I will read it over the weekend.",
    "It rained all day. We stayed in and played cards.",
    "The build failed twice. The third run passed.",
]]


def corpus() -> dict[str, str]:
    """Kind → text, in the order the tables print them."""
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
        "Russian": _repeat(RUSSIAN, 18),
        "Arabic": _repeat(ARABIC, 19),
        "Hebrew": _repeat(HEBREW, 20),
        "Hindi": _repeat(HINDI, 21),
        "Thai": _repeat(THAI, 22),
        "Greek": _repeat(GREEK, 23),
        "Vietnamese": _repeat(VIETNAMESE, 24),
        "Traditional Chinese": _repeat(TRADITIONAL_CHINESE, 25, sep=""),
        "Japanese kana": _repeat(JAPANESE_KANA, 26),
        "Japanese kanji": _repeat(JAPANESE_KANJI, 27, sep=""),
        "accented Latin": _repeat(LATIN_ACCENTS, 28),
        "decimals": _decimals(29),
        "scientific notation": _scientific(30),
        "phone numbers": _phones(31),
        "dates and times": _dates(32),
        "currency amounts": _currency(33),
        "IP addresses": _ip_addresses(34),
        "version strings": _versions(35),
        "JSON config": _json_config(36),
        "YAML": _yaml(37),
        "HTML and XML": _repeat(HTML, 38, sep=""),
        "TSV": _tsv(39),
        "SQL": _repeat(SQL, 40, sep=""),
        "LaTeX maths": _repeat(LATEX, 41, sep=""),
        "syslog": _syslog(42),
        "HTTP access log": _access_log(43),
        "JS, Go, C#, C traces": _repeat(MORE_STACK_TRACES, 44, sep=""),
        "TypeScript": _repeat(JAVASCRIPT, 45, sep=""),
        "Rust": _repeat(RUST, 46, sep=""),
        "Go": _repeat(GO, 47, sep=""),
        "C and C++": _repeat(C_CPP, 48, sep=""),
        "Java": _repeat(JAVA, 49, sep=""),
        "shell": _repeat(SHELL, 50, sep=""),
        "minified JS": _minified_js(51),
        "URLs and paths": _repeat(URLS, 52, sep="\n"),
        "box drawing": _box_drawing(53),
        "ASCII art": _repeat(ASCII_ART, 54, sep=""),
        "emoji sequences": _emoji_sequences(55),
        "combining marks": _zalgo(56),
        "full-width forms": _full_width(57),
        "math alphanumerics": _math_alphanumerics(58),
        "repeated punctuation": _repeated_punctuation(59),
        "long runs": _long_runs(60),
        "whitespace-heavy": _whitespace_heavy(61),
        "Sanskrit, Marathi, Nepali": _repeat(SANSKRIT_MARATHI, 62),
        "Ukrainian, Serbian": _repeat(UKRAINIAN_SERBIAN, 63),
        "double-spaced prose": _repeat(DOUBLE_SPACED, 64, sep=""),
    }
