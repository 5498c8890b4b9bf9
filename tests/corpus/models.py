"""More real programs for the JAX corpus: models as people write them (a Llama block, grouped-query and cross
attention, KV-cache decoding, MoE routing, scans over layers, loops, sorts, gathers and scatters, losses, convolutions,
linalg, FFT, random, shard_map with collectives, nested jits, custom_partitioning, composites, explicit axes, host
offload, two meshes, permuted devices, size-1 axes, unconstrained dims, dims their axes don't divide).

Builders follow `tests/corpus/builders.py`'s convention; `tests/corpus/programs.py` registers every program here in
its `CORPUS`, so every corpus test runs on them.
"""
from __future__ import annotations

from tests.corpus.builders import U, arr, constrain, jax_jnp, make_mesh, named, registrar, spec

PROGRAMS: dict = {}
program = registrar(PROGRAMS)


def _rms(x, g, jnp):
    return x * jax_rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6, jnp) * g


def jax_rsqrt(x, jnp):
    import jax
    return jax.lax.rsqrt(x)


def _ln(x, g, b, jnp):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) * jax_rsqrt(v + 1e-5, jnp) * g + b


def _rope(x, jnp):
    # x: [b, s, h, d]
    b, s, h, d = x.shape
    half = d // 2
    freq = 1.0 / (10000 ** (jnp.arange(half, dtype=jnp.float32) / half))
    ang = jnp.arange(s, dtype=jnp.float32)[:, None] * freq[None, :]
    sin, cos = jnp.sin(ang)[None, :, None, :], jnp.cos(ang)[None, :, None, :]
    x1, x2 = x[..., :half], x[..., half:]
    return jnp.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1).astype(x.dtype)


# ------------------------------------------------------------------ transformer blocks
@program("llama_block_rope_rms_swiglu")
def _llama():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("data", "model"))
    B, S, D, H = 4, 12, 32, 4
    hd = D // H
    def block(x, p):
        h = _rms(x, p["g1"], jnp)
        q = jnp.einsum("bsd,dhk->bshk", h, p["wq"])
        k = jnp.einsum("bsd,dhk->bshk", h, p["wk"])
        v = jnp.einsum("bsd,dhk->bshk", h, p["wv"])
        q, k = _rope(q, jnp), _rope(k, jnp)
        q = constrain(q, mesh, "data", None, "model", None)
        logits = jnp.einsum("bqhk,bthk->bhqt", q, k) / jnp.sqrt(hd)
        mask = jnp.tril(jnp.ones((S, S), bool))
        logits = jnp.where(mask[None, None], logits, -1e9)
        a = jax.nn.softmax(logits, -1)
        o = jnp.einsum("bhqt,bthk->bqhk", a, v)
        x = x + jnp.einsum("bqhk,hkd->bqd", o, p["wo"])
        h = _rms(x, p["g2"], jnp)
        ff = jax.nn.silu(h @ p["w1"]) * (h @ p["w3"])
        ff = constrain(ff, mesh, "data", None, "model")
        return x + ff @ p["w2"]
    p = dict(g1=arr((D,), seed=1), g2=arr((D,), seed=2), wq=arr((D, H, hd), seed=3), wk=arr((D, H, hd), seed=4),
             wv=arr((D, H, hd), seed=5), wo=arr((H, hd, D), seed=6), w1=arr((D, 88), seed=7), w3=arr((D, 88), seed=8),
             w2=arr((88, D), seed=9))
    ps = dict(g1=named(mesh), g2=named(mesh), wq=named(mesh, None, "model"), wk=named(mesh, None, "model"), wv=named(mesh, None, "model"),
              wo=named(mesh, "model"), w1=named(mesh, None, "model"), w3=named(mesh, None, "model"), w2=named(mesh, "model"))
    return block, (arr((B, S, D)), p), dict(in_shardings=(named(mesh, "data"), ps), out_shardings=named(mesh, "data")), {}


@program("gqa_attention_kv_heads")
def _gqa():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("dp", "fsdp", "tp"))
    B, S, D, HQ, HKV, hd = 4, 10, 24, 6, 2, 4
    def f(x, wq, wk, wv, wo):
        q = jnp.einsum("bsd,dnk->bsnk", x, wq).reshape(B, S, HKV, HQ // HKV, hd)
        k = jnp.einsum("bsd,dnk->bsnk", x, wk)
        v = jnp.einsum("bsd,dnk->bsnk", x, wv)
        s = jnp.einsum("bqgrk,btgk->bgrqt", q, k) * (hd ** -0.5)
        p = jax.nn.softmax(s.astype(jnp.float32), -1).astype(x.dtype)
        o = jnp.einsum("bgrqt,btgk->bqgrk", p, v).reshape(B, S, HQ, hd)
        return jnp.einsum("bqnk,nkd->bqd", o, wo)
    return f, (arr((B, S, D), "bfloat16"), arr((D, HQ, hd), "bfloat16", 1), arr((D, HKV, hd), "bfloat16", 2),
               arr((D, HKV, hd), "bfloat16", 3), arr((HQ, hd, D), "bfloat16", 4)), \
        dict(in_shardings=(named(mesh, ("dp", "fsdp")), named(mesh, "fsdp", "tp"), named(mesh, "fsdp", "tp"), named(mesh, "fsdp", "tp"),
                           named(mesh, "tp", None, "fsdp")), out_shardings=named(mesh, ("dp", "fsdp"))), {}


@program("dot_product_attention_api")
def _dpa():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(q, k, v, bias):
        o = jax.nn.dot_product_attention(q, k, v, bias=bias, is_causal=True)
        o2 = jax.nn.dot_product_attention(q, k[:, :, :2], v[:, :, :2], is_causal=False)   # GQA via the API
        return o + o2
    return f, (arr((2, 6, 4, 8)), arr((2, 6, 4, 8), seed=1), arr((2, 6, 4, 8), seed=2), arr((2, 4, 6, 6), seed=3)), \
        dict(in_shardings=(named(mesh, "x", None, "y"), named(mesh, "x", None, "y"), named(mesh, "x", None, "y"), named(mesh, "x", "y"))), {}


@program("encoder_decoder_cross_attention_grad")
def _xattn():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("batch", "heads"))
    def loss(p, enc, dec, mask):
        q = jnp.einsum("btd,dhk->bthk", dec, p["q"])
        k = jnp.einsum("bsd,dhk->bshk", enc, p["k"])
        v = jnp.einsum("bsd,dhk->bshk", enc, p["v"])
        s = jnp.einsum("bthk,bshk->bhts", q, k)
        s = jnp.where(mask[:, None, None, :], s, -jnp.inf)
        o = jnp.einsum("bhts,bshk->bthk", jax.nn.softmax(s, -1), v)
        out = _ln(jnp.einsum("bthk,hkd->btd", o, p["o"]) + dec, p["g"], p["b"], jnp)
        return (out ** 2).mean()
    D, H, K = 16, 2, 8
    p = dict(q=arr((D, H, K)), k=arr((D, H, K), seed=1), v=arr((D, H, K), seed=2), o=arr((H, K, D), seed=3),
             g=arr((D,), seed=4), b=arr((D,), seed=5))
    ps = dict(q=named(mesh, None, "heads"), k=named(mesh, None, "heads"), v=named(mesh, None, "heads"), o=named(mesh, "heads"), g=named(mesh), b=named(mesh))
    return jax.grad(loss), (p, arr((4, 7, D), seed=6), arr((4, 5, D), seed=7), arr((4, 7), "bool")), \
        dict(in_shardings=(ps, named(mesh, "batch"), named(mesh, "batch"), named(mesh, "batch"))), {}


