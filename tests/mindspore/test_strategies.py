"""MindSpore-style propagation (shardnb.mindspore.strategies) on torch models: the seed's FFN exactly, the networks of
MindSpore's sharding-propagation unit tests with the strategies they assert, candidates, errors, and the
numerical proof (every parallel program run on simulated devices equals the single-device model)."""
import math
import numpy as np
import pytest

torch = pytest.importorskip("torch")
from shardnb import ShardingError
from shardnb.mindspore.torch_frontend import from_torch
from shardnb.mindspore.strategies import (propagate_strategies, operators, candidates, evaluate, redistribution, mindspore_cost,
                                to_tensor_layout)


def export(model, *args):
    ep = torch.export.export(model, tuple(args))
    return ep, from_torch(ep)


def arguments(ep, module, inputs):
    "The module's arguments in order: parameters/buffers by placeholder name, then user inputs."
    sd = {**{f"p_{k.replace('.', '_')}": v for k, v in ep.state_dict.items()},
          **{f"b_{k.replace('.', '_')}": v for k, v in ep.state_dict.items()}}
    it = iter(inputs)
    return [(sd[v.name] if v.name in sd else next(it)).detach().double().numpy() for v in module.main.args]


def check_numerics(model, plan, ep, module, *inputs):
    "The parallel program on simulated devices equals the single-device model (float64 both)."
    args = arguments(ep, module, inputs)
    ref = model.double()(*[x.double() if x.is_floating_point() else x for x in inputs])   # labels stay integers (one_hot)
    model.float()
    got, single = plan.run(*args)[0], evaluate(module, *args)[0]
    np.testing.assert_allclose(got, single, rtol=1e-10, atol=1e-10)   # the parallel program is the program
    # and the program is the torch model (gelu's erf is a 1.5e-7 approximation)
    np.testing.assert_allclose(single, ref.detach().numpy(), rtol=1e-6, atol=1e-6)


class FFN(torch.nn.Module):
    def __init__(self, d=64):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.w1, self.b1 = torch.nn.Parameter(torch.randn(d, d, generator=g)), torch.nn.Parameter(torch.randn(d, generator=g))
        self.w2, self.b2 = torch.nn.Parameter(torch.randn(d, d, generator=g)), torch.nn.Parameter(torch.randn(d, generator=g))

    def forward(self, x):
        return torch.relu(x @ self.w1 + self.b1) @ self.w2 + self.b2


@pytest.fixture(scope="module")
def ffn():
    m = FFN()
    x = torch.randn(64, 64, generator=torch.Generator().manual_seed(1))
    ep, mod = export(m, x)
    return m, x, ep, mod


def test_ffn_seed_exact(ffn):
    m, x, ep, mod = ffn
    plan = propagate_strategies(mod, {"matmul": ((2, 1), (1, 4))}, device_num=8, fully_use_devices=True)
    assert plan.strategies == {"matmul": ((2, 1), (1, 4)), "add": ((2, 4), (4,)), "relu": ((2, 4),),
                               "matmul_1": ((2, 4), (4, 1)), "add_1": ((2, 4), (4,))}
    text = plan.parallel_program()
    lines = text.splitlines()
    # the document's validate IR: local shapes, the AllReduce over 0-1-2-3, then StridedSlice to (32, 16)
    assert "(<Tensor[Float32], (32, 64)>, <Tensor[Float32], (64, 16)>) -> (<Tensor[Float32], (32, 16)>)" in lines[0]
    assert "(<Tensor[Float32], (32, 16)>, <Tensor[Float32], (16,)>) -> (<Tensor[Float32], (32, 16)>)" in lines[1]
    assert "(<Tensor[Float32], (32, 16)>, <Tensor[Float32], (16, 64)>) -> (<Tensor[Float32], (32, 64)>)" in lines[3]
    assert lines[4].lstrip().startswith("%3a = AllReduce(%3) {op: sum, group_ranks: 0-1-2-3}")
    assert "StridedSlice(%3a, (0, 0), (32, 16), (1, 1))" in lines[5]
    assert "Add(%r4_0_0, %p_b2)" in lines[6]
    # the other AllReduce group is 4-5-6-7: rank 4's group
    from shardnb.mindspore.operators import rank_group
    assert rank_group(plan.allreduce("matmul_1"), 3, 4) == [4, 5, 6, 7]
    lay = plan.layouts("matmul")
    assert lay["inputs"][0].device_matrix == (2, 4) and lay["inputs"][0].tensor_map == (1, -1)
    check_numerics(m, plan, ep, mod, x)


