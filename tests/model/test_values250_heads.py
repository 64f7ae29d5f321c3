"""Heads (lnrnn/model/heads.py) against their definitions, the head's W the identity and b 0 (test_values235's
identity_head) so that its logits are the h written here. The CTC head reads labels padded at their end with
-1 on rows of their own step counts: its loss is -log of the sum over every path of a row's own steps that
collapses to its label (enumerated by test_values235's ctc_loss_by_paths), rows whose step count differs from
their label's length; its count is the rows with at least one step (not the steps), 'chars' their labels'
lengths. The mixture density head has 6 outputs per component and one for the end of stroke (Graves 2013,
eq. 18: weights, two means, two deviations, a correlation, then e), and refuses another count naming both."""
import numpy as np
import pytest

from lnrnn.model.heads import CTCHead, MDNHead
from test_values235_heads import ctc_loss_by_paths, identity_head


def test_ctc_padded_labels_on_rows_of_their_own_steps_against_every_path():
    C, T, B = 3, 4, 4
    head = identity_head(CTCHead, C)
    h = np.random.default_rng(25040).standard_normal((T, B, C))
    targets = np.array([[2, -1, -1], [1, 1, -1], [1, 2, 1], [-1, -1, -1]])   # (B, Lmax 3)
    lengths = [2, 3, 3, 4]                                # row 1's 'a a' fits 3 steps with its blank
    valid = np.arange(T)[:, None] < np.array(lengths)[None, :]
    assert head.count(targets, valid) == 4
    sums, n, _ = head.forward(h, targets, valid)
    assert n == 4
    assert sums["chars"] == 1 + 2 + 3 + 0
    lsm = h - np.log(np.exp(h).sum(-1, keepdims=True))
    rows = [[2], [1, 1], [1, 2, 1], []]
    want = sum(ctc_loss_by_paths(lsm[:lengths[b], b], rows[b]) for b in range(B))
    np.testing.assert_allclose(sums["loss"], want, rtol=1e-10)


def test_ctc_count_is_rows_with_a_step_not_steps():
    """Rows of 3, 0, 1 and 2 steps: 3 rows are scored (6 steps run)."""
    head = identity_head(CTCHead, 3)
    valid = np.zeros((3, 4), bool)
    valid[:3, 0] = valid[:1, 2] = valid[:2, 3] = True
    targets = np.array([[1], [2], [1], [-1]])
    assert head.count(targets, valid) == 3
    sums, n, _ = head.forward(np.zeros((3, 4, 3)), targets, valid)
    assert n == 3 and sums["chars"] == 2.0
    # uniform steps: 'a' on 3 steps has 6 paths of (1/3)^3, on 1 step 1 path of 1/3; the empty label on 2, 1 path
    np.testing.assert_allclose(sums["loss"], -np.log(6 / 27) - np.log(1 / 3) - np.log(1 / 9), rtol=1e-12)


def test_mixture_has_six_outputs_a_component_and_one_for_the_stroke_end():
    for M, K in ((1, 7), (3, 19), (20, 121)):
        head = MDNHead(5, components=M)
        assert head.O == K
        assert head.params["W"].shape == (5, K) and head.params["b"].shape == (K,)
        assert MDNHead(5, components=M, outputs=K).O == K


def test_mixture_of_another_output_count_is_refused_naming_both():
    with pytest.raises(ValueError) as e:
        MDNHead(5, components=3, outputs=18)
    assert str(e.value) == "a mixture of 3 components has 19 outputs, not 18"
    with pytest.raises(ValueError) as e:
        MDNHead(5, components=1, outputs=6)
    assert str(e.value) == "a mixture of 1 component has 7 outputs, not 6"
