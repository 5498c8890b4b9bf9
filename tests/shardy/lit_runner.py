"""Shardy's own propagation lit files, run through jaxlib and through shardnb (used by tests/shardy/test_propagate_lit.py and
bench/propagate_lit.py). Each file is split at `// -----`; its RUN line's passes run in jaxlib (in a subprocess: a case can
abort it) and in shardnb; jaxlib re-prints shardnb's output and the two modules are compared whole: each function
of either (one that only shardnb prints differs), and the module's own lines (attributes, meshes, the order of its
functions). Where jaxlib refuses a case, whether shardnb refuses it too is recorded."""
import os
import re
import importlib

from shardnb.ir.program import Attr, parse_module, print_module
from shardnb.shardy import import_passes as P
from shardnb.shardy.rules import sharding_rule
from shardnb.layout.mesh import ShardingError
PR = importlib.import_module("shardnb.shardy.propagate")   # the package re-exports the function `propagate` under the module's name
from tests.corpus.shardy_runner import run_in_subprocess


def _pipeline(m, opts):
    from shardnb.shardy.export import propagation_pipeline
    other = {k: v for k, v in opts.items() if k != "dedup-functions-fully"}
    if other: raise NotImplementedError(f"sdy-propagation-pipeline with options {other}")
    return propagation_pipeline(m, dedup_functions_fully=opts.get("dedup-functions-fully") == "true")


def _sink_func_edges(m, opts):
    from shardnb.shardy.export import sink_func_data_flow_edges
    return sink_func_data_flow_edges(m)


def _populate(m, opts):
    "sdy-populate-op-sharding-rules: each op Shardy has a rule for gets it as `sdy.sharding_rule`."
    cons = opts.get("conservative-propagation") == "true"
    for op in m.walk():
        if "sdy.sharding_rule" in op.attrs: continue
        try: op.attrs["sdy.sharding_rule"] = Attr(str(sharding_rule(op, cons)))
        except ShardingError: pass
    return m


def _propagate(strategy):
    def run(m, opts):
        return PR.propagate(m, strategy=strategy, conservative=opts.get("conservative-propagation") == "true",
                            keep_sharding_rules=opts.get("keep-sharding-rules") == "true")
    return run

PASSES = {
    "sdy-basic-propagate": _propagate("basic"), "sdy-aggressive-propagate": _propagate("aggressive"),
    "sdy-op-priority-propagate": _propagate("op-priority"), "sdy-user-priority-propagate": _propagate("user-priority"),
    "sdy-add-data-flow-edges": lambda m, o: P.add_data_flow_edges(m),
    "sdy-sink-data-flow-edges": lambda m, o: PR.sink_data_flow_edges(m),
    "sdy-propagation-pipeline": _pipeline, "sdy-populate-op-sharding-rules": _populate,
    "sdy-add-func-data-flow-edges": lambda m, o: P.add_func_data_flow_edges(m), "sdy-sink-func-data-flow-edges": _sink_func_edges,
}


def run_line(text):
    "The passes of the file's RUN line: [(name, {option: value})]."
    line = next(l for l in text.splitlines() if "RUN:" in l)
    out = []
    for m in re.finditer(r"-(sdy-[\w-]+)(?:=(['\"]?)([^'\"\s]*)\2)?", line):
        opts = dict(kv.split("=", 1) for kv in m.group(3).split() if "=" in kv) if m.group(3) else {}
        out.append((m.group(1), opts))
    return out


FUNC_PASSES = {"sdy-sink-data-flow-edges", "sdy-sink-func-data-flow-edges", "sdy-apply-sharding-constraints", "sdy-constant-or-scalar-splitter",
               "sdy-populate-op-sharding-rules"}

def pipeline_text(passes):
    one = lambda n, o: n + ("{" + " ".join(f"{k}={v}" for k, v in o.items()) + "}" if o else "")
    return ",".join(f"func.func({one(n, o)})" if n in FUNC_PASSES else one(n, o) for n, o in passes)


MODULE = ""   # funcs' key for the module's own lines: `module` and its attributes, the meshes before the first function


def funcs(text):
    "Function texts of a printed module by name (module attributes and meshes under MODULE)."
    out, cur, name = {}, [], MODULE
    for l in text.splitlines():
        m = re.match(r"\s*func\.func (?:\w+ )?@([\w$.\-]+)", l)
        if m: out[name] = "\n".join(cur); cur, name = [], m.group(1)
        cur.append(l.strip())
    out[name] = "\n".join(cur)
    return out


def run_file(path, verbose=False):
    text = open(path).read()
    passes = run_line(text)
    unknown = [n for n, _ in passes if n not in PASSES]
    cases = [c for c in text.split("// -----")]
    if unknown: return dict(file=os.path.basename(path), skipped=f"passes shardnb does not run here: {', '.join(unknown)}")
    ref = run_in_subprocess([[c, pipeline_text(passes)] for c in cases])
    # shardnb reads jaxlib's re-print of each input: the lit files' hand-written layout (attribute
    # dictionaries on continuation lines) is not what this script measures
    inputs = run_in_subprocess([[c, ""] for c in cases])
    ours = []
    for c, (iok, ci) in zip(cases, inputs):
        c = ci if iok else c
        try:
            m = parse_module(c)
            for n, o in passes: m = PASSES[n](m, o)
            ours.append([True, print_module(m)])
        except Exception as e: ours.append([False, f"{type(e).__name__}: {e}"])
    canon = run_in_subprocess([[o[1], ""] if o[0] else ["", ""] for o in ours])
    # diffs: (case, function or MODULE, jaxlib's text, shardnb's) for each function of either output that differs, and
    # for the module's own lines (MODULE also when the texts differ otherwise, e.g. in the order of functions);
    # rejections: (case, jaxlib's error, shardnb's error or None where shardnb accepted the case)
    stats = dict(file=os.path.basename(path), cases=len(cases), rejected=0, funcs=0, same=0, modules=0, diffs=[], rejections=[])
    for k, (c, (rok, r), (ook, o), (cok, co)) in enumerate(zip(cases, ref, ours, canon)):
        if not rok:
            stats["rejected"] += 1; stats["rejections"].append((k, r, None if ook else o)); continue
        fr = funcs(r)
        fo = funcs(co) if ook and cok else {}
        mine = lambda name: fo.get(name, o if not ook else co if not cok else None)
        for name, body in fr.items():
            if not name: continue
            stats["funcs"] += 1
            if fo.get(name) == body: stats["same"] += 1
            else: stats["diffs"].append((k, name, body, mine(name)))
        stats["diffs"] += [(k, name, "", body) for name, body in fo.items() if name not in fr]   # only shardnb's
        stats["modules"] += 1
        if fo.get(MODULE) != fr[MODULE] or (fo == fr and co != r): stats["diffs"].append((k, MODULE, r, co if fo else mine(MODULE)))
    return stats
