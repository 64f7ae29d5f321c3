"""Evaluation and fine-tuning (lnrnn/training/evaluation.py, lnrnn/training/finetune.py) against values written
out by hand: evaluate's defaults read the validation split in one batch, and batches of 3, 3 and 1 rows give the
mean over the rows, weighted by counts, that NumPy takes over the whole split; a checkpoint whose model cannot be
rebuilt refused in its sentence word for word, the missing key quoted as str(KeyError) quotes it; --init-from's
refusals word for word (an unknown pretrained name with the shipped names listed, a checkpoint naming training
settings but a name for its model config, settings of another shape with on/off for booleans, arrays of another name or shape with
the names and shapes worked out from the cell's four gates); settings that match are accepted, and a source of the
version 0.1 model config (the head's fields beside the stack's) loads every parameter."""
import numpy as np
import pytest

from lnrnn.errors import CheckpointError, UserError
from lnrnn.training.checkpoint import save_checkpoint
from lnrnn.training.evaluation import evaluate, model_from_run
from lnrnn.training.finetune import Source, check_settings, load_into, read_source

from test_values180_setup_finetune import _save
from test_values185_evaluation import Model, Task
from test_values278_finetune import _model
from test_values248_evaluation_finetune import _checkpoint_arrays


# ---- evaluate ----
def test_evaluate_by_default_reads_the_validation_split_in_one_batch():
    task = Task()                                   # 13 training rows, 7 validation rows
    got = evaluate(Model(), task)
    x, y = task.x["val"], task.y["val"]
    assert got["rows"] == 7
    assert got["loss"] == pytest.approx(np.mean((x.sum(axis=1) - y) ** 2), rel=1e-12)
    assert task.seen == [[0, 1, 2, 3, 4, 5, 6]]     # batch_size 500: one batch


def test_batches_of_three_three_and_one_weighted_by_their_counts():
    task = Task()
    got = evaluate(Model(), task, "val", batch_size=3)
    x, y = task.x["val"], task.y["val"]
    err = (x.sum(axis=1) - y) ** 2
    by_hand = (err[0:3].sum() + err[3:6].sum() + err[6:7].sum()) / (3 + 3 + 1)
    unweighted = (err[0:3].mean() + err[3:6].mean() + err[6:7].mean()) / 3
    assert abs(by_hand - unweighted) > 1e-3                 # a mean of batch means would differ
    assert got["loss"] == pytest.approx(by_hand, rel=1e-12)
    assert task.seen == [[0, 1, 2], [3, 4, 5], [6]]


# ---- a model rebuilt from a checkpoint ----
def test_a_checkpoint_without_the_hidden_size_is_refused_quoting_the_key(tmp_path):
    model = _model()
    config = {k: v for k, v in model.config.items() if k != "hidden_size"}
    out = str(tmp_path / "run")
    save_checkpoint(out, _checkpoint_arrays(model), {"model": config, "train": {"seed": 3}, "step": 5})
    with pytest.raises(CheckpointError) as e:
        model_from_run(out)
    assert str(e.value) == f"checkpoint {out} does not describe a model lnrnn can rebuild ('hidden_size')."


def test_a_checkpoint_with_an_unknown_setting_is_refused_naming_it(tmp_path):
    model = _model()
    out = str(tmp_path / "run")
    save_checkpoint(out, _checkpoint_arrays(model), {"model": {**model.config, "colour": "red"}, "step": 5})
    with pytest.raises(CheckpointError) as e:
        model_from_run(out)
    assert str(e.value) == (f"checkpoint {out} does not describe a model lnrnn can rebuild "
                            "(unknown model settings ['colour']).")


# ---- --init-from: the source ----
def test_an_unknown_pretrained_name_is_refused_listing_the_shipped_ones():
    with pytest.raises(CheckpointError) as e:
        read_source("pretrained:hershee")
    assert str(e.value) == ("--init-from pretrained:hershee: no pretrained run 'hershee'; the package ships: "
                            "hershey, hershey-reader.")


