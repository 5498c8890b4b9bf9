"""Figure content (patches, labels, hatching, captions), not pixels, on the Agg backend."""
import matplotlib

matplotlib.use("Agg")

import random

import matplotlib.pyplot as plt
import numpy as np
import pytest

from shardnb.layout.mesh import AxisRef, Mesh, ShardingError
from shardnb.layout.sharding import DimSharding, TensorSharding, shard_array
from shardnb.viz.layout import PALETTE, device_label, draw_device_grid, draw_mesh, draw_sharding, element_labels


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def gids(fig, gid): return [p for a in fig.axes for p in a.patches if p.get_gid() == gid]
def texts(fig, gid="devices"): return [t.get_text() for t in [t for a in fig.axes for t in a.texts] + fig.texts if t.get_gid() == gid]


def test_draw_mesh_cells_and_ids():
    m = Mesh({"x": 2, "y": 4}, [7, 6, 5, 4, 3, 2, 1, 0])
    fig = draw_mesh(m)
    assert isinstance(fig, matplotlib.figure.Figure)
    assert len(gids(fig, "device")) == 8
    assert texts(fig, "device_id") == [str(d) for d in m.devices.reshape(-1)]
    with pytest.raises(ShardingError):
        draw_mesh("not a mesh")


def test_tiles_labels_and_colours():
    m = Mesh({"x": 2, "y": 2})
    fig = draw_sharding(TensorSharding(m, [["x"], []]), (4, 4))
    tiles = gids(fig, "tile")
    assert len(tiles) == 2 and not gids(fig, "padding")
    assert sorted(texts(fig)) == ["0,1", "2,3"]
    assert len({matplotlib.colors.to_hex(t.get_facecolor()) for t in tiles}) == 2
    assert all(matplotlib.colors.to_hex(t.get_facecolor()).upper() in PALETTE for t in tiles)
    assert "replicated: \"y\" (implicit)" in texts(fig, "caption")[0]


def test_padding_is_hatched():
    m = Mesh({"x": 4})
    fig = draw_sharding(TensorSharding(m, [["x"]]), (6,))  # s=2: [0,2) [2,4) [4,6) [6,6)
    assert len(gids(fig, "tile")) == 3
    pads = gids(fig, "padding")
    assert len(pads) == 1 and pads[0].get_hatch() == "///"
    assert "dim 0: 6 → 8" in texts(fig, "caption")[0]
    assert "3" in texts(fig)  # the empty shard still says who holds it


def test_unreduced_and_hints_on_caption():
    m = Mesh({"x": 2, "y": 2})
    s = TensorSharding(m, [DimSharding(("y",), is_closed=False, priority=2)], (), ("x",))
    fig = draw_sharding(s, (4,))
    assert sorted(texts(fig)) == ["0 + 2", "1 + 3"]
    cap = texts(fig, "caption")[0]
    assert 'unreduced: "x"' in cap and "dim 0 open" in cap and "dim 0 p2" in cap


@pytest.mark.parametrize("seed", range(3))
def test_tile_count_matches_indices_map(seed):
    rng = random.Random(seed)
    for _ in range(15):
        sizes = [rng.choice([1, 2, 3]) for _ in range(rng.randint(1, 3))]
        names = ["a", "b", "c"][:len(sizes)]
        mesh = Mesh(dict(zip(names, sizes)), rng.sample(range(int(np.prod(sizes))), int(np.prod(sizes))))
        rank = rng.randint(1, 3)
        dims = [[] for _ in range(rank)]
        for n in names:
            if rng.random() < 0.7: dims[rng.randrange(rank)].append(n)
        s = TensorSharding(mesh, [DimSharding(tuple(d)) for d in dims])
        shape = tuple(rng.randint(1, 7) for _ in range(rank))
        fig = draw_sharding(s, shape)
        tiles = {tuple((x.start, x.stop) for x in v) for v in s.devices_indices_map(shape).values()
                 if all(x.stop > x.start for x in v)}
        assert len(gids(fig, "tile")) == len(tiles), (str(s), shape)
        padded = any(d % dd.size_in(mesh) for d, dd in zip(shape, s.dims))
        assert bool(gids(fig, "padding")) == padded
        labelled = sorted(int(x) for t in texts(fig) for part in t.split(", ") for x in _expand(part))
        assert labelled == sorted(mesh.device_set)
        plt.close(fig)


def _expand(part):
    if "-" in part:
        a, b = part.split("-"); return range(int(a), int(b) + 1)
    return part.split(",")


def test_small_multiples_for_rank3():
    mesh = Mesh({"x": 8, "y": 2, "z": 3})
    fig = draw_sharding(TensorSharding(mesh, [["x"], ["y"], ["z"]]), (7, 3, 8))
    assert len(fig.axes) == 8
    assert fig.axes[-1].get_title().replace("\n", " ") == "dim 0: [7, 8) padding"   # wrapped when the panel is narrow
    assert len(gids(fig, "tile")) == 7 * 6
    with pytest.raises(ShardingError, match="max_panels"):
        draw_sharding(TensorSharding(mesh, [["x"], ["y"], ["z"]]), (7, 3, 8), max_panels=4)


def test_into_given_axes_and_rank0():
    fig, (a, b) = plt.subplots(1, 2)
    assert draw_sharding(TensorSharding(Mesh({"x": 2}), [["x"]]), (4,), ax=a) is fig
    assert draw_sharding(TensorSharding(Mesh({"x": 2}), []), (), ax=b) is fig
    assert texts(fig)[-1] == "0,1"
    with pytest.raises(ShardingError, match="rank"):
        draw_sharding(TensorSharding(Mesh({"x": 2}), [["x"]]), (4, 4))


def test_device_grid_mlir_style():
    mesh = Mesh({"g0": 2, "g1": 2, "g2": 2})
    s = TensorSharding(mesh, [["g0"], ["g1", "g2"]])
    fig = draw_device_grid(s, (4, 8))
    cells = texts(fig, "contents")
    assert cells[:4] == ["11 12\n21 22", "13 14\n23 24", "15 16\n25 26", "17 18\n27 28"]
    assert texts(fig, "device_id") == [f"dev {d}" for d in range(8)]
    # from simulated shards, with padding marked
    m = Mesh({"x": 2})
    t = TensorSharding(m, [["x"]])
    fig = draw_device_grid(shard_array(np.arange(3) * 1.5, t), (3,), sharding=t)
    assert texts(fig, "contents") == ["0 1.5", "3 ·"]


def test_device_label_and_element_labels():
    assert device_label([0, 1, 2, 3, 5]) == "0-3, 5"
    assert element_labels((2, 2)).tolist() == [[11, 12], [21, 22]]
    assert element_labels((2, 10))[1, 9] == 210
