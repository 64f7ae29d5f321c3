"""The small commands through click's CliRunner, nineteenth pass: read_run_curves gives metrics.jsonl's rows as the
records and updates.jsonl's as the updates (both written here); lnrnn plot keeps the runs in the order given (its
legend labels and its one-line note of two loss panels written out by hand); a usage error of a subcommand is
one 'Error:' line naming '--help' with click's exit code 2; `lnrnn` alone prints the help with every command and
no error; `lnrnn --help` lists the ten commands the group registers and each of them answers its own --help;
`lnrnn info` opens with 'lnrnn <version>', the package's own version (as `lnrnn --version` prints it)."""
import json
import os

import lnrnn
import pytest

from lnrnn.commands import info as info_cmd
from lnrnn.commands import plot as plot_cmd
from lnrnn.commands.plot import read_run_curves

from test_cli import assert_clean_error, invoke
from test_values173_plot import fake_run

COMMANDS = ["train", "eval", "data", "info", "plot", "gradcheck", "sample", "predict", "read", "export"]


def test_records_are_the_metrics_and_updates_the_updates(tmp_path):
    run = fake_run(tmp_path / "r", kind="classifier")
    ups = [{"step": s, "train_loss": 0.5 / s} for s in (1, 2, 3)]
    with open(os.path.join(run, "updates.jsonl"), "w") as f:
        f.write("".join(json.dumps(u) + "\n" for u in ups))
    c = read_run_curves(run)
    assert c.label == "r" and c.kind == "classifier"
    assert [r["epoch"] for r in c.records] == [1, 2]
    assert [r["val_loss"] for r in c.records] == pytest.approx([1.1, 0.55])
    assert c.updates == ups


def test_plot_keeps_the_runs_in_the_order_given(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(plot_cmd, "write_learning_curves",
                        lambda out, data, x="step", title=None: seen.append([d.label for d in data]))
    z = fake_run(tmp_path / "zeta", kind="classifier")
    a = fake_run(tmp_path / "alpha", kind="ctc")
    out = tmp_path / "p.png"
    r = invoke("plot", z, a, "--out", out)
    assert r.exit_code == 0, r.output
    assert seen == [["zeta", "alpha"]]
    assert r.stdout == (f"Wrote {out} (2 runs, x = updates); their losses measure different things, so each has its "
                        "own panel: cross-entropy loss (nats) (zeta); CTC loss (nats per line) (alpha).\n")


def test_a_usage_error_is_one_line_with_exit_code_2():
    r = invoke("info", "--bogus")
    line = assert_clean_error(r, "--bogus", code=2)
    # click's sentence, then where the options are listed (the runner names the group 'main')
    assert line == "Error: No such option '--bogus'. ('main info --help' lists the options.)", line


def test_lnrnn_alone_is_its_help_not_an_error():
    r = invoke()
    assert "Error" not in r.output
    assert "Usage:" in r.output and "Commands:" in r.output
    assert all(f"  {c} " in r.output for c in COMMANDS), r.output


def test_help_lists_the_ten_commands_and_each_answers_its_help():
    r = invoke("--help")
    assert r.exit_code == 0, r.output
    listed = r.output.split("Commands:\n", 1)[1].splitlines()
    names = [ln.split()[0] for ln in listed if ln.startswith("  ") and not ln.startswith("   ")]
    assert sorted(names) == sorted(COMMANDS)
    for c in COMMANDS:
        h = invoke(c, "--help")
        assert h.exit_code == 0 and "Usage:" in h.output, (c, h.output)


def test_info_opens_with_the_packages_version(monkeypatch):
    import numba
    monkeypatch.setattr(info_cmd, "_threading", lambda: ("workqueue", 1, 1))  # no parallel compile here
    assert lnrnn.__version__ != numba.__version__
    first = info_cmd.info_lines()[0]
    assert first == f"lnrnn {lnrnn.__version__}"
    assert invoke("--version").output == f"lnrnn, version {lnrnn.__version__}\n"
