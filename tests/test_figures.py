"""Every chapter's figures, rendered and read back as a reader sees them (Agg backend).

Each figure function of `shardnb.viz`, `shardnb.viz_plan` and `shardnb.viz_program` is drawn on the
inputs its chapter uses, the large cases a user hits on the command line, random shardings and
reshards, and real JAX programs (the last three drawn from the run's seed). Only the texts matplotlib
really draws are read (spied on `Text.draw`), at their rendered size, and each figure is checked:
- it is not blank, and not a black blob of ink;
- no two pieces of text overlap (their rendered boxes intersect by more than `OVERLAP_PX`);
- no text is smaller than `MIN_PT` points at the figure's own size;
- a label drawn inside a box (a tile, a device cell, an op) fits inside that box;
- the same series has the same colour in every panel of a figure;
- it is built and rendered in under `MAX_S` seconds of CPU time (CPU, not wall time: the test
  machine is shared, and other processes' load is not the figure's cost).
"""
import matplotlib

matplotlib.use("Agg")

import random
import re
import time

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.patches import Patch
from matplotlib.text import Text

from shardnb.cli import plan_figure, sharding_figure
from shardnb.interop import from_grid_axes, from_mindspore_strategy
from shardnb.mesh import AxisRef, Mesh, ShardingError
from shardnb.program import parse_module
from shardnb.reshard import plan_reshard
from shardnb.sharding import TensorSharding, shard_array
from shardnb.syntax import parse_mesh, parse_sharding
from shardnb import passes
from shardnb.viz import draw_device_grid, draw_mesh, draw_sharding, draw_sub_axes, element_labels
from shardnb.viz_plan import draw_cut_pattern, draw_plan_steps, draw_plan_timeline
from shardnb.viz_program import draw_pass, draw_program

MIN_PT = 7         # smallest readable font size, in points at the figure's size
OVERLAP_PX = 2     # two texts may touch by this much (antialiasing, tight boxes)
MAX_S = 2.0        # CPU seconds to build and render one figure
MAX_WIDTH_IN = 13  # wider figures shrink too much at the docs site's width
MAX_TEXTS = 1500   # more labels than anyone reads: the figure should summarise


# ---- what is drawn ------------------------------------------------------------------------------

def _grid(*sizes): return Mesh({f"g{i}": n for i, n in enumerate(sizes)})
def _on(mesh, *dims): return TensorSharding(mesh, [[f"g{a}" for a in d] for d in dims])


def _sh(text, mesh_text, name="m"): return parse_sharding(text, {name: parse_mesh(mesh_text)})


def _two_panels(draw, *args_list, figsize=(13, 3)):
    "The chapters' side-by-side composition: `draw(*args, ax=...)` in each of two panels."
    fig, axes = plt.subplots(1, len(args_list), figsize=figsize)
    for ax, args in zip(axes, args_list): draw(*args, ax=ax)
    fig.tight_layout()
    return fig


def _cut_patterns():
    "06a's three cut patterns in one row."
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.4))
    for ax, (shape, m, n) in zip(axes, [((6, 6), 2, 3), ((6, 6), 2, 6), ((10, 14), 3, 4)]):
        draw_cut_pattern(shape, (m, n), (n, m), ax=ax)
    fig.tight_layout()
    return fig


def _long_plans():
    g4 = _grid(2, 2, 2, 2)
    src, dst = _on(g4, [3, 2], [], [0, 1]), _on(g4, [0], [1, 2], [])
    return [(plan_reshard(src, dst, (16, 16, 16), planner="basis"),), (plan_reshard(src, dst, (16, 16, 16), objective="bytes"),)]


def _mindspore_w():
    _, w = from_mindspore_strategy([[2, 1], [1, 4]], "ik,kj", device_num=8)
    return draw_device_grid(shard_array(element_labels((4, 8)), w), (4, 8), sharding=w, figsize=(7, 3.2), max_items=4)


