"""lnrnn/config.py's CUDA time-loop defaults as shipped: where no library serves CUDA graphs (Numba's simulator
here: graphs_cuda.provider() is None under "auto"), the LSTM and RNN twins run their sequence kernels (one block per
batch row runs every step, config.CUDA_SEQUENCE_KERNELS on, CUDA_LOOP_PATH "auto"), for a few steps and for a
long sequence alike, in float64 and float32 at a width whose shared arrays fit; the per-step launches only once
the sequence kernels are switched off. The tests elsewhere set the switch both ways; this one reads the default.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402
from lnrnn.kernels.cuda.cuda_env import simulator_enabled  # noqa: E402
from lnrnn.kernels import lstm_cuda, rnn_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda, graphs_cuda  # noqa: E402

PATH = {"lstm": lstm_cuda.lstm_path, "rnn": rnn_cuda.rnn_path}
H = 5


@pytest.fixture
def shipped(monkeypatch):
    """The library choice as shipped, whatever the environment asks."""
    monkeypatch.delenv("LNRNN_CUDA_BLAS", raising=False)
    if not simulator_enabled():
        pytest.skip("a GPU's library may serve graphs; the simulator's defaults are read here")
    assert graphs_cuda.provider() is None


@pytest.mark.parametrize("cell", sorted(PATH))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_default_time_loop_is_the_sequence_kernels(cell, dtype, shipped, monkeypatch):
    assert arrays_cuda.seq_fits(1, dtype)
    for T in (3, None):
        assert PATH[cell](H, dtype, T=T) == "seq", T
    monkeypatch.setattr(config, "CUDA_SEQUENCE_KERNELS", False)
    assert PATH[cell](H, dtype, T=3) == "step"
