"""Great-circle distances, in Python and as a SQL expression, and the bounding box that lets the
`club_marketplace_geo` index (latitude, longitude of listed, active clubs) skip far-away clubs before any distance
is computed."""

import math

from django.db.models import F, FloatField, Q, Value
from django.db.models.functions import ASin, Cos, Least, Power, Radians, Sin, Sqrt

EARTH_RADIUS_KM = 6371.0088  # mean radius (IUGG)
KM_PER_DEGREE_LATITUDE = math.pi * EARTH_RADIUS_KM / 180


def distance_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Haversine distance in kilometres."""
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dphi, dlmb = phi2 - phi1, math.radians(lng2 - lng1)
    h = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlmb / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))


def distance_expression(lat: float, lng: float, lat_field="latitude", lng_field="longitude"):
    """The haversine distance in kilometres from (lat, lng) to each row's coordinates, in SQL."""
    phi = math.radians(lat)
    half_dphi = (Radians(F(lat_field)) - Value(phi)) / 2
    half_dlmb = (Radians(F(lng_field)) - Value(math.radians(lng))) / 2
    h = Power(Sin(half_dphi), 2) + Value(math.cos(phi)) * Cos(Radians(F(lat_field))) * Power(Sin(half_dlmb), 2)
    return Value(2 * EARTH_RADIUS_KM) * ASin(Least(Value(1.0), Sqrt(h)), output_field=FloatField())


def bounding_box(lat: float, lng: float, radius_km: float, lat_field="latitude", lng_field="longitude") -> Q:
    """Rows whose coordinates lie in a box containing every point within `radius_km` of (lat, lng): a superset
    (the corners are further away), so the distance is still checked. A box that reaches a pole takes every
    longitude; one that crosses the antimeridian is two longitude ranges."""
    dlat = radius_km / KM_PER_DEGREE_LATITUDE
    south, north = lat - dlat, lat + dlat
    q = Q(**{f"{lat_field}__gte": max(-90.0, south), f"{lat_field}__lte": min(90.0, north)})
    if south <= -90 or north >= 90:
        return q
    # The widest longitude span of the circle (at the latitude where it is widest, not at its centre).
    dlng = math.degrees(math.asin(min(1.0, math.sin(radius_km / EARTH_RADIUS_KM) / math.cos(math.radians(lat)))))
    if dlng >= 180:
        return q
    west, east = lng - dlng, lng + dlng
    if west < -180:
        return q & (Q(**{f"{lng_field}__gte": west + 360}) | Q(**{f"{lng_field}__lte": east}))
    if east > 180:
        return q & (Q(**{f"{lng_field}__gte": west}) | Q(**{f"{lng_field}__lte": east - 360}))
    return q & Q(**{f"{lng_field}__gte": west, f"{lng_field}__lte": east})