PROGRAM = '''
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}) -> tensor<8x8xf32> {
  %c = stablehlo.constant dense<1.000000e+00> : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8x8xf32>
  %1 = stablehlo.multiply %0, %c : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}'''
LOOP = '''
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0:2 = stablehlo.while(%i = %arg0, %j = %arg1) : tensor<8xf32>, tensor<8xf32>
   cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %t = stablehlo.add %i, %j : tensor<8xf32>
    stablehlo.return %t, %j : tensor<8xf32>, tensor<8xf32>
  }
  return %0#0 : tensor<8xf32>
}'''
MANUAL = '''
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"y", "x"} (%a: tensor<4x8xf32>) {
    %1 = stablehlo.add %a, %a : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}'''
CONSTS = '''
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<1.000000e+00> : tensor<8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8xf32>
  %1 = stablehlo.multiply %arg0, %c : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}'''
GROUPS = '''
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
  %1 = stablehlo.multiply %0, %0 : tensor<8xf32>
  sdy.sharding_group %0 group_id=3 : tensor<8xf32>
  sdy.sharding_group %0 group_id=5 : tensor<8xf32>
  sdy.sharding_group %1 group_id=5 : tensor<8xf32>
  return %1 : tensor<8xf32>
}'''

XYZ = '<["x"=2, "y"=4, "z"=2]>'
FIGURES = {
    # 04_viz
    "mesh 2x4x2": lambda: draw_mesh(parse_mesh(XYZ)),
    "mesh 16x16": lambda: draw_mesh(Mesh({"x": 16, "y": 16})),
    "mesh 8": lambda: draw_mesh(Mesh({"x": 8})),
    "mesh 64x64": lambda: draw_mesh(Mesh({"x": 64, "y": 64})),
    "mesh 16x16x16": lambda: draw_mesh(Mesh({"x": 16, "y": 16, "z": 16})),
    "sub-axes 2·3·2": lambda: draw_sub_axes(Mesh({"x": 12}), [AxisRef("x", 1, 2), AxisRef("x", 2, 3), AxisRef("x", 6, 2)]),
    "sub-axes of 64": lambda: draw_sub_axes(Mesh({"x": 64}), [AxisRef("x", 1, 8), AxisRef("x", 8, 8)]),
    "sharding 2x2": lambda: draw_sharding(_sh('<@m, [{"x"}, {"y"}]>', '<["x"=2, "y"=2]>'), (2, 2), figsize=(4, 3.5)),
    "sharding z,y": lambda: draw_sharding(_sh('<@m, [{"x"}, {"z", "y"}]>', XYZ), (4, 8)),
    "sharding replicated": lambda: draw_sharding(_sh('<@m, [{"x"}, {?}], replicated={"y"}>', XYZ), (4, 8)),
    "sharding padded 1-d": lambda: draw_sharding(_sh('<@m, [{"x"}]>', '<["x"=4]>'), (6,)),
    "sharding unreduced": lambda: draw_sharding(_sh('<@m, [{"y", ?}p2], unreduced={"x"}>', '<["x"=2, "y"=2]>'), (4,)),
    "sharding 8 replicas": lambda: draw_sharding(_sh('<@m, [{"x"}, {"y":(2)2}]>', '<["x"=2, "y"=8, "z"=2]>'), (4, 8)),
    "sharding rank 3": lambda: draw_sharding(_sh('<@m, [{"x"}p1, {"y"}, {"z", ?}p2]>', '<["w"=6, "x"=2, "y"=4, "z"=2]>'),
                                             (4, 8, 4), figsize=(9, 3.4)),
    "sharding rank 3 padded": lambda: draw_sharding(_sh('<@m, [{"x"}, {"y"}, {"z"}]>', '<["x"=8, "y"=2, "z"=3]>'),
                                                    (7, 3, 8), figsize=(10, 5.5)),
    "sharding 64x64 mesh": lambda: draw_sharding(_sh('<@m, [{"x"}, {"y"}]>', '<["x"=64, "y"=64]>'), (128, 128), figsize=(5, 5)),
    "sharding 64x64 mesh, rows": lambda: draw_sharding(_sh('<@m, [{"x"}, {}]>', '<["x"=64, "y"=64]>'), (64, 64)),
    "sharding mindspore X": lambda: draw_sharding(from_mindspore_strategy([[2, 1], [1, 4]], "ik,kj", device_num=8)[0],
                                                  (64, 64), figsize=(4, 3.5)),
    "device grid 2x2x2": lambda: draw_device_grid(from_grid_axes("[[0], [1, 2]]", (2, 2, 2)), (4, 8), figsize=(6, 5)),
    "device grid padded": lambda: draw_device_grid(_sh('<@m, [{"x"}, {"y"}]>', '<["x"=2, "y"=2]>'), (3, 5), figsize=(5, 3.5)),
    "device grid simulated": _mindspore_w,
    "device grid 512 devices, 4 tiles": lambda: draw_device_grid(_sh('<@m, [{"x"}, {}]>', '<["x"=4, "y"=128]>'), (8, 8)),
    "device grid 32x32": lambda: draw_device_grid(_sh('<@m, [{"x"}, {"y"}]>', '<["x"=32, "y"=32]>'), (64, 64)),
    # what `shardnb show --png` and `shardnb plan --png` write
    "cli show 64x64 mesh": lambda: sharding_figure(_sh('<@m, [{"x"}, {"y"}]>', '<["x"=64, "y"=64]>'), (128, 128)),
    "cli plan": lambda: plan_figure(plan_reshard(_sh('<@m, [{"x"}, {"y"}]>', '<["x"=2, "y"=4]>'),
                                                 _sh('<@m, [{"y"}, {"x"}]>', '<["x"=2, "y"=4]>'), (8, 8)), (8, 8)),
    # 06a_reshard_figures
    "plan steps swap": lambda: draw_plan_steps(plan_reshard(_on(_grid(2, 3), [0, 1]), _on(_grid(2, 3), [1, 0]), (6,),
                                                            planner="basis"), np.array([11, 12, 13, 21, 22, 23])),
    "plan steps 4x8": lambda: draw_plan_steps(plan_reshard(_on(_grid(2, 2, 2), [0], [1, 2]), _on(_grid(2, 2, 2), [0], [2]),
                                                           (4, 8), planner="basis"), max_items=4),
    "plan steps 6x6 on 2x6": lambda: draw_plan_steps(plan_reshard(_on(_grid(2, 6), [0], [1]), _on(_grid(2, 6), [1], [0]),
                                                                  (6, 6), planner="basis"), max_items=3),
    "plan timeline": lambda: draw_plan_timeline(_long_plans()[0][0]),
    "plan timelines side by side": lambda: _two_panels(draw_plan_timeline, *_long_plans()),
    "cut pattern": lambda: draw_cut_pattern((10, 14), (3, 4), (4, 3)),
    "cut patterns, 3 panels": _cut_patterns,
    # 10a_program_figures
    "program": lambda: draw_program(parse_module(PROGRAM), title="@main"),
    "program manual": lambda: draw_program(parse_module(MANUAL)),
    "pass add_data_flow_edges": lambda: draw_pass(passes.add_data_flow_edges, parse_module(LOOP)),
    "pass constant_splitter": lambda: draw_pass(passes.constant_splitter, parse_module(CONSTS)),
    "pass manual_axes_cleanup": lambda: draw_pass(passes.manual_axes_cleanup, parse_module(MANUAL)),
    "pass sharding_group_import": lambda: draw_pass(passes.sharding_group_import, parse_module(GROUPS)),
}


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


