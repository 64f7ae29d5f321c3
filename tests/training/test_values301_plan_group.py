"""The plan's refusals word for word (each naming the value given, nothing else), and what a group of processes
says: the split of a --reproducible batch and the note of a resume on another number of processes, against
sentences written out here.

The resume: TINY of test_values56_stop_place (batches of 16) stopped by --max-steps 2, its checkpoint.json then
saying it was trained on 3 processes (the arrays' hash covers the arrays file, not the description), resumed here
by one: the note names 3 processes, this 1 and the batch of 16; the run goes on to its 4 epochs of
ceil(40 / 16) = 3 updates."""
import json

import pytest

from lnrnn.errors import UserError
from lnrnn.training.distributed import describe_split
from lnrnn.training.plan import resolve_defaults, validate
from lnrnn.training.runconfig import TrainConfig
from test_values56_stop_place import summary
from test_values243_train_policies import resumed


def refusal(**kw):
    with pytest.raises(UserError) as e:
        validate(resolve_defaults(TrainConfig(**kw)))
    return str(e.value)


def test_eval_every_zero_is_named_not_log_every():
    assert refusal(eval_every=0, log_every=10) == "--eval-every must be at least 1 update, not 0."


def test_clip_output_negative_is_named_not_clip_gates():
    assert refusal(clip_output=-2.5, clip_gates=0.0) == "--clip-output must be a positive number, not -2.5."


def test_save_every_zero_is_named_not_eval_every():
    assert refusal(save_every=0, eval_every=None) == "--save-every must be at least 1 update, not 0."


def test_a_reproducible_split_names_the_batch_and_its_blocks():
    """The block count depends on the kernels' threads; the batch named is the 100 given, whatever it is."""
    said = describe_split(2, 100, reproducible=True, rows=32)
    head = "Data parallel over 2 MPI processes, reproducible: each batch of 100 is "
    assert said.startswith(head), said
    nb = int(said[len(head):].split(" ")[0])
    assert nb < 100  # blocks of rows, not the rows themselves
    assert said.endswith(" a process; their gradients are gathered and added in block order (the same bits as one "
                         "process); rank 0 writes the run folder.")


def test_a_resume_on_one_process_of_a_run_of_three_says_so(tmp_path):
    out = tmp_path / "run"
    summary(out, max_steps=2)
    path = out / "checkpoint.json"
    meta = json.loads(path.read_text())
    assert meta["ranks"] == 1
    meta["ranks"] = 3
    path.write_text(json.dumps(meta))
    t, said = resumed(out)  # the --max-steps reached is lifted: on to --epochs 4 of 3 updates
    assert t.step == 12
    assert ("The run was trained as 3 processes and resumes as 1: each global batch of 16 is now split 1 way; the "
            "updates are the same up to floating-point summation order (BatchNorm statistics are the global batch's "
            "either way).") in said
