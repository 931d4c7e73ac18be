"""The range of every whole number from outside, and the sentence that refuses one beyond
it: read by the API (`config.api`) and the pages (`config.middleware`), and free of REST
framework so that the middleware can import it while DRF's settings name `config.api`."""

from django.utils.translation import gettext as _

API_INT_MIN = -(2**63)
API_INT_MAX = 2**63 - 1


def out_of_range_sentence() -> str:
    return _("A number is out of range: whole numbers lie between %(min)s and %(max)s.") % {
        "min": API_INT_MIN,
        "max": API_INT_MAX,
    }