# ---- the checks ---------------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


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


@pytest.mark.parametrize("name", FIGURES)
def test_figure_reads(name):
    fig, texts, took = render(FIGURES[name])
    assert not (found := problems(fig, texts, took)), f"{name}: " + "; ".join(found)


def test_random_shardings_read(seed):
    "Random shardings (sub-axes, padding, replicated and unreduced axes, up to 64 devices), as tiles, device grids and meshes."
    from tests.test_fuzz import rand_mesh, rand_sharding
    rng = random.Random(f"{seed}/figures")
    for _ in range(8):
        s = rand_sharding(rng, rand_mesh(rng, 64))
        shape = tuple(rng.choice([1, 2, 3, 5, 7, 8, 12, 13, 64]) for _ in range(s.rank if not s.mesh.is_maximal else 1))
        for name, build in [("draw_sharding", lambda: draw_sharding(s, shape)), ("draw_device_grid", lambda: draw_device_grid(s, shape)),
                            ("draw_mesh", lambda: draw_mesh(s.mesh))]:
            try: fig, texts, took = render(build)
            except ShardingError as e:
                assert "max_panels" in str(e); continue
            assert not (found := problems(fig, texts, took)), f"{name}({s}, {shape}) [seed {seed}]: " + "; ".join(found)
            plt.close("all")


