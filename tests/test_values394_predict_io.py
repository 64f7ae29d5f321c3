"""lnrnn/predict_io.py, twentieth pass: predict's refusals, records and tables against the module docstring, on tiny
files written here.

The judges: the refusals of an .npz, of .npy-named files that are none (empty, text, other bytes), of IDX images
for a task outside the MNIST family, of complex and of infinite sequences, word for word (the file's kind in
numpy_kind's phrase, its first six bytes written out by hand); training_record of metadata without a task spec and
of a spec its task no longer takes (a plain UserError of task_spec): None, no check; describe_task_data of a
hand-made task with x_train and a scale against the record written out by hand, None for one without x_train; a
float64 .npy read as it is (values float32 cannot hold); a per-step regression table of ragged sequences and a
classifier's .npy table against rows written out by hand; a .npy table written into folders that do not exist yet,
atomically (no temporary file left beside it, an old table replaced whole)."""
import os
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.data.idx import write_idx
from lnrnn.errors import DataError, UserError
from lnrnn.predict_io import (INPUTS, check_inputs, describe_task_data, prediction_columns, read_inputs,
                              training_record, write_predictions)

READS = ("a .npy of sequences, (N,T) or (N,T,I) (numpy.save), an MNIST-family IDX images file (gzip or raw), or "
         "a folder of them")


def test_what_predict_reads_word_for_word():
    assert INPUTS == READS


def test_npz_refused_with_the_npy_advice_word_for_word(tmp_path):
    path = tmp_path / "x.npz"
    np.savez(path, x=np.zeros((2, 3)))
    with pytest.raises(DataError) as e:
        read_inputs([str(path)], "adding", 1)
    assert str(e.value) == (f"{path} is an .npz file, which predict does not read; it reads {READS}: save the "
                            "sequences with numpy.save('x.npy', x).")


@pytest.mark.parametrize("content, kind", [
    (b"", "is empty (0 bytes)"),
    (b"1,2,3\n4,5,6\n", "is not a NumPy .npy or .npz (zip) file (text b'1,2,3\\n'...)"),
    (b"\x00\x01", "is not a NumPy .npy or .npz (zip) file (it begins with bytes b'\\x00\\x01')"),
])
def test_npy_named_file_that_is_none_says_what_it_is(tmp_path, content, kind):
    path = tmp_path / "x.npy"
    path.write_bytes(content)
    with pytest.raises(DataError) as e:
        read_inputs([str(path)], "adding", 1)
    assert str(e.value) == f"{path} {kind}; predict reads {READS}."


def test_idx_images_for_another_task_refused_naming_the_whole_mnist_family(tmp_path):
    path = tmp_path / "t10k-images-idx3-ubyte"
    write_idx(path, np.zeros((2, 3, 3), np.uint8))
    with pytest.raises(UserError) as e:
        read_inputs([str(path)], "digits", 1)
    assert str(e.value) == (f"{path} holds IDX images, which only runs of mnist, pmnist, mnist-rows read; this run "
                            "was trained on digits: pass a .npy of sequences instead.")


def test_complex_and_infinite_sequences_refused_word_for_word():
    with pytest.raises(UserError) as e:
        check_inputs(np.array([[0.5 + 1.0j, 2.0]], np.complex64), 1)
    assert str(e.value) == "the sequences must be real numbers, not complex64 values."
    for bad in (np.inf, -np.inf, np.nan):
        with pytest.raises(UserError) as e:
            check_inputs(np.array([[0.5, bad, 2.0]]), 1)
        assert str(e.value) == "the sequences hold NaN or infinite values."


def test_training_record_none_without_a_task_spec():
    assert training_record({}) is None
    assert training_record({"task": None}) is None
    assert training_record({"data": None}) is None


def test_training_record_none_for_a_spec_its_task_no_longer_takes():
    from lnrnn.data.tasks import load_task

    spec = {"task": "digits", "steps": 5}                               # digits take no --steps
    with pytest.raises(UserError) as e:
        load_task(spec)
    assert type(e.value) is UserError                                   # not a DataError
    assert str(e.value) == "task digits does not take --steps."
    assert training_record({"task": spec}) is None
    record = {"steps": 7, "min": -1.0, "max": 2.0}                      # a saved record is taken as it is
    assert training_record({"task": spec, "data": record}) is record


