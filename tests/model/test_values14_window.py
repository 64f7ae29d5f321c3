"""lnrnn/model/window.py: the synthesis stack's dL/dx (x reaches layer 1 and, through the skip
connections, every layer above) against central differences in float64."""
import numpy as np

from lnrnn.model.models import build_model

T, B, I, H, C, K = 3, 2, 3, 4, 5, 2


def test_synthesis_stack_dx_against_central_differences():
    m = build_model(dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=3, dtype="float64",
                         forget_bias=1.0, window=K, alphabet_size=C,
                         head={"kind": "mdn", "components": 2, "per_step": True}), seed=1)
    s = m.stack
    rng = np.random.default_rng(0)
    x = rng.normal(size=(T, B, I))
    R = rng.normal(size=(T, B, 3 * H))
    text = (np.array([[1, 2, 3], [4, 1, 0]]), np.array([3, 2]))

    def loss(a):
        y, _ = s.forward(a, training=True, keep=False, text=text)
        return float((y * R).sum())

    s.forward(x, training=True, text=text)
    dx = s.backward(R)
    num = np.zeros_like(x)
    eps = 1e-6
    for i in np.ndindex(x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += eps
        xm[i] -= eps
        num[i] = (loss(xp) - loss(xm)) / (2 * eps)
    np.testing.assert_allclose(dx, num, rtol=1e-5, atol=1e-7)
