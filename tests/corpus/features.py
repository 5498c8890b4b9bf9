"""A second round of real JAX programs for the corpus, unlike those of tests/corpus/programs.py and tests/corpus/models.py:
host callbacks inside control flow, custom_jvp/custom_vjp, checkpoint policies (named, offloading), shard_alike groups,
shard_map without VMA checking, scans inside shard_map and shard_map inside loops, axis_index, pmax/pmin/pmean,
tiled psum_scatter, all_to_all on several axes, 2-axis ppermute rings, cond/switch with constraints in branches,
multi-carry while loops, variadic reduces, multi-key sorts, pooling with padding/strides/dilation, batch-grouped, lhs
dilated and 3D convolutions, broadcasting einsums, multi batch/contracting dot_generals, norms and determinants, top_k,
one_hot, take_along_axis, searchsorted, reverse cumulative ops, dynamic_update_slice into sharded buffers, pad modes,
roll, integer/bitwise ops and converts, complex numbers, PRNG implementations, rfft/irfftn, head splits over two axes,
many mesh shapes and device orders, disagreeing in/out shardings, donation, static args, keep_unused, programs with
no annotations or only out_shardings, unconstrained dims and dims their axes don't divide.

Builders follow `tests/corpus/builders.py`'s convention; `tests/corpus/programs.py` registers every program here in
its `CORPUS`.
"""
from __future__ import annotations

from tests.corpus.builders import U, arr, constrain, jax_jnp, make_mesh, named, registrar, spec

PROGRAMS: dict = {}
program = registrar(PROGRAMS)


# ------------------------------------------------------------------ host callbacks inside control flow
@program("callbacks_in_scan_and_cond_sharded")
def _cb_scan():
    import numpy as np
    jax, jnp = jax_jnp()
    from jax.experimental import io_callback
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(xs, w):
        def step(c, x):
            h = jnp.tanh(x @ w + c)
            jax.debug.print("step norm {n}", n=jnp.linalg.norm(h))
            s = jax.pure_callback(lambda a: np.cumsum(a, -1).astype(a.dtype), jax.ShapeDtypeStruct(h.shape, h.dtype), h,
                                  vmap_method="sequential")
            return c + 0.1 * s, s.sum()
        c, ys = jax.lax.scan(step, jnp.zeros((4, 16)), xs)
        c = jax.lax.cond(ys.sum() > 0, lambda c: io_callback(lambda a: np.asarray(a) * 2, jax.ShapeDtypeStruct(c.shape, c.dtype), c),
                         lambda c: c * 3, c)
        return constrain(c, mesh, "x", "y"), ys
    return f, (arr((5, 4, 16)), arr((16, 16), seed=1)), dict(in_shardings=(named(mesh, None, "x"), named(mesh, None, "y"))), {}


@program("pure_callback_with_sharding_arg_and_vmap")
def _cb_sharding():
    import numpy as np
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("a", "b"))
    def f(x):
        shp = jax.ShapeDtypeStruct((8, 6), jnp.float32)
        y = jax.pure_callback(lambda a: np.sort(a, -1), shp, x, sharding=jax.sharding.SingleDeviceSharding(jax.devices()[0]))
        z = jax.vmap(lambda r: jax.pure_callback(lambda q: np.flip(q, -1), jax.ShapeDtypeStruct(r.shape, r.dtype), r,
                                                 vmap_method="broadcast_all"))(x)
        jax.debug.callback(lambda a, b: None, y.max(), z[:, 0])
        return y + z
    return f, (arr((8, 6)),), dict(in_shardings=named(mesh, "a", "b"), out_shardings=named(mesh, None, "b")), dict(debug_info=True)


# ------------------------------------------------------------------ custom differentiation rules
@program("custom_jvp_softplus_mlp_grad")
def _cjvp():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("data", "model"))
    @jax.custom_jvp
    def softplus(x): return jnp.logaddexp(x, 0.0)
    @softplus.defjvp
    def _jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return softplus(x), jax.nn.sigmoid(x) * t
    def loss(p, x, y):
        h = softplus(x @ p["w1"])
        h = constrain(h, mesh, "data", "model")
        return ((h @ p["w2"] - y) ** 2).mean()
    p = dict(w1=arr((12, 16)), w2=arr((16, 3), seed=1))
    ps = dict(w1=named(mesh, None, "model"), w2=named(mesh, "model", None))
    return jax.value_and_grad(loss), (p, arr((8, 12), seed=2), arr((8, 3), seed=3)), \
        dict(in_shardings=(ps, named(mesh, "data"), named(mesh, "data"))), {}


@program("custom_vjp_gradient_clip_residuals")
def _cvjp():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    @jax.custom_vjp
    def clip_mm(x, w): return x @ w
    def fwd(x, w): return x @ w, (x, w, jnp.linalg.norm(x, axis=-1))
    def bwd(res, g):
        x, w, n = res
        g = constrain(g, mesh, ("a", "b"), "c")
        gx = (g @ w.T) / jnp.maximum(n, 1.0)[:, None]
        gw = jnp.clip(x.T @ g, -1.0, 1.0)
        return gx, gw
    clip_mm.defvjp(fwd, bwd)
    def loss(x, w1, w2): return jnp.sum(jnp.sin(clip_mm(jnp.tanh(clip_mm(x, w1)), w2)))
    return jax.grad(loss, argnums=(0, 1, 2)), (arr((8, 12)), arr((12, 8), seed=1), arr((8, 4), seed=2)), \
        dict(in_shardings=(named(mesh, "a", None), named(mesh, None, ("b", "c")), named(mesh, "c", None))), {}


@program("custom_vjp_inside_shard_map")
def _cvjp_smap():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("dp", "tp"))
    @jax.custom_vjp
    def f_(x): return jnp.exp(x) / jnp.exp(x).sum(-1, keepdims=True)
    def fwd(x):
        y = f_(x); return y, y
    def bwd(y, g): return (y * (g - (g * y).sum(-1, keepdims=True)),)
    f_.defvjp(fwd, bwd)
    def loss(x, w):
        def body(x, w):
            return jax.lax.psum(f_(x @ w).sum(), ("dp", "tp"))
        return jax.shard_map(body, mesh=mesh, in_specs=(spec("dp", None), spec(None, "tp")), out_specs=spec())(x, w)
    return jax.grad(loss, argnums=1), (arr((8, 6)), arr((6, 16), seed=1)), \
        dict(in_shardings=(named(mesh, "dp"), named(mesh, None, "tp"))), {}