def test_ffn_todays_default(ffn):
    "With fully_use_devices=False (MindSpore 2.7.1's default) the second Add becomes ((2, 1), (1,))."
    m, x, ep, mod = ffn
    plan = propagate_strategies(mod, {"matmul": ((2, 1), (1, 4))}, device_num=8)
    assert plan.strategies["add_1"] == ((2, 1), (1,))
    assert "StridedSlice" not in plan.parallel_program()
    check_numerics(m, plan, ep, mod, x)


class SumNet(torch.nn.Module):
    "MindSpore's SumNet1 (test_sum_ext): Mul(x, x) configured, then SumExt(dim, keepdim) propagated."
    def __init__(self, dim, keepdim):
        super().__init__(); self.dim, self.keepdim = dim, keepdim

    def forward(self, x):
        y = x * x
        return y.sum(self.dim, keepdim=self.keepdim) if self.dim is not None else y.sum()


@pytest.mark.parametrize("strategy,dim,keepdim,expected", [
    (((1, 2, 4), (1, 2, 4)), 1, True, ((1, 2, 4),)),
    (((2, 1, 4), (2, 1, 4)), 0, False, ((2, 1, 4),)),
    (((1, 2, 4), (1, 2, 4)), (0, 1), True, ((1, 2, 4),)),
])
def test_mindspore_sum_ext_networks(strategy, dim, keepdim, expected):
    "The reduction keeps the split reduce dims (it pays an AllReduce rather than redistribute)."
    m = SumNet(dim, keepdim)
    x = torch.randn(8, 8, 8, generator=torch.Generator().manual_seed(2))
    ep, mod = export(m, x)
    plan = propagate_strategies(mod, {"mul": strategy}, device_num=8)
    assert plan.strategies["sum_1"] == expected
    assert plan.allreduce("sum_1")   # a split reduce dim: the operator ends in an AllReduce
    check_numerics(m, plan, ep, mod, x)


class ElementwiseChain(torch.nn.Module):
    "MindSpore's test of element-wise ops with two inputs: one configured, the rest follow it."
    def forward(self, x):
        y = x * x
        y = y + x
        y = y - x
        y = y / (x * x + 1)
        return torch.relu(torch.tanh(y))


def test_mindspore_element_wise_two_inputs():
    x = torch.randn(4, 8, 4, 8, generator=torch.Generator().manual_seed(3))
    m = ElementwiseChain()
    ep, mod = export(m, x)
    plan = propagate_strategies(mod, {"mul": ((1, 2, 4, 8), (1, 2, 4, 8))}, device_num=64)
    for name, st in plan.strategies.items():
        assert all(t == (1, 2, 4, 8) for t in st), (name, st)
    assert plan.total() == 0
    check_numerics(m, plan, ep, mod, x)


class Block(torch.nn.Module):
    "A transformer block: attention (q/k/v projections, softmax) and an MLP, with layer norms."
    def __init__(self, d=32, h=4, seed=0):
        super().__init__()
        torch.manual_seed(seed)
        self.h = h
        self.ln1, self.ln2 = torch.nn.LayerNorm(d), torch.nn.LayerNorm(d)
        self.q, self.k, self.v, self.o = (torch.nn.Linear(d, d) for _ in range(4))
        self.fc1, self.fc2 = torch.nn.Linear(d, 4 * d), torch.nn.Linear(4 * d, d)

    def forward(self, x):
        b, s, d = x.shape
        y = self.ln1(x)
        q = self.q(y).view(b, s, self.h, d // self.h).transpose(1, 2)
        k = self.k(y).view(b, s, self.h, d // self.h).transpose(1, 2)
        v = self.v(y).view(b, s, self.h, d // self.h).transpose(1, 2)
        a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d // self.h), dim=-1) @ v
        x = x + self.o(a.transpose(1, 2).reshape(b, s, d))
        return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.ln2(x))))


