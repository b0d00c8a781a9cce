"""Portable query expressions: PostgreSQL in production and tests, SQLite in the embedded default."""

from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection
from django.db.models import F, Func, JSONField, OuterRef, Subquery


def related_ids(through_queryset, parent_field: str, id_field: str):
    """The ids of a many-to-many's other side, per outer row, as a list (sorted on PostgreSQL; sort on use).

    PostgreSQL: `ARRAY(SELECT id ... ORDER BY id)`. SQLite: `json_group_array(id)` decoded by JSONField.
    """
    related = through_queryset.filter(**{parent_field: OuterRef("pk")})
    if connection.vendor == "postgresql":
        return ArraySubquery(related.order_by(id_field).values(id_field))
    grouped = (
        related.order_by()
        .values(parent_field)
        .annotate(ids=Func(F(id_field), function="json_group_array", output_field=JSONField()))
        .values("ids")
    )
    return Subquery(grouped, output_field=JSONField())
