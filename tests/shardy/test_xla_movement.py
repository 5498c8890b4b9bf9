"""shardnb.shardy.xla_movement: `sort_layout` is checked against XLA's `MoveAndMergeShardingTiles` on tile assignments
(random shardings, the run's seed); each handler of `MOVEMENT_HANDLERS` is held against jax's partitioned HLO over the
corpus programs it claims an op of: with it, no device's bytes are farther from XLA's than without it, and some
programs become equal."""
import random

import numpy as np
import pytest

from shardnb.layout.mesh import Mesh
from shardnb.layout.sharding import DimSharding, TensorSharding
from shardnb.shardy import xla_movement
from shardnb.shardy.predict_xla import XlaSharding, xla_sharding
from shardnb.shardy.xla_movement import sort_layout

from tests.corpus.programs import CORPUS_NAMES, jax_corpus  # noqa: F401  (a session fixture)
from tests.shardy.xla_compile import xla_compiled  # noqa: F401  (a session fixture)


def _move_and_merge(tiles: np.ndarray, source: int, target: int) -> np.ndarray:
    "hlo_sharding_util::MoveAndMergeShardingTiles on a tile assignment: a dim of 1 after `target`, swapped with `source`, merged into `target`."
    d = list(tiles.shape)
    t = tiles.reshape(d[:target + 1] + [1] + d[target + 1:])
    perm = list(range(t.ndim))
    s = source + (source > target)   # the inserted dim sits at target + 1: a source after it moves up one
    perm[s], perm[target + 1] = perm[target + 1], perm[s]
    t = t.transpose(perm)
    d = list(t.shape)
    return t.reshape(d[:target] + [d[target] * d[target + 1]] + d[target + 2:])


def test_sort_layout_is_xlas_move_and_merge(seed):
    """Where the sorted dim's axes move onto another dim, the devices of each tile are those XLA's
    `MoveAndMergeShardingTiles` gives (the other dim's axes major, the sorted dim's after); where no dim takes them,
    the sorted dim is whole and the rest as it was."""
    rng = random.Random(seed)
    meshes = [Mesh({"x": 2, "y": 4}), Mesh({"a": 2, "b": 2, "c": 2}), Mesh({"x": 4, "y": 2}, device_ids=[7, 5, 3, 1, 6, 4, 2, 0])]
    moved = dropped = 0
    for _ in range(300):
        mesh, rank = rng.choice(meshes), rng.choice([2, 3])
        dims = [[] for _ in range(rank)]
        for name in rng.sample(mesh.axis_names, len(mesh.axis_names)):
            k = rng.randrange(rank + 1)
            if k < rank: dims[k].append(name)
        s = TensorSharding(mesh, [tuple(d) for d in dims])
        shape = [rng.choice([4, 6, 8, 16]) for _ in range(rank)]
        dim = rng.randrange(rank)
        got = sort_layout(s, shape, dim)
        assert not got.dims[dim].axes
        if not s.dims[dim].axes: assert got == s; continue
        to = [k for k in range(rank) if k != dim and got.dims[k].axes != s.dims[k].axes]
        if not to:
            dropped += 1
            assert all(shape[k] % (s.dims[k].size_in(mesh) * s.dims[dim].size_in(mesh)) for k in range(rank) if k != dim)
            continue
        moved += 1
        (k,) = to
        x = xla_sharding(s)
        want = XlaSharding(_move_and_merge(x.tiles, dim, k), x.partial)
        assert xla_sharding(got) == want, (s, shape, dim, got)
    print(f"\n{moved} sorted dims moved onto another dim (checked against MoveAndMergeShardingTiles), {dropped} made whole")
    assert moved > 50 and dropped > 5


def _distance(c) -> int:
    "Bytes by which the prediction misses XLA's, summed over devices."
    return sum(abs(c.xla.get(d, 0) - c.predicted.get(d, 0)) for d in set(c.xla) | set(c.predicted))


@pytest.mark.parametrize("handler", [h.__name__ for h in xla_movement.MOVEMENT_HANDLERS])
def test_each_movement_handler_brings_the_prediction_closer_to_xla(jax_corpus, xla_compiled, monkeypatch, handler):
    """Over the corpus programs where the handler claims an op (or drops a reshard), the prediction with it misses XLA's bytes by no more,
    on the devices together, than without it (or leaves fewer collectives without an equal of XLA's), strictly less over them all (in bytes or in such collectives), and no program equal without it differs with it."""
    from shardnb.ir.program import parse_module
    from shardnb.shardy.explicit import insert_explicit_reshards
    from shardnb.shardy.export import propagation_pipeline
    from shardnb.shardy.predict import compare_collectives, hlo_collectives, predict_collectives
    from shardnb.shardy.predict_xla import propagated_shardings
    h = getattr(xla_movement, handler)
    claimed = []
    for name in CORPUS_NAMES:
        if "hlo" not in xla_compiled[name]: continue
        p = propagation_pipeline(parse_module(jax_corpus[name]))
        m = insert_explicit_reshards(p, enable_full_version=True)
        if any(h(m, propagated_shardings(p, m))): claimed.append(name)   # an op it partitions, or a reshard XLA does not run
    compare = lambda n: compare_collectives(hlo_collectives(xla_compiled[n]["hlo"]), predict_collectives(parse_module(jax_corpus[n])))
    with_it = {n: compare(n) for n in claimed}
    monkeypatch.setattr(xla_movement, "MOVEMENT_HANDLERS", tuple(x for x in xla_movement.MOVEMENT_HANDLERS if x is not h))
    without = {n: compare(n) for n in claimed}
    for n in claimed: print(f"  {n}: misses XLA by {_distance(without[n]):,} B without {handler}, {_distance(with_it[n]):,} B with it")
    unmatched = lambda c: len(c.xla_only) + len(c.predicted_only)   # collectives with no equal (kind, bytes per device) on the other side
    for n in claimed: print(f"    collectives unmatched: {unmatched(without[n])} without, {unmatched(with_it[n])} with it")
    # no worse in bytes, or (where the prediction already moves more than XLA elsewhere) more of XLA's own collectives matched
    assert claimed and all(_distance(with_it[n]) <= _distance(without[n]) or unmatched(with_it[n]) < unmatched(without[n]) for n in claimed)
    total = lambda f, cs: sum(f(cs[n]) for n in claimed)
    assert total(_distance, with_it) < total(_distance, without) or total(unmatched, with_it) < total(unmatched, without)
    assert all(with_it[n].equal for n in claimed if without[n].equal)
