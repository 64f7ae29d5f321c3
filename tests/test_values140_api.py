"""The Python API (lnrnn/api.py) without a trained run: Run's train_config, block_rows and describe() on a Run
built here from a description written here; StepPredictions.probability against a loop over the steps;
require_reader's alphabet and scale from the run's text record (and the checkpoint's corruption when the alphabet
does not fit the CTC classes); _head_words for both kinds of head; and the one-sentence messages of sample_run's
checks (count, a negative seed: 0 is allowed) and of fit()'s option check, whose list is TrainConfig's fields
less the ones fit fixes, as its docstring says, and which writes nothing."""
import dataclasses
from types import SimpleNamespace

import numpy as np
import pytest

import lnrnn
from lnrnn.api import Run, StepPredictions, _head_words, require_reader
from lnrnn.errors import CheckpointError, UserError
from lnrnn.training.runconfig import TrainConfig

# what fit() chooses itself (its own arguments or the npz task's): never a train option of the caller
FIXED_BY_FIT = {"task", "data_dir", "charset", "allow_pickle", "steps", "out", "cell", "objective"}


def _run(meta, norm="ln", cell="lstm", hidden=5, layers=2, head=None):
    config = {"norm": norm, "cell": cell, "hidden_size": hidden, "num_layers": layers}
    return Run("runs/x", meta, SimpleNamespace(config=config, head=head))


def test_train_config_is_the_train_record_and_block_rows_its_setting():
    train = {"block_rows": 7, "cell": "bn-lstm", "eval_batch_size": 11}
    run = _run({"task": {"task": "adding", "block_rows": 3}, "train": train, "step": 4, "epoch": 2})
    assert run.train_config == train
    assert run.task_spec == {"task": "adding", "block_rows": 3}
    assert run.block_rows == 7
    assert run.describe() == "bn-lstm (hidden 5, 2 layers) after 2 finished epochs, 4 updates"


def test_describe_names_norm_then_cell_when_the_settings_do_not():
    run = _run({"task": {"task": "adding"}, "step": 1, "epoch": 1}, norm="ln", cell="lstm", hidden=3, layers=1)
    assert run.describe() == "ln-lstm (hidden 3, 1 layer) after 1 finished epoch, 1 update"
    assert repr(run) == f"Run('runs/x': {run.describe()})"
    plain = _run({"task": {"task": "adding"}, "step": 2, "epoch": 0}, norm="none", cell="rnn", hidden=3, layers=1)
    assert plain.describe() == "rnn (hidden 3, 1 layer) after 0 finished epochs, 2 updates"


def test_step_probability_is_that_of_each_steps_class():
    rng = np.random.default_rng(0)
    N, T, C = 3, 5, 4  # T > C: an index taken along the steps would still be in range
    p = rng.random((N, T, C))
    p /= p.sum(-1, keepdims=True)
    classes = rng.integers(0, C, (N, T))
    lengths = np.array([5, 2, 4])
    for n in range(N):
        classes[n, lengths[n]:] = -1
    got = StepPredictions(classes, p, lengths).probability
    for n in range(N):
        for t in range(T):
            if t < lengths[n]:
                assert got[n, t] == p[n, t, classes[n, t]]
            else:
                assert np.isnan(got[n, t])


def _reader(alphabet, O, scale=2.5):
    head = SimpleNamespace(kind="ctc", scale=scale, O=O)
    return _run({"task": {"task": "strokes-hershey"}, "text": {"alphabet": alphabet}}, head=head)


def test_require_reader_reads_the_alphabet_of_the_text_record():
    assert require_reader(_reader("abc ", 5)) == ("abc ", 2.5)  # C = 4 characters + the blank
    with pytest.raises(CheckpointError, match="has 4 CTC classes but an alphabet of 4 characters"):
        require_reader(_reader("abc ", 4))
    with pytest.raises(UserError, match="is not a handwriting reader"):
        require_reader(_reader("abc ", 5, scale=None))


def test_head_words():
    assert _head_words({"kind": "softmax", "outputs": 10}) == "softmax head with 10 outputs"
    assert _head_words({"kind": "mdn", "components": 20}) == "mdn head with 20 components"


def test_sample_run_messages_name_the_argument_and_its_least_value():
    with pytest.raises(UserError, match=r"^count must be at least 1, not 0\.$"):
        lnrnn.sample_run("no-such-run", steps=5, count=0)
    with pytest.raises(UserError, match=r"^steps must be at least 1, not 0\.$"):
        lnrnn.sample_run("no-such-run", steps=0, count=2)
    with pytest.raises(UserError, match=r"^seed must be a whole number of at least 0, not -1\.$"):
        lnrnn.sample_run("no-such-run", seed=-1)


@pytest.mark.parametrize("name", sorted(FIXED_BY_FIT - {"out", "cell", "objective"}) + ["bogus"])
def test_fit_refuses_what_it_fixes_and_lists_the_rest(tmp_path, name):
    x, y = np.zeros((4, 3, 2), np.float32), np.array([0, 1, 0, 1])
    out = tmp_path / "run"
    with pytest.raises(UserError) as e:
        lnrnn.fit(x, y, out=str(out), **{name: 3})
    msg = str(e.value)
    assert msg.startswith(f"fit() takes no training option {name!r}; the options are: ")
    listed = msg.split("the options are: ")[1].rstrip(".").split(", ")
    assert listed == sorted({f.name for f in dataclasses.fields(TrainConfig)} - FIXED_BY_FIT)
    assert not out.exists()
