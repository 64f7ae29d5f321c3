"""lnrnn.torch's modules against PyTorch's own and against the BN-RNN's definition, in float64: an LSTM with
bidirectional, batch_first, ragged lengths and given initial states all at once gives torch.nn.LSTM's padded
outputs, h_n and c_n (run on the same weights through a PackedSequence) and the same gradient for the input,
both initial states and every parameter; the input's and states' gradients pass torch.autograd.gradcheck; the
parameters come in nn.LSTM's order; a BN-RNN in train mode normalizes each step by its batch's statistics
(biased variance, eps 1e-5) and moves its running statistics by the momentum rule (0.9 old + 0.1 batch, the
variance unbiased), which eval mode then uses; LSTMCell's refusal of a c in another dtype word for word."""
import numpy as np
import pytest
import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

import lnrnn.torch as lt

T, B, I, H = 4, 3, 2, 3                        # T != B: a batch-first input read as time-first is caught


def pair(seed=212):
    torch.manual_seed(seed)
    ours = lt.LSTM(I, H, num_layers=1, norm=None, batch_first=True, bidirectional=True, dtype=torch.float64)
    with torch.no_grad():
        for p in ours.parameters():
            p.uniform_(-0.8, 0.8)                                            # bias_hh too: the two biases sum
    ref = torch.nn.LSTM(I, H, num_layers=1, batch_first=True, bidirectional=True, dtype=torch.float64)
    ref.load_state_dict(ours.state_dict())
    return ours, ref


def test_the_parameters_come_in_nn_lstms_order():
    ours = lt.LSTM(I, H, num_layers=2, norm=None, bidirectional=True, dtype=torch.float64)
    ref = torch.nn.LSTM(I, H, num_layers=2, bidirectional=True, dtype=torch.float64)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in ref.named_parameters()]
    assert [tuple(p.shape) for p in ours.parameters()] == [tuple(p.shape) for p in ref.parameters()]


def test_every_option_at_once_gives_nn_lstms_values_and_gradients():
    ours, ref = pair()
    g = torch.Generator().manual_seed(3)
    x = torch.randn(B, T, I, dtype=torch.float64, generator=g)             # (B,T,I): batch_first
    h0 = torch.randn(2, B, H, dtype=torch.float64, generator=g)
    c0 = torch.randn(2, B, H, dtype=torch.float64, generator=g)
    lengths = torch.tensor([2, 4, 1])
    w = torch.randn(B, T, 2 * H, dtype=torch.float64, generator=g)         # loss weights
    wh = torch.randn(2, B, H, dtype=torch.float64, generator=g)

    def run(module, packed):
        xs, hs, cs = (t.clone().requires_grad_(True) for t in (x, h0, c0))
        if packed:
            y, (h, c) = module(pack_padded_sequence(xs, lengths, batch_first=True, enforce_sorted=False),
                               (hs, cs))
            y = pad_packed_sequence(y, batch_first=True, total_length=T)[0]
        else:
            y, (h, c) = module(xs, (hs, cs), lengths=lengths)
        ((y * w).sum() + (h * wh).sum()).backward()
        return y, h, c, [xs.grad, hs.grad, cs.grad, *(p.grad for p in module.parameters())]

    y, h, c, grads = run(ours, False)
    y_r, h_r, c_r, grads_r = run(ref, True)
    for a, b in zip((y, h, c), (y_r, h_r, c_r)):
        torch.testing.assert_close(a, b, rtol=1e-10, atol=1e-12)
    assert len(grads) == len(grads_r) == 3 + 8
    for a, b in zip(grads, grads_r):
        torch.testing.assert_close(a, b, rtol=1e-9, atol=1e-11)