# ------------------------------------------------------------------ checkpoint policies
@program("checkpoint_save_only_these_names_mlp")
def _remat_names():
    jax, jnp = jax_jnp()
    from jax.ad_checkpoint import checkpoint_name
    mesh = make_mesh((2, 4), ("fsdp", "tp"))
    def block(x, w1, w2):
        h = checkpoint_name(x @ w1, "proj_in")
        h = jax.nn.gelu(h)
        h = checkpoint_name(h, "act")
        return x + constrain(h @ w2, mesh, "fsdp", None)
    pol = jax.checkpoint_policies.save_only_these_names("proj_in")
    def loss(x, w1, w2):
        y = jax.checkpoint(block, policy=pol)(x, w1, w2)
        y = jax.checkpoint(block, policy=jax.checkpoint_policies.save_any_names_but_these("act"))(y, w1, w2)
        return (y ** 2).sum()
    return jax.grad(loss, argnums=(1, 2)), (arr((8, 16)), arr((16, 32), seed=1), arr((32, 16), seed=2)), \
        dict(in_shardings=(named(mesh, "fsdp"), named(mesh, "fsdp", "tp"), named(mesh, "tp", "fsdp"))), {}


@program("checkpoint_offload_policy_scan")
def _remat_offload():
    jax, jnp = jax_jnp()
    from jax.ad_checkpoint import checkpoint_name
    mesh = make_mesh((4, 2), ("x", "y"))
    pol = jax.checkpoint_policies.save_and_offload_only_these_names(
        names_which_can_be_saved=["keep"], names_which_can_be_offloaded=["off"], offload_src="device", offload_dst="pinned_host")
    def layer(c, w):
        h = checkpoint_name(jnp.tanh(c @ w), "off")
        g = checkpoint_name(jnp.sin(h), "keep")
        return constrain(g @ w.T + c, mesh, "x", "y"), None
    def loss(x, ws):
        y, _ = jax.lax.scan(jax.checkpoint(layer, policy=pol), x, ws)
        return y.sum()
    return jax.grad(loss, argnums=(0, 1)), (arr((8, 8)), arr((3, 8, 8), seed=1)), \
        dict(in_shardings=(named(mesh, "x", "y"), named(mesh, None, "y", None))), {}


@program("checkpoint_dots_no_batch_and_offload_dots")
def _remat_dots():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def attn(q, k, v):
        s = jnp.einsum("bqd,bkd->bqk", q, k)
        return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(s, -1), v) @ jnp.eye(8)
    def loss(q, k, v):
        o1 = jax.checkpoint(attn, policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable)(q, k, v)
        o2 = jax.checkpoint(attn, policy=jax.checkpoint_policies.offload_dot_with_no_batch_dims("device", "pinned_host"))(o1, k, v)
        return jnp.sum(o2 * o1)
    return jax.grad(loss, argnums=(0, 1, 2)), (arr((4, 6, 8)), arr((4, 6, 8), seed=1), arr((4, 6, 8), seed=2)), \
        dict(in_shardings=(named(mesh, "a", None, "b"), named(mesh, "a", "c"), named(mesh, None, None, ("b", "c")))), {}


# ------------------------------------------------------------------ shard_alike (sharding groups)
@program("shard_alike_groups_across_loop_and_constraint")
def _alike2():
    jax, jnp = jax_jnp()
    from jax.experimental.shard_alike import shard_alike
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(a, b, c):
        a2, b2 = shard_alike(a * 2, b.T)
        b3, c2 = shard_alike(b2 + 1, c)     # chains group {a*2, b.T, b2+1, c}
        def body(i, carry):
            u, v = carry
            u, v = shard_alike(u + v, v * 0.5)
            return u, v
        u, v = jax.lax.fori_loop(0, 3, body, (a2, c2))
        w = constrain(u @ v.T, mesh, None, "y")
        return w, b3
    return f, (arr((8, 16)), arr((16, 8), seed=1), arr((8, 16), seed=2)), \
        dict(in_shardings=(None, named(mesh, "y", "x"), None)), {}


@program("shard_alike_unannotated_only")
def _alike3():
    jax, jnp = jax_jnp()
    from jax.experimental.shard_alike import shard_alike
    def f(x, y):
        p, q = shard_alike(x, y)
        r, s = shard_alike(jnp.exp(p), q @ jnp.ones((4, 4)))
        return r - s
    return f, (arr((8, 4)), arr((8, 4), seed=1)), {}, {}


# ------------------------------------------------------------------ shard_map variants
@program("shard_map_check_vma_off_collectives")
def _smap_novma():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def body(a, b):
        i = jax.lax.axis_index("y")
        m = jax.lax.pmax(a.max(), "y")
        n = jax.lax.pmin(a.min(), ("x", "y"))
        mu = jax.lax.pmean(b, "x")
        return (a - m) * (i + 1) + n, mu
    def f(a, b):
        return jax.shard_map(body, mesh=mesh, in_specs=(spec("x", "y"), spec("y")), out_specs=(spec("x", "y"), spec("y")), check_vma=False)(a, b)
    return f, (arr((8, 16)), arr((16, 4), seed=1)), {}, {}


@program("scan_inside_shard_map_ring_matmul")
def _scan_in_smap():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4,), ("r",), devs=(3, 1, 0, 2))
    n = 4
    def body(x, w):
        def step(carry, i):
            acc, wb = carry
            idx = (jax.lax.axis_index("r") + i) % n
            acc = jax.lax.dynamic_update_slice_in_dim(acc, x @ wb, idx * wb.shape[1], axis=1)
            wb = jax.lax.ppermute(wb, "r", [(j, (j - 1) % n) for j in range(n)])
            return (acc, wb), None
        (acc, _), _ = jax.lax.scan(step, (jax.lax.pcast(jnp.zeros((x.shape[0], w.shape[1] * n)), ("r",), to="varying"), w), jnp.arange(n))
        return acc
    def f(x, w):
        return jax.shard_map(body, mesh=mesh, in_specs=(spec("r"), spec(None, "r")), out_specs=spec("r"))(x, w)
    return f, (arr((8, 6)), arr((6, 8), seed=1)), {}, {}


@program("shard_map_in_while_loop_partial_auto")
def _smap_in_while():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    sm = jax.shard_map(lambda c: jax.lax.psum(c * c, "x") / 2.0, mesh=mesh, in_specs=spec("x"), out_specs=spec(), axis_names={"x"})
    def f(x):
        def cond(s): return (s[1] < 4) & (jnp.abs(s[0]).max() < 1e6)
        def body(s):
            c, i = s
            y = sm(c)
            y = constrain(y, mesh, None, "y")
            return jnp.concatenate([y, y], 0) + 1.0, i + 1
        return jax.lax.while_loop(cond, body, (x, 0))
    return f, (arr((8, 8)),), dict(in_shardings=named(mesh, "x", "y")), {}


