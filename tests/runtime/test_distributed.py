"""Reshards across real processes (gloo on 127.0.0.1): exact against the simulator, robust to dead ranks, DTensor interop.

Each test launches one group of processes and runs many cases in it (see tests/runtime/_dist_worker.py);
`launch` kills and reaps every process it started, even on failure or timeout."""
import numpy as np
import pytest

pytest.importorskip("torch")
import torch.distributed as dist  # noqa: E402

from shardnb.runtime.processes import DistributedReshardError, launch  # noqa: E402
from shardnb.runtime.exchange import plan_exchange  # noqa: E402
from shardnb.layout.sharding import shard_array  # noqa: E402
from tests.runtime import _dist_worker as w  # noqa: E402

pytestmark = pytest.mark.skipif(not dist.is_available() or not dist.is_gloo_available(), reason="needs torch.distributed with gloo")


def _no_mismatch(results):
    "Assert that no rank's reshards differed from `shard_array`."
    for rank, (bad, _) in enumerate(results):
        assert bad == [], f"rank {rank} differs from shard_array on: {bad[:3]}"


def test_exchange_matches_simulator_in_numpy():
    "The exchange itself (no processes) covers every target element exactly once per needed partial class."
    for x, src, dst in w.random_cases(seed=7, n=150, world=8):
        ex = plan_exchange(src, dst, x.shape)
        dmap, smap = dst.devices_indices_map(x.shape), src.devices_indices_map(x.shape)
        out = {e: np.zeros(dst.local_shape(x.shape), x.dtype) for e in dmap}
        shards = shard_array(x, src)
        for t in ex.transfers:
            sl = tuple(slice(a - s.start, b - s.start) for (a, b), s in zip(t.box, smap[t.src]))
            dl = tuple(slice(a - s.start, b - s.start) for (a, b), s in zip(t.box, dmap[t.dst]))
            if t.add: out[t.dst][dl] += shards[t.src][sl]
            else: out[t.dst][dl] = shards[t.src][sl]
        want = shard_array(x, dst)
        for e in dmap: np.testing.assert_array_equal(out[e], want[e])


def test_four_processes():
    "4 ranks: random reshards exact, disagreement detected before data moves, DTensor round trip, known plans on native primitives."
    results = launch(w.suite4, 4, 1234, 60, timeout=110, collective_timeout=30)
    _no_mismatch([r["random"] for r in results])
    stats = results[0]["random"][1]
    assert stats["cases"] == 60 and min(stats["unreduced"], stats["sub_axes"], stats["uneven"], stats["non_iota"]) > 0, stats
    for msg, healthy in (r["disagree"] for r in results):
        assert msg is not None and "ranks disagree on the reshard" in msg and "[0]" in msg
        assert healthy
    for rank, r in enumerate(results):
        assert r["dtensor"] == [], (rank, r["dtensor"])
        for name, ok, want, log in r["plan"]:
            assert ok, (rank, name, log)
            if not want: continue
            assert [c for c, _, _ in log] == [c for c, _ in want], (rank, name, log)
            assert all(p == w for (_, p, _), (_, w) in zip(log, want) if w), (rank, name, log)
            if name == "forced fallback": assert all(n.startswith("fallback: the pieces of group") for _, _, n in log), log
            elif name.startswith("all_gather uneven two steps"): assert log[0][2].startswith("ran 2 plan steps"), log
            else: assert not any("fallback" in n for _, _, n in log), (rank, name, log)
    _check_primitives(stats)


NATIVE = {"all_gather_into_tensor", "all_to_all_single", "reduce_scatter_tensor", "all_reduce", "batch_isend_irecv", "local"}


