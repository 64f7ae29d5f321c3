"""lnrnn.torch's one-step cells and stacks, thirteenth pass, judged against torch itself and by definition.

The judges: ``torch.nn.LSTMCell`` / ``nn.RNNCell`` (float64, their own drawn weights, loaded strictly) from zero
states with I = 3 != H = 5, batched at B = 2 and B = 1 and unbatched (h' of shape (H,)); ``nn.RNN`` / ``nn.LSTM``
at two bidirectional layers for what a stack hands back (h_n alone for the RNN, (h_n, c_n) for the LSTM); a
two-layer bidirectional BN-LSTM's state_dict names and shapes written out here from the module docstring and
the export names; and the refusal of bias=False word for word.

torch is an optional extra: without it these tests skip, unless LNRNN_REQUIRE_EXTRAS=1 (CI)."""
import os

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from test_values132_torch import _raises  # noqa: E402

F64 = torch.float64


def _cells(kind, I, H):
    torch.manual_seed(273)
    ref = (torch.nn.LSTMCell if kind == "lstm" else torch.nn.RNNCell)(I, H, dtype=F64)
    ours = (lt.LSTMCell if kind == "lstm" else lt.RNNCell)(I, H, norm=None, dtype=F64)
    ours.load_state_dict(ref.state_dict(), strict=True)
    return ref, ours


def _as_list(out):
    return list(out) if isinstance(out, tuple) else [out]


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
@pytest.mark.parametrize("shape", [(2, 3), (1, 3), (3,)])
def test_a_cell_from_zero_states_with_i_not_h_is_the_nn_cell(kind, shape):
    """hx=None: zero states of H = 5 entries per row (not I = 3); B = 1 keeps its batch axis, an unbatched
    input of (3,) gives states of (5,), as torch's cells."""
    ref, ours = _cells(kind, 3, 5)
    x = torch.randn(*shape, dtype=F64, generator=torch.Generator().manual_seed(1))
    want, got = _as_list(ref(x)), _as_list(ours(x))
    assert len(got) == len(want) == (2 if kind == "lstm" else 1)
    for a, b in zip(got, want):
        assert a.shape == b.shape == shape[:-1] + (5,)
        torch.testing.assert_close(a, b, rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_a_stack_hands_back_h_n_alone_for_the_rnn_and_h_n_c_n_for_the_lstm(kind):
    T, B, I, H, L = 3, 2, 3, 4, 2
    torch.manual_seed(2730)
    ref = (torch.nn.LSTM if kind == "lstm" else torch.nn.RNN)(I, H, num_layers=L, bidirectional=True, dtype=F64)
    ours = (lt.LSTM if kind == "lstm" else lt.RNN)(I, H, num_layers=L, norm=None, bidirectional=True, dtype=F64)
    ours.load_state_dict(ref.state_dict(), strict=True)
    x = torch.randn(T, B, I, dtype=F64, generator=torch.Generator().manual_seed(4))
    (y, final), (y_ref, final_ref) = ours(x), ref(x)
    torch.testing.assert_close(y, y_ref, rtol=0, atol=1e-12)
    if kind == "rnn":
        assert isinstance(final, torch.Tensor) and final.shape == (L * 2, B, H)
        torch.testing.assert_close(final, final_ref, rtol=0, atol=1e-12)
    else:
        assert isinstance(final, tuple) and len(final) == 2
        for a, b in zip(final, final_ref):
            assert a.shape == (L * 2, B, H)
            torch.testing.assert_close(a, b, rtol=0, atol=1e-12)


def test_a_two_layer_bidirectional_bn_lstms_state_dict_layout():
    """I = 3, H = 2 (G = 8): weight_ih (8, 3) in layer 0 and (8, 4) above; the BN gains of x Wx and h Wh (8,),
    of the cell (2,) with its bias; one row of population statistics per norm before any training."""
    I, H, G = 3, 2, 8
    m = lt.LSTM(I, H, num_layers=2, norm="bn", bidirectional=True, dtype=F64)
    want = {}
    for sfx, I_k in (("l0", I), ("l0_reverse", I), ("l1", 2 * H), ("l1_reverse", 2 * H)):
        want.update({f"weight_ih_{sfx}": (G, I_k), f"weight_hh_{sfx}": (G, H), f"bias_ih_{sfx}": (G,),
                     f"bias_hh_{sfx}": (G,), f"norm_ih_weight_{sfx}": (G,), f"norm_hh_weight_{sfx}": (G,),
                     f"norm_cell_weight_{sfx}": (H,), f"norm_cell_bias_{sfx}": (H,),
                     f"norm_ih_running_mean_{sfx}": (1, G), f"norm_ih_running_var_{sfx}": (1, G),
                     f"norm_hh_running_mean_{sfx}": (1, G), f"norm_hh_running_var_{sfx}": (1, G),
                     f"norm_cell_running_mean_{sfx}": (1, H), f"norm_cell_running_var_{sfx}": (1, H)})
    assert {k: tuple(v.shape) for k, v in m.state_dict().items()} == want


@pytest.mark.parametrize("cls,name", [(lt.LSTMCell, "LSTMCell"), (lt.RNNCell, "RNNCell")])
def test_a_cell_without_bias_is_refused_word_for_word(cls, name):
    _raises(ValueError, f"{name}: lnrnn's cells always have a bias: pass bias=True.",
            lambda: cls(3, 5, bias=False))
