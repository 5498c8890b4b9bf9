"""Test configuration: make `tests.support.generators` importable, switch on Triton's interpreter, and give every
randomised test one fresh seed per run, printed in pytest's header so that a failure can be replayed."""
import os
import random
import sys
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

# One seed per run: fresh unless SHARDNB_SEED is given. Hypothesis draws every test's examples from it
# (unless --hypothesis-seed says otherwise), and the `seed` fixture hands it to generated-program tiers.
SEED = int(os.environ.get("SHARDNB_SEED") or random.SystemRandom().randrange(2**32))
core.global_force_seed = SEED

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


def pytest_terminal_summary(terminalreporter):
    # printed at the end too, where `pytest -q` (which has no header) still shows it
    terminalreporter.write_line(f"shardnb seed: {SEED} (replay this run with SHARDNB_SEED={SEED})")
