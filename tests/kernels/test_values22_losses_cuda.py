"""lnrnn/kernels/losses_cuda.py where a decision ties: the device classifier's prediction and the device CTC head's
best path take the first index of a maximum (np.argmax, as the host heads and lnrnn.model.decode do), so a tie of
the label and a later class counts as correct, one of a label and the blank (class 0) at a step emits nothing.
Values exact in binary; rows compared with the definitions written here in NumPy (the simulator, or a GPU)."""
import numpy as np
import pytest

from lnrnn import backend

ok, why = backend.cuda_usable()
pytestmark = pytest.mark.skipif(not ok, reason=f"CUDA not usable: {why}")

from test_values97_heads_cuda import levenshtein  # noqa: E402  (edit distance by its table)


def test_classifier_prediction_is_the_first_of_tied_logits():
    from lnrnn.kernels import losses_cuda
    from lnrnn.kernels.cuda import arrays_cuda
    hw = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 2.0, 2.0], [0.5, 0.5, 0.5], [3.0, 0.0, 3.0]])  # (B,C)
    b = np.array([0.0, 0.0, 0.0])
    labels = np.array([0, 1, 1, 0, 2], np.int64)
    mask = np.ones(5)
    z = hw + b
    want_correct = (z.argmax(axis=1) == labels).astype(float)
    assert want_correct.tolist() == [1.0, 0.0, 1.0, 1.0, 0.0]
    logp = z - z.max(axis=1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(axis=1, keepdims=True))
    d = arrays_cuda.empty(hw.shape, np.float64)
    rows = arrays_cuda.empty((5, 2), np.float64)
    losses_cuda.softmax_xent(arrays_cuda.to_device(hw), arrays_cuda.to_device(b), arrays_cuda.to_device(labels),
                             arrays_cuda.to_device(mask), 0.5, d, rows)
    got = rows.copy_to_host()
    np.testing.assert_array_equal(got[:, 1], want_correct)
    np.testing.assert_allclose(got[:, 0], -logp[np.arange(5), labels], rtol=1e-14)
    onehot = np.eye(3)[labels]
    np.testing.assert_allclose(d.copy_to_host(), 0.5 * (np.exp(logp) - onehot), atol=1e-15)


def test_ctc_best_path_is_the_first_of_tied_classes():
    """Row 0: steps where the blank ties label 1 (nothing emitted) and label 1 ties label 2 (1 emitted); row 1: a
    tie of two labels at every step, shorter input; row 2: no step (its row stays zero). The edit distances equal
    those of the host's best path (lnrnn.model.decode) to the labels, and differ from a last-of-ties decode."""
    from lnrnn.kernels import ctc_cuda, losses_cuda
    from lnrnn.kernels.cuda import arrays_cuda
    from lnrnn.model.decode import best_path
    T, B, C = 4, 3, 3
    scores = np.full((T, B, C), -3.0)
    scores[0, 0, [0, 1]] = 0.0     # blank = 1: nothing (first of ties: the blank)
    scores[1, 0, [1, 2]] = 0.0     # 1 = 2: emits 1
    scores[2, 0, 0] = 0.0          # blank
    scores[3, 0, [0, 2]] = 0.0     # blank = 2: nothing
    scores[:, 1, [1, 2]] = 0.0     # 1 = 2 at every step: "1" once (repeats merged)
    scores[:, 2, 0] = 0.0
    logp = scores - np.log(np.exp(scores).sum(axis=2, keepdims=True))
    labels = np.array([[1, 2], [2, 0], [1, 0]], np.int64)
    label_lengths = np.array([1, 1, 1], np.int64)
    input_lengths = np.array([4, 3, 0], np.int64)
    hyps = best_path(logp, input_lengths)
    assert hyps == [[1], [1], []]
    want = [float(levenshtein(labels[b, :label_lengths[b]].tolist(), hyps[b])) if input_lengths[b] else 0.0
            for b in range(B)]
    loss, saved = ctc_cuda.ctc_forward(logp, labels, input_lengths, label_lengths)
    rows = arrays_cuda.empty((B, 2), np.float64)
    losses_cuda.ctc_rows(loss, saved[0], arrays_cuda.to_device(labels), arrays_cuda.to_device(input_lengths),
                         arrays_cuda.to_device(label_lengths), rows)
    got = rows.copy_to_host()
    np.testing.assert_array_equal(got[:, 1], want)
    # a decode taking the last of tied classes (by hand) would score other distances on rows 0 and 1
    arg = C - 1 - logp[:, :, ::-1].argmax(axis=2)                                # (T,B)
    for b, d in ((0, 2.0), (1, 0.0)):
        seq = [c for t, c in enumerate(arg[:input_lengths[b], b]) if c != 0 and (t == 0 or c != arg[t - 1, b])]
        assert levenshtein(labels[b, :1].tolist(), seq) == d != want[b]
