"""README.md is generated from nbs/index.ipynb (tools/readme.py) and says what a newcomer needs."""
import re, shlex, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import readme  # noqa: E402


def test_readme_in_sync_with_index_notebook():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "readme.py"), "--check"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr


def test_exactly_two_commands():
    text = (ROOT / "README.md").read_text()
    commands = re.findall(r"```(?:bash|sh|shell)\n(.*?)\n```", text, re.S)
    assert len(commands) == 2, commands
    assert commands[0].startswith("pip install . && shardnb explain ")
    assert commands[1] == readme.test_command()


def test_test_command_installs_cpu_torch_first_and_runs_everything():
    cmd = readme.test_command()
    steps = [s.strip() for s in cmd.split("&&")]
    assert steps[0] == "pip install torch==2.13.0"
    assert steps[1].startswith("pip install -e ") and "dev" in steps[1]
    assert "nbdev-test" in steps and any(s.startswith("pytest") for s in steps)


def test_readme_figure_is_committed_and_shown():
    text = (ROOT / "README.md").read_text()
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert images == ["docs/images/sharding.png"]
    assert (ROOT / images[0]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_first_command_runs(tmp_path):
    "The Try-it command, as written: shardings with their causes, silent replications, the communication and its causes, a figure."
    text = (ROOT / "README.md").read_text()
    first = re.findall(r"```bash\n(.*?)\n```", text, re.S)[0]
    args = shlex.split(first.split("&&", 1)[1])
    assert args[0] == "shardnb"
    png = tmp_path / args[args.index("--png") + 1]
    args[args.index("--png") + 1] = str(png)
    r = subprocess.run([sys.executable, "-c", "import sys; from shardnb.cli import main; sys.exit(main(sys.argv[1:]))", *args[1:]],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert '"model" <- argument 1 (%arg1) of @main' in out and "silent replications" in out
    assert "causes:" in out and "reduction factor" in out and "all_reduce" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_figure_command_in_the_prose_runs(tmp_path):
    "The `shardnb show ... --png` the README names for its figure (tools/readme.py --figure reruns it) prints who holds what."
    m = re.search(r"shardnb (show [^\n`]*?) --png \S+", (ROOT / "README.md").read_text())
    assert m
    png = tmp_path / "s.png"
    r = subprocess.run([sys.executable, "-c", "import sys; from shardnb.cli import main; sys.exit(main(sys.argv[1:]))",
                        *shlex.split(m.group(1)), "--png", str(png)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "who holds what" in r.stdout and png.exists()
