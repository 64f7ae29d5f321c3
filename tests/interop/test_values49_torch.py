"""lnrnn.torch's modules off their defaults against an eager implementation written here in torch ops
(torch.nn.functional.layer_norm, batch statistics by hand, torch's autograd for every gradient): two-layer
and bidirectional stacks, batch_first, ragged rows (``lengths``) with non-zero padding, initial states given or
not, skip connections, dropout in eval(), float32 and float64, BN in train() (the running statistics after
one forward, per direction) and in eval() (the gradients of the affine map); gradients of x, h0, c0 and every
parameter for losses on out, h_n and c_n and on h_n alone; unbatched (T,I) inputs, PackedSequence outputs,
output_size, the default dtype, forget_bias, a BN state_dict trained on more steps than a fresh module holds,
and the refusals of meta tensors and of a float16 state (naming it).

The eager stack follows the module docstring and lnrnn.reference: gates [i|f|g|o]; LN-LSTM
a = LN(x Wx) + LN(h Wh) + b, h = o tanh(LN(c)); LN-RNN h = tanh(LN(x Wx + h Wh; g, b)); BN cells normalize
x Wx, h Wh (and c) per step with the step's batch statistics over the running rows (biased variance; the
running rows get momentum * (mean, unbiased variance)) or the running row min(t, Ts-1) in eval(); b is
bias_ih + bias_hh; the backward direction runs each row's valid steps reversed; padded steps of out are 0
and each row's final state is its state after its own last step."""
import os

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from lnrnn.config import BN_MOMENTUM, EPS  # noqa: E402

F64, F32 = torch.float64, torch.float32


# ---- the eager implementation ----

def _ln(v, w, b):
    return torch.nn.functional.layer_norm(v, (v.shape[-1],), w, b, eps=EPS)


def _bn(v, stats, stem, t, training, active):
    """v (B,F) at step t normalized (no affine map) with the step's batch statistics over the active rows
    (training: stats[stem_running_mean/var][t] move by the momentum) or the running row min(t, Ts-1)."""
    rm, rv = stats[stem + "_running_mean"], stats[stem + "_running_var"]
    if training:
        va = v[active]
        n = va.shape[0]
        mean = va.mean(0)
        var = ((va - mean) ** 2).mean(0)
        with torch.no_grad():
            rm[t] = (1 - BN_MOMENTUM) * rm[t] + BN_MOMENTUM * mean
            rv[t] = (1 - BN_MOMENTUM) * rv[t] + BN_MOMENTUM * var * n / max(n - 1, 1)
        return (v - mean) / torch.sqrt(var + EPS)
    row = min(t, rm.shape[0] - 1)
    return (v - rm[row]) / torch.sqrt(rv[row] + EPS)


def _step(kind, norm, P, x_t, h, c, stats, t, training, active):
    """One step of the cell: P(stem) -> the parameter; x_t (B,I), h, c (B,H) -> h', c'."""
    xw, hw = x_t @ P("weight_ih").T, h @ P("weight_hh").T
    b = P("bias_ih") + P("bias_hh")
    bn = lambda v, stem: _bn(v, stats, stem, t, training, active)  # noqa: E731
    if kind == "rnn":
        if norm == "ln":
            return torch.tanh(_ln(xw + hw, P("norm_weight"), b)), None
        if norm == "bn":
            pre = P("norm_hh_weight") * bn(hw, "norm_hh") + P("norm_ih_weight") * bn(xw, "norm_ih") + b
            return torch.tanh(pre), None
        return torch.tanh(xw + hw + b), None
    H = h.shape[1]
    if norm == "ln":
        a = _ln(xw, P("norm_ih_weight"), P("norm_ih_bias")) + _ln(hw, P("norm_hh_weight"), P("norm_hh_bias")) + b
    elif norm == "bn":
        a = P("norm_hh_weight") * bn(hw, "norm_hh") + P("norm_ih_weight") * bn(xw, "norm_ih") + b
    else:
        a = xw + hw + b
    i, f = torch.sigmoid(a[:, :H]), torch.sigmoid(a[:, H:2 * H])
    g, o = torch.tanh(a[:, 2 * H:3 * H]), torch.sigmoid(a[:, 3 * H:])
    c_new = f * c + i * g
    if norm == "ln":
        cn = _ln(c_new, P("norm_cell_weight"), P("norm_cell_bias"))
    elif norm == "bn":
        cn = P("norm_cell_weight") * bn(c_new, "norm_cell") + P("norm_cell_bias")
    else:
        cn = c_new
    return o * torch.tanh(cn), c_new


