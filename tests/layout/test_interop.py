"""Interop against the real libraries: JAX's NamedSharding (8 fake CPU devices) and DTensor's own
local-shape/offset rule, plus round trips for the MLIR grid notation and MindSpore layouts."""
import os

# Must happen before jax initialises its backend (it is read once, at the first jax.devices()).
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8").strip()

import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shardnb.layout.mesh import AxisRef, Mesh, ShardingError
from shardnb.layout.sharding import DimSharding, TensorSharding
from shardnb.layout.interop import (
    DTensorLayout, GridNotationError, GridSharding, TensorLayout, dtensor_devices_indices_map, format_grid_axes,
    from_dtensor, from_grid_axes, from_jax, from_mindspore_layout, from_mindspore_strategy, from_partition_spec,
    jax_devices_indices_map, parse_grid_axes, to_dtensor, to_grid_axes, to_jax, to_mindspore_layout,
    to_partition_spec, without_sub_axes)

NAMES = ("x", "y", "z")


def random_cases(seed, n: int, max_devices: int = 8, sorted_axes: bool = False, unreduced: bool = False):
    "Random (sharding, shape) pairs: up to 3 axes, non-iota device orders, divisible and non-divisible dims."
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        k = rng.randint(1, 3)
        sizes, total = [], 1
        for _ in range(k):
            s = rng.choice([v for v in (1, 2, 3, 4) if total * v <= max_devices])
            sizes.append(s); total *= s
        ids = list(range(total))
        if rng.random() < 0.6: rng.shuffle(ids)
        mesh = Mesh(tuple(zip(NAMES, sizes)), ids)
        rank = rng.randint(1, 3)
        dims, unr = [[] for _ in range(rank)], []
        for name in rng.sample(NAMES[:k], k):
            r = rng.random()
            if unreduced and r < 0.2: unr.append(name)
            elif r < 0.8: dims[rng.randrange(rank)].append(name)
        if sorted_axes: dims = [sorted(d, key=NAMES.index) for d in dims]
        s = TensorSharding(mesh, [DimSharding(tuple(d)) for d in dims], (), sorted(unr, key=NAMES.index))
        shape = []
        for d in s.dims:
            m = d.size_in(mesh)
            shape.append(m * rng.randint(1, 3) if rng.random() < 0.5 else rng.randint(0, 2 * m + 1))
        out.append((s, tuple(shape)))
    return out


def normalise(idx_map, shape):
    "slice(None) -> explicit bounds, so maps from different libraries compare."
    return {d: tuple(slice(*sl.indices(n)[:2]) for sl, n in zip(idx, shape)) for d, idx in idx_map.items()}


# ----------------------------------------------------------------------------------------------- JAX
@pytest.fixture(scope="module")
def jax():
    jax = pytest.importorskip("jax")
    if len(jax.devices()) < 8:
        pytest.skip("jax was initialised before this module set XLA_FLAGS; run this file on its own")
    return jax


def test_jax_devices_match_our_ids(jax):
    devs = jax.devices()
    assert [d.id for d in devs] == list(range(8))
    perm = [3, 1, 2, 0, 7, 5, 6, 4]
    jm = jax.sharding.Mesh(np.array(devs)[perm].reshape(2, 4), ("x", "y"))
    s = from_jax(jax.sharding.NamedSharding(jm, jax.sharding.PartitionSpec("x", "y")))
    assert s.mesh == Mesh({"x": 2, "y": 4}, perm)
    assert [d.id for d in to_jax(s).mesh.devices.reshape(-1)] == perm
    assert to_jax(s, jm).mesh is jm


