"""Planted bugs, round 417 (format: tests/mutants/mutants.py): the memory estimate at the sizes a typo gives
(lnrnn/training/memory.py: the layers counted without a loop, the attention window's part and its refusal),
twentieth pass.

Writing this round's plan found two real bugs: lnrnn train --layers 2**70 hung in the estimate's loop over the
layers, and --window 2**70 passed the check (the window was not counted) and ended in a NumPy allocation traceback
while its model was built. The planted bugs: the first layer counted twice; bp left out of the window's parameters;
kappa left out of its activations; the window's part left out of the counted parts; a one-Gaussian window not counted; the
refusal advising --hidden or --layers for the window. 6 mutants. The old targeted memory and plan files alone (OLD)
catch 1 of 6 (the first layer counted twice); missed: every window bug (no old file counts a window) and the
one-Gaussian window. test_values417_memory_extremes holds the estimate affine in the layers up to 2**70 (under an
alarm, so a loop fails rather than hangs), the parameters part to a built stack's at 1 and 3 layers, the window's
part to the built model's Wp and bp at K 4 and 1 with p and kappa per step, the other parts unchanged by it, and the
refusal's words; lnrnn train gives one Error line for each. NEW + OLD catch 6 of 6; the new file alone catches 6 of
6 (its first version missed the first layer counted twice and the one-Gaussian window; the built-stack test and K 1
were added for them). Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v417-*'
"""
NEW = ["tests/training/test_values417_memory_extremes.py"]
OLD = [
    "tests/training/test_values_memory.py",
    "tests/training/test_values36_memory.py",
    "tests/training/test_values218_memory.py",
    "tests/training/test_values410_memory.py",
    "tests/training/test_plan.py",
]
MEMORY = "lnrnn/training/memory.py"

MUTANTS = [
    dict(name="v417-first-layer-counted-twice", file=MEMORY,
         old="    params += D * (first + (L - 1) * later)", new="    params += D * (first + L * later)",
         tests=NEW + OLD,
         why="every stack is counted one deeper layer larger than it is"),
    dict(name="v417-window-bias-left-out", file=MEMORY,
         old="3 * K * (H + 1) * (3 + slots(cfg.optimizer))", new="3 * K * H * (3 + slots(cfg.optimizer))",
         tests=NEW + OLD,
         why="the window's bias bp (3K) is left out of its parameters"),
    dict(name="v417-window-kappa-left-out", file=MEMORY,
         old="(Tc * B * 4 * K if on_host else 0)", new="(Tc * B * 3 * K if on_host else 0)",
         tests=NEW + OLD,
         why="the window's activations count p (3K) and leave kappa (K) out"),
    dict(name="v417-window-not-in-the-peak", file=MEMORY,
         old='for k, v in parts.items() if k != min(', new='for k, v in parts.items() if k != "window" and k != min(',
         tests=NEW + OLD,
         why="the window is estimated but not counted: --window 2**70 ends in an allocation traceback again"),
    dict(name="v417-one-gaussian-not-counted", file=MEMORY,
         old="    if K > 0:\n        parts[\"window\"]", new="    if K > 1:\n        parts[\"window\"]",
         tests=NEW + OLD,
         why="a window of one Gaussian has no part"),
    dict(name="v417-window-hint-names-the-cells", file=MEMORY,
         old='"window": ("the attention window", "a smaller --window"),',
         new='"window": ("the attention window", "a smaller --hidden or --layers"),',
         tests=NEW + OLD,
         why="a window that does not fit is blamed on --hidden or --layers"),
]