@program("shard_map_psum_scatter_tiled_all_gather_2axes")
def _smap_rs():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("dp", "tp"))
    def body(x, w1, w2):
        x = jax.lax.all_gather(x, "tp", axis=1, tiled=True)
        h = jax.nn.relu(x @ w1)
        y = h @ w2
        y = jax.lax.psum_scatter(y, "tp", scatter_dimension=1, tiled=True)
        z = jax.lax.psum_scatter(y, "dp", scatter_dimension=0, tiled=False)
        return y, z
    def f(x, w1, w2):
        return jax.shard_map(body, mesh=mesh, in_specs=(spec("dp", "tp"), spec(None, "tp"), spec("tp", None)),
                             out_specs=(spec("dp", "tp"), spec(("dp", "tp"))))(x, w1, w2)
    return f, (arr((4, 8)), arr((8, 16), seed=1), arr((16, 8), seed=2)), {}, {}


@program("shard_map_all_to_all_split_concat_axes")
def _smap_a2a():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def body(x):
        y = jax.lax.all_to_all(x, "a", split_axis=2, concat_axis=0, tiled=True)
        z = jax.lax.all_to_all(y, ("b", "c"), split_axis=1, concat_axis=2, tiled=True)
        w = jax.lax.all_to_all(z.reshape(2, -1, z.shape[2]), "b", split_axis=0, concat_axis=0)
        return z, w
    def f(x):
        return jax.shard_map(body, mesh=mesh, in_specs=spec("a", None, ("b", "c")), out_specs=(spec(("a", "b", "c")), spec("b", "a")), check_vma=False)(x)
    return f, (arr((8, 16, 8)),), {}, {}


@program("ppermute_ring_over_two_axis_mesh")
def _smap_ring2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"), devs=(0, 2, 4, 6, 1, 3, 5, 7))
    def body(x):
        perm = [(i, (i + 1) % 8) for i in range(8)]
        a = jax.lax.ppermute(x, ("x", "y"), perm)
        b = jax.lax.ppermute(x, "y", [(i, (i + 2) % 4) for i in range(4)])
        c = jax.lax.ppermute(x, "x", [(0, 1), (1, 0)])
        return a + b * c
    def f(x):
        return jax.shard_map(body, mesh=mesh, in_specs=spec(("x", "y")), out_specs=spec(("x", "y")))(x)
    return f, (arr((16, 4)),), {}, {}


@program("cond_inside_shard_map_on_axis_index")
def _smap_cond():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("p", "q"))
    def body(x, y):
        i = jax.lax.axis_index("p")
        z = jax.lax.cond(i % 2 == 0, lambda a, b: a @ b, lambda a, b: -(a @ b), x, y)
        z = jax.lax.switch(jnp.minimum(i, 2), [lambda t: t, lambda t: t * 2, lambda t: jnp.sin(t)], z)
        return jax.lax.psum(z, "q")
    def f(x, y):
        return jax.shard_map(body, mesh=mesh, in_specs=(spec("p", "q"), spec("q", None)), out_specs=spec("p"))(x, y)
    return f, (arr((8, 8)), arr((8, 6), seed=1)), dict(in_shardings=(named(mesh, "p"), None)), {}


@program("shard_map_auto_axes_with_constraint_and_out_unconstrained")
def _smap_auto():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def body(x, w):
        h = x @ w
        h = jax.lax.with_sharding_constraint(h, spec(None, "b"))   # "b" is an auto axis inside
        return jax.lax.psum(h, "a")
    def f(x, w):
        y = jax.shard_map(body, mesh=mesh, in_specs=(spec(None, "a"), spec("a", None)), out_specs=spec(), axis_names={"a"})(x, w)
        return constrain(y * 2, mesh, U, "c")
    return f, (arr((8, 8)), arr((8, 8), seed=1)), dict(in_shardings=(named(mesh, "c", "a"), None)), {}


# ------------------------------------------------------------------ control flow with sharded operands
@program("cond_branches_with_different_constraints")
def _cond2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(p, a, b):
        def t(a, b): return constrain(a @ b, mesh, "x", "y"), constrain(a.sum(0), mesh, "y")
        def e(a, b): return constrain((a * 2) @ b, mesh, "y", None), jnp.zeros(a.shape[1])
        return jax.lax.cond(p > 0, t, e, a, b)
    return f, (jnp.float32(1.0), arr((8, 16)), arr((16, 8), seed=1)), \
        dict(in_shardings=(None, named(mesh, None, "y"), named(mesh, "y", None))), {}


@program("switch_on_argmax_sharded_operands")
def _switch2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((8,), ("d",))
    def f(logits, x):
        k = jnp.argmax(logits.sum(0)).astype(jnp.int32)
        branches = [lambda x: constrain(x, mesh, None, "d"), lambda x: x.T.T * 2, lambda x: jnp.cumsum(x, 0), lambda x: constrain(x[::-1], mesh, "d", None)]
        return jax.lax.switch(k, branches, x)
    return f, (arr((8, 4)), arr((16, 8), seed=1)), dict(in_shardings=(named(mesh, "d"), named(mesh, "d"))), {}


@program("while_loop_carries_of_several_shapes")
def _while3():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(m, v, s):
        def cond(c): return (c[3] < 5) & (c[2] > 1e-3)
        def body(c):
            m, v, s, i, hist = c
            v = m @ v
            s = jnp.linalg.norm(v)
            v = v / s
            m = constrain(m - 0.01 * jnp.outer(v, v), mesh, "x", "y")
            hist = hist.at[i].set(s)
            return m, v, s, i + 1, hist
        return jax.lax.while_loop(cond, body, (m, v, s, jnp.int32(0), jnp.zeros((8,))))
    return f, (arr((16, 16)), arr((16,), seed=1), jnp.float32(1.0)), \
        dict(in_shardings=(named(mesh, "x", "y"), named(mesh, "y"), None)), {}


@program("fori_loop_dynamic_update_slice_kv_cache")
def _kvcache():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("batch", "heads"))
    def f(cache, x, wk):
        def body(t, cache):
            k = jnp.einsum("bd,dhk->bhk", x[:, t], wk)
            return jax.lax.dynamic_update_slice(cache, k[:, None], (0, t, 0, 0))
        cache = jax.lax.fori_loop(0, x.shape[1], body, cache)
        return constrain(cache, mesh, "batch", None, "heads", None)
    return f, (jnp.zeros((4, 8, 4, 6)), arr((4, 8, 12)), arr((12, 4, 6), seed=1)), \
        dict(in_shardings=(named(mesh, "batch", None, "heads"), named(mesh, "batch"), named(mesh, None, "heads")), donate_argnums=0), {}


