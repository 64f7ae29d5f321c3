"""KanjiVG files of older releases bind the kvg: prefix only in their document type declaration (a #FIXED
xmlns:kvg of <g> and <path>), which the reader cuts out unparsed: without a binding of its own the file was
refused as malformed XML (unbound prefix). The installed package's files bind it on <svg> as well; both
kinds must give the same strokes, and a file whose <svg> binds it is left as it is."""
import pytest

from lnrnn.data.kanjivg import stroke_paths
from lnrnn.errors import DataError

DTD = b"""<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.0//EN" "http://www.w3.org/TR/2001/REC-SVG-20010904/DTD/svg10.dtd" [
<!ATTLIST g
xmlns:kvg CDATA #FIXED "http://kanjivg.tagaini.net"
kvg:element CDATA #IMPLIED >
<!ATTLIST path
xmlns:kvg CDATA #FIXED "http://kanjivg.tagaini.net"
kvg:type CDATA #IMPLIED >
]>
"""
BODY = b"""<g id="kvg:StrokePaths_04e8c" style="fill:none;stroke:#000000;">
<g id="kvg:04e8c" kvg:element="X">
\t<path id="kvg:04e8c-s2" kvg:type="T" d="M10,70c20,1,60,1,85,0"/>
\t<path id="kvg:04e8c-s1" kvg:type="T" d="M25,30 L80,31"/>
</g>
</g>
</svg>
"""
OLD = b'<?xml version="1.0" encoding="UTF-8"?>\n' + DTD + b'<svg xmlns="http://www.w3.org/2000/svg" width="109" height="109">\n' + BODY
NEW = (b'<?xml version="1.0" encoding="UTF-8"?>\n' + DTD + b'<svg xmlns="http://www.w3.org/2000/svg" width="109" '
       b'height="109" xmlns:kvg="https://kanjivg.tagaini.net/">\n' + BODY)


def test_a_file_binding_kvg_only_in_its_declaration_reads_like_one_binding_it_on_svg():
    expected = ["M25,30 L80,31", "M10,70c20,1,60,1,85,0"]  # stroke order s1, s2, not the file's order
    assert stroke_paths(OLD, "04e8c.svg") == expected
    assert stroke_paths(NEW, "04e8c.svg") == expected


def test_the_binding_added_is_kanjivgs_namespace_on_the_root():
    import xml.etree.ElementTree as ET

    seen = []
    real = ET.fromstring
    ET.fromstring = lambda raw: seen.append(raw) or real(raw)    # reached through iamondb.parse_xml
    try:
        stroke_paths(OLD, "04e8c.svg")
        stroke_paths(NEW, "04e8c.svg")
    finally:
        ET.fromstring = real
    assert seen[0].count(b'xmlns:kvg="http://kanjivg.tagaini.net"') == 1
    assert b'<svg xmlns:kvg="http://kanjivg.tagaini.net" xmlns="http://www.w3.org/2000/svg"' in seen[0]
    assert seen[1].count(b"xmlns:kvg") == 1 and b"https://kanjivg.tagaini.net/" in seen[1]  # its own, kept


def test_entities_are_still_refused_before_any_binding():
    with pytest.raises(DataError, match="declares XML entities"):
        stroke_paths(OLD.replace(b"<!ATTLIST g", b'<!ENTITY x "y">\n<!ATTLIST g'), "04e8c.svg")
