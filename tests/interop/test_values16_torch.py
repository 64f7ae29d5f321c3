"""lnrnn.torch: an eval-mode BatchNorm stack's gradients against float64 central differences (its forward
reads population statistics, so its backward must not differentiate batch ones); dL/dc_n of rows of
different lengths is refused (only dL/dh_n is seeded there); a stack and head rebuilt from exported
tensors come back in eval mode (population statistics, buffers left alone)."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from lnrnn.interop.export import exported_tensors  # noqa: E402
from lnrnn.interop.torch import _from_tensors  # noqa: E402
from lnrnn.model.models import build_model, head_config  # noqa: E402

F64 = torch.float64


def _bn_stack(T):
    torch.manual_seed(0)
    m = lt.LSTM(2, 2, num_layers=1, norm="bn", dtype=F64)
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for p in m.parameters():
            p.add_(torch.rand(p.shape, generator=g, dtype=F64) * 0.6 - 0.3)
    for name, b in list(m.named_buffers()):   # population statistics of T steps, different per step
        v = torch.rand((T, b.shape[1]), generator=g, dtype=F64)
        setattr(m, name, v - 0.5 if "mean" in name else v + 0.5)
    return m


def test_eval_mode_batchnorm_gradients_equal_central_differences():
    T, B = 3, 3
    m = _bn_stack(T).eval()
    x = torch.randn(T, B, 2, dtype=F64, generator=torch.Generator().manual_seed(2), requires_grad=True)
    R = torch.randn(T, B, 2, dtype=F64, generator=torch.Generator().manual_seed(3))
    out, _ = m(x)
    (out * R).sum().backward()
    num = torch.zeros_like(x)
    eps = 1e-6
    with torch.no_grad():
        for i in np.ndindex(tuple(x.shape)):
            xp, xm = x.detach().clone(), x.detach().clone()
            xp[i] += eps
            xm[i] -= eps
            num[i] = ((m(xp)[0] * R).sum() - (m(xm)[0] * R).sum()) / (2 * eps)
    torch.testing.assert_close(x.grad, num, rtol=1e-6, atol=1e-8)


def test_a_gradient_of_c_n_is_refused_for_rows_of_different_lengths():
    torch.manual_seed(0)
    m = lt.LSTM(2, 2, num_layers=1, norm="ln", dtype=F64)
    x = torch.randn(4, 2, 2, dtype=F64, requires_grad=True)
    out, (h_n, c_n) = m(x, lengths=torch.tensor([4, 2]))
    with pytest.raises(NotImplementedError, match="c_n"):
        c_n.sum().backward(retain_graph=True)
    h_n.sum().backward()                                     # h_n's gradient is taken
    assert x.grad is not None and torch.isfinite(x.grad).all()


def test_stack_and_head_from_exported_tensors_are_in_eval_mode():
    model = build_model(dict(cell="lstm", norm="bn", input_size=2, hidden_size=3, num_layers=1, dtype="float64",
                             forget_bias=1.0, head=head_config("ce", 2)), seed=1)
    stack, head = _from_tensors(model.config, exported_tensors(model))
    assert not stack.training and not head.training
    before = {n: b.clone() for n, b in stack.named_buffers()}
    x = torch.randn(2, 4, 2, dtype=F64)
    with torch.no_grad():
        out, _ = stack(x)
        alone, _ = stack(x[:, 1:2])                          # population statistics: rows do not interact
    torch.testing.assert_close(out[:, 1:2], alone, rtol=0, atol=1e-12)
    assert all(torch.equal(before[n], b) for n, b in stack.named_buffers())
