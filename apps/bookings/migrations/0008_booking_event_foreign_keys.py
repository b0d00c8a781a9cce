"""`Booking.event_id` becomes a foreign key to `events.Event`, and an event booking names its ticket type.

Until the events app existed `event_id` was a bare integer that nothing wrote (no event could be booked), so the
column is dropped and recreated as a foreign key rather than converted: any value it held pointed at nothing.
"""

import django.db.models.deletion
from django.db import migrations, models


def forget_dangling_event_ids(apps, schema_editor):
    Booking = apps.get_model("bookings", "Booking")
    Booking.objects.filter(event_id__isnull=False).update(event_id=None)


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0007_booking_area_no_overlap_declared"),
        ("events", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(forget_dangling_event_ids, migrations.RunPython.noop),
        migrations.RemoveField(model_name="booking", name="event_id"),
        migrations.AddField(
            model_name="booking",
            name="event",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="bookings",
                to="events.event",
            ),
        ),
        migrations.AddField(
            model_name="booking",
            name="event_ticket",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="bookings",
                to="events.eventticket",
            ),
        ),
        migrations.AddIndex(
            model_name="booking",
            index=models.Index(fields=["event", "status"], name="bookings_bo_event_i_f8e449_idx"),
        ),
    ]
