"""Planted bugs in the compiled CTC prefix beam search (lnrnn/model/beam.py), each caught by
tests/model/test_beam.py, which holds the kernel against decode.prefix_beam_search and against label
probabilities counted over every path (format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'beam-*'
"""

BEAM = "tests/model/test_beam.py"
FILE = "lnrnn/model/beam.py"

MUTANTS = [
    dict(name="beam-repeat-extends-from-every-path", file=FILE,
         old="                e = (bval[1, j] if c == last else tot) + lp[c]\n",
         new="                e = tot + lp[c]\n",
         tests=[BEAM],
         why="a prefix's own last label read again extends it from its label-ending paths too: 'aa' without a blank"),
    dict(name="beam-routes-meet-by-max", file=FILE,
         old="                    nbl = _logaddexp(nbl, e)\n",
         new="                    nbl = max(nbl, e)\n",
         tests=[BEAM],
         why="where a kept prefix is also its kept parent's extension, the larger route is kept, not the sum"),
    dict(name="beam-blank-keeps-only-blank-paths", file=FILE,
         old="            b = bval[0, k] + blank\n",
         new="            b = bval[1, k] + blank\n",
         tests=[BEAM],
         why="a blank continues only the paths that already ended in a blank: the label-ending mass is lost"),
    dict(name="beam-heap-sifts-to-the-larger-child", file=FILE,
         old="        if k + 1 < W and heap[0, k + 1] < heap[0, k]:\n",
         new="        if k + 1 < W and heap[0, k + 1] > heap[0, k]:\n",
         tests=[BEAM],
         why="the heap's root stops being its worst: a better candidate is evicted while a worse one stays"),
    dict(name="beam-rebuilt-prefix-gets-a-new-node", file=FILE,
         old="                n = child[p]\n",
         new="                n = -1\n",
         tests=[BEAM],
         why="a prefix dropped and reached again gets a second node: its kept child is not seen as its extension"),
    dict(name="beam-tie-at-the-cut-keeps-the-later-label", file=FILE,
         old="            if _order(p, lab, keys[0, w], keys[1, w], tree) < 0:\n",
         new="            if _order(p, lab, keys[0, w], keys[1, w], tree) > 0:\n",
         tests=[BEAM],
         why="a candidate tying the worst kept replaces it only if its labels come later, against the spec's order"),
]
