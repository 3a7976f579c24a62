"""Every text exists in English and 中文, with the same placeholders; every key used exists."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from ui.strings import LANGS, STRINGS, translate

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*ROOT.glob("views/*.py"), *ROOT.glob("ui/**/*.py"), ROOT / "router.py"]
KEY_CALL = re.compile(r"""\bt\(\s*["']([a-z_]+\.[a-z0-9_.]+)["']""")
KEY_FSTRING = re.compile(r"""\bt\(\s*f["']([a-z_]+\.[a-z0-9_.]*)\{""")


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_both_languages_have_the_same_keys():
    assert set(LANGS) == {"en", "zh"}
    missing_zh = STRINGS["en"].keys() - STRINGS["zh"].keys()
    missing_en = STRINGS["zh"].keys() - STRINGS["en"].keys()
    assert not missing_zh, f"missing in 中文: {sorted(missing_zh)}"
    assert not missing_en, f"missing in English: {sorted(missing_en)}"


@pytest.mark.parametrize("key", sorted(STRINGS["en"]))
def test_placeholders_agree_and_text_not_empty(key):
    en, zh = STRINGS["en"][key], STRINGS["zh"][key]
    assert en.strip() and zh.strip()
    assert _fields(en) == _fields(zh), key


def test_every_key_used_in_the_app_exists():
    used, prefixes = set(), set()
    for path in SOURCES:
        src = path.read_text(encoding="utf-8")
        used |= set(KEY_CALL.findall(src))
        prefixes |= set(KEY_FSTRING.findall(src))
    assert used, "no t('...') calls found: the scan is broken"
    missing = sorted(k for k in used if k not in STRINGS["en"])
    assert not missing, f"keys used but not defined: {missing}"
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in STRINGS["en"]), prefix


def test_translate_falls_back_to_english_for_unknown_language():
    assert translate("nav.attention", "fr") == STRINGS["en"]["nav.attention"]
    assert translate("side.d_k", "zh", d_model=8, n_heads=2, d_k=4).startswith("d_k = d_model / h")
