"""lnrnn/backend.py: kernels() without a device is the CPU namespace, the one sentence for an unusable CUDA tells the
user to take the CPU, and the window's column helpers are bound to the functions of their own names."""
import numpy as np
import pytest

from lnrnn import backend
from lnrnn.kernels import lstm, window


def test_no_device_is_the_cpu():
    k = backend.kernels()
    assert k.device == "cpu" and k is backend.kernels("cpu") and k.lstm_forward is lstm.lstm_forward


def test_an_unusable_cuda_points_to_the_cpu(monkeypatch):
    monkeypatch.setattr(backend, "cuda_usable", lambda: (False, "no NVIDIA GPU with a working CUDA driver was found"))
    for call in (backend.require_cuda, lambda: backend.check_device("cuda"), lambda: backend.kernels("cuda")):
        with pytest.raises(backend.CudaUnavailable) as e:
            call()
        msg = str(e.value)
        assert "no NVIDIA GPU" in msg and "use --device cpu (device='cpu') instead." in msg and "--device cuda" not in msg


def test_column_helpers_do_what_their_names_say():
    k = backend.kernels("cpu")
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 3, 2)), rng.standard_normal((2, 3, 4))
    joined = k.join_columns([a, b])
    assert joined.shape == (2, 3, 6)
    np.testing.assert_array_equal(joined[:, :, :2], a)
    np.testing.assert_array_equal(joined[:, :, 2:], b)
    np.testing.assert_array_equal(k.take_columns(joined, 2, 6), b)
    np.testing.assert_array_equal(k.take_columns(joined, 0, 2, add=a), 2 * a)
    assert k.join_columns is window.join_columns and k.take_columns is window.take_columns
