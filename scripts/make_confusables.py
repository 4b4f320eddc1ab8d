"""Make ``resources/confusables.json`` from Unicode's ``confusables.txt`` (Unicode Technical
Standard #39, Unicode Security Mechanisms: the data behind the confusable "skeleton").

    python scripts/make_confusables.py path/to/confusables.txt

The input is the file as Unicode publishes it (https://www.unicode.org/Public/security/
<version>/confusables.txt); its lines are ``source ; target ; MA # comment``, with code
points in hexadecimal. The output maps each source character to its prototype (one or more
characters) and records the input's version and date, which ``brikdesk.confusables`` reports.
Run it again with a newer ``confusables.txt`` to update BrikDesk's copy.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "confusables.json"


def chars(field: str) -> str:
    return "".join(chr(int(h, 16)) for h in field.split())


def convert(text: str) -> dict[str, object]:
    version = re.search(r"^#\s*Version:\s*(\S+)", text, re.M)
    date = re.search(r"^#\s*Date:\s*([^,\n]+)", text, re.M)
    mapping: dict[str, str] = {}
    for line in text.lstrip("\ufeff").splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        fields = [f.strip() for f in data.split(";")]
        source, target = chars(fields[0]), chars(fields[1])
        if len(source) != 1:
            raise ValueError(f"a source of more than one character: {line!r}")
        mapping[source] = target
    return {
        "source": "Unicode confusables.txt (UTS #39, Unicode Security Mechanisms)",
        "version": version.group(1) if version else None,
        "date": date.group(1).strip() if date else None,
        "prototypes": dict(sorted(mapping.items())),
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    doc = convert(Path(argv[0]).read_text(encoding="utf-8"))
    OUT.write_text(json.dumps(doc, ensure_ascii=True, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {len(doc['prototypes'])} prototypes (version {doc['version']}) to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
