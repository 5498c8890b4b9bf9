#!/usr/bin/env python
"""Build the shardnb docs site without Quarto: `python tools/build_docs.py` -> _build/docs/html/index.html.

1+2. Run nbdev's docs processors (those `nbdev.serve.proc_nbs` uses: frontmatter, `show_doc` for every
   export, hidden cells removed, links to the API) on every notebook in nbs/, executing every cell with
   nbdev's engine as `nbdev-test` does (see `_execute_one` for the one processor swapped), into
   _build/docs/proc/. Results are cached on the notebook's and the package's contents.
3. Translate what that leaves Quarto-flavoured into MyST (title cells -> H1 and a summary, `#|` lines ->
   cell tags, `show_doc` output -> Markdown sections with anchors, Pandoc `{...}` attributes and `:::`
   callouts, links to the published site -> links between pages, non-standard metadata dropped) into
   _build/docs/src/, one folder per stage, named as nbdev names the pages (00_layout/00_mesh.ipynb -> layout/mesh.html).
4. Sphinx + myst-nb (theme furo) with warnings as errors (-W) into _build/docs/html/.

Quarto users: `nbdev-docs` renders the same notebooks with nbs/_quarto.yml.
"""
from __future__ import annotations
import argparse, hashlib, json, os, posixpath, re, shutil, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NBS = ROOT / "nbs"
BUILD = ROOT / "_build" / "docs"
PROC, SRC, HTML = BUILD / "proc", BUILD / "src", BUILD / "html"
SITE_PREFIX = "https://shardnb.github.io/shardnb/"  # doc_host + doc_baseurl: where nbdev points its links


