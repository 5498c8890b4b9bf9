"""The explain figure (`shardnb.viz.explain.draw_explain`): each value coloured by the annotations its sharding came from,
checked against the explanation it draws and read back by tests/viz/figcheck.py as a reader would."""
from importlib.resources import files

import matplotlib.pyplot as plt

from shardnb.ir.program import parse_module
from shardnb.shardy.explain import explain, value_label
from shardnb.viz.explain import draw_explain, value_origins
from tests.viz.figcheck import assert_reads

SMALL = '''sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %b: tensor<12xf32>) -> (tensor<8x32xf32>, tensor<3x4xf32>) {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.tanh %0 : tensor<8x32xf32>
  %2 = sdy.sharding_constraint %b <@mesh, [{"y"}]> : tensor<12xf32>
  %3 = stablehlo.negate %2 : tensor<12xf32>
  %4 = stablehlo.reshape %3 : (tensor<12xf32>) -> tensor<3x4xf32>
  return %1, %4 : tensor<8x32xf32>, tensor<3x4xf32>
}'''


def transformer():
    return parse_module((files("shardnb") / "data" / "transformer_block.mlir").read_text())


def test_colours_follow_the_explanation():
    "Every value's stripes are the colours of the origins the explanation gives its axes, in the legend's colours."
    e = explain(parse_module(SMALL))
    ax = draw_explain(e)
    legend = {t.get_text().split(" (")[0]: h.get_facecolor()[:3] for t, h in zip(ax.get_legend().get_texts(), ax.get_legend().legend_handles)}
    origins = {value_label(v): o for v, o in value_origins(e).items()}
    assert origins["%0"] == ["input: 0", "input: 1"] and origins["%3"] == ["constraint_0"] and origins["%4"] == []
    for name, want in origins.items():   # each value's traced origins, resolved `self` aside, are what its axes say
        got = [t.origin for t in e[name].axes]
        assert len(want) == len(dict.fromkeys(got)), (name, want, got)
    texts = {t.get_text().split("\n")[0]: t.get_position() for t in ax.texts}
    (coll,) = ax.collections
    boxes = [(p.get_extents().x0, p.get_extents().x1, (p.get_extents().y0 + p.get_extents().y1) / 2, c[:3])
             for p, c in zip(coll.get_paths(), coll.get_facecolors())]
    for name, os in origins.items():
        x, y = texts[name]
        fills = [c for x0, x1, yc, c in sorted(boxes) if x0 <= x + 1.3 and x1 >= x - 1.3 and abs(yc - y) < 1e-6]
        if not os: assert all(abs(c - 0.92) < 1e-3 for c in fills[0]), name; continue
        assert [tuple(round(c, 4) for c in f) for f in fills] == [tuple(round(c, 4) for c in legend[o]) for o in os], (name, fills)
    plt.close(ax.figure)


def test_silent_replications_are_outlined():
    e = explain(parse_module(SMALL))
    ax = draw_explain(e)
    red = [p for p in ax.patches if type(p).__name__ == "FancyBboxPatch" and p.get_edgecolor()[:3] == (1.0, 0.0, 0.0)]
    flagged = {r.value for r in e.replications if r.op != "the function boundary"} | \
              {r.value.split("(")[-1].rstrip(")") for r in e.replications if "(" in r.value}
    assert len(red) == len({f for f in flagged if f in {value_label(v) for v in value_origins(e)}}) >= 1, flagged
    plt.close(ax.figure)


def test_figures_read():
    "The small program and the shipped transformer block pass the figure checks (no overlap, readable text, within the docs column)."
    for name, m in (("small", parse_module(SMALL)), ("transformer_block", transformer())):
        e = explain(m)
        fig, texts, took = assert_reads(lambda: draw_explain(e).figure, name)
        print(f"{name}: {len(texts)} texts, {fig.get_figwidth():.1f} x {fig.get_figheight():.1f} in, {took:.2f} s CPU")
        plt.close(fig)
