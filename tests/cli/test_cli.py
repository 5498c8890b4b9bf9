"""The `shardnb` console script, end to end: each subcommand run as a subprocess."""
import json, os, shutil, subprocess, sys
from pathlib import Path

import pytest

MESH = '<["x"=2, "y"=4]>'


def _command():
    "The installed console script next to this interpreter, else the same entry point through `python -c`."
    exe = Path(sys.executable).parent / "shardnb"
    if exe.exists(): return [str(exe)]
    return [sys.executable, "-c", "from shardnb.cli import main; raise SystemExit(main())"]


def run(*args, check_tb=True, input=None, cwd=None):
    r = subprocess.run([*_command(), *args], capture_output=True, text=True, timeout=120, input=input, cwd=cwd)
    if check_tb: assert "Traceback" not in r.stderr + r.stdout, r.stderr
    return r


def test_console_script_is_declared_and_resolves_to_main():
    import tomllib
    from importlib.metadata import entry_points
    from shardnb.cli import main
    declared = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]["scripts"]
    assert declared["shardnb"] == "shardnb.cli:main"
    (ep,) = [e for e in entry_points(group="console_scripts") if e.name == "shardnb"]  # the installed metadata
    assert ep.value == "shardnb.cli:main" and ep.load() is main


@pytest.mark.parametrize("sub", [None, "show", "plan", "check", "propagate", "explain"])
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


def test_plan():
    r = run(*PLAN)
    assert r.returncode == 0, r.stderr
    assert "lower bound" in r.stdout
    data = json.loads(run(*PLAN, "--json").stdout)
    assert {"steps", "cost", "lower_bound_bytes"} <= data.keys()
    assert data["cost"]["max_bytes_received"] >= data["lower_bound_bytes"]
    assert data["steps"] and all("sharding" in step for step in data["steps"])


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
    assert r.returncode == 1 and r.stderr.startswith("error: ")


def test_check_reports_line_and_column(tmp_path):
    good, bad = tmp_path / "good.mlir", tmp_path / "bad.mlir"
    good.write_text('sdy.mesh @mesh = <["x"=2]>\n')
    bad.write_text('sdy.mesh @mesh = <["x"=2]>\nsdy.mesh @other = <["y"=2,>\n')
    assert run("check", str(good)).returncode == 0
    r = run("check", str(bad))
    assert r.returncode == 1 and f"{bad}:2:" in r.stderr


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
    assert f'{bad}:4:76: result 0 of stablehlo.negate (%1): unknown axis name: "y"' in r.stderr


# --- garbage in: an error (non-zero exit, every error line `error:`), never a traceback --------------------------

GOOD = ["--mesh", MESH, "--sharding", '<@mesh, [{"x"}, {"y"}]>', "--shape", "16x8"]


@pytest.mark.parametrize("args, code, message", [
    (["show", *GOOD, "--png", "/nonexistent/dir/a.png"], 1, "--png /nonexistent/dir/a.png: directory /nonexistent/dir does not exist"),
    (["plan", "--mesh", MESH, "--from", '<@mesh, [{"x"}]>', "--to", '<@mesh, [{}]>', "--shape", "18446744073709551616"], 1, ""),
    (["show", "--mesh", MESH, "--sharding", '<@mesh, [{"x"}]>', "--shape", "2x\u00b2"], 1, "bad shape"),
    (["show", "--mesh", MESH, "--sharding", '<@mesh, [{"x"}]>', "--shape", "9" * 5000], 1, "a dimension of 5000 digits"),
    (["show", "--mesh", '<["x"=99999999999]>', "--sharding", '<@mesh, [{"x"}]>', "--shape", "4"], 1, "supports at most"),
    (["show", "--mesh", "\x01\u00e9<", "--sharding", "\x7f", "--shape", "4"], 1, "expected '<' to start a mesh"),
    (["show", "--sharding", "", "--shape", ""], 1, ""),
    (["plan", "--mesh", MESH, "--from", '<@mesh, [{"x"}]>', "--to", '<@mesh, [{}]>', "--shape", "4", "--dtype", "f" + "9" * 400], 1, ""),
    (["check", "/nonexistent/m.mlir"], 1, "cannot read /nonexistent/m.mlir: No such file or directory"),
    (["check", "/"], 1, "cannot read /:"),
    (["frobnicate"], 2, "invalid choice"),
])
def test_garbage_is_an_error_without_a_traceback(args, code, message):
    r = run(*args)
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    assert message in r.stderr
    if code == 1: assert r.stderr.startswith("error: ") and r.stdout == ""


