"""The currencies a GnuCash book can be kept in: ISO 4217 codes as GnuCash's own commodity
table lists them (227 in 4.13 and 5.6, the same codes; checked against the running engine in
the tests). Here, not asked of the engine, so the wizard's web process never loads GnuCash to
check a code typed on the Map step."""

from __future__ import annotations

from app.words import quoted

KNOWN = frozenset(
    """
    ADF ADP AED AFA AFN ALL AMD ANG AOA AON AOR ARA ARS ATS AUD AWG AZM AZN BAD BAM BBD BDT
    BEF BGL BGN BHD BIF BMD BND BOB BOV BRE BRL BRR BSD BTN BWP BYB BYN BYR BZD CAD CDF CHE
    CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CYP CZK DEM DJF DKK DOP DZD ECS EEK EGP ERN
    ESP ETB EUR FIM FJD FKP FRF GBP GEL GHC GHS GIP GMD GNF GRD GTQ GWP GYD HKD HNL HRK HTG
    HUF IDR IEP ILS INR IQD IRR ISK ITL JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK
    LBP LKR LRD LSL LTL LUF LVL LYD MAD MDL MGA MGF MKD MLF MMK MNT MOP MRO MRU MTL MUR MVR
    MWK MXN MXV MYR MZM MZN NAD NGN NIC NIO NLG NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PTE
    PYG QAR ROL RON RSD RUB RWF SAR SBD SCR SDD SDG SDP SEK SGD SHP SIT SKK SLL SOS SRD SRG
    STD SVC SYP SZL THB TJR TJS TMM TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN USS UYI UYU
    UZS VEB VED VEF VES VND VUV WST XAF XAG XAU XCD XDR XFO XFU XOF XPD XPF XPT XSU XTS XXX
    YER YUM ZAR ZMK ZMW ZWD ZWL
    """.split()
)


def is_known(code: str) -> bool:
    """Whether GnuCash keeps books in ``code`` (case-sensitive, as its table is)."""
    return code in KNOWN


def unknown(code: str) -> str:
    """The message for a currency GnuCash does not know."""
    return f"unknown currency {quoted(code)}: GnuCash keeps books in ISO codes like USD, EUR or CAD"
