"""lnrnn/training/update.py on stand-ins (tests/training/test_values289_update.py's device trainer, no accelerator
needed): one device update hands the model the step's noise key, the batch's lengths, the run's --tbptt and the
text as given; its sums count the sequences with a step (lengths 3, 0, 5: 2); a layer's NaN or infinite refusal
is a diverged run named by where it came from with the words "NaN or infinite", and the data's fault, word for
word, when the batch itself holds a NaN."""
import numpy as np
import pytest

from lnrnn.errors import DataError
from lnrnn.training.update import DeviceUpdate, nonfinite
from test_values289_update import Diverged, device_trainer


def test_one_device_update_passes_lengths_tbptt_and_text_through(monkeypatch):
    t, calls = device_trainer(monkeypatch, [2.4, 1.0], 0.5, count=8)
    t.cfg.tbptt = 7
    lengths = np.array([3, 0, 5])
    DeviceUpdate(t)(np.zeros((5, 3, 1)), None, lengths, text="abc")
    assert calls.kw["noise_key"] == 5 and calls.kw["tbptt"] == 7 and calls.kw["text"] == "abc"
    assert calls.kw["lengths"] is lengths
    assert t.model.last_sums == {"loss": 2.4, "acc": 1.0, "seqs": 2.0}
    assert calls.blown == [pytest.approx(0.3, rel=1e-12)]      # 2.4 / 8


@pytest.mark.parametrize("message, where", [("h: NaN or infinite values at step 2", "recurrent activations"),
                                            ("dy: NaN or infinite values", "gradient from the head")])
def test_a_layers_nonfinite_refusal_is_a_diverged_run_named_by_its_source(monkeypatch, message, where):
    t, _ = device_trainer(monkeypatch, [1.0, 1.0], 0.5)
    with pytest.raises(Diverged) as e:
        nonfinite(t, ValueError(message), np.zeros((2, 2, 1)))
    assert e.value.args == (where, "NaN or infinite")


def test_a_nan_in_the_batch_is_the_datas_fault_word_for_word(monkeypatch):
    t, _ = device_trainer(monkeypatch, [1.0, 1.0], 0.5)
    t.batch_in_epoch, t.epoch = 11, 2
    x = np.zeros((2, 2, 1))
    x[1, 0, 0] = np.nan
    with pytest.raises(DataError) as e:
        nonfinite(t, ValueError("h: NaN or infinite values"), x)
    assert str(e.value) == ("the training data of npz hold NaN or infinite values (batch 12 of epoch 3); "
                            "fix the data.")
