"""Where things are, for a test in any folder under tests/: ROOT, the repository; TESTS, the folder of the
shared helpers and child scripts (gradcheck_util.py, repro_child.py, cache_probe.py, ...)."""
import os

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS)