def _rev(a, lengths):
    """a (T,B,...) with each row's first lengths[b] steps reversed, one row at a time."""
    if lengths is None:
        return a.flip(0)
    cols = []
    for b in range(a.shape[1]):
        n = int(lengths[b])
        cols.append(torch.cat([a[:n, b].flip(0), a[n:, b]]))
    return torch.stack(cols, 1)


def _kind(m):
    return "lstm" if isinstance(m, (lt.LSTM, lt.LSTMCell)) else "rnn"


def eager(m, x, hx=None, lengths=None):
    """m's stack in torch ops: x (T,B,I) time-major -> out (T,B,F), the final states (each (L*D,B,H)) and the
    BN statistics after the forward ({buffer name: tensor}; copies, m's own buffers are not touched)."""
    kind, norm = _kind(m), m.norm
    training = m.training and norm == "bn"
    D = 2 if m.bidirectional else 1
    T, B = x.shape[0], x.shape[1]
    H, n = m.hidden_size, 2 if kind == "lstm" else 1
    if hx is None:
        hx = [x.new_zeros((m.num_layers * D, B, H))] * n
    elif isinstance(hx, torch.Tensor):
        hx = [hx]
    stats = {}
    for name, buf in m.named_buffers():
        buf = buf.detach().clone()
        if training and buf.shape[0] < T:  # grown: new rows repeat the last
            buf = torch.cat([buf, buf[-1:].expand(T - buf.shape[0], -1)])
        stats[name] = buf
    active = torch.ones(T, B, dtype=torch.bool) if lengths is None else \
        torch.arange(T)[:, None] < torch.as_tensor(lengths)[None, :]
    inp, ys, finals = x, [], []
    for k in range(m.num_layers):
        outs = []
        for d in range(D):
            sfx = f"_l{k}_reverse" if d else f"_l{k}"
            P = lambda stem, sfx=sfx: getattr(m, stem + sfx)  # noqa: E731
            st = {f"{stem}_running_{w}": stats[f"{stem}_running_{w}{sfx}"]             # this direction's rows
                  for stem in ("norm_ih", "norm_hh", "norm_cell") for w in ("mean", "var")
                  if f"{stem}_running_{w}{sfx}" in stats}
            xi = _rev(inp, lengths) if d else inp
            h, c = hx[0][k * D + d], (hx[1][k * D + d] if n == 2 else None)
            y = []
            for t in range(T):
                h2, c2 = _step(kind, norm, P, xi[t], h, c, st, t, training, active[t])
                a = active[t][:, None]
                y.append(torch.where(a, h2, torch.zeros_like(h2)))
                h = torch.where(a, h2, h)
                c = None if c is None else torch.where(a, c2, c)
            y = torch.stack(y)
            outs.append(_rev(y, lengths) if d else y)
            finals.append((h, c))
        y = torch.cat(outs, 2)
        ys.append(y)
        inp = torch.cat([x, y], 2) if m.skip else y
    out = torch.cat(ys, 2) if m.skip else ys[-1]
    return out, tuple(torch.stack([f[i] for f in finals]) for i in range(n)), stats


# ---- helpers ----

def _perturbed(m, seed=1, scale=0.6):
    """m with every parameter moved off its initial value (gains 1, biases 0) by a uniform draw."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in m.parameters():
            p.add_((torch.rand(p.shape, generator=g, dtype=p.dtype) - 0.5) * scale)
    return m


def _rand(shape, seed, dtype=F64, requires_grad=False):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(shape, generator=g, dtype=dtype) * 2 - 1).requires_grad_(requires_grad)


def _loss(out, final, weights, with_c):
    """A weighted sum of out, h_n (and c_n): every entry's gradient is its weight."""
    s = (out * weights[0]).sum() + (final[0] * weights[1]).sum()
    if with_c:
        s = s + (final[1] * weights[2]).sum()
    return s


