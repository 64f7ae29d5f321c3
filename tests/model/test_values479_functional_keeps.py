"""Which forward a layer runs: ``functional.keeps`` says the full forward (the one that saves for a backward)
runs when a backward follows, or when the final state is masked (lengths given) and the row's infer path does
not return the per-step states a masked final state reads (``Cell.infer_seqs``); otherwise the row's infer
kernel, where it has one. Checked against that definition for every registry row, and through a layer's
forward by counting the kernels it calls (``test_infer_path.count_kernels``)."""
import numpy as np
import pytest

from lnrnn.model import cells, functional
from lnrnn.model.layers import RecurrentLayer
from test_infer_path import count_kernels

T, B, I, H = 5, 3, 2, 4
LENGTHS = np.array([5, 2, 0])


@pytest.mark.parametrize("name", sorted(cells.CELLS))
@pytest.mark.parametrize("keep", [True, False])
@pytest.mark.parametrize("masked", [True, False])
def test_keeps_is_a_following_backward_or_a_mask_the_infer_path_cannot_serve(name, keep, masked):
    spec = cells.get(name)
    lengths = LENGTHS if masked else None
    assert functional.keeps(spec, keep, lengths) == (keep or (masked and not spec.infer_seqs))


def test_the_registry_has_rows_on_both_sides_of_infer_seqs():
    # the table above would not tell the two sides apart without rows of each kind
    assert {cells.get(n).infer_seqs for n in cells.CELLS} == {True, False}


@pytest.mark.parametrize("cell, infer_seqs", [("lstm", False), ("rnn", True)])
@pytest.mark.parametrize("masked", [False, True])
def test_an_evaluation_forward_runs_the_infer_kernel_unless_a_mask_needs_what_it_drops(monkeypatch, cell, infer_seqs,
                                                                                      masked):
    assert cells.get(cell).infer_seqs is infer_seqs
    calls = count_kernels(monkeypatch)
    layer = RecurrentLayer(cell, "none", I, H, dtype=np.float64, seed=1)
    x = np.random.default_rng(2).normal(size=(T, B, I))
    layer.forward(x, None, False, lengths=LENGTHS if masked else None, keep=False)
    full = masked and not infer_seqs
    assert calls == {f"{cell}_{'forward' if full else 'infer'}": 1}
