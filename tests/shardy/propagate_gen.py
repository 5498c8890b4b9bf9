"""A seeded generator of StableHLO programs with Shardy annotations, for testing propagation against jaxlib.

Meshes of 1-3 axes (device ids, size-1 and odd sizes, sometimes a second mesh or the same mesh under two
names); element-wise ops, dot_general with batching and contracting dims, transpose, reshapes that split
and merge dims, broadcast_in_dim, reduce, concatenate, slice; sharding constraints and groups; open and
closed dims, priorities, replicated axes, non-divisible dims; conflicts between factors (a dot_general whose
operands, of different sizes, shard their free dims along the same axis), which the aggressive strategy resolves
by source size (feature `conflicts`, on by default)."""
import random

AXIS_SIZES = (1, 2, 2, 2, 3, 4, 4, 8)
DIM_SIZES = (1, 2, 3, 4, 4, 6, 8, 8, 12, 16, 16, 32)
UNARY = ("negate", "tanh", "exponential", "abs", "sqrt")
BINARY = ("add", "multiply", "subtract", "maximum")


def gen_mesh(r):
    names = r.sample(["a", "b", "c", "x", "y"], r.randint(1, 3))
    sizes = [r.choice(AXIS_SIZES) for _ in names]
    n = 1
    for s in sizes: n *= s
    body = "[" + ", ".join(f'"{a}"={s}' for a, s in zip(names, sizes)) + "]"
    if n > 1 and r.random() < 0.25:
        ids = list(range(n)); r.shuffle(ids)
        body += ", device_ids=[" + ", ".join(map(str, ids)) + "]"
    return list(zip(names, sizes)), f"<{body}>"


def _sub_axes(name, size):
    "Valid sub-axes of an axis of `size`: (pre, sz) with pre*sz dividing size and 1 < sz < size."
    out = []
    for pre in range(1, size):
        for sz in range(2, size):
            if size % (pre * sz) == 0: out.append((pre, sz))
    return out


def gen_sharding(r, mesh_name, axes, rank, allow_priority=True, density=0.5):
    free = [a for a, _ in axes]
    r.shuffle(free)
    size = dict(axes)
    dims = []
    for _ in range(rank):
        refs = []
        while free and r.random() < density * (0.6 if refs else 1.0):
            a = free.pop()
            subs = _sub_axes(a, size[a])
            if subs and r.random() < 0.15:
                pre, sz = r.choice(subs)
                refs.append(f'"{a}":({pre}){sz}')
            else:
                refs.append(f'"{a}"')
        is_open = r.random() < 0.5
        text = "{" + ", ".join(refs) + (", ?" if is_open and refs else "?" if is_open else "") + "}"
        if allow_priority and (refs or is_open) and r.random() < 0.2: text += f"p{r.randint(0, 2)}"
        dims.append(text)
    rep = ""
    if free and r.random() < 0.2:
        order = [a for a, _ in axes]
        pick = sorted(r.sample(free, r.randint(1, len(free))), key=order.index)
        rep = ", replicated={" + ", ".join(f'"{a}"' for a in pick) + "}"
    return f"<@{mesh_name}, [{', '.join(dims)}]{rep}>"


def ttype(shape): return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


