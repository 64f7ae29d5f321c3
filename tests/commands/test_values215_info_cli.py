"""lnrnn info's lines against the libraries' own answers, and the group's one-line errors: the python line
against platform.python_version(); the BLAS line 'unknown' when threadpoolctl finds no pool and neither numpy nor
scipy reports its build; the CUDA line's LSTM loop asked of the twins for the size and dtype the line prints
(the twins faked, so no GPU is needed); Ctrl-C in a command as exit 130 and one line naming that command; a
subcommand's bad option value as one 'Error:' line without click's usage block; lnrnn info --help keeping its
docstring while lnrnn --help lists the short line."""
import inspect
import platform
import sys
import types

import numpy as np
import scipy
import threadpoolctl

from lnrnn.commands import info as cmd

from test_cli import invoke


def _fixed_threading(monkeypatch):
    # the probe compiles a parallel function: not what these lines are about
    monkeypatch.setattr(cmd, "_threading", lambda: ("fake", 1, 1))


def test_python_line_is_the_interpreters_version(monkeypatch):
    _fixed_threading(monkeypatch)
    lines = cmd.info_lines()
    assert lines[1] == f"python {platform.python_version()} ({platform.platform()})"
    assert sys.version.startswith(platform.python_version())


def test_blas_line_says_unknown_when_nothing_reports_one(monkeypatch):
    _fixed_threading(monkeypatch)

    def no_config(*a, **k):
        raise RuntimeError("no build configuration")
    monkeypatch.setattr(threadpoolctl, "threadpool_info", lambda: [])
    monkeypatch.setattr(np, "show_config", no_config)
    monkeypatch.setattr(scipy, "show_config", no_config)
    assert cmd._blas() == ["unknown"]
    assert "BLAS: unknown" in cmd.info_lines()


def test_cuda_line_names_the_loop_of_the_size_and_dtype_it_prints(monkeypatch):
    asked = []

    def lstm_path(H, dtype):
        asked.append((H, np.dtype(dtype)))
        return f"loop-{H}-{np.dtype(dtype).name}"
    graphs = types.ModuleType("lnrnn.kernels.cuda.graphs_cuda")
    graphs.describe = lambda: "products on the fake BLAS"
    graphs.loop_path = lambda seq: "step" if seq is False else "seq"
    lstm = types.ModuleType("lnrnn.kernels.lstm_cuda")
    lstm.lstm_path = lstm_path
    monkeypatch.setitem(sys.modules, "lnrnn.kernels.cuda.graphs_cuda", graphs)
    monkeypatch.setitem(sys.modules, "lnrnn.kernels.lstm_cuda", lstm)
    line = cmd._cuda_paths()
    assert len(asked) == 1
    H, dtype = asked[0]
    printed = line.split("LSTM loop: ", 1)[1].split(";", 1)[0]
    assert printed == f"loop-{H}-{dtype.name} (H {H}, {dtype.name})"      # the loop of what the line says
    assert (H, dtype) == (128, np.dtype(np.float32))
    assert line == ("products on the fake BLAS; LSTM loop: loop-128-float32 (H 128, float32); BN cells and the "
                    "window layer: step")


def test_ctrl_c_is_exit_130_and_one_line_naming_the_command(monkeypatch):
    def interrupted():
        raise KeyboardInterrupt
    monkeypatch.setattr(cmd, "info_lines", interrupted)
    r = invoke("info")
    assert r.exit_code == 130, r.output
    assert r.output == ("Error: interrupted (Ctrl-C): lnrnn info stopped; every file it writes is left whole or "
                        "untouched.\n")


def test_a_subcommands_bad_value_is_one_line(tmp_path):
    out = tmp_path / "p.png"
    r = invoke("plot", tmp_path, "--out", out, "--x", "sideways")
    assert r.exit_code == 2, r.output
    lines = r.output.splitlines()
    assert len(lines) == 1, r.output
    assert lines[0].startswith("Error: Invalid value for '--x': 'sideways' is not one of")
    assert lines[0].endswith(" plot --help' lists the options.)")
    assert "Usage:" not in r.output and "Try " not in r.output
    assert not out.exists()


def test_info_help_keeps_its_docstring_and_the_list_its_short_line():
    r = invoke("info", "--help")
    assert r.exit_code == 0, r.output
    assert " ".join(inspect.getdoc(cmd.info.callback).split()) in " ".join(r.output.split())
    r = invoke("--help")
    assert r.exit_code == 0, r.output
    listed = [" ".join(line.split()[1:]) for line in r.output.splitlines() if line.split()[:1] == ["info"]]
    assert listed == ["Print versions, threads, BLAS and CUDA status."]
