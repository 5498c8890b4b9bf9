#!/usr/bin/env python
"""shardnb's import graph, read from the package's source: its layers, and the rules the layout keeps.

    python tools/layers.py            # print the layer list and the graph's figures
    python tools/layers.py --write    # write the layer list into CONTRIBUTING.md (between its markers)
    python tools/layers.py --check    # exit 1 if CONTRIBUTING.md's list has drifted or a rule is broken

The rules (tests/test_architecture.py asserts them): data flows down, so the graph of modules has no
circle, counting the imports made inside functions too (a lazy import must not hide a cycle); no module
imports another module's private (`_name`) name; no stage imports `viz` (the figures), and only `cli`
imports `cli`. A stage is a subpackage of `shardnb` (`shardnb/<stage>/`); `cli` is a stage of one module.
"""
from __future__ import annotations
import argparse, ast, sys
from dataclasses import dataclass, field
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "shardnb"
BEGIN, END = "<!-- layers:begin (tools/layers.py --write) -->", "<!-- layers:end -->"


@dataclass
class Import:
    "One import of a shardnb module by another: the names it takes, and whether it sits inside a function."
    src: str
    dst: str
    names: list[str]
    lazy: bool


@dataclass
class Graph:
    "Every shardnb module (dotted, without the `shardnb.` prefix) and the imports between them."
    modules: list[str] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)

    def stage(self, module: str) -> str: return module.split(".")[0]

    def stages(self) -> list[str]: return sorted({self.stage(m) for m in self.modules} - {"__init__"})

    def edges(self, lazy: bool = True) -> set[tuple[str, str]]:
        "Module -> module imports (lazy ones too, unless `lazy=False`); a package's `__init__` is not a layer."
        return {(i.src, i.dst) for i in self.imports if (lazy or not i.lazy) and i.src != i.dst
                and not i.src.endswith("__init__") and not i.dst.endswith("__init__")}

    def stage_edges(self) -> set[tuple[str, str]]:
        return {(self.stage(a), self.stage(b)) for a, b in self.edges() if self.stage(a) != self.stage(b)}

    def cycles(self) -> list[list[str]]:
        "A cycle of the module graph (lazy imports included), or none."
        deps: dict[str, set[str]] = {m: set() for m in self.modules}
        for a, b in self.edges(): deps.setdefault(a, set()).add(b)
        try: list(TopologicalSorter(deps).static_order()); return []
        except CycleError as e: return [e.args[1]]

    def private_imports(self) -> list[Import]:
        "Imports of another module's `_private` names."
        return [i for i in self.imports if i.src != i.dst and any(n.startswith("_") and not n.startswith("__") for n in i.names)]

    def floors(self) -> list[list[str]]:
        "The stages in layers: each floor imports only floors above it (its stages sorted by name)."
        deps = {s: set() for s in self.stages()}
        for a, b in self.stage_edges(): deps[a].add(b)
        floors, placed = [], set()
        while len(placed) < len(deps):
            floor = sorted(s for s in deps if s not in placed and deps[s] <= placed)
            if not floor: raise CycleError("stages import each other", sorted(set(deps) - placed))
            floors.append(floor); placed |= set(floor)
        return floors

    def module_order(self, stage: str) -> list[str]:
        "A stage's modules, each after the modules of the stage it imports."
        mods = [m for m in self.modules if self.stage(m) == stage and not m.endswith("__init__")]
        deps = {m: {b for a, b in self.edges() if a == m and b in mods} for m in mods}
        ts, order = TopologicalSorter(deps), []
        try: ts.prepare()
        except CycleError: return sorted(mods)   # reported by problems()
        while ts.is_active():
            ready = sorted(ts.get_ready()); order += ready; ts.done(*ready)
        return order


def _module_name(path: Path, pkg: Path = PKG) -> str:
    rel = path.relative_to(pkg).with_suffix("")
    return ".".join(rel.parts)


def _resolve(src: str, node: ast.ImportFrom, is_pkg: bool) -> str | None:
    "The shardnb module an `import from` names, relative or absolute, or None if it is not shardnb's."
    if node.level:
        base = src.split(".") if is_pkg else src.split(".")[:-1]
        base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
        return ".".join(base + ([node.module] if node.module else []))
    if node.module and (node.module == "shardnb" or node.module.startswith("shardnb.")):
        return node.module[len("shardnb."):] if node.module != "shardnb" else ""
    return None


