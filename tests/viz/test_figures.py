"""Every chapter's figures, rendered and read back as a reader sees them (Agg backend).

Each figure function of `shardnb.viz.layout`, `shardnb.viz.reshard` and `shardnb.viz.program` is drawn on the
inputs its chapter uses, the large cases a user hits on the command line, random shardings and
reshards, and real JAX programs (the last three drawn from the run's seed). `tests/viz/figcheck.py` reads
each one back -- only the texts matplotlib really draws, at their rendered size -- and lists what a
reader would trip over: a blank figure or a black blob, overlapping text, text under `MIN_PT` points,
a label that leaves its box, a series coloured differently in two panels, more than `MAX_S` seconds
of CPU.
"""
import matplotlib

matplotlib.use("Agg")

import functools
import random

import matplotlib.pyplot as plt
import numpy as np
import pytest

from tests.viz.figcheck import MIN_PT, ink, overflows, overlaps, problems, render
from shardnb.cli import plan_figure, sharding_figure
from shardnb.layout.interop import from_grid_axes, from_mindspore_strategy
from shardnb.layout.mesh import AxisRef, Mesh, ShardingError
from shardnb.ir.program import parse_module
from shardnb.shardy.rules import OpShardingRule, parse_op_sharding_rule, plot_rule
from shardnb.reshard.planner import plan_reshard
from shardnb.layout.sharding import TensorSharding, shard_array
from shardnb.layout.syntax import parse_mesh, parse_sharding
from shardnb.shardy import import_passes as passes
from shardnb.viz.layout import draw_device_grid, draw_mesh, draw_sharding, draw_sub_axes, element_labels
from shardnb.viz.reshard import draw_cut_pattern, draw_plan_steps, draw_plan_timeline
from shardnb.viz.program import draw_pass, draw_program

# ---- what is drawn ------------------------------------------------------------------------------

def _grid(*sizes): return Mesh({f"g{i}": n for i, n in enumerate(sizes)})
def _on(mesh, *dims): return TensorSharding(mesh, [[f"g{a}" for a in d] for d in dims])


def _sh(text, mesh_text, name="m"): return parse_sharding(text, {name: parse_mesh(mesh_text)})


def _two_panels(draw, *args_list, figsize=(9, 5.6), across=False):
    "The chapters' composition of two panels, one under the other (or side by side): `draw(*args, ax=...)` in each."
    fig, axes = plt.subplots(1, len(args_list), figsize=figsize) if across else plt.subplots(len(args_list), 1, figsize=figsize)
    for ax, args in zip(axes, args_list): draw(*args, ax=ax)
    fig.tight_layout()
    return fig


def _cut_patterns():
    "06a's three cut patterns: the two 6x6 side by side, the 10x14 under them."
    fig = plt.figure(figsize=(9, 8.2))
    axes = [fig.add_subplot(2, 2, 1), fig.add_subplot(2, 2, 2), fig.add_subplot(2, 1, 2)]
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


def _conv_gather_rules():
    "the op sharding rule chapter's opening: the convolution's and the embedding gather's rules, one above the other."
    fig, axs = plt.subplots(2, 1, figsize=(7, 4.2))
    plot_rule(parse_op_sharding_rule("#sdy.op_sharding_rule<([i, j, k, l], [n, o, l, m])->([i, j, k, m]) "
                                     "{i=8, j=16, k=16, l=3, m=32, n=1, o=1} reduction={l} permutation={j, k}>"), axs[0], "convolution")
    plot_rule(parse_op_sharding_rule("#sdy.op_sharding_rule<([k, j], [i, l])->([i, j]) {i=6, j=32, k=10, l=1} reduction={k} "
                                     "need_replication={l}>"), axs[1], "gather")
    fig.tight_layout()
    return fig


def _mesh_and_sub_axes():
    "the meshes chapter's opening: a 2x4 mesh beside the three sub-axes of \"y\"=8."
    fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.2), gridspec_kw={"width_ratios": [1, 1.25]})
    draw_mesh(parse_mesh('<["x"=2, "y"=4], device_ids=[0, 1, 2, 3, 7, 6, 5, 4]>'), a)
    draw_sub_axes(Mesh({"y": 8}), [AxisRef("y", pre, 2) for pre in (1, 2, 4)], ax=b)
    return fig


