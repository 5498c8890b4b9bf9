"""MindSpore-style propagation speed on torch models: a stack of attention + MLP blocks.

Run: python bench/strategies.py [--ops 1000] [--devices 8,64,512] [--sizes 250,500,1000,2000]
Prints one table: operators (torch nodes), StableHLO ops, devices, seconds to export+translate and to propagate."""
import argparse, math, time
import torch
from shardnb.frontends import from_torch
from shardnb.strategies import propagate_strategies, operators


class Block(torch.nn.Module):
    "Pre-norm transformer block: attention (4 heads) and a GELU MLP; 32 torch nodes."
    def __init__(self, d=64, h=4):
        super().__init__()
        self.h = h
        self.ln1, self.ln2 = torch.nn.LayerNorm(d), torch.nn.LayerNorm(d)
        self.q, self.k, self.v, self.o = (torch.nn.Linear(d, d) for _ in range(4))
        self.fc1, self.fc2 = torch.nn.Linear(d, 4 * d), torch.nn.Linear(4 * d, d)

    def forward(self, x):
        b, s, d = x.shape
        y = self.ln1(x)
        q = self.q(y).view(b, s, self.h, d // self.h).transpose(1, 2)
        k = self.k(y).view(b, s, self.h, d // self.h).transpose(1, 2)
        v = self.v(y).view(b, s, self.h, d // self.h).transpose(1, 2)
        a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d // self.h), dim=-1) @ v
        x = x + self.o(a.transpose(1, 2).reshape(b, s, d))
        return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.ln2(x))))


def model(n_ops: int):
    "A stack of blocks with about `n_ops` torch nodes (operators)."
    probe = from_torch(torch.export.export(Block(), (torch.randn(64, 64, 64),)))
    per = len(operators(probe))
    return torch.nn.Sequential(*[Block() for _ in range(max(1, round(n_ops / per)))])


def measure(n_ops: int, devices: int, x=None):
    m = model(n_ops)
    x = torch.randn(64, 64, 64) if x is None else x
    t0 = time.perf_counter()
    prog = from_torch(torch.export.export(m, (x,)))
    t1 = time.perf_counter()
    ops = operators(prog)
    # configure the first block's fc1 (data x model parallel), as a user would
    plan = propagate_strategies(prog, {"linear_4": ((2, 1, 1), (min(devices // 2, 64), 1), (min(devices // 2, 64),))},
                                device_num=devices)
    t2 = time.perf_counter()
    assert len(plan.strategies) == len(ops)
    n_hlo = sum(1 for op in prog.main.body.ops)
    return len(ops), n_hlo, t1 - t0, t2 - t1


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="250,500,1000,2000")
    ap.add_argument("--devices", default="8,64,512")
    a = ap.parse_args()
    torch.manual_seed(0)
    print(f"{'operators':>9} {'hlo ops':>8} {'devices':>7} {'export+from_torch s':>19} {'propagate s':>11}")
    for n in map(int, a.sizes.split(",")):
        for d in map(int, a.devices.split(",")):
            ops, hlo, te, tp = measure(n, d)
            print(f"{ops:>9} {hlo:>8} {d:>7} {te:>19.2f} {tp:>11.2f}", flush=True)
