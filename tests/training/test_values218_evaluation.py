"""lnrnn/training/evaluation.py on lines earlier value tests leave alone: format_metrics' long form with a loss
label writes the loss once, under the label's name and unit, then each further metric by METRIC_INFO's label
(percent metrics times 100); model_from_run turns a checkpoint whose model description lacks a field (a KeyError
while rebuilding) into a CheckpointError naming the checkpoint."""
import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.model.heads import METRIC_INFO
from lnrnn.training import evaluation
from lnrnn.training.checkpoint import save_checkpoint


def test_long_form_writes_the_loss_once():
    label, percent = METRIC_INFO["acc"]
    assert percent
    acc = label.replace(" (%)", "") + " " + "%.2f" % (100 * 0.25) + "%"
    got = evaluation.format_metrics({"loss": 1.5, "acc": 0.25}, long=True, loss_label="nll (nats)")
    assert got == "nll 1.5000 nats, " + acc
    assert evaluation.format_metrics({"loss": 0.125}, long=True, loss_label="bits") == "bits 0.1250"


def test_model_without_a_field_is_a_checkpoint_error(tmp_path):
    save_checkpoint(str(tmp_path), {"param/x": np.zeros(2)}, {"train": {"seed": 1}, "model": {"cell": "lstm"}})
    with pytest.raises(CheckpointError) as e:
        evaluation.model_from_run(tmp_path)
    assert str(e.value).startswith(f"checkpoint {tmp_path} does not describe a model lnrnn can rebuild (")