def test_transformer_block_numerics():
    m = Block()
    x = torch.randn(4, 8, 32, generator=torch.Generator().manual_seed(4))
    ep, mod = export(m, x)
    plan = propagate_strategies(mod, {"linear_4": ((4, 1, 1), (2, 1), (2,))}, device_num=8)
    st = plan.strategies
    assert st["linear_4"] == ((4, 1, 1), (2, 1), (2,))
    assert st["gelu"] == ((4, 1, 2),)   # the configured layer's output layout flows on unchanged
    assert st["softmax"][0][-1] == 1    # Softmax's axis is never split
    check_numerics(m, plan, ep, mod, x)


def test_candidates_follow_mindspore():
    x = torch.randn(8, 4)
    ep, mod = export(FFNSmall(), x)
    op = operators(mod)[0]   # MatMul: letters i, k, j
    cs = candidates(op, 4)
    assert cs[0] == {0: 1, 1: 1, 2: 1}          # the all-ones strategy first
    assert cs[1] == {0: 1, 1: 1, 2: 2}          # the last letter varies fastest
    assert all(math.prod(c.values()) <= 4 for c in cs)
    full = candidates(op, 4, fully_use_devices=True)
    assert all(math.prod(c.values()) in (1, 4) for c in full) and len(full) < len(cs)
    sm = operators(export(torch.nn.Softmax(-1), torch.randn(8, 8))[1])[0]
    rows, axis = sm.in_letters(0)   # Softmax over the last dim: its rows split, its reduced axis never
    assert sm.primitive == "Softmax" and not sm.splittable[axis]
    for full in (False, True):
        cs = candidates(sm, 8, fully_use_devices=full)
        assert all(c[axis] == 1 for c in cs), cs                     # no candidate splits the reduced last dim
        assert any(c[rows] == 8 for c in cs), cs                     # ... while the rows split all the way (not vacuous)
    assert [c[rows] for c in candidates(sm, 8)] == [1, 2, 4, 8]
    assert [c[rows] for c in candidates(sm, 8, fully_use_devices=True)] == [1, 8]


class MatmulBesideRelu(torch.nn.Module):
    "A matmul and, beside it, a ReLU of a 3x5 tensor: no dim of the ReLU divides by 2."
    def __init__(self):
        super().__init__(); self.w = torch.nn.Parameter(torch.randn(8, 8, generator=torch.Generator().manual_seed(0)))

    def forward(self, x, y): return x @ self.w, torch.relu(y)