# ------------------------------------------------------------------ reductions, sorts, windows
@program("variadic_reduce_argmax_with_custom_comparator")
def _vreduce():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(v):
        idx = jax.lax.broadcasted_iota(jnp.int32, v.shape, 1)
        def comb(a, b):
            (av, ai), (bv, bi) = a, b
            pick = (av > bv) | ((av == bv) & (ai < bi))
            return jnp.where(pick, av, bv), jnp.where(pick, ai, bi)
        mv, mi = jax.lax.reduce((v, idx), (jnp.float32(-jnp.inf), jnp.int32(0)), comb, (1,))
        s, p, mx = jax.lax.reduce((v, v, v), (0.0, 1.0, -jnp.inf), lambda a, b: (a[0] + b[0], a[1] * b[1], jnp.maximum(a[2], b[2])), (0,))
        return mv, mi, s, p, mx
    return f, (arr((8, 16)),), dict(in_shardings=named(mesh, "x", "y")), {}


@program("sort_num_keys_two_of_three_operands")
def _sort3():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"), devs=(7, 6, 5, 4, 3, 2, 1, 0))
    def f(k1, k2, v):
        a, b, c = jax.lax.sort((k1, k2, v), dimension=1, num_keys=2, is_stable=True)
        d, e = jax.lax.sort((k2.T, v.T), dimension=0, num_keys=1)
        return constrain(c, mesh, "y", None), a, b, d, e
    return f, (arr((8, 16), "int32", hi=3), arr((8, 16), seed=1), arr((8, 16), seed=2)), \
        dict(in_shardings=(named(mesh, "x", "y"), named(mesh, "x"), named(mesh, None, "y"))), {}


@program("reduce_window_pooling_padding_strides_dilation")
def _pool2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def f(x):
        mx = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 3, 3, 1), (1, 2, 2, 1), ((0, 0), (1, 1), (1, 1), (0, 0)))
        av = jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 1, 1, 1), "SAME") / 4.0
        dl = jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 1, 1, 1), "VALID", window_dilation=(1, 2, 2, 1))
        bd = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID", base_dilation=(1, 2, 2, 1))
        return constrain(mx, mesh, "a", None, None, "c"), av, dl, bd
    return f, (arr((4, 8, 8, 6)),), dict(in_shardings=named(mesh, "a", "b", None, "c")), {}


@program("max_pool_grad_padded_via_vjp")
def _pool_grad2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("n", "c"))
    def loss(x):
        p = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 3, 3), (1, 1, 2, 2), ((0, 0), (0, 0), (1, 1), (1, 1)))
        a = jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 1, 3, 3), (1, 1, 2, 2), ((0, 0), (0, 0), (1, 1), (1, 1))) / 9.0
        return jnp.sum(constrain(p * a, mesh, "n", "c") ** 2)
    return jax.grad(loss), (arr((4, 6, 8, 8)),), dict(in_shardings=named(mesh, "n", "c")), {}


# ------------------------------------------------------------------ convolutions
@program("conv_batch_group_count_weight_grad")
def _conv_bgc():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(x, g):
        # weight gradient of a depthwise conv written directly with batch_group_count
        dw = jax.lax.conv_general_dilated(x, g, (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                          batch_group_count=4)
        fg = jax.lax.conv_general_dilated(x, jnp.ones((3, 3, 1, 8)), (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                          feature_group_count=4)
        return dw, constrain(fg, mesh, "x", None, None, "y")
    return f, (arr((4, 8, 8, 4)), arr((6, 6, 4, 8), seed=1)), dict(in_shardings=(named(mesh, "x", None, None, "y"), named(mesh, None, None, None, "x"))), {}


@program("conv_lhs_dilation_transposed_upsample")
def _conv_lhs():
    jax, jnp = jax_jnp()
    mesh = make_mesh((1, 8), ("data", "model"))
    def f(x, w):
        up = jax.lax.conv_general_dilated(x, w, (1, 1), ((2, 2), (2, 2)), lhs_dilation=(2, 2), rhs_dilation=(1, 1),
                                          dimension_numbers=("NCHW", "OIHW", "NCHW"))
        tr = jax.lax.conv_transpose(x, w.transpose(2, 3, 1, 0), (2, 2), "SAME", dimension_numbers=("NCHW", "HWIO", "NCHW"))
        return constrain(up, mesh, "data", "model"), tr
    return f, (arr((2, 8, 6, 6)), arr((16, 8, 3, 3), seed=1)), \
        dict(in_shardings=(named(mesh, "data", "model"), named(mesh, "model"))), {}


@program("conv3d_ndhwc_sharded_spatial_and_grad")
def _conv3d():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 1, 4), ("b", "one", "s"))
    def loss(x, w):
        y = jax.lax.conv_general_dilated(x, w, (1, 2, 2), ((1, 1), (0, 1), (1, 1)), dimension_numbers=("NDHWC", "DHWIO", "NDHWC"),
                                         rhs_dilation=(2, 1, 1))
        y = constrain(y, mesh, "b", "s", None, None, "one")
        return jnp.mean(jax.nn.relu(y) ** 2)
    return jax.value_and_grad(loss, argnums=(0, 1)), (arr((2, 8, 8, 8, 3)), arr((3, 3, 3, 3, 4), seed=1)), \
        dict(in_shardings=(named(mesh, "b", "s"), None)), {}


# ------------------------------------------------------------------ einsum / dot_general
@program("einsum_broadcasting_batch_dims_ellipsis")
def _einsum_bcast():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(a, b, c):
        ab = jnp.einsum("...ij,...jk->...ik", a, b)       # a [2,1,8,6] with b [1,3,6,4] -> broadcast batch
        abc = jnp.einsum("...ik,k->...i", ab, c)
        return constrain(ab, mesh, "x", None, "y", None), abc
    return f, (arr((2, 1, 8, 6)), arr((1, 4, 6, 4), seed=1), arr((4,), seed=2)), \
        dict(in_shardings=(named(mesh, "x", None, "y"), named(mesh, None, "y"), None)), {}


@program("dot_general_two_batch_two_contracting_differently_sharded")
def _dg2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def f(x, y):
        # x [B1, M, B2, K1, K2], y [K2, B2, B1, K1, N]
        dn = (((3, 4), (3, 0)), ((0, 2), (2, 1)))
        z = jax.lax.dot_general(x, y, dn)           # [B1, B2, M, N]
        return z, constrain(z, mesh, "b", "a", None, "c")
    return f, (arr((4, 6, 2, 4, 8)), arr((8, 2, 4, 4, 6), seed=1)), \
        dict(in_shardings=(named(mesh, "a", None, "b", "c"), named(mesh, None, "b", ("a", "c")))), {}


