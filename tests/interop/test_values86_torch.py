"""lnrnn.torch's modules as a user sees them, against torch's own LSTM and the definitions: a plain two-layer
bidirectional batch_first stack in eval() (dropout set, so off) gives nn.LSTM's out, h_n and c_n and, for a loss
on all three, its gradients of x, h0, c0 and every parameter, with the initial states given and omitted (under
torch's float32 default, with a float64 module); the initial parameters hold forget_bias in the f block of
bias_ih (torch's [i|f|g|o] order) and zeros elsewhere, in every layer, direction and cell; BatchNorm buffers take
the module's dtype, one row of means 0 and variances 1; a bidirectional BN stack in train() is, direction by
direction, the one-way stack run on x (forward) and on x reversed in time (backward), buffers included, the
reverse ones grown to T rows; gradcheck of a BN-LSTM in train(), whose gradients go through the batch
statistics; and the refusals, word for word: mixed dtypes named at the module (weights included), half precision
and a non-tanh RNN."""
import os

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402

F64 = torch.float64


def _pair(I, H, layers, seed, **kw):
    torch.manual_seed(seed)
    ref = torch.nn.LSTM(I, H, num_layers=layers, dtype=F64, **kw)
    ours = lt.LSTM(I, H, num_layers=layers, norm=None, dtype=F64, **kw)
    ours.load_state_dict(ref.state_dict(), strict=True)
    return ref, ours


@pytest.mark.parametrize("given", [True, False])
def test_bidirectional_two_layer_batch_first_stack_is_nn_lstms_values_and_gradients(given):
    B, T, I, H = 3, 4, 2, 3
    ref, ours = _pair(I, H, 2, 5, bidirectional=True, batch_first=True, dropout=0.5)
    ref.eval(), ours.eval()                                    # dropout off
    g = torch.Generator().manual_seed(2)
    x = torch.randn(B, T, I, dtype=F64, generator=g)
    h0, c0 = (0.5 * torch.randn(4, B, H, dtype=F64, generator=g) for _ in range(2))
    w_out = torch.randn(B, T, 2 * H, dtype=F64, generator=g)
    w_h, w_c = (torch.randn(4, B, H, dtype=F64, generator=g) for _ in range(2))

    def run(m):
        xs = x.clone().requires_grad_()
        states = (h0.clone().requires_grad_(), c0.clone().requires_grad_()) if given else None
        out, (h_n, c_n) = m(xs, states)
        ((out * w_out).sum() + (h_n * w_h).sum() + (c_n * w_c).sum()).backward()
        grads = [xs.grad, *((s.grad for s in states) if given else ()), *(p.grad for p in m.parameters())]
        return [out.detach(), h_n.detach(), c_n.detach()], grads

    assert torch.get_default_dtype() == torch.float32            # omitted states: the module's dtype, not torch's
    (got, got_g), (want, want_g) = run(ours), run(ref)
    assert got[0].shape == (B, T, 2 * H) and got[1].shape == got[2].shape == (4, B, H)
    for a, e in zip(got + got_g, want + want_g):
        assert a is not None and a.dtype == F64
        torch.testing.assert_close(a, e, rtol=1e-10, atol=1e-12)


def test_initial_biases_hold_forget_bias_in_the_f_block_only():
    H, fb = 3, 2.5
    stack = lt.LSTM(2, H, num_layers=2, norm="ln", bidirectional=True, forget_bias=fb, dtype=F64)
    cell = lt.LSTMCell(2, H, norm=None, forget_bias=fb, dtype=F64)
    named = dict(stack.named_parameters())
    biases = [named[f"bias_ih{sfx}"].detach() for sfx in ("_l0", "_l0_reverse", "_l1", "_l1_reverse")]
    for sfx in ("_l0", "_l0_reverse", "_l1", "_l1_reverse"):
        torch.testing.assert_close(named[f"bias_hh{sfx}"].detach(), torch.zeros(4 * H, dtype=F64), rtol=0, atol=0)
    for b, normalized in [(b, True) for b in biases] + [(cell.bias_ih.detach(), False)]:
        i, f, g, o = b.split(H)                                # torch's [i | f | g | o]
        assert b.shape == (4 * H,)
        torch.testing.assert_close(f, torch.full((H,), fb, dtype=F64), rtol=0, atol=0)
        assert torch.all(i == 0) and torch.all(o == 0)
        # a normalized cell's candidate starts off zero by a small draw (cells.Cell.init_params), a plain one at 0
        assert torch.all(g.abs() <= 0.1) and (bool(torch.any(g != 0)) if normalized else bool(torch.all(g == 0)))


