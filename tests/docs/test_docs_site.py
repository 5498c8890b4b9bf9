"""The docs site (tools/build_docs.py) opened in headless Chromium: every chapter a page with its title and figures.

CI builds the site first and must have Chromium (`.ci/run` installs Debian's); locally the test builds the site
when it is missing and skips only when Sphinx or Chromium is not installed.
"""
import html, json, os, posixpath, re, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NBS = ROOT / "nbs"
BUILD = ROOT / "_build" / "docs"
SITE = BUILD / "html"
IN_CI = bool(os.environ.get("CI"))
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chapters() -> list[Path]:
    "Every notebook under nbs/ (folders starting with `_` or `.` aside)."
    return [p for p in NBS.rglob("*.ipynb") if not any(s.startswith(("_", ".")) for s in p.relative_to(NBS).parts)]


def resolve(page: str, href: str) -> str:
    "A link's target page, relative to the site's root, from the page it is on."
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), href))


def _unavailable(why):
    if IN_CI: pytest.fail(why)
    pytest.skip(why)


def _built() -> bool:
    return (SITE / "index.html").exists() and (BUILD / "pages.json").exists()


@pytest.fixture(scope="module")
def pages():
    if not _built():
        if IN_CI: pytest.fail("the docs site is not built: CI runs `python tools/build_docs.py` before the tests")
        try: import sphinx, myst_nb, furo  # noqa: F401
        except ImportError: pytest.skip("the docs tools are not installed (pip install -e '.[docs]')")
        from filelock import FileLock
        BUILD.mkdir(parents=True, exist_ok=True)
        with FileLock(str(BUILD.parent / "docs.lock")):   # pytest-xdist's workers: one builds, the others wait for it
            if not _built(): subprocess.run([sys.executable, str(ROOT / "tools" / "build_docs.py")], check=True, cwd=ROOT)
    return json.loads((BUILD / "pages.json").read_text())


@pytest.fixture(scope="module")
def chromium():
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe: _unavailable("Chromium is not installed (apt-get install -y chromium)")
    return exe


def _run_chromium(exe, *args, timeout=90):
    with tempfile.TemporaryDirectory() as profile:
        r = subprocess.run([exe, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, timeout=timeout)
    return r


def dump_dom(exe, page: Path) -> str:
    r = _run_chromium(exe, "--virtual-time-budget=5000", "--dump-dom", page.as_uri())
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    return r.stdout.decode()


def test_every_notebook_is_a_page_in_reading_order(pages):
    nbs = sorted(p.relative_to(NBS).as_posix() for p in chapters())
    assert sorted(p["notebook"] for p in pages) == nbs, "the site is stale: run python tools/build_docs.py"
    assert pages[0]["page"] == "index.html"
    order = [p["notebook"] for p in pages[1:]]   # stage folders by number, chapters by number inside each
    assert order == sorted(order)


def test_pages_load_with_title_figures_and_sidebar(pages, chromium):
    with ThreadPoolExecutor(2) as pool:
        doms = list(pool.map(lambda p: dump_dom(chromium, SITE / p["page"]), pages))
    order = [p["page"] for p in pages[1:]]
    for page, dom in zip(pages, doms):
        name, title = page["page"], page["title"]
        h1 = re.search(r"<h1[^>]*>(.*?)</h1>", dom, re.S)
        assert h1, f"{name}: no <h1>"
        plain = lambda t: html.unescape(re.sub(r"<[^>]+>", "", t)).replace("\u2019", "'").replace("¶", "").replace("#", "").strip()
        want = title.replace("`", "")
        assert plain(h1.group(1)) == want, (name, h1.group(1), title)
        assert want in plain(re.search(r"<title>(.*?)</title>", dom, re.S).group(1)), name
        imgs = [src for src in re.findall(r'<img[^>]+src="([^"]+)"', dom) if "_images/" in src or src.startswith("images/")]
        if page["figures"]:
            assert imgs, f"{name}: the notebook has {page['figures']} figure(s), the page shows none"
        for src in imgs:
            assert (SITE / resolve(name, src.split("#")[0])).exists(), f"{name}: image {src} is missing"
        sidebar = [resolve(name, h) for h in
                   re.findall(r'class="reference internal" href="([a-z_./]+\.html)"', dom.split('class="sidebar-tree"', 1)[-1])]
        # the current page links to itself as "#"; every other chapter is listed, in reading order
        assert [s for s in dict.fromkeys(sidebar) if s in order] == [o for o in order if o != name], \
            f"{name}: sidebar not in reading order"
        assert "Traceback (most recent call last)" not in dom, f"{name}: an error is rendered"


def test_show_doc_links_resolve_to_anchors(pages):
    ids = {p["page"]: set(re.findall(r'\bid="([^"]+)"', (SITE / p["page"]).read_text())) for p in pages}
    links, broken = 0, []
    for p in pages:
        for target, anchor in re.findall(r'href="([a-z_./]*\.html)?#([^"]+)"', (SITE / p["page"]).read_text()):
            links += 1
            page = resolve(p["page"], target) if target else p["page"]
            if anchor not in ids.get(page, {anchor}): broken.append(f"{p['page']} -> {target}#{anchor}")
    assert links > 50 and not broken, broken[:20]
    sharding = (SITE / "layout" / "sharding.html").read_text()
    assert 'id="tensorsharding"' in sharding and 'href="#tensorsharding"' in sharding


def test_home_page_screenshot(pages, chromium):
    shot = BUILD / "screenshot-home.png"
    shot.unlink(missing_ok=True)
    r = _run_chromium(chromium, "--window-size=1280,1600", f"--screenshot={shot}", (SITE / "index.html").as_uri())
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


def test_quarto_sidebar_lists_every_chapter_in_reading_order(capsys):
    import yaml
    from nbdev.quarto import nbdev_sidebar
    cfg = yaml.safe_load((ROOT / "nbs" / "_quarto.yml").read_text())
    assert {"nbdev.yml", "sidebar.yml"} <= set(cfg["metadata-files"])
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)
        nbdev_sidebar.__wrapped__(path=str(ROOT / "nbs"), printit=True, force=True)
    finally: os.chdir(cwd)
    contents = yaml.safe_load(capsys.readouterr().out)["website"]["sidebar"]["contents"]
    # one section per stage folder, named without its number, in the folders' order; its chapters by number
    folders = sorted({p.relative_to(NBS).parts[0] for p in chapters() if p.parent != NBS})
    sections = [(re.sub(r"^\d+_", "", f), sorted(p.name for p in (NBS / f).glob("*.ipynb"))) for f in folders]
    assert contents == ["index.ipynb", *[{"section": s, "contents": [f"{s}/{n}" for n in nbs]} for s, nbs in sections]]