@program("kv_cache_decode_step")
def _kvcache():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(cache_k, cache_v, x, wq, wk, wv, pos):
        q = jnp.einsum("bd,dhk->bhk", x, wq)
        k = jnp.einsum("bd,dhk->bhk", x, wk)
        v = jnp.einsum("bd,dhk->bhk", x, wv)
        cache_k = jax.lax.dynamic_update_slice(cache_k, k[:, None], (0, pos, 0, 0))
        cache_v = jax.lax.dynamic_update_slice(cache_v, v[:, None], (0, pos, 0, 0))
        s = jnp.einsum("bhk,bthk->bht", q, cache_k)
        s = jnp.where(jnp.arange(cache_k.shape[1])[None, None] <= pos, s, -1e30)
        o = jnp.einsum("bht,bthk->bhk", jax.nn.softmax(s, -1), cache_v)
        return cache_k, cache_v, o.reshape(o.shape[0], -1)
    cs = named(mesh, "x", None, "y")
    return f, (arr((2, 16, 4, 8)), arr((2, 16, 4, 8), seed=1), arr((2, 32), seed=2), arr((32, 4, 8), seed=3),
               arr((32, 4, 8), seed=4), arr((32, 4, 8), seed=5), jnp.int32(3)), \
        dict(in_shardings=(cs, cs, named(mesh, "x"), named(mesh, None, "y"), named(mesh, None, "y"), named(mesh, None, "y"), None),
             out_shardings=(cs, cs, named(mesh, "x", "y")), donate_argnums=(0, 1)), {}


# ------------------------------------------------------------------ MoE
@program("moe_top2_dispatch_combine")
def _moe():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("data", "expert"))
    T, D, E, F, C = 16, 8, 4, 16, 6
    def f(x, wg, w1, w2):
        logits = x @ wg
        probs = jax.nn.softmax(logits, -1)
        topv, topi = jax.lax.top_k(probs, 2)
        topv = topv / topv.sum(-1, keepdims=True)
        onehot = jax.nn.one_hot(topi, E)                        # [T, 2, E]
        pos = jnp.cumsum(onehot.reshape(-1, E), axis=0).reshape(T, 2, E) * onehot - 1
        keep = (pos < C) & (pos >= 0)
        disp = jax.nn.one_hot(jnp.where(keep, pos, -1).max(-1).astype(jnp.int32), C)  # [T, 2, C]
        dispatch = jnp.einsum("tke,tkc->tec", onehot * keep, disp)
        combine = jnp.einsum("tk,tke,tkc->tec", topv, onehot * keep, disp)
        xe = jnp.einsum("tec,td->ecd", dispatch, x)
        xe = constrain(xe, mesh, "expert", None, None)
        h = jax.nn.gelu(jnp.einsum("ecd,edf->ecf", xe, w1))
        ye = jnp.einsum("ecf,efd->ecd", h, w2)
        return jnp.einsum("tec,ecd->td", combine, ye)
    return f, (arr((T, D)), arr((D, E), seed=1), arr((E, D, F), seed=2), arr((E, F, D), seed=3)), \
        dict(in_shardings=(named(mesh, "data"), named(mesh), named(mesh, "expert"), named(mesh, "expert")), out_shardings=named(mesh, "data")), {}


@program("moe_sort_based_routing")
def _moe_sort():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    T, D, E, K = 12, 6, 4, 2
    def f(x, wg, w):
        logits = constrain(x @ wg, mesh, ("x", "y"), None)
        _, ei = jax.lax.top_k(logits, K)                      # [T, K]
        flat = ei.reshape(-1)
        order = jnp.argsort(flat, stable=True)
        tok = order // K
        xs = jnp.take(x, tok, axis=0)                          # [T*K, D]
        ex = jnp.take_along_axis(flat, order, axis=0)
        ys = jnp.einsum("nd,nde->ne", xs, jnp.take(w, ex, axis=0))
        out = jnp.zeros((T, D), x.dtype).at[tok].add(ys)
        counts = jnp.bincount(flat, length=E)
        return out, counts
    return f, (arr((T, D)), arr((D, E), seed=1), arr((E, D, D), seed=2)), \
        dict(in_shardings=(named(mesh, "x"), named(mesh, None, "y"), named(mesh, "x"))), {}


# ------------------------------------------------------------------ scans / loops
@program("scan_layers_rmsnorm_stacked_params")
def _scan_layers():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("pp", "dp", "tp"))
    L, B, D, F = 3, 6, 12, 20
    def f(x, g, w1, w2):
        def layer(h, p):
            g, w1, w2 = p
            y = _rms(h, g, jnp)
            y = jax.nn.relu(y @ w1)
            y = constrain(y, mesh, "dp", "tp")
            return h + y @ w2, jnp.mean(y)
        return jax.lax.scan(layer, x, (g, w1, w2))
    return f, (arr((B, D)), arr((L, D), seed=1), arr((L, D, F), seed=2), arr((L, F, D), seed=3)), \
        dict(in_shardings=(named(mesh, "dp"), named(mesh, None, None), named(mesh, None, None, "tp"), named(mesh, None, "tp")),
             out_shardings=(named(mesh, "dp"), named(mesh))), {}


@program("scan_grad_remat_policy")
def _scan_remat():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def loss(ws, x):
        @jax.checkpoint
        def layer(h, w):
            return jnp.tanh(h @ w), None
        h, _ = jax.lax.scan(layer, x, ws)
        return (h ** 2).sum()
    return jax.value_and_grad(loss), (arr((4, 16, 16)), arr((6, 16), seed=1)), \
        dict(in_shardings=(named(mesh, None, None, "y"), named(mesh, "x"))), {}


@program("fori_loop_power_iteration")
def _power():
    jax, jnp = jax_jnp()
    mesh = make_mesh((8,), ("x",))
    def f(a, v):
        def body(i, v):
            w = a @ v
            w = constrain(w, mesh, "x")
            return w / jnp.linalg.norm(w)
        v = jax.lax.fori_loop(0, 10, body, v)
        return v, v @ a @ v
    return f, (arr((24, 24)), arr((24,), seed=1)), dict(in_shardings=(named(mesh, "x"), named(mesh))), {}


@program("while_loop_dynamic_slice_accumulate")
def _while_ds():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(xs, acc):
        def cond(c): return c[0] < xs.shape[0] // 3
        def body(c):
            i, acc = c
            chunk = jax.lax.dynamic_slice_in_dim(xs, i * 3, 3, axis=0)
            acc = jax.lax.dynamic_update_slice_in_dim(acc, (chunk.sum(0) + acc[i])[None], i, axis=0)
            acc = constrain(acc, mesh, "x", "y")
            return i + 1, acc
        return jax.lax.while_loop(cond, body, (0, acc))[1]
    return f, (arr((12, 10)), arr((4, 10), seed=1)), dict(in_shardings=(named(mesh, None, "x"), named(mesh, "x")), donate_argnums=1), {}


@program("associative_scan_cumulative")
def _assoc():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2), ("a", "b"))
    def f(x, y):
        x = constrain(x, mesh, "a", "b")
        lin = jax.lax.associative_scan(lambda a, b: (a[0] * b[0], a[1] * b[0] + b[1]), (x, y), axis=1)
        return lin, jnp.cumsum(y, axis=0), jnp.cumprod(x, axis=1), jax.lax.cumlogsumexp(y, axis=1, reverse=True)
    return f, (arr((6, 9)), arr((6, 9), seed=1)), dict(in_shardings=(named(mesh, "a"), named(mesh, "b"))), {}


# ------------------------------------------------------------------ sort / top_k / gather / scatter
@program("sort_argsort_topk_nondivisible")
def _sort_nd():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(x, i):
        x = constrain(x, mesh, "x", "y")
        s = jnp.sort(x, axis=-1)
        a = jnp.argsort(-x, axis=0)
        v, idx = jax.lax.top_k(x.T, 3)
        g = jnp.take_along_axis(x, a, axis=0)
        return s, g, v, idx, jnp.take(x, i, axis=1, mode="clip")
    return f, (arr((6, 10)), arr((5,), "int32")), dict(in_shardings=(named(mesh, "x"), None)), {}


