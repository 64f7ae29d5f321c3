"""Planted bugs in what a first use of lnrnn.torch costs: its ops' implementations and torch's compiler
(format: tests/mutants/mutants.py)."""

SRC = "lnrnn/interop/torch.py"
T = "tests/interop/test_torch.py"
LOADS = f"{T}::test_import_and_a_first_forward_load_only_what_they_use"
UNTRACED = f"{T}::test_the_ops_implementations_are_untraced_once_torch_compile_is_loaded"
REFUSED = f"{T}::test_no_steps_and_projections_are_refused_in_one_sentence"

MUTANTS = [
    dict(name="edges2-ops-import-the-compiler", file=SRC,
         old="        dynamo = sys.modules.get(\"torch._dynamo\")\n",
         new="        import torch._dynamo as dynamo\n",
         tests=[LOADS],
         why="every op's first call imports torch._dynamo (about 2 CPU seconds) to guard against a compiler "
             "nobody started, as torch.library.custom_op does"),
    dict(name="edges2-ops-traced-by-the-compiler", file=SRC,
         old="        if dynamo is None:\n            return impl(*args)\n",
         new="        if True:\n            return impl(*args)\n",
         tests=[UNTRACED],
         why="with torch.compile loaded, an op's implementation (NumPy views, Numba kernels) is open to "
             "dynamo's tracing"),
    dict(name="edges2-ops-disabled-afresh-every-call", file=SRC,
         old="        if not disabled:\n            disabled.append(dynamo.disable(impl))\n        return disabled[0](*args)\n",
         new="        return dynamo.disable(impl)(*args)\n",
         tests=[UNTRACED],
         why="a new torch._dynamo.disable wrapper is built on every call of every op"),
    dict(name="edges2-import-loads-the-trainer", file="lnrnn/interop/torch.py",
         old="def from_run(path, device=None):\n",
         new="from lnrnn.api import load_run as _load_run  # noqa: E402,F401\n\n\ndef from_run(path, device=None):\n",
         tests=[LOADS],
         why="import lnrnn.torch pulls in lnrnn.api and with it the task registry and data readers"),
    # refusals the kernels would otherwise meet as raw errors
    dict(name="edges2-torch-no-steps-reach-the-kernels", file=SRC,
         old="        if T < 1 or B < 1:\n",
         new="        if B < 1:\n",
         tests=[REFUSED],
         why="x with T = 0 reaches the kernels, which fail with a raw IndexError"),
    dict(name="edges2-torch-projection-ignored", file=SRC,
         old="        if proj_size:\n",
         new="        if False:\n",
         tests=[REFUSED],
         why="nn.LSTM's proj_size is accepted and silently ignored: h_n is (L,B,H), not the projected size"),
    dict(name="edges2-stop-evaluation-unmarked", file="lnrnn/training/recorder.py",
         old="            if last is t.stop_eval:",
         new="            if False:",
         tests=["tests/training/test_edges.py::test_a_run_stopped_in_its_first_epoch_names_only_its_files_and_plot_says_why"],
         why="the summary prints the stop's own evaluation as if it were a row of metrics.jsonl, which holds none"),
]
