"""Errors a user can cause, reported at the boundary in one sentence.

Library code (loaders, checkpoint reader, train loop) raises ``UserError`` or a subclass with a
message that is one sentence saying what went wrong and what to do. It does not depend on click:
``lnrnn.cli`` catches ``UserError`` and prints ``Error: <message>`` on stderr with ``exit_code``
(2 like click's own usage errors, 3 for a diverged run, 130 for an interrupted one), no traceback.
Anything else that escapes is a bug in lnrnn and keeps its traceback.
"""
import zipfile
import zlib

# What numpy.load and the members of an .npz raise for a file that is cut short or damaged, beside the
# ValueError of a bad header or pickled objects: OSError (a short read), EOFError, zipfile.BadZipFile (the zip
# structure, or a member's CRC) and zlib.error (a damaged member of numpy.savez_compressed's files, which
# lnrnn's own stroke files are). Every reader of NumPy files turns these into its one sentence.
DAMAGED_NUMPY_FILE = (OSError, EOFError, zipfile.BadZipFile, zlib.error)
# Characters of a damaged value (in a checkpoint.json, a log row) that a refusal quotes; lnrnn.sample.shortened
# cuts the middle of a longer one.
SHOWN = 40


def whole_number(v):
    """True for an int that is not true or false: the form of every size and count lnrnn writes into its JSON
    files (a bool is an int to Python, and a damaged size of true must not pass as 1)."""
    return isinstance(v, int) and not isinstance(v, bool)


def too_large(what, e):
    """The sentence for the MemoryError numpy raises when an array's header promises more than the memory free: a
    file written on a larger machine, or a damaged header (a few bytes can promise terabytes)."""
    return f"{what} holds an array too large for the memory free ({e}); if the file should be small, it is damaged."


class UserError(Exception):
    """Bad input or environment; the message is one sentence that says what to do."""

    exit_code = 2


class DataError(UserError):
    """A data set is missing, malformed or inconsistent."""


class CheckpointError(UserError):
    """A checkpoint is missing, corrupt, or belongs to another model."""


class TrainingDiverged(UserError):
    """The loss became NaN or infinite; the last good checkpoint is kept."""

    exit_code = 3


class TrainingInterrupted(UserError):
    """Ctrl-C during training; a checkpoint of the state reached was saved."""

    exit_code = 130