def _tiles_and_grid(text, mesh_text, shape, max_items, ratios=(1, 1), height=4.4):
    "the shardings chapter's figures: a sharding as tiles beside the device grid of the same sharding."
    s = _sh(text, mesh_text)
    fig, (a, b) = plt.subplots(1, 2, figsize=(9, height), gridspec_kw={"width_ratios": list(ratios)})
    draw_sharding(s, shape, a); draw_device_grid(s, shape, ax=b, max_items=max_items)
    return fig


def _notations():
    "the interop chapter's opening: one layout beside its text in each notation, each name over its text."
    one = _sh('<@m, [{"x"}, {"y"}]>', '<["x"=2, "y"=3]>')
    notations = {"Shardy": str(one), "JAX PartitionSpec": "P('x', 'y')  on Mesh(devices (2, 3), ('x', 'y'))",
                 "PyTorch DTensor": "placements (Shard(dim=0), Shard(dim=1))  on DeviceMesh (2, 3)",
                 "MLIR shard dialect": "grid(2x3) split_axes = [[0], [1]]", "MindSpore layout": "device_matrix (2, 3), tensor_map (1, 0)",
                 "MindSpore strategy": "(2, 3)"}
    fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.4), gridspec_kw={"width_ratios": [1, 2.4]})
    draw_sharding(one, (8, 6), a, title="one layout")
    b.axis("off")
    for k, (name, text) in enumerate(notations.items()):
        b.text(0, 1 - k * 0.17, name, fontsize=9, weight="bold", va="top", transform=b.transAxes)
        b.text(0.03, 0.92 - k * 0.17, text, fontsize=8.5, family="monospace", va="top", transform=b.transAxes)
    return fig


def _manual_panels():
    "the Shardy API chapter's manual_computation: the manual axes alone beside the whole in_shardings[0]."
    s_in = _sh('<@m, [{"data"}, {"model", ?}]>', '<["data"=2, "model"=2]>')
    manual = TensorSharding(s_in.mesh, [["data"], []], mesh_name=s_in.mesh_name)
    fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.8))
    draw_sharding(manual, (16, 32), a, title='manual {"data"}: each body gets tensor<8x32xf32>')
    draw_sharding(s_in, (16, 32), b, title='in_shardings[0]: "model" free inside the body')
    return fig


RULES = '''
func.func @main(%a: tensor<16x4xf32>, %b: tensor<4x8xf32>) -> tensor<16x4xf32> {
  %0 = stablehlo.reshape %a : (tensor<16x4xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x4xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>
  return %a : tensor<16x4xf32>
}'''


def _rules_side_by_side():
    "the op sharding rule chapter's pair of rules: a matmul's beside a reshape's."
    from shardnb.shardy.rules import sharding_rule
    reshape, dot = parse_module(RULES).main.body.ops[:2]
    fig, axs = plt.subplots(1, 2, figsize=(9, 2.6))
    plot_rule(sharding_rule(dot), axs[0], "dot_general 16x4 . 4x8 (k hatched: reduction)")
    plot_rule(sharding_rule(reshape), axs[1], "reshape 16x4 -> 8x8")
    return fig


