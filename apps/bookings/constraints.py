"""Database constraints the model declares that only PostgreSQL can enforce."""

from django.contrib.postgres.constraints import ExclusionConstraint
from django.db import connections

from apps.kernel.ranges import TsTzRange  # noqa: F401 - the migrations name it here


class PostgresOnlyExclusionConstraint(ExclusionConstraint):
    """An `ExclusionConstraint` that other databases skip.

    The embedded default (SQLite) has no exclusion constraints: there it creates, drops and checks nothing, and
    the service's row lock alone keeps the rule.
    """

    @staticmethod
    def _enforced_by(connection) -> bool:
        return connection.vendor == "postgresql"

    def constraint_sql(self, model, schema_editor):
        return super().constraint_sql(model, schema_editor) if self._enforced_by(schema_editor.connection) else None

    def create_sql(self, model, schema_editor):
        return super().create_sql(model, schema_editor) if self._enforced_by(schema_editor.connection) else None

    def remove_sql(self, model, schema_editor):
        return super().remove_sql(model, schema_editor) if self._enforced_by(schema_editor.connection) else None

    def validate(self, model, instance, exclude=None, using="default"):
        if self._enforced_by(connections[using]):
            super().validate(model, instance, exclude=exclude, using=using)
