"""--time-budget's vote in a group (lnrnn/training/stopping.py cast_votes) fires when the time counted reaches the
budget, the same moment one process stops on its own clock (over_budget): at exactly the budget both say over, a
hair below it both say not yet, above it both over; a rank other than 0 never votes on the budget. The trainer is
test_stopping_recorder_parts' stand-in (the time counted is the inherited budget_used, no clock running)."""
import numpy as np
import pytest

from lnrnn.training.stopping import StopPolicy
from test_stopping_recorder_parts import run_state

BELOW = float(np.nextafter(10.0, 0.0))  # a hair below the budget


@pytest.mark.parametrize("used, over", [(10.0, True), (BELOW, False), (10.5, True), (0.0, False)])
def test_the_groups_budget_vote_fires_where_one_process_stops(used, over):
    alone = run_state(size=1, time_budget=10.0, used=used)
    assert bool(StopPolicy(alone).over_budget()) is over
    group = run_state(size=2, time_budget=10.0, used=used)
    StopPolicy(group).cast_votes()
    assert list(group.votes) == [0, 0, int(over)]
    group.group.root = False
    StopPolicy(group).cast_votes()
    assert list(group.votes) == [0, 0, 0]
