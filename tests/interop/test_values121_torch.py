"""lnrnn.torch's defaults, refusals and loaders against torch's own modules and definitions written here: the
stacks' and cells' initial forget-gate bias (cells.Cell.init_params: the forget block of b at forget_bias, 1 by
default) read off bias_ih; RNNCell's default norm (LayerNorm) against an LN-RNN step written here in torch ops
(z = LN(x Wx + h Wh) g + b, h' = tanh z); norm='none' spelled as a string standing for None; a batch_first
stack fed a PackedSequence against torch.nn.LSTM(batch_first=True) with the same weights; a BN-LSTM's running
means after one training pass against BN_MOMENTUM times the batch mean of x_t Wx; load_exported of a
bidirectional stack written here with write_safetensors (same outputs, forget_bias kept); and the refusals
word for word (relu for RNNCell, float16 cells, a non-float tensor named in check_tensors' advice, mixed dtypes
given to the layer op itself)."""
import json
import os

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

from torch.nn.utils.rnn import pack_padded_sequence  # noqa: E402

import lnrnn.torch as lt  # noqa: E402
from lnrnn.config import BN_MOMENTUM, EPS  # noqa: E402
from lnrnn.interop.export import write_safetensors  # noqa: E402
from lnrnn.interop.torch import check_tensors  # noqa: E402

F64 = torch.float64
nn = torch.nn


def _forget_block(bias, H):
    return bias.detach()[H:2 * H]


@pytest.mark.parametrize("norm", [None, "ln"])
def test_an_lstm_stacks_forget_gate_starts_at_one_by_default(norm):
    H = 4
    m = lt.LSTM(3, H, num_layers=2, norm=norm, dtype=F64)
    assert m.forget_bias == 1.0
    for k in range(2):
        b = getattr(m, f"bias_ih_l{k}").detach()
        torch.testing.assert_close(_forget_block(b, H), torch.ones(H, dtype=F64), rtol=0, atol=0)
        assert torch.all(b[:H] == 0) and torch.all(b[3 * H:] == 0)            # input and output gates
        assert torch.all(getattr(m, f"bias_hh_l{k}") == 0)


def test_an_lstm_cells_forget_gate_starts_at_one_by_default_and_at_the_value_given():
    H = 3
    c = lt.LSTMCell(2, H, norm=None, dtype=F64)
    assert c.forget_bias == 1.0
    torch.testing.assert_close(_forget_block(c.bias_ih, H), torch.ones(H, dtype=F64), rtol=0, atol=0)
    c2 = lt.LSTMCell(2, H, norm=None, forget_bias=2.5, dtype=F64)
    torch.testing.assert_close(_forget_block(c2.bias_ih, H), torch.full((H,), 2.5, dtype=F64), rtol=0, atol=0)


