"""Bandwidth of shardnb's local kernels against torch and against a plain copy of the same bytes.

    python bench/kernels.py                 # quick: 1, 8 and 64 MiB
    python bench/kernels.py --full          # 1 MiB ... 1 GiB in powers of 4 (capped at 256 MiB on CPU)
    python bench/kernels.py --full --max-mib 1024 --dtype bfloat16 --ops permute,pack

For each operation and size it reports GB/s (bytes read + bytes written, as in the Triton tutorials) for
three providers, and the ratios side by side:

- `shardnb`: the public function with `backend="auto"`, i.e. the Triton kernel on CUDA, torch on CPU;
- `torch`:   the plain torch equivalent (`narrow().contiguous()`, `chunk` + `cat`, `permute().contiguous()`);
- `copy`:    `dst.copy_(src)` of a contiguous buffer with as many bytes as the output: the ceiling.

The benchmarks are declared `triton.testing.perf_report`-style; `--perf-report` also runs them through
triton's own runner (which needs pandas, so it is optional). Needs only torch and triton; runs unchanged
on a CUDA machine (timed with `triton.testing.do_bench`) and on CPU (timed with `time.perf_counter`).
"""
import argparse
import math
import statistics
import sys
import time

import torch

import shardnb.runtime.kernels as K

try:
    import triton
    import triton.testing
except ImportError:  # the CPU-only torch path still runs; perf_report is then unavailable
    triton = None

OPS = ("slice", "pack", "unpack", "assemble", "permute")
PROVIDERS = ("shardnb", "torch", "copy")
PARTS = 8  # all-to-all over 8 devices
MiB = 2**20


