"""Differential tests: each import pass against Shardy's own (jaxlib 0.10.2) on generated programs.

Programs come from `tests/shardy/passes_gen.py` (shapes, dtypes, meshes with device ids, regions with constraints inside,
manual computations, functions and calls), 1,000 per pass, drawn from this run's seed (`SHARDNB_SEED` replays it).
jaxlib re-prints shardnb's output and the two texts must be identical -- the sharding rules Shardy attaches, the
`stablehlo.mesh` attributes, data-flow edges, constant clones and all: nothing is normalised away. Where Shardy
rejects a program, shardnb must reject it too, with Shardy's message."""
import collections
import re

import pytest

from shardnb.ir.ops import ops_with
from shardnb.ir.program import ProgramError, parse_module, print_module
from shardnb.shardy import import_passes as P
from tests.shardy.passes_gen import gen_program, features

jax = pytest.importorskip("jax")

PASSES = {"sdy-add-data-flow-edges": P.add_data_flow_edges, "sdy-apply-sharding-constraints": P.apply_sharding_constraints,
          "sdy-constant-or-scalar-splitter": P.constant_splitter, "sdy-lift-inlined-meshes": P.lift_inlined_meshes,
          "sdy-manual-axes-cleanup": P.manual_axes_cleanup, "sdy-sharding-group-import": P.sharding_group_import,
          "symbol-dce": P.symbol_dce, "sdy-remove-size-one-axes": P.remove_size_one_axes,
          "sdy-propagate-sharding-from-func-to-call": P.propagate_sharding_from_func_to_call,
          "sdy-flatten-call-graph": P.flatten_call_graph, "sdy-import-func-calls": P.import_func_calls,
          "sdy-pre-order-funcs": P.pre_order_funcs}
SIX = ",".join(["sdy-lift-inlined-meshes", "sdy-constant-or-scalar-splitter", "sdy-manual-axes-cleanup",
                "sdy-add-data-flow-edges", "sdy-apply-sharding-constraints", "sdy-sharding-group-import"])
# what jaxlib 0.10.2's sdy-propagation-pipeline runs before it propagates (`PassManager.parse(...)` prints it)
IMPORT = ("symbol-dce,sdy-lift-inlined-meshes,sdy-remove-size-one-axes,sdy-propagate-sharding-from-func-to-call,"
          "sdy-constant-or-scalar-splitter,symbol-dce,sdy-manual-axes-cleanup,sdy-save-module,sdy-add-data-flow-edges,"
          "sdy-flatten-call-graph,symbol-dce,sdy-import-func-calls{add-data-flow-edges-on-named-computations=true},"
          "symbol-dce,sdy-apply-sharding-constraints,sdy-sharding-group-import,sdy-pre-order-funcs")
# sdy-save-module only dumps the module (when a dump directory is set) and can't be run on its own
IMPORT_RUN = IMPORT.replace("sdy-save-module,", "")
N = 1000


def six_passes(m):
    "The six passes of the import-pass document, in jaxlib's order."
    for p in (P.lift_inlined_meshes, P.constant_splitter, P.manual_axes_cleanup, P.add_data_flow_edges,
              P.apply_sharding_constraints, P.sharding_group_import): m = p(m)
    return m


@pytest.fixture(scope="module")
def shardy():
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import ir, passmanager
    ctx = jm.make_ir_context()
    def run(text, pipeline=None):
        with ctx:
            m = ir.Module.parse(text)
            if pipeline: passmanager.PassManager.parse(f"builtin.module({pipeline})").run(m.operation)
            return str(m)
    return run


# jaxlib reports a failed pass as "Failure while executing pass pipeline:", then one `error: LOCATION: MESSAGE` line
# (the op's location in the parsed text), then notes (` note: LOCATION: see current operation: ...`)
_DIAGNOSTIC = re.compile(r'Failure while executing pass pipeline:\nerror: "-":\d+:\d+: ([^\n]*)(?:\n note: [^\n]*)*')


