"""Test configuration: make `tests.support` and `tests.corpus` importable, switch on Triton's interpreter, give every
randomised test one seed per run (shared by pytest-xdist's workers, printed so that a failure can be replayed), and
mark each test with its tier.

Tiers (registered in pyproject.toml, selected with `-m`): `corpus` runs the real-JAX corpus, `jaxlib` needs jax and
compares with jaxlib, `dist` launches torch.distributed process groups, `docs` builds or opens the docs site and the
notebooks, `slow` is any other test that takes more than a few seconds. A test without a tier is a unit test:
`pytest -m "not (corpus or jaxlib or dist or docs or slow)"` runs them alone."""
import functools
import inspect
import os
import random
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))

# The Triton kernels are tested through Triton's interpreter, which must be switched on before anything
# imports triton (shardnb.runtime.distributed imports shardnb.runtime.kernels, so test order must not matter). conftest is
# imported before any test module, so this is the one place that arranges it; set TRITON_INTERPRET=0
# yourself to test compiled kernels on a GPU.
os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest  # noqa: E402
from hypothesis import HealthCheck, core, settings  # noqa: E402

# One seed per run: fresh unless SHARDNB_SEED is given. The first process to load this file (pytest itself, or
# pytest-xdist's controller) draws it and exports it before any worker starts; workers inherit the environment and
# read the same seed. Hypothesis draws every test's examples from it (unless --hypothesis-seed says otherwise), and
# the `seed` fixture hands it to generated-program tiers.
if not os.environ.get("SHARDNB_SEED"): os.environ["SHARDNB_SEED"] = str(random.SystemRandom().randrange(2**32))
SEED = int(os.environ["SHARDNB_SEED"])
core.global_force_seed = SEED

# One directory per run, shared the same way: tests/corpus/shardy_runner.py keeps jaxlib's reference results there,
# so that a reference several tests or workers ask for runs once. The process that made it removes it at the end.
_OWN_RUN_DIR = not os.environ.get("SHARDNB_RUN_DIR")
if _OWN_RUN_DIR: os.environ["SHARDNB_RUN_DIR"] = tempfile.mkdtemp(prefix="shardnb-run-")