@program("dot_general_preferred_element_type_int8")
def _dg_int8():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(a, b, sa, sb):
        acc = jax.lax.dot_general(a, b, (((1,), (0,)), ((), ())), preferred_element_type=jnp.int32)
        return (acc.astype(jnp.float32) * sa[:, None] * sb[None, :]).astype(jnp.bfloat16)
    return f, (arr((16, 32), "int8", hi=100), arr((32, 8), "int8", seed=1, hi=100), arr((16,)), arr((8,), seed=2)), \
        dict(in_shardings=(named(mesh, "x", "y"), named(mesh, "y"), named(mesh, "x"), None), out_shardings=named(mesh, "x")), {}


# ------------------------------------------------------------------ assorted numpy ops on sharded dims
@program("linalg_norms_det_slogdet_batched")
def _norm_det():
    jax, jnp = jax_jnp()
    mesh = make_mesh((8, 1), ("b", "u"))
    def f(a, v):
        return (jnp.linalg.norm(a, axis=(-2, -1)), jnp.linalg.norm(a, ord=1, axis=(-2, -1)), jnp.linalg.norm(a, ord=jnp.inf, axis=(-2, -1)),
                jnp.linalg.norm(v, ord=3, axis=-1), jnp.linalg.det(a), jnp.linalg.slogdet(a)[1], jnp.linalg.norm(a, "nuc", axis=(-2, -1)))
    return f, (arr((8, 4, 4)), arr((8, 12), seed=1)), dict(in_shardings=(named(mesh, "b"), named(mesh, "b", "u"))), {}


@program("top_k_on_sharded_dim_and_gather_values")
def _topk2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(scores, emb):
        v, i = jax.lax.top_k(scores, 3)
        picked = jnp.take_along_axis(emb, i[..., None], axis=1)
        w = jax.nn.softmax(v, -1)[..., None] * picked
        return constrain(w.sum(1), mesh, "x", "y"), i
    return f, (arr((8, 32)), arr((8, 32, 16), seed=1)), dict(in_shardings=(named(mesh, "x", "y"), named(mesh, "x", "y"))), {}


@program("one_hot_take_along_axis_xent")
def _onehot():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("data", "vocab"))
    def f(logits, labels, idx):
        oh = jax.nn.one_hot(labels, logits.shape[-1], dtype=logits.dtype)
        oh = constrain(oh, mesh, "data", None, "vocab")
        xe = -(jax.nn.log_softmax(logits) * oh).sum(-1)
        tk = jnp.take_along_axis(logits, idx, axis=-1)
        tk2 = jnp.take_along_axis(logits, labels[..., None], axis=2, mode="fill", fill_value=-1.0)
        return xe, tk, tk2
    return f, (arr((4, 6, 32)), arr((4, 6), "int32", hi=32), arr((4, 6, 3), "int32", seed=1, hi=32)), \
        dict(in_shardings=(named(mesh, "data", None, "vocab"), named(mesh, "data"), None)), {}


@program("searchsorted_methods_and_digitize")
def _search2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(edges, q):
        edges = jnp.sort(edges)
        a = jnp.searchsorted(edges, q, side="left", method="scan")
        b = jnp.searchsorted(edges, q, side="right", method="sort")
        c = jnp.searchsorted(edges, q, method="compare_all")
        d = jax.vmap(lambda e, x: jnp.searchsorted(e, x, method="scan_unrolled"))(jnp.stack([edges, edges + 1]), q[:2])
        return a, b, constrain(c, mesh, "x", "y"), d
    return f, (arr((16,)), arr((8, 6), seed=1)), dict(in_shardings=(named(mesh, "x"), named(mesh, "x", "y"))), {}


@program("cumsum_reverse_cumprod_cummax_sharded")
def _cum():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(x):
        a = jax.lax.cumsum(x, axis=1, reverse=True)
        b = jax.lax.cumprod(x, axis=0)
        c = jax.lax.cummax(x, axis=1, reverse=True)
        d = jax.lax.cumlogsumexp(x, axis=0, reverse=True)
        e = jnp.cumsum(x.astype(jnp.int32), axis=1, dtype=jnp.int32)
        return constrain(a, mesh, "y", "x"), b, c, d, e
    return f, (arr((8, 16)),), dict(in_shardings=named(mesh, "x", "y")), {}


@program("pad_modes_reflect_edge_wrap_constant")
def _padmodes():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2), ("x", "y"))
    def f(img):
        r = jnp.pad(img, ((0, 0), (2, 2), (2, 2)), mode="reflect")
        e = jnp.pad(img, ((0, 0), (1, 0), (0, 3)), mode="edge")
        w = jnp.pad(img, ((0, 0), (3, 3), (1, 1)), mode="wrap")
        s = jnp.pad(img, ((0, 0), (1, 1), (1, 1)), mode="symmetric")
        c = jax.lax.pad(img, 0.0, ((0, 0, 0), (1, -1, 1), (-2, 2, 0)))
        return constrain(r, mesh, "x", "y"), e, w, s, c
    return f, (arr((4, 8, 8)),), dict(in_shardings=named(mesh, "x", "y")), {}


@program("roll_on_sharded_dims_static_and_dynamic")
def _roll():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(x, s):
        a = jnp.roll(x, 3, axis=0)
        b = jnp.roll(x, (-1, 5), axis=(0, 1))
        c = jnp.roll(x, s, axis=1)
        d = jnp.rot90(x, 1, axes=(0, 1)) if x.shape[0] == x.shape[1] else jnp.roll(x, -7)
        return constrain(a + b + c, mesh, "x", "y"), d
    return f, (arr((16, 8)), jnp.int32(3)), dict(in_shardings=(named(mesh, "x", "y"), None)), {}