@program("scatter_segment_sum_and_set")
def _segsum():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(data, seg, idx, vals):
        s = jax.ops.segment_sum(data, seg, num_segments=6)
        m = constrain(jax.ops.segment_max(data, seg, num_segments=6), mesh, "x", "y")
        t = jnp.zeros((6, 5, 4)).at[idx, :, 1:3].set(vals)
        return s, m, t
    return f, (arr((16, 5)), arr((16,), "int32", hi=6), arr((3,), "int32", 1, hi=6), arr((3, 5, 2), seed=2)), \
        dict(in_shardings=(named(mesh, "x"), named(mesh, "x"), None, named(mesh, None, None, "y"))), {}


@program("gather_2d_points_and_rows")
def _gather2d():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(img, ys, xs, rows):
        pts = constrain(img[:, ys, xs], mesh, None, "y")   # [C, N]
        r = img[:, rows]                          # [C, R, W]
        dyn = jax.lax.dynamic_slice(img, (0, ys[0], xs[0]), (3, 4, 4))
        return pts, r, dyn
    return f, (arr((3, 16, 20)), arr((7,), "int32", hi=16), arr((7,), "int32", 1, hi=16), arr((5,), "int32", 2, hi=16)), \
        dict(in_shardings=(named(mesh, None, "x", "y"), None, None, None)), {}


@program("scatter_add_embedding_grad_fsdp")
def _embgrad2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def loss(table, pos_table, ids):
        e = table[ids] + pos_table[None, : ids.shape[1]]
        e = constrain(e, mesh, "a", ("b", "c"), None)
        return jnp.sum(jnp.tanh(e) ** 2)
    return jax.grad(loss, argnums=(0, 1)), (arr((48, 8)), arr((12, 8), seed=1), arr((4, 10), "int32", hi=48)), \
        dict(in_shardings=(named(mesh, ("a", "b"), "c"), named(mesh, None, "c"), named(mesh, "a")),
             out_shardings=(named(mesh, ("a", "b"), "c"), named(mesh, None, "c"))), {}


# ------------------------------------------------------------------ losses
@program("softmax_xent_int_labels_label_smoothing")
def _xent():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("data", "vocab"))
    def loss(w, x, labels, mask):
        logits = x @ w
        logp = jax.nn.log_softmax(logits, -1)
        nll = -jnp.take_along_axis(logp, labels[..., None], -1)[..., 0]
        smooth = -logp.mean(-1)
        l = 0.9 * nll + 0.1 * smooth
        z = jax.nn.logsumexp(logits, -1)
        return (l * mask).sum() / mask.sum() + 1e-4 * (z ** 2).mean()
    return jax.value_and_grad(loss), (arr((16, 30)), arr((4, 6, 16), seed=1), arr((4, 6), "int32", hi=30), arr((4, 6), seed=3)), \
        dict(in_shardings=(named(mesh, None, "vocab"), named(mesh, "data"), named(mesh, "data"), named(mesh, "data"))), {}


@program("contrastive_clip_loss")
def _clip():
    jax, jnp = jax_jnp()
    mesh = make_mesh((8,), ("x",))
    def loss(a, b, t):
        a = a / jnp.linalg.norm(a, axis=-1, keepdims=True)
        b = b / jnp.linalg.norm(b, axis=-1, keepdims=True)
        logits = a @ b.T * jnp.exp(t)
        labels = jnp.arange(a.shape[0])
        la = -jnp.take_along_axis(jax.nn.log_softmax(logits, 1), labels[:, None], 1).mean()
        lb = -jnp.take_along_axis(jax.nn.log_softmax(logits, 0), labels[None, :], 0).mean()
        return (la + lb) / 2
    return jax.grad(loss, argnums=(0, 1, 2)), (arr((16, 12)), arr((16, 12), seed=1), jnp.float32(0.1)), \
        dict(in_shardings=(named(mesh, "x"), named(mesh, "x"), None)), {}