def test_an_internal_error_is_one_line_with_exit_code_4(monkeypatch, capsys):
    import shardnb.cli as cli
    def broken(*a, **k): raise KeyError("a bug")
    monkeypatch.setattr(cli, "show_text", broken)
    assert cli.main(["show", *GOOD]) == 4
    err = capsys.readouterr().err
    assert err.startswith("error: internal error in shardnb show (a bug: please report it") and "KeyError: 'a bug'" in err
    assert len(err.splitlines()) == 1
    monkeypatch.setenv("SHARDNB_DEBUG", "1")
    with pytest.raises(KeyError): cli.main(["show", *GOOD])


def test_version():
    from shardnb import __version__
    r = run("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"shardnb {__version__}"


def test_png_to_a_directory_is_refused_and_a_file_name_is_written_as_given(tmp_path):
    r = run("show", *GOOD, "--png", str(tmp_path))
    assert r.returncode == 1 and "is a directory; give a file name" in r.stderr and list(tmp_path.iterdir()) == []
    target = tmp_path / "figure"   # no suffix: written exactly there, and reported
    r = run("show", *GOOD, "--png", str(target))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == f"figure written to {target.resolve()}"
    assert [p.name for p in tmp_path.iterdir()] == ["figure"] and target.read_bytes()[:4] == b"\x89PNG"


def test_dash_reads_stdin(tmp_path):
    r = run("show", "--mesh", MESH, "--sharding", "-", "--shape", "16x8", input='<@mesh, [{"y"}, {}]>\n')
    assert r.returncode == 0 and r.stdout.splitlines()[0] == '#sdy.sharding<@mesh, [{"y"}, {}]>'
    r = run("check", "-", input='sdy.mesh @mesh = <["x"=2]>\n')
    assert r.returncode == 0 and r.stdout.strip() == "<stdin>: ok"
    r = run("check", "-", input='sdy.mesh @mesh = <["x"=2,>\n')
    assert r.returncode == 1 and r.stderr.startswith("error: <stdin>:1:")


@pytest.mark.parametrize("sharding, token, nth", [
    ('<@mesh, [{"x"}, {"q"}]>', '"q"', 1),              # unknown axis
    ('<@mesh, [{"x"}, {"y", "x"}]>', '"x"', 2),          # duplicate axis ref
    ('<@mesh, [{"y":(3)2}, {}]>', '"y"', 1),            # sub-axis that does not divide
])
def test_carets_of_semantic_errors_sit_under_the_offending_token(sharding, token, nth):
    r = run("show", "--mesh", MESH, "--sharding", sharding, "--shape", "16x8")
    at = -1
    for _ in range(nth): at = sharding.index(token, at + 1)
    lines = r.stderr.splitlines()
    assert r.returncode == 1 and lines[0].startswith("error: ")
    assert lines[-2:] == [sharding, " " * at + "^"], r.stderr


def test_caret_under_a_zero_axis_size():
    mesh = '<["x"=2, "y"=0]>'
    r = run("show", "--mesh", mesh, "--sharding", '<@mesh, [{"x"}]>', "--shape", "4")
    assert r.returncode == 1 and r.stderr.splitlines()[-2:] == [mesh, " " * mesh.index("0") + "^"]


def test_several_errors_each_start_with_error(tmp_path):
    bad = tmp_path / "two.mlir"
    bad.write_text('sdy.mesh @m = <["x"=2]>\n'
                   'func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {\n'
                   '  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : tensor<4x4xf32>\n'
                   '  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y"}, {}]>]>} : tensor<4x4xf32>\n'
                   '  return %1 : tensor<4x4xf32>\n}\n')
    r = run("check", str(bad))
    located = [l for l in r.stderr.splitlines() if f"{bad}:" in l]
    assert r.returncode == 1 and len(located) == 2 and all(l.startswith(f"error: {bad}:") for l in located)


def test_a_large_mesh_is_summarised_and_its_figure_is_fast(tmp_path):
    import time
    png = tmp_path / "big.png"
    args = ["show", "--mesh", '<["x"=64, "y"=64]>', "--sharding", '<@mesh, [{"x"}, {"y"}]>', "--shape", "128x128"]
    t0 = time.perf_counter()
    r = run(*args, "--png", str(png))
    took = time.perf_counter() - t0
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) < 50 and "who holds what: 4,096 tiles, each held by 1 device" in r.stdout
    assert "  ... 4,064 more tiles (--all lists every one) ..." in lines
    assert lines[-2].startswith("  [126:128, 126:128]") and lines[-2].endswith("device 4095")
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert took < 10, f"show --png on a 64x64 mesh took {took:.1f} s"   # ~1.5 s here; 27 s before the heat map
    assert len(run(*args, "--all").stdout.splitlines()) == 4 + 4096


