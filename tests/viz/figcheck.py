"""How a rendered figure is read back and judged, as a reader at the docs site's width would judge it.

Shared by the figure tests (`tests/viz/test_figures.py`, `tests/viz/test_viz_program.py`): `render` builds and
draws a figure on the Agg backend, spying on the texts matplotlib really draws, and `problems` lists
everything a reader would trip over:
- it is blank, or a black blob of ink;
- two pieces of text overlap (their rendered boxes intersect by more than `OVERLAP_PX`);
- a text is smaller than `MIN_PT` points at the figure's own size;
- a label drawn inside a box (a tile, a device cell, an op) leaves that box;
- the same series has several colours across the panels of a figure;
- it is wider than `MAX_WIDTH_IN`, draws more than `MAX_TEXTS` texts, or took over `MAX_S` seconds of CPU
  (CPU, not wall time: the test machine is shared, and other processes' load is not the figure's cost).
"""
import matplotlib

matplotlib.use("Agg")

import re
import time

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.patches import Patch
from matplotlib.text import Text

MIN_PT = 7         # smallest readable font size, in points at the figure's size
OVERLAP_PX = 2     # two texts may touch by this much (antialiasing, tight boxes)
MAX_S = 2.0        # CPU seconds to build and render one figure
MAX_WIDTH_IN = 9   # the docs site's content column (~800 px at a 1280 px window; PNGs shown at figure dpi):
                   # a wider figure shrinks there, and its 7 pt text with it (10.6 in read at ~70 %, issue 15)
MAX_TEXTS = 1500   # more labels than anyone reads: the figure should summarise


# ---- how a figure is read back ------------------------------------------------------------------

def render(build):
    "Build and draw a figure; return it, the texts actually drawn, and the CPU seconds it took."
    drawn, original = [], Text.draw

    def spy(self, renderer):
        if self.get_visible() and self.get_text().strip(): drawn.append(self)   # annotations with text too
        return original(self, renderer)

    Text.draw = spy
    try:
        t0 = time.process_time()
        fig = build()
        if not hasattr(fig.canvas, "buffer_rgba"): FigureCanvasAgg(fig)   # a bare Figure (the CLI's)
        fig.canvas.draw()
        took = time.process_time() - t0
    finally:
        Text.draw = original
    return fig, drawn, took


def extent(fig, t):
    "The box of text `t` in pixels, cut to its clip box (a clipped-off text has none)."
    box = t.get_window_extent(fig.canvas.get_renderer())
    if t.get_clip_on() and t.get_clip_box() is not None:
        c = t.get_clip_box()
        x0, y0, x1, y1 = max(box.x0, c.x0), max(box.y0, c.y0), min(box.x1, c.x1), min(box.y1, c.y1)
        if x1 <= x0 or y1 <= y0: return None
        return matplotlib.transforms.Bbox([[x0, y0], [x1, y1]])
    return box


def overlaps(fig, texts):
    "Pairs of drawn texts whose boxes intersect by more than `OVERLAP_PX` both ways."
    boxes = [(t, extent(fig, t)) for t in texts]
    boxes = [(t, b) for t, b in boxes if b is not None and b.width > 0 and b.height > 0]
    if not boxes: return []
    a = np.array([b.extents for _, b in boxes])          # x0, y0, x1, y1
    w = np.minimum(a[:, None, 2], a[None, :, 2]) - np.maximum(a[:, None, 0], a[None, :, 0])
    h = np.minimum(a[:, None, 3], a[None, :, 3]) - np.maximum(a[:, None, 1], a[None, :, 1])
    i, j = np.nonzero(np.triu((w > OVERLAP_PX) & (h > OVERLAP_PX), 1))
    return [(boxes[x][0].get_text(), boxes[y][0].get_text()) for x, y in zip(i, j)]


def overflows(fig, texts):
    "Texts drawn in a box (the smallest filled patch of their axes holding their anchor) that leave the box."
    out, renderer = [], fig.canvas.get_renderer()
    for ax in fig.axes:
        patches = [p for p in ax.patches if p.get_visible() and p.get_fill()]
        if not patches: continue
        ext = np.array([p.get_window_extent(renderer).extents for p in patches])
        area = (ext[:, 2] - ext[:, 0]) * (ext[:, 3] - ext[:, 1])
        for t in (t for t in texts if t.axes is ax):
            x, y = t.get_transform().transform(t.get_unitless_position())
            near = np.nonzero((ext[:, 0] <= x) & (x <= ext[:, 2]) & (ext[:, 1] <= y) & (y <= ext[:, 3]))[0]
            holders = [k for k in near[np.argsort(area[near])] if patches[k].contains_point((x, y))]
            if not holders: continue
            p, b = patches[holders[0]], t.get_window_extent(renderer)
            inner = [(b.x0 + 1.5, b.y0 + 1.5), (b.x0 + 1.5, b.y1 - 1.5), (b.x1 - 1.5, b.y0 + 1.5), (b.x1 - 1.5, b.y1 - 1.5)]
            if not all(p.contains_point(c) for c in inner): out.append(t.get_text())
    return out


def ink(fig):
    "The share of pixels that differ from the figure's background, and the share that are near black."
    rgb = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int)
    bg = (np.array(matplotlib.colors.to_rgb(fig.get_facecolor())) * 255).round().astype(int)
    return (np.abs(rgb - bg).sum(-1) > 30).mean(), (rgb.max(-1) < 60).mean()


def series_colours(fig):
    "Legend label (without a leading step number) -> the set of colours it has across the figure's legends."
    out = {}
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is None: continue
        for text, handle in zip(leg.get_texts(), leg.legend_handles):
            if not isinstance(handle, Patch): continue
            name = re.sub(r"^\d+\.\s*", "", text.get_text())
            out.setdefault(name, set()).add(matplotlib.colors.to_hex(handle.get_facecolor()))
    return out


def problems(fig, texts, took) -> list[str]:
    "Everything a reader would trip over in a rendered figure."
    if len(texts) > MAX_TEXTS: return [f"{len(texts)} texts drawn (> {MAX_TEXTS}: summarise instead), {took:.1f} s of CPU"]
    out = []
    drawn, black = ink(fig)
    if drawn < 0.005: out.append(f"blank: {drawn:.2%} of pixels drawn")
    if black > 0.25: out.append(f"a black blob: {black:.0%} of pixels near black")
    if over := overlaps(fig, texts): out.append(f"{len(over)} overlapping text pairs, e.g. {over[:3]}")
    if tiny := sorted({(t.get_fontsize(), t.get_text()[:30]) for t in texts if t.get_fontsize() < MIN_PT - 1e-9}):
        out.append(f"{len(tiny)} texts under {MIN_PT} pt, e.g. {tiny[:3]}")
    if spill := overflows(fig, texts): out.append(f"{len(spill)} labels overflow their boxes, e.g. {spill[:3]}")
    if mixed := {k: v for k, v in series_colours(fig).items() if len(v) > 1}: out.append(f"series with several colours: {mixed}")
    if fig.get_figwidth() > MAX_WIDTH_IN: out.append(f"{fig.get_figwidth():.1f} in wide (> {MAX_WIDTH_IN})")
    if took > MAX_S: out.append(f"took {took:.1f} s of CPU (> {MAX_S})")
    return out


def assert_reads(build, what: str = ""):
    "Render `build()` and fail with every problem found; return the figure, its drawn texts and its CPU seconds."
    fig, texts, took = render(build)
    assert not (found := problems(fig, texts, took)), f"{what}: " + "; ".join(found)
    return fig, texts, took
