"""Area/court bookings, players, bookings list and channel integration. (Being built.)"""

urlpatterns = []
