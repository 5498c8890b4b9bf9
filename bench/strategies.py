"""MindSpore-style propagation speed on torch models: a stack of attention + MLP blocks.

Run: python bench/strategies.py [--devices 8,64,512] [--sizes 250,500,1000,2000] [--distinct]
Prints one table: operators (torch nodes), StableHLO ops, seconds to export+translate, and seconds to propagate
with each device count (one column per count)."""
import argparse, math, time
import torch
from shardnb.mindspore.torch_frontend import from_torch
from shardnb.mindspore.strategies import propagate_strategies, operators


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


def propagate_time(prog, devices: int) -> float:
    "Seconds to propagate from the first block's fc1, configured data x model parallel as a user would."
    t0 = time.perf_counter()
    plan = propagate_strategies(prog, {"linear_4": ((2, 1, 1), (min(devices // 2, 64), 1), (min(devices // 2, 64),))},
                                device_num=devices)
    t = time.perf_counter() - t0
    assert len(plan.strategies) == len(operators(prog))
    return t


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="250,500,1000,2000")
    ap.add_argument("--devices", default="8,64,512")
    ap.add_argument("--distinct", action="store_true",
                    help="every block its own MLP width: its fc1, gelu and fc2 share no decision with another block (attention still does)")
    a = ap.parse_args()
    torch.manual_seed(0)
    devices = [int(d) for d in a.devices.split(",")]
    print(f"{'operators':>9} {'hlo ops':>8} {'export+from_torch s':>19} " + " ".join(f"{f'propagate s @{d}':>16}" for d in devices))
    for n in map(int, a.sizes.split(",")):
        prog, te = export(n, a.distinct)
        times = [propagate_time(prog, d) for d in devices]
        print(f"{len(operators(prog)):>9} {len(prog.main.body.ops):>8} {te:>19.2f} " + " ".join(f"{t:>16.2f}" for t in times), flush=True)
