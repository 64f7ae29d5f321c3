"""The finite-difference check a caller gets with nothing but a cell and a norm (lnrnn/gradcheck.py: check_model's
defaults, as its signature and docstring give them): a float64 model of 2 layers, 3 inputs and 4 hidden units, a
classifier of 3 classes on the last step (not every step), no skip connections, no window, one direction, over 5
steps of a batch of 3 full rows (no lengths); and every parameter of both layers and the head is checked."""
import numpy as np
import pytest

import lnrnn.model.models
from lnrnn.gradcheck import check_model


@pytest.mark.parametrize("cell, norm", [("lstm", "ln"), ("rnn", "none")])
def test_defaults_are_a_two_layer_last_step_classifier(monkeypatch, cell, norm):
    built, calls = [], []
    real = lnrnn.model.models.build_model

    def recording(config, **kw):
        model = real(config, **kw)
        inner = model.loss_and_grad

        def loss_and_grad(x, targets, lengths=None, text=None):
            calls.append((np.shape(x), np.asarray(targets).copy(), lengths, text))
            return inner(x, targets, lengths, text=text)

        model.loss_and_grad = loss_and_grad
        built.append((dict(config), kw))
        return model

    monkeypatch.setattr(lnrnn.model.models, "build_model", recording)
    results = check_model(cell, norm)
    (config, kw), = built
    assert config == dict(cell=cell, norm=norm, input_size=3, hidden_size=4, num_layers=2, dtype="float64",
                          forget_bias=1.0, head={"kind": "classifier", "outputs": 3, "per_step": False}, skip=False)
    assert kw == {"seed": 0, "max_steps": 5}
    assert calls
    for shape, targets, lengths, text in calls:
        assert shape == (5, 3, 3)
        assert targets.shape == (3,) and set(targets.tolist()) <= {0, 1, 2}   # one class a row: the last step
        assert lengths is None and text is None
    names = [name for name, _ in results]
    assert {n.split(".")[1] for n in names if n.startswith("rnn.")} == {"l0", "l1"}
    assert any(n.startswith("head.") for n in names)
    assert all(err < 1e-5 for _, err in results), results
