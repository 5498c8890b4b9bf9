"""The auto-sharding chapter's models, written in JAX: one training step each (forward, backward and an SGD update of
every parameter), lowered on one device without shardings so that `auto_shard` chooses all of them.

`python tests/auto/models.py OUT_DIR [NAME ...]` writes `OUT_DIR/NAME.mlir`; jax is imported only there (tests and
bench/auto_shard.py run it in a subprocess)."""
from __future__ import annotations
import sys
from pathlib import Path

MODELS: dict = {}


def model(name):
    def deco(fn): MODELS[name] = fn; return fn
    return deco


def _ln(x, g, jnp):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    import jax
    return (x - m) * jax.lax.rsqrt(v + 1e-5) * g


def _train_step(loss, jax):
    "One SGD step of `loss(params, *batch)`: returns (loss, new params)."
    def step(params, *batch):
        l, g = jax.value_and_grad(loss)(params, *batch)
        return l, jax.tree_util.tree_map(lambda p, d: p - 1e-3 * d, params, g)
    return step


def _gpt2_block(x, p, jnp, jax, heads):
    B, S, D = x.shape
    h = _ln(x, p["g1"], jnp)
    qkv = h @ p["wqkv"]                                   # [B, S, 3D]
    q, k, v = jnp.split(qkv, 3, axis=-1)
    q, k, v = (t.reshape(B, S, heads, D // heads) for t in (q, k, v))
    a = jnp.einsum("bqhd,bkhd->bhqk", q, k) / (D // heads) ** 0.5
    a = jnp.where(jnp.tril(jnp.ones((S, S), bool)), a, -1e9)
    a = jax.nn.softmax(a, -1)
    o = jnp.einsum("bhqk,bkhd->bqhd", a, v).reshape(B, S, D)
    x = x + o @ p["wo"]
    h = _ln(x, p["g2"], jnp)
    return x + jax.nn.gelu(h @ p["w1"]) @ p["w2"]


def _gpt2_params(D, jnp, L=None):
    import jax
    s = lambda *shape: jax.ShapeDtypeStruct(shape, jnp.float32)
    one = dict(g1=s(D), wqkv=s(D, 3 * D), wo=s(D, D), g2=s(D), w1=s(D, 4 * D), w2=s(4 * D, D))
    return one if L is None else [dict(one) for _ in range(L)]


@model("mlp2")
def _mlp():
    import jax, jax.numpy as jnp
    B, D, H = 256, 1024, 4096
    s = lambda *shape: jax.ShapeDtypeStruct(shape, jnp.float32)
    def loss(p, x, y): return ((jax.nn.relu(x @ p["w1"]) @ p["w2"] - y) ** 2).mean()
    return _train_step(loss, jax), (dict(w1=s(D, H), w2=s(H, D)), s(B, D), s(B, D))


def _gpt2(L):
    import jax, jax.numpy as jnp
    B, S, D, heads = 8, 1024, 768, 12
    s = lambda *shape: jax.ShapeDtypeStruct(shape, jnp.float32)
    def loss(ps, x):
        y = x
        for p in (ps if L else [ps]): y = _gpt2_block(y, p, jnp, jax, heads)
        return (y * y).mean()
    return _train_step(loss, jax), (_gpt2_params(D, jnp, L or None), s(B, S, D))


@model("gpt2_block")
def _gpt2_1(): return _gpt2(0)


@model("gpt2_stack12")
def _gpt2_12(): return _gpt2(12)


@model("llama_block")
def _llama():
    import jax, jax.numpy as jnp
    B, S, D, H, KV, F = 4, 2048, 2048, 16, 4, 5632
    hd = D // H
    s = lambda *shape: jax.ShapeDtypeStruct(shape, jnp.float32)
    def rms(x, g): return x * jax.lax.rsqrt((x * x).mean(-1, keepdims=True) + 1e-6) * g
    def loss(p, x):
        h = rms(x, p["g1"])
        q = (h @ p["wq"]).reshape(B, S, KV, H // KV, hd)
        k = (h @ p["wk"]).reshape(B, S, KV, hd)
        v = (h @ p["wv"]).reshape(B, S, KV, hd)
        a = jnp.einsum("bqgrd,bkgd->bgrqk", q, k) / hd ** 0.5
        a = jnp.where(jnp.tril(jnp.ones((S, S), bool)), a, -1e9)
        o = jnp.einsum("bgrqk,bkgd->bqgrd", jax.nn.softmax(a, -1), v).reshape(B, S, D)
        x = x + o @ p["wo"]
        h = rms(x, p["g2"])
        y = x + (jax.nn.silu(h @ p["wg"]) * (h @ p["wu"])) @ p["wd"]
        return (y * y).mean()
    params = dict(g1=s(D), wq=s(D, D), wk=s(D, KV * hd), wv=s(D, KV * hd), wo=s(D, D), g2=s(D), wg=s(D, F), wu=s(D, F), wd=s(F, D))
    return _train_step(loss, jax), (params, s(B, S, D))


@model("moe_layer")
def _moe():
    import jax, jax.numpy as jnp
    T, D, F, E, K = 4096, 1024, 4096, 8, 2
    C = 2 * T * K // E   # capacity per expert
    s = lambda *shape: jax.ShapeDtypeStruct(shape, jnp.float32)
    def loss(p, x):
        gates = jax.nn.softmax(x @ p["router"], -1)              # [T, E]
        top, idx = jax.lax.top_k(gates, K)                       # [T, K]
        onehot = jax.nn.one_hot(idx, E)                          # [T, K, E]
        pos = jnp.cumsum(onehot.reshape(T * K, E), 0).reshape(T, K, E) * onehot
        dispatch = (onehot[..., None] * jax.nn.one_hot(pos.sum(-1) - 1, C)[:, :, None, :]).sum(1)   # [T, E, C]
        combine = (top[:, :, None, None] * onehot[..., None] * jax.nn.one_hot(pos.sum(-1) - 1, C)[:, :, None, :]).sum(1)
        xe = jnp.einsum("tec,td->ecd", dispatch, x)
        h = jax.nn.gelu(jnp.einsum("ecd,edf->ecf", xe, p["w1"]))
        ye = jnp.einsum("ecf,efd->ecd", h, p["w2"])
        y = jnp.einsum("tec,ecd->td", combine, ye)
        return ((x + y) ** 2).mean()
    return _train_step(loss, jax), (dict(router=s(D, E), w1=s(E, D, F), w2=s(E, F, D)), s(T, D))


@model("wide_resnet_bottleneck")
def _wrn():
    import jax, jax.numpy as jnp
    N, H, W, C, M = 32, 28, 28, 1024, 512
    s = lambda *shape: jax.ShapeDtypeStruct(shape, jnp.float32)
    conv = lambda x, w, pad: jax.lax.conv_general_dilated(x, w, (1, 1), pad, dimension_numbers=("NHWC", "HWIO", "NHWC"))
    def bn(x, g): m = x.mean((0, 1, 2)); v = ((x - m) ** 2).mean((0, 1, 2)); return (x - m) * jax.lax.rsqrt(v + 1e-5) * g
    def loss(p, x):
        h = jax.nn.relu(bn(conv(x, p["w1"], "VALID"), p["g1"]))
        h = jax.nn.relu(bn(conv(h, p["w2"], "SAME"), p["g2"]))
        h = bn(conv(h, p["w3"], "VALID"), p["g3"])
        return (jax.nn.relu(h + x) ** 2).mean()
    params = dict(w1=s(1, 1, C, M), g1=s(M), w2=s(3, 3, M, M), g2=s(M), w3=s(1, 1, M, C), g3=s(C))
    return _train_step(loss, jax), (params, s(N, H, W, C))


def lower(name: str) -> str:
    import jax
    fn, args = MODELS[name]()
    return jax.jit(fn).lower(*args).as_text()


if __name__ == "__main__":
    out = Path(sys.argv[1]); out.mkdir(parents=True, exist_ok=True)
    for name in sys.argv[2:] or MODELS: (out / f"{name}.mlir").write_text(lower(name))
