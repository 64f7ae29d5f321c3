"""The problems lnrnn/gradcheck.py builds must be able to show a wrong backward, not only pass a right one:
check_stack judges moved parameters (a gain slip that LN's initial gains of 1 would hide is reported), in
inference mode BN running statistics that are neither 0 nor 1 and the same at every evaluation, random initial
states, and loss weights that differ by step and unit (a backward that reads dL/dy in reversed time is reported);
check_model draws end-of-stroke targets of both values, every class of a classifier, and window texts of different
lengths, one of them empty."""
import numpy as np
import pytest

from lnrnn.gradcheck import TOLERANCE, check_model, check_stack
from lnrnn.model import models
from lnrnn.model.layers import RecurrentStack


def test_a_gain_slip_hidden_at_initial_gains_is_reported(monkeypatch):
    """dL/dg planted as g * (the right one): equal while g is 1, LN's initial gain, wrong once it moves."""
    backward = RecurrentStack.backward

    def planted(self, dy, *a, **k):
        dx = backward(self, dy, *a, **k)
        self.grads["l0.g"] *= self.params["l0.g"]
        return dx

    monkeypatch.setattr(RecurrentStack, "backward", planted)
    res = dict(check_stack("rnn", "ln", T=3, B=2, I=2, H=3, num_layers=1))
    assert res["l0.g"] > 1e-3
    assert all(e < TOLERANCE for n, e in res.items() if n != "l0.g")


def test_a_backward_reading_dy_in_reversed_time_is_reported(monkeypatch):
    backward = RecurrentStack.backward

    def planted(self, dy, *a, **k):
        return backward(self, np.ascontiguousarray(dy[::-1]), *a, **k)

    monkeypatch.setattr(RecurrentStack, "backward", planted)
    res = dict(check_stack("rnn", "none", T=3, B=2, I=2, H=3, num_layers=1))
    assert min(res.values()) > 1e-3, res


def _recording_forward(monkeypatch):
    """Patch RecurrentStack.forward to keep (state, buffers) of every call."""
    seen = []
    forward = RecurrentStack.forward

    def recording(self, x, state=None, *a, **k):
        seen.append(([tuple(np.array(s) for s in st) for st in state],
                     {n: v.copy() for n, v in self.buffers.items()}))
        return forward(self, x, state, *a, **k)

    monkeypatch.setattr(RecurrentStack, "forward", recording)
    return seen


def test_inference_mode_judges_moved_running_statistics_the_same_at_every_evaluation(monkeypatch):
    seen = _recording_forward(monkeypatch)
    res = dict(check_stack("lstm", "bn", T=3, B=2, I=2, H=3, num_layers=1, training=False, max_elems=3))
    assert all(e < TOLERANCE for e in res.values()), res
    first = seen[0][1]
    assert {"l0.rmx", "l0.rvx", "l0.rmh", "l0.rvh", "l0.rmc", "l0.rvc"} <= set(first)
    for n, v in first.items():
        if n.split(".")[1].startswith("rv"):
            assert v.min() >= 0.5 and v.max() <= 1.5 and np.ptp(v) > 0.1, n
        else:
            assert np.abs(v).max() > 0.1, n
    for _, bufs in seen[1:]:
        for n, v in first.items():
            np.testing.assert_array_equal(bufs[n], v)


@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_initial_states_are_random(monkeypatch, cell):
    seen = _recording_forward(monkeypatch)
    check_stack(cell, "none", T=2, B=2, I=2, H=3, num_layers=2, max_elems=2)
    states = seen[0][0]
    assert len(states) == 2 and all(len(st) == (2 if cell == "lstm" else 1) for st in states)
    for st in states:
        for s in st:
            assert s.shape == (2, 3) and np.abs(s).min() > 0 and np.std(s) > 0.1


def _recording_targets(monkeypatch):
    """Patch models.build_model so that each model keeps the targets and text of every loss_and_grad call."""
    calls = []
    real = models.build_model

    def build(*a, **k):
        m = real(*a, **k)
        inner = m.loss_and_grad

        def loss_and_grad(x, targets, lengths=None, **kw):
            calls.append((np.array(targets), kw.get("text")))
            return inner(x, targets, lengths, **kw)

        m.loss_and_grad = loss_and_grad
        return m

    monkeypatch.setattr(models, "build_model", build)
    return calls


def test_mdn_targets_lift_and_keep_the_pen(monkeypatch):
    calls = _recording_targets(monkeypatch)
    check_model("lstm", "none", head="mdn", T=4, B=3, I=3, H=3, num_layers=1, max_elems=2)
    eos = calls[0][0][..., 2]
    assert set(np.unique(eos)) == {0.0, 1.0}


def test_classifier_targets_cover_every_class(monkeypatch):
    calls = _recording_targets(monkeypatch)
    check_model("rnn", "none", head="classifier", per_step=True, T=5, B=3, I=2, H=3, num_layers=1, max_elems=2)
    assert set(np.unique(calls[0][0])) == {0, 1, 2}


def test_window_texts_have_different_lengths_one_empty(monkeypatch):
    calls = _recording_targets(monkeypatch)
    check_model("lstm", "none", head="mdn", T=3, B=3, I=3, H=3, num_layers=1, max_elems=2, window=2, alphabet=4)
    codes, lengths = calls[0][1]
    assert codes.shape == (3, 4)
    assert 0 in lengths and len(set(lengths.tolist())) == 3 and max(lengths) <= 4
