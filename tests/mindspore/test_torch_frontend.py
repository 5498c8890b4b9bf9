"""from_torch: every translated torch op evaluates (numpy interpreter) to what torch computes, keeps its node
name, and has a Shardy sharding rule; untranslated ops and bad input are clear errors."""
import re
import numpy as np
import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F
from shardnb import ShardingError
from shardnb.mindspore.torch_frontend import from_torch
from shardnb.shardy.rules import sharding_rule
from shardnb.mindspore.strategies import evaluate, operators, propagate_strategies


def args_of(ep, module, inputs):
    sd = {f"p_{k.replace('.', '_')}": v for k, v in ep.state_dict.items()}
    it = iter(inputs)
    return [(sd[v.name] if v.name in sd else next(it)).detach().double().numpy() for v in module.main.args]


class Fn(torch.nn.Module):
    def __init__(self, f, *params):
        super().__init__()
        self.f = f
        self.ps = torch.nn.ParameterList([torch.nn.Parameter(p) for p in params])

    def forward(self, *xs): return self.f(*xs, *self.ps)


g = torch.Generator().manual_seed(0)
r = lambda *s: torch.randn(*s, generator=g)
CASES = {
    "linear": (lambda x, w, b: F.linear(x, w, b), [r(3, 5, 8)], [r(4, 8), r(4)]),
    "linear_nobias": (lambda x, w: F.linear(x, w), [r(6, 8)], [r(4, 8)]),
    "matmul": (lambda x, w: x @ w, [r(2, 6, 8)], [r(8, 4)]),
    "mm": (lambda x, w: torch.mm(x, w), [r(6, 8)], [r(8, 4)]),
    "bmm": (lambda x, y: torch.bmm(x, y), [r(3, 6, 8), r(3, 8, 4)], []),
    "batched_matmul": (lambda x, y: x @ y, [r(2, 3, 6, 8), r(2, 3, 8, 4)], []),
    "addmm": (lambda x, b, w: torch.addmm(b, x, w), [r(6, 8)], [r(4), r(8, 4)]),
    "broadcast": (lambda x, y: (x + y) * (x - y) / (y * y + 1), [r(4, 1, 6), r(5, 1)], []),
    "scalars": (lambda x: (x + 2) * 3 - 1 / (x * x + 4), [r(4, 6)], []),
    "activations": (lambda x: torch.relu(x) + F.gelu(x) + F.gelu(x, approximate="tanh") + torch.tanh(x) + torch.exp(x), [r(4, 6)], []),
    "softmax": (lambda x: torch.softmax(x, dim=1) + torch.softmax(x, dim=-1), [r(3, 4, 5)], []),
    "layer_norm": (lambda x, w, b: F.layer_norm(x, (6,), w, b) + F.layer_norm(x, (5, 6)), [r(3, 5, 6)], [r(6), r(6)]),
    "views": (lambda x: x.reshape(4, 30).view(2, 2, 5, 6).transpose(1, 3).permute(0, 2, 3, 1).t() if False else
              x.reshape(4, 30).view(2, 2, 5, 6).transpose(1, 3).permute(0, 2, 3, 1), [r(4, 5, 6)], []),
    "t": (lambda x: x.t() @ x, [r(4, 6)], []),
    "reductions": (lambda x: x.sum(1) + x.mean(1) + x.amax(1) + x.mean(-1).sum(1, keepdim=True)
                   + x.sum((0, 2), keepdim=True).squeeze(0).squeeze(-1)[None].sum(), [r(4, 5, 3)], []),
    "elu_leaky_softplus": (lambda x: F.elu(x) + F.elu(x, 0.5) + F.leaky_relu(x) + F.leaky_relu(x, 0.2) + F.softplus(x)
                           + F.softplus(x, beta=2.0) + F.log_softmax(x, -2), [r(3, 4, 5) * 12], []),
    "mean_keepdim": (lambda x: x - x.mean(-1, keepdim=True) + x.amax(0, keepdim=True), [r(4, 6)], []),
    "conv_pool": (lambda x, w, b: F.max_pool2d(F.conv2d(x, w, b, stride=2, padding=1), 2) + F.max_pool2d(F.conv2d(x, w), 3, 3, 1) + F.max_pool2d(F.conv2d(x, w), 3),
                  [r(2, 3, 8, 8)], [r(4, 3, 3, 3), r(4)]),
    "cat": (lambda x, y: torch.cat((x, y, x), 1) * 2 + torch.cat([x, x, y], dim=-2).sum(), [r(3, 2, 5), r(3, 2, 5)], []),
    "conv_transpose2d": (lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1), [r(2, 3, 5, 5)], [r(3, 4, 3, 3), r(4)]),
    "conv_transpose2d_plain": (lambda x, w: F.conv_transpose2d(x, w) * 2,
                               [r(2, 3, 4, 5)], [r(3, 2, 2, 3)]),
    "conv_transpose2d_stride3": (lambda x, w: F.conv_transpose2d(x, w, None, (3, 2), (2, 1)), [r(1, 2, 4, 3)], [r(2, 5, 3, 4)]),
    "cummax_cummin": (lambda x: torch.cummax(x, 1)[0] + torch.cummin(x, -1).values + torch.cummax(x, 0).values, [r(3, 4, 5)], []),
    "trunc_lgamma": (lambda x: torch.trunc(x * 4) + torch.lgamma(x * 3) + torch.lgamma(x.abs() * 20 + 0.1), [r(4, 6)], []),
    "batch_norm_train": (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True) + F.batch_norm(x, None, None, training=True, eps=1e-3),
                         [r(4, 3, 5, 5)], [r(3), r(3)]),
    "embedding": (lambda ids, w: F.embedding(ids, w) * 2 + F.embedding(ids.flip(0), w, padding_idx=0), [torch.tensor([[1, 9, 3], [0, 0, 5]])], [r(10, 6)]),
    "one_hot": (lambda x, l: x * F.one_hot(l, 6).float() - F.one_hot(l.flip(0), 6).float(), [r(4, 6), torch.tensor([0, 5, 2, 2])], []),
    "cumulative": (lambda x: torch.cumsum(x, 1) + torch.cumsum(x, -1) + torch.cumprod(x, 0) + x.flip(-1) + x.flip(0, 2),
                   [r(3, 4, 5)], []),
}


