"""predict_collectives (nbs/04_shardy/09_predict.ipynb) and hlo_collectives (nbs/04_shardy/10_predict_xla.ipynb) against XLA on the whole real-JAX corpus:
each program compiled by jax on 8 host CPU devices (tests/shardy/xla_compile.py, in a subprocess, cached under
.pytest_cache), its partitioned HLO's collectives read, and the bytes each device receives compared with shardnb's
prediction from the program text alone. The share of programs where every device receives the same bytes is asserted;
the differences are printed by cause."""
import collections
import re

import pytest

from shardnb.ir.program import parse_module
from shardnb.shardy.predict import HLO_KINDS, compare_collectives, hlo_collectives, predict_collectives

from tests.corpus.programs import CORPUS_NAMES, jax_corpus  # noqa: F401  (a session fixture)
from tests.shardy.xla_compile import xla_compiled  # noqa: F401  (a session fixture)
from tests.shardy.predict_compare import OTHER_RESULT_SHARDING, compare_corpus

pytest.importorskip("jax")

# The share of compiled programs whose every device receives, by the prediction, the bytes XLA's collectives move.
# Measured with jax 0.10.2: 232 of 257 (90.3%). The prediction runs XLA's own reshard routine (xla_reshard, with the halos
# XLA exchanges before changing an uneven dim's shard count: realignment_halos) and models its handlers: an elementwise
# op's operand moved in place of its result (elementwise_moves), and one beside a host callback's result
# (one_device_operand_moves); a dot's operand gathered over the axes the dot groups on first (dot_grouped_first), a dot
# grouped on its contracting axes (dot_contracting_groups), its partial sums summed into the result's layout
# (dot_sums_scattered), its contracting split moved to a free axis (dot_free_axis_moves), a whole output with unlike
# contracting splits gathered (dot_whole_gathers), a dot partitioned in its propagated output sharding
# (dot_in_output_sharding), a batch-grouped convolution grouped on its batch dim (conv_batch_group_gathers); a reduce's
# or dot's partial sums all-reduced dim by dim (per_dim_all_reduces); a reshape as HandleReshape partitions it
# (reshape_gathers, reshape_operand_moves); a dynamic slice sliced in place (dynamic_slice_moves) or from its operand
# gathered whole (dynamic_slice_whole); a gather of one index per split dim (gather_trivial_slices); a sort in the
# layout HandleSort sorts in (sort_moves); a window in its result's layout (window_in_result_layout); a dot's other
# operand regrouped (dot_other_operand_regrouped); a concatenation of a value's two slices as a rotation (rotations);
# a value moved back to the layout it was computed in, free from XLA's reshard cache (computed_in); a slice into a
# split its input lacks, by compact halo rounds (slice_into_split); constants and iotas
# made again where they are needed (local_remakes); CHLO ops and composites legalized first (xla_legalized); calls
# inlined (feeds_calls_only, reshard_source). The target is 90%; the causes of the rest are printed below and
# explained in chapters 11 and 12.
EQUAL_SHARE = 0.902


@pytest.fixture(scope="module")
def rows(jax_corpus, xla_compiled):
    return compare_corpus(jax_corpus, xla_compiled)


def test_hlo_collectives_reads_every_collective_of_the_corpus(xla_compiled):
    "Every line of a compiled program that holds a collective is read, with groups that cover each device once."
    line = re.compile(r"=\s.*?\s(" + "|".join(HLO_KINDS) + r")(-start)?\(")
    seen = collections.Counter()
    for name in CORPUS_NAMES:
        hlo = xla_compiled[name].get("hlo")
        if hlo is None: continue
        want = [m.group(1) for m in map(line.search, hlo.splitlines()) if m]
        got = hlo_collectives(hlo)
        assert [c.kind for c in got] == want, name
        m = re.search(r"num_partitions=(\d+)", hlo)
        n = int(m.group(1)) if m else 1
        for c in got:
            seen[c.kind] += 1
            assert len(c.received) == n and all(b >= 0 for b in c.received), (name, c)
            if c.kind != "collective-permute": assert sorted(d for g in c.groups for d in g) == list(range(n)), (name, c)
            assert any(c.received) or c.kind == "collective-permute" or all(len(g) == 1 for g in c.groups), (name, c)
    print(dict(seen))
    assert set(seen) == set(HLO_KINDS)   # the corpus has every kind, reduce-scatter from shard_map's psum_scatter


def test_prediction_against_xla_over_the_corpus(rows):
    causes = collections.Counter(r["cause"] for r in rows.values())
    n, equal = len(rows), causes["equal"]
    print(f"\nequal bytes on every device: {equal} of {n} programs ({equal / n:.0%})")
    print(f"{'cause':<46}{'programs':>9}{'XLA B':>10}{'shardnb B':>11}")
    for cause, k in causes.most_common():
        sel = [r for r in rows.values() if r["cause"] == cause]
        print(f"{cause:<46}{k:>9}{sum(r['xla_bytes'] for r in sel):>10,}{sum(r['predicted_bytes'] for r in sel):>11,}")
    for name, r in rows.items():
        if not r["equal"]: print(f"  {name}: {r['cause']}, XLA {r['xla_bytes']:,} B, shardnb {r['predicted_bytes']:,} B")
    assert equal / n >= EQUAL_SHARE, (equal, n)
    # a program called equal is equal on every device; every other has a cause
    moved = lambda per: {d: b for d, b in per.items() if b}
    for name, r in rows.items():
        assert (r["cause"] == "equal") == (moved(r["xla_per_device"]) == moved(r["predicted_per_device"])), name