# ------------------------------------------------------------------ conv / pooling
@program("depthwise_separable_conv_nhwc")
def _dwconv():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(x, dw, pw):
        C = x.shape[-1]
        y = jax.lax.conv_general_dilated(x, dw, (1, 1), "SAME", feature_group_count=C, dimension_numbers=("NHWC", "HWIO", "NHWC"))
        y = jax.nn.relu6(y)
        y = jax.lax.conv_general_dilated(y, pw, (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        avg = jax.lax.reduce_window(y, 0.0, jax.lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
        return avg, y.mean((1, 2))
    return f, (arr((4, 10, 10, 8)), arr((3, 3, 1, 8), seed=1), arr((1, 1, 8, 12), seed=2)), \
        dict(in_shardings=(named(mesh, "x", None, None, "y"), named(mesh, None, None, None, "y"), named(mesh, None, None, "y"))), {}


@program("resnet_block_batchnorm_grad")
def _resnet():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("data", "model"))
    def loss(k1, k2, x, g):
        def bn(y):
            m = y.mean((0, 1, 2)); v = y.var((0, 1, 2))
            return (y - m) * jax.lax.rsqrt(v + 1e-5) * g
        y = jax.lax.conv_general_dilated(x, k1, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        y = jax.nn.relu(bn(y))
        y = jax.lax.conv_general_dilated(y, k2, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        sc = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        return jnp.mean((y + jnp.pad(sc, ((0, 0), (0, 0), (0, 0), (0, 2)))) ** 2)
    return jax.grad(loss, argnums=(0, 1, 3)), (arr((3, 3, 4, 6)), arr((3, 3, 6, 6), seed=1), arr((8, 8, 8, 4), seed=2), arr((6,), seed=3)), \
        dict(in_shardings=(named(mesh, None, None, None, "model"), named(mesh, None, None, "model"), named(mesh, "data"), None)), {}


@program("conv1d_transpose_dilated")
def _convt():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2), ("x", "y"))
    def f(x, k):
        y = jax.lax.conv_transpose(x, k, (2,), "SAME", dimension_numbers=("NWC", "WIO", "NWC"))
        z = jax.lax.conv_general_dilated(y, jnp.flip(k, 0).swapaxes(1, 2), (1,), [(2, 2)], rhs_dilation=(2,),
                                         dimension_numbers=("NWC", "WIO", "NWC"))
        return z
    return f, (arr((4, 7, 6)), arr((3, 6, 6), seed=1)), dict(in_shardings=(named(mesh, "x", None, "y"), named(mesh, None, "y"))), {}


# ------------------------------------------------------------------ shape chains
@program("reshape_split_merge_sharded_dims")
def _reshape():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(x):
        a = x.reshape(4, 2, 6, 4)                     # split 8 -> 4x2 and 24 -> 6x4
        a = a.transpose(1, 0, 3, 2)
        b = a.reshape(8, 24)
        c = constrain(b, mesh, ("x", "y"), None)
        d = c.reshape(2, 4, 3, 8).sum(2).reshape(64)
        return d, jnp.flip(c, 1), jnp.concatenate([c, x], 0)[:, ::2]
    return f, (arr((8, 24)),), dict(in_shardings=named(mesh, "x", "y")), {}


@program("pad_concat_reverse_roll")
def _pad():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(x, y):
        a = jnp.pad(x, ((1, 2), (0, 3)), mode="constant")
        b = jnp.pad(x, ((2, 2), (1, 1)), mode="reflect")
        c = jnp.concatenate([a[:, :4], b[:-1, :4], y], axis=0)
        r = jnp.roll(c, 3, axis=0)
        e = jnp.pad(y, ((0, 0), (2, 2)), mode="edge")
        return r[::-1], e, jax.lax.pad(x, 0.0, [(1, 1, 1), (-1, 0, 0)])
    return f, (arr((8, 6)), arr((3, 4), seed=1)), dict(in_shardings=(named(mesh, "x", "y"), named(mesh, None, "y"))), {}


@program("broadcast_expand_squeeze_tile")
def _bcast():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def f(x, v):
        y = jnp.tile(x[:, None, :], (1, 3, 1)) + v[None, :, None]
        z = jnp.repeat(x, 2, axis=0)
        w = jnp.expand_dims(jnp.squeeze(x[:, :1]), 0) * jnp.broadcast_to(v[:1], (4, 8))[:1]
        return constrain(y, mesh, "a", U, ("b", "c")), z, w
    return f, (arr((8, 10)), arr((3,), seed=1)), dict(in_shardings=(named(mesh, ("a", "b"), "c"), named(mesh))), {}


@program("einsum_contracting_sharded_partial_sums")
def _partial():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(a, b, c):
        ab = jnp.einsum("bij,bjk->bik", a, b)         # contracting j sharded on y
        abc = jnp.einsum("bik,kl->bil", ab, c)         # contracting k sharded on x
        return abc, jnp.einsum("bij,bij->b", a, a), jnp.einsum("bij->j", a)
    return f, (arr((4, 6, 16)), arr((4, 16, 8), seed=1), arr((8, 10), seed=2)), \
        dict(in_shardings=(named(mesh, None, None, "y"), named(mesh, None, "y", "x"), named(mesh, "x", None)), out_shardings=(named(mesh, None, "x"), None, None)), {}


@program("dot_general_batch_dims_mixed")
def _dotgen():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("p", "q", "r"))
    def f(a, b):
        c = jax.lax.dot_general(a, b, (((3,), (1,)), ((0, 1), (0, 2))))     # a[b,h,s,d] b[b,d,h,t] -> [b,h,s,t]
        return c, jax.lax.dot_general(a, a, (((2, 3), (2, 3)), ((0,), (0,))))
    return f, (arr((4, 2, 5, 6)), arr((4, 6, 2, 7), seed=1)), \
        dict(in_shardings=(named(mesh, "p", "q", None, "r"), named(mesh, "p", "r", "q"))), {}


# ------------------------------------------------------------------ linalg, fft
@program("linalg_cholesky_solve_qr_svd")
def _linalg():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(a, b):
        spd = a @ a.T + 4 * jnp.eye(a.shape[0])
        L = jnp.linalg.cholesky(spd)
        x = jax.scipy.linalg.cho_solve((L, True), b)
        q, r = jnp.linalg.qr(a)
        s = jnp.linalg.svd(a, compute_uv=False)
        return x, q @ r, s, jnp.linalg.slogdet(spd)[1], jnp.linalg.inv(spd)
    return f, (arr((6, 6)), arr((6, 8), seed=1)), dict(in_shardings=(named(mesh, "x"), named(mesh, None, "y"))), {}


@program("batched_linalg_eigh_solve")
def _blinalg():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(a, b):
        s = a + jnp.swapaxes(a, -1, -2)
        w, v = jnp.linalg.eigh(s)
        return w, v, jnp.linalg.solve(s + 10 * jnp.eye(5), b), jax.scipy.linalg.solve_triangular(jnp.tril(s) + 5 * jnp.eye(5), b, lower=True)
    return f, (arr((8, 5, 5)), arr((8, 5, 3), seed=1)), dict(in_shardings=(named(mesh, "x"), named(mesh, "x", None, None))), {}


@program("fft_conv_spectral")
def _fftconv():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(x, k):
        X = jnp.fft.rfft(x, axis=-1)
        K = jnp.fft.rfft(k, n=x.shape[-1])
        y = jnp.fft.irfft(X * K[None], n=x.shape[-1], axis=-1)
        z = jnp.fft.fft2(x.astype(jnp.complex64).reshape(x.shape[0], 4, -1))
        return y, jnp.abs(jnp.fft.ifft2(z)), jnp.fft.fftshift(z, axes=(1,))
    return f, (arr((6, 16)), arr((5,), seed=1)), dict(in_shardings=(named(mesh, "x", "y"), None)), {}


# ------------------------------------------------------------------ random
@program("random_in_jit_dropout_and_init")
def _rand():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(key, x):
        k1, k2, k3 = jax.random.split(key, 3)
        w = jax.nn.initializers.glorot_normal()(k1, (12, 20))
        w = constrain(w, mesh, None, "y")
        h = x @ w
        keep = jax.random.bernoulli(k2, 0.8, h.shape)
        h = jnp.where(keep, h / 0.8, 0)
        perm = jax.random.permutation(k3, h, axis=0)
        return perm, jax.random.categorical(k2, h, axis=-1)
    return f, (jax.random.key(0), arr((6, 12))), dict(in_shardings=(None, named(mesh, "x"))), {}


# ------------------------------------------------------------------ shard_map
@program("shard_map_ring_attention_ppermute")
def _ring():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4,), ("sp",))
    n = 4
    def body(q, k, v):
        def step(c, _):
            k, v, acc, m, l = c
            s = q @ k.T
            mn = jnp.maximum(m, s.max(-1))
            p = jnp.exp(s - mn[:, None])
            corr = jnp.exp(m - mn)
            acc = acc * corr[:, None] + p @ v
            l = l * corr + p.sum(-1)
            k = jax.lax.ppermute(k, "sp", [(i, (i + 1) % n) for i in range(n)])
            v = jax.lax.ppermute(v, "sp", [(i, (i + 1) % n) for i in range(n)])
            return (k, v, acc, mn, l), None
        init = (k, v, q * 0, q[:, 0] * 0 - jnp.inf, q[:, 0] * 0)
        (k, v, acc, m, l), _ = jax.lax.scan(step, init, None, length=n)
        return acc / l[:, None]
    def f(q, k, v):
        return jax.shard_map(body, mesh=mesh, in_specs=(spec("sp"), spec("sp"), spec("sp")), out_specs=spec("sp"))(q, k, v)
    return f, (arr((16, 8)), arr((16, 8), seed=1), arr((16, 8), seed=2)), {}, {}


@program("shard_map_megatron_mlp_allgather_rs")
def _megatron():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("dp", "tp"))
    def body(x, w1, w2):
        xf = jax.lax.all_gather(x, "tp", axis=1, tiled=True)
        h = jax.nn.gelu(xf @ w1)
        y = h @ w2
        return jax.lax.psum_scatter(y, "tp", scatter_dimension=1, tiled=True)
    def f(x, w1, w2):
        y = jax.shard_map(body, mesh=mesh, in_specs=(spec("dp", "tp"), spec(None, "tp"), spec("tp", None)), out_specs=spec("dp", "tp"))(x, w1, w2)
        return jax.nn.relu(y) + x
    return f, (arr((6, 16)), arr((16, 32), seed=1), arr((32, 16), seed=2)), \
        dict(in_shardings=(named(mesh, "dp"), None, None)), {}


@program("shard_map_partial_auto_inside_jit_constraint")
def _smap_partial():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def body(x, w):
        y = jnp.tanh(x @ w)
        return jax.lax.psum(y.sum(0, keepdims=True), "a"), jax.lax.all_gather(y, "a", tiled=True)
    def f(x, w):
        x = constrain(x * 2, mesh, "a", "b")
        s, g = jax.shard_map(body, mesh=mesh, in_specs=(spec("a"), spec()), out_specs=(spec(), spec()), axis_names={"a"}, check_vma=False)(x, w)
        return s + 1, constrain(g, mesh, "c", U)
    return f, (arr((8, 6)), arr((6, 10), seed=1)), dict(in_shardings=(named(mesh, None, "b"), named(mesh, None, "c"))), {}