def test_a_checkpoint_with_training_settings_but_no_model_config_is_refused(tmp_path):
    out = str(tmp_path / "run")
    _save(out, model="ln-lstm")                     # a name where the model's config belongs
    before = sorted(p.name for p in (tmp_path / "run").iterdir())
    with pytest.raises(CheckpointError) as e:
        read_source(out)
    assert str(e.value) == (f"--init-from {out}: checkpoint description {out}/checkpoint.json holds its model field "
                            "in a form lnrnn does not write; it is corrupt.")   # load_checkpoint's own check
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == before


class _Cfg:
    def __init__(self, **kw):
        self.__dict__.update(dict(cell="ln-lstm", hidden=300, layers=2, bidirectional=False, dtype="float32"), **kw)


def _source_of_settings():
    train = dict(cell="ln-lstm", hidden=300, layers=2, bidirectional=False, dtype="float32", task="digits")
    model = {"cell": "lstm", "norm": "ln", "hidden_size": 300, "num_layers": 2, "dtype": "float32"}
    return Source("runs/a", {"train": train, "model": model}, {})


def test_settings_of_the_same_shape_are_accepted():
    assert check_settings(_source_of_settings(), _Cfg()) is None
    assert check_settings(_source_of_settings(), _Cfg(lr=0.5, epochs=3)) is None  # not shape settings


@pytest.mark.parametrize("kw,text", [
    (dict(hidden=64), "--hidden 300, this run 64; the shapes must match: give --hidden 300"),
    (dict(layers=1), "--layers 2, this run 1; the shapes must match: give --layers 2"),
    (dict(bidirectional=True), "--bidirectional off, this run on; the shapes must match: give --bidirectional off"),
    (dict(cell="bn-lstm"), "--cell ln-lstm, this run bn-lstm; the shapes must match: give --cell ln-lstm"),
])
def test_settings_of_another_shape_are_refused_word_for_word(kw, text):
    with pytest.raises(UserError) as e:
        check_settings(_source_of_settings(), _Cfg(**kw))
    assert str(e.value) == f"--init-from runs/a: its model has {text}, or start without --init-from."


# ---- --init-from: the arrays ----
def test_arrays_of_another_name_are_refused_naming_it():
    theirs, ours = _model(seed=1), _model(seed=2)
    arrays = {**_checkpoint_arrays(theirs), "param/extra": np.zeros(2)}
    before = {k: v.copy() for k, v in ours.params.items()}
    with pytest.raises(CheckpointError) as e:
        load_into(ours, Source("runs/x", {"model": theirs.config}, arrays))
    assert str(e.value) == "--init-from runs/x: its arrays do not fit this model (array names differ: ['extra'])."
    for k, v in before.items():
        np.testing.assert_array_equal(ours.params[k], v)


def test_arrays_of_another_shape_are_refused_with_both_shapes():
    theirs, ours = _model(seed=1), _model(seed=2)                 # LSTM, 2 inputs, hidden 3: 4 gates of 3
    arrays = _checkpoint_arrays(theirs)
    arrays["param/rnn.l0.Wh"] = np.zeros((12, 3))                # (H, 4H) transposed
    with pytest.raises(CheckpointError) as e:
        load_into(ours, Source("runs/x", {"model": theirs.config}, arrays))
    assert str(e.value) == ("--init-from runs/x: its arrays do not fit this model "
                            "(rnn.l0.Wh: shape (12, 3) vs (3, 12)).")


def test_a_version_0_1_model_config_loads_every_parameter():
    theirs, ours = _model(seed=1), _model(seed=2)
    rng = np.random.default_rng(3)
    for v in theirs.params.values():
        v[...] = rng.uniform(-1, 1, v.shape)
    old = {k: v for k, v in theirs.config.items() if k not in ("head", "state_noise")}
    old.update(num_classes=4, objective="ce", per_step=False, tolerance=0.04)   # 0.1: the head's fields beside
    load_into(ours, Source("runs/old", {"model": old}, _checkpoint_arrays(theirs)))
    assert sorted(ours.params) == ["head.W", "head.b", "rnn.l0.Wh", "rnn.l0.Wx", "rnn.l0.b", "rnn.l0.bc",
                                   "rnn.l0.bh", "rnn.l0.bx", "rnn.l0.gc", "rnn.l0.gh", "rnn.l0.gx"]
    for k, v in theirs.params.items():
        np.testing.assert_array_equal(ours.params[k], v, err_msg=k)
