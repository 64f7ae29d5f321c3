"""lnrnn/training/evaluation.py: a checkpoint's arrays sorted into the model's (parameters and BN statistics)
and the optimizer's slots, a BN model rebuilt with its statistics, evaluate over batches that cover every
sequence once, and format_metrics' two forms."""
import numpy as np
import pytest

from lnrnn.data.taskdata import TaskData
from lnrnn.model.models import build_model, head_config
from lnrnn.training.evaluation import evaluate, format_metrics, model_from_checkpoint, split_arrays, task_batch


def _model(cell="lstm", norm="ln", seed=1):
    return build_model(dict(cell=cell, norm=norm, input_size=2, hidden_size=3, num_layers=1, dtype="float64",
                            forget_bias=1.0, head=head_config("ce", 4)), seed=seed, max_steps=6)


def test_split_arrays_sorts_model_and_optimizer_arrays():
    a, b, m, v = (np.full(2, k, float) for k in range(4))
    model, slots = split_arrays({"param/rnn.l0.Wx": a, "buffer/rnn.l0.rmx": b, "optim/m/rnn.l0.Wx": m,
                                 "optim/v/rnn.l0.Wx": v, "other/x": a})
    assert model == {"rnn.l0.Wx": a, "rnn.l0.rmx": b}
    assert slots == {"m": {"rnn.l0.Wx": m}, "v": {"rnn.l0.Wx": v}}


def test_a_bn_model_is_rebuilt_with_its_statistics():
    src = _model("lstm", "bn", seed=3)
    rng = np.random.default_rng(0)
    for k, arr in src.buffers.items():
        arr[...] = rng.uniform(0.5, 1.5, arr.shape) if k.split(".")[-1].startswith("rv") else rng.standard_normal(
            arr.shape)
    arrays = {"param/" + k: v for k, v in src.params.items()}
    arrays.update({"buffer/" + k: v for k, v in src.buffers.items()})
    got = model_from_checkpoint({"model": src.config, "train": {"seed": 3}}, arrays)
    assert got.buffers.keys() == src.buffers.keys()
    for k in src.buffers:
        np.testing.assert_array_equal(got.buffers[k], src.buffers[k])
    fresh = _model("lstm", "bn", seed=3)
    assert any(not np.array_equal(fresh.buffers[k], src.buffers[k]) for k in src.buffers)


def _task(n_val=7, T=6):
    rng = np.random.default_rng(5)
    return TaskData(spec={"task": "test"}, description="test", x_train=rng.standard_normal((4, T, 2)),
                    y_train=rng.integers(0, 4, 4), x_val=rng.standard_normal((n_val, T, 2)),
                    y_val=rng.integers(0, 4, n_val), num_classes=4)


@pytest.mark.parametrize("batch_size", [1, 3, 7, 100])
def test_evaluate_covers_every_sequence_once(batch_size):
    model, task = _model(), _task()
    whole = model.evaluate([task_batch(task, "val", np.arange(7), model.dtype)])     # one batch of all seven
    but_last = model.evaluate([task_batch(task, "val", np.arange(6), model.dtype)])
    assert whole["loss"] != pytest.approx(but_last["loss"], rel=1e-6)
    got = evaluate(model, task, "val", batch_size=batch_size)
    assert got.keys() == whole.keys()
    for k in whole:
        assert got[k] == pytest.approx(whole[k], rel=1e-12), k


def test_format_metrics():
    means = {"loss": 0.41234, "acc": 0.872}
    assert format_metrics(means) == "loss 0.4123 acc 87.20%"
    assert format_metrics(means, long=True) == "loss 0.4123, accuracy 87.20%"
    assert format_metrics(means, long=True, loss_label="cross-entropy loss (nats)") == \
        "cross-entropy loss 0.4123 nats, accuracy 87.20%"
    assert format_metrics({"loss": 2.5, "cer": 0.125}, long=True, loss_label="squared error") == \
        "squared error 2.5000, character error rate 12.50%"
    assert format_metrics({"nats_seq": 12.0}) == "nats_seq 12.0000"