@program("shard_map_all_to_all_expert_parallel")
def _a2a():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("d", "e"))
    def body(x, w):
        # x: [E=4 (sharded per device -> 1), C, D] local; all_to_all tokens to experts
        y = jax.lax.all_to_all(x, "e", 0, 1, tiled=True)
        y = jnp.einsum("ecd,edf->ecf", y, w)
        return jax.lax.all_to_all(y, "e", 1, 0, tiled=True)
    def f(x, w):
        return jax.shard_map(body, mesh=mesh, in_specs=(spec("d"), spec("e")), out_specs=spec("d", "e"))(x, w)
    return f, (arr((8, 4, 6)), arr((4, 6, 6), seed=1)), dict(in_shardings=(named(mesh, "d"), named(mesh, "e"))), {}


# ------------------------------------------------------------------ nested jit, donation, specials
@program("nested_jit_named_computations_sharded")
def _nested():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    @jax.jit
    def norm(x): return x / jnp.sqrt((x * x).sum(-1, keepdims=True) + 1e-6)
    @jax.jit
    def proj(x, w): return constrain(norm(x) @ w, mesh, "x", "y")
    def f(x, w1, w2):
        h = proj(x, w1)
        h = jax.nn.relu(h)
        return proj(h, w2), norm(h)
    return f, (arr((6, 8)), arr((8, 12), seed=1), arr((12, 12), seed=2)), \
        dict(in_shardings=(named(mesh, "x"), named(mesh, None, "y"), named(mesh, "y"))), {}


@program("adamw_fsdp_multi_axis_donate")
def _adamw():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("data", "fsdp", "tensor"))
    def loss(p, x, y):
        h = jax.nn.gelu(_ln(x, p["g"], p["b"], jnp) @ p["w1"])
        return ((h @ p["w2"] - y) ** 2).mean()
    def step(p, m, v, x, y, lr):
        g = jax.grad(loss)(p, x, y)
        gn = jnp.sqrt(sum(jnp.sum(t * t) for t in jax.tree.leaves(g)))
        g = jax.tree.map(lambda t: t * jnp.minimum(1.0, 1.0 / (gn + 1e-6)), g)
        m = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
        v = jax.tree.map(lambda v, g: 0.95 * v + 0.05 * g * g, v, g)
        p = jax.tree.map(lambda p, m, v: p - lr * (m / (jnp.sqrt(v) + 1e-8) + 0.01 * p), p, m, v)
        return p, m, v, gn
    D, F = 12, 20
    p = dict(g=arr((D,)), b=arr((D,), seed=1), w1=arr((D, F), seed=2), w2=arr((F, 5), seed=3))
    ps = dict(g=named(mesh), b=named(mesh), w1=named(mesh, "fsdp", "tensor"), w2=named(mesh, ("tensor", "fsdp")))
    return step, (p, p, p, arr((8, D), seed=4), arr((8, 5), seed=5), jnp.float32(1e-3)), \
        dict(in_shardings=(ps, ps, ps, named(mesh, ("data", "fsdp")), named(mesh, "data"), None), out_shardings=(ps, ps, ps, None),
             donate_argnums=(0, 1, 2)), {}


@program("size1_axis_mesh_unconstrained_dims")
def _size1():
    jax, jnp = jax_jnp()
    mesh = make_mesh((1, 4, 2), ("pod", "x", "y"))
    def f(a, b):
        c = constrain(a @ b, mesh, ("pod", "x"), U)
        d = constrain(jnp.exp(c), mesh, U, "y")
        return d.sum(1), constrain(d.T, mesh, "pod", ("x", "y"))
    return f, (arr((6, 8)), arr((8, 10), seed=1)), dict(in_shardings=(named(mesh, "pod", "x"), named(mesh, "y", "pod"))), {}


@program("permuted_device_mesh_two_axes_on_dim")
def _perm():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"), devs=[0, 2, 4, 6, 1, 3, 5, 7])
    def f(x, y):
        z = constrain(x + y, mesh, ("c", "a"), "b")
        return z @ z.T, constrain(z.sum(0), mesh, ("b", "c"))
    return f, (arr((8, 4)), arr((8, 4), seed=1)), dict(in_shardings=(named(mesh, ("a", "b")), named(mesh, None, ("c", "a")))), {}


@program("two_device_mesh_optimizer_cond")
def _cond2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2,), ("x",))
    def f(step, p, g):
        def warm(p): return p - 0.01 * step * g
        def main(p): return p - 0.1 * jnp.clip(g, -1, 1)
        p = jax.lax.cond(step < 10, warm, main, p)
        p = jax.lax.switch(jnp.clip(step % 3, 0, 2).astype(jnp.int32), [lambda p: p, lambda p: p * 0.99, lambda p: constrain(p, mesh, "x", None)], p)
        return p
    return f, (jnp.float32(3), arr((5, 6)), arr((5, 6), seed=1)), dict(in_shardings=(None, named(mesh, None, "x"), named(mesh, None, "x"))), {}


@program("vmap_per_example_grad_clipping_sharded")
def _dpsgd():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def loss(w, x, y): return (jnp.tanh(x @ w) - y) ** 2
    def f(w, xs, ys):
        g = jax.vmap(jax.grad(lambda w, x, y: loss(w, x, y).sum()), in_axes=(None, 0, 0))(w, xs, ys)
        n = jnp.sqrt((g ** 2).sum((1, 2)))
        g = g / jnp.maximum(1.0, n)[:, None, None]
        return w - 0.1 * g.mean(0)
    return f, (arr((6, 4)), arr((8, 6), seed=1), arr((8, 4), seed=2)), \
        dict(in_shardings=(named(mesh, None, "y"), named(mesh, "x"), named(mesh, "x")), out_shardings=named(mesh, None, "y")), {}


@program("clamp_iota_onehot_masking_bool_ops")
def _masking():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(x, lengths):
        T = x.shape[1]
        mask = jnp.arange(T)[None, :] < lengths[:, None]
        xm = jnp.where(mask[..., None], x, 0.0)
        mean = xm.sum(1) / jnp.maximum(lengths, 1)[:, None]
        oh = jax.nn.one_hot(jnp.clip(lengths - 1, 0, T - 1), T, dtype=jnp.bool_)
        last = jnp.where(oh[..., None], x, 0.0).sum(1)
        return mean, last, jnp.logical_and(mask, ~oh).any(1), jnp.nonzero(mask[0], size=3, fill_value=-1)[0]
    return f, (arr((6, 9, 8)), arr((6,), "int32", hi=9)), dict(in_shardings=(named(mesh, "x", None, "y"), named(mesh, "x"))), {}


@program("mamba_like_selective_scan")
def _mamba():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("b", "d"))
    def f(x, A, Bm, Cm, dt):
        # x [B, L, D], A [D, N], Bm/Cm [B, L, N], dt [B, L, D]
        dA = jnp.exp(dt[..., None] * A[None, None])                       # [B, L, D, N]
        dBx = dt[..., None] * Bm[:, :, None, :] * x[..., None]
        def step(h, inp):
            a, bx, c = inp
            h = a * h + bx
            return h, jnp.einsum("bdn,bn->bd", h, c)
        h0 = jnp.zeros((x.shape[0], x.shape[2], A.shape[1]))
        _, ys = jax.lax.scan(step, h0, (dA.swapaxes(0, 1), dBx.swapaxes(0, 1), Cm.swapaxes(0, 1)))
        return ys.swapaxes(0, 1)
    return f, (arr((2, 5, 12)), -jnp.abs(arr((12, 3), seed=1)), arr((2, 5, 3), seed=2), arr((2, 5, 3), seed=3), jnp.abs(arr((2, 5, 12), seed=4))), \
        dict(in_shardings=(named(mesh, "b", None, "d"), named(mesh, "d"), named(mesh, "b"), named(mesh, "b"), named(mesh, "b", None, "d"))), {}