def _close(a, b, dtype):
    tol = dict(rtol=1e-9, atol=1e-11) if dtype == F64 else dict(rtol=1e-4, atol=2e-5)
    torch.testing.assert_close(a, b, **tol)


# (cell, norm, layers, bidirectional, batch_first, skip, hx given, lengths, dtype, train, c_n in the loss)
CASES = {
    "ln-lstm-2-layers-batch-first-c_n":
        ("lstm", "ln", 2, False, True, False, True, None, F64, False, True),
    "lstm-2-layers-bidirectional-ragged-h0-c0":
        ("lstm", None, 2, True, False, False, True, [4, 1, 3], F64, False, False),
    "ln-rnn-2-layers-bidirectional-ragged-skip":
        ("rnn", "ln", 2, True, False, True, False, [2, 4, 3], F64, False, False),
    "rnn-2-layers-float32-h0":
        ("rnn", None, 2, False, True, False, True, None, F32, False, False),
    "lstm-1-layer-bidirectional-float32-c_n":
        ("lstm", None, 1, True, False, False, True, None, F32, False, True),
    "bn-lstm-bidirectional-train-h0-c0":
        ("lstm", "bn", 1, True, False, False, True, None, F64, True, False),
    "bn-rnn-2-layers-bidirectional-train-ragged":
        ("rnn", "bn", 2, True, True, False, True, [4, 2, 3], F64, True, False),
    "bn-rnn-2-layers-eval-ragged":
        ("rnn", "bn", 2, False, False, False, True, [3, 4, 1], F64, False, False),
    "bn-lstm-eval-bidirectional":
        ("lstm", "bn", 1, True, False, False, False, None, F64, False, False),
}


@pytest.mark.parametrize("case", list(CASES))
def test_stack_against_eager_outputs_states_statistics_and_every_gradient(case):
    kind, norm, L, bi, bf, skip, give_hx, lengths, dtype, train, with_c = CASES[case]
    T, B, I, H = 4, 3, 3, 2
    D = 2 if bi else 1
    torch.manual_seed(0)
    cls = lt.LSTM if kind == "lstm" else lt.RNN
    m = _perturbed(cls(I, H, num_layers=L, norm=norm, bidirectional=bi, batch_first=bf, skip=skip,
                       dropout=0.4 if L > 1 and not train else 0.0, dtype=dtype))   # eval(): no dropout
    if norm == "bn" and not train:  # statistics of 3 steps a run could have: the 4th step reuses the last row
        g = torch.Generator().manual_seed(7)
        for name, b in list(m.named_buffers()):
            v = torch.rand((T - 1, b.shape[1]), generator=g, dtype=dtype)
            setattr(m, name, v - 0.5 if "mean" in name else v + 0.5)
    m.train(train)
    x = _rand((T, B, I), 2, dtype)
    if lengths is not None:  # padding that a reader of it would notice
        x = x + 5 * (torch.arange(T)[:, None, None] >= torch.tensor(lengths)[None, :, None])
    x.requires_grad_()
    n = 2 if kind == "lstm" else 1
    hx = [_rand((L * D, B, H), 3 + i, dtype, True) for i in range(n)] if give_hx else []
    params = list(m.parameters())
    inputs = [x, *hx, *params]
    F = D * H * (L if skip else 1)
    weights = [_rand((T, B, F), 10, dtype), _rand((L * D, B, H), 11, dtype), _rand((L * D, B, H), 12, dtype)]

    out_e, final_e, stats_e = eager(m, x, (hx if n == 2 else hx[0]) if give_hx else None, lengths)
    grads_e = torch.autograd.grad(_loss(out_e, final_e, weights, with_c), inputs)

    arg = x.transpose(0, 1) if bf else x
    hx_arg = (tuple(hx) if n == 2 else hx[0]) if give_hx else None
    out, final = m(arg, hx_arg, lengths=None if lengths is None else torch.tensor(lengths))
    final = final if n == 2 else (final,)
    if bf:
        assert out.shape == (B, T, F)
        out = out.transpose(0, 1)
    assert out.shape == (T, B, F) and m.output_size == F
    assert all(f.shape == (L * D, B, H) for f in final)
    assert out.dtype == dtype and all(f.dtype == dtype for f in final)
    _close(out, out_e, dtype)
    for f, fe in zip(final, final_e):
        _close(f, fe, dtype)
    if train and norm == "bn":
        buffers = dict(m.named_buffers())
        assert set(buffers) == set(stats_e)
        for name, v in stats_e.items():
            assert buffers[name].shape == (T, v.shape[1]), name
            _close(buffers[name], v, dtype)
    grads = torch.autograd.grad(_loss(out, final, weights, with_c), inputs)
    names = ["x", *[f"hx[{i}]" for i in range(len(hx))], *[nm for nm, _ in m.named_parameters()]]
    for nm, g, ge in zip(names, grads, grads_e):
        assert g.shape == ge.shape, nm
        _close(g, ge, dtype)