@pytest.mark.parametrize("dtype", [torch.float32, F64])
def test_batchnorm_buffers_take_the_modules_dtype_and_start_at_zero_mean_unit_variance(dtype):
    m = lt.LSTM(2, 3, norm="bn", dtype=dtype)
    bufs = dict(m.named_buffers())
    assert bufs and all(n.startswith("norm_") for n in bufs)
    for n, b in bufs.items():
        assert b.dtype == dtype and b.dim() == 2 and b.shape[0] == 1, n
        want = torch.zeros_like(b) if "running_mean" in n else torch.ones_like(b)
        torch.testing.assert_close(b, want, rtol=0, atol=0)
    out, _ = m(torch.randn(3, 2, 2, dtype=dtype))              # train(): runs in that dtype
    assert out.dtype == dtype


def _bn_direction_copy(bi, d, I, H):
    """A one-way BN stack holding direction d's parameters and (fresh) buffers of the bidirectional one."""
    one = lt.LSTM(I, H, norm="bn", dtype=F64)
    sfx = "_l0_reverse" if d else "_l0"
    with torch.no_grad():
        for name, p in one.named_parameters():
            p.copy_(getattr(bi, name[:-len("_l0")] + sfx))
    return one


def test_bidirectional_bn_training_is_each_direction_one_way_over_its_own_time():
    T, B, I, H = 3, 4, 2, 2
    torch.manual_seed(7)
    bi = lt.LSTM(I, H, norm="bn", bidirectional=True, dtype=F64)
    with torch.no_grad():
        for p in bi.parameters():
            p.add_(0.3 * torch.randn_like(p))                  # the two directions' parameters differ
    fwd, bwd = _bn_direction_copy(bi, 0, I, H), _bn_direction_copy(bi, 1, I, H)
    x = torch.randn(T, B, I, dtype=F64)
    out, (h_n, c_n) = bi(x)
    of, (hf, cf) = fwd(x)
    ob, (hb, cb) = bwd(x.flip(0))
    torch.testing.assert_close(out[..., :H], of, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(out[..., H:], ob.flip(0), rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(h_n, torch.cat([hf, hb]), rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(c_n.detach(), torch.cat([cf, cb]).detach(), rtol=1e-10, atol=1e-12)
    bufs = dict(bi.named_buffers())
    for one, sfx in ((fwd, "_l0"), (bwd, "_l0_reverse")):
        for name, b in one.named_buffers():
            mine = bufs[name[:-len("_l0")] + sfx]
            assert mine.shape == (T, b.shape[1]), name      # grown to T rows, as the one-way stack's
            torch.testing.assert_close(mine, b, rtol=1e-10, atol=1e-12)


def test_gradcheck_of_a_batchnorm_lstm_in_training_goes_through_the_batch_statistics():
    T, B, I, H = 2, 3, 2, 2
    torch.manual_seed(3)
    m = lt.LSTM(I, H, norm="bn", dtype=F64).train()
    names = [n for n, _ in m.named_parameters()]
    params = [p.detach().clone() for p in m.parameters()]
    x = torch.randn(T, B, I, dtype=F64, requires_grad=True)
    h0 = (0.5 * torch.randn(1, B, H, dtype=F64)).requires_grad_()
    c0 = (0.5 * torch.randn(1, B, H, dtype=F64)).requires_grad_()
    wx = params[names.index("weight_ih_l0")].requires_grad_()
    rest = {n: p for n, p in zip(names, params) if n != "weight_ih_l0"}

    def f(x, h0, c0, wx):
        out, (h_n, _) = torch.func.functional_call(m, {**rest, "weight_ih_l0": wx}, (x, (h0, c0)))
        return out, h_n

    assert torch.autograd.gradcheck(f, (x, h0, c0, wx), eps=1e-6, atol=1e-6, rtol=1e-5)


def test_mixed_dtypes_are_refused_at_the_module_naming_the_weights():
    m = lt.LSTM(2, 3, norm=None, dtype=F64)
    with pytest.raises(TypeError) as e:
        m(torch.zeros(2, 1, 2, dtype=torch.float32))
    assert str(e.value) == ("LSTM: mixed dtypes (x torch.float32, hx[0] torch.float32, hx[1] torch.float32, "
                            "weights torch.float64): pass every tensor in the module's dtype "
                            "(x.to(m.weight_ih_l0.dtype)).")


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision_modules_are_refused_in_one_sentence(dtype):
    with pytest.raises(TypeError) as e:
        lt.LSTM(2, 3, dtype=dtype)
    assert str(e.value) == ("LSTM: lnrnn's kernels run float32 or float64 only: pass dtype=torch.float32 or "
                            f"torch.float64, not {dtype}.")


@pytest.mark.parametrize("nonlinearity", ["relu", "sigmoid"])
def test_an_rnn_other_than_tanh_is_refused(nonlinearity):
    with pytest.raises(ValueError) as e:
        lt.RNN(2, 3, nonlinearity=nonlinearity)
    assert str(e.value) == f"RNN: lnrnn's RNN cells use tanh: pass nonlinearity='tanh', not {nonlinearity!r}."
