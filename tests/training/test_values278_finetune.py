"""Fine-tuning (lnrnn/training/finetune.py): a source of another --layers refused in its one sentence word for word,
naming --layers and both counts; a BN-LSTM regression source whose head differs only in its tolerance (a metric
setting, not a parameter) loads, and every parameter and BatchNorm running statistic of the new model is then the
source's, compared array by array (and none was before); the record a new run keeps of its source names the run's
--cell ('ln-lstm', from the training settings, not the model config's bare 'lstm') and its task, and reads back as
the docstring's 'PATH (its best checkpoint, update N)'."""
import numpy as np
import pytest

from lnrnn.errors import CheckpointError, UserError
from lnrnn.model.models import SequenceClassifier
from lnrnn.training.finetune import Source, describe_record, load_into

from test_values248_evaluation_finetune import _checkpoint_arrays


def _model(**kw):
    settings = dict(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_classes=4, dtype="float64")
    return SequenceClassifier(**{**settings, **kw})


def test_another_layer_count_refused_word_for_word():
    theirs, ours = _model(num_layers=2), _model(num_layers=1)
    src = Source("runs/deep", {"model": theirs.config}, _checkpoint_arrays(theirs))
    before = {k: v.copy() for k, v in ours.params.items()}
    with pytest.raises(UserError) as e:
        load_into(ours, src)
    assert not isinstance(e.value, CheckpointError)
    assert str(e.value) == ("--init-from runs/deep: its model has --layers 2, this run 1; the shapes must match: "
                            "give --layers 2, or start without --init-from.")
    for k, v in before.items():                                  # nothing loaded
        np.testing.assert_array_equal(ours.params[k], v)


def test_a_source_differing_only_in_tolerance_loads_every_array():
    kw = dict(cell="lstm", norm="bn", num_classes=1, objective="mse")
    theirs, ours = _model(tolerance=0.04, seed=1, **kw), _model(tolerance=0.5, seed=2, **kw)
    rng = np.random.default_rng(7)
    for v in [*theirs.params.values(), *theirs.buffers.values()]:  # every array unlike a fresh model's
        v[...] = rng.uniform(0.5, 1.5, v.shape)
    arrays = {**_checkpoint_arrays(theirs), **{"buffer/" + k: v.copy() for k, v in theirs.buffers.items()}}
    assert theirs.buffers and all(not np.array_equal(ours.buffers[k], v) for k, v in theirs.buffers.items())
    assert all(not np.array_equal(ours.params[k], v) for k, v in theirs.params.items())
    load_into(ours, Source("runs/reg", {"model": theirs.config}, arrays))
    assert ours.params.keys() == theirs.params.keys() and ours.buffers.keys() == theirs.buffers.keys()
    for k, v in theirs.params.items():
        np.testing.assert_array_equal(ours.params[k], v, err_msg=k)
    for k, v in theirs.buffers.items():
        np.testing.assert_array_equal(ours.buffers[k], v, err_msg=k)
    assert ours.config["head"]["tolerance"] == 0.5                # the run keeps its own metric setting


@pytest.mark.parametrize("best,text", [(True, "runs/a/best (its best checkpoint, update 1800)"),
                                       (False, "runs/a/best (update 1800)")])
def test_the_record_names_the_runs_cell_and_task(best, text):
    meta = {"step": 1800, "best": best, "train": {"cell": "ln-lstm", "task": "digits"},
            "model": {"cell": "lstm", "norm": "ln"}, "task": {"task": "digits-binary"}}
    record = Source("runs/a/best", meta, {}).record
    assert record == {"path": "runs/a/best", "step": 1800, "best": best, "cell": "ln-lstm", "task": "digits-binary"}
    assert describe_record(record) == text