@pytest.mark.parametrize("k", range(4))
def test_jax_indices_map_matches(jax, seed, k):
    for s, shape in random_cases(f"{seed}/jax/{k}", 40):
        ns = to_jax(s)
        assert [d.id for d in ns.mesh.devices.reshape(-1)] == [int(i) for i in s.mesh.devices.reshape(-1)]
        assert from_jax(ns, s.rank) == s
        ours = s.devices_indices_map(shape)
        divisible = all(n % d.size_in(s.mesh) == 0 for n, d in zip(shape, s.dims))
        if divisible:
            theirs = normalise({d.id: idx for d, idx in ns.devices_indices_map(shape).items()}, shape)
            assert theirs == ours, (str(s), shape)
        else:
            # JAX refuses non-divisible NamedShardings; XLA pads to ceil(d/n), which the helper reproduces.
            with pytest.raises(ValueError, match="divide"):
                ns.devices_indices_map(shape)
        assert jax_devices_indices_map(ns, shape) == ours, (str(s), shape)


def test_jax_sdy_printing_agrees(jax, seed):
    "JAX's own conversion to Shardy attributes (private API) reads the same dims."
    for s, shape in random_cases(f"{seed}/sdy", 30):
        ns = to_jax(s)
        try: sdy = ns._to_sdy_sharding(s.rank)
        except AttributeError: pytest.skip("this jax has no NamedSharding._to_sdy_sharding")
        text = "[" + ", ".join("{" + ", ".join(f"'{a.name}'" for a in d.axes) + "}" for d in s.dims) + "]"
        assert repr(sdy) == f"SdyArray({text})"


def test_jax_unconstrained_and_unreduced(jax):
    P = jax.sharding.PartitionSpec
    m = Mesh({"x": 2, "y": 4})
    s = TensorSharding(m, [DimSharding(("y",)), DimSharding((), is_closed=False)], (), ("x",))
    ns = to_jax(s)
    assert ns.spec.partitions == ("y", P.UNCONSTRAINED) and ns.spec.unreduced == {"x"}
    assert from_jax(ns) == s
    assert from_partition_spec(P("x", None, unreduced={"y"}), m).unreduced == (AxisRef("y"),)
    with pytest.raises(ShardingError, match="'reduced' axes"):
        from_partition_spec(P("x", reduced={"y"}), m)


def test_jax_refusals(jax):
    m = Mesh({"x": 4, "y": 2})
    sub = TensorSharding(m, [[AxisRef("x", 1, 2)], ["y"]])
    with pytest.raises(ShardingError, match=r'no sub-axes: "x":\(1\)2 shards dim 0'):
        to_jax(sub)
    fine = to_jax(without_sub_axes(sub))
    assert jax_devices_indices_map(fine, (4, 4)) == sub.devices_indices_map((4, 4))
    other = jax.sharding.Mesh(np.array(jax.devices())[::-1].reshape(4, 2), ("x", "y"))
    with pytest.raises(ShardingError, match="orders its devices"):
        to_jax(TensorSharding(m, [["x"], []]), other)
    with pytest.raises(ShardingError, match="no dim priorities"):
        to_jax(TensorSharding(m, [DimSharding(("x",), priority=0)]))


def test_partition_spec_without_jax():
    m = Mesh({"x": 2, "y": 2, "z": 2})
    for spec in [("x", None, ("y", "z")), (None,), (("z", "x"), "y"), ()]:
        s = from_partition_spec(spec, m)
        assert to_partition_spec(s) == spec
    with pytest.raises(ShardingError, match="unreduced"):
        to_partition_spec(TensorSharding(m, [["x"]], (), ("y",)))


# ------------------------------------------------------------------------------------------- DTensor
@pytest.fixture(scope="module")
def dt():
    pytest.importorskip("torch")
    from torch.distributed.tensor import Partial, Replicate, Shard
    from torch.distributed.tensor._utils import _compute_local_shape_and_global_offset
    return Shard, Replicate, Partial, _compute_local_shape_and_global_offset


def torch_indices_map(layout: DTensorLayout, shape, compute):
    "DTensor's own per-device slices, from its local shape and global offset."
    out = {}
    for coord in itertools.product(*map(range, layout.mesh.shape)):
        local, off = compute(list(shape), list(layout.mesh.shape), list(coord), list(layout.placements))
        out[int(layout.mesh[coord])] = tuple(slice(o, o + n) if n else slice(d, d) for o, n, d in zip(off, local, shape))
    return out


