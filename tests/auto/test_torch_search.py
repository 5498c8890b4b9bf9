"""The torch search checked, not trusted: for a two-layer MLP, a GPT-2 block, a Llama block (grouped-query attention,
SwiGLU), a mixture-of-experts layer (8 experts, top-2) and a Wide-ResNet bottleneck block written in torch
(tests/auto/torch_models.py), on the meshes (8) and (2, 4): the answer's MindSpore strategies, propagated by
`propagate_strategies` and run on 8 simulated devices in float64, give the single-device program's output to 1e-12
and the torch model's to 1e-6 of its scale; the answer costs no more than data parallel or Megatron under the same
`plan_cost`; the graph's prediction equals that cost. A slow device model (1e8 FLOP/s) makes sharding pay at this
size, so the strategies split."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
from shardnb.layout.mesh import ShardingError
from shardnb.layout.syntax import parse_mesh
from shardnb.ir.program import parse_module
from shardnb.auto.auto_shard import DeviceModel, auto_shard
from shardnb.auto.torch_search import torch_search, torch_baselines, plan_cost, BitMesh, MindSporePricer, is_torch_program
from shardnb.mindspore.strategies import propagate_strategies, evaluate
from tests.auto.torch_models import MODELS, tiny

SLOW = DeviceModel(flops=(("f64", 1e8), ("f32", 1e8)))
MESHES = ['<["x"=8]>', '<["a"=2, "b"=4]>']


def check(name, mesh):
    module, args, want = tiny(name)
    r = torch_search(module, mesh, device=SLOW, time_limit=30)
    pricer = MindSporePricer(BitMesh("mesh", parse_mesh(mesh)), SLOW)
    base = {k: plan_cost(p, pricer) for k, p in torch_baselines(module, mesh).items()}
    plan = propagate_strategies(module, r.strategies, device_num=8)
    assert plan.strategies == r.plan.strategies
    got, single = plan.run(*args)[0], evaluate(module, *args)[0]
    err = float(np.max(np.abs(got - single)))
    rel = float(np.max(np.abs(got - want))) / (1 + float(np.max(np.abs(want))))
    split = sum(any(c > 1 for t in st for c in t) for st in r.strategies.values())
    better = [k for k, c in base.items() if r.cost.total_s < c.total_s * (1 - 1e-9)]
    print(f"{name} {mesh}: {r.cost}; {r.solver}; baselines " + ", ".join(f"{k} {c.total_s * 1e6:.2f} µs" for k, c in base.items())
          + f"; strictly better than: {better or 'none'}; {split} of {len(r.strategies)} operators split; error {err:.1e} (program), {rel:.1e} (torch)")
    assert err <= 1e-12 * (1 + float(np.max(np.abs(single))))
    assert rel <= 1e-6
    assert all(r.cost.total_s <= c.total_s * (1 + 1e-12) for c in base.values())
    assert abs(r.predicted.total_s - r.cost.total_s) <= 1e-9 * r.cost.total_s
    assert split > 0
    return r, base


def test_a_two_layer_mlp_on_a_2x4_mesh():
    check("mlp", MESHES[1])


@pytest.mark.slow
@pytest.mark.parametrize("mesh", MESHES, ids=["8", "2x4"])
@pytest.mark.parametrize("name", [n for n in MODELS if n != "mlp"] + ["mlp"])
def test_search_runs_to_the_model_and_beats_no_baseline(name, mesh):
    check(name, mesh)


def test_auto_shard_hands_torch_programs_to_the_torch_search():
    module, args, want = tiny("mlp")
    assert is_torch_program(module)
    r = auto_shard(module, MESHES[0], device=SLOW, time_limit=20)
    assert set(r.strategies) == {"linear", "gelu", "linear_1"} and r.plan.device_num == 8
    assert np.allclose(r.plan.run(*args)[0], want, rtol=0, atol=1e-6)
    assert not is_torch_program(parse_module("func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {\n  return %a : tensor<8xf32>\n}"))


def test_bad_input_is_named():
    module, _, _ = tiny("mlp")
    with pytest.raises(ShardingError, match="power-of-two"): torch_search(module, '<["x"=6]>')
    with pytest.raises(ShardingError, match="memory_limit must be a positive"): torch_search(module, MESHES[0], memory_limit=-1)
    with pytest.raises(ShardingError, match="from_torch"): torch_search(parse_module("func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {\n  return %a : tensor<8xf32>\n}"), MESHES[0])
    with pytest.raises(ShardingError, match="the least peak"): torch_search(module, MESHES[0], memory_limit=100, time_limit=10)


def test_a_memory_limit_is_kept_and_costs_time():
    "Between Megatron's and data parallel's peaks, the bench-size MLP's answer fits and is no slower than Megatron."
    from tests.auto.torch_models import bench
    module, mesh = bench("mlp"), MESHES[1]
    base = {k: plan_cost(p, MindSporePricer(BitMesh("mesh", parse_mesh(mesh)), DeviceModel())) for k, p in torch_baselines(module, mesh).items()}
    limit = (base["megatron"].peak_bytes + base["data parallel"].peak_bytes) // 2
    r = torch_search(module, mesh, memory_limit=limit, time_limit=20)
    print(f"limit {limit:,} B: search {r.cost}; " + "; ".join(f"{k} {c}" for k, c in base.items()))
    assert r.cost.peak_bytes <= limit < base["data parallel"].peak_bytes
    assert base["data parallel"].total_s <= r.cost.total_s <= base["megatron"].total_s


@pytest.mark.slow
def test_strategies_as_a_start_and_a_batch_smaller_than_the_mesh():
    "A start given as strategies (a Reshape's ignored) is an incumbent: the answer costs no more; on 64 devices data parallel splits a batch of 8 eight ways."
    module, args, want = tiny("gpt2_block")
    pricer = MindSporePricer(BitMesh("mesh", parse_mesh(MESHES[1])), SLOW)
    meg = torch_baselines(module, MESHES[1])["megatron"]
    r = torch_search(module, MESHES[1], device=SLOW, time_limit=30, starts=[meg.strategies], with_baselines=False)
    assert r.cost.total_s <= plan_cost(meg, pricer).total_s * (1 + 1e-12)
    from shardnb.auto.torch_search import torch_data_parallel
    dp = torch_data_parallel(tiny("mlp")[0], '<["a"=8, "b"=8]>')
    assert dp.strategies["linear"][0] == (8, 1, 1) and dp.device_num == 64
