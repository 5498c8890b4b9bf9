"""A seeded generator of programs for the import-pass differential tests (`tests/shardy/test_passes_shardy.py`).

Each program draws its own tensor type (shapes of rank 0-3, f32/bf16/i32), one or two meshes of 1-3 axes
(size-1 and odd sizes, permuted device ids, inlined meshes, the same mesh under two names), and a body of
element-wise ops, constants, iotas and scalar broadcasts (for the constant splitter), sharding constraints
(single and chained, open and closed, priorities, sub-axes, replicated axes), sharding groups,
optimization barriers, `while` / `case` / `if` regions with constraints and groups inside (on block
arguments too), manual computations (with groups and constraints inside), and private functions with
constraints inside, called once or several times. `features(text)` names what a program contains, so a
test can measure what its seeds reach."""
import random

from tests.shardy.propagate_gen import gen_mesh, gen_sharding

SHAPES = ((8, 8), (4, 6), (16,), (2, 3, 4), (6,), (), (12, 8), (3, 5))
DTYPES = ("f32", "f32", "bf16", "i32")
ONE = {"f32": "1.000000e+00", "bf16": "1.000000e+00", "i32": "1"}


def ttype(shape, dt):
    return "tensor<" + "".join(f"{d}x" for d in shape) + dt + ">"


def _local_shape(shape, sharding_text, meshes):
    "The local shape inside a manual computation over all the sharding's axes, or None if a dim does not divide."
    from shardnb.layout.syntax import parse_sharding
    from shardnb.ir.api import local_type
    from shardnb.ir.program import TensorType
    s = parse_sharding(sharding_text, meshes)
    manual = [a for a, _ in s.mesh.axes]
    try: return local_type(TensorType(shape), s, manual).shape
    except Exception: return None