# `ci` (the default, CI included) explores new examples on every fresh seed; `derandomized` replays the
# same examples every run, for bisecting locally (SHARDNB_HYPOTHESIS_PROFILE=derandomized).
_common = dict(deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("ci", **_common)
settings.register_profile("dev", **_common)
settings.register_profile("derandomized", derandomize=True, **_common)
settings.load_profile(os.environ.get("SHARDNB_HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="run tests/test_fuzz.py 20 times longer (also SHARDNB_FUZZ_LONG=1)")


def pytest_report_header(config):
    return f"shardnb seed: {SEED} (replay this run with SHARDNB_SEED={SEED})"


@pytest.fixture(scope="session")
def seed():
    "This run's seed: generated-program tiers draw their programs from it (replay with SHARDNB_SEED)."
    return SEED


def pytest_unconfigure(config):
    if _OWN_RUN_DIR: shutil.rmtree(os.environ["SHARDNB_RUN_DIR"], ignore_errors=True)
    # the seed is the run's last line (after the counts), where `pytest -q` (which has no header) still shows it
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and not hasattr(config, "workerinput"):
        reporter.write_line(f"shardnb seed: {SEED} (replay this run with SHARDNB_SEED={SEED})")


def pytest_terminal_summary(terminalreporter):
    over = sorted((d, n) for n, d in _untiered_slow.items() if d > SLOW_SECONDS)
    if over:
        terminalreporter.write_line(f"tests without a tier that took over {SLOW_SECONDS:g} s (add them to SLOW in tests/conftest.py):")
        for d, n in reversed(over): terminalreporter.write_line(f"  {d:6.1f} s  {n}")


# ---------------------------------------------------------------------------------------------------- tiers
TIERS = ("corpus", "jaxlib", "dist", "docs", "slow")

# jaxlib: a module that skips without jax (`pytest.importorskip("jax")` at its top), or a test whose function or one of
# whose fixtures (the corpus's own fixture aside: that is `corpus`) imports jax or calls jaxlib.
_MODULE_NEEDS_JAX = re.compile(r"^(?:\w+\s*=\s*)?pytest\.importorskip\(\s*[\"']jax(?:lib)?[\"']", re.M)
_CALLS_JAXLIB = re.compile(r"importorskip\(\s*[\"']jax|jaxlib|run_in_subprocess|shardy_runner|PassManager")
_CORPUS_FIXTURES = {"jax_corpus"}
# dist: a test that calls shardnb.runtime.processes.launch (a group of torch.distributed processes)
_LAUNCHES = re.compile(r"\blaunch\(")

# slow: the other tests (by function name, wherever they live; every parametrization) whose run takes more than about
# 2 seconds on a 2-core machine (`pytest tests -n 2 --durations=0`). The end of each run lists the tests that took over
# SLOW_SECONDS without a tier: add them here.
SLOW = {
    # tests/cli/test_cli.py: each runs the `shardnb` command in subprocesses
    "test_a_large_mesh_is_summarised_and_its_figure_is_fast", "test_bad_mesh_and_usage", "test_caret_under_a_zero_axis_size",
    "test_carets_of_semantic_errors_sit_under_the_offending_token", "test_check_reports_line_and_column",
    "test_dash_reads_stdin", "test_garbage_is_an_error_without_a_traceback", "test_help", "test_help_examples_can_be_pasted",
    "test_plan", "test_plan_png_and_bad_input", "test_png_to_a_directory_is_refused_and_a_file_name_is_written_as_given",
    "test_propagate_cost_locates_a_move_it_cannot_plan", "test_propagate_cost_prints_the_communication_report",
    "test_propagate_errors_are_as_clear_as_checks", "test_propagate_help_lists_the_strategies",
    "test_propagate_prints_what_propagate_returns", "test_propagate_reshards_and_pipeline",
    "test_show_prints_sharding_local_shape_and_holders", "test_show_rejects_bad_input_with_the_package_message",
    "test_show_replicated_and_named_meshes", "test_syntax_error_has_caret", "test_version", "test_explain_errors",
    "test_explain_the_shipped_transformer_block_in_seconds", "test_auto_prints_the_search_beside_the_hand_strategies",
    # tests/layout/test_representation_properties.py
    "test_devices_indices_map_matches_reference", "test_every_element_held_by_the_right_number_of_devices",
    "test_generators_reach_the_hard_cases", "test_mutated_sharding_text_raises_only_our_errors",
    "test_unshard_shard_array_roundtrip",
    # tests/layout/test_bad_input.py, tests/auto/test_auto_shard.py
    "test_the_limit_is_inclusive_and_symbolic_work_is_not_limited", "test_search_equals_exhaustive",
    # tests/mindspore/test_mindspore_networks.py
    "test_out_strategy_propagate1_all_devices", "test_sharding_propagation_1x1x1x8", "test_sharding_propagation_1x1x2x1",
    # tests/reshard/test_reshard.py
    "test_adding_unreduced_axes_is_local", "test_closed_form_collectives_match_their_listed_messages",
    "test_floors_and_move_bounds_across_meshes", "test_floors_and_move_bounds_are_lower_bounds",
    "test_the_search_budget_bounds_the_work_and_keeps_the_plan",
    # tests/shardy/test_explain.py: explain over generated programs of every strategy
    "test_generated_programs",
    # tests/runtime/test_kernels.py
    "test_assemble", "test_environments", "test_kernel_compiles_for_sm90", "test_pack_unpack", "test_permute_tiled",
    "test_slice_tile",
    # tests/test_fuzz.py
    "test_cli_never_prints_a_traceback",
    # tests/viz/test_figures.py, tests/viz/test_viz.py
    "test_figure_reads", "test_random_shardings_read", "test_strategy_figure_reads", "test_tile_count_matches_indices_map",
}
SLOW_SECONDS = 5.0


@functools.cache
def _source(obj) -> str:
    try: return inspect.getsource(obj)
    except (OSError, TypeError): return ""


def _path(item) -> str:
    return Path(str(item.path)).resolve().relative_to(ROOT).as_posix()


def tiers(item) -> set:
    "The tiers of a collected test (see this file's docstring)."
    path, name = _path(item), getattr(item, "originalname", item.name)
    fixtures = set(item.fixturenames)
    found = set()
    if fixtures & _CORPUS_FIXTURES: found.add("corpus")
    fn = getattr(item, "function", None)
    defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    sources = [_source(fn)] + [_source(d.func) for n, ds in defs.items() if n not in _CORPUS_FIXTURES for d in ds]
    module = _source(getattr(item, "module", None))
    if _MODULE_NEEDS_JAX.search(module) or any(_CALLS_JAXLIB.search(s) for s in sources):
        found.add("jaxlib")
    if _LAUNCHES.search(_source(fn)) and "shardnb.runtime.processes" in module: found.add("dist")
    if path.startswith("tests/docs/"): found.add("docs")
    if name in SLOW and not found: found.add("slow")
    return found


@pytest.hookimpl(tryfirst=True)   # before `-m` deselects by marker
def pytest_collection_modifyitems(config, items):
    for item in items:
        for tier in sorted(tiers(item)): item.add_marker(tier)


_untiered_slow: dict = {}


def pytest_runtest_logreport(report):
    # under pytest-xdist this runs in the controller too, with each worker's reports
    if any(t in report.keywords for t in TIERS): return
    _untiered_slow[report.nodeid] = _untiered_slow.get(report.nodeid, 0.0) + report.duration