def nested_uneven_cases(seed, n: int):
    "Random cases where one tensor dim is split by two or three mesh axes and its size is not a multiple of their product."
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        sizes = [rng.choice((2, 3, 4)) for _ in range(rng.randint(2, 3))]
        mesh = Mesh(tuple(zip(NAMES, sizes)), rng.sample(range(math.prod(sizes)), math.prod(sizes)))
        k = math.prod(sizes)
        d = rng.randint(1, 3 * k)
        if d % k: out.append((TensorSharding(mesh, [DimSharding(NAMES[:len(sizes)]), DimSharding(())]), (d, rng.randint(0, 3))))
    return out


@pytest.mark.parametrize("k", range(4))
def test_dtensor_matches_torch(dt, seed, k):
    *_, compute = dt
    differ = 0
    cases = random_cases(f"{seed}/dtensor/{k}", 60, sorted_axes=True, unreduced=True)
    cases += nested_uneven_cases(f"{seed}/nested/{k}", 20)
    for s, shape in cases:
        lay = to_dtensor(s)
        assert from_dtensor(lay, rank=s.rank) == s
        theirs = torch_indices_map(lay, shape, compute)
        assert dtensor_devices_indices_map(s, shape) == theirs, (str(s), shape)
        ours = s.devices_indices_map(shape)
        nested = any(len(d.axes) > 1 for d in s.dims)
        divisible = all(n % d.size_in(s.mesh) == 0 for n, d in zip(shape, s.dims))
        if divisible or not nested:
            assert ours == theirs, (str(s), shape)  # one mesh dim per tensor dim: torch.chunk == ceil-div
        if ours != theirs:
            differ += 1
            with pytest.raises(ShardingError, match="differently"):
                to_dtensor(s, shape)
        else:
            to_dtensor(s, shape)
    # DTensor chunks a nested dim mesh dim by mesh dim (torch.chunk each time), Shardy ceil-divides by the
    # product: on the 20 nested, non-divisible cases they disagree most of the time (13-18 of 20 in six runs) (d=5 on 2x2: torch
    # 2,1,1,1, Shardy 2,2,1,0). The cases must include such disagreements, so that the refusal above ran.
    assert 0 < differ < len(cases), (differ, len(cases))


def test_dtensor_uneven_difference_explicit(dt):
    *_, compute = dt
    m = Mesh({"a": 2, "b": 2})
    s = TensorSharding(m, [["a", "b"]])
    theirs = torch_indices_map(to_dtensor(s), (5,), compute)
    assert [theirs[d][0] for d in range(4)] == [slice(0, 2), slice(2, 3), slice(3, 4), slice(4, 5)]
    assert [s.devices_indices_map((5,))[d][0] for d in range(4)] == [slice(0, 2), slice(2, 4), slice(4, 5), slice(5, 5)]
    # d=7 agrees (4|3 -> 2,2 | 2,1); d=6 does not (torch 3|3 -> 2,1 | 2,1; Shardy 2,2,2,0).
    assert torch_indices_map(to_dtensor(s), (7,), compute) == s.devices_indices_map((7,))
    assert torch_indices_map(to_dtensor(s), (6,), compute) != s.devices_indices_map((6,))


def test_dtensor_placement_objects(dt):
    Shard, Replicate, Partial, _ = dt
    m = Mesh({"dp": 2, "tp": 4})
    lay = to_dtensor(TensorSharding(m, [["tp"], []], (), ("dp",)))
    assert lay.placements == (Partial(), Shard(0)) and lay.dim_names == ("dp", "tp")
    s = from_dtensor(np.arange(8)[::-1].reshape(2, 4), [Shard(-1), Replicate()], rank=2)
    assert s.dims[1].axes == (AxisRef("m0"),) and s.mesh.device_ids == tuple(range(7, -1, -1))
    with pytest.raises(ShardingError, match="mesh order"):
        to_dtensor(TensorSharding(m, [["tp", "dp"]]))
    with pytest.raises(ShardingError, match="one placement per mesh dim"):
        from_dtensor(np.arange(8).reshape(2, 4), [Shard(0)], rank=1)
    with pytest.raises(ShardingError, match="needs the tensor rank"):
        from_dtensor(np.arange(8).reshape(2, 4), [Shard(0), Replicate()])


