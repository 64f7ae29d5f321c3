"""``lnrnn.rundir`` is ``lnrnn.training.rundir``: this name is kept for code written before the move (the same
module object, so its attributes, monkeypatching included, are the module's own)."""
import sys

from lnrnn.training import rundir as _module

sys.modules[__name__] = _module
