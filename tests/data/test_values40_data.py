"""Data preparation in numbers: strokes-synthetic's validation lines from their own seeded stream (by hand:
the generator, the glitch fix and the training scale), an MNIST split present only with both of its files,
and a stroke file's lengths adding up to exactly its rows."""
import numpy as np
import pytest

from lnrnn.data import idx, stroke_files
from lnrnn.data import strokes as S
from lnrnn.errors import DataError


def test_synthetic_validation_lines_are_their_own_streams_by_hand():
    task = S.build_synthetic({"task": "strokes-synthetic", "split": "3/2"})
    raw_val, _ = S.synthetic_lines(np.random.default_rng([S.DATA_SEED, 1]), 2)
    raw_train, _ = S.synthetic_lines(np.random.default_rng([S.DATA_SEED, 0]), 3)
    div = np.array([task.scale[0], task.scale[1], 1.0])
    assert task.size("val") == 2 and task.size("train") == 3
    for i, raw in enumerate(raw_val):
        want = S.drop_long_steps(raw)[0] / div
        np.testing.assert_allclose(task.line("val", i), want.astype(np.float32), rtol=1e-6, atol=1e-6)
    for i, raw in enumerate(raw_train):
        want = S.drop_long_steps(raw)[0] / div
        np.testing.assert_allclose(task.line("train", i), want.astype(np.float32), rtol=1e-6, atol=1e-6)
    # no validation line repeats a training one
    for i in range(2):
        for j in range(3):
            a, b = task.line("val", i), task.line("train", j)
            assert a.shape != b.shape or not np.array_equal(a, b)


@pytest.mark.parametrize("split", ["train", "t10k"])
def test_a_split_is_present_only_with_both_of_its_files(tmp_path, split):
    images, labels = idx.MNIST_FILES[split]
    assert not idx.mnist_files_present(str(tmp_path), split)
    idx.write_idx(tmp_path / (images + ".gz"), np.zeros((2, 3, 3), np.uint8))
    assert not idx.mnist_files_present(str(tmp_path), split)          # images alone
    (tmp_path / (images + ".gz")).unlink()
    idx.write_idx(tmp_path / labels, np.zeros(2, np.uint8))
    assert not idx.mnist_files_present(str(tmp_path), split)          # labels alone
    idx.write_idx(tmp_path / images.replace("-idx", ".idx"), np.zeros((2, 3, 3), np.uint8))
    assert idx.mnist_files_present(str(tmp_path), split)              # both (images in the dotted spelling)


@pytest.mark.parametrize("lengths", [[2, 2], [1, 3], [0, 4], [4], [2, 2, 2], [6]])
def test_lengths_must_add_up_to_exactly_the_rows(tmp_path, lengths):
    strokes = np.zeros((5, 3))
    strokes[:, 2] = [0, 1, 0, 0, 1]
    path = tmp_path / "s.npz"
    np.savez(path, strokes=strokes, lengths=np.array(lengths))
    with pytest.raises(DataError, match=f"add up to {sum(lengths)} but it has 5 rows"):
        stroke_files.load(str(path))
    pts = tmp_path / "p.npz"
    np.savez(pts, points=strokes, lengths=np.array(lengths))
    with pytest.raises(DataError, match=f"add up to {sum(lengths)} but it has 5 rows"):
        stroke_files.read_lines(str(pts))
    np.savez(path, strokes=strokes, lengths=np.array([2, 3]))
    seqs = stroke_files.load(str(path))["all"]
    assert [len(s) for s in seqs] == [2, 3]
    np.testing.assert_array_equal(np.concatenate(seqs), strokes)