@program("integer_bitwise_shifts_popcount_converts")
def _bits():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(a, b, m):
        u = a.astype(jnp.uint32)
        h = (u * jnp.uint32(0x9E3779B1)) ^ (u >> 16) ^ jax.lax.shift_left(u, jnp.uint32(5))
        p = jax.lax.population_count(h).astype(jnp.int8)
        z = jax.lax.clz(b)
        r = jax.lax.shift_right_arithmetic(b, jnp.int32(2)) | (b & 7)
        q = jnp.where(m, ~b, b // 3) % 5
        nb = jnp.logical_xor(m, h > 1000).astype(jnp.int8)
        return constrain(h, mesh, "y", None), p, z, r, q, nb, jax.lax.rem(a, jnp.int32(3))
    return f, (arr((8, 16), "int32", hi=1 << 20), arr((8, 16), "int32", seed=1, hi=1000), arr((8, 16), "bool", seed=2)), \
        dict(in_shardings=(named(mesh, "x", "y"), named(mesh, "x"), named(mesh, None, "y"))), {}


@program("dtype_converts_bool_f16_bf16_int8_uint8")
def _converts():
    jax, jnp = jax_jnp()
    mesh = make_mesh((8,), ("d",), devs=(1, 0, 3, 2, 5, 4, 7, 6))
    def f(x, q):
        h = x.astype(jnp.float16)
        bf = (h * 2).astype(jnp.bfloat16)
        i8 = jnp.clip(jnp.round(x * 20), -128, 127).astype(jnp.int8)
        u8 = q.astype(jnp.uint8) + jnp.uint8(200)
        b = (i8 > 0) & (u8 < 250)
        deq = i8.astype(jnp.float32) * 0.05 + b.astype(jnp.float32)
        bc = jax.lax.bitcast_convert_type(h, jnp.int16)
        return constrain(deq, mesh, None, "d"), bf, u8, bc, b.sum(dtype=jnp.int32)
    return f, (arr((16, 8)), arr((16, 8), "int32", seed=1, hi=100)), dict(in_shardings=(named(mesh, "d"), named(mesh, "d")), out_shardings=None), {}


@program("complex_numbers_phase_rotate_and_matmul")
def _complex2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(z, w, th):
        rot = z * jnp.exp(1j * th)[:, None].astype(jnp.complex64)
        m = rot @ jnp.conj(w).T
        mag, ang = jnp.abs(m), jnp.angle(m)
        c = jax.lax.complex(mag, ang)
        return constrain(m, mesh, "x", "y"), jnp.real(c) + jnp.imag(c), jnp.linalg.norm(z, axis=1)
    return f, (arr((8, 16), "complex64"), arr((8, 16), "complex64", seed=1), arr((8,), seed=2)), \
        dict(in_shardings=(named(mesh, "x", "y"), named(mesh, None, "y"), named(mesh, "x"))), {}


@program("random_prng_impls_threefry_rbg_unsafe_rbg")
def _prng():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(seed, x):
        out = []
        for impl in ("threefry2x32", "rbg", "unsafe_rbg"):
            k = jax.random.key(seed, impl=impl)
            k1, k2 = jax.random.split(k)
            n = jax.random.normal(k1, x.shape)
            u = jax.random.bernoulli(k2, 0.3, x.shape)
            out.append(constrain(jnp.where(u, x + n, 0.0), mesh, "x", "y"))
        ks = jax.random.split(jax.random.key(seed, impl="rbg"), 8)
        perm = jax.vmap(lambda k: jax.random.permutation(k, 6))(ks)
        return out, perm, jax.random.key_data(ks)
    return f, (jnp.uint32(7), arr((8, 16))), dict(in_shardings=(None, named(mesh, "x", "y"))), {}


@program("rfft_irfftn_sharded_batch")
def _rfft():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("b", "c"))
    def f(x, k):
        X = jnp.fft.rfft(x, axis=-1)
        y = jnp.fft.irfft(X * jnp.fft.rfft(k, axis=-1), n=x.shape[-1], axis=-1)
        Z = jnp.fft.rfftn(x[..., :8].reshape(8, 4, 4, 2), axes=(1, 2))
        z = jnp.fft.irfftn(Z, s=(4, 4), axes=(1, 2))
        return constrain(y, mesh, "b", "c"), z, jnp.fft.fftshift(jnp.abs(X), axes=-1)
    return f, (arr((8, 4, 16)), arr((8, 4, 16), seed=1)), dict(in_shardings=(named(mesh, "b", "c"), named(mesh, "b"))), {}


# ------------------------------------------------------------------ attention / reshapes
@program("attention_heads_split_across_two_axes")
def _attn2ax():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("dp", "tp1", "tp2"), devs=(0, 4, 2, 6, 1, 5, 3, 7))
    B, S, D, H = 2, 8, 32, 8
    hd = D // H
    def f(x, wqkv, wo):
        qkv = x @ wqkv                                           # [B, S, 3D]
        qkv = qkv.reshape(B, S, 3, H, hd)
        qkv = constrain(qkv, mesh, "dp", None, None, ("tp1", "tp2"), None)
        q, k, v = qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2]
        q = q.reshape(B, S, 2, H // 2, hd).transpose(0, 2, 3, 1, 4)   # [B, 2, H/2, S, hd]
        k = k.reshape(B, S, 2, H // 2, hd).transpose(0, 2, 3, 4, 1)   # [B, 2, H/2, hd, S]
        q = constrain(q, mesh, "dp", "tp1", "tp2")
        a = jax.nn.softmax(q @ k / hd ** 0.5, -1)
        o = a @ v.reshape(B, S, 2, H // 2, hd).transpose(0, 2, 3, 1, 4)
        o = o.transpose(0, 3, 1, 2, 4).reshape(B, S, D)
        return constrain(o @ wo, mesh, "dp", None, ("tp2", "tp1"))
    return f, (arr((B, S, D)), arr((D, 3 * D), seed=1), arr((D, D), seed=2)), \
        dict(in_shardings=(named(mesh, "dp"), named(mesh, None, ("tp1", "tp2")), named(mesh, ("tp1", "tp2")))), {}


@program("mqa_kv_broadcast_reshape_chain")
def _mqa():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("data", "model"))
    def f(x, wq, wkv):
        q = jnp.einsum("bsd,dnh->bsnh", x, wq)             # 8 heads
        kv = jnp.einsum("bsd,dh->bsh", x, wkv).reshape(4, 6, 1, 2, 4)
        k, v = kv[..., 0, :], kv[..., 1, :]
        k = jnp.broadcast_to(k, (4, 6, 8, 4)); v = jnp.broadcast_to(v, (4, 6, 8, 4))
        s = jnp.einsum("bqnh,bknh->bnqk", q, k)
        s = constrain(s, mesh, "data", "model", None, None)
        o = jnp.einsum("bnqk,bknh->bqnh", jax.nn.softmax(s), v).reshape(4, 6, 32)
        return o.reshape(4, 2, 3, 32).swapaxes(1, 2).reshape(4, 6, 32)
    return f, (arr((4, 6, 16)), arr((16, 8, 4), seed=1), arr((16, 8), seed=2)), \
        dict(in_shardings=(named(mesh, "data"), named(mesh, None, "model"), None)), {}


# ------------------------------------------------------------------ meshes, devices, jit options
@program("mesh_2x2x2_permuted_devices_mlp")
def _m222():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("x", "y", "z"), devs=(5, 1, 7, 3, 4, 0, 6, 2))
    def f(x, w1, w2):
        h = jax.nn.relu(x @ w1)
        h = constrain(h, mesh, ("x", "z"), "y")
        return h @ w2
    return f, (arr((8, 8)), arr((8, 16), seed=1), arr((16, 4), seed=2)), \
        dict(in_shardings=(named(mesh, "x"), named(mesh, None, ("y", "z")), named(mesh, ("y", "z"))), out_shardings=named(mesh, ("z", "x"))), {}


@program("mesh_8x1_and_1x8_mixed_size1_axes")
def _m81():
    jax, jnp = jax_jnp()
    mesh = make_mesh((8, 1), ("big", "one"))
    def f(x, y):
        z = x @ y
        z = constrain(z, mesh, "one", "big")
        return z.T, constrain(x.sum(0), mesh, ("big", "one"))
    return f, (arr((16, 8)), arr((8, 16), seed=1)), dict(in_shardings=(named(mesh, ("one", "big")), named(mesh, "one", "big"))), {}


@program("mesh_2x1x4_reshape_across_size1")
def _m214():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 1, 4), ("a", "u", "b"), devs=(0, 1, 2, 3, 7, 6, 5, 4))
    def f(x):
        y = x.reshape(8, 4, 16)
        y = constrain(y, mesh, ("a", "u"), None, "b")
        z = y.transpose(2, 0, 1).reshape(16, 32)
        return constrain(z, mesh, ("b", "u"), "a"), y.sum((0, 1))
    return f, (arr((32, 16)),), dict(in_shardings=named(mesh, ("a", "u", "b"))), {}


