"""A small mutation run: hand-chosen faults in the package's source, each of which some named test must catch.

    python bench/mutants.py                     # every mutant, 2 at a time; exit 1 if one survives
    python bench/mutants.py --list              # the mutants: name, file, why it matters, the tests meant to catch it
    python bench/mutants.py --only NAME[,NAME]  # some of them
    python bench/mutants.py --jobs N --timeout S --seed S
    python bench/mutants.py --only NAME --explore tests/shardy/test_cost.py   # every test of these paths that fails

Each mutant is one exact snippet of one source file (it must occur there exactly once), its replacement, why the
fault matters, and the tests expected to fail it. A mutant runs in a throwaway copy of the repository (`shardnb/`,
`tests/`, `tools/`, `bench/`, `pyproject.toml`; the replacement applied to the copy, never to the checkout) with
`pytest -q -x -p no:cacheprovider <its tests>`, the copy first on the path (tests/conftest.py puts the copy's root
first on `sys.path`, and `PYTHONPATH` does so for the subprocesses tests start); a small plugin checks that the copy's
`shardnb` and the mutated module are the ones imported. The mutant is killed when one of its tests fails (or errors,
or runs past the timeout); it survives when they all pass.

A test that fails unmutated would kill every mutant for nothing, so the named tests first run once on an unmutated
copy (`--no-baseline` skips that where CI has just run them). Every run uses one seed (`--seed`, default 0) for
tests/conftest.py's randomised tests, so a run is repeatable. The named tests are hand-written cases and fixed
program sets, but for four planner mutants caught by property tests, whose draws depend on the seed
(step_drops_one_transfer, ragged_slice_allowed, sum_includes_own_partial_twice, floor_counts_one_hop_too_many):
each of those was killed on seeds 0 to 3. A whole run takes 7 to 9 minutes with 2 jobs on 2 shared cores.

`--explore PATH...` runs wider tests against the chosen mutants without `-x` and lists every test that fails, with
the first assertion line: how to find the narrowest test for a new mutant, or whether an existing test kills a survivor.

The table lists each mutant, its file, the test that killed it (or `SURVIVED`) and its seconds, then the kill rate.
The exit status is 1 if a mutant survives that is not marked `equivalent` (with the reason it is), 2 on a harness
error (a snippet not found once, a test that fails unmutated, the wrong `shardnb` imported).
"""
from __future__ import annotations
import argparse, json, os, re, shlex, shutil, signal, subprocess, sys, tempfile, threading, time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("shardnb", "tests", "tools", "bench", "pyproject.toml")   # tests/reshard reads bench/reshard.py


@dataclass(frozen=True)
class Mutant:
    "One fault: `old` replaced by `new` in `file`; `why` it matters; the `tests` (pytest node ids) meant to catch it."
    name: str
    file: str
    old: str
    new: str
    why: str
    tests: tuple
    equivalent: str = ""   # where no test can tell it apart: the reason it computes the same thing


M = Mutant
P, PR, RU, CO = "shardnb/shardy/projection.py", "shardnb/shardy/propagate.py", "shardnb/shardy/rules.py", "shardnb/shardy/cost.py"
MS_OP, MS_RD, MS_PL, MS_ST, MS_PD = (f"shardnb/mindspore/{n}.py" for n in ("operators", "redistribution", "plan", "strategies", "per_device"))
TR, MV, SE, BO, PL = (f"shardnb/reshard/{n}.py" for n in ("transfers", "moves", "search", "bounds", "planner"))
AU = "shardnb/auto/auto_shard.py"
SC = "shardnb/auto/step_cost.py"
LIT = "tests/shardy/test_propagate_lit.py::test_lit_file_matches_jaxlib[{}.mlir]"
RULES_GEN = "tests/shardy/test_rules_shardy.py::test_generated_programs_match_shardy"
FEATURES = "tests/shardy/test_propagate.py::test_features_agree_with_jaxlib[{}]"
T_COST, T_RS = "tests/shardy/test_cost.py", "tests/reshard/test_reshard.py"
T_MS, T_MSN = "tests/mindspore/test_strategies.py", "tests/mindspore/test_mindspore_networks.py"