def test_the_planner_beside_xla(rows):
    """Reshards planned by shardnb's planner (`reshard="planner"`) instead of XLA's routine: over the programs where the
    two differ, the planner's busiest devices receive less in all, and in most programs (the figure a partitioner
    planning as shardnb does would reach)."""
    differ = [r for r in rows.values() if r["planner_bytes"] != r["predicted_bytes"]]
    less = sum(r["planner_bytes"] < r["predicted_bytes"] for r in differ)
    planner, xla = sum(r["planner_bytes"] for r in differ), sum(r["predicted_bytes"] for r in differ)
    print(f"\n{len(differ)} programs differ: the planner moves less in {less}, {planner:,} B against XLA's routine's {xla:,} B")
    assert differ and planner < xla and less > len(differ) / 2


def test_xla_reshard_groups_a_partially_replicated_source_with_a_tiled_target():
    "GroupShardingOnDims cuts each sharding on its own axes: a source with a replicated last axis beside a target without one."
    import numpy as np
    from shardnb.shardy.predict_xla import _tiled, xla_reshard
    s, t = _tiled(np.arange(8).reshape(2, 2, 1, 2), True), _tiled(np.arange(8).reshape(1, 2, 4), False)
    steps, out = xla_reshard(s, t, [8, 24, 4], 4)
    assert out == t and steps, (steps, out)
    print(steps)


def test_a_dots_partial_sums_are_all_reduced_per_split_dim():
    "A dot's contracting dim split by two axes: one all-reduce over both (AllReduceAlongShardingDims), as a reduce's."
    from shardnb.ir.program import parse_module
    from shardnb.shardy.predict import predict_collectives
    m = parse_module('''sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}, %b: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}''')
    p = predict_collectives(m)
    print(p)
    assert [(c.kind, c.received[0]) for c in p.collectives] == [("all-reduce", 7 * 8 * 8 * 4)]


def test_xla_reshard_reaches_every_target(seed):
    """XLA's reshard routine, as `xla_reshard` runs it, reaches its target from any layout to any other on 8 devices
    (random shardings of random shapes, the run's seed), moves nothing where source and target agree, and gathering
    an evenly split value whole brings each device exactly the rest of it (`Replicate`'s all-gathers)."""
    import math
    import random
    from shardnb.layout.mesh import Mesh
    from shardnb.layout.sharding import TensorSharding
    from shardnb.shardy.predict_xla import xla_reshard, xla_sharding
    rng = random.Random(seed)
    meshes = [Mesh({"x": 2, "y": 4}), Mesh({"a": 2, "b": 2, "c": 2}), Mesh({"x": 8}), Mesh({"x": 4, "y": 2}, device_ids=[7, 5, 3, 1, 6, 4, 2, 0])]
    def rand_sharding(mesh, rank):
        dims = [[] for _ in range(rank)]
        for name in rng.sample(mesh.axis_names, len(mesh.axis_names)):
            k = rng.randrange(rank + 1)
            if k < rank: dims[k].append(name)
        return TensorSharding(mesh, [tuple(d) for d in dims])
    kinds, n = {}, 300
    for _ in range(n):
        mesh, rank = rng.choice(meshes), rng.choice([1, 2, 3])
        shape = [rng.choice([8, 16, 24, 6, 5, 1]) for _ in range(rank)]
        s, t = xla_sharding(rand_sharding(mesh, rank)), xla_sharding(rand_sharding(mesh, rank))
        steps, out = xla_reshard(s, t, shape, 4)
        assert out == t, (s, t, shape)
        assert xla_reshard(s, s, shape, 4) == ([], s)
        for k, _ in steps: kinds[k] = kinds.get(k, 0) + 1
        if all(m % 8 == 0 for m in shape) and not s.replicated:
            whole = xla_sharding(TensorSharding(mesh, [()] * rank))
            got = {}
            for _, recv in xla_reshard(s, whole, shape, 4)[0]:
                for d, b in recv.items(): got[d] = got.get(d, 0) + b
            each = math.prod(shape) * 4 - math.prod(shape) * 4 // math.prod(s.dims)
            assert got == {d: each for d in s.devices}, (s, shape, got)
    print(f"\n{n} random reshards on 8 devices, collectives by kind: {kinds}")
    assert set(kinds) == {"all-gather", "all-to-all", "collective-permute", "all-reduce"}


def test_other_result_shardings_are_the_memory_reports_differences(rows):
    "A difference put down to XLA's choice of result sharding is one whose output bytes differ from XLA's memory analysis."
    for name, r in rows.items():
        assert (r["cause"] == OTHER_RESULT_SHARDING) == (not r["outputs_equal"] and not r["equal"]), name


def test_the_cpu_model_matters(jax_corpus, xla_compiled):
    """The CPU pipeline's own ways (no reduce-scatter, 16-bit floats moved as f32) are what make the programs that
    need them agree: predicted as for TPU, fewer programs agree."""
    names = [n for n in CORPUS_NAMES if "hlo" in xla_compiled[n] and re.search(r"xbf16>|xf16>|unreduced", jax_corpus[n])]
    agree = {b: sum(compare_collectives(hlo_collectives(xla_compiled[n]["hlo"]), predict_collectives(parse_module(jax_corpus[n]), backend=b)).equal
                    for n in names) for b in ("cpu", "tpu")}
    print(f"of {len(names)} programs with 16-bit floats or partial sums, equal with the CPU model: {agree['cpu']}, as for TPU: {agree['tpu']}")
    assert agree["cpu"] > agree["tpu"]
