"""Writes shardnb/data/transformer_block.mlir: one pre-norm transformer block and a vocabulary head, lowered by JAX for a 2x4 mesh
("data", "model"). Run from the repository root: `python tools/make_transformer_block.py` (it asks XLA for 8
host devices, so run it in a fresh process). The input is sharded by batch over "data", the attention and first MLP
weights by their output dim over "model"; the second MLP weight and the head are left to propagation; the logits are
constrained to shard the vocabulary (17 entries) over "model", which does not divide it (jax#26946)."""
import os
os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

B, S, D, H, V = 8, 16, 32, 4, 17


def layernorm(x):
    m = x.mean(-1, keepdims=True)
    return (x - m) / jnp.sqrt(((x - m) ** 2).mean(-1, keepdims=True) + 1e-5)


def block(x, wq, wk, wv, wo, w1, w2, head):
    b, s, d = x.shape
    h = layernorm(x)
    q, k, v = ((h @ w).reshape(b, s, H, d // H) for w in (wq, wk, wv))
    logits = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(d // H).astype(np.float32)
    logits = jnp.where(jnp.tril(jnp.ones((s, s), bool)), logits, -1e9)
    o = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(logits, -1), v).reshape(b, s, d)
    x = x + o @ wo
    x = x + jax.nn.gelu(layernorm(x) @ w1) @ w2
    return jax.lax.with_sharding_constraint(x @ head, NamedSharding(mesh, P(None, None, "model")))


mesh = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("data", "model"))
shapes = [(B, S, D), (D, D), (D, D), (D, D), (D, D), (D, 4 * D), (4 * D, D), (D, V)]
specs = [P("data"), P(None, "model"), P(None, "model"), P(None, "model"), P("model", None), P(None, "model"), None, None]
args = [jax.ShapeDtypeStruct(s, jnp.float32) for s in shapes]
shard = [NamedSharding(mesh, p) if p is not None else None for p in specs]
text = jax.jit(block, in_shardings=shard).lower(*args).as_text()
(Path(__file__).resolve().parent.parent / "shardnb" / "data" / "transformer_block.mlir").write_text(text)
print(f"wrote {len(text)} characters")
