"""The built-in tasks against files written here: a folder of only the t10k files, pixel-by-pixel validation
images read back from the t10k file (and through the pmnist permutation drawn here), an option a task does not
take refused whatever its value."""
import numpy as np
import pytest

from lnrnn.data.idx import write_idx
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError, UserError


def _write(folder, split, images):
    write_idx(folder / f"{split}-images-idx3-ubyte", images)
    write_idx(folder / f"{split}-labels-idx1-ubyte", (np.arange(len(images)) % 10).astype(np.uint8))


def _images(n, base):
    return (base + np.arange(n * 12) % 100).reshape(n, 3, 4).astype(np.uint8)   # distinct rows per file


def test_a_folder_of_only_the_t10k_files_is_told_to_split_them(tmp_path):
    _write(tmp_path, "t10k", _images(5, 100))
    with pytest.raises(DataError, match=r"has only the t10k files \(no train-images-idx3-ubyte\[\.gz\]\); "
                                        r"pass --split 8000/2000 to train on part of them"):
        load_task(task_spec("mnist", data_dir=str(tmp_path)))


def _pmnist_permutation(n):
    rng = np.random.default_rng(0)                        # redrawn until no pixel stays in place
    while True:
        perm = rng.permutation(n)
        if (perm != np.arange(n)).all():
            return perm


@pytest.mark.parametrize("task", ["mnist", "pmnist"])
def test_pixel_by_pixel_validation_images_are_the_t10k_images(tmp_path, task):
    train, t10k = _images(4, 0), _images(5, 100)
    _write(tmp_path, "train", train)
    _write(tmp_path, "t10k", t10k)
    d = load_task(task_spec(task, data_dir=str(tmp_path)))
    order = np.arange(12) if task == "mnist" else _pmnist_permutation(12)
    np.testing.assert_array_equal(d.x_train[:, :, 0], train.reshape(4, 12)[:, order])
    np.testing.assert_array_equal(d.x_val[:, :, 0], t10k.reshape(5, 12)[:, order])


@pytest.mark.parametrize("option,value", [("allow_pickle", False), ("objective", "")])
def test_an_option_the_task_does_not_take_is_refused_even_when_false(option, value):
    with pytest.raises(UserError, match=rf"^task digits does not take the option {option}\.$"):
        task_spec("digits", **{option: value})
