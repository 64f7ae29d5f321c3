"""The decoders (lnrnn/model/decode.py), eighteenth pass: collapse of NumPy paths gives plain Python integers
(the label writes out as JSON) merged and blank-dropped by hand; best_path_array over one batch with lengths 0,
1 and T, each row's label written out by hand from the argmax path built into the test, its label lengths int64
(the dtype ctc_forward documents for label_lengths) and its labels fed back to ctc_forward; the beam width's
refusal word for word."""
import json
import math

import numpy as np
import pytest

from lnrnn.kernels.ctc import ctc_forward
from lnrnn.model.decode import best_path, best_path_array, collapse, prefix_beam_search


def test_collapse_of_a_numpy_path_writes_out_as_json():
    path = np.array([0, 3, 3, 0, 3, 1, 1, 0, 2], np.int64)
    out = collapse(path)
    assert json.dumps(out) == "[3, 3, 1, 2]"
    assert [type(k) for k in out] == [int] * 4


def test_best_path_array_lengths_0_1_and_T_by_hand_with_int64_lengths():
    T, C = 5, 3
    paths = [[2, 2, 0, 2, 1],                         # length T: "2 2 1"
             [1, 1, 1, 1, 1],                         # length 0: nothing
             [2, 1, 1, 0, 0],                         # length 1: "2"
             [0, 1, 0, 1, 1]]                         # length 4: "1 1"
    lengths = np.array([5, 0, 1, 4])
    logp = np.full((T, len(paths), C), math.log(0.2))
    for b, p in enumerate(paths):
        for t, k in enumerate(p):
            logp[t, b, k] = math.log(0.6)
    labels, n = best_path_array(logp, lengths)
    assert n.dtype == np.int64 and labels.dtype == np.int64
    assert n.tolist() == [3, 0, 1, 2]
    assert labels.tolist() == [[2, 2, 1, -1, -1], [-1] * 5, [2, -1, -1, -1, -1], [1, 1, -1, -1, -1]]
    assert best_path(logp, lengths) == [[2, 2, 1], [], [2], [1, 1]]
    # the decoded labels score under the CTC loss of the same steps: "2 2 1" on 2 2 0 2 1 has p > 0
    loss, saved = ctc_forward(logp, labels.clip(min=0), lengths.astype(np.int64), n)
    assert np.all(np.isfinite(saved[2]))


@pytest.mark.parametrize("width", [0, -2])
def test_beam_width_below_one_refused_word_for_word(width):
    with pytest.raises(ValueError) as e:
        prefix_beam_search(np.zeros((2, 3)), width)
    assert str(e.value) == f"the beam width must be at least 1, got {width}"
