"""Planted bugs in the device update of the models that used to run theirs on the host: the CTC head's loss,
gradient and edit distances on the device (lnrnn/model/heads.py, lnrnn/kernels/losses_cuda.py), the label count
kept for the trainer's sums and the refusals (lnrnn/model/models.py), and bidirectional stacks reversed and joined
on the device (lnrnn/kernels/cuda/arrays_cuda.py, lnrnn/model/layers.py); caught by
tests/training/test_device_update_more.py (format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'dev2-*'
"""

T = "tests/training/test_device_update_more.py"
OBJ = f"{T}::test_ctc_objective_on_the_device_equals_the_host_head"
BLSTM = f"{T}::test_blstm_ctc_updates_equal_the_host_path"
LAST = f"{T}::test_bidirectional_last_step_head_update_equals_the_host_path"
REFUSE = f"{T}::test_device_update_refuses_chunks_of_whole_sequence_models"
CLI = f"{T}::test_cli_reader_training_on_device_equals_cpu"
HEADS = "lnrnn/model/heads.py"
MODELS = "lnrnn/model/models.py"
LOSSES = "lnrnn/kernels/losses_cuda.py"
ARRAYS = "lnrnn/kernels/cuda/arrays_cuda.py"

MUTANTS = [
    dict(name="dev2-ctc-edit-distance-without-substitutions", file=LOSSES,
         old="dist[r, o, j - 1] + (1 if labels[r, i - 1] != hyp[r, j - 1] else 0))",
         new="dist[r, o, j - 1])",
         tests=[OBJ],
         why="the edit distance's diagonal step costs nothing for a wrong character: only insertions and deletions count"),
    dict(name="dev2-ctc-best-path-keeps-repeats", file=LOSSES,
         old="if best != blank and best != before:",
         new="if best != blank:",
         tests=[OBJ],
         why="the best path's repeated classes are not merged before the blanks are dropped"),
    dict(name="dev2-ctc-row-of-no-step-scored", file=LOSSES,
         old="            if Tb <= 0:\n",
         new="            if Tb < 0:\n",
         tests=[OBJ],
         why="a row of no step adds its whole label as edits, which the host head leaves out"),
    dict(name="dev2-ctc-gradient-not-normalized", file=HEADS,
         old="dloss = arrays_cuda.fill(arrays_cuda.empty((B,), self.dtype), scale)",
         new="dloss = arrays_cuda.fill(arrays_cuda.empty((B,), self.dtype), 1.0)",
         tests=[OBJ],
         why="the CTC gradient on the device is the loss sum's, not the batch mean's"),
    dict(name="dev2-ctc-label-count-dropped", file=MODELS,
         old="        self.last_host_sums = self.head.host_sums(targets, valid_all)\n",
         new="        self.last_host_sums = {}\n",
         tests=[BLSTM],
         why="the device update keeps no label count: the trainer's character error rate divides by nothing"),
    dict(name="dev2-host-sums-not-joined", file="lnrnn/training/update.py",
         old="        model.last_sums = {**sums, **{k: v for k, v in model.last_host_sums.items() if k not in sums}}\n",
         new="        model.last_sums = sums\n",
         tests=[CLI],
         why="the device update's sums lack the label count the host kept: the epoch's character error rate is lost"),
    dict(name="dev2-ctc-refused-on-the-device", file=MODELS,
         old="        if not self.head.device_objective:\n",
         new="        if not self.head.device_objective or getattr(self.head, \"whole_sequence\", False):\n",
         tests=[BLSTM],
         why="the CTC head still sends the update to the host"),
    dict(name="dev2-bidirectional-chunks-not-refused", file=MODELS,
         old=("        if chunk < T and self.reverse_columns is not None:\n            raise ValueError(\"a bidirectional "
              "stack reads whole sequences; run it without truncated BPTT\")\n        last = self.head.steps == \"last\""),
         new="        last = self.head.steps == \"last\"",
         tests=[REFUSE],
         why="the device update starts a bidirectional stack's truncated BPTT (and fails at its second chunk)"),
    dict(name="dev2-reversal-ignores-lengths", file=ARRAYS,
         old="out[t, b, j] = a[L - 1 - t, b, j] if t < L else a[t, b, j]",
         new="out[t, b, j] = a[T - 1 - t, b, j]",
         tests=[BLSTM],
         why="the device reverses every row over all T steps: a short row's backward direction starts in its padding"),
    dict(name="dev2-backward-columns-read-at-the-last-step", file=ARRAYS,
         old="        out[b, j] = seq[0 if any_rev and rev[j] != 0 else steps[b], b, j]\n",
         new="        out[b, j] = seq[steps[b], b, j]\n",
         tests=[f"{LAST}[stacked]"],
         why="a last-step head reads the backward direction at the row's last step, where it has read one step"),
    dict(name="dev2-backward-columns-gradient-at-the-last-step", file=ARRAYS,
         old="        seq[0 if any_rev and rev[j] != 0 else steps[b], b, j] = rows[b, j]\n",
         new="        seq[steps[b], b, j] = rows[b, j]\n",
         tests=[f"{LAST}[stacked]"],
         why="dL/dy of the backward columns put at the row's last step instead of step 0"),
]
