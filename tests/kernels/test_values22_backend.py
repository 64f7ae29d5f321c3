"""lnrnn/backend.py: every op of a device's namespace is the function of its own name in that device's twin module,
and the infer ops of the plain and LN cells give the NumPy reference's output and final state (two results, no
saved tuple) on both devices (the CUDA one under the simulator)."""
import numpy as np
import pytest

from lnrnn import backend
from lnrnn import reference as ref
from lnrnn.kernels.codes import NORM_LN, NORM_NONE

DEVICES = ["cpu"] + (["cuda"] if backend.cuda_usable()[0] else [])


def test_every_op_is_its_own_name():
    import importlib
    for device in DEVICES:
        k = backend.kernels(device)
        for op in backend.OPS:
            fn = getattr(k, op)
            assert fn.__name__ == op, (device, op, fn.__name__)
            stem = importlib.import_module(fn.__module__).__name__.rsplit(".", 1)[1]
            assert stem.removesuffix("_cuda") in ("layernorm", "batchnorm", "lstm", "rnn", "bn_lstm", "bn_rnn",
                                                  "window"), (device, op, fn.__module__)
            assert stem.endswith("_cuda") == (device == "cuda"), (device, op, fn.__module__)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_infer_ops_give_the_reference_output_and_final_state(device, norm):
    k = backend.kernels(device)
    rng = np.random.default_rng(2261)
    T, B, I, H = 3, 2, 2, 3
    x, h0, c0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H)), rng.standard_normal((B, H))
    code = NORM_LN if norm == "ln" else NORM_NONE
    Wx, Wh, b, g = (0.5 * rng.standard_normal(s) for s in ((I, H), (H, H), (H,), (H,)))
    g += 1.0
    out = k.rnn_infer(x, h0, Wx, Wh, b, g, code, 1e-5, 1)
    assert len(out) == 2
    y_r, hT_r, _ = ref.rnn_forward(x, h0, Wx, Wh, b, g, norm, 1e-5)
    for got, want in zip(out, (y_r, hT_r)):
        np.testing.assert_allclose(k.to_host(got), want, atol=1e-12)
    G = 4 * H
    LW = [0.5 * rng.standard_normal(s) for s in ((I, G), (H, G), (G,))]
    gains = [1.0 + 0.1 * rng.standard_normal(s) if n % 2 == 0 else 0.1 * rng.standard_normal(s)
             for n, s in enumerate(((G,), (G,), (G,), (G,), (H,), (H,)))]
    out = k.lstm_infer(x, h0, c0, *LW, *gains, code, 1e-5, 1)
    assert len(out) == 3
    y_r, hT_r, cT_r, _ = ref.lstm_forward(x, h0, c0, *LW, *gains, norm, 1e-5)
    for got, want in zip(out, (y_r, hT_r, cT_r)):
        np.testing.assert_allclose(k.to_host(got), want, atol=1e-12)
