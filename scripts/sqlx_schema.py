#!/usr/bin/env python3
"""The database that sqlx's compile-checked queries are checked against.

Writes an empty SQLite database at the schema of the newest migration in
`migrations/`: each `vX.YY_*.sql` in version order, then its `.after.sql`
(the migrator's data steps in between add no schema). `make test` checks
that this is exactly the schema `tally migrate` makes, so the queries are
checked against the real thing; it is built from the SQL files alone so
that a query the offline data (`.sqlx/`) does not know yet can be prepared
before anything compiles.

    python3 scripts/sqlx_schema.py target/sqlx/schema.db
"""

import pathlib
import re
import sqlite3
import sys

MIGRATIONS = pathlib.Path(__file__).resolve().parent.parent / "migrations"
NAME = re.compile(r"^v(\d+)\.(\d+)_[a-z0-9_]+\.sql$")


def migrations():
    found = []
    for path in MIGRATIONS.iterdir():
        match = NAME.match(path.name)
        if match and not path.name.endswith((".down.sql", ".after.sql")):
            found.append(((int(match.group(1)), int(match.group(2))), path))
    return [path for _, path in sorted(found)]


def main(out):
    out = pathlib.Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    for leftover in (out, out.with_name(out.name + "-journal")):
        leftover.unlink(missing_ok=True)
    db = sqlite3.connect(out)
    # As the migrator does before the first migration.
    db.executescript(
        """CREATE TABLE IF NOT EXISTS schema_migrations (
                version     TEXT PRIMARY KEY,
                description TEXT NOT NULL,
                checksum    TEXT NOT NULL,
                applied_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            )"""
    )
    for path in migrations():
        db.executescript(path.read_text())
        after = path.with_name(path.name[: -len(".sql")] + ".after.sql")
        if after.exists():
            db.executescript(after.read_text())
    db.commit()
    db.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: sqlx_schema.py OUT.db")
    main(sys.argv[1])