# ------------------------------------------------------------------------------------- MLIR grid axes
@st.composite
def grid_cases(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4))
    axes = draw(st.permutations(range(len(shape))))
    rank = draw(st.integers(1, 4))
    split = [[] for _ in range(rank)]
    for a in axes[:draw(st.integers(0, len(shape)))]:
        split[draw(st.integers(0, rank - 1))].append(a)
    return tuple(shape), tuple(tuple(d) for d in split)


@given(grid_cases())
@settings(max_examples=150)
def test_grid_round_trip(case):
    shape, split = case
    assert parse_grid_axes(format_grid_axes(split)) == split
    s = from_grid_axes(format_grid_axes(split), shape)
    assert to_grid_axes(s) == GridSharding(shape, split, ())


@given(st.text(alphabet="[], 0123x-", max_size=14))
@settings(max_examples=300)
def test_grid_bad_text_raises_only_grid_error(text):
    try: parse_grid_axes(text)
    except GridNotationError as e: assert e.column >= 1
    # anything else escaping fails the test


# ----------------------------------------------------------------------------------------- MindSpore
@given(st.lists(st.integers(1, 4), min_size=1, max_size=4), st.data())
@settings(max_examples=150)
def test_mindspore_layout_round_trip(matrix, data):
    n = len(matrix)
    idx = data.draw(st.permutations(range(n)))
    rank = data.draw(st.integers(1, 3))
    tmap = [-1] * rank
    for k in idx[:data.draw(st.integers(0, n))]:
        d = data.draw(st.integers(0, rank - 1))
        tmap[d] = k if tmap[d] == -1 else (tmap[d] if isinstance(tmap[d], tuple) else (tmap[d],)) + (k,)
    s = from_mindspore_layout(matrix, tmap)
    assert to_mindspore_layout(s) == TensorLayout(tuple(matrix), tuple(tmap))


def test_mindspore_matmul_example():
    X, W = from_mindspore_strategy([[2, 1], [1, 4]], "ik,kj", device_num=8)
    def holders(s):
        m = s.devices_indices_map((64, 64)); out = {}
        for d in sorted(m): out.setdefault((m[d][0].start, m[d][1].start), []).append(d)
        return list(out.values())
    assert holders(X) == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert holders(W) == [[0, 4], [1, 5], [2, 6], [3, 7]]


@pytest.mark.parametrize("k", range(3))
def test_sub_axes_made_full_are_equivalent(seed, k):
    rng = random.Random(f"{seed}/sub-axes/{k}")
    for _ in range(50):
        n = rng.choice([4, 8, 16])
        mesh = Mesh({"x": n, "y": 2})
        bits = int(math.log2(n))
        cut = sorted(rng.sample(range(1, bits), rng.randint(1, bits - 1)))
        pieces = [AxisRef("x", 2 ** a, 2 ** (b - a)) for a, b in zip([0] + cut, cut + [bits])]
        rng.shuffle(pieces)
        dims = [[], []]
        for p in pieces[:rng.randint(1, len(pieces))]: dims[rng.randrange(2)].append(p)
        s = TensorSharding(mesh, [DimSharding(tuple(d)) for d in dims])
        try: s.verify()
        except ShardingError: continue  # e.g. two mergeable pieces side by side
        shape = (rng.randint(1, 20), rng.randint(1, 20))
        fine = without_sub_axes(s)
        assert not any(a.is_sub_axis for a in fine.axis_refs())
        assert fine.equivalent(s, shape)
        assert from_mindspore_layout(to_mindspore_layout(s)).equivalent(s, shape)
