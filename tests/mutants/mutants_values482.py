"""Planted bugs, round 482 (format: tests/mutants/mutants.py): the real survivor of a seventy-first random sample
(tests/mutants/random_sample.py --seed 71 --count 40 --all-named, on 076db19: 38 of 40 caught) and its neighbours,
seventy-eighth pass.

Seed 71's 2 missed: 1 equivalent (rnd71-21: the threading-layer probe in lnrnn info summing from 1 for 0, a sum
whose value nothing reads), 1 real for the named files: a file of exactly 4 bytes, a whole magic number, refused as
too short to be an IDX file where its magic number says what is wrong (rnd71-20).

The planted bugs, in parse_idx's header checks: 4 bytes too short (rnd71-20), 3 bytes read on, a header of one empty
dimension called truncated, a header of 0 dimensions read on, the magic number compared on 3 bytes. 5 mutants. The
old files named after the module catch 4 of 5; the new file alone catches 5 of 5.

    python tests/mutants/run.py --only 'v482-*'
"""
IDX = "lnrnn/data/idx.py"
NEW = ["tests/data/test_values482_idx_edges.py"]
OLD_IDX = ["tests/data/test_values10_idx.py", "tests/data/test_values144_idx.py", "tests/data/test_values186_idx.py",
           "tests/data/test_values19_idx.py", "tests/data/test_values233_idx_gzip.py",
           "tests/data/test_values249_idx_taskdata.py", "tests/data/test_values280_idx_headers.py",
           "tests/data/test_values307_idx_hershey.py", "tests/data/test_values358_idx.py",
           "tests/data/test_values69_idx.py", "tests/data/test_values_idx.py"]
SHORT = "    if len(raw) < 4:\n"
HEADER = "    if len(raw) < header:\n"
NDIM = "    if zero != b\"\\x00\\x00\" or code not in _IDX_TYPES or ndim == 0:\n"
MAGIC = "int.from_bytes(raw[:4], \"big\") != magic:"


def _idx(name, old, new, why):
    return dict(name="v482-idx-" + name, file=IDX, old=old, new=new, tests=NEW + OLD_IDX, why=why)


MUTANTS = [
    _idx("four-too-short", SHORT, SHORT.replace("< 4", "<= 4"),
         "a 4-byte file, a whole magic number, refused as too short (rnd71-20)"),
    _idx("three-passes", SHORT, SHORT.replace("< 4", "< 3"), "a 3-byte file read on as if it held a magic number"),
    _idx("empty-truncated", HEADER, HEADER.replace("< header", "<= header"),
         "a header of one empty dimension refused as truncated"),
    _idx("zero-dims-on", NDIM, NDIM.replace(" or ndim == 0", ""),
         "a header of 0 dimensions read on and called truncated"),
    _idx("magic-three-bytes", MAGIC, MAGIC.replace("raw[:4]", "raw[:3]"),
         "the magic number compared on its first 3 bytes"),
]