@program("in_and_out_shardings_disagree_everywhere")
def _disagree():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(a, b, c):
        return a + 1, b * 2, (a @ c).T, c
    return f, (arr((8, 8)), arr((8, 8), seed=1), arr((8, 8), seed=2)), \
        dict(in_shardings=(named(mesh, "x", "y"), named(mesh, "y", "x"), named(mesh, None, ("x", "y"))),
             out_shardings=(named(mesh, "y", "x"), named(mesh, ("x", "y")), named(mesh, "x"), named(mesh, ("y", "x")))), {}


@program("donate_static_argnums_keep_unused")
def _donate2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(state, grads, unused, lr, mode):
        if mode == "sgd": new = jax.tree.map(lambda p, g: p - lr * g, state, grads)
        else: new = jax.tree.map(lambda p, g: p * (1 - lr) - lr * jnp.sign(g), state, grads)
        return new
    st = dict(a=arr((8, 16)), b=arr((16,), seed=1))
    ss = dict(a=named(mesh, "x", "y"), b=named(mesh, "y"))
    return (lambda s, g, u, lr: f(s, g, u, lr, "signsgd")), (st, st, arr((4, 4), seed=2), jnp.float32(0.1)), \
        dict(in_shardings=(ss, ss, named(mesh, "x"), None), out_shardings=ss, donate_argnums=(0,), keep_unused=True), {}


@program("static_argnums_shapes_and_donate_argnames")
def _static2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(buf, n, x):
        return jnp.concatenate([buf[n:], x[:n]], 0), jnp.zeros((n, 4))
    jf = jax.jit(f, static_argnums=(1,), donate_argnames=("buf",), in_shardings=(named(mesh, "x", "y"), named(mesh, None, "y")))
    return (lambda buf, x: jf(buf, 3, x)), (arr((16, 4)), arr((16, 4), seed=1)), dict(donate_argnums=0), {}


@program("no_sharding_annotations_at_all_train_step")
def _nosh():
    jax, jnp = jax_jnp()
    def loss(p, x, y):
        h = jnp.tanh(x @ p[0] + p[1])
        return jnp.mean((h @ p[2] - y) ** 2)
    def step(p, x, y):
        l, g = jax.value_and_grad(loss)(p, x, y)
        return [w - 0.1 * gw for w, gw in zip(p, g)], l
    return step, ([arr((6, 8)), arr((8,), seed=1), arr((8, 2), seed=2)], arr((10, 6), seed=3), arr((10, 2), seed=4)), {}, {}


@program("only_out_shardings_no_in")
def _onlyout():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def f(x, y):
        return x @ y, jnp.outer(x.sum(1), y.sum(0)), (x.T * 2).reshape(-1)
    return f, (arr((8, 4)), arr((4, 8), seed=1)), \
        dict(out_shardings=(named(mesh, "a", ("b", "c")), named(mesh, None, "c"), named(mesh, ("c", "b", "a")))), {}


@program("unconstrained_dims_in_out_shardings_and_constraints")
def _unc():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(x, w):
        h = x @ w
        h = constrain(h, mesh, U, "y")
        g = constrain(jnp.tanh(h).reshape(2, 4, 16), mesh, "x", U, U)
        return h, g
    return f, (arr((8, 12)), arr((12, 16), seed=1)), \
        dict(in_shardings=(named(mesh, "x"), named(mesh, None, "y")), out_shardings=(named(mesh, None, "y"), None)), {}


@program("nondivisible_dims_in_constraints_only")
def _nondiv():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(x, w):
        h = x @ w                         # [10, 6]
        h = constrain(h, mesh, "x", "y")       # 10 % 4 != 0
        r = constrain(h.reshape(5, 12), mesh, ("x", "y"), None)
        s = constrain(jnp.pad(r, ((0, 1), (0, 0))), mesh, None, "x")
        return s, constrain(h[:7, :3], mesh, "y", "x")
    return f, (arr((10, 9)), arr((9, 6), seed=1)), {}, {}


@program("explicit_mesh_axes_einsum_out_sharding_and_reshard")
def _explicit3():
    jax, jnp = jax_jnp()
    from jax.sharding import AxisType
    mesh = make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit, AxisType.Explicit))
    def f(a, b):
        c = jnp.einsum("ij,jk->ik", a, b, out_sharding=spec("x", "y"))
        d = jax.sharding.reshard(c, spec(None, ("x", "y")))
        return jnp.sin(d) @ b.T
    return f, (arr((8, 16)), arr((16, 8), seed=1)), \
        dict(in_shardings=(named(mesh, "x", None), named(mesh, None, "y"))), dict(mesh=mesh)


@program("explicit_and_auto_mixed_mesh_shard_map")
def _explicit4():
    jax, jnp = jax_jnp()
    from jax.sharding import AxisType
    mesh = make_mesh((4, 2), ("e", "a"), axis_types=(AxisType.Explicit, AxisType.Auto))
    def f(x, w):
        h = x @ w
        y = jax.shard_map(lambda t: jax.lax.psum(t.sum(0, keepdims=True), "e"), in_specs=spec("e"), out_specs=spec(), axis_names={"e"})(h)
        return constrain(h + y, mesh, None, "a")
    return f, (arr((8, 8)), arr((8, 8), seed=1)), dict(in_shardings=(named(mesh, "e", None), named(mesh, None, None))), dict(mesh=mesh)