def jaxlib_message(why: str) -> str:
    "The message of jaxlib's one error diagnostic, without the location jaxlib puts before it."
    m = _DIAGNOSTIC.fullmatch(why)
    assert m, f"not one jaxlib error diagnostic: {why!r}"
    return m.group(1)


def check(shardy, pipeline, fn, text):
    "shardnb's `fn` and jaxlib's `pipeline` on `text`: the same module, or the same refusal. Returns 'ok' or 'rejected'."
    shardy(text)   # the program itself is valid (a generator bug must not pass as a pass disagreement)
    try: theirs = shardy(text, pipeline)
    except Exception as e:
        why = str(e)
        with pytest.raises(ProgramError) as ours: fn(parse_module(text))
        # jaxlib's diagnostic is the verifier's message behind the location jaxlib adds; shardnb's must be that message
        assert str(ours.value) == jaxlib_message(why), (str(ours.value), why, text)
        return "rejected"
    ours = shardy(print_module(fn(parse_module(text))))
    assert ours == theirs, text
    return "ok"


def seeds(seed, n=N): return [seed * 7919 + k for k in range(n)]


@pytest.mark.parametrize("name", list(PASSES))
def test_pass_matches_shardy(shardy, name, seed):
    inline = name == "sdy-lift-inlined-meshes"
    outcome = collections.Counter(check(shardy, name, PASSES[name], gen_program(s, inline=inline)) for s in seeds(seed))
    assert outcome["ok"] >= 0.95 * N, outcome   # the comparison is not vacuous: most programs are accepted by Shardy


def test_six_passes_match_shardy(shardy, seed):
    outcome = collections.Counter(check(shardy, SIX, six_passes, gen_program(s, inline=s % 2 == 0)) for s in seeds(seed))
    assert outcome["ok"] >= 0.95 * N, outcome


def test_import_pipeline_matches_shardy(shardy, seed):
    outcome = collections.Counter(check(shardy, IMPORT_RUN, P.import_pipeline, gen_program(s, inline=s % 2 == 0)) for s in seeds(seed))
    assert outcome["ok"] >= 0.95 * N, outcome


def test_import_is_jaxlibs_list(shardy):
    "IMPORT is what jaxlib expands sdy-propagation-pipeline into, up to its first propagation pass."
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import passmanager
    with jm.make_ir_context():
        full = str(passmanager.PassManager.parse("builtin.module(sdy-propagation-pipeline)"))
    head = full[len("builtin.module("):full.index(",sdy-user-priority-propagate")]
    assert head.replace("sdy-apply-sharding-constraints{debug-propagation-edge-sharding=false debug-sharding-origins=false}",
                        "sdy-apply-sharding-constraints") == IMPORT


def test_generator_reaches_the_hard_cases(seed):
    "Measured, not hoped: each feature the passes care about appears often, and most programs are non-trivial."
    fs = [features(gen_program(s, inline=s % 2 == 0)) for s in seeds(seed, 300)]
    count = collections.Counter(f for x in fs for f in x)
    for f in ("constraint", "group", "manual", "while", "case", "if", "call", "barrier", "device_ids", "two_meshes",
              "inline_mesh", "sub_axis", "priority", "region_constraint"):
        assert count[f] >= 0.1 * len(fs), (f, count)
    nontrivial = sum("sharded_dim" in x and bool(x & {"constraint", "group", "manual"}) for x in fs)
    assert nontrivial >= 0.8 * len(fs), (nontrivial, count)


