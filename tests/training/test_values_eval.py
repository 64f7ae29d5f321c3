"""Evaluation reproduces a run's own figures, value for value: a checkpoint rebuilt for ``lnrnn eval``,
``evaluate_run`` and ``predict`` draws the BatchNorm cells' initial-state noise from the run's own seed,
so the last validation loss in metrics.jsonl is the one evaluate_run computes (bit for bit), predict's
accuracy is the logged accuracy, and ``lnrnn eval --json`` prints the same numbers. A BN-LSTM with
state noise and seed 1 (seed 0 would hide a rebuild with seed 0)."""
import json
import os

import numpy as np
import pytest
from click.testing import CliRunner

from lnrnn.api import evaluate_run, load_run, predict
from lnrnn.training.rundir import METRICS_FILE, read_jsonl

BASE = dict(task="digits", split="64/40", hidden=6, batch_size=16, epochs=1, lr=1e-2, dtype="float64")


@pytest.fixture(scope="module")
def bn_run(tmp_path_factory):
    from lnrnn.training.runconfig import TrainConfig
    from lnrnn.training.train import train
    out = str(tmp_path_factory.mktemp("bn") / "run")
    trainer = train(TrainConfig(**BASE, cell="bn-lstm", seed=1, out=out), quiet=True, log=lambda m: None)
    assert trainer.model.state_noise > 0  # the digits' blank first rows: BN cells get noise by default
    last = read_jsonl(os.path.join(out, METRICS_FILE))[-1]
    return out, last


def test_evaluate_run_reproduces_the_logged_validation_figures_bit_for_bit(bn_run):
    out, last = bn_run
    res = evaluate_run(out)
    assert res.metrics["loss"] == last["val_loss"]
    assert res.metrics["acc"] == last["val_acc"]


def test_evaluate_run_batches_as_the_run_did(tmp_path):
    """A BN run with its own --eval-batch-size (13, not the task's default): the noise is drawn per batch,
    so evaluate_run reproduces the logged figures only when it batches as the run did."""
    from lnrnn.training.runconfig import TrainConfig
    from lnrnn.training.train import train
    out = str(tmp_path / "run")
    train(TrainConfig(**BASE, cell="bn-rnn", seed=2, eval_batch_size=13, out=out), quiet=True, log=lambda m: None)
    last = read_jsonl(os.path.join(out, METRICS_FILE))[-1]
    assert evaluate_run(out).metrics["loss"] == last["val_loss"]


def test_the_rebuilt_model_draws_the_noise_of_the_run_seed(bn_run):
    out, _ = bn_run
    run = load_run(out)
    assert run.model.noise_seed == run.train_config["seed"] == 1


def test_predict_agrees_with_the_logged_accuracy(bn_run):
    """predict's classes over the validation set (batched as evaluation batches them) score the logged
    val_acc: the same initial states and population statistics."""
    out, last = bn_run
    res = evaluate_run(out)
    task = res.task
    n = task.size("val")
    from lnrnn.config import task_defaults
    bs = task_defaults("digits")["eval_batch_size"]
    x, y = task.batch("val", np.arange(n), np.float64)[:2]                  # x (T,N,I), y (N,)
    p = predict(out, np.transpose(x, (1, 0, 2)), batch_size=bs)
    assert np.mean(p.classes == np.asarray(y)) == pytest.approx(last["val_acc"], abs=1e-12)


def test_eval_command_prints_the_logged_figures(bn_run):
    from lnrnn.cli import main
    out, last = bn_run
    r = CliRunner().invoke(main, ["eval", "--checkpoint", out, "--json"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.output)
    assert got["loss"] == last["val_loss"] and got["acc"] == last["val_acc"]


def test_predict_in_several_batches_scores_what_evaluate_scores(bn_run):
    """Batches of 16 (three, the last short): predict's accuracy equals evaluate's with the same batch
    size, batch i drawing its own initial states in both."""
    from lnrnn.predict_io import softmax
    from lnrnn.training.evaluation import evaluate
    out, _ = bn_run
    run = load_run(out)
    task = evaluate_run(run).task
    x, y = task.batch("val", np.arange(task.size("val")), np.float64)[:2]
    p = predict(run, np.transpose(x, (1, 0, 2)), batch_size=16)
    want = evaluate(run.model, task, "val", batch_size=16)["acc"]
    assert np.mean(p.classes == np.asarray(y)) == pytest.approx(want, abs=1e-12)
    m = run.model
    for i, s in enumerate(range(0, len(y), 16)):      # evaluate's forward of batch i, from its own noise
        xb = np.ascontiguousarray(x[:, s:s + 16])
        h, _ = m.stack.forward(xb, m.noise_state(xb.shape[1], (2, i)), training=False, keep=False)
        want_p = softmax(m.head.linear(h[-1]).astype(np.float64))
        # the noise's effect after 64 steps is ~1e-12 of the probabilities: same kernels, compared exactly
        np.testing.assert_array_equal(p.probabilities[s:s + 16], want_p)