def _planners_compared():
    "06a's bar charts: bytes over the bound and modelled time of the basis and search planners on a few reshards."
    m = Mesh({"x": 2, "y": 4})
    cases = {"x,y->y,x": ([["x"], ["y"]], [["y"], ["x"]]), "xy,-->-,yx": ([["x", "y"], []], [[], ["y", "x"]]),
             "x,y->yx,-": ([["x"], ["y"]], [["y", "x"], []])}
    rows = []
    for name, (a, b) in cases.items():
        s, d = TensorSharding(m, a), TensorSharding(m, b)
        ps = [plan_reshard(s, d, (1024, 1024), planner="basis"), plan_reshard(s, d, (1024, 1024)), plan_reshard(s, d, (1024, 1024), objective="bytes")]
        rows.append([name] + [(p.cost.max_bytes_received / p.lower_bound_bytes, p.cost.seconds * 1e6) for p in ps])
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.2))
    xs = np.arange(len(rows))
    for k, label in enumerate(["basis", 'search, "time"', 'search, "bytes"']):
        ax1.bar(xs + (k - 1) * 0.27, [r[k + 1][0] for r in rows], 0.27, label=label)
        ax2.bar(xs + (k - 1) * 0.27, [r[k + 1][1] for r in rows], 0.27, label=label)
    for ax, yl in ((ax1, "busiest device bytes / lower bound"), (ax2, "modelled us")):
        ax.set_xticks(xs, [r[0] for r in rows], fontsize=7); ax.set_ylabel(yl); ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


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

EXPORTED = '''
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}) -> tensor<8x6xf32> {
  %c = stablehlo.constant dense<1.000000e+00> : tensor<8x6xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8x6xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x6xf32>
  %2 = stablehlo.multiply %1, %c : tensor<8x6xf32>
  return %2 : tensor<8x6xf32>
}'''


def _propagate(m):
    from shardnb.shardy.propagate import propagate
    return propagate(m)


def _export_passes():
    "the export chapter's figure: a propagated program before and after the export passes."
    from shardnb.shardy.export import EXPORT_PASSES
    from shardnb.shardy.propagate import propagate

    def export(m):
        for p in EXPORT_PASSES: m = p(m)
        return m
    return draw_pass(export, propagate(passes.import_pipeline(parse_module(EXPORTED))), "the export passes")


MATMUL = '''
sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
                %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.tanh %0 : tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}'''


CHAIN = '''sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
                %w: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}p1]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.tanh %0 : tensor<8x16xf32>
  %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<8x16xf32>) -> tensor<8x16x4xf32>
  %3 = stablehlo.reshape %2 : (tensor<8x16x4xf32>) -> tensor<8x64xf32>
  %4 = stablehlo.reshape %3 : (tensor<8x64xf32>) -> tensor<8x16x4xf32>
  %5 = stablehlo.slice %4 [0:8, 0:16, 0:1] : (tensor<8x16x4xf32>) -> tensor<8x16x1xf32>
  %6 = stablehlo.reshape %5 : (tensor<8x16x1xf32>) -> tensor<8x16xf32>
  return %6 : tensor<8x16xf32>
}'''


def _last_round():
    "the propagation chapter's propagation rounds, one figure each: the last (every value sharded) is the widest."
    from shardnb.shardy.propagate import propagation_rounds
    label, m = propagation_rounds(parse_module(CHAIN))[-1]
    return draw_program(m, title=label)


# the program IR chapter's opening: JAX's lowering of an MLP with its relu in a function of its own
MLP_JAX = '''module @jit_mlp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = call @relu(%0) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"data"}, {"model"}]> : tensor<8x32xf32>
    %3 = stablehlo.dot_general %2, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    return %3 : tensor<8x16xf32>
  }
  func.func private @relu(%arg0: tensor<8x32xf32>) -> tensor<8x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x32xf32>
    return %1 : tensor<8x32xf32>
  }
}'''


def _three_views():
    "the figures chapter's opening: one mesh and one sharding as a mesh, as tiles and as device contents."
    mesh = parse_mesh('<["x"=2, "y"=4]>')
    cols = parse_sharding('<@mesh, [{}, {"y"}]>', {"mesh": mesh})
    fig = plt.figure(figsize=(8, 6.4))
    a, b, c = fig.add_subplot(2, 2, 1), fig.add_subplot(2, 2, 2), fig.add_subplot(2, 1, 2)
    draw_mesh(mesh, a); draw_sharding(cols, (4, 8), b); draw_device_grid(cols, (4, 8), ax=c)
    fig.tight_layout()
    return fig


