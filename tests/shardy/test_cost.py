"""The communication report (nbs/04_shardy/06_cost.ipynb): its totals, its reshards and reductions against
`plan_reshard` on the same cases (wiring: the report calls it), jaxlib's own pipeline output, in which every
`sdy.reshard` and Shardy collective must be costed, and an independent reference: on small programs, the collectives
and bytes per device derived by hand, and the collectives XLA's SPMD partitioner emits for the same programs."""
import math
import re

import numpy as np
import pytest

from shardnb.shardy.cost import communication_report, CostReport, collective_axes, reduction_axes
from shardnb.ir.program import parse_module
from shardnb.shardy.import_passes import import_pipeline
from shardnb.shardy.propagate import propagate, STRATEGIES
from shardnb.reshard.planner import plan_reshard, CostModel, itemsize
from shardnb.layout.sharding import AxisRef
from shardnb.layout.syntax import parse_sharding, parse_mesh

from tests.corpus.programs import CORPUS_NAMES, jax_corpus  # noqa: F401  (a session fixture)

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=4]>'
MESHES = {"mesh": parse_mesh('<["x"=2, "y"=4]>')}
COMM = re.compile(r"= sdy\.(reshard|all_gather|all_slice|all_reduce|reduce_scatter|all_to_all|collective_permute)\b")


def module(body, args):
    return parse_module(f"{MESH}\nfunc.func @main({args}) -> tensor<8x16xf32> {{\n{body}\n}}")


def check_totals(r: CostReport):
    "A report's totals are the sums of its parts, and the busiest device is no busier than the sum of each item's."
    assert r.bytes == sum(i.bytes for i in r.items)
    assert r.seconds == pytest.approx(sum(i.plan.cost.seconds for i in r.items))
    per = r.per_device()
    assert sum(per.values()) == sum(i.plan.cost.total_bytes for i in r.items)
    for i in r.items: assert max(i.per_device().values(), default=0) == i.bytes
    dev, b = r.busiest_device
    assert b == max(per.values(), default=0) <= r.bytes
    assert sum(b for b, _ in r.by_value().values()) == r.bytes
    text = str(r)
    assert f"{r.bytes:,} B" in text and len(text.splitlines()) >= len(r.items) + 1


# ---- reshards: the bytes and time of plan_reshard on the same case (wiring; the sizes themselves are checked against
# hand derivations and XLA's partitioned HLO at the end of this file)

@pytest.mark.parametrize("src,dst,dtype", [('[{"x"}, {}]', '[{}, {"x"}]', "bf16"), ('[{"x"}, {"y"}]', '[{"y"}, {"x"}]', "f32"),
                                           ('[{}, {}]', '[{"x", "y"}, {}]', "f32"), ('[{"y"}, {}]', '[{}, {}]', "i8")])
def test_reshard_is_plan_reshard(src, dst, dtype):
    m = parse_module(f"""{MESH}
func.func @main(%a: tensor<8x16x{dtype}> {{sdy.sharding = #sdy.sharding<@mesh, {src}>}}) -> tensor<8x16x{dtype}> {{
  %0 = sdy.reshard %a <@mesh, {dst}> : tensor<8x16x{dtype}>
  return %0 : tensor<8x16x{dtype}>
}}""")
    r = communication_report(m)
    (item,) = r.items
    plan = plan_reshard(parse_sharding(f"<@mesh, {src}>", MESHES), parse_sharding(f"<@mesh, {dst}>", MESHES), (8, 16), dtype)
    assert (item.kind, item.where) == ("reshard", "@main %0")
    assert item.bytes == plan.cost.max_bytes_received and item.seconds == plan.cost.seconds
    assert [str(s) for s in item.plan.steps] == [str(s) for s in plan.steps]
    check_totals(r)


def test_cost_model_and_objective_reach_the_planner():
    m = parse_module(f"""{MESH}
func.func @main(%a: tensor<64x64xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}]>}}) -> tensor<64x64xf32> {{
  %0 = sdy.reshard %a <@mesh, [{{"y"}}, {{"x"}}]> : tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}}""")
    slow = CostModel(alpha=1e-3, beta=1e6)
    a, b = communication_report(m), communication_report(m, cost_model=slow)
    assert a.bytes == b.bytes and b.seconds > 100 * a.seconds
    src, dst = parse_sharding('<@mesh, [{"x"}, {"y"}]>', MESHES), parse_sharding('<@mesh, [{"y"}, {"x"}]>', MESHES)
    assert communication_report(m, objective="bytes").bytes == plan_reshard(src, dst, (64, 64), objective="bytes").cost.max_bytes_received


# ---- reductions a factor implies

def test_contracting_dim_sharded_is_an_all_reduce_over_its_axes():
    "A dot whose contracting dim is sharded on y (size 4): each device's partial sums, all-reduced in groups of 4."
    m = module("""  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>""",
               '%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}')
    r = communication_report(m)
    (item,) = r.items
    assert (item.kind, item.op) == ("reduction", "stablehlo.dot_general")
    assert item.plan.src.body() == '<@mesh, [{"x"}, {}], unreduced={"y"}>' and item.plan.dst.body() == '<@mesh, [{"x"}, {}]>'
    (step,) = item.plan.steps
    assert step.kind == "all_reduce" and step.axes == (AxisRef("y"),)
    local = 4 * 16 * itemsize("f32")   # each device's 4x16 block of partial sums
    # group size 4: every device hears from the 3 others of its y-group, and only from them
    mesh = MESHES["mesh"]
    group = {int(d): {int(e) for e in mesh.devices[np.argwhere(mesh.devices == d)[0][0]]} for d in mesh.devices.reshape(-1)}   # d's row: its y-group
    t = step.transfers
    senders = {int(d): set() for d in mesh.devices.reshape(-1)}
    for s, d in zip(t.src, t.dst): senders[int(d)].add(int(s))
    for d, ss in senders.items(): assert ss == group[d] - {d}
    assert item.bytes == 3 * local
    assert item.bytes == plan_reshard(item.plan.src, item.plan.dst, (8, 16)).cost.max_bytes_received
    check_totals(r)