def matrix_shape(nbytes: int, itemsize: int) -> tuple[int, int]:
    "A near-square (rows, cols) of powers of two holding `nbytes`."
    n = nbytes // itemsize
    rows = 2 ** (int(math.log2(n)) // 2)
    return rows, n // rows


def make_case(op: str, nbytes: int, dtype: torch.dtype, device: str):
    "`(shardnb_fn, torch_fn, output_bytes)` for `op` producing `nbytes` of output."
    itemsize = torch.empty((), dtype=dtype).element_size()
    rows, cols = matrix_shape(nbytes, itemsize)
    gen = torch.Generator(device=device).manual_seed(0)

    def data(*shape):
        return torch.randint(-100, 100, shape, generator=gen, device=device).to(dtype)

    if op == "slice":  # a device's column band out of a buffer twice as wide: a strided read
        x = data(rows, 2 * cols)
        return (lambda: K.slice_tile(x, (0, cols // 2), (rows, cols)),
                lambda: x.narrow(1, cols // 2, cols).contiguous(), nbytes)
    if op == "pack":  # split along the last dim into 8 contiguous chunks
        x = data(rows, cols)
        return (lambda: K.pack_chunks(x, 1, PARTS),
                lambda: torch.cat([c.reshape(-1) for c in x.chunk(PARTS, 1)]), nbytes)
    if op == "unpack":  # the inverse, as on the receiving side of the all-to-all
        buf = data(rows * cols)
        return (lambda: K.unpack_chunks(buf, 1, PARTS, (rows, cols)),
                lambda: torch.cat([b.view(rows, cols // PARTS) for b in buf.chunk(PARTS)], 1), nbytes)
    if op == "assemble":  # 2 x 4 pieces from a gather over ("y", "x"): dim 1's axis is the buffer's major one
        layout = K.PieceLayout((rows, cols), ((2,), (4,)), (1, 0))
        buf = data(rows * cols)
        return (lambda: K.assemble(buf, layout),
                lambda: buf.view(4, 2, rows // 2, cols // 4).permute(1, 2, 0, 3).reshape(rows, cols), nbytes)
    if op == "permute":  # a 2-d transpose, the hardest case for coalescing
        x = data(rows, cols)
        return (lambda: K.permute_tiled(x, (1, 0)), lambda: x.permute(1, 0).contiguous(), nbytes)
    raise ValueError(f"unknown op {op!r}; choose from {OPS}")


def time_ms(fn, device: str, quick: bool) -> tuple[float, float, float]:
    "Milliseconds of `fn()`: (headline, low, high); on CUDA median and 20/80th percentiles, on CPU (min, min, median)."
    if device == "cuda":
        q = triton.testing.do_bench(fn, warmup=10 if quick else 25, rep=50 if quick else 100, quantiles=[0.5, 0.2, 0.8])
        return tuple(q)
    # CPU: the best of several runs (what timeit recommends: on a shared machine the others measure neighbours)
    fn()  # warm up
    budget, times = (0.5 if quick else 2.0), []
    start = time.perf_counter()
    while len(times) < 5 or (time.perf_counter() - start < budget and len(times) < 100):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    times.sort()
    return times[0], times[0], statistics.median(times)


def bench(op: str, size_mib: int, provider: str, dtype: torch.dtype, device: str, quick: bool):
    "GB/s (median, min, max) of `provider` running `op` with `size_mib` MiB of output."
    ours, ref, nbytes = make_case(op, size_mib * MiB, dtype, device)
    if provider == "shardnb":
        fn = ours
    elif provider == "torch":
        fn = ref
    else:
        src = torch.empty(nbytes, dtype=torch.uint8, device=device)
        dst = torch.empty_like(src)
        fn = lambda: dst.copy_(src)  # noqa: E731
    ms, lo, hi = time_ms(fn, device, quick)
    gbps = lambda t: 2 * nbytes * 1e-9 / (t * 1e-3)  # noqa: E731  read + write
    return gbps(ms), gbps(hi), gbps(lo)


def check(op: str, dtype: torch.dtype, device: str) -> None:
    "The shardnb result equals the torch equivalent's, bit for bit (at 1 MiB)."
    ours, ref, _ = make_case(op, MiB, dtype, device)
    a, b = ours(), ref()
    if a.shape != b.shape or not torch.equal(K._bits(a), K._bits(b)):
        raise SystemExit(f"{op}: shardnb and torch disagree")


def benchmarks(ops, sizes, dtype, device, quick):
    "One `triton.testing.Benchmark` per op, perf_report-style (None when triton is missing)."
    if triton is None:
        return None
    return [triton.testing.Benchmark(
        x_names=["size_mib"], x_vals=sizes, x_log=True, line_arg="provider", line_vals=list(PROVIDERS),
        line_names=list(PROVIDERS), ylabel="GB/s", plot_name=f"kernels-{op}-{str(dtype)[6:]}-{device}",
        args=dict(op=op, dtype=dtype, device=device, quick=quick)) for op in ops]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--full", action="store_true", help="1 MiB to 1 GiB in powers of 4 (default: a quick run)")
    p.add_argument("--max-mib", type=int, default=None, help="largest output size in MiB (default: 1024 on CUDA, 256 on CPU)")
    p.add_argument("--dtype", default="float32", help="a torch dtype name (default float32)")
    p.add_argument("--ops", default=",".join(OPS), help=f"comma-separated subset of {','.join(OPS)}")
    p.add_argument("--device", default=None, help="cuda or cpu (default: cuda when available)")
    p.add_argument("--threads", type=int, default=None, help="torch CPU threads (default 1: steadier on a shared machine)")
    p.add_argument("--perf-report", action="store_true", help="also run triton's perf_report runner (needs pandas)")
    args = p.parse_args(argv)

    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cpu":
        torch.set_num_threads(args.threads or 1)
    dtype = getattr(torch, args.dtype)
    ops = [o.strip() for o in args.ops.split(",") if o.strip()]
    for op in ops:
        if op not in OPS:
            p.error(f"unknown op {op!r}; choose from {', '.join(OPS)}")
    max_mib = args.max_mib or (1024 if device == "cuda" else 256)
    sizes = [s for s in ((1, 4, 16, 64, 256, 1024) if args.full else (1, 8, 64)) if s <= max_mib]
    quick = not args.full
    backend = K.pick_backend(torch.empty(0, device=device))
    name = f"shardnb[{backend}]"
    print(f"device={device}"
          + (f" ({torch.cuda.get_device_name()})" if device == "cuda" else f" ({torch.get_num_threads()} threads)")
          + f" dtype={args.dtype} torch={torch.__version__} triton={getattr(triton, '__version__', 'missing')}"
          + f" shardnb backend={backend}")
    if backend != "triton":
        print("note: no CUDA device, so `shardnb` runs its torch backend; the Triton kernels are not timed")

    for op in ops:
        check(op, dtype, device)
    header = f"{'op':<9}{'MiB':>6}{name + ' GB/s':>22}{'torch GB/s':>12}{'copy GB/s':>11}{'/torch':>9}{'/copy':>8}"
    print(header)
    print("-" * len(header))
    marks = benchmarks(ops, sizes, dtype, device, quick)
    for i, op in enumerate(ops):
        for size in sizes:
            row = {prov: bench(op, size, prov, dtype, device, quick)[0] for prov in PROVIDERS}
            print(f"{op:<9}{size:>6}{row['shardnb']:>22.2f}{row['torch']:>12.2f}{row['copy']:>11.2f}"
                  f"{row['shardnb'] / row['torch']:>9.2f}{row['shardnb'] / row['copy']:>8.2f}", flush=True)
            if device == "cuda":
                torch.cuda.empty_cache()
        if args.perf_report and marks is not None:
            try:
                triton.testing.perf_report(marks[i])(bench).run(print_data=True, show_plots=False)
            except ImportError as e:  # triton's runner needs pandas, which shardnb does not depend on
                print(f"--perf-report skipped: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