def test_fully_use_devices_keeps_the_all_ones_candidate():
    """Under fully_use_devices MindSpore still generates the all-ones strategy: a ReLU on a 3x5 tensor, which no split
    of 8 devices divides, gets ((1, 1),) (replicated, nothing moves) rather than no candidate at all."""
    m = MatmulBesideRelu()
    x, y = torch.randn(8, 8, generator=torch.Generator().manual_seed(7)), torch.randn(3, 5, generator=torch.Generator().manual_seed(8))
    ep, mod = export(m, x, y)
    plan = propagate_strategies(mod, {"matmul": ((2, 1), (1, 4))}, device_num=8, fully_use_devices=True)
    assert plan.strategies == {"matmul": ((2, 1), (1, 4)), "relu": ((1, 1),)}
    relu = operators(mod)[1]
    assert relu.primitive == "ReLU" and candidates(relu, 8, fully_use_devices=True) == [{l: 1 for l in relu.letters}]
    assert plan.total() == 0
    lines = plan.parallel_program().splitlines()
    assert "(<Tensor[Float32], (4, 8)>, <Tensor[Float32], (8, 2)>) -> (<Tensor[Float32], (4, 2)>)" in lines[0]
    assert "ReLU(%y) {in_strategy: ((1, 1),)} : (<Tensor[Float32], (3, 5)>) -> (<Tensor[Float32], (3, 5)>)" in lines[1]
    args = arguments(ep, mod, (x, y))
    got, single = plan.run(*args), evaluate(mod, *args)
    ref = [t.detach().numpy() for t in m.double()(x.double(), y.double())]
    for g, s1, r in zip(got, single, ref, strict=True):
        np.testing.assert_allclose(g, s1, rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(s1, r, rtol=1e-10, atol=1e-10)


class FFNSmall(torch.nn.Module):
    def __init__(self):
        super().__init__(); self.w = torch.nn.Parameter(torch.randn(4, 4))

    def forward(self, x): return x @ self.w


def test_bad_strategies_are_clear_errors(ffn):
    _, _, _, mod = ffn
    with pytest.raises(ShardingError, match="is not in the program; its operators are: matmul, add"):
        propagate_strategies(mod, {"mm": ((2, 1), (1, 4))}, device_num=8)
    with pytest.raises(ShardingError, match="input 1 dim 0 is split 1 but the same dim of another input is split 2"):
        propagate_strategies(mod, {"matmul": ((2, 2), (1, 4))}, device_num=8)
    with pytest.raises(ShardingError, match="does not divide device_num=8"):
        propagate_strategies(mod, {"matmul": ((4, 1), (1, 4))}, device_num=8)
    with pytest.raises(ShardingError, match="needs 2 input tuple"):
        propagate_strategies(mod, {"matmul": ((2, 1),)}, device_num=8)
    with pytest.raises(ShardingError, match="power of two"):
        propagate_strategies(mod, {"matmul": ((3, 1), (1, 1))}, device_num=8)
    with pytest.raises(ShardingError, match="device_num must be a power of two"):
        propagate_strategies(mod, {"matmul": ((2, 1), (1, 1))}, device_num=6)
    sm = export(torch.nn.Softmax(-1), torch.randn(8, 8))[1]
    with pytest.raises(ShardingError, match="cannot be split"):
        propagate_strategies(sm, {"softmax": ((1, 2),)}, device_num=2)


def test_redistribution_costs():
    # (i on bit 2, j unsplit) -> (i on bit 2, j on bits 1, 0): a StridedSlice, no communication
    r = redistribution(((2,), ()), ((2,), (1, 0)), (64, 64))
    assert [k for k, _, _ in r.ops] == ["StridedSlice"] and mindspore_cost(r)[0] == 0
    # split rows -> split columns: an AlltoAll, 2*2*size, refined per direction
    r = redistribution(((0,), ()), ((), (0,)), (64, 64))
    assert [k for k, _, _ in r.ops] == ["AlltoAll"]
    size = 32 * 64 * 4
    assert mindspore_cost(r) == (2 * (2 * size + 1024), 0)
    # gather: forward size*n/2, backward size/2
    r = redistribution(((1, 0),), ((),), (64,))
    assert mindspore_cost(r) == (3072 + 3072, 0)
    assert to_tensor_layout(((2,), (1, 0)), 3)[:2] == ((2, 4), (1, 0))   # worked out by hand in BY_HAND below
    assert to_tensor_layout(((2,), (1, 0)), 3).device_matrix == (2, 4)


# Bit layouts and MindSpore's (device matrix, tensor map), worked out by hand. Rank r of 8 has bits b2 b1 b0; a bit
# layout names, per tensor dim, the rank bits that cut it (most significant first). MindSpore writes the same thing as
# a device matrix (the ranks reshaped row-major, so its first dim is the top bits) and a tensor map whose entries
# count device-matrix dims from the right (-1: not split; a tuple: several dims, the major one first):
#   ((2,), (1, 0)): b2 cuts dim 0, b1 b0 cut dim 1        -> matrix [2, 4]: dim 0 on the 2 (index 1), dim 1 on the 4 (index 0)
#   ((0,), (2, 1)): b2 b1 cut dim 1, b0 cuts dim 0        -> matrix [4, 2]: dim 0 on the 2 (index 0), dim 1 on the 4 (index 1)
#   ((2,), ()):     b2 cuts dim 0, b1 b0 unused           -> matrix [2, 4] (the unused bits one dim), map (1, -1)
#   ((2, 0), ()):   b2 then b0 cut dim 0, b1 unused       -> three dims [2, 2, 2]: dim 0 on indices 2 then 0, map ((2, 0), -1)
#   ((1,), (2, 0)): b1 cuts dim 0, b2 then b0 cut dim 1   -> [2, 2, 2], map (1, (2, 0))
#   ((), ()):       nothing split                         -> one dim of all 8 ranks, map (-1, -1)
BY_HAND = [(((2,), (1, 0)), (2, 4), (1, 0)), (((0,), (2, 1)), (4, 2), (0, 1)), (((2,), ()), (2, 4), (1, -1)),
           (((2, 0), ()), (2, 2, 2), ((2, 0), -1)), (((1,), (2, 0)), (2, 2, 2), (1, (2, 0))), (((), ()), (8,), (-1, -1))]


@pytest.mark.parametrize("layout,matrix,tmap", BY_HAND)
def test_to_tensor_layout_by_hand(layout, matrix, tmap):
    tl = to_tensor_layout(layout, 3)
    assert (tl.device_matrix, tl.tensor_map) == (matrix, tmap)
    # and both name the same block on every rank: MindSpore's block index of a dim is its device-matrix coordinates
    # (of the dims the map names, major first) read as one number; the bit layout's is the rank's bits read likewise
    for r in range(8):
        coord = np.unravel_index(r, matrix)
        for d, e in enumerate(tmap):
            dims = [len(matrix) - 1 - k for k in (e if isinstance(e, tuple) else (e,)) if k != -1]
            ms = 0
            for k in dims: ms = ms * matrix[k] + int(coord[k])
            bits = 0
            for b in layout[d]: bits = 2 * bits + (r >> b & 1)
            assert ms == bits, (layout, r, d)


def test_redistribution_reshape_cost():
    "MindSpore reshapes when a dim cut by one device dim in one layout spans several in the other: 2x the slice, as computation."
    from shardnb.mindspore.strategies import needs_reshape
    # rows on bits 2,1 (one device dim) -> rows on 2,1,0: the target's 8 is [4, 2] in the unified device matrix
    assert needs_reshape(((2, 1), ()), ((2, 1, 0), ()))
    r = redistribution(((2, 1), ()), ((2, 1, 0), ()), (64, 8))
    assert mindspore_cost(r) == (0, 16 * 8 * 4 * 3)   # the StridedSlice's input, plus twice it for the reshape
    # rows on 2,1 -> rows on 2,1 and columns on 0: the same device dims, no reshape
    assert not needs_reshape(((2, 1), ()), ((2, 1), (0,)))
    assert mindspore_cost(redistribution(((2, 1), ()), ((2, 1), (0,)), (64, 8))) == (0, 16 * 8 * 4)
    # non-consecutive bits are two device dims already
    assert needs_reshape(((2, 0),), ((2, 0),)) and not needs_reshape(((2,), ()), ((2,), ()))


def random_configuration(rng, mod, n: int, k: int = 2) -> dict:
    "`k` operators of `mod` drawn by `rng`, each configured with one of its MindSpore candidates for `n` devices."
    conf = {}
    for o in rng.choice(operators(mod), size=k, replace=False):
        cs = candidates(o, n)
        c = cs[int(rng.integers(len(cs)))]
        conf[o.name] = tuple(tuple(c.get(l, 1) for l in o.in_letters(i)) for i in range(len(o.inputs)))
    return conf


@pytest.mark.parametrize("n", [2, 4, 8])
def test_random_configurations_run_exactly(seed, n):
    "Numerical proof on random configured strategies of an MLP: whatever is chosen, the program is right."
    rng = np.random.default_rng(seed)
    m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 16), torch.nn.Tanh())
    x = torch.randn(8, 16, generator=torch.Generator().manual_seed(int(rng.integers(1 << 30))))
    ep, mod = export(m, x)
    conf = random_configuration(rng, mod, n)
    plan = propagate_strategies(mod, conf, device_num=n)
    for k, v in conf.items(): assert plan.strategies[k] == v   # configured operators are never changed
    check_numerics(m, plan, ep, mod, x)


