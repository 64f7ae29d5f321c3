"""The functional layer API (lnrnn/model/functional.py), nineteenth pass, against values written out here and
lnrnn.reference in float64: unit_gains' ones and zeros of widths G and H (G = 4H for an LSTM); final_state of
rows of length 0, inside T and exactly T against its docstring (the initial state, the sequence at the row's
last step, the kernel's final state); an LSTM's layer_forward with lengths T, 1 and 0 against the reference
run row by row; the refusal of dL/dc_n for a BN-LSTM word for word (a plain LSTM's dL/dc_n against central differences:
test_values204_functional)."""
import numpy as np
import pytest

from lnrnn import backend
from lnrnn.model import cells, functional
from test_values169_functional import B, H, T, inputs, params
from test_values204_functional import check_rows_by_reference


def test_unit_gains_are_ones_and_zeros_of_widths_g_and_h():
    g = functional.unit_gains(4 * 5, 5, np.dtype(np.float64).str)
    assert set(g) == {"1G", "0G", "1H", "0H"}
    np.testing.assert_array_equal(g["1G"], np.ones(20))
    np.testing.assert_array_equal(g["0G"], np.zeros(20))
    np.testing.assert_array_equal(g["1H"], np.ones(5))
    np.testing.assert_array_equal(g["0H"], np.zeros(5))
    assert all(v.dtype == np.float64 for v in g.values())


def test_final_state_of_rows_of_length_zero_inside_and_t():
    rng = np.random.default_rng(21)
    Tn, Bn, Hn = 4, 3, 5
    y, c = rng.standard_normal((Tn, Bn, Hn)), rng.standard_normal((Tn, Bn, Hn))
    hT, cT = rng.standard_normal((Bn, Hn)), rng.standard_normal((Bn, Hn))
    h0, c0 = rng.standard_normal((Bn, Hn)), rng.standard_normal((Bn, Hn))
    lengths = np.array([0, 2, 4])
    hn, cn = functional.final_state(backend.kernels("cpu"), (hT, cT), (y, c), (h0, c0), lengths)
    np.testing.assert_array_equal(hn, np.stack([h0[0], y[1, 1], hT[2]]))
    np.testing.assert_array_equal(cn, np.stack([c0[0], c[1, 1], cT[2]]))


def test_lstm_forward_with_lengths_t_one_and_zero_row_by_row():
    p = params("lstm", 22)
    _, x, (h0, c0) = inputs(23, 2)
    lengths = np.array([T, 1, 0])
    y, (hn, cn), _ = functional.layer_forward("lstm", x, (h0, c0), p, lengths=lengths, keep=False)
    check_rows_by_reference(x, (h0, c0), p, lengths, (hn, cn), y)


def test_dc_n_of_a_bn_lstm_is_refused_word_for_word():
    s = functional.setup(cells.get("bn-lstm"), H, np.float64)
    _, x, state = inputs(24, 2)
    with pytest.raises(NotImplementedError) as e:
        functional.backward(s, np.zeros((T, B, H)), None, x, state, None, dc_n=np.ones((B, H)))
    assert str(e.value) == ("lnrnn's bn-lstm kernels take no gradient for the final cell state c_n: use the output "
                            "sequence or h_n in the loss, or detach c_n.")
