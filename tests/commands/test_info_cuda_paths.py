"""``lnrnn info``'s CUDA line names the time loop each kind of twin takes, as the twins themselves choose it:
the LSTM's (graph, sequence kernels or per-step launches) and the BN cells' and the synthesis window's (graph or
per-step launches: they have no sequence kernels)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.commands.info import _cuda_paths  # noqa: E402
from lnrnn.kernels import lstm_cuda, window_cuda  # noqa: E402
from lnrnn.kernels.codes import NORM_LN  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402


@pytest.mark.parametrize("blas,loop,lstm,bn", [("eager", "auto", "graph", "graph"), ("off", "auto", "seq", "step"),
                                               ("eager", "step", "step", "step"), ("eager", "seq", "seq", "step")])
def test_info_names_the_loops_the_twins_take(blas, loop, lstm, bn, monkeypatch):
    monkeypatch.delenv("LNRNN_CUDA_BLAS", raising=False)
    monkeypatch.setattr(config, "CUDA_BLAS", blas)
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", loop)
    line = _cuda_paths()
    assert f"LSTM loop: {lstm} (H 128, float32)" in line
    assert line.endswith(f"BN cells and the window layer: {bn}")
    assert lstm_cuda.lstm_path(128, np.float32) == lstm  # what the line says is what the twins run
    assert window_cuda.window_path(NORM_LN) == bn
    assert graphs_cuda.loop_path(False) == bn
