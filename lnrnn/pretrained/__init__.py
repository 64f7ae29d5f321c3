"""Trained runs shipped with the package, read wherever a run folder is: ``pretrained:NAME``.

    lnrnn sample --checkpoint pretrained:hershey --text "hello world" --bias 2 --out hello.png
    run = lnrnn.load_run("pretrained:hershey")

Each NAME is a folder here holding one checkpoint (``lnrnn.training.checkpoint``: checkpoint.json and its
arrays file, model arrays only: a run's best/) and a README.md that says what it is, how well it does,
the command that trained it, and the credit and licence its training data ask for.
"""
import os

from lnrnn.errors import CheckpointError

PREFIX = "pretrained:"
HERE = os.path.dirname(os.path.abspath(__file__))


def names():
    """The shipped runs' names, sorted."""
    return sorted(n for n in os.listdir(HERE) if os.path.isfile(os.path.join(HERE, n, "checkpoint.json")))


def resolve(path):
    """'pretrained:NAME' -> that run's folder here (CheckpointError naming the shipped ones for an unknown
    NAME); any other path as it is."""
    path = os.fspath(path)
    if not (isinstance(path, str) and path.startswith(PREFIX)):
        return path
    name = path[len(PREFIX):]
    if name not in names():
        raise CheckpointError(f"no pretrained run {name!r}; the package ships: {', '.join(names()) or 'none'}.")
    return os.path.join(HERE, name)