# Both styles on one model: Shardy's propagation read back as a StrategyPlan, costed like MindSpore's.

def mlp3():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 32), torch.nn.GELU(),
                               torch.nn.Linear(32, 16))


STYLE_CASES = {
    "ffn": (FFN, (64, 64), {"matmul": ((2, 1), (1, 4))}, True),
    "block_attention": (Block, (4, 8, 32), {"matmul": ((2, 4, 1, 1), (2, 4, 1, 1))}, False),
    "block_fc1": (Block, (4, 8, 32), {"linear_4": ((4, 1, 1), (2, 1), (2,))}, False),
    "mlp_conflict": (mlp3, (8, 16), {"linear": ((8, 1), (1, 1), (1,)), "linear_2": ((1, 8), (1, 8), (1,))}, False),
    "mlp_two_model_parallel": (mlp3, (8, 16), {"linear": ((2, 1), (4, 1), (4,)), "linear_2": ((2, 4), (1, 4), (1,))}, False),
}


@pytest.mark.parametrize("case", list(STYLE_CASES))
def test_both_styles_run_exactly(case):
    "Each style's plan runs on 8 simulated devices and equals the single-device model; configured ops keep their strategy."
    from shardnb.mindspore.strategies import compare_styles
    make, shape, conf, full = STYLE_CASES[case]
    m = make()
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(5))
    ep, mod = export(m, x)
    ms, sh, rows = compare_styles(mod, conf, device_num=8, fully_use_devices=full)
    assert [r["op"] for r in rows] == [o.name for o in operators(mod)]
    for name, st in conf.items():
        assert ms.strategies[name] == st and sh.strategies[name] == st
    for plan in (ms, sh): check_numerics(m, plan, ep, mod, x)
    # the per-operator bytes add up to the plan's exact total (edges by plan_reshard, AllReduces by the ring)
    assert sum(r["mindspore_bytes"] for r in rows) == pytest.approx(ms.total("exact"))
    assert all(r["shardy_bytes"] >= 0 for r in rows)


