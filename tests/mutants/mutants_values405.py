"""Planted bugs, round 405 (format: tests/mutants/mutants.py): single-line slips in the KanjiVG reader and task
(lnrnn/data/kanjivg.py), twentieth pass, planted before any test was written for them.

The planted bugs: a --data-dir that is a file ending in a NotADirectoryError traceback; a truncated SVG ending in a
ParseError traceback; path data whose numbers come before any command ending in an IndexError traceback; a writing
task described as every design in both splits; the missing-package refusal without its --data-dir alternative. 5
mutants. The old targeted files alone (the KanjiVG value files in OLD) catch 3 of 5; missed: a --data-dir that is a
file (a traceback), the missing-package refusal without --data-dir. test_values405_kanjivg checks each refusal as
one DataError sentence naming the input, the missing-package refusal for the install command, --data-dir with a
folder of SVG files and the licence, a task built from five latin designs and one kana drawing latin by default, and
the description of a writer's split (held out) and a reader's (every design in both). NEW + OLD catch 5 of 5; the
new file alone catches 5 of 5. Left out as equivalent: kanjivg.build's own charset default changed (load_task writes
the charset into every spec before build reads it).

    python tests/mutants/run.py --only 'v405-*'
"""
KANJIVG = "lnrnn/data/kanjivg.py"
NEW = ["tests/data/test_values405_kanjivg.py"]
OLD = [
    "tests/data/test_values12_kanjivg.py",
    "tests/data/test_values44_kanjivg.py",
    "tests/data/test_values59_kanjivg.py",
    "tests/data/test_values61_kanjivg_prefix.py",
    "tests/data/test_values81_kanjivg.py",
    "tests/data/test_values89_kanjivg.py",
    "tests/data/test_values111_kanjivg.py",
    "tests/data/test_values127_kanjivg.py",
    "tests/data/test_values144_kanjivg.py",
    "tests/data/test_values170_kanjivg.py",
    "tests/data/test_values206_kanjivg.py",
    "tests/data/test_values233_kanjivg_paths.py",
    "tests/data/test_values246_kanjivg_strokes.py",
    "tests/data/test_values265_kanjivg_files.py",
    "tests/data/test_values280_kanjivg_commands.py",
    "tests/data/test_values307_kanjivg_relative.py",
    "tests/data/test_values324_kanjivg_svg.py",
    "tests/data/test_values350_kanjivg_paths.py",
    "tests/data/test_values366_kanjivg_files.py",
    "tests/data/test_values_kanjivg.py",
]

MUTANTS = [
    dict(name="v405-folder-a-file-traceback", file=KANJIVG,
         old="    if not os.path.isdir(folder):",
         new="    if not os.path.exists(folder):",
         tests=NEW + OLD,
         why="--data-dir naming a file (one .svg, say) ends in a NotADirectoryError traceback"),
    dict(name="v405-truncated-svg-traceback", file="lnrnn/data/iamondb.py",  # kanjivg parses through parse_xml
         old="    except ET.ParseError as e:",
         new="    except ValueError as e:",
         tests=NEW + OLD,
         why="a truncated KanjiVG file ends in a ParseError traceback instead of naming the file"),
    dict(name="v405-numbers-before-command-traceback", file=KANJIVG,
         old="        elif not out:",
         new="        elif out is None:",
         tests=NEW + OLD,
         why="path data that starts with numbers (no command) ends in an IndexError traceback"),
    dict(name="v405-writing-split-described-as-reading", file=KANJIVG,
         old=('    split = ("every design in both splits, validation lines other combinations and augmentations"'
              ' if reading'),
         new=('    split = ("every design in both splits, validation lines other combinations and augmentations"'
              ' if not reading'),
         tests=NEW + OLD,
         why="a writing task's description says every design is in both splits; a reader's names held-out designs"),
    dict(name="v405-missing-package-without-folder-advice", file=KANJIVG,
         old='"or pass --data-dir with a folder of its SVG files."',
         new='"and try again."',
         tests=NEW + OLD,
         why="without the kanjivg package the refusal no longer says that --data-dir with a folder of SVGs works too"),
]