def _opening_plan():
    "06a's opening: rows over all eight devices to columns over \"y\", an all-to-all then an all-gather."
    src, dst = _sh('<@m, [{"x", "y"}, {}]>', '<["x"=2, "y"=4]>'), _sh('<@m, [{}, {"y"}]>', '<["x"=2, "y"=4]>')
    return plan_reshard(src, dst, (8, 8))


XYZ = '<["x"=2, "y"=4, "z"=2]>'
FIGURES = {
    # 04_viz
    "three views of one sharding": _three_views,
    "mesh 2x4x2": lambda: draw_mesh(parse_mesh(XYZ)),
    "mesh 16x16": lambda: draw_mesh(Mesh({"x": 16, "y": 16})),
    "mesh 8": lambda: draw_mesh(Mesh({"x": 8})),
    "mesh 64x64": lambda: draw_mesh(Mesh({"x": 64, "y": 64})),
    "mesh 16x16x16": lambda: draw_mesh(Mesh({"x": 16, "y": 16, "z": 16})),
    "sub-axes 2·3·2": lambda: draw_sub_axes(Mesh({"x": 12}), [AxisRef("x", 1, 2), AxisRef("x", 2, 3), AxisRef("x", 6, 2)]),
    "mesh and sub-axes (the meshes chapter's opening)": _mesh_and_sub_axes,
    "tiles and device grid (01)": lambda: _tiles_and_grid('<@m, [{"x"}, {}]>', '<["x"=3, "y"=2]>', (7, 4), 4),
    "tiles and device grid, 3 axes (01)": lambda: _tiles_and_grid('<@m, [{"x"}, {"z", "y"}]>', XYZ, (4, 8), 2, (1.2, 1), 4.6),
    "one layout in six notations (03)": _notations,
    "manual axes and in_shardings (09)": _manual_panels,
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
                                                    (7, 3, 8), figsize=(9, 5.5)),
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
    "cli plan 16x8 (the command chapter's opening)": lambda: plan_figure(plan_reshard(_sh('<@m, [{"x"}, {"y"}]>', '<["x"=2, "y"=4]>'),
                                                                     _sh('<@m, [{"y"}, {}]>', '<["x"=2, "y"=4]>'), (16, 8)), (16, 8)),
    # 06a_reshard_figures
    "opening plan, steps": lambda: draw_plan_steps(_opening_plan(), max_items=4, max_width=8),
    "opening plan, timeline": lambda: draw_plan_timeline(_opening_plan()),
    "plan steps swap": lambda: draw_plan_steps(plan_reshard(_on(_grid(2, 3), [0, 1]), _on(_grid(2, 3), [1, 0]), (6,),
                                                            planner="basis"), np.array([11, 12, 13, 21, 22, 23])),
    "plan steps 4x8": lambda: draw_plan_steps(plan_reshard(_on(_grid(2, 2, 2), [0], [1, 2]), _on(_grid(2, 2, 2), [0], [2]),
                                                           (4, 8), planner="basis"), max_items=4),
    "plan steps 6x6 on 2x6": lambda: draw_plan_steps(plan_reshard(_on(_grid(2, 6), [0], [1]), _on(_grid(2, 6), [1], [0]),
                                                                  (6, 6), planner="basis"), max_items=3),
    "plan timeline": lambda: draw_plan_timeline(_long_plans()[0][0]),
    "plan timelines, one under the other": lambda: _two_panels(draw_plan_timeline, *_long_plans()),
    "planners compared": _planners_compared,
    "cli plan, 128 devices": lambda: plan_figure(plan_reshard(_sh('<@m, [{"x"}, {"y"}]>', '<["x"=8, "y"=16]>'),
                                                              _sh('<@m, [{"y"}, {"x"}]>', '<["x"=8, "y"=16]>'), (64, 64)), (64, 64)),
    "cut pattern": lambda: draw_cut_pattern((10, 14), (3, 4), (4, 3)),
    "cut patterns, 3 panels": _cut_patterns,
    # 10a_program_figures
    "import pipeline": lambda: draw_pass(passes.import_pipeline, parse_module(PROGRAM), "import_pipeline"),
    "program": lambda: draw_program(parse_module(PROGRAM), title="@main"),
    "program manual": lambda: draw_program(parse_module(MANUAL)),
    "pass add_data_flow_edges": lambda: draw_pass(passes.add_data_flow_edges, parse_module(LOOP)),
    "pass constant_splitter": lambda: draw_pass(passes.constant_splitter, parse_module(CONSTS)),
    "pass manual_axes_cleanup": lambda: draw_pass(passes.manual_axes_cleanup, parse_module(MANUAL)),
    "pass sharding_group_import": lambda: draw_pass(passes.sharding_group_import, parse_module(GROUPS)),
    "pass apply_sharding_constraints": lambda: draw_pass(passes.apply_sharding_constraints, parse_module(PROGRAM)),
    "rule matmul (11)": lambda: plot_rule(OpShardingRule((16, 8, 4), [[[0], [2]], [[2], [1]]], [[[0], [1]]], reduction=[2])).figure,
    "rules conv and gather (the op sharding rule chapter's opening)": _conv_gather_rules,
    "rules side by side (11)": _rules_side_by_side,
    # the program IR, the Shardy API and the import passes chapters: JAX's programs (the IR's here; the others drawn from the corpus below)
    "jit_mlp, two functions (08)": lambda: draw_program(parse_module(MLP_JAX), title="jax.jit(mlp) read by parse_module"),
    "jit_mlp after import_pipeline": lambda: draw_pass(passes.import_pipeline, parse_module(MLP_JAX)),
    # the propagation chapter
    "propagate": lambda: draw_pass(_propagate, parse_module(MATMUL), "propagate"),
    "propagation rounds, the last": _last_round,
    # 12c_export
    "export passes": _export_passes,
}