def test_an_rnn_cells_default_norm_is_layernorm_as_written_here():
    I, H, B = 3, 4, 5
    torch.manual_seed(1)
    c = lt.RNNCell(I, H, dtype=F64)
    assert c.norm == "ln"
    with torch.no_grad():
        c.norm_weight.copy_(torch.rand(H, dtype=F64) + 0.5)
        c.bias_hh.copy_(torch.randn(H, dtype=F64) * 0.1)
    x, h = torch.randn(B, I, dtype=F64), torch.randn(B, H, dtype=F64)
    a = x @ c.weight_ih.t() + h @ c.weight_hh.t()
    mu = a.mean(1, keepdim=True)
    var = ((a - mu) ** 2).mean(1, keepdim=True)
    want = torch.tanh((a - mu) / torch.sqrt(var + EPS) * c.norm_weight + c.bias_ih + c.bias_hh)
    torch.testing.assert_close(c(x, h), want.detach(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("cls", [lt.LSTMCell, lt.RNNCell, lt.LSTM, lt.RNN])
def test_norm_none_spelled_as_a_string_is_the_plain_cell(cls):
    m = cls(2, 3, norm="none", dtype=F64)
    assert m.norm is None
    assert "norm=None" in repr(m)
    assert not hasattr(m, "norm_weight") and not hasattr(m, "norm_weight_l0")


def test_rnncell_refuses_relu_word_for_word():
    with pytest.raises(ValueError) as e:
        lt.RNNCell(2, 3, nonlinearity="relu")
    assert str(e.value) == "RNNCell: lnrnn's RNN cells use tanh: pass nonlinearity='tanh', not 'relu'."


@pytest.mark.parametrize("cls", [lt.LSTMCell, lt.RNNCell])
def test_a_cell_refuses_float16_word_for_word(cls):
    with pytest.raises(TypeError) as e:
        cls(2, 3, dtype=torch.float16)
    assert str(e.value) == (f"{cls.__name__}: lnrnn's kernels run float32 or float64 only: pass dtype=torch.float32 "
                            "or torch.float64, not torch.float16.")


def test_check_tensors_advice_names_the_tensor_at_fault():
    x, h = torch.zeros(2, 3), torch.zeros(2, 3, dtype=torch.int64)
    with pytest.raises(TypeError) as e:
        check_tensors("here", x=x, h=h)
    assert str(e.value) == ("here: h is torch.int64, but lnrnn's kernels run float32 or float64 only: "
                            "pass h.float() (and a float32 module) or .double().")


def test_the_layer_op_refuses_parameters_of_another_dtype():
    T, B, I, H = 2, 3, 2, 4
    x, h0 = torch.randn(T, B, I, dtype=F64), torch.zeros(B, H, dtype=F64)
    params = [torch.randn(I, H), torch.randn(H, H), torch.zeros(H)]           # float32
    with pytest.raises(TypeError) as e:
        torch.ops.lnrnn.layer_forward(x, [h0], params, [], None, "rnn", False, False)
    assert str(e.value).startswith("lnrnn rnn layer: mixed dtypes (x torch.float64, state[0] torch.float64, "
                                   "Wx torch.float32, Wh torch.float32, b torch.float32)")


def test_a_batch_first_stack_reads_a_packed_sequence_as_nn_lstm_does():
    T, B, I, H = 5, 3, 2, 4
    torch.manual_seed(2)
    ref = nn.LSTM(I, H, num_layers=2, batch_first=True, dtype=F64)
    ours = lt.LSTM(I, H, num_layers=2, norm=None, batch_first=True, dtype=F64)
    ours.load_state_dict(ref.state_dict())
    x = torch.randn(B, T, I, dtype=F64)
    lengths = torch.tensor([3, 5, 1])
    packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
    got, (h, c) = ours(packed)
    want, (hr, cr) = ref(packed)
    torch.testing.assert_close(got.data, want.data, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(h, hr, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(c, cr, rtol=1e-10, atol=1e-12)


def test_a_bn_lstms_training_pass_updates_its_running_rows_by_the_momentum():
    T, B, I, H = 3, 4, 2, 2
    torch.manual_seed(3)
    m = lt.LSTM(I, H, norm="bn", dtype=F64)
    x = torch.randn(T, B, I, dtype=F64)
    m.train()
    with torch.no_grad():
        m(x)
    Wx = m.weight_ih_l0.detach().t()                                             # (I,4H)
    rm = m.norm_ih_running_mean_l0
    assert rm.shape == (T, 4 * H)
    want = BN_MOMENTUM * torch.stack([(x[t] @ Wx).mean(0) for t in range(T)])    # from means of 0
    torch.testing.assert_close(rm, want, rtol=1e-10, atol=1e-12)
    var = torch.stack([(x[t] @ Wx).var(0, unbiased=True) for t in range(T)])  # n/(n-1), as nn.BatchNorm1d folds
    torch.testing.assert_close(m.norm_ih_running_var_l0, (1 - BN_MOMENTUM) + BN_MOMENTUM * var, rtol=1e-10,
                               atol=1e-12)                                     # from variances of 1


def test_a_stacks_repr_names_skip_and_not_batch_first_as_skip():
    assert repr(lt.LSTM(3, 4, norm="ln", skip=True)) == "LSTM(3, 4, num_layers=1, norm='ln', skip=True)"
    assert repr(lt.RNN(3, 4, norm=None, batch_first=True)) == "RNN(3, 4, num_layers=1, norm=None, batch_first=True)"


def test_load_exported_builds_the_bidirectional_stack_it_was_given(tmp_path):
    T, B, I, H, O = 4, 2, 3, 2, 5
    torch.manual_seed(4)
    src = lt.LSTM(I, H, num_layers=2, norm="ln", bidirectional=True, forget_bias=2.0, dtype=F64)
    head = nn.Linear(2 * H, O, dtype=F64)
    tensors = {f"rnn.{k}": v.detach().numpy() for k, v in src.state_dict().items()}
    tensors.update({"head.weight": head.weight.detach().numpy(), "head.bias": head.bias.detach().numpy()})
    config = dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=2, forget_bias=2.0,
                  dtype="float64", bidirectional=True, skip=False)
    path = tmp_path / "m.safetensors"
    write_safetensors(path, tensors, {"model_config": json.dumps(config)})
    stack, got_head = lt.load_exported(path)
    assert stack.bidirectional and stack.forget_bias == 2.0 and not stack.training
    src.eval()
    x = torch.randn(T, B, I, dtype=F64)
    with torch.no_grad():
        (y, (h, c)), (yr, (hr, cr)) = stack(x), src(x)
        torch.testing.assert_close(y, yr, rtol=1e-12, atol=1e-12)
        torch.testing.assert_close(h, hr, rtol=1e-12, atol=1e-12)
        torch.testing.assert_close(got_head(y), head(yr), rtol=1e-12, atol=1e-12)
