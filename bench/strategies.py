"""MindSpore-style propagation speed on torch models: a stack of attention + MLP blocks.

Run: python bench/strategies.py [--devices 8,64,512] [--sizes 250,500,1000,2000] [--distinct] [--repeat 1]
                                [--write-tables DIR]
Prints one table: operators (torch nodes), StableHLO ops, seconds to export+translate, and seconds to propagate
with each device count (one column per count), the best of `--repeat` runs. `--write-tables DIR` times both stacks
(every block alike, and with `--distinct` MLP widths) and writes them to DIR/strategies.md, the file the
propagation chapter shows."""
import argparse, math, os, platform, time
from pathlib import Path
import torch
from shardnb.mindspore.torch_frontend import from_torch
from shardnb.mindspore.operators import operators
from shardnb.mindspore.strategies import propagate_strategies


class Block(torch.nn.Module):
    "Pre-norm transformer block: attention (4 heads) and a GELU MLP; 32 torch nodes."
    def __init__(self, d=64, h=4, hidden=None):
        super().__init__()
        self.h = h
        self.ln1, self.ln2 = torch.nn.LayerNorm(d), torch.nn.LayerNorm(d)
        self.q, self.k, self.v, self.o = (torch.nn.Linear(d, d) for _ in range(4))
        self.fc1, self.fc2 = torch.nn.Linear(d, hidden or 4 * d), torch.nn.Linear(hidden or 4 * d, d)

    def forward(self, x):
        b, s, d = x.shape
        y = self.ln1(x)
        q = self.q(y).view(b, s, self.h, d // self.h).transpose(1, 2)
        k = self.k(y).view(b, s, self.h, d // self.h).transpose(1, 2)
        v = self.v(y).view(b, s, self.h, d // self.h).transpose(1, 2)
        a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d // self.h), dim=-1) @ v
        x = x + self.o(a.transpose(1, 2).reshape(b, s, d))
        return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.ln2(x))))


def model(n_ops: int, distinct: bool = False):
    "A stack of blocks with about `n_ops` torch nodes (operators); `distinct`: every block's MLP a different width."
    probe = from_torch(torch.export.export(Block(), (torch.randn(64, 64, 64),)))
    per = len(operators(probe))
    n = max(1, round(n_ops / per))
    return torch.nn.Sequential(*[Block(hidden=256 + 32 * i if distinct else None) for i in range(n)])


def export(n_ops: int, distinct: bool = False):
    "The torch model of about `n_ops` operators, exported and translated; and the seconds that took."
    m = model(n_ops, distinct)
    t0 = time.perf_counter()
    prog = from_torch(torch.export.export(m, (torch.randn(64, 64, 64),)))
    return prog, time.perf_counter() - t0


def propagate_time(prog, devices: int, repeat: int = 1) -> float:
    "Seconds to propagate from the first block's fc1, configured data x model parallel as a user would; the best of `repeat` runs."
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        plan = propagate_strategies(prog, {"linear_4": ((2, 1, 1), (min(devices // 2, 64), 1), (min(devices // 2, 64),))},
                                    device_num=devices)
        best = min(best, time.perf_counter() - t0)
        assert len(plan.strategies) == len(operators(prog))
    return best


def measure(sizes: list, devices: list, distinct: bool, repeat: int = 1) -> list:
    "One row per size: (operators, StableHLO ops, seconds to export+translate, seconds to propagate per device count); printed as it goes."
    print(f"{'operators':>9} {'hlo ops':>8} {'export+from_torch s':>19} " + " ".join(f"{f'propagate s @{d}':>16}" for d in devices))
    rows = []
    for n in sizes:
        prog, te = export(n, distinct)
        times = [propagate_time(prog, d, repeat) for d in devices]
        rows.append((len(operators(prog)), len(prog.main.body.ops), te, times))
        print(f"{rows[-1][0]:>9} {rows[-1][1]:>8} {te:>19.2f} " + " ".join(f"{t:>16.2f}" for t in times), flush=True)
    return rows


def markdown_table(rows: list, devices: list) -> str:
    "The rows as a markdown table of propagation seconds, one column per device count."
    head = "| operators | StableHLO ops | " + " | ".join(f"s @{d} devices" for d in devices) + " |"
    lines = [head, "|" + "---:|" * (2 + len(devices))]
    lines += [f"| {ops:,} | {hlo:,} | " + " | ".join(f"{t:.2f}" for t in times) + " |" for ops, hlo, _, times in rows]
    return "\n".join(lines)


def write_tables(folder: Path, sizes: list, devices: list, repeat: int = 1) -> Path:
    "Time both stacks, every block alike and every MLP its own width, and write them to `folder`/strategies.md."
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    alike, distinct = measure(sizes, devices, False, repeat), measure(sizes, devices, True, repeat)
    text = "\n".join([
        f"Seconds to propagate (the best of {repeat} runs), written by `python bench/strategies.py --sizes {','.join(map(str, sizes))} "
        f"--devices {','.join(map(str, devices))} --repeat {repeat} --write-tables {folder.as_posix()}` on {os.cpu_count()} CPUs "
        f"(Python {platform.python_version()}, torch {torch.__version__.split('+')[0]}; load average {load:.1f} when it started).",
        "", "Every block alike:", "", markdown_table(alike, devices), "",
        "Every block's MLP its own width (`--distinct`):", "", markdown_table(distinct, devices), ""])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "strategies.md").write_text(text)
    return folder / "strategies.md"


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="250,500,1000,2000")
    ap.add_argument("--devices", default="8,64,512")
    ap.add_argument("--distinct", action="store_true",
                    help="every block its own MLP width: its fc1, gelu and fc2 share no decision with another block (attention still does)")
    ap.add_argument("--repeat", type=int, default=1, help="time each propagation this many times and keep the best")
    ap.add_argument("--write-tables", metavar="DIR",
                    help="time both stacks (alike and --distinct) and write them to DIR/strategies.md")
    a = ap.parse_args()
    torch.manual_seed(0)
    sizes, devices = [int(n) for n in a.sizes.split(",")], [int(d) for d in a.devices.split(",")]
    if a.write_tables: print("wrote", write_tables(Path(a.write_tables), sizes, devices, a.repeat))
    else: measure(sizes, devices, a.distinct, a.repeat)
