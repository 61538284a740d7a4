"""GnuCash's own Check & Repair (``gncScrubBusinessAccountTree``, what File > Check & Repair All
runs for the business layer, after the account scrubs) on a book, in a process of its own:
``python -m tests.support.scrub BOOK`` prints, as JSON, what the book holds before and after
(every account's split count and balance, every A/R and A/P lot's title, splits, balance and
memos, every document's total, open amount and paid state). The scrubber is not wrapped in
SWIG: it is called through ctypes from the engine library the bindings loaded. A separate
process, since 4.13's scrubber can loop for ever on some lots (docs/DOCUMENTS.md, "Voided
transactions stay out of lots") and 5.10's crashed on links whose memo it rewrote: the caller
sets a timeout. The book is opened
read-write and ended without saving: the file is not changed."""

from __future__ import annotations

import ctypes
import json
import sys
from pathlib import Path

from app.gnc import bindings  # first: it sets the environment gnucash needs
from app.gnc.engine import PERCENTAGE_FUNC, _loaded


def snapshot(book) -> dict:
    from gnucash import Query
    from gnucash import gnucash_core_c as C

    from app.gnc.numeric import to_decimal

    accounts, lots = {}, {}
    for acc in book.get_root_account().get_descendants():
        name = acc.get_full_name()
        splits = C.xaccAccountGetSplitList(acc.get_instance())
        accounts[name] = [len(splits), str(to_decimal(acc.GetBalance()))]
        if acc.GetType() in (C.ACCT_TYPE_RECEIVABLE, C.ACCT_TYPE_PAYABLE):
            lots[name] = sorted(
                [
                    C.gnc_lot_get_title(lot) or "",
                    len(C.gnc_lot_get_split_list(lot)),
                    str(to_decimal(C.gnc_lot_get_balance(lot))),
                    sorted(C.xaccSplitGetMemo(s) or "" for s in C.gnc_lot_get_split_list(lot)),
                ]
                for lot in C.xaccAccountGetLotList(acc.get_instance())
            )
    query = Query()
    query.search_for("gncInvoice")
    query.set_book(book)
    documents = sorted(
        [
            C.gncInvoiceGetID(inv) or "",
            str(to_decimal(C.gncInvoiceGetTotal(inv))),
            bool(C.gncInvoiceIsPaid(inv)),
            str(to_decimal(C.gnc_lot_get_balance(lot)))
            if (lot := C.gncInvoiceGetPostedLot(inv))
            else "",
        ]
        for inv in query.run()
    )
    query.destroy()
    return {"accounts": accounts, "lots": lots, "documents": documents}


def main(path: Path) -> None:
    bindings.engine()
    from gnucash import Session, SessionOpenMode

    session = Session("xml://" + str(path.absolute()), SessionOpenMode.SESSION_NORMAL_OPEN)
    try:
        before = snapshot(session.book)
        lib = ctypes.CDLL(_loaded("libgnc-engine.so"))
        scrub = lib.gncScrubBusinessAccountTree
        scrub.restype = None
        scrub.argtypes = [ctypes.c_void_p, PERCENTAGE_FUNC]
        calls = []  # the scrubber reports its progress per account it walks
        progress = PERCENTAGE_FUNC(lambda message, percent: calls.append(percent))
        scrub(int(session.book.get_root_account().get_instance()), progress)
        after = snapshot(session.book)
    finally:
        session.end()  # not saved
    json.dump({"before": before, "after": after, "progress_calls": len(calls)}, sys.stdout)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
