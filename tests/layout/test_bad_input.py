"""Bad input the fuzz tier found crashing inside the layout stage, each now refused by a package error that names what
is wrong: a JAX mesh whose device ids are not integers, a global array numpy cannot hold, and meshes too large to list
device by device (`MAX_LISTED_DEVICES`)."""
import time
from types import SimpleNamespace

import numpy as np
import pytest

from shardnb.layout import interop
from shardnb.layout.mesh import MAX_LISTED_DEVICES, Mesh, ShardingError, ShardingTypeError
from shardnb.layout.sharding import TensorSharding, shard_array, unshard


def _jax_like(devices, spec=("x",)):
    "A stand-in for a NamedSharding: what `from_jax` reads (`mesh.axis_names`, `mesh.devices`, `spec`)."
    return SimpleNamespace(mesh=SimpleNamespace(axis_names=("x",), devices=np.array(devices, dtype=object)), spec=spec)


@pytest.mark.parametrize("ids, bad, k", [(["a", "b"], "'a' (str)", 0), ([0, 1.5], "1.5 (float)", 1),
                                         ([SimpleNamespace(id=0), SimpleNamespace(id="z")], "'z' (str)", 1),
                                         ([0, None], "None (NoneType)", 1)])
def test_from_jax_refuses_device_ids_that_are_not_integers(ids, bad, k):
    "A device id that is not an integer is named with its position (a float was truncated by int() before, silently)."
    with pytest.raises(ShardingTypeError) as e: interop.from_jax(_jax_like(ids))
    assert f"the id of device {k} of a JAX mesh (row-major) must be an integer, got: {bad}" in str(e.value)


def test_from_jax_still_reads_integer_ids_of_any_kind():
    "Python and numpy integers, and devices carrying an integer `.id`, are read as before (ranked to 0..N-1)."
    for ids in ([1, 0], [np.int64(1), np.int32(0)], [SimpleNamespace(id=7), SimpleNamespace(id=3)]):
        s = interop.from_jax(_jax_like(ids))
        assert s.mesh == Mesh([("x", 2)], [1, 0]), (ids, s.mesh)


def test_unshard_refuses_a_global_shape_numpy_cannot_hold():
    "Shards of (2**62, 0) int8 exist; the (2**63, 0) whole does not: a package error, not numpy's ValueError."
    halves = TensorSharding(Mesh({"x": 2}), [["x"], []])
    shards = {d: np.zeros((2**62, 0), np.int8) for d in range(2)}
    with pytest.raises(ShardingError, match=r"numpy cannot hold an array of shape \(9223372036854775808, 0\) and dtype int8"):
        unshard(shards, halves, (2**63, 0))
    small = TensorSharding(Mesh({"x": 2}), [["x"], []])
    x = np.arange(6, dtype=np.int8).reshape(2, 3)
    assert (unshard(shard_array(x, small), small, x.shape) == x).all()   # the ordinary path is unchanged


def test_unshard_checks_every_shard_shape_before_it_allocates():
    "A shard of the wrong shape is reported as such even when the global shape is not allocatable."
    rep = TensorSharding(Mesh({"x": 2}), [[], []])
    with pytest.raises(ShardingError, match=r"device 0 holds shape \(0, 0\), but the local shape is \(9223372036854775808, 0\)"):
        unshard({0: np.zeros((0, 0)), 1: np.zeros((0, 0))}, rep, (2**63, 0))


BIG = Mesh({"x": 2**12, "y": 2**12})   # 16,777,216 devices: fine to reason about, too many to list


@pytest.mark.parametrize("what, call", [
    ("devices_indices_map", lambda s: s.devices_indices_map((8192, 8192))),
    ("devices_indices_map", lambda s: shard_array(np.zeros((0, 0)), s)),
    ("dtensor_devices_indices_map", lambda s: interop.dtensor_devices_indices_map(s, (8192, 8192))),
    ("a reshard plan", lambda s: __import__("shardnb.reshard.planner", fromlist=["x"]).plan_reshard(
        s, TensorSharding(BIG, [["y"], ["x"]]), (8192, 8192))),
])
def test_functions_that_list_every_device_refuse_a_mesh_beyond_the_limit_at_once(what, call):
    "Refused by name and the limit, in well under a second (they took 13 s and past 17 s on a 2**24-device mesh)."
    s = TensorSharding(BIG, [["x"], ["y"]])
    t = time.perf_counter()
    with pytest.raises(ShardingError) as e: call(s)
    took = time.perf_counter() - t
    print(f"{what}: refused in {took * 1000:.1f} ms")
    assert f"{what} lists every device; the mesh has 16777216 devices and shardnb lists at most {MAX_LISTED_DEVICES}" in str(e.value)
    assert took < 1.0


def test_the_limit_is_inclusive_and_symbolic_work_is_not_limited():
    "A mesh of exactly MAX_LISTED_DEVICES lists its devices; local shapes of the 2**24-device mesh need no listing."
    at_limit = TensorSharding(Mesh({"x": MAX_LISTED_DEVICES}), [["x"]])
    m = at_limit.devices_indices_map((MAX_LISTED_DEVICES * 2,))
    assert len(m) == MAX_LISTED_DEVICES and m[MAX_LISTED_DEVICES - 1] == (slice(2 * MAX_LISTED_DEVICES - 2, 2 * MAX_LISTED_DEVICES),)
    assert TensorSharding(BIG, [["x"], ["y"]]).local_shape((8192, 8192)) == (2, 2)
