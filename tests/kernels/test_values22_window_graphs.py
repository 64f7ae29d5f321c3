"""The window layer's graph plans (window_cuda) with BatchNorm: a training call and an evaluation call of the same
shapes, one after the other on the same plan cache, each equal to the NumPy spec (reference.py) at its own
setting: an evaluation forward normalizes with the running rows and its backward is the one of fixed statistics,
a training one with the batch's. Plans of the "eager" provider under the simulator, tiny shapes."""
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from test_cuda_kernels import close  # noqa: E402
from test_cuda_window_graphs import SHAPE, graphs  # noqa: E402,F401  (graphs: the autouse fixture of the graph path)
from test_window_cuda import CODES, FWD_OUT, GRADS, TOL_BWD, problem, spec, twin  # noqa: E402

from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402


@pytest.mark.parametrize("order", [(True, False), (False, True)])
def test_bn_training_and_evaluation_calls_keep_their_own_backward(order):
    """Both orders: each call equals the spec at its own setting (outputs, gradients, running rows), the two
    settings' gradients differ (so a shared backward plan would show), and each setting has its own plan."""
    a, stats, lengths, dy, dw = problem(2221, [5, 2, 5], [5, 3, 0], **SHAPE)
    assert window_cuda.window_path(CODES["bn"], SHAPE["T"]) == "graph"
    grads = {}
    for training in order:
        outs, run_, got, _ = twin(a, stats, lengths, dy, dw, "bn", training)  # running rows folded in copies
        outs_c, run_c, grads_c = spec(a, stats, lengths, dy, dw, "bn", training)
        for name, g, e in zip(FWD_OUT, outs, outs_c):
            assert close(g, e) < TOL_BWD, (training, name)
        for name, g, e in zip(GRADS, got, grads_c):
            assert close(g, e) < TOL_BWD, (training, "d" + name)
        for r, e in zip(run_, run_c):
            assert close(r, e) < TOL_BWD, training
        grads[training] = grads_c
    assert any(close(g, e) > 1e-3 for g, e in zip(grads[True], grads[False]))
    assert sum(k[0] == "window backward" for k in graphs_cuda.PLANS) == 2