def gen_program(seed, inline=False):
    r = random.Random(seed)
    shape, dt = r.choice(SHAPES), r.choice(DTYPES)
    T, rank = ttype(shape, dt), len(shape)
    axes1, m1 = gen_mesh(r)
    meshes = [("mesh", axes1, m1)]
    lines = [f"sdy.mesh @mesh = {m1}"]
    if r.random() < 0.3:
        axes2, m2 = gen_mesh(r); meshes.append(("mesh2", axes2, m2)); lines.append(f"sdy.mesh @mesh2 = {m2}")
    if r.random() < 0.2: lines.append(f"sdy.mesh @dup = {m1}"); meshes.append(("dup", axes1, m1))

    def sharding(closed=None, mesh_pick=None, density=0.6):
        name, axes, body = mesh_pick or r.choice(meshes)
        text = gen_sharding(r, name, axes, rank, density=density)
        if closed is not None:   # force all dims closed (or leave as drawn)
            import re
            if closed: text = re.sub(r"\{\}p\d", "{}", re.sub(r", \?\}|\{\?\}", lambda m: "}" if m.group(0) == ", ?}" else "{}", text))
        if inline and r.random() < 0.5: text = text.replace(f"<@{name},", f"<mesh{body},", 1)
        return text

    funcs, n = [], 0
    def new(p="v"):
        nonlocal n; n += 1; return f"%{p}{n}"

    def body(vals, depth, n_ops, allow_mc=True):
        out = []
        for _ in range(n_ops):
            kind = r.choice(["add", "tanh", "const", "bcast", "iota", "sc", "sc", "sc", "sc_closed", "sc_chain", "group",
                             "barrier", "mc", "while", "case", "if", "call"])
            a, b = r.choice(vals), r.choice(vals)
            v = new()
            if kind == "add": out.append(f"{v} = stablehlo.add {a}, {b} : {T}")
            elif kind == "tanh" and dt != "i32": out.append(f"{v} = stablehlo.tanh {a} : {T}")
            elif kind == "const": out.append(f"{v} = stablehlo.constant dense<{ONE[dt]}> : {T}")
            elif kind == "iota" and rank: out.append(f"{v} = stablehlo.iota dim = 0 : {T}")
            elif kind == "bcast":
                s = new("s"); out.append(f"{s} = stablehlo.constant dense<{ONE[dt]}> : {ttype((), dt)}")
                out.append(f"{v} = stablehlo.broadcast_in_dim {s}, dims = [] : ({ttype((), dt)}) -> {T}")
            elif kind in ("sc", "sc_closed", "sc_chain"):
                out.append(f"{v} = sdy.sharding_constraint {a} {sharding(closed=kind != 'sc')} : {T}")
                if kind == "sc_chain":
                    vals.append(v); w = new()
                    out.append(f"{w} = sdy.sharding_constraint {v} {sharding(closed=r.random() < 0.7)} : {T}"); v = w
            elif kind == "group":
                out.append(f"sdy.sharding_group {a} group_id={r.randint(0, 5)} : {T}"); continue
            elif kind == "barrier": out.append(f"{v} = stablehlo.optimization_barrier {a} : {T}")
            elif kind in ("while", "case", "if") and depth < 2:
                def inner(args):
                    vs = list(args); ops = body(vs, depth + 1, r.randint(0, 3), allow_mc=False); return ops, vs
                if kind == "while":
                    i, j = new("i"), new("j")
                    c = new("c")
                    inner_ops, vs = inner([i, j])
                    res = r.choice(vs)
                    out.append(f"{v}:2 = stablehlo.while({i} = {a}, {j} = {b}) : {T}, {T}\n cond {{\n {c} = stablehlo.constant dense<true> : tensor<i1>\n stablehlo.return {c} : tensor<i1>\n }} do {{\n "
                               + "".join(x + "\n " for x in inner_ops) + f"stablehlo.return {res}, {j} : {T}, {T}\n }}")
                    vals.append(f"{v}#0"); vals.append(f"{v}#1"); continue
                p = new("p")
                pred, ptype = ("dense<1>", "tensor<i32>") if kind == "case" else ("dense<true>", "tensor<i1>")
                out.append(f"{p} = stablehlo.constant {pred} : {ptype}")
                branches = []
                for _ in range(2):
                    ops, vs = inner([a, b]); res = r.choice(vs)
                    branches.append("{\n " + "".join(x + "\n " for x in ops) + f"stablehlo.return {res} : {T}\n }}")
                out.append(f"{v} = \"stablehlo.{kind}\"({p}) ({branches[0]}, {branches[1]}) : ({ptype}) -> {T}")
            elif kind == "mc" and allow_mc and depth == 0:
                name, axes, mbody = r.choice(meshes)
                manual = [x for x, _ in axes]
                ins = gen_sharding(r, name, axes, rank, allow_priority=False, density=0.8).replace("?", "").replace(", }", "}")
                from tests.shardy.propagate_gen import _sub_axes  # noqa: F401  (sub-axes stay: local_type checks divisibility)
                ms = _mesh_objs(lines)
                li = _local_shape(shape, ins, ms)
                if li is None or "replicated" in ins or ":(" in ins:
                    out.append(f"{v} = stablehlo.add {a}, {b} : {T}"); vals.append(v); continue
                outs = ins if r.random() < 0.7 else gen_sharding(r, name, axes, rank, allow_priority=False, density=0.8).replace("?", "").replace(", }", "}")
                if ":(" in outs or "replicated" in outs or _local_shape(shape, outs, ms) != li: outs = ins
                LT = ttype(li, dt)
                m, q = new("m"), new("q")
                inner = ""
                if r.random() < 0.4: inner += f"\n sdy.sharding_group {m} group_id={r.randint(0, 5)} : {LT}"
                ax = ", ".join(f'"{x}"' for x in (manual if r.random() < 0.7 else manual[::-1]))
                out.append(f"{v} = sdy.manual_computation({a}) in_shardings=[{ins}] out_shardings=[{outs}] manual_axes={{{ax}}} ({m}: {LT}) {{{inner}\n {q} = stablehlo.abs {m} : {LT}\n sdy.return {q} : {LT}\n }} : ({T}) -> {T}")
            elif kind == "call" and depth == 0 and len(funcs) < 3:
                fname = f"f{len(funcs)}"
                x, y = "%x", "%y"
                vs = [x]; ops = body(vs, depth + 1, r.randint(1, 3), allow_mc=False)
                res = r.choice(vs)
                ann = f" {{sdy.sharding = #sdy.sharding{sharding()}}}" if r.random() < 0.3 else ""
                funcs.append(f"func.func private @{fname}({x}: {T}{ann}) -> {T} {{\n  " + "\n  ".join(ops) + f"\n  return {res} : {T}\n}}")
                out.append(f"{v} = func.call @{fname}({a}) : ({T}) -> {T}")
                if r.random() < 0.4: w = new(); out.append(f"{w} = func.call @{fname}({b}) : ({T}) -> {T}"); vals.append(v); v = w
            else:
                out.append(f"{v} = stablehlo.add {a}, {b} : {T}")
            vals.append(v)
        return out

    args = []
    for k in range(3):
        sh = f" {{sdy.sharding = #sdy.sharding{sharding()}}}" if r.random() < 0.3 else ""
        args.append(f"%arg{k}: {T}{sh}")
    vals = [f"%arg{k}" for k in range(3)]
    main = body(vals, 0, r.randint(4, 14))
    ret = r.sample(vals, 2)
    main.append(f"return {ret[0]}, {ret[1]} : {T}, {T}")
    return ("\n".join(lines) + f"\nfunc.func @main({', '.join(args)}) -> ({T}, {T}) {{\n  " + "\n  ".join(main) + "\n}\n"
            + "".join(f + "\n" for f in funcs))


def _mesh_objs(lines):
    from shardnb.layout.syntax import parse_mesh
    out = {}
    for line in lines:
        name, body = line.split(" = ", 1)
        out[name.split("@")[1]] = parse_mesh(body)
    return out


FEATURES = {"constraint": "sdy.sharding_constraint", "group": "sdy.sharding_group", "manual": "sdy.manual_computation",
            "while": "stablehlo.while", "case": "stablehlo.case", "if": "stablehlo.if", "call": "func.call",
            "barrier": "stablehlo.optimization_barrier", "device_ids": "device_ids", "two_meshes": "@mesh2",
            "inline_mesh": "<mesh<", "sub_axis": '":(', "priority": "}p"}


def features(text):
    "The features a generated program contains (keys of FEATURES), plus `region_constraint` and `sharded_dim`."
    out = {k for k, s in FEATURES.items() if s in text}
    import re
    if re.search(r"(do|\)) \{\n[^}]*sdy.sharding_constraint", text): out.add("region_constraint")
    if re.search(r'\{"[a-z]"', text): out.add("sharded_dim")
    return out