MUTANTS = [
    # ------------------------------------------------------------------ Shardy propagation: one op's step
    M("aggressive_source_order_reversed", P,
      "key=lambda f: (-src[f][0], ", "key=lambda f: (src[f][0], ",
      "the aggressive strategy resolves conflicts from the largest source tensor first; smallest first decides other axes",
      (LIT.format("aggressive_propagation"),)),
    M("basic_keeps_old_axes_on_conflict", P,
      "if n.name != o.name: return out, False", "if n.name != o.name: return out + old[i - 1:], False",
      "the basic strategy takes the compatible (common) major axes; keeping one tensor's longer list where two disagree "
      "propagates a sharding the other tensor contradicts",
      (LIT.format("basic_propagation"),)),
    M("is_axis_prefix_ignores_start", P,
      "return _contains(b, a) and _pre_size(a) == _pre_size(b)", "return _contains(b, a)",
      "a sub-axis is a prefix of another only if both start at the same place; (2)2 inside \"x\"=4 is not a prefix of it",
      ("tests/shardy/test_propagate.py::test_a_sub_axis_is_a_prefix_of_its_axis_only_from_the_same_start",)),
    M("adjacent_sub_axes_overlap", P,
      "return a.pre_size < b.pre_size * b.size and b.pre_size < a.pre_size * a.size",
      "return a.pre_size <= b.pre_size * b.size and b.pre_size < a.pre_size * a.size",
      "two sub-axes overlap only if their intervals share a point; \"x\":(1)2 and \"x\":(2)2 are disjoint",
      (LIT.format("basic_propagation"),)),
    M("overflow_needs_a_factor_of_three", P,
      "if remaining > 1 and info is not None:", "if remaining > 2 and info is not None:",
      "a factor left with room 2 and axes still to hand out overflows: its minor factors are closed",
      (LIT.format("basic_propagation"),)),
    M("replicated_axes_may_propagate", P,
      "    a = prefix_without_overlaps(a, replicated)\n    if a is None: return None\n", "",
      "an axis a tensor lists as replicated must not be propagated onto it",
      (LIT.format("basic_propagation"),)),
    M("partial_room_takes_the_whole_axis", P,
      "            if g == n: return a\n", "            if g == n or g > 1: return a\n",
      "a factor with room for part of an axis takes that part (a sub-axis), not the whole axis (non-divisible dims)",
      (LIT.format("basic_propagation"),)),
    M("forward_reads_results_first", P,
      "(p.results, p.operands) if direction == BACKWARD else", "(p.results, p.operands) if direction == FORWARD else",
      "forward propagation takes operands' axes and may only extend results; read the other way, a barrier or a "
      "broadcast passes shardings against its direction",
      (LIT.format("basic_propagation"),)),
    M("elementwise_operand_not_clamped", P,
      "            if ew:\n                for r in p.results:", "            if False:\n                for r in p.results:",
      "in an element-wise op the aggressive strategy gives an operand no more than its result took",
      (LIT.format("aggressive_propagation"),)),
    # ------------------------------------------------------------------ Shardy propagation: the driver
    M("user_priorities_reversed", PR,
      "for p in sorted(refs):", "for p in sorted(refs, reverse=True):",
      "user priorities are applied lowest number first (p1 before p2); reversed, the weaker annotation wins",
      (LIT.format("user_priority_propagation"),)),
    M("p1_treated_as_p0", PR,
      "if _priority(d) == 0: dims.append(replace(d, priority=None))", "if _priority(d) <= 1: dims.append(replace(d, priority=None))",
      "a dim of priority 1 starts closed and empty, waiting for its round; treated as p0 it propagates at once",
      (LIT.format("user_priority_propagation"),)),
    M("broadcast_backward_round_both_ways", PR,
      "if p >= 3: base |= BACKWARD if bcast else BOTH", "if p >= 3: base |= BOTH",
      "op-priority's heuristic 3 propagates a broadcast backward only: forward it would shard the broadcast dims",
      (LIT.format("propagation_pipeline"),)),
    M("multi_use_allows_two_users", PR,
      "any(len(v.uses) != 1 and not _is_scalar(v) for v in op.operands)",
      "any(len(v.uses) > 2 and not _is_scalar(v) for v in op.operands)",
      "op-priority's first round skips ops whose operands have other users; a value with two users is one of them",
      ("tests/shardy/test_propagate.py::test_op_priority_first_round_skips_an_op_whose_operand_has_two_users",)),
    M("group_conflict_ignored", PR,
      "elif s != out: return out, True", "elif s != out: return out, False",
      "members of a sharding group that disagree get an open constraint each; ignoring the conflict forces the first's sharding on all",
      (LIT.format("sharding_group_propagation"),)),
    M("dead_ops_kept", PR,
      "if _trivially_dead(op): self.erase(op); continue", "if False and _trivially_dead(op): self.erase(op); continue",
      "Shardy's rewrite driver erases pure ops whose results are unused; kept, they stay in the output module",
      (FEATURES.format("basic-False"),)),
    M("maximal_mesh_propagates", PR,
      "if mesh is None or mesh.is_maximal:", "if mesh is None:",
      "a value on a maximal mesh lives on one device: nothing propagates through it",
      (FEATURES.format("basic-False"),)),
    M("blocked_factor_propagates", PR,
      "NONE if f in blocked else direction(f) for f in range(n)", "direction(f) for f in range(n)",
      "a rule's blocked_propagation factors never propagate (a sort's dim, a custom rule's)",
      (LIT.format("basic_propagation"),)),
    # ------------------------------------------------------------------ Shardy op sharding rules
    M("sort_blocks_despite_size_one_dims", RU,
      "blocked = all(d == dim or n == 1 for d, n in enumerate(shape))", "blocked = all(d == dim for d, n in enumerate(shape))",
      "a sort whose other dims are all size 1 has nothing else to shard: its sort dim is blocked",
      ("tests/shardy/test_rules_shardy.py::test_sort_rules_with_size_one_dims_match_shardy",)),
    M("contracting_dim_not_a_reduction", RU,
      'for x, y in zip(lc, rc): b.add([x, y], [None], l[x], "reduction")', "for x, y in zip(lc, rc): b.add([x, y], [None], l[x])",
      "a dot's contracting dims are reduction factors: sharding one leaves partial sums to all-reduce",
      (RULES_GEN,)),
    M("size_one_broadcast_dim_shares_a_factor", RU,
      "if i is not None and inp[i] == 1 and n != 1: b.add([i], [None], 1); i = None",
      "if i is not None and inp[i] == 1: b.add([i], [None], 1); i = None",
      "a size-1 operand dim broadcast to a size-1 result dim is one factor, not two",
      (RULES_GEN,)),
    M("reshape_skips_factor_two", RU,
      "if g > 1: b.add([i], [o], g); f_in *= g; f_out *= g", "if g > 2: b.add([i], [o], g); f_in *= g; f_out *= g",
      "a reshape's common factor of size 2 is shared by operand and result; missed, a 2x4 -> 8 reshape loses its propagation",
      (RULES_GEN,)),
    M("concat_of_one_slice_is_a_permutation", RU,
      'if all(sliced): return "permutation"', 'if any(sliced): return "permutation"',
      "a concatenate of a slice and an unrelated value needs replication along its dim, not a permutation",
      (RULES_GEN,)),
    M("rfft_not_blocked", RU,
      'b.add_all(d, n, "need_replication", shape[-1] != outs[0][-1])', 'b.add_all(d, n, "need_replication", shape[-1] == outs[0][-1])',
      "an fft whose last dim is truncated (rfft) blocks propagation along it; a full-length one does not",
      (RULES_GEN,)),
    M("reduce_window_blocks_passthrough_dims", RU,
      "b.add_all(d, n, kind, conservative and kind is not None)", "b.add_all(d, n, kind, conservative)",
      "conservative propagation blocks a reduce_window's windowed dims only; its pass-through dims still propagate",
      (RULES_GEN + "[conservative]",)),
    M("scatter_combines_mixed_ops", RU,
      "return len(names) == 1", "return len(names) >= 1",
      "a scatter's implicit batch dims are reductions only when every input is combined by the same op",
      (LIT.format("op_sharding_rule_registry"),)),
    # ------------------------------------------------------------------ the communication report
    M("reduction_axes_of_the_first_operand", CO,
      "axes += [a for a in _common_prefix(per_operand) if a not in axes]", "axes += [a for a in per_operand[0] if a not in axes]",
      "a reduction factor is summed over the axes every operand shards it by; the first operand's alone over-counts "
      "when the others are replicated along it",
      (T_COST + "::test_disagreeing_operands_sum_over_their_common_prefix",)),
    M("implied_result_of_the_first_operand", CO,
      "for a in _common_prefix(per) if per else []:", "for a in per[0] if per else []:",
      "a result placed on another mesh is laid out where its operands agree, not as the first operand alone says",
      (T_COST + "::test_a_result_on_another_mesh_is_laid_out_where_its_operands_agree",)),
    M("summed_by_any_user", CO,
      "return bool(users) and all(u.name in _REDUCING", "return bool(users) and any(u.name in _REDUCING",
      "partial sums are summed explicitly only if every user all-reduces them; one user that doesn't reads partial sums",
      (T_COST + "::test_partial_sums_one_user_reads_unsummed_are_reduced",)),
    M("agreeing_constraint_reported", CO,
      '    if op.name == "sdy.sharding_constraint" and src == dst: return []\n', "",
      "a sharding constraint its operand already satisfies moves nothing and is no communication",
      (T_COST + "::test_a_constraint_its_operand_already_satisfies_moves_nothing",)),
    M("busiest_device_tie_goes_high", CO,
      "key=lambda kv: (kv[1], -kv[0])", "key=lambda kv: (kv[1], kv[0])",
      "the busiest device on a tie is the lowest id, as the report says",
      (T_COST + "::test_report_against_hand_derived_collectives",)),
    M("cheaper_reversed", CO,
      "self.names[0] if ka < kb else self.names[1]", "self.names[0] if ka > kb else self.names[1]",
      "a comparison names the report with less modelled time as the cheaper",
      (T_COST + "::test_compare_and_errors",)),
    # ------------------------------------------------------------------ MindSpore strategies
    M("fully_use_devices_drops_all_ones", MS_OP,
      "if not fully_use_devices or p == device_num or p == 1:", "if not fully_use_devices or p == device_num:",
      "under fully_use_devices MindSpore still generates the all-ones strategy; without it an operator no split "
      "divides has no candidate",
      (T_MS + "::test_fully_use_devices_keeps_the_all_ones_candidate",)),
    M("halo_wider_than_a_neighbour", MS_OP,
      "<= n_in // parts for k in range(parts))", "< n_in // parts for k in range(parts))",
      "a halo as wide as a neighbour's slice still comes from that neighbour alone (one NeighborExchangeV2)",
      (T_MSN + "::test_sharding_propagation_1x1x1x8[training]",)),
    M("indivisible_split_accepted", MS_OP,
      '            if shape[d] % c: raise ShardingError(f"{where}: {what} dim {d} of size {shape[d]} is not divisible by {c}")\n', "",
      "MindSpore's CheckStrategy refuses a split that does not divide its dim",
      (T_MS + "::test_a_split_that_does_not_divide_its_dim_is_refused",)),
    M("allreduce_always_sums", MS_PD,
      'out[o.dim_letter[(v, d)]] = reduction_kind(op) if op.name == "stablehlo.reduce" else "add"',
      'out[o.dim_letter[(v, d)]] = "add"',
      "a ReduceMax split along its reduced dim all-reduces by max; summed, every device gets the wrong value",
      (T_MSN + "::test_max_auto_parallel_sharding_propagation",)),
    M("redistribution_ignores_the_common_prefix", MS_RD,
      "        while k < min(len(a), len(b)) and a[k] == b[k]: k += 1\n        for x in a[k:]: gather[x] = d",
      "        for x in a[k:]: gather[x] = d",
      "bits both layouts share, major first, stay where they are; without that every redistribution gathers all and slices again",
      (T_MS + "::test_redistribution_costs",)),
    M("alltoall_costed_once", MS_RD,
      'elif kind == "AlltoAll": fwd += 2 * size; bwd += 2 * size', 'elif kind == "AlltoAll": fwd += size; bwd += size',
      "MindSpore costs an AlltoAll at twice the slice each way",
      (T_MS + "::test_redistribution_costs",)),
    M("compare_prefers_fewer_splits", MS_ST,
      "return (-math.prod(flat), tuple(-x for x in flat))", "return (math.prod(flat), tuple(-x for x in flat))",
      "among candidates of equal cost MindSpore's Strategy::Compare prefers the larger product of splits",
      (T_MS + "::test_equal_costs_go_to_the_larger_product_of_splits",)),
    M("out_strategy_bound_off_by_one", MS_PL,
      "k < len(have) or k - len(have) > len(pool)", "k < len(have) or k - len(have) >= len(pool)",
      "an out_strategy may split an output dim by every bit of the split reduction (a ReduceScatter keeps them all)",
      (T_MSN + "::test_out_strategy_propagate2",)),
    # ------------------------------------------------------------------ the reshard planner
    M("lower_bound_off_by_one", TR,
      "math.prod(shape) * kept_size * (reduce_size - 2)", "math.prod(shape) * kept_size * (reduce_size - 1)",
      "a sum over r partial classes must move r - 2 more whole tensors than the target holds (ring traffic); one "
      "more, and the bound exceeds what the planner reaches",
      (T_RS + "::test_the_all_reduce_bound_is_the_ring_traffic",)),
    M("step_drops_one_transfer", TR,
      "    if (got != need).any(): return None\n    return Transfers(devices[e_idx], devices[d_idx], ilo, ihi)",
      "    if (got != need).any(): return None\n    return Transfers(devices[e_idx][1:], devices[d_idx][1:], ilo[1:], ihi[1:])",
      "a step's transfers must deliver every piece a device lacks: one dropped, and a device ends with a hole (costed as cheaper)",
      (T_RS + "::test_plans_move_every_element_exactly",)),
    M("objectives_swapped", MV,
      'return (c.seconds, c.max_bytes_received) if self.objective == "time" else',
      'return (c.seconds, c.max_bytes_received) if self.objective == "bytes" else',
      'objective="time" minimises modelled seconds first, "bytes" the busiest device\'s bytes first',
      (T_RS + "::test_the_all_reduce_bound_is_the_ring_traffic",)),
    M("sum_includes_own_partial_twice", TR,
      "    np.fill_diagonal(same, False)\n", "",
      "an all-reduce adds each other member's partial sum to a device's own once; its own sent to itself counts it twice",
      (T_RS + "::test_partial_sums_are_reduced",)),
    M("ragged_slice_allowed", MV,
      "        if not np.array_equal(already_held(la, lb), lb.sizes * lb.present): return None\n", "",
      "a slice is local only if every device already holds its new box; on a ragged dim it may not",
      (T_RS + "::test_plans_move_every_element_exactly",)),
    M("search_budget_halved", SE,
      "while fr.heap and popped < max_states and", "while fr.heap and 2 * popped < max_states and",
      "the search expands up to max_states states (200 by default); some plans are found only past the 150th",
      (T_RS + "::test_the_search_budget_bounds_the_work_and_keeps_the_plan[0]",)),
    M("floor_counts_one_hop_too_many", BO,
      "    hops = (u - 1).bit_length() if u > 1 and (need or r >= 2) else 0\n",
      "    hops = u.bit_length() if u > 1 and (need or r >= 2) else 0\n",
      "the search's floor must be a lower bound: ceil(log2 u) messages for u source pieces, not one more",
      (T_RS + "::test_floors_and_move_bounds_are_lower_bounds",)),
    M("unreduced_may_be_added_by_a_reduce", PL,
      "    if not b <= a:\n        raise ShardingError(", "    if False:\n        raise ShardingError(",
      "a reshard can't make a value unreduced where the source sums differently: it must be refused",
      (T_RS + "::test_bad_input",)),
    M("sum_from_the_most_loaded_holder", TR,
      "e = min(cands[c], key=load.__getitem__)", "e = max(cands[c], key=load.__getitem__)",
      "the summing exchange takes each partial sum from its least loaded holder, spreading the senders",
      (T_RS + "::test_the_summing_exchange_spreads_its_senders",)),
    M("fastest_holder_always", TR,
      "if cost(fast, e_idx[fast]) <= cost(*pick): pick = (fast, e_idx[fast])", "pick = (fast, e_idx[fast])",
      "where links differ the holders share the sending when that costs less than queueing on the fastest link",
      (T_RS + "::test_over_a_slow_axis_the_holders_share_the_sending",)),
    # ------------------------------------------------------------------ automatic sharding
    M("follow_the_first_operand", AU,
      "made = [(depth[u], math.prod(v.type.shape), -k)", "made = [(0, 0, -k)",
      "an element-wise op follows its deepest operand (Alpa's ChooseOperandToFollow); following the first misses answers",
      ("tests/auto/test_auto_shard.py::test_the_mlp_step_follows_its_deepest_operands",)),
    M("constant_expressions_sized_whole", AU,
      "w, i = next(((w, i) for w, i in v.uses if w in g.group), (None, None))", "w, i = None, None",
      "a constant expression's buffer is sized as its user reads it; whole, the memory rows refuse limits that fit",
      ("tests/auto/test_auto_shard.py::test_memory_rows_are_the_memory_model",)),
    M("bound_alpha_of_the_fastest_link", SC,
      "self.alpha = self.model.alpha", "self.alpha = min(a for a, _ in device.links(mesh).values())",
      "the bound charges the planner's one α; the fastest link's is a weaker bound and costs the search rounds",
      ("tests/auto/test_step_cost.py::test_the_bound_charges_the_planners_alpha",)),
    M("bound_pieces_scaled_with_the_shape", SC,
      "return [(lack * scale, pieces) for lack, pieces in _lacking_on(src, dst, least)]",
      "return [(lack * scale, pieces * scale) for lack, pieces in _lacking_on(src, dst, least)]",
      "a bound found on the smallest even shape scales the bytes a device lacks, not the pieces that hold them",
      ("tests/auto/test_step_cost.py::test_the_bound_is_below_every_exact_plan",)),
    M("workers_seconds_to_the_wrong_moves", SC,
      "store.update(zip(todo, pool.map(", "store.update(zip(todo[::-1], pool.map(",
      "each move planned in a worker gets its own seconds back",
      ("tests/auto/test_step_cost.py::test_forked_workers_plan_as_the_process_does",)),
    M("memory_row_one_op_short", AU,
      "vals.append(np.tile(np.asarray(bs, float), len(k))); const[first:last + 1] += c",
      "vals.append(np.tile(np.asarray(bs, float), len(k))); const[first:last] += c",
      "a value's constant bytes count on every op it is live across, the last one too",
      ("tests/auto/test_auto_shard.py::test_memory_rows_hold_a_fixed_output_on_every_op",)),
]


