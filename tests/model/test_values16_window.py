"""lnrnn/model/window.py's stop-rule weight and sampling steps, in float64: ``step_end`` after the first
step (whose window input is zero, so layer 1 does not depend on the text yet) is phi(0, ulen + 1), the
window's own weight on one more character, read from ``step_phi`` of the same text made one longer, a text
of length 0 included; steps t = 0, 1, 2 of a BatchNorm synthesis stack read the population statistics of
step t, so they equal one inference forward over the three steps."""
import numpy as np
import pytest

from lnrnn.model.models import build_model

I, H, C, K = 3, 4, 5, 2


def _model(norm="ln", T=1):
    return build_model(dict(cell="lstm", norm=norm, input_size=I, hidden_size=H, num_layers=2, dtype="float64",
                            forget_bias=1.0, window=K, alphabet_size=C,
                            head={"kind": "mdn", "components": 2, "per_step": True}), seed=3, max_steps=T)


@pytest.mark.parametrize("ulen", [[0, 2], [3, 1]])
def test_step_end_is_phi_of_the_character_just_past_the_text(ulen):
    s = _model().stack
    rng = np.random.default_rng(0)
    ulen = np.array(ulen)
    B, U = len(ulen), int(ulen.max()) + 1
    codes = rng.integers(1, C, (B, U))
    x = rng.normal(size=(B, I))
    s.step(x, None, t=0, text=(codes, ulen))
    end = np.array(s.step_end, np.float64)
    s.step(x, None, t=0, text=(codes, ulen + 1))                  # one character more: u = ulen + 1 is in the text
    want = np.array([s.step_phi[b, ulen[b]] for b in range(B)])
    np.testing.assert_allclose(end, want, rtol=1e-10, atol=1e-14)
    assert np.all(want > 0)


def test_batchnorm_steps_read_their_own_steps_statistics():
    T, B = 3, 2
    m = _model("bn", T)
    s = m.stack
    rng = np.random.default_rng(1)
    for layer in s.layers:
        layer._grow_buffers(T)
        for n, a in layer.buffers.items():
            a[...] = rng.uniform(0.5, 1.5, a.shape) if n.startswith("rv") else rng.uniform(-0.5, 0.5, a.shape)
    x = rng.normal(size=(T, B, I))
    text = (np.array([[1, 2, 3], [4, 1, 0]]), np.array([3, 2]))
    y, _ = s.forward(x, None, training=False, keep=False, text=text)
    state, steps = None, []
    for t in range(T):
        y_t, state = s.step(x[t], state, t=t, text=text)
        steps.append(np.array(y_t))
    np.testing.assert_allclose(np.stack(steps), y, rtol=1e-10, atol=1e-12)
