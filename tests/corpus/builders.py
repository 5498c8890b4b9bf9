"""What the JAX corpus programs are built from: a registry, meshes, shardings and seeded arrays.

`tests/corpus/programs.py`, `models.py` and `features.py` each register builders with `registrar`; a builder
returns `(fn, args, jit kwargs, lower options)`, where the options may name a `mesh` (lowered under `jax.set_mesh`)
and ask for `debug_info`. jax is imported inside each helper: these run only in the lowering subprocess, which
asks XLA for 8 host devices before jax is first imported.
"""
from __future__ import annotations

U = "__UNCONSTRAINED__"   # in a spec, stands for `P.UNCONSTRAINED`


def registrar(programs: dict):
    "A decorator factory `program(name)` that registers a builder in `programs` under `name`, each name once."
    def program(name):
        def deco(fn):
            if name in programs: raise ValueError(f"duplicate corpus program {name!r}")
            programs[name] = fn
            return fn
        return deco
    return program


def jax_jnp():
    "`(jax, jax.numpy)`."
    import jax, jax.numpy as jnp
    return jax, jnp


def make_mesh(shape, names, devs=None, axis_types=None):
    "A mesh over the first prod(shape) host devices, or over the devices `devs` in that order; Auto axes unless `axis_types`."
    import numpy as np, jax
    n = int(np.prod(shape))
    d = np.array(jax.devices()[:n]) if devs is None else np.array(jax.devices())[list(devs)]
    if axis_types is None: return jax.sharding.Mesh(d.reshape(shape), names)
    return jax.sharding.Mesh(d.reshape(shape), names, axis_types=axis_types)


def spec(*dims):
    "A PartitionSpec; `U` in `dims` stands for `P.UNCONSTRAINED`."
    from jax.sharding import PartitionSpec as P
    return P(*[P.UNCONSTRAINED if d == U else d for d in dims])


def named(mesh, *dims, memory_kind=None):
    "A NamedSharding of `mesh` and `spec(*dims)`."
    from jax.sharding import NamedSharding
    return NamedSharding(mesh, spec(*dims), memory_kind=memory_kind)


def constrain(x, mesh, *dims):
    "`x` under a sharding constraint to `named(mesh, *dims)`."
    import jax
    return jax.lax.with_sharding_constraint(x, named(mesh, *dims))


def arr(shape, dtype="float32", seed=0, hi=7):
    "A seeded array: integers in [0, hi) for (u)int dtypes, coin flips for bool, standard normals otherwise."
    import numpy as np, jax.numpy as jnp
    r = np.random.default_rng(seed)
    if dtype.startswith("int") or dtype.startswith("uint"): return jnp.asarray(r.integers(0, hi, size=shape), dtype=dtype)
    if dtype.startswith("complex"): return jnp.asarray(r.standard_normal(shape) + 1j * r.standard_normal(shape), dtype=dtype)
    if dtype == "bool": return jnp.asarray(r.random(shape) < 0.5)
    return jnp.asarray(r.standard_normal(shape), dtype=dtype)
