"""lnrnn eval (lnrnn/commands/eval.py) names the loss of the run's head: a mixture density run's negative
log-likelihood in nats per point and no accuracy (in its sentence, its --json and the help of the group and of
eval), a classifier's cross-entropy in nats and its accuracy in percent."""
import json

from lnrnn.data.tasks import load_task
from test_commands_careful import classifier_run, invoke
from test_sample import mdn_run


def test_eval_of_a_density_run_says_no_accuracy(tmp_path):
    mdn_run(tmp_path / "mdn", "ln-lstm", head=load_task({"task": "strokes-synthetic"}).head)
    r = invoke("eval", "--checkpoint", tmp_path / "mdn")
    assert r.exit_code == 0, r.output
    assert "accuracy" not in r.stdout and "negative log-likelihood " in r.stdout and " nats per point" in r.stdout
    r = invoke("eval", "--checkpoint", tmp_path / "mdn", "--json")
    assert r.exit_code == 0 and "acc" not in json.loads(r.stdout), r.output
    assert "loss and accuracy" not in invoke("--help").output + invoke("eval", "--help").output


def test_eval_of_a_classifier_names_its_loss_and_accuracy(tmp_path):
    r = invoke("eval", "--checkpoint", classifier_run(tmp_path / "clf"))
    assert r.exit_code == 0, r.output
    assert "cross-entropy loss " in r.stdout and " nats, accuracy " in r.stdout and "%" in r.stdout
