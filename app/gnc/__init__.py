"""The GnuCash side: write a final ledger into a book, read a book back, adopt the business
documents onto a written book.

Importing this package imports ``gnucash`` (in ``app.gnc.bindings``, the only module that does).
Code outside ``app.gnc`` uses only the names below (``from app import gnc``), and imports it
lazily, inside the function that writes or reads, so the core and the web server load without
GnuCash. The submodules are the package's own business (tests may poke them).
"""

from app.book import BookDocument, BookDocuments
from app.gnc.bindings import is_known_currency
from app.gnc.context import Written
from app.gnc.documents import write_documents
from app.gnc.engine import engine_version
from app.gnc.extras import ExtrasWritten
from app.gnc.extras import write as write_extras
from app.gnc.lots import read_documents
from app.gnc.plain_save import compressed_after, plain
from app.gnc.session import read_book, write_book, write_book_apart
from app.gnc.tax import write_documents as write_documents_with_tax
from app.gnc.tax import write_sales_tax
from app.gnc.update import Updated, update_book

__all__ = [
    "BookDocument",
    "BookDocuments",
    "ExtrasWritten",
    "Updated",
    "Written",
    "compressed_after",
    "engine_version",
    "is_known_currency",
    "plain",
    "read_book",
    "read_documents",
    "update_book",
    "write_book",
    "write_book_apart",
    "write_documents",
    "write_documents_with_tax",
    "write_extras",
    "write_sales_tax",
]