# ---------------------------------------------------------------------------------------------- running one
_PLUGIN = '''
import json, os, sys
def pytest_sessionfinish(session, exitstatus):
    mods = {n: getattr(sys.modules.get(n), "__file__", None) for n in ("shardnb", os.environ["MUTANT_MODULE"])}
    with open(os.environ["MUTANT_REPORT"], "w") as f: json.dump(mods, f)
'''


def _module(file: str) -> str:
    return file.removesuffix(".py").replace("/", ".")


def _copy(dest: Path) -> None:
    "The parts of the checkout a test run needs, without caches."
    ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", ".pytest_cache", "*.pyc")
    for name in COPIED:
        src = ROOT / name
        if src.is_dir(): shutil.copytree(src, dest / name, ignore=ignore)
        elif src.exists(): shutil.copy2(src, dest / name)


def check(m: Mutant) -> str:
    "The mutated source of `m`'s file; raises unless its snippet occurs exactly once and the result compiles."
    text = (ROOT / m.file).read_text()
    n = text.count(m.old)
    if n != 1: raise ValueError(f"{m.name}: its snippet occurs {n} times in {m.file}, not once")
    if m.old == m.new: raise ValueError(f"{m.name}: the replacement is the snippet")
    out = text.replace(m.old, m.new)
    compile(out, m.file, "exec")
    return out


