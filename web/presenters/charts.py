"""A small line chart drawn as inline SVG, in pure Python (no Django, no JavaScript).

>>> svg = line_chart([Series("Ann", [1000, 1052, 980]), Series("Bob", [1000, 948, 1020])])
>>> svg.startswith("<svg") and "Ann" in svg and "<polyline" in svg
True

Values below zero (chips won, luck) get a y axis on both sides of a zero line:

>>> ">-50<" in line_chart([Series("Ann", [0, 120, -40, 60])], title="Chips won")
True

The chart is sized by its ``viewBox`` so it scales to the width of its container;
the default size reads well on a 375-pixel phone at one to one. Text is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

# Distinct on white and for the common colour-vision deficiencies, with dash patterns
# from the fifth series on so no two lines look alike.
PALETTE = (
    "#0072b2",
    "#d55e00",
    "#009e73",
    "#cc79a7",
    "#e69f00",
    "#56b4e9",
    "#7a5c00",
    "#333333",
)
DASHES = ("", "", "", "", "6 3", "2 3", "8 3 2 3", "4 4")


@dataclass(frozen=True)
class Series:
    label: str
    values: Sequence[float | None]  # one per x; None leaves a gap
    note: str = ""  # shown after the label in the legend, e.g. the last value


def nice_step(span: float, ticks: int = 4) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about ``ticks`` steps.

    >>> nice_step(3000), nice_step(7), nice_step(0)
    (1000, 2, 1)
    """
    if span <= 0:
        return 1
    raw = span / max(ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * power:
            step = m * power
            return int(step) if step == int(step) else step
    return 10 * power  # pragma: no cover - the loop always returns


def _fmt(value: float) -> str:
    if abs(value) >= 10000 and value % 1000 == 0:
        return f"{int(value) // 1000}k"
    return f"{int(value):,}" if value == int(value) else f"{value:g}"


def thin(values: Sequence, max_points: int) -> tuple[list, list[int]]:
    """At most ``max_points`` of ``values`` evenly spread (first and last kept), and
    their indices, so that a season of thousands of hands stays a small SVG.

    >>> thin([1, 2, 3, 4, 5, 6, 7], 4)
    ([1, 3, 5, 7], [0, 2, 4, 6])
    """
    n = len(values)
    if n <= max_points or max_points < 2:
        return list(values), list(range(n))
    step = (n - 1) / (max_points - 1)
    idx = sorted({round(k * step) for k in range(max_points)})
    return [values[i] for i in idx], idx


def _text_width(text: str, size: float) -> float:
    return len(text) * size * 0.58


def line_chart(
    series: Sequence[Series],
    *,
    width: int = 400,
    height: int = 230,
    x_start: int = 0,
    x_label: str = "",
    title: str = "",
    markers: Sequence[tuple[int, str]] = (),
    font_size: float = 11,
    include_zero: bool = False,
    max_points: int | None = None,
) -> str:
    """An SVG line chart of ``series`` over x = ``x_start``, ``x_start + 1``, ...

    ``markers`` are labelled vertical guides at x positions (e.g. where the stakes
    rise). The legend sits under the plot and wraps to as many rows as it needs.
    The y axis zooms in on values that all sit high above zero, unless
    ``include_zero``; values below zero get an axis on both sides of a zero line.
    ``max_points`` thins long series (see :func:`thin`).
    """
    n = max((len(s.values) for s in series), default=0)
    fs = font_size
    pad_left = 12 + _text_width("-00,000", fs)
    pad_right = 10
    pad_top = 10 + (fs + 6 if title else 0)
    plot_w = width - pad_left - pad_right

    # Legend layout first: it decides the total height.
    items = []
    x = pad_left
    row = 0
    for k, s in enumerate(series):
        label = s.label + (f" {s.note}" if s.note else "")
        w = 22 + _text_width(label, fs) + 14
        if x + w > width - pad_right and x > pad_left:
            row += 1
            x = pad_left
        items.append((k, label, x, row))
        x += w
    legend_rows = row + 1 if series else 0
    legend_h = legend_rows * (fs + 8)
    x_axis_h = fs + 8 + (fs + 4 if x_label else 0)
    plot_h = height - pad_top - x_axis_h - legend_h - 6
    plot_h = max(plot_h, 80)
    total_h = pad_top + plot_h + x_axis_h + legend_h + 6

    values = [v for s in series for v in s.values if v is not None]
    top = max(values, default=0)
    low = min(values, default=0)
    # Start at zero unless every value sits high above it: then zoom in, so that the
    # small swings of the first hands still show. Below zero: both sides of a zero line.
    if low < 0:
        top = max(top, 0)
        step = nice_step((top - low) or 1)
        y_min = step * math.floor(low / step)
    elif low > 0 and low > top * 0.6 and not include_zero:
        step = nice_step((top - low) or 1)
        y_min = step * math.floor(low / step)
        if y_min == low:
            y_min -= step
    else:
        step = nice_step(top or 1)
        y_min = 0
    y_max = y_min + step * max(math.ceil(((top or 1) - y_min) / step), 1)
    if low < 0 and top <= 0:
        y_max = 0
    x_span = max(n - 1, 1)

    def px(i: int) -> float:
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
    # Horizontal grid and y labels; the baseline (or the zero line) is darker.
    axis = 0 if y_min < 0 else y_min
    v = float(y_min)
    while v <= y_max + 1e-9:
        y = py(v)
        out.append(
            f'<line x1="{pad_left:.1f}" x2="{width - pad_right}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="{"#9aa5ab" if v == axis else "#e3e7ea"}" '
            f'stroke-width="{1.5 if v == axis and y_min < 0 else 1}"/>'
        )
        out.append(
            f'<text x="{pad_left - 6:.1f}" y="{y + fs * 0.35:.1f}" text-anchor="end" '
            f'fill="#5f6b72">{_fmt(v)}</text>'
        )
        v += step
    # Vertical markers.
    for mx, label in markers:
        if 0 <= mx - x_start <= x_span:
            xx = px(mx - x_start)
            out.append(
                f'<line x1="{xx:.1f}" x2="{xx:.1f}" y1="{pad_top}" y2="{pad_top + plot_h:.1f}" '
                'stroke="#c9d1d6" stroke-dasharray="2 3"/>'
            )
            out.append(
                f'<text x="{xx + 3:.1f}" y="{pad_top + fs:.1f}" fill="#5f6b72" '
                f'font-size="{fs - 2}">{escape(label)}</text>'
            )
    # X ticks.
    x_step = int(nice_step(x_span, ticks=min(6, max(x_span, 1))))
    x_step = max(x_step, 1)
    base_y = pad_top + plot_h
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
    # Lines.
    for k, s in enumerate(series):
        color = PALETTE[k % len(PALETTE)]
        dash = DASHES[k % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        run: list[str] = []
        runs = []
        kept, idx = thin(list(s.values), max_points) if max_points else (s.values, range(n))
        for i, val in zip(idx, kept, strict=False):
            if val is None:
                if run:
                    runs.append(run)
                run = []
                continue
            run.append(f"{px(i):.1f},{py(val):.1f}")
        if run:
            runs.append(run)
        for points in runs:
            if len(points) == 1:
                cx, cy = points[0].split(",")
                out.append(f'<circle cx="{cx}" cy="{cy}" r="2.5" fill="{color}"/>')
            else:
                out.append(
                    f'<polyline fill="none" stroke="{color}" stroke-width="2" '
                    f'stroke-linejoin="round" stroke-linecap="round"{dash_attr} '
                    f'points="{" ".join(points)}"><title>{escape(s.label)}</title></polyline>'
                )
        last = next(
            ((i, val) for i, val in reversed(list(enumerate(s.values))) if val is not None),
            None,
        )
        if last is not None and n > 1:
            out.append(
                f'<circle cx="{px(last[0]):.1f}" cy="{py(last[1]):.1f}" r="2.5" fill="{color}"/>'
            )
    # Legend.
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