def test_gradcheck_on_tiny_shapes_with_every_option():
    ours, _ = pair(5)
    lengths = torch.tensor([2, 4, 1])
    g = torch.Generator().manual_seed(4)
    x = torch.randn(B, T, I, dtype=torch.float64, generator=g, requires_grad=True)
    h0 = torch.randn(2, B, H, dtype=torch.float64, generator=g, requires_grad=True)
    c0 = torch.randn(2, B, H, dtype=torch.float64, generator=g, requires_grad=True)
    assert torch.autograd.gradcheck(lambda x, h0, c0: ours(x, (h0, c0), lengths=lengths)[0].sum(dim=2),
                                     (x, h0, c0), eps=1e-6, atol=1e-6)


def bn_rnn_by_definition(x, Wx, Wh, b, gx, gh, rm, rv, training):
    """x (T,B,I); rm/rv dict of (T,H) arrays, moved in place when training -> y (T,B,H)."""
    h = np.zeros((x.shape[1], Wh.shape[0]))
    ys = []
    for t in range(x.shape[0]):
        pre = b.copy()
        for side, v, gain in (("x", x[t] @ Wx, gx), ("h", h @ Wh, gh)):
            if training:
                mean, var = v.mean(0), v.var(0)
                n = v.shape[0]
                rm[side][t] = 0.9 * rm[side][t] + 0.1 * mean
                rv[side][t] = 0.9 * rv[side][t] + 0.1 * var * n / (n - 1)
            else:
                mean, var = rm[side][t], rv[side][t]
            pre = pre + gain * (v - mean) / np.sqrt(var + 1e-5)
        h = np.tanh(pre)
        ys.append(h)
    return np.stack(ys)


def test_a_bn_rnn_trains_by_batch_statistics_then_evaluates_by_the_momentum_rules_running_ones():
    torch.manual_seed(212)
    m = lt.RNN(I, H, norm="bn", dtype=torch.float64)
    with torch.no_grad():
        for p in m.parameters():
            p.uniform_(0.2, 1.1)
    P = {n: p.detach().numpy().copy() for n, p in m.named_parameters()}
    Wx, Wh, b = P["weight_ih_l0"].T, P["weight_hh_l0"].T, P["bias_ih_l0"] + P["bias_hh_l0"]
    gx, gh = P["norm_ih_weight_l0"], P["norm_hh_weight_l0"]
    sides = (("x", "ih"), ("h", "hh"))                                    # (T,H) each, the one row repeated
    rm = {side: np.repeat(getattr(m, f"norm_{s}_running_mean_l0").numpy(), T, 0) for side, s in sides}
    rv = {side: np.repeat(getattr(m, f"norm_{s}_running_var_l0").numpy(), T, 0) for side, s in sides}
    x = torch.randn(T, B, I, dtype=torch.float64, generator=torch.Generator().manual_seed(8))

    m.train()
    with torch.no_grad():
        y = m(x)[0]
    want = bn_rnn_by_definition(x.numpy(), Wx, Wh, b, gx, gh, rm, rv, True)
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-10, atol=1e-12)
    for side, s in sides:
        np.testing.assert_allclose(getattr(m, f"norm_{s}_running_mean_l0").numpy(), rm[side], rtol=1e-10,
                                   atol=1e-13)
        np.testing.assert_allclose(getattr(m, f"norm_{s}_running_var_l0").numpy(), rv[side], rtol=1e-10)

    m.eval()
    with torch.no_grad():
        y = m(x)[0]
    np.testing.assert_allclose(y.numpy(), bn_rnn_by_definition(x.numpy(), Wx, Wh, b, gx, gh, rm, rv, False),
                               rtol=1e-10, atol=1e-12)


def test_lstmcell_refuses_a_c_in_another_dtype_by_its_name():
    cell = lt.LSTMCell(I, H, norm=None, dtype=torch.float64)
    x, h = torch.zeros(B, I, dtype=torch.float64), torch.zeros(B, H, dtype=torch.float64)
    with pytest.raises(TypeError) as e:
        cell(x, (h, torch.zeros(B, H)))
    assert str(e.value) == ("LSTMCell: mixed dtypes (input torch.float64, h torch.float64, c torch.float32, "
                            "weights torch.float64): pass every tensor in the module's dtype "
                            "(x.to(m.weight_ih_l0.dtype)).")
