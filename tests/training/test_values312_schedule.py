"""The learning-rate schedule across resumes, against lr * lr_decay ** (epoch - e0) written out here.

TINY of test_values56_stop_place in batches of 7 (6 updates an epoch): two epochs at --lr 0.05 with the default
decay 0.9 (rates 0.05, 0.05 * 0.9 = 0.045), resumed with --lr 0.02 for a third epoch (the change starts at update
12, epoch index 2, where the old schedule stood at 0.05 * 0.9 ** 2 = 0.0405; from there 0.02 * 0.9 ** (e - 2):
0.02), then resumed plainly for a fourth (0.02 * 0.9 = 0.018, and no change to log)."""
import pytest

from test_values56_stop_place import summary
from test_values_train_policies import rows
from test_values243_train_policies import resumed

B7 = dict(batch_size=7)


def test_a_changed_rate_then_a_plain_resume_follow_the_formula(tmp_path):
    out = tmp_path / "run"
    summary(out, epochs=2, **B7)
    t, said = resumed(out, explicit=("lr", "epochs"), epochs=3, lr=0.02, **B7)
    changes = [s for s in said if s.startswith("Changing the schedule")]
    assert changes == ["Changing the schedule: learning rate 0.0405 -> 0.02 from update 12."]
    t, said = resumed(out, explicit=("epochs",), epochs=4, **B7)
    assert t.step == 24
    assert not [s for s in said if s.startswith("Changing the schedule")], said
    want = [0.05, 0.05 * 0.9, 0.02, 0.02 * 0.9]
    got = [r["lr"] for r in rows(out)]
    assert got == pytest.approx(want, rel=1e-12)
