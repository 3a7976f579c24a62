"""Every user-visible text of the app, in English and 中文, in one place.

Each module of this package holds one page's strings as two dicts, EN and ZH, with keys
prefixed by the page ("attention.title"). `STRINGS` merges them; tests check that every key
exists in both languages and that the format placeholders agree.
"""

from __future__ import annotations

import importlib
import pkgutil

LANGS = {"en": "English", "zh": "中文"}
# every module of this package is one table: the shared texts (common.py) or one page's
_MODULES = tuple(
    importlib.import_module(f"{__name__}.{m.name}") for m in pkgutil.iter_modules(__path__)
)


def _merge(attr: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for mod in _MODULES:
        table = getattr(mod, attr)
        dup = merged.keys() & table.keys()
        if dup:
            raise KeyError(f"duplicate string keys in {mod.__name__}: {sorted(dup)}")
        merged.update(table)
    return merged


STRINGS: dict[str, dict[str, str]] = {"en": _merge("EN"), "zh": _merge("ZH")}


def translate(key: str, lang: str = "en", **kwargs) -> str:
    """The text for `key` in `lang` (English if `lang` is unknown), formatted with kwargs."""
    table = STRINGS.get(lang, STRINGS["en"])
    text = table[key] if key in table else STRINGS["en"][key]
    return text.format(**kwargs) if kwargs else text
