#!/usr/bin/env python
"""Generate README.md from nbs/index.ipynb without Quarto, check that they agree, and more.

    python tools/readme.py                 # write README.md
    python tools/readme.py --check         # exit 1 (with a diff) when README.md is out of date
    python tools/readme.py --test-command  # print the README's test command (what CI runs)
    python tools/readme.py --figure        # regenerate docs/images/sharding.png with the README's own command

Markdown cells are copied verbatim (links and images relative to `nbs/` are rebased onto the repository
root; links to other notebooks point at them in `nbs/`); code cells become fenced Python, with their
directive lines (`#| ...`) removed; text outputs follow them. The notebook is executed (with nbdev's
execution engine, execnb) to get those outputs, so README.md shows what the code really prints;
images in outputs are left out (the README has one committed figure, under docs/images/).
Cells marked `#| hide`, `#| include: false` or `#| echo: false` are left out.
"""
from __future__ import annotations
import argparse, difflib, os, re, shlex, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NB = ROOT / "nbs" / "index.ipynb"
README = ROOT / "README.md"
HEADER = "<!-- Generated from nbs/index.ipynb by tools/readme.py: edit the notebook, then run `python tools/readme.py`. -->"
TEST_START, TEST_END = "<!-- test-command -->", "<!-- /test-command -->"
_directive = re.compile(r"^\s*#\|\s*([\w-]+)\s*:?\s*(.*?)\s*$")


def directives(source: str) -> dict[str, str]:
    "The `#| name: value` directives of a cell (`#| hide` gives `{'hide': ''}`)."
    out = {}
    for line in source.splitlines():
        m = _directive.match(line)
        if m: out[m.group(1)] = m.group(2)
    return out


def strip_directives(source: str) -> str:
    return "\n".join(l for l in source.splitlines() if not _directive.match(l)).strip("\n")


def _rebase(md: str) -> str:
    "Rewrite links and images relative to `nbs/` so they work from the repository root."
    def fix(m):
        text, target = m.group(1), m.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:|^#|^/", target): return m.group(0)
        if target.startswith("../"): target = target[3:]
        else: target = "nbs/" + target
        return f"{text}({target})"
    return re.sub(r"(!?\[[^\]]*\])\(([^)\s]+)\)", fix, md)


def _executed_cells(nb_path: Path):
    "The notebook's cells after running it top to bottom in its own folder (nbdev's engine)."
    from fastcore.nbio import read_nb
    from execnb.shell import CaptureShell
    nb = read_nb(nb_path)
    os.environ.setdefault("MPLBACKEND", "Agg")
    cwd = os.getcwd()
    try:
        os.chdir(nb_path.parent)
        shell = CaptureShell(nb_path, mpl_format="png")
        shell.run_all(nb, exc_stop=True)
    finally: os.chdir(cwd)
    return nb.cells


def _text_outputs(cell) -> str:
    "A cell's printed text and plain-text results (not figures, not errors)."
    parts = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream" and o.get("name") == "stdout": parts.append("".join(o["text"]))
        elif o.get("output_type") == "execute_result":
            data = o.get("data", {})
            if "text/plain" in data and not any(k.startswith("image/") for k in data):
                parts.append("".join(data["text/plain"]) + "\n")
    return "".join(parts).rstrip("\n")


def render(nb_path: Path = NB) -> str:
    "README.md's text for the notebook at `nb_path`."
    blocks = [HEADER]
    for cell in _executed_cells(nb_path):
        src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        d = directives(src)
        if "hide" in d or d.get("include") == "false" or d.get("echo") == "false": continue
        if cell["cell_type"] == "markdown": blocks.append(_rebase(src.strip("\n")))
        elif cell["cell_type"] == "code":
            code = strip_directives(src)
            if code: blocks.append(f"```python\n{code}\n```")
            out = _text_outputs(cell) if d.get("output") != "false" else ""
            if out: blocks.append(f"```\n{out}\n```")
    return "\n\n".join(blocks) + "\n"


def test_command(readme: Path = README) -> str:
    "The shell command between the test-command markers of README.md."
    text = readme.read_text()
    m = re.search(re.escape(TEST_START) + r"\s*```(?:bash|sh|shell)?\n(.*?)\n```\s*" + re.escape(TEST_END), text, re.S)
    if not m: sys.exit(f"{readme}: no test command between {TEST_START} and {TEST_END}")
    cmd = m.group(1).strip()
    if "\n" in cmd: sys.exit(f"{readme}: the test command must be one line, got:\n{cmd}")
    return cmd


def figure(readme: Path = README, out: Path = ROOT / "docs" / "images" / "sharding.png") -> None:
    "Regenerate the README's figure by running the `shardnb show ... --png` command the README gives."
    m = re.search(r"shardnb (show [^\n`]*?) --png \S+", readme.read_text())
    if not m: sys.exit(f"{readme}: no `shardnb show ... --png FILE` command")
    out.parent.mkdir(parents=True, exist_ok=True)
    from shardnb.cli import main
    sys.exit(main(shlex.split(m.group(1)) + ["--png", str(out)]))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--check", action="store_true", help="fail when README.md differs from what the notebook gives")
    g.add_argument("--test-command", action="store_true", help="print the README's test command")
    g.add_argument("--figure", action="store_true", help="regenerate docs/images/sharding.png")
    args = p.parse_args(argv)
    if args.test_command: print(test_command()); return 0
    if args.figure: figure(); return 0
    text = render()
    if args.check:
        old = README.read_text() if README.exists() else ""
        if old == text: print("README.md is in sync with nbs/index.ipynb"); return 0
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True), "README.md", "from nbs/index.ipynb"))
        print("\nREADME.md is out of date: run `python tools/readme.py` and commit README.md", file=sys.stderr)
        return 1
    README.write_text(text)
    print(f"wrote {README.relative_to(ROOT)}")
    return 0


if __name__ == "__main__": sys.exit(main())
