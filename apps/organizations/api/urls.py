from django.urls import path

from .views import MeView, OrganizationSettingsView

urlpatterns = [
    path("me", MeView.as_view(), name="me"),
    path("organization", OrganizationSettingsView.as_view(), name="organization-settings"),
]
