"""Commands' output against the same computation through the Python API or done here: lnrnn eval's sentence
names the set it evaluated (evaluate_run's task and sequence count); lnrnn predict --force warns once on stderr
only, and its CSV holds lnrnn.api.predict's classes; lnrnn plot titles a picture by the runs' shared
config.json only when every run has one, and notes separate loss panels only when the losses differ in kind;
lnrnn info describes the CUDA paths exactly when CUDA is usable; lnrnn gradcheck's summary gives the largest
of the errors it printed and the count above --tolerance (the checks replaced by fakes)."""
import csv
import itertools
import json

import numpy as np
import pytest
from test_cli import invoke
from test_values46_plot_runs import fake_run
from test_values_eval_predict import _run

from lnrnn.api import evaluate_run, load_run, predict
from lnrnn.commands import gradcheck as gradcheck_cmd
from lnrnn.commands import info as info_cmd
from lnrnn.commands import plot as plot_cmd
from lnrnn.training.plot import X_AXES
from lnrnn.training.runconfig import TrainConfig, write_run_config


@pytest.fixture(scope="module")
def clf(tmp_path_factory):
    return _run(tmp_path_factory.mktemp("runs119") / "clf", {"task": "digits"}, 1, 10)


@pytest.mark.parametrize("which", ["train", "val"])
def test_eval_says_which_set_it_evaluated(clf, which):
    r = invoke("eval", "--checkpoint", clf, "--set", which)
    assert r.exit_code == 0, r.output
    res = evaluate_run(str(clf), which)
    lines = r.stdout.splitlines()
    assert len(lines) == 1
    assert f", on {which} of {res.task.description}: " in lines[0]
    assert lines[0].endswith(f"({res.sequences} sequences).")


def test_predict_force_warns_on_stderr_once_and_writes_the_apis_classes(clf, tmp_path):
    from sklearn.datasets import load_digits
    x = load_digits().images[:5].reshape(5, 64)[:, :50] / 16       # 50 steps where the run was trained on 64
    np.save(tmp_path / "short.npy", x)
    out = tmp_path / "p.csv"
    r = invoke("predict", "--checkpoint", clf, "--input", tmp_path / "short.npy", "--out", out, "--force", "-q")
    assert r.exit_code == 0, r.output
    warnings = [line for line in r.stderr.splitlines() if line.startswith("Warning:")]
    assert len(warnings) == 1 and "50 steps" in warnings[0] and warnings[0].endswith("(--force).")
    assert "Warning" not in r.stdout
    src = tmp_path / "short.npy"
    assert r.stdout.splitlines() == [f"Wrote the predicted classes of 5 sequences to {out} ({src}: 5)."]
    with open(out) as f:
        rows = list(csv.DictReader(f))
    want = predict(load_run(str(clf)), x[:, :, None].astype(np.float32))
    assert [int(row["class"]) for row in rows] == want.classes.tolist()
    assert [int(row["index"]) for row in rows] == list(range(5))


@pytest.fixture
def drawn(monkeypatch):
    seen = []
    monkeypatch.setattr(plot_cmd, "write_learning_curves",
                        lambda out, data, x, title: seen.append(dict(title=title, labels=[d.label for d in data])))
    return seen


def test_the_title_is_the_shared_config_only_when_every_run_has_one(tmp_path, drawn):
    cfg = TrainConfig(cell="rnn", task="copy", hidden=5, layers=1, optimizer="adam", lr=0.5, batch_size=8, seed=2)
    for name in ("a", "b", "c"):
        fake_run(tmp_path / name, 0.5)
    write_run_config(str(tmp_path / "a"), cfg)
    write_run_config(str(tmp_path / "b"), cfg)
    out = tmp_path / "c.svg"
    assert invoke("plot", tmp_path / "a", tmp_path / "b", "--out", out).exit_code == 0
    with open(tmp_path / "a" / "config.json") as f:
        c = json.load(f)
    assert drawn[-1]["title"] == (f"{c['cell']} H={c['hidden']} on {c['task']} (1 layer, {c['optimizer']} lr "
                                  f"{c['lr']:g}, batch {c['batch-size']}, seed {c['seed']})")
    r = invoke("plot", tmp_path / "a", tmp_path / "c", tmp_path / "b", "--out", out)
    assert r.exit_code == 0, r.output
    assert drawn[-1]["title"] == "learning curves" and drawn[-1]["labels"] == ["a", "c", "b"]


def _kind(folder, kind):
    (folder / "checkpoint.json").write_text(json.dumps({"model": {"head": {"kind": kind}}}))


@pytest.mark.parametrize("kinds", [(None, None), ("classifier", "classifier"), ("classifier", "mdn")])
def test_the_panels_note_only_for_losses_of_different_kinds(tmp_path, drawn, kinds):
    for name, kind in zip(("r1", "r2"), kinds):
        fake_run(tmp_path / name, 0.5)
        if kind:
            _kind(tmp_path / name, kind)
    out = tmp_path / "c.svg"
    r = invoke("plot", tmp_path / "r1", tmp_path / "r2", "--out", out, "--x", "epoch")
    assert r.exit_code == 0, r.output
    head = f"Wrote {out} (2 runs, x = {X_AXES['epoch']})"
    if kinds[0] == kinds[1]:
        assert r.stdout.splitlines() == [head + "."]
    else:
        assert r.stdout.startswith(head + "; their losses measure different things")


@pytest.mark.parametrize("usable", [False, True])
def test_info_describes_the_cuda_paths_exactly_when_usable(monkeypatch, usable):
    from lnrnn import backend
    monkeypatch.setattr(backend, "cuda_usable", lambda: (usable, "DETAIL"))
    monkeypatch.setattr(info_cmd, "_cuda_paths", lambda: "PATHS")
    lines = info_cmd.info_lines()
    assert [line for line in lines if line.startswith("CUDA")] == (
        [f"CUDA: {'usable' if usable else 'not usable'}: DETAIL"] +
        (["CUDA products and LSTM time loops: PATHS"] if usable else []))


def test_gradcheck_summary_is_the_largest_printed_error(monkeypatch):
    errs = itertools.cycle([3e-3, 0.5, 1e-6, 2e-2, 7e-4, 1e-5, 4e-3])

    def fake(*a, **k):
        return [("Wx", next(errs)), ("Wh", next(errs))]
    monkeypatch.setattr(gradcheck_cmd, "check_stack", fake)
    monkeypatch.setattr(gradcheck_cmd, "check_model", fake)
    r = invoke("gradcheck", "--cell", "rnn", "--tolerance", "0.01", "-q")
    assert r.exit_code == 1, r.output
    lines = r.stdout.splitlines()
    printed = [float(line.split()[3]) for line in lines[:-1]]
    assert len(printed) > 4 and printed[-1] != max(printed)
    failed = sum(e > 0.01 for e in printed)
    assert lines[-1] == f"max relative error {max(printed):.2e}; {failed} above tolerance 0.01"