@program("vit_patch_embed_and_pool")
def _vit():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("data", "model"))
    def f(img, w, pos, cls):
        B, H, W, C = img.shape
        p = 4
        patches = img.reshape(B, H // p, p, W // p, p, C).transpose(0, 1, 3, 2, 4, 5).reshape(B, (H // p) * (W // p), p * p * C)
        tok = patches @ w
        tok = jnp.concatenate([jnp.broadcast_to(cls, (B, 1, tok.shape[-1])), tok], 1) + pos
        tok = constrain(tok, mesh, "data", None, "model")
        return _ln(tok, 1.0, 0.0, jnp)[:, 0], tok[:, 1:].mean(1)
    return f, (arr((4, 12, 8, 3)), arr((48, 10), seed=1), arr((7, 10), seed=2), arr((1, 1, 10), seed=3)), \
        dict(in_shardings=(named(mesh, "data"), named(mesh, None, "model"), None, None)), {}


@program("reduce_precision_and_bitcast_convert")
def _bits():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(x):
        q = jnp.round(x * 127 / jnp.max(jnp.abs(x), axis=1, keepdims=True)).astype(jnp.int8)
        u = jax.lax.bitcast_convert_type(x, jnp.uint32)
        hi = jax.lax.shift_right_logical(u, jnp.uint32(16))
        pairs = jax.lax.bitcast_convert_type(x.astype(jnp.bfloat16), jnp.uint16)
        return q, hi.astype(jnp.int32), pairs, jax.lax.reduce_precision(x, 5, 10), jnp.nan_to_num(x / 0)
    return f, (arr((6, 12)),), dict(in_shardings=named(mesh, "x", "y")), {}


@program("sparse_like_csr_matvec")
def _csr():
    jax, jnp = jax_jnp()
    mesh = make_mesh((8,), ("x",))
    def f(data, cols, rowid, v):
        prod = data * jnp.take(v, cols)
        return jax.ops.segment_sum(prod, rowid, num_segments=10, indices_are_sorted=True), jnp.cumsum(jnp.bincount(rowid, length=10))
    return f, (arr((24,)), arr((24,), "int32", hi=16), jnp.sort(arr((24,), "int32", 1, hi=10)), arr((16,), seed=2)), \
        dict(in_shardings=(named(mesh, "x"), named(mesh, "x"), named(mesh, "x"), named(mesh, "x"))), {}


# ------------------------------------------------------------------ rarer sdy features
@program("custom_partitioning_einsum_rule")
def _cp():
    jax, jnp = jax_jnp()
    from jax.experimental.custom_partitioning import custom_partitioning
    mesh = make_mesh((2, 4), ("x", "y"))
    @custom_partitioning
    def mm(a, b): return a @ b
    def part(mesh, arg_shapes, result_shape):
        return mesh, (lambda a, b: a @ b), result_shape.sharding, tuple(s.sharding for s in arg_shapes)
    mm.def_partition(partition=part, sharding_rule="i j, j k -> i k", need_replication_factors=("k",))
    @custom_partitioning
    def rowsum(a): return a.sum(1)
    rowsum.def_partition(partition=lambda mesh, a, r: (mesh, (lambda a: a.sum(1)), r.sharding, (a[0].sharding,)),
                         sharding_rule="i j -> i", reduction_factors=("j",))
    def f(a, b):
        c = mm(a, b)
        return rowsum(jnp.tanh(c)), constrain(c, mesh, "y", None)
    return f, (arr((8, 12)), arr((12, 6), seed=1)), dict(in_shardings=(named(mesh, "x", "y"), named(mesh, "y", "x"))), {}


@program("custom_partitioning_permutation_factor")
def _cp2():
    jax, jnp = jax_jnp()
    from jax.experimental.custom_partitioning import custom_partitioning
    mesh = make_mesh((4, 2), ("x", "y"))
    @custom_partitioning
    def shift(a): return jnp.roll(a, 1, axis=1)
    shift.def_partition(partition=lambda mesh, a, r: (mesh, (lambda a: jnp.roll(a, 1, axis=1)), r.sharding, (a[0].sharding,)),
                        sharding_rule="b s -> b s", permutation_factors=("s",))
    @custom_partitioning
    def merge2(a): return a.reshape(a.shape[0], -1)
    merge2.def_partition(partition=lambda mesh, a, r: (mesh, (lambda a: a.reshape(a.shape[0], -1)), r.sharding, (a[0].sharding,)),
                         sharding_rule="b h d -> b (h d)")
    def f(a): return merge2((shift(a) * 2).reshape(8, 2, 5))
    return f, (arr((8, 10)),), dict(in_shardings=(named(mesh, "x", "y"),)), {}


@program("two_meshes_same_devices")
def _two_meshes():
    jax, jnp = jax_jnp()
    m1 = make_mesh((2, 4), ("x", "y"))
    m2 = make_mesh((8,), ("z",))
    def f(a, b):
        c = constrain(a @ b, m2, "z", None)
        return jnp.sin(c) + constrain(b.T @ a.T, m1, "y", "x").T
    return f, (arr((8, 8)), arr((8, 8), seed=1)), dict(in_shardings=(named(m1, "x", "y"), named(m1, "y"))), {}


@program("nested_jit_with_its_own_shardings")
def _nested_sh():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    g = jax.jit(lambda x, w: jax.nn.relu(x @ w), in_shardings=(named(mesh, "x"), named(mesh, None, "y")), out_shardings=named(mesh, "x", "y"))
    def f(x, w1, w2):
        return g(g(x, w1), w2).sum(0), g(x.T, w2.T)
    return f, (arr((8, 8)), arr((8, 8), seed=1), arr((8, 8), seed=2)), dict(in_shardings=(named(mesh, None, "y"), None, None)), {}


@program("ragged_dot_grouped_matmul")
def _ragged():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(lhs, rhs, gs):
        out = jax.lax.ragged_dot(lhs, rhs, gs)
        return constrain(out, mesh, "x", "y")
    return f, (arr((16, 8)), arr((3, 8, 12), seed=1), jnp.array([5, 6, 5], jnp.int32)), \
        dict(in_shardings=(named(mesh, "x"), named(mesh, None, None, "y"), None)), {}


@program("scan_carry_constraint_unrolled")
def _scan_wsc():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def f(h, xs, w):
        def step(h, x):
            h = jnp.tanh(h @ w + x)
            h = constrain(h, mesh, ("a", "b"), "c")
            return h, constrain(h.sum(1), mesh, "a")
        return jax.lax.scan(step, h, xs, unroll=2)
    return f, (arr((6, 8)), arr((5, 6, 8), seed=1), arr((8, 8), seed=2)), dict(in_shardings=(None, named(mesh, None, None, "c"), named(mesh, "c"))), {}


@program("shard_map_cond_and_two_axis_gather")
def _smap_cond():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def body(x, flag):
        y = jax.lax.cond(flag[0] > 0, lambda x: x * 2, lambda x: jnp.flip(x, 0), x)
        g = jax.lax.all_gather(y, ("a", "b"), axis=0, tiled=True)
        return g, jax.lax.psum(y.sum(), ("a", "b"))
    def f(x, flag):
        return jax.shard_map(body, mesh=mesh, in_specs=(spec(("a", "b")), spec()), out_specs=(spec(), spec()), axis_names={"a", "b"}, check_vma=False)(x, flag)
    return f, (arr((8, 6)), jnp.ones((1,), jnp.int32)), dict(in_shardings=(named(mesh, ("a", "b"), "c"), None)), {}


@program("optimization_barrier_sharded_remat")
def _barrier():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(a, b):
        a2, b2 = jax.lax.optimization_barrier((a * 2, b + 1))
        c = constrain(a2 @ b2, mesh, "y", "x")
        d, = jax.lax.optimization_barrier((c,))
        return d.T, (a2 - b2.T).max(0)
    return f, (arr((8, 6)), arr((6, 8), seed=1)), dict(in_shardings=(named(mesh, "x"), named(mesh, None, "x"))), {}


@program("fp8_matmul_preferred_type")
def _fp8():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(a, b, sa, sb):
        qa = (a / sa).astype(jnp.float8_e4m3fn)
        qb = (b / sb).astype(jnp.float8_e4m3fn)
        c = jax.lax.dot_general(qa, qb, (((1,), (0,)), ((), ())), preferred_element_type=jnp.float32) * sa * sb
        return c.astype(jnp.bfloat16), jnp.max(jnp.abs(c))
    return f, (arr((8, 16)), arr((16, 12), seed=1), jnp.float32(0.5), jnp.float32(0.25)), \
        dict(in_shardings=(named(mesh, "x", "y"), named(mesh, "y"), None, None)), {}


@program("dead_args_and_unused_results")
def _dead():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(a, unused, b):
        junk = jnp.exp(unused) @ unused   # dead
        c = a * b
        _ = constrain(c @ c.T, mesh, "y", "x")  # dead constraint
        return c, a
    return f, (arr((8, 8)), arr((8, 8), seed=1), arr((8, 8), seed=2)), \
        dict(in_shardings=(named(mesh, "x"), named(mesh, "y"), named(mesh, None, "y")), out_shardings=(named(mesh, None, "y"), None)), {}


@program("large_constants_and_iota_sharded")
def _consts():
    jax, jnp = jax_jnp()
    import numpy as np
    mesh = make_mesh((2, 4), ("x", "y"))
    table = np.arange(96, dtype=np.float32).reshape(8, 12) / 7
    def f(x):
        t = constrain(jnp.asarray(table), mesh, None, "y")
        pos = jax.lax.broadcasted_iota(jnp.int32, (8, 12), 1)
        return x * t + pos, jnp.asarray(table)[::2] + 1, jnp.full((8, 12), 3.0) * x
    return f, (arr((8, 12)),), dict(in_shardings=named(mesh, "x")), {}


@program("multi_operand_sort_two_keys_and_select")
def _sort2():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(a, b, c):
        sa, sb, sc = jax.lax.sort((a, b, c), dimension=0, num_keys=2)
        sel = jnp.select([a > 0, b > 0], [a, b * 2], default=c)
        return sa, sb, sc, sel, jnp.argmax(sel, axis=0, keepdims=True)
    return f, (arr((8, 6)), arr((8, 6), "int32", 1), arr((8, 6), seed=2)), \
        dict(in_shardings=(named(mesh, "x", "y"), named(mesh, "x"), named(mesh, None, "y"))), {}


@program("lax_map_batched_and_vmap_constraint")
def _lmap():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(xs, w):
        a = jax.lax.map(lambda x: jnp.tanh(x @ w), xs, batch_size=2)
        b = jax.vmap(lambda x: constrain(x @ w, mesh, None, "y"))(xs)
        return a + b
    return f, (arr((6, 5, 8)), arr((8, 8), seed=1)), dict(in_shardings=(named(mesh, "x"), named(mesh, "y"))), {}


@program("einsum_three_operands_repeated_index")
def _einsum3():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("p", "q", "r"))
    def f(a, b, c):
        return jnp.einsum("bij,bjk,bk->bi", a, b, c), jnp.einsum("ii->i", a[0, :, :6]), jnp.einsum("bij,bij->bj", a, a)
    return f, (arr((4, 6, 8)), arr((4, 8, 10), seed=1), arr((4, 10), seed=2)), \
        dict(in_shardings=(named(mesh, "p", "q", "r"), named(mesh, "p", "r", "q"), named(mesh, "p", "q"))), {}