def read_graph(pkg: Path = PKG) -> Graph:
    "The import graph of the package's source files under `pkg` (`_modidx.py` left out)."
    files = sorted(p for p in pkg.rglob("*.py") if p.name != "_modidx.py")
    g = Graph(modules=[_module_name(p, pkg) for p in files])
    known = set(g.modules)
    for p in files:
        src = _module_name(p, pkg)
        tree = ast.parse(p.read_text(), str(p))
        parents = {c: n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
        for node in ast.walk(tree):
            lazy, up = False, parents.get(node)
            while up is not None:
                if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)): lazy = True
                up = parents.get(up)
            if isinstance(node, ast.ImportFrom):
                mod = _resolve(src, node, p.name == "__init__.py")
                if mod is None: continue
                for a in node.names:  # `from shardnb.x import y` where y is a module is an import of x.y
                    sub = f"{mod}.{a.name}" if mod else a.name
                    if sub in known or f"{sub}.__init__" in known:
                        g.imports.append(Import(src, sub if sub in known else f"{sub}.__init__", [], lazy))
                    else:
                        target = mod if mod in known else f"{mod}.__init__" if mod else "__init__"
                        g.imports.append(Import(src, target, [a.name], lazy))
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith("shardnb."):
                        mod = a.name[len("shardnb."):]
                        g.imports.append(Import(src, mod if mod in known else f"{mod}.__init__", [], lazy))
    return g


def layer_list(g: Graph) -> str:
    "CONTRIBUTING's list of layers: each floor's stages, their modules in import order, what each stage imports."
    lines = [BEGIN, "", "Generated from the import graph: each floor imports only the floors above it.", ""]
    imports = {s: sorted({b for a, b in g.stage_edges() if a == s}) for s in g.stages()}
    for k, floor in enumerate(g.floors(), 1):
        for s in floor:
            mods = ", ".join(f"`{m.split('.', 1)[-1]}`" for m in g.module_order(s))
            deps = ", ".join(f"`{d}`" for d in imports[s]) or "nothing of shardnb's"
            lines.append(f"{k}. `{s}` ({mods}) imports {deps}")
    lines += ["", END]
    return "\n".join(lines)


def problems(g: Graph) -> list[str]:
    "Every broken rule, in words."
    out = [f"import circle: {' -> '.join(c)}" for c in g.cycles()]
    out += [f"{i.src} imports private {', '.join(n for n in i.names if n.startswith('_'))} from {i.dst}"
            for i in g.private_imports()]
    out += [f"{a} imports {b}: no stage imports the figures" for a, b in g.edges()
            if g.stage(b) == "viz" and g.stage(a) not in ("viz", "cli", "__init__")]
    out += [f"{a} imports {b}: only the command imports cli" for a, b in g.edges() if g.stage(b) == "cli" and a != b]
    return out


def figures(g: Graph) -> str:
    "The graph's figures for a report: modules per stage, arrows between stages, circles, private imports."
    per = {s: sum(1 for m in g.modules if g.stage(m) == s and not m.endswith("__init__")) for s in g.stages()}
    per = {s: n for s, n in per.items() if n}
    return "\n".join([
        f"modules: {sum(per.values())} in {len(per)} stages ({', '.join(f'{s} {n}' for s, n in per.items())})",
        f"module import arrows: {len(g.edges(lazy=False))} (+{len(g.edges()) - len(g.edges(lazy=False))} inside functions)",
        f"stage import arrows: {len(g.stage_edges())}: " + ", ".join(f"{a}->{b}" for a, b in sorted(g.stage_edges())),
        f"import circles: {len(g.cycles())}",
        f"imports of private names across modules: {sum(len(i.names) for i in g.private_imports())}",
    ])


def _contributing() -> Path: return ROOT / "CONTRIBUTING.md"


def written_list() -> str | None:
    text = _contributing().read_text()
    if BEGIN not in text or END not in text: return None
    return text[text.index(BEGIN):text.index(END) + len(END)]


def write(g: Graph) -> None:
    text, new = _contributing().read_text(), layer_list(g)
    old = written_list()
    if old is None: raise SystemExit(f"CONTRIBUTING.md has no {BEGIN} ... {END} block to write into")
    _contributing().write_text(text.replace(old, new))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--write", action="store_true", help="write the layer list into CONTRIBUTING.md")
    p.add_argument("--check", action="store_true", help="fail if the list drifted or a rule is broken")
    p.add_argument("--package", type=Path, default=PKG, help="read another copy of the package (its figures only)")
    args = p.parse_args(argv)
    g = read_graph(args.package.resolve())
    if args.package.resolve() != PKG: print(figures(g)); return 0
    if args.write: write(g)
    bad = problems(g)
    if args.check:
        if written_list() != layer_list(g): bad.append("CONTRIBUTING.md's layer list is stale: run python tools/layers.py --write")
        for b in bad: print(b, file=sys.stderr)
        return 1 if bad else 0
    print(layer_list(g)); print(); print(figures(g))
    for b in bad: print("problem:", b)
    return 0


if __name__ == "__main__": sys.exit(main())
