"""Numbers in prose as people write them: one helper for every page.

0.52, not 5.20e-01; 0, not 0.0e+00; 62,832; a tiny value as 8.9 × 10⁻⁸ (two significant digits),
never Python's e-notation; sizes as 128 KiB. Figures keep Plotly's own tick formats.
"""

from __future__ import annotations

import math

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
SMALL = 1e-3  # below this a number is written with a power of ten


def power_of_ten(x: float, digits: int = 2) -> str:
    """`x` as "8.9 × 10⁻⁸" (`digits` significant digits; "10⁻⁵" when the mantissa is 1)."""
    mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    power = "10" + str(int(exponent)).translate(_SUPERSCRIPT)
    if mantissa in ("1", "-1"):
        return power if mantissa == "1" else "-" + power
    return f"{mantissa} × {power}"


def num(x: float, digits: int = 3) -> str:
    """`x` in prose: `digits` significant digits, no trailing zeros, thousands separated
    (12,345; whole numbers from 10^(digits-1) on), exact 0 as "0", below 0.001 a power of ten."""
    x = float(x)
    if x == 0:
        return "0"
    if not math.isfinite(x):
        return "∞" if x > 0 else ("-∞" if x < 0 else "NaN")
    size_ = abs(x)
    if size_ < SMALL:
        return power_of_ten(x, min(digits, 2))
    if size_ >= 10 ** (digits - 1):
        return f"{round(x):,}"
    decimals = digits - 1 - math.floor(math.log10(size_))
    text = f"{x:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def size(n_bytes: float) -> str:
    """Bytes in binary units: 128 KiB, 1 GiB, 1.5 MiB."""
    units = ("bytes", "KiB", "MiB", "GiB", "TiB")
    i = 0 if n_bytes < 1024 else min(int(math.log(n_bytes, 1024)), len(units) - 1)
    value = n_bytes / 1024**i
    return f"{value:,.0f} {units[i]}" if value == int(value) else f"{value:,.3g} {units[i]}"