def _check_primitives(stats):
    "Every step ran a primitive fitting its collective; a fallback always says why."
    fits = {"all_gather": {"all_gather_into_tensor", "all_to_all_single"},   # the second: a small gather on gloo, in one round
            "all_to_all": {"all_to_all_single"}, "reduce_scatter": {"reduce_scatter_tensor"}, "all_reduce": {"all_reduce"},
            "collective_permute": {"batch_isend_irecv"}, "point_to_point": {"batch_isend_irecv"},
            "all_slice": {"local", "batch_isend_irecv"}, "add_unreduced": {"local"}}
    fallback = {(c, p) for c, p, _ in stats["fallbacks"]}
    for c, p in stats["ran"]:
        assert p in NATIVE, (c, p)
        assert p in fits.get(c, ()) or (c, p) in fallback, (c, p, stats["fallbacks"])
    for c, p, note in stats["fallbacks"]:
        assert note.startswith("fallback: ") and len(note) > len("fallback: ") + 10, note
    return {p for _, p in stats["ran"]}


def test_eight_processes():
    """8 ranks: random reshards (three-axis meshes, sub-axes, unreduced, uneven, non-iota) exact on every rank; across the
    8- and 4-rank corpora every native primitive runs at least once, each step on the primitive fitting it (or a fallback saying why)."""
    results = launch(w.suite8, 8, 99, 40, timeout=110, collective_timeout=30)
    _no_mismatch([r["random"] for r in results])
    assert results[0]["random"][1]["cases"] == 40
    ran = _check_primitives(results[0]["random"][1])
    ran4 = _check_primitives(launch(w.check_random, 4, 1234, 30, timeout=110, collective_timeout=30)[0][1])
    for log, exact in (r["gather_large"] for r in results):   # over 1 MiB gathered: gloo's own all_gather
        assert log == [("all_gather", "all_gather_into_tensor")] and exact, log
    large = {p for _, p in results[0]["gather_large"][0]}
    missing = {"all_gather_into_tensor", "all_to_all_single", "reduce_scatter_tensor", "all_reduce", "batch_isend_irecv"} - (ran | ran4 | large)
    assert not missing, (missing, ran, ran4)
    _check_agreement_once([r["agreement"] for r in results])


def _check_agreement_once(results):
    "The agreement round runs once per distinct key and group (and on every call with check='always'); disagreement still raises."
    for rank, (counts, errors, exact) in enumerate(results):
        # new key, same, same (other timeout), always, off, new target, fuse=False, float64, new group, same; two rounds
        # that found a disagreement (one with check='always' on agreed keys, one on new keys); then the agreed key: none
        assert counts == [1, 1, 1, 2, 2, 3, 4, 5, 6, 6, 8], (rank, counts)
        assert exact, rank
        for msg in errors:   # rank 0 differs from the other seven, both with check='always' on agreed keys and on new keys
            assert msg is not None and "ranks disagree on the reshard" in msg and "ranks [0] differ" in msg, (rank, msg)


def test_killed_rank_raises_within_timeout():
    "A SIGKILLed rank makes every other rank raise DistributedReshardError within the timeout, and nothing hangs."
    timeout = 4.0
    results = launch(w.killed_rank, 4, 2, timeout, timeout=60, collective_timeout=timeout, check=False)
    assert results[2][0] == "err" and "died" in results[2][1]
    for rank in (0, 1, 3):
        status, value = results[rank]
        assert status == "ok", value
        kind, elapsed, msg = value
        assert kind == "DistributedReshardError", (rank, kind, msg)
        assert elapsed < timeout + 3, (rank, elapsed)


def test_launch_reports_failures():
    "A worker that raises is reported with its rank and error; the launch raises the package's error."
    with pytest.raises(DistributedReshardError, match="rank 1: ZeroDivisionError"):
        launch(_divide_by_rank_minus_one, 2, timeout=30)


def _divide_by_rank_minus_one(rank, world):
    return 1 / (rank - 1) if rank == 1 else 0


def test_sub_groups_are_created_again_for_a_new_default_group():
    "After destroy_process_group and a new init, `subgroup` creates groups of the new world, not the cached dead ones."
    from shardnb.runtime.processes import free_port
    out = launch(w.regroup, 4, free_port(), timeout=90)
    for rank, (fresh, ranks, total) in enumerate(out):
        assert fresh, rank
        assert ranks == ([0, 1] if rank < 2 else [2, 3]), (rank, ranks)
        assert total == (3.0 if rank < 2 else 7.0), (rank, total)
