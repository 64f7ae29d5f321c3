"""Best-path decoding against a hand computation: each row's per-step argmax over its own steps only (a
padded step's class, however probable, is not read), repeats merged, blanks dropped."""
import numpy as np

from lnrnn.model.decode import best_path, best_path_array


def test_best_path_reads_no_step_past_a_rows_length():
    classes = np.array([[1, 2, 2, 0],       # row 0, length 2: reads 1, 2 (the third step's 2 is padding)
                        [1, 1, 0, 1]])      # row 1, length 4: 1 (merged), blank, 1
    T = classes.shape[1]
    logp = np.full((T, 2, 3), np.log(0.1))
    for b in range(2):
        for t in range(T):
            logp[t, b, classes[b, t]] = np.log(0.8)
    pad = classes.copy()
    pad[0, 2:] = [1, 2]                      # row 0's padding now reads as new labels if it were read
    for t in range(2, T):
        logp[t, 0] = np.log(0.1)
        logp[t, 0, pad[0, t]] = np.log(0.8)
    labels, n = best_path_array(logp, np.array([2, 4]))
    assert n.tolist() == [2, 2]
    assert labels.tolist() == [[1, 2, -1, -1], [1, 1, -1, -1]]
    assert best_path(logp, np.array([2, 4])) == [[1, 2], [1, 1]]
    assert best_path(logp, np.array([1, 3])) == [[1], [1]]
    assert best_path(logp) == [[1, 2, 1, 2], [1, 1]]
