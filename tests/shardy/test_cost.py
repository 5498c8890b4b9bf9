"""The communication report (nbs/04_shardy/06_cost.ipynb): its totals, its reshards and reductions against
`plan_reshard` on the same cases, and jaxlib's own pipeline output, in which every `sdy.reshard` and Shardy collective
must be costed."""
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


# ---- reshards: the bytes and time of plan_reshard on the same case

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
    communicates by all_reduces only."""
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
