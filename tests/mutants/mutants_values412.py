"""Planted bugs, round 412 (format: tests/mutants/mutants.py): single-line slips in the optimizers over flat or
named parameter arrays (lnrnn/training/optim.py), twentieth pass, planted before any test was written for them.

The planted bugs: the global gradient norm summed in the gradients' own float32 (its documented float64 sum loses a
small gradient's share beside a large one); plain SGD (momentum 0) keeping a momentum slot it never needs; a
state_dict of named (dict) parameters handing out the live slots, so a saved state moves with later steps; a loaded
state's learning rate ignored (the constructor's stays); loaded named slots that hold a name the parameters lack
accepted (only missing names refused). 5 mutants. The old targeted files alone (OLD) catch 5 of 5 (a norm of float32
gradients near float32's overflow, SGD's empty slots, a saved state compared after a later step, a loaded rate, a
slot of another name): no new test was needed, and each mutant runs OLD. Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v412-*'
"""
OPT = "lnrnn/training/optim.py"
OLD = [
    "tests/training/test_optim.py",
    "tests/training/test_values9_optim.py",
    "tests/training/test_values13_optim.py",
    "tests/training/test_values19_optim.py",
    "tests/training/test_values36_optim.py",
    "tests/training/test_values64_optim.py",
    "tests/training/test_values95_optim.py",
    "tests/training/test_values118_optim.py",
    "tests/training/test_values130_optim.py",
    "tests/training/test_values157_optim.py",
    "tests/training/test_values180_optim.py",
    "tests/training/test_values210_optim.py",
    "tests/training/test_values248_optim.py",
    "tests/training/test_values266_optim.py",
    "tests/training/test_values278_optim.py",
    "tests/training/test_values323_optim.py",
    "tests/training/test_values353_optim.py",
    "tests/training/test_values370_optim_checkpoint.py",
    "tests/training/test_values_optim.py",
]

MUTANTS = [
    dict(name="v412-norm-summed-in-float32", file=OPT,
         old="        flat = g.reshape(-1).astype(np.float64)",
         new="        flat = g.reshape(-1)",
         tests=OLD,
         why="the global norm of float32 gradients summed in float32: a small share lost beside a large one"),
    dict(name="v412-plain-sgd-keeps-a-slot", file=OPT,
         old='        rules(p).sgd_update(p, self._slot("momentum", name, p) if mu else None, g, self.lr, mu)',
         new='        rules(p).sgd_update(p, self._slot("momentum", name, p), g, self.lr, mu)',
         tests=OLD,
         why="SGD with momentum 0 allocates and saves a parameter-sized momentum slot it never needs"),
    dict(name="v412-state-dict-live-named-slots", file=OPT,
         old="                slots[s] = {k: _host(v) for k, v in d.items()}",
         new="                slots[s] = {k: v for k, v in d.items()}",
         tests=OLD,
         why="state_dict of named parameters returns the live slots: a saved state changes with later steps"),
    dict(name="v412-loaded-lr-ignored", file=OPT,
         old='        self.lr = float(hyper.pop("lr"))',
         new='        hyper.pop("lr")',
         tests=OLD,
         why="load_state_dict keeps the constructor's learning rate instead of the saved one"),
    dict(name="v412-extra-slot-names-accepted", file=OPT,
         old="                    missing = set(layout.names) ^ set(d)",
         new="                    missing = set(layout.names) - set(d)",
         tests=OLD,
         why="saved slots naming a parameter the model lacks are joined without a word (only missing names refused)"),
]
