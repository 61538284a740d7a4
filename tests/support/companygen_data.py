"""The generated company's fixed lists: chart of accounts, names, transaction mix."""

from __future__ import annotations

# (full name, QuickBooks type code, account number, EXTRA, hidden)
CHART: tuple[tuple[str, str, str, str], ...] = (
    ("Checking", "BANK", "1000", ""),
    ("Savings", "BANK", "1010", ""),
    ("Barter Account", "BANK", "1030", ""),
    ("Accounts Receivable", "AR", "1200", ""),
    ("Inventory Asset", "OCASSET", "1300", "INVENTORYASSET"),
    ("Undeposited Funds", "OCASSET", "1400", "UNDEPOSIT"),
    ("Prepaid Insurance", "OCASSET", "1450", ""),
    ("Truck", "FIXASSET", "1500", ""),
    ("Truck:Original Purchase", "FIXASSET", "1510", ""),
    ("Truck:Accumulated Depreciation", "FIXASSET", "1520", ""),
    ("Furniture and Equipment", "FIXASSET", "1600", ""),
    ("Accounts Payable", "AP", "2000", ""),
    ("CalOil Card", "CCARD", "2100", ""),
    ("Payroll Liabilities", "OCLIAB", "2200", ""),
    ("Payroll Liabilities:Federal Withholding", "OCLIAB", "2210", ""),
    ("Payroll Liabilities:State Withholding", "OCLIAB", "2220", ""),
    ("Sales Tax Payable", "OCLIAB", "2300", "SALESTAX"),
    ("Bank Loan", "LTLIAB", "2700", ""),
    ("Opening Balance Equity", "EQUITY", "3000", "OPENBAL"),
    ("Owner's Equity", "EQUITY", "3100", ""),
    ("Owner's Equity:Owner's Draw", "EQUITY", "3110", ""),
    ("Retained Earnings", "EQUITY", "3900", "RETEARNINGS"),
    ("Design Income", "INC", "4000", ""),
    ("Landscaping Services", "INC", "4100", ""),
    ("Landscaping Services:Job Materials", "INC", "4110", ""),
    ("Landscaping Services:Labor", "INC", "4120", ""),
    ("Retail Sales", "INC", "4200", ""),
    ("Interest Income", "EXINC", "7000", ""),
    ("Other Income", "EXINC", "7100", ""),
    ("Cost of Goods Sold", "COGS", "5000", ""),
    ("Materials Purchased", "COGS", "5100", ""),
    ("Advertising", "EXP", "6000", ""),
    ("Automobile", "EXP", "6100", ""),
    ("Automobile:Fuel", "EXP", "6110", ""),
    ("Automobile:Repairs and Maintenance", "EXP", "6120", ""),
    ("Bank Service Charges", "EXP", "6200", ""),
    ("Depreciation Expense", "EXP", "6300", ""),
    ("Insurance", "EXP", "6400", ""),
    ("Insurance:Liability Insurance", "EXP", "6410", ""),
    ("Insurance:Work Comp", "EXP", "6420", ""),
    ("Office Supplies", "EXP", "6500", ""),
    ("Payroll Expenses", "EXP", "6560", ""),
    ("Rent", "EXP", "6600", ""),
    ("Repairs", "EXP", "6700", ""),
    ("Telephone", "EXP", "6800", ""),
    ("Utilities", "EXP", "6900", ""),
    ("Utilities:Gas", "EXP", "6910", ""),
    ("Utilities:Electric", "EXP", "6920", ""),
    ("Utilities:Water", "EXP", "6930", ""),
    ("Interest Expense", "EXEXP", "8000", ""),
    ("Other Expenses", "EXEXP", "8100", ""),
    ("Estimates", "NONPOSTING", "", ""),
)
HIDDEN = frozenset({"Barter Account"})
BALANCE_SHEET = frozenset(
    {"BANK", "AR", "OCASSET", "FIXASSET", "OASSET", "AP", "CCARD", "OCLIAB", "LTLIAB", "EQUITY"}
)
TYPE_WORDS = {
    "BANK": "Bank",
    "AR": "Accounts Receivable",
    "OCASSET": "Other Current Asset",
    "FIXASSET": "Fixed Asset",
    "AP": "Accounts Payable",
    "CCARD": "Credit Card",
    "OCLIAB": "Other Current Liability",
    "LTLIAB": "Long Term Liability",
    "EQUITY": "Equity",
    "INC": "Income",
    "EXINC": "Other Income",
    "COGS": "Cost of Goods Sold",
    "EXP": "Expense",
    "EXEXP": "Other Expense",
    "NONPOSTING": "Non-Posting",
}
CUSTOMERS = (
    "Adam's Candy Shop",
    "Andres, Cristina",
    "Balak, Mike",
    "Balak, Mike:330 Main St",
    "Cook, Brian",
    "Cook, Brian:Kitchen",
    "Cook, Brian:2nd story addition",
    "Café Olé",
    "Heldt, Bob",
    "Lew Plumbing",
    "Pretell Real Estate",
    "Pretell Real Estate:155 Wilks Blvd.",
    "Teschner, Anton",
)
VENDORS = (
    "Bayshore CalOil Service",
    "Bank of Anycity",
    "Great Statewide Bank",
    "Hopkins Construction Rentals",
    "Kershaw Computer Services",
    "Larson, Frank",
    "Middlefield Drywall",
    "PG&E",
    "Sloan Roofing",
    "State Fund",
)
# The bank accounts' numbers in the lists export (ACCNT BANKNUM): like the SSNs, never to reach a
# book, a page, a log or a stored copy.
BANK_NUMBERS = {"Checking": "440177882210", "Savings": "440177882298"}
EMPLOYEES = (
    ("Duncan Fisher", "900-12-3456"),
    ("Jenny Miller", "900-23-4567"),
    ("Gregg O. Schneider", "900-34-5678"),
)
OTHER_NAMES = ("ATM Withdrawal", "Owner, Pat")
TERMS = (
    ("Net 30", "0.0%", 30, 0),
    ("2% 10 Net 30", "2.0%", 30, 10),
    ("Due on receipt", "0.0%", 0, 0),
)
CLASSES = ("Design", "Landscaping", "Landscaping:Residential")
COMPANY_NAME = "Green Valley Landscaping, Inc."


INCOME = ("Design Income", "Landscaping Services:Job Materials", "Landscaping Services:Labor")
INCOME2 = ("Retail Sales", "Landscaping Services")
EXPENSES = (
    "Advertising",
    "Automobile:Repairs and Maintenance",
    "Insurance:Liability Insurance",
    "Insurance:Work Comp",
    "Office Supplies",
    "Rent",
    "Repairs",
    "Telephone",
    "Utilities:Gas",
    "Utilities:Electric",
    "Utilities:Water",
    "Materials Purchased",
    "Cost of Goods Sold",
    "Other Expenses",
)
# (type, weight)
KINDS = (
    ("Invoice", 24),
    ("Payment", 17),
    ("Deposit", 9),
    ("Bill", 14),
    ("Bill Pmt -Check", 10),
    ("Check", 10),
    ("Credit Card Charge", 7),
    ("Paycheck", 5),
    ("General Journal", 2),
    ("Transfer", 1),
    ("Void", 1),
)
