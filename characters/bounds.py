"""The range of every whole number from outside, and the sentence that refuses one beyond
it. Every API field that takes an integer declares its range, so that the schema says it
and nothing beyond reaches the database: the rules' range where they give one, else the
range of the column it is compared with or written to (`ID_*`, `VERSION_*`; the field
makers are `characters.serializers.id_field` and `version_field`). The JSON parser
(`config.api`) and the pages (`config.middleware`) refuse a number beyond 64 bits with the
same sentence.

Free of REST framework, so that the middleware can import it while DRF's settings name
`config.api`; in the lowest app, so that every app's API and `config` may.
"""

from django.utils.translation import gettext as _

API_INT_MIN = -(2**63)
API_INT_MAX = 2**63 - 1
# A row's number: `BigAutoField`, a 64-bit column counted from 1.
ID_MIN, ID_MAX = 1, API_INT_MAX
# A version counter: `PositiveIntegerField`, 0 to 2**31 - 1 on PostgreSQL.
VERSION_MIN, VERSION_MAX = 0, 2**31 - 1


def out_of_range_sentence(low: int = API_INT_MIN, high: int = API_INT_MAX) -> str:
    return _("A number is out of range: whole numbers lie between %(min)s and %(max)s.") % {
        "min": low,
        "max": high,
    }