# ------------------------------------------------------------------ more model-like programs
@program("gated_linear_unit_scan_over_time_sharded_state")
def _glu_scan():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("batch", "feat"))
    def f(xs, w, u):
        def step(h, x):
            g = jax.nn.sigmoid(x @ w)
            h = g * h + (1 - g) * jnp.tanh(x @ u)
            h = constrain(h, mesh, "batch", "feat")
            return h, h.mean(-1)
        h, ys = jax.lax.scan(step, jnp.zeros((8, 16)), xs, reverse=True, unroll=2)
        return h, ys.T
    return f, (arr((6, 8, 12)), arr((12, 16), seed=1), arr((12, 16), seed=2)), \
        dict(in_shardings=(named(mesh, None, "batch"), named(mesh, None, "feat"), named(mesh, None, "feat"))), {}


@program("scatter_modes_drop_clip_unique_indices")
def _scatter2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(t, idx, upd):
        a = t.at[idx].add(upd, mode="drop")
        b = t.at[idx].max(upd, mode="clip")
        c = t.at[jnp.arange(4) * 2].set(upd[:4], unique_indices=True, indices_are_sorted=True)
        d = t.at[idx, 3].mul(2.0, mode="promise_in_bounds")
        e = jnp.take(t, idx, axis=0, mode="fill", fill_value=jnp.nan)
        return constrain(a, mesh, "x", "y"), b, c, d, e
    return f, (arr((16, 8)), arr((6,), "int32", hi=20), arr((6, 8), seed=1)), \
        dict(in_shardings=(named(mesh, "x", "y"), None, named(mesh, None, "y"))), {}


@program("lax_map_batch_size_and_vmap_in_axes_out_axes")
def _lmap():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def g(row, w): return jnp.tanh(row @ w)
    def f(xs, w):
        a = jax.lax.map(lambda r: g(r, w), xs, batch_size=4)
        b = jax.vmap(g, in_axes=(1, None), out_axes=1)(xs.transpose(1, 0, 2), w)
        c = jax.vmap(jax.vmap(lambda s, t: s * t, in_axes=(0, None)), in_axes=(None, 0))(xs[0, :, 0], xs[:, 0, 0])
        return constrain(a, mesh, "x", None, "y"), b, c
    return f, (arr((8, 4, 6)), arr((6, 8), seed=1)), dict(in_shardings=(named(mesh, "x", "y"), named(mesh, None, "y"))), {}


@program("rng_bit_generator_and_random_bits_sharded")
def _rbg():
    jax, jnp = jax_jnp()
    mesh = make_mesh((8,), ("d",))
    def f(key, x):
        k2, bits = jax.lax.rng_bit_generator(key, (16, 8), dtype=jnp.uint32)
        k3, bits2 = jax.lax.rng_bit_generator(k2, (8,), dtype=jnp.uint8, algorithm=jax.lax.RandomAlgorithm.RNG_PHILOX)
        noise = (bits >> 9).astype(jnp.float32) / (1 << 23)
        return constrain(x + noise, mesh, "d"), bits2, k3
    return f, (jnp.zeros((4,), jnp.uint32), arr((16, 8))), dict(in_shardings=(None, named(mesh, None, "d"))), {}


@program("layernorm_grad_with_remat_and_constraints_nondivisible_hidden")
def _ln_grad():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def ln(x, g, b):
        m = x.mean(-1, keepdims=True); v = x.var(-1, keepdims=True)
        return (x - m) * jax.lax.rsqrt(v + 1e-5) * g + b
    def loss(x, g, b, w):
        h = jax.remat(ln)(x, g, b)
        h = constrain(h, mesh, "x", "y")          # hidden 10 not divisible by 4
        return jnp.sum((h @ w) ** 2)
    return jax.grad(loss, argnums=(1, 2, 3)), (arr((8, 10)), arr((10,), seed=1), arr((10,), seed=2), arr((10, 4), seed=3)), \
        dict(in_shardings=(named(mesh, "x"), None, None, None)), {}


@program("clamp_select_n_and_nextafter_elementwise_zoo")
def _zoo():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(x, y, i):
        a = jax.lax.clamp(-1.0, x, 1.0)
        b = jax.lax.select_n(i % 3, x, y, x * y)
        c = jnp.nextafter(x, y) + jnp.copysign(x, y) + jnp.fmod(x, 1.5) + jnp.hypot(x, y)
        d = jax.lax.atan2(x, y) + jax.lax.expm1(x) + jax.lax.log1p(jnp.abs(y)) + jax.lax.cbrt(x)
        e = jnp.isnan(x / y) | jnp.isinf(x) | jnp.signbit(y)
        return constrain(a + b, mesh, "y", "x"), c, d, e, jnp.round(x, 2), jnp.floor(y).astype(jnp.int32)
    return f, (arr((8, 8)), arr((8, 8), seed=1), arr((8, 8), "int32", seed=2)), \
        dict(in_shardings=(named(mesh, "x", "y"), named(mesh, "y", "x"), named(mesh, ("x", "y")))), {}


@program("segment_ops_and_bincount_sharded")
def _segment():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(data, seg):
        s = jax.ops.segment_sum(data, seg, num_segments=5)
        m = jax.ops.segment_max(data, seg, num_segments=5)
        p = jax.ops.segment_prod(data, seg, num_segments=5, indices_are_sorted=True)
        bc = jnp.bincount(seg, length=5)
        return constrain(s, mesh, None, "y"), m, p, bc
    return f, (arr((16, 8)), jnp.sort(arr((16,), "int32", hi=5))), dict(in_shardings=(named(mesh, "x", "y"), named(mesh, "x"))), {}


@program("grad_of_while_free_fori_with_dynamic_slices")
def _fori_grad():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def loss(w, x):
        def body(i, c):
            blk = jax.lax.dynamic_slice_in_dim(x, i * 2, 2, axis=0)
            return c + jnp.tanh(blk @ w).sum(0)
        c = jax.lax.fori_loop(0, 4, body, jnp.zeros(w.shape[1]))
        return jnp.sum(constrain(c, mesh, "y") ** 2)
    return jax.grad(loss), (arr((6, 8)), arr((8, 6), seed=1)), dict(in_shardings=(named(mesh, None, "y"), named(mesh, "x"))), {}


@program("nested_shard_maps_two_levels_with_scan_outside")
def _nested_smap_scan():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def inner(t):
        return jax.lax.pmean(t * jax.lax.axis_index("b").astype(t.dtype), "b")
    def outer(t):
        u = jax.shard_map(inner, mesh=jax.sharding.get_abstract_mesh(), in_specs=spec(None, "b"), out_specs=spec(None, None), axis_names={"b"})(t)
        return jax.lax.psum(u, "a")
    sm = jax.shard_map(outer, mesh=mesh, in_specs=spec("a"), out_specs=spec(), axis_names={"a"})
    def f(xs):
        def step(c, x): return c + sm(x), None
        c, _ = jax.lax.scan(step, jnp.zeros((4, 4)), xs)
        return constrain(c, mesh, "c")
    return f, (arr((3, 8, 8)),), dict(in_shardings=named(mesh, None, "a", "b")), {}
