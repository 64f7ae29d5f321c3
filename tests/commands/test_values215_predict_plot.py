"""lnrnn predict and lnrnn plot hand their options on: with the run, the readers and the model call faked,
--batch-size reaches lnrnn.api.predict and -q/--quiet the progress, whose total is the count of sequences read;
a bad --batch-size is one exact 'Error:' line before the run is loaded, with nothing written. lnrnn plot on run
folders written here: --x reaches the drawing for each axis, the thin line's rows are updates.jsonl's (not the
per-epoch metrics), and a folder that holds no metrics.jsonl (and no checkpoint) is told it is not a run folder,
in one exact line, with the drawing faked to fail if reached and no picture written."""
import json
import types

import numpy as np
import pytest

import lnrnn.api
import lnrnn.predict_io
import lnrnn.training.progress
from lnrnn.commands import plot as plot_cmd
from lnrnn.training.plot import X_AXES

from test_cli import invoke

N = 5


def _never(*a, **k):
    raise AssertionError("reached the work a refused input must not cost")


@pytest.fixture
def fake_predict(monkeypatch):
    seen = {"predict": [], "progress": []}
    run = types.SimpleNamespace(task_spec={"task": "digits"}, config={"input_size": 1}, meta={},
                                model=types.SimpleNamespace(head=types.SimpleNamespace(kind="classifier",
                                                                                       per_step=False)))
    x = np.zeros((N, 4, 1), np.float32)

    class Progress:
        def __init__(self, total, label="", quiet=False, **kw):
            seen["progress"].append(dict(total=total, label=label, quiet=quiet))

        def update(self, *a, **k):
            pass

        def close(self):
            pass

    def predict(r, xs, **kw):
        assert r is run and xs is x
        seen["predict"].append(kw)
        return "predictions"
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path, **k: run)
    monkeypatch.setattr(lnrnn.api, "require_predictable", lambda r: None)
    monkeypatch.setattr(lnrnn.api, "predict", predict)
    monkeypatch.setattr(lnrnn.predict_io, "read_inputs", lambda paths, task, size: (x, [("seqs.npy", 0, N)]))
    monkeypatch.setattr(lnrnn.predict_io, "training_record", lambda meta: None)
    monkeypatch.setattr(lnrnn.predict_io, "check_like_training", lambda xs, record: [])
    monkeypatch.setattr(lnrnn.predict_io, "write_predictions", lambda path, preds: N)
    monkeypatch.setattr(lnrnn.training.progress, "Progress", Progress)
    return seen


@pytest.mark.parametrize("quiet", [False, True])
def test_predict_hands_on_batch_size_and_quiet(fake_predict, tmp_path, quiet):
    out = tmp_path / "p.csv"
    r = invoke("predict", "--checkpoint", tmp_path, "--input", tmp_path / "seqs.npy", "--out", out, "--batch-size", 2,
               *(["-q"] if quiet else []))
    assert r.exit_code == 0, r.output
    assert [kw["batch_size"] for kw in fake_predict["predict"]] == [2]
    assert fake_predict["predict"][0]["progress"] is not None
    assert fake_predict["progress"] == [dict(total=N, label="predict", quiet=quiet)]
    assert r.stdout == f"Wrote the predicted classes of {N} sequences to {out} (seqs.npy: {N}).\n"


def test_predict_refuses_a_batch_size_of_zero_before_the_run(monkeypatch, tmp_path):
    monkeypatch.setattr(lnrnn.api, "load_run", _never)
    monkeypatch.setattr(lnrnn.api, "predict", _never)
    out = tmp_path / "sub" / "p.csv"
    r = invoke("predict", "--checkpoint", tmp_path, "--input", tmp_path / "seqs.npy", "--out", out, "--batch-size", 0)
    assert r.exit_code == 2, r.output
    assert r.output == "Error: --batch-size must be at least 1, not 0.\n"
    assert list(tmp_path.iterdir()) == []


def _run(folder, metrics, updates=None):
    folder.mkdir(parents=True)
    (folder / "metrics.jsonl").write_text("".join(json.dumps(m) + "\n" for m in metrics))
    if updates is not None:
        (folder / "updates.jsonl").write_text("".join(json.dumps(u) + "\n" for u in updates))
    return folder


METRICS = [{"epoch": 1, "step": 10, "time_s": 1.5, "loss": 0.7, "acc": 0.5}]
UPDATES = [{"step": 2, "loss": 0.9}, {"step": 4, "loss": 0.8}, {"step": 6, "loss": 0.75}]


def test_plot_reads_the_updates_file_for_the_thin_line(tmp_path):
    c = plot_cmd.read_run_curves(str(_run(tmp_path / "r", METRICS, UPDATES)))
    assert c.records == METRICS
    assert c.updates == UPDATES
    assert c.label == "r"


@pytest.mark.parametrize("x", list(X_AXES))
def test_plot_hands_the_axis_on(monkeypatch, tmp_path, x):
    drawn = []
    monkeypatch.setattr(plot_cmd, "write_learning_curves", lambda out, data, **kw: drawn.append((out, data, kw)))
    run = _run(tmp_path / "r", METRICS, UPDATES)
    out = tmp_path / "p.png"
    r = invoke("plot", run, "--out", out, "--x", x)
    assert r.exit_code == 0, r.output
    assert len(drawn) == 1
    assert drawn[0][2] == dict(x=x, title="learning curves")
    assert [d.updates for d in drawn[0][1]] == [UPDATES]
    assert r.output == f"Wrote {out} (1 run, x = {X_AXES[x]}).\n"


def test_plot_refuses_a_folder_without_metrics(monkeypatch, tmp_path):
    monkeypatch.setattr(plot_cmd, "write_learning_curves", _never)
    folder = tmp_path / "notarun"
    folder.mkdir()
    out = tmp_path / "p.png"
    r = invoke("plot", folder, "--out", out)
    assert r.exit_code == 2, r.output
    assert r.output == (f"Error: {folder} has no metrics.jsonl; point lnrnn plot at run folders (what `lnrnn train "
                        "--out` wrote).\n")
    assert not out.exists() and list(folder.iterdir()) == []