def log(msg): print(f"[build_docs {time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ---------------------------------------------------------------------------------------------------------
# 1. Execute

def notebooks(tracked: bool = False) -> list[Path]:
    "The chapters in reading order: index first, then by file name (the number prefix)."
    nbs = [p for p in NBS.rglob("*.ipynb")
           if not any(part.startswith(("_", ".")) for part in p.relative_to(NBS).parts)]
    if tracked:
        out = subprocess.run(["git", "ls-files", "nbs"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        nbs = [p for p in nbs if f"nbs/{rel(p)}" in out.split()]
    return sorted(nbs, key=lambda p: (p.stem != "index", rel(p)))


def rel(nb: Path) -> str:
    "A notebook's path under nbs/, e.g. `00_layout/00_mesh.ipynb`: its name in the site's records."
    return nb.resolve().relative_to(NBS.resolve()).as_posix()


def flat(nb: Path) -> str:
    "The processed copy's file name: its path under nbs/ with `/` as `__` (one folder holds them all)."
    return rel(nb).replace("/", "__")


def stage(rel_path: str) -> str:
    "The folder of a notebook without its number (`04_shardy/04_propagate.ipynb` -> `shardy`), '' at the top."
    folder = Path(rel_path).parent.as_posix()
    return "" if folder == "." else re.sub(r"^\d+_", "", folder)


def _package_hash() -> str:
    h = hashlib.sha256()
    for p in sorted((ROOT / "shardnb").rglob("*.py")):
        if p.name != "_modidx.py": h.update(str(p.relative_to(ROOT)).encode() + p.read_bytes())
    return h.hexdigest()


def _execute_one(src: Path, dest: Path) -> None:
    """Run nbdev's docs processors on notebook `src`, executing every cell in order, and write `dest`.

    nbdev's `exec_show_docs` re-runs only the export, import and `show_doc` cells of a notebook whose
    outputs are already saved; ours are committed without outputs, and a cell that imports something and
    uses an earlier cell's value fails there. So the one processor that executes is swapped for one that
    runs every cell (skipping what nbdev-test skips: `tst_flags` cells and `#| eval: false`), in the
    notebook's folder, in the same kernel that renders `show_doc`. Everything else is nbdev's own."""
    os.environ["IN_TEST"] = "1"  # as nbdev-test and proc_nbs set it
    os.environ.setdefault("MPLBACKEND", "Agg")
    from fastcore.nbio import read_nb, write_nb
    from nbdev.config import get_config
    from nbdev.processors import FilterDefaults, exec_show_docs
    from nbdev.test import _skip_cell
    cfg = get_config()
    flags, timeout = cfg.get("tst_flags", "").split(), int(cfg.get("cell_timeout", 300))

    class exec_every_cell(exec_show_docs):
        def begin(self):
            super().begin()
            self.k.set_path(str(src.parent.resolve()))
            self.skip = _skip_cell(self.nb, flags)
        def __call__(self, cell):
            if cell.cell_type != "code" or (self.skip(cell) and not getattr(cell, "has_sd", False)): return
            self.k.cell(cell, timeout=timeout)
            if self.k.exc:
                raise SystemExit(f"{src.name}: error in cell {cell.idx_}:\n{cell.source}\n"
                                 f"{type(self.k.exc).__name__}: {self.k.exc}")

    class Procs(FilterDefaults):
        def base_procs(self): return [exec_every_cell if p is exec_show_docs else p for p in super().base_procs()]

    nb = read_nb(src)
    cwd = os.getcwd()
    try:
        os.chdir(src.parent)
        Procs()(nb)
    finally: os.chdir(cwd)
    write_nb(nb, dest)


def execute(nbs: list[Path], workers: int) -> None:
    PROC.mkdir(parents=True, exist_ok=True)
    pkg = _package_hash()
    todo = []
    for nb in nbs:
        dest, stamp = PROC / flat(nb), PROC / (flat(nb) + ".hash")
        key = hashlib.sha256(nb.read_bytes() + pkg.encode()).hexdigest()
        if dest.exists() and stamp.exists() and stamp.read_text() == key: continue
        stamp.unlink(missing_ok=True)
        todo.append((nb, dest, stamp, key))
    names = {flat(nb) for nb in nbs}
    for stale in PROC.glob("*.ipynb"):  # proc_nbs takes the whole folder: keep only this build's pages
        if stale.name not in names: stale.unlink()
    if not todo: log("notebooks: all cached"); return
    log(f"executing and processing {len(todo)} notebook(s) with nbdev, {workers} at a time")
    failed = []

    def run(t):  # each notebook in its own process: a fresh kernel, as nbdev-test gives it
        start = time.time()
        r = subprocess.run([sys.executable, __file__, "--execute-one", str(t[0]), str(t[1])], capture_output=True, text=True)
        return t, time.time() - start, r

    with ThreadPoolExecutor(workers) as pool:
        for (nb, dest, stamp, key), secs, r in pool.map(run, todo):
            if r.returncode: failed.append(f"{rel(nb)}:\n{r.stdout[-4000:]}{r.stderr[-4000:]}"); continue
            stamp.write_text(key)
            log(f"  {rel(nb)}: {secs:.1f}s")
    if failed: sys.exit("notebook execution failed:\n" + "\n".join(failed))


# ---------------------------------------------------------------------------------------------------------
# 3. Translate Quarto-flavoured notebooks into MyST notebooks

_directive = re.compile(r"^\s*#\|\s*([\w-]+)\s*:?\s*(.*?)\s*$")
_heading = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{#([^}\s]+)[^}]*\})?\s*$")


def _src(cell) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else (s or "")


def _split_directives(src: str) -> tuple[dict, str]:
    d, keep = {}, []
    for line in src.splitlines():
        m = _directive.match(line)
        if m: d[m.group(1)] = m.group(2).strip().strip('"')
        else: keep.append(line)
    return d, "\n".join(keep).strip("\n")


def _frontmatter(src: str) -> dict:
    import yaml
    m = re.match(r"^\s*---\n(.*?)\n---\s*$", src, re.S)
    return (yaml.safe_load(m.group(1)) or {}) if m else {}


def _callouts(md: str) -> str:
    "Quarto/Pandoc fenced divs (`::: {.callout-note}` ... `:::`) -> MyST admonitions."
    out, stack = [], []
    for line in md.splitlines():
        m = re.match(r"^(:{3,})\s*\{?\s*\.?(callout-)?([\w-]*)[^}]*\}?\s*$", line)
        if m and m.group(3):
            kind = m.group(3)
            kind = kind if kind in ("note", "tip", "warning", "important", "caution") else "note"
            out.append(f"````{{{kind}}}"); stack.append(kind)
        elif re.match(r"^:{3,}\s*$", line) and stack:
            stack.pop(); out.append("````")
        else: out.append(line)
    out += ["````"] * len(stack)
    return "\n".join(out)


def _strip_attrs(md: str) -> str:
    "Pandoc attributes after links and images (`[x](u){target=...}`) and spans (`[x]{.class}`)."
    md = re.sub(r"(\]\([^)]*\))\{[^}\n]*\}", r"\1", md)
    return re.sub(r"\[([^\]\n]*)\]\{[.#][^}\n]*\}", r"\1", md)


class Site:
    "What the translator needs to know about all pages: names, titles, anchors."
    def __init__(self, procs: list[tuple[Path, str]]):
        # notebook path under nbs/ -> page path: its stage folder without the number, then nbdev's output-file
        # (04_shardy/04_propagate.ipynb -> shardy/propagate; index.ipynb -> index)
        self.pages = {}
        for p, name in procs:
            cells = json.loads(p.read_text())["cells"]
            fm = _frontmatter(_src(cells[0])) if cells and cells[0]["cell_type"] == "raw" else {}
            page = Path(fm.get("output-file", Path(name).stem + ".html")).stem
            self.pages[name] = f"{stage(name)}/{page}" if stage(name) else page
        self.notebook = {v: k for k, v in self.pages.items()}
        self.anchors: dict[str, set[str]] = {}

    def link(self, target: str, here: str) -> str | None:
        "A site-internal link target for `target` on page `here`, or None to leave it as it is."
        page, _, anchor = target.partition("#")
        if page.startswith(SITE_PREFIX):  # nbdev's links to the published site: its folders keep their numbers
            page = re.sub(r"^\d+_", "", page[len(SITE_PREFIX):])
            if page.endswith(".html") and posixpath.splitext(page)[0] in self.anchors: return self._to(page, anchor, here)
            return None
        elif re.match(r"^[a-z][a-z0-9+.-]*:", page) or page.startswith("/"): return None
        nb = posixpath.normpath(posixpath.join(posixpath.dirname(self.notebook[here]), page)) if page else ""
        if not page: stem = here
        elif page.endswith(".ipynb") and nb in self.pages: stem = self.pages[nb]
        elif page.endswith((".html", ".md")) and posixpath.splitext(page)[0] in self.anchors: stem = posixpath.splitext(page)[0]
        else: return None
        if stem not in self.anchors: return None
        return self._to(stem + ".html", anchor, here)

    def _to(self, page: str, anchor: str, here: str) -> str:
        "The link from page `here` to `page` (a site path, `stage/name.html`) and its anchor where the page has it."
        from slugs import nbdev_slug
        stem = posixpath.splitext(page)[0]
        ok = anchor and (anchor in self.anchors[stem] or nbdev_slug(anchor) in self.anchors[stem])
        to = posixpath.relpath(stem, posixpath.dirname(here) or ".") + ".ipynb"
        return (to if stem != here else "") + (f"#{anchor}" if ok else "") or to


def _relink(md: str, site: Site, here: str) -> str:
    def fix(m):
        if m.group(1).startswith("!"): return m.group(0)
        new = site.link(m.group(2), here)
        if new is None and m.group(2).startswith(SITE_PREFIX):  # a page not in this build: plain text
            return m.group(1)[1:-1]
        return m.group(0) if new is None else f"{m.group(1)}({new})"
    # nbdev links a backticked name even inside a link's text (`[[`f`](site)](page)`): the author's link wins
    md = re.sub(r"\[\[([^\]\n]*)\]\([^)\s]+\)\]\(", r"[\1](", md)
    # a link's text may run over one line break
    return re.sub(r"(!?\[(?:[^\]\n]|\n(?!\n))*\])\(([^)\s]+)\)", fix, md)


def _images(md: str, here: str) -> str:
    "Images relative to the notebook (`../docs/images/x.png` from nbs/) -> the copy under the site's images/."
    up = "../" * here.count("/")
    return re.sub(r"(!\[[^\]]*\]\()(\.\./)+docs/images/", rf"\g<1>{up}images/", md)


def _show_doc_md(md: str) -> str:
    "nbdev's `show_doc` Markdown -> MyST: no leading rule, the source link after the heading."
    md = re.sub(r"^\s*---\s*\n", "", md)
    src = re.search(r"^\[source\]\(([^)]+)\)(\{[^}]*\})?\s*$", md, re.M)
    md = re.sub(r"^\[source\]\([^)]+\)(\{[^}]*\})?\s*\n?", "", md, flags=re.M).strip("\n")
    if src:
        lines = md.split("\n")
        for i, l in enumerate(lines):
            if l.startswith("#"):
                lines.insert(i + 1, f"\n[source]({src.group(1)})\n"); break
        md = "\n".join(lines)
    return md


class Headings:
    "Keeps heading levels consecutive (H1, then H2, ...), as MyST requires, and records the anchors."
    def __init__(self, anchors: set):
        self.level, self.anchors = 0, anchors

    def __call__(self, md: str) -> str:
        from slugs import nbdev_slug
        out, fence = [], False
        for line in md.split("\n"):
            if line.lstrip().startswith(("```", "~~~")): fence = not fence
            m = None if fence else _heading.match(line)
            if m:
                level = max(1, min(len(m.group(1)), self.level + 1)) if self.level else 1
                if self.level and level == 1: level = 2  # one H1 per page: the title
                self.level = level
                title, anchor = m.group(2), m.group(3)
                if anchor:  # Pandoc's explicit `{#anchor}` -> a MyST target
                    out.append(f"({anchor})=")
                    self.anchors.add(anchor)
                self.anchors.add(nbdev_slug(title.replace("`", "")))
                line = "#" * level + " " + title
            out.append(line)
        return "\n".join(out)


def _md_cell(text: str) -> dict: return {"cell_type": "markdown", "metadata": {}, "source": text}


def translate(proc: Path, name: str, site: Site, pass_: int) -> dict:
    "One processed notebook (`name` under nbs/) as a MyST notebook (pass 0 collects anchors, pass 1 links them)."
    nb = json.loads(proc.read_text())
    here = site.pages[name]
    anchors = site.anchors.setdefault(here, set())
    heads = Headings(anchors)
    cells, title, figures = [], None, 0

    def md(text: str):
        text = _images(_callouts(_strip_attrs(text)), here)
        if pass_: text = _relink(text, site, here)
        cells.append(_md_cell(heads(text)))

    for cell in nb["cells"]:
        kind, src = cell["cell_type"], _src(cell)
        if kind == "raw":
            fm = _frontmatter(src)
            if fm.get("title"):
                title = str(fm["title"])
                md(f"# {title}" + (f"\n\n{fm['description']}" if fm.get("description") else ""))
            continue
        if kind == "markdown":
            if not src.strip() or src.strip().startswith("<!-- WARNING: THIS FILE WAS AUTOGENERATED"): continue
            if title is None:
                m = re.match(r"^#\s+(.+)", src.strip())
                if m: title = m.group(1).strip()
            md(src)
            continue
        d, code = _split_directives(src)
        if d.get("include") == "false": continue
        outputs = cell.get("outputs", [])
        if d.get("output") == "asis":  # show_doc and friends: their Markdown output is the page's text
            for o in outputs:
                text = o.get("data", {}).get("text/markdown")
                if text: md(_show_doc_md("".join(text) if isinstance(text, list) else text))
            continue
        tags = []
        if d.get("echo") == "false": tags.append("remove-input")
        if d.get("output") == "false": tags.append("remove-output"); outputs = []
        if not code and not outputs: continue
        if not code: tags.append("remove-input")
        figures += sum(any(k.startswith("image/") for k in o.get("data", {})) for o in outputs)
        for o in outputs:  # Markdown in outputs gets the same link translation
            data = o.get("data", {})
            if "text/markdown" in data and pass_:
                t = data["text/markdown"]
                data["text/markdown"] = _relink(_strip_attrs("".join(t) if isinstance(t, list) else t), site, here)
        cells.append({"cell_type": "code", "execution_count": None, "metadata": {"tags": tags} if tags else {},
                      "outputs": outputs, "source": code})
    for i, c in enumerate(cells): c["id"] = f"{here.replace('/', '-')}-{i}"
    return {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                         "language_info": {"name": "python", "pygments_lexer": "ipython3"},
                         "shardnb": {"title": title or here, "figures": figures, "notebook": name}}}


def translate_all(cache: Path, order: list[Path]) -> list[dict]:
    if SRC.exists(): shutil.rmtree(SRC)
    SRC.mkdir(parents=True)
    procs = [(cache / flat(nb), rel(nb)) for nb in order]
    missing = [name for p, name in procs if not p.exists()]
    if missing: sys.exit(f"nbdev's processing produced no page for: {', '.join(missing)}")
    site = Site(procs)
    for p, name in procs: translate(p, name, site, 0)  # collect every page's anchors first
    pages = []
    for p, name in procs:
        nb = translate(p, name, site, 1)
        stem = site.pages[name]
        if stem == "index":  # the sidebar: one captioned list per stage folder, chapters in reading order
            by_stage: dict[str, list[str]] = {}
            for _, other in procs:
                if site.pages[other] != "index": by_stage.setdefault(stage(other), []).append(site.pages[other])
            for st, stems in by_stage.items():
                toc = "\n".join(stems)
                nb["cells"].append({**_md_cell(f"```{{toctree}}\n:hidden:\n:maxdepth: 1\n:caption: {st}\n\n{toc}\n```"),
                                    "id": f"index-toctree-{st}"})
        out = SRC / f"{stem}.ipynb"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(nb, indent=1))
        pages.append({"page": f"{stem}.html", **nb["metadata"]["shardnb"]})
    if (ROOT / "docs" / "images").exists(): shutil.copytree(ROOT / "docs" / "images", SRC / "images")
    return pages


# ---------------------------------------------------------------------------------------------------------
# 4. Sphinx

def sphinx(workers: int) -> None:
    if HTML.exists(): shutil.rmtree(HTML)
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q", "-j", str(workers),
           "-c", str(ROOT / "docs"), "-d", str(BUILD / "doctrees"), str(SRC), str(HTML)]
    r = subprocess.run(cmd, cwd=ROOT)
    if r.returncode: sys.exit(f"sphinx failed (warnings are errors): {' '.join(cmd)}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="parallel notebooks (default 2)")
    p.add_argument("--force", action="store_true", help="re-execute every notebook, ignoring the cache")
    p.add_argument("--tracked", action="store_true", help="only the notebooks git tracks (what a clean checkout has)")
    p.add_argument("--skip", action="append", default=[], metavar="GLOB", help="leave out notebooks matching GLOB")
    p.add_argument("--execute-one", nargs=2, metavar=("SRC", "DEST"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.execute_one: _execute_one(*map(Path, args.execute_one)); return 0
    sys.path.insert(0, str(ROOT / "docs"))
    t0 = time.time()
    order = [nb for nb in notebooks(args.tracked) if not any(nb.match(g) for g in args.skip)]
    if args.force and PROC.exists(): shutil.rmtree(PROC)
    execute(order, args.workers)
    log("translating to MyST")
    pages = translate_all(PROC, order)
    (BUILD / "pages.json").write_text(json.dumps(pages, indent=1))
    log("sphinx")
    sphinx(args.workers)
    log(f"built {len(pages)} pages into {HTML.relative_to(ROOT)}/ in {time.time() - t0:.0f}s")
    return 0


if __name__ == "__main__": sys.exit(main())
