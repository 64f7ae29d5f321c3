"""lnrnn.api's argument checks and batching by value: predict refuses lengths that are not integers (2.5 is not a
length, 2.0 neither: a float array), and its progress counts each batch's own rows (N in all, the last batch
shorter); read takes batches of one line, each line then read as by hand with its own batch's noise key; a batch
size that is not a whole number of at least 1 is refused by predict and evaluate_run in one UserError."""
import numpy as np
import pytest

import lnrnn
from lnrnn.errors import UserError
from test_values_api import LENGTHS, N, run_of, x_of
from test_values_api_read import by_hand, reader  # noqa: F401  (reader: a module fixture)


def test_predict_refuses_lengths_that_are_not_integers(tmp_path):
    run = run_of(tmp_path / "clf", "ce", 3)
    for bad in (LENGTHS + 0.5, LENGTHS.astype(np.float64)):
        with pytest.raises(UserError, match="integers between 1 and T"):
            lnrnn.predict(run, x_of(), bad)
    lnrnn.predict(run, x_of(), LENGTHS.astype(np.int32))       # any integer dtype


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_predict_and_evaluate_refuse_a_batch_size_below_one(tmp_path, bad):
    run = run_of(tmp_path / "clf", "ce", 3)
    with pytest.raises(UserError, match=rf"batch_size must be a whole number of at least 1, not {bad!r}\."):
        lnrnn.predict(run, x_of(), LENGTHS, batch_size=bad)
    with pytest.raises(UserError, match="batch_size must be a whole number of at least 1"):
        lnrnn.evaluate_run(run, batch_size=bad)  # before it looks for the task's data


class Count:
    def __init__(self):
        self.steps = []

    def update(self, n):
        self.steps.append(n)


def test_predict_progress_counts_each_batchs_rows(tmp_path):
    run = run_of(tmp_path / "clf", "ce", 3)
    for batch, want in ((3, [3, 1]), (1, [1] * N), (N, [N]), (100, [N])):
        progress = Count()
        p = lnrnn.predict(run, x_of(), LENGTHS, batch_size=batch, progress=progress)
        assert progress.steps == want and p.classes.shape[0] == N


def test_read_one_line_a_batch(reader):  # noqa: F811
    folder, model, lines = reader
    want = by_hand(model, lines, 1)
    assert lnrnn.read(folder, lines, batch_size=1) == want
    assert want != by_hand(model, lines, 2), "batches of one read differently from batches of two (noise keys)"
