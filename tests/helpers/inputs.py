"""The inputs of quality.md that every page taking text must survive."""

MARKUP = [
    "<b>x</b>",
    '<a href="https://example.com">x</a>',
    "<img src=x onerror=alert(1)>",
    '<span style="font-size:400px">W</span>',
]
TEXTS = {
    "empty": "",
    "spaces": "   ",
    "punctuation": "...!?",
    "single": "word",
    "repeated": "the cat saw the dog",
    "forty_the": " ".join(["the"] * 40),
    "too_long": " ".join(f"w{i}" for i in range(600)),
    "emoji": "family 👨‍👩‍👧‍👦 flag 🇫🇷 ok 👍🏽",
    "rtl": "مرحبا بالعالم שלום עולם",
    "combining": "e\u0301cole nai\u0308ve",
    "cjk": "我想住在欧洲。",
    "zero_width": "a\u200bb c\u200bd",
    **{f"markup_{i}": m for i, m in enumerate(MARKUP)},
}
RAW_MARKUP = ("<b>", "<a ", "<img", "<span")
# markup typed into a box of letters (a sequence, not a sentence): all in one line
HOSTILE_LINE = '<b>x</b> <a href="https://example.com">y</a> <img src=x onerror=alert(1)>'
