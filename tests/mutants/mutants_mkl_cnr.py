"""Planted bugs in MKL's reproducibility mode (lnrnn/mkl.py, lnrnn/commands/info.py; format: tests/mutants/mutants.py):
the AUTO default dropped, the user's own MKL_CBWR overwritten, the mode read for the wrong selector, the branch
names shifted, info's hint shown for the wrong mode. tests/kernels/test_mkl_cnr_info.py reads the mode back from MKL
itself in fresh processes and `lnrnn info`'s line word for word.

    python tests/mutants/run.py --only 'cnr-*'
"""
MKL = "lnrnn/mkl.py"
INFO = "lnrnn/commands/info.py"
T = "tests/kernels/test_mkl_cnr_info.py"

MUTANTS = [
    dict(name="cnr-no-default", file=MKL,
         old='    os.environ.setdefault("MKL_CBWR", "AUTO")\n',
         new="",
         tests=[T],
         why="MKL runs with its reproducibility mode off: products may round by the arrays' alignment"),
    dict(name="cnr-overwrites-the-users-mode", file=MKL,
         old='    os.environ.setdefault("MKL_CBWR", "AUTO")\n',
         new='    os.environ["MKL_CBWR"] = "AUTO"\n',
         tests=[T],
         why="a user's MKL_CBWR (COMPATIBLE, a named branch, or empty for off) is replaced by AUTO"),
    dict(name="cnr-default-after-the-load", file=MKL,
         old='    os.environ.setdefault("MKL_THREADING_LAYER", "SEQUENTIAL")\n    os.environ.setdefault("MKL_CBWR", "AUTO")\n',
         new='    os.environ.setdefault("MKL_THREADING_LAYER", "SEQUENTIAL")\n',
         tests=[T],
         why="the default is never set (moved out of _load's path before the library loads)"),
    dict(name="cnr-reads-the-strict-selector", file=MKL,
         old="    branch = lib.MKL_CBWR_Get(ctypes.c_int(1))\n",
         new="    branch = lib.MKL_CBWR_Get(ctypes.c_int(0x10000))\n",
         tests=[T],
         why="cnr_mode asks MKL for the strict flag, not the branch: info names a wrong mode"),
    dict(name="cnr-names-shifted", file=MKL,
         old='CNR_BRANCHES = {1: "off", 2: "AUTO", 3: "COMPATIBLE"}',
         new='CNR_BRANCHES = {0: "off", 1: "AUTO", 2: "COMPATIBLE"}',
         tests=[T],
         why="the branch numbers are read one off: AUTO reported as COMPATIBLE, off as AUTO"),
    dict(name="cnr-hint-for-the-wrong-mode", file=INFO,
         old='            "" if cnr != "off" else ',
         new='            "" if cnr == "off" else ',
         tests=[T],
         why="info hides the hint where the mode is off and shows it where it is on"),
    dict(name="cnr-info-line-without-mkl", file=INFO,
         old="to AUTO) for the same bits on any thread count and MPI rank count\")] if cnr else []),",
         new="to AUTO) for the same bits on any thread count and MPI rank count\")] if cnr is not False else []),",
         tests=[T],
         why="info prints a reproducibility line (\"None\") where no MKL is loaded"),
]
