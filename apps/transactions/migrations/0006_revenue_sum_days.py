"""The revenue report's sums per UTC day beside those per hour (docs/decisions/scale.md): a month of a year's
report reads about 30 day rows per key instead of 720 hour rows. `RevenueHour` becomes `RevenueSum` with the
length of its span (`hours`: 1 or 24), 0005's trigger function adds to both spans (it keeps its name), and the day
rows are summed from the hour rows. PostgreSQL only, like 0005. The renamed table stays locked by this migration
until it commits, so no write of the trigger slips between the function's replacement and the backfill.
"""

from importlib import import_module

from django.db import migrations, models

HOURLY = import_module("apps.transactions.migrations.0005_revenue_hour")  # its function, restored on the way back

# The same name and arguments as 0005's, so 0005's trigger now keeps both spans.
ADD_FUNCTION = """
CREATE OR REPLACE FUNCTION transactions_revenue_hour_add(
    org bigint, club bigint, account bigint, kind varchar, occurred timestamptz,
    d_count integer, d_amount numeric, d_tax numeric, d_refunded numeric
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    span smallint;
    bucket timestamptz;
    target bigint;
BEGIN
    FOREACH span IN ARRAY ARRAY[1, 24]::smallint[] LOOP
        bucket := date_trunc(CASE WHEN span = 1 THEN 'hour' ELSE 'day' END, occurred AT TIME ZONE 'UTC')
                  AT TIME ZONE 'UTC';
        SELECT id INTO target FROM transactions_revenuesum
         WHERE organization_id = org AND hours = span AND start = bucket AND type = kind
           AND club_id IS NOT DISTINCT FROM club AND revenue_account_id IS NOT DISTINCT FROM account
         LIMIT 1 FOR UPDATE SKIP LOCKED;
        IF target IS NULL THEN
            INSERT INTO transactions_revenuesum (organization_id, club_id, revenue_account_id, type, start, hours,
                                                 count, amount, tax_amount, refunded_amount)
            VALUES (org, club, account, kind, bucket, span, d_count, d_amount, d_tax, d_refunded);
        ELSE
            UPDATE transactions_revenuesum
               SET count = count + d_count, amount = amount + d_amount, tax_amount = tax_amount + d_tax,
                   refunded_amount = refunded_amount + d_refunded
             WHERE id = target;
            DELETE FROM transactions_revenuesum
             WHERE id = target AND count = 0 AND amount = 0 AND tax_amount = 0 AND refunded_amount = 0;
        END IF;
    END LOOP;
END $$;
"""

BACKFILL_DAYS = """
INSERT INTO transactions_revenuesum
    (organization_id, club_id, revenue_account_id, type, start, hours, count, amount, tax_amount, refunded_amount)
SELECT organization_id, club_id, revenue_account_id, type,
       date_trunc('day', start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', 24,
       SUM(count), SUM(amount), SUM(tax_amount), SUM(refunded_amount)
FROM transactions_revenuesum
WHERE hours = 1
GROUP BY 1, 2, 3, 4, 5
HAVING SUM(count) <> 0 OR SUM(amount) <> 0 OR SUM(tax_amount) <> 0 OR SUM(refunded_amount) <> 0
"""

DROP_DAYS = "DELETE FROM transactions_revenuesum WHERE hours <> 1"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(ADD_FUNCTION)
        schema_editor.execute(BACKFILL_DAYS)


def drop(apps, schema_editor):
    """Back to 0005's hourly rows and function (it names the table and column the reversed renames restore before
    anything writes)."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_DAYS)
        schema_editor.execute(HOURLY.ADD_FUNCTION)


class Migration(migrations.Migration):
    dependencies = [("transactions", "0005_revenue_hour")]

    operations = [
        migrations.RemoveIndex(model_name="revenuehour", name="revenue_hour_org_hour"),
        migrations.RenameModel("RevenueHour", "RevenueSum"),
        migrations.RenameField(model_name="revenuesum", old_name="hour", new_name="start"),
        migrations.AddField(
            model_name="revenuesum",
            name="hours",
            field=models.PositiveSmallIntegerField(default=1),
            preserve_default=False,
        ),
        migrations.AddIndex(
            model_name="revenuesum",
            index=models.Index(fields=["organization_id", "hours", "start"], name="revenue_sum_org_hours_start"),
        ),
        migrations.RunPython(create, drop),
    ]
