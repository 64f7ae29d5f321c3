"""Planted bugs, round 415 (format: tests/mutants/mutants.py): XML stroke files that declare an encoding Python has
no codec for (lnrnn/data/iamondb.parse_xml, which lnrnn/data/kanjivg.stroke_paths now parses through), twentieth
pass.

Looking for further readers a damaged file could end in a traceback (after rounds 413 and 414) found a real bug:
ElementTree raises LookupError, not its ParseError, for an XML declaration naming an unknown encoding, so an
IAM-OnDB line (lnrnn read --input, the IAM-OnDB task) or a KanjiVG file declaring one ended in a traceback. The fix
catches it in parse_xml with its own sentence, and kanjivg parses through parse_xml instead of a second copy of the
same try. The planted bug: the clause catching UnicodeError (the class one might guess) instead of LookupError. 1
mutant. The old targeted files alone (the IAM-OnDB and KanjiVG files in OLD) catch 0 of 1.
test_values415_xml_encoding declares an unknown encoding in an IAM-OnDB line (read_xml and lnrnn read's read_lines)
and a KanjiVG file, each refused word for word, and checks that the files' own encodings still read and a malformed
file keeps its sentence. NEW + OLD catch 1 of 1; the new file alone catches 1 of 1 (its refusal tests fail on the
code before the fix).

    python tests/mutants/run.py --only 'v415-*'
"""
NEW = ["tests/data/test_values415_xml_encoding.py"]
OLD = [
    "tests/data/test_values59_iamondb.py",
    "tests/data/test_values81_iamondb.py",
    "tests/data/test_values403_iamondb.py",
    "tests/data/test_values59_kanjivg.py",
    "tests/data/test_values61_kanjivg_prefix.py",
    "tests/data/test_values405_kanjivg.py",
]

MUTANTS = [
    dict(name="v415-unknown-encoding-traceback", file="lnrnn/data/iamondb.py",
         old="    except LookupError as e:  # an encoding declaration that names no codec Python has",
         new="    except UnicodeError as e:  # an encoding declaration that names no codec Python has",
         tests=NEW + OLD,
         why="an IAM-OnDB line or KanjiVG file declaring an unknown encoding ends in a LookupError traceback"),
]
