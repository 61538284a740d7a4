"""qb2gnucash: `run.py` starts the wizard; `run.py convert FILE... -o BOOK` converts;
`run.py convert-many DIR|manifest.csv -o OUTDIR` converts many companies."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    if argv[:1] == ["convert"]:
        from app.cli import main as convert

        return convert(argv[1:])
    if argv[:1] == ["convert-many"]:
        from app.cli_many import main as convert_many

        return convert_many(argv[1:])
    from app.server import main as serve

    return serve(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
