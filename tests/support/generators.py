"""Hypothesis strategies for meshes and valid shardings, shared by the test files.

Import as `from tests.support.generators import meshes, shardings, sharded_shapes` (tests/conftest.py puts
the repository root on `sys.path`).

Valid shardings are built from a *consistent factorisation* of every mesh axis: an axis of size n
is split into ordered factors f1*f2*...*fk = n, and factor i is the sub-axis
`"x":(f1*...*f(i-1))fi` (or the full axis when k == 1). Every piece is then given to at most one
place (a dim, `replicated` or `unreduced`), so pieces never overlap, and consecutive pieces that
could merge are merged, so the result satisfies all of Shardy's invariants.
"""
from __future__ import annotations

import math
import signal
from contextlib import contextmanager

from hypothesis import strategies as st

from shardnb.layout.mesh import AxisRef, Mesh
from shardnb.layout.sharding import DimSharding, TensorSharding

__all__ = ["PLAIN_NAMES", "axis_names", "meshes", "factorisations", "shardings", "sharded_shapes",
           "sharded_arrays", "merge_adjacent", "is_nontrivial", "hard_meshes", "hard_sharded_shapes", "hard_sharded_arrays"]

PLAIN_NAMES = ("x", "y", "z", "w", "a", "b", "data", "model", "x_1")
# Names that need escaping or are otherwise unusual: quotes, backslashes, spaces, unicode, digits.
ODD_NAMES = ('q"uote', "back\\slash", "with space", "ünï", "0", "tab\tname", "?", "p1", "}{")


def axis_names(odd: bool = True) -> st.SearchStrategy[str]:
    "A mesh axis name: mostly plain identifiers, sometimes names that need escaping."
    plain = st.sampled_from(PLAIN_NAMES)
    return st.one_of(plain, plain, plain, st.sampled_from(ODD_NAMES)) if odd else plain


