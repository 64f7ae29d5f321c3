"""XML stroke files whose declaration names an encoding Python has no codec for (the parser raises LookupError, not
its ParseError): an IAM-OnDB line file read for lnrnn read or the IAM-OnDB task, and a KanjiVG SVG, each refused
in one sentence naming the file and the encoding; the encodings the files really use (ISO-8859-1, UTF-8) still read,
and a malformed file keeps its own sentence."""
import numpy as np
import pytest

from lnrnn.data import iamondb, kanjivg, stroke_files

from test_strokes_data import iam_xml
from test_values206_kanjivg import svg  # a KanjiVG file of the given path data, one <path> per stroke
from test_values170_stroke_files import refusal  # the text of the DataError a call raises

STROKES = [np.array([[10, 20], [30, 40], [50, 45]]), np.array([[60, 20], [70, 30]])]


def declaring(raw, encoding):
    head, rest = raw.split(b"?>", 1)
    assert b"encoding=" in head
    return b'<?xml version="1.0" encoding="' + encoding + b'"?>' + rest


@pytest.mark.parametrize("read", [iamondb.read_xml, stroke_files.read_lines])
def test_an_iam_line_of_an_unknown_encoding_is_one_sentence(tmp_path, read):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(declaring(iam_xml(STROKES), b"x-no-such-codec"))
    assert refusal(read, str(path)) == (f"{path} declares an XML encoding Python does not know (unknown encoding: "
                                        "x-no-such-codec).")


def test_an_iam_line_in_its_own_encoding_still_reads(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(iam_xml(STROKES))
    (line,) = stroke_files.read_lines(str(path))
    assert line.shape == (5, 3) and line[:, 2].tolist() == [0, 0, 1, 0, 1]


def test_a_kanjivg_file_of_an_unknown_encoding_is_one_sentence(tmp_path):
    path = tmp_path / "04e00.svg"
    path.write_bytes(declaring(svg(["M 20 20 L 80 20"]), b"x-no-such-codec"))
    assert refusal(kanjivg.read_design, str(path)) == (f"{path} declares an XML encoding Python does not know "
                                                       "(unknown encoding: x-no-such-codec).")
    path.write_bytes(svg(["M 20 20 L 80 20"]))
    assert len(kanjivg.read_design(str(path))) == 1


def test_a_malformed_kanjivg_file_keeps_its_sentence(tmp_path):
    path = tmp_path / "04e00.svg"
    path.write_bytes(svg(["M 20 20 L 80 20"]).replace(b"</svg>", b"</sv"))
    got = refusal(kanjivg.read_design, str(path))
    assert got.startswith(f"{path} is malformed or truncated XML (") and got.endswith(").")
