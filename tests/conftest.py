"""Test configuration: make `tests.strategies` importable and keep hypothesis quick and deterministic in CI."""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))

# The Triton kernels are tested through Triton's interpreter, which must be switched on before anything
# imports triton (shardnb.distributed imports shardnb.kernels, so test order must not matter). conftest is
# imported before any test module, so this is the one place that arranges it; set TRITON_INTERPRET=0
# yourself to test compiled kernels on a GPU.
os.environ.setdefault("TRITON_INTERPRET", "1")

from hypothesis import HealthCheck, settings  # noqa: E402

# `ci` (the default) is derandomized so CI is reproducible; `dev` explores new examples each run.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("SHARDNB_HYPOTHESIS_PROFILE", "ci"))
