"""The wizard's test of a PostgreSQL address on the Map step (``app.web.mapping``): what a book
written there would do, or why it cannot, said before an import fails on it."""

from __future__ import annotations

from app.postgres import Address, holds_words, may_create, state


def connection_words(address: Address, password: str | None = None, ours: bool = False) -> str:
    """What an import to ``address`` would do, or why it cannot (``ours``: the book there is
    the one this migration wrote, which an import replaces). BookWriteError: said by the
    caller (the server cannot be reached, refuses the user)."""
    found = state(address, password)
    where, who, db = f"{address.host}:{address.port}", address.user, address.database
    right = f"give {who} that right (ALTER ROLE {who} CREATEDB), then test again."
    if found == "missing" and not may_create(address, password):
        return (
            f"Connected to {where} as {who}, but there is no database {db}, and {who} may not "
            f"create databases: create it for {who} (createdb -O {who} {db}), or {right}"
        )
    if found == "missing":
        return (
            f"Connected to {where} as {who}. There is no database {db} yet: the import creates it."
        )
    if found == "empty":
        return f"Connected: the database {db} is empty; the book goes there."
    if found == "book" and ours and not may_create(address, password):
        return (
            f"Connected: the database {db} holds the book this wizard wrote, but {who} may not "
            "create databases, and writing the book again writes it to a database of its own "
            f"before it takes the old one's place: {right}"
        )
    if found == "book" and ours:
        return (
            f"Connected: the database {db} holds the book this wizard wrote; writing the book "
            "again replaces it once the new one is checked."
        )
    words = holds_words(address, found)
    return f"Connected, but {words}: the import will not replace it. Choose another database."