@pytest.mark.parametrize("cls", [lt.LSTM, lt.RNN])
def test_a_loss_on_h_n_alone_gives_the_gradients_of_eager(cls):
    """No gradient reaches out: dL/dy is zeros of y's shape (T,B,H), with I != H."""
    T, B, I, H = 3, 2, 4, 2
    torch.manual_seed(1)
    m = _perturbed(cls(I, H, num_layers=2, norm="ln", dtype=F64))
    x = _rand((T, B, I), 4, requires_grad=True)
    w = _rand((2, B, H), 5)
    inputs = [x, *m.parameters()]
    _, final_e, _ = eager(m, x)
    ge = torch.autograd.grad((final_e[0] * w).sum(), inputs)
    _, final = m(x)
    h_n = final[0] if cls is lt.LSTM else final
    g = torch.autograd.grad((h_n * w).sum(), inputs)
    for a, b in zip(g, ge):
        _close(a, b, F64)


@pytest.mark.parametrize("cls", [lt.LSTM, lt.RNN])
def test_unbatched_input_is_one_sequence_of_t_steps(cls):
    """x (T,I) and hx (L,H): out (T,H) and h_n (L,H), those of eager on the batch of that one row."""
    T, I, H, L = 4, 3, 2, 2
    torch.manual_seed(2)
    m = _perturbed(cls(I, H, num_layers=L, norm="ln", dtype=F64))
    x = _rand((T, I), 6)
    n = 2 if cls is lt.LSTM else 1
    hx = [_rand((L, H), 7 + i) for i in range(n)]
    out_e, final_e, _ = eager(m, x[:, None], [h[:, None] for h in hx])
    out, final = m(x, tuple(hx) if n == 2 else hx[0])
    final = final if n == 2 else (final,)
    assert out.shape == (T, H)
    _close(out, out_e[:, 0], F64)
    for f, fe in zip(final, final_e):
        assert f.shape == (L, H)
        _close(f, fe[:, 0], F64)


def test_packed_input_gives_packed_eager_output():
    T, B, I, H = 4, 3, 2, 3
    torch.manual_seed(3)
    m = _perturbed(lt.LSTM(I, H, num_layers=1, norm="ln", bidirectional=True, dtype=F64))
    lengths = torch.tensor([2, 4, 3])
    x = _rand((T, B, I), 8)
    packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths, enforce_sorted=False)
    out_e, final_e, _ = eager(m, x, lengths=lengths)
    want = torch.nn.utils.rnn.pack_padded_sequence(out_e, lengths, enforce_sorted=False)
    out, (h_n, c_n) = m(packed)
    assert isinstance(out, torch.nn.utils.rnn.PackedSequence)
    assert out.data.shape == (int(lengths.sum()), 2 * H)
    assert torch.equal(out.batch_sizes, want.batch_sizes)
    _close(out.data, want.data, F64)
    _close(h_n, final_e[0], F64)
    _close(c_n, final_e[1], F64)


