"""Numbers in prose as people write them: 0.52, 1.2e-7 for tiny differences, 128 KiB."""

from __future__ import annotations

import math


def num(x: float) -> str:
    """0 as 0; tiny values as 1.2e-7; everything else with 3 significant digits (thousands
    separated)."""
    if x == 0:
        return "0"
    if not math.isfinite(x):
        return str(x)
    if abs(x) < 1e-3:
        mantissa, exponent = f"{x:.1e}".split("e")
        return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent)}"
    return f"{x:,.3g}" if abs(x) < 1e4 else f"{x:,.0f}"


def size(n_bytes: float) -> str:
    """Bytes in binary units: 128 KiB, 1 GiB, 1.5 MiB."""
    units = ("bytes", "KiB", "MiB", "GiB", "TiB")
    i = 0 if n_bytes < 1024 else min(int(math.log(n_bytes, 1024)), len(units) - 1)
    value = n_bytes / 1024**i
    return f"{value:,.0f} {units[i]}" if value == int(value) else f"{value:,.3g} {units[i]}"
