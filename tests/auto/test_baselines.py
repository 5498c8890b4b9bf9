"""The auto stage's baselines chapter outside the notebook: the drawing of an answer (one box per value, coloured by
the chosen sharding) and the Megatron + sequence parallel hand strategy costed against the search."""
from pathlib import Path

import pytest

from shardnb.auto.auto_shard import auto_shard, step_cost, propagated, sharding_dims
from shardnb.auto.baselines import draw_shardings, drawn_values

MLP = (Path(__file__).resolve().parent / "data" / "mlp2.mlir").read_text()


@pytest.mark.parametrize("mesh", ['<["x"=8]>', '<["d"=2, "m"=4]>'])
def test_draw_shardings_one_box_per_value(mesh):
    "Every drawn value of the answer is one box, and boxes of values with the same chosen sharding share a colour."
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyBboxPatch
    r = auto_shard(MLP, mesh)
    ax = draw_shardings(r)
    boxes = [p for p in ax.patches if isinstance(p, FancyBboxPatch)]
    drawn = drawn_values(r)
    assert len(boxes) == len(ax.boxes) == len(drawn) == len({id(v) for v in ax.boxes})
    assert {id(v) for v in ax.boxes} == {id(v) for v in drawn}
    assert len(drawn) >= len(r.module.main.args)
    colour = {}
    for b, v in zip(boxes, ax.boxes):
        key = sharding_dims(r.shardings.get(v), v.type.rank)
        assert colour.setdefault(key, tuple(b.get_facecolor())) == tuple(b.get_facecolor()), key
    print(f"{mesh}: {len(boxes)} boxes for {len(drawn)} values, {len(colour)} distinct shardings")
    plt.close(ax.figure)