@pytest.mark.parametrize("sub", [None, "show", "plan"])
def test_help_examples_can_be_pasted(sub, tmp_path):
    import shlex
    help_text = run(*([sub] if sub else []), "--help").stdout
    examples = [l.strip() for l in help_text.splitlines() if l.strip().startswith(("shardnb show", "shardnb plan"))]
    assert examples, help_text
    for line in examples:
        words = shlex.split(line)   # one line each: a re-wrapped example would split a quoted mesh and fail here
        r = run(*words[1:], cwd=tmp_path)   # an example may write a figure: not into the checkout
        assert r.returncode == 0, (line, r.stderr)


# ---- shardnb propagate

PROP_MODULE = '''sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %w: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.tanh %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
'''


def test_propagate_prints_what_propagate_returns(tmp_path):
    from shardnb.ir.program import parse_module
    from shardnb.shardy.import_passes import import_pipeline
    from shardnb.shardy.propagate import propagate, STRATEGIES
    f = tmp_path / "m.mlir"; f.write_text(PROP_MODULE)
    for strategy in STRATEGIES:
        for conservative in (False, True):
            r = run("propagate", str(f), "--strategy", strategy, *(["--conservative"] if conservative else []))
            assert r.returncode == 0, r.stderr
            want = propagate(import_pipeline(parse_module(PROP_MODULE)), strategy=strategy, conservative=conservative)
            assert parse_module(r.stdout) == want, strategy   # the printed module is the propagated one
    out = run("propagate", str(f)).stdout
    assert '%1 = stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}' in out
    assert run("propagate", "-", input=PROP_MODULE).stdout == out   # stdin, as `check -`


def test_propagate_cost_prints_the_communication_report(tmp_path):
    from shardnb.ir.program import parse_module
    from shardnb.shardy.import_passes import import_pipeline
    from shardnb.shardy.propagate import propagate
    from shardnb.shardy.cost import communication_report
    f = tmp_path / "m.mlir"; f.write_text(PROP_MODULE)
    r = run("propagate", str(f), "--cost")
    assert r.returncode == 0, r.stderr
    report = communication_report(propagate(import_pipeline(parse_module(PROP_MODULE))))
    assert r.stdout.rstrip("\n") == str(report)
    (row,) = [l for l in r.stdout.splitlines() if l.lstrip().startswith("1 ")]
    assert "reduction" in row and "@main %0" in row and 'all_reduce{"y"}' in row and f"{report.bytes:,}" in row
    # no sharded contraction: nothing to pay
    f2 = tmp_path / "free.mlir"; f2.write_text(PROP_MODULE.replace('[{"x"}, {"y"}]', '[{"x"}, {}]').replace('[{"y"}, {}]', '[{}, {"y"}]'))
    assert run("propagate", str(f2), "--cost").stdout.startswith("(no communication)")