def test_reduce_to_scalar_sums_over_every_axis():
    m = propagate(import_pipeline(parse_module(f"""{MESH}
func.func @main(%a: tensor<8x32xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}]>}}) -> tensor<f32> {{
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x32xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}}""")))
    (item,) = communication_report(m).items
    assert item.kind == "reduction" and set(item.plan.src.unreduced) == {AxisRef("x"), AxisRef("y")}
    steps = item.plan.steps
    assert {s.kind for s in steps} == {"all_reduce"} and math.prod(MESHES["mesh"].axis_size(a.name) for s in steps for a in s.axes) == 8
    assert item.bytes > 0


def test_no_reduction_when_unsharded_or_summed_explicitly_or_deferred():
    dot = lambda out: f"""  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {{sdy.sharding = #sdy.sharding_per_value<[{out}]>}} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>"""
    args = lambda k: f'%a: tensor<8x32xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {k}]>}}, %b: tensor<32x16xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{k}, {{}}]>}}'
    # contracting dim not sharded: nothing
    assert communication_report(module(dot('<@mesh, [{"x"}, {}]>') + "\n  return %0 : tensor<8x16xf32>", args("{}"))).items == ()
    # summed by an explicit all_reduce: costed once, at the all_reduce
    r = communication_report(module(dot('<@mesh, [{"x"}, {}]>') + """
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>""", args('{"y"}')))
    assert [i.kind for i in r.items] == ["all_reduce"] and r.items[0].plan.src.unreduced == (AxisRef("y"),)
    # kept unreduced: the reduction is deferred, so nothing is summed here
    r = communication_report(module(dot('<@mesh, [{"x"}, {}], unreduced={"y"}>') + "\n  return %0 : tensor<8x16xf32>", args('{"y"}')))
    assert r.items == ()
    # operands disagree on the contracting dim: only their common major axes are summed
    m = module(dot('<@mesh, [{"x"}, {}]>') + "\n  return %0 : tensor<8x16xf32>", args('{"y"}').replace('[{"y"}, {}]', '[{}, {}]'))
    assert reduction_axes(m.main.body.ops[0]) == () and communication_report(m).items == ()


def test_collective_axes_read_every_form():
    m = parse_module(f"""{MESH}
func.func @main(%a: tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}]>}}) -> tensor<8x8xf32> {{
  %0 = sdy.all_gather [{{}}, {{"y":(2)2}}] %a out_sharding=<@mesh, [{{"x"}}, {{"y":(1)2}}]> : tensor<8x8xf32>
  %1 = sdy.reduce_scatter [{{}}, {{"y":(2)2}}] %0 out_sharding=<@mesh, [{{"x"}}, {{"y"}}]> : tensor<8x8xf32>
  %2 = sdy.all_to_all [{{"x"}}: 0->1] %1 out_sharding=<@mesh, [{{}}, {{"y", "x"}}]> : tensor<8x8xf32>
  %3 = sdy.all_gather [{{}}, {{"x"}}] %2 out_sharding=<@mesh, [{{}}, {{"y"}}]> : tensor<8x8xf32>
  %4 = sdy.all_slice [{{"x"}}, {{}}] %3 out_sharding=<@mesh, [{{"x"}}, {{"y"}}]> : tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}}""")
    ops = m.main.body.ops[:5]
    assert [collective_axes(op) for op in ops] == [(AxisRef("y", 2, 2),), (AxisRef("y", 2, 2),), (AxisRef("x"),), (AxisRef("x"),), (AxisRef("x"),)]
    r = communication_report(m)
    assert [i.kind for i in r.items] == ["all_gather", "reduce_scatter", "all_to_all", "all_gather", "all_slice"]
    assert r.items[1].plan.src.unreduced == (AxisRef("y", 2, 2),)
    assert r.items[0].bytes == 4 * 2 * 4   # a 4x2 shard gathered to 4x4: the other 4x2 block, f32
    assert [s.kind for s in r.items[4].plan.steps] == ["all_slice"] and r.items[4].bytes == 0
    check_totals(r)


def test_compare_and_errors():
    mlp = lambda x, w: import_pipeline(parse_module(f"""{MESH}
func.func @main(%a: tensor<8x32xf32> {{sdy.sharding = #sdy.sharding<@mesh, {x}>}}, %b: tensor<32x64xf32> {{sdy.sharding = #sdy.sharding<@mesh, {w}>}}) -> tensor<8x64xf32> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}}"""))
    a = communication_report(propagate(mlp('[{"x"}, {}]', '[{}, {"y"}]')))   # no contracting sharding: free
    b = communication_report(propagate(mlp('[{"x"}, {"y"}]', '[{"y"}, {}]')))  # partial sums over y
    assert a.items == () and b.bytes > 0
    c = a.compare(b, names=("columns", "rows"))
    assert c.cheaper == "columns" and b.compare(a).cheaper == "b" and a.compare(a).cheaper is None
    assert c.rows() == [("@main %0", (0, 0.0), (b.bytes, b.seconds))]
    assert "columns is cheaper" in str(c) and str(c).count("@main %0") == 1
    with pytest.raises(TypeError, match="takes a Module"): communication_report("module {}")


# ---- jaxlib's own pipeline output: every reshard and collective costed

FULL = ("sdy-propagation-pipeline,func.func(sdy-insert-explicit-reshards{enable-full-version=true}),"
        "func.func(sdy-reshard-to-collectives)")
