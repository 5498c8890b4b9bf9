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


def test_alpa_pricer_is_free_exactly_where_every_source_axis_stays(seed):
    "Alpa's formulas on random pairs of argument shardings: zero when every axis of the source keeps its dim and place (a slice), positive otherwise, at least one α per collective."
    import random
    from shardnb.layout.syntax import parse_mesh
    from shardnb.auto.auto_shard import DeviceModel, Pricer, arg_choices
    from shardnb.auto.baselines import AlpaPricer
    from shardnb.ir.program import Value, TensorType
    r = random.Random(seed)
    mesh = parse_mesh('<["d"=2, "m"=4]>')
    ap, ex = AlpaPricer("mesh", mesh, DeviceModel()), Pricer("mesh", mesh, DeviceModel())
    alpha = min(a for a, _ in DeviceModel().links(mesh).values())
    ratios = []
    for _ in range(40):
        shape = tuple(r.choice((8, 16, 64, 128)) for _ in range(r.randint(1, 3)))
        v = Value(TensorType(shape, "f32"))
        pool = [c.results[0] for c in arg_choices(v, ap)]
        src, dst = r.choice(pool), r.choice(pool)
        where = lambda s: {a.name: (k, j) for k, d in enumerate(s.dims) for j, a in enumerate(d.axes)}
        stays = all(where(dst).get(a) == p for a, p in where(src).items())
        cost = ap.exact(src, dst, shape, "f32")
        assert (cost == 0) == stays, (src, dst, cost)
        assert stays or cost >= alpha
        if not stays: ratios.append(ex.exact(src, dst, shape, "f32") / cost)
    print(f"seed {seed}: {len(ratios)} moves, exact plan / Alpa's formula from {min(ratios):.2f} to {max(ratios):.2f}")


def test_alpa_style_search_against_exact_pricing_on_16_devices():
    "The MLP step on 16 devices over two nodes: Alpa's formulas and exact plans pick differently on the same graph; under step_cost the exact pick is faster, the pinned strategy costs what the answer costs, and auto_shard started from it is never slower."
    import math
    from shardnb.auto.auto_shard import Pricer, build_graph, inline_calls, as_module, evaluate, DeviceModel
    from shardnb.auto.baselines import alpa_search, alpa_follow, AlpaPricer
    from shardnb.layout.syntax import parse_mesh
    mesh = '<["x"=16]>'
    alpa = alpa_search(MLP, mesh)
    same = alpa_search(MLP, mesh, pricer=Pricer)
    assert alpa.pick != same.pick
    assert same.cost.total_s < alpa.cost.total_s
    g = alpa_follow(build_graph(inline_calls(as_module(MLP)).main, AlpaPricer("mesh", parse_mesh(mesh), DeviceModel())))
    assert math.isclose(sum(evaluate(g, alpa.pick)), alpa.objective_s, rel_tol=1e-9)   # Alpa's objective is its formulas' sum
    assert math.isclose(step_cost(propagated(alpa.strategy)).total_s, alpa.cost.total_s, rel_tol=1e-9)
    r = auto_shard(MLP, mesh, starts=[alpa.strategy])
    assert r.cost.total_s <= alpa.cost.total_s * (1 + 1e-9)
    print(f"{mesh}: Alpa-style {alpa.cost.total_s * 1e6:.2f} µs (its own objective {alpa.objective_s * 1e6:.2f} µs), "
          f"same graph priced exactly {same.cost.total_s * 1e6:.2f} µs, auto_shard from it {r.cost.total_s * 1e6:.2f} µs")


def _auto_cli(args, monkeypatch, capsys):
    "Run `shardnb auto` on the MLP through `main`, with auto_shard wrapped to record its starts and say one progress line."
    import io
    import shardnb.auto.baselines as b
    seen, real = {}, b.auto_shard
    def spy(program, mesh, **kw):
        seen.update(kw); kw["progress"]("round 1: incumbent 1.0 µs (spy)")
        return real(program, mesh, **kw)
    monkeypatch.setattr(b, "auto_shard", spy)
    path = Path(__file__).resolve().parent / "data" / "mlp2.mlir"
    buf = io.StringIO()
    assert b.main([str(path), *args], out=buf) == 0
    return buf.getvalue(), capsys.readouterr().err, seen


def test_shardnb_auto_starts_from_its_baselines_and_prints_their_ratios(monkeypatch, capsys):
    "`shardnb auto --columns 0 --rows 1 --alpa`: every baseline (Megatron's and the Alpa-style search's too) is a start, the answer is never slower, each line's ratio is its cost over the search's, progress goes to stderr only."
    import re
    out, err, seen = _auto_cli(["--mesh", '<["d"=2, "m"=4]>', "--data", "2,3", "--columns", "0", "--rows", "1", "--alpa"], monkeypatch, capsys)
    rows = {k: (float(ms.replace(",", "")), float(x) if x else None) for k, ms, x in
            re.findall(r"^(auto_shard|replicated|data parallel|FSDP|Megatron(?: \+ SP)?|Alpa-style)\s+([\d,.]+) ms.*?(?:x([\d.]+) of auto_shard's)?$", out, re.M)}
    assert set(rows) == {"auto_shard", "replicated", "data parallel", "FSDP", "Megatron", "Megatron + SP", "Alpa-style"}, out[:1500]
    assert len(seen["starts"]) == len(rows) - 1 and callable(seen["progress"])
    best = rows["auto_shard"][0]
    for k, (ms, x) in rows.items():
        if k == "auto_shard": continue
        assert best <= ms and (ms - 5e-4) / (best + 5e-4) - 5e-3 <= x <= (ms + 5e-4) / (best - 5e-4) + 5e-3, (k, ms, x)   # ms printed to 3 places
    assert "(spy)" in err and "(spy)" not in out
    print({k: v[0] for k, v in rows.items()})


def test_shardnb_auto_names_a_bad_argument_index(monkeypatch, capsys):
    from shardnb.layout.mesh import ShardingError
    with pytest.raises(ShardingError, match="--rows: the program has 4 arguments"):
        _auto_cli(["--mesh", '<["x"=8]>', "--columns", "0", "--rows", "9"], monkeypatch, capsys)


def test_alpa_style_search_keeps_a_memory_limit():
    "Under memory limits from the unconstrained Alpa-style answer's peak down: where it answers, step_cost's peak stays within the limit; it finds no answer exactly where auto_shard (the same memory rows) finds none, and says so."
    from shardnb.auto.baselines import alpa_search
    from shardnb.layout.mesh import ShardingError
    mesh = '<["d"=2, "m"=4]>'
    free = alpa_search(MLP, mesh)
    seen = []
    for f in (1.0, 0.97, 0.9, 0.5):
        limit = int(free.cost.peak_bytes * f)
        try: got = alpa_search(MLP, mesh, memory_limit=limit)
        except ShardingError as e:
            assert "within the memory limit" in str(e)
            with pytest.raises(ShardingError, match="no strategy fits"): auto_shard(MLP, mesh, memory_limit=limit)
            seen.append((limit, None)); continue
        assert got.cost.peak_bytes <= limit
        auto_shard(MLP, mesh, memory_limit=limit)   # feasible for the search too
        seen.append((limit, got.cost.peak_bytes))
    assert seen[0][1] is not None and seen[-1][1] is None
    print(", ".join(f"limit {l / 2**20:.1f} MiB: " + (f"peak {p / 2**20:.1f} MiB" if p else "none fits") for l, p in seen))
