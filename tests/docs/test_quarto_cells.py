"""The Quarto path (`nbdev-docs`): nbdev's `exec_show_docs` re-runs only a notebook's export, import and `show_doc`
cells, in order, in a fresh kernel. Each of those must run without the other cells' state, or `nbdev-docs`
fails for users who have Quarto. This runs exactly the cells nbdev picks (its own `_do_eval`), one notebook per
process, in the notebook's folder."""
import os, subprocess, sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NBS = ROOT / "nbs"
NOTEBOOKS = sorted(p.relative_to(NBS).as_posix() for p in NBS.glob("[0-9]*/[0-9]*.ipynb")) + ["index.ipynb"]

RUNNER = r'''
import sys
from fastcore.nbio import read_nb
from execnb.shell import CaptureShell
from nbdev.processors import _do_eval
from nbdev.process import NBProcessor
nb = NBProcessor(sys.argv[1], [], nb=read_nb(sys.argv[1])).nb
sh, ran = CaptureShell(sys.argv[1]), 0
for c in nb.cells:
    if c.cell_type != "code" or not _do_eval(c): continue
    sh.run(c.source); ran += 1
    if sh.exc: sys.exit(f"cell {c.idx_} fails on the Quarto path ({sh.exc!r}):\n{c.source}")
print(ran)
'''


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_doc_cells_run_alone(name):
    env = dict(os.environ, TRITON_INTERPRET="1")
    nb = NBS / name
    r = subprocess.run([sys.executable, "-W", "ignore", "-c", RUNNER, nb.name], cwd=nb.parent, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert int(r.stdout.strip().splitlines()[-1]) > 0   # it ran something: the chapter's exports at least
