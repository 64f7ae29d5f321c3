"""The Python API (lnrnn/api.py) on a tiny per-step classifier trained here by lnrnn.fit: evaluate_run's loss and
accuracy on either set, and lnrnn eval --json on the same run folder, against the mean cross-entropy and the share
of right classes computed here from predict's probabilities of the same rows (predict checked first: without
lengths every step is valid, as with lengths of T); evaluate_run on another data file (data_dir replaces the one
the run recorded); and the one-sentence refusals of a set that is neither 'val' nor 'train', of a data file with
another input count (the checkpoint's count first, then the task's), and of a checkpoint whose task record does
not name its task."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

import lnrnn
from lnrnn.api import Run, evaluate_run, predict
from lnrnn.errors import CheckpointError, UserError

N, NV, T, I, C, HID = 8, 3, 4, 2, 3, 3


def _arrays(n, seed, inputs=I):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, T, inputs)).astype(np.float32), rng.integers(0, C, (n, T))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("api161") / "step"
    x, y = _arrays(N, 0)
    xv, yv = _arrays(NV, 1)
    r = lnrnn.fit(x, y, cell="lstm", out=str(out), epochs=1, hidden=HID, batch_size=4, x_val=xv, y_val=yv)
    return r, {"train": (x, y), "val": (xv, yv)}


def _by_hand(r, x, y):
    """Mean cross-entropy over every step and the share of steps whose most probable class is y."""
    probs = predict(r, x).probabilities                                     # (N,T,C)
    p = np.take_along_axis(probs, y[..., None], axis=-1)[..., 0]
    return -np.log(p).mean(), (probs.argmax(-1) == y).mean()


def test_predict_without_lengths_reads_every_step(run):
    r, sets = run
    x, _ = sets["train"]
    p = predict(r, x)
    q = predict(r, x, lengths=np.full(N, T))
    assert (p.classes >= 0).all()
    np.testing.assert_array_equal(p.classes, q.classes)
    np.testing.assert_array_equal(p.lengths, np.full(N, T))
    np.testing.assert_allclose(p.probabilities, q.probabilities, rtol=1e-12)


@pytest.mark.parametrize("which", ["train", "val"])
def test_evaluate_run_and_lnrnn_eval_measure_the_set_asked_for(run, which):
    r, sets = run
    loss, acc = _by_hand(r, *sets[which])
    e = evaluate_run(r, which)
    assert e.which == which and e.sequences == len(sets[which][0])
    assert e.metrics["loss"] == pytest.approx(loss, rel=1e-5)
    assert e.metrics["acc"] == pytest.approx(acc, abs=1e-12)
    from lnrnn.cli import main
    res = CliRunner().invoke(main, ["eval", "--checkpoint", r.path, "--set", which, "--json"])
    assert res.exit_code == 0, res.output
    said = json.loads(res.output)
    assert said["sequences"] == len(sets[which][0])
    assert said["loss"] == pytest.approx(loss, rel=1e-5)
    assert said["accuracy"] == pytest.approx(acc, abs=1e-12)


def test_data_dir_replaces_the_data_the_run_recorded(run, tmp_path):
    r, _ = run
    x2, y2 = _arrays(5, 7)
    xv2, yv2 = _arrays(2, 8)
    other = tmp_path / "other.npz"
    np.savez(other, x=x2, y=y2, x_val=xv2, y_val=yv2)
    e = evaluate_run(r, "train", data_dir=other)
    loss, acc = _by_hand(r, x2, y2)
    assert e.sequences == 5
    assert e.metrics["loss"] == pytest.approx(loss, rel=1e-5)
    assert e.metrics["acc"] == pytest.approx(acc, abs=1e-12)


def test_another_input_count_is_refused_naming_the_checkpoints_first(run, tmp_path):
    r, _ = run
    x3, y3 = _arrays(4, 9, inputs=I + 1)
    other = tmp_path / "wide.npz"
    np.savez(other, x=x3, y=y3, x_val=x3[:2], y_val=y3[:2])
    with pytest.raises(CheckpointError) as e:
        evaluate_run(r, "val", data_dir=other)
    assert str(e.value) == (f"checkpoint {r.path} expects {I} inputs and a classifier head with {C} outputs, but "
                            f"npz has {I + 1} inputs and needs a classifier head with {C} outputs.")


@pytest.mark.parametrize("which", ["test", "Val"])
def test_a_set_other_than_val_or_train_is_refused(run, which):
    with pytest.raises(UserError) as e:
        evaluate_run(run[0], which)
    assert str(e.value) == f"which must be 'val' or 'train', not '{which}'."


def test_a_task_record_without_the_tasks_name_is_a_corrupt_checkpoint(run):
    r, _ = run
    bad = Run(r.path, {**r.meta, "task": {"data_dir": r.task_spec["data_dir"]}}, r.model)
    with pytest.raises(CheckpointError) as e:
        evaluate_run(bad)
    assert str(e.value) == f"checkpoint {r.path} does not say which task it was trained on; it is corrupt."