@pytest.fixture(scope="module")
def jaxlib_outputs(jax_corpus):
    "{(program, \"default\" or \"full\"): jaxlib's output} for every corpus program jaxlib accepts (run in a subprocess)."
    from tests.corpus.shardy_runner import run_in_subprocess
    keys = [(n, p) for n in CORPUS_NAMES for p in ("default", "full")]
    out = run_in_subprocess([(jax_corpus[n], "sdy-propagation-pipeline" if p == "default" else FULL) for n, p in keys])
    return {k: t for k, (ok, t) in zip(keys, out) if ok}


def _even(plan) -> bool:
    "Whether every dim of the plan's tensor divides evenly by its shard count, before and after."
    return all(n % d.size_in(s.mesh) == 0 for s in (plan.src, plan.dst) for n, d in zip(plan.shape, s.dims))


@pytest.mark.parametrize("name", CORPUS_NAMES)
@pytest.mark.parametrize("pipeline", ["default", "full"])
def test_jaxlib_output_every_communication_costed(jaxlib_outputs, name, pipeline):
    text = jaxlib_outputs.get((name, pipeline))
    if text is None: pytest.skip(f"jaxlib refuses {name}")
    want = sorted(COMM.findall(text))
    r = communication_report(parse_module(text))
    explicit = [i for i in r.items if i.kind != "reduction"]
    assert sorted(i.kind for i in explicit) == want   # none skipped, none invented
    for i in explicit:
        assert i.op == "sdy." + i.kind
        # the planner finds the collective itself, where its dims divide evenly: on a ragged dim Shardy's collective acts
        # on padded buffers, and the exact tiles may need an exchange instead (corpus program broadcast_expand_squeeze_tile:
        # an all_gather over "c" of a dim of 10 in 4 shards of 3 leaves tiles of 6 and 4 where the target's are 5 and 5)
        if i.kind in ("all_gather", "all_slice", "all_reduce", "reduce_scatter") and _even(i.plan):
            assert {s.kind for s in i.plan.steps} <= {i.kind}, (i.where, i.moves)
    check_totals(r)
    if pipeline == "full":
        # jaxlib sums every partial sum explicitly, but for an op whose result is on another mesh than its operands:
        # Shardy's insert-explicit-reshards leaves such an op as it is (corpus program two_meshes_same_devices, a dot
        # summing over "y" of @mesh into a result on @mesh_0: no all_reduce), so its sums stay implied and are costed
        left = [i for i in r.items if i.kind == "reduction"]
        assert all(i.plan.src.mesh_name != i.plan.dst.mesh_name for i in left), [i.where for i in left]


def test_implied_reductions_on_jaxlib_propagation_cost_its_explicit_all_reduces(jaxlib_outputs):
    """On jaxlib's own propagation (its default pipeline, no collectives), the reductions the report infers cost,
    item for item, what the all_reduces of jaxlib's full pipeline cost, on every corpus program whose full output
    communicates by all_reduces only. Both sides are costed by the report: this checks that it finds the same
    reductions jaxlib makes explicit; what a reduction costs is checked against hand derivations and XLA below."""
    compared = 0
    for name in CORPUS_NAMES:
        default, full = jaxlib_outputs.get((name, "default")), jaxlib_outputs.get((name, "full"))
        if default is None or full is None: continue
        explicit = communication_report(parse_module(full))
        if not explicit.items or any(i.kind != "all_reduce" for i in explicit.items): continue
        # a program that already writes a collective (JAX's explicit axes: `reshard` of an unreduced value is an
        # all_reduce in the default output too, corpus program explicit_axes_unreduced_matmul) has nothing to infer there
        if re.search(r"= sdy\.(all_gather|all_slice|all_reduce|reduce_scatter|all_to_all|collective_permute)\b", default): continue
        implied = communication_report(parse_module(default))
        moving = [i for i in implied.items if i.bytes]   # a reshard between equivalent layouts moves nothing (jaxlib drops it)
        assert all(i.kind == "reduction" for i in moving), name
        cost = lambda items: sorted((i.bytes, round(i.seconds * 1e12)) for i in items)
        assert cost(moving) == cost(explicit.items), name
        compared += 1
    assert compared >= 45, compared   # 55 of the 259 programs with jaxlib 0.10.2


def test_some_jaxlib_programs_do_communicate(jaxlib_outputs):
    kinds = {i.kind for (n, p), t in jaxlib_outputs.items() for i in communication_report(parse_module(t)).items}
    assert {"reshard", "all_gather", "all_slice", "all_reduce", "all_to_all", "collective_permute"} <= kinds


MLP = """module @jit_mlp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(%arg0: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, X>}, %arg1: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, W1>}, %arg2: tensor<128x64xf32> {sdy.sharding = #sdy.sharding<@mesh, W2>}) -> (tensor<32x64xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %2 = stablehlo.maximum %0, %1 : tensor<32x128xf32>
    %3 = stablehlo.dot_general %2, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
    return %3 : tensor<32x64xf32>
  }
}"""
CHOICES = {"megatron": ('[{"data"}, {}]', '[{}, {"model"}]', '[{"model"}, {}]'),
           "contract_first": ('[{"data"}, {"model"}]', '[{"model"}, {}]', '[{}, {}]'),
           "both": ('[{"data"}, {"model"}]', '[{"model"}, {}]', '[{"model"}, {}]')}


@pytest.fixture(scope="module")
def mlp_choices():
    "{choice: (the MLP's text, jaxlib's full-pipeline output)}."
    pytest.importorskip("jax")
    from tests.corpus.shardy_runner import run_in_subprocess
    texts = {k: MLP.replace("X", x).replace("W1", w1).replace("W2", w2) for k, (x, w1, w2) in CHOICES.items()}
    out = run_in_subprocess([(t, FULL) for t in texts.values()])
    assert all(ok for ok, _ in out), out
    return {k: (t, o) for (k, t), (_, o) in zip(texts.items(), out)}


