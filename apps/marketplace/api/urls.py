from django.urls import path, re_path

from . import views

urlpatterns = [
    path("search/clubs", views.ClubSearchView.as_view(), name="marketplace-search-clubs"),
    path("network/clubs/<str:slug>", views.ClubProfileView.as_view(), name="marketplace-club"),
    path("network/search/offers", views.OfferSearchView.as_view(), name="marketplace-search-offers"),
    re_path(r"^.*$", views.not_found),
]
