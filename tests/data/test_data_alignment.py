"""Every sample keeps its label, and permuted MNIST is permuted as documented.

The IDX files written here make every image identify itself: row 0 of image j of a file holds its
label, the file (1 train, 2 t10k) and j; the other pixels are random, so two images never coincide
and a wrong pixel order never matches. A sample the task loaders hand out (in x_train/x_val and
through ``TaskData.batch``) is looked up by its pixels among the images written: it must be found
(after undoing the documented pmnist permutation), come from the file its set is drawn from, carry
the label written with it, and appear once.
"""
import os

import numpy as np
import pytest

from lnrnn.data import idx
from lnrnn.data.tasks import load_task, task_spec

TRAIN, T10K = 1, 2


def documented_permutation(n=784):
    """lnrnn/data/tasks.py: pmnist reads the pixels "in one fixed permutation (seed 0) that moves every
    pixel" (a seeded random permutation redrawn until it moves every pixel): recomputed here from that
    rule alone. Sequence step i shows pixel perm[i] of the image (row-major)."""
    rng = np.random.default_rng(0)
    perm = rng.permutation(n)
    while np.any(perm == np.arange(n)):
        perm = rng.permutation(n)
    return perm


def write_files(folder, n_train=120, n_test=100, seed=0):
    """Self-describing MNIST files; -> {image bytes: (file, index, label)}."""
    rng = np.random.default_rng(seed)
    os.makedirs(folder, exist_ok=True)
    table = {}
    for code, split, n in ((TRAIN, "train", n_train), (T10K, "t10k", n_test)):
        labels = rng.integers(0, 10, n).astype(np.uint8)
        images = rng.integers(0, 256, (n, 28, 28), dtype=np.uint8)
        images[:, 0, 0] = labels
        images[:, 0, 1] = code
        images[:, 0, 2] = np.arange(n) // 256
        images[:, 0, 3] = np.arange(n) % 256
        img_name, lab_name = idx.MNIST_FILES[split]
        idx.write_idx(os.path.join(folder, img_name + ".gz"), images)
        idx.write_idx(os.path.join(folder, lab_name + ".gz"), labels)
        for j in range(n):
            table[images[j].tobytes()] = (code, j, int(labels[j]))
    return str(folder), table


def identify(samples, labels, table, perm, where):
    """samples (N, T, I) uint8 as the task holds them -> the (file, index) of each; asserts that each is
    a written image with the label the task pairs it with."""
    found = []
    for n, (s, y) in enumerate(zip(samples, labels)):
        flat = np.asarray(s).reshape(-1)
        image = np.empty_like(flat)
        image[perm] = flat  # undo x[i] = image[perm[i]]
        key = table.get(image.astype(np.uint8).tobytes())
        assert key is not None, f"{where}: sample {n} is no image of the files (pixels scrambled or misplaced)"
        assert int(y) == key[2], f"{where}: sample {n} is image {key[1]} of file {key[0]} with label {key[2]}, " \
                                 f"but the task pairs it with label {int(y)}"
        found.append(key[:2])
    assert len(set(found)) == len(found), f"{where}: some image appears twice"
    return found


def check_task(task, table, perm):
    """Both sets, as stored and through task.batch() in a scrambled order; -> (train keys, val keys)."""
    keys = {}
    for which, x, y in (("train", task.x_train, task.y_train), ("val", task.x_val, task.y_val)):
        keys[which] = identify(x, y, table, perm, f"{task.spec['task']} {which}")
        order = np.random.default_rng(1).permutation(len(x))
        xb, yb = task.batch(which, order)  # (T, B, I) floats in [0, 1]
        as_stored = np.rint(np.asarray(xb, np.float64).transpose(1, 0, 2) * 255).astype(np.uint8)
        got = identify(as_stored, yb, table, perm, f"{task.spec['task']} {which} batch")
        assert got == [keys[which][k] for k in order], f"{task.spec['task']} {which}: batch() reordered samples"
    assert not set(keys["train"]) & set(keys["val"]), "an image is in both the training and the validation set"
    return keys["train"], keys["val"]


IDENTITY = np.arange(784)


@pytest.mark.parametrize("task", ["mnist", "mnist-rows", "pmnist"])
def test_train_and_t10k_files_keep_labels(tmp_path, task):
    d, table = write_files(tmp_path / "m")
    t = load_task(task_spec(task, d))
    tr, va = check_task(t, table, documented_permutation() if task == "pmnist" else IDENTITY)
    assert sorted(tr) == [(TRAIN, j) for j in range(120)], "the training set is not the whole train file"
    assert sorted(va) == [(T10K, j) for j in range(100)], "the validation set is not the whole t10k file"


@pytest.mark.parametrize("task", ["mnist", "mnist-rows", "pmnist"])
def test_split_of_t10k_keeps_labels(tmp_path, task):
    d, table = write_files(tmp_path / "m")
    t = load_task(task_spec(task, d, split="80/20"))
    assert t.size("train") == 80 and t.size("val") == 20
    tr, va = check_task(t, table, documented_permutation() if task == "pmnist" else IDENTITY)
    assert {f for f, _ in tr + va} == {T10K}, "--split draws from the t10k files only"


def test_pmnist_permutation_is_the_documented_one_for_both_sets(tmp_path):
    """Train and validation in the same, documented order (not the identity, not two different ones),
    whatever the files and the split."""
    perm = documented_permutation()
    assert sorted(perm) == list(range(784)) and not np.any(perm == np.arange(784))
    d, table = write_files(tmp_path / "m")
    plain = load_task(task_spec("mnist", d, split="80/20"))
    for spec in (task_spec("pmnist", d, split="80/20"), task_spec("pmnist", d)):
        p = load_task(spec)
        check_task(p, table, perm)  # each sample found under the documented permutation
    p = load_task(task_spec("pmnist", d, split="80/20"))
    assert (p.x_train == plain.x_train[:, perm]).all() and (p.y_train == plain.y_train).all()
    assert (p.x_val == plain.x_val[:, perm]).all() and (p.y_val == plain.y_val).all()
    other, _ = write_files(tmp_path / "other", n_train=30, n_test=40, seed=5)
    q = load_task(task_spec("pmnist", other, split="10/30"))
    pl = load_task(task_spec("mnist", other, split="10/30"))
    assert (q.x_val == pl.x_val[:, perm]).all(), "the permutation depends on the data"


def test_digits_keep_labels():
    """The built-in digits task against scikit-learn's own images and targets, through the split and
    through batch()."""
    from sklearn.datasets import load_digits
    d = load_digits()
    table = {}
    for img, y in zip(d.images, d.target):
        table.setdefault((img.reshape(64) / 16.0).astype(np.float32).tobytes(), set()).add(int(y))
    for split in (None, "300/200"):
        t = load_task(task_spec("digits", split=split))
        for which, x, y in (("train", t.x_train, t.y_train), ("val", t.x_val, t.y_val)):
            order = np.random.default_rng(2).permutation(len(x))[:100]
            xb, yb = t.batch(which, order)
            for n, k in enumerate(order):
                for sample, label in ((x[k], y[k]), (xb[:, n], yb[n])):
                    labels = table.get(np.ascontiguousarray(sample, np.float32).reshape(64).tobytes())
                    assert labels is not None and int(label) in labels, f"digits {which} sample {k}: wrong label"
