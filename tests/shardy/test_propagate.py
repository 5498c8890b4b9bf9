"""shardnb.shardy.propagate on small hand-written programs, one per feature of Shardy's propagation (modelled on what
Shardy's lit tests cover), and on programs lowered by JAX, each compared with jaxlib's pass; plus the API's
contract (new modules, inputs untouched, clear errors)."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from shardnb.ir.program import parse_module, print_module, ProgramError
from shardnb.shardy.import_passes import add_data_flow_edges, import_pipeline
from shardnb.shardy.propagate import propagate, propagation_rounds, value_shardings, sink_data_flow_edges, STRATEGIES

from tests.shardy.propagate_compare import compare, pass_name

M = 'sdy.mesh @mesh = <["a"=2, "b"=2, "c"=3]>\n'

FEATURES = {
    "pointwise": M + '''func.func @main(%x: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c"}]>}, %y: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = stablehlo.add %x, %y : tensor<8x6xf32>
  %1 = stablehlo.tanh %0 : tensor<8x6xf32>
  return %1 : tensor<8x6xf32>
}''',
    "func_results": M + '''func.func @main(%x: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b"}]>}) {
  %0 = stablehlo.negate %x : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}''',
    "closed_and_replicated": M + '''func.func @main(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>},
    %y: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {}], replicated={"a"}>}) -> tensor<8x8xf32> {
  %0 = stablehlo.multiply %x, %y : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}''',
    "constraint_and_barrier": M + '''func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %x : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a", ?}, {?}]> : tensor<8x8xf32>
  %2 = sdy.propagation_barrier %1 allowed_direction=FORWARD : tensor<8x8xf32>
  %3 = stablehlo.exponential %2 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}''',
    "reshape_sub_axes_and_overflow": 'sdy.mesh @mesh = <["x"=4, "y"=3]>\n' + '''func.func @main(%x: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
    %y: tensor<2x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}]>}) -> (tensor<24xf32>, tensor<24xf32>) {
  %0 = stablehlo.reshape %x : (tensor<6x4xf32>) -> tensor<24xf32>
  %1 = stablehlo.reshape %y : (tensor<2x12xf32>) -> tensor<24xf32>
  return %0, %1 : tensor<24xf32>, tensor<24xf32>
}''',
    "non_divisible": 'sdy.mesh @mesh = <["x"=4]>\n' + '''func.func @main(%x: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<3x2xf32> {
  %0 = stablehlo.sine %x : tensor<6xf32>
  %1 = stablehlo.reshape %0 : (tensor<6xf32>) -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}''',
    "meshes": 'sdy.mesh @mesh = <["a"=2]>\nsdy.mesh @same = <["a"=2]>\nsdy.mesh @empty = <[]>\nsdy.mesh @other = <["z"=2]>\nsdy.mesh @maximal = <[], device_ids=[0]>\n' + '''func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@same, [{"a", ?}]>},
    %y: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}, %z: tensor<8xf32> {sdy.sharding = #sdy.sharding<@empty, [{?}]>},
    %w: tensor<8xf32> {sdy.sharding = #sdy.sharding<@other, [{"z"}]>}, %v: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.add %x, %y : tensor<8xf32>
  %1 = stablehlo.add %0, %z : tensor<8xf32>
  %2 = stablehlo.add %1, %w : tensor<8xf32>
  %3 = stablehlo.add %v, %v : tensor<8xf32>
  return %0, %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}''',
    "blocked_custom_rule": M + '''func.func @main(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.custom_call @foo(%x) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8} blocked_propagation={j}, custom>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}''',
    "groups_agree_and_conflict": M + '''func.func @main(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %y: tensor<8x8xf32>,
    %u: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %w: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  sdy.sharding_group %x group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %y group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %u group_id=1 : tensor<8x8xf32>
  sdy.sharding_group %w group_id=1 : tensor<8x8xf32>
  %0 = stablehlo.negate %y : tensor<8x8xf32>
  %1 = stablehlo.add %u, %w : tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}''',
    "dot_batch_contract_priorities": M + '''func.func @main(%x: tensor<4x8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}p1, {"c", ?}p0]>},
    %y: tensor<4x6x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}, {"b", ?}p2]>}) -> tensor<4x8x16xf32> {
  %0 = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x6xf32>, tensor<4x6x16xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}''',
    "dead_ops_erased": M + '''func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %x : tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  %2 = stablehlo.constant dense<1.0> : tensor<8xf32>
  return %x : tensor<8xf32>
}''',
    "while_edges": M + '''func.func @main(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}, %y: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0:2 = stablehlo.while(%i = %x, %j = %y) : tensor<8x8xf32>, tensor<8x8xf32>
   cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %t = stablehlo.add %i, %j : tensor<8x8xf32>
    stablehlo.return %t, %j : tensor<8x8xf32>, tensor<8x8xf32>
  }
  %1 = stablehlo.optimization_barrier %0#1 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}''',
    "manual_computation": 'sdy.mesh @mesh = <["a"=2, "b"=2]>\n' + '''func.func @main(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {?}]>}) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%arg1: tensor<8x8xf32>) {
    %1 = stablehlo.add %arg1, %arg1 : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = stablehlo.negate %0 : tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
}''',
}

EDGES = {"while_edges", "manual_computation"}


@pytest.mark.parametrize("conservative", [False, True])
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_features_agree_with_jaxlib(strategy, conservative):
    pytest.importorskip("jax")
    for edges in (False, True):
        names = [n for n in FEATURES if (n in EDGES) == edges]
        texts = [FEATURES[n] for n in names]
        if edges:
            fn = lambda m: sink_data_flow_edges(propagate(add_data_flow_edges(m), strategy=strategy, conservative=conservative))
            pipe = "sdy-add-data-flow-edges," + pass_name(strategy, conservative) + ",func.func(sdy-sink-data-flow-edges)"
        else:
            fn, pipe = (lambda m: propagate(m, strategy=strategy, conservative=conservative)), pass_name(strategy, conservative)
        for name, r in zip(names, compare(texts, fn, pipe)):
            assert r["ref_ok"], (name, r["ref"][:400])
            assert r["identical"], (name, r["diffs"][:3])


def test_features_propagate_something():
    "Each feature program is one where propagation decides something (so agreement is not vacuous)."
    for name, text in FEATURES.items():
        m = parse_module(text)
        if name in EDGES: m = add_data_flow_edges(m)
        before, after = value_shardings(m), value_shardings(propagate(m))
        assert before != after or name == "meshes", name


def test_returns_new_module_and_leaves_input_alone():
    m = parse_module(FEATURES["pointwise"])
    text = print_module(m)
    out = propagate(m, strategy="basic")
    assert out is not m and print_module(m) == text
    assert value_shardings(out)["%1"] == '<@mesh, [{"a", "b", ?}, {"c", ?}]>'
    rounds = propagation_rounds(m)
    assert print_module(m) == text and rounds[0][0] == "input" and print_module(rounds[-1][1]) == print_module(propagate(m))


def test_bad_input():
    m = parse_module(FEATURES["pointwise"])
    with pytest.raises(ValueError, match="unknown propagation strategy 'fast'"): propagate(m, strategy="fast")
    with pytest.raises(TypeError, match="propagate takes a Module"): propagate(FEATURES["pointwise"])
    bad = parse_module(M + '''func.func @main(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = stablehlo.abs %x : tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}''')
    with pytest.raises(ProgramError, match="static shape"): propagate(bad)
    rank = parse_module(FEATURES["pointwise"].replace('[{"a", "b"}, {"c"}]', '[{"a", "b"}]'))
    with pytest.raises(ProgramError, match="argument 0 of @main: sharding doesn't match tensor rank: 1 != 2"): propagate(rank, strategy="basic")
    with pytest.raises(ProgramError, match="rank"): propagation_rounds(rank)


JAX_PROGRAMS = textwrap.dedent('''
    import json, os
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    import numpy as np, jax, jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    mesh = Mesh(np.array(jax.devices()[:8]).reshape(2, 2, 2), ("data", "model", "seq"))
    S = lambda *spec: NamedSharding(mesh, P(*spec))
    def mlp(x, w1, w2):
        h = jnp.maximum(x @ w1, 0.0)   # jax.nn.relu lowers to a func.call, which shardnb prints as `call` (see the report)
        h = jax.lax.with_sharding_constraint(h, S("data", "model"))
        return (h @ w2).sum(axis=0)
    def attn(q, k):
        s = jnp.einsum("bqd,bkd->bqk", q, k)
        e = jnp.exp(s - s.max(axis=-1, keepdims=True))
        return (e / e.sum(axis=-1, keepdims=True)).reshape(q.shape[0], -1)
    def loop(x):
        return jax.lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, jnp.tanh(c[1]) * 2.0), (0, x))[1].T
    A = lambda shape, *spec: jax.ShapeDtypeStruct(shape, jnp.float32, sharding=S(*spec))
    out = [jax.jit(mlp).lower(A((16, 32), "data", None), A((32, 64), None, "model"), A((64, 8), "model", None)).as_text(),
           jax.jit(attn).lower(A((4, 8, 16), "data", "seq", None), A((4, 8, 16), "data", None, "model")).as_text(),
           jax.jit(loop).lower(A((8, 12), None, "model")).as_text()]
    print(json.dumps(out))
''')


def test_jax_programs_agree_with_jaxlib():
    "Programs as JAX lowers them (constraints, reshapes, reductions, a while loop), after shardnb's import passes."
    pytest.importorskip("jax")
    p = subprocess.run([sys.executable, "-c", JAX_PROGRAMS], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    texts = [print_module(import_pipeline(parse_module(t))) for t in json.loads(p.stdout)]
    for strategy in STRATEGIES:
        for r in compare(texts, lambda m: propagate(m, strategy=strategy), pass_name(strategy, False)):
            assert r["ref_ok"] and r["identical"], (strategy, r["diffs"][:3])


SUB_AXIS_ADD = '''sdy.mesh @mesh = <["x"=4]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(START)2}]>}, %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.add %a, %b : tensor<8xf32>
  return %0 : tensor<8xf32>
}'''


def test_a_sub_axis_is_a_prefix_of_its_axis_only_from_the_same_start():
    """An add of an operand sharded by "x":(1)2 (the major half of "x"=4) and one sharded by "x" shares that half: the
    result is sharded by it (by all of "x" where a strategy resolves the conflict). By "x":(2)2 (the minor half) the two share no prefix ("x" starts at 1, the sub-axis at 2), and the
    result stays unsharded. Both as jaxlib's pass decides, in every strategy."""
    pytest.importorskip("jax")
    texts = [SUB_AXIS_ADD.replace("START", "1"), SUB_AXIS_ADD.replace("START", "2")]
    for strategy in STRATEGIES:
        got = [value_shardings(propagate(parse_module(t), strategy=strategy))["%0"] for t in texts]
        assert got[0].startswith('<@mesh, [{"x"') and got[1] == "", (strategy, got)
        for r in compare(texts, lambda m: propagate(m, strategy=strategy), pass_name(strategy, False)):
            assert r["ref_ok"] and r["identical"], (strategy, r["diffs"][:3])


TWO_USERS = '''sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}]>}) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = stablehlo.abs %x : tensor<16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"b"}]> : tensor<16xf32>
  %2 = stablehlo.negate USED : tensor<16xf32>
  return %1, %2 : tensor<16xf32>, tensor<16xf32>
}'''


def test_op_priority_first_round_skips_an_op_whose_operand_has_two_users():
    """Op-priority propagation's first rounds pass shardings through element-wise ops only where each operand has no
    other user. With %x read by the abs alone, the abs takes %x's ["a", "b"] first; with %x read by a negate too, the
    abs waits, the constraint's ["b"] reaches %0 backward first, and %0 keeps ["b"]. Both as jaxlib's pass decides."""
    pytest.importorskip("jax")
    texts = [TWO_USERS.replace("USED", "%1"), TWO_USERS.replace("USED", "%x")]
    got = [value_shardings(propagate(parse_module(t), strategy="op-priority"))["%0"] for t in texts]
    assert got == ['<@mesh, [{"a", "b", ?}]>', '<@mesh, [{"b", ?}]>'], got
    for r in compare(texts, lambda m: propagate(m, strategy="op-priority"), pass_name("op-priority", False)):
        assert r["ref_ok"] and r["identical"], r["diffs"][:3]
