"""lnrnn/model/models.py's state-noise check: a standard deviation that is infinite, NaN or negative is
refused when the model is built (an infinite one would start every batch from infinite states); 0 and a
finite positive one are taken, and the noise drawn has that standard deviation."""
import numpy as np
import pytest

from lnrnn.model.models import build_model, head_config


def _config(noise):
    return dict(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_layers=1, dtype="float64",
                forget_bias=1.0, head=head_config("ce", 2), state_noise=noise)


@pytest.mark.parametrize("noise", [float("inf"), float("nan"), -0.1])
def test_a_state_noise_that_is_not_a_standard_deviation_is_refused(noise):
    with pytest.raises(ValueError, match="state_noise must be a non-negative standard deviation"):
        build_model(_config(noise))


def test_zero_and_a_finite_noise_are_taken():
    assert build_model(_config(0.0)).state_noise == 0.0
    m = build_model(_config(0.5), seed=3)
    states = m.noise_state(4000, (1, 0))
    h0 = np.asarray(states[0][0])
    assert np.isfinite(h0).all() and abs(h0.std() - 0.5) < 0.02