# 13_strategies and 14_torch: plans of torch models (built once, outside the timed drawing: torch.export takes seconds)

def _torch_models():
    "The chapters' models, as they write them: the MindSpore chapters' FFN, transformer block and MLP, the torch chapter's CNN."
    import torch

    class FFN(torch.nn.Module):
        def __init__(self, d=64):
            super().__init__()
            g = torch.Generator().manual_seed(0)
            self.w1, self.b1 = torch.nn.Parameter(torch.randn(d, d, generator=g)), torch.nn.Parameter(torch.randn(d, generator=g))
            self.w2, self.b2 = torch.nn.Parameter(torch.randn(d, d, generator=g)), torch.nn.Parameter(torch.randn(d, generator=g))
        def forward(self, x): return torch.relu(x @ self.w1 + self.b1) @ self.w2 + self.b2

    class Block(torch.nn.Module):
        def __init__(self, d=32, h=4):
            super().__init__()
            torch.manual_seed(0)
            self.h, self.ln1, self.ln2 = h, torch.nn.LayerNorm(d), torch.nn.LayerNorm(d)
            self.q, self.k, self.v, self.o = (torch.nn.Linear(d, d) for _ in range(4))
            self.fc1, self.fc2 = torch.nn.Linear(d, 4 * d), torch.nn.Linear(4 * d, d)
        def forward(self, x):
            b, s, d = x.shape
            y = self.ln1(x)
            q, k, v = (f(y).view(b, s, self.h, d // self.h).transpose(1, 2) for f in (self.q, self.k, self.v))
            a = torch.softmax(q @ k.transpose(-1, -2) / (d // self.h) ** 0.5, dim=-1) @ v
            x = x + self.o(a.transpose(1, 2).reshape(b, s, d))
            return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.ln2(x))))

    torch.manual_seed(0)
    mlp = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 32), torch.nn.GELU(), torch.nn.Linear(32, 16))
    block, block_x, mlp_x = Block(), torch.randn(4, 8, 32), torch.randn(8, 16)
    torch.manual_seed(0)
    cnn = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
                              torch.nn.MaxPool2d(2), torch.nn.Flatten(), torch.nn.Linear(8 * 4 * 4, 10)).eval()
    return {"FFN": (FFN(), torch.randn(64, 64, generator=torch.Generator().manual_seed(1))), "transformer block": (block, block_x),
            "MLP": (mlp, mlp_x), "CNN": (cnn, torch.randn(16, 3, 8, 8, generator=torch.Generator().manual_seed(0)))}