@program("explicit_axes_mlp_reshard_auto")
def _explicit():
    jax, jnp = jax_jnp()
    import numpy as np
    from jax.sharding import AxisType, NamedSharding
    mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    a = jax.device_put(arr((8, 16)), NamedSharding(mesh, spec("x", None)))
    w = jax.device_put(arr((16, 12), seed=1), NamedSharding(mesh, spec(None, "y")))
    def f(a, w):
        h = jnp.einsum("bd,df->bf", a, w)                                 # -> P("x", "y")
        h = jax.sharding.reshard(jax.nn.relu(h), NamedSharding(mesh, spec(("x", "y"), None)))
        @jax.sharding.auto_axes
        def g(h): return jnp.cumsum(h, axis=0)
        return g(h, out_sharding=spec("x")), h * 2
    return f, (a, w), {}, dict(mesh=mesh)


@program("explicit_axes_unreduced_matmul")
def _unreduced():
    jax, jnp = jax_jnp()
    import numpy as np
    from jax.sharding import AxisType, NamedSharding
    mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    a = jax.device_put(arr((8, 16)), NamedSharding(mesh, spec("x", "y")))
    b = jax.device_put(arr((16, 12), seed=1), NamedSharding(mesh, spec("y", None)))
    def f(a, b):
        from jax.sharding import PartitionSpec
        c = jnp.dot(a, b, out_sharding=PartitionSpec("x", None, unreduced={"y"}))
        return jax.sharding.reshard(c, spec("x", None)) * 2
    return f, (a, b), {}, dict(mesh=mesh)


@program("host_offload_memory_kinds")
def _offload():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    from jax.sharding import NamedSharding
    def f(x, w):
        h = jnp.tanh(x @ w)
        hh = jax.device_put(h, NamedSharding(mesh, spec("x", "y"), memory_kind="pinned_host"))
        back = jax.device_put(hh, NamedSharding(mesh, spec("x", "y"), memory_kind="device"))
        return back @ w.T
    return f, (arr((8, 16)), arr((16, 16), seed=1)), dict(in_shardings=(named(mesh, "x"), named(mesh, None, "y"))), {}


@program("reversed_axis_order_on_one_dim")
def _rev_axes():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(a, b):
        c = a + b
        d = constrain(c.reshape(4, 4, 6), mesh, "y", "x", None)
        return d.reshape(16, 6), constrain(c * 2, mesh, ("x", "y"), None)
    return f, (arr((16, 6)), arr((16, 6), seed=1)), dict(in_shardings=(named(mesh, ("y", "x")), named(mesh, "y"))), {}


@program("while_loop_converge_sharded_reduction")
def _while_conv():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(a, b):
        d = jnp.diag(a)
        def cond(c): return (c[2] < 20) & (jnp.linalg.norm(a @ c[0] - b) > 1e-3)
        def body(c):
            x, _, i = c
            x_new = (b - (a @ x - d[:, None] * x)) / d[:, None]
            return constrain(x_new, mesh, "x", "y"), x, i + 1
        return jax.lax.while_loop(cond, body, (jnp.zeros_like(b), b, 0))[0]
    return f, (arr((12, 12)) + 20 * jnp.eye(12), arr((12, 6), seed=1)), dict(in_shardings=(named(mesh, "x"), named(mesh, "x", "y"))), {}


@program("layer_scan_nondivisible_layers_fsdp_gather")
def _scan_fsdp():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("data", "fsdp"))
    def f(x, ws, bs):
        def layer(h, p):
            w, b = p
            w = constrain(w, mesh, None, None)        # all-gather params for compute
            return constrain(jax.nn.gelu(h @ w + b), mesh, ("data", "fsdp"), None), None
        return jax.lax.scan(layer, x, (ws, bs))[0]
    return f, (arr((8, 16)), arr((5, 16, 16), seed=1), arr((5, 16), seed=2)), \
        dict(in_shardings=(named(mesh, "data"), named(mesh, None, "fsdp"), named(mesh, None, "fsdp"))), {}


@program("jnp_linalg_pinv_norms_lstsq")
def _pinv():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2), ("x", "y"))
    def f(a, b):
        return jnp.linalg.pinv(a), jnp.linalg.norm(a, ord="fro"), jnp.linalg.norm(a, ord=2), jnp.linalg.lstsq(a, b)[0], jnp.linalg.matrix_power(a[:6] @ a[:6].T, 3)
    return f, (arr((8, 6)), arr((8, 2), seed=1)), dict(in_shardings=(named(mesh, "x", "y"), named(mesh, "y"))), {}


