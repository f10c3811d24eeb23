"""Conversation text for benches: varied sentences, English and Chinese, drawn from fixed word
lists with a fixed seed, so a run is the same every time and the text compresses about as
real conversation text does (zlib: about 2.5 to 3 times over many messages; one sentence
repeated shrinks 20 times and would make any transfer of it look cheap)."""

from __future__ import annotations

import random
import zlib
from itertools import accumulate

_ENGLISH_WORDS = """
the a of to and in is it you that for on with as was this be are have not at by from or
one but what all were when we there can an your which their said if do will each about how
up out them then she many some so these would other into has more her two like him see time
could no make than first been its who now people my made over did down only way find use may
water long little very after words called just where most know get through back much before
go good new write our used me man too any day same right look think also around another came
come work three word must because does part even place well such here take why things help
put years different away again off went old number great tell men say small every found still
between name should home big give air line set own under read last never us left end along
while might next sound below saw something thought both few those always looked show large
often together asked house world going want school important until form food keep children
feet land side without boy once animals life enough took sometimes four head above kind began
almost live page got earth need far hand high year mother light parts country father let
night following picture being study second eyes soon times story boys since white days ever
paper hard near sentence better best across during today others however sure means knew try
told young miles sun ways thing whole hear example heard several change answer room sea
against top turned learn point city play toward five using himself usually money seen car
morning body upon family later turn move face door cut done group true leave red friends
bulb frost garden soil compost tulip spring autumn seed water pot root leaf branch prune
server request timeout retry token budget model answer question summary memory turn sync
database index query table column error report window button setting profile network file
"""
ENGLISH = _ENGLISH_WORDS.split()

CHINESE = list(
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能"
    "下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加"
    "量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与"
    "关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者"
    "最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少"
    "图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光"
    "门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清美再采转"
    "更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话"
    "米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商"
    "郁金香种球初霜之后下服务器请求超时重试预算模型回答问题摘要记忆同步数据库索引错误窗口设置网络文件")
# Words drawn by Zipf's law (the n-th most common with weight 1/n**ZIPF), as in real text:
# the lists above run from common to rare.
ZIPF = 1.2
CHINESE_SHARE = 0.25  # of the sentences


def _weights(count: int) -> list[float]:
    return list(accumulate(1 / (rank + 1) ** ZIPF for rank in range(count)))


class ChatText:
    """Messages of varied sentences, the same for the same seed."""

    def __init__(self, seed: int = 45) -> None:
        self.random = random.Random(seed)
        self._english = _weights(len(ENGLISH))
        self._chinese = _weights(len(CHINESE))

    def sentence(self) -> str:
        draw = self.random
        if draw.random() < CHINESE_SHARE:
            return "".join(draw.choices(CHINESE, cum_weights=self._chinese,
                                        k=draw.randint(12, 40))) + "。"
        words = draw.choices(ENGLISH, cum_weights=self._english, k=draw.randint(6, 24))
        if draw.random() < 0.2:
            words.insert(draw.randrange(len(words)), str(draw.randint(2, 9999)))
        return " ".join(words).capitalize() + draw.choice((". ", "? ", ", ", "; ", ". "))

    def message(self, size: int) -> str:
        """Sentences of about `size` UTF-8 bytes in all."""
        parts: list[str] = []
        length = 0
        while length < size:
            parts.append(self.sentence())
            length += len(parts[-1].encode())
        return "".join(parts)


def zlib_ratio(text: str) -> float:
    """How many times zlib (level 6) shrinks `text`'s UTF-8."""
    data = text.encode()
    return len(data) / len(zlib.compress(data))
