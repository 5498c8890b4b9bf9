"""The Quarto path (`nbdev-docs`): nbdev's `exec_show_docs` re-runs only a notebook's export, import and `show_doc`
cells, in order, in a fresh kernel. Each of those must run without the other cells' state, or `nbdev-docs`
fails for users who have Quarto. This runs exactly the cells nbdev picks (its own `_do_eval`), one notebook per
process, in the notebook's folder.

On Linux each notebook's process is forked from a server that has imported nbdev and the third-party libraries the
chapters use (never shardnb), so that 40-odd notebooks don't pay for those imports 40 times; elsewhere each runs in
a new interpreter."""
import json, os, select, subprocess, sys, tempfile, warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NBS = ROOT / "nbs"
NOTEBOOKS = sorted(p.relative_to(NBS).as_posix() for p in NBS.glob("[0-9]*/[0-9]*.ipynb")) + ["index.ipynb"]
PRELOAD = ["numpy", "matplotlib.pyplot", "torch", "IPython", "fastcore.nbio", "execnb.shell", "nbdev.processors",
           "nbdev.process"]
TIMEOUT = 300


def run_doc_cells(path: str) -> tuple[bool, str]:
    "Run the cells nbdev's Quarto path runs of the notebook at `path`, in its folder: (True, cells run) or (False, why)."
    warnings.simplefilter("ignore")
    os.chdir(Path(path).parent)
    from fastcore.nbio import read_nb
    from execnb.shell import CaptureShell
    from nbdev.processors import _do_eval
    from nbdev.process import NBProcessor
    name = Path(path).name
    nb = NBProcessor(name, [], nb=read_nb(name)).nb
    sh, ran = CaptureShell(name), 0
    for c in nb.cells:
        if c.cell_type != "code" or not _do_eval(c): continue
        sh.run(c.source); ran += 1
        if sh.exc: return False, f"cell {c.idx_} fails on the Quarto path ({sh.exc!r}):\n{c.source}"
    return True, str(ran)


# one notebook per new interpreter
ALONE = r'''
import json, sys
from tests.docs.test_quarto_cells import run_doc_cells
print(json.dumps(run_doc_cells(sys.argv[1])))
'''

# reads a notebook path per line; forks a child for each, whose (ok, out) comes back as a line of JSON
SERVER = r'''
import importlib, json, os, sys
from tests.docs.test_quarto_cells import PRELOAD, run_doc_cells
for m in PRELOAD:
    try: importlib.import_module(m)
    except ImportError: pass
for line in sys.stdin:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r); os.dup2(2, 1)   # whatever the cells print goes to stderr, not into the replies
        try: res = run_doc_cells(line.strip())
        except BaseException as e: res = (False, f"{type(e).__name__}: {e}")
        with os.fdopen(w, "wb") as f: f.write(json.dumps(res).encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f: out = f.read()
    _, status = os.waitpid(pid, 0)
    sys.stdout.write((out.decode() or json.dumps([False, f"the notebook's process died (status {status})"])) + "\n")
    sys.stdout.flush()
'''


def _env():
    return dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))


@pytest.fixture(scope="module")
def run_alone():
    "`run(path) -> (ok, cells run or why)`, each notebook in a process of its own."
    if sys.platform != "linux":   # fork after importing these libraries is safe on Linux only
        def run(path):
            r = subprocess.run([sys.executable, "-c", ALONE, path], env=_env(), capture_output=True, text=True, timeout=TIMEOUT)
            return json.loads(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 else (False, r.stderr[-3000:])
        yield run
        return
    with tempfile.TemporaryFile("w+") as err:
        server = subprocess.Popen([sys.executable, "-c", SERVER], env=_env(), cwd=ROOT, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=err, text=True)
        def run(path):
            server.stdin.write(path + "\n"); server.stdin.flush()
            if not select.select([server.stdout], [], [], TIMEOUT)[0]:
                server.kill(); pytest.fail(f"{path}: no reply in {TIMEOUT} s")
            line = server.stdout.readline()
            if not line: err.seek(0); pytest.fail(f"the notebook server died:\n{err.read()[-3000:]}")
            return json.loads(line)
        try: yield run
        finally:
            server.stdin.close(); server.wait(timeout=60)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_doc_cells_run_alone(run_alone, name):
    ok, out = run_alone(str(NBS / name))
    assert ok, out
    assert int(out) > 0   # it ran something: the chapter's exports at least
