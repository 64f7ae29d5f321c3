"""IDX reading (gzip and raw, every failure a one-sentence DataError) and the task registry."""
import functools
import gzip
import hashlib
import os
import testpaths

import numpy as np
import pytest

from lnrnn.data import idx, tasks
from lnrnn.data.idx import load_mnist_split, parse_idx, read_idx, write_idx
from lnrnn.data.tasks import load_task, parse_split, pmnist_permutation, task_spec
from lnrnn.errors import DataError, UserError

SHARED_MNIST = os.path.join(testpaths.ROOT, "..", "shared", "data", "mnist")
# CI has ../shared/data/mnist and sets this (.ci/run): there a missing copy fails instead of skipping.
REQUIRE_SHARED = "LNRNN_REQUIRE_SHARED_DATA"


def require_shared_mnist(folder=SHARED_MNIST):
    """Skip the calling test when the shared MNIST t10k files are absent, or fail it when the environment
    sets LNRNN_REQUIRE_SHARED_DATA=1 (CI, where a silent skip would hide the missing data)."""
    if os.path.isfile(os.path.join(folder, "t10k-labels-idx1-ubyte.gz")):
        return
    what = f"the shared MNIST files are not in {os.path.normpath(folder)}"
    if os.environ.get(REQUIRE_SHARED) == "1":
        pytest.fail(f"{what}, and {REQUIRE_SHARED}=1 requires them: put MNIST's t10k files there "
                    "(`lnrnn data mnist --subset test --dest DIR`) or unset the variable.", pytrace=False)
    pytest.skip(f"{what} (set {REQUIRE_SHARED}=1 to fail instead)")


def needs_shared(test):
    """Decorator: the test reads ../shared/data/mnist (see require_shared_mnist), decided when it runs."""
    @functools.wraps(test)
    def run(*args, **kwargs):
        require_shared_mnist()
        return test(*args, **kwargs)
    return run


def fake_mnist(folder, n_train=30, n_test=20, rows=28, cols=28, gz=True, seed=0):
    """Small random MNIST-shaped IDX files; returns the folder."""
    rng = np.random.default_rng(seed)
    os.makedirs(folder, exist_ok=True)
    for split, n in (("train", n_train), ("t10k", n_test)):
        if n is None:
            continue
        img, lab = idx.MNIST_FILES[split]
        ext = ".gz" if gz else ""
        write_idx(os.path.join(folder, img + ext), rng.integers(0, 256, (n, rows, cols), dtype=np.uint8))
        write_idx(os.path.join(folder, lab + ext), rng.integers(0, 10, n).astype(np.uint8))
    return str(folder)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.int32, np.float32, np.float64])
@pytest.mark.parametrize("name", ["a.idx", "a.idx.gz"])
def test_idx_roundtrip(tmp_path, dtype, name):
    arr = (np.arange(24).reshape(2, 3, 4) - 5).astype(dtype)
    write_idx(tmp_path / name, arr)
    got = read_idx(tmp_path / name)
    assert got.dtype == np.dtype(dtype) and got.shape == arr.shape and (got == arr).all()
    assert got.dtype.isnative


def test_idx_gzip_detected_by_content_not_name(tmp_path):
    arr = np.arange(10, dtype=np.uint8)
    write_idx(tmp_path / "labels", arr, compress=True)
    assert (read_idx(tmp_path / "labels") == arr).all()


def test_idx_errors(tmp_path):
    good = tmp_path / "good"
    write_idx(good, np.zeros((5, 4), np.uint8), compress=False)
    raw = good.read_bytes()
    cases = {
        "bad magic": (b"\x08\x03" + raw[2:], "bad magic"),
        "truncated": (raw[:-3], "truncated"),
        "short": (raw[:2], "too short"),
        "header": (raw[:9], "truncated inside its IDX header"),
        "trailing": (raw + b"xx", "bytes after"),
        "gz truncated": (gzip.compress(raw)[:-10], "damaged or truncated gzip"),
    }
    for label, (data, words) in cases.items():
        p = tmp_path / label.replace(" ", "_")
        p.write_bytes(data)
        with pytest.raises(DataError, match=words) as e:
            read_idx(p)
        assert str(p) in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(DataError, match="does not exist"):
        read_idx(tmp_path / "nope")