@program("size1_and_size2_meshes_shard_map_unconstrained_out")
def _size1_smap():
    jax, jnp = jax_jnp()
    mesh = make_mesh((1, 2), ("one", "two"))
    def f(x):
        y = jax.shard_map(lambda x: jax.lax.psum(x, "one") * 2, mesh=mesh, in_specs=spec("one", "two"), out_specs=spec("one", "two"))(x)
        return constrain(y.reshape(3, 4, 2), mesh, U, "one", "two")
    return f, (arr((6, 4)),), dict(in_shardings=(named(mesh, "two"),)), {}


# ------------------------------------------------------------------ batching dims, composites, sharded windows and buffers
@program("vmap_gather_scatter_batching_dims")
def _vgather():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(tables, ids, upd):
        g = jax.vmap(lambda t, i: t[i])(tables, ids)                        # gather with batching dims
        s = jax.vmap(lambda t, i, u: t.at[i].add(u))(tables, ids, upd)      # scatter with batching dims
        return constrain(g, mesh, "x", None, "y"), s
    return f, (arr((4, 10, 8)), arr((4, 6), "int32", hi=10), arr((4, 6, 8), seed=1)), \
        dict(in_shardings=(named(mesh, "x", None, "y"), named(mesh, "x"), named(mesh, "x", None, "y"))), {}


@program("lax_composite_and_custom_vjp")
def _composite():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    @jax.custom_vjp
    def clip_grad(x): return x
    clip_grad.defvjp(lambda x: (x, None), lambda _, g: (jnp.clip(g, -1, 1),))
    gelu_c = jax.lax.composite(lambda x: jax.nn.gelu(x, approximate=True), name="my.gelu")
    def loss(w, x):
        return jnp.sum(gelu_c(clip_grad(x @ w)) ** 2)
    def f(w, x):
        return jax.grad(lambda w: jnp.sum(clip_grad(x @ w) ** 2))(w), loss(w, x)
    return f, (arr((8, 6)), arr((8, 8), seed=1)), dict(in_shardings=(named(mesh, None, "y"), named(mesh, "x"))), {}


@program("sharded_spatial_conv_and_window_reduce")
def _spatial():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(x, k):
        y = jax.lax.conv_general_dilated(x, k, (1, 2), [(1, 1), (2, 2)], lhs_dilation=(1, 1), rhs_dilation=(1, 2),
                                         dimension_numbers=("NCHW", "OIHW", "NCHW"))
        y = constrain(y, mesh, None, None, "x", "y")
        m = jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 1, 3, 2), (1, 1, 1, 2), [(0, 0), (0, 0), (1, 1), (0, 1)])
        return m, jnp.flip(y, (2, 3))
    return f, (arr((2, 3, 12, 16)), arr((5, 3, 3, 3), seed=1)), dict(in_shardings=(named(mesh, None, None, "x", "y"), None)), {}


@program("unique_sized_histogram_digitize")
def _unique():
    jax, jnp = jax_jnp()
    mesh = make_mesh((8,), ("x",))
    def f(a, bins):
        u, inv, cnt = jnp.unique(a, size=10, fill_value=-1, return_inverse=True, return_counts=True)
        h = jnp.histogram(a.astype(jnp.float32), bins=bins)[0]
        return u, inv, cnt, h, jnp.digitize(a.astype(jnp.float32), bins)
    return f, (arr((24,), "int32", hi=12), jnp.linspace(0, 12, 7)), dict(in_shardings=(named(mesh, "x"), None)), {}


@program("concat_on_sharded_dim_and_split")
def _concat():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def f(x, y, z):
        c = jnp.concatenate([x, y, z], axis=1)            # sharded concat dim
        p, q, r = jnp.split(c, [3, 9], axis=1)
        st = jnp.stack([x, y[:, :4]], axis=1)
        return constrain(c, mesh, "a", ("b", "c")), p * 2, q.sum(1), r, st
    return f, (arr((4, 4)), arr((4, 8), seed=1), arr((4, 2), seed=2)), \
        dict(in_shardings=(named(mesh, "a", "b"), named(mesh, "a", ("b", "c")), named(mesh, None, "c"))), {}


@program("triangular_solve_cholesky_batched_sharded")
def _trisolve():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("x", "y"))
    def f(a, b):
        spd = jnp.einsum("bij,bkj->bik", a, a) + 6 * jnp.eye(6)
        L = jnp.linalg.cholesky(spd)
        y = jax.lax.linalg.triangular_solve(L, b, left_side=True, lower=True)
        return constrain(y, mesh, "x", None, "y"), jnp.linalg.det(spd)
    return f, (arr((8, 6, 6)), arr((8, 6, 4), seed=1)), dict(in_shardings=(named(mesh, "x"), named(mesh, "x", None, "y"))), {}


@program("grad_through_shard_map_and_constraint")
def _smap_grad():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("dp", "tp"))
    def loss(w, x):
        h = jax.shard_map(lambda x, w: jax.lax.psum(x @ w, "tp"), mesh=mesh, in_specs=(spec("dp", "tp"), spec("tp", None)), out_specs=spec("dp"))(x, w)
        h = constrain(jnp.tanh(h), mesh, "dp", "tp")
        return (h ** 2).mean()
    return jax.grad(loss), (arr((16, 12)), arr((8, 16), seed=1)), dict(in_shardings=(named(mesh, "tp"), named(mesh, "dp"))), {}


@program("interleaved_axes_reshape_heads")
def _heads():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    def f(x, w):
        h = (x @ w).reshape(4, 6, 8, 3)          # [b, s, heads, hd], 24 -> 8x3 with (b, c) on dim
        h = constrain(h, mesh, "a", None, ("b", "c"), None)
        t = h.transpose(0, 2, 1, 3).reshape(4, 8, 18)
        return constrain(t, mesh, None, ("a", "b"), U), t.reshape(32, 18)
    return f, (arr((4, 6, 12)), arr((12, 24), seed=1)), dict(in_shardings=(named(mesh, "a"), named(mesh, None, ("b", "c")))), {}


@program("dynamic_slice_sharded_dims_rolling_buffer")
def _dslice():
    jax, jnp = jax_jnp()
    mesh = make_mesh((2, 4), ("x", "y"))
    def f(buf, new, start):
        buf = jax.lax.dynamic_update_slice(buf, new, (start, 0))
        win = jax.lax.dynamic_slice(buf, (start, 2), (6, 8))
        idx = jax.lax.dynamic_index_in_dim(buf, start, axis=0, keepdims=False)
        return buf, constrain(win, mesh, "y", "x"), idx
    return f, (arr((16, 12)), arr((4, 12), seed=1), jnp.int32(5)), \
        dict(in_shardings=(named(mesh, "x", "y"), named(mesh, None, "y"), None), out_shardings=(named(mesh, "x", "y"), None, None), donate_argnums=0), {}


@program("stop_gradient_ema_target_network")
def _ema():
    jax, jnp = jax_jnp()
    mesh = make_mesh((4, 2), ("data", "model"))
    def step(online, target, x):
        def loss(o):
            p = jax.nn.relu(x @ o["w1"]) @ o["w2"]
            t = jax.lax.stop_gradient(jax.nn.relu(x @ target["w1"]) @ target["w2"])
            return ((p - t) ** 2).mean()
        g = jax.grad(loss)(online)
        online = jax.tree.map(lambda p, g: p - 0.1 * g, online, g)
        target = jax.tree.map(lambda t, o: 0.99 * t + 0.01 * o, target, online)
        return online, target
    p = dict(w1=arr((8, 16)), w2=arr((16, 4), seed=1))
    ps = dict(w1=named(mesh, None, "model"), w2=named(mesh, "model"))
    return step, (p, p, arr((12, 8), seed=2)), dict(in_shardings=(ps, ps, named(mesh, "data")), out_shardings=(ps, ps), donate_argnums=(0, 1)), {}
