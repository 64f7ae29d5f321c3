"""The cell registry's rows (lnrnn/model/cells.py, Cell) cannot be changed in place: every row of CELLS refuses an
assignment (dataclasses.FrozenInstanceError) and keeps its values, so no caller turns the process's 'ln-lstm' into
another cell for every model built after it."""
import dataclasses

import pytest

from lnrnn.model import cells


@pytest.mark.parametrize("name", sorted(cells.CELLS))
def test_a_registry_row_refuses_assignment_and_keeps_its_values(name):
    row = cells.CELLS[name]
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.norm = "bn" if row.norm != "bn" else "ln"
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.infer_seqs = not row.infer_seqs
    assert cells.CELLS[name] is row and row.name == name
    assert name == (row.cell if row.norm == "none" else f"{row.norm}-{row.cell}")
