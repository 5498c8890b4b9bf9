"""shardnb.shardy.xla_handlers: the reshape tilings `reshape_sharding` says carry through are checked element by element
(each target tile holds exactly one source tile's elements, in tile order); the reshape handler's gather is held
against jax's partitioned HLO with the corpus in tests/shardy/test_predict_xla.py."""
import random

import numpy as np
import pytest

from shardnb.shardy.xla_handlers import reshape_sharding


def _tile_ids(shape, shards) -> np.ndarray:
    "Each element's tile number (row-major over the tile grid) under `shards` per dim (evenly dividing)."
    idx = np.indices(shape)
    tile = np.zeros(shape, dtype=np.int64)
    for d, (n, k) in enumerate(zip(shape, shards)): tile = tile * k + idx[d] // (n // k)
    return tile


def _shape(rng, size):
    "A random factorisation of `size` into 1 to 4 dims (some of size 1)."
    dims, rest = [], size
    while rest > 1 and len(dims) < 3:
        ds = [d for d in range(2, rest + 1) if rest % d == 0]
        d = rng.choice(ds); dims.append(d); rest //= d
    dims.append(rest)
    if rng.random() < 0.3: dims.insert(rng.randrange(len(dims) + 1), 1)
    return dims


def test_reshape_sharding_only_carries_tilings_that_hold_the_same_elements(seed):
    "Whenever a tiling is said to carry through a reshape, the reshaped tiles are the source's tiles, in the same order."
    rng, carried, refused = random.Random(seed), 0, 0
    for _ in range(400):
        size = rng.choice([8, 12, 16, 24, 32, 48, 64, 96])
        a, b = _shape(rng, size), _shape(rng, size)
        ka = [rng.choice([k for k in (1, 2, 4, 8) if n % k == 0]) for n in a]
        if np.prod(ka) > 8: continue
        kb = reshape_sharding(a, ka, b)
        if kb is None: refused += 1; continue
        carried += 1
        assert all(n % k == 0 for n, k in zip(b, kb)) and np.prod(kb) == np.prod(ka), (a, ka, b, kb)
        src, dst = _tile_ids(a, ka).reshape(b), _tile_ids(b, kb)
        assert (src == dst).all(), (a, ka, b, kb)
    print(f"{carried} tilings carried through a reshape and checked element by element, {refused} refused")
    assert carried > 50


def test_reshape_sharding_refuses_what_xla_gathers():
    "96 = 3 x 8 x 4 split 4 ways cannot be split over the 3 (XLA's HandleReshape gathers it); 96 = 4 x 24 can."
    assert reshape_sharding([2, 8, 96], [2, 1, 4], [2, 8, 3, 8, 4]) is None
    assert reshape_sharding([2, 8, 3, 8, 4], [2, 1, 1, 4, 1], [2, 8, 96]) is None
    assert reshape_sharding([2, 8, 96], [2, 1, 4], [2, 8, 4, 24]) == [2, 1, 4, 1]


def test_dot_other_operand_regrouped_claims_only_a_free_dim_split_by_the_group():
    """A dot whose output splits the left operand's rows by `x`: the right operand split on its free dim by `x` is
    re-split in each group and gathered (no partial sums); split on its contracting dim, or whole, the handler leaves the
    dot to the others (the partial sums are all-reduced)."""
    from shardnb.ir.program import parse_module
    from shardnb.shardy.explicit import insert_explicit_reshards
    from shardnb.shardy.export import propagation_pipeline
    from shardnb.shardy.predict import predict_collectives
    from shardnb.shardy.predict_xla import propagated_shardings
    from shardnb.shardy.xla_handlers import dot_other_operand_regrouped

    def program(rhs):
        return parse_module(f'''sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a: tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}]>}}, %b: tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, {rhs}>}}) -> (tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]>}}) {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}}''')

    def claimed(rhs):
        p = propagation_pipeline(program(rhs))
        e = insert_explicit_reshards(p, enable_full_version=True)
        return dot_other_operand_regrouped(e, propagated_shardings(p, e))[0]

    got = claimed('[{}, {"x"}]')
    assert len(got) == 1 and all(not axes and not recv for _, axes, recv in got.values()), got
    for rhs in ('[{"y"}, {}]', '[{}, {}]'):
        assert not claimed(rhs), rhs
        assert any(c.kind == "all-reduce" for c in predict_collectives(program(rhs)).collectives), rhs
