"The closed form of the MLIR document's 'Algorithm: TODO' cases against brute-force box intersection."
import itertools, math
import numpy as np
from hypothesis import given, settings, strategies as st
from shardnb.layout.mesh import Mesh, ShardingError
from shardnb.layout.sharding import TensorSharding
from shardnb.reshard.planner import cut_pattern, tile_exchange, plan_reshard


def boxes(dim, count):
    s = max(1, -(-dim // count))
    return [(min(i * s, dim), min((i + 1) * s, dim)) for i in range(count)]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 8), st.integers(1, 8)), min_size=1, max_size=2))
def test_tile_exchange_is_the_brute_force_intersection(dims):
    shape = tuple(d for d, _, _ in dims); a = tuple(c for _, c, _ in dims); b = tuple(c for _, _, c in dims)
    want = set()
    for si in itertools.product(*(range(c) for c in a)):
        for ti in itertools.product(*(range(c) for c in b)):
            lo_hi = [(max(bs[0], bt[0]), min(bs[1], bt[1]))
                     for bs, bt in (zip((boxes(d, c)[k] for d, c, k in zip(shape, a, si)),
                                                      (boxes(d, c)[k] for d, c, k in zip(shape, b, ti))))]
            if all(h > l for l, h in lo_hi): want.add((si, ti, tuple(lo_hi)))
    got = tile_exchange(shape, a, b)
    got = [(si, ti, tuple((x.start, x.stop) for x in box)) for si, ti, box in got]
    assert len(got) == len(want) and set(got) == want


@given(st.integers(1, 60), st.integers(1, 12), st.integers(1, 12))
def test_cut_pattern_repeats_with_period_lcm(K, S, T):
    rows = cut_pattern(K, S, T)
    period = S * T // math.gcd(S, T)
    assert rows[0, 2] == 0 and rows[-1, 3] == K and np.all(rows[1:, 2] == rows[:-1, 3])
    one = rows[rows[:, 3] <= period]
    for r in rows[rows[:, 2] >= period]:
        k = r[2] // period
        base = one[one[:, 2] == r[2] - k * period]
        assert len(base) == 1 and base[0, 0] + k * period // S == r[0] and base[0, 1] + k * period // T == r[1]


def test_document_6x6_cases_move_exactly_the_cut_boxes():
    "6x6 on 2x3 and on 2x6, [[0],[1]] -> [[1],[0]]: the direct exchange moves exactly the tile_exchange boxes that change device."
    for sizes in ((2, 3), (2, 6)):
        g = Mesh({"g0": sizes[0], "g1": sizes[1]})
        src, dst = TensorSharding(g, [["g0"], ["g1"]]), TensorSharding(g, [["g1"], ["g0"]])
        plan = plan_reshard(src, dst, (6, 6), objective="bytes")
        moved = sum(int(plan.steps[-1].transfers.sizes().sum()) for _ in [0]) if len(plan.steps) == 1 else None
        pieces = tile_exchange((6, 6), sizes, sizes[::-1])
        dev_src = {tuple(i): g.device_at(g0=i[0], g1=i[1]) for i in itertools.product(range(sizes[0]), range(sizes[1]))}
        dev_dst = {(i[1], i[0]): g.device_at(g0=i[0], g1=i[1]) for i in itertools.product(range(sizes[0]), range(sizes[1]))}
        cross = sum(math.prod(s.stop - s.start for s in box) for si, ti, box in pieces if dev_src[si] != dev_dst[ti])
        assert plan.cost.max_bytes_received == plan.lower_bound_bytes
        if moved is not None: assert moved == cross


def test_bad_sizes():
    import pytest
    with pytest.raises(ShardingError, match="T must be an integer >= 1"): cut_pattern(4, 2, 0)
    with pytest.raises(ShardingError, match="one entry per dim"): tile_exchange((4, 4), (2,), (2, 2))