@pytest.mark.parametrize("choice", ["megatron", "contract_first"])
def test_implied_reductions_cost_what_jaxlib_makes_explicit(mlp_choices, choice):
    "shardnb's propagation with its implied reductions costs, to the byte, jaxlib's pipeline with its explicit all_reduces."
    text, explicit_text = mlp_choices[choice]
    explicit = communication_report(parse_module(explicit_text))
    assert [i.kind for i in explicit.items] == ["all_reduce"]
    for s in STRATEGIES:
        implied = communication_report(propagate(import_pipeline(parse_module(text)), strategy=s))
        assert [i.kind for i in implied.items] == ["reduction"]
        assert (implied.bytes, implied.seconds) == (explicit.bytes, pytest.approx(explicit.seconds)), s
        assert implied.items[0].plan.src == explicit.items[0].plan.src and implied.items[0].plan.dst == explicit.items[0].plan.dst


def test_partial_sums_onto_a_sharded_result_are_scattered(mlp_choices):
    "Propagation shards the first matmul's result on the summed axis: its partial sums are reduce-scattered, no dearer than jaxlib's all_reduce + all_slice."
    text, explicit_text = mlp_choices["both"]
    explicit = communication_report(parse_module(explicit_text))
    implied = communication_report(propagate(import_pipeline(parse_module(text))))
    first = implied.items[0]
    assert [i.kind for i in implied.items] == ["reduction", "reduction"] and first.where == "@main %0"
    assert first.plan.src.body() == '<@mesh, [{"data"}, {}], unreduced={"model"}>' and first.plan.dst.body() == '<@mesh, [{"data"}, {"model"}]>'
    assert [s.kind for s in first.plan.steps] == ["reduce_scatter"]
    assert [i.kind for i in explicit.items] == ["all_reduce", "all_slice", "all_reduce"]
    assert first.bytes < explicit.items[0].bytes and implied.bytes < explicit.bytes


def test_a_move_that_cannot_be_planned_is_named_and_the_module_is_untouched():
    text = f"""{MESH}
sdy.mesh @other = <["z"=2]>
func.func @main(%a: tensor<8x16xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]>}}) -> tensor<8x16xf32> {{
  %0 = sdy.reshard %a <@other, [{{"z"}}, {{}}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}}"""
    m = parse_module(text)
    before = str(m)
    with pytest.raises(ValueError, match=r"sdy\.reshard @main %0: "):
        communication_report(m)
    assert str(m) == before
    ok = parse_module(text.replace('<@other, [{"z"}, {}]>', '<@mesh, [{}, {"x"}]>'))
    before = str(ok)
    communication_report(ok)
    assert str(ok) == before


# ---- an independent reference: collective sizes derived by hand, and the collectives XLA emits for the same programs
#
# Every program below runs on the mesh {"x"=2, "y"=4}, whose device (x, y) is 4x + y (jax's Mesh over its 8 host
# devices reshaped (2, 4) numbers them alike), on f32 (4 B). Bytes are what each device receives, counted the way the
# report counts them: an all-reduce or a reduce-scatter sends every device its result block from each of the g - 1
# other members of its group (to be summed); an all-gather or an all-to-all sends it the parts it lacks; a permute
# sends it its new block unless it holds it already. Groups: "y" is {0,1,2,3} and {4,5,6,7}, "x" is {k, 4 + k}.

def program(args: str, body: str, result: str) -> str:
    return f"{MESH}\nfunc.func @main({args}) -> {result} {{\n{body}\n  return %r : {result}\n}}"


def arg(name, shape, sharding):
    return f"%{name}: tensor<{shape}xf32> {{sdy.sharding = #sdy.sharding<@mesh, {sharding}>}}"


def per_value(sharding): return f"{{sdy.sharding = #sdy.sharding_per_value<[<@mesh, {sharding}>]>}}"


def dot(a, b, out):
    "[8,32] x [32,16] -> [8,16], operands and result sharded as given."
    return program(arg("a", "8x32", a) + ", " + arg("b", "32x16", b), f"""  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {per_value(out)} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>""", "tensor<8x16xf32>")


def row_sum(a, out):
    "[16,32] summed over dim 1 -> [16]."
    return program(arg("a", "16x32", a), f"""  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [1] {per_value(out)} : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>""", "tensor<16xf32>")


def reshard(shape, src, dst):
    t = f"tensor<{shape}xf32>"
    return program(arg("a", shape, src), f"  %r = sdy.reshard %a <@mesh, {dst}> : {t}", t)


TRANSPOSE = program(arg("a", "16x8", '[{"y"}, {}]'), f"""  %0 = stablehlo.transpose %a, dims = [1, 0] {per_value('[{}, {"y"}]')} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %r = sdy.reshard %0 <@mesh, [{{"y"}}, {{}}]> : tensor<8x16xf32>""", "tensor<8x16xf32>")