@functools.cache
def _strategy_plans():
    "the MindSpore chapters' plans and `compare_styles` results, the torch chapter's CNN plan, from the chapters' calls."
    import torch
    from shardnb.mindspore.torch_frontend import from_torch
    from shardnb.mindspore.strategies import compare_styles, propagate_strategies
    programs = {k: from_torch(torch.export.export(m, (x,))) for k, (m, x) in _torch_models().items()}
    setups = {"FFN": ({"matmul": ((2, 1), (1, 4))}, True), "transformer block": ({"matmul": ((2, 4, 1, 1), (2, 4, 1, 1))}, False),
              "MLP": ({"linear": ((8, 1), (1, 1), (1,)), "linear_2": ((1, 8), (1, 8), (1,))}, False)}
    compared = {k: compare_styles(programs[k], conf, device_num=8, fully_use_devices=full) for k, (conf, full) in setups.items()}
    return dict(compared=compared,
                ffn=propagate_strategies(programs["FFN"], {"matmul": ((2, 1), (1, 4))}, device_num=8, fully_use_devices=True),
                cnn=propagate_strategies(programs["CNN"], {"conv2d": ((8, 1, 1, 1), (1, 1, 1, 1), (1,))}, device_num=8))


def _mlp_plans(p):
    "the MindSpore chapters' MLP under both styles, one under the other."
    from shardnb.mindspore.strategies import plot_plans
    ms, sh, _ = p["compared"]["MLP"]
    return plot_plans({"MLP, MindSpore: batch split carried to gelu, one AlltoAll into linear_2": ms,
                       "MLP, Shardy: linear_2's split pulled back to linear_1, which gathers relu's output": sh})


def _plan(which, title):
    from shardnb.mindspore.strategies import plot_plan
    return lambda p: plot_plan(which(p), title=title).figure


STRATEGY_FIGURES = {
    "plan FFN (the MindSpore strategies chapter's opening)": _plan(lambda p: p["ffn"], "FFN, 8 devices, matmul configured ((2, 1), (1, 4))"),
    "comparison of the two styles (13)": lambda p: __import__("shardnb.mindspore.strategies", fromlist=["x"]).plot_comparison(
        {name: rows for name, (_, _, rows) in p["compared"].items()}),
    "plans MLP, MindSpore and Shardy (13)": _mlp_plans,
    "plan transformer block, folded (13)": _plan(lambda p: p["compared"]["transformer block"][0], "transformer block, MindSpore, 8 devices"),
    "plans transformer block, both styles (13)": lambda p: __import__("shardnb.mindspore.strategies", fromlist=["x"]).plot_plans(
        {"MindSpore": p["compared"]["transformer block"][0], "Shardy": p["compared"]["transformer block"][1]}),
    "plan CNN from torch (the torch chapter's opening)": _plan(lambda p: p["cnn"], "a CNN from torch, 8 devices, conv2d configured batch-parallel"),
}


# ---- the checks ---------------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.mark.parametrize("name", FIGURES)
def test_figure_reads(name):
    fig, texts, took = render(FIGURES[name])
    assert not (found := problems(fig, texts, took)), f"{name}: " + "; ".join(found)


@pytest.mark.parametrize("name", STRATEGY_FIGURES)
def test_strategy_figure_reads(name):
    "the MindSpore and torch chapters' figures: the plans of torch models (built first, untimed) drawn as their chapters draw them."
    pytest.importorskip("torch")
    plans = _strategy_plans()
    fig, texts, took = render(lambda: STRATEGY_FIGURES[name](plans))
    assert not (found := problems(fig, texts, took)), f"{name}: " + "; ".join(found)


