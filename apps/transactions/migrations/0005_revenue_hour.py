"""The revenue report's hourly sums (`RevenueHour`, docs/decisions/scale.md): the table, the trigger that keeps
it exact on every write of a transaction, and the sums of the transactions already there. PostgreSQL only: the
embedded SQLite default has no trigger here and its report reads the transactions.

The trigger subtracts a row's old contribution and adds its new one (`void` contributes nothing), on the hour
`date_trunc` gives in UTC whatever the session's time zone. It adds to a row of the key that no other open
transaction holds (`FOR UPDATE SKIP LOCKED`) and appends a row when every one is held, so two sales of one club
in one hour never wait on each other; a row back at zero is deleted. Updates that change none of the summed
columns (payments, invoices, descriptions) do not fire it. Creating the trigger locks the transactions against
writes until this migration commits, so the backfill misses none and counts none twice.
"""

from django.db import migrations, models

ADD_FUNCTION = """
CREATE OR REPLACE FUNCTION transactions_revenue_hour_add(
    org bigint, club bigint, account bigint, kind varchar, occurred timestamptz,
    d_count integer, d_amount numeric, d_tax numeric, d_refunded numeric
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    bucket timestamptz := date_trunc('hour', occurred AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    target bigint;
BEGIN
    SELECT id INTO target FROM transactions_revenuehour
     WHERE organization_id = org AND hour = bucket AND type = kind
       AND club_id IS NOT DISTINCT FROM club AND revenue_account_id IS NOT DISTINCT FROM account
     LIMIT 1 FOR UPDATE SKIP LOCKED;
    IF target IS NULL THEN
        INSERT INTO transactions_revenuehour
            (organization_id, club_id, revenue_account_id, type, hour, count, amount, tax_amount, refunded_amount)
        VALUES (org, club, account, kind, bucket, d_count, d_amount, d_tax, d_refunded);
    ELSE
        UPDATE transactions_revenuehour
           SET count = count + d_count, amount = amount + d_amount, tax_amount = tax_amount + d_tax,
               refunded_amount = refunded_amount + d_refunded
         WHERE id = target;
        DELETE FROM transactions_revenuehour
         WHERE id = target AND count = 0 AND amount = 0 AND tax_amount = 0 AND refunded_amount = 0;
    END IF;
END $$;
"""

TRACK = """
CREATE OR REPLACE FUNCTION transactions_revenue_hour_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.payment_status <> 'void' THEN
        PERFORM transactions_revenue_hour_add(
            OLD.organization_id, OLD.club_id, OLD.revenue_account_id, OLD.type, OLD.occurred_at,
            -1, -OLD.amount, -OLD.tax_amount, -OLD.refunded_amount);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.payment_status <> 'void' THEN
        PERFORM transactions_revenue_hour_add(
            NEW.organization_id, NEW.club_id, NEW.revenue_account_id, NEW.type, NEW.occurred_at,
            1, NEW.amount, NEW.tax_amount, NEW.refunded_amount);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER transactions_revenue_hour_on_write
    AFTER INSERT OR DELETE ON transactions_transaction
    FOR EACH ROW EXECUTE FUNCTION transactions_revenue_hour_track();

CREATE TRIGGER transactions_revenue_hour_on_update
    AFTER UPDATE ON transactions_transaction
    FOR EACH ROW
    WHEN ((OLD.organization_id, OLD.club_id, OLD.revenue_account_id, OLD.type, OLD.occurred_at, OLD.amount,
           OLD.tax_amount, OLD.refunded_amount, OLD.payment_status = 'void')
          IS DISTINCT FROM
          (NEW.organization_id, NEW.club_id, NEW.revenue_account_id, NEW.type, NEW.occurred_at, NEW.amount,
           NEW.tax_amount, NEW.refunded_amount, NEW.payment_status = 'void'))
    EXECUTE FUNCTION transactions_revenue_hour_track();
"""

BACKFILL = """
INSERT INTO transactions_revenuehour
    (organization_id, club_id, revenue_account_id, type, hour, count, amount, tax_amount, refunded_amount)
SELECT organization_id, club_id, revenue_account_id, type,
       date_trunc('hour', occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
       COUNT(*), SUM(amount), SUM(tax_amount), SUM(refunded_amount)
FROM transactions_transaction
WHERE payment_status <> 'void'
GROUP BY 1, 2, 3, 4, 5
"""

DROP = """
DROP TRIGGER IF EXISTS transactions_revenue_hour_on_update ON transactions_transaction;
DROP TRIGGER IF EXISTS transactions_revenue_hour_on_write ON transactions_transaction;
DROP FUNCTION IF EXISTS transactions_revenue_hour_track();
DROP FUNCTION IF EXISTS transactions_revenue_hour_add(bigint, bigint, bigint, varchar, timestamptz, integer, numeric,
                                                      numeric, numeric);
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(ADD_FUNCTION)
        schema_editor.execute(TRACK)
        schema_editor.execute(BACKFILL)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("transactions", "0004_membership_in_memberships")]

    operations = [
        migrations.CreateModel(
            name="RevenueHour",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("organization_id", models.BigIntegerField()),
                ("club_id", models.BigIntegerField(null=True)),
                ("revenue_account_id", models.BigIntegerField(null=True)),
                (
                    "type",
                    models.CharField(
                        choices=[
                            ("charge", "Charge"),
                            ("external_revenue", "Revenue collected outside the service"),
                            ("refund", "Refund"),
                        ],
                        max_length=20,
                    ),
                ),
                ("hour", models.DateTimeField()),
                ("count", models.IntegerField()),
                ("amount", models.DecimalField(decimal_places=3, max_digits=20)),
                ("tax_amount", models.DecimalField(decimal_places=3, max_digits=20)),
                ("refunded_amount", models.DecimalField(decimal_places=3, max_digits=20)),
            ],
            options={
                "indexes": [models.Index(fields=["organization_id", "hour"], name="revenue_hour_org_hour")],
            },
        ),
        migrations.RunPython(create, drop),
    ]