def test_propagate_errors_are_as_clear_as_checks(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text('sdy.mesh @mesh = <["x"=2]>\n'
                   'func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}]>}) -> tensor<8xf32> {\n'
                   '  return %a : tensor<8xf32>\n}\n')
    r, c = run("propagate", str(bad), "--cost"), run("check", str(bad))
    assert r.returncode == c.returncode == 1 and r.stdout == ""
    assert r.stderr == c.stderr   # the same located errors, carets included
    assert f'error: {bad}:2:74: argument 0 of @main: unknown axis name: "z"' in r.stderr and r.stderr.splitlines()[-1].endswith("^")
    syntax = tmp_path / "syntax.mlir"; syntax.write_text('sdy.mesh @mesh = <["x"=2,>\n')
    r = run("propagate", str(syntax))
    assert r.returncode == 1 and f"{syntax}:1:" in r.stderr and r.stderr.splitlines()[-1].strip() == "^"
    r = run("propagate", str(tmp_path / "missing.mlir"))
    assert r.returncode == 1 and r.stderr == f"error: cannot read {tmp_path / 'missing.mlir'}: No such file or directory\n"
    r = run("propagate", str(bad), "--strategy", "greedy")
    assert r.returncode == 2 and "invalid choice: 'greedy'" in r.stderr and "user-priority" in r.stderr


def test_propagate_help_lists_the_strategies():
    from shardnb.shardy.propagate import STRATEGIES
    r = run("propagate", "--help")
    assert r.returncode == 0 and all(s in r.stdout for s in STRATEGIES) and "--cost" in r.stdout
    assert "propagate" in run("--help").stdout


def test_propagate_cost_locates_a_move_it_cannot_plan(tmp_path):
    f = tmp_path / "two_meshes.mlir"
    f.write_text('sdy.mesh @mesh = <["x"=2, "y"=4]>\nsdy.mesh @other = <["z"=2]>\n'
                 'func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {\n'
                 '  %0 = sdy.reshard %a <@other, [{"z"}, {}]> : tensor<8x16xf32>\n'
                 '  return %0 : tensor<8x16xf32>\n}\n')
    r = run("propagate", str(f), "--cost")
    assert r.returncode == 1 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert lines[0].startswith(f"error: {f}:4:3: sdy.reshard @main %0: src and dst are on different devices")
    assert lines[1] == '  %0 = sdy.reshard %a <@other, [{"z"}, {}]> : tensor<8x16xf32>' and lines[2] == "  ^"
    assert run("propagate", str(f)).returncode == 0   # without --cost nothing is planned


def test_propagate_reshards_and_pipeline(tmp_path):
    "--reshards adds the explicit reshards (full version) to the propagated module; --pipeline is propagation_pipeline."
    from shardnb.ir.program import parse_module
    from shardnb.shardy.import_passes import import_pipeline
    from shardnb.shardy.propagate import propagate
    from shardnb.shardy.explicit import insert_explicit_reshards
    from shardnb.shardy.export import propagation_pipeline
    f = tmp_path / "m.mlir"; f.write_text(PROP_MODULE)
    r = run("propagate", str(f), "--reshards")
    assert r.returncode == 0, r.stderr
    want = insert_explicit_reshards(propagate(import_pipeline(parse_module(PROP_MODULE))), enable_full_version=True)
    assert parse_module(r.stdout) == want
    assert "sdy.all_reduce" in r.stdout   # the sharded contraction's partial sums, made explicit
    r = run("propagate", str(f), "--pipeline")
    assert r.returncode == 0, r.stderr
    assert parse_module(r.stdout) == propagation_pipeline(parse_module(PROP_MODULE))
    r = run("propagate", str(f), "--pipeline", "--strategy", "basic")
    assert r.returncode == 2 and "error:" in r.stderr and "--pipeline" in r.stderr
    r = run("propagate", str(f), "--reshards", "--cost")
    assert r.returncode == 0 and "all_reduce" in r.stdout


# ---- shardnb explain

def test_explain_prints_what_explain_and_the_cost_report_say(tmp_path):
    "Each value's line is `explain`'s summary; the communication is the report of jaxlib's pipeline, each item with its cause."
    from shardnb.ir.program import parse_module
    from shardnb.shardy.explain import explain
    from shardnb.shardy.export import propagation_pipeline
    from shardnb.shardy.cost import communication_report
    f = tmp_path / "m.mlir"; f.write_text(PROP_MODULE)
    r = run("explain", str(f))
    assert r.returncode == 0, r.stderr
    m = parse_module(PROP_MODULE)
    assert explain(m).summary() in r.stdout
    report = communication_report(propagation_pipeline(m, debug_sharding_origins=True))
    assert str(report) in r.stdout and report.items and all(i.cause for i in report.items)
    assert '%0: <@mesh, [{"x", ?}, {?}]>   "x" <- argument 0 (%a) of @main' in r.stdout
    assert "reduction factor" in r.stdout.split("causes:")[1] and "argument 0 (%a)" in r.stdout.split("causes:")[1]


def test_explain_one_value_and_its_figure(tmp_path):
    f, png = tmp_path / "m.mlir", tmp_path / "e.png"; f.write_text(PROP_MODULE)
    r = run("explain", str(f), "--value", "%1", "--png", str(png))
    assert r.returncode == 0, r.stderr
    assert "<- stablehlo.tanh (%1) carried it from %0 dim 0 to %1 dim 0" in r.stdout
    assert "<- stablehlo.dot_general (%0) carried it from %a dim 0 to %0 dim 0 (factor i)" in r.stdout
    assert "%arg" not in r.stdout.split("communication")[0]   # one value only
    assert png.stat().st_size > 5_000 and f"figure written to {png.resolve()}" in r.stdout


def test_explain_the_shipped_transformer_block_in_seconds(tmp_path):
    "The README's command: the packaged transformer block, its shardings with causes, the silent replication, the cost, the figure."
    import time
    png = tmp_path / "explain.png"
    t0 = time.perf_counter()
    r = run("explain", "--example", "transformer_block", "--png", str(png))
    took = time.perf_counter() - t0
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert '%arg6: <@mesh, [{"model", ?}, {?}]>   "model" <- argument 5 (%arg5) of @main' in out   # w2 follows w1
    assert "argument 7 (%arg7) dim 1 ends up replicated" in out and "not divisible by 4" in out   # the head's 17 entries
    assert "causes:" in out and "reduction factor" in out and png.stat().st_size > 20_000
    print(f"shardnb explain --example transformer_block: {took:.1f} s wall, including interpreter start")
    assert took < 60


def test_explain_errors(tmp_path):
    f = tmp_path / "m.mlir"; f.write_text(PROP_MODULE)
    r = run("explain", str(f), "--value", "%9")
    assert r.returncode == 1 and r.stderr.startswith(f"error: {f}: no value %9 in the program; its values are %a, %w, %0, %1"), r.stderr
    r = run("explain")
    assert r.returncode == 2 and "give a FILE.mlir or --example NAME" in r.stderr
    r = run("explain", "--example", "nope")
    assert r.returncode == 1 and "the package ships: transformer_block" in r.stderr
    bad = tmp_path / "bad.mlir"
    bad.write_text('sdy.mesh @mesh = <["x"=2]>\nfunc.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}]>}) -> tensor<8xf32> {\n  return %a : tensor<8xf32>\n}\n')
    r = run("explain", str(bad))
    assert r.returncode == 1 and r.stderr.startswith(f"error: {bad}:2:"), r.stderr


def test_auto_prints_the_search_beside_the_hand_strategies():
    "`shardnb auto`: the search's step time, optimal, never above a baseline's, then the chosen shardings and the annotated program."
    import re
    mlp = Path(__file__).resolve().parents[1] / "auto" / "data" / "mlp2.mlir"
    r = run("auto", str(mlp), "--mesh", '<["x"=8]>')
    assert r.returncode == 0, r.stderr
    out = r.stdout
    ms = dict(re.findall(r"^(auto_shard|replicated|data parallel|FSDP|Megatron[^\d]*?)\s+([\d.]+) ms", out, re.M))
    assert "auto_shard" in ms and len(ms) >= 4, out[:2000]
    assert all(float(ms["auto_shard"]) <= float(v) + 1e-9 for v in ms.values()), ms
    assert "solver: optimal" in out and "argument 0: #sdy.sharding<@mesh" in out and "func.func public @main" in out
    bad = run("auto", str(mlp), "--mesh", '<["x"=0]>', check_tb=True)
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
