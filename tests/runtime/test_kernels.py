"""Tests for shardnb.runtime.kernels: every kernel, every dtype, bit for bit against torch and an independent reference.

The Triton kernels run on CPU through the Triton interpreter: `TRITON_INTERPRET=1` must be set before
triton (and shardnb.runtime.kernels) is first imported, which `conftest.py` arranges for the whole session (so the
order in which test files import shardnb does not matter). On a CUDA machine the same tests also run on
CUDA tensors.
"""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

triton = pytest.importorskip("triton")
from hypothesis import given, settings, strategies as st  # noqa: E402

import shardnb.runtime.kernels as K  # noqa: E402

assert K.triton_interpreting() or os.environ.get("TRITON_INTERPRET") == "0", (
    "shardnb.runtime.kernels was imported before TRITON_INTERPRET=1 was set: run the tests through pytest (conftest.py sets it)")

DTYPES = [torch.float32, torch.float16, torch.bfloat16, torch.int8, torch.int32, torch.int64, torch.bool,
          torch.float64]  # the seven of the issue, plus numpy's default
DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
HYP = settings(max_examples=25, deadline=None)   # examples drawn from the run's fresh seed (conftest.py)


def sample(shape, dtype, seed=0, device="cpu"):
    "A seeded tensor of random bytes (floats get NaNs with payloads, infs, -0.0, subnormals)."
    gen = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.randint(0, 2, tuple(shape), generator=gen).bool().to(device)
    width = torch.empty((), dtype=dtype).element_size()
    raw = torch.randint(0, 256, (*shape, width), generator=gen, dtype=torch.uint8)
    return raw.view(dtype).squeeze(-1).to(device)


def same(a, b):
    "Same dtype, shape and bits."
    a, b = (torch.from_numpy(t) if isinstance(t, np.ndarray) else t for t in (a, b))
    assert (a.dtype, tuple(a.shape)) == (b.dtype, tuple(b.shape))
    torch.testing.assert_close(K._bits(a).cpu(), K._bits(b).cpu(), rtol=0, atol=0)


def run_both(fn, *args, **kwargs):
    "`fn` on the triton and torch backends, checked bit-identical; returns the torch result."
    expected = fn(*args, backend="torch", **kwargs)
    same(fn(*args, backend="triton", **kwargs), expected)
    return expected


def noncontiguous(x: torch.Tensor) -> torch.Tensor:
    "A non-contiguous view holding the same values as `x` (transposed storage, every other element)."
    if x.ndim == 0:
        return x
    big = torch.zeros((*x.shape[:-1], 2 * x.shape[-1]), dtype=x.dtype, device=x.device)
    big[..., ::2] = x
    view = big[..., ::2]
    return view.movedim(-1, 0).contiguous().movedim(0, -1) if x.ndim > 1 else view


# ---------------------------------------------------------------- independent references (numpy, loops)

def ref_slice(x, offsets, sizes, pad_to):
    a = x.cpu().numpy() if x.dtype != torch.bfloat16 else K._bits(x).cpu().numpy()
    out = np.zeros(pad_to or sizes, dtype=a.dtype)
    out[tuple(slice(0, s) for s in sizes)] = a[tuple(slice(o, o + s) for o, s in zip(offsets, sizes))]
    return torch.from_numpy(out) if x.dtype != torch.bfloat16 else torch.from_numpy(out).view(torch.bfloat16)


def ref_pack(x, dim, sizes):
    flat, start = [], 0
    for c in sizes:
        idx = [slice(None)] * x.ndim
        idx[dim] = slice(start, start + c)
        flat += K._bits(x[tuple(idx)]).cpu().reshape(-1).tolist()
        start += c
    return torch.tensor(flat, dtype=K._BITS[x.element_size()]).view(x.dtype)


