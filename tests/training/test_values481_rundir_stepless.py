"""lnrnn/training/rundir.py, UpdateLog.start: the rows of updates.jsonl up to the checkpoint's update are kept and
later ones dropped, and a row without a step (one a user added by hand; read_jsonl accepts it) counts as before
every update, so it is kept at any step, 0 included."""
import json

import pytest

from lnrnn.training.rundir import UPDATES_FILE, UpdateLog, read_jsonl

ROWS = [{"note": "by hand"}, {"step": 0, "train_loss": 3.0}, {"step": 1, "train_loss": 2.0},
        {"step": 3, "train_loss": 1.0}]


@pytest.mark.parametrize("step", [0, 1, 2, 3, 7])
def test_start_keeps_stepless_rows_and_rows_up_to_the_step(tmp_path, step):
    (tmp_path / UPDATES_FILE).write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    log = UpdateLog(str(tmp_path)).start(step)
    log.close()
    want = [r for r in ROWS if "step" not in r or r["step"] <= step]
    assert read_jsonl(tmp_path / UPDATES_FILE) == want
    assert want[0] == {"note": "by hand"}
