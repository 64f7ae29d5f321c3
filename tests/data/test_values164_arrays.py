"""The npz task against files written here with numpy: its refusals' sentences (a .npy file, an object array, a
text x, NaN, lengths past T) and its held-out sizes and description at awkward N, against 10% rounded (at least
1) worked by hand and the seed-0 permutation drawn here."""
import re

import numpy as np
import pytest

from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError


def _load(path, split=None):
    return load_task(task_spec("npz", data_dir=str(path), split=split))


def _refusal(tmp_path, **arrays):
    path = tmp_path / "mine.npz"
    np.savez(path, **arrays)
    with pytest.raises(DataError) as e:
        _load(path)
    return str(e.value), str(path)


def test_a_npy_file_is_told_to_hold_named_arrays(tmp_path):
    path = tmp_path / "x.npy"
    np.save(path, np.zeros((3, 4), np.float32))
    with pytest.raises(DataError) as e:
        _load(path)
    assert str(e.value) == (f"{path} holds a single array (.npy); the npz task needs named arrays x and y: save "
                            "them with numpy.savez(path, x=..., y=...).")


def test_an_object_array_is_refused_with_the_advice_to_pad(tmp_path):
    ragged = np.empty(2, object)
    ragged[0], ragged[1] = [1.0, 2.0], [3.0]
    message, path = _refusal(tmp_path, x=ragged, y=np.array([0, 1]))
    assert message == (f"{path}: array x is an object array (it would need pickle, which can run code); store "
                       "numbers in a regular array, padding sequences to one length with lengths beside them.")


@pytest.mark.parametrize("bad,sentence", [
    (dict(x=np.array([["ab", "cde"]] * 2)), "x must hold numbers, not <U3 (object or text arrays are refused)."),
    (dict(x=np.array([[0.0, np.nan]] * 2)), "x holds NaN or infinite values; replace them (padding included)."),
    (dict(lengths=np.array([2, 3])), "lengths must lie between 1 and T=2, but one is 3."),
])
def test_a_bad_array_is_refused_in_its_own_sentence(tmp_path, bad, sentence):
    arrays = dict(x=np.ones((2, 2), np.float32), y=np.array([0, 1]))
    arrays.update(bad)
    message, path = _refusal(tmp_path, **arrays)
    assert message == f"{path}: {sentence}"


# N -> sequences held out: 10% of N rounded, at least 1 (by hand: 0.2, 0.3, 0.7, 1.1, 10.1)
HELD_OUT = {2: 1, 3: 1, 7: 1, 11: 1, 101: 10}


@pytest.mark.parametrize("N", sorted(HELD_OUT))
def test_the_description_counts_the_held_out_split(tmp_path, N):
    path = tmp_path / "mine.npz"
    np.savez(path, x=np.arange(N * 3, dtype=np.float32).reshape(N, 3), y=np.arange(N) % 2)
    d = _load(path)
    b = HELD_OUT[N]
    assert (d.size("train"), d.size("val")) == (N - b, b)
    assert f"; {N - b} train / {b} validation (held out from x by a fixed seed)" in d.description


def test_one_sequence_is_refused(tmp_path):
    message, path = _refusal(tmp_path, x=np.ones((1, 4)), y=np.array([1]))
    assert message == (f"{path} holds 1 sequence; holding some out for validation needs at least 2 (or give x_val, "
                       "y_val).")


@pytest.mark.parametrize("N,split", [(11, "7/3"), (7, "2/5")])
def test_a_split_trains_on_a_and_holds_out_b(tmp_path, N, split):
    a, b = map(int, split.split("/"))
    path = tmp_path / "mine.npz"
    x = np.arange(N * 2, dtype=np.float32).reshape(N, 2)
    np.savez(path, x=x, y=np.arange(N) % 2)
    d = _load(path, split)
    perm = np.random.default_rng(0).permutation(N)
    np.testing.assert_array_equal(d.x_train[:, :, 0], x[perm[:a]])
    np.testing.assert_array_equal(d.x_val[:, :, 0], x[perm[a:a + b]])
    assert re.search(rf"; {a} train / {b} validation \(held out", d.description)
