"""Time the representation's hot calls on a 256-device, 4-axis mesh (4x4x4x4, non-iota device ids).

    python bench/representation.py [--repeats 7] [--profile]

Prints per-call microseconds (median over repeats, each repeat timing a batch with
`time.perf_counter`). `--profile` adds a cProfile of `devices_indices_map`."""
from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time

from shardnb.layout.mesh import Mesh
from shardnb.layout.syntax import parse_mesh, parse_sharding

rng = random.Random(0)
ids = list(range(256)); rng.shuffle(ids)
MESH = Mesh({"a": 4, "b": 4, "c": 4, "d": 4}, ids)
MESHES = {"mesh": MESH}
MESH_TEXT = str(MESH)

CASES = {  # name: (sharding body, tensor shape)
    "2-D full axes": ('<@mesh, [{"a", "b"}, {"c"}], replicated={"d"}>', (1024, 1000)),
    "3-D sub-axes": ('<@mesh, [{"a":(2)2, "b"}, {"c", "a":(1)2, ?}p1, {"d":(1)2}], replicated={"d":(2)2}>', (96, 100, 7)),
    "4-D all axes": ('<@mesh, [{"d"}, {"c"}, {"b"}, {"a"}]>', (16, 16, 16, 13)),
    "1-D unreduced": ('<@mesh, [{"a", "b", "c":(1)2}], unreduced={"d"}>', (4097,)),
}


def per_call_us(fn, repeats: int, min_time: float = 0.05) -> float:
    "Median per-call microseconds over `repeats` batches, each batch sized to run >= `min_time` s."
    n, t = 1, 0.0
    while True:
        t0 = time.perf_counter()
        for _ in range(n): fn()
        t = time.perf_counter() - t0
        if t >= min_time: break
        n *= 2
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n): fn()
        times.append((time.perf_counter() - t0) / n)
    return statistics.median(times) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()

    rows = [("parse_mesh (256 ids)", per_call_us(lambda: parse_mesh(MESH_TEXT), args.repeats))]
    for name, (body, shape) in CASES.items():
        s = parse_sharding(body, MESHES)
        rows += [(f"parse_sharding       {name}", per_call_us(lambda: parse_sharding(body, MESHES), args.repeats)),
                 (f"verify(shape)        {name}", per_call_us(lambda: s.verify(shape), args.repeats)),
                 (f"local_shape          {name}", per_call_us(lambda: s.local_shape(shape), args.repeats)),
                 (f"devices_indices_map  {name}", per_call_us(lambda: s.devices_indices_map(shape), args.repeats))]
    print(f"mesh {MESH.shape} = {MESH.size} devices, non-iota ids; median of {args.repeats} repeats")
    w = max(len(r[0]) for r in rows)
    print(f"{'call':<{w}}  {'us/call':>10}")
    print("-" * (w + 12))
    for name, us in rows: print(f"{name:<{w}}  {us:>10.1f}")

    if args.profile:
        body, shape = CASES["3-D sub-axes"]
        s = parse_sharding(body, MESHES)
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(200): s.devices_indices_map(shape)
        pr.disable()
        print("\ncProfile: 200 x devices_indices_map (3-D sub-axes)")
        pstats.Stats(pr).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