# Regressions: each a disagreement with jaxlib that a fresh seed found, now fixed at its cause.
REGRESSIONS = {
    # a closed constraint on a manual computation's result: the result's sharding is its out_sharding, so Shardy keeps it
    "manual_result": '''sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a: tensor<4x8xf32>) {
    sdy.return %a : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}''',
    # stablehlo.if has no data-flow edges in Shardy (only while, case, optimization_barrier and computations do)
    "if_no_edges": '''func.func @main(%p: tensor<i1>, %arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %arg0 : tensor<8xf32>
  }, {
    %1 = stablehlo.negate %arg0 : tensor<8xf32>
    stablehlo.return %1 : tensor<8xf32>
  }) : (tensor<i1>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}''',
    # a constraint on a while-body argument shards the while's result (its edge owner), the other result opens
    "while_body_arg": '''sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0:2 = stablehlo.while(%i = %arg0, %j = %arg1) : tensor<8xf32>, tensor<8xf32>
   cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = sdy.sharding_constraint %j <@mesh, [{"x"}]> : tensor<8xf32>
    stablehlo.return %i, %1 : tensor<8xf32>, tensor<8xf32>
  }
  %2 = sdy.sharding_constraint %0#0 <@mesh, [{}]> : tensor<8xf32>
  return %2 : tensor<8xf32>
}''',
    # an applied constraint gets Shardy's identity sharding rule, a scalar one included
    "identity_rule": '''sdy.mesh @m = <["a"=2]>
func.func @main(%b: tensor<8x8xf32>, %c: tensor<f32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %b <@m, [{"a"}, {}]> : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %c <@m, []> : tensor<f32>
  return %0 : tensor<8x8xf32>
}''',
    # lifted meshes: empty and maximal names, and `stablehlo.mesh` on every named mesh
    "mesh_names": '''sdy.mesh @e = <["q"=1]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<[]>, [{}]>}, %b: tensor<f32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[3]>, []>},
                %c: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2], device_ids=[1, 0]>, [{"x"}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}''',
}


@pytest.mark.parametrize("case", list(REGRESSIONS))
def test_regressions(shardy, case):
    for name, fn in PASSES.items():
        check(shardy, name, fn, REGRESSIONS[case])
    check(shardy, SIX, six_passes, REGRESSIONS[case])
    check(shardy, IMPORT_RUN, P.import_pipeline, REGRESSIONS[case])


def test_regressions_say_what_they_say(shardy):
    "Each regression shows its effect in jaxlib's output, so it can't pass vacuously."
    out = {k: shardy(t, SIX) for k, t in REGRESSIONS.items()}
    assert '<@mesh, [{}, {"y"}]> :' in out["manual_result"] and "sharding_rule" not in out["manual_result"]
    assert "data_flow_edge" not in out["if_no_edges"]
    assert 'sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"x"}]>]>' in shardy(REGRESSIONS["while_body_arg"], "sdy-apply-sharding-constraints")
    assert "#sdy.op_sharding_rule<([])->([])>" in out["identity_rule"]
    assert "@empty_mesh" in out["mesh_names"] and "@maximal_mesh_3" in out["mesh_names"] and "stablehlo.mesh" in out["mesh_names"]


# Programs Shardy's verifier rejects, each with the message shardnb must give: case -> (program, message).
REJECTIONS = {
    "group_across_manual": ('''sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a: tensor<4x8xf32>) {
    sdy.sharding_group %a group_id=0 : tensor<4x8xf32>
    sdy.return %a : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}''', "ShardingGroupOps values cannot cross ManualComputationOp boundaries for groupId: 0"),
    "group_shapes": ('''func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<8x8xf32> {
  sdy.sharding_group %arg0 group_id=3 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id=3 : tensor<4x8xf32>
  return %arg0 : tensor<8x8xf32>
}''', "ShardingGroupOps values must have the same shape for groupId: 3"),
}


