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


@pytest.mark.parametrize("mesh", ['<["x"=8]>', '<["d"=2, "m"=4]>'])
def test_megatron_sequence_parallel_is_costed_and_never_faster_than_the_search(mesh):
    "Megatron + SP on the MLP step: tokens split over every axis on the data, the forward row-parallel output pinned, priced by step_cost, at least the search's cost."
    from shardnb.auto.baselines import hand_strategy
    m = hand_strategy(MLP, mesh, "Megatron + SP", data=(2, 3), columns=(0,), rows=(1,))
    f = m.main
    every = tuple(n for n, k in m.meshes["mesh"].axes)
    assert [sharding_dims(f.args[k].sharding, 2)[0] for k in (2, 3)] == [every, every]
    pinned = [op for op in f.walk() if op.name == "stablehlo.dot_general" and op.results[0].sharding is not None]
    assert len(pinned) == 1 and pinned[0].operands[1] is f.args[1]
    sp = step_cost(propagated(m))
    megatron = step_cost(propagated(hand_strategy(MLP, mesh, "Megatron", data=(2, 3), columns=(0,), rows=(1,))))
    r = auto_shard(MLP, mesh)
    assert r.cost.total_s <= sp.total_s * (1 + 1e-9), (r.cost, sp)
    print(f"{mesh}: auto_shard {r.cost.total_s * 1e3:.4f} ms, Megatron {megatron.total_s * 1e3:.4f} ms, Megatron + SP {sp.total_s * 1e3:.4f} ms ({sp})")


def test_unknown_hand_strategy_is_named():
    from shardnb.auto.baselines import hand_strategy
    from shardnb.layout.mesh import ShardingError
    with pytest.raises(ShardingError, match="Megatron \\+ SP"):
        hand_strategy(MLP, '<["x"=8]>', "sequence parallel")


def test_solve_time_figure_has_a_point_per_search():
    "bench/tables/auto_shard.json (written by bench/auto_shard.py --write-tables) drawn: a point per search, the time-limited ones ringed."
    import json
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from shardnb.auto.baselines import plot_solve_times
    table = json.loads((Path(__file__).resolve().parents[2] / "bench" / "tables" / "auto_shard.json").read_text())
    rows = table["searches"]
    fig = plot_solve_times(table)
    cols = fig.axes[0].collections
    meshes = {r["mesh"] for r in rows}
    assert sum(len(c.get_offsets()) for c in cols[:len(meshes)]) == len(rows)
    late = [r for r in rows if r["status"] != "optimal"]
    assert (len(cols) == len(meshes) + 1 and len(cols[-1].get_offsets()) == len(late)) if late else len(cols) == len(meshes)
    print(f"{len(rows)} searches on {sorted(meshes)}, {len(late)} stopped by the time limit")
    plt.close(fig)