# name: (program, the report's items as (kind, [(collective, axes it runs over)]), bytes each device receives, how,
#        the same program for jax: (function, input partition specs, output partition spec, input shapes))
HAND = {
    "dot_contract_y": (dot('[{}, {"y"}]', '[{"y"}, {}]', '[{}, {}]'), [("reduction", [("all_reduce", "y")])], 3 * 8 * 16 * 4,
                       "k split 4 ways over y: each device sums 8 of 32 into an 8x16 block (512 B); the 3 others of its y-group send theirs",
                       ("dot", [[None, "y"], ["y", None]], [None, None], [[8, 32], [32, 16]])),
    "dot_contract_x": (dot('[{"y"}, {"x"}]', '[{"x"}, {}]', '[{"y"}, {}]'), [("reduction", [("all_reduce", "x")])], 1 * 2 * 16 * 4,
                       "rows split over y, k over x: a 2x16 block (128 B) of partial sums, from the 1 other of its x-pair",
                       ("dot", [["y", "x"], ["x", None]], ["y", None], [[8, 32], [32, 16]])),
    "row_sum_y": (row_sum('[{"x"}, {"y"}]', '[{"x"}]'), [("reduction", [("all_reduce", "y")])], 3 * 8 * 4,
                  "rows split over x, the summed dim over y: an 8-row block (32 B) from each of 3 y-peers",
                  ("row_sum", [["x", "y"]], ["x"], [[16, 32]])),
    "dot_scatter_y": (dot('[{}, {"y"}]', '[{"y"}, {}]', '[{"y"}, {}]'), [("reduction", [("reduce_scatter", "y")])], 3 * 2 * 16 * 4,
                      "k summed over y into a result whose rows are split over y: each device keeps a 2x16 block (128 B) "
                      "and receives that block's partial sums from its 3 y-peers",
                      ("dot", [[None, "y"], ["y", None]], ["y", None], [[8, 32], [32, 16]])),
    "row_sum_scatter_y": (row_sum('[{}, {"y"}]', '[{"y"}]'), [("reduction", [("reduce_scatter", "y")])], 3 * 4 * 4,
                          "the summed dim split over y, the result too: a 4-element block (16 B) from each of 3 y-peers",
                          ("row_sum", [[None, "y"]], ["y"], [[16, 32]])),
    "gather_y": (reshard("16x8", '[{"y"}, {}]', '[{}, {}]'), [("reshard", [("all_gather", "y")])], 3 * 4 * 8 * 4,
                 "a 4x8 row block (128 B) grows to the whole 16x8 (512 B): 3/4 of the tensor, from the 3 y-peers",
                 ("id", [["y", None]], [None, None], [[16, 8]])),
    "gather_xy": (reshard("16x8", '[{"x", "y"}, {}]', '[{}, {}]'), [("reshard", [("all_gather", "y"), ("all_gather", "x")])], 7 * 2 * 8 * 4,
                  "a 2x8 row block grows to the whole 16x8: the 7/8 it lacks (448 B), over y (3 x 64 B) then x (256 B)",
                  ("id", [[["x", "y"], None]], [None, None], [[16, 8]])),
    "all_to_all_y": (reshard("16x16", '[{"y"}, {}]', '[{}, {"y"}]'), [("reshard", [("all_to_all", "y")])], 3 * 4 * 4 * 4,
                     "rows split 4 ways become columns split 4 ways: of its new 16x4 block a device holds the 4x4 it "
                     "shared with its old rows and receives the other 3 (64 B each)",
                     ("id", [["y", None]], [None, "y"], [[16, 16]])),
    "transpose_all_to_all": (TRANSPOSE, [("reshard", [("all_to_all", "y")])], 3 * 2 * 4 * 4,
                             "the transpose moves the y split to dim 1; back on dim 0 the 8x4 block becomes 2x16: one 2x4 "
                             "piece kept, 3 received (32 B each)",
                             ("transpose", [["y", None]], ["y", None], [[16, 8]])),
    "permute": (reshard("16x8", '[{"x", "y"}, {}]', '[{"y", "x"}, {}]'), [("reshard", [("collective_permute", "xy")])],
                {0: 0, 1: 64, 2: 64, 3: 64, 4: 64, 5: 64, 6: 64, 7: 0},
                "row block 4x + y moves to block 2y + x: devices 0 and 7 keep theirs, the others receive one 2x8 block "
                "(64 B): device 4x + y receives from device 2y + x",
                ("id", [[["x", "y"], None]], [["y", "x"], None], [[16, 8]])),
}
PERMUTE_PAIRS = {(2 * y + x, 4 * x + y) for x in range(2) for y in range(4) if 2 * y + x != 4 * x + y}   # (source, target)


def mesh_groups(axes: str) -> dict[int, frozenset]:
    "Each device's group over `axes` (\"x\", \"y\" or \"xy\") of the 2x4 mesh."
    return {4 * x + y: frozenset(4 * (x if "x" not in axes else i) + (y if "y" not in axes else j)
                                 for i in range(2) for j in range(4)) for x in range(2) for y in range(4)}


def senders(step) -> dict[int, set]:
    out = {d: set() for d in range(8)}
    for s, d in zip(step.transfers.src, step.transfers.dst): out[int(d)].add(int(s))
    return out


@pytest.mark.parametrize("name", list(HAND))
def test_report_against_hand_derived_collectives(name):
    text, want, received, _, _ = HAND[name]
    r = communication_report(parse_module(text))
    assert [(i.kind, [(s.kind, "".join(a.name for a in s.axes)) for s in i.plan.steps]) for i in r.items] == want
    per = received if isinstance(received, dict) else {d: received for d in range(8)}
    assert r.per_device() == per and r.bytes == max(per.values())
    # the busiest device, the lowest id on a tie: device 0 where all receive alike (gather_y: (0, 384)), 1 for the permute
    assert r.busiest_device == (min(d for d, b in per.items() if b == r.bytes), r.bytes)
    for i in r.items:
        for s in i.plan.steps:
            got = senders(s)
            if s.kind == "collective_permute":
                assert {(a, d) for d, ss in got.items() for a in ss} == PERMUTE_PAIRS
            else:   # every device hears from the rest of its group over the step's axes, and only from them
                group = mesh_groups("".join(a.name for a in s.axes))
                assert got == {d: set(group[d] - {d}) for d in range(8)}, (name, s.kind)
    check_totals(r)


