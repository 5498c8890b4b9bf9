"""The price of a training step: the device model's links and peaks, and step_cost of hand-written programs against
the figures it is built from."""
import math
import random

from shardnb.ir.program import parse_module
from shardnb.layout.syntax import parse_mesh
from shardnb.auto.step_cost import DeviceModel, Pricer, step_cost, op_flops
from shardnb.shardy.import_passes import import_pipeline
from shardnb.shardy.propagate import propagate


def test_device_model():
    d = DeviceModel()
    assert d.links(parse_mesh('<["dp"=2, "tp"=8]>')) == {"dp": d.inter, "tp": d.intra}
    assert d.links(parse_mesh('<["tp"=8, "dp"=2]>')) == {"tp": d.inter, "dp": d.intra}   # now tp strides over nodes
    assert d.peak_flops("bf16") > d.peak_flops("f32")


def test_step_cost_of_a_batch_split_and_a_contracting_split():
    "A dot over 8 devices: split by batch nothing moves and compute divides by 8; split by the contracting dim the result is all-reduced."
    text = """sdy.mesh @mesh = <["x"=8]>
func.func @main(%a: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [DIMS]>}, %w: tensor<256x512xf32>) -> tensor<64x512xf32> {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x512xf32>) -> tensor<64x512xf32>
  return %0 : tensor<64x512xf32>
}"""
    d = DeviceModel()
    batch = step_cost(propagate(import_pipeline(parse_module(text.replace("DIMS", '{"x"}, {}')))))
    inner = step_cost(propagate(import_pipeline(parse_module(text.replace("DIMS", '{}, {"x"}')))))
    flops = 2 * 64 * 256 * 512
    assert op_flops(parse_module(text.replace("DIMS", "{}, {}")).main.body.ops[0]) == flops
    assert batch.comm_s == 0 and math.isclose(batch.compute_s, flops / 8 / d.peak_flops("f32"))
    assert inner.comm_s > 0 and math.isclose(inner.compute_s, batch.compute_s)
    # propagation splits the weight's rows with the contracting dim; the batch split leaves it whole on every device
    assert batch.peak_bytes >= 256 * 512 * 4 > inner.peak_bytes


def test_the_bound_is_below_every_exact_plan(seed):
    "The lower bound that prices unplanned moves never exceeds the exact plan's modelled time (random pairs of shardings)."
    from shardnb.auto.auto_shard import arg_choices   # every closed sharding of a value
    from shardnb.ir.program import TensorType, Value
    r = random.Random(seed + 3)
    n = 0
    for mesh_text in ('<["x"=8]>', '<["x"=2, "y"=4]>', '<["a"=2, "b"=2, "c"=2]>', '<["p"=4, "q"=4]>'):
        p = Pricer("mesh", parse_mesh(mesh_text), DeviceModel())
        for shape in ((16, 64), (8, 12, 32)):
            v = Value(TensorType(shape, "f32"))
            ss = [c.results[0] for c in arg_choices(v, p)]
            for _ in range(40):
                s, t = r.choice(ss), r.choice(ss)
                assert p.bound(s, t, shape, "f32") <= p.exact(s, t, shape, "f32") * (1 + 1e-12), (mesh_text, shape, str(s), str(t))
                n += 1
    print(f"{n} pairs: bound <= exact")


def test_forked_workers_plan_as_the_process_does(seed):
    """`Pricer.plan_all` in two forked workers gives each move the seconds one process gives it: random moves over a
    two-level mesh (the first axis crosses nodes), more of them than the threshold for workers."""
    from shardnb.auto.auto_shard import arg_choices
    from shardnb.ir.program import TensorType, Value
    r = random.Random(seed + 7)
    mesh = parse_mesh('<["p"=2, "q"=8]>')
    shardings = {shape: [c.results[0] for c in arg_choices(Value(TensorType(shape, "f32")), Pricer("mesh", mesh, DeviceModel()))]
                 for shape in ((16, 64), (8, 12, 32), (32,))}
    moves = {}
    while len(moves) < 96:   # distinct moves that move something: more than the 64 from which workers plan
        shape = r.choice(list(shardings)); s, t = r.sample(shardings[shape], 2)
        moves[(s, t, shape, "f32")] = None
    moves = list(moves)
    serial, forked = Pricer("mesh", mesh, DeviceModel(), workers=1), Pricer("mesh", mesh, DeviceModel(), workers=2)
    serial.plan_all(moves); forked.plan_all(moves)
    assert len(forked.plans) >= 64 and forked.plans == serial.plans
    print(f"{len(moves)} random moves, {len(serial.plans)} distinct: forked workers' seconds equal the process's")


def test_the_bound_charges_the_planners_alpha():
    """The planner charges one α to every message, the largest of the mesh's links (`DeviceModel.cost_model`): the bound
    does too. On 16 devices in two nodes, gathering a value split over the 8 devices of a node needs 7 pieces, collected
    in at least 3 doublings at that α (5 µs, the inter-node one), plus the bytes over the fastest link."""
    from shardnb.auto.auto_shard import sharding_of_dims
    mesh, d = parse_mesh('<["p"=2, "q"=8]>'), DeviceModel()
    p = Pricer("mesh", mesh, d)
    src, dst = sharding_of_dims("mesh", mesh, [("q",), ()]), sharding_of_dims("mesh", mesh, [(), ()])
    lack = 7 * 8 * 64 * 4   # bytes of the 7 shards (8x64 f32 each) a device lacks
    assert math.isclose(p.bound(src, dst, (64, 64), "f32"), 3 * d.cost_model(mesh).alpha + lack / d.intra[1], rel_tol=1e-12)
    assert d.cost_model(mesh).alpha == d.inter[0] > d.intra[0]
    assert p.bound(src, dst, (64, 64), "f32") <= p.exact(src, dst, (64, 64), "f32")