@pytest.mark.parametrize("case", list(REJECTIONS))
def test_rejections_carry_jaxlibs_message(shardy, case):
    "jaxlib and shardnb reject the program in the sharding-group import, alone or in the import pipeline, with one message, whatever the seed draws."
    text, message = REJECTIONS[case]
    for pipeline, fn in (("sdy-sharding-group-import", P.sharding_group_import), (IMPORT_RUN, P.import_pipeline)):
        with pytest.raises(Exception) as theirs: shardy(text, pipeline)
        assert jaxlib_message(str(theirs.value)) == message
        assert check(shardy, pipeline, fn, text) == "rejected"
        with pytest.raises(ProgramError) as ours: fn(parse_module(text))
        assert str(ours.value) == message


# The constant splitter goes on through an op when Shardy's `isConstantPreserving` says so: a broadcast, reshape or
# slice, or a pure op of `isElementwise` (StableHLO's element-wise traits, a bitcast_convert that keeps the shape,
# sdy.reshard, sdy.propagation_barrier; sdy.sharding_constraint is element-wise but not pure). Each case: a constant
# through one op, the result used twice. Case -> (program, the op, whether jaxlib clones the op for each use).
def _through(line, t="tensor<8xf32>"):
    return f"""sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: {t}) -> ({t}, {t}) {{
  %c = stablehlo.constant dense<1.000000e+00> : tensor<8xf32>
  {line}
  %0 = stablehlo.add %arg0, %r : {t}
  %1 = stablehlo.multiply %arg0, %r : {t}
  return %0, %1 : {t}, {t}
}}"""


SPLIT = {
    "reduce_precision": (_through("%r = stablehlo.reduce_precision %c, format = e5m10 : tensor<8xf32>"), "stablehlo.reduce_precision", True),
    "bitcast_convert": (_through("%r = stablehlo.bitcast_convert %c : (tensor<8xf32>) -> tensor<8xi32>", "tensor<8xi32>"),
                        "stablehlo.bitcast_convert", True),
    "bitcast_convert_narrower": (_through("%r = stablehlo.bitcast_convert %c : (tensor<8xf32>) -> tensor<8x2xf16>", "tensor<8x2xf16>"),
                                 "stablehlo.bitcast_convert", False),
    "reshard": (_through('%r = sdy.reshard %c <@mesh, [{"x"}]> : tensor<8xf32>'), "sdy.reshard", True),
    "propagation_barrier": (_through("%r = sdy.propagation_barrier %c allowed_direction=FORWARD : tensor<8xf32>"),
                            "sdy.propagation_barrier", True),
    "sharding_constraint": (_through('%r = sdy.sharding_constraint %c <@mesh, [{"x"}]> : tensor<8xf32>'), "sdy.sharding_constraint", False),
}


@pytest.mark.parametrize("case", list(SPLIT))
def test_constant_splitter_through_each_op(shardy, case):
    "shardnb's splitter and jaxlib's agree on a constant through the op (and so do the import pipelines); jaxlib clones the op or not, as the case says."
    text, op, cloned = SPLIT[case]
    assert check(shardy, "sdy-constant-or-scalar-splitter", P.constant_splitter, text) == "ok"
    assert check(shardy, IMPORT_RUN, P.import_pipeline, text) == "ok"
    assert shardy(text, "sdy-constant-or-scalar-splitter").count(f"= {op} ") == (2 if cloned else 1)


def test_constant_splitter_before_fails_these(shardy, monkeypatch):
    "The splitter's set before (StableHLO's element-wise ops less reduce_precision; no bitcast_convert, reshard or barrier) fails each case jaxlib clones."
    before = ops_with("elementwise", "broadcasting", without=("quantized",)) - {"stablehlo.reduce_precision"}
    before |= {"stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.slice"}
    monkeypatch.setattr(P, "constant_preserving", lambda op: not op.regions and op.name in before)
    for case, (text, _, cloned) in SPLIT.items():
        if not cloned: assert check(shardy, "sdy-constant-or-scalar-splitter", P.constant_splitter, text) == "ok"; continue
        with pytest.raises(AssertionError): check(shardy, "sdy-constant-or-scalar-splitter", P.constant_splitter, text)