# XLA's SPMD partitioner on the same programs: jax.jit with the programs' shardings on 8 host CPU devices, in a
# subprocess (the device count is fixed when jax starts), and the collectives of the compiled HLO.
XLA_SCRIPT = r"""
import json, os, sys
os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"
os.environ["JAX_PLATFORMS"] = "cpu"
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
mesh = Mesh(np.array(jax.devices("cpu")[:8]).reshape(2, 4), ("x", "y"))
spec = lambda s: NamedSharding(mesh, P(*[tuple(e) if isinstance(e, list) else e for e in s]))
fns = {"dot": lambda a, b: a @ b, "row_sum": lambda a: a.sum(1), "id": lambda a: a, "transpose": lambda a: a.T}
out = {}
for name, (fn, ins, res, shapes) in json.load(sys.stdin).items():
    f = jax.jit(fns[fn], in_shardings=tuple(map(spec, ins)), out_shardings=spec(res))
    out[name] = f.lower(*[jax.ShapeDtypeStruct(tuple(s), jnp.float32) for s in shapes]).compile().as_text()
json.dump(out, sys.stdout)
"""

_XLA_OP = re.compile(r"=\s*(\([^=]*?\)|\w+\[[\d,]*\](?:\{[\d,]*\})?)\s+(all-reduce|all-gather|reduce-scatter|all-to-all|collective-permute)(-start)?\(")
_ITEMSIZE = {"f32": 4, "bf16": 2, "f16": 2, "f64": 8, "s32": 4}


def _groups(line: str, n: int) -> list[list[int]]:
    "The replica groups of an HLO collective, in any of the forms XLA prints: explicit, iota, or over the axes of a mesh."
    m = re.search(r"replica_groups=mesh\[([^\]]*)\](?:, device_ids=\(\[([\d,]+)\](?:T\(([\d,]+)\))?\))?\s*\{([^}]*)\}", line)
    if m:   # mesh['axis_0'=1,'axis_1'=4,'axis_2'=2], device_ids=([2,4]T(1,0)) {'axis_1'}: groups along the named axes
        axes = re.findall(r"'(\w+)'=(\d+)", m.group(1))
        names, sizes = [a for a, _ in axes], [int(k) for _, k in axes]
        order = np.arange(n)
        if m.group(2):
            dims = [int(k) for k in m.group(2).split(",")]
            perm = [int(k) for k in m.group(3).split(",")] if m.group(3) else list(range(len(dims)))
            order = np.arange(n).reshape(dims).transpose(perm).reshape(-1)
        over = [names.index(a) for a in re.findall(r"'(\w+)'", m.group(4))]
        rest = [k for k in range(len(names)) if k not in over]
        g = math.prod(sizes[k] for k in over)
        return order.reshape(sizes).transpose(rest + over).reshape(-1, g).tolist()
    m = re.search(r"replica_groups=\[(\d+),(\d+)\]<=\[([\d,]+)\](?:T\(([\d,]+)\))?", line)
    if m:   # iota: [G,S]<=[dims]T(perm)
        dims = [int(k) for k in m.group(3).split(",")]
        perm = [int(k) for k in m.group(4).split(",")] if m.group(4) else list(range(len(dims)))
        return np.arange(n).reshape(dims).transpose(perm).reshape(int(m.group(1)), int(m.group(2))).tolist()
    m = re.search(r"replica_groups=\{((?:\{[\d,]*\},?)*)\}", line)
    if m:
        groups = [[int(k) for k in g.split(",") if k] for g in re.findall(r"\{([\d,]*)\}", m.group(1))]
        return groups if groups and groups[0] else [list(range(n))]
    raise AssertionError(f"replica groups not understood: {line}")