@pytest.mark.parametrize("bi", [False, True])
@pytest.mark.parametrize("skip", [False, True])
def test_output_size_is_the_width_of_out(bi, skip):
    I, H, L = 2, 3, 2
    m = lt.RNN(I, H, num_layers=L, norm=None, bidirectional=bi, skip=skip, dtype=F64)
    want = (2 if bi else 1) * H * (L if skip else 1)
    out, _ = m(_rand((2, 1, I), 9))
    assert m.output_size == want == out.shape[-1]


def test_modules_without_dtype_follow_torchs_default_dtype():
    old = torch.get_default_dtype()
    torch.set_default_dtype(F64)
    try:
        mods = [lt.LSTM(2, 3, norm="bn", bidirectional=True), lt.RNN(2, 3, num_layers=2),
                lt.LSTMCell(2, 3), lt.RNNCell(2, 3, norm=None), torch.nn.LSTM(2, 3)]
    finally:
        torch.set_default_dtype(old)
    for m in mods:
        assert all(t.dtype == F64 for t in [*m.parameters(), *m.buffers()]), type(m).__name__
    assert all(p.dtype == F32 for p in lt.LSTM(2, 3).parameters())


@pytest.mark.parametrize("norm", ["ln", None])
def test_forget_bias_sets_the_forget_block_of_every_layer_and_cell(norm):
    H = 3
    mods = [(lt.LSTMCell(2, H, norm=norm, forget_bias=2.5), [""], 2.5),
            (lt.LSTM(2, H, num_layers=2, norm=norm, bidirectional=True, forget_bias=-1.5),
             ["_l0", "_l0_reverse", "_l1", "_l1_reverse"], -1.5)]
    for m, sfxs, fb in mods:
        for sfx in sfxs:
            b = getattr(m, "bias_ih" + sfx).detach()
            assert torch.all(b[H:2 * H] == fb), sfx
            assert torch.all(b[:H] == 0) and torch.all(b[3 * H:] == 0), sfx
            assert torch.all(getattr(m, "bias_hh" + sfx) == 0), sfx


def test_bn_state_dict_trained_on_more_steps_loads_into_a_fresh_module():
    T, B, I, H = 5, 3, 2, 2
    torch.manual_seed(4)
    m = _perturbed(lt.LSTM(I, H, norm="bn", bidirectional=True, dtype=F64))
    x = _rand((T, B, I), 12)
    with torch.no_grad():
        m(x)                                                   # train(): statistics of 5 steps
    sd = m.state_dict()
    assert sd["norm_ih_running_mean_l0_reverse"].shape == (T, 4 * H)
    fresh = lt.LSTM(I, H, norm="bn", bidirectional=True, dtype=F64)
    assert fresh.norm_ih_running_mean_l0.shape == (1, 4 * H)
    fresh.load_state_dict(sd)
    for name, v in sd.items():
        assert torch.equal(fresh.state_dict()[name], v), name
    fresh.eval()
    x2 = _rand((T + 1, B, I), 13)
    out_e, final_e, _ = eager(fresh, x2)
    with torch.no_grad():
        out, (h_n, _) = fresh(x2)
    _close(out, out_e, F64)
    _close(h_n, final_e[0], F64)


def test_tensors_on_the_meta_device_are_refused():
    m = lt.LSTM(2, 3, norm=None, dtype=F64, device="meta")
    with pytest.raises(RuntimeError, match="lnrnn runs on the CPU or on one CUDA device"):
        m(torch.zeros((4, 1, 2), dtype=F64, device="meta"))


def test_a_float16_state_is_refused_by_its_name():
    m = lt.LSTM(2, 3, norm=None, dtype=F64)
    x = torch.zeros((4, 1, 2), dtype=F64)
    h0, c0 = torch.zeros((1, 1, 3), dtype=torch.float16), torch.zeros((1, 1, 3), dtype=F64)
    with pytest.raises(TypeError, match=r"LSTM: hx\[0\] is torch.float16"):
        m(x, (h0, c0))
    with pytest.raises(TypeError, match=r"LSTM: hx\[1\] is torch.float16"):
        m(x, (c0, h0))