def cut_pieces(g, layout):
    "Every piece of `g`, padded, in buffer order, one loop iteration per piece."
    axis_sizes = [k for gr in layout.grid for k in gr]
    axis_dim = [d for d, gr in enumerate(layout.grid) for _ in gr]
    pieces = []
    for p in range(layout.num_pieces):
        coord, rest = {}, p
        for a in reversed(layout.order):
            coord[a], rest = rest % axis_sizes[a], rest // axis_sizes[a]
        idx = []
        for d, n in enumerate(layout.shape):
            block = 0
            for a in [a for a in range(len(axis_sizes)) if axis_dim[a] == d]:
                block = block * axis_sizes[a] + coord[a]
            s = layout.piece_shape[d]
            idx.append((min(block * s, n), min((block + 1) * s, n)))
        piece = torch.zeros(layout.piece_shape, dtype=g.dtype, device=g.device)
        piece[tuple(slice(0, b - a) for a, b in idx)] = g[tuple(slice(a, b) for a, b in idx)]
        pieces.append(piece)
    return pieces


# ---------------------------------------------------------------- every kernel x every dtype, odd shapes

SLICES = [  # shape, offsets, sizes, pad_to
    ((7, 5, 3), (4, 1, 0), (3, 4, 3), (4, 4, 3)),  # ragged last shard, padded
    ((7, 5, 3), (0, 0, 0), (7, 5, 3), None),  # the whole tensor
    ((9, 0, 4), (2, 0, 1), (5, 0, 3), (5, 2, 3)),  # a size-0 dim, padded up
    ((5, 6), (5, 2), (0, 3), (2, 3)),  # an empty tile padded to zeros
    ((33, 130), (1, 3), (31, 127), (32, 128)),  # several tiles with ragged edges
    ((11,), (3,), (7,), (9,)),
    ((), (), (), None),  # a scalar
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("case", range(len(SLICES)))
def test_slice_tile(case, dtype, device):
    shape, offsets, sizes, pad_to = SLICES[case]
    x = sample(shape, dtype, seed=case, device=device)
    for src in (x, noncontiguous(x)):
        out = run_both(K.slice_tile, src, offsets, sizes, pad_to)
        same(out.cpu(), ref_slice(x, offsets, sizes, pad_to))


CHUNKS = [  # shape, dim, parts
    ((5, 7, 3), 1, 2),
    ((5, 7, 3), 0, 4),  # sizes 2, 2, 1, 0
    ((5, 7, 3), -1, 5),  # more parts than elements: empty chunks
    ((5, 7, 3), 1, [0, 3, 3, 0, 1]),  # explicit sizes, empty ones in between
    ((4, 0, 3), 2, 2),  # a size-0 dim elsewhere
    ((4, 0, 3), 1, 3),  # cutting a size-0 dim
    ((2, 3, 2, 3, 2, 3), 3, 2),  # rank 6
    ((130, 9), 0, 3),  # more than one tile
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("case", range(len(CHUNKS)))
def test_pack_unpack(case, dtype, device):
    shape, dim, parts = CHUNKS[case]
    x = sample(shape, dtype, seed=case, device=device)
    sizes = K.chunk_sizes(shape[dim], parts)
    for src in (x, noncontiguous(x)):
        buf = run_both(K.pack_chunks, src, dim, parts)
        same(buf.cpu(), ref_pack(x, dim % x.ndim, sizes))
        same(run_both(K.unpack_chunks, buf, dim, parts, shape), x)
        # the receiving side of an all-to-all: a buffer whose own shape is irrelevant, here non-contiguous
        same(run_both(K.unpack_chunks, noncontiguous(buf.reshape(1, -1))[0], dim, parts, shape), x)


LAYOUTS = [
    K.PieceLayout((8,), ((4,),)),  # the trivial all-gather along the leading dim
    K.PieceLayout((5, 7), ((), (2,))),  # gathered along a non-leading, non-divisible dim
    K.PieceLayout((5, 7), ((2,), (2, 2)), (1, 0, 2)),  # two dims, three axes, group order differs
    K.PieceLayout((3, 4, 5), ((2,), (), (3,)), (1, 0)),
    K.PieceLayout((4, 0, 6), ((2,), (2,), (2,))),  # a size-0 dim
    K.PieceLayout((5, 4, 7), ((2, 2), (2, 2), (2, 2)), (5, 0, 3, 1, 4, 2)),  # 9 loop dims: host-side split
    K.PieceLayout((2, 3), ((4,), (4,))),  # more blocks than elements: empty pieces
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("case", range(len(LAYOUTS)))
def test_assemble(case, dtype, device):
    layout = LAYOUTS[case]
    g = sample(layout.shape, dtype, seed=case, device=device)
    pieces = cut_pieces(g, layout)
    stacked = torch.stack(pieces)
    same(run_both(K.assemble, stacked, layout), g)
    same(run_both(K.assemble, noncontiguous(stacked), layout), g)
    same(run_both(K.assemble, pieces, layout), g)


PERMS = [
    ((3, 5), (1, 0)),
    ((2, 3, 5), (2, 0, 1)),
    ((70, 3, 65), (2, 1, 0)),  # tiles with ragged edges on both tiled dims
    ((2, 1, 3, 2, 1, 3), (5, 3, 1, 4, 0, 2)),  # rank 6 with size-1 dims
    ((3, 0, 4), (2, 0, 1)),  # a size-0 dim
    ((7,), (0,)),
    ((), ()),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("case", range(len(PERMS)))
def test_permute_tiled(case, dtype, device):
    shape, perm = PERMS[case]
    x = sample(shape, dtype, seed=case, device=device)
    for src in (x, noncontiguous(x)):
        out = run_both(K.permute_tiled, src, perm)
        same(out, x.permute(perm).contiguous())
        assert out.is_contiguous()


# ---------------------------------------------------------------- hypothesis: random shapes and parameters

# Hypothesis draws the bounds of an integer range far more often than their share, so sizes drawn from 0..n
# made most examples zero-element tensors (17-24 of 25). Sizes start at 1 here, and one draw in ~12 empties a
# dim on purpose; `test_kernel_generators_reach_the_hard_cases` measures >= 80% non-empty examples.

@st.composite
def shapes(draw, min_rank=1, max_rank=4, max_dim=6):
    shape = draw(st.lists(st.integers(1, max_dim), min_size=min_rank, max_size=max_rank))
    if shape and draw(st.integers(1, 12)) == 6: shape[draw(st.integers(0, len(shape) - 1))] = 0
    return tuple(shape)


@st.composite
def slice_cases(draw):
    "(shape, offsets, sizes, pad_to, noncontiguous): a tile of at least one element, unless the tensor is empty."
    shape = draw(shapes())
    offsets = tuple(draw(st.integers(0, max(0, n - 1))) for n in shape)
    sizes = tuple(draw(st.integers(min(1, n - o), n - o)) for n, o in zip(shape, offsets))
    pad_to = draw(st.none() | st.tuples(*[st.integers(z, z + 2) for z in sizes]))
    return shape, offsets, sizes, pad_to, draw(st.booleans())


@st.composite
def pack_cases(draw):
    "(shape, dim, parts): `parts` a count, or explicit sizes summing to the dim."
    shape = draw(shapes())
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    d = shape[dim]
    if draw(st.booleans()): parts = draw(st.integers(1, 7))
    else:  # random cut points give explicit sizes summing to d
        cuts = sorted(draw(st.lists(st.integers(0, d), max_size=5)))
        parts = [b - a for a, b in zip([0] + cuts, cuts + [d])]
    return shape, dim, parts


@st.composite
def assemble_cases(draw):
    "A PieceLayout: shape, a grid of cuts per dim, and the order of the pieces."
    shape = draw(shapes(max_rank=3, max_dim=7))
    grid = [tuple(draw(st.lists(st.integers(1, 3), max_size=2))) for _ in shape]
    cut = draw(st.integers(0, len(shape) - 1))   # at least one dim is cut (empty lists are what hypothesis draws most)
    if not grid[cut]: grid[cut] = (draw(st.integers(1, 3)),)
    grid = tuple(grid)
    order = draw(st.permutations(range(sum(len(g) for g in grid))))
    return K.PieceLayout(shape, grid, tuple(order))


@st.composite
def permute_cases(draw):
    shape = draw(shapes(min_rank=2, max_rank=6, max_dim=4))   # ranks 0 and 1 are in test_permute_tiled
    return shape, tuple(draw(st.permutations(range(len(shape))))), draw(st.booleans())


dtypes = st.sampled_from(DTYPES)


@HYP
@given(case=slice_cases(), dtype=dtypes, seed=st.integers(0, 2**16))
def test_slice_tile_random(case, dtype, seed):
    shape, offsets, sizes, pad_to, strided = case
    x = sample(shape, dtype, seed)
    if strided: x = noncontiguous(x)
    same(run_both(K.slice_tile, x, offsets, sizes, pad_to), ref_slice(x, offsets, sizes, pad_to))


@HYP
@given(case=pack_cases(), dtype=dtypes, seed=st.integers(0, 2**16))
def test_pack_unpack_random(case, dtype, seed):
    shape, dim, parts = case
    x = sample(shape, dtype, seed)
    buf = run_both(K.pack_chunks, x, dim, parts)
    same(buf, ref_pack(x, dim % len(shape), K.chunk_sizes(shape[dim], parts)))
    same(run_both(K.unpack_chunks, buf, dim, parts, shape), x)


@HYP
@given(layout=assemble_cases(), dtype=dtypes, seed=st.integers(0, 2**16))
def test_assemble_random(layout, dtype, seed):
    g = sample(layout.shape, dtype, seed)
    same(run_both(K.assemble, torch.stack(cut_pieces(g, layout)), layout), g)


@HYP
@given(case=permute_cases(), dtype=dtypes, seed=st.integers(0, 2**16))
def test_permute_random(case, dtype, seed):
    shape, perm, strided = case
    x = sample(shape, dtype, seed)
    if strided: x = noncontiguous(x)
    same(run_both(K.permute_tiled, x, perm), x.permute(perm).contiguous())


@pytest.mark.parametrize("strategy, moves_elements", [
    (slice_cases(), lambda c: np.prod(c[0]) > 0 and np.prod(c[2]) > 0),
    (pack_cases(), lambda c: np.prod(c[0]) > 0),
    (assemble_cases(), lambda layout: np.prod(layout.shape) > 0 and any(layout.grid)),
    (permute_cases(), lambda c: np.prod(c[0]) > 0 and len(c[0]) > 1),
])
def test_kernel_generators_reach_the_hard_cases(strategy, moves_elements):
    "At least 80% of the examples the kernel property tests draw move elements (a non-empty tile of a non-empty tensor)."
    seen = []

    @settings(max_examples=HYP.max_examples * 4, deadline=None, database=None)
    @given(strategy)
    def draw(case): seen.append(bool(moves_elements(case)))
    draw()
    assert sum(seen) >= 0.8 * len(seen), f"{sum(seen)} of {len(seen)} examples move elements"


# ---------------------------------------------------------------- the kernel's host side

def test_launch_split_on_host(monkeypatch):
    "A loop with more programs than the grid allows is split along its outermost dim, padding included."
    monkeypatch.setattr(K, "_MAX_PROGRAMS", 3)
    x = sample((9, 5, 7), torch.int32, 1)
    same(K.slice_tile(x, (2, 1, 0), (7, 3, 6), (8, 4, 8), backend="triton"),
         K.slice_tile(x, (2, 1, 0), (7, 3, 6), (8, 4, 8), backend="torch"))
    same(K.permute_tiled(x, (2, 0, 1), backend="triton"), x.permute(2, 0, 1).contiguous())


def test_collapse_merges_contiguous_dims():
    # a contiguous (2, 3, 4) copy is one loop dim of 24; a transposed one keeps its two dims
    assert K._collapse((2, 3, 4), (12, 4, 1), (12, 4, 1), (2, 3, 4)) == [[24, 1, 1, 24]]
    assert K._collapse((3, 4), (1, 3), (4, 1), (3, 4)) == [[3, 1, 4, 3], [4, 3, 1, 4]]
    assert K._collapse((1, 5), (5, 1), (5, 1), (0, 5)) == [[1, 5, 5, 0], [5, 1, 1, 5]]  # padded size-1 kept


@pytest.mark.parametrize("backend", ["torch", "triton"])
def test_results_are_fresh_buffers(backend):
    "Every result is a new contiguous tensor, even when the input already has the result's layout."
    x = sample((4, 6), torch.float32)
    results = [K.slice_tile(x, (0, 0), (4, 6), backend=backend), K.pack_chunks(x, 0, 1, backend=backend),
               K.unpack_chunks(x, 0, 1, (4, 6), backend=backend), K.permute_tiled(x, (0, 1), backend=backend),
               K.assemble(x, K.PieceLayout((4, 6), ((2,), ())), backend=backend)]
    for out in results:
        assert out.is_contiguous() and out.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()


def test_special_floats_bit_exact():
    x = torch.tensor([0.0, -0.0, float("nan"), -float("inf")]).view(torch.int32)
    x[2] = 0x7FC00123  # a NaN with a payload
    x = x.view(torch.float32)
    for fn, args in [(K.permute_tiled, ((0,),)), (K.slice_tile, ((0,), (4,), (5,))), (K.pack_chunks, (0, 3))]:
        out = run_both(fn, x, *args)
        assert K._bits(out)[:4].tolist() == K._bits(x).tolist()


def test_numpy_in_numpy_out():
    a = np.arange(35, dtype=np.float64).reshape(5, 7)[:, ::-2]  # negative strides
    for backend in ("torch", "triton"):
        out = K.slice_tile(a, (1, 1), (3, 2), (4, 2), backend=backend)
        assert isinstance(out, np.ndarray)
        np.testing.assert_array_equal(out, np.pad(a[1:4, 1:3], ((0, 1), (0, 0))))
        buf = K.pack_chunks(a, 1, 2, backend=backend)
        np.testing.assert_array_equal(K.unpack_chunks(buf, 1, 2, a.shape, backend=backend), a)
        np.testing.assert_array_equal(K.permute_tiled(a, (1, 0), backend=backend), a.T)
        layout = K.PieceLayout((5, 4), ((2,), ()))
        pieces = [np.pad(a[:3], 0), np.pad(a[3:], ((0, 1), (0, 0)))]
        np.testing.assert_array_equal(K.assemble(pieces, layout, backend=backend), a)
    ro = np.arange(6, dtype=np.int8).reshape(2, 3)
    ro.setflags(write=False)
    np.testing.assert_array_equal(K.permute_tiled(ro, (1, 0)), ro.T)


# ---------------------------------------------------------------- bad arguments, checked before any launch

@pytest.fixture
def no_launch(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("a kernel was launched for bad arguments")
    monkeypatch.setattr(K, "_launch_copy", fail)


x57 = torch.zeros(5, 7)


@pytest.mark.parametrize("call, error, message", [
    (lambda: K.slice_tile(x57, (0,), (1,)), ValueError, "offsets must have 2 entries"),
    (lambda: K.slice_tile(x57, (0, -1), (1, 1)), ValueError, "offsets[1]=-1 is out of range for dim 1 of size 7"),
    (lambda: K.slice_tile(x57, (4, 0), (2, 1)), ValueError, "sizes[0]=2 at offsets[0]=4 runs past dim 0 of size 5"),
    (lambda: K.slice_tile(x57, (0, 0), (1, -1)), ValueError, "sizes[1]=-1"),
    (lambda: K.slice_tile(x57, (0, 0), (2, 2), (2, 1)), ValueError, "pad_to[1]=1 is smaller than sizes[1]=2"),
    (lambda: K.slice_tile(x57, (0, 1.5), (1, 1)), TypeError, "offsets[1] must be an int, got 1.5"),
    (lambda: K.slice_tile(x57, "00", (1, 1)), TypeError, "offsets must be a sequence of ints"),
    (lambda: K.slice_tile([[1.0]], (0, 0), (1, 1)), TypeError, "x must be a torch.Tensor or numpy.ndarray, got list"),
    (lambda: K.slice_tile(torch.zeros(2, dtype=torch.complex128), (0,), (1,)), TypeError, "unsupported dtype torch.complex128"),
    (lambda: K.pack_chunks(x57, 2, 2), ValueError, "dim=2 is out of range for a tensor of rank 2"),
    (lambda: K.pack_chunks(x57, True, 2), TypeError, "dim must be an int, got True"),
    (lambda: K.pack_chunks(x57, 0, 0), ValueError, "parts must be >= 1, got 0"),
    (lambda: K.pack_chunks(x57, 0, [2, 2]), ValueError, "parts must sum to the dim size 5, got [2, 2] (sum 4)"),
    (lambda: K.pack_chunks(x57, 0, []), ValueError, "parts must name at least one chunk size"),
    (lambda: K.pack_chunks(torch.tensor(1.0), 0, 1), ValueError, "a 0-d tensor has no dim"),
    (lambda: K.unpack_chunks(torch.zeros(35), 0, 2, (5, 6)), ValueError, "buf has 35 elements but shape (5, 6) needs 30"),
    (lambda: K.unpack_chunks(torch.zeros(35), 0, [1, 1], (5, 7)), ValueError, "parts must sum to the dim size 5"),
    (lambda: K.unpack_chunks(torch.zeros(35), 2, 2, (5, 7)), ValueError, "dim=2 is out of range"),
    (lambda: K.unpack_chunks(torch.zeros(0), 0, 2, ()), ValueError, "shape must have at least one dim"),
    (lambda: K.permute_tiled(x57, (0, 0)), ValueError, "perm must be a permutation of range(2), got (0, 0)"),
    (lambda: K.permute_tiled(x57, (0, 1, 2)), ValueError, "perm must be a permutation of range(2)"),
    (lambda: K.permute_tiled(torch.zeros((1,) * 7), range(7)), ValueError, "rank <= 6, got a tensor of rank 7"),
    (lambda: K.assemble(torch.zeros(35), K.PieceLayout((5, 7), ((2,), ()))), ValueError,
     "pieces has 35 elements but layout needs 2 pieces of shape (3, 7) = 42"),
    (lambda: K.assemble([torch.zeros(3, 7)], K.PieceLayout((5, 7), ((2,), ()))), ValueError,
     "pieces has 1 tensors but layout has 2 pieces"),
    (lambda: K.assemble([torch.zeros(3, 7), torch.zeros(3, 7, dtype=torch.int32)], K.PieceLayout((5, 7), ((2,), ()))),
     TypeError, "pieces[1] is torch.int32 on cpu but pieces[0] is torch.float32 on cpu"),
    (lambda: K.assemble([torch.zeros(3, 7), torch.zeros(2, 7)], K.PieceLayout((5, 7), ((2,), ()))), ValueError,
     "pieces[1] has shape (2, 7), layout needs (3, 7)"),
    (lambda: K.assemble(torch.zeros(4), ((2,),)), TypeError, "layout must be a PieceLayout, got tuple"),
    (lambda: K.PieceLayout((5, 7), ((2,),)), ValueError, "grid must have 2 entries"),
    (lambda: K.PieceLayout((5,), ((2, 0),)), ValueError, "grid[0] must have axis sizes >= 1, got (2, 0)"),
    (lambda: K.PieceLayout((5,), ((2, 2),), (1, 2)), ValueError, "order must be a permutation of range(2)"),
    (lambda: K.PieceLayout((-1,), ((),)), ValueError, "shape must have sizes >= 0"),
    (lambda: K.slice_tile(x57, (0, 0), (1, 1), backend="gpu"), ValueError, "backend must be one of"),
])
def test_bad_arguments(no_launch, call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


def test_layout_is_a_value():
    a = K.PieceLayout([5, 7], [[2], []])
    b = K.PieceLayout((5, 7), ((2,), ()), (0,))
    assert a == b and hash(a) == hash(b) and eval(repr(a), {"PieceLayout": K.PieceLayout}) == a
    with pytest.raises(AttributeError):
        a.shape = (1, 1)
    assert (a.blocks, a.piece_shape, a.num_pieces) == ((2, 1), (3, 7), 2)


# ---------------------------------------------------------------- environments: no interpreter, no triton, numpy-only

def run_python(code, env_extra=None):
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                          timeout=120)


def test_environments():
    code = """
        import sys, torch
        import shardnb
        assert "shardnb.runtime.kernels" not in sys.modules and "torch" in sys.modules  # torch imported by us, above
        from shardnb.runtime import kernels as K
        x = torch.arange(6).reshape(2, 3)
        assert K.pick_backend(x) == "torch" and not K.triton_interpreting()
        try:
            K.permute_tiled(x, (1, 0), backend="triton")
        except RuntimeError as e:
            assert "needs a CUDA tensor, or TRITON_INTERPRET=1" in str(e), e
        else:
            raise SystemExit("triton backend ran on CPU without the interpreter")
        print("ok")
    """
    no_triton = """
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name == "triton" or name.startswith("triton."):
                    raise ImportError("no triton here")
        sys.meta_path.insert(0, Block())
        import torch
        from shardnb.runtime import kernels as K
        assert K.triton is None
        x = torch.arange(6).reshape(2, 3)
        assert K.permute_tiled(x, (1, 0)).tolist() == [[0, 3], [1, 4], [2, 5]]
        try:
            K.permute_tiled(x, (1, 0), backend="triton")
        except RuntimeError as e:
            assert "needs the triton package" in str(e), e
        else:
            raise SystemExit("the triton backend ran (or silently fell back to torch) without triton")
        print("ok")
    """
    numpy_only = """
        import sys, shardnb
        assert "torch" not in sys.modules and "shardnb.runtime.kernels" not in sys.modules
        print("ok")
    """
    for code in (code, no_triton, numpy_only):
        res = run_python(code)
        assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr


# ---------------------------------------------------------------- the compiled path, without a GPU

def test_kernel_compiles_for_sm90():
    "The interpreter accepts more than the compiler does: build the kernel's cubin for an H100 too (no GPU needed)."
    pytest.importorskip("triton.backends.nvidia")
    code = """
        import warnings; warnings.simplefilter("ignore")
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
        from shardnb.runtime.kernels import _copy_kernel
        fixed = ("src_ptr", "dst_ptr", "BLOCK_M", "BLOCK_N", "PADDED")
        scalars = [n for n in _copy_kernel.arg_names if n not in fixed]
        for ptr, ity, (bm, bn), padded in [("*i8", "i32", (1, 4096), False), ("*i64", "i64", (64, 64), True)]:
            sig = {"src_ptr": ptr, "dst_ptr": ptr, **{n: ity for n in scalars},
                   "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "PADDED": "constexpr"}
            src = ASTSource(fn=_copy_kernel, signature=sig, constexprs={"BLOCK_M": bm, "BLOCK_N": bn, "PADDED": padded})
            compiled = triton.compile(src, target=GPUTarget("cuda", 90, 32))
            assert "cubin" in compiled.asm and "ld.global" in compiled.asm["ptx"]
        print("ok")
    """
    res = run_python(code)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr


def test_absurd_part_counts_and_non_tensors_are_refused_at_once():
    "A part count far beyond any mesh (2**70) is refused before any sizes are built, and a non-tensor is a TypeError naming its type."
    with pytest.raises(ValueError, match=r"parts must be at most 16777216 \(one chunk per device\), got 1180591620717411303424"):
        K.chunk_sizes(7, 2**70)
    with pytest.raises(TypeError, match="x must be a torch.Tensor, got dict"):
        K.pick_backend({})
