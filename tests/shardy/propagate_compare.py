"""Compare shardnb's propagation with jaxlib's pass on module texts: jaxlib re-prints shardnb's output, then the
two texts are compared line by line (each op line carries the shardings of its values)."""
from shardnb.ir.program import parse_module, print_module

from tests.corpus.shardy_runner import run_in_subprocess


def pass_name(strategy, conservative):
    return f"sdy-{strategy}-propagate{{conservative-propagation={'true' if conservative else 'false'}}}"


def _lines(text):
    return [l.strip() for l in text.splitlines() if l.strip()]


def compare(texts, fn, pipeline):
    """Run `fn(module) -> Module` and jaxlib's `pipeline` on each text; returns one record per text:
    (ok_ref, identical, n_lines, n_diff_lines, diffs, ref, ours)."""
    ref = run_in_subprocess([[t, pipeline] for t in texts])
    ours = []
    for t in texts:
        try: ours.append([True, print_module(fn(parse_module(t)))])
        except Exception as e: ours.append([False, f"{type(e).__name__}: {e}"])
    canon = run_in_subprocess([[o[1], ""] if o[0] else ["", ""] for o in ours])
    out = []
    for t, (rok, r), (ook, o), (cok, c) in zip(texts, ref, ours, canon):
        if not rok:
            out.append(dict(ref_ok=False, identical=not ook, lines=0, diff=0, diffs=[r[:300]], ref=r, ours=o)); continue
        if not ook or not cok:
            out.append(dict(ref_ok=True, identical=False, lines=len(_lines(r)), diff=len(_lines(r)), diffs=[o[:300] if not ook else c[:300]], ref=r, ours=o)); continue
        a, b = _lines(r), _lines(c)
        diffs = [(x, y) for x, y in zip(a, b) if x != y]
        n = max(len(a), len(b))
        nd = len(diffs) + abs(len(a) - len(b))
        out.append(dict(ref_ok=True, identical=(a == b), lines=n, diff=nd, diffs=diffs, ref=r, ours=c))
    return out
