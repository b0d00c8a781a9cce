"""Routes of the marketplace pages (under the path of `MARKETPLACE_URL`) and of the instructors' private feeds."""

from django.urls import path

from . import views

marketplace_urlpatterns = [
    path("clubs/<str:slug>/classes.ics", views.club_classes_ics, name="marketplace-club-classes-ics"),
    path("clubs/<str:slug>", views.club_page, name="marketplace-club-page"),
]

feed_urlpatterns = [
    path("instructors/<str:token>.ics", views.instructor_calendar, name="instructor-calendar-feed"),
]