def test_random_plans_read(seed):
    "Random reshards (up to 16 devices) drawn step by step and as byte timelines."
    from tests.test_fuzz import rand_mesh, rand_sharding
    rng = random.Random(f"{seed}/plan figures")
    done = 0
    while done < 4:
        mesh = rand_mesh(rng, 16)
        if mesh.is_maximal: continue
        rank = rng.randint(1, 2)
        src, dst = (rand_sharding(rng, mesh, rank, unreduced=False, hints=False) for _ in range(2))
        shape = tuple(rng.choice([2, 3, 4, 6, 8, 12]) for _ in range(rank))
        plan = plan_reshard(src, dst, shape)
        for name, build in [("draw_plan_steps", lambda: draw_plan_steps(plan)), ("draw_plan_timeline", lambda: draw_plan_timeline(plan))]:
            fig, texts, took = render(build)
            assert not (found := problems(fig, texts, took)), f"{name}({src} -> {dst}, {shape}) [seed {seed}]: " + "; ".join(found)
            plt.close("all")
        done += 1


from tests.jax_corpus import CORPUS_NAMES, jax_corpus   # noqa: E402,F401  (jax_corpus is a session fixture)


def test_real_programs_read(jax_corpus, seed):
    "JAX lowerings drawn whole: a few drawn from the seed, plus a long chain (folds into bands) and a 28-function module (summarised)."
    names = random.Random(f"{seed}/programs").sample(CORPUS_NAMES, 6) + ["mlp_act_sigmoid", "random_truncated_normal_gamma"]
    for name in (n for n in names if n in jax_corpus):
        fig, texts, took = render(lambda: draw_program(parse_module(jax_corpus[name])))
        assert not (found := problems(fig, texts, took)), f"{name} [seed {seed}]: " + "; ".join(found)
        plt.close("all")


def test_checks_catch_bad_figures():
    "The checks themselves: overlapping, tiny and overflowing text and a blank figure are all reported."
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.add_patch(matplotlib.patches.Rectangle((0.4, 0.4), 0.2, 0.2))
    ax.text(0.5, 0.5, "a label far wider than its box", ha="center", fontsize=6)
    ax.text(0.5, 0.52, "on top", ha="center")
    fig2, texts, _ = render(lambda: fig)
    assert overlaps(fig2, texts) and overflows(fig2, texts) == ["a label far wider than its box"]
    assert {t.get_text(): t.get_fontsize() < MIN_PT for t in texts if t.get_text()[0].isalpha()} == \
        {"a label far wider than its box": True, "on top": False}
    assert ink(render(lambda: plt.figure(figsize=(2, 2)))[0])[0] == 0


def test_rank3_caption_clears_the_panels():
    "Found by seed 558516953: a two-line caption under one rank-3 panel overlapped its tick labels."
    from shardnb import Mesh, parse_sharding
    s = parse_sharding('<@mesh, [{"a b":(1)2}, {"a b":(2)2, ?}, {}]>', {"mesh": Mesh({"a b": 4})})
    fig, texts, took = render(lambda: draw_sharding(s, (1, 5, 5)))
    assert not (found := problems(fig, texts, took)), "; ".join(found)
    plt.close("all")
