"""The inference forward (keep=False, ``tests/model/test_infer_path.py``) on device='cuda' (the simulator in
CI): the CUDA infer twins are called (the full forward for a masked LSTM), y and the final states
equal that device's keep=True forward and the CPU's to float rounding, nothing is kept
for a backward, and the model's device-resident evaluation (a last-step head) goes through them."""
import numpy as np
import pytest

from lnrnn import backend
from test_infer_path import B, LENGTHS, assert_same, count_kernels, make_model, stack_and_data

ok, why = backend.cuda_usable()
pytestmark = pytest.mark.skipif(not ok, reason=f"CUDA not usable: {why}")

if ok:  # small launch geometry and the simulator's race-free shared arrays, as for the kernel tests
    from test_cuda_kernels import small_blocks  # noqa: F401  (autouse fixture)


@pytest.mark.parametrize("masked", [False, True], ids=["full", "masked"])
@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("rnn", "none")])
def test_cuda_infer_forward_equals_cpu(cell, norm, masked, monkeypatch):
    calls = count_kernels(monkeypatch)
    lengths = LENGTHS if masked else None
    kernel = "lstm_forward" if masked and cell == "lstm" else f"{cell}_infer"
    out = {}
    for device in ("cpu", "cuda"):
        s, x, state = stack_and_data(cell, norm, device=device)
        want = s.forward(x, state, training=False, lengths=lengths)
        calls.clear()
        out[device] = s.forward(x, state, training=False, lengths=lengths, keep=False)
        assert calls == {kernel: 2}
        assert_same(want, out[device])
        assert all(layer._saved is None for layer in s.layers)
        with pytest.raises(RuntimeError, match="keep=False"):
            s.backward(np.zeros_like(want[0]))
    assert np.allclose(out["cpu"][0], out["cuda"][0], atol=1e-12)
    for a, b in zip(out["cpu"][1], out["cuda"][1]):
        for u, v in zip(a, b):
            assert np.allclose(u, v, atol=1e-12)
    sums = {}
    for device in ("cpu", "cuda"):
        m = make_model(cell, norm, per_step=False, device=device)
        calls.clear()
        sums[device], _ = m.loss_sums(x, np.zeros(B, np.int64), lengths)
        assert set(calls) == {kernel}
    for k in sums["cpu"]:
        assert sums["cuda"][k] == pytest.approx(sums["cpu"][k], rel=1e-11, abs=1e-11), k
