"""Charts for the benchmark summaries as plain SVG, written without a
plotting library (none is among the project's Debian dependencies).

  bar_chart(title, rows, unit, ref=None, log=False)  horizontal bars
  line_chart(title, series, xlabel, ylabel)          log-log lines

Both return the SVG document as a string.
"""
import math
from xml.sax.saxutils import escape

COLOURS = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb"]


def _text(x, y, s, size=11, anchor="start", weight="normal"):
    return ('<text x="%.1f" y="%.1f" font-family="sans-serif" font-size="%d" text-anchor="%s" '
            'font-weight="%s">%s</text>' % (x, y, size, anchor, weight, escape(str(s))))


def bar_chart(title, rows, unit, ref=None, log=False):
    """rows: [(label, value, colour_index)]. ref: a value drawn as a dashed
    line (an aim). log: a logarithmic axis (values > 0)."""
    label_w, bar_w, row_h, top = 260, 420, 16, 40
    vals = [v for _, v, _ in rows if v is not None and (v > 0 or not log)]
    hi, lo = max(vals + ([ref] if ref else []) + [1e-12]), 0.0
    if log:  # around the values and the aim, or 1 where there is neither
        pts = vals + ([ref] if ref else []) or [1.0]
        lo, hi = math.log10(min(pts)) - 0.05, math.log10(max(pts)) + 0.05

    def pos(v):
        if log:
            return label_w + bar_w * (math.log10(v) - lo) / (hi - lo)
        return label_w + bar_w * v / hi

    h = top + row_h * len(rows) + 30
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">' % (label_w + bar_w + 80, h),
           '<rect width="100%" height="100%" fill="white"/>', _text(10, 20, title, 13, weight="bold")]
    for i, (label, v, c) in enumerate(rows):
        y = top + i * row_h
        out.append(_text(label_w - 6, y + 11, label, 10, "end"))
        if v is None or (log and v <= 0):
            out.append(_text(label_w + 4, y + 11, "—", 10))
            continue
        x0 = pos(10 ** lo) if log else label_w
        out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="%s"/>' % (
            x0, y + 2, max(pos(v) - x0, 1), row_h - 4, COLOURS[c % len(COLOURS)]))
        out.append(_text(pos(v) + 4, y + 11, "%.3g" % v, 10))
    if ref:
        x = pos(ref)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black" stroke-dasharray="4,3"/>' % (
            x, top - 4, x, top + row_h * len(rows)))
        out.append(_text(x, top - 8, "aim %g" % ref, 10, "middle"))
    out.append(_text(label_w, h - 8, unit + (" (log scale)" if log else ""), 10))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def line_chart(title, series, xlabel, ylabel):
    """series: [(name, [(x, y), ...])], drawn on log-log axes (x, y > 0)."""
    W, H, L, B, T, R = 640, 400, 70, 50, 40, 170
    pts = [(x, y) for _, s in series for x, y in s if x > 0 and y > 0]
    if not pts:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n'
    lx = [math.log10(x) for x, _ in pts]
    ly = [math.log10(y) for _, y in pts]
    x0, x1 = math.floor(min(lx)), math.ceil(max(lx))
    y0, y1 = math.floor(min(ly)), math.ceil(max(ly))
    x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)

    def px(x):
        return L + (W - L - R) * (math.log10(x) - x0) / (x1 - x0)

    def py(y):
        return H - B - (H - B - T) * (math.log10(y) - y0) / (y1 - y0)

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>', _text(10, 20, title, 13, weight="bold"),
           '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>' % (L, T, W - L - R, H - B - T)]
    for e in range(x0, x1 + 1):
        out.append(_text(px(10 ** e), H - B + 16, "1e%d" % e, 10, "middle"))
    for e in range(y0, y1 + 1):
        out.append(_text(L - 6, py(10 ** e) + 4, "1e%d" % e, 10, "end"))
    out.append(_text((L + W - R) / 2, H - 10, xlabel, 11, "middle"))
    out.append(_text(12, T - 8, ylabel, 11))
    for i, (name, s) in enumerate(series):
        c = COLOURS[i % len(COLOURS)]
        s = sorted((x, y) for x, y in s if x > 0 and y > 0)
        if not s:
            continue
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (
            c, " ".join("%.1f,%.1f" % (px(x), py(y)) for x, y in s)))
        for x, y in s:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (px(x), py(y), c))
        out.append('<rect x="%d" y="%d" width="12" height="4" fill="%s"/>' % (W - R + 10, T + 10 + 18 * i, c))
        out.append(_text(W - R + 28, T + 16 + 18 * i, name, 10))
    out.append("</svg>")
    return "\n".join(out) + "\n"
