"""Reading the PDFs BrikDesk writes, for the tests: pages, page size and text, with pypdf.

pypdf is pure Python (the ``test`` extra), so the checks run on a fresh machine; nothing
here needs poppler-utils. Text is normalised the way a reader would search it: Unicode NFKC
(ligatures such as "ﬁ" become "fi"), tabs and no-break spaces become spaces, runs of spaces
become one.
"""

from __future__ import annotations

import os
import re
import unicodedata

from pypdf import PdfReader

_SPACES = re.compile(r"[ \t\u00a0\u2007\u202f]+")

#: (width, height) in points, portrait, rounded to whole points.
PAPER_POINTS = {"a4": (595, 842), "letter": (612, 792)}


def reader(path: str | os.PathLike[str]) -> PdfReader:
    return PdfReader(str(path))


def pdf_pages(path: str | os.PathLike[str]) -> int:
    return len(reader(path).pages)


def pdf_page_size(path: str | os.PathLike[str], page: int = 1) -> tuple[int, int]:
    """The shown size of a 1-based page in whole points (width, height), rotation applied."""
    p = reader(path).pages[page - 1]
    box = p.mediabox
    w, h = float(box.width), float(box.height)
    if int(p.get("/Rotate", 0) or 0) % 180:
        w, h = h, w
    return round(w), round(h)


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return "\n".join(_SPACES.sub(" ", line).strip() for line in text.splitlines())


def pdf_text(path: str | os.PathLike[str], page: int | None = None) -> str:
    """The text of one 1-based page, or of every page (pages joined by a form feed)."""
    pages = reader(path).pages
    chosen = pages if page is None else [pages[page - 1]]
    return "\f".join(normalise(p.extract_text() or "") for p in chosen)