@st.composite
def meshes(draw, max_axes: int = 4, max_size: int = 8, max_devices: int = 64, odd_names: bool = True,
           allow_empty: bool = True, allow_maximal: bool = False) -> Mesh:
    """A random `Mesh`: up to `max_axes` axes of size 1..`max_size` (product <= `max_devices`),
    device ids either iota (`None`) or a random permutation; optionally the empty mesh `<[]>` and
    maximal meshes `<[], device_ids=[k]>`."""
    if allow_maximal and draw(st.integers(0, 9)) == 0:
        return Mesh.maximal(draw(st.integers(0, 300)))
    n_axes = draw(st.integers(0 if allow_empty else 1, max_axes))
    names = draw(st.lists(axis_names(odd_names), min_size=n_axes, max_size=n_axes, unique=True))
    axes, total = [], 1
    for name in names:
        size = draw(st.integers(1, max(1, min(max_size, max_devices // total))))
        total *= size
        axes.append((name, size))
    ids = None
    if axes and draw(st.booleans()):
        ids = draw(st.permutations(range(total)))
        if draw(st.integers(0, 4)) == 0: ids = list(range(total))  # explicit iota (printed without ids)
    return Mesh(axes, ids)


@st.composite
def factorisations(draw, n: int) -> list[int]:
    "An ordered factorisation of `n` into factors > 1 (`[n]`, i.e. the full axis, for n <= 1)."
    factors, rest = [], n
    while rest > 1:
        divisors = [d for d in range(2, rest + 1) if rest % d == 0]
        f = draw(st.sampled_from(divisors))
        factors.append(f)
        rest //= f
    return factors or [n]


def _pieces(name: str, n: int, factors: list[int]) -> list[AxisRef]:
    if len(factors) == 1: return [AxisRef(name)]
    out, pre = [], 1
    for f in factors:
        out.append(AxisRef(name, pre, f))
        pre *= f
    return out


def merge_adjacent(refs: list[AxisRef], mesh: Mesh) -> list[AxisRef]:
    "Merge consecutive sub-axes that Shardy would require to be merged (repeatedly)."
    out: list[AxisRef] = []
    for r in refs:
        if out and out[-1].can_merge(r): out[-1] = out[-1].merge(r, mesh)
        else: out.append(r)
    return out


@st.composite
def shardings(draw, mesh: Mesh | None = None, rank: int | None = None, max_rank: int = 4,
              mesh_name: str | None = "mesh", allow_inline: bool = True, allow_unreduced: bool = True,
              allow_maximal: bool = True, **mesh_kw) -> TensorSharding:
    """A random valid `TensorSharding` (on `mesh` or a drawn one) with sub-axes, open/closed dims,
    priorities, and replicated/unreduced axes in mesh order."""
    if mesh is None: mesh = draw(meshes(allow_maximal=allow_maximal, **mesh_kw))
    if rank is None: rank = draw(st.integers(0, max_rank))
    name = mesh_name
    if allow_inline and draw(st.integers(0, 9)) == 0: name = None
    if mesh.is_maximal: return TensorSharding(mesh, (), mesh_name=name)

    pieces: list[AxisRef] = []
    for ax, n in mesh.axes:
        pieces += _pieces(ax, n, draw(factorisations(n)))
    # where each piece goes: -1 unused, 0..rank-1 a dim, rank replicated, rank+1 unreduced
    n_places = rank + (2 if allow_unreduced else 1)
    places = [draw(st.integers(-1, n_places - 1)) for _ in pieces]
    dims_axes: list[list[AxisRef]] = [[] for _ in range(rank)]
    replicated, unreduced = [], []
    for p, where in zip(pieces, places):
        if where < 0: continue
        if where < rank: dims_axes[where].append(p)
        elif where == rank: replicated.append(p)
        else: unreduced.append(p)
    dims = []
    for axes in dims_axes:
        axes = merge_adjacent(draw(st.permutations(axes)) if len(axes) > 1 else axes, mesh)
        closed = draw(st.booleans())
        prio = None
        if (axes or not closed) and draw(st.booleans()):
            prio = draw(st.one_of(st.integers(0, 5), st.integers(0, (1 << 63) - 1)))
        dims.append(DimSharding(tuple(axes), closed, prio))
    key = lambda r: r.sort_key(mesh)
    replicated = merge_adjacent(sorted(replicated, key=key), mesh)
    unreduced = merge_adjacent(sorted(unreduced, key=key), mesh)
    s = TensorSharding(mesh, tuple(dims), tuple(replicated), tuple(unreduced),
                       mesh_name=name)
    return s


@st.composite
def sharded_shapes(draw, max_dim: int = 13, **kw) -> tuple[Mesh, TensorSharding, tuple[int, ...]]:
    "`(mesh, sharding, shape)`: a valid sharding and a tensor shape (dims 0..`max_dim`, often non-divisible)."
    s = draw(shardings(**kw))
    rank = s.rank if not s.mesh.is_maximal else draw(st.integers(0, 3))
    shape = tuple(draw(st.lists(st.integers(0, max_dim), min_size=rank, max_size=rank)))
    return s.mesh, s, shape


def sharded_arrays(dtypes=("float32", "float64", "float16", "int8", "int64", "uint16", "bool", "complex64"),
                   allow_nan: bool = True, **kw):
    "`(mesh, sharding, array)` with a random dtype; floats include NaN and infinities."
    import numpy as np
    from hypothesis.extra import numpy as hnp

    @st.composite
    def build(draw):
        mesh, s, shape = draw(sharded_shapes(**kw))
        dtype = np.dtype(draw(st.sampled_from(dtypes)))
        elements = None
        if dtype.kind == "f":
            elements = st.floats(allow_nan=allow_nan, allow_infinity=True, width=8 * dtype.itemsize)
        arr = draw(hnp.arrays(dtype, shape, elements=elements))
        return mesh, s, arr
    return build()


def num_shards(s: TensorSharding) -> int:
    "The product of all dim shard counts (how many distinct tiles the tensor is cut into)."
    return math.prod(d.size_in(s.mesh) for d in s.dims)


# --- generators that reach the hard cases ------------------------------------------------------------------------
# A property checked on one device, on an unsharded tensor or on zero elements checks almost nothing. The
# strategies below make about 95% of their examples non-trivial (`is_nontrivial`); the rest come from the
# plain strategies above, so the edge cases (empty meshes, maximal meshes, zero-size dims) are still drawn.
# tests/layout/test_representation_properties.py measures the fraction (>= 80%) on every run.

def is_nontrivial(mesh: Mesh, s: TensorSharding, shape, need_unreduced: bool = False) -> bool:
    "More than one device, a non-empty tensor, at least one dim of more than one element split into more than one shard."
    if mesh.is_maximal or mesh.size < 2 or math.prod(shape) == 0: return False
    if need_unreduced and not s.unreduced: return False
    return any(d.size_in(mesh) > 1 and n > 1 for d, n in zip(s.dims, shape))


@st.composite
def hard_meshes(draw, max_axes: int = 4, max_size: int = 8, max_devices: int = 64, odd_names: bool = True) -> Mesh:
    "A mesh of 2 to `max_axes` axes, each of size >= 2 (so at least two pieces can shard), ids iota or permuted."
    n_axes = draw(st.integers(2, max_axes))
    names = draw(st.lists(axis_names(odd_names), min_size=n_axes, max_size=n_axes, unique=True))
    axes, total = [], 1
    for k, name in enumerate(names):
        room = max_devices // total // 2 ** (n_axes - k - 1)   # leave room for size 2 on every later axis
        size = draw(st.integers(2, max(2, min(max_size, room))))
        total *= size
        axes.append((name, size))
    ids = draw(st.permutations(range(total))) if draw(st.booleans()) else None
    return Mesh(axes, ids)


@st.composite
def hard_sharded_shapes(draw, max_dim: int = 13, max_rank: int = 4, need_unreduced: bool = False,
                        allow_unreduced: bool = True, easy_one_in: int = 20, **mesh_kw):
    """`(mesh, sharding, shape)` like `sharded_shapes`, but (except one draw in `easy_one_in`) on a mesh of
    several devices, with one piece of a mesh axis forced onto a dim of at least 2 elements and, with
    `need_unreduced`, another piece forced into `unreduced`."""
    # a middle value, not 0: hypothesis draws the bounds of an integer range far more often than 1 in n
    if easy_one_in and draw(st.integers(1, easy_one_in)) == (easy_one_in + 1) // 2:
        return draw(sharded_shapes(max_dim=max_dim, max_rank=max_rank, allow_unreduced=allow_unreduced or need_unreduced))
    mesh = draw(hard_meshes(**mesh_kw))
    rank = draw(st.integers(1, max_rank))
    pieces: list[AxisRef] = []
    for ax, n in mesh.axes: pieces += _pieces(ax, n, draw(factorisations(n)))
    order = draw(st.permutations(range(len(pieces))))
    split_dim = draw(st.integers(0, rank - 1))
    n_places = rank + (2 if allow_unreduced or need_unreduced else 1)
    places = {order[0]: split_dim}                       # one piece surely splits a dim
    if need_unreduced: places[order[1]] = rank + 1       # and one is surely unreduced
    for i in range(len(pieces)):
        if i not in places: places[i] = draw(st.integers(-1, n_places - 1))
    dims_axes: list[list[AxisRef]] = [[] for _ in range(rank)]
    replicated, unreduced = [], []
    for i, p in enumerate(pieces):
        where = places[i]
        if where < 0: continue
        if where < rank: dims_axes[where].append(p)
        elif where == rank: replicated.append(p)
        else: unreduced.append(p)
    dims = []
    for axes in dims_axes:
        axes = merge_adjacent(draw(st.permutations(axes)) if len(axes) > 1 else axes, mesh)
        closed = draw(st.booleans())
        prio = draw(st.one_of(st.none(), st.integers(0, 5))) if axes or not closed else None
        dims.append(DimSharding(tuple(axes), closed, prio))
    key = lambda r: r.sort_key(mesh)
    s = TensorSharding(mesh, tuple(dims), tuple(merge_adjacent(sorted(replicated, key=key), mesh)),
                       tuple(merge_adjacent(sorted(unreduced, key=key), mesh)), mesh_name="mesh")
    shape = tuple(draw(st.integers(2 if i == split_dim else 1, max(2, max_dim))) for i in range(rank))
    return mesh, s, shape


def hard_sharded_arrays(dtypes=("float32", "float64", "float16", "int8", "int64", "uint16", "bool", "complex64"),
                        allow_nan: bool = True, **kw):
    "`(mesh, sharding, array)` drawn from `hard_sharded_shapes`, with a random dtype (floats include NaN and infinities)."
    import numpy as np
    from hypothesis.extra import numpy as hnp

    @st.composite
    def build(draw):
        mesh, s, shape = draw(hard_sharded_shapes(**kw))
        dtype = np.dtype(draw(st.sampled_from(dtypes)))
        elements = st.floats(allow_nan=allow_nan, allow_infinity=True, width=8 * dtype.itemsize) if dtype.kind == "f" else None
        return mesh, s, draw(hnp.arrays(dtype, shape, elements=elements))
    return build()


class Hang(Exception): pass


@contextmanager
def time_limit(seconds: float):
    "Fail with `Hang` instead of hanging if the block runs longer than `seconds` (POSIX timers; a no-op elsewhere)."
    if not hasattr(signal, "setitimer"):
        yield; return
    def _raise(signum, frame): raise Hang(f"took longer than {seconds}s")
    old = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try: yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