def xla_collectives(hlo: str, n: int = 8) -> list[tuple[str, dict[int, int], dict[int, frozenset] | set]]:
    """`(kind, bytes each device receives, groups)` for each collective of a compiled HLO module, counted as the report
    counts (see above); groups are each device's group, or for a collective-permute its (source, target) pairs."""
    out = []
    for line in hlo.splitlines():
        m = _XLA_OP.search(line)
        if not m: continue
        assert not m.group(3), f"an asynchronous collective: count it like its synchronous form first: {line}"
        kind, shapes = m.group(2), [(t, math.prod(int(k) for k in d.split(",") if k)) for t, d in re.findall(r"(\w+)\[([\d,]*)\]", m.group(1))]
        nbytes = [k * _ITEMSIZE[t] for t, k in shapes]
        if kind == "collective-permute":
            pairs = {(int(a), int(b)) for a, b in re.findall(r"\{(\d+),(\d+)\}", re.search(r"source_target_pairs=\{(.*?\})\}", line).group(1))}
            moved = {(a, b) for a, b in pairs if a != b}
            out.append((kind, {d: nbytes[0] * sum(1 for _, b in moved if b == d) for d in range(n)}, moved))
            continue
        group = {d: frozenset(g) for g in _groups(line, n) for d in g}
        size = {d: len(group[d]) for d in range(n)}
        if kind in ("all-reduce", "reduce-scatter"): recv = {d: (size[d] - 1) * nbytes[0] for d in range(n)}
        elif kind == "all-gather": recv = {d: (size[d] - 1) * nbytes[0] // size[d] for d in range(n)}
        elif len(nbytes) > 1: recv = {d: (size[d] - 1) * nbytes[0] for d in range(n)}   # all-to-all of g pieces, one to each peer
        else: recv = {d: (size[d] - 1) * nbytes[0] // size[d] for d in range(n)}       # all-to-all of one array split g ways
        out.append((kind, recv, group))
    return out


def test_xla_collectives_are_read_in_every_form():
    explicit = "%a = f32[8,16]{1,0} all-reduce(%p), channel_id=1, replica_groups={{0,1,2,3},{4,5,6,7}}, to_apply=%add"
    iota = "%a = f32[8,16]{1,0} all-reduce(%p), channel_id=1, replica_groups=[4,2]<=[2,4]T(1,0), to_apply=%add"
    meshed = ("%a = f32[8,16]{1,0} all-reduce(%p), channel_id=1, replica_groups=mesh['axis_0'=1,'axis_1'=4,'axis_2'=2], "
              "device_ids=([2,4]T(1,0)) {'axis_1'}, use_global_device_ids=true, to_apply=%add")
    plain = "%g = f32[8,32]{0,1} all-gather(%p), channel_id=2, replica_groups=mesh['axis_0'=2,'axis_1'=1,'axis_2'=4] {'axis_0'}, dimensions={1}"
    assert xla_collectives(explicit)[0][2] == xla_collectives(meshed)[0][2] == mesh_groups("y")
    assert xla_collectives(iota)[0][2] == mesh_groups("x")
    assert xla_collectives(explicit)[0][1] == {d: 3 * 512 for d in range(8)}
    assert xla_collectives(plain) == [("all-gather", {d: 512 for d in range(8)}, mesh_groups("x"))]
    a2a = "%t = (f32[4,1,4]{2,1,0}, f32[4,1,4]{2,1,0}) all-to-all(%a, %b), channel_id=1, replica_groups={{0,4},{1,5},{2,6},{3,7}}"
    assert xla_collectives(a2a)[0][1] == {d: 64 for d in range(8)}
    perm = "%c = f32[2,8]{1,0} collective-permute(%p), channel_id=1, source_target_pairs={{0,0},{1,4},{4,1},{7,7}}"
    assert xla_collectives(perm) == [("collective-permute", {d: 64 * (d in (1, 4)) for d in range(8)}, {(1, 4), (4, 1)})]


@pytest.fixture(scope="module")
def xla_hlo():
    "{program name: the compiled HLO XLA makes of it on 8 host devices}."
    pytest.importorskip("jax")
    import json, subprocess, sys
    p = subprocess.run([sys.executable, "-c", XLA_SCRIPT], input=json.dumps({k: v[4] for k, v in HAND.items()}),
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout)


# Where XLA differs from the report, and why:
# - a reduce-scatter: XLA's CPU pipeline all-reduces the whole partial-sum block and slices it (dynamic-slice); it
#   forms no reduce-scatter (GPU's pipeline does, with ReduceScatterCreator). Same group and block; the report's
#   reduce-scatter receives 1/g of it, each device only its own part.
# - gather_xy: XLA gathers over all 8 devices at once, the report in two steps (y, then x); each device receives the
#   same 7/8 of the tensor either way, but its direct senders differ, so only the bytes are compared.
XLA_DIFFERS = {"dot_scatter_y": "all-reduce then slice", "row_sum_scatter_y": "all-reduce then slice", "gather_xy": "one step"}
_XLA_KIND = {"all_reduce": "all-reduce", "all_gather": "all-gather", "reduce_scatter": "reduce-scatter",
             "all_to_all": "all-to-all", "collective_permute": "collective-permute"}


@pytest.mark.parametrize("name", list(HAND))
def test_report_against_xla_partitioned_hlo(xla_hlo, name):
    "The collectives XLA emits for each program are the report's: kinds, groups and bytes per device (differences above)."
    text, want, received, _, _ = HAND[name]
    xla = xla_collectives(xla_hlo[name])
    steps = [s for i in communication_report(parse_module(text)).items for s in i.plan.steps]
    ours = [(_XLA_KIND[s.kind], {d: int(b) for d, b in enumerate(s.cost.bytes_received)},
             {(a, d) for d, ss in senders(s).items() for a in ss} if s.kind == "collective_permute"
             else mesh_groups("".join(a.name for a in s.axes))) for s in steps]
    how = XLA_DIFFERS.get(name)
    if how is None:
        assert xla == ours, (name, xla_hlo[name])
    elif how == "all-reduce then slice":
        ((kind, recv, groups),), ((our_kind, our_recv, our_groups),) = xla, ours
        assert (kind, our_kind, groups) == ("all-reduce", "reduce-scatter", our_groups), xla_hlo[name]
        assert {d: b // len(groups[d]) for d, b in recv.items()} == our_recv
        assert "dynamic-slice" in xla_hlo[name]
    else:
        ((kind, recv, groups),) = xla
        assert kind == "all-gather" and groups == mesh_groups("xy") and [k for k, _, _ in ours] == ["all-gather"] * 2
        assert recv == {d: sum(r[d] for _, r, _ in ours) for d in range(8)}


# ---- operands that disagree on a reduction factor: the report sums over the axes they share (their common prefix)
#
# [8,32] x [32,16] -> [8,16] replicated, the contracting dim k sharded differently on the two operands. The partial
# sums the report costs are those over the axes both operands shard k by, major first, up to the first disagreement;
# an all-reduce over them receives (g - 1) x the 512-B result block. Bytes by hand:
#   k: ["x", "y"] and ["x"]       -> {"x"}, g = 2: 512 B      (the first operand alone would say {"x","y"}: 2048 B)
#   k: ["x"] and ["x", "y"]       -> {"x"}: 512 B
#   k: ["y", "x"] and ["y"]       -> {"y"}, g = 4: 1536 B     (the first operand alone: {"y","x"})
#   k: ["y"] and ["y", "x"]       -> {"y"}: 1536 B
#   k: ["y"] and ["x"]            -> nothing in common: 0 B   (the first operand alone: {"y"})
#   k: ["x"] and ["y"]            -> 0 B                      (the first operand alone: {"x"})
DISAGREEING = [('[{}, {"x", "y"}]', '[{"x"}, {}]', "x", 512), ('[{}, {"x"}]', '[{"x", "y"}, {}]', "x", 512),
               ('[{}, {"y", "x"}]', '[{"y"}, {}]', "y", 1536), ('[{}, {"y"}]', '[{"y", "x"}, {}]', "y", 1536),
               ('[{}, {"y"}]', '[{"x"}, {}]', "", 0), ('[{}, {"x"}]', '[{"y"}, {}]', "", 0)]


@pytest.mark.parametrize("a,b,axes,nbytes", DISAGREEING)
def test_disagreeing_operands_sum_over_their_common_prefix(a, b, axes, nbytes):
    m = parse_module(dot(a, b, '[{}, {}]'))
    assert reduction_axes(m.main.body.ops[0]) == tuple(AxisRef(n) for n in axes)
    r = communication_report(m)
    assert r.bytes == nbytes and r.per_device() == ({d: nbytes for d in range(8)} if nbytes else {})
    assert [(i.kind, i.moves) for i in r.items] == ([("reduction", f'all_reduce{{"{axes}"}}')] if axes else [])


def test_disagreeing_operands_against_jaxlib_explicit_reshards():
    """jaxlib's insert-explicit-reshards settles the disagreement otherwise: it slices the less-sharded operand to match
    the other (free) and sums over every axis the more-sharded one has, or moves an operand when they share none. The
    report neither costs that operand move nor sums those further axes: on these programs it is a lower bound of
    jaxlib's explicit program, and the axes it sums are among jaxlib's all_reduce's."""
    from tests.corpus.shardy_runner import run_in_subprocess
    texts = [dot(a, b, '[{}, {}]') for a, b, _, _ in DISAGREEING]
    out = run_in_subprocess([(t, FULL) for t in texts])
    assert all(ok for ok, _ in out), out
    for (a, b, _, _), text, (_, full) in zip(DISAGREEING, texts, out):
        ours, explicit = parse_module(text), parse_module(full)
        summed = {ax.name for op in explicit.main.walk() if op.name == "sdy.all_reduce" for ax in collective_axes(op)}
        assert {ax.name for ax in reduction_axes(ours.main.body.ops[0])} < summed, (a, b, full)
        assert communication_report(ours).bytes < communication_report(explicit).bytes, (a, b, full)


def test_a_result_on_another_mesh_is_laid_out_where_its_operands_agree():
    """A batched dot whose operands shard the batch dim by different axes ("x" and "y") and the contracting dim alike
    ("z"), its result placed on another mesh: the partial sums are laid out where the operands agree (batch unsharded,
    unreduced over "z"), neither operand's batch sharding taken, then summed over "z" before the move. By hand: the
    4x8x8 f32 result (1024 B) all-reduced in pairs, each device receiving its one peer's 1024 B; the other mesh's 8
    devices in the same order need nothing more."""
    text = '''sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
sdy.mesh @other = <["w"=8]>
func.func @main(%a: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"z"}]>}, %b: tensor<4x32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"z"}, {}]>}) -> tensor<4x8x8xf32> {
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@other, [{}, {}, {}]>]>} : (tensor<4x8x32xf32>, tensor<4x32x8xf32>) -> tensor<4x8x8xf32>
  return %r : tensor<4x8x8xf32>
}'''
    r = communication_report(parse_module(text))
    (item,) = r.items
    assert item.kind == "reduction" and item.plan.src.body() == '<@mesh, [{}, {}, {}], unreduced={"z"}>'
    assert item.plan.dst.body() == '<@other, [{}, {}, {}]>'
    assert [(s.kind, s.axes) for s in item.plan.steps] == [("all_reduce", (AxisRef("z"),))]
    assert r.per_device() == {d: 4 * 8 * 8 * 4 for d in range(8)}
    check_totals(r)


def test_partial_sums_one_user_reads_unsummed_are_reduced():
    """A dot summing over "y" whose result feeds an explicit all_reduce over "y" and also a negate: the negate reads
    the partial sums as they are, so the report keeps the implied reduction at the dot beside the explicit one."""
    args = '%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}'
    body = f"""  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {per_value('[{"x"}, {}]')} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %1 = sdy.all_reduce {{"y"}} %0 out_sharding=<@mesh, [{{"x"}}, {{}}]> : tensor<8x16xf32>
  %2 = stablehlo.negate %0 {per_value('[{"x"}, {}]')} : tensor<8x16xf32>
  %3 = stablehlo.add %1, %2 {per_value('[{"x"}, {}]')} : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>"""
    r = communication_report(module(body, args))
    assert [(i.kind, i.where) for i in r.items] == [("reduction", "@main %0"), ("all_reduce", "@main %1")]
    assert r.items[0].plan.src.unreduced == (AxisRef("y"),) and r.items[0].plan.dst.unreduced == ()
    # without the negate the all_reduce sums them all: the reduction is costed once, there
    alone = body.replace("stablehlo.negate %0", "stablehlo.negate %1")
    assert [i.kind for i in communication_report(module(alone, args)).items] == ["all_reduce"]
    check_totals(r)


def test_a_constraint_its_operand_already_satisfies_moves_nothing():
    "A sharding constraint equal to its operand's sharding is no communication; one that differs is costed."
    text = lambda want: reshard("16x8", '[{"x"}, {}]', want).replace("sdy.reshard", "sdy.sharding_constraint")
    assert communication_report(parse_module(text('[{"x"}, {}]'))).items == ()
    (item,) = communication_report(parse_module(text('[{}, {"x"}]'))).items
    assert item.kind == "sharding_constraint" and item.bytes > 0
