"""Networks of MindSpore's own sharding-propagation unit tests (mindspore-ai/mindspore and mindspore_test,
`tests/ut/python/parallel/`), written in torch, with the strategies those tests assert; where a test only
asserts that compiling succeeds, the configured strategies are kept and the parallel program is checked
instead. Every plan runs on simulated devices and equals the single-device model."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F
from shardnb.mindspore.strategies import propagate_strategies
from shardnb.mindspore.operators import operators

from tests.mindspore.test_strategies import export, check_numerics


def plan_of(model, inputs, configured, device_num, **kw):
    ep, mod = export(model, *inputs)
    plan = propagate_strategies(mod, configured, device_num=device_num, **kw)
    for name, st in configured.items(): assert plan.strategies[name] == st   # configured operators are never changed
    check_numerics(model, plan, ep, mod, *inputs)
    return plan


def randn(*shape, seed=0): return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


class MatMulAddReLU(torch.nn.Module):
    "test_auto_parallel_out_strategy_propagation.py::test_out_strategy_propagate1: MatMul(transpose_b=True) -> Add -> ReLU."
    def __init__(self):
        super().__init__(); self.w = torch.nn.Parameter(randn(8, 32, seed=1))

    def forward(self, x, b): return torch.relu(F.linear(x, self.w) + b)


def test_out_strategy_propagate1_all_devices():
    "With fully_use_devices=True the Add after a K-split MatMul uses all 8 devices, sliced from the AllReduce for free."
    dp, mp = 4, 2
    plan = plan_of(MatMulAddReLU(), (randn(64, 32), randn(64, 8, seed=2)), {"linear": ((dp, mp), (1, mp))}, 8,
                   fully_use_devices=True)
    assert all(n == 8 for n in map(np.prod, plan.strategies["add"]))
    assert plan.allreduce("linear")   # the MatMul's K is split: its output is all-reduced, then sliced for the Add
    assert "StridedSlice" in plan.parallel_program()
    assert sum(ms[0] for e, _, ms, _ in plan.edges() if e.next == "add") == 0


@pytest.mark.parametrize("dataset_strategy", [None, "data_parallel"])
def test_out_strategy_propagate1(dataset_strategy):
    """MindSpore's assertion: Add is [[dp, mp], [dp, mp]]. The MatMul's BFS decides the Add from its one visited edge;
    (4, 2) and (8, 1) both only slice the AllReduce's (16, 8), but (8, 1) cuts dim 0 by a device dim that the MatMul's
    device matrix [4, 1, 2] splits in two, so MindSpore's redistribution reshapes (TensorRedistribution::ComputeCost adds
    2x the slice to its computation) and (4, 2) is cheaper."""
    dp, mp = 4, 2
    plan = plan_of(MatMulAddReLU(), (randn(64, 32), randn(64, 8, seed=2)), {"linear": ((dp, mp), (1, mp))}, 8,
                   fully_use_devices=True, dataset_strategy=dataset_strategy)
    assert plan.strategies["add"] == ((dp, mp), (dp, mp))
    assert plan.strategies["relu"] == ((dp, mp),)
    if dataset_strategy:   # MindSpore's default: x and b arrive split (8, 1) and are redistributed to what linear and add want
        assert [e.next for e, r, _, _ in plan.edges() if e.prev == "_VirtualDataset" and r.ops] == ["linear", "add"]
        assert "AlltoAll(%b)" in plan.parallel_program()


class ReLUMatMulAdd(torch.nn.Module):
    "test_out_strategy_propagate2: ReLU -> MatMul(transpose_b=True) with an out_strategy -> Add."
    def __init__(self):
        super().__init__(); self.w = torch.nn.Parameter(randn(8, 32, seed=1))

    def forward(self, x, b): return F.linear(torch.relu(x), self.w) + b


class ReshapeMatMulReLU(torch.nn.Module):
    "test_out_strategy_propagate3: Reshape(x, (-1, 32)) -> MatMul(transpose_b=True) with an out_strategy -> ReLU."
    def __init__(self):
        super().__init__(); self.w = torch.nn.Parameter(randn(8, 32, seed=1))

    def forward(self, x): return torch.relu(F.linear(x.reshape(-1, 32), self.w))


class MatMulReshapeReLU(torch.nn.Module):
    "test_out_strategy_propagate4/5: MatMul(transpose_b=True) with an out_strategy -> Reshape(out, shape) -> ReLU."
    def __init__(self, shape):
        super().__init__(); self.w, self.shape = torch.nn.Parameter(randn(8, 32, seed=1)), shape

    def forward(self, x): return torch.relu(F.linear(x, self.w).reshape(self.shape))


class MatMulReshapeAddReLU(torch.nn.Module):
    "test_out_strategy_propagate6: MatMul(transpose_b=True) with an out_strategy -> Reshape(out, (-1, 16)) -> Add -> ReLU."
    def __init__(self):
        super().__init__(); self.w = torch.nn.Parameter(randn(8, 32, seed=1))

    def forward(self, x, b): return torch.relu(F.linear(x, self.w).reshape(-1, 16) + b)


IN, OUT = {"linear": ((4, 2), (1, 2))}, {"linear": ((8, 1),)}   # dp=4, mp=2; out_strategy (dp*mp, 1)


def test_out_strategy_propagate2():
    "The Add after a MatMul with out_strategy ((8, 1),) takes its first candidate whose input 0 is (8, 1)."
    plan = plan_of(ReLUMatMulAdd(), (randn(64, 32), randn(64, 8, seed=2)), IN, 8, out_strategies=OUT)
    assert plan.strategies["add"] == ((8, 1), (8, 1))
    assert plan.sharding("linear").local_shape((64, 8)) == (8, 8)   # a ReduceScatter: the rows split 8 ways
    assert "AllReduce" in plan.parallel_program() and sum(ms[0] for e, _, ms, _ in plan.edges() if e.prev == "linear") == 0


def test_out_strategy_propagate3():
    plan = plan_of(ReshapeMatMulReLU(), (randn(32, 64),), IN, 8, out_strategies=OUT)
    assert plan.strategies["relu"] == ((8, 1),)


@pytest.mark.parametrize("shape,relu", [((4, -1), ((4, 2),)), ((16, -1), ((8, 1),))])
def test_out_strategy_propagate4_5(shape, relu):
    """A Reshape after the MatMul is not set by the out_strategy (MindSpore's BFSNextNodeIfNextIsReshape comes first): its
    pair starts from the MatMul's output layout, rows cut 8, and ends in the ReLU candidate it reaches with no communication.
    (64, 8) -> (4, 128) is the factors 4 | 16 | 8: rows cut 8 put 4 on the 4 and 2 on the 16, so ReLU is (4, 2) ("after
    reshape the shape is 4 which cannot be divided into 8, so reshape strategy is (4,2)")."""
    plan = plan_of(MatMulReshapeReLU(shape), (randn(64, 32),), IN, 8, out_strategies=OUT)
    assert plan.strategies["relu"] == relu
    assert plan.strategies["reshape"] == ((8, 1),)   # a Reshape's strategy: InferStrategy of its input layout
    pre, post = plan.reshape("reshape")
    assert not pre.ops and not post.ops   # carried through locally
    assert sum(ms[0] for e, _, ms, _ in plan.edges() if e.prev == "linear") == 0 and plan.received_bytes("relu") == 0


def test_reshape_pair_pays_least():
    "Nothing fits a (4, 16) -> (64,) Reshape whose input is cut on its columns only: its pair gathers them, the least it can do."
    class ColsFlat(torch.nn.Module):
        def forward(self, x): return torch.relu(torch.relu(x * x).reshape(64))
    plan = plan_of(ColsFlat(), (randn(4, 16),), {"mul": ((1, 4), (1, 4))}, 4)
    pre, post = plan.reshape("reshape")
    assert plan.strategies["reshape"] == ((1, 4),) and [k for k, _, _ in pre.ops] == ["AllGather"]
    assert "Reshape(%" in plan.parallel_program() and "AllGather" in plan.parallel_program()


def test_reshape_takes_no_strategy():
    from shardnb import ShardingError
    ep, mod = export(MatMulReshapeReLU((4, -1)), randn(64, 32))
    with pytest.raises(ShardingError, match=r"operator reshape \(Reshape\) takes no strategy"):
        propagate_strategies(mod, {"reshape": ((8, 1),)}, device_num=8)


def test_out_strategy_propagate6():
    plan = plan_of(MatMulReshapeAddReLU(), (randn(64, 32), randn(32, 16, seed=2)), IN, 8, out_strategies=OUT)
    assert plan.strategies["add"] == ((8, 1), (8, 1))


def test_out_strategy_errors():
    from shardnb import ShardingError
    ep, mod = export(ReLUMatMulAdd(), randn(64, 32), randn(64, 8, seed=2))
    with pytest.raises(ShardingError, match="can be split 4 times a power of two up to 8, not 16"):
        propagate_strategies(mod, IN, device_num=8, out_strategies={"linear": ((16, 1),)})
    with pytest.raises(ShardingError, match="only a configured operator takes one"):
        propagate_strategies(mod, IN, device_num=8, out_strategies={"add": ((8, 1),)})


class MulMax(torch.nn.Module):
    "test_parallel_max.py (MaxNet1): Mul(x, x) configured, then Max over every dim."
    def forward(self, x): return (x * x).amax()


@pytest.mark.parametrize("shape,strategy", [((32, 16), (2, 4)), ((8, 8, 8), (2, 2, 2))])
def test_max_auto_parallel_sharding_propagation(shape, strategy):
    plan = plan_of(MulMax(), (randn(*shape),), {"mul": (strategy, strategy)}, 8)
    assert plan.strategies["amax"] == (strategy,)
    assert plan.allreduce("amax")   # a full reduction keeps the split and ends in an AllReduce(max)
    assert "AllReduce(%1) {op: max" in plan.parallel_program()


class MulMaxDim(torch.nn.Module):
    "test_parallel_max_dim.py (MaxDimNet1): Mul(x, x) configured, then MaxDim(dim, keepdim) (its values: amax)."
    def __init__(self, dim, keepdim):
        super().__init__(); self.dim, self.keepdim = dim, keepdim

    def forward(self, x): return (x * x).amax(self.dim, keepdim=self.keepdim)


@pytest.mark.parametrize("strategy,dim,keepdim", [((1, 2, 4), 0, True), ((2, 1, 4), 1, False)])
def test_max_dim_auto_parallel_sharding_propagation(strategy, dim, keepdim):
    plan = plan_of(MulMaxDim(dim, keepdim), (randn(8, 8, 8),), {"mul": (strategy, strategy)}, 8)
    assert plan.strategies["amax"] == (strategy,)
    assert not plan.allreduce("amax")   # the reduced dim was not split


class ElementwiseSingleInput(torch.nn.Module):
    "test_parallel_elementwise (test_element_wise_single_input_ops): Mul(x, x) configured, then ReLU, ELU, LeakyReLU, Softplus."
    def forward(self, x):
        return F.softplus(F.leaky_relu(F.elu(torch.relu(x * x))))


def test_element_wise_single_input_ops():
    st = (1, 2, 4, 8)
    plan = plan_of(ElementwiseSingleInput(), (randn(4, 8, 4, 8),), {"mul": (st, st)}, 64)
    for name in ("relu", "elu", "leaky_relu", "softplus"):
        assert plan.strategies[name] == (st,), name
    assert plan.total() == 0


class AddReLUMaxSub(torch.nn.Module):
    "test_auto_parallel_shard_propagation3.py: Add(x, w) -> ReLU -> ReduceMax(keep_dims=True) -> Sub(relu, max)."
    def __init__(self, n=256):
        super().__init__(); self.w = torch.nn.Parameter(randn(64, n, seed=3))

    def forward(self, x):
        out = torch.relu(x + self.w)
        return out - out.amax((0, 1), keepdim=True)


@pytest.mark.parametrize("configured", [
    {"amax": ((8, 1),), "sub": ((1, 8), (1, 1))},                      # activation1: the two configured neighbours disagree
    {"relu": ((1, 8),), "amax": ((1, 1),), "sub": ((1, 8), (1, 1))},   # activation2
])
def test_shard_propagation3_configured_neighbours(configured):
    "MindSpore asserts only that these compile (its 64x32000 tensors are 64x256 here): a conflict is a redistribution."
    plan = plan_of(AddReLUMaxSub(), (randn(64, 256),), configured, 8)
    if "relu" not in configured:
        # relu feeds two configured operators that want it split differently: one edge pays, the other is free
        costs = {e.next: ms[0] for e, _, ms, _ in plan.edges() if e.prev == "relu"}
        assert sorted(c == 0 for c in costs.values()) == [False, True]


class MulSigmoidReLU(torch.nn.Module):
    "test_auto_parallel_shard_propagation.py: Mul(x, w) -> Sigmoid -> ReLU, on 16 devices."
    def __init__(self):
        super().__init__(); self.w = torch.nn.Parameter(randn(64, 32, seed=4))

    def forward(self, x): return torch.relu(torch.sigmoid(x * self.w))


@pytest.mark.parametrize("configured", [{"mul": ((4, 4), (4, 4))}, {"sigmoid": ((4, 4),)}])
def test_shard_propagation_activations(configured):
    "activation1/2 assert only that these compile; the one configured layout then reaches every operator for free."
    plan = plan_of(MulSigmoidReLU(), (randn(64, 32),), configured, 16)
    assert set(plan.strategies.values()) == {((4, 4), (4, 4)), ((4, 4),)}
    assert plan.total() == 0


class MulCastSigmoid(torch.nn.Module):
    "test_auto_parallel_shard_propagation2.py: Mul(x, w) -> Cast(float16) -> Sigmoid, on 16 devices."
    def __init__(self):
        super().__init__(); self.w = torch.nn.Parameter(randn(64, 32, seed=5))

    def forward(self, x): return torch.sigmoid((x * self.w).to(torch.float16))


def test_shard_propagation2_activation4():
    "Mul ((4, 4), (4, 4)) and Sigmoid ((8, 2),) configured around an unconfigured Cast: it compiles, the conflict is one redistribution."
    from tests.mindspore.test_strategies import arguments
    from shardnb.mindspore.strategies import evaluate
    m, x = MulCastSigmoid(), randn(64, 32)
    ep, mod = export(m, x)
    plan = propagate_strategies(mod, {"mul": ((4, 4), (4, 4)), "sigmoid": ((8, 2),)}, device_num=16)
    assert [o.primitive for o in plan.operators] == ["Mul", "Cast", "Sigmoid"]
    assert plan.strategies == {"mul": ((4, 4), (4, 4)), "to": ((4, 4),), "sigmoid": ((8, 2),)}
    paying = [e.next for e, r, _, _ in plan.edges() if r.ops]
    assert paying == ["sigmoid"]   # the Cast follows the Mul for free; the configured Sigmoid pays
    args = arguments(ep, mod, (x,))
    single = evaluate(mod, *args)[0]
    np.testing.assert_allclose(plan.run(*args)[0], single, rtol=1e-12)
    # the interpreter keeps float64 through the cast; torch rounds to float16
    np.testing.assert_allclose(single, m(x).float().detach().numpy(), rtol=2e-3, atol=1e-3)


class CumOps(torch.nn.Module):
    """test_cum_ops.py: Add(x, w) -> CumSum(-2) configured (2, 2, 1, 2) -> CumProd(-2) -> Cummax(-2) -> Cummin(-2) -> Lgamma
    -> Trunc -> ReverseV2(-2) -> LogSoftmax(-2) -> Softmax(-2) -> Elu."""
    def __init__(self):
        super().__init__(); self.w = torch.nn.Parameter(randn(4, 8, 4, 8, seed=6))

    def forward(self, x):
        out = torch.cummin(torch.cummax(torch.cumprod(torch.cumsum(x + self.w, -2), -2), -2)[0], -2).values
        out = torch.trunc(torch.lgamma(out) * 4).flip(-2)
        return F.elu(torch.softmax(torch.log_softmax(out, -2), -2))


def test_cum_ops():
    "Every operator after the configured CumSum keeps (2, 2, 1, 2): its axis -2 cannot be split, and nothing is redistributed."
    st = (2, 2, 1, 2)
    plan = plan_of(CumOps(), (randn(4, 8, 4, 8),), {"cumsum": (st,)}, 8)
    assert [o.primitive for o in plan.operators][:7] == ["Add", "CumSum", "CumProd", "Cummax", "Cummin", "Lgamma", "Mul"]
    for name in ("cumprod", "cummax", "cummin", "lgamma", "trunc", "flip", "log_softmax", "softmax", "elu"):
        assert plan.strategies[name] == (st,), name
    assert plan.strategies["add"] == (st, st) and plan.total() == 0


@pytest.mark.parametrize("op", ["cummax", "cummin"])
def test_cummax_axis_cannot_be_split(op):
    "Cummax and Cummin, like CumSum, keep their axis whole (activation_info.cc: the axis dim is not splittable)."
    from shardnb import ShardingError
    ep, mod = export(Fn1(lambda x: getattr(torch, op)(x * x, 1)[0]), randn(8, 8))
    with pytest.raises(ShardingError, match=rf"operator {op} \(Cum{op[3:]}\): input 0 dim 1 cannot be split"):
        propagate_strategies(mod, {op: ((1, 8),)}, device_num=8)
    assert propagate_strategies(mod, {"mul": ((8, 1), (8, 1))}, device_num=8).strategies[op] == ((8, 1),)


class Fn1(torch.nn.Module):
    def __init__(self, f):
        super().__init__(); self.f = f

    def forward(self, x): return self.f(x)


class MulCumsum(torch.nn.Module):
    "test_cumsum_ext.py (CumsumExtNet1): Mul(x, x) configured, then CumsumExt(dim)."
    def __init__(self, dim):
        super().__init__(); self.dim = dim

    def forward(self, x): return torch.cumsum(x * x, self.dim)


@pytest.mark.parametrize("strategy,dim", [((1, 2, 4), 0), ((2, 1, 4), 1)])
def test_cumsum_ext_auto_parallel_sharding_propagation(strategy, dim):
    plan = plan_of(MulCumsum(dim), (randn(8, 8, 8),), {"mul": (strategy, strategy)}, 8)
    assert plan.strategies["cumsum"] == (strategy,)


def test_cumsum_axis_cannot_be_split():
    "MindSpore's CumSum rejects a split axis (test_cumsum_ext_shard_dim_error); so does shardnb."
    from shardnb import ShardingError
    ep, mod = export(MulCumsum(0), randn(8, 8, 8))
    with pytest.raises(ShardingError, match=r"operator cumsum \(CumSum\): input 0 dim 0 cannot be split"):
        propagate_strategies(mod, {"cumsum": ((2, 4, 1),)}, device_num=8)


class ConvBNPool(torch.nn.Module):
    """test_sharding_propagation_for_conv2ds.py's Net: ReLU (configured) -> Conv2D(3x3, same) -> BatchNorm2d -> MaxPool(2, 2)
    -> Conv2DTranspose(4x4, stride 2, same) -> ReLU (the same configured primitive). The BatchNorm trains, as the test's TrainOneStepCell does: batch
    statistics, all-reduced over the devices that split N, H or W. torch's batch-statistics batch_norm reads no running
    statistics, so its strategy has the input, weight and bias where MindSpore's BatchNorm also lists its moving mean and
    variance; `training=False` normalises with running statistics instead, and then has all five."""
    def __init__(self, training: bool = True):
        super().__init__()
        g = torch.Generator().manual_seed(7)
        self.conv = torch.nn.Conv2d(16, 8, 3, padding=1, bias=False)
        self.bn = torch.nn.BatchNorm2d(8, track_running_stats=not training)
        self.up = torch.nn.ConvTranspose2d(8, 16, 4, stride=2, padding=1, bias=False)   # MindSpore's w2: [8, 16, 4, 4]
        with torch.no_grad():
            self.conv.weight.copy_(torch.randn(8, 16, 3, 3, generator=g) / 12)
            self.up.weight.copy_(torch.randn(8, 16, 4, 4, generator=g) / 8)
            for t in (self.bn.weight, self.bn.bias): t.copy_(torch.randn(8, generator=g))
            if not training: self.bn.running_mean.copy_(torch.randn(8, generator=g)); self.bn.running_var.copy_(torch.rand(8, generator=g) + 0.5)
        self.train(training)

    def forward(self, x): return torch.relu(self.up(F.max_pool2d(self.bn(self.conv(torch.relu(x))), 2, 2)))


def bn_strategy(st, training):
    "MindSpore asserts [st, [1], [1], [1], [1]]: input, scale, bias, moving mean and variance; training reads only the first three."
    return (st, (1,), (1,)) if training else (st, (1,), (1,), (1,), (1,))


def no_redistribution(plan):
    "No edge moves a byte: every operator takes its inputs as its producers lay them out."
    return all(not r.ops for _, r, _, _ in plan.edges())


class ReLUConvTranspose(torch.nn.Module):
    "test_sharding_propagation_for_conv2ds.py's Conv2DTranspose: ReLU -> Conv2DTranspose(3x3, stride 2) -> ReLU."
    def __init__(self):
        super().__init__()
        self.up = torch.nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1)
        with torch.no_grad(): self.up.weight.copy_(randn(8, 4, 3, 3, seed=12) / 6); self.up.bias.copy_(randn(4, seed=13))

    def forward(self, x): return torch.relu(self.up(torch.relu(x)))


@pytest.mark.parametrize("configured,total_zero", [
    ({"relu": ((8, 1, 1, 1),)}, True),                                              # the batch split reaches it for free
    ({"conv_transpose2d": ((2, 2, 1, 1), (2, 2, 1, 1), (2,))}, False),              # in-channels split: an AllReduce
])
def test_conv2d_transpose(configured, total_zero):
    plan = plan_of(ReLUConvTranspose(), (randn(16, 8, 6, 6),), configured, 8)
    assert [o.primitive for o in plan.operators] == ["ReLU", "Conv2DTranspose", "ReLU"]
    if total_zero:
        assert plan.strategies["conv_transpose2d"][0] == (8, 1, 1, 1) and plan.total() == 0
    else:
        assert plan.allreduce("conv_transpose2d") and plan.strategies["relu_1"] == ((2, 2, 1, 1),)


class ConvBNTrain(torch.nn.Module):
    "Conv2D -> BatchNorm with batch statistics (MindSpore's BatchNorm, is_training) -> ReLU."
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(4, 8, 3, padding=1, bias=False)
        with torch.no_grad(): self.conv.weight.copy_(randn(8, 4, 3, 3, seed=9) / 6)
        self.w, self.b = torch.nn.Parameter(randn(8, seed=10)), torch.nn.Parameter(randn(8, seed=11))

    def forward(self, x): return torch.relu(F.batch_norm(self.conv(x), None, None, self.w, self.b, training=True))


def test_batch_norm_training_batch_split():
    "The batch split 8 reaches the training BatchNorm, whose mean and variance are then all-reduced over the 8 devices."
    plan = plan_of(ConvBNTrain(), (randn(16, 4, 8, 8),), {"conv2d": ((8, 1, 1, 1), (1, 1, 1, 1))}, 8)
    assert plan.strategies["batch_norm"][0] == (8, 1, 1, 1) and plan.strategies["relu"] == ((8, 1, 1, 1),)
    assert len(plan.allreduce("batch_norm")) == 3 and "AllReduce" in plan.parallel_program()


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_sharding_propagation_8x1x1x1(training):
    """MindSpore's assertions: Conv2D [[8, 1, 1, 1], [1, 1, 1, 1]], BatchNorm [[8, 1, 1, 1], [1]...], MaxPool [[8, 1, 1, 1]],
    Conv2DTranspose [[8, 1, 1, 1], [1, 1, 1, 1]]."""
    st = (8, 1, 1, 1)
    plan = plan_of(ConvBNPool(training), (randn(32, 16, 16, 16),), {"relu": (st,), "relu_1": (st,)}, 8)
    assert [o.primitive for o in plan.operators] == ["ReLU", "Conv2D", "BatchNorm", "MaxPool", "Conv2DTranspose", "ReLU"]
    assert plan.strategies["conv2d"] == (st, (1, 1, 1, 1)) and plan.strategies["conv_transpose2d"] == (st, (1, 1, 1, 1))
    assert plan.strategies["batch_norm"] == bn_strategy(st, training)
    assert plan.strategies["max_pool2d"] == (st,)
    assert no_redistribution(plan)
    if training:   # the batch is split 8 ways: each device's mean and variance are summed over all 8 (BatchNormInfo)
        assert len(plan.allreduce("batch_norm")) == 3 and "AllReduce(statistics of %2) {op: sum, group_ranks: 0-1-2-3-4-5-6-7}" in plan.parallel_program()
    else: assert plan.total() == 0 and not plan.allreduce("batch_norm")


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_sharding_propagation_1x1x1x8(training):
    """MindSpore's assertions: Conv2D [[1, 1, 1, 8], [1, 1, 1, 1]], BatchNorm [[1, 1, 1, 8], [1]...], MaxPool [[1, 1, 1, 8]],
    Conv2DTranspose [[1, 1, 1, 8], [1, 1, 1, 1]]. Conv2DInfo, MaxPoolInfo and Conv2DBackpropInputInfo cut W and take the halo their windows reach from the neighbours (a NeighborExchangeV2);
    the training BatchNorm all-reduces its statistics over the W split; the parallel program, halos included, equals
    the single-device one."""
    st = (1, 1, 1, 8)
    plan = plan_of(ConvBNPool(training), (randn(32, 16, 16, 16),), {"relu": (st,), "relu_1": (st,)}, 8)
    assert plan.strategies["conv2d"] == (st, (1, 1, 1, 1)) and plan.strategies["conv_transpose2d"] == (st, (1, 1, 1, 1))
    assert plan.strategies["batch_norm"] == bn_strategy(st, training)
    assert plan.strategies["max_pool2d"] == (st,)
    assert no_redistribution(plan)   # only the halos move, and a training BatchNorm's statistics
    text = plan.parallel_program()
    assert "NeighborExchangeV2(%0) {dims: [3], rank 0 receives rows (before, after): [(0, 1)]}" in text
    assert "NeighborExchangeV2" not in text.split("MaxPool")[0].split("BatchNorm")[1]   # the 2x2/2 pool's windows stay inside
    assert ("AllReduce(statistics of %2) {op: sum, group_ranks: 0-1-2-3-4-5-6-7}" in text) == training
    # 3x3 'same' on 16 columns cut 8: two columns each, one more from each neighbour; 32 x 16 x 16 rows x 4 bytes each
    assert plan.received_bytes("conv2d") == 2 * 32 * 16 * 16 * 4 and plan.received_bytes("max_pool2d") == 0
    # the transposed 4x4/2 on 8 columns cut 8: each output pair reads its column and one from each side (the middle
    # ranks), as Conv2DBackpropInputInfo's overlaps say; 32 x 8 x 8 rows x 4 bytes each
    assert "NeighborExchangeV2(%3) {dims: [3], rank 0 receives rows (before, after): [(0, 1)]}" in text
    assert plan.received_bytes("conv_transpose2d") == 2 * 32 * 8 * 8 * 4


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_sharding_propagation_1x1x2x1(training):
    """set_algo_parameters(fully_use_devices=False), ReLU configured (1, 1, 2, 1): MindSpore's assertions are Conv2D
    [[1, 1, 2, 1], [1, 1, 1, 1]], BatchNorm [[1, 1, 2, 1], [1]...], MaxPool [[1, 1, 2, 1]] and (its "Conv2D" pattern
    matches the name Conv2DTranspose too) Conv2DTranspose [[1, 1, 2, 1], [1, 1, 1, 1]]. Four devices are idle, and ((1, 1, 2, 1), (4, 1, 1, 1))
    would be as free from the ReLU and split more (Strategy::Compare), but Conv2DInfo::GenerateOpStrategies never
    generates an out-channel split ("keep C2 unsplittable"): the Conv2D keeps the ReLU's H split, and so does
    everything after it, up to the configured last ReLU, with no redistribution."""
    from shardnb.mindspore.operators import candidates, strategy_of
    st = (1, 1, 2, 1)
    plan = plan_of(ConvBNPool(training), (randn(32, 16, 16, 16),), {"relu": (st,), "relu_1": (st,)}, 8, fully_use_devices=False)
    assert plan.strategies["conv2d"] == (st, (1, 1, 1, 1)) and plan.strategies["conv_transpose2d"] == (st, (1, 1, 1, 1))
    assert plan.strategies["batch_norm"] == bn_strategy(st, training)
    assert plan.strategies["max_pool2d"] == (st,)
    assert no_redistribution(plan)
    text = plan.parallel_program()
    assert "NeighborExchangeV2(%0) {dims: [2], rank 0 receives rows (before, after): [(0, 1)]}" in text
    assert ("AllReduce(statistics of %2) {op: sum, group_ranks: 0-4}" in text) == training   # H is split over ranks 0 and 4
    conv = plan.graph.by["conv2d"]
    gen = [strategy_of(conv, c) for c in candidates(conv, 8)]
    assert (st, (1, 1, 1, 1)) in gen and all(w[0] == 1 for _, w in gen)   # no generated candidate splits C-out
    # CheckStrategy still accepts a configured out-channel split, and the plan computes the same
    plan = plan_of(ConvBNPool(training), (randn(32, 16, 16, 16),), {"conv2d": (st, (4, 1, 1, 1))}, 8)
    assert plan.strategies["batch_norm"][0] == (1, 4, 2, 1)


def test_transposed_halo_is_conv2d_backprop_inputs_overlap(seed):
    """`halo_rows` of a transposed convolution (a convolution of the input dilated by the stride, window k, low pad
    k - 1 - p) against Conv2DBackpropInputInfo::ComputeOverlap{Top,Bottom}SizeByRankBias (ops_info/conv2d_info.cc),
    written out here from MindSpore's source, on random geometries where every part's output is whole and each halo
    comes from a neighbour (MindSpore's sizes count padding past the input's end as rows to fetch, where a window is
    wider than the whole input: there `halo_rows` clips at the edge)."""
    import random
    from shardnb.mindspore.strategies import halo_rows
    ceil = lambda a, b: -(-a // b)
    def top(r, h, o, k, s, x, n):
        if r == 0: return 0
        if r == n - 1: return ceil(o // n + k - o + h * s - s - x, s) - h // n
        return r * h // n - ceil(r * o // n - k + x + 1, s)
    def bottom(r, h, o, k, s, x, n):
        if r == n - 1: return 0
        if r == 0: return ceil(o // n + x, s) - h // n
        return ceil(r * o // n + o // n + x, s) - (r + 1) * h // n
    rng, seen, halos = random.Random(f"{seed}/transposed halo"), 0, 0
    while seen < 300:
        n, s, k = rng.choice([2, 4, 8]), rng.randint(1, 4), rng.randint(1, 7)
        h = n * rng.randint(1, 6)
        x = rng.randint(0, k - 1)   # torch's padding
        o = (h - 1) * s - 2 * x + k + rng.randint(0, s - 1)   # and its output_padding
        if o <= 0 or o % n: continue
        want = [(max(0, top(r, h, o, k, s, x, n)), max(0, bottom(r, h, o, k, s, x, n))) for r in range(n)]
        if max(max(w) for w in want) > h // n: continue
        seen += 1; halos += any(any(w) for w in want)
        assert [halo_rows(h, o, k, 1, k - 1 - x, n, r, s) for r in range(n)] == want, (h, o, k, s, x, n)
    assert halos > 150   # most geometries exchange a halo


def test_transposed_halo_runs_as_torch(seed):
    """Random transposed convolutions (kernel, stride, padding, output padding) cut along H or W where each part's halo
    comes from its neighbours: the parallel program, NeighborExchangeV2 halos included, equals torch."""
    import random
    from shardnb.mindspore.strategies import halo_fits, halo_rows, operators
    rng, done, hard = random.Random(f"{seed}/transposed conv"), 0, 0
    while done < 6 or hard < 3:   # three of them with a stride and a halo at least
        k, st = rng.randint(1, 5), rng.randint(1, 3)
        p, parts, n = rng.randint(0, k - 1), rng.choice([2, 4]), rng.choice([4, 8])
        extra = rng.randint(0, st - 1) if st > 1 else 0
        out = (n - 1) * st - 2 * p + k + extra
        if out <= 0 or extra >= max(st, 1) or not halo_fits(n, out, k, 1, k - 1 - p, parts, st): continue
        dim = rng.choice([2, 3])
        class Up(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.up = torch.nn.ConvTranspose2d(3, 2, k, stride=st, padding=p, output_padding=extra, bias=False)
                with torch.no_grad(): self.up.weight.copy_(randn(3, 2, k, k, seed=done))
            def forward(self, x): return torch.relu(self.up(x))
        x = randn(2, 3, n, n, seed=done + 1)
        op = operators(export(Up(), x)[1])[0]
        if op.dim_letter[(op.inputs[0], dim)] not in op.halo: continue   # Shardy's rule: a window over the whole dim contracts it
        cut = [1, 1, 1, 1]; cut[dim] = parts
        plan = plan_of(Up(), (x,), {"conv_transpose2d": (tuple(cut), (1, 1, 1, 1))}, parts)
        assert plan.strategies["relu"] == (tuple(cut),), (k, st, p, extra, n, parts, dim)
        done += 1; hard += st > 1 and any(any(halo_rows(n, out, k, 1, k - 1 - p, parts, j, st)) for j in range(parts))


def test_halo_must_come_from_neighbours():
    "A 7x7 window cut 16 ways needs 3 columns from a side whose neighbour holds 2: one NeighborExchangeV2 cannot do it."
    from shardnb import ShardingError
    from shardnb.mindspore.strategies import halo_fits, halo_rows
    assert halo_rows(16, 16, 3, 1, 1, 8, 0) == (0, 1) and halo_rows(16, 16, 3, 1, 1, 8, 3) == (1, 1)
    assert halo_fits(32, 16, 7, 2, 3, 8) and not halo_fits(32, 16, 7, 2, 3, 16)
    class Conv7(torch.nn.Module):
        def __init__(self):
            super().__init__(); self.conv = torch.nn.Conv2d(2, 2, 7, 2, 3)
        def forward(self, x): return torch.relu(self.conv(torch.relu(x)))
    ep, mod = export(Conv7(), randn(1, 2, 32, 32))
    with pytest.raises(ShardingError, match=r"input 0 dim 3 split 16: each part's halo must come from its two neighbours"):
        propagate_strategies(mod, {"conv2d": ((1, 1, 1, 16), (1, 1, 1, 1), (1,))}, device_num=16)
    plan = plan_of(Conv7(), (randn(1, 2, 32, 32),), {"conv2d": ((1, 1, 2, 8), (1, 1, 1, 1), (1,))}, 16)   # H and W both cut
    assert plan.strategies["relu_1"] == ((1, 1, 2, 8),)


class ReshapeTupleConcat(torch.nn.Module):
    "test_auto_parallel_shard_propagation_reshape.py (MyTestNet): Reshape(x), Add(y, z) configured -> Reshape, Concat(axis 0), Reshape."
    def forward(self, x, y, z):
        return torch.cat((x.reshape(2, 2), (y + z).reshape(4, 2)), 0).reshape(2, 6)


def test_reshape_tuple_concat():
    """MindSpore's test runs on one device and asserts a Reshape is [[1, 1]]. On 8 devices the Reshape after the Add starts
    from the Add's layout, and the Concat after it is left alone (BFSNextNodeIfCurrIsReshape: "virtualoutput or concat after
    reshape, no need set strategy"), so it takes its first candidate at the end."""
    ins = (randn(1, 2, 2), randn(2, 4, seed=1), randn(2, 4, seed=2))
    plan = plan_of(ReshapeTupleConcat(), ins, {"add": ((1, 1), (1, 1))}, 1)
    assert plan.strategies["reshape_1"] == plan.strategies["reshape_2"] == ((1, 1),)
    assert [o.primitive for o in plan.operators] == ["Reshape", "Add", "Reshape", "Concat", "Reshape"]
    plan = plan_of(ReshapeTupleConcat(), ins, {"add": ((2, 2), (2, 2))}, 8)
    assert plan.strategies["reshape_1"] == ((2, 2),)
    assert plan.strategies["cat"] == ((1, 1), (1, 1))


class TwoBranches(torch.nn.Module):
    "relu(x) and y @ w: nothing joins the configured MatMul's branch to the ReLU."
    def __init__(self):
        super().__init__(); self.w = torch.nn.Parameter(randn(16, 8, seed=1))

    def forward(self, x, y): return torch.relu(x), y @ self.w


def test_virtual_dataset_decides_what_no_search_reaches():
    "MindSpore's _VirtualDataset is a configured operator searched last: it decides the ReLU no other search reaches."
    from shardnb.mindspore.strategies import evaluate
    from tests.mindspore.test_strategies import arguments
    m, ins = TwoBranches(), (randn(64, 16), randn(64, 16, seed=2))
    ep, mod = export(m, *ins)
    free = propagate_strategies(mod, {"matmul": ((2, 4), (4, 1))}, device_num=8)
    fed = propagate_strategies(mod, {"matmul": ((2, 4), (4, 1))}, device_num=8, dataset_strategy="data_parallel")
    assert free.strategies["relu"] == ((1, 1),)    # unreached: its first candidate
    assert fed.strategies["relu"] == ((8, 1),)     # the dataset's layout, for free
    assert fed.received_bytes("relu") == 0 and fed.received_bytes("matmul") > free.received_bytes("matmul")   # y arrives (8, 1)
    assert propagate_strategies(mod, {"matmul": ((2, 4), (4, 1))}, device_num=8, dataset_strategy=((1, 8), (4, 1))).strategies["relu"] == ((1, 8),)
    args = arguments(ep, mod, ins)
    for got, want in zip(fed.run(*args), evaluate(mod, *args)): np.testing.assert_allclose(got, want, rtol=1e-12)


def test_dataset_strategy_errors():
    from shardnb import ShardingError
    ep, mod = export(TwoBranches(), randn(64, 16), randn(64, 16, seed=2))
    conf = {"matmul": ((2, 4), (4, 1))}
    with pytest.raises(ShardingError, match=r"one strategy per network input \(2: %x, %y\)"):
        propagate_strategies(mod, conf, device_num=8, dataset_strategy="model_parallel")
    with pytest.raises(ShardingError, match="splits more than one dim"):
        propagate_strategies(mod, conf, device_num=8, dataset_strategy=((2, 4), (8, 1)))
    with pytest.raises(ShardingError, match="dim 1 cannot be split 32 on 8 devices"):
        propagate_strategies(mod, conf, device_num=8, dataset_strategy=((1, 32), (8, 1)))


class Bottleneck(torch.nn.Module):
    "ResNet's ResidualBlock: 1x1 -> 3x3 -> 1x1 convolutions with batch norms, a downsampling shortcut or a strided max pool."
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        mid = cout // 4
        bn = lambda c: torch.nn.BatchNorm2d(c)
        self.conv1, self.bn1 = torch.nn.Conv2d(cin, mid, 1), bn(mid)
        self.conv2, self.bn2 = torch.nn.Conv2d(mid, mid, 3, stride, 1), bn(mid)
        self.conv3, self.bn3 = torch.nn.Conv2d(mid, cout, 1), bn(cout)
        self.down = (torch.nn.Sequential(torch.nn.Conv2d(cin, cout, 1, stride), bn(cout)) if cin != cout else
                     torch.nn.MaxPool2d(1, stride) if stride != 1 else torch.nn.Identity())

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = torch.relu(self.bn2(self.conv2(out)))
        return torch.relu(self.bn3(self.conv3(out)) + self.down(x))


class ResNetLoss(torch.nn.Module):
    """test_auto_parallel_resnet_sharding_propagation2.py (test_train_32k_8p), shrunk: conv7x7/2 -> BN -> ReLU -> MaxPool(3, 2)
    -> two residual blocks (ResNet-50 has sixteen) -> ReduceMean(2, 3) -> Squeeze -> Dense (MatMul configured (8, 1), (1, 1)),
    then SoftmaxCrossEntropyExpand with its ReduceMax (8, 1) and Sub configured; labels come one-hot."""
    def __init__(self, classes=16):
        super().__init__()
        torch.manual_seed(8)
        self.stem = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 7, 2, 3), torch.nn.BatchNorm2d(16), torch.nn.ReLU(),
                                        torch.nn.MaxPool2d(3, 2, 1))
        self.blocks = torch.nn.Sequential(Bottleneck(16, 32), Bottleneck(32, 32, stride=2))
        self.fc = torch.nn.Linear(32, classes)
        with torch.no_grad():
            for m in self.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.running_mean.normal_(0, 0.1); m.running_var.uniform_(0.5, 1.5); m.weight.normal_(1, 0.1); m.bias.normal_(0, 0.1)
        self.eval()

    def forward(self, x, label):
        logit = self.fc(self.blocks(self.stem(x)).mean((2, 3), keepdim=True).squeeze(-1).squeeze(-1))
        exp = torch.exp(logit - logit.amax(-1, keepdim=True))
        softmax = exp / exp.sum(-1, keepdim=True)
        return (-(torch.log(softmax) * label).sum(-1)).mean(-1)


def test_resnet_sharding_propagation_8p():
    "Every Conv2D splits the batch over the 8 devices, MatMul is [[8, 1], [1, 1]], the first ReduceSum [[8, 1]]."
    label = F.one_hot(torch.arange(8) % 16, 16).float()
    # MindSpore configures Sub ((8, 1), (1, 1)) on (batch, classes) - (batch, 1); shardnb wants the batch dim both inputs
    # share split alike (CheckStrategy here), so it is ((8, 1), (8, 1))
    conf = {"linear": ((8, 1), (1, 1), (1,)), "amax": ((8, 1),), "sub": ((8, 1), (8, 1))}
    plan = plan_of(ResNetLoss(), (randn(8, 3, 32, 32), label), conf, 8)
    convs = [o.name for o in plan.operators if o.primitive == "Conv2D"]
    assert len(convs) == 8 and all(plan.strategies[c][0][0] == 8 for c in convs)
    assert plan.strategies["sum_1"] == ((8, 1),)


class ResNetClasses(ResNetLoss):
    """test_auto_parallel_resnet_sharding_propagation.py (test_train_64k_8p), shrunk as ResNetLoss is: the classes split
    instead of the batch. Squeeze configured (8, 1, 1, 1), the Dense's MatMul ((1, 1), (8, 1)) (transpose_b: the weight's
    classes split), and SoftmaxCrossEntropyExpand(sparse=True) with its ReduceMax, Sub, ReduceSum, Div and OneHot
    configured over the classes; the labels are class indices, made one-hot by the OneHot."""
    def __init__(self, classes=64):
        super().__init__(classes)
        self.classes = classes

    def forward(self, x, label):
        logit = self.fc(self.blocks(self.stem(x)).mean((2, 3), keepdim=True).squeeze((2, 3)))
        exp = torch.exp(logit - logit.amax(-1, keepdim=True))
        softmax = exp / exp.sum(-1, keepdim=True)
        return (-(torch.log(softmax) * F.one_hot(label, self.classes).float()).sum(-1)).mean(-1)


def test_resnet_sharding_propagation_64k_8p():
    """MindSpore's assertions: every Conv2D splits the batch 8 ways, MatMul is [[1, 1], [8, 1]], every ReduceSum [[1, 8]]
    (the cross entropy's, not configured, too: the OneHot's classes split reaches it through the Mul)."""
    conf = {"squeeze": ((8, 1, 1, 1),), "linear": ((1, 1), (8, 1), (8,)), "amax": ((1, 8),), "sub": ((1, 8), (1, 1)),
            "sum_1": ((1, 8),), "div": ((1, 8), (1, 1)), "one_hot": ((1, 8), (), ())}
    plan = plan_of(ResNetClasses(), (randn(8, 3, 32, 32), torch.arange(8) * 5 % 64), conf, 8)
    convs = [o.name for o in plan.operators if o.primitive == "Conv2D"]
    assert len(convs) == 8 and all(plan.strategies[c][0][0] == 8 for c in convs)
    sums = [o.name for o in plan.operators if o.primitive == "ReduceSum"]
    assert sums == ["sum_1", "sum_2"] and all(plan.strategies[s] == ((1, 8),) for s in sums)
    assert plan.strategies["mul"] == ((1, 8), (1, 8)) and plan.strategies["to"] == ((1, 8),)
    text = plan.parallel_program()
    assert "%36(one_hot) = OneHot(%label) {in_strategy: ((1, 8), (), ())}" in text


class Embed(torch.nn.Module):
    "An embedding (MindSpore's Gather on axis 0) scaled by a ReLU of itself."
    def __init__(self):
        super().__init__()
        self.table = torch.nn.Parameter(randn(64, 16, seed=3))

    def forward(self, ids): return torch.relu(F.embedding(ids, self.table)) * 3


@pytest.mark.parametrize("st", [((1, 1), (8, 1)), ((1, 8), (1, 1)), ((8, 1), (1, 1)), ((2, 2), (2, 1)), ((4, 1), (1, 2))])
def test_gather_strategies(st):
    """Gather's strategy is (table, indices): the indices' and the table's columns split the output; the table's rows
    split is Shardy's reduction factor of the gather (each device looks up the ids in its rows, zeros elsewhere) and
    an AllReduce sums the parts (GatherInfo's axis split). Each plan run on 8 simulated devices equals torch."""
    ids = torch.arange(32).reshape(8, 4) * 7 % 64
    plan = plan_of(Embed(), (ids,), {"embedding": st}, 8)
    assert plan.operators[0].primitive == "Gather"
    assert bool(plan.allreduce("embedding")) == (st[0][0] > 1)


def test_one_hot_strategy_is_its_outputs():
    "OneHotInfo's strategy: the output's split (indices, then depth), then () for the on and off values."
    from shardnb import ShardingError
    class M(torch.nn.Module):
        def forward(self, x, label): return x * F.one_hot(label, 8).float()
    args = (randn(16, 8), torch.arange(16) % 8)
    for st in [((2, 4), (), ()), ((8, 1), (), ()), ((1, 8), (), ())]:
        plan = plan_of(M(), args, {"one_hot": st}, 8)
        assert plan.strategies["mul"] == (st[0], st[0])   # the Mul takes the one-hot as it is laid out
    ep, mod = export(M(), *args)
    for bad, msg in [(((2, 4),), r"a OneHot strategy is \(output split, \(\), \(\)\)"), (((2,), (), ()), "output has shape \\(16, 8\\)"),
                     (((3, 1), (), ()), "not a power of two")]:
        with pytest.raises(ShardingError, match=msg): propagate_strategies(mod, {"one_hot": bad}, device_num=8)


class PanGuLayerNorm(torch.nn.Module):
    "PanGu-alpha's _LayerNorm past 1,024 features: ReduceMean, Sub, Square, ReduceMean, Add, Sqrt, RealDiv, Mul, Add."
    def __init__(self, h, seed):
        super().__init__()
        self.gamma, self.beta = torch.nn.Parameter(1 + randn(h, seed=seed) / 10), torch.nn.Parameter(randn(h, seed=seed + 1) / 10)

    def forward(self, x):
        diff = x - x.mean(-1, keepdim=True)
        return diff / torch.sqrt((diff * diff).mean(-1, keepdim=True) + 1e-5) * self.gamma + self.beta


class PanGuLinear(torch.nn.Module):
    "PanGu-alpha's _Linear with transpose_b=False: a MatMul, then the bias Add."
    def __init__(self, i, o, seed):
        super().__init__()
        self.w, self.b = torch.nn.Parameter(randn(i, o, seed=seed) / i ** 0.5), torch.nn.Parameter(randn(o, seed=seed + 1) / 10)

    def forward(self, x): return x @ self.w + self.b


class PanGuLayer(torch.nn.Module):
    """test_auto_parallel_pangu_alpha_shard_propagation.py, shrunk to its embedding and one TransformerEncoderLayer
    (PanGu-alpha has a second, query layer, a head and the loss; hidden 2,560 becomes 32, 32 heads 8): word and
    position embeddings (GatherV2 configured ((1, 1), (2, 1))) added, reshaped to 2-D, _LayerNorm, attention (three
    _Linear, reshapes and transposes to heads, BatchMatMul, the scale, the mask's (1 - mask) * -10000 added to the
    scores, Softmax over a 3-D reshape, BatchMatMul, heads merged, the projection's MatMul configured ((2, 8), (8, 1))),
    the residual Add, _LayerNorm, FeedForward (its projection configured ((2, 8), (8, 1))) and the residual Add."""
    def __init__(self, vocab=64, h=32, heads=8, ffn=64):
        super().__init__()
        self.h, self.heads = h, heads
        self.word, self.pos = torch.nn.Parameter(randn(vocab, h, seed=1)), torch.nn.Parameter(randn(vocab, h, seed=2))
        self.ln1, self.ln2 = PanGuLayerNorm(h, 3), PanGuLayerNorm(h, 5)
        self.q, self.k, self.v, self.proj = (PanGuLinear(h, h, s) for s in (7, 9, 11, 13))
        self.mapping, self.out = PanGuLinear(h, ffn, 15), PanGuLinear(ffn, h, 17)

    def forward(self, ids, pos, mask):
        b, s = ids.shape
        d = self.h // self.heads
        x = (F.embedding(ids, self.word) + F.embedding(pos, self.pos)).reshape(-1, self.h)
        y = self.ln1(x)
        q = self.q(y).reshape(b, s, self.heads, d).permute(0, 2, 1, 3)
        k = self.k(y).reshape(b, s, self.heads, d).permute(0, 2, 3, 1)
        v = self.v(y).reshape(b, s, self.heads, d).permute(0, 2, 1, 3)
        scores = (1.0 - mask.unsqueeze(1)) * -10000.0 + (q @ k) / d ** 0.5   # MultiHeadAttention/Add: adder + score
        probs = torch.softmax(scores.reshape(b, -1, s), -1).reshape(b, self.heads, s, s)
        x = x + self.proj((probs @ v).permute(0, 2, 1, 3).reshape(-1, self.h))
        return x + self.out(F.gelu(self.mapping(self.ln2(x))))


def test_pangu_alpha_shard_propagation():
    """16 devices, fully_use_devices=False. MindSpore's assertions: MultiHeadAttention/Add [[2, 1, 1, 1], [2, 8, 1, 1]]
    (the mask's adder keeps the batch split, the scores take the heads' 8 from the projection), every ReduceMean
    [[2, 1]] (both layer norms, twice each). Its third, "BatchMatmul" [[2, 8, 1, 1], [2, 8, 1, 1]], matches no MindSpore
    op name (BatchMatMul), so it asserts nothing there; shardnb gives both BatchMatMuls that strategy."""
    b, s = 2, 16
    ids, pos = torch.arange(b * s).reshape(b, s) * 3 % 64, torch.arange(s).repeat(b, 1)
    mask = torch.tril(torch.ones(s, s)).repeat(b, 1, 1)
    conf = {"embedding": ((1, 1), (2, 1)), "embedding_1": ((1, 1), (2, 1)), "matmul_5": ((2, 8), (8, 1)), "matmul_7": ((2, 8), (8, 1))}
    plan = plan_of(PanGuLayer(), (ids, pos, mask), conf, 16, fully_use_devices=False)
    add = next(o for o in plan.operators if o.primitive == "Add" and [tuple(v.type.shape) for v in o.inputs] == [(b, 1, s, s), (b, 8, s, s)])
    assert plan.strategies[add.name] == ((2, 1, 1, 1), (2, 8, 1, 1))
    means = [o.name for o in plan.operators if o.primitive == "ReduceMean"]
    assert len(means) == 4 and all(plan.strategies[m] == ((2, 1),) for m in means)
    assert [plan.strategies[o.name] for o in plan.operators if o.primitive == "BatchMatMul"] == [((2, 8, 1, 1), (2, 8, 1, 1))] * 2


class ReLUMatMul(torch.nn.Module):
    "test_sharding_propagation_multi_input.py::test_mint_relu_layout_propagate_back: ReLU(y) feeds a configured MatMul."
    def forward(self, x, y): return x @ torch.relu(y)


def test_mint_relu_layout_propagate_back():
    "The MatMul (4, 2) x (2, 1) is searched backwards: the ReLU before its second input takes (2, 1)."
    plan = plan_of(ReLUMatMul(), (randn(128, 96), randn(96, 96, seed=1)), {"matmul": ((4, 2), (2, 1))}, 8)
    assert plan.strategies["relu"] == ((2, 1),)


class TopKNet(torch.nn.Module):
    "test_topk.py's Net: a Mul by a parameter (there (128, 64) against x's (16, 64); here x's shape), then TopK(out, 8)'s values."
    def __init__(self):
        super().__init__(); self.w1 = torch.nn.Parameter(randn(16, 64, seed=1))

    def forward(self, x): return torch.topk(x * self.w1, 8)[0]


@pytest.mark.parametrize("mul, topk", [(((8, 1), (8, 1)), ((8, 1),)), (((2, 4), (2, 4)), ((2, 1),))], ids=["data_parallel", "model_parallel"])
def test_topk_strategies(mul, topk):
    "test_topk_data_parallel and test_topk_model_parallel compile: here the values' TopK operator keeps them and runs to torch."
    plan = plan_of(TopKNet(), (randn(16, 64),), {"mul": mul, "getitem": topk}, 8)
    assert [o.primitive for o in plan.operators] == ["Mul", "TopK"]   # the unread indices are no operator


def test_topk_strategy_error():
    "test_topk_strategy_error: ((1, 8),) splits the sorted last dim, which TopKInfo::CheckStrategy refuses."
    from shardnb.layout.mesh import ShardingError
    with pytest.raises(ShardingError, match=r"getitem \(TopK\): input 0 dim 1 cannot be split"):
        plan_of(TopKNet(), (randn(16, 64),), {"mul": ((8, 1), (8, 1)), "getitem": ((1, 8),)}, 8)


def test_topk_auto_parallel():
    "test_topk_auto_parallel: propagation from the dataset gives TopK a strategy that never splits its last dim."
    plan = plan_of(TopKNet(), (randn(16, 64),), {}, 8, dataset_strategy="data_parallel")
    assert plan.strategies["getitem"][0][-1] == 1 and plan.strategies["getitem"][0][0] == 8


class FlashAttentionBNSD(torch.nn.Module):
    "test_flash_attention_score_info.py's Net in BNSD layout without dropout or real_shift: attention under an additive (B, 1, S, S) mask."
    def forward(self, q, k, v, mask): return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


def _fa_inputs(B=8, N=4, S=8, D=4):
    return randn(B, N, S, D), randn(B, N, S, D, seed=1), randn(B, N, S, D, seed=2), randn(B, 1, S, S, seed=3)


def _fa_strategy(dp, mp, sp, key_seq=1, head_dim=1):
    "The test's stra: query (dp, mp, sp, 1), key and value (dp, mp, 1, 1), attn_mask (dp, 1, sp, 1), in the operator's input order (q, k, mask, v)."
    return ((dp, mp, sp, head_dim), (dp, mp, key_seq, head_dim), (dp, 1, sp, key_seq), (dp, mp, key_seq, 1))


@pytest.mark.parametrize("dp, mp, sp", [(2, 4, 1), (2, 2, 2)], ids=["semi_auto_parallel", "seq_parallel"])
def test_flash_attention_strategies(dp, mp, sp):
    "test_flash_attention_semi_auto_parallel (dp 2, mp 4) and test_flash_attention_with_seq_parallel (dp, mp, sp 2): accepted, and run to torch."
    ep, mod = export(FlashAttentionBNSD(), *_fa_inputs())
    assert [v.name for v in operators(mod)[0].inputs] == ["q", "k", "mask", "v"]
    plan_of(FlashAttentionBNSD(), _fa_inputs(), {"scaled_dot_product_attention": _fa_strategy(dp, mp, sp)}, 8)


@pytest.mark.parametrize("key_seq, head_dim, where", [(2, 1, "input 1 dim 2"), (1, 2, "input 0 dim 3")], ids=["key_seq", "head_dim"])
def test_flash_attention_refuses_key_seq_and_head_dim(key_seq, head_dim, where):
    "FlashAttentionScoreInfo::CheckStrategy: 'The S-Dimention of input key cannot be split'; its device matrix has no head-dim axis."
    from shardnb.layout.mesh import ShardingError
    with pytest.raises(ShardingError, match=rf"\(FlashAttentionScore\): {where} cannot be split"):
        plan_of(FlashAttentionBNSD(), _fa_inputs(), {"scaled_dot_product_attention": _fa_strategy(2, 2, 1, key_seq, head_dim)}, 8)


class StridedSliceNet(torch.nn.Module):
    "test_stridedslice.py's Net: StridedSlice of a parameter w1 (256, 64, 32) to (128, 64, 32 / step), a Mul by x, a Mul by w2."
    def __init__(self, step=1):
        super().__init__(); self.step = step
        self.w1, self.w2 = torch.nn.Parameter(randn(256, 64, 32, seed=1)), torch.nn.Parameter(randn(128, 64, 1, seed=2))

    def forward(self, x): return x * self.w1[:128, :, ::self.step] * self.w2


def test_stridedslice_parameter():
    "test_stridedslice_parameter: StridedSlice ((1, 4, 2),) splits only the dims it takes whole, the Mul ((1, 4, 1), (1, 4, 2)): accepted, run to torch."
    plan = plan_of(StridedSliceNet(), (randn(128, 64, 1),), {"slice_1": ((1, 4, 2),), "mul": ((1, 4, 1), (1, 4, 2))}, 8)
    assert plan.operators[0].primitive == "StridedSlice"


def test_stridedslice_no_fully_fetch_split_error():
    "test_stridedslice_no_fully_fetch_split_error: ((2, 2, 2),) splits dim 0, of which the slice takes 128 of 256: refused."
    from shardnb.layout.mesh import ShardingError
    with pytest.raises(ShardingError, match=r"slice_1 \(StridedSlice\): input 0 dim 0 cannot be split"):
        plan_of(StridedSliceNet(), (randn(128, 64, 1),), {"slice_1": ((2, 2, 2),)}, 8)


def test_stridedslice_strides_no_1_split_error():
    "test_stridedslice_strides_no_1_split_error: a stride of 2 on dim 2, split 2: refused (torch exports the two sliced dims as two slices)."
    from shardnb.layout.mesh import ShardingError
    plan_of(StridedSliceNet(step=2), (randn(128, 64, 1),), {"slice_1": ((1, 2, 2),)}, 8)   # dim 0's slice keeps dim 2 whole: fine
    with pytest.raises(ShardingError, match=r"slice_2 \(StridedSlice\): input 0 dim 2 cannot be split"):
        plan_of(StridedSliceNet(step=2), (randn(128, 64, 1),), {"slice_1": ((1, 2, 2),), "slice_2": ((1, 2, 2),)}, 8)


class GatherMul(torch.nn.Module):
    "test_gather_v2.py's Net: Gather(x, index, axis) of a table x by a constant index, then a Mul by y."
    def __init__(self, axis=0, shape=(64, 64), rows=64):
        super().__init__(); self.axis = axis
        self.register_buffer("index", torch.randint(0, rows, shape, generator=torch.Generator().manual_seed(5)))

    def forward(self, x, y): return (x[self.index] if self.axis == 0 else x[:, self.index]) * y


def _gather_configured(net, x, y, table_st, index_st, mul_st):
    "MindSpore's Gather strategy is (table, indices); the index operator's inputs come in first-use order, so they are placed by name."
    _, mod = export(net, x, y)
    o = operators(mod)[0]
    assert o.primitive == "Gather"
    by_name = {"x": table_st, "b_index": index_st}
    return {o.name: tuple(by_name[v.name] for v in o.inputs), "mul": mul_st}


@pytest.mark.parametrize("axis, table_shape, table_st", [(0, (64, 64), (1, 8)), (0, (64, 64), (8, 1)), (0, (64, 64), (2, 4)),
                                                           (1, (64, 32), (8, 1)), (1, (64, 32), (2, 4))],
                         ids=["semi_auto0", "semi_auto1", "semi_auto2", "semi_auto4", "semi_auto5"])
def test_gatherv2_semi_auto(axis, table_shape, table_st):
    "test_gatherv2_semi_auto0-2, 4, 5: the table split along or beside the gathered axis (an axis split all-reduces the looked-up rows), the Mul ((4, 2, 1), (4, 2, 1)): accepted, run to torch."
    x, y, net = randn(*table_shape), randn(64, 64, 64, seed=1), GatherMul(axis, rows=table_shape[axis])
    conf = _gather_configured(net, x, y, table_st, (1, 1), ((4, 2, 1), (4, 2, 1)))
    plan = plan_of(net, (x, y), conf, 8)
    name = next(iter(conf))
    assert bool(plan.allreduce(name)) == (table_st[axis] > 1)   # rows split along the gathered axis: each device's lookups summed


def test_gatherv2_shard_batch_and_axis():
    "test_gatherv2_shard_batch_and_axis: table (4, 1), indices (2, 1) of an index (2, 64), the Mul ((2, 4, 1), (2, 4, 1)): accepted, run to torch."
    net, x, y = GatherMul(0, shape=(2, 64)), randn(64, 64), randn(2, 64, 64, seed=1)
    plan_of(net, (x, y), _gather_configured(net, x, y, (4, 1), (2, 1), ((2, 4, 1), (2, 4, 1))), 8)
