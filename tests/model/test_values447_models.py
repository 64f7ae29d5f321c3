"""lnrnn/model/models.py's SequenceClassifier called with no arguments is lnrnn 0.1's pixel-by-pixel classifier, by
its documented defaults: one LSTM layer without normalization of 64 units over one input a step (a pixel), a
classifier of 10 classes on the last step with the cross-entropy objective, float32, forget bias 1, seed 0. Its
parameters are, name for name and bit for bit, those of build_model given those settings, its parameter count
is worked out by hand, and it scores a (T, B, 1) batch of pixels, labels 0..9."""
import numpy as np

from lnrnn.model.models import SequenceClassifier, build_model, head_config

I, H, C = 1, 64, 10


def test_no_arguments_give_the_pixel_classifier():
    model = SequenceClassifier()
    want = build_model(dict(cell="lstm", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float32",
                            forget_bias=1.0, head=head_config("ce", C, False, 0.04)), seed=0)
    assert model.config == want.config
    assert sorted(model.params) == sorted(want.params) == ["head.W", "head.b", "rnn.l0.Wh", "rnn.l0.Wx", "rnn.l0.b"]
    for name, a in model.params.items():
        assert a.dtype == np.float32, name
        np.testing.assert_array_equal(a, want.params[name], err_msg=name)
    assert model.num_params() == (I + H + 1) * 4 * H + (H + 1) * C
    np.testing.assert_array_equal(model.params["rnn.l0.b"][H:2 * H], 1.0)     # the forget block
    rng = np.random.default_rng(447)
    x = rng.random((5, 3, I)).astype(np.float32)                               # (T, B, 1): a pixel a step
    sums, count = model.loss_sums(x, np.array([0, 4, 9]))
    assert count == 3 and sums["seqs"] == 3.0 and np.isfinite(sums["loss"])
    assert model.last_outputs(x).shape == (3, H)