def test_load_mnist_split_and_errors(tmp_path):
    d = fake_mnist(tmp_path / "m")
    x, y = load_mnist_split(d, "train")
    assert x.shape == (30, 28, 28) and x.dtype == np.uint8 and y.shape == (30,) and y.dtype == np.int64
    with pytest.raises(DataError, match="pass --data-dir"):
        load_mnist_split(None, "train")
    with pytest.raises(DataError, match="does not exist"):
        load_mnist_split(str(tmp_path / "absent"), "train")
    e = pytest.raises(DataError, load_mnist_split, str(tmp_path), "t10k").value
    assert "t10k-images-idx3-ubyte[.gz]" in str(e) and "lnrnn data mnist --dest DIR" in str(e)
    # image/label count mismatch
    write_idx(os.path.join(d, "t10k-labels-idx1-ubyte.gz"), np.zeros(19, np.uint8))
    with pytest.raises(DataError, match="20 images but .* 19 labels"):
        load_mnist_split(d, "t10k")
    write_idx(os.path.join(d, "t10k-labels-idx1-ubyte.gz"), np.full(20, 12, np.uint8))
    with pytest.raises(DataError, match="label 12"):
        load_mnist_split(d, "t10k")


def test_raw_files_and_alternate_names(tmp_path):
    d = fake_mnist(tmp_path / "raw", gz=False)
    os.rename(os.path.join(d, "t10k-images-idx3-ubyte"), os.path.join(d, "t10k-images.idx3-ubyte"))
    x, _ = load_mnist_split(d, "t10k")
    assert x.shape == (20, 28, 28)


def test_parse_split():
    assert parse_split("8000/2000") == (8000, 2000) and parse_split(None) is None
    for bad in ("8000", "a/b", "0/10", "1/2/3", "-5/5"):
        with pytest.raises(UserError, match="--split"):
            parse_split(bad)


def test_task_spec_errors():
    with pytest.raises(UserError, match="unknown task 'nope'"):
        task_spec("nope")
    with pytest.raises(UserError, match="does not take --data-dir"):
        task_spec("digits", data_dir="x")
    with pytest.raises(UserError, match="does not take --steps"):
        task_spec("mnist", steps=5)


def test_digits():
    t = load_task({"task": "digits"})
    assert t.x_train.shape == (1437, 64, 1) and t.x_val.shape == (360, 64, 1)
    assert 0.0 <= t.x_train.min() and t.x_train.max() == 1.0 and t.num_classes == 10
    x, y = t.batch("train", np.arange(5))
    assert x.shape == (64, 5, 1) and x.dtype == np.float32 and x.flags.c_contiguous and y.shape == (5,)
    again = load_task({"task": "digits"})
    assert (again.x_val == t.x_val).all() and (again.y_train == t.y_train).all()
    small = load_task(task_spec("digits", split="100/50"))
    assert small.size("train") == 100 and small.size("val") == 50
    with pytest.raises(UserError, match="only 1797"):
        load_task(task_spec("digits", split="1700/200"))


def test_digits_binary_is_digits_as_ink_or_not():
    gray, ink = load_task({"task": "digits"}), load_task({"task": "digits-binary"})
    for part in ("train", "val"):
        xg, xi = getattr(gray, f"x_{part}"), getattr(ink, f"x_{part}")
        assert xi.dtype == np.float32 and set(np.unique(xi)) == {0.0, 1.0}
        assert (xi == (16 * xg >= 8)).all(), "a pixel of 8/16 or more is ink (1), below it 0"
        assert (getattr(ink, f"y_{part}") == getattr(gray, f"y_{part}")).all()   # the same images, same split
    assert ink.extra["constant_prefix"] and ink.num_classes == 10
    assert load_task(task_spec("digits-binary", split="100/50")).size("val") == 50


