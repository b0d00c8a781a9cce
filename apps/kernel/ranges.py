"""Range expressions shared by the models that declare a range constraint and the queries that use its index."""

from django.contrib.postgres.fields import DateTimeRangeField
from django.db.models import Func


class TsTzRange(Func):
    """`tstzrange(lower, upper, bounds)`: a timestamptz range built from two columns."""

    function = "TSTZRANGE"
    output_field = DateTimeRangeField()
