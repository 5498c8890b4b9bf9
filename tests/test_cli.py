"""The `shardnb` console script, end to end: each subcommand run as a subprocess."""
import importlib.util, json, os, shutil, subprocess, sys
from pathlib import Path

import pytest

MESH = '<["x"=2, "y"=4]>'


def _command():
    "The installed console script next to this interpreter, else the same entry point through `python -c`."
    exe = Path(sys.executable).parent / "shardnb"
    if exe.exists(): return [str(exe)]
    if shutil.which("shardnb") and os.environ.get("CI"): return ["shardnb"]
    return [sys.executable, "-c", "from shardnb.cli import main; raise SystemExit(main())"]


def run(*args, check_tb=True):
    r = subprocess.run([*_command(), *args], capture_output=True, text=True, timeout=120)
    if check_tb: assert "Traceback" not in r.stderr + r.stdout, r.stderr
    return r


def test_console_script_is_installed_in_ci():
    if os.environ.get("CI"): assert (Path(sys.executable).parent / "shardnb").exists()


@pytest.mark.parametrize("sub", [None, "show", "plan", "check"])
def test_help(sub):
    r = run(*([sub] if sub else []), "--help")
    assert r.returncode == 0 and "usage: shardnb" in r.stdout


def test_show_prints_sharding_local_shape_and_holders(tmp_path):
    png = tmp_path / "s.png"
    r = run("show", "--mesh", MESH, "--sharding", '<@mesh, [{"x"}, {"y"}]>', "--shape", "16x8", "--png", str(png))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == '#sdy.sharding<@mesh, [{"x"}, {"y"}]>'
    assert "16x8 global, 8x2 on each device" in r.stdout
    assert "[8:16, 6:8]  device 7" in r.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000


def test_show_replicated_and_named_meshes():
    r = run("show", "--mesh", 'sdy.mesh @m = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>', "--mesh", MESH,
            "--sharding", '#sdy.sharding<@m, [{}, {"b"}]>', "--shape", "4x5")
    assert r.returncode == 0, r.stderr
    assert "4x5 global, 4x3 on each device" in r.stdout
    rows = [line.split() for line in r.stdout.splitlines() if line.startswith("  [")]
    assert rows == [["[0:4,", "0:3]", "devices", "1,", "3"], ["[0:4,", "3:5]", "devices", "0,", "2"]]


@pytest.mark.parametrize("args, message", [
    (["--sharding", '<@mesh, [{"x"}, {"y"]>', "--shape", "16x8"], "line 1, column 21"),
    (["--sharding", '<@mesh, [{"x"}, {"q"}]>', "--shape", "16x8"], 'unknown axis name: "q"'),
    (["--sharding", '<@mesh, [{"x"}, {"y"}]>', "--shape", "16"], "sharding doesn't match tensor rank: 2 != 1"),
    (["--sharding", '<@nope, [{"x"}]>', "--shape", "16"], "nope"),
    (["--sharding", '<@mesh, [{"x"}]>', "--shape", "16xq"], "bad shape"),
])
def test_show_rejects_bad_input_with_the_package_message(args, message):
    r = run("show", "--mesh", MESH, *args)
    assert r.returncode == 1 and message in r.stderr and r.stderr.startswith("error: ")


def test_syntax_error_has_caret():
    r = run("show", "--mesh", MESH, "--sharding", '<@mesh, [{"x"}, {"y"]>', "--shape", "16x8")
    assert r.stderr.splitlines()[-1] == " " * 20 + "^"


def test_bad_mesh_and_usage():
    assert run("show", "--mesh", '<["x"=2,>', "--sharding", "<@mesh, []>", "--shape", "").returncode == 1
    r = run("show", "--shape", "4")
    assert r.returncode == 2 and "--sharding" in r.stderr


PLAN = ["plan", "--mesh", MESH, "--from", '<@mesh, [{"x"}, {"y"}]>', "--to", '<@mesh, [{"y"}, {}]>', "--shape", "16x8"]


@pytest.mark.skipif(importlib.util.find_spec("shardnb.reshard") is None, reason="shardnb.reshard not installed")
def test_plan():
    r = run(*PLAN)
    assert r.returncode == 0, r.stderr
    assert "lower bound" in r.stdout
    data = json.loads(run(*PLAN, "--json").stdout)
    assert {"steps", "cost", "lower_bound_bytes"} <= data.keys()
    assert data["cost"]["max_bytes_received"] >= data["lower_bound_bytes"]
    assert data["steps"] and all("sharding" in step for step in data["steps"])


@pytest.mark.skipif(importlib.util.find_spec("shardnb.reshard") is None or importlib.util.find_spec("shardnb.viz") is None,
                    reason="shardnb.reshard or shardnb.viz not installed")
def test_plan_png_and_bad_input(tmp_path):
    png = tmp_path / "p.png"
    r = run(*PLAN, "--png", str(png))
    assert r.returncode == 0 and png.read_bytes()[:4] == b"\x89PNG"
    r = run("plan", "--mesh", MESH, "--from", '<@mesh, [{"x"}, {"y"}]>', "--to", '<@mesh, [{"y"}]>', "--shape", "16x8")
    assert r.returncode == 1 and "sharding doesn't match tensor rank: 1 != 2" in r.stderr
    r = run(*PLAN, "--dtype", "nonsense")
    assert r.returncode == 1 and r.stderr.startswith("error: ")


def test_output_to_a_closed_pipe_is_not_an_error():
    p = subprocess.Popen([*_command(), "show", "--mesh", '<["x"=256]>', "--sharding", '<@mesh, [{"x"}]>', "--shape", "256"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.read(10); p.stdout.close()
    assert p.wait(timeout=60) == 0 and b"Traceback" not in p.stderr.read()


def test_check_missing_file(tmp_path):
    r = run("check", str(tmp_path / "missing.mlir"))
    assert r.returncode in (1, 3) and r.stderr.startswith("error: ")


@pytest.mark.skipif(importlib.util.find_spec("shardnb.program") is None, reason="shardnb.program not installed")
def test_check_reports_line_and_column(tmp_path):
    good, bad = tmp_path / "good.mlir", tmp_path / "bad.mlir"
    good.write_text('sdy.mesh @mesh = <["x"=2]>\n')
    bad.write_text('sdy.mesh @mesh = <["x"=2]>\nsdy.mesh @other = <["y"=2,>\n')
    assert run("check", str(good)).returncode == 0
    r = run("check", str(bad))
    assert r.returncode == 1 and f"{bad}:2:" in r.stderr


@pytest.mark.skipif(importlib.util.find_spec("shardnb.program") is None, reason="shardnb.program not installed")
def test_check_reports_every_error_at_its_op(tmp_path):
    bad = tmp_path / "two.mlir"
    bad.write_text('sdy.mesh @m = <["x"=2]>\n'
                   'func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {\n'
                   '  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : tensor<4x4xf32>\n'
                   '  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y"}, {}]>]>} : tensor<4x4xf32>\n'
                   '  return %1 : tensor<4x4xf32>\n}\n')
    r = run("check", str(bad))
    assert r.returncode == 1
    assert f"{bad}:3:3: result 0 of stablehlo.negate (%0): sharding doesn't match tensor rank: 1 != 2" in r.stderr
    assert f'{bad}:4:3: result 0 of stablehlo.negate (%1): unknown axis name: "y"' in r.stderr
