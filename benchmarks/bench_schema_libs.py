"""Would a schema library check the campaign format faster? msgspec vs pydantic v2 vs ours.

    .venv/bin/pip install msgspec pydantic   # not dependencies of BrikDesk
    .venv/bin/python benchmarks/bench_schema_libs.py

Writes the 200,000-unit file of ``bench_import.py`` once, then decodes it in a fresh process per
library into typed models (the armies and units typed in full with BrikDesk's limits, the rest
as plain objects) and prints the time, the peak memory (VmHWM) and the message for one bad
value (``battles_fought`` -1), to compare the error paths with BrikDesk's own
(``$.armies[0].units[2].battles_fought: must be from 0 to 1000000, not -1``).

Measured here (Python 3.11, 2 cores shared with other work): msgspec 0.22 1.0-1.5 s and
220-260 MB, message "Expected `int` >= 0 - at `$.armies[0].units[2].battles_fought`" (the same
JSON path as BrikDesk's); pydantic 2.14 4.3-4.4 s and 700 MB-1.1 GB; BrikDesk's own
parse_document + check_document 9.5 s and 500 MB, message "$.armies[0].units[2].battles_fought:
must be from 0 to 1000000, not -1".

Why BrikDesk keeps its own check although msgspec is faster: neither library gives the same
error paths for what a hostile file holds. Tried on small documents: ``{"version": NaN}`` is
"JSON is malformed: invalid character (byte 12)" in msgspec (no path) and an invalid-JSON error
in pydantic, which accepts ``Infinity`` inside an object; a key given twice is silently taken as
the last one by both (BrikDesk refuses it); a lone surrogate ``"\\ud800"`` is "Input data was
truncated" in msgspec and a line/column in pydantic (BrikDesk: the path and "a lone surrogate
U+D800"). Replacing the checker would need those cases caught before the library runs, which
costs the speed back.
"""

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any, Literal

STATUS = Literal["alive", "wounded", "dead", "retired"]
KEY = r"^[a-z0-9][a-z0-9_\-]*$"


def with_msgspec(data: bytes) -> tuple[float, str]:
    import msgspec
    from msgspec import Meta, Struct

    name_t = Annotated[str, Meta(min_length=1, max_length=100)]
    count_t = Annotated[int, Meta(ge=0, le=1_000_000)]
    key_t = Annotated[str, Meta(pattern=KEY)]

    class Overrides(Struct, forbid_unknown_fields=True):
        action_die: Annotated[int, Meta(ge=1, le=100)] | None = None
        move: Annotated[int, Meta(ge=0, le=100)] | None = None
        armor: str | None = None
        cost: Annotated[int, Meta(ge=0, le=999)] | None = None

    class Unit(Struct, forbid_unknown_fields=True):
        id: Annotated[int, Meta(ge=1)]
        name: name_t
        type: key_t
        overrides: Overrides
        hands: Annotated[list[key_t | None], Meta(max_length=12)]
        worn: Annotated[list[key_t], Meta(max_length=12)]
        carried: Annotated[list[key_t], Meta(max_length=12)]
        notes: Annotated[str, Meta(max_length=20000)]
        status: STATUS
        battles_fought: count_t
        kills: count_t

    class Army(Struct, forbid_unknown_fields=True):
        id: Annotated[int, Meta(ge=1)]
        player: int
        name: name_t
        budget: count_t | None
        units: list[Unit]

    class Doc(Struct):
        format: str
        version: int
        campaign: dict[str, Any]
        players: list[dict[str, Any]]
        armies: list[Army]
        catalog: dict[str, Any]
        battles: list[dict[str, Any]]
        generator: str = ""

    decoder = msgspec.json.Decoder(Doc)
    start = time.perf_counter()
    decoder.decode(data)
    took = time.perf_counter() - start
    try:
        decoder.decode(bad(data))
    except msgspec.ValidationError as exc:
        return took, str(exc)
    return took, "(not refused)"


def with_pydantic(data: bytes) -> tuple[float, str]:
    from pydantic import BaseModel, ConfigDict, Field, ValidationError

    name_t = Annotated[str, Field(min_length=1, max_length=100)]
    count_t = Annotated[int, Field(ge=0, le=1_000_000)]
    key_t = Annotated[str, Field(pattern=KEY)]

    class Strict(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)

    class Overrides(Strict):
        action_die: Annotated[int, Field(ge=1, le=100)] | None = None
        move: Annotated[int, Field(ge=0, le=100)] | None = None
        armor: str | None = None
        cost: Annotated[int, Field(ge=0, le=999)] | None = None

    class Unit(Strict):
        id: Annotated[int, Field(ge=1)]
        name: name_t
        type: key_t
        overrides: Overrides
        hands: Annotated[list[key_t | None], Field(max_length=12)]
        worn: Annotated[list[key_t], Field(max_length=12)]
        carried: Annotated[list[key_t], Field(max_length=12)]
        notes: Annotated[str, Field(max_length=20000)]
        status: STATUS
        battles_fought: count_t
        kills: count_t

    class Army(Strict):
        id: Annotated[int, Field(ge=1)]
        player: int
        name: name_t
        budget: count_t | None
        units: list[Unit]

    class Doc(BaseModel):
        format: str
        version: int
        campaign: dict[str, Any]
        players: list[dict[str, Any]]
        armies: list[Army]
        catalog: dict[str, Any]
        battles: list[dict[str, Any]]
        generator: str = ""

    start = time.perf_counter()
    Doc.model_validate_json(data)
    took = time.perf_counter() - start
    try:
        Doc.model_validate_json(bad(data))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first["loc"])
        return took, f"${where}: {first['msg']}"
    return took, "(not refused)"


def with_brikdesk(data: bytes) -> tuple[float, str]:
    from brikdesk.errors import UserError
    from brikdesk.services.transfer import TransferService, check_document, parse_document

    start = time.perf_counter()
    check_document(parse_document(data))
    took = time.perf_counter() - start
    try:
        TransferService.check(None, bad(data))  # type: ignore[arg-type]
    except UserError as exc:
        return took, str(exc)
    return took, "(not refused)"


def bad(data: bytes) -> bytes:
    return data.replace(b'"battles_fought": 1,', b'"battles_fought": -1,', 1)


def peak_mb() -> int:
    for line in Path("/proc/self/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
    return 0


def child(lib: str, path: str) -> None:
    data = Path(path).read_bytes()
    took, message = {"msgspec": with_msgspec, "pydantic": with_pydantic, "brikdesk": with_brikdesk}[
        lib
    ](data)
    print(f"{lib:<9} {took:6.2f} s  peak {peak_mb():5d} MB  {message[:100]}", flush=True)


def main() -> None:
    root = Path(__file__).resolve().parent
    sys.path[:0] = [str(root), str(root.parent)]
    from bench_import import largest_document
    from speed_rule import quick

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "largest.json"
        path.write_text(
            json.dumps(largest_document(Path(tmp), quick(200_000, 100)), ensure_ascii=False),
            encoding="utf-8",
        )
        for lib in ("msgspec", "pydantic", "brikdesk"):
            subprocess.run([sys.executable, __file__, lib, str(path)], check=False, cwd=root.parent)


if __name__ == "__main__":
    if len(sys.argv) == 3:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        child(sys.argv[1], sys.argv[2])
    else:
        main()
