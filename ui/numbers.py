"""Numbers in prose as a person writes them: one helper for every page.

0.52, not 5.20e-01; 0, not 0.0e+00; a tiny or huge value as 8.9 × 10⁻⁸ (two significant digits),
never Python's e-notation. Figures keep Plotly's own tick formats; this is for text.
"""

from __future__ import annotations

import math

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
SMALL, LARGE = 1e-3, 1e6  # outside [SMALL, LARGE) a number is written with a power of ten


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
    (12,345), exact 0 as "0", and a power of ten below 0.001 or from a million on."""
    x = float(x)
    if x == 0:
        return "0"
    if not math.isfinite(x):
        return "∞" if x > 0 else ("-∞" if x < 0 else "NaN")
    size = abs(x)
    if size < SMALL or size >= LARGE:
        return power_of_ten(x, min(digits, 2))
    if size >= 10 ** (digits - 1):
        return f"{round(x):,}"
    decimals = digits - 1 - math.floor(math.log10(size))
    text = f"{x:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