class _Prog:
    def __init__(self, r, features):
        self.r, self.f = r, features
        self.meshes = []
        axes, text = gen_mesh(r)
        self.meshes.append(("mesh", axes, text))
        if r.random() < 0.15: self.meshes.append(("mesh_alias", axes, text))
        if r.random() < 0.15:
            axes2, text2 = gen_mesh(r)
            self.meshes.append(("mesh2", axes2, text2))
        self.args, self.body, self.vals, self.n, self.groups, self.grouped = [], [], [], 0, 0, set()
        self.returned = []   # values the function returns whatever else it returns (so that they are not dead)

    def mesh(self):
        name, axes, _ = self.r.choice(self.meshes) if self.r.random() < 0.2 else self.meshes[0]
        return name, axes

    def sharding(self, rank, **kw):
        name, axes = self.mesh()
        return gen_sharding(self.r, name, axes, rank, **kw)

    def new(self):
        self.n += 1
        return f"%v{self.n}"

    def arg(self, shape, sharding=None):
        "A new argument of `shape`: sharded as `sharding` says, or drawn (sometimes unsharded)."
        name = f"%arg{len(self.args)}"
        if sharding is not None: sh = f" {{sdy.sharding = #sdy.sharding{sharding}}}"
        else: sh = f" {{sdy.sharding = #sdy.sharding{self.sharding(len(shape))}}}" if self.r.random() < self.f.get("arg_rate", 0.6) else ""
        self.args.append(f"{name}: {ttype(shape)}{sh}")
        self.vals.append((name, tuple(shape)))
        return name

    def value(self, pred=lambda s: True):
        cands = [v for v in self.vals if v[1] and pred(v[1])]
        return self.r.choice(cands[-6:]) if cands else None

    def emit(self, line, shape, attr=True):
        v = self.new()
        sh = ""
        if attr and self.r.random() < self.f.get("op_rate", 0.12):
            sh = f" {{sdy.sharding = #sdy.sharding_per_value<[{self.sharding(len(shape))}]>}}"
        self.body.append(line.replace("{v}", v, 1).replace("{sh}", sh, 1))
        self.vals.append((v, tuple(shape)))
        return v

    def step(self):
        r = self.r
        kind = r.choice(["unary", "binary", "binary", "dot", "transpose", "reshape", "reshape", "broadcast", "reduce",
                         "concat", "slice", "constraint", "group", "barrier"] + (["obarrier", "while"] if self.f.get("edges") else [])
                        + (["conflict"] if self.f.get("conflicts", True) else []))
        if kind == "conflict" and self._conflict(): return
        x, s = self.value() or (None, None)
        if x is None: x, s = self.arg(tuple(r.choice(DIM_SIZES) for _ in range(r.randint(1, 3)))), None
        s = dict(self.vals)[x]
        T = ttype(s)
        if kind in ("obarrier", "while"): self._edges(kind, x, s, T)
        elif kind == "unary":
            self.emit(f"{{v}} = stablehlo.{r.choice(UNARY)} {x}{{sh}} : {T}", s)
        elif kind == "binary":
            y = self.value(lambda t: t == s)
            y = y[0] if y and r.random() < 0.7 else self.arg(s)
            self.emit(f"{{v}} = stablehlo.{r.choice(BINARY)} {x}, {y}{{sh}} : {T}", s)
        elif kind == "dot" and len(s) >= 1:
            rank = len(s)
            nb = r.randint(0, max(0, rank - 1)) if rank >= 2 else 0
            batch = list(range(nb))
            contract = [r.choice([d for d in range(rank) if d not in batch])]
            free_l = [d for d in range(rank) if d not in batch and d not in contract]
            n_new = r.randint(0, 1) if free_l or batch else 1
            new_sizes = [r.choice(DIM_SIZES) for _ in range(n_new)]
            rhs_shape = [s[d] for d in batch] + [s[d] for d in contract] + new_sizes
            y = self.arg(rhs_shape)
            out = [s[d] for d in batch] + [s[d] for d in free_l] + new_sizes
            dn = ""
            if batch: dn += f"batching_dims = [{', '.join(map(str, batch))}] x [{', '.join(map(str, range(nb)))}], "
            dn += f"contracting_dims = [{contract[0]}] x [{nb}]"
            self.emit(f"{{v}} = stablehlo.dot_general {x}, {y}, {dn}{{sh}} : ({T}, {ttype(rhs_shape)}) -> {ttype(out)}", out)
        elif kind == "transpose" and len(s) >= 2:
            perm = list(range(len(s))); r.shuffle(perm)
            out = [s[p] for p in perm]
            self.emit(f"{{v}} = stablehlo.transpose {x}, dims = [{', '.join(map(str, perm))}]{{sh}} : ({T}) -> {ttype(out)}", out)
        elif kind == "reshape":
            splittable = [d for d in range(len(s)) if any(s[d] % k == 0 and 1 < k < s[d] for k in (2, 3, 4, 8))]
            if (r.random() < 0.5 or len(s) < 2) and splittable and len(s) < 4:
                d = r.choice(splittable)
                k = r.choice([k for k in (2, 3, 4, 8) if s[d] % k == 0 and 1 < k < s[d]])
                out = list(s[:d]) + [k, s[d] // k] + list(s[d + 1:])
            elif len(s) >= 2:
                d = r.randrange(len(s) - 1)
                out = list(s[:d]) + [s[d] * s[d + 1]] + list(s[d + 2:])
            else:
                out = list(s) + [1]
            self.emit(f"{{v}} = stablehlo.reshape {x}{{sh}} : ({T}) -> {ttype(out)}", out)
        elif kind == "broadcast" and len(s) < 4:
            pos = r.randint(0, len(s))
            out = list(s[:pos]) + [r.choice(DIM_SIZES)] + list(s[pos:])
            dims = [d if d < pos else d + 1 for d in range(len(s))]
            self.emit(f"{{v}} = stablehlo.broadcast_in_dim {x}, dims = [{', '.join(map(str, dims))}]{{sh}} : ({T}) -> {ttype(out)}", out)
        elif kind == "reduce" and len(s) >= 2:
            d = r.randrange(len(s))
            out = [n for k, n in enumerate(s) if k != d]
            c = self.new()
            self.body.append(f"{c} = stablehlo.constant dense<0.000000e+00> : tensor<f32>")
            self.emit(f"{{v}} = stablehlo.reduce({x} init: {c}) applies stablehlo.add across dimensions = [{d}] : ({T}, tensor<f32>) -> {ttype(out)}", out, attr=False)
        elif kind == "concat":
            d = r.randrange(len(s))
            y = self.value(lambda t: t == s)
            y = y[0] if y and r.random() < 0.5 else self.arg(s)
            out = list(s); out[d] *= 2
            self.emit(f"{{v}} = stablehlo.concatenate {x}, {y}, dim = {d}{{sh}} : ({T}, {T}) -> {ttype(out)}", out)
        elif kind == "slice":
            lims = [r.randint(1, n) for n in s]
            out = lims
            self.emit(f"{{v}} = stablehlo.slice {x} [{', '.join(f'0:{n}' for n in lims)}]{{sh}} : ({T}) -> {ttype(out)}", out)
        elif kind == "constraint":
            self.emit(f"{{v}} = sdy.sharding_constraint {x} {self.sharding(len(s))} : {T}", s, attr=False)
        elif kind == "group" and self.f.get("groups", True):
            same = [v for v, t in self.vals if t == s and v != x and v not in self.grouped]
            if same and x not in self.grouped:
                gid = self.groups; self.groups += 1
                self.body.append(f"sdy.sharding_group {x} group_id={gid} : {T}")
                y = r.choice(same); self.grouped |= {x, y}
                self.body.append(f"sdy.sharding_group {y} group_id={gid} : {T}")
        elif kind == "barrier" and self.f.get("barriers", True):
            d = r.choice(["FORWARD", "BACKWARD", "NONE"])
            self.emit(f"{{v}} = sdy.propagation_barrier {x} allowed_direction={d} : {T}", s, attr=False)

    def _conflict(self):
        """A dot_general of lhs [i, k] and rhs [k, j], i != j, whose free dims start with one axis (whether another axis
        follows, and whether the dim is open, drawn for each): two factors want the axis for the result, and the
        aggressive strategy gives it to the factor of the larger operand. False (nothing emitted) if the mesh has no
        axis of size > 1."""
        r = self.r
        name, axes = self.mesh()
        split = [a for a, n in axes if n > 1]
        if not split: return False
        a, size = r.choice(split), dict(axes)
        def dim():
            refs = [a] + ([r.choice([b for b in split if b != a])] if len(split) > 1 and r.random() < 0.3 else [])
            n = 1
            for b in refs: n *= size[b]
            return n, "{" + ", ".join(f'"{b}"' for b in refs) + (", ?" if r.random() < 0.5 else "") + "}"
        (ni, di), (nj, dj) = dim(), dim()
        mi, mj = r.sample((1, 2, 3, 4), 2)   # the free dims' sizes: multiples of their axes', never equal
        i, j, k = ni * mi, nj * mj, r.choice(DIM_SIZES)
        if i == j: j *= 2
        lhs = self.arg((i, k), f"<@{name}, [{di}, {{}}]>")
        rhs = self.arg((k, j), f"<@{name}, [{{}}, {dj}]>")
        self.vals = [v for v in self.vals if v[0] not in (lhs, rhs)]   # later ops and the return use the product instead
        v = self.emit(f"{{v}} = stablehlo.dot_general {lhs}, {rhs}, contracting_dims = [1] x [0] : ({ttype((i, k))}, {ttype((k, j))}) -> "
                      f"{ttype((i, j))}", (i, j), attr=False)
        self.returned.append((v, (i, j)))
        return True

    def _edges(self, kind, x, s, T):
        r = self.r
        if kind == "obarrier":
            self.emit(f"{{v}} = stablehlo.optimization_barrier {x} : {T}", s, attr=False)
            return
        y = self.value(lambda t: t == s)
        y = y[0] if y and r.random() < 0.6 else self.arg(s)
        v = self.new(); k = self.n
        self.body.append(f"{v}:2 = stablehlo.while(%iA{k} = {x}, %iB{k} = {y}) : {T}, {T}")
        self.body.append(f" cond {{")
        self.body.append(f"  %c{k} = stablehlo.constant dense<true> : tensor<i1>")
        self.body.append(f"  stablehlo.return %c{k} : tensor<i1>")
        self.body.append(f" }} do {{")
        self.body.append(f"  %t{k} = stablehlo.{r.choice(BINARY)} %iA{k}, %iB{k} : {T}")
        self.body.append(f"  stablehlo.return %t{k}, %iB{k} : {T}, {T}")
        self.body.append(f" }}")
        self.vals += [(f"{v}#0", tuple(s)), (f"{v}#1", tuple(s))]

    def text(self):
        r = self.r
        outs = [v for v in self.vals[-3:]][: r.randint(1, 2)]
        outs += [v for v in self.returned if v not in outs]
        res = []
        for _, s in outs:
            sh = f" {{sdy.sharding = #sdy.sharding{self.sharding(len(s))}}}" if r.random() < 0.3 else ""
            res.append(ttype(s) + sh)
        lines = [f"sdy.mesh @{n} = {t}" for n, _, t in self.meshes]
        lines.append(f"func.func @main({', '.join(self.args)}) -> ({', '.join(res)}) {{")
        lines += ["  " + b for b in self.body]
        lines.append(f"  return {', '.join(v for v, _ in outs)} : {', '.join(ttype(s) for _, s in outs)}")
        lines.append("}")
        return "\n".join(lines) + "\n"


def gen_program(seed, n_ops=None, **features):
    "One random program (module text) drawn from `seed`."
    r = random.Random(seed)
    p = _Prog(r, features)
    p.arg(tuple(r.choice(DIM_SIZES) for _ in range(r.randint(1, 3))))
    for _ in range(n_ops or r.randint(3, 12)): p.step()
    return p.text()
