"""Alembic environment for BrikDesk.

Normally run from ``brikdesk.persistence.db.open_database``, which passes its open connection in
``config.attributes["connection"]``. A developer can also run the alembic command line with
``-x url=sqlite:///some.sqlite3`` (or ``sqlalchemy.url`` in a config) to make a new revision:
``alembic -c <ini with script_location> revision --autogenerate -m "..."``.
SQLite needs batch mode (``render_as_batch``) to alter tables; constraint names come from the
models' naming convention, so batch operations can find them.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from brikdesk.persistence.models import Base

config = context.config
target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        transaction_per_migration=False,
    )


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise SystemExit("give a database: alembic -x url=sqlite:///file.sqlite3 ...")
    engine = create_engine(url)
    with engine.connect() as conn:
        _configure(conn)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


def run_migrations_offline() -> None:
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=bool(url and url.startswith("sqlite")),
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
