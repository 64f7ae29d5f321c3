"""Round 332 on the CPU LSTM and LN-LSTM (lnrnn/kernels/lstm.py) in float64 against the NumPy spec
(lnrnn/reference.py), at awkward sizes: B = 7 and 5 rows on 1, 2 and 3 chunks (none a divisor of either),
H = 5 and 9, inputs 1 and 3 columns wide (the narrow path, I <= FOLD_MAX_I = 4) and 6 (the wide one), LayerNorm on
and off. The forward: lstm_forward's y, hT, cT and lstm_infer's (training and evaluation) at T = 1, 2 and 3, and the
same sequence run as two pieces with (h, c) carried from the first to the second. The backward: every gradient
against reference.lstm_backward with Graves's gate clip off, exactly at the largest |dL/d(preactivation)| (nothing
clipped) and at half of it (binding); every gradient against central differences of the reference's loss with a
final-cell gradient dcT. The problem (gains and biases away from 1 and 0, a forget bias of +1) is
test_values147_lstm's."""
import numpy as np
import pytest

from lnrnn.kernels.lstm import lstm_forward, lstm_infer
from test_values147_lstm import EPS, FWD, NORM, check_central_differences, problem, rel, spec
from test_values302_lstm import check_clipped_backward

WIDTHS = [1, 3, 6]  # narrow (fold) at 1 and 3, wide at 6


def run_both(p, norm, nch):
    """(y, hT, cT) of lstm_forward and of lstm_infer on nch chunks."""
    args = [p[k] for k in FWD]
    return lstm_forward(*args, NORM[norm], EPS, nch)[:3], lstm_infer(*args, NORM[norm], EPS, nch)


@pytest.mark.parametrize("T", [1, 2, 3])
@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_forward_and_infer_at_one_two_and_three_steps_against_the_spec(I, norm, T):
    B, H = 7, 5
    p = problem(33200 + 10 * I + T, T, B, I, H)
    y, hT, cT, _ = spec(p, norm)
    for nch in (1, 2, 3):
        for who, (yk, hk, ck) in zip(("forward", "infer"), run_both(p, norm, nch)):
            for name, got, want in (("y", yk, y), ("hT", hk, hT), ("cT", ck, cT)):
                assert got.shape == want.shape, (who, name, nch)
                assert rel(got, want) < 1e-12, (who, name, nch, rel(got, want))
        if T < 2:
            continue
        # two pieces, [0, 1) and [1, T), the state of the first carried into the second
        first = dict(p, x=np.ascontiguousarray(p["x"][:1]))
        for who in (0, 1):
            y1, h1, c1 = run_both(first, norm, nch)[who]
            second = dict(p, x=np.ascontiguousarray(p["x"][1:]), h0=h1, c0=c1)
            y2, h2, c2 = run_both(second, norm, nch)[who]
            assert rel(np.concatenate([y1, y2]), y) < 1e-12, (who, nch)
            assert rel(h2, hT) < 1e-12 and rel(c2, cT) < 1e-12, (who, nch)


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_every_gradient_against_the_spec_with_the_clip_off_at_and_inside_its_bound(I, norm):
    T, B, H = 3, 5, 9
    p = problem(33230 + I, T, B, I, H)
    dy = np.random.default_rng(33240 + I).standard_normal((T, B, H)) * 2.0
    check_clipped_backward(p, norm, dy, (0.0, 1.0, 0.5))


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_every_gradient_against_central_differences(I, norm):
    """Loss sum(wy y) + sum(wc c_T) through reference.lstm_forward, T = 2, B = 3, H = 5, on 2 chunks (dcT = wc)."""
    T, B, H = 2, 3, 5
    p = problem(33250 + I, T, B, I, H)
    # inputs at least 0.5 away from 0: at I = 1 with LN, x_t Wx's LayerNorm is flat in x but for eps, and steep
    # near 0, where central differences lose their digits
    p["x"] = np.ascontiguousarray(np.sign(p["x"]) * (np.abs(p["x"]) + 0.5))
    rng = np.random.default_rng(33260 + I)
    wy = rng.standard_normal((T, B, H))
    wc = rng.standard_normal((B, H))
    check_central_differences(p, norm, 2, wy, wc)
