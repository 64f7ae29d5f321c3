"""The functional layer API (lnrnn/model/functional.py) by hand and against central differences in float64:
grow_buffers repeating the last of 2 rows up to 5; check_lengths giving int64 lengths from int32 ones;
functional.backward leaving the caller's dy as it was when it drops padded steps and adds dL/dh_n into its copy;
layer_backward of a plain RNN with lengths 4, 1, 2 at T 4 != B 3 against central differences of the masked
loss; layer_forward with keep=False returning no residuals ([]); the refusal of dL/dc_n for a cell without a
cell state word for word."""
import numpy as np
import pytest

from lnrnn.model import cells, functional
from gradcheck_util import numeric_grad
from test_values169_functional import B, H, T, inputs, params


def test_grow_buffers_repeats_the_last_row_up_to_t():
    rm = np.arange(6.0).reshape(2, 3)
    out = functional.grow_buffers({"rm": rm, "rv": rm + 10}, 5)
    np.testing.assert_array_equal(out["rm"], rm[[0, 1, 1, 1, 1]])
    np.testing.assert_array_equal(out["rv"], rm[[0, 1, 1, 1, 1]] + 10)
    assert functional.grow_buffers({"rm": rm}, 2)["rm"].shape == (2, 3)


def test_check_lengths_gives_int64():
    out = functional.check_lengths(np.array([2, 0, 3], np.int32), 3, 3)
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out, [2, 0, 3])


def test_backward_leaves_the_callers_dy_as_it_was():
    p = params("rnn", 2)
    rng, x, (h0,) = inputs(4, 1)
    lengths = functional.check_lengths(np.array([4, 1, 2]), T, B)
    s = functional.setup(cells.get("rnn"), H, np.float64)
    y, _, saved = functional.forward(s, x, (h0,), p, {}, True, lengths, True)
    dy = rng.standard_normal((T, B, H))
    before = dy.copy()
    functional.backward(s, dy, saved, x, (h0,), p, lengths, dh_n=rng.standard_normal((B, H)))
    np.testing.assert_array_equal(dy, before)


def test_rnn_layer_backward_with_lengths_against_central_differences():
    p = params("rnn", 6)
    rng, x, (h0,) = inputs(7, 1)
    lengths = np.array([4, 1, 2])
    w = rng.standard_normal((T, B, H))
    run = (np.arange(T)[:, None] < lengths[None, :])[:, :, None]       # (T,B,1) steps a row runs

    def f():
        y = functional.layer_forward("rnn", x, (h0,), p, lengths=lengths)[0]
        return float(np.sum(w * y * run))

    y, _, res = functional.layer_forward("rnn", x, (h0,), p, lengths=lengths)
    dx, (dh0,), dp = functional.layer_backward("rnn", res, x, (h0,), p, y, w, lengths=lengths)
    np.testing.assert_allclose(dx, numeric_grad(f, x), rtol=1e-7, atol=1e-10)
    np.testing.assert_allclose(dh0, numeric_grad(f, h0), rtol=1e-7, atol=1e-10)
    np.testing.assert_allclose(dp["Wx"], numeric_grad(f, p["Wx"]), rtol=1e-7, atol=1e-10)


def test_layer_forward_without_keep_returns_no_residuals():
    p = params("lstm", 1)
    _, x, state = inputs(2, 2)
    y, final, res = functional.layer_forward("lstm", x, state, p, keep=False)
    assert res == [] and isinstance(res, list)
    assert y.shape == (T, B, H) and len(final) == 2


def test_gradient_for_a_cell_state_refused_word_for_word():
    p = params("rnn", 1)
    _, x, (h0,) = inputs(3, 1)
    y, _, res = functional.layer_forward("rnn", x, (h0,), p)
    with pytest.raises(NotImplementedError) as e:
        functional.layer_backward("rnn", res, x, (h0,), p, y, None, dfinal=(None, np.ones((B, H))))
    assert str(e.value) == ("lnrnn's rnn kernels take no gradient for the final cell state c_n: use the output "
                            "sequence or h_n in the loss, or detach c_n.")