@dataclass
class Result:
    "How one run ended: `status` killed, survived or error; `by` the test that failed, or what went wrong."
    name: str
    status: str
    by: str
    seconds: float
    output: str = ""

    @property
    def reason(self) -> str:
        "The first assertion line pytest printed (`E ...`), to tell a real kill from a broken run."
        m = re.search(r"^E +(.+)$", self.output, re.M)
        return m.group(1).strip()[:160] if m else ""


_FAILED = re.compile(r"^(FAILED|ERROR) (.+?)(?: - .*)?$", re.M)   # pytest -rfE: "FAILED node id - message"


def run_one(m: Mutant | None, tests, *, timeout: float, seed: int, explore: bool = False, keep: bool = False) -> Result:
    "Run `tests` (node ids or paths) against a copy of the checkout with `m` applied (None: unmutated)."
    t0 = time.perf_counter()
    name = m.name if m is not None else "(baseline)"
    tmp = Path(tempfile.mkdtemp(prefix=f"shardnb-mutant-{name.strip('()')}-"))
    try:
        _copy(tmp)
        if m is not None: (tmp / m.file).write_text(check(m))
        (tmp / "_mutant_check.py").write_text(_PLUGIN)
        report = tmp / "_mutant_report.json"
        env = {k: v for k, v in os.environ.items() if k not in ("SHARDNB_RUN_DIR", "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER")}
        env.update(PYTHONPATH=os.pathsep.join([str(tmp)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])),
                   SHARDNB_SEED=str(seed), PYTHONDONTWRITEBYTECODE="1", MUTANT_REPORT=str(report),
                   MUTANT_MODULE=_module(m.file) if m is not None else "shardnb")
        cmd = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", "-p", "_mutant_check"]
        cmd += ([] if explore else ["-x"]) + list(tests)
        # its own process group: on a timeout the subprocesses tests start (jaxlib runners) end with it
        p = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        try: out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
            return Result(name, "killed", f"timeout after {timeout:g} s", time.perf_counter() - t0, out)
        secs = time.perf_counter() - t0
        if p.returncode not in (0, 1, 2): return Result(name, "error", f"pytest exit {p.returncode}", secs, out)
        try: mods = json.loads(report.read_text())
        except (OSError, ValueError): return Result(name, "error", "no import report (pytest did not finish)", secs, out)
        for mod, f in mods.items():
            if f is None: return Result(name, "error", f"{mod} was never imported", secs, out)
            if not Path(f).resolve().is_relative_to(tmp.resolve()):
                return Result(name, "error", f"{mod} imported from {f}, not the copy", secs, out)
        failed = _FAILED.findall(out)
        if p.returncode == 0: return Result(name, "survived", "", secs, out)
        if not failed: return Result(name, "error", f"pytest exit {p.returncode}, no failing test named", secs, out)
        by = ", ".join(dict.fromkeys(t for _, t in failed)) if explore else failed[0][1]
        return Result(name, "killed", by, secs, out)
    finally:
        if not keep: shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------------------------- the run
