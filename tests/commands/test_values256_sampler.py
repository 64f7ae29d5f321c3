"""lnrnn/sample.py's refusals and prime files, against sentences and arrays written out here (test_values52's
models and alphabet). A model without a window given a text is refused before any step, with the sentence
that says why; a synthesis model given no lines is told to give them with 'text'. A .npy prime (of any
extension case) gives its points back; a .npy of pickled objects is refused as pickled, not loaded; a file
of another extension is refused naming both accepted ones. Nothing is written by any of these."""
import os

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.sample import read_stroke3, sample_strokes, text_inputs
from test_values52_sampler import ALPHABET, codes, free_model, text_model


def test_a_free_model_given_a_text_is_refused_and_a_text_model_writes():
    with pytest.raises(UserError) as e:
        sample_strokes(free_model(), 3, 1, text=codes("ab"))
    assert str(e.value) == ("this model was trained without text (it has no attention window): it draws freely and "
                            "can neither write a given text nor be primed with one; sample it without them.")
    rows = sample_strokes(text_model(), 2, 1, seed=3, text=codes("ab"), alphabet=ALPHABET)
    assert [r.text for r in rows] == ["ab"]
    assert rows[0].points.shape[1] == 3 and 1 <= len(rows[0].points) <= 2


def test_a_text_model_given_no_lines_is_told_to_give_them_with_text():
    with pytest.raises(UserError) as e:
        text_inputs(text_model(), {"alphabet": ALPHABET}, None)
    assert str(e.value) == ("this run writes a given text (it reads each line through an attention window): give "
                            "the lines to write with text.")


@pytest.mark.parametrize("name", ["prime.npy", "PRIME.NPY"])
def test_a_npy_prime_is_read(tmp_path, name):
    pts = np.array([[0.5, -1.0, 0.0], [2.0, 0.25, 1.0]])
    path = tmp_path / name
    with open(path, "wb") as f:
        np.save(f, pts)
    np.testing.assert_array_equal(read_stroke3(path, "--prime-strokes"), pts)


def test_a_npy_of_pickled_objects_is_refused_unread(tmp_path):
    path = tmp_path / "prime.npy"
    np.save(path, np.array([[1, 2, 0], [3, 4, 1]], dtype=object), allow_pickle=True)
    with pytest.raises(UserError) as e:
        read_stroke3(path, "--prime-strokes")
    assert str(e.value) == (f"--prime-strokes {path} cannot be read as stroke-3 (it holds pickled objects, which "
                            "are not read).")


def test_another_extension_is_refused_naming_both(tmp_path):
    path = tmp_path / "prime.txt"
    with pytest.raises(UserError) as e:
        read_stroke3(path, "--prime-strokes")
    assert str(e.value) == (f"--prime-strokes {path} must be a .npz (with a points array, as --npz writes) or a .npy "
                            "stroke-3 file.")
    assert not os.path.exists(path)