def test_describe_task_data_of_a_task_with_and_without_x_train():
    x = np.array([[[2.0, -4.0], [6.0, 0.0], [1.0, 3.0]]])              # (1, 3, 2): min -4, max 6
    task = SimpleNamespace(x_train=x, scale=0.5)
    assert describe_task_data(task) == {"steps": 3, "min": -2.0, "max": 3.0}
    assert describe_task_data(SimpleNamespace(x_train=x)) == {"steps": 3, "min": -4.0, "max": 6.0}
    assert describe_task_data(SimpleNamespace(lines=[x[0]])) is None   # a stroke task: no x_train


def test_float64_npy_read_as_it_is(tmp_path):
    a = np.array([[0.1, 1.0 + 2.0 ** -40, -3.0 - 2.0 ** -30]], np.float64)   # float32 cannot hold these
    assert not np.array_equal(a.astype(np.float32).astype(np.float64), a)
    path = tmp_path / "x.npy"
    np.save(path, a)
    x, where = read_inputs([str(path)], "adding", 1)
    assert x.dtype == np.float64
    assert np.array_equal(x, a[:, :, None])
    assert where == [(str(path), 0, 1)]


def test_per_step_values_of_ragged_sequences_one_row_per_step(tmp_path):
    nan = np.nan
    v = np.array([[[1.0, 10.0], [2.0, 20.0], [3.0, 30.0]],             # length 3
                  [[4.0, 40.0], [nan, nan], [nan, nan]],               # length 1
                  [[5.0, 50.0], [6.0, 60.0], [nan, nan]]])             # length 2
    cols = prediction_columns(SimpleNamespace(values=v))
    assert [name for name, _, _ in cols] == ["index", "step", "value_0", "value_1"]
    rows = list(zip(*(a.tolist() for _, _, a in cols)))
    assert rows == [(0, 0, 1.0, 10.0), (0, 1, 2.0, 20.0), (0, 2, 3.0, 30.0), (1, 0, 4.0, 40.0),
                    (2, 0, 5.0, 50.0), (2, 1, 6.0, 60.0)]
    out = tmp_path / "p.csv"
    assert write_predictions(str(out), SimpleNamespace(values=v)) == 6
    assert out.read_text().splitlines() == ["index,step,value_0,value_1", "0,0,1,10", "0,1,2,20", "0,2,3,30",
                                            "1,0,4,40", "2,0,5,50", "2,1,6,60"]


def test_npy_table_of_a_classifier_field_by_field(tmp_path):
    preds = SimpleNamespace(classes=np.array([2, 0, 1]), probability=np.array([0.5, 0.25, 0.75]))
    out = tmp_path / "p.npy"
    assert write_predictions(str(out), preds) == 3
    table = np.load(out, allow_pickle=False)
    assert table.dtype.names == ("index", "class", "probability")
    assert table["index"].tolist() == [0, 1, 2]
    assert table["class"].tolist() == [2, 0, 1]
    assert table["probability"].tolist() == [0.5, 0.25, 0.75]


def test_npy_table_written_into_new_folders_atomically(tmp_path):
    out = tmp_path / "new" / "deeper" / "p.npy"                          # neither folder exists yet
    preds = SimpleNamespace(values=np.array([[1.5], [-2.0]]))
    assert write_predictions(str(out), preds) == 2
    table = np.load(out, allow_pickle=False)
    assert table.dtype.names == ("index", "value")
    assert table["index"].tolist() == [0, 1] and table["value"].tolist() == [1.5, -2.0]
    assert os.listdir(out.parent) == ["p.npy"]                          # no temporary file left beside it
    assert write_predictions(str(out), SimpleNamespace(values=np.array([[7.0]]))) == 1
    assert np.load(out, allow_pickle=False)["value"].tolist() == [7.0]
    assert os.listdir(out.parent) == ["p.npy"]


def test_npy_table_write_failure_leaves_the_old_table(tmp_path, monkeypatch):
    import lnrnn.files

    out = tmp_path / "p.npy"
    write_predictions(str(out), SimpleNamespace(values=np.array([[1.0], [2.0]])))
    before = out.read_bytes()

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(lnrnn.files.os, "fsync", full_disk)
    with pytest.raises(UserError) as e:
        write_predictions(str(out), SimpleNamespace(values=np.array([[3.0]])))
    assert str(e.value).startswith(f"cannot write --out {out} (No space left on device): free some space there")
    assert out.read_bytes() == before
    assert os.listdir(tmp_path) == ["p.npy"]