def test_styles_differ_where_the_chapter_says():
    "The chapter's explanations, as facts about the plans: Shardy shards only what annotations imply, MindSpore meets conflicts late."
    from shardnb.mindspore.strategies import compare_styles
    m, x = mlp3(), torch.randn(8, 16)
    _, mod = export(m, x)
    ms, sh, rows = compare_styles(mod, STYLE_CASES["mlp_conflict"][2], device_num=8)
    edge = lambda plan, a, b: next(r for e, r, _, _ in plan.edges() if (e.prev, e.next) == (a, b))
    # MindSpore: one AlltoAll where the batch-split and the K-split layouts meet
    assert [k for k, _, _ in edge(ms, "gelu", "linear_2").ops] == ["AlltoAll"]
    assert not edge(ms, "relu", "linear_1").ops
    # Shardy: linear_2's sharding reaches back to linear_1, which gathers its input instead
    assert [k for k, _, _ in edge(sh, "relu", "linear_1").ops] == ["AllGather"]
    assert sh.received_bytes("linear_1") > ms.received_bytes("linear_1") == 0
    from shardnb.mindspore.strategies import comparison_table
    table = comparison_table(rows).splitlines()
    marked = [l.split()[1] for l in table if l.startswith("* ")]
    assert marked == [r["op"] for r in rows if r["mindspore"] != r["shardy"]] == ["linear_1", "gelu"]
    assert table[-1].split()[1:] == [f"{sum(r['mindspore_bytes'] for r in rows):.0f}", f"{sum(r['shardy_bytes'] for r in rows):.0f}"]
    # the block: MindSpore's tie-break splits fc1 and pays an AllReduce in fc2; Shardy leaves both batch-only
    b = Block()
    _, bmod = export(b, torch.randn(4, 8, 32))
    ms, sh, _ = compare_styles(bmod, STYLE_CASES["block_attention"][2], device_num=8)
    assert ms.allreduce("linear_5") and not sh.allreduce("linear_5")
    assert sh.strategies["linear_4"] == ((2, 1, 1), (1, 1), (1,))


@pytest.mark.parametrize("n", [2, 4, 8])
def test_shardy_plan_random_configurations_run_exactly(seed, n):
    "Whatever strategies are configured, Shardy's plan (read back per operator) computes the model."
    from shardnb.mindspore.strategies import shardy_plan
    rng = np.random.default_rng(seed + n)
    m = mlp3()
    x = torch.randn(8, 16, generator=torch.Generator().manual_seed(int(rng.integers(1 << 30))))
    ep, mod = export(m, x)
    conf = random_configuration(rng, mod, n)
    plan = shardy_plan(mod, conf, device_num=n)
    check_numerics(m, plan, ep, mod, x)