def test_plan_figures_fill_each_strategy_alike():
    "One strategy, one fill, across the panels of `plot_plans` (the MindSpore chapters' MLP: linear and linear_2 agree, linear_1 does not)."
    pytest.importorskip("torch")
    from matplotlib.colors import to_hex
    fig = _mlp_plans(_strategy_plans())
    ms, sh, _ = _strategy_plans()["compared"]["MLP"]
    fills = {}
    for ax, plan in zip(fig.axes, (ms, sh)):
        boxes = sorted((p for p in ax.patches if isinstance(p, matplotlib.patches.Rectangle)), key=lambda p: p.get_x())
        assert len(boxes) == len(plan.strategies)
        for box, (name, st) in zip(boxes, plan.strategies.items()):   # one row: left to right is the operators' order
            fills.setdefault(st, set()).add(to_hex(box.get_facecolor()))
    assert all(len(v) == 1 for v in fills.values()), fills
    assert len({next(iter(v)) for v in fills.values()}) == len(fills)   # and different strategies, different fills


def test_plan_in_a_small_axes_keeps_its_labels_in_their_boxes():
    "Given an axes narrower than the drawing, `plot_plan` folds into bands and shrinks text with the boxes: nothing spills."
    pytest.importorskip("torch")
    from shardnb.mindspore.strategies import plot_plan
    plan = _strategy_plans()["compared"]["transformer block"][0]
    fig, texts, _ = render(lambda: plot_plan(plan, ax=plt.subplots(figsize=(4, 3))[1]).figure)
    assert not overflows(fig, texts) and not overlaps(fig, texts)
    assert min(t.get_fontsize() for t in texts) < MIN_PT   # shrunk, so a reader would need the full-width figure


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


def test_ragged_tile_bounds_do_not_crowd_their_ticks():
    "13 cut 4 ways ends 12 | 13: the 12 goes (its label would touch 13's), the ends stay; at full width every bound is a tick."
    s = parse_sharding('<@mesh, [{"y"}, {"x"}]>', {"mesh": parse_mesh('<["x"=4, "y"=2]>')})
    for size, want in [((3, 3), [0, 4, 8, 13]), ((9, 3), [0, 4, 8, 12, 13])]:
        fig, texts, took = render(lambda: draw_sharding(s, (5, 13), figsize=size))
        assert [float(t) for t in fig.axes[0].get_xticks()] == want, size
        assert not problems(fig, texts, took)


def test_box_labels_fit_as_drawn():
    "16 unreduced groups of one device on a (12, 1) tensor: the label's outline fits but its hinted type did not (seed 0)."
    mesh = parse_mesh('<["a"=4, "b"=4], device_ids=[15, 3, 10, 12, 13, 7, 14, 5, 9, 1, 11, 4, 0, 2, 6, 8]>')
    s = parse_sharding('<@mesh, [{}, {}], unreduced={"a", "b"}>', {"mesh": mesh})
    fig, texts, took = render(lambda: draw_sharding(s, (12, 1)))
    assert not overflows(fig, texts)
    assert any(" + " in t.get_text() for t in texts)   # still the groups, not the "16 devices" fallback


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


from tests.corpus.programs import CORPUS_NAMES, jax_corpus   # noqa: E402,F401  (jax_corpus is a session fixture)


def test_real_programs_read(jax_corpus, seed):
    """JAX lowerings drawn whole, and before | after the import pipeline (the import passes chapter's figure): a few drawn from the
    seed, plus a long chain (folds into bands) and a 28-function module (summarised)."""
    names = random.Random(f"{seed}/programs").sample(CORPUS_NAMES, 6) + ["mlp_act_sigmoid", "random_truncated_normal_gamma"]
    for name in (n for n in names if n in jax_corpus):
        for how, build in [("draw_program", lambda: draw_program(parse_module(jax_corpus[name]))),
                           ("draw_pass(import_pipeline)", lambda: draw_pass(passes.import_pipeline, parse_module(jax_corpus[name])))]:
            fig, texts, took = render(build)
            assert not (found := problems(fig, texts, took)), f"{how}({name}) [seed {seed}]: " + "; ".join(found)
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
