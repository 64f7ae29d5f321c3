"""Planted bugs, round 61 (format: tests/mutants/mutants.py): the kvg: prefix of older KanjiVG files, bound only in
the document type declaration that the reader cuts out (kanjivg.stroke_paths binds it on <svg> in its place):
the binding never added, added where the file has its own (a duplicate attribute), or made to another namespace.

3 mutants, each caught by tests/data/test_values61_kanjivg_prefix.py (a file of the older kind and one of the
installed package's kind give the same strokes; the parsed bytes bind KanjiVG's namespace once, on the root).

    python tests/mutants/run.py --only 'v61-*'
"""
KVG = "lnrnn/data/kanjivg.py"
NEW = ["tests/data/test_values61_kanjivg_prefix.py"]

MUTANTS = [
    dict(name="v61-kvg-prefix-never-bound", file=KVG,
         old='    if b"xmlns:kvg" not in raw:  # the prefix',
         new='    if False:  # the prefix',
         tests=NEW,
         why="a KanjiVG file of an older release is refused as malformed XML (unbound prefix kvg)"),
    dict(name="v61-kvg-prefix-bound-twice", file=KVG,
         old='    if b"xmlns:kvg" not in raw:  # the prefix',
         new='    if b"xmlns:kvg" in raw:  # the prefix',
         tests=NEW,
         why="a file binding kvg: on <svg> gets a second xmlns:kvg (malformed), one binding it nowhere none"),
    dict(name="v61-kvg-prefix-other-namespace", file=KVG,
         old='_KVG_NS = b"http://kanjivg.tagaini.net"\n',
         new='_KVG_NS = b"http://www.w3.org/2000/svg"\n',
         tests=NEW,
         why="the kvg: attributes are put in SVG's namespace, not KanjiVG's"),
]
