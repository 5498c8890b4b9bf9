"""A corpus of real programs lowered by JAX: the texts every program-layer test reads.

Each entry of `CORPUS` names a small JAX function, its arguments and how it is jitted (meshes of 1-4 axes,
size-1 axes included; in/out shardings, constraints, shard_map, donation, bf16 and complex dtypes). Lowering
happens once, in a subprocess that asks XLA for 8 host devices (the flag must be set before jax is
imported, so never in a test process or a notebook), and the texts are cached on disk keyed by the corpus
sources and jax's version. Everything is seeded: the same jax gives the same texts. The programs of
`tests/corpus/models.py` and `tests/corpus/features.py` are registered here too; all three build them with
`tests/corpus/builders.py`.

Use it from a test module:

    from tests.corpus.programs import CORPUS_NAMES, jax_corpus      # jax_corpus is a session fixture

    @pytest.mark.parametrize("name", CORPUS_NAMES)
    def test_something(jax_corpus, name): text = jax_corpus[name]

or outside pytest: `PYTHONPATH=. python tests/corpus/programs.py OUTDIR` (from the repository root) writes one
`NAME.mlir` per program, and `load_corpus()` returns {name: text} (lowering first if the cache is cold).
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.corpus.builders import arr, jax_jnp, make_mesh, named, registrar
from tests.corpus.features import PROGRAMS as FEATURES
from tests.corpus.models import PROGRAMS as MODELS

CORPUS: dict = {}   # name -> builder() returning (fn, args, jit kwargs, lower options)
program = registrar(CORPUS)


MESHES = {   # name -> (shape, axis names): 1 to 4 axes, size-1 axes included
    "x8": ((8,), ("x",)),
    "x2y4": ((2, 4), ("x", "y")),
    "x4y2": ((4, 2), ("x", "y")),
    "x1y8": ((1, 8), ("x", "y")),
    "d2m2t2": ((2, 2, 2), ("data", "model", "tensor")),
    "a2b1c2d2": ((2, 1, 2, 2), ("a", "b", "c", "d")),
    "one": ((1,), ("x",)),
}


# ---------------------------------------------------------------- MLPs
def _layernorm(x, jnp):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / jnp.sqrt(v + 1e-5)


for _depth, _width, _mesh_name, _dtype in [(1, 16, "x8", "float32"), (2, 32, "x2y4", "float32"), (3, 64, "x4y2", "bfloat16"),
                                           (2, 16, "x1y8", "float32"), (4, 32, "d2m2t2", "float32"), (2, 32, "a2b1c2d2", "bfloat16"),
                                           (2, 8, "one", "float32")]:
    @program(f"mlp_d{_depth}_w{_width}_{_mesh_name}_{_dtype}")
    def _mlp(depth=_depth, width=_width, mesh_name=_mesh_name, dtype=_dtype):
        jax, jnp = jax_jnp()
        mesh = make_mesh(*MESHES[mesh_name]); a0, a1 = (mesh.axis_names + (None,))[:2]
        def f(x, ws):
            for w in ws: x = jax.nn.relu(x @ w)
            return x.sum()
        ws = [arr((width, width), dtype, k) for k in range(depth)]
        return f, (arr((8, width), dtype), ws), dict(in_shardings=(named(mesh, a0, None), [named(mesh, None, a1)] * depth)), {}

for _act in ["relu", "gelu", "silu", "tanh", "sigmoid", "softplus"]:
    @program(f"mlp_act_{_act}")
    def _mlp_act(act=_act):
        jax, jnp = jax_jnp()
        mesh = make_mesh(*MESHES["x2y4"])
        fn = getattr(jax.nn, act) if act != "tanh" else jnp.tanh
        def f(x, w1, b1, w2):
            return fn(x @ w1 + b1) @ w2
        return f, (arr((8, 16)), arr((16, 32), seed=1), arr((32,), seed=2), arr((32, 4), seed=3)), \
            dict(in_shardings=(named(mesh, "x"), named(mesh, None, "y"), named(mesh, "y"), named(mesh, "y")), out_shardings=named(mesh, "x")), {}


# ---------------------------------------------------------------- transformer blocks
def _attention(x, wq, wk, wv, wo, heads, jax, jnp, causal=True):
    b, s, d = x.shape
    q = (x @ wq).reshape(b, s, heads, d // heads)
    k = (x @ wk).reshape(b, s, heads, d // heads)
    v = (x @ wv).reshape(b, s, heads, d // heads)
    logits = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(d // heads).astype(x.dtype)
    if causal:
        mask = jnp.tril(jnp.ones((s, s), bool))
        logits = jnp.where(mask, logits, jnp.finfo(x.dtype).min)
    p = jax.nn.softmax(logits, axis=-1)
    o = jnp.einsum("bhqk,bkhd->bqhd", p, v).reshape(b, s, d)
    return o @ wo


for _heads, _mesh_name, _dtype, _causal, _dbg in [(2, "x2y4", "float32", True, False), (4, "x2y4", "bfloat16", True, True),
                                                  (2, "d2m2t2", "float32", False, False), (1, "x8", "float32", True, True),
                                                  (2, "a2b1c2d2", "float32", True, False), (4, "x1y8", "float32", True, False)]:
    @program(f"transformer_h{_heads}_{_mesh_name}_{_dtype}_{'causal' if _causal else 'full'}{'_dbg' if _dbg else ''}")
    def _block(heads=_heads, mesh_name=_mesh_name, dtype=_dtype, causal=_causal, dbg=_dbg):
        jax, jnp = jax_jnp()
        mesh = make_mesh(*MESHES[mesh_name]); names = mesh.axis_names
        batch, model = names[0], names[-1]
        d = 16
        def block(x, p):
            h = x + _attention(_layernorm(x, jnp), p["wq"], p["wk"], p["wv"], p["wo"], heads, jax, jnp, causal)
            h2 = jax.nn.gelu(_layernorm(h, jnp) @ p["w1"]) @ p["w2"]
            return h + h2
        params = {k: arr((d, d), dtype, i) for i, k in enumerate(["wq", "wk", "wv", "wo"])}
        params["w1"] = arr((d, 4 * d), dtype, 7); params["w2"] = arr((4 * d, d), dtype, 8)
        pspec = {k: named(mesh, None, model) for k in ["wq", "wk", "wv", "w1"]}
        pspec.update(wo=named(mesh, model, None), w2=named(mesh, model, None))
        return block, (arr((8, 8, d), dtype), params), \
            dict(in_shardings=(named(mesh, batch), pspec), out_shardings=named(mesh, batch)), dict(debug_info=dbg)

@program("transformer_stack_scan")
def _stack():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x2y4"])
    def layer(x, p):
        return x + jax.nn.gelu(_layernorm(x, jnp) @ p[0]) @ p[1], None
    def f(x, w1, w2):
        y, _ = jax.lax.scan(layer, x, (w1, w2))
        return y
    return f, (arr((8, 16)), arr((3, 16, 32), seed=1), arr((3, 32, 16), seed=2)), \
        dict(in_shardings=(named(mesh, "x"), named(mesh, None, None, "y"), named(mesh, None, "y"))), {}

@program("transformer_remat")
def _remat():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x2y4"])
    @jax.checkpoint
    def layer(x, w):
        return jnp.tanh(_layernorm(x, jnp) @ w)
    def f(x, w):
        return jax.grad(lambda x: layer(layer(x, w), w).sum())(x)
    return f, (arr((8, 16)), arr((16, 16), seed=1)), dict(in_shardings=(named(mesh, "x"), named(mesh, None, "y"))), {}


# ---------------------------------------------------------------- embeddings, gather, scatter
for _vocab, _mesh_name in [(32, "x8"), (64, "x2y4"), (16, "d2m2t2"), (48, "x1y8")]:
    @program(f"embedding_v{_vocab}_{_mesh_name}")
    def _embed(vocab=_vocab, mesh_name=_mesh_name):
        jax, jnp = jax_jnp()
        mesh = make_mesh(*MESHES[mesh_name]); names = mesh.axis_names
        def f(table, ids):
            e = jnp.take(table, ids, axis=0)
            return jax.nn.log_softmax(e @ table.T, axis=-1)
        return f, (arr((vocab, 16)), arr((8, 8), "int32")), dict(in_shardings=(named(mesh, None, names[-1]), named(mesh, names[0]))), {}

@program("scatter_add_update")
def _scatter():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x2y4"])
    def f(table, ids, upd):
        return table.at[ids].add(upd), table.at[ids[:2]].set(0.0), table.at[:, 3].multiply(2.0)
    return f, (arr((32, 16)), arr((8,), "int32"), arr((8, 16), seed=1)), dict(in_shardings=(named(mesh, None, "y"), None, None)), dict(debug_info=True)

@program("scatter_max_min")
def _scatter2():
    jax, jnp = jax_jnp()
    def f(x, ids, upd):
        return x.at[ids].max(upd), x.at[ids].min(upd)
    return f, (arr((16, 4)), arr((5,), "int32"), arr((5, 4), seed=1)), {}, {}

@program("gather_advanced_indexing")
def _gather():
    jax, jnp = jax_jnp()
    def f(x, i, j):
        return x[i, j], x[:, i], x[i[:, None], j[None, :]], jnp.take_along_axis(x, jnp.argsort(x, axis=1), axis=1)
    return f, (arr((8, 8)), arr((4,), "int32"), arr((4,), "int32", 1)), {}, {}

@program("embedding_grad")
def _embed_grad():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x2y4"])
    def loss(table, ids, y):
        return ((jnp.take(table, ids, axis=0).sum(1) - y) ** 2).mean()
    return jax.grad(loss), (arr((32, 8)), arr((4, 3), "int32"), arr((4, 8), seed=2)), \
        dict(in_shardings=(named(mesh, "y"), named(mesh, "x"), named(mesh, "x"))), {}


# ---------------------------------------------------------------- convolutions and pooling
for _dims, _mesh_name, _dtype in [(1, "x8", "float32"), (2, "x2y4", "float32"), (2, "x4y2", "bfloat16"), (3, "one", "float32")]:
    @program(f"conv{_dims}d_{_mesh_name}_{_dtype}")
    def _conv(dims=_dims, mesh_name=_mesh_name, dtype=_dtype):
        jax, jnp = jax_jnp()
        mesh = make_mesh(*MESHES[mesh_name]); names = mesh.axis_names
        sp = (6,) * dims
        def f(x, k):
            y = jax.lax.conv_general_dilated(x, k, (1,) * dims, "SAME", rhs_dilation=(1,) * (dims - 1) + (2,))
            y = jax.nn.relu(y)
            return jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 1) + (2,) * dims, (1, 1) + (2,) * dims, "VALID")
        return f, (arr((8, 3) + sp, dtype), arr((8, 3) + (3,) * dims, dtype, 1)), \
            dict(in_shardings=(named(mesh, names[0]), named(mesh, names[-1] if len(names) > 1 else None))), {}

@program("conv2d_grad_strided_grouped")
def _conv_grad():
    jax, jnp = jax_jnp()
    def loss(k, x):
        y = jax.lax.conv_general_dilated(x, k, (2, 2), [(1, 1), (0, 1)], feature_group_count=2,
                                         dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return jnp.mean(y ** 2)
    return jax.value_and_grad(loss), (arr((3, 3, 2, 4)), arr((2, 9, 9, 4), seed=1)), {}, {}

@program("avg_pool_cumsum")
def _pool():
    jax, jnp = jax_jnp()
    def f(x):
        p = jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 3, 3), (1, 2, 2), "SAME") / 9
        return p, jnp.cumsum(x, axis=1), jnp.cumprod(x[:, :4, 0], axis=1), jax.lax.cummax(x, axis=2)
    return f, (arr((2, 8, 8)),), {}, {}

@program("max_pool_grad")
def _pool_grad():
    jax, jnp = jax_jnp()
    def loss(x):
        return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID").sum()
    return jax.grad(loss), (arr((2, 8, 8, 3)),), {}, {}


# ---------------------------------------------------------------- control flow with calls in bodies
@program("scan_with_call")
def _scan_call():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x8"])
    @jax.jit
    def cell(h, x): return jnp.tanh(h @ x)
    def f(h, xs):
        def step(h, x):
            h = cell(h, x); return h, h.sum()
        return jax.lax.scan(step, h, xs)
    return f, (arr((8, 8)), arr((5, 8, 8), seed=1)), dict(in_shardings=(named(mesh, "x"), None)), {}

@program("fori_loop_with_call")
def _fori():
    jax, jnp = jax_jnp()
    @jax.jit
    def inc(x, i): return x * 0.5 + i
    def f(x):
        return jax.lax.fori_loop(0, 7, lambda i, x: inc(x, i.astype(x.dtype)), x)
    return f, (arr((4, 4)),), {}, {}

@program("fori_loop_unknown_bounds")
def _fori2():
    jax, jnp = jax_jnp()
    def f(x, n):
        return jax.lax.fori_loop(0, n, lambda i, c: (c[0] + c[1], c[1] * 2), (x, x))
    return f, (arr((3,)), jnp.int32(4)), {}, {}

@program("while_loop_newton")
def _while():
    jax, jnp = jax_jnp()
    @jax.jit
    def step(x, a): return 0.5 * (x + a / x)
    def f(a):
        def cond(c): return jnp.logical_and(c[1] < 50, jnp.max(jnp.abs(c[0] * c[0] - a)) > 1e-4)
        def body(c): return step(c[0], a), c[1] + 1
        return jax.lax.while_loop(cond, body, (jnp.ones_like(a), 0))
    return f, (jnp.abs(arr((16,))) + 1,), {}, dict(debug_info=True)

@program("while_loop_sharded")
def _while_sharded():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x2y4"])
    def f(x, w):
        def body(c):
            i, x = c
            return i + 1, jax.lax.with_sharding_constraint(jnp.tanh(x @ w), named(mesh, "x", "y"))
        return jax.lax.while_loop(lambda c: c[0] < 3, body, (0, x))[1]
    return f, (arr((8, 8)), arr((8, 8), seed=1)), dict(in_shardings=(named(mesh, "x"), named(mesh, None, "y"))), {}

@program("cond_with_calls")
def _cond():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x2y4"])
    @jax.jit
    def left(x): return jnp.sin(x) * 2
    def f(p, x):
        return jax.lax.cond(p > 0, left, lambda x: jnp.cos(x) @ x, x)
    return f, (jnp.float32(1.0), arr((8, 8))), dict(in_shardings=(None, named(mesh, "x", "y"))), {}

@program("switch_three_branches")
def _switch():
    jax, jnp = jax_jnp()
    def f(i, x):
        return jax.lax.switch(i, [jnp.sin, jnp.cos, lambda x: -x], x)
    return f, (jnp.int32(1), arr((5,))), {}, {}

@program("nested_scan_cond")
def _nested():
    jax, jnp = jax_jnp()
    def f(xs):
        def outer(c, x):
            def inner(c2, y): return c2 + jax.lax.cond(y > 0, lambda: y, lambda: -y), None
            s, _ = jax.lax.scan(inner, 0.0, x)
            return c + s, s
        return jax.lax.scan(outer, 0.0, xs)
    return f, (arr((3, 4)),), {}, {}

@program("scan_reverse_unroll")
def _scan_unroll():
    jax, jnp = jax_jnp()
    def f(xs):
        return jax.lax.scan(lambda c, x: (c * x, c), 1.0, xs, reverse=True, unroll=2)
    return f, (arr((6,)),), {}, {}

@program("map_and_vmap")
def _map():
    jax, jnp = jax_jnp()
    def f(x):
        return jax.lax.map(lambda r: jnp.sort(r)[::-1], x), jax.vmap(jnp.outer)(x, x)
    return f, (arr((4, 5)),), {}, {}


# ---------------------------------------------------------------- argmax, top_k, sort
@program("argmax_argmin")
def _argmax():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x2y4"])
    def f(x): return jnp.argmax(x, axis=1), jnp.argmin(x, axis=0), jnp.max(x), jnp.argmax(x.reshape(-1))
    return f, (arr((8, 16)),), dict(in_shardings=(named(mesh, "x", "y"),)), dict(debug_info=True)

@program("variadic_reduce_shared_init")
def _variadic_reduce():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x2y4"])
    def f(x, y, k, init, kinit):
        def red(a, b):
            return a[0] + b[0], jnp.maximum(a[1], b[1]), jnp.minimum(a[2], b[2])
        # one init value feeds two inputs: `(%x init: %init), (%y init: %init), (%k init: %kinit)`
        return jax.lax.reduce((x, y, k), (init, init, kinit), red, (1,)), jnp.argmax(x, axis=0, keepdims=True), jax.lax.argmin(y, 1, jnp.int32)
    return f, (arr((8, 16)), arr((8, 16), seed=1), arr((8, 16), "int32", 2), jnp.float32(0), jnp.int32(7)), \
        dict(in_shardings=(named(mesh, "x", "y"), named(mesh, "x"), named(mesh, None, "y"), None, None)), dict(debug_info=True)

@program("top_k")
def _top_k():
    jax, jnp = jax_jnp()
    def f(x):
        v, i = jax.lax.top_k(x, 4)
        return v, i, jax.lax.approx_max_k(x, 2)[0]
    return f, (arr((8, 32)),), {}, {}

@program("sort_multi_operand")
def _sort():
    jax, jnp = jax_jnp()
    def f(x, y):
        return jax.lax.sort((x, y), dimension=1, num_keys=1), jnp.argsort(x, axis=0, stable=True), jnp.sort(x, axis=None, descending=True)
    return f, (arr((4, 9)), arr((4, 9), "int32")), {}, dict(debug_info=True)

@program("unique_sorted_searchsorted")
def _search():
    jax, jnp = jax_jnp()
    def f(a, v): return jnp.searchsorted(jnp.sort(a), v), jnp.median(a), jnp.quantile(a, 0.25)
    return f, (arr((16,)), arr((5,), seed=1)), {}, {}


# ---------------------------------------------------------------- jax.random
for _impl in ["threefry2x32", "rbg", "unsafe_rbg"]:
    @program(f"random_{_impl}")
    def _random(impl=_impl):
        jax, jnp = jax_jnp()
        def f(seed):
            k = jax.random.key(seed, impl=impl)
            k1, k2, k3 = jax.random.split(k, 3)
            return (jax.random.normal(k1, (4, 8)), jax.random.uniform(k2, (3,), minval=-1.0),
                    jax.random.bernoulli(k3, 0.3, (5,)), jax.random.randint(k1, (2, 2), 0, 10))
        return f, (jnp.uint32(0),), {}, {}

@program("random_dropout_sharded")
def _dropout():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x2y4"])
    def f(key, x):
        keep = jax.random.bernoulli(key, 0.9, x.shape)
        return jnp.where(keep, x / 0.9, 0.0), jax.random.permutation(key, 8), jax.random.categorical(key, x)
    return f, (jax.random.key_data(jax.random.key(0)), arr((8, 16))), dict(in_shardings=(None, named(mesh, "x", "y"))), {}

@program("random_truncated_normal_gamma")
def _trunc():
    jax, jnp = jax_jnp()
    def f(k): return jax.random.truncated_normal(k, -2.0, 2.0, (8,)), jax.random.gamma(k, 2.0, (3,)), jax.random.choice(k, 10, (3,), replace=False)
    return f, (jax.random.PRNGKey(1),), {}, {}


# ---------------------------------------------------------------- train steps
for _opt, _mesh_name in [("sgd", "x2y4"), ("momentum", "x8"), ("adam", "d2m2t2"), ("adam", "a2b1c2d2"), ("sgd", "one")]:
    @program(f"train_step_{_opt}_{_mesh_name}")
    def _train(opt=_opt, mesh_name=_mesh_name):
        jax, jnp = jax_jnp()
        mesh = make_mesh(*MESHES[mesh_name]); names = mesh.axis_names
        def loss(params, x, y):
            h = jax.nn.relu(x @ params["w1"] + params["b1"])
            logits = h @ params["w2"]
            return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * y, -1))
        def step(params, state, x, y):
            l, g = jax.value_and_grad(loss)(params, x, y)
            if opt == "sgd": new = jax.tree.map(lambda p, g: p - 0.1 * g, params, g); state2 = state
            elif opt == "momentum":
                state2 = jax.tree.map(lambda m, g: 0.9 * m + g, state, g)
                new = jax.tree.map(lambda p, m: p - 0.1 * m, params, state2)
            else:
                m, v, t = state
                t = t + 1
                m = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
                v = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
                new = jax.tree.map(lambda p, m, v: p - 1e-3 * (m / (1 - 0.9 ** t)) / (jnp.sqrt(v / (1 - 0.999 ** t)) + 1e-8), params, m, v)
                state2 = (m, v, t)
            return new, state2, l
        params = {"w1": arr((16, 32)), "b1": arr((32,), seed=1), "w2": arr((32, 8), seed=2)}
        zeros = jax.tree.map(jnp.zeros_like, params)
        state = zeros if opt != "adam" else (zeros, zeros, jnp.float32(0))
        psh = {"w1": named(mesh, None, names[-1]), "b1": named(mesh, names[-1]), "w2": named(mesh, names[-1], None)}
        ssh = psh if opt != "adam" else (psh, psh, named(mesh))
        return step, (params, state, arr((8, 16), seed=3), jax.nn.one_hot(jnp.arange(8) % 8, 8)), \
            dict(in_shardings=(psh, ssh, named(mesh, names[0]), named(mesh, names[0])), out_shardings=(psh, ssh, named(mesh)),
                 donate_argnums=(0, 1)), dict(debug_info=mesh_name == "x8")


# ---------------------------------------------------------------- shard_map
@program("shard_map_psum")
def _smap():
    jax, jnp = jax_jnp()
    from jax.sharding import PartitionSpec as P
    mesh = make_mesh(*MESHES["x2y4"])
    def f(a, b):
        return jax.shard_map(lambda a, b: jax.lax.psum(a @ b, "y"), mesh=mesh, in_specs=(P("x", "y"), P("y", None)), out_specs=P("x"))(a, b)
    return f, (arr((8, 16)), arr((16, 8), seed=1)), {}, dict(debug_info=True)

@program("shard_map_collectives")
def _smap2():
    jax, jnp = jax_jnp()
    from jax.sharding import PartitionSpec as P
    mesh = make_mesh(*MESHES["x8"])
    def body(x):
        g = jax.lax.all_gather(x, "x", tiled=True)
        s = jax.lax.psum_scatter(g, "x", tiled=True)
        p = jax.lax.ppermute(x, "x", [(i, (i + 1) % 8) for i in range(8)])
        t = jax.lax.all_to_all(x.reshape(8, -1), "x", 0, 0, tiled=True).reshape(x.shape)
        return s + p + t + jax.lax.pmax(x, "x") + jax.lax.axis_index("x").astype(x.dtype)
    def f(x): return jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(x)
    return f, (arr((64, 4)),), {}, {}

@program("shard_map_partial_manual")
def _smap3():
    jax, jnp = jax_jnp()
    from jax.sharding import PartitionSpec as P
    mesh = make_mesh(*MESHES["x2y4"])
    def f(x, w):
        y = jax.shard_map(lambda x: jax.lax.psum(jnp.sin(x), "x"), mesh=mesh, in_specs=P("x"), out_specs=P(), axis_names={"x"})(x)
        return y @ w
    return f, (arr((8, 8)), arr((8, 8), seed=1)), dict(in_shardings=(named(mesh, "x", "y"), named(mesh, None, "y"))), {}

@program("shard_map_nested")
def _smap4():
    jax, jnp = jax_jnp()
    from jax.sharding import PartitionSpec as P
    mesh = make_mesh(*MESHES["x2y4"])
    def inner(x): return jax.lax.psum(x * 2, "y")
    def outer(x):
        z = jax.shard_map(inner, mesh=jax.sharding.get_abstract_mesh(), in_specs=P(None, "y"), out_specs=P(), axis_names={"y"})(x)
        return jax.lax.psum(z, "x")
    def f(x): return jax.shard_map(outer, mesh=mesh, in_specs=P("x"), out_specs=P(), axis_names={"x"})(x)
    return f, (arr((8, 8)),), {}, {}

@program("shard_map_3axes_pmean")
def _smap5():
    jax, jnp = jax_jnp()
    from jax.sharding import PartitionSpec as P
    mesh = make_mesh(*MESHES["d2m2t2"])
    def body(x, w): return jax.lax.pmean(x @ w, ("model", "tensor"))
    def f(x, w):
        return jax.shard_map(body, mesh=mesh, in_specs=(P("data", ("model", "tensor")), P(("model", "tensor"))), out_specs=P("data"))(x, w)
    return f, (arr((8, 16)), arr((16, 4), seed=1)), {}, {}

@program("shard_map_in_scan")
def _smap6():
    jax, jnp = jax_jnp()
    from jax.sharding import PartitionSpec as P
    mesh = make_mesh(*MESHES["x8"])
    sm = jax.shard_map(lambda c, x: jax.lax.psum(c * x, "x"), mesh=mesh, in_specs=(P(), P("x")), out_specs=P())
    def f(xs): return jax.lax.scan(lambda c, x: (sm(c, x).sum() + c, c), 1.0, xs)
    return f, (arr((3, 8)),), {}, {}

@program("shard_map_size1_axis")
def _smap7():
    jax, jnp = jax_jnp()
    from jax.sharding import PartitionSpec as P
    mesh = make_mesh(*MESHES["a2b1c2d2"])
    def f(x):
        return jax.shard_map(lambda x: jax.lax.psum(x, ("b", "c")), mesh=mesh, in_specs=P(("a", "b"), "c"), out_specs=P("a"), axis_names={"a", "b", "c"})(x)
    return f, (arr((4, 4)),), {}, {}


# ---------------------------------------------------------------- constraints, shard_alike, explicit sharding
for _mesh_name in ["x8", "x2y4", "d2m2t2", "a2b1c2d2", "x1y8"]:
    @program(f"sharding_constraints_{_mesh_name}")
    def _wsc(mesh_name=_mesh_name):
        jax, jnp = jax_jnp()
        from jax.sharding import PartitionSpec as P
        mesh = make_mesh(*MESHES[mesh_name]); names = mesh.axis_names
        def f(x, w):
            y = jax.lax.with_sharding_constraint(x @ w, named(mesh, names[0], names[-1] if len(names) > 1 else None))
            z = jax.lax.with_sharding_constraint(jnp.exp(y), named(mesh, P.UNCONSTRAINED, None))
            return jax.lax.with_sharding_constraint(z.T, named(mesh, tuple(names), None))
        return f, (arr((8, 8)), arr((8, 8), seed=1)), {}, {}

@program("shard_alike")
def _alike():
    jax, jnp = jax_jnp()
    from jax.experimental.shard_alike import shard_alike
    mesh = make_mesh(*MESHES["x2y4"])
    def f(x, y):
        a, b = shard_alike(x * 2, y + 1)
        c, d = shard_alike(a, jnp.sin(b))
        return c + d
    return f, (arr((8, 8)), arr((8, 8), seed=1)), dict(in_shardings=(named(mesh, "x"), None)), {}

@program("explicit_axes_matmul")
def _explicit():
    jax, jnp = jax_jnp()
    import numpy as np
    from jax.sharding import AxisType, NamedSharding, PartitionSpec as P
    mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    def f(a, b): return jnp.tanh(a @ b).sum(0)
    a = jax.device_put(arr((8, 16)), NamedSharding(mesh, P("x", None)))
    b = jax.device_put(arr((16, 8), seed=1), NamedSharding(mesh, P(None, "y")))
    return f, (a, b), {}, {}

@program("explicit_axes_reshard")
def _explicit2():
    jax, jnp = jax_jnp()
    import numpy as np
    from jax.sharding import AxisType, NamedSharding, PartitionSpec as P
    mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    def f(a):
        b = jax.sharding.reshard(a * 2, NamedSharding(mesh, P(None, "x")))
        return jnp.einsum("ij,jk->ik", a, b, out_sharding=NamedSharding(mesh, P("x", None)))
    return f, (jax.device_put(arr((8, 8)), NamedSharding(mesh, P("x", "y"))),), {}, {}

@program("mixed_axes_auto_explicit")
def _mixed():
    jax, jnp = jax_jnp()
    import numpy as np
    from jax.sharding import AxisType, NamedSharding, PartitionSpec as P
    mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"), axis_types=(AxisType.Explicit, AxisType.Auto))
    def f(a): return jnp.sin(a).sum(1)
    return f, (jax.device_put(arr((8, 8)), NamedSharding(mesh, P("x", "y"))),), {}, {}

@program("out_shardings_replicated_and_tuple")
def _outs():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x4y2"])
    def f(x): return x + 1, x.sum(0), (x * 2).reshape(4, 16)
    return f, (arr((8, 8)),), dict(in_shardings=named(mesh, ("x", "y")), out_shardings=(named(mesh), named(mesh, "y"), named(mesh, "x", "y"))), {}

@program("named_call_tril")
def _tril():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x2y4"])
    def f(x, y): return jnp.tril(x) + jnp.tril(y), jnp.triu(x, 1)
    return f, (arr((8, 8)), arr((8, 8), seed=1)), dict(in_shardings=(named(mesh, "x"), named(mesh, "y"))), {}

@program("named_scope_and_inner_jits")
def _inner():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x8"])
    @jax.jit
    def g(x): return jnp.cos(x) * 3
    @jax.jit
    def h(x): return g(x) + g(x * 2)
    def f(x):
        with jax.named_scope("outer"):
            return h(x) + jax.jit(lambda x: x ** 2)(x)
    return f, (arr((8, 4)),), dict(in_shardings=named(mesh, "x")), dict(debug_info=True)


# ---------------------------------------------------------------- dtypes
for _dtype in ["bfloat16", "float16", "int8", "uint8", "int16", "uint32", "int64", "float64", "bool"]:
    @program(f"dtype_{_dtype}")
    def _dtypes(dtype=_dtype):
        jax, jnp = jax_jnp()
        def f(x, y):
            if dtype == "bool": return x & y, x | ~y, jnp.where(x, 1, 2), jnp.sum(x)
            if dtype.startswith(("int", "uint")): return x + y, x * y, x // (y + 1), x % 3, jnp.max(x), x >> 1, x.astype("float32")
            return x + y, jnp.exp(x), x.astype("float32"), jnp.sum(x * y), jnp.floor(x), jnp.round(x)
        return f, (arr((4, 4), dtype), arr((4, 4), dtype, 1)), {}, {}

for _dtype in ["complex64", "complex128"]:
    @program(f"fft_{_dtype}")
    def _fft(dtype=_dtype):
        jax, jnp = jax_jnp()
        def f(x):
            y = jnp.fft.fft(x)
            z = jnp.fft.irfft(jnp.fft.rfft(x.real), n=x.shape[-1])
            return y, jnp.abs(y), y.real, y.imag, jnp.conj(y) * 2j, z, jnp.fft.fft2(x), jnp.angle(x)
        return f, (arr((8, 17), dtype),), {}, {}

@program("complex_matmul_sharded")
def _complex():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x2y4"])
    def f(a, b): return jnp.exp(1j * (a @ b)), jax.lax.complex(a, b)
    return f, (arr((8, 8), "float32"), arr((8, 8), "float32", 1)), dict(in_shardings=(named(mesh, "x"), named(mesh, None, "y"))), {}

@program("bf16_mixed_precision")
def _bf16():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x4y2"])
    def f(x, w):
        y = jnp.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        return jax.nn.softmax(y).astype(jnp.bfloat16), jax.lax.bitcast_convert_type(y, jnp.int32)
    return f, (arr((8, 8)), arr((8, 8), seed=1)), dict(in_shardings=(named(mesh, "x"), named(mesh, "y"))), {}


# ---------------------------------------------------------------- assorted ops
@program("special_functions")
def _special():
    jax, jnp = jax_jnp()
    def f(x):
        return (jax.scipy.special.erf(x), jax.scipy.special.erfinv(jnp.tanh(x)), jax.lax.lgamma(jnp.abs(x) + 1),
                jax.lax.digamma(jnp.abs(x) + 1), jnp.square(x), jnp.arctan2(x, 1 + x), jnp.sinh(x), jnp.arccos(jnp.tanh(x)),
                jax.scipy.special.logsumexp(x, axis=0), jnp.log1p(jnp.abs(x)), jnp.expm1(x), jnp.isnan(x), jnp.sign(x))
    return f, (arr((16, 32)),), {}, {}

@program("shape_ops")
def _shape():
    jax, jnp = jax_jnp()
    def f(x, i):
        return (jnp.pad(x, ((1, 2), (0, 3))), jnp.concatenate([x, x * 2, x[:, :1]], axis=1), x[::2, 1:7:3], jnp.flip(x, 0),
                jax.lax.dynamic_slice(x, (i, 1), (2, 3)), jax.lax.dynamic_update_slice(x, jnp.zeros((2, 2)), (i, i)),
                jnp.broadcast_to(x[:, None, :], (8, 3, 8)), jnp.transpose(x.reshape(2, 4, 8), (2, 0, 1)), jnp.roll(x, 3, 1),
                jnp.clip(x, -1, 1), jnp.stack([x, x]), jnp.tile(x[:2], (2, 2)), jnp.repeat(x[:2], 2, axis=0), jnp.eye(3) + i)
    return f, (arr((8, 8)), jnp.int32(2)), {}, {}

@program("reductions_variadic")
def _reduce():
    jax, jnp = jax_jnp()
    def f(x, b):
        return (x.sum((0, 2)), x.prod(1), x.max(), x.min(0), jnp.any(b), jnp.all(b, 1), x.mean(), x.var(1), jnp.std(x),
                jnp.linalg.norm(x[0]), jnp.count_nonzero(b))
    return f, (arr((3, 4, 5)), arr((4, 5), "bool")), {}, {}

@program("iota_select_clamp_compare")
def _iota():
    jax, jnp = jax_jnp()
    def f(x):
        i = jax.lax.iota(jnp.int32, 8)
        return jnp.where(i[:, None] > i[None, :], x, -x), jax.lax.clamp(-0.5, x, 0.5), jnp.maximum(x, 0) == x, jnp.arange(8) * 2
    return f, (arr((8, 8)),), {}, {}

@program("linalg_small")
def _linalg():
    jax, jnp = jax_jnp()
    def f(a):
        s = a @ a.T + 8 * jnp.eye(4)
        return jnp.linalg.cholesky(s), jnp.linalg.solve(s, a[:, 0]), jnp.linalg.det(s), jnp.linalg.qr(a)[0], jnp.linalg.eigh(s)[0]
    return f, (arr((4, 4)),), {}, {}

@program("optimization_barrier_and_stop_gradient")
def _barrier():
    jax, jnp = jax_jnp()
    def f(x, y):
        a, b = jax.lax.optimization_barrier((x * 2, y + 1))
        return jax.lax.stop_gradient(a) + b, jax.lax.reduce_precision(x, 5, 10), jax.lax.population_count(y.astype(jnp.int32))
    return f, (arr((4,)), arr((4,), seed=1)), {}, {}

@program("pure_callback_free_custom_calls")
def _cc():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x8"])
    def f(x):
        return jax.nn.one_hot(jnp.argmax(x, -1), 4), jax.lax.cumlogsumexp(x, axis=1), jax.lax.rng_bit_generator(jnp.zeros((4,), jnp.uint32), (2, 2))[1]
    return f, (arr((8, 4)),), dict(in_shardings=named(mesh, "x")), {}

@program("host_callbacks_sharded")
def _callbacks():
    jax, jnp = jax_jnp()
    import numpy as np
    mesh = make_mesh(*MESHES["x2y4"])
    def f(x):
        jax.debug.print("x sum {s}", s=x.sum())
        y = jax.pure_callback(lambda a: np.sin(a), jax.ShapeDtypeStruct(x.shape, x.dtype), x)
        return y * 2
    return f, (arr((8, 8)),), dict(in_shardings=named(mesh, "x", "y")), {}

@program("io_callback_ordered_tokens")
def _io_callback():
    jax, jnp = jax_jnp()
    import numpy as np
    from jax.experimental import io_callback
    from jax.sharding import PartitionSpec as P
    mesh = make_mesh(*MESHES["x2y4"])
    def f(x):
        # ordered effects thread a !stablehlo.token through main; each callback runs on device 0 (a maximal mesh)
        y = io_callback(lambda a: np.asarray(a) * 2, jax.ShapeDtypeStruct(x.shape, x.dtype), x, ordered=True)
        io_callback(lambda a: None, None, x.mean(), ordered=True)
        jax.debug.callback(lambda a: None, x[0])
        def body(a):
            jax.debug.print("shard sum {s}", s=a.sum())   # inside shard_map: a zero-result custom_call on the empty mesh
            return a * 2
        return y + jax.shard_map(body, mesh=mesh, in_specs=P("x", "y"), out_specs=P("x", "y"))(x)
    return f, (arr((8, 8)),), dict(in_shardings=named(mesh, "x", "y")), {}

@program("xla_metadata_on_region_ops")
def _xla_metadata():
    jax, jnp = jax_jnp()
    from jax.experimental.xla_metadata import set_xla_metadata
    from jax.sharding import PartitionSpec as P
    mesh = make_mesh(*MESHES["x2y4"])
    def f(x, i, u):
        # every op gets mhlo.frontend_attributes; an op in generic form with regions prints it after them,
        # on the line that closes them: `}) {mhlo.frontend_attributes = {...}} : (...) -> ...`
        with set_xla_metadata(stage="fwd", step=2):
            s = jnp.sort(x, axis=1)
            sc = x.at[i].add(u)
            c = jax.lax.cond(x[0, 0] > 0, jnp.sin, jnp.cos, x)
            rw = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (2, 2), (2, 2), "VALID")
            sm = jax.shard_map(lambda a: jax.lax.psum(a, "y"), mesh=mesh, in_specs=P("x", "y"), out_specs=P("x"))(x)
            w = jax.lax.fori_loop(0, 3, lambda k, c: c * 2, x)
        return s, sc, c, rw, sm, w
    return f, (arr((8, 8)), arr((3,), "int32"), arr((3, 8), seed=1)), dict(in_shardings=(named(mesh, "x"), None, None)), {}

@program("grad_of_scan_rnn")
def _rnn_grad():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x2y4"])
    def loss(w, h0, xs):
        def step(h, x):
            h = jnp.tanh(h @ w + x); return h, h
        _, hs = jax.lax.scan(step, h0, xs)
        return (hs ** 2).sum()
    return jax.value_and_grad(loss, argnums=(0, 1)), (arr((8, 8)), arr((4, 8), seed=1), arr((5, 4, 8), seed=2)), \
        dict(in_shardings=(named(mesh, None, "y"), named(mesh, "x"), None)), {}

@program("static_args_and_kwargs")
def _static():
    jax, jnp = jax_jnp()
    def f(x, *, n=3):
        for _ in range(n): x = jnp.sin(x) + x
        return x
    return f, (arr((5, 3)),), dict(static_argnames=("n",)), {}

@program("donation_inplace_update")
def _donate():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x2y4"])
    def f(buf, x, i): return jax.lax.dynamic_update_index_in_dim(buf, x, i, 0), buf.sum()
    return f, (arr((8, 16)), arr((16,), seed=1), jnp.int32(3)), \
        dict(in_shardings=(named(mesh, None, "y"), named(mesh, "y"), None), out_shardings=(named(mesh, None, "y"), None), donate_argnums=0), {}

@program("scalar_only")
def _scalar():
    jax, jnp = jax_jnp()
    return (lambda a, b: (a * b + 1, a > b, jnp.where(a > b, a, b))), (jnp.float32(2), jnp.float32(3)), {}, {}

@program("empty_and_zero_size")
def _empty():
    jax, jnp = jax_jnp()
    def f(x, y): return x.sum(), y * 2, jnp.zeros((0, 3))
    return f, (arr((0, 4)), arr((3,))), {}, {}

@program("many_outputs_pytree")
def _pytree():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["x8"])
    def f(d):
        return {"a": d["x"] + 1, "b": [d["y"] * 2, (d["x"] @ d["y"], d["x"].T)], "c": None}
    return f, ({"x": arr((8, 8)), "y": arr((8, 8), seed=1)},), dict(in_shardings=({"x": named(mesh, "x"), "y": named(mesh, None, "x")},)), dict(debug_info=True)

@program("layernorm_softmax_cross_entropy_grad")
def _ce():
    jax, jnp = jax_jnp()
    mesh = make_mesh(*MESHES["d2m2t2"])
    def loss(w, x, labels):
        logits = _layernorm(x, jnp) @ w
        return -jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=1).mean()
    return jax.grad(loss), (arr((16, 10)), arr((8, 16), seed=1), arr((8,), "int32")), \
        dict(in_shardings=(named(mesh, None, "model"), named(mesh, "data"), named(mesh, "data"))), {}

@program("vmap_of_grad_per_example")
def _per_ex():
    jax, jnp = jax_jnp()
    def f(w, xs):
        return jax.vmap(jax.grad(lambda w, x: jnp.sum(jnp.tanh(x @ w) ** 2)), in_axes=(None, 0))(w, xs)
    return f, (arr((4, 3)), arr((5, 2, 4), seed=1)), {}, {}

@program("jvp_and_hessian")
def _jvp():
    jax, jnp = jax_jnp()
    def f(x):
        g = lambda x: jnp.sum(jnp.sin(x) ** 3)
        return jax.jvp(g, (x,), (jnp.ones_like(x),)), jax.hessian(g)(x)
    return f, (arr((4,)),), {}, {}

@program("mesh_size1_axes_everywhere")
def _size1():
    jax, jnp = jax_jnp()
    mesh = make_mesh((1, 1, 2, 4), ("p", "q", "x", "y"))
    def f(a, b): return jax.lax.with_sharding_constraint(a @ b, named(mesh, ("p", "x"), ("q", "y"))) + 1
    return f, (arr((8, 8)), arr((8, 8), seed=1)), dict(in_shardings=(named(mesh, "q", "p"), named(mesh, "x", "y"))), {}

@program("mesh_device_order_permuted")
def _perm():
    jax, jnp = jax_jnp()
    import numpy as np
    devs = np.array(jax.devices())[[3, 2, 1, 0, 7, 6, 5, 4]].reshape(2, 4)
    mesh = jax.sharding.Mesh(devs, ("x", "y"))
    def f(a): return jnp.cos(a) * 2
    return f, (arr((8, 8)),), dict(in_shardings=named(mesh, "x", "y"), out_shardings=named(mesh, "y", "x")), {}

@program("subset_mesh_4_devices")
def _subset():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2), ("i", "j"))
    def f(a): return a.sum(0), a * 3
    return f, (arr((4, 4)),), dict(in_shardings=named(mesh, "i", "j")), {}


# ---------------------------------------------------------------- more programs (tests/corpus/models.py, tests/corpus/features.py)
for _name, _builder in {**MODELS, **FEATURES}.items(): program(_name)(_builder)


X64 = {"dtype_int64", "dtype_float64", "fft_complex128"}   # lowered with jax_enable_x64


# ---------------------------------------------------------------- lowering (in a subprocess with 8 host devices)
def _lower(name):
    import jax
    with jax.enable_x64(name in X64):   # the arguments are made inside: 64-bit dtypes stay 64-bit here only
        fn, args, jit_kwargs, opts = CORPUS[name]()
        if "mesh" in opts:   # programs with explicit axes lower under their mesh
            with jax.set_mesh(opts["mesh"]): lowered = jax.jit(fn, **jit_kwargs).lower(*args)
        else: lowered = jax.jit(fn, **jit_kwargs).lower(*args)
        return lowered.as_text(debug_info=bool(opts.get("debug_info")))


def write_corpus(out_dir, names=None) -> None:
    "Lower every program (or those `names`) into `out_dir/NAME.mlir` (only in a process whose XLA_FLAGS ask for 8 devices)."
    import jax
    if len(jax.devices()) < 8: raise RuntimeError("the corpus needs 8 devices: run with XLA_FLAGS=--xla_force_host_platform_device_count=8")
    out = Path(out_dir); out.mkdir(parents=True, exist_ok=True)
    for name in names or CORPUS:
        (out / f"{name}.mlir").write_text(_lower(name))
    if not names: (out / "DONE").write_text(json.dumps(sorted(CORPUS)))


CORPUS_NAMES = sorted(CORPUS)


ROOT = Path(__file__).resolve().parents[2]
SOURCES = [Path(__file__).resolve().with_name(f) for f in ("programs.py", "builders.py", "models.py", "features.py")]


def corpus_key() -> str:
    "Cache key: the corpus sources and jax's version (read from its metadata, without importing jax)."
    from importlib.metadata import version
    h = hashlib.sha256(b"".join(p.read_bytes() for p in SOURCES))
    h.update(version("jax").encode()); h.update(version("jaxlib").encode())
    return h.hexdigest()[:16]


def default_cache_root() -> Path:
    return ROOT / ".pytest_cache" / "d" / "jax_corpus"


def lower_in_subprocess(out_dir, names=()) -> None:
    "Lower the corpus (or `names`) into `out_dir` in a fresh Python that sees 8 host devices."
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu",
               PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    r = subprocess.run([sys.executable, __file__, str(out_dir), *names], env=env, capture_output=True, text=True, timeout=600)
    if r.returncode != 0: raise RuntimeError(f"lowering the JAX corpus failed:\n{r.stderr[-4000:]}")


def load_corpus(cache_root=None) -> dict[str, str]:
    """Every corpus program's text, {name: text}; lowers them (in a subprocess) when the cache is cold.

    Processes sharing a cache (pytest-xdist's workers) take a file lock around the check and the lowering: the first
    lowers into a private directory and renames it into place complete, the others wait and read it."""
    import shutil
    from filelock import FileLock
    root = Path(cache_root) if cache_root is not None else default_cache_root()
    root.mkdir(parents=True, exist_ok=True)
    key = corpus_key(); d = root / key
    with FileLock(str(root / f"{key}.lock")):
        if not (d / "DONE").exists():
            tmp = root / f"{key}.tmp{os.getpid()}"
            shutil.rmtree(tmp, ignore_errors=True)
            lower_in_subprocess(tmp)
            shutil.rmtree(d, ignore_errors=True)   # an interrupted lowering's leftovers (no DONE)
            tmp.rename(d)
            for old in root.iterdir():   # caches of older sources
                if old.name.startswith(key): continue
                if old.is_dir(): shutil.rmtree(old, ignore_errors=True)
                else: old.unlink(missing_ok=True)
    return {n: (d / f"{n}.mlir").read_text() for n in CORPUS_NAMES}


try:
    import pytest

    @pytest.fixture(scope="session")
    def jax_corpus(request) -> dict[str, str]:
        "{name: text} of every corpus program, lowered once per cache (pytest's cache directory)."
        pytest.importorskip("jax")
        cache = getattr(request.config, "cache", None)   # absent under `-p no:cacheprovider`: then this run's temporary directory
        if cache is not None: root = cache.mkdir("jax_corpus")
        else:   # pytest-xdist's workers each have their own basetemp; its parent is the run's, shared by all of them
            base = request.getfixturevalue("tmp_path_factory").getbasetemp()
            root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "jax_corpus"
        return load_corpus(root)
except ImportError:   # pragma: no cover - usable without pytest
    pass


if __name__ == "__main__":
    if len(sys.argv) < 2: sys.exit("usage: PYTHONPATH=. python tests/corpus/programs.py OUT_DIR [NAME ...]")
    write_corpus(sys.argv[1], sys.argv[2:])