def _short(test: str) -> str:
    return test.removeprefix("tests/")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--only", help="comma-separated mutant names")
    ap.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    ap.add_argument("--timeout", type=float, default=180, help="seconds per mutant's test run (default 180)")
    ap.add_argument("--seed", type=int, default=0, help="SHARDNB_SEED for every run (default 0)")
    ap.add_argument("--no-baseline", action="store_true", help="skip the unmutated run of the named tests")
    ap.add_argument("--explore", nargs="+", metavar="PATH", help="run these tests against each mutant without -x and list every failure")
    ap.add_argument("--pytest-args", default="", help="more pytest arguments, e.g. '-m \"not corpus\"' with --explore")
    ap.add_argument("--keep", action="store_true", help="keep the temporary copies")
    args = ap.parse_args(argv)

    chosen = MUTANTS
    if args.only:
        names = args.only.split(",")
        unknown = [n for n in names if n not in {m.name for m in MUTANTS}]
        if unknown: ap.error(f"unknown mutant(s): {', '.join(unknown)}; --list shows them")
        chosen = [m for m in MUTANTS if m.name in names]
    if args.list:
        for m in chosen:
            print(f"{m.name}  ({m.file})\n    {m.why}\n    tests: {' '.join(map(_short, m.tests))}"
                  + (f"\n    equivalent: {m.equivalent}" if m.equivalent else ""))
        print(f"{len(chosen)} mutants")
        return 0
    for m in chosen:
        try: check(m)
        except (ValueError, SyntaxError) as e: print(f"error: {e}", file=sys.stderr); return 2

    t0 = time.perf_counter()
    lock = threading.Lock()
    if not args.no_baseline and not args.explore:
        tests = list(dict.fromkeys(t for m in chosen for t in m.tests))
        jobs = max(1, min(args.jobs, len(tests)))
        print(f"baseline: {len(tests)} named test selections, unmutated, in {jobs} runs ...", flush=True)
        with ThreadPoolExecutor(jobs) as pool:
            base = list(pool.map(lambda part: run_one(None, part, timeout=args.timeout * 4, seed=args.seed, explore=True, keep=args.keep),
                                 [tests[k::jobs] for k in range(jobs)]))
        print(f"baseline: {'passes' if all(r.status == 'survived' for r in base) else 'FAILS'} "
              f"in {time.perf_counter() - t0:.0f} s", flush=True)
        for r in base:
            if r.status != "survived":
                print(f"error: the named tests fail unmutated ({r.by}):\n{r.output[-3000:]}", file=sys.stderr)
                return 2

    def go(m):
        tests = (args.explore or list(m.tests)) + shlex.split(args.pytest_args)
        r = run_one(m, tests, timeout=args.timeout, seed=args.seed, explore=bool(args.explore), keep=args.keep)
        with lock:
            print(f"  {m.name}: {r.status} {r.by} ({r.seconds:.0f} s)" + (f"\n      {r.reason}" if r.reason else ""), flush=True)
        return r
    with ThreadPoolExecutor(max(1, args.jobs)) as pool: results = list(pool.map(go, chosen))
    wall = time.perf_counter() - t0

    rows = [(m.name, m.file.removeprefix("shardnb/"), _short(r.by) if r.status == "killed" else r.status.upper() + (f": {r.by}" if r.by else ""),
             f"{r.seconds:.0f}") for m, r in zip(chosen, results)]
    w = [max(len(x[k]) for x in rows + [("mutant", "file", "killed by", "s")]) for k in range(4)]
    print()
    print(f"{'mutant':<{w[0]}}  {'file':<{w[1]}}  {'killed by':<{w[2]}}  {'s':>{w[3]}}")
    print("  ".join("-" * x for x in w))
    for row in rows: print(f"{row[0]:<{w[0]}}  {row[1]:<{w[1]}}  {row[2]:<{w[2]}}  {row[3]:>{w[3]}}")
    killed = sum(r.status == "killed" for r in results)
    equiv = [m for m, r in zip(chosen, results) if r.status == "survived" and m.equivalent]
    bad = [m for m, r in zip(chosen, results) if r.status == "survived" and not m.equivalent]
    errors = [m for m, r in zip(chosen, results) if r.status == "error"]
    scored = len(chosen) - len(equiv)
    print(f"\nkilled {killed}/{scored} ({100 * killed / max(1, scored):.0f}%), {len(equiv)} equivalent, "
          f"{len(bad)} survived, {len(errors)} errors; {wall:.0f} s with {args.jobs} jobs")
    for m in bad: print(f"survived: {m.name} ({m.file}): {m.why}")
    for m, r in zip(chosen, results):
        if r.status == "error": print(f"error: {m.name}: {r.by}\n{r.output[-2000:]}")
    return 2 if errors else 1 if bad and not args.explore else 0


if __name__ == "__main__":
    sys.exit(main())
