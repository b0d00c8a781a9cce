"""The flush after a transactional test (tests/conftest.py, `flush_by_deleting`): every table is empty afterwards
but the reference tables, which keep their rows; a trigger's writes during the flush are emptied too."""

from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from apps.transactions.models import RevenueSum, Transaction
from tests.conftest import REFERENCE_TABLES


def row_counts() -> dict[str, int]:
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(f"SELECT '{table}', count(*) FROM \"{table}\"" for table in tables))
        return dict(cursor.fetchall())


@pytest.mark.django_db(transaction=True)
def test_the_flush_empties_every_table_but_the_reference_tables(organization, api, club):
    now = timezone.now()
    Transaction.objects.create(
        organization=organization,
        type="external_revenue",
        source_type="external",
        description="Fees",
        amount=Decimal("10"),
        paid_amount=Decimal("10"),
        payment_status="paid",
        occurred_at=now,
        paid_at=now,
    )
    assert RevenueSum.objects.exists()  # the trigger's row, which deleting the transaction writes again
    # as TransactionTestCase does after each test
    call_command("flush", verbosity=0, interactive=False, reset_sequences=False, inhibit_post_migrate=False)
    counts = row_counts()
    assert REFERENCE_TABLES <= set(counts)
    assert {table for table, count in counts.items() if count} == REFERENCE_TABLES
