"""Planted bugs in the runs shipped with the package (lnrnn/pretrained/__init__.py and where a checkpoint
is read), each caught by tests/commands/test_pretrained.py (format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'pretrained-*'
"""

TEST = "tests/commands/test_pretrained.py"
PRE = "lnrnn/pretrained/__init__.py"

MUTANTS = [
    dict(name="pretrained-not-resolved-where-checkpoints-are-read", file="lnrnn/training/checkpoint.py",
         old="    path = str(resolve(path))\n",
         new="    path = str(path)\n",
         tests=[TEST],
         why="pretrained:NAME is taken for a folder of that name: no command finds the shipped runs"),
    dict(name="pretrained-unknown-name-goes-through", file=PRE,
         old="    if name not in names():\n",
         new="    if not name:\n",
         tests=[TEST],
         why="an unknown or escaping name becomes a path inside the package, then a confusing missing-file error"),
    dict(name="pretrained-names-lists-every-entry", file=PRE,
         old='    return sorted(n for n in os.listdir(HERE) if os.path.isfile(os.path.join(HERE, n, "checkpoint.json")))\n',
         new="    return sorted(os.listdir(HERE))\n",
         tests=[TEST],
         why="the refusal names __init__.py and __pycache__ as runs"),
    dict(name="pretrained-prefix-kept-in-the-path", file=PRE,
         old="    name = path[len(PREFIX):]\n",
         new="    name = path[len(PREFIX) - 1:]\n",
         tests=[TEST],
         why="every shipped name is read with the colon: none is found"),
    dict(name="pretrained-init-from-looks-for-a-folder", file="lnrnn/training/finetune.py",
         old="        where = resolve(path)                  # pretrained:NAME: a run shipped with the package\n",
         new="        where = path\n",
         tests=[TEST],
         why="--init-from pretrained:NAME says there is nothing there"),
]
