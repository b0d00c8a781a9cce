from django.db import models


class Place(models.Model):
    """A city of the gazetteer (GeoNames, population 15,000 and more): what a place name in a search points to."""

    id = models.IntegerField(primary_key=True, help_text="The GeoNames id.")
    rank = models.IntegerField(unique=True, help_text="0 for the most populous city, then by name and country.")
    name = models.CharField(max_length=200)
    country = models.CharField(max_length=2, help_text="ISO 3166 alpha-2.")
    latitude = models.FloatField()
    longitude = models.FloatField()
    population = models.BigIntegerField()


class PlaceName(models.Model):
    """One of a place's names (its own or an alternate), normalized (`gazetteer.normalize`); looked up by equality."""

    name = models.TextField(db_index=True)
    # Reference data written only by `gazetteer.load_places`, all at once: no constraint to check 300,000 times.
    place = models.ForeignKey(
        Place, on_delete=models.DO_NOTHING, related_name="names", db_index=False, db_constraint=False
    )
