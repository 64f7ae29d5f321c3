"""Planted bugs, round 388 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the models (lnrnn/model/models.py), twentieth pass, planted before any test was written for them: the window layer's
own norm left out of WINDOW_KEYS (a synthesis network's config loses it, and build_model refuses it as unknown);
state_noise truncated to an integer; the counter of keyless updates starting at 1; a conditioned model run without
text saying it "reads" a given text; the text check of a stack run dropped (last_outputs of a model without a window
takes a text silently); a per-step head's inference count starting at 1; loss_sums and last_outputs checking lengths
against B steps and T rows; last_outputs running from zero states whatever state it is given; head_config making a
classifier of any objective but 'mse'; build_model taking a config without upgrading it; the synthesis network built
with K and C swapped. 12 mutants. Against the old targeted files alone (the 22 files tests/model/test_*models*.py,
with test_state_noise, test_eval_chunks and test_infer_path): 10 of 12 caught; missed: the refusal's word "writes"
and the dropped text check of a stack run. The new file test_values388_models catches both, and, measured alone, all
12: a synthesis network's config keeping K, C and window_norm, its window layer shaped by them and the model rebuilt
from that config the same; noise of 0.5 drawn by hand for a key and for the first two keyless updates (keys 0, 1);
the refusal of a missing text word for word, and of a given one by last_outputs, loss_sums and step; a per-step
classifier's inference sums, count and evaluated mean over ragged rows against log-softmax by hand; last_outputs and
last-step loss_sums of rows of lengths 5, 0 and 2 (T = 5, B = 3), from zero and from given states, against
reference.rnn_forward row by row; head_config refusing 'nll' word for word; an lnrnn 0.1 config built as a regression
model. Left out as equivalent: loss_sums' own text check dropped (on the CPU every path reaches the stack run's check
before anything runs); the 'stack.flat = None' after repacking dropped (nothing reads a stack's flat once it is in a
model). Left out as reaching only the CUDA paths: _fast_last, device_buffers, pull_params, _stats_on_device,
_set_device_views and loss_and_grad_on_device.

    python tests/mutants/run.py --only 'v388-*'
"""
MODELS = "lnrnn/model/models.py"
NEW = ["tests/model/test_values388_models.py"]

OLD = [
    "tests/model/test_models.py",
    "tests/model/test_values10_models.py",
    "tests/model/test_values129_models.py",
    "tests/model/test_values139_models_cuda.py",
    "tests/model/test_values163_models.py",
    "tests/model/test_values16_models.py",
    "tests/model/test_values193_models.py",
    "tests/model/test_values20_models.py",
    "tests/model/test_values20_models_cuda.py",
    "tests/model/test_values211_models.py",
    "tests/model/test_values231_models.py",
    "tests/model/test_values242_models.py",
    "tests/model/test_values257_models.py",
    "tests/model/test_values276_models.py",
    "tests/model/test_values297_models.py",
    "tests/model/test_values315_models.py",
    "tests/model/test_values341_models.py",
    "tests/model/test_values363_models.py",
    "tests/model/test_values37_models.py",
    "tests/model/test_values51_models.py",
    "tests/model/test_values73_models.py",
    "tests/model/test_values88_models.py",
    "tests/model/test_state_noise.py",
    "tests/model/test_eval_chunks.py",
    "tests/model/test_infer_path.py",
]

MUTANTS = [
    dict(name="v388-models-window-norm-not-in-config", file=MODELS,
         old='WINDOW_KEYS = ("window", "alphabet_size", "window_norm")',
         new='WINDOW_KEYS = ("window", "alphabet_size")',
         tests=NEW + OLD,
         why="a window layer's own norm left out of the model's config: the model rebuilt from it has another"),
    dict(name="v388-models-state-noise-truncated", file=MODELS,
         old="float(state_noise), int(noise_seed)",
         new="int(state_noise), int(noise_seed)",
         tests=NEW + OLD,
         why="state_noise truncated to an integer: 0.5 runs from zero states"),
    dict(name="v388-models-noise-counter-from-one", file=MODELS,
         old="        self._noise_calls = 0\n",
         new="        self._noise_calls = 1\n",
         tests=NEW + OLD,
         why="the counter of updates without a noise key starts at 1: the first update draws key 1's noise"),
    dict(name="v388-models-text-refusal-word", file=MODELS,
         old="this model writes a given text",
         new="this model reads a given text",
         tests=NEW + OLD,
         why="a conditioned model run without text says it reads a text, not that it writes one"),
    dict(name="v388-models-run-text-unchecked", file=MODELS,
         old='        self._text(text)\n        if getattr(stack, "device", "cpu") != "cuda":',
         new='        if getattr(stack, "device", "cpu") != "cuda":',
         tests=NEW + OLD,
         why="a stack run of a model without a window ignores a text given to it (last_outputs takes it)"),
    dict(name="v388-models-infer-count-from-one", file=MODELS,
         old="sums, count = dict.fromkeys(self.head.sum_keys, 0.0), 0",
         new="sums, count = dict.fromkeys(self.head.sum_keys, 0.0), 1",
         tests=NEW + OLD,
         why="a per-step head's inference count starts at 1: every evaluation mean divides by one unit too many"),
    dict(name="v388-models-loss-sums-lengths-t-b-swapped", file=MODELS,
         old="        lengths = check_lengths(lengths, T, B)\n        self._text(text)",
         new="        lengths = check_lengths(lengths, B, T)\n        self._text(text)",
         tests=NEW + OLD,
         why="loss_sums checks lengths against B steps and T rows"),
    dict(name="v388-models-last-outputs-lengths-t-b-swapped", file=MODELS,
         old="        lengths = check_lengths(lengths, T, B)\n        last =",
         new="        lengths = check_lengths(lengths, B, T)\n        last =",
         tests=NEW + OLD,
         why="last_outputs checks lengths against B steps and T rows"),
    dict(name="v388-models-last-outputs-state-dropped", file=MODELS,
         old="        for t0, t1, y in self._infer_chunks(x, state, lengths, text):\n            if h is None:",
         new="        for t0, t1, y in self._infer_chunks(x, None, lengths, text):\n            if h is None:",
         tests=NEW + OLD,
         why="last_outputs runs from zero states whatever state it is given (evaluation noise ignored)"),
    dict(name="v388-models-head-config-any-objective-ce", file=MODELS,
         old='    if objective == "ce":',
         new='    if objective != "mse":',
         tests=NEW + OLD,
         why="head_config makes a classifier of any objective but 'mse' instead of refusing it"),
    dict(name="v388-models-build-without-upgrade", file=MODELS,
         old="    cfg = upgrade_config(config)",
         new="    cfg = dict(config)",
         tests=NEW + OLD,
         why="build_model takes a config as it is: an lnrnn 0.1 one (no head, no state_noise) is not upgraded"),
    dict(name="v388-models-window-args-swapped", file=MODELS,
         old='alphabet_size=cfg["alphabet_size"], window=cfg["window"],',
         new='alphabet_size=cfg["window"], window=cfg["alphabet_size"],',
         tests=NEW + OLD,
         why="the synthesis network built with K Gaussians and C characters swapped"),
]