@pytest.mark.parametrize("case", list(CASES))
def test_translation_is_numerically_torch(case):
    f, inputs, params = CASES[case]
    m = Fn(f, *params)
    try:
        ep = torch.export.export(m, tuple(inputs))
    except Exception as e:   # an export failure is torch's, not ours: make it loud
        raise AssertionError(f"torch.export failed for {case}: {e}")
    module = from_torch(ep)
    got = evaluate(module, *args_of(ep, module, inputs))[0]
    want = m.double()(*[x.double() if x.is_floating_point() else x for x in inputs]).detach().numpy()
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    names = {n.name for n in ep.graph.nodes if n.op == "call_function"}
    for op in module.main.body.ops:
        if op.name == "func.return": continue
        assert str(op.attrs["torch.node"]).strip('"') in names
        if op.operands: sharding_rule(op)   # raises if Shardy has no rule for what we emit
    # every torch node that produces a value is an operator under its own name
    assert {o.name for o in operators(module)} <= names


def test_names_are_torch_names():
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__(); self.a, self.b = torch.nn.Linear(4, 4), torch.nn.Linear(4, 4)
        def forward(self, x): return self.b(torch.relu(self.a(x)))
    ep = torch.export.export(M(), (torch.randn(2, 4),))
    module = from_torch(ep)
    assert [o.name for o in operators(module)] == ["linear", "relu", "linear_1"]
    assert [v.name for v in module.main.args] == ["p_a_weight", "p_a_bias", "p_b_weight", "p_b_bias", "x"]
    plan = propagate_strategies(module, {"linear_1": ((2, 1), (1, 1), (1,))}, device_num=2)
    assert plan.strategies["linear_1"] == ((2, 1), (1, 1), (1,))


def test_untranslated_ops_are_named():
    "Every untranslated node is listed in one error: its op, how many, which are multi-output, and the nodes."
    f = lambda x: torch.erfinv(x / 9) + torch.erfinv(x / 8) + torch.sort(x, 1)[0]
    ep = torch.export.export(Fn(f), (torch.randn(3, 4),))
    with pytest.raises(ShardingError) as err:
        from_torch(ep)
    msg = str(err.value)
    print(msg)
    assert "3 node(s) of 2 kind(s) have no translation yet" in msg
    assert re.search(r"aten\.erfinv\.default  x2: erfinv, erfinv_1", msg)
    assert re.search(r"aten\.sort\.default  x1  \(multi-output\): sort", msg)
    with pytest.raises(ShardingError, match="needs a torch.export.ExportedProgram"):
        from_torch(torch.nn.Linear(2, 2))
    ep = torch.export.export(Fn(lambda x: x + x, ), (torch.randn(3, 4, dtype=torch.complex64),))
    with pytest.raises(ShardingError, match="unsupported dtype"):
        from_torch(ep)


def test_import_shardnb_does_not_import_torch():
    import subprocess, sys
    out = subprocess.run([sys.executable, "-c", "import sys, shardnb, shardnb.mindspore.torch_frontend, shardnb.mindspore.strategies; print('torch' in sys.modules)"],
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "False", out.stderr


def test_cummax_indices_are_named():
    ep = torch.export.export(Fn(lambda x: torch.cummax(x, 1).indices.float()), (torch.randn(3, 4),))
    with pytest.raises(ShardingError, match=r"output 1 of cummax \(aten.cummax.default\) is not translated yet: getitem_1"):
        from_torch(ep)


def test_new_primitives_are_named():
    "The operators carry MindSpore's primitive names: Cummax, Cummin, Trunc, Lgamma and BatchNorm (batch statistics)."
    f = lambda x, w: torch.lgamma(torch.trunc(torch.cummin(torch.cummax(F.batch_norm(x, None, None, w, training=True), 1)[0], 2)[0]))
    ep = torch.export.export(Fn(f, r(3)), (r(2, 3, 4, 4),))
    assert [o.primitive for o in operators(from_torch(ep))] == ["BatchNorm", "Cummax", "Cummin", "Trunc", "Lgamma"]
    ep = torch.export.export(Fn(lambda x, l: x * F.one_hot(l, 4).float()), (r(3, 4), torch.tensor([1, 0, 3])))
    assert [o.primitive for o in operators(from_torch(ep))] == ["OneHot", "Cast", "Mul"]
