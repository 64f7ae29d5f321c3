"""Prediction inputs and output paths (lnrnn/predict_io.py, lnrnn/files.py): check_inputs reading (N,T,I) as
sequences, steps, inputs (a (2,3,1) array fits one input per step, a (2,1,3) one does not, with the shape
named); check_like_training firing exactly past the range widened by slack * width (0.25 of [0, 4]: 5.0 taken,
5.5 refused) and its sentences word for word (the span low to high, 1 step in the singular); read_inputs naming
the IDX file inside a folder whose length differs, not the folder; IDX images refused for an npz run naming
the task; check_output_file refusing a link to nowhere with the link's own target, and taking a file under two
folders that do not exist yet, creating nothing."""
import os

import numpy as np
import pytest

from lnrnn.data.idx import write_idx
from lnrnn.errors import DataError, UserError
from lnrnn.files import check_output_file
from lnrnn.predict_io import check_inputs, check_like_training, read_inputs


def test_check_inputs_reads_sequences_steps_inputs_in_that_order():
    x = np.arange(6, dtype=np.float64).reshape(2, 3, 1)         # 2 sequences of 3 steps, 1 input
    np.testing.assert_array_equal(check_inputs(x, 1), x)
    with pytest.raises(UserError) as e:
        check_inputs(np.zeros((2, 1, 3)), 1, "runs/r")           # 1 step of 3 inputs
    assert str(e.value) == ("the sequences have 3 inputs per step but the model of runs/r reads 1; shape (2, 1, 3) "
                            "does not fit it (expected (N,T,1) or (N,T)).")


def test_values_refused_exactly_past_the_range_widened_by_slack():
    record = {"steps": 2, "min": 0.0, "max": 4.0}               # width 4, slack 0.25: margin 1.0
    inside = np.array([[[-1.0], [5.0]]])                        # at both widened ends
    assert check_like_training(inside, record, slack=0.25) == []
    assert check_like_training(np.array([[[0.5], [3.5]]]), record, slack=0.0) == []
    out = np.array([[[5.5], [-0.25]]])                          # high first: the span is still low to high
    assert check_like_training(out, record, slack=0.25) == [
        "their values span -0.25 to 5.5 where the training data's spanned 0 to 4"]


def test_step_counts_outside_a_range_are_named_in_singular_and_plural():
    record = {"steps": [2, 7]}
    assert check_like_training(np.zeros((1, 2, 1)), record) == []
    assert check_like_training(np.zeros((1, 7, 1)), record) == []
    assert check_like_training(np.zeros((1, 1, 1)), record) == [
        "they have 1 step where the training sequences had 2 to 7"]
    assert check_like_training(np.zeros((1, 8, 1)), record) == [
        "they have 8 steps where the training sequences had 2 to 7"]


def test_a_folders_idx_file_of_another_length_is_named_itself(tmp_path):
    np.save(tmp_path / "a.npy", np.zeros((2, 4, 1), np.float32))
    folder = tmp_path / "imgs"
    folder.mkdir()
    write_idx(folder / "t10k-images-idx3-ubyte", np.zeros((3, 2, 3), np.uint8))   # pixel by pixel: 6 steps
    with pytest.raises(DataError) as e:
        read_inputs([tmp_path / "a.npy", folder], "mnist", 1)
    assert str(e.value) == (f"{folder / 't10k-images-idx3-ubyte'} holds sequences of 6 steps but {tmp_path / 'a.npy'} "
                            "holds 4; predict them in separate calls.")


def test_idx_images_for_an_npz_run_are_refused_naming_the_task(tmp_path):
    path = tmp_path / "x-images-idx3-ubyte"
    write_idx(path, np.zeros((1, 2, 2), np.uint8))
    with pytest.raises(UserError) as e:
        read_inputs([path], "npz", 1)
    assert str(e.value) == (f"{path} holds IDX images, which only runs of mnist, pmnist, mnist-rows read; this run "
                            "was trained on npz: pass a .npy of sequences instead.")


def test_a_link_to_nowhere_is_refused_with_its_own_target(tmp_path):
    os.symlink("nowhere", tmp_path / "ln")                      # relative, dangling
    text = str(tmp_path / "ln" / "sub" / "p.csv")
    with pytest.raises(UserError) as e:
        check_output_file(text)
    assert str(e.value) == (f"{tmp_path / 'ln'} is a link to nowhere, which does not exist, so --out {text} cannot be "
                            "written there; choose another --out.")
    assert sorted(os.listdir(tmp_path)) == ["ln"]


def test_a_file_under_folders_not_made_yet_is_taken_and_nothing_made(tmp_path):
    text = str(tmp_path / "new" / "deeper" / "p.csv")
    assert check_output_file(text) == text
    assert os.listdir(tmp_path) == []
