"""The one module of the project that imports ``gnucash``; every other module of ``app.gnc``
takes the bindings from here, and nothing outside ``app.gnc`` imports them at all.

Importing it keeps GnuCash's preferences in memory and silences the SWIG import warning;
``engine()`` applies the process-wide engine settings once (docs/ENGINE.md, "Process-global
state"): ":" separator, no transaction journal, no backup files.
"""

from __future__ import annotations

import functools
import logging
import os
import warnings

# GnuCash 5.x's bindings write GSettings when imported: on a desktop that would change the
# user's own GnuCash preferences, elsewhere dconf prints a warning on stderr (seen on Debian 13,
# 5.10). An in-memory backend keeps every preference GnuCash touches inside this process.
os.environ["GSETTINGS_BACKEND"] = "memory"

with warnings.catch_warnings():
    # Bindings built with SWIG < 4.4 warn on Python >= 3.12 at import ("builtin type
    # SwigPyPacked has no __module__ attribute"); harmless, and fatal under -W error.
    warnings.filterwarnings("ignore", r"builtin type \w+ has no __module__", DeprecationWarning)
    from gnucash import (
        GncNumeric,
        GnuCashBackendException,
        Query,
        Session,
        SessionOpenMode,
        _sw_core_utils,
    )
    from gnucash import gnucash_core_c as C
    from gnucash.gnucash_business import Address as GncAddress
    from gnucash.gnucash_business import BillTerm as GncBillTerm
    from gnucash.gnucash_business import Customer as GncCustomer
    from gnucash.gnucash_business import Employee as GncEmployee
    from gnucash.gnucash_business import Job as GncJob
    from gnucash.gnucash_business import Vendor as GncVendor
    from gnucash.gnucash_core import Account as GncAccount

from app.gnc.detacher import refusal
from app.gnc.engine import Engine

__all__ = [
    "C",
    "GncAccount",
    "GncAddress",
    "GncBillTerm",
    "GncCustomer",
    "GncEmployee",
    "GncJob",
    "GncNumeric",
    "GncVendor",
    "GnuCashBackendException",
    "Query",
    "Session",
    "SessionOpenMode",
    "engine",
    "is_known_currency",
]

log = logging.getLogger(__name__)


@functools.cache
def engine() -> Engine:
    """Process-global engine settings, applied once per process (the package's only state,
    cached because it cannot be undone): ":" separator, no journal, no backup files. What
    this engine cannot do (another GnuCash version) is logged here, once."""
    C.gnc_set_account_separator(":")
    retention = getattr(_sw_core_utils, "gnc_prefs_set_file_retention_policy", None)
    if retention is not None:
        retention(0)
    eng = Engine()
    if not eng.log_disable():
        log.warning("GnuCash %s: no xaccLogDisable; a .log journal may be left", eng.name)
    if retention is None:
        log.warning("GnuCash %s: no file-retention setting; backups may be kept", eng.name)
    if why := refusal(eng):
        log.info("split-list detacher off (plain public-API path): %s", why)
    if not hasattr(C, "gnc_account_set_defer_bal_computation"):
        log.info("GnuCash %s: no deferred balances (slower, same book)", eng.name)
    if eng.missing:
        log.info("GnuCash %s does not export %s", eng.name, ", ".join(eng.missing))
    return eng


def is_known_currency(code: str) -> bool:
    """True when GnuCash's commodity table knows ``code`` as a currency (case-sensitive)."""
    engine()
    session = Session()  # in memory: no backend, nothing on disk
    try:
        return session.book.get_table().lookup("CURRENCY", code) is not None
    finally:
        session.end()