def test_mnist_family_tasks(tmp_path):
    d = fake_mnist(tmp_path / "m")
    m = load_task(task_spec("mnist", d))
    assert m.x_train.shape == (30, 784, 1) and m.x_val.shape == (20, 784, 1) and m.scale == 1 / 255
    x, _ = m.batch("val", np.arange(3), np.float64)
    assert x.shape == (784, 3, 1) and x.dtype == np.float64 and 0 <= x.min() and x.max() <= 1.0
    rows = load_task(task_spec("mnist-rows", d))
    assert rows.x_train.shape == (30, 28, 28)
    p = load_task(task_spec("pmnist", d))
    perm = pmnist_permutation(784)
    assert sorted(perm) == list(range(784)) and not np.any(perm == np.arange(784))
    assert (p.x_train == m.x_train[:, perm]).all() and (p.y_train == m.y_train).all()
    s = load_task(task_spec("mnist", d, split="12/8"))
    assert s.size("train") == 12 and s.size("val") == 8


def test_only_t10k_needs_split(tmp_path):
    d = fake_mnist(tmp_path / "m", n_train=None)
    with pytest.raises(DataError, match="only the t10k files.*--split 8000/2000"):
        load_task(task_spec("mnist", d))


def test_adding_and_copy():
    a = load_task(task_spec("adding", steps=30))
    assert a.x_train.shape == (tasks.SYNTHETIC_TRAIN, 30, 2) and a.objective == "mse" and a.num_classes == 1
    marks = a.x_train[:, :, 1]
    assert (marks.sum(1) == 2).all() and (marks[:, :15].sum(1) == 1).all()
    assert np.allclose((a.x_train[:, :, 0] * marks).sum(1), a.y_train, atol=1e-6)
    c = load_task(task_spec("copy", steps=7))
    K = tasks.COPY_SYMBOLS
    assert c.x_train.shape == (tasks.SYNTHETIC_TRAIN, 7 + 2 * K, 10) and c.per_step
    assert (c.x_train.sum(2) == 1).all()                         # one-hot codes
    codes = c.x_train.argmax(2)
    assert (codes[:, K + 6] == 9).all()                           # delimiter on the last blank
    assert (c.y_train[:, :-K] == -1).all()
    assert (c.y_train[:, -K:] == codes[:, :K] - 1).all()          # recall the first K symbols
    with pytest.raises(UserError, match="at least 2"):
        load_task(task_spec("adding", steps=1))


@needs_shared
def test_shared_mnist_t10k():
    x, y = load_mnist_split(SHARED_MNIST, "t10k")
    assert x.shape == (10000, 28, 28)
    assert np.bincount(y).tolist() == [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]
    t = load_task(task_spec("mnist", SHARED_MNIST, split="8000/2000"))
    assert t.size("train") == 8000 and t.size("val") == 2000
    raw = gzip.open(os.path.join(SHARED_MNIST, "t10k-labels-idx1-ubyte.gz")).read()
    assert hashlib.md5(raw).hexdigest() == "27ae3e4e09519cfbb04c329615203637"
    assert (parse_idx(raw) == y).all()


def test_missing_shared_data_skips_or_fails(tmp_path, monkeypatch):
    """The rule of needs_shared: skip where the shared data may be absent, fail where CI requires it."""
    monkeypatch.delenv(REQUIRE_SHARED, raising=False)
    with pytest.raises(pytest.skip.Exception, match="not in"):
        require_shared_mnist(str(tmp_path))
    monkeypatch.setenv(REQUIRE_SHARED, "1")
    with pytest.raises(pytest.fail.Exception, match="LNRNN_REQUIRE_SHARED_DATA=1 requires them"):
        require_shared_mnist(str(tmp_path))
    fake_mnist(tmp_path, n_train=None, n_test=2)
    require_shared_mnist(str(tmp_path))  # present: runs