def test_shardy_plan_errors():
    from shardnb.mindspore.strategies import shardy_plan
    _, mod = export(mlp3(), torch.randn(8, 16))
    with pytest.raises(ShardingError, match="is not in the program; its operators are: linear, relu"):
        shardy_plan(mod, {"mm": ((2, 1), (1, 1), (1,))}, device_num=2)
    with pytest.raises(ShardingError, match="does not divide device_num=2"):
        shardy_plan(mod, {"linear": ((4, 1), (1, 1), (1,))}, device_num=2)
    with pytest.raises(ShardingError, match="needs a Module"):
        shardy_plan("module", {}, device_num=2)


def test_shardy_plan_random_configurations_on_a_block(seed):
    "Random configurations of a transformer block (reshapes merging heads, softmax, LayerNorm): Shardy's plan computes it."
    from shardnb.mindspore.strategies import shardy_plan
    rng = np.random.default_rng(seed)
    m, x = Block(), torch.randn(4, 8, 32, generator=torch.Generator().manual_seed(6))
    ep, mod = export(m, x)
    args = arguments(ep, mod, (x,))
    single = evaluate(mod, *args)[0]
    # found by this test: Shardy shards the heads-merging reshape's minor factor, which no operator layout holds
    known = {"div": ((1, 2, 1, 1),), "matmul_1": ((1, 1, 1, 1), (1, 1, 1, 4))}
    np.testing.assert_allclose(shardy_plan(mod, known, device_num=8).run(*args)[0], single, rtol=1e-9, atol=1e-9)
    for _ in range(6):
        n = int(rng.choice([2, 4, 8]))
        conf = random_configuration(rng, mod, n, k=int(rng.integers(1, 4)))
        np.testing.assert_allclose(shardy_plan(mod, conf, device_num=n).run(*args)[0], single, rtol=1e-9, atol=1e-9,
                                   err_msg=f"device_num={n}, configured={conf}")


def test_a_split_that_does_not_divide_its_dim_is_refused():
    "MindSpore's CheckStrategy: a 6x4 @ 4x4 matmul's 6 rows cannot be split 4 ways (2 ways they can)."
    mod = export(FFNSmall(), torch.randn(6, 4))[1]
    with pytest.raises(ShardingError, match=r"operator matmul \(MatMul\): input 0 dim 0 of size 6 is not divisible by 4"):
        propagate_strategies(mod, {"matmul": ((4, 1), (1, 1))}, device_num=4)
    assert propagate_strategies(mod, {"matmul": ((2, 1), (1, 1))}, device_num=4).strategies["matmul"] == ((2, 1), (1, 1))


class SoftmaxOfMatmul(torch.nn.Module):
    def __init__(self):
        super().__init__(); self.w = torch.nn.Parameter(torch.randn(8, 8, generator=torch.Generator().manual_seed(0)))

    def forward(self, x): return torch.softmax(x @ self.w, -1)


@pytest.mark.parametrize("n", [2, 4, 8])
def test_equal_costs_go_to_the_larger_product_of_splits(n):
    """softmax(x @ w, -1) on 8x8 with the matmul's columns split n ways over n devices: the softmax may split only its
    rows, and every split 1, 2, ..., n of them costs the same edge (each direction's few bytes are refined to 3072, as
    MindSpore's RefineForPracticalCost does). MindSpore's `Strategy::Compare` then prefers the larger product of
    splits: the rows split n ways, not left whole."""
    mod = export(SoftmaxOfMatmul(), torch.randn(8, 8))[1]
    mm = ((1, 1), (1, n))
    plan = propagate_strategies(mod, {"matmul": mm}, device_num=n)
    assert plan.strategies == {"matmul": mm, "softmax": ((n, 1),)}
    rows = [2 ** k for k in range(n.bit_length())]   # 1, 2, ..., n
    costs = {r: propagate_strategies(mod, {"matmul": mm, "softmax": ((r, 1),)}, device_num=n).total() for r in rows}
    assert len(set(costs.values())) == 1 and plan.total() == costs[n], costs   # a tie: Compare decides
