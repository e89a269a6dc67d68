"""Charts of the statistics pages: lines that may go below zero (chips won, luck).

Pure Python, inline SVG, in the look of :mod:`tracker.charts` (same palette,
dashes and legend), which draws from zero up; these charts draw a zero line
and values on both sides of it. Long series are thinned to at most
``max_points`` points (the first and last kept) so a season of thousands of
hands stays a small SVG.

>>> svg = signed_chart([Series("Ann", [0, 120, -40, 60])], title="Chips won")
>>> svg.startswith("<svg") and "Chips won" in svg and "<polyline" in svg
True
>>> thin([1, 2, 3, 4, 5, 6, 7], 4)
([1, 3, 5, 7], [0, 2, 4, 6])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from tracker.charts import DASHES, PALETTE, Series, nice_step

__all__ = ["Series", "signed_chart", "thin"]


def thin(values: Sequence, max_points: int) -> tuple[list, list[int]]:
    """At most ``max_points`` of ``values`` evenly spread (first and last kept), and
    their indices."""
    n = len(values)
    if n <= max_points or max_points < 2:
        return list(values), list(range(n))
    step = (n - 1) / (max_points - 1)
    idx = sorted({round(k * step) for k in range(max_points)})
    return [values[i] for i in idx], idx


def _fmt(value: float) -> str:
    if abs(value) >= 10000 and value % 1000 == 0:
        return f"{int(value) // 1000}k"
    return f"{int(value):,}" if value == int(value) else f"{value:g}"


def signed_chart(
    series: Sequence[Series],
    *,
    width: int = 400,
    height: int = 230,
    x_label: str = "",
    x_start: int = 0,
    title: str = "",
    font_size: float = 11,
    max_points: int = 300,
) -> str:
    """An SVG line chart of ``series`` over x = ``x_start``, ``x_start + 1``, ... with a
    zero line; y runs from the lowest value (or 0) to the highest (or 0)."""
    fs = font_size
    n = max((len(s.values) for s in series), default=0)
    pad_left = 12 + len("-00,000") * fs * 0.58
    pad_right = 10
    pad_top = 10 + (fs + 6 if title else 0)
    plot_w = width - pad_left - pad_right
    items = []
    x = pad_left
    row = 0
    for k, s in enumerate(series):
        label = s.label + (f" {s.note}" if s.note else "")
        w = 22 + len(label) * fs * 0.58 + 14
        if x + w > width - pad_right and x > pad_left:
            row += 1
            x = pad_left
        items.append((k, label, x, row))
        x += w
    legend_h = (row + 1) * (fs + 8) if series else 0
    x_axis_h = fs + 8 + (fs + 4 if x_label else 0)
    plot_h = max(height - pad_top - x_axis_h - legend_h - 6, 80)
    total_h = pad_top + plot_h + x_axis_h + legend_h + 6

    values = [v for s in series for v in s.values if v is not None]
    hi = max([0.0, *values])
    lo = min([0.0, *values])
    step = nice_step((hi - lo) or 1)
    y_max = step * math.ceil(hi / step) if hi > 0 else 0
    y_min = step * math.floor(lo / step) if lo < 0 else 0
    if y_max == y_min:
        y_max = step
    x_span = max(n - 1, 1)

    def px(i: float) -> float:
        return pad_left + plot_w * i / x_span

    def py(v: float) -> float:
        return pad_top + plot_h - plot_h * (v - y_min) / (y_max - y_min)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {total_h:.0f}" '
        f'class="chart" role="img" aria-label="{escape(title or "line chart")}" '
        f'font-size="{fs}" font-family="system-ui, sans-serif">'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
        out.append(
            f'<text x="{pad_left}" y="{10 + fs:.1f}" font-weight="600" fill="#1d2327">'
            f"{escape(title)}</text>"
        )
    v = y_min
    while v <= y_max + 1e-9:
        y = py(v)
        zero = abs(v) < 1e-9
        out.append(
            f'<line x1="{pad_left:.1f}" x2="{width - pad_right}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="{"#9aa5ab" if zero else "#e3e7ea"}" stroke-width="{1.5 if zero else 1}"/>'
        )
        out.append(
            f'<text x="{pad_left - 6:.1f}" y="{y + fs * 0.35:.1f}" text-anchor="end" '
            f'fill="#5f6b72">{_fmt(v)}</text>'
        )
        v += step
    base_y = pad_top + plot_h
    x_step = max(int(nice_step(x_span, ticks=min(6, max(x_span, 1)))), 1)
    for i in range(0, n, x_step):
        xx = px(i)
        out.append(
            f'<line x1="{xx:.1f}" x2="{xx:.1f}" y1="{base_y:.1f}" y2="{base_y + 4:.1f}" '
            'stroke="#9aa5ab"/>'
        )
        out.append(
            f'<text x="{xx:.1f}" y="{base_y + 6 + fs:.1f}" text-anchor="middle" '
            f'fill="#5f6b72">{i + x_start}</text>'
        )
    if x_label:
        out.append(
            f'<text x="{pad_left + plot_w / 2:.1f}" y="{base_y + 8 + 2 * fs + 2:.1f}" '
            f'text-anchor="middle" fill="#5f6b72">{escape(x_label)}</text>'
        )
    for k, s in enumerate(series):
        color = PALETTE[k % len(PALETTE)]
        dash = DASHES[k % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        kept, idx = thin(list(s.values), max_points)
        points = [
            f"{px(i):.1f},{py(val):.1f}"
            for i, val in zip(idx, kept, strict=True)
            if val is not None
        ]
        if len(points) == 1:
            cx, cy = points[0].split(",")
            out.append(f'<circle cx="{cx}" cy="{cy}" r="2.5" fill="{color}"/>')
        elif points:
            out.append(
                f'<polyline fill="none" stroke="{color}" stroke-width="2" '
                f'stroke-linejoin="round" stroke-linecap="round"{dash_attr} '
                f'points="{" ".join(points)}"><title>{escape(s.label)}</title></polyline>'
            )
    legend_top = base_y + x_axis_h + 6
    for k, label, lx, lrow in items:
        color = PALETTE[k % len(PALETTE)]
        dash = DASHES[k % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        ly = legend_top + lrow * (fs + 8) + fs / 2
        out.append(
            f'<line x1="{lx:.1f}" x2="{lx + 16:.1f}" y1="{ly:.1f}" y2="{ly:.1f}" '
            f'stroke="{color}" stroke-width="3"{dash_attr}/>'
        )
        out.append(
            f'<text x="{lx + 21:.1f}" y="{ly + fs * 0.35:.1f}" fill="#1d2327">{escape(label)}</text>'
        )
    out.append("</svg>")
    return "".join(out)
