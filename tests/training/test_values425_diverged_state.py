"""A run whose state goes non-finite where only an evaluation sees it, and a checkpoint that holds such state
(lnrnn/training/train.py: _validate and _finite, lnrnn/training/checkpoint.py: load_checkpoint,
lnrnn/training/setup.py: resume_problem), worked out on the tiny digits runs of test_values202_train_run (40 training
images in batches of 16: 3 updates an epoch, no save inside an epoch).

Found by training with a learning rate of 2**70 and by reading checkpoints whose arrays were set to NaN. Before: a
model of two layers whose parameters an update made NaN ended its next evaluation (mid-epoch, at the epoch's end or
at a --max-steps stop) in the second layer's "x contains NaN or infinite values" traceback; a one-layer model
stopped by --max-steps saved its NaN parameters as the run's checkpoint and reported "validation loss nan"; a
checkpoint whose parameters, BatchNorm statistics or optimizer slots hold NaN or infinity was evaluated, predicted
from and exported (two tracebacks, two silent files); a resume of a run whose saved settings lost the learning rate
or its decay was a KeyError.

The judges: each sentence word for word from stopping.diverged's definition (the evaluation "after update 2", the
last good checkpoint the one of update 0, which checkpoint.json still holds); the refused array named, whichever of
its kind (the last in name order, not only the first checked) and whichever non-finite value; the largest finite
float32 still loads; an evaluation's other ValueErrors are not called a divergence."""
import hashlib
import json
import shutil

import numpy as np
import pytest

from lnrnn.errors import CheckpointError, TrainingDiverged
from lnrnn.training import train as train_module
from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.setup import resume_problem
from lnrnn.training.train import Trainer, train
from test_cli import assert_clean_error, invoke
from test_values202_train_run import cfg

TAIL = "training stopped and the last good checkpoint (update 0) is kept in {out}; try a lower --lr or a --clip."
INSIDE = "the recurrent activations of the validation became NaN or infinite at epoch 1, after update 2; " + TAIL
LOSS = "the validation loss became {value} at epoch 1, after update 2; " + TAIL


def poison(t):
    if t.step == 2:
        t.model.flat[0].data[:] = np.nan


def quiet_train(config, **kw):
    train(config, quiet=True, log=lambda m: None, **kw)


def saved_step(out):
    return json.loads((out / "checkpoint.json").read_text())["step"]


@pytest.mark.parametrize("when, settings", [("every 2 updates", dict(eval_every=2)),
                                            ("at the epoch's end", dict(eval_every=None, split="32/20", epochs=1)),
                                            ("at a --max-steps stop", dict(eval_every=None, max_steps=2))])
def test_nan_inside_a_two_layer_stack_is_a_diverged_run_in_every_evaluation(tmp_path, when, settings):
    out = tmp_path / "run"
    with pytest.raises(TrainingDiverged) as e:
        quiet_train(cfg(out, layers=2, **settings), hook=poison)
    assert str(e.value) == INSIDE.format(out=out), when
    assert saved_step(out) == 0


def test_a_nan_loss_at_a_max_steps_stop_is_a_diverged_run_not_a_saved_checkpoint(tmp_path):
    out = tmp_path / "run"
    with pytest.raises(TrainingDiverged) as e:
        quiet_train(cfg(out, eval_every=None, max_steps=2), hook=poison)
    assert str(e.value) == LOSS.format(value="nan", out=out)
    assert saved_step(out) == 0


def test_an_infinite_loss_at_a_max_steps_stop_is_a_diverged_run(tmp_path, monkeypatch):
    monkeypatch.setattr(Trainer, "_validate", lambda self: {"loss": float("inf"), "acc": 0.5})
    out = tmp_path / "run"
    with pytest.raises(TrainingDiverged) as e:
        quiet_train(cfg(out, eval_every=None, max_steps=2))
    assert str(e.value) == LOSS.format(value="inf", out=out)


def test_another_error_of_an_evaluation_is_not_called_a_divergence(tmp_path, monkeypatch):
    def failing(*args, **kwargs):
        raise ValueError("labels out of range")

    monkeypatch.setattr(train_module, "evaluate", failing)
    with pytest.raises(ValueError, match="^labels out of range$"):
        quiet_train(cfg(tmp_path / "run", eval_every=None, max_steps=2))


@pytest.fixture(scope="module")
def bn_run(tmp_path_factory):
    """A BN-LSTM run after one update: parameters, BatchNorm running statistics and Adam's slots."""
    out = tmp_path_factory.mktemp("v425") / "bn"
    quiet_train(cfg(out, cell="bn-lstm", eval_every=None, max_steps=1))
    return out


def with_value(run, tmp_path, kind, value):
    """A copy of ``run`` whose last array (in name order) of ``kind`` ("param/", ...) ends in ``value``, its
    checksum updated as a save writes it -> (copy, that array's name, the arrays file)."""
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    meta = json.loads((copy / "checkpoint.json").read_text())
    npz = copy / meta["arrays_file"]
    with np.load(npz) as z:
        arrays = {k: z[k] for k in z.files}
    name = sorted(k for k in arrays if k.startswith(kind))[-1]
    arrays[name].flat[-1] = value
    np.savez(npz, **arrays)
    meta["arrays_sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()
    (copy / "checkpoint.json").write_text(json.dumps(meta))
    return copy, name, npz


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("kind", ["param/", "buffer/", "optim/"])
def test_a_checkpoint_array_that_holds_nan_or_infinity_is_refused_by_name(bn_run, tmp_path, kind, value):
    copy, name, npz = with_value(bn_run, tmp_path, kind, value)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(copy)
    assert str(e.value) == (f"array {name} in {npz} holds NaN or infinite values; lnrnn saves no such state, so "
                            "the checkpoint is corrupt.")


def test_the_largest_finite_float32_still_loads(bn_run, tmp_path):
    big = np.finfo(np.float32).max
    copy, name, _ = with_value(bn_run, tmp_path, "param/", -big)
    assert load_checkpoint(copy)[1][name].flat[-1] == -big


def test_lnrnn_eval_of_a_nan_checkpoint_is_one_line(bn_run, tmp_path):
    copy, name, _ = with_value(bn_run, tmp_path, "param/", np.nan)
    assert_clean_error(invoke("eval", "--checkpoint", copy), f"array {name} in ")


@pytest.mark.parametrize("key", ["lr", "lr_decay"])
def test_a_resume_without_the_saved_learning_rate_schedule_is_refused(bn_run, tmp_path, key):
    meta = load_checkpoint(bn_run)[0]
    assert resume_problem(meta) is None
    del meta["train"][key]
    assert resume_problem(meta) == f"train without {key} (the learning-rate schedule every run saves)"
    copy = tmp_path / "copy"
    shutil.copytree(bn_run, copy)
    (copy / "checkpoint.json").write_text(json.dumps(meta))
    assert_clean_error(invoke("train", "--out", copy, "--resume", "--max-steps", 2, "-q"),
                       f"holds train without {key} (the learning-rate schedule every run saves); its checkpoint.json "
                       "is damaged")
