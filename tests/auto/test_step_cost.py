"""The price of a training step: the device model's links and peaks, and step_cost of hand-written programs against
the figures it is built from."""
import math

from shardnb.ir.program import parse_module
from shardnb.layout.syntax import parse_mesh
from shardnb.auto.step_cost import DeviceModel, step_cost, op_flops
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
